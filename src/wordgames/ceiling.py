"""The human ceiling: how well one person predicts another, and a model's share of it.

A measure that scores a model against people's answers can score the people themselves on the
same records: each person whose item several people answered is held out, and the *other*
people's answers play the model (leave one person out). The mean over held-out people is the
ceiling of the measure on that data (Brain-Score's noise ceiling; "explainable variance" in
psychology): the agreement of *these* participants under *this* protocol, not a bound on what
a model can reach (a model can beat a held-out person: its share is then above 1).

This module holds what every game's ceiling shares (no game is imported here):

* :func:`expected_ap`: the average precision of a ranking by the others' pick counts, whose
  many exact ties (every word nobody else picked) are averaged over every order of the tied
  words (McSherry & Najork 2008), so no tie-break's luck enters the ceiling;
* :func:`tied_positions`: the best and worst position of an answer in the others' answers
  ordered by how many gave each (the mean of the two is the rank, as for every sender);
* :func:`cluster_means`, :func:`cluster_mean_ci`, :func:`share_of_ceiling`: percentile
  bootstraps that resample *items* with all their responses (clusters), because the held-out
  values of one item share the same other people and are not independent draws.

Every sum over resamples is taken in a fixed order (:func:`wordgames.exact.weighted_sums`),
so a stored ceiling has the same bits on every machine.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from wordgames.exact import weighted_sums
from wordgames.stats import percentile_interval

#: how the intervals of a ceiling are drawn, in words (kept with the result)
BOOTSTRAP = (
    "percentile bootstrap over items: each resample draws the items (a board and its clue, "
    "or a board and its colours) with replacement, with all their responses"
)


def expected_ap(scores: Mapping[str, float], relevant: Iterable[str]) -> float:
    """Average precision of the words ranked by ``scores``, averaged over every order of ties.

    Words with a higher score come first; words with equal scores are in a uniformly random
    order, and the result is the exact mean of the AP over those orders: a tied group of
    ``n`` words holding ``r`` relevant ones, after ``N`` words holding ``R`` relevant ones,
    adds ``sum_i (r/n) (R + 1 + (i-1)(r-1)/(n-1)) / (N + i)`` over its positions ``i``.

    Parameters
    ----------
    scores : mapping of str to float
        Every word of the board and its score (e.g. how many other people picked it).
    relevant : iterable of str
        The held-out person's picks (words of ``scores``).

    Returns
    -------
    float
        The expected AP, in [0, 1].

    Examples
    --------
    Two others picked ``dog``, one ``cat``; the held-out person picked ``dog`` and ``car``:

    >>> round(expected_ap({"dog": 2, "cat": 1, "car": 0, "bus": 0}, {"dog", "car"}), 6)
    0.791667

    (``dog`` first: precision 1; ``car`` third or fourth with equal chance: 2/3 or 2/4.)
    """
    rel = set(relevant)
    if not rel or not rel <= set(scores):
        raise ValueError("expected_ap needs relevant words, all of them scored")
    groups: dict[float, list[int]] = {}
    for word, s in scores.items():
        g = groups.setdefault(float(s), [0, 0])
        g[0] += 1
        g[1] += word in rel
    total, before, found = 0.0, 0, 0
    for s in sorted(groups, reverse=True):
        n, r = groups[s]
        if r:
            spread = (r - 1) / (n - 1) if n > 1 else 0.0
            for i in range(1, n + 1):
                total += r / n * (found + 1 + (i - 1) * spread) / (before + i)
        before += n
        found += r
    return total / len(rel)


def tied_positions(counts: Mapping[str, int], answer: str) -> tuple[int, int] | None:
    """The best and worst position of ``answer`` among answers ordered by their counts.

    Parameters
    ----------
    counts : mapping of str to int
        How many of the other people gave each answer.
    answer : str
        The held-out person's answer.

    Returns
    -------
    tuple of (int, int) or None
        1-based best and worst positions (ties share them); ``None`` when nobody else gave
        ``answer`` (it is not in the others' list at all).

    Examples
    --------
    >>> tied_positions({"pet": 3, "fur": 1, "bark": 1}, "fur")
    (2, 3)
    >>> tied_positions({"pet": 3}, "fur") is None
    True
    """
    c = counts.get(answer, 0)
    if c <= 0:
        return None
    higher = sum(1 for v in counts.values() if v > c)
    equal = sum(1 for v in counts.values() if v == c)
    return higher + 1, higher + equal


@dataclass(frozen=True)
class Clustered:
    """Per-response values with the item each response belongs to (the bootstrap's clusters).

    Parameters
    ----------
    items : sequence of str
        The item of each response (responses of one item share the same other people).
    weights : sequence of int
        How many people each response stands for (a source's aggregate ``count``).

    Examples
    --------
    >>> cl = Clustered(("a", "a", "b"), (1, 2, 1))
    >>> len(cl.items), sum(cl.weights)
    (3, 4)
    """

    items: tuple[str, ...]
    weights: tuple[int, ...]

    def codes(self) -> tuple[np.ndarray, int]:
        """Each response's item as an integer (items in first-seen order) and the item count."""
        index: dict[str, int] = {}
        codes = np.fromiter((index.setdefault(i, len(index)) for i in self.items), dtype=np.int64)
        return codes, len(index)


def cluster_means(
    cl: Clustered,
    columns: Mapping[str, Sequence[float]],
    *,
    n_resamples: int = 1000,
    seed: int = 0,
    chunk: int = 2_000_000,
) -> dict[str, np.ndarray]:
    """The weighted mean of each column in every resample of the items (``(B,)`` each).

    Every resample draws as many items as there are, with replacement (one seeded generator,
    the same draws for every column), and weighs each drawn item's responses by their weights.

    Parameters
    ----------
    cl : Clustered
        The responses' items and weights.
    columns : mapping of str to sequence of float
        Per name, one value per response.
    n_resamples : int
        Resamples of the items.
    seed : int
        Seed of the draws.
    chunk : int
        Most drawn responses held at once (memory bound).

    Returns
    -------
    dict of str to numpy.ndarray
        Per name, the ``(n_resamples,)`` weighted means.

    Examples
    --------
    >>> cl = Clustered(("a", "b"), (1, 1))
    >>> m = cluster_means(cl, {"x": [1.0, 1.0]}, n_resamples=5)
    >>> m["x"].tolist()
    [1.0, 1.0, 1.0, 1.0, 1.0]
    """
    codes, k = cl.codes()
    w = np.asarray(cl.weights, float)
    if k == 0 or n_resamples <= 0:
        return {name: np.empty(0) for name in columns}
    per_item = np.zeros((k, len(columns) + 1))
    np.add.at(per_item[:, 0], codes, w)
    for j, values in enumerate(columns.values(), start=1):
        np.add.at(per_item[:, j], codes, w * np.asarray(values, float))
    rng = np.random.default_rng(seed)
    per_chunk = max(1, chunk // k)
    sums = []
    for start in range(0, n_resamples, per_chunk):
        b = min(per_chunk, n_resamples - start)
        draws = rng.integers(0, k, size=(b, k)) + np.arange(b)[:, None] * k
        counts = np.bincount(draws.ravel(), minlength=b * k).reshape(b, k)
        sums.append(weighted_sums(counts, per_item))
    total = np.concatenate(sums)
    return {name: total[:, j] / total[:, 0] for j, name in enumerate(columns, start=1)}


_interval = percentile_interval


def weighted_mean(values: Sequence[float], weights: Sequence[int]) -> float:
    """``sum(w * v) / sum(w)`` (NaN when empty).

    Parameters
    ----------
    values : sequence of float
    weights : sequence of int

    Returns
    -------
    float

    Examples
    --------
    >>> weighted_mean([1.0, 0.0], [3, 1]), weighted_mean([], [])
    (0.75, nan)
    """
    import math

    w = np.asarray(weights, float)
    if not w.size:
        return float("nan")
    # fsum, not a BLAS dot: the same bits on every CPU
    return math.fsum((w * np.asarray(values, float)).tolist()) / math.fsum(w.tolist())


def cluster_mean_ci(
    cl: Clustered, values: Sequence[float], *, bounds=None, n_resamples: int = 1000, seed: int = 0
) -> tuple[float, float]:
    """Percentile-bootstrap 95 % interval of the weighted mean, resampling items.

    Parameters
    ----------
    cl : Clustered
        The responses' items and weights.
    values : sequence of float
        One value per response.
    bounds : tuple of float or None
        The metric's range: the interval is clipped to it.
    n_resamples : int
        Resamples of the items.
    seed : int
        Seed of the draws.

    Returns
    -------
    tuple of float
        ``(low, high)``; ``(nan, nan)`` with fewer than two items or no resamples.

    Examples
    --------
    >>> cl = Clustered(("a", "a", "b", "c"), (1, 1, 1, 1))
    >>> lo, hi = cluster_mean_ci(cl, [1.0, 1.0, 0.0, 0.5], bounds=(0.0, 1.0))
    >>> 0.0 <= lo <= 0.625 <= hi <= 1.0
    True
    """
    if len(set(cl.items)) < 2:
        return float("nan"), float("nan")
    dist = cluster_means(cl, {"v": values}, n_resamples=n_resamples, seed=seed)["v"]
    return _interval(dist, bounds)


@dataclass(frozen=True)
class Share:
    """A model against the people on the same responses.

    ``share`` is the model's mean over the people's (the ceiling's), ``gap`` the mean of the
    model's value minus the held-out person's, each with a 95 % interval from the same item
    resamples; ``separated`` says whether the gap's interval leaves out 0 (the model is then
    distinguishable from a held-out person on this measure).

    Parameters
    ----------
    share : float
        ``mean(model) / mean(people)`` (weighted).
    share_ci : tuple of float
        Its interval.
    gap : float
        ``mean(model - people)``.
    gap_ci : tuple of float
        Its interval.
    model, ceiling : float
        The two means.
    n : int
        The responses.

    Examples
    --------
    >>> Share(0.75, (0.5, 1.0), -0.1, (-0.3, 0.05), 0.3, 0.4, 12).separated
    False
    """

    share: float
    share_ci: tuple[float, float]
    gap: float
    gap_ci: tuple[float, float]
    model: float
    ceiling: float
    n: int

    @property
    def separated(self) -> bool:
        lo, hi = self.gap_ci
        return bool(np.isfinite(lo) and np.isfinite(hi) and (lo > 0 or hi < 0))


def share_of_ceiling(
    cl: Clustered,
    model: Sequence[float],
    people: Sequence[float],
    *,
    gap_bounds=None,
    n_resamples: int = 1000,
    seed: int = 0,
) -> Share:
    """The model's share of the ceiling and its gap to people, on paired responses.

    ``model[i]`` and ``people[i]`` are the model's and the held-out person's value of response
    ``i`` (the same metric). Both intervals come from one item resampling (:func:`cluster_means`).

    Parameters
    ----------
    cl : Clustered
        The responses' items and weights.
    model, people : sequence of float
        One value per response each.
    gap_bounds : tuple of float or None
        The gap's range (the metric's width on each side): its interval is clipped to it.
    n_resamples, seed : int
        As in :func:`cluster_means` (one item resampling serves both intervals).

    Returns
    -------
    Share
        The share (NaN when the ceiling is 0), the gap and their intervals.

    Examples
    --------
    >>> cl = Clustered(("a", "a", "b", "b"), (1, 1, 1, 1))
    >>> s = share_of_ceiling(cl, [0.5, 0.5, 0.25, 0.25], [1.0, 0.5, 0.5, 0.0])
    >>> s.share, s.gap, s.n
    (0.75, -0.125, 4)
    """
    m, p = weighted_mean(model, cl.weights), weighted_mean(people, cl.weights)
    share = m / p if p > 0 else float("nan")
    n = int(sum(cl.weights))
    nan2 = (float("nan"), float("nan"))
    if len(set(cl.items)) < 2:
        return Share(share, nan2, m - p, nan2, m, p, n)
    d = cluster_means(cl, {"m": model, "p": people}, n_resamples=n_resamples, seed=seed)
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.where(d["p"] > 0, d["m"] / d["p"], np.nan)
    return Share(
        share,
        _interval(ratio, (0.0, None)) if p > 0 else nan2,
        m - p,
        _interval(d["m"] - d["p"], gap_bounds),
        m,
        p,
        n,
    )
