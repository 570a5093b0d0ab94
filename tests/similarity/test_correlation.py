"""The correlation study: rank correlations on hand-made tables, refusals, and the driver."""

from __future__ import annotations

import json
import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from tests.conftest import require_dataset
from wordgames.errors import SkipMeasure, WordgamesError
from wordgames.experiments import correlation_study
from wordgames.registry import get_measure
from wordgames.results import MeasureResult
from wordgames.similarity.correlation import (
    InsufficientEmbeddingsError,
    correlate,
    select_metrics,
)

TABLE = {
    "e1": {"wales/score": 0.1, "up": 10, "down": 4, "swap": 1, "gap": 5.0, "flat": 2},
    "e2": {"wales/score": 0.2, "up": 20, "down": 3, "swap": 3, "gap": float("nan"), "flat": 2},
    "e3": {"wales/score": 0.3, "up": 30, "down": 2, "swap": 2, "gap": 7.0, "flat": 2},
    "e4": {"wales/score": 0.4, "up": 40, "down": 1, "swap": 4, "gap": 6.0, "flat": 2},
}


def _by_metric(res):
    return {r["metric"]: r for r in res.with_reference.to_dict(orient="records")}


def test_hand_made_table():
    res = correlate(TABLE)
    rows = _by_metric(res)
    assert res.n_embeddings == 4
    assert rows["up"]["spearman"] == pytest.approx(1.0)
    assert rows["down"]["spearman"] == pytest.approx(-1.0)
    # ranks (1, 3, 2, 4) against (1, 2, 3, 4): sum d^2 = 2 -> 1 - 6*2/(4*15) = 0.8
    assert rows["swap"]["spearman"] == pytest.approx(0.8)
    # "gap" is missing on e2: computed on e1, e3, e4 only -> ranks (1, 3, 2) vs (1, 2, 3): 0.5
    assert rows["gap"]["n_embeddings"] == 3
    assert rows["gap"]["spearman"] == pytest.approx(0.5)
    # a constant metric carries no ranking: NaN, and said so
    assert math.isnan(rows["flat"]["spearman"])
    assert any("flat" in n and "constant" in n for n in res.notes)
    # sorted from most to least correlated, NaN last
    assert res.with_reference["metric"].tolist() == ["up", "swap", "gap", "down", "flat"]
    assert "wales/score" not in rows


def test_full_matrix_is_symmetric_and_matches_scipy():
    res = correlate(TABLE)
    m = res.matrix
    cols = ["wales/score", "up", "down", "swap"]
    np.testing.assert_allclose(m.loc[cols, cols].to_numpy(), m.loc[cols, cols].to_numpy().T)
    np.testing.assert_allclose(np.diag(m.loc[cols, cols].to_numpy()), 1.0)
    t = pd.DataFrame(TABLE).T
    expected = stats.spearmanr(t["swap"], t["down"]).statistic
    assert m.loc["swap", "down"] == pytest.approx(expected)
    assert res.counts.loc["gap", "up"] == 3 and res.counts.loc["up", "down"] == 4
    # JSON-able
    json.dumps(res.as_dict(), default=float)


def test_refuses_fewer_than_three_embeddings():
    two = {k: TABLE[k] for k in ("e1", "e2")}
    with pytest.raises(InsufficientEmbeddingsError, match="at least 3 embeddings, got 2"):
        correlate(two)
    with pytest.raises(InsufficientEmbeddingsError):
        correlate({"e1": TABLE["e1"]}, reference=None)
    with pytest.raises(ValueError, match="at least 3"):
        correlate(TABLE, min_embeddings=2)


def test_missing_reference_is_a_clear_error():
    with pytest.raises(WordgamesError, match="'nope' is not in the table"):
        correlate(TABLE, reference="nope")
    res = correlate(TABLE, reference=None)
    assert len(res.with_reference) == 0 and res.matrix.shape == (6, 6)


def test_select_metrics_defaults():
    sim = {"men/spearman": 0.6, "men/pearson": 0.6, "men/oov_pairs": 0.0}
    assert select_metrics("similarity", sim) == {"men/spearman": 0.6}
    glob = {"erank": 40.0, "perank_p2.5": 30.0, "edim_p1.0": 39.0, "n_rows": 5.0, "rank": 50.0}
    assert set(select_metrics("global-metrics", glob)) == {"erank", "perank_p2.5", "edim_p1.0"}
    wales = {"wales/score": 0.3, "wales/failures": 4.0, "w-path/spearman": 0.2}
    assert set(select_metrics("wales", wales)) == {"wales/score", "w-path/spearman"}


