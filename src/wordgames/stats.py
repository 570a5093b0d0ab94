"""Small statistics shared by the measure families: confidence intervals and rank summaries."""

from __future__ import annotations

import math

import numpy as np


def mean_ci(values, confidence: float = 0.95) -> dict:
    """Mean with a Student-t confidence interval.

    Parameters
    ----------
    values : sequence of float
        The sample (a NaN makes the mean NaN: filter first).
    confidence : float
        The interval's level.

    Returns
    -------
    dict
        ``mean``, ``ci_low``, ``ci_high``, ``n`` and ``std`` (NaN bounds under two values).

    Examples
    --------
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

    Parameters
    ----------
    ranks : sequence of int
        1-based ranks (1: the first guess was right).
    hits_at : tuple of int
        The ``k`` of each ``hits@k`` share.

    Returns
    -------
    dict
        ``mean_rank``, ``median_rank``, ``mrr``, ``hits@K`` per ``K`` and ``n``.

    Examples
    --------
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


def _statistic(statistic):
    if callable(statistic):
        return statistic
    if statistic == "mean":
        return lambda x: x.mean(axis=1)
    if statistic == "median":
        return lambda x: np.median(x, axis=1)
    raise ValueError(f"statistic must be 'mean', 'median' or a callable, got {statistic!r}")


def _clip(lo: float, hi: float, bounds) -> tuple[float, float]:
    b_lo, b_hi = bounds if bounds is not None else (None, None)
    if b_lo is not None:
        lo, hi = max(lo, b_lo), max(hi, b_lo)
    if b_hi is not None:
        lo, hi = min(lo, b_hi), min(hi, b_hi)
    return lo, hi


def bootstrap_ci(
    values,
    *,
    statistic="mean",
    n_resamples: int = 1000,
    confidence: float = 0.95,
    seed: int = 0,
    bounds=None,
    chunk: int = 2_000_000,
) -> tuple[float, float]:
    """Seeded percentile-bootstrap confidence interval of a statistic of ``values``.

    The resamples are drawn in chunks of about ``chunk`` values (memory stays bounded for
    long inputs). A percentile interval of a mean or median lies within the range of the data,
    so it respects the metric's natural bounds; ``bounds`` clips it as a guard (for
    statistics that could leave them).

    Parameters
    ----------
    values : array-like of float
        One value per item (NaN values are left out).
    statistic : {"mean", "median"} or callable
        A callable takes a ``(B, n)`` array of resampled values and returns ``(B,)``.
    n_resamples : int
        Bootstrap resamples; 0 gives ``(nan, nan)``.
    confidence : float
        Coverage of the interval.
    seed : int
        Seed of the resampling.
    bounds : tuple of (float or None, float or None), optional
        The metric's natural range.

    Returns
    -------
    tuple of float
        ``(low, high)``; ``(nan, nan)`` with fewer than two values.

    Examples
    --------
    >>> lo, hi = bootstrap_ci([0.0, 1.0, 1.0, 0.0, 1.0], seed=0, bounds=(0.0, 1.0))
    >>> 0.0 <= lo <= 0.6 <= hi <= 1.0
    True
    >>> bootstrap_ci([3.0])
    (nan, nan)
    """
    x = np.asarray(values, dtype=float)
    x = x[np.isfinite(x)]
    if x.size < 2 or n_resamples <= 0:
        return float("nan"), float("nan")
    stat = _statistic(statistic)
    rng = np.random.default_rng(seed)
    per_chunk = max(1, chunk // x.size)
    out = []
    for start in range(0, n_resamples, per_chunk):
        b = min(per_chunk, n_resamples - start)
        out.append(stat(x[rng.integers(0, x.size, size=(b, x.size))]))
    dist = np.concatenate(out)
    alpha = (1.0 - confidence) / 2.0
    lo, hi = np.quantile(dist, [alpha, 1.0 - alpha])
    return _clip(float(lo), float(hi), bounds)


def paired_bootstrap_ci(
    x,
    y,
    statistic,
    *,
    n_resamples: int = 1000,
    confidence: float = 0.95,
    seed: int = 0,
    bounds=None,
    chunk: int = 2_000_000,
) -> tuple[float, float]:
    """Percentile-bootstrap interval of a statistic of pairs (resampling the pairs together).

    Parameters
    ----------
    x, y : array-like
        The paired values (one pair per position).
    statistic : callable
        ``statistic(xs, ys)`` takes two ``(B, n)`` arrays and returns ``(B,)``: e.g. a
        row-wise Spearman correlation (:func:`rowwise_spearman`).
    n_resamples : int
        Bootstrap resamples.
    confidence : float
        The interval's level.
    seed : int
        Seed of the resampling (its own generator: no global RNG).
    bounds : tuple of float or None
        The statistic's range: the interval is clipped to it.
    chunk : int
        Most resampled values held at once (memory bound).

    Returns
    -------
    tuple of float
        ``(low, high)``; NaN when undefined.

    Examples
    --------
    >>> x = np.arange(20.0); y = x + np.random.default_rng(1).normal(size=20)
    >>> lo, hi = paired_bootstrap_ci(x, y, rowwise_spearman, seed=0, bounds=(-1.0, 1.0))
    >>> -1.0 <= lo <= hi <= 1.0 and hi > 0.8
    True
    """
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    ok = np.isfinite(x) & np.isfinite(y)
    x, y = x[ok], y[ok]
    if x.size < 3 or n_resamples <= 0:
        return float("nan"), float("nan")
    rng = np.random.default_rng(seed)
    per_chunk = max(1, chunk // x.size)
    out = []
    for start in range(0, n_resamples, per_chunk):
        b = min(per_chunk, n_resamples - start)
        idx = rng.integers(0, x.size, size=(b, x.size))
        out.append(statistic(x[idx], y[idx]))
    return percentile_interval(np.concatenate(out), bounds, confidence)


def percentile_interval(dist, bounds=None, confidence: float = 0.95) -> tuple[float, float]:
    """The percentile interval of the finite values of a bootstrap distribution, clipped.

    Parameters
    ----------
    dist : numpy.ndarray
        The bootstrap distribution (non-finite values are left out).
    bounds : tuple of float or None
        The statistic's range: the interval is clipped to it.
    confidence : float
        The interval's level.

    Returns
    -------
    tuple of float
        ``(low, high)``; NaN when no value is finite.

    Examples
    --------
    >>> percentile_interval(np.array([0.0, 1.0, float("nan")]), (0.0, 1.0), 0.5)
    (0.25, 0.75)
    """
    dist = np.asarray(dist, float)
    dist = dist[np.isfinite(dist)]
    if dist.size == 0:
        return float("nan"), float("nan")
    alpha = (1.0 - confidence) / 2.0
    lo, hi = np.quantile(dist, [alpha, 1.0 - alpha])
    return _clip(float(lo), float(hi), bounds)


def rowwise_spearman(xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
    """Spearman's rho of each row pair of two ``(B, n)`` arrays (average ranks for ties).

    Parameters
    ----------
    xs, ys : numpy.ndarray
        Arrays of the same ``(B, n)`` shape.

    Returns
    -------
    numpy.ndarray
        ``(B,)`` coefficients (NaN for a row without spread).

    Examples
    --------
    >>> rowwise_spearman(np.array([[1.0, 2.0, 3.0]]), np.array([[3.0, 2.0, 1.0]])).tolist()
    [-1.0]
    """
    from scipy.stats import rankdata

    rx, ry = rankdata(xs, axis=1), rankdata(ys, axis=1)
    rx -= rx.mean(axis=1, keepdims=True)
    ry -= ry.mean(axis=1, keepdims=True)
    den = np.sqrt((rx * rx).sum(axis=1) * (ry * ry).sum(axis=1))
    with np.errstate(invalid="ignore", divide="ignore"):
        return (rx * ry).sum(axis=1) / den


def spearman_pairwise(x, y, min_n: int = 3) -> tuple[float, float, int, str]:
    """Spearman's rho of two series on the points where both are finite.

    The one rank correlation across subjects: the correlation study and the report's table
    both use it.

    Parameters
    ----------
    x, y : sequence of float
        The two series, point by point.
    min_n : int
        Fewer shared finite points give NaN.

    Returns
    -------
    tuple of (float, float, int, str)
        ``(rho, p_value, n, why)``: ``n`` the points used, ``why`` empty, ``"few"`` (under
        ``min_n`` points: NaN) or ``"constant"`` (a series without spread: NaN).

    Examples
    --------
    >>> spearman_pairwise([1.0, 2.0, 3.0, np.nan], [1.0, 3.0, 2.0, 4.0])[2:]
    (3, '')
    >>> spearman_pairwise([1.0, 1.0, 1.0], [1.0, 2.0, 3.0])[3]
    'constant'
    """
    import math

    from scipy.stats import spearmanr

    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    ok = np.isfinite(x) & np.isfinite(y)
    n = int(ok.sum())
    if n < min_n:
        return math.nan, math.nan, n, "few"
    if np.ptp(x[ok]) == 0 or np.ptp(y[ok]) == 0:
        return math.nan, math.nan, n, "constant"
    res = spearmanr(x[ok], y[ok])
    return float(res.statistic), float(res.pvalue), n, ""


def spearman_interval(rho: float, n: int, level: float = 0.95) -> tuple[float, float]:
    """The Fisher-z interval of a Spearman coefficient over ``n`` points (Bonett & Wright 2000).

    ``atanh(rho) +/- z * sqrt((1 + rho**2 / 2) / (n - 3))``, mapped back with ``tanh``: always
    inside [-1, 1]. A coefficient of +-1 gives the degenerate interval at that bound.

    Parameters
    ----------
    rho : float
        The coefficient.
    n : int
        The points it was computed on.
    level : float
        The interval's level.

    Returns
    -------
    tuple of float
        ``(low, high)``; NaN under 4 points or for an undefined coefficient.

    Examples
    --------
    >>> [round(x, 3) for x in spearman_interval(0.5, 30)]
    [0.148, 0.74]
    >>> spearman_interval(0.5, 3)
    (nan, nan)
    """
    import math

    from scipy import stats

    nan = float("nan")
    if n < 4 or not math.isfinite(rho):
        return nan, nan
    if abs(rho) >= 1.0:
        return float(rho), float(rho)
    z = math.atanh(rho)
    half = stats.norm.ppf(0.5 + level / 2) * math.sqrt((1 + rho * rho / 2) / (n - 3))
    return math.tanh(z - half), math.tanh(z + half)


def wilson_interval(k: int, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """Wilson's score interval of a share ``k / n`` (95 % by default), inside [0, 1].

    Unlike the normal approximation it stays inside [0, 1] and is not empty at 0 or ``n``.

    Parameters
    ----------
    k : int
        Successes.
    n : int
        Trials.
    z : float
        The normal quantile of the level (1.96: 95 %).

    Returns
    -------
    tuple of float
        ``(low, high)``; NaN when ``n`` is 0.

    Examples
    --------
    >>> [round(x, 4) for x in wilson_interval(0, 10)]
    [0.0, 0.2775]
    >>> [round(x, 4) for x in wilson_interval(5, 10)]
    [0.2366, 0.7634]
    """
    if n <= 0:
        return float("nan"), float("nan")
    p = k / n
    denom = 1.0 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)
