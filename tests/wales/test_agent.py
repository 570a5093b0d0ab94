import numpy as np
import pytest

from tests.wales.helpers import figure2, random_graph, random_vectors, vectors_with_cosines
from wordgames.wales.agent import GreedyAgent, _Revealed, target_similarities
from wordgames.wales.evaluate import evaluate_tasks, task_scores
from wordgames.wales.graph import DiGraph
from wordgames.wales.tasks import TaskSet


@pytest.mark.parametrize("gamma", [0.0, 0.1, 0.2, 0.29])
def test_figure2_small_gamma_goes_back_to_d(gamma):
    g, vec = figure2()
    nav = GreedyAgent(gamma=gamma).navigate(g, vec, 0, 5, record_path=True)
    # s b c, then back through s to d (m = 2), then t
    assert [g.names[v] for v in nav.path] == list("sbcsdt")
    assert nav.n_steps == 5 and nav.success


@pytest.mark.parametrize("gamma", [0.3, 0.31, 0.5, 1.0])
def test_figure2_large_gamma_takes_e(gamma):
    g, vec = figure2()
    nav = GreedyAgent(gamma=gamma).navigate(g, vec, 0, 5, record_path=True)
    assert [g.names[v] for v in nav.path] == list("sbcet")
    assert nav.n_steps == 4


def test_figure2_m_values_at_c():
    # after s, b, c are visited: m(e) = 1 (c -> e), m(d) = 2 (c -> s -> d), nothing else
    g, vec = figure2()
    pos = np.full(6, -1)
    pos[[0, 1, 2]] = [0, 1, 2]
    sims = target_similarities(vec, 5, -1.0)
    st = _Revealed.from_visited(g, sims.__getitem__, pos, [0, 1, 2], 10)
    d, _ = st.distances(2)
    assert d.tolist() == [1, 2, 0]  # c -> s, c -> s -> b
    m = {
        int(v): int(d[s]) + 1
        for s, v in zip(st.src[: st.n_edges], st.dst[: st.n_edges], strict=True)
        if pos[v] < 0
    }
    assert m == {3: 2, 4: 1}
    assert st.choose(2, 5, 0.0)[:2] == (3, 2)
    assert st.choose(2, 5, 0.5)[:2] == (4, 1)


def test_figure2_scores_both_conventions():
    g, vec = figure2()
    ts = TaskSet("fig2", np.array([0]), np.array([5]))
    for gamma, edges, nodes in ((0.0, 2 / 5, 3 / 6), (1.0, 2 / 4, 3 / 5)):
        res = evaluate_tasks(g, vec, ts, GreedyAgent(gamma=gamma))
        assert res.shortest.tolist() == [2]
        assert res.scores("edges").tolist() == pytest.approx([edges])
        assert res.scores("nodes").tolist() == pytest.approx([nodes])


def test_task_scores_and_ci_by_hand():
    scores = task_scores([1, 2, 2, 3], [2, 2, 4, 3], [True, True, True, False])
    assert scores.tolist() == [0.5, 1.0, 0.5, 0.0]
    g, vec = figure2()
    # three tasks with known paths: s->t (gamma 1: n=4, m=2), b->t (b c e t: n=3, m=3), d->t (1/1)
    ts = TaskSet("three", np.array([0, 1, 3]), np.array([5, 5, 5]))
    res = evaluate_tasks(g, vec, ts, GreedyAgent(gamma=1.0))
    assert res.n_steps.tolist() == [4, 3, 1]
    assert res.shortest.tolist() == [2, 3, 1]
    summ = res.summary("edges", n_resamples=1000, seed=3)
    vals = np.array([0.5, 1.0, 1.0])
    assert summ["score"] == pytest.approx(vals.mean())
    # the interval is a percentile bootstrap over the tasks: the same resampling by hand
    idx = np.random.default_rng(3).integers(0, 3, size=(1000, 3))
    ref = np.quantile(vals[idx].mean(axis=1), [0.025, 0.975])
    assert (summ["ci_low"], summ["ci_high"]) == pytest.approx(tuple(ref))
    # a resampled mean of three tasks is 0.5 (all three draws the 0.5 task, p = 1/27 > 2.5 %)
    # at the bottom and 1.0 (p = 8/27) at the top: the interval is the data's range, inside
    # [0, 1], where the Student-t interval of version 1 was [0.12, 1.55]
    assert (summ["ci_low"], summ["ci_high"]) == (0.5, 1.0)
    # no task failed: the failure rate and its interval are 0
    assert (summ["failure_rate"], summ["failure_ci_low"], summ["failure_ci_high"]) == (0, 0, 0)
    no_ci = res.summary("edges", n_resamples=0)
    assert np.isnan(no_ci["ci_low"]) and no_ci["score"] == summ["score"]


