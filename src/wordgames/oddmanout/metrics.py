"""Scores of a solution: %correct, %wrong, %abstained (paper Table 3) and accuracy when answering.

``pct_correct + pct_wrong + pct_abstained = 100`` over all puzzles of a set;
``accuracy_answered = correct / (correct + wrong)`` ignores the abstentions (NaN if none answered).

Intervals (:func:`score_intervals`): a seeded percentile bootstrap over the per-puzzle outcomes,
inside [0, 100] (percentages) and [0, 1] (accuracy over the answered puzzles).
"""

from __future__ import annotations

import numpy as np

from wordgames.oddmanout.embedding_solver import Solution
from wordgames.oddmanout.puzzles import PuzzleSet


def score(puzzles: PuzzleSet, solution: Solution) -> dict:
    """Counts and percentages of one solution on one puzzle set.

    >>> ps = PuzzleSet.from_odd_first("t", [list("abcde"), list("fghij"), list("klmno")])
    >>> sol = Solution("x", np.array([ps.answer[0], (ps.answer[1] + 1) % 5, -1]),
    ...                np.array(["", "", "oov"], dtype=object), np.zeros((3, 5)))
    >>> s = score(ps, sol)
    >>> s["correct"], s["wrong"], s["abstained"], s["accuracy_answered"]
    (1, 1, 1, 0.5)
    """
    if len(solution.choice) != len(puzzles):
        raise ValueError("solution and puzzle set differ in length")
    n = len(puzzles)
    answered = solution.choice >= 0
    correct = int((answered & (solution.choice == puzzles.answer)).sum())
    wrong = int(answered.sum()) - correct
    abstained = n - correct - wrong
    reasons, counts = np.unique(solution.reason[~answered].astype(str), return_counts=True)
    pct = (lambda x: 100.0 * x / n) if n else (lambda x: float("nan"))
    return {
        "n": n,
        "correct": correct,
        "wrong": wrong,
        "abstained": abstained,
        "pct_correct": pct(correct),
        "pct_wrong": pct(wrong),
        "pct_abstained": pct(abstained),
        "accuracy_answered": correct / (correct + wrong) if correct + wrong else float("nan"),
        "abstained_by_reason": {
            r: int(c) for r, c in zip(reasons.tolist(), counts.tolist(), strict=True)
        },
        "puzzles_with_oov": int(solution.oov.get("puzzles_with_oov", 0)),
        "oov_words": int(solution.oov.get("oov_words", 0)),
    }


def outcomes(puzzles: PuzzleSet, solution: Solution) -> np.ndarray:
    """Per puzzle: 1 solved, 0 answered wrongly, -1 abstained.

    >>> ps = PuzzleSet.from_odd_first("t", [list("abcde"), list("fghij"), list("klmno")])
    >>> sol = Solution("x", np.array([ps.answer[0], (ps.answer[1] + 1) % 5, -1]),
    ...                np.array(["", "", "oov"], dtype=object), np.zeros((3, 5)))
    >>> outcomes(ps, sol).tolist()
    [1, 0, -1]
    """
    answered = solution.choice >= 0
    out = np.where(answered, 0, -1)
    out[answered & (solution.choice == puzzles.answer)] = 1
    return out


