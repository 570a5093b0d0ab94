"""Issue 10 for WALES: intervals inside the metric's bounds, coverage, options that do not
apply, console tables that cut no name."""

from __future__ import annotations

import math

import numpy as np
import pytest
from typer.testing import CliRunner

import wordgames
from tests.conftest import require_dataset
from wordgames.cli import app
from wordgames.registry import get_measure

runner = CliRunner()

SMALL = {
    "k": 60,
    "human_k": 60,
    "gammas": [0.0, 1.0],
    "exponents": [1.0, 16.0],
    "percents": [10.0],
    "table1_trials": 2,
    "table1_pool": 60,
    "w_path_pairs": 200,
}


def assert_inside_bounds(scores, measure_name: str) -> int:
    """Every interval of ``scores`` lies inside its metric's declared bounds; the count."""
    spec = get_measure(measure_name)
    n = 0
    for s in scores:
        lo_b, hi_b = spec.bounds(s.metric)
        if math.isnan(s.ci_low):
            assert math.isnan(s.ci_high), s
            continue
        n += 1
        assert s.ci_low <= s.ci_high, s
        if lo_b is not None:
            assert s.ci_low >= lo_b, s
        if hi_b is not None:
            assert s.ci_high <= hi_b, s
    return n


@pytest.mark.slow
def test_every_wales_interval_inside_its_bounds_on_real_data(data_root):
    require_dataset("wikispeedia")
    res = wordgames.evaluate(
        "glove-6b-50d",
        ["wales"],
        options={"wales": SMALL},
        seed=1,
        data_root=data_root,
        ci_resamples=400,
    )
    scores = res.scores
    # every score, failure rate and the w-path carry an interval; title coverage does not
    with_ci = {(s.dataset, s.agent, s.metric) for s in scores if not math.isnan(s.ci_low)}
    assert ("human", "greedy", "score") in with_ci
    assert ("human", "greedy", "failure_rate") in with_ci
    assert ("powerlaw-a16", "greedy(gamma=0)", "score") in with_ci
    assert ("wikispeedia-lscc", "w-path", "w_path") in with_ci
    assert assert_inside_bounds(scores, "wales") == len(with_ci) == len(scores) - 1
    # the 60 human-played pairs: coverage is the share of them with a target vector
    human = next(
        s for s in scores if (s.dataset, s.agent, s.metric) == ("human", "greedy", "score")
    )
    assert human.n + human.n_skipped == 60
    assert human.coverage == pytest.approx(human.n / 60)
    assert res.result("wales").parameters["intervals"]["resamples"] == 400
    # the same seed gives the same intervals; no resamples gives none
    again = wordgames.evaluate(
        "glove-6b-50d",
        ["wales"],
        options={"wales": SMALL},
        seed=1,
        data_root=data_root,
        ci_resamples=400,
    )
    assert [(s.ci_low, s.ci_high) for s in again.scores] == [(s.ci_low, s.ci_high) for s in scores]
    none = wordgames.evaluate(
        "glove-6b-50d",
        ["wales"],
        options={"wales": SMALL},
        seed=1,
        data_root=data_root,
        ci_resamples=0,
    )
    assert all(math.isnan(s.ci_low) for s in none.scores)
    assert [s.value for s in none.scores] == [s.value for s in scores]


def test_w_path_interval_by_hand():
    from tests.wales.helpers import random_graph, random_vectors
    from wordgames.stats import rowwise_spearman
    from wordgames.wales.baselines import w_path_baseline

    g = random_graph(60, 3, seed=0)
    nv = random_vectors(60, 4, seed=1)
    out = w_path_baseline(g, nv, 80, seed=2, n_resamples=300)
    assert -1.0 <= out["ci_low"] <= out["w_path"] <= out["ci_high"] <= 1.0
    # the pairs again (same draws as the baseline), resampled together by hand
    rng = np.random.default_rng(2)
    pool = np.arange(60)
    i, j = pool[rng.integers(0, 60, 80)], pool[rng.integers(0, 60, 80)]
    same = i == j
    while same.any():
        j[same] = pool[rng.integers(0, 60, int(same.sum()))]
        same = i == j
    m = g.shortest_path_lengths(i, j)
    x, y = -m.astype(float), nv.cosine_pairs(i, j)
    idx = np.random.default_rng(2).integers(0, 80, size=(300, 80))
    ref = np.quantile(rowwise_spearman(x[idx], y[idx]), [0.025, 0.975])
    assert (out["ci_low"], out["ci_high"]) == pytest.approx(tuple(ref))


def test_error_bars_follow_the_intervals():
    from wordgames.wales.report import error_bars

    yerr = error_bars([0.3, 0.9], [0.25, 0.8], [0.4, 1.0])
    np.testing.assert_allclose(yerr, [[0.05, 0.1], [0.1, 0.1]])


@pytest.mark.parametrize(
    ("flag", "value", "word"),
    [
        ("--challenges", "pairs.tsv", "challenges"),
        ("--names", "names.tsv", "names"),
        ("--require-scc", None, "require-scc"),
    ],
)
def test_custom_graph_options_with_the_default_graph_are_errors(tmp_path, flag, value, word):
    (tmp_path / "pairs.tsv").write_text("A\tB\n")
    (tmp_path / "names.tsv").write_text("0\tA\n")
    args = ["wales", "evaluate", flag] + ([str(tmp_path / value)] if value else [])
    r = runner.invoke(app, [*args, "-o", str(tmp_path / "o")])
    assert r.exit_code == 2, r.output
    text = " ".join(r.output.split())
    assert f"--{word}" in text and "applies only to a custom graph" in text
    assert not (tmp_path / "o" / "wales_report.json").exists()  # nothing was scored


