"""Task-generating distributions of WALES (paper section 4.1) and sets of (start, target) pairs.

Nodes are sorted by ascending in-degree (ties by node id). A *power law* with exponent ``a``
draws ``x ~ a x^(a-1)`` on [0, 1] (``x = u^(1/a)`` with ``u`` uniform) and takes the node at
sorted position ``floor(n x)``; ``a = 1`` is uniform over all nodes and larger ``a`` favours
nodes with many in-links. *Top b%* draws uniformly among the ``ceil(n b / 100)`` nodes of
largest in-degree. Start and target are drawn independently; pairs with start == target
are redrawn (counted in ``TaskSet.n_redrawn``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from wordgames.wales.graph import DiGraph

POWER_LAW_EXPONENTS = (1, 2, 4, 8, 16, 32)
TOP_PERCENTS = (1, 5, 10, 25, 50, 100)


@dataclass
class TaskSet:
    """Tasks as parallel arrays of node ids."""

    name: str
    sources: np.ndarray
    targets: np.ndarray
    params: dict = field(default_factory=dict)
    n_redrawn: int = 0

    def __len__(self) -> int:
        return int(self.sources.size)

    def describe(self) -> dict:
        return {
            "name": self.name,
            "n_tasks": len(self),
            "n_redrawn_equal_pairs": self.n_redrawn,
            **self.params,
        }


def nodes_by_in_degree(graph: DiGraph) -> np.ndarray:
    """Node ids sorted by ascending in-degree (stable: ties keep id order)."""
    return np.argsort(graph.in_degree, kind="stable")


def _draw_pairs(draw, k: int, rng: np.random.Generator, max_rounds: int = 1000):
    s, t = draw(k), draw(k)
    redrawn = 0
    for _ in range(max_rounds):
        same = np.flatnonzero(s == t)
        if same.size == 0:
            return s, t, redrawn
        redrawn += same.size
        s[same], t[same] = draw(same.size), draw(same.size)
    raise ValueError("could not draw distinct start and target nodes (distribution too narrow)")


def power_law_tasks(graph: DiGraph, a: float, k: int = 1000, seed: int = 0) -> TaskSet:
    """``k`` tasks with both ends from the power law with exponent ``a``.

    >>> g = DiGraph.from_edges([0, 1, 2, 3], [1, 2, 3, 0])
    >>> ts = power_law_tasks(g, 2, k=5, seed=1)
    >>> len(ts), bool((ts.sources != ts.targets).all())
    (5, True)
    """
    if a <= 0:
        raise ValueError("the power-law exponent a must be positive")
    order = nodes_by_in_degree(graph)
    n = order.size
    rng = np.random.default_rng(seed)

    def draw(size):
        x = rng.random(size) ** (1.0 / a)
        return order[np.minimum((n * x).astype(np.int64), n - 1)]

    s, t, redrawn = _draw_pairs(draw, k, rng)
    return TaskSet(
        f"powerlaw-a{a:g}", s, t, {"distribution": "power-law", "a": a, "seed": seed}, redrawn
    )


def top_percent_tasks(graph: DiGraph, b: float, k: int = 1000, seed: int = 0) -> TaskSet:
    """``k`` tasks uniform over the top ``b`` percent of nodes by in-degree."""
    if not 0 < b <= 100:
        raise ValueError("b must lie in (0, 100]")
    order = nodes_by_in_degree(graph)
    size = max(2, int(np.ceil(order.size * b / 100.0)))
    pool = order[-size:]
    rng = np.random.default_rng(seed)

    def draw(m):
        return pool[rng.integers(0, pool.size, m)]

    s, t, redrawn = _draw_pairs(draw, k, rng)
    return TaskSet(
        f"top-b{b:g}",
        s,
        t,
        {"distribution": "top-percent", "b": b, "seed": seed, "pool_size": int(pool.size)},
        redrawn,
    )


def pair_tasks(graph: DiGraph, pairs, name: str = "human", *, path=None, lines=None) -> TaskSet:
    """Tasks from (start name, target name) pairs, e.g. human-played challenges."""
    pairs = list(pairs)
    s = graph.node_ids([p[0] for p in pairs], path=path, lines=lines)
    t = graph.node_ids([p[1] for p in pairs], path=path, lines=lines)
    return TaskSet(name, s, t, {"distribution": "pairs"})


def default_distributions(
    graph: DiGraph,
    k: int = 1000,
    seed: int = 0,
    exponents=POWER_LAW_EXPONENTS,
    percents=TOP_PERCENTS,
) -> list[TaskSet]:
    """The task sets of Figure 4: power laws and top-b% sets, each with its own seed."""
    sets = [power_law_tasks(graph, a, k, seed + 101 * i) for i, a in enumerate(exponents)]
    sets += [top_percent_tasks(graph, b, k, seed + 1009 + 101 * i) for i, b in enumerate(percents)]
    return sets
