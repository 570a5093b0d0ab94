"""The batched runner (every task steps at once, full rule included) against the plain rule."""

import numpy as np
import pytest

from tests.wales.helpers import figure2, random_graph, random_vectors, reference_walk
from wordgames.wales.agent import GreedyAgent, target_similarities
from wordgames.wales.graph import DiGraph
from wordgames.wales.lockstep import REASONS, Lockstep
from wordgames.wales.titles import NodeVectors

GAMMAS = [0.0, 0.1, 0.25, 0.5, 1.0]


def _power_law_graph(n, seed):
    # hubs: out-degrees from a Pareto tail, link ends drawn towards low ids (popular pages)
    rng = np.random.default_rng(seed)
    deg = np.minimum((rng.pareto(1.5, n) * 2 + 1).astype(int), n - 1)
    src = np.repeat(np.arange(n), deg)
    dst = (n * rng.random(src.size) ** 3).astype(int)
    return DiGraph.from_edges(src, dst, n)


def _shapes():
    """Graphs of several shapes with vectors (name, graph, vectors)."""
    out = []
    for seed in (0, 1):
        out.append((f"sparse{seed}", random_graph(90, 2, seed), random_vectors(90, 4, seed, 0.1)))
        out.append((f"dense{seed}", random_graph(60, 8, seed), random_vectors(60, 3, seed)))
        # no Hamiltonian cycle: dead ends and unreachable targets (stuck walks)
        out.append(
            (
                f"acyclicish{seed}",
                random_graph(70, 1, seed, cycle=False),
                random_vectors(70, 3, seed),
            )
        )
        # few distinct vectors: many exact ties between candidates
        rng = np.random.default_rng(seed)
        tied = NodeVectors(rng.integers(0, 4, 80), random_vectors(4, 2, seed).unit)
        out.append((f"ties{seed}", random_graph(80, 3, seed), tied))
        out.append((f"powerlaw{seed}", _power_law_graph(150, seed), random_vectors(150, 5, seed)))
    # self-loops kept
    g = DiGraph.from_edges([0, 0, 1, 1, 2, 2, 3], [0, 1, 1, 2, 0, 3, 0], 4)
    out.append(("selfloops", g, random_vectors(4, 2, 3)))
    return out


def _tasks(vec, n, k, seed):
    rng = np.random.default_rng(seed)
    s = rng.integers(0, n, k)
    t = rng.choice(np.flatnonzero(vec.rows >= 0), k)
    s[:2] = t[:2]  # a task that starts on its target
    return s, t


@pytest.mark.slow
@pytest.mark.parametrize("gamma", GAMMAS)
def test_batched_runner_equals_the_plain_rule_on_random_graphs(gamma):
    for name, g, vec in _shapes():
        s, t = _tasks(vec, g.n_nodes, 40, len(name))
        max_steps = 25
        agent = GreedyAgent(gamma=gamma, max_steps=max_steps)
        batch = agent.run(g, vec, s, t, lockstep=True)
        alone = agent.run(g, vec, s, t, lockstep=False)
        full = GreedyAgent(gamma=gamma, max_steps=max_steps, fast_path=False).run(g, vec, s, t)
        sims = np.stack([target_similarities(vec, b, -1.0) for b in t.tolist()])
        state = Lockstep(g, sims, s, t, gamma, max_steps).run()
        for i, (a, b) in enumerate(zip(s.tolist(), t.tolist(), strict=True)):
            reason, steps, path, visited = reference_walk(g, sims[i], a, b, gamma, max_steps)
            for r in (batch, alone, full):
                assert (r["reason"][i], r["n_steps"][i]) == (reason, steps), (name, i)
                assert r["success"][i] == (reason == "reached")
            assert state.order[i, : state.k[i]].tolist() == visited, (name, i)
            assert REASONS[state.status[i]] == reason
            nav = agent.navigate(g, vec, a, b, record_path=True)
            assert nav.path == path, (name, i)
            assert (nav.reason, nav.n_steps) == (reason, steps)


@pytest.mark.parametrize("gamma", GAMMAS[:4])
def test_long_walks_use_several_bitset_words_and_equal_the_plain_rule(gamma):
    # a step cap of 200 gives 202 visited numbers, four 64-bit words per bitset
    long = 0
    for name, g, vec in _shapes():
        if not name.startswith(("sparse", "powerlaw")):
            continue
        s, t = _tasks(vec, g.n_nodes, 40, len(name))
        sims = np.stack([target_similarities(vec, b, -1.0) for b in t.tolist()])
        state = Lockstep(g, sims, s, t, gamma, 200).run()
        for i, (a, b) in enumerate(zip(s.tolist(), t.tolist(), strict=True)):
            reason, steps, _, visited = reference_walk(g, sims[i], a, b, gamma, 200)
            assert state.order[i, : state.k[i]].tolist() == visited, (name, i)
            assert (REASONS[state.status[i]], state.steps[i]) == (reason, steps), (name, i)
        long += int((state.k > 64).sum())
    assert long > 0  # some walks visited more than 64 pages: the second word was used