def score_intervals(
    puzzles: PuzzleSet, solution: Solution, *, n_resamples: int = 1000, seed: int = 0
) -> dict[str, tuple[float, float]]:
    """95 % intervals of the four scores: a percentile bootstrap over the puzzles.

    ``pct_correct``, ``pct_wrong`` and ``pct_abstained`` resample all puzzles (the same
    resamples for the three: one seed, one length), inside [0, 100]; ``accuracy_answered``
    resamples the answered puzzles, inside [0, 1]. ``n_resamples=0`` gives none (NaN).

    Examples
    --------
    >>> ps = PuzzleSet.from_odd_first("t", [list("abcde")] * 40)
    >>> sol = Solution("x", np.where(np.arange(40) < 30, ps.answer, -1),
    ...                np.array([""] * 40, dtype=object), np.zeros((40, 5)))
    >>> ci = score_intervals(ps, sol, seed=0)
    >>> 0 <= ci["pct_correct"][0] < 75 < ci["pct_correct"][1] <= 100
    True
    >>> ci["pct_wrong"], ci["accuracy_answered"]
    ((0.0, 0.0), (1.0, 1.0))
    """
    from wordgames.stats import bootstrap_ci

    out = outcomes(puzzles, solution)
    boot = {"n_resamples": n_resamples, "seed": seed}
    pct = {"bounds": (0.0, 100.0), **boot}
    answered = out[out >= 0]
    return {
        "pct_correct": bootstrap_ci(100.0 * (out == 1), **pct),
        "pct_wrong": bootstrap_ci(100.0 * (out == 0), **pct),
        "pct_abstained": bootstrap_ci(100.0 * (out == -1), **pct),
        "accuracy_answered": bootstrap_ci((answered == 1).astype(float), bounds=(0.0, 1.0), **boot),
    }


def table3_row(solver: str, dataset: str, s: dict, ci: dict | None = None) -> dict:
    """One row of the Table-3 layout: solver, data set, %C / %W / %A, accuracy when answering.

    With ``ci`` (:func:`score_intervals`), the 95 % interval of %correct as
    ``pct_correct_ci`` ``[low, high]`` (rounded like the percentages).
    """
    lo, hi = (ci or {}).get("pct_correct", (float("nan"), float("nan")))
    return {
        "solver": solver,
        "dataset": dataset,
        "n": s["n"],
        "pct_correct": round(s["pct_correct"], 1),
        "pct_wrong": round(s["pct_wrong"], 1),
        "pct_abstained": round(s["pct_abstained"], 1),
        "accuracy_answered": round(100 * s["accuracy_answered"], 1)
        if s["accuracy_answered"] == s["accuracy_answered"]
        else None,
        "oov_words": s["oov_words"],
        "puzzles_with_oov": s["puzzles_with_oov"],
        "pct_correct_ci": [round(lo, 1), round(hi, 1)] if lo == lo and hi == hi else None,
    }


def format_table3(rows: list[dict]) -> str:
    """Text table in the layout of the paper's Table 3: one line per solver.

    For each data set ``%correct / %wrong / %abstained`` and, in brackets, the accuracy over
    answered puzzles.
    """
    solvers = list(dict.fromkeys(r["solver"] for r in rows))
    sets = list(dict.fromkeys(r["dataset"] for r in rows))
    cell = {(r["solver"], r["dataset"]): r for r in rows}
    width = max([len(s) for s in solvers] + [6])
    head = " " * width + "".join(f" | {d:^25}" for d in sets)
    sub = " " * width + "".join(f" | {'%C / %W / %A  (acc)':^25}" for _ in sets)
    lines = [head, sub, "-" * len(head)]
    for s in solvers:
        parts = []
        for d in sets:
            r = cell.get((s, d))
            if r is None:
                parts.append(f" | {'-':^25}")
                continue
            acc = "-" if r["accuracy_answered"] is None else f"{r['accuracy_answered']:.1f}"
            parts.append(
                f" | {r['pct_correct']:5.1f}/{r['pct_wrong']:5.1f}/{r['pct_abstained']:5.1f}"
                f" ({acc:>5})"
            )
        lines.append(f"{s:<{width}}" + "".join(parts))
    # out-of-vocabulary counts beside the scores they affect
    lines.append("")
    lines.append("out of vocabulary (distinct words / puzzles with one):")
    for s in solvers:
        cells = [
            f"{d} {cell[(s, d)]['oov_words']}/{cell[(s, d)]['puzzles_with_oov']}"
            for d in sets
            if (s, d) in cell
        ]
        lines.append(f"  {s}: " + ", ".join(cells))
    return "\n".join(lines)
