"""Leaderboard, intervals, OOV companions, ranks and correlations on a hand-made store."""

from __future__ import annotations

import math

import pytest

from tests.report.handmade import CN_RANK, LABELS, SIM, SIM_OOV, WALES, make_store
from wordgames.report import correlation_table, leaderboard, load_results, long_table
from wordgames.report.leaderboard import (
    HEADLINES,
    LOWER,
    Headline,
    guess_direction,
    headline_metrics,
    primary_metric,
    rank_values,
)
from wordgames.results.store import ResultStore


@pytest.fixture
def coll(tmp_path):
    return load_results(make_store(tmp_path / "res"))


def test_embeddings_in_run_order_with_descriptions(coll):
    assert coll.labels() == list(LABELS)
    assert coll.measures() == ["codenames", "similarity", "wales", "oddmanout", "toy"]
    d = {e["label"]: e for e in coll.embeddings()}
    assert d["C"]["n_words"] == 3000 and d["C"]["sha256"] == "c" * 64


def test_wide_leaderboard_values_ranks_directions(coll):
    lb = leaderboard(coll)
    col = ("similarity", "men/spearman")
    assert lb.values[col].tolist() == [SIM[x] for x in LABELS]
    assert lb.ranks[col].tolist() == [1, 2, 3, 4]
    assert lb.directions[col] == "higher"
    assert lb.ranks[("wales", "wales/score")].tolist() == [1, 3, 2, 4]
    # mean rank is lower-better: 10, 30, 20, 40 rank 1, 3, 2, 4
    mr = ("codenames", "codenames-pilot/cluster/human_receiver.mean_rank")
    assert lb.directions[mr] == "lower"
    assert lb.ranks[mr].tolist() == [1, 3, 2, 4]
    # the WordNet baseline is not an embedding's headline; counts are not headlines
    cols = [c[1] for c in lb.columns]
    assert "wordnet/crowdsourced-filtered/pct_correct" not in cols
    assert "men/oov_pairs" not in cols and "game/n" not in cols
    # a measure without a registry entry falls back to its numeric metrics, guessing directions
    assert lb.directions[("toy", "game/accuracy")] == "higher"
    assert lb.directions[("toy", "game/turns")] == "lower"
    assert lb.ranks[("toy", "game/turns")].tolist() == [1, 2, 3, 4]


def test_intervals_from_the_three_conventions(coll):
    lb = leaderboard(coll)
    # 1. explicit M/ci_low, M/ci_high metrics
    c = ("toy", "game/accuracy")
    assert lb.ci_low.at["B", c] == pytest.approx(0.5) and lb.ci_high.at["B", c] == pytest.approx(0.7)
    # 2. the Codenames senders table (interval of the mean rank)
    c = ("codenames", "codenames-pilot/cluster/human_receiver.mean_rank")
    assert (lb.ci_low.at["C", c], lb.ci_high.at["C", c]) == (CN_RANK["C"] - 1.5, CN_RANK["C"] + 1.5)
    # 3. WALES: score +- ci_half_width
    c = ("wales", "wales/score")
    assert lb.ci_low.at["A", c] == pytest.approx(WALES["A"] - 0.05)
    assert lb.ci_high.at["A", c] == pytest.approx(WALES["A"] + 0.05)
    # no interval given: NaN, never invented
    assert math.isnan(lb.ci_low.at["A", ("similarity", "men/spearman")])


def test_oov_counts_beside_each_value(coll):
    lb = leaderboard(coll)
    assert [lb.oov.at[x, ("similarity", "men/spearman")] for x in LABELS] == [
        {"oov_pairs": float(SIM_OOV[x])} for x in LABELS]
    assert lb.oov.at["A", ("wales", "wales/score")] == {"n_excluded_target_no_vector": 2.0}
    assert lb.oov.at["B", ("codenames", "codenames-pilot/nearest/human_receiver.map")] == {
        "n_skipped_oov": 4.0}
    assert lb.oov.at["B", ("oddmanout", "crowdsourced-filtered/pct_correct")] == {
        "puzzles_with_oov": 11.0}


def test_long_table(coll):
    lt = long_table(coll)
    assert len(lt) == sum(len(e.result["metrics"]) for e in coll.entries)
    row = lt[(lt.embedding == "C") & (lt.metric == "wales/score")].iloc[0]
    assert row.value == WALES["C"] and row.ci_low == pytest.approx(WALES["C"] - 0.05)
    assert row.headline and row.direction == "higher" and row.embedding_sha256 == "c" * 64
    assert not lt[lt.metric == "men/oov_pairs"].headline.any()


def test_rank_values_ties_and_nan():
    assert rank_values([0.5, 0.9, 0.9, float("nan")], "higher")[:3].tolist() == [3, 1, 1]
    assert math.isnan(rank_values([0.5, float("nan")], "higher")[1])
    assert rank_values([5.0, 1.0, 3.0], "lower").tolist() == [3, 1, 2]
    assert all(math.isnan(r) for r in rank_values([1.0, 2.0], None))


def test_guess_direction():
    assert guess_direction("x/hits@10") == "higher"
    assert guess_direction("a.median_rank") == "lower"
    assert guess_direction("failure_rate") == "lower"
    assert guess_direction("edim_p1.0") is None


