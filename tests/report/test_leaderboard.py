"""Leaderboard, intervals, skipped items, ranks and correlations on a hand-made store."""

from __future__ import annotations

import math

import pytest

from tests.report.handmade import (
    CN_MAP_SKIPPED,
    CN_RANK,
    LABELS,
    ODD_OOV,
    SIM,
    SIM_OOV,
    SIM_PAIRS,
    TURNS,
    WALES,
    WALES_NO_VECTOR,
    make_store,
    write_schema1_entry,
)
from wordgames.report import correlation_table, leaderboard, load_results, long_table
from wordgames.report.leaderboard import headline_keys, primary_key, rank_values
from wordgames.results.store import ResultStore

MEN = ("similarity", "men", "", "spearman")
WALES_SCORE = ("wales", "human", "greedy", "score")
CN_MAP_COL = ("codenames", "all", "nearest", "human_receiver.map")
CN_RANK_COL = ("codenames", "all", "cluster", "human_receiver.mean_rank")
ODD_COL = ("oddmanout", "crowdsourced-filtered", "embedding", "pct_correct")


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
    assert lb.values[MEN].tolist() == [SIM[x] for x in LABELS]
    assert lb.ranks[MEN].tolist() == [1, 2, 3, 4]
    assert lb.directions[MEN] == "higher"
    assert lb.bounds[MEN] == (-1.0, 1.0)  # from the similarity measure's declaration
    assert lb.ranks[WALES_SCORE].tolist() == [1, 3, 2, 4]
    # mean rank is lower-better: 10, 30, 20, 40 rank 1, 3, 2, 4
    assert lb.directions[CN_RANK_COL] == "lower"
    assert lb.ranks[CN_RANK_COL].tolist() == [1, 3, 2, 4]
    # the WordNet baseline and the people of The Wiki Game are not an embedding's headline
    subjects = {c[2] for c in lb.columns}
    assert "wordnet" not in subjects and not any(s.startswith("people") for s in subjects)
    # a measure the registry does not know: its Score rows' stored directions
    assert lb.directions[("toy", "game", "", "accuracy")] == "higher"
    assert lb.directions[("toy", "game", "", "turns")] == "lower"
    assert lb.ranks[("toy", "game", "", "turns")].tolist() == [1, 2, 3, 4]


def test_intervals_from_the_score_rows(coll):
    lb = leaderboard(coll)
    c = ("toy", "game", "", "accuracy")
    assert lb.ci_low.at["B", c] == pytest.approx(0.5) and lb.ci_high.at["B", c] == pytest.approx(
        0.7
    )
    assert (lb.ci_low.at["C", CN_RANK_COL], lb.ci_high.at["C", CN_RANK_COL]) == (
        CN_RANK["C"] - 1.5,
        CN_RANK["C"] + 1.5,
    )
    assert lb.ci_low.at["A", WALES_SCORE] == pytest.approx(WALES["A"] - 0.05)
    assert lb.ci_high.at["A", WALES_SCORE] == pytest.approx(WALES["A"] + 0.05)
    # no interval given: NaN, never invented
    assert math.isnan(lb.ci_low.at["A", MEN])


def test_skipped_counts_beside_each_value(coll):
    lb = leaderboard(coll)
    assert [lb.n_skipped.at[x, MEN] for x in LABELS] == [SIM_OOV[x] for x in LABELS]
    assert [lb.n.at[x, MEN] + lb.n_skipped.at[x, MEN] for x in LABELS] == [SIM_PAIRS] * 4
    assert "out-of-vocabulary" in lb.skip_reason.at["A", MEN]
    assert lb.n_skipped.at["A", WALES_SCORE] == WALES_NO_VECTOR
    assert lb.skip_reason.at["A", WALES_SCORE] == "target page has no vector"
    assert lb.n_skipped.at["B", CN_MAP_COL] == CN_MAP_SKIPPED
    assert lb.n_skipped.at["B", ODD_COL] == ODD_OOV
    assert lb.n_skipped.at["B", ("toy", "game", "", "turns")] == 0


def test_long_table(coll):
    lt = long_table(coll)
    assert len(lt) == sum(len(e.result["scores"]) for e in coll.entries)
    row = lt[
        (lt.subject == "C")
        & (lt.measure == "wales")
        & (lt.dataset == "human")
        & (lt.metric == "score")
    ].iloc[0]
    assert row.value == WALES["C"] and row.ci_low == pytest.approx(WALES["C"] - 0.05)
    assert row.headline and row.direction == "higher" and row.subject_sha256 == "c" * 64
    assert row.n_skipped == WALES_NO_VECTOR and row.skip_reason == "target page has no vector"
    assert not lt[lt.agent == "wordnet"].headline.any()
    assert not lt[lt.dataset == "wikigame"].headline.any()


def test_rank_values_ties_and_nan():
    assert rank_values([0.5, 0.9, 0.9, float("nan")], "higher")[:3].tolist() == [3, 1, 1]
    assert math.isnan(rank_values([0.5, float("nan")], "higher")[1])
    assert rank_values([5.0, 1.0, 3.0], "lower").tolist() == [3, 1, 2]
    assert all(math.isnan(r) for r in rank_values([1.0, 2.0], None))


