"""Exact similarities (wordgames.exact) and the families that compare them (issue 36).

Each family's similarity is checked against an independent computation in integers (the grid
vectors as integer numbers of 2**-24, their dot product in Python's unbounded integers): equal
to the bit, so no summation order can change it. Then each family's decisions (Odd-Man-Out's
choice, WALES's greedy step, the similarity benchmarks' cosines) are the same for an embedding
and for the same embedding with its dimensions permuted (another order of the same sums).
"""

from __future__ import annotations

import numpy as np
import pytest

from wordgames.embeddings import Embedding
from wordgames.exact import (
    GRID_BITS,
    cosines,
    dots,
    raw_grid,
    sq_distances,
    unit_grid,
    weighted_sums,
)


def _integer_vectors(n: int, dim: int, seed: int) -> np.ndarray:
    """Integer components below 2**23 (squared norms exact in float64 in any order), with
    exact copies and copies moved by one unit (near-ties)."""
    rng = np.random.default_rng(seed)
    base = rng.integers(-(2**22), 2**22, size=(n, dim)).astype(np.float64)
    nudged = base.copy()
    nudged[np.arange(n), rng.integers(0, dim, n)] += 1.0
    return np.concatenate([base, base, nudged]).astype(np.float32)


def _ints(grid: np.ndarray) -> list[list[int]]:
    return np.rint(grid.astype(np.float64) * 2.0**GRID_BITS).astype(np.int64).tolist()


def _exact_dot(a: list[int], b: list[int]) -> float:
    """The dot product of two grid rows in integers, as a float64 (exact: below 2**53)."""
    return sum(x * y for x, y in zip(a, b, strict=True)) / 2.0 ** (2 * GRID_BITS)


def test_cosines_are_the_integer_dot_products():
    g = unit_grid(_integer_vectors(20, 30, seed=0))
    ints = _ints(g)
    got64, got32 = dots(g, g), cosines(g, g)
    for i in range(0, 60, 7):
        for j in range(60):
            exact = _exact_dot(ints[i], ints[j])
            assert got64[i, j] == exact
            assert got32[i, j] == np.float32(exact)


def test_the_grid_is_on_its_grid_and_unit():
    g = unit_grid(np.random.default_rng(1).normal(size=(300, 40)).astype(np.float32))
    scaled = g.astype(np.float64) * 2.0**GRID_BITS
    assert np.array_equal(scaled, np.rint(scaled))
    assert np.all(np.abs(np.linalg.norm(g.astype(np.float64), axis=1) - 1.0) < 1e-6)
    assert unit_grid(np.zeros((2, 3), np.float32)).tolist() == [[0.0] * 3] * 2
    assert not g.flags.writeable


def test_products_in_any_shape_give_the_same_bits():
    g = unit_grid(np.random.default_rng(2).normal(size=(500, 50)).astype(np.float32))
    whole = cosines(g[:37], g)
    assert np.array_equal(cosines(g[:37], g[123:401]), whole[:, 123:401])
    assert np.array_equal(cosines(g[36:37], g), whole[36:37])
    assert np.array_equal(cosines(g[::-1][-37:], g)[::-1], whole)
    out = np.empty((37, 500), np.float32)
    assert cosines(g[:37], g, out=out) is out and np.array_equal(out, whole)


def test_squared_distances_are_exact():
    v = np.random.default_rng(3).normal(size=(40, 20)).astype(np.float32) * 7
    g, bits = raw_grid(v)
    ints = np.rint(g.astype(np.float64) * 2.0**bits).astype(np.int64).tolist()
    d2 = sq_distances(g, g)
    for i in range(0, 40, 5):
        for j in range(40):
            exact = sum((x - y) ** 2 for x, y in zip(ints[i], ints[j], strict=True))
            assert d2[i, j] == exact / 2.0 ** (2 * bits)
    assert np.all(np.abs(g - v) <= 2.0 ** -(bits + 1))  # the grid is near the vectors