def test_every_outcome_occurs_in_the_random_cases():
    # the comparison above covers reached, step-cap and stuck walks, and detours (m > 1)
    reasons, detours = set(), 0
    for _, g, vec in _shapes():
        s, t = _tasks(vec, g.n_nodes, 40, 0)
        for gamma in (0.0, 0.5):
            sims = np.stack([target_similarities(vec, b, -1.0) for b in t.tolist()])
            for i in range(s.size):
                r, steps, path, visited = reference_walk(g, sims[i], s[i], t[i], gamma, 25)
                reasons.add(r)
                detours += len(path) > len(visited) + (r == "step-cap")
    assert reasons == {"reached", "step-cap", "stuck"}
    assert detours > 0


@pytest.mark.parametrize(("gamma", "visited", "n_steps"), [(0.1, "sbcdt", 5), (0.5, "sbcet", 4)])
def test_figure2_in_a_batch(gamma, visited, n_steps):
    # the paper's Figure 2: small gamma goes back through s to d (m = 2), large gamma takes e
    g, vec = figure2()
    sims = target_similarities(vec, 5, -1.0)[None, :]
    state = Lockstep(g, sims, np.array([0]), np.array([5]), gamma, 100).run()
    assert "".join(g.names[v] for v in state.order[0, : state.k[0]]) == visited
    assert state.steps.tolist() == [n_steps] and state.status.tolist() == [0]


def test_step_cap_counts_the_detour_that_passes_it():
    # figure 2, gamma 0: s b c (2 links), then d is 2 links away: with max_steps 3 the walk
    # fails at 4 links, like navigate()
    g, vec = figure2()
    sims = target_similarities(vec, 5, -1.0)[None, :]
    state = Lockstep(g, sims, np.array([0]), np.array([5]), 0.0, 3).run()
    nav = GreedyAgent(gamma=0.0, max_steps=3).navigate(g, vec, 0, 5)
    assert state.steps.tolist() == [nav.n_steps] == [4]
    assert REASONS[state.status[0]] == nav.reason == "step-cap"


def test_link_bits_sets_one_bit_per_revealed_edge_across_words():
    from wordgames.wales._kernels import link_bits

    # nodes 0-3 and 6 link to node 5, which links to node 4; task 1 visited 0-5 (6 not), with
    # the numbers below (0, 63, 64 and 129 put the bits in three words); task 0 visited nothing
    g = DiGraph.from_edges([0, 1, 2, 3, 6, 5], [5, 5, 5, 5, 5, 4], n_nodes=7)
    rev = g.reverse()
    n = g.n_nodes
    pos = np.full(2 * n, -1, dtype=np.int16)
    pos[n : n + 6] = [0, 63, 64, 129, 5, 7]
    inn = np.zeros((2, 130, 3), dtype=np.uint64)
    base = np.array([0, n])
    args = (inn, pos, base, g.indptr, g.indices, rev.indptr, rev.indices)
    link_bits(*args, np.array([1, 1]), np.array([7, 7]), np.array([5, 5]))  # twice: ORed
    assert inn[1, 7].tolist() == [1 | (1 << 63), 1, 2]  # in-links from 0, 63, 64, 129
    assert inn[1, 5].tolist() == [1 << 7, 0, 0]  # 5 (number 7) links to 4 (number 5)
    inn[1, 7] = inn[1, 5] = 0
    assert not inn.any()


@pytest.mark.parametrize("gamma", [0.0, 0.25, 0.5, 1.0])
def test_bitsets_built_late_or_kept_from_the_start_give_the_same_walks(gamma, monkeypatch):
    # below TRACK_ALL_BELOW every task keeps its bitsets from the first step; above it a task
    # builds them when it first searches deeper: both ways must walk the same pages
    import wordgames.wales.lockstep as lockstep

    for _, g, vec in _shapes():
        s, t = _tasks(vec, g.n_nodes, 40, 1)
        sims = np.stack([target_similarities(vec, b, -1.0) for b in t.tolist()])
        runs = []
        for below in (0.0, 2.0):
            monkeypatch.setattr(lockstep, "TRACK_ALL_BELOW", below)
            runs.append(Lockstep(g, sims, s, t, gamma, 25).run())
        late, early = runs
        assert not late.tracked.all() and early.tracked.all()
        assert (late.order == early.order).all()
        assert (late.steps == early.steps).all() and (late.status == early.status).all()


def test_similarity_rows_are_the_numbers_of_target_similarities():
    from wordgames.wales.agent import similarity_rows, target_similarities
    from wordgames.wales.titles import NodeVectors

    rng = np.random.default_rng(5)
    rows = np.array([0, 1, -1, 2, 3, 4])  # node 2 has no vector
    nv = NodeVectors(rows, rng.normal(size=(5, 384)))
    got = similarity_rows(nv, [3, 0, 3], -0.5)
    want = np.stack([target_similarities(nv, t, -0.5) for t in (3, 0, 3)])
    assert got.dtype == np.float64 and got.shape == (3, 6)
    assert np.array_equal(got, want)  # bit for bit, BLAS limited to one thread or not
    assert got[0, 3] == 1.0 and got[1, 0] == 1.0 and (got[:, 2] == -0.5).all()