def test_driver_refuses_before_running(tmp_path, glove):
    with pytest.raises(InsufficientEmbeddingsError):
        correlation_study([glove, glove.restrict(top_n=10, name="small")], out_dir=tmp_path)


@pytest.fixture(scope="module")
def three(glove):
    rng = np.random.default_rng(0)
    base = glove.restrict(top_n=30_000, name="g30k")
    from wordgames.embeddings import Embedding

    noisy = Embedding(
        base.words, base.vectors + rng.standard_normal(base.vectors.shape) * 0.6, name="g30k-noisy"
    )
    rand = Embedding(base.words, rng.standard_normal(base.vectors.shape), name="random")
    return [base, noisy, rand]


def fake_wales(emb, ctx):
    # a stand-in WALES whose score is MEN's Spearman: their correlation must be exactly 1
    from wordgames.similarity.benchmarks import evaluate_benchmark, load_benchmark

    men = evaluate_benchmark(emb, load_benchmark("men", ctx.data_root)).spearman
    result = MeasureResult("wales", "test")
    result.score("human", "greedy", "score", men, n=100)  # the study's "wales/score"
    result.score("human", "greedy", "failures", 3.0, n=100)
    return result


def skip_wales(emb, ctx):
    raise SkipMeasure("no Wikipedia graph here")


def stand_in(compute: str):
    """The WALES measure record with another compute function (a stand-in)."""
    import dataclasses

    return dataclasses.replace(
        get_measure("wales"), compute=f"{__name__}:{compute}", version="test"
    )


@pytest.mark.slow
def test_driver_with_a_stand_in_wales(tmp_path, three, data_root):
    study = correlation_study(
        three,
        (stand_in("fake_wales"), "global-metrics", "similarity"),
        out_dir=tmp_path,
        data_root=data_root,
    )
    t = study.table
    assert list(t.index) == ["g30k", "g30k-noisy", "random"]
    assert {"wales/score", "erank", "perank_p2.5", "edim_p1.0", "men/spearman"} <= set(t.columns)
    assert "human/failures" not in t.columns and "men/pearson" not in t.columns
    assert sum(c.endswith("/spearman") for c in t.columns) == 13
    rows = _by_metric(study.correlation)
    assert rows["men/spearman"]["spearman"] == pytest.approx(1.0)
    assert rows["men/spearman"]["n_embeddings"] == 3
    for metric, row in rows.items():
        assert row["spearman"] == pytest.approx(
            stats.spearmanr(t["wales/score"], t[metric]).statistic, nan_ok=True
        )
    # noise destroys similarity: the ordering on MEN is base > noisy > random
    assert (
        t.loc["g30k", "men/spearman"]
        > t.loc["g30k-noisy", "men/spearman"]
        > t.loc["random", "men/spearman"]
    )
    # OOV counts of every score travel with the study (RW has OOV words for a 30k vocabulary)
    assert study.oov.loc["g30k", "rw"] > 0
    assert all(p.endswith(".png") for p in study.plots) and len(study.plots) == 2
    assert not study.skipped


def test_driver_reports_why_the_reference_is_missing(tmp_path, three):
    wales = stand_in("skip_wales")
    with pytest.raises(WordgamesError, match="no Wikipedia graph here"):
        correlation_study(three, out_dir=tmp_path, measures=(wales, "global-metrics"))
    # another reference still works, and the skips are recorded
    study = correlation_study(
        three, out_dir=tmp_path, measures=(wales, "global-metrics"), reference="erank", plot=False
    )
    assert len(study.skipped) == 3 and study.correlation.n_embeddings == 3
    assert set(_by_metric(study.correlation)) == {"perank_p2.5", "edim_p1.0"}


def test_driver_rejects_unknown_measure(tmp_path, three):
    with pytest.raises(WordgamesError, match="unknown measure"):
        correlation_study(three, out_dir=tmp_path, measures=("global-metrics", "nope"))


@pytest.mark.slow
@pytest.mark.slow
def test_driver_with_the_real_wales_quick(tmp_path, three, data_root):
    pytest.importorskip("wordgames.wales.suite")
    require_dataset("wikispeedia")
    study = correlation_study(
        three,
        measures=("wales", "global-metrics"),
        out_dir=tmp_path,
        data_root=data_root,
        quick=True,
        plot=False,
    )
    t = study.table
    assert {"wales/score", "wales/w-path", "erank"} <= set(t.columns)
    assert not study.skipped
    # the random control navigates worse than GloVe
    assert t.loc["random", "wales/score"] < t.loc["g30k", "wales/score"]
    rows = _by_metric(study.correlation)
    assert rows["erank"]["spearman"] == pytest.approx(
        stats.spearmanr(t["wales/score"], t["erank"]).statistic
    )
