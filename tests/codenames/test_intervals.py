"""Confidence intervals of the Codenames measures: seeded bootstraps that respect the metric.

Each interval is checked against a direct reference implementation (the same draws from the
same generator, computed the long way) and against the metric's bounds, on cases where a
t-interval leaves them.
"""

from __future__ import annotations

import numpy as np
import pytest

from wordgames.codenames.measures import (
    RANK_STATS,
    ReceiverScores,
    SenderRanks,
    joint_bootstrap_ci,
    stratified_mean_ci,
)
from wordgames.stats import bootstrap_ci, mean_ci


def _reference(values, statistic, n_resamples=1000, seed=0, confidence=0.95):
    """The percentile bootstrap written out: one resample at a time."""
    x = np.asarray(values, float)
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, x.size, size=(n_resamples, x.size))  # the draws of one chunk
    stats = [statistic(x[row]) for row in idx]
    a = (1 - confidence) / 2
    return tuple(float(v) for v in np.quantile(stats, [a, 1 - a]))


def test_joint_bootstrap_is_the_percentile_bootstrap_of_each_statistic():
    rng = np.random.default_rng(7)
    r = rng.integers(1, 5000, 40).astype(float)
    w = rng.integers(1, 4, 40)
    x = np.repeat(r, w)  # the decisions: each record repeated by its count
    got = joint_bootstrap_ci(
        {"mean": r, "median": r, "rr": 1 / r},
        {"mean": "mean", "median": "median", "rr": "mean"},
        weights=w,
        n_resamples=300,
        seed=5,
    )
    assert got["mean"] == pytest.approx(_reference(x, np.mean, 300, 5))
    assert got["median"] == _reference(x, np.median, 300, 5)
    assert got["rr"] == pytest.approx(_reference(1 / x, np.mean, 300, 5))
    # and it is the shared implementation's interval, resample for resample
    assert got["median"] == bootstrap_ci(x, statistic="median", n_resamples=300, seed=5)


def test_stratified_interval_resamples_within_each_data_set():
    a = np.array([0.0, 1.0, 1.0, 0.5])
    b = np.array([0.2, 0.4, 0.9])
    got = stratified_mean_ci([a, b], n_resamples=400, seed=3)
    rng = np.random.default_rng(3)  # reference: data set a's draws, then b's
    ma = a[rng.integers(0, a.size, size=(400, a.size))].mean(1)
    mb = b[rng.integers(0, b.size, size=(400, b.size))].mean(1)
    ref = np.quantile((ma + mb) / 2, [0.025, 0.975])
    assert got == pytest.approx(tuple(ref))
    # one stratum: exactly the plain bootstrap of its mean
    assert stratified_mean_ci([a], n_resamples=400, seed=3) == bootstrap_ci(
        a, n_resamples=400, seed=3
    )
    assert all(np.isnan(stratified_mean_ci([a, b], n_resamples=0)))  # 0 resamples: none


def _ranks(ranks, n_candidates=400_000, weights=None):
    r = SenderRanks("s", {})
    for i, k in enumerate(ranks):
        r.record_ids.append(str(i))
        r.groups.append("g")
        r.best.append(int(k))
        r.worst.append(int(k))
        r.n_candidates.append(n_candidates)
        r.weights.append(1 if weights is None else int(weights[i]))
    return r


def test_heavy_tailed_mean_rank_interval_stays_within_the_vocabulary():
    # 29 clues ranked first and one ranked 400,000th: a t-interval goes below rank 1
    ranks = [1] * 29 + [400_000]
    t = mean_ci(np.asarray(ranks, float))
    assert t["ci_low"] < 1  # the old interval: impossible ranks
    s = _ranks(ranks).summary(intervals=RANK_STATS, n_resamples=2000, seed=1)
    lo, hi = s["ci"]["mean_rank"]
    assert 1 <= lo <= s["mean_rank"] <= hi <= 400_000
    for k in RANK_STATS:
        lo, hi = s["ci"][k]
        low, high = (
            (0.0, 1.0)
            if k in ("mrr", "hits@10", "hits@100", "mrr@10", "mean_rank_fraction")
            else (1.0, 400_000.0)
        )
        assert low <= lo <= hi <= high, k
    # the median of 29 ones and a 400,000 is 1 in (nearly) every resample
    assert s["ci"]["median_rank"] == (1.0, 1.0)


def test_summary_intervals_are_seeded_and_cached():
    rng = np.random.default_rng(0)
    r = _ranks(rng.integers(1, 1000, 50))
    a = r.summary(intervals=RANK_STATS, seed=4)
    assert r.summary(intervals=RANK_STATS, seed=4) == a
    assert r.summary("all", intervals=RANK_STATS, seed=4) == a  # None and "all" are one group
    assert r.summary(intervals=RANK_STATS, seed=5)["ci"] != a["ci"]
    assert np.isnan(r.summary(n_resamples=0)["ci_low"])  # 0 resamples: no interval


def test_map_interval_stays_in_zero_one():
    # 20 records with AP 1 and one with AP 0: t-interval above 1
    res = ReceiverScores("r", {}, "map", bounds=(0.0, 1.0))
    res.scores = [1.0] * 20 + [0.0]
    res.weights = [1] * 21
    res.groups = ["g"] * 21
    t = mean_ci(np.asarray(res.scores))
    assert t["ci_high"] > 1
    s = res.summary(n_resamples=2000, seed=0)
    assert 0 <= s["ci_low"] <= s["map"] <= s["ci_high"] <= 1
    assert (s["ci_low"], s["ci_high"]) == pytest.approx(_reference(res.scores, np.mean, 2000, 0))


def test_guess_score_bounds_follow_the_algorithm7_scores():
    from tests.codenames._toy import angles_embedding
    from wordgames.codenames.agents import EmbeddingNearestReceiver
    from wordgames.codenames.measures import receiver_guess_score
    from wordgames.codenames.records import HumanSenderRecord

    emb = angles_embedding({"a": 0, "b": 10, "r": 180, "clue": 5})
    rec = HumanSenderRecord("t", "1", blue=("a", "b"), red=("r",), clue="clue", targets=("a",))
    out = receiver_guess_score([EmbeddingNearestReceiver(emb)], [rec], target_score=3)
    assert out["nearest"].bounds == (-1.0, 3.0)
    out = receiver_guess_score([EmbeddingNearestReceiver(emb)], [rec])
    assert out["nearest"].bounds == (-1.0, 1.0)


def test_agents_on_the_same_records_share_the_resamples_and_get_the_same_intervals():
    from wordgames.codenames import measures

    rng = np.random.default_rng(3)
    w = rng.integers(1, 4, 300)
    cols = [rng.random(300) for _ in range(3)]
    stats = {"m": "mean", "md": "median"}
    measures._COUNTS_CACHE.clear()
    first = [joint_bootstrap_ci({"m": c, "md": c}, stats, weights=w, chunk=200) for c in cols]
    assert len(measures._COUNTS_CACHE) == 1  # drawn once, for the three columns
    # the same intervals as resamples drawn afresh for each column
    measures._COUNTS_CACHE.clear()
    measures._COUNTS_CACHE_BYTES, saved = 0, measures._COUNTS_CACHE_BYTES
    try:
        fresh = [joint_bootstrap_ci({"m": c, "md": c}, stats, weights=w, chunk=200) for c in cols]
    finally:
        measures._COUNTS_CACHE_BYTES = saved
    assert not measures._COUNTS_CACHE and first == fresh
    # and as the plain percentile bootstrap of the decisions
    x = np.repeat(cols[0], w)
    assert np.allclose(first[0]["m"], bootstrap_ci(x, chunk=200))
