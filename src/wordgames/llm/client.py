"""Requests to an OpenAI-compatible server (chat and embeddings), through ``openai``, cached.

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


def server_url(base_url: str | None, what: str) -> str:
    """The server's root: ``base_url``, else ``$OPENAI_BASE_URL``; an error naming ``what``.

    >>> server_url("http://127.0.0.1:8080/v1/", "chat:m")
    'http://127.0.0.1:8080/v1'
    """
    import os

    url = base_url or os.environ.get("OPENAI_BASE_URL")
    if not url:
        raise WordgamesError(
            f"{what}: no server: give --base-url (Python: base_url=) or set OPENAI_BASE_URL"
        )
    return url.rstrip("/")


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
        api = self._openai()  # first: without the llm extra, an error that says which extra
        import openai

        try:
            ids = [m.id for m in api.models.list()]
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

    def _chat_request(self, messages, prompt_version, decoding) -> tuple[str, dict, str]:
        """``(reported model, request, cache key)`` of a chat request."""
        model = self.check()
        request = {"messages": messages, **decoding}
        return model, request, request_key(model, request, prompt_version)

    def cached_chat(self, messages: list[dict], *, prompt_version: str, **decoding) -> str | None:
        """The cached reply to this request (counted as a hit), or ``None``: nothing is sent."""
        hit = self._cached(self._chat_request(messages, prompt_version, decoding)[2])
        return None if hit is None else hit["text"]

    def chat(self, messages: list[dict], *, prompt_version: str, **decoding) -> tuple[str, bool]:
        """The model's reply to ``messages`` and whether it came from the cache."""
        model, request, key = self._chat_request(messages, prompt_version, decoding)
        hit = self._cached(key)
        if hit is not None:
            return hit["text"], True
        reply = self._send(lambda api: api.chat.completions.create(model=self.model, **request))
        text = reply.choices[0].message.content or ""
        tin, tout = self._count_tokens(reply)
        self.cache.put(key, model, request, {"text": text}, tin, tout)
        return text, False

    def embed(self, words: list[str], batch_size: int = 256) -> list[list[float]]:
        """One vector per word (``/v1/embeddings``), each cached by the model and the word.

        The words not in the cache are sent ``batch_size`` to a request; a server that sends
        one vector per token (llama.cpp's, which does not pool) gets their mean.
        """
        model = self.check()
        keys = [request_key(model, {"embedding_of": w}, "embed-1") for w in words]
        vectors: list = [None] * len(words)
        todo = []
        for i, key in enumerate(keys):
            hit = self._cached(key)
            if hit is None:
                todo.append(i)
            else:
                vectors[i] = hit["vector"]
        for lo in range(0, len(todo), batch_size):
            part = todo[lo : lo + batch_size]
            texts = [words[i] for i in part]
            reply = self._send(
                lambda api, t=texts: api.embeddings.create(model=self.model, input=t)
            )
            data = sorted(reply.data, key=lambda d: d.index)
            if len(data) != len(part):
                raise ServerError(
                    f"the model server at {self.base_url} sent {len(data)} vectors for "
                    f"{len(part)} words"
                )
            tin, _ = self._count_tokens(reply)
            for i, d in zip(part, data, strict=True):
                vectors[i] = _pooled(d.embedding)
                self.cache.put(keys[i], model, {"embedding_of": words[i]}, {"vector": vectors[i]},
                               0, 0)  # fmt: skip
        return vectors

    def _cached(self, key: str) -> dict | None:
        """The cached response of ``key`` (counted as a hit), or None."""
        hit = self.cache.get(key)
        if hit is not None:
            with self._lock:
                self.usage.cache_hits += 1
        return hit

    def _count_tokens(self, reply) -> tuple[int, int]:
        tin = getattr(reply.usage, "prompt_tokens", 0) or 0
        tout = getattr(reply.usage, "completion_tokens", 0) or 0
        with self._lock:
            self.usage.tokens_in += tin
            self.usage.tokens_out += tout
        return tin, tout

    def _send(self, call):
        """``call(openai client)``: one request, counted and capped; errors name the server."""
        api = self._openai()
        import openai

        with self._lock:
            if self.max_requests is not None and self.usage.requests >= self.max_requests:
                raise RequestBudgetSpent(
                    f"{self.max_requests} request(s) sent to {self.base_url}: the cap "
                    "(--max-requests) is reached; what was done is stored"
                )
            self.usage.requests += 1
        try:
            return call(api)
        except openai.APIStatusError as exc:  # after the client's own retries
            raise ServerError(
                f"the model server at {self.base_url} answered {exc.status_code} ({exc.message})"
            ) from None
        except openai.APIConnectionError as exc:
            raise ServerError(f"lost the model server at {self.base_url} ({exc})") from None


def _pooled(embedding) -> list[float]:
    """One vector: a server without pooling (llama.cpp's) sends one per token: their mean.

    >>> _pooled([1.0, 2.0]), _pooled([[1.0, 2.0], [3.0, 4.0]])
    ([1.0, 2.0], [2.0, 3.0])
    """
    import numpy as np

    arr = np.asarray(embedding, dtype=np.float64)
    if arr.ndim == 2:
        arr = arr.mean(axis=0)
    if arr.ndim != 1:
        raise ServerError(f"an embedding of shape {arr.shape}: expected a vector")
    return arr.tolist()
