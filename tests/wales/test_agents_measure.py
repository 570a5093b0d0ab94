"""``wales agents`` through ``evaluate`` (issue 23): the comparison is stored Score rows."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from wordgames.measure import Score


@pytest.fixture(scope="module")
def run(tmp_path_factory, data_root):
    from wordgames.cli import app

    out = tmp_path_factory.mktemp("wales-agents")
    args = ["wales", "agents", "-e", "glove-6b-50d", "--k", "40", "--exponent", "32"]
    r = CliRunner().invoke(app, [*args, "-o", str(out), "--data-root", str(data_root)])
    assert r.exit_code == 0, r.output
    return r.output, out, data_root


@pytest.mark.slow
def test_rows_are_the_agents_summaries(run):
    from wordgames.embeddings import load_embedding
    from wordgames.wales.agent import GreedyAgent
    from wordgames.wales.experiments import compare_agents
    from wordgames.wales.report import wikispeedia_setup
    from wordgames.wales.stochastic import StochasticAgent
    from wordgames.wales.tasks import power_law_tasks
    from wordgames.wales.titles import title_vectors

    _, out, root = run
    record = json.loads((out / "results.json").read_text())
    scores = {
        (s.dataset, s.agent, s.metric): s
        for s in (Score.from_dict(x) for r in record["results"] for x in r["scores"])
    }
    setup = wikispeedia_setup(root)
    emb = load_embedding("glove-6b-50d")
    sets = [setup.human, power_law_tasks(setup.graph, 32.0, 40, 0)]
    agents = {"greedy": GreedyAgent(), "stochastic": StochasticAgent(seed=0)}
    rows = compare_agents(setup.graph, title_vectors(setup.graph.names, emb), "g", agents, sets)
    assert len(rows) == 4
    for row in rows:
        s = scores[(row["task_set"], row["agent"], "score")]
        assert (s.value, s.ci_low, s.ci_high, s.n) == (
            row["score"], row["ci_low"], row["ci_high"], row["n_scored"]
        )  # fmt: skip
        assert scores[(row["task_set"], row["agent"], "failure_rate")].value == row["failure_rate"]


@pytest.mark.slow
def test_the_report_shows_the_comparison(run):
    from wordgames.report import write_report

    _, out, _ = run
    html = write_report(out).read_text(encoding="utf-8")
    assert 'id="m-wales-agents"' in html and "stochastic" in html


def test_power_law_rows_are_the_check_and_stored(tmp_path, data_root):
    from wordgames.cli import app
    from wordgames.wales.experiments import power_law_check
    from wordgames.wales.report import wikispeedia_setup

    r = CliRunner().invoke(
        app, ["wales", "power-law", "-o", str(tmp_path), "--data-root", str(data_root)]
    )
    assert r.exit_code == 0, r.output
    record = json.loads((tmp_path / "results.json").read_text())
    scores = {
        (s.dataset, s.agent, s.metric): s
        for s in (Score.from_dict(x) for res in record["results"] for x in res["scores"])
    }
    setup = wikispeedia_setup(data_root)
    for row in power_law_check(setup.graph, {"wikispeedia-human": setup.human}, 32.0):
        who = f"people:{row['ends']}"
        a = scores[("wikispeedia-human", who, "a_mle")]
        assert a.value == row["a"] and a.n == row["n"]
        assert a.ci_low < row["a"] < a.ci_high
        assert a.ci_high - a.ci_low == pytest.approx(2 * 1.959963984540054 * row["se"])
        assert scores[("wikispeedia-human", who, "ks_claim")].value == row["ks_a32"]
        assert scores[("wikispeedia-human", who, "ks_fit_p")].value == row["ks_p"]


def test_baselines_are_stored_score_rows(tmp_path, data_root):
    from wordgames.cli import app
    from wordgames.datasets import dataset_file
    from wordgames.wales.baselines import human_baseline
    from wordgames.wales.loaders import read_human_results

    r = CliRunner().invoke(
        app, ["wales", "baselines", "-o", str(tmp_path), "--data-root", str(data_root)]
    )
    assert r.exit_code == 0, r.output
    record = json.loads((tmp_path / "results.json").read_text())
    scores = {
        (s.agent, s.metric): s
        for s in (Score.from_dict(x) for res in record["results"] for x in res["scores"])
    }
    df = read_human_results(dataset_file("wales", "human_results_wales.tsv", data_root))
    for conv in ("nodes", "edges"):
        hb = human_baseline(df, conv)
        for key in ("best", "average", "median"):
            s = scores[(f"people:{conv}", f"human_{key}")]
            assert (s.value, s.ci_low, s.ci_high, s.n) == (
                hb[key], hb[f"{key}_ci_low"], hb[f"{key}_ci_high"], hb["n_tasks"]
            )  # fmt: skip
            assert f"{key} {hb[key]:.4f}" in r.output


def test_agents_keep_their_per_task_scores_for_paired_comparisons(data_root):
    """Each score's items are its tasks' scores: their mean is the score (best needs them)."""
    import numpy as np

    import wordgames
    from wordgames.paired import unpack
    from wordgames.results import item_key

    res = wordgames.evaluate(
        "glove-6b-50d",
        measures=["wales-agents"],
        options={"wales-agents": {"k": 30, "exponents": [32.0]}},
        data_root=data_root,
        ci_resamples=0,
    )
    r = res.result("wales-agents")
    scores = [s for s in r.scores if s.metric == "score"]
    assert len(scores) == 4
    for s in scores:
        items = unpack(r.items[item_key(s.dataset, s.agent, s.metric)])
        assert items["values"].size == s.n
        assert np.mean(items["values"]) == pytest.approx(s.value)
