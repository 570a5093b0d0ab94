"""Score rows of stored results, read the same way by the store and the report.

This module sits in the results layer, below the report: the store's ``table()`` and the
report's collection both build their rows with it, so neither imports the other.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Mapping

from wordgames.measure import Score, ThinPolicy, is_thin


def _finite(value) -> bool:
    return isinstance(value, int | float) and math.isfinite(value)


def result_scores(result: Mapping, measure: str, *, pairs: bool = False) -> list[Score]:
    """The :class:`~wordgames.measure.Score` rows of a stored result (``MeasureResult.as_dict()``).

    Every number of a result is one of its Score rows; the result's measure names them all.
    ``pairs``: the result is a measure of pairs' (rows stored before the three names held the
    partner as their ``subject``: :meth:`~wordgames.measure.Score.from_dict`).

    Examples
    --------
    >>> row = Score("e", "x", "men", "", "spearman", 0.5).as_dict()
    >>> [(s.measure, s.metric, s.value) for s in result_scores({"scores": [row]}, "toy")]
    [('toy', 'spearman', 0.5)]
    """
    rows = result.get("scores") or ()
    return [Score.from_dict({**r, "measure": measure}, pairs=pairs) for r in rows]


def stamp_thin(rows, scores: list[Score], policy: ThinPolicy) -> int:
    """Judge the rows stored without a ``thin`` flag by :func:`~wordgames.measure.is_thin`.

    Fills every score's unknown coverage with ``n / (n + n_skipped)``; returns how many rows
    had no flag (a store written before the flag existed) and were judged here.

    Examples
    --------
    >>> s = [Score("e", "m", "pilot", "", "map", 0.5, n=4, n_skipped=192)]
    >>> stamp_thin([{"n": 4, "n_skipped": 192}], s, ThinPolicy()), s[0].thin, s[0].thin_reason
    (1, True, 'coverage 4 of 196 (2%) is below 50%')
    """
    judged = 0
    for raw, s in zip(rows, scores, strict=False):
        if not _finite(s.coverage):
            s.coverage = s.known_coverage()
        if isinstance(raw, Mapping) and "thin" not in raw:
            s.thin, s.thin_reason = is_thin(s, policy)
            judged += 1
    return judged


def embedding_labels(pairs) -> dict[tuple[str, str], str]:
    """One display label per distinct ``(name, sha256)``.

    The name alone, or with the first 8 hex digits of the sha256 appended when different
    embeddings share the name (a merge of two stores): no embedding is hidden behind another.

    Examples
    --------
    >>> sorted(embedding_labels([("g", "a" * 64), ("g", "b" * 64), ("w", "c" * 64)]).values())
    ['g (aaaaaaaa)', 'g (bbbbbbbb)', 'w']
    """
    shas_by_name: dict[str, set[str]] = defaultdict(set)
    pairs = list(pairs)
    for name, sha in pairs:
        shas_by_name[name].add(sha)
    return {
        (name, sha): f"{name} ({sha[:8]})" if len(shas_by_name[name]) > 1 else name
        for name, sha in pairs
    }