def test_weighted_sums_add_in_the_order_of_the_rows():
    rng = np.random.default_rng(4)
    counts = rng.integers(0, 4, size=(5, 300)).astype(float)
    values = rng.normal(size=(300, 3)) * 10.0 ** rng.integers(-8, 8, size=(300, 1))
    got = weighted_sums(counts, values)
    for i in range(5):
        for q in range(3):
            acc = 0.0
            for j in range(300):  # the plain sequential sum, in Python floats
                if counts[i, j]:
                    acc += counts[i, j] * values[j, q]
            assert got[i, q] == acc


# --------------------------------------------------------------------------- the families
def _permuted(vec: np.ndarray, seed: int) -> tuple[Embedding, Embedding]:
    perm = np.random.default_rng(seed).permutation(vec.shape[1])
    words = [f"w{i}" for i in range(len(vec))]
    return Embedding(words, vec, name="a"), Embedding(words, vec[:, perm], name="b")


def test_similarity_benchmark_cosines_are_exact_and_order_free():
    from wordgames.similarity.benchmarks import pair_cosines

    vec = _integer_vectors(40, 24, seed=5)
    a, b = _permuted(vec, 6)
    i1, i2 = np.arange(0, 120), np.arange(119, -1, -1)
    ca, cb = pair_cosines(a.unit, i1, i2), pair_cosines(b.unit, i1, i2)
    assert np.array_equal(ca, cb)
    ints = _ints(a.unit)
    assert ca.tolist() == [_exact_dot(ints[x], ints[y]) for x, y in zip(i1, i2, strict=True)]


def test_oddmanout_choices_do_not_depend_on_the_summation_order():
    from wordgames.oddmanout.embedding_solver import EmbeddingSolver
    from wordgames.oddmanout.puzzles import PuzzleSet

    vec = _integer_vectors(60, 24, seed=7)
    a, b = _permuted(vec, 8)
    rng = np.random.default_rng(9)
    # puzzles of near-tied words: a word, its exact copy, its nudged copy and others
    puzzles = []
    for _ in range(200):
        k = int(rng.integers(0, 60))
        rest = rng.choice(np.r_[0:k, k + 1 : 60], 2, replace=False)
        puzzles.append([f"w{k}", f"w{k + 60}", f"w{k + 120}", *(f"w{r}" for r in rest)])
    ps = PuzzleSet.from_odd_first("near-ties", puzzles)
    sa, sb = EmbeddingSolver(a).solve(ps), EmbeddingSolver(b).solve(ps)
    assert np.array_equal(sa.scores, sb.scores)
    assert sa.choice.tolist() == sb.choice.tolist()
    assert sa.reason.tolist() == sb.reason.tolist()


def test_wales_similarities_are_exact_and_the_walk_order_free():
    from wordgames.wales.agent import GreedyAgent, target_similarities
    from wordgames.wales.graph import DiGraph
    from wordgames.wales.titles import title_vectors

    vec = _integer_vectors(40, 24, seed=10)
    a, b = _permuted(vec, 11)
    titles = [f"w{i}" for i in range(120)]
    na, nb = title_vectors(titles, a), title_vectors(titles, b)
    ints = _ints(na.unit)
    sims = target_similarities(na, 5, -1.0)
    assert np.array_equal(sims, target_similarities(nb, 5, -1.0))
    assert sims[:4].tolist() == [_exact_dot(ints[na.rows[v]], ints[na.rows[5]]) for v in range(4)]
    rng = np.random.default_rng(12)
    src = np.repeat(np.arange(120), 4)
    dst = rng.integers(0, 120, src.size)
    g = DiGraph.from_edges(src, dst)
    sources, targets = rng.integers(0, 120, 50), rng.integers(0, 120, 50)
    for lockstep in (True, False):
        ra = GreedyAgent().run(g, na, sources, targets, lockstep=lockstep)
        rb = GreedyAgent().run(g, nb, sources, targets, lockstep=lockstep)
        for key in ("success", "n_steps", "reason"):
            assert np.asarray(ra[key]).tolist() == np.asarray(rb[key]).tolist(), key


@pytest.mark.parametrize("dim", [3, 50, 300, 4096])
def test_any_dimension_stays_exact(dim):
    g = unit_grid(np.random.default_rng(dim).normal(size=(6, dim)).astype(np.float32))
    ints = _ints(g)
    got = dots(g, g)
    assert got.tolist() == [[_exact_dot(x, y) for y in ints] for x in ints]
