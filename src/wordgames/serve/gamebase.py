"""What every game shares: the :class:`Game` interface, :class:`AnswerError`, checked fields.

The checked form fields are used by every game; see :mod:`wordgames.serve.games` for the games
themselves.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

import numpy as np

from wordgames.errors import WordgamesError
from wordgames.serve.config import StudyConfig
from wordgames.textio import BAD_WORD_CHARS

WORD_RE = re.compile(r"^[a-z][a-z' -]{0,39}$")
CLUE_RE = re.compile(r"[^\W\d_](?:[\w'-]*[^\W_])?")  # letters (any script), ' and - inside
MAX_FIELD = 200
ANIMALS = ("dog", "cat", "horse", "cow", "sheep", "lion", "tiger", "rabbit")
UNRELATED = (
    "piano",
    "bridge",
    "salt",
    "window",
    "paper",
    "engine",
    "cloud",
    "ticket",
    "mirror",
    "carpet",
    "pencil",
    "bottle",
    "ladder",
    "button",
    "candle",
    "wallet",
    "helmet",
    "tunnel",
    "anchor",
    "basket",
    "blanket",
    "kettle",
    "magnet",
    "napkin",
)


class AnswerError(WordgamesError, ValueError):
    """An answer that breaks a rule; the message is shown to the participant."""


def field(form: Mapping, key: str, *, required: bool = True, max_len: int = MAX_FIELD) -> str:
    """A form field, stripped; bounded in length; required unless told otherwise."""
    value = form.get(key)
    if value is None or not isinstance(value, str):
        value = ""
    value = value.strip()
    if len(value) > max_len:
        raise AnswerError(f"'{key}' is too long (at most {max_len} characters)")
    if BAD_WORD_CHARS.search(value) or _BIDI.search(value):  # a line break, NUL, escape...
        raise AnswerError(f"'{key}' holds a control character: type plain text")
    if required and not value:
        raise AnswerError(f"please fill in '{key}'")
    return value


_ASCII_DIGITS = re.compile(r"[0-9]{1,18}")
#: bidirectional controls: not control characters of a word, but no place in a typed answer
_BIDI = re.compile("[\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def count_field(value, name: str, *, lo: int = 0, hi: int = 2**31 - 1) -> int:
    """A whole number a participant's form sent, checked: ``lo <= n <= hi``.

    Only ASCII digits count (``str.isdigit`` also takes ``"²"``, which ``int`` refuses), and
    at most 18 of them, so that nothing reaches ``int`` or the database that they would
    refuse. Anything else is an :class:`AnswerError` (HTTP 4xx), never a 500.

    >>> count_field("3", "number", lo=1, hi=5)
    3
    >>> count_field("²", "number")
    Traceback (most recent call last):
    ...
    wordgames.serve.gamebase.AnswerError: 'number' must be a whole number from 0 to 2147483647
    """
    text = value.strip() if isinstance(value, str) else ""
    n = int(text) if _ASCII_DIGITS.fullmatch(text) else None
    if n is None or not lo <= n <= hi:
        raise AnswerError(f"{name!r} must be a whole number from {lo} to {hi}")
    return n


def seeded_rng(*parts: int) -> np.random.Generator:
    """A generator seeded by the given integers (study seed, purpose...)."""
    return np.random.default_rng([int(p) & 0xFFFFFFFF for p in parts])


class Game:
    """A game (base class): items, attention checks, checked answers and their outcomes.

    :mod:`wordgames.serve.games` describes the interface.
    """

    name = ""

    def generate(self, cfg: StudyConfig) -> dict[str, list[dict]]:  # pragma: no cover
        """``{condition: [payload, ...]}``: the study's items, seeded."""
        raise NotImplementedError

    def attention(self, cfg: StudyConfig) -> list[dict]:
        """The attention checks: the study's own, else the game's built-in one."""
        return [dict(i) for i in cfg.attention.items]

    def public(self, payload: dict) -> dict:
        """What the trial page may show of an item."""
        return payload

    def warm(self, cfg: StudyConfig) -> None:
        """Load what answering needs (embedding, agents, graph) before the first request."""

    def check(self, cfg: StudyConfig, payload: dict, form: Mapping) -> dict:  # pragma: no cover
        """The answer in a form, checked; :class:`AnswerError` says what is wrong."""
        raise NotImplementedError

    def outcome(self, cfg, payload, answer, condition, kind) -> dict:
        """What an answer leads to: ``attention_ok`` (None for a trial), feedback..."""
        return {"attention_ok": None}
