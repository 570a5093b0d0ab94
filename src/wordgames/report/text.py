"""How the report puts numbers, skipped items, OOV records and notes into words.

Every count of left-out items is said in words (``skipped 4 of 196: clue not in vocabulary``);
no raw key such as ``n_oov_words`` and no Python ``dict`` repr reaches a reader: structured OOV
records and notes that carry a mapping are rewritten here.
"""

from __future__ import annotations

import ast
import math
import re
from collections.abc import Mapping

_IDENT = re.compile(r"[a-z][a-z0-9]*(?:_[a-z0-9@.]+)+")
_WORDS = {"oov": "out-of-vocabulary", "pct": "%", "n": "number of", "num": "number of"}
_WHOLE = {"n_skipped": "skipped", "ci_low": "CI low", "ci_high": "CI high", "skip_reason": "why"}
_OPENING = re.compile(r"[{\[]")


def format_number(value) -> str:
    """How numbers are shown.

    Integers with thousands separators, others to 4 significant digits, missing ones as ``n/a``.

    >>> format_number(1234.0), format_number(0.123456), format_number(None), format_number(12)
    ('1,234', '0.1235', 'n/a', '12')
    >>> format_number(11785.14), format_number(float("nan"))
    ('11,785', 'n/a')
    """
    if value is None or isinstance(value, bool):
        return "n/a" if value is None else str(value)
    if isinstance(value, int):
        return f"{value:,}"
    try:
        v = float(value)
    except (TypeError, ValueError):
        return str(value)
    if not math.isfinite(v):
        return "n/a"
    if v.is_integer() and abs(v) < 1e15:
        return f"{int(v):,}"
    if abs(v) >= 1000:
        return f"{v:,.0f}"
    return f"{v:.4g}"


def finite(value) -> bool:
    """A number that is neither missing nor NaN/infinite."""
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def skipped_text(n_skipped, n=None, reason: str = "", n_oov=0, n_unread=0, reads=False) -> str:
    """What was left out of a value, or kept in it without every word known.

    The base is always the data set's item count, ``n + n_skipped`` (one meaning of ``n``).

    >>> skipped_text(3, 97, "pairs with an OOV word"), skipped_text(0, 10)
    ('skipped 3 of 100: pairs with an OOV word', '')
    >>> skipped_text(0, 585, "puzzles with a word not in the vocabulary (counted as abstained)", 56)
    'out of vocabulary 56 of 585: puzzles with a word not in the vocabulary (counted as abstained)'
    >>> skipped_text(0, 30, n_unread=3)
    "unreadable answers 3 of 30, scored as the game's no move"

    ``reads``: the score is of an agent whose answers are read (a model's): its count is shown
    even when no answer was unreadable, so a reader sees the answers were checked.

    >>> skipped_text(0, 30, n_unread=0, reads=True)
    'unreadable answers 0 of 30'
    """
    parts = []
    total = f" of {format_number(n + (n_skipped or 0))}" if finite(n) else ""
    if finite(n_skipped) and n_skipped:
        parts.append(f"skipped {format_number(n_skipped)}{total}")
    if finite(n_oov) and n_oov:
        parts.append(f"out of vocabulary {format_number(n_oov)}{total}")
    unread = ""
    if finite(n_unread) and (n_unread or reads):
        unread = f"unreadable answers {format_number(n_unread)}{total}" + (
            ", scored as the game's no move" if n_unread else ""
        )
    if not parts:
        return unread
    return "; ".join(filter(None, [", ".join(parts) + (f": {reason}" if reason else ""), unread]))


def score_skipped_text(score, reads: bool = False) -> str:
    """:func:`skipped_text` of a :class:`~wordgames.measure.Score` (every printer calls this).

    ``reads``: the score's agent reads a model's answers (:func:`reading_agents`).
    """
    return skipped_text(
        score.n_skipped,
        score.n,
        score.skip_reason,
        getattr(score, "n_oov", 0),
        getattr(score, "n_unread", 0),
        reads,
    )


def reading_agents(tables) -> set[tuple[str, str]]:
    """``(data set, agent)`` pairs whose answers were read, from a result's ``answers_read``.

    >>> sorted(reading_agents({"answers_read": [{"dataset": "d", "agent": "player"}]}))
    [('d', 'player')]
    """
    rows = (tables or {}).get("answers_read") or []
    return {(str(r.get("dataset")), str(r.get("agent"))) for r in rows if isinstance(r, dict)}


def thin_text(reason: str) -> str:
    """The words shown beside a thin score.

    >>> thin_text("coverage 4 of 196 (2%) is below 50%")
    'thin, not ranked: coverage 4 of 196 (2%) is below 50%'
    """
    return "thin, not ranked" + (f": {reason}" if reason else "")


def key_words(key) -> str:
    """A field name in words (``n_oov_words`` -> ``number of out-of-vocabulary words``).

    Only snake_case identifiers are rewritten; names of data sets, agents or words are kept.

    >>> key_words("n_oov_words"), key_words("tasks_excluded_target_without_vector")
    ('number of out-of-vocabulary words', 'tasks excluded target without vector')
    >>> key_words("codenames-pilot/cluster"), key_words("ferals"), key_words("oov_clue")
    ('codenames-pilot/cluster', 'ferals', 'out-of-vocabulary clue')
    """
    k = str(key)
    if k in _WHOLE:
        return _WHOLE[k]
    if not _IDENT.fullmatch(k):
        return k
    parts = k.split("_")
    out = [_WORDS.get(p, p) if (i == 0 or p != "n") else p for i, p in enumerate(parts)]
    return " ".join(out)


