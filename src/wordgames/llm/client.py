"""Requests to an OpenAI-compatible server, through the ``openai`` package, with the cache.

Retries with exponential back-off on 429, 5xx and dropped connections, and the timeout, are the
``openai`` client's own (``max_retries``, ``timeout``): the ecosystem's well-kept HTTP layer,
not ours. What is ours: the server is checked once before any work (:meth:`ChatClient.check`:
reachable, and the model is one it serves, or an error naming the URL), every response goes
through the :class:`~wordgames.llm.cache.ResponseCache`, the number of requests can be capped
(``max_requests``: then :class:`RequestBudgetSpent`, a skip, and what is done is stored), and the
usage (requests, tokens in and out, cache hits) is counted.
"""

from __future__ import annotations

import threading
from dataclasses import asdict, dataclass

from wordgames.errors import SkipMeasure, WordgamesError
from wordgames.llm.cache import ResponseCache, request_key


class RequestBudgetSpent(SkipMeasure):
    """``max_requests`` requests were sent: the unit stops (what is done is stored)."""


class ServerError(WordgamesError):
    """The model server cannot be reached, refuses the key, or does not serve the model."""


@dataclass
class Usage:
    """What a subject's requests cost so far."""

    requests: int = 0
    cache_hits: int = 0
    tokens_in: int = 0
    tokens_out: int = 0

    def as_dict(self) -> dict:
        return asdict(self)

    def minus(self, other: Usage) -> dict:
        """The usage since ``other`` (a snapshot), as a dict."""
        return {k: v - getattr(other, k) for k, v in asdict(self).items()}


class ChatClient:
    """One model on one server: checked, cached, counted, capped.

    Parameters
    ----------
    model : str
        The model's name on the server.
    base_url : str
        The server's OpenAI-compatible root (``http://127.0.0.1:8080/v1``).
    api_key : str
        The key (read from the environment by the caller; never stored or written).
    timeout : float
        Seconds before a request is given up (then retried).
    max_retries : int
        Retries of a request on 429, 5xx, timeouts and dropped connections, with back-off.
    max_requests : int or None
        Requests this client may send (cache hits are free); None: no cap.
    cache : ResponseCache or None
        Default: the shared cache under ``$WORDGAMES_CACHE``.
    """

    def __init__(
        self,
        model: str,
        base_url: str,
        api_key: str,
        *,
        timeout: float = 60.0,
        max_retries: int = 4,
        max_requests: int | None = None,
        cache: ResponseCache | None = None,
    ):
        self.model, self.base_url = model, base_url
        self._api_key = api_key
        self.timeout, self.max_retries, self.max_requests = timeout, max_retries, max_requests
        self.cache = cache if cache is not None else ResponseCache()
        self.usage = Usage()
        self.reported_model: str | None = None
        self._client = None
        self._lock = threading.Lock()

    def _openai(self):
        if self._client is None:
            from wordgames.errors import require

            openai = require("openai", "llm", "a chat: subject")
            self._client = openai.OpenAI(
                base_url=self.base_url,
                api_key=self._api_key,
                timeout=self.timeout,
                max_retries=self.max_retries,
            )
        return self._client

    def check(self) -> str:
        """Reach the server and find the model (before any work); returns the reported model id."""
        if self.reported_model is not None:
            return self.reported_model
        import openai

        try:
            ids = [m.id for m in self._openai().models.list()]
        except openai.AuthenticationError as exc:
            raise ServerError(
                f"the model server at {self.base_url} refused the key ({exc})"
            ) from None
        except (openai.APIConnectionError, openai.APIStatusError) as exc:
            raise ServerError(f"cannot reach the model server at {self.base_url} ({exc})") from None
        match = [i for i in ids if i == self.model or i.rsplit("/", 1)[-1] == self.model]
        if not match:
            raise ServerError(
                f"the model server at {self.base_url} has no model {self.model!r}; it serves: "
                + (", ".join(ids) or "nothing")
            )
        self.reported_model = match[0]
        return self.reported_model

    def chat(self, messages: list[dict], *, prompt_version: str, **decoding) -> tuple[str, bool]:
        """The model's reply to ``messages`` and whether it came from the cache."""
        model = self.check()
        request = {"messages": messages, **decoding}
        key = request_key(model, request, prompt_version)
        hit = self.cache.get(key)
        if hit is not None:
            with self._lock:
                self.usage.cache_hits += 1
            return hit["text"], True
        with self._lock:
            if self.max_requests is not None and self.usage.requests >= self.max_requests:
                raise RequestBudgetSpent(
                    f"{self.max_requests} request(s) sent to {self.base_url}: the cap "
                    "(--max-requests) is reached; what was done is stored"
                )
            self.usage.requests += 1
        reply = self._send(request)
        text = reply.choices[0].message.content or ""
        tin = getattr(reply.usage, "prompt_tokens", 0) or 0
        tout = getattr(reply.usage, "completion_tokens", 0) or 0
        with self._lock:
            self.usage.tokens_in += tin
            self.usage.tokens_out += tout
        self.cache.put(key, model, request, {"text": text}, tin, tout)
        return text, False

    def _send(self, request: dict):
        import openai

        try:
            return self._openai().chat.completions.create(model=self.model, **request)
        except openai.APIStatusError as exc:  # after the client's own retries
            raise ServerError(
                f"the model server at {self.base_url} answered {exc.status_code} ({exc.message})"
            ) from None
        except openai.APIConnectionError as exc:
            raise ServerError(f"lost the model server at {self.base_url} ({exc})") from None
