"""Small statistics shared by the measure families: confidence intervals and rank summaries."""

from __future__ import annotations

import numpy as np


def mean_ci(values, confidence: float = 0.95) -> dict:
    """Mean with a Student-t confidence interval.

    >>> r = mean_ci([1.0, 2.0, 3.0])
    >>> r["mean"], round(r["ci_low"], 3), round(r["ci_high"], 3), r["n"]
    (2.0, -0.484, 4.484, 3)
    """
    from scipy import stats

    x = np.asarray(values, dtype=float)
    n = int(x.size)
    if n == 0:
        return {
            "mean": float("nan"),
            "ci_low": float("nan"),
            "ci_high": float("nan"),
            "n": 0,
            "std": float("nan"),
        }
    mean = float(x.mean())
    if n == 1:
        return {"mean": mean, "ci_low": float("nan"), "ci_high": float("nan"), "n": 1, "std": 0.0}
    sd = float(x.std(ddof=1))
    half = float(stats.t.ppf(0.5 + confidence / 2, n - 1) * sd / np.sqrt(n))
    return {"mean": mean, "ci_low": mean - half, "ci_high": mean + half, "n": n, "std": sd}


def rank_summary(ranks, hits_at=(10, 100)) -> dict:
    """Summary of 1-based ranks: mean, median, mean reciprocal rank and hits@k.

    >>> s = rank_summary([1, 2, 4, 200])
    >>> s["mean_rank"], s["median_rank"], s["mrr"], s["hits@10"], s["hits@100"]
    (51.75, 3.0, 0.43875, 0.75, 0.75)
    """
    r = np.asarray(ranks, dtype=float)
    if r.size == 0:
        out = {"n": 0, "mean_rank": float("nan"), "median_rank": float("nan"), "mrr": float("nan")}
        out.update({f"hits@{k}": float("nan") for k in hits_at})
        return out
    out = {
        "n": int(r.size),
        "mean_rank": float(r.mean()),
        "median_rank": float(np.median(r)),
        "mrr": float((1.0 / r).mean()),
    }
    out.update({f"hits@{k}": float((r <= k).mean()) for k in hits_at})
    return out
