"""Requests to an OpenAI-compatible server (chat and embeddings), through ``openai``, cached.

Retries with exponential back-off on 429, 5xx and dropped connections, and the timeout, are the
``openai`` client's own (``max_retries``, ``timeout``): the ecosystem's well-kept HTTP layer,
not ours. What is ours: the server is checked once before any work (:meth:`ChatClient.check`:
reachable, and the model is one it serves, or an error naming the URL), every response goes
through the :class:`~wordgames.llm.cache.ResponseCache`, the number of requests can be capped
(``max_requests``: then :class:`RequestBudgetSpent`, a skip, and what is done is stored), and the
usage (requests, tokens in and out, cache hits) is counted.

What a misbehaving server cannot do (``tests/llm/test_misbehaving_server.py``): get the key
written or printed (every text it sends is redacted, :mod:`wordgames.redact`); get an error
answer cached (an empty or null answer, a vector that is not finite, a malformed answer are
never kept); give a traceback (every malformed answer is a :class:`ServerError` naming the
URL); hold a request past ``timeout`` seconds or fill memory (each answer ends by a deadline
and is read up to a cap: :mod:`wordgames.llm.http`).
"""

from __future__ import annotations

import json
import threading
from dataclasses import asdict, dataclass

from wordgames.errors import SkipMeasure, WordgamesError
from wordgames.llm.cache import ResponseCache, request_key
from wordgames.redact import redact, remember_secret


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
    #: requests that probed what the server can do (structured output), not the games'
    probes: int = 0
    #: answers the response cache could not keep (read-only, a full disk): asked again next run
    not_kept: int = 0
    #: requests that failed after every retry (the server refused, timed out or went away)
    failed: int = 0
    #: answers a game could not read even after its re-prompts (:mod:`wordgames.reading`)
    unreadable: int = 0

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
        Seconds an answer may take, first byte to last (a deadline, then retried).
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
        remember_secret(api_key)  # redacted from every message and answer from now on
        self.timeout, self.max_retries, self.max_requests = timeout, max_retries, max_requests
        self.cache = cache if cache is not None else ResponseCache()
        self.usage = Usage()
        self.reported_model: str | None = None
        self._client = None
        self._logprob_problem: str | None = None
        self._lock = threading.Lock()

    def _openai(self):
        if self._client is None:
            from wordgames.errors import require

            openai = require("openai", "llm", "a chat: subject")
            from wordgames.llm.http import bounded_client

            self._client = openai.OpenAI(
                base_url=self.base_url,
                api_key=self._api_key,
                timeout=self.timeout,
                max_retries=self.max_retries,
                http_client=bounded_client(self.timeout),
            )
        return self._client

    def check(self) -> str:
        """Reach the server and find the model (before any work); returns the reported model id."""
        if self.reported_model is not None:
            return self.reported_model
        api = self._openai()  # first: without the llm extra, an error that says which extra
        import openai

        try:
            ids = [redact(str(m.id)) for m in api.models.list()]
        except openai.AuthenticationError as exc:
            raise ServerError(
                f"the model server at {self.base_url} refused the key ({exc})"
            ) from None
        except (openai.APIConnectionError, openai.APIStatusError) as exc:
            raise ServerError(f"cannot reach the model server at {self.base_url} ({exc})") from None
        except (ValueError, TypeError, AttributeError) as exc:  # JSON, or no list of models
            raise ServerError(
                f"the model server at {self.base_url} sent a model list that is not JSON "
                f"with a list of models ({type(exc).__name__}: {exc})"
            ) from None
        match = [i for i in ids if i == self.model or i.rsplit("/", 1)[-1] == self.model]
        if not match:
            raise ServerError(
                f"the model server at {self.base_url} has no model {self.model!r}; it serves: "
                + (", ".join(ids) or "nothing")
            )
        self.reported_model = match[0]
        return self.reported_model

    def _key(self, request: dict, prompt_version: str, **key_extra) -> tuple[str, str]:
        """``(reported model, cache key)`` of ``request`` (and what else decides its answer)."""
        model = self.check()
        return model, request_key(model, {**request, **key_extra}, prompt_version, self.base_url)

    def _cached_request(self, create, request: dict, parse, prompt_version: str, *,
                        keep=None, **key_extra):  # fmt: skip
        """``(what is kept of the reply, whether it came from the cache)`` for one request.

        ``create(api)`` is the openai method that sends ``request``; ``parse(reply)`` the
        JSON-ready part of its reply that the cache keeps (written as soon as it arrives;
        a reply without it is a :class:`ServerError`); ``keep(kept)``: whether it may be kept
        (an empty answer is not: a server in trouble sends them; it is asked again next time).
        """
        model, key = self._key(request, prompt_version, **key_extra)
        hit = self._cached(key)
        if hit is not None:
            return hit, True
        reply = self._send(lambda api: create(api)(model=self.model, **request))
        try:
            kept = parse(reply)
        except (AttributeError, IndexError, KeyError, TypeError) as exc:
            raise ServerError(
                f"the model server at {self.base_url} sent an answer without the expected "
                f"fields ({type(exc).__name__}: {exc})"
            ) from None
        tokens = self._count_tokens(reply)
        if keep is None or keep(kept):
            self._keep(key, model, request, kept, *tokens, server=self.base_url)
        return kept, False

    def cached_chat(self, messages: list[dict], *, prompt_version: str, **decoding) -> str | None:
        """The cached reply to this request (counted as a hit), or ``None``: nothing is sent."""
        hit = self._cached(self._key({"messages": messages, **decoding}, prompt_version)[1])
        return None if hit is None else hit["text"]

    def chat(self, messages: list[dict], *, prompt_version: str, **decoding) -> tuple[str, bool]:
        """The model's reply to ``messages`` and whether it came from the cache."""
        kept, cached = self._cached_request(
            lambda api: api.chat.completions.create,
            {"messages": messages, **decoding},
            lambda reply: {
                "text": redact(_first_choice(reply, self.base_url).message.content or "")
            },  # fmt: skip
            prompt_version,
            keep=lambda kept: bool(kept["text"]),  # a null or empty answer is not kept
        )
        return kept["text"], cached

    def structured_flavour(self, *, cached_only: bool = False) -> str | None:
        """The ``response_format`` flavour this server honours (a JSON schema), or ``None``.

        Each flavour of :data:`~wordgames.llm.structured.FLAVOURS` is tried with one probe
        question whose schema allows only two made-up words: a server that answers one of them
        honours it; one that refuses the request or answers in words does not. The outcome is
        kept in the response cache (a second run sends no probe); probes are counted apart
        (``usage.probes``), not against ``max_requests``. ``cached_only`` sends nothing.
        """
        from wordgames.llm.structured import FLAVOURS, probe_passes, probe_request

        model = self.check()
        what = {"probe": "structured-output", "flavours": list(FLAVOURS)}
        key = request_key(model, what, "structured-probe-1", self.base_url)
        hit = self.cache.get(key)
        if hit is not None or cached_only:
            return (hit or {}).get("text") or None
        found = None
        for flavour in FLAVOURS:
            request = probe_request(flavour)
            try:
                reply = self._send(
                    lambda api, r=request: api.chat.completions.create(model=self.model, **r),
                    probe=True,
                )
            except ServerError:  # the server refuses the flavour (400, 422...)
                continue
            choices = getattr(reply, "choices", None) or []
            if choices and probe_passes(getattr(choices[0].message, "content", None) or ""):
                found = flavour
                break
        self._keep(key, model, what, {"text": found or ""}, 0, 0, server=self.base_url)
        return found

    def continuation_logprob(
        self, prompt: str, continuation: str, *, prompt_version: str
    ) -> tuple[float, bool]:
        """Log P(``continuation`` | ``prompt``) and whether it came from the cache.

        The sum of the continuation's tokens' log-probabilities, from one ``/v1/completions``
        request with ``echo`` (the server returns the log-probability of every token of the
        text it was given), cached by content. Check the server first (:meth:`logprob_problem`):
        some echo log-probabilities that are not the model's.
        """
        text = prompt + continuation

        def parse(reply):
            lp = reply.choices[0].logprobs
            return {"logprob": span_logprob(lp.text_offset, lp.token_logprobs, len(prompt),
                                            len(text))}  # fmt: skip

        kept, cached = self._cached_request(
            lambda api: api.completions.create,
            {"prompt": text, "echo": True, "logprobs": 1, "max_tokens": 1, "temperature": 0.0},
            parse,
            prompt_version,
            scored_from=len(prompt),
        )
        return float(kept["logprob"]), cached

    def logprob_problem(self) -> str | None:
        """Why this server's log-probabilities cannot score (None: they can), asked once.

        The check: the log-probability the server gives its own greedy next token, asked for
        that token (``/v1/completions``, ``logprobs``), must equal the one it gives the same
        token in an echoed text. llama-cpp-python 0.3 fails it (its echo pairs each token with
        the next position's logits); vLLM's and the hosted completions servers pass.
        """
        if self._logprob_problem is None:
            self._logprob_problem = self._probe_logprobs() or ""
        return self._logprob_problem or None

    def _probe_logprobs(self) -> str | None:
        import openai

        from wordgames.subjects import AnswerError

        prompt = "The capital of France is"
        try:
            token, direct = self._next_token(prompt)
            echoed, _ = self.continuation_logprob(prompt, token, prompt_version="probe-1")
        except (ServerError, AnswerError, openai.OpenAIError, AttributeError, IndexError,
                TypeError) as exc:  # fmt: skip
            return f"the server at {self.base_url} gives no log-probabilities ({exc})"
        if direct is None or not token or abs(float(direct) - echoed) > LOGPROB_TOLERANCE:
            return (
                f"the server at {self.base_url} gives the token {token!r} after {prompt!r} "
                f"log-probability {direct} when it generates it but {echoed:.4f} when it is "
                "echoed: its echoed log-probabilities are not the model's"
            )
        return None

    def _next_token(self, prompt: str) -> tuple[str, float | None]:
        """The greedy next token after ``prompt`` and its log-probability (cached)."""

        def parse(reply):
            lp = reply.choices[0].logprobs.token_logprobs
            return {"text": reply.choices[0].text, "logprob": lp[0] if lp else None}

        kept, _ = self._cached_request(
            lambda api: api.completions.create,
            {"prompt": prompt, "max_tokens": 1, "logprobs": 1, "temperature": 0.0},
            parse,
            "probe-1",
        )
        return kept["text"], kept["logprob"]

    def embed(self, words: list[str], batch_size: int = 256) -> list[list[float]]:
        """One vector per word (``/v1/embeddings``), each cached by the model and the word.

        The words not in the cache are sent ``batch_size`` to a request; a server that sends
        one vector per token (llama.cpp's, which does not pool) gets their mean.
        """
        model = self.check()
        keys = [request_key(model, {"embedding_of": w}, "embed-1", self.base_url) for w in words]
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
            got = _checked_vectors(reply, len(part), self.base_url)
            self._count_tokens(reply)
            for i, vector in zip(part, got, strict=True):
                vectors[i] = vector
                self._keep(keys[i], model, {"embedding_of": words[i]}, {"vector": vector},
                               0, 0, server=self.base_url)  # fmt: skip
        return vectors

    def note_unreadable(self, n: int) -> None:
        """Count ``n`` answers a game could not read after its re-prompts."""
        with self._lock:
            self.usage.unreadable += int(n)

    def _keep(self, *row, server: str) -> None:
        """Write one answer to the cache; one it could not keep is counted (``not_kept``)."""
        if not self.cache.put(*row, server=server):
            with self._lock:
                self.usage.not_kept += 1

    def _cached(self, key: str) -> dict | None:
        """The cached response of ``key`` (counted as a hit), or None."""
        hit = self.cache.get(key)
        if hit is not None:
            with self._lock:
                self.usage.cache_hits += 1
        return hit

    def _count_tokens(self, reply) -> tuple[int, int]:
        usage = getattr(reply, "usage", None)
        tin, tout = (_count(getattr(usage, k, 0)) for k in ("prompt_tokens", "completion_tokens"))
        with self._lock:
            self.usage.tokens_in += tin
            self.usage.tokens_out += tout
        return tin, tout

    def _send(self, call, *, probe: bool = False):
        """``call(openai client)``: one request, counted and capped; errors name the server.

        A ``probe`` (what can the server do?) is counted apart and never capped.
        """
        api = self._openai()
        with self._lock:
            if probe:
                self.usage.probes += 1
            elif self.max_requests is not None and self.usage.requests >= self.max_requests:
                raise RequestBudgetSpent(
                    f"{self.max_requests} request(s) sent to {self.base_url}: the cap "
                    "(--max-requests) is reached; what was done is stored"
                )
            else:
                self.usage.requests += 1
        try:
            return self._answer(api, call)
        except ServerError:
            with self._lock:  # after every retry: the request is lost, counted once
                self.usage.failed += 0 if probe else 1
            raise

    def _answer(self, api, call):
        """``call(api)``, its failures as :class:`ServerError` naming the server."""
        import openai

        from wordgames.llm.http import AnswerTooLarge

        try:
            return call(api)
        except openai.APIStatusError as exc:  # after the client's own retries
            raise ServerError(
                f"the model server at {self.base_url} answered {exc.status_code} ({exc.message})"
            ) from None
        except openai.APITimeoutError:
            raise ServerError(
                f"the model server at {self.base_url} did not finish an answer within "
                f"{self.timeout:g} s ({self.max_retries + 1} tries)"
            ) from None
        except openai.APIConnectionError as exc:
            raise ServerError(f"lost the model server at {self.base_url} ({exc})") from None
        except AnswerTooLarge as exc:  # not retried: it would be sent again
            raise ServerError(
                f"the model server at {self.base_url} sent {exc} in one answer (the cap; "
                "docs/llm.md)"
            ) from None
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise ServerError(
                f"the model server at {self.base_url} sent an answer that is not JSON ({exc})"
            ) from None
        except ValueError as exc:  # openai's own checks of an answer's shape
            raise ServerError(
                f"the model server at {self.base_url} sent a malformed answer ({exc})"
            ) from None


