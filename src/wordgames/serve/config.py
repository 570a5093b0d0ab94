"""A study's configuration: one TOML (or JSON) file, or the options of ``wordgames serve``.

A study is one game played by many participants. Its file says which game, how many trials,
which agents or conditions are balanced across participants, where the words, graph or puzzles
come from, the texts shown (consent, instructions), the attention checks and the completion
code. Everything that decides *what* a participant sees (the design) is hashed: a study already
in the database may change its texts but not its design (start a new study with a new slug).

Example (``docs/serve.md`` lists every key)::

    slug = "cn-receiver"
    game = "codenames-receiver"
    trials = 8
    seed = 0
    completion_code = "C1A2B3"

    [codenames]
    agents = ["cluster", "exhaustive:avg_blue_dist"]
    n_blue = 6
    n_red = 6
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

from wordgames.errors import WordgamesError

GAMES = ("codenames-receiver", "codenames-sender", "wiki", "oddmanout", "oddmanout-crowd")
SLUG_RE = re.compile(r"^[a-z0-9][a-z0-9-]{0,39}$")
MAX_TRIALS = 200
MAX_STUDY_BYTES = 1 << 20  # a study file is a page of options


class StudyConfigError(WordgamesError, ValueError):
    """A study file or option is invalid (the message names the key and what was expected)."""


DEFAULT_TEXTS = {
    "title": "A word game",
    "consent": (
        "This is a research study on how people associate words. You will play a short word "
        "game with a computer partner. Taking part is voluntary: you may stop at any time by "
        "closing this page. We store your answers and the time you took; if you came from a "
        "recruitment platform we store your platform id only as a salted one-way hash. No other "
        "personal data is collected."
    ),
    "instructions": "Read each screen, then answer. There are no trick questions.",
    "done": "Thank you! Your answers are saved.",
}

GAME_INSTRUCTIONS = {
    "codenames-receiver": (
        "A computer partner sees which words on the board are its team's. It gives you one clue "
        "word and a number. Pick that many board words that you think the clue points to, the "
        "best match first."
    ),
    "codenames-sender": (
        "You see a board: the blue words are your team's, the red ones are to avoid. Give a "
        "one-word clue (not a board word) that links as many blue words as you can, say which "
        "blue words you meant, and the number of them."
    ),
    "wiki": (
        "Get from the start article to the target article by following links only. Each page "
        "lists the articles it links to. Use 'Back' to return; 'Give up' ends the round."
    ),
    "oddmanout": (
        "Five words are shown. Four of them belong together; pick the one that does not. If no "
        "single word stands out, choose 'none fits'. You may name what the four have in common."
    ),
    "oddmanout-crowd": (
        "You see a word and one of its meanings (a category). Give more examples of that "
        "category: words that belong with it but are different from the word shown."
    ),
}


@dataclass(frozen=True)
class AttentionConfig:
    """Attention checks of a study: where they come and what a failure leads to.

    ``positions`` (0-based trial positions where a check is inserted), ``action`` (``"flag"``:
    the participant finishes and is flagged; ``"end"``: the study ends without completion code),
    and ``items`` (game-specific checks; empty: the built-in one).
    """

    positions: tuple[int, ...] = ()
    action: str = "flag"
    items: tuple[dict, ...] = ()


@dataclass(frozen=True)
class StudyConfig:
    """One study. See the module docstring and ``docs/serve.md``.

    Parameters
    ----------
    slug : str
        URL name of the study (``/s/<slug>/``): lower-case letters, digits, ``-``.
    game : str
        One of :data:`GAMES`.
    trials : int
        Trials per participant (attention checks come on top).
    pool_size : int
        Items generated per condition; each participant gets a seeded sample of ``trials``.
    seed : int
        Seed of every random choice (boards, samples, orders).
    completion_code, completion_url : str
        Shown at the end; the URL (``{code}`` is replaced) is offered as a link and followed.
    require_pid : bool
        Only accept participants who come with ``PROLIFIC_PID``.
    texts : dict
        ``title``, ``consent``, ``instructions``, ``done`` (plain text, escaped when shown).
    attention : AttentionConfig
    codenames, wiki, oddmanout : dict
        Game options (see ``docs/serve.md``).
    """

    slug: str
    game: str
    trials: int = 10
    pool_size: int = 40
    seed: int = 0
    completion_code: str = ""
    completion_url: str = ""
    require_pid: bool = False
    texts: dict = field(default_factory=dict)
    attention: AttentionConfig = field(default_factory=AttentionConfig)
    codenames: dict = field(default_factory=dict)
    wiki: dict = field(default_factory=dict)
    oddmanout: dict = field(default_factory=dict)

    def __post_init__(self):
        # each field's type first: str() of a number or a date would pass a pattern ("nan",
        # "0", "2024-01-01"), and of an integer of 5,000 digits raise
        for key in ("slug", "game", "completion_code", "completion_url"):
            v = getattr(self, key)
            _check(isinstance(v, str), key, f"a string; got {_shown(v)}")
        _check(
            SLUG_RE.match(self.slug) is not None,
            "slug",
            f"lower-case letters, digits and '-', at most 40 characters; got {self.slug!r}",
        )
        _check(self.game in GAMES, "game", f"one of {', '.join(GAMES)}; got {self.game!r}")
        for key in ("trials", "pool_size", "seed"):
            _check(
                _is_int(getattr(self, key)), key, f"an integer; got {_shown(getattr(self, key))}"
            )
        _check(0 <= self.seed < 2**63, "seed", f"from 0 to 2**63 - 1; got {_shown(self.seed)}")
        _check(isinstance(self.require_pid, bool), "require_pid",
               f"true or false; got {_shown(self.require_pid)}")  # fmt: skip
        _check(isinstance(self.texts, dict) and all(isinstance(v, str) for v in self.texts.values()),
               "texts", "a table of strings")  # fmt: skip
        _check(1 <= self.trials <= MAX_TRIALS, "trials", f"between 1 and {MAX_TRIALS}")
        _check(self.pool_size >= self.trials, "pool_size", f"at least trials ({self.trials})")
        _check(self.pool_size <= 5000, "pool_size", "at most 5000")
        _check(
            re.fullmatch(r"[A-Za-z0-9_-]{0,64}", self.completion_code) is not None,
            "completion_code",
            "letters, digits, '_' or '-' (at most 64)",
        )
        _check(
            self.completion_url == "" or self.completion_url.startswith(("https://", "http://")),
            "completion_url",
            "an http(s) URL",
        )
        unknown = set(self.texts) - set(DEFAULT_TEXTS)
        _check(
            not unknown, "texts", f"keys among {', '.join(DEFAULT_TEXTS)}; got {sorted(unknown)}"
        )
        cv = self.codenames.get("clue_vocabulary", "auto")
        _check(
            cv in ("auto", "nounlist", "content", "embedding"),
            "codenames.clue_vocabulary",
            f"'auto', 'nounlist', 'content' or 'embedding'; got {_shown(cv)}",
        )
        for key in ("reveal_targets", "no_shared_stem", "no_substring"):
            if key in self.codenames:
                v = self.codenames[key]
                _check(isinstance(v, bool), f"codenames.{key}", f"true or false; got {_shown(v)}")
        _check_game_options(self)
        att = self.attention
        _check(att.action in ("flag", "end"), "attention.action", "'flag' or 'end'")
        _check_attention_items(self.game, att.items)
        _check(
            all(isinstance(p, int) and 0 <= p <= self.trials for p in att.positions),
            "attention.positions",
            f"positions between 0 and {self.trials}",
        )

    # ------------------------------------------------------------------ views
    def text(self, key: str) -> str:
        """A text of the study: its own, else the game's instructions / the default."""
        if key in self.texts:
            return str(self.texts[key])
        if key == "instructions":
            return GAME_INSTRUCTIONS[self.game]
        return DEFAULT_TEXTS[key]

    def option(self, section: str, key: str, default: Any = None) -> Any:
        """A game option (``section`` is ``codenames``, ``wiki`` or ``oddmanout``)."""
        return getattr(self, section).get(key, default)

    @property
    def conditions(self) -> tuple[str, ...]:
        """Conditions balanced across participants.

        The Codenames agents of a ``codenames-receiver`` study (and the feedback receivers of a
        ``codenames-sender`` study), else one condition, ``"default"``.
        """
        if self.game == "codenames-receiver":
            return tuple(self.option("codenames", "agents", ("cluster",)))
        if self.game == "codenames-sender":
            return tuple(self.option("codenames", "feedback_agents", ("nearest",))) or ("none",)
        return ("default",)

    def to_dict(self) -> dict:
        d = asdict(self)
        d["attention"] = {k: list(v) for k, v in d["attention"].items() if k != "action"} | {
            "action": self.attention.action
        }
        return d

    def design_sha(self) -> str:
        """sha256 of the study's design: what a running study may not change.

        Everything but the texts and the completion code/URL is hashed.
        """
        d = self.to_dict()
        for k in ("texts", "completion_code", "completion_url"):
            d.pop(k)
        return hashlib.sha256(json.dumps(d, sort_keys=True).encode()).hexdigest()


