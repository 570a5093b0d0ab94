"""What :func:`wordgames.evaluate` scores: a *subject*, of one or more kinds (capabilities).

* ``vectors``: a static embedding, a matrix of word vectors (:class:`~wordgames.embeddings.
  Embedding`). Every measure of the four papers can use one.
* ``encoder``: gives a vector for any word on demand (a transformer, an embeddings service).
  Today an encoder is frozen into ``vectors`` over a word list (``transformer:MODEL``).
* ``player``: answers a game's question in words (:class:`Player`): a chat LLM, a person's
  recorded answers, or the lookup table of a test. The agents that need a player
  (:mod:`wordgames.agents`) ask it :class:`Question` objects and read its answers as a
  careful person reads them (:func:`read_choice`, :mod:`wordgames.reading`): an answer they
  cannot read, even asked again, is the game's "no move", counted, never a guess.
* ``scorer``: gives the log-probability of each of a question's options as the continuation of
  its prompt (:class:`Scorer`): a language model behind a completions server whose
  log-probabilities pass the subject's check (:func:`problem_with`).
* ``people``: the people of the human data themselves (:class:`People`, ``"people"`` by name):
  a measure whose data has several people answering the same item scores each held-out
  person against the others' answers (the human ceiling, :mod:`wordgames.codenames.people`);
  a measure that cannot says why (``Measure.people``).

A measure declares the kinds it can score (``Measure.subjects``); a unit whose subject has none
of them is skipped with that reason. Every subject has a display ``name`` and a stable
``fingerprint()`` that keys the results store: the content hash of a matrix, the hash of
:meth:`Player.identity` (model, revision, endpoint, prompt version, decoding parameters) for a
player. Secrets are never part of either: a subject reads them from the environment by name
(:func:`secret`).

This module imports nothing heavy.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from wordgames.errors import WordgamesError

VECTORS, ENCODER, PLAYER, SCORER, PEOPLE = "vectors", "encoder", "player", "scorer", "people"
CAPABILITIES = (VECTORS, ENCODER, PLAYER, SCORER, PEOPLE)
#: the kinds of answer a question asks for (:attr:`Question.form`)
FORMS = ("choice", "choice-or-none", "word-category", "ranking", "guesses", "clues")


class AnswerError(WordgamesError):
    """A player's answer that does not answer the question (the agent counts it as a skip)."""


@dataclass(frozen=True)
class Question:
    """One question of a game to a player.

    Parameters
    ----------
    game : str
        ``"codenames"``, ``"oddmanout"`` or ``"wales"``.
    role : str
        The agent's role: ``"receiver"``, ``"solver"``, ``"navigator"``...
    fields : mapping
        What the question is about, as data (the board and the clue; the puzzle's words; the
        page, its links and the target). A player that is a program reads these.
    prompt : str
        The same question in words, for a player that reads text (a chat model).
    prompt_version : str
        Version of the prompt's wording: part of the player's identity in the store.
    answer_tokens : int
        The longest answer the question needs, in tokens (a word; a ranking of 25 words): a
        chat model is not asked for more.
    form : str
        The kind of answer (:data:`FORMS`: ``"choice"``, ``"ranking"``, ``"clues"``...): what a
        server that constrains its output is given as a JSON schema
        (:func:`wordgames.llm.structured.answer_schema`); ``""``: free text only.
    history : tuple of (str, str)
        The earlier answers to this question that could not be read, each with what was
        wrong (:meth:`retry`): a chat model sees them as the conversation so far.

    Examples
    --------
    >>> q = Question("oddmanout", "solver", {"words": ["cat", "dog", "car"]}, form="choice")
    >>> again = q.retry("a car", "not one of the words")
    >>> again.history, again.fields == q.fields
    ((('a car', 'not one of the words'),), True)
    """

    game: str
    role: str
    fields: Mapping[str, Any] = field(default_factory=dict)
    prompt: str = ""
    prompt_version: str = "1"
    answer_tokens: int = 256
    form: str = ""
    history: tuple = ()

    def retry(self, answer: str, problem: str) -> Question:
        """The same question asked again after ``answer``, which could not be read (``problem``).

        >>> q = Question("g", "r", prompt="Which?").retry("hmm", "no option named")
        >>> q.history, q.prompt
        ((('hmm', 'no option named'),), 'Which?')
        """
        from dataclasses import replace

        return replace(self, history=(*self.history, (str(answer), str(problem))))

    def summary(self, max_items: int = 12) -> str:
        """The question's fields in one line (long lists as their length), for transcripts.

        >>> Question("wales", "navigator", {"page": "A", "links": tuple("abcdefghijklmn")}).summary()
        'page=A; links=<14 items>'
        >>> Question("oddmanout", "solver", {"words": ("cat", "dog")}).summary()
        'words=cat, dog'
        """
        parts = []
        for k, v in self.fields.items():
            if isinstance(v, list | tuple):
                v = f"<{len(v)} items>" if len(v) > max_items else ", ".join(map(str, v))
            parts.append(f"{k}={v}")
        return "; ".join(parts)


