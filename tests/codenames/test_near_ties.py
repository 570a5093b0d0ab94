"""Near-ties cannot move a Codenames result: no summation order, code path or batch can.

The embeddings here are built to give near-ties: words that copy another's vector exactly,
and words that copy it with one component moved by one unit in 2**23 (the size of float32's
last bits). Their components are integers below 2**23, so every squared norm is exact in
float64 whatever the order of the dimensions: permuting the dimensions changes how a float32
product would sum the same terms, and nothing else. Every result must be the same for the
permuted embedding, on the compiled path and the numpy pass, and for a batch alone or beside
others.
"""

from __future__ import annotations

import numpy as np
import pytest

from wordgames.codenames.agents import (
    ClusterSender,
    EmbeddingNearestReceiver,
    ExhaustiveSearchSender,
    default_senders,
)
from wordgames.codenames.measures import RankProblem, sender_ranks
from wordgames.embeddings import Embedding
from wordgames.exact import cosines, unit_grid

pytest.importorskip("numba")


def near_tie_vectors(n_base: int = 120, dim: int = 24, seed: int = 0) -> np.ndarray:
    """``n_base`` vectors, an exact copy of each and a copy moved by one unit in 2**23."""
    rng = np.random.default_rng(seed)
    base = rng.integers(-(2**22), 2**22, size=(n_base, dim)).astype(np.float64)
    nudged = base.copy()
    nudged[np.arange(n_base), rng.integers(0, dim, n_base)] += rng.choice([-1.0, 1.0], n_base)
    return np.concatenate([base, base, nudged]).astype(np.float32)


def _embedding(vec: np.ndarray, perm: np.ndarray | None = None) -> Embedding:
    words = [f"w{i}" for i in range(len(vec))]
    return Embedding(words, vec if perm is None else vec[:, perm], name="near-ties")


def _problems(n_words: int, n: int, seed: int, prefix: str = "") -> list[RankProblem]:
    rng = np.random.default_rng(seed)
    out = []
    for i in range(n):
        w = [f"w{j}" for j in rng.choice(n_words, 10, replace=False)]
        nb = int(rng.integers(1, 5))
        out.append(RankProblem(f"{prefix}{i}", tuple(w[:nb]), tuple(w[nb:9]), w[9]))
    return out


def _ranks(res) -> dict:
    return {k: (v.record_ids, v.best, v.worst, v.n_candidates) for k, v in res.items()}


def _senders(emb):
    return [*default_senders(emb, quick=True), ExhaustiveSearchSender(emb, "frequency")]


def test_the_grid_makes_cosines_exact_in_any_order():
    vec = near_tie_vectors()
    perm = np.random.default_rng(1).permutation(vec.shape[1])
    g, gp = unit_grid(vec), unit_grid(vec[:, perm])
    assert np.array_equal(g[:, perm], gp)  # the same grid vectors, dimensions permuted
    assert np.all(np.abs(g * 2.0**24 - np.rint(g * 2.0**24)) == 0)  # on the grid
    exact = cosines(g, g)
    # float64 sums in other orders, one block at a time: the same bits
    assert np.array_equal(cosines(gp, gp), exact)
    assert np.array_equal(cosines(g[:7], g), exact[:7])
    assert np.array_equal(cosines(g[::-1], g[5:9])[::-1], exact[:, 5:9])
    # the exact value, by integers: n_a . n_b / 2**48 rounded to float32
    ints = np.rint(g.astype(np.float64) * 2.0**24).astype(np.int64)
    i, j = 3, 123  # a word and its exact copy, and its nudged copy
    for k in (j, 243):
        assert exact[i, k] == np.float32(int(ints[i] @ ints[k]) / 2.0**48)
    # near-ties are there: beside a word's copy, its nudged copy differs in the last bits
    copy, nudged = exact[:120, 120:240], exact[:120, 240:]
    assert np.count_nonzero(copy != nudged) > 1000
    assert float(np.max(np.abs(copy - nudged))) < 1e-6


@pytest.mark.parametrize("compiled", [True, False])
def test_sender_ranks_do_not_depend_on_the_summation_order(compiled):
    vec = near_tie_vectors()
    perm = np.random.default_rng(2).permutation(vec.shape[1])
    problems = _problems(len(vec), 60, seed=3)
    kw = {"chunk_bytes": 4 * 40 * 37, "batch_words": 40, "n_jobs": 2, "compiled": compiled}
    a = sender_ranks(_senders(_embedding(vec)), problems, **kw)
    b = sender_ranks(_senders(_embedding(vec, perm)), problems, **kw)
    assert _ranks(a) == _ranks(b)
    res = a["exhaustive:avg_blue_dist"]
    assert any(w > b for b, w in zip(res.best, res.worst, strict=True))  # exact ties met


def test_compiled_equals_numpy_pass_on_near_ties_alone_or_beside_others():
    vec = near_tie_vectors(seed=4)
    emb = _embedding(vec)
    problems = _problems(len(vec), 50, seed=5)
    others = _problems(len(vec), 50, seed=6, prefix="other-")
    kw = {"chunk_bytes": 4 * 60 * 29, "batch_words": 60, "n_jobs": 2}
    alone = sender_ranks(_senders(emb), problems, **kw)
    numpy_pass = sender_ranks(_senders(emb), problems, compiled=False, **kw)
    assert _ranks(alone) == _ranks(numpy_pass)
    # the same records after others (other batches, other products, other slices)
    mixed = sender_ranks(_senders(emb), others + problems, batch_words=97, n_jobs=1)
    for name, ranks in _ranks(mixed).items():
        mine = [k for k, i in enumerate(ranks[0]) if not i.startswith("other-")]
        assert tuple([x[k] for k in mine] for x in ranks) == _ranks(alone)[name], name


def test_receiver_and_clusters_do_not_depend_on_the_summation_order():
    vec = near_tie_vectors(seed=7)
    perm = np.random.default_rng(8).permutation(vec.shape[1])
    a, b = _embedding(vec), _embedding(vec, perm)
    problems = _problems(len(vec), 80, seed=9)
    ra, rb = EmbeddingNearestReceiver(a), EmbeddingNearestReceiver(b)
    ca, cb = ClusterSender(a, n_restarts=3), ClusterSender(b, n_restarts=3)
    for p in problems:
        board = [*p.blue, *p.red]
        assert ra.ranked_forward(board, p.clue) == rb.ranked_forward(board, p.clue)
        assert np.array_equal(ra.closeness(board, p.clue), rb.closeness(board, p.clue))
    splits = [(p.blue, p.red) for p in problems]
    assert ca.choose_clusters(splits) == cb.choose_clusters(splits)