def test_step_cap_fails_with_score_zero():
    # a long cycle 0 -> 1 -> ... -> 9 -> 0: reaching 9 from 0 takes 9 links
    g = DiGraph.from_edges(np.arange(10), (np.arange(10) + 1) % 10, 10)
    vec = vectors_with_cosines(np.linspace(0, 0.9, 10), target=9)
    ok = GreedyAgent(max_steps=9).navigate(g, vec, 0, 9)
    assert ok.success and ok.n_steps == 9
    capped = GreedyAgent(max_steps=8).navigate(g, vec, 0, 9)
    assert not capped.success and capped.reason == "step-cap"
    res = evaluate_tasks(
        g, vec, TaskSet("c", np.array([0]), np.array([9])), GreedyAgent(max_steps=8)
    )
    assert res.scores().tolist() == [0.0] and res.summary()["n_failed"] == 1


def test_target_without_vector_is_excluded_and_counted():
    g, vec = figure2()
    rows = vec.rows.copy()
    rows[4] = -1  # e has no vector: a target without one
    from wordgames.wales.titles import NodeVectors

    nv = NodeVectors(rows, vec.unit)
    ts = TaskSet("x", np.array([0, 0]), np.array([4, 5]))
    res = evaluate_tasks(g, nv, ts, GreedyAgent())
    assert res.n_target_no_vector == 1
    assert res.included.tolist() == [False, True]
    assert res.summary()["n_scored"] == 1
    with pytest.raises(ValueError, match="no vector"):
        GreedyAgent().navigate(g, nv, 0, 4)


def test_target_wins_ties():
    # 0 links to 1, 2, 3; node 1 has the same vector as the target 3
    g = DiGraph.from_edges([0, 0, 0], [1, 2, 3], 4)
    from wordgames.wales.titles import NodeVectors

    nv = NodeVectors([0, 1, 2, 1], np.array([[0.0, 1.0], [1.0, 0.0], [0.6, 0.8]]))
    nav = GreedyAgent().navigate(g, nv, 0, 3, record_path=True)
    assert nav.path == [0, 3]


def test_gamma_one_takes_deeper_node_when_out_links_are_negative():
    # at 2 the only unvisited out-link 4 has cos -0.9 (score -1.9); 3 (revealed from 0, m = 2
    # via 2 -> 0 -> 3) has cos 0.95 (score -1.05): the paper's rule goes back to 3
    g = DiGraph.from_edges([0, 0, 2, 2, 3, 4], [2, 3, 0, 4, 5, 5], 6)
    vec = vectors_with_cosines([0.0, 0.0, 0.99, 0.95, -0.9, 1.0], target=5)
    paper = GreedyAgent(gamma=1.0).navigate(g, vec, 0, 5, record_path=True)
    assert paper.path == [0, 2, 0, 3, 5]
    authors = GreedyAgent(gamma=1.0, neighbour_first=True).navigate(g, vec, 0, 5, record_path=True)
    assert authors.path == [0, 2, 4, 5]