def _check(ok: bool, key: str, expected: str) -> None:
    if not ok:
        raise StudyConfigError(f"study option '{key}': expected {expected}")


#: whole-number game options and their allowed ranges (checked when the study is set up, so
#: that no value breaks a page at play time or asks for unbounded memory)
INT_OPTIONS = {
    ("codenames", "vocab_size"): (1, 10_000_000),
    ("codenames", "n_blue"): (1, 25),
    ("codenames", "n_red"): (0, 25),
    ("codenames", "n_restarts"): (1, 1000),
    ("codenames", "max_number"): (1, 25),
    ("wiki", "max_clicks"): (1, 1000),
    ("wiki", "min_distance"): (1, 100),
    ("wiki", "max_distance"): (1, 100),
    ("wiki", "max_links_shown"): (1, 10_000),
    ("oddmanout", "n_examples"): (1, 20),
    ("oddmanout", "min_examples"): (1, 20),
}
BOOL_OPTIONS = {("codenames", "clue_in_vocabulary"), ("oddmanout", "ask_category")}
TEXT_OPTIONS = {("codenames", "embedding"), ("codenames", "word_list"), ("wiki", "graph"),
                ("wiki", "names"), ("wiki", "pairs"), ("oddmanout", "puzzles"),
                ("oddmanout", "embedding")}  # fmt: skip