def value_words(value) -> str:
    """Any stored value in words: mappings as ``key: value; ...``, sequences comma-joined.

    >>> value_words({"oov_clue": 2, "board_word": 1}), value_words([]), value_words(None)
    ('out-of-vocabulary clue: 2; board word: 1', 'none', 'none')
    >>> value_words({"repairs": {"empty fields cut": 99}, "dropped": {}})
    'repairs: empty fields cut (99); dropped: none'
    """
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int | float):
        return format_number(value)
    if isinstance(value, Mapping):
        if not value:
            return "none"
        return "; ".join(f"{key_words(k)}: {_inner_words(v)}" for k, v in value.items())
    if isinstance(value, list | tuple | set):
        return ", ".join(value_words(v) for v in value) if value else "none"
    return str(value)


def _inner_words(value) -> str:
    """A value inside a mapping: a nested mapping as ``name (count), ...``."""
    if isinstance(value, Mapping):
        if not value:
            return "none"
        return ", ".join(f"{key_words(k)} ({value_words(v)})" for k, v in value.items())
    return value_words(value)


def note_text(note) -> str:
    """A note in words: a trailing Python mapping or list repr is rewritten.

    >>> note_text("salt: {'repairs': {}, 'dropped': {'guess row with no guess': 13}}")
    'salt: repairs: none; dropped: guess row with no guess (13)'
    >>> note_text("quick mode (k): {'k': 100, 'gammas': (0.0, 1.0)}")
    'quick mode (k): k: 100; gammas: 0, 1'
    >>> note_text("plain words {not a dict}"), note_text("kept (1, 2)")
    ('plain words {not a dict}', 'kept (1, 2)')
    """
    if not isinstance(note, str):
        return value_words(note)
    for m in _OPENING.finditer(note):
        body = note[m.start() :].rstrip()
        if body[-1:] not in "}]":
            break
        try:
            value = ast.literal_eval(body)
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            continue
        if isinstance(value, Mapping | list):
            return note[: m.start()] + value_words(value)
    return note


def oov_rows(oov: Mapping, _path: tuple[str, ...] = ()) -> list[tuple[str, str]]:
    """A result's OOV record as ``(where, what)`` rows in words.

    Nested mappings become paths (``men / pairs``); a mapping of counts is one row.

    >>> oov_rows({"men": {"pairs": 3000, "oov_pairs": 4, "examples": ["xq", "zz"]}})
    [('men / pairs', '3,000'), ('men / out-of-vocabulary pairs', '4'), ('men / examples', 'xq, zz')]
    >>> oov_rows({"a/b": {"skipped": {"oov_clue": 1}, "oov_words": {}}})
    [('a/b / skipped', 'out-of-vocabulary clue: 1'), ('a/b / out-of-vocabulary words', 'none')]
    """
    rows: list[tuple[str, str]] = []
    for k, v in oov.items():
        path = (*_path, key_words(k))
        if isinstance(v, Mapping) and v and any(isinstance(x, Mapping) for x in v.values()):
            rows += oov_rows(v, path)
        elif isinstance(v, Mapping) and v and not _path:
            rows += oov_rows(v, path)  # a data set's counts: one row per count
        else:
            rows.append((" / ".join(path), value_words(v)))
    return rows


def ci_text(lo, hi) -> str:
    """``[lo, hi]`` in the scores' format, ``""`` when there is no interval.

    >>> ci_text(0.25, 0.5), ci_text(float("nan"), 1.0)
    ('[0.25, 0.5]', '')
    """
    return f"[{format_number(lo)}, {format_number(hi)}]" if finite(lo) and finite(hi) else ""


def pair_matrix(scores) -> tuple[list[str], list[str], dict]:
    """A measure of pairs' rows as a matrix: subjects (rows), partners (columns) and the cells.

    The cells are ``{(subject, partner, metric): Score}``; the partners that are also subjects
    come first, in the subjects' order.

    >>> from wordgames.measure import Score
    >>> rows = [Score("b", "m", "", "", "t", 1.0, partner="a"),
    ...         Score("a", "m", "", "", "t", 2.0, partner="b")]
    >>> pair_matrix(rows)[:2]
    (['b', 'a'], ['b', 'a'])
    """
    subjects = list(dict.fromkeys(s.subject for s in scores))
    partners = list(dict.fromkeys(s.partner for s in scores))
    partners.sort(key=lambda p: subjects.index(p) if p in subjects else len(subjects))
    return subjects, partners, {(s.subject, s.partner, s.metric): s for s in scores}


def agent_text(score) -> str:
    """Who played a row besides its subject, in words: its agent, and a pair's partner.

    ``score`` is a Score, or any row with ``agent`` and ``partner`` (a table's, as
    ``wordgames results table`` prints it).

    >>> from wordgames.measure import Score
    >>> agent_text(Score("g", "m", "d", "nearest", "map", 0.5))
    'nearest'
    >>> agent_text(Score("g", "m", "d", "", "turns", 3.0, partner="w"))
    'with w'
    """
    partner = f"with {score.partner}" if score.partner else ""
    return " ".join(p for p in (score.agent, partner) if p)
