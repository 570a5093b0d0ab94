"""The stochastic P_q agent, Table 1 from fresh task sets and the power-law fit (hand-checked)."""

from __future__ import annotations

import numpy as np
import pytest

from tests.wales.helpers import vectors_with_cosines
from wordgames.wales.agent import GreedyAgent
from wordgames.wales.evaluate import evaluate_tasks
from wordgames.wales.experiments import (
    fit_power_law,
    fresh_task_sets,
    in_degree_positions,
    ks_against,
    table1_fresh,
)
from wordgames.wales.graph import DiGraph
from wordgames.wales.stochastic import StochasticAgent, transition_probabilities
from wordgames.wales.tasks import TaskSet


def three_nodes(cos1: float):
    """0 links to 1 and 2, both link back to 0; target 2 (cos 1), node 1 has cosine ``cos1``."""
    g = DiGraph.from_edges([0, 0, 1, 2], [1, 2, 0, 0])
    return g, vectors_with_cosines([0.0, cos1, 1.0], target=2)


def test_probabilities_on_three_nodes():
    # P_q(0, j) proportional to cos(f(j), f(t)): 0.5 and 1 -> 1/3 and 2/3
    g, nv = three_nodes(0.5)
    succ, p = transition_probabilities(g, nv, 0, 2)
    assert succ.tolist() == [1, 2]
    assert p == pytest.approx([1 / 3, 2 / 3])
    # a negative cosine gets weight 0: the target is certain
    g, nv = three_nodes(-0.4)
    assert transition_probabilities(g, nv, 0, 2)[1] == pytest.approx([0.0, 1.0])


def test_uniform_when_every_link_has_weight_zero():
    # from 0 the links go to 1 and 3 (cosines -0.5 and 0): uniform; target 2 behind 3
    g = DiGraph.from_edges([0, 0, 1, 3, 2], [1, 3, 0, 2, 0])
    nv = vectors_with_cosines([0.0, -0.5, 1.0, 0.0], target=2)
    assert transition_probabilities(g, nv, 0, 2)[1] == pytest.approx([0.5, 0.5])


def test_sample_frequencies_match_p_q():
    # one link allowed: the task succeeds exactly when the first draw picks the target (2/3)
    g, nv = three_nodes(0.5)
    n = 30_000
    out = StochasticAgent(max_steps=1, seed=7).run(g, nv, np.zeros(n, int), np.full(n, 2))
    freq = out["success"].mean()
    sd = np.sqrt(2 / 9 / n)  # binomial standard deviation of the frequency
    assert abs(freq - 2 / 3) < 4 * sd
    assert set(out["reason"]) == {"reached", "step-cap"}
    # with no cap the walk 0 -> 1 -> 0 -> ... ends at 2: n_steps is odd, P(n = 1) = 2/3,
    # P(n = 3) = 2/9, and the mean is 1 + 2 * (1/3) / (2/3) = 2
    out = StochasticAgent(max_steps=1000, seed=7).run(g, nv, np.zeros(n, int), np.full(n, 2))
    assert out["success"].all() and (out["n_steps"] % 2 == 1).all()
    assert np.mean(out["n_steps"] == 3) == pytest.approx(2 / 9, abs=4 * np.sqrt(2 / 9 * 7 / 9 / n))
    assert out["n_steps"].mean() == pytest.approx(2.0, abs=0.05)


def test_seeded_and_deterministic():
    rng = np.random.default_rng(0)
    src, dst = rng.integers(0, 40, 300), rng.integers(0, 40, 300)
    src, dst = np.r_[src, np.arange(40)], np.r_[dst, (np.arange(40) + 1) % 40]
    g = DiGraph.from_edges(src, dst, 40)
    nv = vectors_with_cosines(rng.uniform(-1, 1, 40), target=0)
    s, t = rng.integers(0, 40, 200), np.zeros(200, dtype=np.int64)
    a = StochasticAgent(max_steps=30, seed=3).run(g, nv, s, t)
    b = StochasticAgent(max_steps=30, seed=3).run(g, nv, s, t)
    c = StochasticAgent(max_steps=30, seed=4).run(g, nv, s, t)
    assert (a["n_steps"] == b["n_steps"]).all() and (a["success"] == b["success"]).all()
    assert (a["n_steps"] != c["n_steps"]).any()


def test_scored_by_the_measure_function():
    # the stochastic agent on a 1-link task it always takes: score m / n = 1, like greedy
    g = DiGraph.from_edges([0, 1], [1, 0])
    nv = vectors_with_cosines([0.3, 1.0], target=1)
    ts = TaskSet("t", np.array([0]), np.array([1]))
    for agent in (StochasticAgent(seed=0), GreedyAgent()):
        assert evaluate_tasks(g, nv, ts, agent).scores().tolist() == [1.0]