def test_correlation_by_hand(coll):
    cor = correlation_table(coll)
    assert cor.primary == {"codenames": "codenames-pilot/nearest/human_receiver.map",
                           "similarity": "men/spearman", "wales": "wales/score",
                           "oddmanout": "crowdsourced-filtered/pct_correct",
                           "toy": "game/accuracy"}
    # ranks (1,2,3,4) vs (1,3,2,4): sum d^2 = 2, rho = 1 - 6*2 / (4*15) = 0.8
    assert cor.matrix.at["similarity", "wales"] == pytest.approx(0.8)
    assert cor.matrix.at["wales", "similarity"] == pytest.approx(0.8)
    assert cor.matrix.at["codenames", "similarity"] == pytest.approx(1.0)
    # oddmanout 50, 40, 45, 10 ranks like wales
    assert cor.matrix.at["oddmanout", "wales"] == pytest.approx(1.0)
    assert cor.n.at["similarity", "wales"] == 4
    row = cor.pairs[(cor.pairs.measure_a == "similarity") & (cor.pairs.measure_b == "wales")].iloc[0]
    assert row.rho == pytest.approx(0.8) and row.n == 4 and row.note == ""


def test_lower_better_primary_is_negated(coll, monkeypatch):
    monkeypatch.setitem(HEADLINES, "toy", (Headline(r"game/turns", LOWER, True),))
    cor = correlation_table(coll)
    assert cor.primary["toy"] == "game/turns" and cor.oriented["toy"]
    # turns 1..4 (lower-better) rank the embeddings exactly as similarity 0.8..0.2 does
    assert cor.matrix.at["toy", "similarity"] == pytest.approx(1.0)
    assert any("negated" in n for n in cor.notes)


def test_correlation_refused_below_three_embeddings(tmp_path):
    coll = load_results(make_store(tmp_path / "two", labels=("A", "B")))
    cor = correlation_table(coll)
    assert cor.matrix.isna().all().all()
    assert (cor.pairs.n == 2).all() and cor.pairs.rho.isna().all()
    assert all("< 3" in n for n in cor.pairs.note)
    assert any("at least 3" in n for n in cor.notes)


def test_correlation_pair_with_too_few_shared_embeddings(tmp_path):
    root = make_store(tmp_path / "r", measures=["similarity"])
    make_store(root, labels=("A", "B"), measures=["wales"], run_json=False)
    cor = correlation_table(load_results(root))
    assert cor.n.at["similarity", "wales"] == 2 and math.isnan(cor.matrix.at["similarity", "wales"])
    assert cor.n.at["similarity", "similarity"] == 4


def test_merged_stores_show_together(tmp_path):
    a = make_store(tmp_path / "run1", labels=("A", "B"))
    b = make_store(tmp_path / "run2", labels=("C", "D<i>"))
    ResultStore(a).merge_from(b)
    coll = load_results(a)
    assert set(coll.labels()) == set(LABELS)
    lb = leaderboard(coll)
    assert lb.ranks.loc[:, ("similarity", "men/spearman")].to_dict() == {
        "A": 1, "B": 2, "C": 3, "D<i>": 4}
    assert correlation_table(coll).matrix.at["similarity", "wales"] == pytest.approx(0.8)


def test_variants_prefer_full_over_quick(tmp_path):
    root = make_store(tmp_path / "r", measures=["similarity"])
    quick = {"seed": 0, "quick": True, "options": {}}
    # a quick result stored later must not replace the full one on the leaderboard
    make_store(root, labels=("A",), measures=["similarity"], params=quick, run_json=False)
    coll = load_results(root)
    assert len(coll.entries) == 5 and len(coll.selected) == 4
    assert coll.entry("A", "similarity").quick is False
    assert any("2 stored results" in n for n in coll.notes)
    lt = long_table(coll)
    assert len(lt[(lt.embedding == "A") & (lt.metric == "men/spearman")]) == 2


def test_fallback_to_results_json(tmp_path):
    root = make_store(tmp_path / "r")
    import shutil

    shutil.rmtree(root / "records")
    coll = load_results(root)
    assert not coll.from_store and coll.labels() == list(LABELS)
    assert leaderboard(coll).ranks[("wales", "wales/score")].tolist() == [1, 3, 2, 4]
    assert any("results.json" in n for n in coll.notes)


def test_headline_registry_order(coll):
    assert headline_metrics(coll, "codenames") == [
        "codenames-pilot/nearest/human_receiver.map",
        "codenames-pilot/cluster/human_receiver.mean_rank"]
    assert primary_metric(coll, "global-metrics") is None  # not stored here


def test_empty_or_damaged_folder_is_a_clear_error(tmp_path):
    from wordgames.errors import DataFormatError, WordgamesError

    with pytest.raises(WordgamesError, match="holds no results"):
        load_results(tmp_path)
    bad = tmp_path / "records" / "x" / "m" / "1-y.json"
    bad.parent.mkdir(parents=True)
    bad.write_text("{not json")
    with pytest.raises(DataFormatError, match="1-y.json"):
        load_results(tmp_path)