def test_correlation_by_hand(coll):
    cor = correlation_table(coll)
    assert cor.primary == {
        "codenames": ("all", "nearest", "human_receiver.map"),
        "similarity": ("men", "", "spearman"),
        "wales": ("human", "greedy", "score"),
        "oddmanout": ("crowdsourced-filtered", "embedding", "pct_correct"),
        "toy": ("game", "", "accuracy"),
    }
    # ranks (1,2,3,4) vs (1,3,2,4): sum d^2 = 2, rho = 1 - 6*2 / (4*15) = 0.8
    assert cor.matrix.at["similarity", "wales"] == pytest.approx(0.8)
    assert cor.matrix.at["wales", "similarity"] == pytest.approx(0.8)
    assert cor.matrix.at["codenames", "similarity"] == pytest.approx(1.0)
    # oddmanout 50, 40, 45, 10 ranks like wales
    assert cor.matrix.at["oddmanout", "wales"] == pytest.approx(1.0)
    assert cor.n.at["similarity", "wales"] == 4
    row = cor.pairs[(cor.pairs.measure_a == "similarity") & (cor.pairs.measure_b == "wales")].iloc[
        0
    ]
    assert row.rho == pytest.approx(0.8) and row.n == 4 and row.note == ""
    assert row.metric_a == "men/spearman" and row.metric_b == "human/greedy/score"


def test_lower_better_primary_is_negated(coll, monkeypatch):
    # declare "toy" with turns (lower-better) as its primary headline
    monkeypatch.setenv("WORDGAMES_EXTRA_MEASURES", "toy=tests.report.handmade:TOY_TURNS")
    cor = correlation_table(coll)
    assert cor.primary["toy"] == ("game", "", "turns") and cor.oriented["toy"]
    # turns 1..4 (lower-better) rank the embeddings exactly as similarity 0.8..0.2 does
    assert cor.matrix.at["toy", "similarity"] == pytest.approx(1.0)
    assert any("negated" in n for n in cor.notes)
    assert [c for c in leaderboard(coll).columns if c[0] == "toy"] == [("toy", "game", "", "turns")]


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
    assert lb.ranks.loc[:, MEN].to_dict() == {"A": 1, "B": 2, "C": 3, "D<i>": 4}
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
    assert len(lt[(lt.subject == "A") & (lt.dataset == "men") & (lt.metric == "spearman")]) == 2


def test_fallback_to_results_json(tmp_path):
    root = make_store(tmp_path / "r")
    import shutil

    shutil.rmtree(root / "records")
    coll = load_results(root)
    assert not coll.from_store and coll.labels() == list(LABELS)
    assert leaderboard(coll).ranks[WALES_SCORE].tolist() == [1, 3, 2, 4]
    assert any("results.json" in n for n in coll.notes)


def test_headline_registry_order(coll):
    # the spec's headline order: the nearest receiver's MAP over every data set ("all"), the
    # cluster sender's mean rank over every data set, then each data set's MAP (the pilot's)
    assert headline_keys(coll, "codenames") == [
        ("all", "nearest", "human_receiver.map"),
        ("all", "cluster", "human_receiver.mean_rank"),
        ("codenames-pilot", "nearest", "human_receiver.map"),
    ]
    assert primary_key(coll, "global-metrics") is None  # not stored here


def test_plugin_measure_unknown_to_the_registry_is_shown(tmp_path):
    # a $WORDGAMES_EXTRA_MEASURES measure not installed where the report is read: its Score
    # rows carry their directions
    coll = load_results(make_store(tmp_path / "r", legacy=True))
    assert "plugin" in coll.measures()
    lb = leaderboard(coll)
    acc, turns = ("plugin", "game", "", "accuracy"), ("plugin", "game", "", "turns")
    assert lb.values[acc].tolist() == [SIM[x] for x in LABELS]
    assert lb.directions[acc] == "higher" and lb.directions[turns] == "lower"
    assert lb.ranks[turns].tolist() == [1, 2, 3, 4]
    assert ("plugin", "", "", "n_words") not in lb.columns  # a count, no direction: not ranked
    lt = long_table(coll)
    assert len(lt[lt.measure == "plugin"]) == 3 * len(LABELS)  # every metric is in the long table
    assert correlation_table(coll).primary["plugin"] == ("game", "", "accuracy")
    assert [lb.values.at[x, turns] for x in LABELS] == [TURNS[x] for x in LABELS]


def test_old_schema_entries_are_ignored_with_a_note(tmp_path):
    root = make_store(tmp_path / "r", measures=["similarity"])
    write_schema1_entry(root, "A")  # flat metrics of an older wordgames, 0.99 for A
    coll = load_results(root)
    assert len(coll.entries) == len(LABELS)  # the old entry is not read
    assert any("older wordgames" in n and "ignored" in n for n in coll.notes)
    assert leaderboard(coll).values.at["A", MEN] == SIM["A"]
    assert len(ResultStore(root).table()) == len(LABELS)  # the store's table skips it too
    from tests.report.htmltables import parse
    from wordgames.report import write_report

    p = parse(write_report(root).read_text(encoding="utf-8"))
    text = " ".join(p.text)
    assert "older wordgames" in text and "0.99" not in text


def test_folder_with_only_old_results_is_a_clear_error(tmp_path):
    from wordgames.errors import WordgamesError

    write_schema1_entry(tmp_path, "A")
    with pytest.raises(WordgamesError, match="older wordgames"):
        load_results(tmp_path)


def test_empty_or_damaged_folder_is_a_clear_error(tmp_path):
    from wordgames.errors import DataFormatError, WordgamesError

    with pytest.raises(WordgamesError, match="holds no results"):
        load_results(tmp_path)
    bad = tmp_path / "records" / "x" / "m" / "1-y.json"
    bad.parent.mkdir(parents=True)
    bad.write_text("{not json")
    with pytest.raises(DataFormatError, match="1-y.json"):
        load_results(tmp_path)
