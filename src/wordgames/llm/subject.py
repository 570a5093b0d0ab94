"""``chat:MODEL``: a chat model behind an OpenAI-compatible server as a *player* subject.

Each game's question (:class:`~wordgames.subjects.Question`) is sent as one chat request: the
system prompt (``wordgames/prompts/system.txt``) and the question's prompt (the agent's prompt
file, filled in), decoded at temperature 0 with a fixed seed where the server takes one; with the question's
JSON schema where the server honours one (``answers``, :mod:`wordgames.llm.structured`). The
reply is read by the game's reader, and asked again once where it cannot be read
(:mod:`wordgames.reading`).

The subject's identity, hence its key in the results store, is the model, the server's URL, the
version of every prompt file and the decoding parameters; never the key, which is read from the
environment variable named by ``api_key_env`` and written nowhere. Every answer is cached by
content (:mod:`wordgames.llm.cache`).
"""

from __future__ import annotations

import os
import threading
from concurrent.futures import ThreadPoolExecutor

from wordgames.errors import WordgamesError
from wordgames.subjects import PLAYER, SCORER, PlayerSubject, Question

DEFAULT_KEY_ENV = "OPENAI_API_KEY"


class ChatSubject(PlayerSubject):
    """A chat model that plays: each question one request (cached, counted, capped).

    It is also a *scorer* (:meth:`score`: log-probabilities from ``/v1/completions``) where the
    server's log-probabilities pass :meth:`~wordgames.llm.client.ChatClient.logprob_problem`.

    Parameters
    ----------
    model : str
        The model's name on the server (``smollm2``, ``gpt-4o-mini``, ``llama3.1:8b``...).
    base_url : str or None
        The server's OpenAI-compatible root; default ``$OPENAI_BASE_URL``.
    api_key_env : str
        The environment variable holding the key (a local server needs none).
    name : str or None
        Display name (default ``chat:<model>``).
    temperature, seed, max_tokens : decoding (part of the identity)
    timeout, max_retries : per request (not part of the identity: they change no answer)
    max_concurrency : requests in flight at once (:meth:`answer_many`)
    max_requests : requests this subject may send in all (cache hits are free); None: no cap
    dry_run : bool
        Send no question: a question the response cache cannot answer is noted in
        :attr:`planned` (with an estimate of its tokens) and answered ``""``, which the agents
        count as unreadable. Only the server's model list is fetched.
    answers : {"auto", "structured", "free"}
        How answers are asked for (:mod:`wordgames.llm.structured`): ``structured`` gives the
        server each question's JSON schema, so an answer is a legal option by construction
        (an error before any work when the server honours none); ``free`` asks for text, read
        by the games' readers; ``auto`` (default) probes the server once and uses structured
        answers where it honours them. What was used is part of the identity.
    reprompts : int
        Times an answer that cannot be read is asked again, told what was wrong (default 1;
        part of the identity: it changes what is scored).
    probe : bool
        Whether ``answers="auto"`` may probe the server (one request, kept in the response
        cache); ``False`` (``wordgames run --dry-run``): a probe the cache holds, else free.

    Examples
    --------
    >>> s = ChatSubject("smollm2", base_url="http://127.0.0.1:9/v1", answers="free")
    >>> s.name, s.identity()["model"], s.identity()["decoding"]["temperature"]
    ('chat:smollm2', 'smollm2', 0.0)
    >>> "api_key" in str(s.identity())
    False
    """

    capabilities = frozenset({PLAYER, SCORER})

    def __init__(
        self,
        model: str,
        *,
        base_url: str | None = None,
        api_key_env: str = DEFAULT_KEY_ENV,
        name: str | None = None,
        temperature: float = 0.0,
        seed: int = 0,
        max_tokens: int = 400,
        timeout: float = 120.0,
        max_retries: int = 4,
        max_concurrency: int = 1,
        max_requests: int | None = None,
        cache_path: str | None = None,
        dry_run: bool = False,
        answers: str = "auto",
        reprompts: int = 1,
        probe: bool = True,
    ):
        from wordgames.llm.client import server_url
        from wordgames.llm.structured import MODES

        super().__init__(name or f"chat:{model}")
        if max_concurrency < 1:
            raise WordgamesError(f"max_concurrency must be at least 1, got {max_concurrency}")
        self.model, self.api_key_env = model, api_key_env
        self.base_url = server_url(base_url, f"chat:{model}")
        self.temperature, self.seed, self.max_tokens = float(temperature), int(seed), max_tokens
        self.timeout, self.max_retries = timeout, max_retries
        self.max_concurrency, self.max_requests = max_concurrency, max_requests
        self.cache_path = cache_path
        self.dry_run = bool(dry_run)
        if answers not in MODES:
            raise WordgamesError(f"answers must be one of {', '.join(MODES)}, got {answers!r}")
        if int(reprompts) < 0:
            raise WordgamesError(f"reprompts must be at least 0, got {reprompts}")
        self.answers, self.reprompts, self.probe = answers, int(reprompts), bool(probe)
        #: what the answers are asked as: "free" or a structured flavour (after the probe)
        self._mode: str | None = "free" if answers == "free" else None
        #: the questions a dry run would send (:func:`planned_row`), each distinct one once
        self.planned: list[dict] = []
        self._planned_keys: set = set()
        #: first asks a dry run found answered in the cache, by (game, role)
        self.planned_cached: dict = {}
        #: ``on_answer(question, cached)`` after each first ask of a question (not its
        #: re-prompts): the command line's progress bars; never pickled
        self.on_answer = None
        self._client = None
        self._transcript: list[dict] = []
        self._lock = threading.Lock()

    # ------------------------------------------------------------------ identity
    def identity(self) -> dict:
        from wordgames.prompts import versions

        out = {
            "kind": "chat",
            "model": self.model,
            "base_url": self.base_url,
            "prompts": versions(),
            "decoding": {
                "temperature": self.temperature,
                "seed": self.seed,
                "max_tokens": self.max_tokens,
            },
            "answers": self.answer_mode,
            "reprompts": self.reprompts,
        }
        if self.dry_run:  # its empty answers must never be taken for the model's in a store
            out["dry_run"] = True
        return out

    @property
    def client(self):
        if self._client is None:
            from wordgames.llm.cache import ResponseCache
            from wordgames.llm.client import ChatClient

            self._client = ChatClient(
                self.model,
                self.base_url,
                os.environ.get(self.api_key_env) or "no-key",  # local servers take any
                timeout=self.timeout,
                max_retries=self.max_retries,
                max_requests=self.max_requests,
                cache=ResponseCache(self.cache_path) if self.cache_path else None,
            )
        return self._client

    def check(self) -> None:
        """Reach the server and find the model before any work (an error names the URL)."""
        self.client.check()
        _ = self.answer_mode

    @property
    def answer_mode(self) -> str:
        """``"free"`` or the structured flavour the server honours (probed once, cached).

        A dry run probes nothing: it uses a probe the response cache holds, else free text.
        """
        if self._mode is None:
            offline = self.dry_run or (not self.probe and self.answers == "auto")
            found = self.client.structured_flavour(cached_only=offline)
            if found is None and self.answers == "structured":
                from wordgames.llm.client import ServerError

                raise ServerError(
                    f"the model server at {self.base_url} honours no JSON schema in "
                    "response_format (tried: json_schema, json_object with a schema): "
                    "use --answers free or auto"
                )
            self._mode = found or "free"
        return self._mode

    def structured_for(self, question: Question) -> bool:
        """Whether ``question`` is asked for a structured answer (a form, a capable server)."""
        return bool(question.form) and self.answer_mode != "free"

    def capability_problem(self, capability: str) -> str | None:
        """Why the server cannot serve ``capability`` (a scorer needs true log-probabilities)."""
        if capability != SCORER:
            return None
        if self.dry_run:
            return "a dry run does not estimate log-probability scoring"
        return self.client.logprob_problem()

    def score(self, question: Question, options) -> list[float]:
        """Log P(" option" | the question's prompt) for each option (one request each, cached).

        The prompt is sent as plain text (a completion, not a chat); the transcript keeps one
        row per question with every option's log-probability.
        """
        import json

        def one(option):
            return self.client.continuation_logprob(
                question.prompt, " " + str(option), prompt_version=question.prompt_version
            )

        options = list(options)
        if self.max_concurrency > 1 and len(options) > 1:
            with ThreadPoolExecutor(self.max_concurrency) as pool:
                done = list(pool.map(one, options))
        else:
            done = [one(o) for o in options]
        values = [v for v, _ in done]
        answer = json.dumps(
            dict(zip(map(str, options), (round(v, 6) for v in values), strict=True))
        )
        row = _transcript_row(question, answer, all(cached for _, cached in done))
        with self._lock:
            self._transcript.append(row)
        return values

    @property
    def usage(self):
        """Requests, tokens in and out and cache hits so far (:class:`~wordgames.llm.client.Usage`)."""
        return self.client.usage

    def note_unreadable(self, n: int) -> None:
        """Count ``n`` answers that stayed unreadable after the re-prompts (in :attr:`usage`)."""
        self.client.note_unreadable(n)

    # ------------------------------------------------------------------ answering
    def messages(self, question: Question) -> list[dict]:
        """The system prompt, the question, and each unreadable answer with what was wrong."""
        from wordgames.prompts import template

        system, _ = template("system")
        again, _ = template("reprompt")
        out = [
            {"role": "system", "content": system},
            {"role": "user", "content": question.prompt},
        ]
        for answer, problem in question.history:
            out += [
                {"role": "assistant", "content": answer},
                {"role": "user", "content": again.format(problem=problem)},
            ]
        return out

    def _request(self, question: Question) -> dict:
        """The request's settings: prompt versions, decoding, the schema where structured."""
        from wordgames.llm.structured import answer_schema, response_format
        from wordgames.prompts import template

        version = f"{template('system')[1]}/{question.prompt_version}"
        if question.history:
            version += f"/reprompt-{template('reprompt')[1]}"
        tokens = question.answer_tokens
        request = {"prompt_version": version, "temperature": self.temperature, "seed": self.seed}
        if self.structured_for(question):  # JSON around the answer: about twice the tokens
            tokens = 2 * tokens + 16
            request["response_format"] = response_format(answer_schema(question), self._mode)
        request["max_tokens"] = min(self.max_tokens, tokens)
        return request

    def _ask(self, question: Question) -> tuple[str, dict]:
        """The reply (a structured one as the plain answer it stands for) and its transcript row."""
        messages = self.messages(question)
        request = self._request(question)
        if self.dry_run:
            text = self.client.cached_chat(messages, **request)
            cached = text is not None
            if cached and not question.history:
                with self._lock:
                    role = (question.game, question.role)
                    self.planned_cached[role] = self.planned_cached.get(role, 0) + 1
            if not cached:
                text = ""
                key = (request["prompt_version"], question.prompt)
                with self._lock:  # asked again, it would be answered from the cache
                    # a re-prompt of a dry run's empty answer is no request a run would send
                    if key not in self._planned_keys and not question.history:
                        self._planned_keys.add(key)
                        self.planned.append(planned_row(question, messages, request["max_tokens"]))
        else:
            text, cached = self.client.chat(messages, **request)
            if self.on_answer is not None and not question.history:
                self.on_answer(question, cached)
        row = _transcript_row(question, text, cached)
        if "response_format" in request and text:
            from wordgames.llm.structured import structured_text
            from wordgames.subjects import AnswerError

            try:
                text = structured_text(question, text)
            except AnswerError:  # the reader sees the raw reply, and says what is wrong
                pass
        return text, row

    def answer(self, question: Question) -> str:
        text, row = self._ask(question)
        self._transcript.append(row)
        return text

    def answer_many(self, questions) -> list[str]:
        """The answers to ``questions``, in order, ``max_concurrency`` requests at a time.

        The transcript keeps the questions' order, whatever order the replies came in.
        """
        questions = list(questions)
        if self.max_concurrency == 1 or len(questions) < 2:
            return [self.answer(q) for q in questions]
        with ThreadPoolExecutor(self.max_concurrency) as pool:
            done = list(pool.map(self._ask, questions))
        self._transcript.extend(row for _, row in done)
        return [text for text, _ in done]

    def take_transcript(self) -> list[dict]:
        """The answers given since the last call (the result's ``answers`` table), in order."""
        out, self._transcript = self._transcript, []
        return out

    def __getstate__(self):  # a client (sockets, threads) never travels to another process
        state = dict(self.__dict__)
        state["_client"] = None
        state["_transcript"] = []
        state["on_answer"] = None  # a progress bar stays with its terminal
        state.pop("_lock", None)
        return state

    def __setstate__(self, state):
        self.__dict__.update(state)
        self._lock = threading.Lock()


