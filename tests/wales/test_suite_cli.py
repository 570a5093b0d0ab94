import json

import numpy as np
import pytest
from typer.testing import CliRunner

from tests.conftest import require_dataset


@pytest.mark.slow
def test_suite_run_quick(glove, tmp_path, data_root):
    from wordgames.compute import compute_unit
    from wordgames.registry import get_measure

    require_dataset("wikispeedia")
    res = compute_unit(
        get_measure("wales"),
        glove,
        out_dir=tmp_path,
        data_root=data_root,
        quick=True,
        options={
            "k": 60,
            "human_k": 100,
            "gammas": (0.0, 1.0),
            "exponents": (1, 32),
            "percents": (10,),
            "table1_trials": 3,
            "table1_pool": 200,
            "w_path_pairs": 200,
        },
    )
    head = res.find("score", "human", "greedy")
    assert 0 < head.value < 1
    # node convention (m+1)/(n+1) is never below m/n
    assert res.value("score_nodes", "human", "greedy") >= head.value
    keys = {(s.dataset, s.agent, s.metric) for s in res.scores}
    assert {
        ("powerlaw-a32", "greedy", "score"),
        ("top-b10", "greedy", "score"),
        ("powerlaw-a16", "greedy(gamma=0)", "score"),
        ("powerlaw-a16", "greedy(gamma=1)", "score"),
        ("wikispeedia-lscc", "w-path", "w_path"),
    } <= keys
    # targets without a vector are counted next to the score they affect
    assert res.oov["n_nodes_without_vector"] == 41
    (row,) = [
        r
        for r in res.tables["distributions"]
        if (r["task_set"], r["convention"]) == ("human", "edges")
    ]
    excluded = res.oov["tasks_excluded_target_without_vector"]["human"]
    assert row["n_excluded_target_no_vector"] == excluded
    assert row["score"] == head.value and head.n_skipped >= excluded
    assert res.parameters["agent"]["gamma"] == 1.0
    assert "wikispeedia" in res.datasets
    assert len(res.plots) == 2 and all(p.endswith(".png") for p in res.plots)
    assert [r["k"] for r in res.tables["table1"]] == [10, 50, 100, 500, 1000]
    json.dumps(res.as_dict())  # JSON-safe


@pytest.mark.slow
def test_suite_same_seed_same_numbers(glove, tmp_path):
    from wordgames.wales.report import evaluate_embedding, wikispeedia_setup

    setup = wikispeedia_setup(require_dataset("wikispeedia").parent, verify=False)
    kw = dict(
        k=40,
        human_k=40,
        gammas=(1.0,),
        exponents=(8,),
        percents=(50,),
        table1_trials=2,
        table1_pool=50,
        w_path_pairs=100,
    )
    a = evaluate_embedding(setup, glove, seed=5, **kw)
    b = evaluate_embedding(setup, glove, seed=5, **kw)
    assert [r["score"] for r in a["distributions"]] == [r["score"] for r in b["distributions"]]
    assert a["w_path"][0]["w_path"] == b["w_path"][0]["w_path"]


def test_cli_navigate_and_errors(data_root):
    from wordgames.cli import app

    require_dataset("wikispeedia")
    runner = CliRunner()
    out = runner.invoke(
        app, ["wales", "navigate", "Baseball", "Earth", "--data-root", str(data_root)]
    )
    assert out.exit_code == 0, out.output
    assert "reached in 1 links; shortest path 1" in out.output
    bad = runner.invoke(
        app, ["wales", "navigate", "No_Such_Page", "Earth", "--data-root", str(data_root)]
    )
    assert bad.exit_code == 2 and "unknown node 'No_Such_Page'" in bad.output


@pytest.mark.slow
def test_cli_evaluate_on_an_edge_list(tmp_path):
    from wordgames.cli import app

    # a custom graph: two-way ring of words, with a tail that is not strongly connected
    words = ["cat", "dog", "horse", "cow", "sheep", "goat", "pig", "duck"]
    lines = ["source\ttarget"]
    for i, w in enumerate(words):
        lines += [f"{w}\t{words[(i + 1) % 8]}", f"{words[(i + 1) % 8]}\t{w}"]
    lines.append("duck\tgoose")
    (tmp_path / "g.tsv").write_text("\n".join(lines) + "\n")
    out = CliRunner().invoke(
        app,
        [
            "wales",
            "evaluate",
            "--graph",
            str(tmp_path / "g.tsv"),
            "--k",
            "30",
            "--gamma",
            "1",
            "--trials",
            "2",
            "-o",
            str(tmp_path / "o"),
        ],
    )
    assert out.exit_code == 0, out.output
    assert "largest SCC (8 of 9 nodes)" in out.output
    rep = json.loads((tmp_path / "o" / "wales_report.json").read_text())
    scores = [r["score"] for r in rep["tables"]["distributions"]]
    assert all(0 < s <= 1 for s in scores if s is not None)
    assert (tmp_path / "o" / "wales_figure4.png").stat().st_size > 0
    strict = CliRunner().invoke(
        app,
        [
            "wales",
            "evaluate",
            "--graph",
            str(tmp_path / "g.tsv"),
            "--require-scc",
            "-o",
            str(tmp_path / "o2"),
        ],
    )
    assert strict.exit_code == 2 and "not strongly connected" in strict.output
    assert np.isfinite(rep["tables"]["w_path"][0]["w_path"])