def test_the_option_error_comes_from_the_measure_too():
    from wordgames.measure import OptionError

    with pytest.raises(OptionError, match="applies only to a custom graph"):
        get_measure("wales").make_options({"challenges": "pairs.tsv"})
    with pytest.raises(OptionError, match="needs human-played pairs"):
        get_measure("wales").make_options({"graph": "g.tsv", "human_k": 10})
    # quick mode does not trip over its own human_k on a custom graph without pairs
    from wordgames.wales.suite import effective_options

    opts = effective_options(get_measure("wales").make_options({"graph": "g.tsv"}), quick=True)
    assert opts.human_k is None and opts.k == 100


def test_navigate_and_baselines_refuse_options_that_do_not_apply(tmp_path):
    (tmp_path / "names.tsv").write_text("0\tA\n")
    r = runner.invoke(app, ["wales", "navigate", "A", "B", "--names", str(tmp_path / "names.tsv")])
    assert r.exit_code == 2 and "applies only to a custom graph" in " ".join(r.output.split())
    r = runner.invoke(app, ["wales", "baselines", "--pairs", "50"])
    assert r.exit_code == 2 and "--pairs apply only to w-path" in " ".join(r.output.split())


def _ring_graph(tmp_path):
    words = ["cat", "dog", "horse", "cow", "sheep", "goat", "pig", "duck"]
    lines = ["source\ttarget"]
    for i, w in enumerate(words):
        lines += [f"{w}\t{words[(i + 1) % 8]}", f"{words[(i + 1) % 8]}\t{w}"]
    (tmp_path / "g.tsv").write_text("\n".join(lines) + "\n")
    return tmp_path / "g.tsv"


@pytest.mark.slow
@pytest.mark.parametrize("columns", ["80", "120"])
def test_console_tables_cut_no_name(tmp_path, glove, columns):
    graph = _ring_graph(tmp_path)
    # a second embedding with a long name (the same vectors)
    long_name = "my-long-embedding-name-with-a-vocabulary-policy"
    vec = tmp_path / f"{long_name}.txt"
    words = ["cat", "dog", "horse", "cow", "sheep", "goat", "pig", "duck"]
    vec.write_text(
        "".join(f"{w} " + " ".join(f"{x:.4f}" for x in glove.vector(w)) + "\n" for w in words)
    )
    r = runner.invoke(
        app,
        [
            "wales",
            "evaluate",
            "--graph",
            str(graph),
            "-e",
            "glove-6b-50d",
            "-e",
            str(vec),
            "--k",
            "20",
            "--gamma",
            "1",
            "--exponent",
            "2",
            "--percent",
            "50",
            "--trials",
            "2",
            "--table1-pool",
            "20",
            "--w-path-pairs",
            "30",
            "-o",
            str(tmp_path / "o"),
        ],
        env={"COLUMNS": columns},
    )
    assert r.exit_code == 0, r.output
    assert "…" not in r.output
    width = int(columns)
    assert max(len(line) for line in r.output.splitlines() if "┃" in line or "│" in line) <= width
    for name in (long_name, "glove-6b-50d", "powerlaw-a2", "top-b50", "score (edges)"):
        assert name in r.output, name


@pytest.mark.slow
def test_thin_scores_are_not_ranked(tmp_path, glove):
    graph = _ring_graph(tmp_path)
    few = tmp_path / "three-words.txt"  # 3 of the 8 titles have a vector: coverage ~ 3/8
    few.write_text(
        "".join(
            f"{w} " + " ".join(f"{x:.4f}" for x in glove.vector(w)) + "\n"
            for w in ("cat", "dog", "horse")
        )
    )
    r = runner.invoke(
        app,
        [
            "wales",
            "evaluate",
            "--graph",
            str(graph),
            "-e",
            "glove-6b-50d",
            "-e",
            str(few),
            "--k",
            "60",
            "--gamma",
            "1",
            "--exponent",
            "2",
            "--percent",
            "100",
            "--trials",
            "2",
            "--table1-pool",
            "20",
            "--w-path-pairs",
            "30",
            "-o",
            str(tmp_path / "o"),
        ],
        env={"COLUMNS": "120"},
    )
    assert r.exit_code == 0, r.output
    from wordgames.report import load_results

    res = load_results(tmp_path / "o")
    thin = {
        (s.subject, s.dataset)
        for e in res.entries
        for s in e.scores
        if s.agent == "greedy" and s.metric == "score" and s.thin
    }
    assert ("three-words", "powerlaw-a2") in thin and ("glove-6b-50d", "powerlaw-a2") not in thin
    line = next(
        x
        for x in r.output.splitlines()
        if "powerlaw-a2" in x and "three-words" in x and "glove-6b-50d" in x
    )
    # the thin score is listed apart, after the ranking of the others
    assert "glove-6b-50d │ three-words" in " ".join(line.split())
    # (three-words scores higher there, on the few tasks it can play: it would have ranked first)
    assert "three-words > glove-6b-50d" not in r.output