def _first_choice(reply, url: str):
    """The first choice of a chat or completions answer (none: a :class:`ServerError`)."""
    choices = getattr(reply, "choices", None)
    if not choices:
        raise ServerError(f"the model server at {url} sent an answer with no choices")
    return choices[0]


def _numbers(values):
    """``values`` as sent, where each is a JSON number (a string "0.5" is no number)."""
    flat = (
        values if not values or not isinstance(values[0], list) else [x for v in values for x in v]
    )
    for x in flat:
        if not isinstance(x, int | float) or isinstance(x, bool):
            raise ValueError(f"a vector holds {x!r:.40}, not a number")
    return values


def _cut(values, n: int = 8) -> str:
    return ", ".join(map(repr, values[:n])) + (", ..." if len(values) > n else "")


def _count(value) -> int:
    """A token count as the server gave it (anything else: 0, it is only counted)."""
    return value if isinstance(value, int) and 0 <= value < 2**40 else 0


def _checked_vectors(reply, n: int, url: str) -> list[list[float]]:
    """``n`` vectors of one length, every number finite, from an embeddings answer."""
    import numpy as np

    data = getattr(reply, "data", None)
    if not data:
        raise ServerError(f"the model server at {url} sent no vectors")
    if len(data) != n:
        raise ServerError(f"the model server at {url} sent {len(data)} vectors for {n} words")
    indexes = [getattr(d, "index", None) for d in data]
    if sorted(i for i in indexes if isinstance(i, int) and not isinstance(i, bool)) != list(
        range(n)
    ):
        raise ServerError(f"the model server at {url} sent vectors indexed {_cut(indexes)}: "
                          f"expected each of 0 to {n - 1} once")  # fmt: skip
    try:
        ordered = sorted(data, key=lambda d: d.index)
        vectors = [_pooled(_numbers(d.embedding)) for d in ordered]
    except (TypeError, ValueError, AttributeError) as exc:
        raise ServerError(f"the model server at {url} sent a malformed vector ({exc})") from None
    sizes = sorted({len(v) for v in vectors})
    if len(sizes) > 1:
        raise ServerError(
            f"the model server at {url} sent vectors of {sizes[0]} and {sizes[-1]} numbers"
        )
    if not np.isfinite(np.asarray(vectors, dtype=np.float64)).all():
        raise ServerError(f"the model server at {url} sent a vector holding a number that is "
                          "not a finite number (NaN or infinity): nothing of it is cached")  # fmt: skip
    return vectors