def ring(n: int = 200) -> DiGraph:
    return DiGraph.from_edges(np.arange(n), (np.arange(n) + 1) % n)


def test_fresh_task_sets_counts_and_distinct():
    g = ring()
    sets = fresh_task_sets(g, 10, 50, seed=0)
    assert len(sets) == 50 and all(len(s) == 10 for s in sets)
    assert all((s.sources != s.targets).all() for s in sets)
    assert len({(tuple(s.sources), tuple(s.targets)) for s in sets}) == 50  # no set repeats
    again = fresh_task_sets(g, 10, 50, seed=0)
    assert all((a.sources == b.sources).all() for a, b in zip(sets, again, strict=True))
    other_k = fresh_task_sets(g, 10, 50, seed=1)
    assert any((a.sources != b.sources).any() for a, b in zip(sets, other_k, strict=True))


def test_table1_fresh_rows_on_a_ring():
    # on a ring every task is solved on the shortest path (one out-link): score 1, CI 0
    g = ring(50)
    nv = vectors_with_cosines(np.linspace(-1, 1, 50), target=0)
    rows = table1_fresh(g, nv, GreedyAgent(), ks=(5, 20), trials=4, seed=0)
    assert [r["k"] for r in rows] == [5, 20]
    assert [r["n_tasks_run"] for r in rows] == [20, 80]
    assert all(r["method"] == "fresh" and r["trials"] == 4 for r in rows)
    assert [r["mean"] for r in rows] == [1.0, 1.0] and [r["ci"] for r in rows] == [0.0, 0.0]


def test_power_law_fit_recovers_known_exponent():
    rng = np.random.default_rng(0)
    for a in (1.0, 4.0, 32.0):
        x = rng.random(20_000) ** (1 / a)  # the tasks' own generator
        fit = fit_power_law(x)
        assert abs(fit["a"] - a) < 4 * fit["se"]
        assert fit["ks"] < 0.02
    # a = 1 data tested against a = 32: rejected
    d, p = ks_against(rng.random(500), 32.0)
    assert d > 0.8 and p < 1e-10


def test_positions_hand_checked():
    # in-degrees 1, 1, 2, 0: node 3 is alone in the lowest block, 0 and 1 share the middle
    g = DiGraph.from_edges([0, 1, 2, 3], [1, 2, 2, 0])
    assert in_degree_positions(g, [3, 0, 1, 2]).tolist() == [0.125, 0.5, 0.5, 0.875]
    with pytest.raises(ValueError):
        fit_power_law([0.0, 0.5])


def test_table1_method_option():
    from wordgames.measure import OptionError
    from wordgames.wales.spec import WalesOptions

    assert WalesOptions().table1_method == "fresh"
    assert WalesOptions(table1_method="bootstrap").table1_method == "bootstrap"
    with pytest.raises(OptionError, match="table1_method"):
        WalesOptions(table1_method="pool")


def test_wiki_game_titles_matched_on_the_graph():
    from wordgames.wales.experiments import wiki_game_tasks

    g = DiGraph.from_edges([0, 1, 2], [1, 2, 0], names=["Isaac_Newton", "%C3%89cole", "Zebra"])
    pairs = [("isaac newton", "zebra"), ("zebra", "absent page"), ("école", "isaac newton")]
    ts, n = wiki_game_tasks(g, pairs)
    assert n == 2 and ts.sources.tolist() == [0, 1] and ts.targets.tolist() == [2, 0]


def test_both_table1_methods_give_rows_of_the_declared_table():
    """Before: the bootstrap method's rows lacked n_tasks_run (and sd_of_means), and the
    measure refused them (``--table1-method bootstrap`` exited 2: found by the docs' test)."""
    from tests.wales.helpers import random_graph
    from wordgames.registry import get_measure
    from wordgames.wales.experiments import table1_fresh
    from wordgames.wales.report import table1
    from wordgames.wales.titles import NodeVectors

    g = random_graph(60, 3, seed=1)
    mat = np.random.default_rng(2).normal(size=(60, 4))
    nv = NodeVectors(np.arange(60), mat / np.linalg.norm(mat, axis=1, keepdims=True))
    (declared,) = [t for t in get_measure("wales").tables if t.matches("table1")]
    boot = table1(g, nv, GreedyAgent(), ks=(5, 10), trials=4, pool_size=30, seed=0)
    fresh = table1_fresh(g, nv, GreedyAgent(), ks=(5, 10), trials=4, seed=0)
    for rows, method, runs in ((boot, "bootstrap", [30, 30]), (fresh, "fresh", [20, 40])):
        assert declared.problem([{"embedding": "e", **r} for r in rows]) == "", method
        assert [r["n_tasks_run"] for r in rows] == runs and {r["method"] for r in rows} == {method}