@runtime_checkable
class Player(Protocol):
    """A subject that answers questions in words."""

    name: str

    def answer(self, question: Question) -> str: ...

    def identity(self) -> dict: ...


@runtime_checkable
class Scorer(Protocol):
    """A subject that scores options: log P(option | the question's prompt), one per option."""

    name: str

    def score(self, question: Question, options) -> list[float]: ...

    def identity(self) -> dict: ...


class PlayerSubject:
    """Base of player subjects: name, identity, fingerprint and description from ``identity()``.

    Subclasses define :meth:`answer` and :meth:`identity` (everything that decides the answers:
    model id, revision, endpoint, prompt version, decoding parameters; never a secret).

    Parameters
    ----------
    name : str
        Its display name (the ``embedding`` of its Score rows).

    Examples
    --------
    >>> class Echo(PlayerSubject):
    ...     def answer(self, question):
    ...         return question.fields["words"][0]
    ...     def identity(self):
    ...         return {"kind": "echo", "version": 1}
    >>> p = Echo("echo")
    >>> p.answer(Question("oddmanout", "solver", {"words": ["a", "b"]})), capabilities(p)
    ('a', frozenset({'player'}))
    >>> p.describe()["kind"], len(p.fingerprint())
    ('player', 64)
    """

    capabilities = frozenset({PLAYER})

    def __init__(self, name: str):
        self.name = name

    def answer(self, question: Question) -> str:  # pragma: no cover - a protocol method
        raise NotImplementedError

    def identity(self) -> dict:  # pragma: no cover - a protocol method
        raise NotImplementedError

    def fingerprint(self) -> str:
        """sha256 of the identity: the store's key for this subject."""
        text = json.dumps(self.identity(), sort_keys=True, separators=(",", ":"), default=str)
        return hashlib.sha256(text.encode()).hexdigest()

    def describe(self) -> dict:
        return {
            "name": self.name,
            "kind": PLAYER,
            "identity": self.identity(),
            "sha256": self.fingerprint(),
            "source": f"{type(self).__name__} object",
        }

    def get_params(self) -> dict:
        """The identity: what result records hold as the parameters of an agent it drives."""
        return self.identity()

    def with_name(self, name: str):
        import copy

        other = copy.copy(self)
        other.name = name
        return other

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r}>"