@pytest.mark.slow
def test_glove_navigates_better_than_shuffled_glove(glove):
    # same vocabulary and vector norms, rows shuffled: titles lose their meaning
    from wordgames.embeddings import Embedding
    from wordgames.wales.agent import GreedyAgent
    from wordgames.wales.evaluate import evaluate_tasks
    from wordgames.wales.report import wikispeedia_setup
    from wordgames.wales.tasks import TaskSet
    from wordgames.wales.titles import title_vectors

    setup = wikispeedia_setup(require_dataset("wikispeedia").parent, verify=False)
    human = setup.human
    tasks = TaskSet("human300", human.sources[:300], human.targets[:300])
    perm = np.random.default_rng(0).permutation(len(glove))
    shuffled = Embedding(glove.words, glove.vectors[perm], name="shuffled")
    scores = {}
    for emb in (glove, shuffled):
        res = evaluate_tasks(
            setup.graph, title_vectors(setup.graph.names, emb), tasks, GreedyAgent()
        )
        scores[emb.name] = res.summary()
    assert scores["glove-6b-50d"]["ci_low"] > scores["shuffled"]["ci_high"]


@pytest.mark.slow
@pytest.mark.parametrize("gamma", [1.0, 0.5, 0.3, 0.25, 0.1, 0.0])
def test_fast_path_equals_full_rule_on_real_tasks(glove, gamma):
    from wordgames.wales.agent import GreedyAgent
    from wordgames.wales.report import wikispeedia_setup
    from wordgames.wales.titles import title_vectors

    setup = wikispeedia_setup(require_dataset("wikispeedia").parent, verify=False)
    nv = title_vectors(setup.graph.names, glove)
    s, t = setup.human.sources, setup.human.targets
    keep = np.flatnonzero(nv.rows[t] >= 0)[:100]
    fast = GreedyAgent(gamma=gamma).run(setup.graph, nv, s[keep], t[keep])
    full = GreedyAgent(gamma=gamma, fast_path=False).run(setup.graph, nv, s[keep], t[keep])
    assert (fast["n_steps"] == full["n_steps"]).all()
    assert (fast["success"] == full["success"]).all()
    assert (fast["reason"] == full["reason"]).all()
    assert fast["n_general_steps"] < full["n_general_steps"]


@pytest.mark.slow
@pytest.mark.parametrize("gamma", [0.0, 0.1, 0.5, 1.0])
def test_batched_runner_equals_the_plain_rule_on_real_tasks(glove, gamma):
    # every visited page, in order, and the walk with its detours, on 15 human-played pairs
    from tests.wales.helpers import reference_walk
    from wordgames.wales.agent import GreedyAgent, target_similarities
    from wordgames.wales.lockstep import REASONS, Lockstep
    from wordgames.wales.report import wikispeedia_setup
    from wordgames.wales.titles import title_vectors

    setup = wikispeedia_setup(require_dataset("wikispeedia").parent, verify=False)
    g, nv = setup.graph, title_vectors(setup.graph.names, glove)
    s, t = setup.human.sources, setup.human.targets
    keep = np.flatnonzero(nv.rows[t] >= 0)[:15]
    sims = np.stack([target_similarities(nv, b, -1.0) for b in t[keep].tolist()])
    state = Lockstep(g, sims, s[keep], t[keep], gamma, 100).run()
    agent = GreedyAgent(gamma=gamma)
    detours = 0
    for i, (a, b) in enumerate(zip(s[keep].tolist(), t[keep].tolist(), strict=True)):
        reason, steps, path, visited = reference_walk(g, sims[i], a, b, gamma, 100)
        assert state.order[i, : state.k[i]].tolist() == visited
        assert (REASONS[state.status[i]], state.steps[i]) == (reason, steps)
        assert agent.navigate(g, nv, a, b, record_path=True).path == path
        detours += len(path) > len(visited) + (reason == "step-cap")
    if gamma < 0.5:
        assert detours > 0  # the walks go back through visited pages
