"""The schema of a stored record: what the store and the report accept when they read one.

A record read from a results folder is checked before anything uses it; one that does not
validate is quarantined by the store (and recomputed) and named by the report.
"""

from __future__ import annotations

import math

__all__ = ["check_record", "check_result"]


_KEY_FIELDS = ("embedding_sha256", "measure", "version", "params_sha256")


def check_record(entry) -> None:
    """``ValueError`` saying what is wrong when ``entry`` is not a record of this schema.

    A record has its ``key`` (four strings), the ``embedding`` and ``params`` objects and a
    ``result`` that reads back as a :class:`~wordgames.results.MeasureResult` with typed scores.

    >>> check_record({"schema_version": 4})
    Traceback (most recent call last):
    ...
    ValueError: the record has no 'key' object
    """
    for field in ("key", "embedding", "params", "result"):
        if not isinstance(entry.get(field), dict):
            raise ValueError(f"the record has no {field!r} object")
    bad = [f for f in _KEY_FIELDS if not isinstance(entry["key"].get(f), str)]
    if bad:
        raise ValueError(f"the record's key lacks {', '.join(bad)}")
    check_result(entry["result"])


_TEXT_FIELDS = ("subject", "measure", "dataset", "agent", "metric")
_OLD_TEXT_FIELDS = (
    "embedding",
    "measure",
    "dataset",
    "subject",
    "metric",
)  # before the three names
_COUNT_FIELDS = ("n", "n_skipped", "n_oov", "n_unread")
MAX_COUNT = 2**53  # a count beyond what a float holds exactly is no count of items
_SHAPES = {"tables": dict, "oov": dict, "parameters": dict, "plots": list,
           "timings": dict, "notes": list, "scores": list, "items": dict, "usage": dict}  # fmt: skip


def check_result(result) -> None:
    """``ValueError`` saying what is wrong when ``result`` is no stored MeasureResult.

    Each part has its type and every Score row its fields: names as text, counts as integers
    (or null), the value and interval as numbers (or null).
    """
    from wordgames.results import MeasureResult

    if not isinstance(result, dict):
        raise ValueError("the result is not a JSON object")
    if not isinstance(result.get("measure"), str) or not isinstance(result.get("version"), str):
        raise ValueError("the result names no measure or version")
    if not isinstance(result.get("subject", result.get("embedding", "")), str):
        raise ValueError("the result's subject is not a name")
    wrong = [k for k, t in _SHAPES.items() if k in result and not isinstance(result[k], t)]
    # a plot is a path, a note a line of text: ``plots: [1]`` or ``[null]`` is no record
    wrong += [k for k in ("plots", "notes") if k not in wrong
              and not all(isinstance(x, str) for x in result.get(k) or ())]  # fmt: skip
    if wrong:
        raise ValueError(f"the result's {', '.join(wrong)} have the wrong type")
    for i, sc in enumerate(result.get("scores") or ()):
        problem = _score_problem(sc)
        if problem:
            raise ValueError(f"score {i + 1} of the result: {problem}")
    try:
        MeasureResult.from_dict(result)
    except (TypeError, ValueError, KeyError, AttributeError) as exc:
        raise ValueError(f"the result does not read back ({exc})") from None


def _score_problem(sc) -> str:
    if not isinstance(sc, dict):
        return "not a JSON object"
    names = _TEXT_FIELDS if "agent" in sc else _OLD_TEXT_FIELDS
    text = [f for f in names if not isinstance(sc.get(f), str)]
    text += ["partner"] if not isinstance(sc.get("partner", ""), str) else []
    counts = [
        f
        for f in _COUNT_FIELDS
        if sc.get(f) is not None
        and (isinstance(sc[f], bool) or not isinstance(sc[f], int) or not 0 <= sc[f] <= MAX_COUNT)
    ]
    numbers = [
        f
        for f in ("value", "ci_low", "ci_high", "coverage")
        if sc.get(f) is not None
        and (
            isinstance(sc[f], bool)
            or not isinstance(sc[f], int | float)
            or (isinstance(sc[f], float) and math.isinf(sc[f]))
        )
    ]  # NaN is a score that is not defined; an infinite one is no score
    bad = text + counts + numbers
    return f"{', '.join(bad)} of the wrong type or out of range" if bad else ""