class People:
    """The people of the human data as a subject: the human ceiling of every measure that has one.

    Nothing is asked and nothing is loaded: a measure that declares the kind ``people``
    (:attr:`wordgames.measure.Measure.subjects`) scores each person whose item several people
    answered against the others' answers, by the metric and on the records its agents are
    scored on (leave one person out); :mod:`wordgames.codenames.people` does it for Codenames.
    Its fingerprint depends on the method's version only, so a stored people row is reused
    like any other while the data's checksums (kept with every result) stay the same.

    Parameters
    ----------
    name : str
        The display name (default ``"people"``, the name ``evaluate`` and the CLI take).

    Examples
    --------
    >>> p = People()
    >>> p.name, sorted(p.capabilities), p.describe()["kind"]
    ('people', ['people'], 'people')
    >>> p.fingerprint() == People("lab").fingerprint()  # the name is a label, not the identity
    True
    """

    capabilities = frozenset({PEOPLE})
    #: the version of the leave-one-person-out method (a change gives another fingerprint)
    version = 1

    def __init__(self, name: str = "people"):
        self.name = name

    def identity(self) -> dict:
        return {"kind": PEOPLE, "method": "leave-one-person-out", "version": self.version}

    def fingerprint(self) -> str:
        text = json.dumps(self.identity(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()

    def describe(self) -> dict:
        return {
            "name": self.name,
            "kind": PEOPLE,
            "identity": self.identity(),
            "sha256": self.fingerprint(),
            "source": "the people of each measure's human data",
        }

    def with_name(self, name: str):
        return People(name)

    def __repr__(self) -> str:
        return f"<People {self.name!r}>"


def is_people(subject) -> bool:
    """Whether ``subject`` is the people of the human data (:class:`People`)."""
    return PEOPLE in capabilities(subject)


def is_loaded(subject) -> bool:
    """Whether ``subject`` is given as it is (a player, the people), not loaded as vectors."""
    return is_player(subject) or is_people(subject)


def capabilities(subject) -> frozenset[str]:
    """The kinds of subject ``subject`` is (``frozenset`` of :data:`CAPABILITIES`).

    >>> import numpy as np
    >>> from wordgames.embeddings import Embedding
    >>> sorted(capabilities(Embedding(["a"], np.ones((1, 2)), name="e")))
    ['vectors']
    """
    declared = getattr(subject, "capabilities", None)
    if declared is not None:
        return frozenset(declared)
    if hasattr(subject, "vectors") and hasattr(subject, "words"):
        return frozenset({VECTORS})
    if isinstance(subject, Player):
        return frozenset({PLAYER})
    return frozenset()


def is_player(subject) -> bool:
    """Whether ``subject`` is a player and not an embedding (the measures' player branch)."""
    return PLAYER in capabilities(subject) and VECTORS not in capabilities(subject)


def lacks(subject, needs: tuple[str, ...]) -> str | None:
    """Why ``subject`` cannot be scored by something that needs one of ``needs``, or ``None``."""
    have = capabilities(subject)
    if not needs or have & set(needs):
        return None
    kinds = " or ".join(needs)
    return (
        f"needs a subject with {kinds}; {getattr(subject, 'name', subject)!s} is "
        f"{' and '.join(sorted(have)) or 'of no known kind'}"
    )


def problem_with(subject, capability: str) -> str | None:
    """Why ``subject`` cannot serve ``capability`` after all (its own check), or None.

    A subject declares a capability it may lack at run time (a server without working
    log-probabilities) and says why in ``capability_problem(capability)``; the agents that
    need it are then not run, with the reason.
    """
    check = getattr(subject, "capability_problem", None)
    return check(capability) if callable(check) else None


def secret(env_name: str) -> str:
    """The secret in the environment variable ``env_name`` (never a parameter, never written).

    >>> secret("WORDGAMES_NO_SUCH_KEY")
    Traceback (most recent call last):
    ...
    wordgames.errors.WordgamesError: the environment variable WORDGAMES_NO_SUCH_KEY is not set (it holds the key; the key itself is never written anywhere)
    """
    value = os.environ.get(env_name)
    if not value:
        raise WordgamesError(
            f"the environment variable {env_name} is not set (it holds the key; the key "
            "itself is never written anywhere)"
        )
    return value


def answer_all(player, questions) -> list[str]:
    """The player's answers to ``questions``, in order: together where it can (``answer_many``).

    A chat subject sends them concurrently (its ``max_concurrency``); any other player answers
    one at a time.

    >>> class Upper(PlayerSubject):
    ...     def answer(self, q):
    ...         return q.prompt.upper()
    ...     def identity(self):
    ...         return {"kind": "upper"}
    >>> answer_all(Upper("u"), [Question("g", "r", prompt="a"), Question("g", "r", prompt="b")])
    ['A', 'B']
    """
    questions = list(questions)
    many = getattr(player, "answer_many", None)
    if many is not None:
        return list(many(questions))
    return [player.answer(q) for q in questions]


# --------------------------------------------------------------------------- reading answers
#: the rules, in the order they are tried
RULES = ("exact", "case", "tidy", "preamble", "reason", "mention")

_NONE_ANSWERS = frozenset({"none", "no answer", "abstain", "-", "none of them", "n/a"})
_MARKDOWN = re.compile(r"\*\*|__|`+|^[#>]+\s*|(?<!\w)\*(?!\s)|(?<!\s)\*(?!\w)")
_NUMBERING = re.compile(r"^\s*(?:\(?\d+[.)]|[-*•])\s+")
_WRAP = "\"'“”‘’«»()[]{}<>"
_CLOSING = ".!?;:,"
_PREAMBLE = re.compile(
    r"^(?:(?:my |the |final |best )*(?:answer|guess|choice|pick|response|link|click|move|"
    r"odd (?:one|word|man) out)(?: would be| is| will be)?\s*[:=-]?|"
    r"i(?:\s+would|\s+will|'d|'ll)?\s+(?:choose|pick|select|go with|click(?: on)?|follow|say|guess)"
    r"(?: the link)?\s*[:=-]?|"
    r"(?:the )?(?:word|link|page) (?:that doesn't belong|that does not belong|to (?:click|follow))"
    r"(?: is)?\s*[:=-]?|"
    r"(?:so|thus|therefore|okay|ok|sure)[,!:]?\s*(?:the answer is)?\s*[:=-]?)\s*",
    re.IGNORECASE,
)
_REASON = re.compile(r"\s+(?:-|–|—|because|since|as)\s+|\s*[(:]|,\s+|;\s+", re.IGNORECASE)


@dataclass(frozen=True)
class Reading:
    """An answer read: the option it names (``None`` for "none") and the rule that read it."""

    value: str | None
    rule: str


def _tidy(text: str) -> str:
    """Markdown, numbering, surrounding quotes and brackets and closing punctuation off."""
    text = _MARKDOWN.sub("", text.strip())
    text = _NUMBERING.sub("", text).strip()
    for _ in range(3):  # nested wrappers: **"grass"**
        text = text.strip().strip(_WRAP).strip()
    return text


def _lookup(candidates, exact: dict, lower: dict) -> str | None:
    for c in candidates:
        for form in (c, c.replace(" ", "_"), c.replace("_", " ")):
            if form in exact:
                return exact[form]
            hit = lower.get(form.lower())
            if hit is not None:
                return hit
    return None


def _forms(text: str) -> list[str]:
    """A tidied text as written, then without one closing punctuation mark."""
    out = [text]
    if text and text[-1] in _CLOSING:
        out.append(_tidy(text[:-1]))  # quotes or markdown before the mark: 'grass'.
    return out


def _mentions(text: str, options) -> list[str]:
    """Options found in ``text`` as whole words, those inside a longer found one left out."""
    low = " " + re.sub(r"[_\s]+", " ", text.lower()) + " "
    found = []
    for o in options:
        key = re.sub(r"[_\s]+", " ", str(o).lower()).strip()
        if key and re.search(r"(?<![\w])" + re.escape(key) + r"(?![\w])", low):
            found.append((o, key))
    keys = [k for _, k in found]
    return [o for o, k in found if not any(k != other and k in other for other in keys)]


def read_choice(answer, options, *, allow_none: bool = False) -> Reading:
    """The one option ``answer`` names, and the rule that read it, as a careful person reads.

    A model is judged on its play, not on its formatting: "The answer is **grass**." names
    the option ``grass`` as plainly as ``grass`` does. The rules are tried in this order
    (:data:`RULES`), and an answer is accepted only when a rule finds **exactly one** legal
    option (one that names two options, or none, raises :class:`AnswerError`):

    * ``exact``: the answer, spaces around it trimmed, is an option as written;
    * ``case``: the same, ignoring case;
    * ``tidy``: after taking off markdown (``**``, ``__``, backticks, a leading ``#`` or
      ``>``), quotes and brackets around it, list numbering (``1.``, ``2)``, ``-``), one
      closing full stop or other punctuation mark; spaces read as underscores and back;
    * ``preamble``: the same after a leading phrase ("The answer is", "Answer:", "I choose",
      "My guess:", "The odd one out is", "I would click on", "Final answer:"...);
    * ``reason``: the first line, or what comes before a reason ("grass - not a fruit",
      "grass, because ...", "grass (not a fruit)", "grass: ..."), tidied;
    * ``mention``: the options that occur in the answer as whole words (ignoring case,
      underscores as spaces), an option found only inside a longer one found too left out.

    An exact answer is always read as itself first: "Washington,_D.C." is the option
    ``Washington,_D.C.``; a closing full stop is taken off only when the answer as written
    is no option. ``allow_none``: "none" (and the like) is an answer, read as ``None``.

    >>> read_choice("The answer is **Grass**.", ["cherry", "grass"])
    Reading(value='grass', rule='preamble')
    >>> read_choice("Washington,_D.C.", ["Washington,_D.C.", "Texas"]).value
    'Washington,_D.C.'
    >>> read_choice("cherry or grass", ["cherry", "grass"])
    Traceback (most recent call last):
    ...
    wordgames.subjects.AnswerError: the answer names 2 of the options ('cherry', 'grass'), not one
    """
    text = str(answer).strip()
    opts = [str(o) for o in options]
    exact = {o: o for o in opts}
    lower: dict[str, str] = {}
    for o in opts:
        lower.setdefault(o.lower(), o)
    if text in exact:
        return Reading(text, "exact")
    if text.lower() in lower:
        return Reading(lower[text.lower()], "case")
    tidy = _tidy(text)
    steps = [("tidy", tidy)]
    pre = _PREAMBLE.sub("", tidy, count=1)
    steps.append(("preamble", _tidy(pre)))
    first = pre.splitlines()[0] if pre.strip() else pre
    steps.append(("reason", _tidy(_REASON.split(_tidy(first), maxsplit=1)[0])))
    for rule, candidate in steps:
        forms = _forms(candidate)
        if allow_none and any(f.lower() in _NONE_ANSWERS for f in forms):
            return Reading(None, rule)
        hit = _lookup(forms, exact, lower)
        if hit is not None:
            return Reading(hit, rule)
    found = _mentions(text, opts)
    if len(found) == 1:
        return Reading(found[0], "mention")
    if found:
        shown = ", ".join(repr(o) for o in found[:4])
        raise AnswerError(f"the answer names {len(found)} of the options ({shown}), not one")
    if allow_none and tidy.lower().rstrip(_CLOSING) in _NONE_ANSWERS:
        return Reading(None, "tidy")
    raise AnswerError(f"the answer {text[:80]!r} is not one of the {len(opts)} options")


def _items_of(answer: str) -> list[str]:
    """The items of an answer: one per line, or per comma when it is one line; numbering off."""
    lines = [ln for ln in str(answer).splitlines() if ln.strip()]
    parts = lines if len(lines) > 1 else re.split(r"[,;]", str(answer))
    out = []
    for p in parts:
        p = _NUMBERING.sub("", p).strip()
        if p:
            out.append(p)
    return out


def parse_choice(answer: str, options, *, allow_none: bool = False) -> str | None:
    """The one option ``answer`` names, ``None`` for "none" when allowed (:func:`read_choice`).

    Raises :class:`AnswerError` (with the answer, shortened) for anything else.

    >>> parse_choice(" Apple.", ["apple", "pear"])
    'apple'
    >>> parse_choice("none", ["apple"], allow_none=True) is None
    True
    >>> parse_choice("kiwi", ["apple", "pear"])
    Traceback (most recent call last):
    ...
    wordgames.subjects.AnswerError: the answer 'kiwi' is not one of the 2 options
    """
    return read_choice(answer, options, allow_none=allow_none).value


def loosest(rules) -> str:
    """The latest of ``rules`` in :data:`RULES` (what it took to read a list of items).

    >>> loosest(["exact", "tidy", "case"])
    'tidy'
    """
    order = {r: i for i, r in enumerate((*RULES, "partial"))}
    return max(rules, key=lambda r: order.get(r, -1))


def read_items(answer, options, limit: int | None = None) -> tuple[list[str], list[str]]:
    r"""The distinct options an answer lists, item by item (:func:`_items_of`), and their rules.

    Each item is read by :func:`read_choice`; one that names no single option (a heading, a
    remark) and an option listed again are passed over; at most ``limit`` are read.

    >>> read_items("My picks:\n1. **Dog**\n2. dog\n3. cat", ["dog", "cat"])
    (['dog', 'cat'], ['tidy', 'exact'])
    """
    out: list[str] = []
    rules: list[str] = []
    for item in _items_of(str(answer)):
        if limit is not None and len(out) >= int(limit):
            break
        try:
            got = read_choice(item, options)
        except AnswerError:
            continue
        if got.value not in out:
            out.append(got.value)
            rules.append(got.rule)
    return out, rules


def read_ranking(answer, options) -> Reading:
    r"""The options in the order ``answer`` lists them (one per line, or per comma on one line).

    Each item is read as :func:`read_choice` reads an answer (numbering, markdown, a reason
    after the word are fine); an item that names no single option (a heading, a remark) and
    an option listed again are passed over. When every option is listed the rule is the
    loosest one any item needed; an answer that lists only some is read as a ranking of
    those, the others after them in the order they were shown (rule ``partial``: the
    receiver's "no move" for the words it did not rank). An answer that lists no option
    raises :class:`AnswerError`.

    >>> read_ranking("1. pear\n2. apple", ["apple", "pear"])
    Reading(value=['pear', 'apple'], rule='tidy')
    >>> read_ranking("**Pear** is closest", ["apple", "pear", "fig"])
    Reading(value=['pear', 'apple', 'fig'], rule='partial')
    """
    opts = [str(o) for o in options]
    out, rules = read_items(answer, opts)
    if not out:
        raise AnswerError(f"the answer {str(answer)[:80]!r} ranks none of the {len(opts)} words")
    if len(out) < len(opts):
        return Reading(out + [o for o in opts if o not in out], "partial")
    rule = loosest(rules)
    plain = {sep.join(out) for sep in ("\n", ", ", ",")}
    if rule == "exact" and str(answer).strip() not in plain:  # numbering, blank lines
        rule = "tidy"
    return Reading(out, rule)


def parse_ranking(answer: str, options) -> list[str]:
    r"""Every option once, in the order ``answer`` ranks them (:func:`read_ranking`).

    >>> parse_ranking("pear", ["apple", "pear"])
    ['pear', 'apple']
    >>> parse_ranking("I cannot rank these", ["apple", "pear"])
    Traceback (most recent call last):
    ...
    wordgames.subjects.AnswerError: the answer 'I cannot rank these' ranks none of the 2 words
    """
    return read_ranking(answer, options).value


# --------------------------------------------------------------------------- plug-ins
#: the entry-point group of subject kinds: the entry's name is a spec's prefix (``chat`` for
#: ``"chat:MODEL"``), its value a function of the rest of the spec that returns the subject
ENTRY_POINT_GROUP = "wordgames.subjects"


def subject_factories() -> dict:
    """``{prefix: entry point}`` of the installed plug-ins' subject kinds (loaded when used)."""
    from importlib.metadata import entry_points

    return {ep.name: ep for ep in entry_points(group=ENTRY_POINT_GROUP)}


#: subject kinds of the package itself, by prefix (``chat:MODEL``); plug-ins add theirs
BUILTIN_KINDS = {
    "chat": "wordgames.llm.subject:from_spec",
    "embed": "wordgames.llm.embed:from_spec",  # an embeddings service, encoded into vectors
    "gguf": "wordgames.llm.gguf:from_spec",  # a GGUF model in this process: exact log-probs
}


#: where each built-in kind's options are declared (its factory passes them on to it)
BUILTIN_KIND_OPTIONS = {
    "chat": "wordgames.llm.subject:ChatSubject",
    "embed": "wordgames.llm.embed:embed_embedding",
    "gguf": "wordgames.llm.gguf:GGUFSubject",
}


def from_spec(spec, **options):
    """The subject a ``"prefix:rest"`` string names (built-in kind or plug-in), else ``None``.

    Parameters
    ----------
    spec : str
        ``"chat:MODEL"``, ``"embed:MODEL"``, ``"gguf:NAME"`` or a plug-in kind's
        ``"PREFIX:NAME"``.
    **options
        Passed to the kind's factory (a chat subject's ``base_url``...;
        :func:`kind_parameters` lists them).

    Returns
    -------
    object or None
        The subject; ``None`` when ``spec`` names no kind.

    Examples
    --------
    >>> from_spec("glove-6b-50d") is None
    True
    """
    if not isinstance(spec, str) or ":" not in spec:
        return None
    prefix, _, rest = spec.partition(":")
    if prefix in BUILTIN_KINDS:
        from wordgames.measure import load_entry

        return load_entry(BUILTIN_KINDS[prefix])(rest, **options)
    ep = subject_factories().get(prefix)
    return None if ep is None else ep.load()(rest, **options)


def kind_of(spec) -> str:
    """The subject kind a ``"prefix:rest"`` spec names (built-in or plug-in), else ``""``.

    Parameters
    ----------
    spec : object
        What was given as a subject.

    Returns
    -------
    str

    Examples
    --------
    >>> kind_of("chat:gpt-4o-mini"), kind_of("glove-6b-50d"), kind_of("transformer:m")
    ('chat', '', '')
    """
    if not isinstance(spec, str) or ":" not in spec:
        return ""
    prefix = spec.partition(":")[0]
    return prefix if prefix in BUILTIN_KINDS or prefix in subject_factories() else ""


def kind_parameters(kind: str) -> dict:
    """``{name: type hint}`` of the options subject kind ``kind`` takes, from its signature.

    A built-in kind's are those of what its factory builds (:data:`BUILTIN_KIND_OPTIONS`); a
    plug-in's those of its factory after the spec's rest.

    Parameters
    ----------
    kind : str
        A kind's prefix (:func:`kind_of`).

    Returns
    -------
    dict of str to type hint

    Examples
    --------
    >>> sorted(kind_parameters("gguf"))[:3]
    ['answers', 'cache_path', 'max_tokens']
    """
    import inspect
    import typing

    from wordgames.measure import load_entry

    if kind in BUILTIN_KIND_OPTIONS:
        target = load_entry(BUILTIN_KIND_OPTIONS[kind])
    else:
        target = subject_factories()[kind].load()
    call = target.__init__ if isinstance(target, type) else target
    hints = typing.get_type_hints(call)
    params = list(inspect.signature(call).parameters.values())
    named = (inspect.Parameter.KEYWORD_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    skip = 2 if isinstance(target, type) else 1  # self and the model, or the spec's rest
    return {p.name: hints.get(p.name, str) for p in params[skip:] if p.kind in named}


def kind_options(kind: str, flags: dict, given: dict) -> dict:
    """The keyword arguments of kind ``kind``'s factory.

    ``flags`` are a run's own settings, passed where the kind has a parameter of that name;
    ``given`` (``{key: text}``, ``--subject-option``) is read by the parameter's type, and a
    key the kind lacks is a :class:`~wordgames.errors.WordgamesError` with the known ones.

    Parameters
    ----------
    kind : str
        A kind's prefix.
    flags : dict
        The run's settings by name.
    given : dict of str to str
        ``--subject-option`` texts.

    Returns
    -------
    dict
        The factory's keyword arguments.

    Examples
    --------
    >>> kind_options("gguf", {"answers": "free", "base_url": None}, {"n_threads": "4"})
    {'answers': 'free', 'n_threads': 4}
    """
    import difflib

    from wordgames.optiontext import parse_value

    params = kind_parameters(kind)
    out = {k: v for k, v in flags.items() if k in params}
    for key, text in given.items():
        if key not in params:
            close = difflib.get_close_matches(key, list(params), n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise WordgamesError(
                f"--subject-option {key}: the {kind}: subjects have no option {key!r}{hint}; "
                f"known: {', '.join(params) or 'none'}"
            )
        try:
            out[key] = parse_value(text, params[key])
        except ValueError:
            raise WordgamesError(f"--subject-option {key}={text}: not a {params[key]}") from None
    return out


def chat(model: str, **kwargs):
    """A chat model behind an OpenAI-compatible server (:class:`wordgames.llm.ChatSubject`).

    The kind lives above this module (:mod:`wordgames.llm`) and is loaded by name, as a
    plug-in's is.

    Parameters
    ----------
    model : str
        The model's name on the server.
    **kwargs
        :class:`~wordgames.llm.ChatSubject`'s options: ``base_url``, ``api_key_env`` (the
        name of the variable holding the key, never the key), ``max_requests``...

    Returns
    -------
    ChatSubject

    Examples
    --------
    >>> m = chat("smollm2", base_url="http://127.0.0.1:9/v1", probe=False)  # nothing is sent
    >>> m.name, m.base_url
    ('chat:smollm2', 'http://127.0.0.1:9/v1')
    """
    from wordgames.measure import load_entry

    return load_entry(BUILTIN_KINDS["chat"])(model, **kwargs)
