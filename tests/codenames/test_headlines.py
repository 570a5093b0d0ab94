"""The measure's declared headlines, the ``"all"`` aggregates over data sets, and the bounds
of every interval of a real run."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tests.conftest import require_dataset
from wordgames.codenames.records import HumanReceiverRecord, LoadedHumanData


def test_spec_headlines_are_the_aggregates_over_data_sets():
    from wordgames.codenames.spec import ALL_DATASETS, CANDIDATES_METRIC, CodenamesOptions
    from wordgames.registry import get_measure

    m = get_measure("codenames")
    first = m.headlines[:3]
    assert [(h.dataset, h.agent, h.metric) for h in first] == [
        (ALL_DATASETS, "nearest", "human_receiver.map"),
        (ALL_DATASETS, "cluster", "human_receiver.mean_rank"),
        (ALL_DATASETS, "nearest", "human_sender.guess_score"),
    ]
    # the one primary headline is the first: it never depends on which data sets sort first
    assert [h.primary for h in m.headlines] == [True] + [False] * (len(m.headlines) - 1)
    assert m.direction(CANDIDATES_METRIC) == "lower" and m.bounds(CANDIDATES_METRIC)[0] == 1
    assert CodenamesOptions().max_records is None  # every record by default
    assert m.version != "1"  # the numbers changed (bootstrap intervals, all records)


def _toy_data(tmp_path):
    """Two user files on a 2-d embedding: data set A (4 records, 1 with an unknown clue) and B."""
    from wordgames.codenames.human_data import write_user_jsonl
    from wordgames.embeddings import Embedding

    ang = {"a0": 0, "a1": 10, "r": 180, "r2": 200, "c": 5, "far": 85, "mid": 60}
    words = list(ang)
    rad = np.deg2rad([ang[w] for w in words])
    emb = Embedding(words, np.stack([np.cos(rad), np.sin(rad)], 1), name="toy")
    board = ("a0", "a1", "r", "r2")
    a = LoadedHumanData("A")
    a.receiver += [
        # the nearest receiver ranks a0 a1 r2 r: AP 1
        HumanReceiverRecord("A", "1", board, "c", ("a0", "a1")),
        # a1 (75 deg) a0 (85) r (95) r2 (115): AP 1/3
        HumanReceiverRecord("A", "2", board, "far", ("r",)),
        # a0 a1 r2 r: AP 1/4
        HumanReceiverRecord("A", "3", board, "c", ("r",)),
        HumanReceiverRecord("A", "4", board, "zzz", ("a0",)),  # clue unknown: skipped
    ]
    b = LoadedHumanData("B")
    # a1 (50 deg) first: AP 1, for two people
    b.receiver += [HumanReceiverRecord("B", "1", board, "mid", ("a1",), count=2)]
    return emb, [str(write_user_jsonl(d, tmp_path / f"{d.dataset}.jsonl")) for d in (a, b)]


def test_all_rows_are_the_mean_over_data_sets_each_weighted_equally(tmp_path):
    import wordgames
    from wordgames.codenames.agents import EmbeddingNearestReceiver
    from wordgames.codenames.human_data import read_user_file
    from wordgames.codenames.measures import receiver_map

    emb, files = _toy_data(tmp_path)
    res = wordgames.evaluate(emb, ["codenames"], options={"codenames": {"files": files}})
    rows = {(s.dataset, s.agent, s.metric): s for s in res.scores}
    # the per-data-set values, computed directly
    maps = {}
    for f in files:
        d = read_user_file(f)
        maps[d.dataset] = receiver_map([EmbeddingNearestReceiver(emb)], d.receiver)["nearest"]
    va, vb = (maps[k].summary()["map"] for k in ("user:A.jsonl", "user:B.jsonl"))
    assert (va, vb) == pytest.approx(((1 + 1 / 3 + 1 / 4) / 3, 1.0))
    agg = rows[("all", "nearest", "human_receiver.map")]
    assert agg.value == pytest.approx((va + vb) / 2)  # not the pooled mean over 5 decisions
    pooled = (3 * va + 2 * vb) / 5
    assert agg.value != pytest.approx(pooled)
    assert (agg.n, agg.n_skipped) == (3 + 2, 1)
    assert agg.coverage == pytest.approx((3 / 4 + 1.0) / 2)  # mean of the data sets' shares
    assert agg.skip_reason == "clue not in vocabulary"
    assert 0 <= agg.ci_low <= agg.value <= agg.ci_high <= 1
    # the per-data-set rows are kept
    assert rows[("user:A.jsonl", "nearest", "human_receiver.map")].value == pytest.approx(va)
    table = res.result("codenames").tables["aggregates"]
    (t,) = [r for r in table if r["metric"] == "human_receiver.map"]
    assert t["datasets"] == ["user:A.jsonl", "user:B.jsonl"] and t["n_datasets"] == 2
    assert any(n.startswith("records: all 5 receiver") for n in res.result("codenames").notes)


@pytest.mark.slow
def test_every_interval_of_a_real_run_lies_within_its_metric_bounds(data_root):
    require_dataset("codenames-pilot")
    require_dataset("codenames-human-heyyjudes")
    import wordgames
    from wordgames.registry import get_measure

    res = wordgames.evaluate(
        "glove-6b-50d",
        ["codenames"],
        datasets=["codenames-pilot", "codenames-human-heyyjudes", "codenames-human-stanfordhci"],
        options={"codenames": {"max_records": 60}},
        data_root=data_root,
    )
    spec = get_measure("codenames")
    checked = 0
    for s in res.scores:
        lo_b, hi_b = spec.bounds(s.metric)
        if math.isnan(s.ci_low):
            continue
        checked += 1
        assert s.ci_low <= s.ci_high, s
        assert lo_b is None or s.ci_low >= lo_b, s
        assert hi_b is None or s.ci_high <= hi_b, s
        if s.metric.endswith("mean_rank"):
            assert s.ci_high <= 400_000, s  # within the vocabulary
    assert checked > 100
    # the Shen et al. restricted choice is scored beside the full-vocabulary rank
    cand = [s for s in res.scores if s.metric == "human_sender.mean_rank_candidates"]
    assert {s.dataset for s in cand} == {"codenames-human-heyyjudes"}
    assert all(1 <= s.value <= 8 for s in cand)
