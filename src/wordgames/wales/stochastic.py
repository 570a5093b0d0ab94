"""The stochastic information-foraging agent of WALES (Giesen et al., IJCAI 2022, section 3.1).

The direct instantiation of the information-foraging framework: from page ``i`` the agent
follows the link to ``j`` with probability

    P_q(i, j) = T(i, j) * cos(f(w_j), f(w_t)) / sum over out-links j' of i of the same,

a Markov chain with the target's title as the information need. The paper leaves negative
cosines undefined (a probability cannot be negative); here a link's weight is
``max(cos, 0)``, and a page whose out-links all have weight 0 is left by a uniformly drawn
link. Pages without a vector have similarity ``oov_similarity`` (-1: weight 0); the target
has similarity 1. The walk may revisit pages; every link walked counts in ``n``, and a task not
finished within ``max_steps`` links fails. The greedy agent
(:class:`~wordgames.wales.agent.GreedyAgent`) instead always takes the most probable link,
with back-tracking; both are scored by :func:`~wordgames.wales.evaluate.evaluate_tasks`.

All tasks walk together: each step is a handful of numpy passes over the out-links of the
running tasks' current pages (one uniform draw per task from one seeded generator).
"""

from __future__ import annotations

import numpy as np

from wordgames.params import Params
from wordgames.wales.agent import outcome_arrays, similarity_rows, target_similarities
from wordgames.wales.graph import DiGraph
from wordgames.wales.titles import NodeVectors

# similarities held at once (tasks x nodes, float64): tasks run in batches below this
_SIMS_LIMIT = 20_000_000


def link_weights(sims: np.ndarray) -> np.ndarray:
    """Unnormalised ``P_q`` weights of links from their ends' similarities: ``max(cos, 0)``.

    >>> link_weights(np.array([0.5, -0.2, 1.0])).tolist()
    [0.5, 0.0, 1.0]
    """
    return np.maximum(np.asarray(sims, dtype=np.float64), 0.0)


def transition_probabilities(
    graph: DiGraph, vectors: NodeVectors, node: int, target: int, oov_similarity: float = -1.0
) -> tuple[np.ndarray, np.ndarray]:
    """The out-links of ``node`` and the probability ``P_q`` of following each to ``target``.

    Returns
    -------
    successors, probabilities : arrays
        Probabilities sum to 1; uniform when every out-link has weight 0.

    Examples
    --------
    >>> g = DiGraph.from_edges([0, 0, 1, 2], [1, 2, 0, 0])
    >>> nv = NodeVectors(np.arange(3), np.array([[1.0, 0.0], [0.75**0.5, 0.5], [0.0, 1.0]]))
    >>> succ, p = transition_probabilities(g, nv, 0, 2)   # cos 0.5 and 1
    >>> succ.tolist(), np.round(p, 4).tolist()
    ([1, 2], [0.3333, 0.6667])
    """
    succ = graph.successors(int(node))
    w = link_weights(target_similarities(vectors, int(target), oov_similarity)[succ])
    total = w.sum()
    return succ, (w / total if total > 0 else np.full(succ.size, 1.0 / max(succ.size, 1)))


class StochasticAgent(Params):
    """Follows each out-link with probability ``P_q`` (section 3.1), seeded.

    Parameters
    ----------
    max_steps : int
        Links walked before a task fails (score 0).
    oov_similarity : float in [-1, 1]
        Similarity of pages whose title has no vector.
    seed : int
        Seed of the generator (``numpy.random.default_rng``); the same seed, graph, vectors and
        tasks give the same walks.

    Examples
    --------
    >>> g = DiGraph.from_edges([0, 1, 2], [1, 2, 0])
    >>> nv = NodeVectors(np.arange(3), np.eye(3))
    >>> out = StochasticAgent(seed=0).run(g, nv, [0], [2])   # a cycle: one way to go
    >>> out["n_steps"].tolist(), out["success"].tolist()
    ([2], [True])
    """

    def __init__(self, max_steps: int = 100, oov_similarity: float = -1.0, seed: int = 0):
        if max_steps < 1:
            raise ValueError("max_steps must be at least 1")
        if not -1.0 <= oov_similarity <= 1.0:
            raise ValueError("oov_similarity must lie in [-1, 1]")
        self.max_steps = max_steps
        self.oov_similarity = oov_similarity
        self.seed = seed

    def run(self, graph: DiGraph, vectors: NodeVectors, sources, targets) -> dict:
        """Walk every task; returns arrays ``success``, ``n_steps`` and ``reason``.

        ``reason`` is ``"reached"``, ``"step-cap"`` or ``"stuck"`` (a page without out-links).
        Tasks run in batches that hold their similarities to every page (one draw per task
        and step from one generator, in batch order).
        """
        sources = np.asarray(sources, dtype=np.int64)
        targets = np.asarray(targets, dtype=np.int64)
        n = sources.size
        out = outcome_arrays(n, "step-cap")
        rng = np.random.default_rng(self.seed)
        batch = max(1, _SIMS_LIMIT // max(graph.n_nodes, 1))
        for lo in range(0, n, batch):
            part = slice(lo, min(n, lo + batch))
            self._walk(graph, vectors, sources[part], targets[part], rng, out, part)
        return out

    def _walk(self, graph, vectors, sources, targets, rng, out, part) -> None:
        """One batch of tasks, all stepping together; fills ``out[...][part]``."""
        uniq, row = np.unique(targets, return_inverse=True)
        sims = similarity_rows(vectors, uniq, self.oov_similarity)
        weights = link_weights(sims)
        cur = sources.copy()
        steps = np.zeros(cur.size, dtype=np.int64)
        done = cur == targets
        reason = np.where(done, "reached", "step-cap").astype(object)
        indptr, indices = graph.indptr, graph.indices
        for _ in range(self.max_steps):
            act = np.flatnonzero(~done)
            if act.size == 0:
                break
            deg = indptr[cur[act] + 1] - indptr[cur[act]]
            stuck = deg == 0
            reason[act[stuck]], done[act[stuck]] = "stuck", True
            act, deg = act[~stuck], deg[~stuck]
            cur[act] = _draw_links(indptr, indices, weights, row, cur, act, deg, rng)
            steps[act] += 1
            hit = act[cur[act] == targets[act]]
            reason[hit], done[hit] = "reached", True
        out["success"][part] = reason == "reached"
        out["n_steps"][part] = steps
        out["reason"][part] = reason


def _draw_links(indptr, indices, weights, row, cur, act, deg, rng) -> np.ndarray:
    """For each running task ``act``, the page reached by one link drawn with ``P_q``."""
    seg = np.repeat(np.arange(act.size), deg)
    first = np.cumsum(deg) - deg
    last = first + deg - 1
    edges = np.repeat(indptr[cur[act]] - first, deg) + np.arange(seg.size)
    ends = indices[edges]
    w = weights[row[act][seg], ends]
    total = np.bincount(seg, weights=w, minlength=act.size)
    w = np.where(total[seg] > 0, w, 1.0)  # every out-link has weight 0: uniform
    cs = np.cumsum(w)
    base = cs[first] - w[first]  # running sum before each task's links
    value = base + rng.random(act.size) * (cs[last] - base)
    # the first link whose running sum exceeds the draw (weight-0 links are never picked)
    pick = np.clip(np.searchsorted(cs, value, side="right"), first, last)
    return ends[pick]