@pytest.mark.parametrize("gamma", [1.0, 0.6, 0.3, 0.0])
@pytest.mark.parametrize("seed", [0, 1])
@pytest.mark.slow
def test_fast_path_and_batched_runs_equal_full_rule(gamma, seed):
    # random 4-d vectors give many negative cosines, so the fast path often does not apply
    g = random_graph(120, 3, seed)
    vec = random_vectors(120, 4, seed, missing=0.1)
    rng = np.random.default_rng(seed)
    s = rng.integers(0, 120, 60)
    t = rng.choice(np.flatnonzero(vec.rows >= 0), 60)
    keep = s != t
    s, t = s[keep], t[keep]
    full = GreedyAgent(gamma=gamma, fast_path=False, max_steps=40).run(g, vec, s, t)
    seq = GreedyAgent(gamma=gamma, max_steps=40).run(g, vec, s, t, lockstep=False)
    batch = GreedyAgent(gamma=gamma, max_steps=40).run(g, vec, s, t, lockstep=True)
    assert seq["n_general_steps"] > 0  # the full rule was needed on some steps
    assert seq["n_general_steps"] < seq["n_steps"].sum()  # and the fast path served others
    for r in (seq, batch):
        assert (r["n_steps"] == full["n_steps"]).all()
        assert (r["success"] == full["success"]).all()
    paths_full = [
        GreedyAgent(gamma=gamma, fast_path=False, max_steps=40).navigate(g, vec, a, b, True).path
        for a, b in zip(s[:15], t[:15], strict=True)
    ]
    paths_fast = [
        GreedyAgent(gamma=gamma, max_steps=40).navigate(g, vec, a, b, True).path
        for a, b in zip(s[:15], t[:15], strict=True)
    ]
    assert paths_full == paths_fast


def test_walk_is_a_real_path_and_length_matches():
    g = random_graph(80, 2, 5)
    vec = random_vectors(80, 3, 5)
    agent = GreedyAgent(gamma=0.0, max_steps=200)
    for s, t in [(0, 40), (3, 77), (10, 11)]:
        nav = agent.navigate(g, vec, s, t, record_path=True)
        assert nav.success
        assert len(nav.path) == nav.n_steps + 1
        for a, b in zip(nav.path[:-1], nav.path[1:], strict=True):
            assert b in g.successors(a)


def test_stuck_when_nothing_is_reachable():
    g = DiGraph.from_edges([0, 1], [1, 0], 3)  # 2 cannot be reached
    vec = vectors_with_cosines([0.1, 0.2, 1.0], target=2)
    nav = GreedyAgent(gamma=0.5).navigate(g, vec, 0, 2)
    assert not nav.success and nav.reason == "stuck"


def test_parameters_are_checked_and_recorded():
    with pytest.raises(ValueError):
        GreedyAgent(gamma=1.5)
    assert GreedyAgent(gamma=0.5, max_steps=7).get_params()["max_steps"] == 7


def test_lazy_similarities_give_the_same_walks(monkeypatch):
    # large graphs compute cosines only for the candidates seen; same walks as the full vector
    import wordgames.wales.agent as agent_mod

    g = random_graph(150, 3, 7)
    vec = random_vectors(150, 5, 7, missing=0.1)
    rng = np.random.default_rng(7)
    s = rng.integers(0, 150, 40)
    t = rng.choice(np.flatnonzero(vec.rows >= 0), 40)
    keep = s != t
    for gamma in (1.0, 0.4):
        full = GreedyAgent(gamma=gamma, max_steps=30).run(g, vec, s[keep], t[keep])
        monkeypatch.setattr(agent_mod, "_FULL_SIMS_LIMIT", 0)
        lazy = GreedyAgent(gamma=gamma, max_steps=30).run(g, vec, s[keep], t[keep])
        monkeypatch.undo()
        assert (lazy["n_steps"] == full["n_steps"]).all()
        assert (lazy["success"] == full["success"]).all()
