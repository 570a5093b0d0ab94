"""Paired comparisons behind "best" (issue 21, item 4): hand-checked cases and identities."""

from __future__ import annotations

import base64
import zlib

import numpy as np
import pytest
from scipy.stats import rankdata, spearmanr

from wordgames.paired import (
    MAX_UNPACKED,
    _resampled_ranks,
    _spearman_difference,
    item_record,
    pack,
    paired_difference,
    top_group,
    unpack,
)


def test_resampled_ranks_equal_the_ranks_of_the_expanded_sample():
    rng = np.random.default_rng(1)
    values = rng.integers(0, 6, size=40).astype(float)  # many ties
    counts = rng.multinomial(40, np.full(40, 1 / 40), size=5).astype(float)
    got = _resampled_ranks(values, counts)
    for row in range(5):
        expanded = np.repeat(values, counts[row].astype(int))
        ranks = rankdata(expanded)  # average ranks of the resample
        first = np.cumsum(counts[row]) - counts[row]
        drawn = counts[row] > 0
        want = ranks[first[drawn].astype(int)]
        assert got[row, drawn] == pytest.approx(want)


def test_spearman_difference_on_the_full_sample_is_scipys():
    rng = np.random.default_rng(2)
    gold = rng.integers(0, 10, 50).astype(float)
    a, b = gold + rng.normal(0, 3, 50), rng.normal(0, 1, 50)
    got = _spearman_difference(np.ones((1, 50)), a, b, gold)[0]
    assert got == pytest.approx(spearmanr(a, gold)[0] - spearmanr(b, gold)[0])


def test_identical_records_differ_by_exactly_zero():
    rec = item_record(range(30), np.linspace(0, 1, 30), weights=[2] * 30)
    d = paired_difference(rec, rec, n_resamples=100)
    assert (d["difference"], d["ci_low"], d["ci_high"], d["n"]) == (0.0, 0.0, 0.0, 30)


def test_weighted_strata_mean_is_the_mean_of_the_strata_means():
    # stratum x: a = (1, 0) weights (3, 1) -> 0.75; stratum y: a = 1 -> 1.0; b = 0 everywhere
    a = item_record(["x1", "x2", "y1"], [1, 0, 1], weights=[3, 1, 1], strata=["x", "x", "y"])
    b = item_record(["x1", "x2", "y1"], [0, 0, 0], weights=[3, 1, 1], strata=["x", "x", "y"])
    d = paired_difference(a, b, n_resamples=50)
    assert d["difference"] == pytest.approx((0.75 + 1.0) / 2)


def test_only_shared_items_are_compared():
    a = item_record(["p", "q", "r"], [1.0, 1.0, 0.0])
    b = item_record(["q", "r", "s"], [0.0, 0.0, 1.0])
    d = paired_difference(pack(a), pack(b), n_resamples=50)  # stored form too
    assert d["n"] == 2 and d["difference"] == pytest.approx(0.5)


def test_top_group_separates_a_clear_leader_and_ties_a_noisy_one():
    rng = np.random.default_rng(3)
    base = rng.random(400)
    recs = {
        "strong": item_record(range(400), base + 0.2),
        "weak": item_record(range(400), base),
        "twin": item_record(range(400), base + 0.2 + rng.normal(0, 0.01, 400)),
    }
    group, vs = top_group("strong", ["weak"], recs, higher_is_better=True, n_resamples=300)
    assert group == ["strong"] and vs["weak"]["ci_low"] > 0
    group, _ = top_group("strong", ["twin", "weak"], recs, higher_is_better=True, n_resamples=300)
    assert group == ["strong", "twin"]
    # lower is better: the same interval on the wrong side separates nothing
    group, _ = top_group("strong", ["weak"], recs, higher_is_better=False, n_resamples=300)
    assert group == ["strong", "weak"]
    # no item record: nothing can be separated
    group, vs = top_group("strong", ["x"], {**recs, "x": None}, higher_is_better=True)
    assert group == ["strong", "x"] and vs["x"] is None


def test_a_stored_record_that_would_balloon_is_refused():
    bomb = base64.b64encode(zlib.compress(b"\0" * (MAX_UNPACKED + 10))).decode()
    assert unpack({"encoding": "zlib-npz-v1", "data": bomb, "statistic": "mean"}) is None
    assert unpack({"encoding": "zlib-npz-v1", "data": "not base64!", "statistic": "mean"}) is None
    assert unpack({"statistic": "mean"}) is None


@pytest.mark.slow
@pytest.mark.slow
def test_the_leaderboard_marks_best_only_when_separated(data_root):
    import wordgames
    from wordgames.embeddings import Embedding, load_embedding

    glove = load_embedding("glove-6b-50d")
    twin = Embedding(list(glove.words), np.asarray(glove.vectors) * 2.0, name="glove-twin")
    res = wordgames.evaluate(
        [glove, twin, "glove-6b-50d-pca5"],
        measures=["similarity"],
        datasets=["men", "simlex999"],
        data_root=data_root,
        ci_resamples=0,
    )
    lb = res.leaderboard()
    col = ("similarity", "men", "", "spearman")
    # the twin scales every vector: the same cosines, a difference of exactly zero
    assert lb.values.loc["glove-6b-50d", col] == pytest.approx(lb.values.loc["glove-twin", col])
    assert not lb.best()[col].any()
    assert lb.tied_top()[col].loc[["glove-6b-50d", "glove-twin"]].all()
    assert not lb.top[col].loc["glove-6b-50d-pca5"]  # pca5 is separated from the leaders
    frame = lb.to_frame().set_index(["subject", "dataset"])
    assert frame.loc[("glove-twin", "men"), "tied_best"]
