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


def reference_walk(graph, sims, source, target, gamma, max_steps=100):
    """The decision rule written plainly, one step at a time (the tests' reference).

    At each step: a breadth-first search from the current node over the revealed subgraph
    (the out-links of the visited nodes), every unvisited node it reaches scored
    ``sims[v] - gamma * m(v)`` in float64, ties within 1e-6 of the best broken by the target
    first, then the smallest m, then the smallest node id. The walk back goes through the
    BFS tree whose parent of a node is the earliest-visited node of the level before that
    links to it; the last hop comes from the earliest-visited node at distance m - 1.
    Returns (reason, n_steps, path, visited).
    """
    from collections import deque

    succ = {}
    visited, path, current, steps = [source], [source], source, 0
    number = {source: 0}
    while current != target:
        if steps >= max_steps:
            return "step-cap", steps, path, visited
        succ[current] = [int(v) for v in graph.successors(current)]
        dist, parent, queue = {current: 0}, {}, deque([current])
        while queue:  # BFS over visited nodes, smallest visited number first within a level
            level = sorted(queue, key=number.__getitem__)
            queue.clear()
            for u in level:
                for w in succ[u]:
                    if w in number and w not in dist:
                        dist[w], parent[w] = dist[u] + 1, u
                        queue.append(w)
        best = {}  # candidate -> (m, via): the smallest m, then the earliest-visited via
        for u in sorted(dist, key=number.__getitem__):
            for v in succ[u]:
                if v not in number and (v not in best or dist[u] + 1 < best[v][0]):
                    best[v] = (dist[u] + 1, u)
        if not best:
            return "stuck", steps, path, visited
        score = {v: float(sims[v]) - gamma * np.int64(m) for v, (m, _) in best.items()}
        top = max(score.values())
        tied = [v for v in best if score[v] >= top - 1e-6]
        nxt = min(tied, key=lambda v: (v != target, best[v][0], v))
        m, via = best[nxt]
        steps += m
        hops = [via]
        while hops[-1] != current:
            hops.append(parent[hops[-1]])
        path.extend(hops[::-1][1:] + [nxt])
        if steps > max_steps:
            return "step-cap", steps, path, visited
        number[nxt] = len(visited)
        visited.append(nxt)
        current = nxt
    return "reached", steps, path, visited