LIST_OPTIONS = {("codenames", "agents"), ("codenames", "feedback_agents")}


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _shown(value) -> str:
    """A value as a message shows it: its type, and a long one cut (never str() of a huge int)."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > 10**30:
        return f"an integer of {value.bit_length()} bits"
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _check_game_options(cfg: StudyConfig) -> None:
    """Every game option of ``cfg`` has its type and range (:data:`INT_OPTIONS`...)."""
    for (section, key), (lo, hi) in INT_OPTIONS.items():
        if key in getattr(cfg, section):
            v = getattr(cfg, section)[key]
            _check(_is_int(v) and lo <= v <= hi, f"{section}.{key}",
                   f"a whole number from {lo} to {hi}; got {_shown(v)}")  # fmt: skip
    for section, key in BOOL_OPTIONS:
        if key in getattr(cfg, section):
            v = getattr(cfg, section)[key]
            _check(isinstance(v, bool), f"{section}.{key}", f"true or false; got {_shown(v)}")
    for section, key in TEXT_OPTIONS:
        if key in getattr(cfg, section):
            v = getattr(cfg, section)[key]
            _check(isinstance(v, str) and 0 < len(v) <= 4096 and v.isprintable(),
                   f"{section}.{key}", f"a file name or a name; got {_shown(v)}")  # fmt: skip
    for section, key in LIST_OPTIONS:
        if key in getattr(cfg, section):
            v = getattr(cfg, section)[key]
            _check(isinstance(v, list | tuple) and 0 < len(v) <= 50
                   and all(isinstance(x, str) and x.isprintable() for x in v),
                   f"{section}.{key}", f"a list of agent names; got {_shown(v)}")  # fmt: skip
    omo, wiki = cfg.oddmanout, cfg.wiki
    _check(omo.get("min_examples", 3) <= omo.get("n_examples", 5), "oddmanout.min_examples",
           f"at most n_examples ({omo.get('n_examples', 5)}): no answer could pass")  # fmt: skip
    _check(wiki.get("min_distance", 1) <= wiki.get("max_distance", 100), "wiki.min_distance",
           "at most wiki.max_distance")  # fmt: skip


#: the fields of an attention item of each game and their kinds ("words": a list of words)
ATTENTION_FIELDS = {
    "codenames-receiver": {"board": "words", "blue": "words", "red": "words", "clue": "text",
                           "number": "count", "expect": "words"},
    "codenames-sender": {"board": "words", "blue": "words", "red": "words", "expect": "words"},
    "wiki": {"start": "text", "target": "text"},
    "oddmanout": {"words": "words", "answer": "text"},
    "oddmanout-crowd": {"seed": "text", "category": "text", "instructed": "text"},
}  # fmt: skip


def _field_ok(value, kind: str) -> bool:
    if kind == "count":
        return _is_int(value) and 1 <= value <= 25
    if kind == "text":
        return isinstance(value, str) and 0 < len(value) <= 200 and value.isprintable()
    return (
        isinstance(value, list)
        and 0 < len(value) <= 50
        and all(isinstance(w, str) and 0 < len(w) <= 200 and w.isprintable() for w in value)
    )


def _check_attention_items(game: str, items) -> None:
    """Each attention item has the fields its game needs (a ``{}`` broke the page)."""
    want = ATTENTION_FIELDS[game]
    for i, item in enumerate(items):
        key = f"attention.items[{i}]"
        _check(isinstance(item, dict), key, "a table of the check's fields")
        missing = [f for f in want if f not in item]
        _check(not missing, key, f"the fields {', '.join(want)}; missing {', '.join(missing)}")
        bad = [f for f, kind in want.items() if not _field_ok(item[f], kind)]
        _check(not bad, key, f"valid {', '.join(bad)} (words: lists of plain words)")


_SECTION_KEYS = {
    "codenames": {
        "agents",
        "feedback_agents",
        "embedding",
        "vocab_size",
        "n_blue",
        "n_red",
        "word_list",
        "no_shared_stem",
        "no_substring",
        "clue_in_vocabulary",
        "n_restarts",
        "max_number",
        "clue_vocabulary",
        "reveal_targets",
        "base_url",
        "api_key_env",
    },
    "wiki": {
        "graph",
        "names",
        "pairs",
        "max_clicks",
        "min_distance",
        "max_distance",
        "max_links_shown",
    },
    "oddmanout": {"puzzles", "ask_category", "seeds", "n_examples", "min_examples", "embedding"},
}


def study_from_dict(data: dict, *, source: str = "<options>") -> StudyConfig:
    """Build a :class:`StudyConfig` from parsed TOML/JSON; unknown keys are errors.

    Raises
    ------
    StudyConfigError : naming ``source``, the key and what was expected
    """
    if not isinstance(data, dict):
        raise StudyConfigError(f"{source}: expected a table of study options")
    known = {f.name for f in fields(StudyConfig)}
    unknown = set(data) - known
    if unknown:
        raise StudyConfigError(
            f"{source}: unknown study option(s) {', '.join(sorted(unknown))}; "
            f"known: {', '.join(sorted(known))}"
        )
    kw = dict(data)
    att = kw.pop("attention", {}) or {}
    if not isinstance(att, dict) or set(att) - {"positions", "action", "items"}:
        raise StudyConfigError(f"{source}: [attention] takes positions, action, items")
    for key in ("positions", "items"):
        if not isinstance(att.get(key, []), list):
            raise StudyConfigError(f"{source}: attention.{key} must be a list")
    kw["attention"] = AttentionConfig(
        tuple(att.get("positions", ())), att.get("action", "flag"), tuple(att.get("items", ()))
    )
    for section, keys in _SECTION_KEYS.items():
        sec = kw.get(section, {}) or {}
        if not isinstance(sec, dict) or set(sec) - keys:
            raise StudyConfigError(
                f"{source}: [{section}] takes {', '.join(sorted(keys))}; got "
                f"{sorted(set(sec) - keys) if isinstance(sec, dict) else _shown(sec)}"
            )
        kw[section] = sec
    try:
        return StudyConfig(**kw)
    except StudyConfigError as exc:
        raise StudyConfigError(f"{source}: {exc}") from None
    except TypeError as exc:
        raise StudyConfigError(f"{source}: {exc}") from None


def load_study_file(path: str | Path) -> StudyConfig:
    """Read a study file (``.toml`` or ``.json``).

    Raises
    ------
    StudyConfigError : unreadable file, bad syntax or invalid option
    """
    path = Path(path)
    if not path.is_file():
        raise StudyConfigError(f"{path}: no such study file (or not a regular file)")
    if path.stat().st_size > MAX_STUDY_BYTES:
        raise StudyConfigError(f"{path}: larger than {MAX_STUDY_BYTES:,} bytes: not a study file")
    try:
        text = path.read_bytes().decode("utf-8")
    except UnicodeDecodeError as exc:
        raise StudyConfigError(
            f"{path}: not UTF-8 text (byte {exc.start}: {exc.reason}); save it as UTF-8"
        ) from None
    try:
        if path.suffix.lower() == ".json":
            data = json.loads(text)
        else:
            import tomllib

            data = tomllib.loads(text)
    except ValueError as exc:  # JSONDecodeError and TOMLDecodeError are ValueErrors
        raise StudyConfigError(f"{path}: cannot parse: {exc}") from None
    except RecursionError:
        raise StudyConfigError(f"{path}: cannot parse: nested too deeply") from None
    return study_from_dict(data, source=str(path))


def builtin_studies() -> list[Path]:
    """The demo studies shipped with the package (one per game)."""
    folder = Path(__file__).parent / "studies"
    return sorted(folder.glob("*.toml"))
