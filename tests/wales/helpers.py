"""Small graphs and vectors for the WALES tests."""

from __future__ import annotations

import numpy as np

from wordgames.wales.graph import DiGraph
from wordgames.wales.titles import NodeVectors


def vectors_with_cosines(cosines, target: int) -> NodeVectors:
    """Unit vectors in 2-D whose cosine with node ``target``'s vector is ``cosines[v]``."""
    c = np.asarray(cosines, dtype=np.float64)
    mat = np.stack([c, np.sqrt(np.clip(1 - c**2, 0, None))], axis=1)
    mat[target] = [1.0, 0.0]
    return NodeVectors(np.arange(c.size), mat)


def figure2():
    """The example of the paper's Figure 2.

    Nodes s=0, b=1, c=2, d=3, e=4, t=5. The agent goes s -> b -> c (b and c are the most
    similar reachable nodes); at c, e is an out-link (m = 1, cos 0.5) and d is reached back
    through s (c -> s -> d, m = 2, cos 0.8).
    """
    edges = [(0, 1), (0, 3), (1, 2), (2, 4), (2, 0), (4, 5), (3, 5)]
    src, dst = zip(*edges, strict=True)
    g = DiGraph.from_edges(src, dst, 6, names=list("sbcdet"))
    vec = vectors_with_cosines([0.1, 0.85, 0.9, 0.8, 0.5, 1.0], target=5)
    return g, vec


def random_graph(n, degree, seed, *, cycle=True):
    rng = np.random.default_rng(seed)
    src = rng.integers(0, n, n * degree)
    dst = rng.integers(0, n, n * degree)
    if cycle:  # a Hamiltonian cycle makes the graph strongly connected
        src = np.concatenate([src, np.arange(n)])
        dst = np.concatenate([dst, (np.arange(n) + 1) % n])
    return DiGraph.from_edges(src, dst, n, drop_self_loops=True)


def random_vectors(n, dim, seed, missing=0.0):
    rng = np.random.default_rng(seed)
    mat = rng.normal(size=(n, dim))
    mat /= np.linalg.norm(mat, axis=1, keepdims=True)
    rows = np.arange(n)
    if missing:
        rows[rng.random(n) < missing] = -1
    return NodeVectors(rows, mat)