#: how far a server's two log-probabilities of one token may differ (numerical noise)
LOGPROB_TOLERANCE = 0.05


def span_logprob(offsets, logprobs, start: int, stop: int) -> float:
    """The summed log-probability of the tokens that begin in ``[start, stop)`` of the text.

    An echoed text's tokens come with their character offsets; the continuation's tokens are
    those from ``start`` (the prompt's length) on, before ``stop`` (the generated token after
    the text is left out). A token that begins inside the prompt and reaches past it would mix
    the two: an error.

    >>> span_logprob([0, 3, 8, 12], [None, -1.0, -0.5, -2.0], 8, 12)
    -0.5
    >>> span_logprob([0, 3, 7], [None, -1.0, -0.5], 8, 12)
    Traceback (most recent call last):
    ...
    wordgames.subjects.AnswerError: no token of the server's answer begins where the continuation does (character 8)
    """
    from wordgames.subjects import AnswerError

    if start not in offsets:  # the tokenizer merged the prompt's end with the continuation
        raise AnswerError(
            f"no token of the server's answer begins where the continuation does (character {start})"
        )
    picked = [lp for off, lp in zip(offsets, logprobs, strict=True) if start <= off < stop]
    if not picked or any(lp is None for lp in picked):
        raise AnswerError("the server gave no log-probability for the continuation")
    return float(sum(picked))


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
