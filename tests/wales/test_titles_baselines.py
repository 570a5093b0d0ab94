import numpy as np
import pandas as pd
import pytest

from tests.conftest import require_dataset
from wordgames.embeddings import Embedding
from wordgames.wales.baselines import (
    human_baseline,
    human_success_rate,
    path_length_stats,
    w_path_baseline,
    wikispeedia_human_baseline,
    wikispeedia_human_table,
)
from wordgames.wales.graph import DiGraph
from wordgames.wales.loaders import HumanPaths
from wordgames.wales.titles import normalise_titles, title_vectors


def _toy():
    words = ["new", "york", "mercury", "time-sharing", "planet", "l'idea"]
    vecs = np.array([[1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 1, 0], [0, 2, 0], [3, 0, 0]], dtype=float)
    return Embedding(words, vecs, name="toy")


def test_title_rule():
    emb = _toy()
    titles = ["New_York", "Mercury_(planet)", "Time-sharing", "L%27idea", "Zzz_Qqq", "New_Zzz"]
    assert normalise_titles(titles).tolist() == [
        "new york",
        "mercury",
        "time-sharing",
        "l'idea",
        "zzz qqq",
        "new zzz",
    ]
    nv = title_vectors(titles, emb)
    assert nv.rows.tolist() == [0, 1, 2, 3, -1, 4]
    np.testing.assert_allclose(nv.unit[0], [2**-0.5, 2**-0.5, 0], atol=1e-6)  # mean of unit vectors
    np.testing.assert_allclose(nv.unit[1], [0, 0, 1])  # qualifier dropped
    np.testing.assert_allclose(
        nv.unit[2], [2**-0.5, 2**-0.5, 0], atol=1e-6
    )  # whole title, not split
    np.testing.assert_allclose(nv.unit[3], [1, 0, 0])  # URL-decoded apostrophe
    rep = nv.report
    assert rep["n_whole_title"] == 3 and rep["n_token_mean"] == 2 and rep["n_no_vector"] == 1
    assert rep["n_partial"] == 1 and rep["examples_no_vector"] == ["Zzz_Qqq"]
    keep = title_vectors(titles, emb, drop_qualifier=False)
    # "mercury (planet)" -> tokens mercury, planet: mean of two unit vectors
    np.testing.assert_allclose(keep.unit[keep.rows[1]], [0, 2**-0.5, 2**-0.5], atol=1e-6)


def test_similarity_clips_and_sets_oov():
    nv = title_vectors(["new", "york", "zzz"], _toy())
    s = nv.similarity(np.array([0, 1, 2]), 0, oov_similarity=-0.5)
    assert s.tolist() == [1.0, 0.0, -0.5]


def test_wikispeedia_title_coverage(glove):
    from wordgames.wales.loaders import load_wikispeedia

    scc, _ = load_wikispeedia(require_dataset("wikispeedia")).graph.largest_scc()
    nv = title_vectors(scc.names, glove)
    rep = nv.report
    assert rep["n_nodes"] == 4051
    assert rep["n_no_vector"] == 41  # e.g. 'Ammosaurus': counted and listed
    assert "Ammosaurus" in rep["examples_no_vector"]
    assert rep["n_whole_title"] + rep["n_token_mean"] + rep["n_no_vector"] == 4051


def test_human_baseline_matches_provenance():
    from wordgames.wales.loaders import read_human_results

    res = read_human_results(require_dataset("wales") / "human_results_wales.tsv")
    hb = human_baseline(res, "nodes")
    assert (round(hb["best"], 4), round(hb["average"], 4), round(hb["median"], 4)) == (
        0.7112,
        0.5046,
        0.5328,
    )
    he = human_baseline(res, "edges")
    assert he["best"] < hb["best"]


@pytest.mark.slow
def test_path_stats_agree_with_human_results():
    from wordgames.wales.loaders import read_human_results, read_wikigame_paths

    folder = require_dataset("wales")
    stats = path_length_stats(read_wikigame_paths(folder / "wikigame_human_paths.jsonl"))
    res = read_human_results(folder / "human_results_wales.tsv")
    both = res.merge(stats, on=["start", "target"], suffixes=("", "_paths"))
    assert len(both) == 780
    assert (both["human_best"] == both["human_best_paths"]).all()
    assert np.allclose(both["human_avg"], both["human_avg_paths"])
    assert (both["human_median"] == both["human_median_paths"]).all()


def test_human_baseline_by_hand():
    df = pd.DataFrame(
        {"opt": [3, 2], "human_best": [3, 4], "human_avg": [6, 4], "human_median": [4, 4]}
    )
    hb = human_baseline(df, "nodes")
    assert hb["best"] == pytest.approx((1 + 0.5) / 2)
    assert hb["average"] == pytest.approx((0.5 + 0.5) / 2)
    he = human_baseline(df, "edges")  # (opt-1)/(len-1)
    assert he["best"] == pytest.approx((1 + 1 / 3) / 2)


def test_wikispeedia_human_tables_and_success_rate():
    g = DiGraph.from_edges([0, 1, 0, 2], [1, 2, 2, 0], 3, names=["A", "B", "C"])
    fin = HumanPaths(
        np.array(["A", "A", "A", "X"], dtype=object),
        np.array(["C", "C", "B", "C"], dtype=object),
        [],
        np.array([2, 4, 1, 3]),
        np.zeros(4, int),
        True,
    )
    table = wikispeedia_human_table(g, fin)
    row = table[(table.start == "A") & (table.target == "C")].iloc[0]
    assert (row.n_games, row.best, row.average, row.opt) == (2, 2, 3.0, 1)
    assert table.attrs["n_games_outside_graph"] == 1
    hb = wikispeedia_human_baseline(table)
    assert hb["best"] == pytest.approx((1 / 2 + 1 / 1) / 2)
    unf = HumanPaths(
        np.array(["A"], dtype=object),
        np.array(["Q"], dtype=object),
        [],
        np.array([3]),
        np.zeros(1, int),
        False,
        {"type": np.array(["timeout"])},
    )
    sr = human_success_rate(unf, fin, g)
    assert sr["success_rate"] == pytest.approx(4 / 5)
    assert sr["n_unfinished_target_not_in_graph"] == 1
    assert human_success_rate(unf)["success_rate"] is None


def test_w_path_is_one_when_cosine_falls_with_distance():
    # a two-way path 0 - 1 - ... - 11, so m(i, j) = |i - j|; node i's vector holds 1/4 in
    # dimensions i .. i + 15 (a window of 16), so cos = (16 - |i - j|) / 16 exactly (the
    # components are on the grid): it falls strictly with the distance and is equal for equal
    # distances, so Spearman(-m, cos) = 1 exactly
    n = 12
    a = np.arange(n - 1)
    g = DiGraph.from_edges(np.r_[a, a + 1], np.r_[a + 1, a], n)
    from wordgames.wales.titles import NodeVectors

    windows = np.zeros((n, n + 15))
    for i in range(n):
        windows[i, i : i + 16] = 0.25
    nv = NodeVectors(np.arange(n), windows)
    assert nv.similarity(np.arange(n), 0).tolist() == [(16 - d) / 16 for d in range(n)]
    out = w_path_baseline(g, nv, 500, seed=0)
    assert out["n_pairs"] == 500
    assert out["w_path"] == pytest.approx(1.0, abs=1e-12)
    shuffled = NodeVectors(np.random.default_rng(0).permutation(n), nv.unit)
    assert w_path_baseline(g, shuffled, 500, seed=0)["w_path"] < 0.9