def _transcript_row(question: Question, answer: str, cached: bool) -> dict:
    """A row of the ``answers`` table: the question in one line, its prompt's hash, the answer."""
    import hashlib

    return {
        "game": question.game,
        "role": question.role,
        "question": question.summary(),
        "prompt_sha256": hashlib.sha256(question.prompt.encode("utf-8")).hexdigest(),
        "answer": answer,
        "cached": cached,
    }


#: characters a token, for estimates without the server's tokenizer (English text, BPE)
CHARS_PER_TOKEN = 4


def planned_row(question: Question, messages: list[dict], max_tokens: int) -> dict:
    """A question a dry run would send: what it is, its prompt tokens (estimated) and its cap.

    >>> q = Question("oddmanout", "solver", {"words": ("a", "b")}, prompt="x" * 40)
    >>> planned_row(q, [{"role": "user", "content": q.prompt}], 8)["tokens_in"]
    10
    """
    chars = sum(len(m["content"]) for m in messages)
    return {
        "game": question.game,
        "role": question.role,
        "question": question.summary(),
        "tokens_in": -(-chars // CHARS_PER_TOKEN),
        "max_tokens_out": int(max_tokens),
        "step_cap": int(question.fields.get("step_cap", 1)),
    }


def from_spec(rest: str, **kwargs) -> ChatSubject:
    """The subject of a ``"chat:MODEL"`` string (``rest`` is ``MODEL``)."""
    if not rest:
        raise WordgamesError("chat: needs a model name, e.g. chat:gpt-4o-mini")
    return ChatSubject(rest, **kwargs)
