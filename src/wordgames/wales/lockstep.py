"""The batched runner of the WALES agent: every task of a batch takes its step at once.

One step of every running task is a handful of numpy passes and, where the full rule searches
deeper than the current node's out-links, compiled loops (:mod:`wordgames.wales._kernels`); no
task ever leaves the batch and there is no Python loop over tasks or nodes. Per task, with the
visited nodes numbered 0, 1, ... in visiting order:

* ``top[u]``: the best similarity among the unvisited out-links of visited node ``u``
  (``-inf`` when none). A candidate ``v`` revealed by ``u`` scores at most
  ``top[u] - gamma * (d(u) + 1)``, ``d(u)`` the distance from the current node to ``u``
  inside the revealed subgraph; since ``m(v) = 1 + min d`` over the visited nodes that link to
  ``v``, the rule's best score is ``max over u of top[u] - gamma * (d(u) + 1)``. When a node
  is visited, the tops equal to its similarity become ``stale`` (upper bounds, made exact
  before they can raise a best score).
* ``lone[u]``: the one out-link of ``u`` within ``TIE_TOL`` of its best score at ``m = 1``
  (-1 when several tie): a step that needs to look no further takes it without scoring edges.
* ``inn[u]``: the bitset of the visited numbers that link to visited node ``u``, built when a
  task first searches deeper than its current node's out-links and kept up to date from then
  on (a newly visited node reads its in-links from the reverse graph). A shortest path inside
  the revealed subgraph runs through visited nodes only (only they have out-links there), so
  a breadth-first search over ``inn``, level by level, gives ``d``. It stops for a task once
  no deeper candidate can come within ``2 * TIE_TOL`` of its best score so far (at gamma = 1
  nearly always before the first level: the old fast path, as a special case).

The step then scores the revealed edges ``(u, v)`` of the few ``u`` that can reach the best
score (``sim(v) - gamma * (d(u) + 1)``, the numbers the per-task rule computes) and breaks ties
as the per-task rule does: the target first, then the fewest links, then the smallest node id.
``tests/wales/test_lockstep.py`` checks the visited pages, links and outcomes against a plain
implementation of the rule at gamma 0 to 1.
"""

from __future__ import annotations

import numpy as np

from wordgames.wales.graph import DiGraph, _gather

#: scores closer than this are ties (cosines of float32 vectors are not more precise)
TIE_TOL = 1e-6
REACHED, STEP_CAP, STUCK = 0, 1, 2
#: below this gamma most tasks search deeper than their out-links within a few steps (on
#: Wikispeedia), so every task keeps its bitsets from the first step (cheaper than building
#: them later); above it a task builds them when it first needs them. Results do not depend on it.
TRACK_ALL_BELOW = 0.5
REASONS = np.array(["reached", "step-cap", "stuck"], dtype=object)


def bytes_per_task(n_nodes: int, max_steps: int) -> int:
    """Memory one task of a :class:`Lockstep` batch takes on a graph of ``n_nodes``."""
    width = max_steps + 2
    per_node = 8 + (2 if width < 2**15 else 4)  # similarity, visited number
    # per visit: the bitset; order, top, lone, top2 (8 bytes each), stale (1); a step's copies
    # of top, the distances and the masked tops (8 bytes each)
    per_visit = 8 * ((width + 63) // 64) + 4 * 8 + 1 + 3 * 8
    return n_nodes * per_node + width * per_visit


def _segment_max(values: np.ndarray, owner: np.ndarray, n_owner: int) -> np.ndarray:
    """Max of ``values`` per ``owner`` (sorted ids in ``[0, n_owner)``); -inf for none."""
    out = np.full(n_owner, -np.inf)
    if owner.size:
        seg = np.flatnonzero(np.r_[True, owner[1:] != owner[:-1]])
        out[owner[seg]] = np.maximum.reduceat(values, seg)
    return out


def _kernels():
    """The compiled kernels, imported when first needed (numba is slow to import)."""
    import wordgames.wales._kernels as k

    return k


class Lockstep:
    """Navigations of ``b`` tasks on one graph, stepped together.

    Parameters
    ----------
    graph : DiGraph
    sims : float64 array, shape (b, n_nodes)
        Each task's similarity of every node to its target (``target_similarities``).
    sources, targets : int arrays, shape (b,)
    gamma : float
    max_steps : int

    After :meth:`run`: ``status`` (``REACHED``, ``STEP_CAP``, ``STUCK``), ``steps`` (links
    walked), ``order[:, :k]`` (the nodes visited, in order) and ``n_general`` (steps whose
    search went beyond the current node's out-links).
    """

    def __init__(self, graph: DiGraph, sims: np.ndarray, sources, targets, gamma, max_steps):
        b, n = sims.shape
        self.graph, self.n, self.gamma, self.max_steps = graph, n, float(gamma), int(max_steps)
        self.width = self.max_steps + 2  # visited numbers 0 .. max_steps (+1 spare)
        self.words = (self.width + 63) // 64
        self.sims, self.sim_flat = sims, sims.reshape(-1)
        self.targets = np.asarray(targets, dtype=np.int64)
        self.base = np.arange(b, dtype=np.int64) * n
        self.pos = np.full(b * n, -1, dtype=np.int16 if self.width < 2**15 else np.int32)
        self.inn = np.zeros((b, self.width, self.words), dtype=np.uint64)
        self.order = np.full((b, self.width), -1, dtype=np.int64)
        self.top = np.full((b, self.width), -np.inf)
        self.stale = np.zeros((b, self.width), dtype=bool)  # top is only an upper bound
        # the one out-link within TIE_TOL of a visited node's best score at m = 1 (-1: a tie)
        self.lone = np.full((b, self.width), -1, dtype=np.int64)
        self.top2 = np.full((b, self.width), -np.inf)  # top without the lone out-link
        self.tracked = np.full(b, TRACK_ALL_BELOW > self.gamma)  # inn kept for these
        self.seen = np.full(b, -np.inf)  # the highest top ever: a bound of every top
        self.k = np.zeros(b, dtype=np.int64)
        self.cur = np.zeros(b, dtype=np.int64)  # visited number of the current node
        self.steps = np.zeros(b, dtype=np.int64)
        self.status = np.full(b, -1, dtype=np.int64)
        self.n_general = 0
        sources = np.asarray(sources, dtype=np.int64)
        self.visit(np.arange(b), sources)
        self.status[sources == self.targets] = REACHED

    # ------------------------------------------------------------------ state
    def _successors(self, rows: np.ndarray, nodes: np.ndarray):
        """Out-links of ``nodes`` (one per row): owner index, flat cell, visited number."""
        indptr = self.graph.indptr
        lens = indptr[nodes + 1] - indptr[nodes]
        owner = np.repeat(np.arange(nodes.size), lens)
        cell = self.base[rows][owner] + _gather(indptr, self.graph.indices, nodes)
        return owner, cell, self.pos[cell]

    def visit(self, rows: np.ndarray, nodes: np.ndarray) -> None:
        """Task ``rows[i]`` moves to ``nodes[i]``, which becomes its next visited node."""
        if not rows.size:
            return
        kk = self.k[rows]
        cell = self.base[rows] + nodes
        self.pos[cell] = kk
        self.order[rows, kk] = nodes
        owner, scell, p = self._successors(rows, nodes)
        seen = p >= 0  # links back to visited nodes (the node itself included)
        o, ucell = owner[~seen], scell[~seen]
        sim = self.sim_flat[ucell]
        top = _segment_max(sim, o, rows.size)
        self.top[rows, kk] = top
        self.seen[rows] = np.maximum(self.seen[rows], top)
        # the step that stays at m = 1 compares sim - gamma * 1 as choose() does: is it one node?
        # (rounding is monotone: the best of sim - gamma is top - gamma)
        score = sim - self.gamma
        near = score >= (top - self.gamma)[o] - TIE_TOL
        lone = np.full(rows.size, -1, dtype=np.int64)
        lone[o[near]] = ucell[near] - self.base[rows][o[near]]
        lone[np.bincount(o[near], minlength=rows.size) != 1] = -1
        self.lone[rows, kk] = lone
        rest = ucell - self.base[rows][o] != lone[o]
        self.top2[rows, kk] = _segment_max(sim[rest], o[rest], rows.size)
        self.k[rows] = kk + 1
        self.cur[rows] = kk
        # a visited node whose best unvisited out-link was this one has exactly its similarity
        # as top: such tops are now only upper bounds, made exact before they raise a best
        kc = int(kk.max()) + 1
        self.stale[rows, :kc] |= self.top[rows, :kc] == self.sim_flat[cell][:, None]
        tracked = self.tracked[rows]
        if not tracked.any():
            return
        # the bitsets of the tasks whose search went deeper once: kept up to date from then on
        self._link_bits(rows[tracked], kk[tracked], nodes[tracked])

    def _link_bits(self, rows: np.ndarray, nums: np.ndarray, nodes: np.ndarray) -> None:
        """Record the revealed edges between visited node ``nodes[i]`` and the visited nodes."""
        g, rev = self.graph, self.graph.reverse()
        c = np.ascontiguousarray  # one memory layout: one compiled signature (warmed at install)
        _kernels().link_bits(
            self.inn, self.pos, self.base, g.indptr, g.indices, rev.indptr, rev.indices,
            c(rows), c(nums), c(nodes),
        )  # fmt: skip

    def _track(self, rows: np.ndarray) -> None:
        """Build the bitsets of tasks ``rows`` from every node they visited so far."""
        r, u = np.nonzero(np.arange(self.width) < self.k[rows][:, None])
        self._link_bits(rows[r], u, self.order[rows[r], u])
        self.tracked[rows] = True

    def _refresh(self, rows: np.ndarray, floor: np.ndarray) -> None:
        """Make the stale tops of the tasks ``rows`` that are at least ``floor`` exact."""
        r, u = np.nonzero(self.stale[rows] & (self.top[rows] >= floor[:, None]))
        if r.size:
            g = self.graph
            _kernels().refresh_tops(
                self.top, self.stale, self.order, self.pos, self.sim_flat, self.base,
                g.indptr, g.indices, rows[r], np.ascontiguousarray(u),
            )  # fmt: skip

    # ------------------------------------------------------------------ the rule
    def _distances(self, rows: np.ndarray, top: np.ndarray, best: np.ndarray):
        """Distances (-1: not searched) from the current node to the visited nodes, pruned.

        ``best`` (the best score so far per task) is raised in place level by level (the
        compiled :func:`~wordgames.wales._kernels.search_levels`). Also returns which tasks
        searched beyond the current node's out-links.
        """
        a, kc = top.shape
        gamma, tol2 = self.gamma, 2 * TIE_TOL
        cur = self.cur[rows]
        dist = np.full((a, kc), -1, dtype=np.int64)
        dist[np.arange(a), cur] = 0
        # level 1 on the tops as they are (stale ones are upper bounds): who must look deeper
        masked = top.copy()
        masked[np.arange(a), cur] = -np.inf
        upper = masked.max(axis=1)
        live = np.flatnonzero((upper > -np.inf) & (upper - gamma * 2 >= best - tol2))
        deep = np.zeros(a, dtype=bool)
        if not live.size:
            return dist, deep
        self.n_general += live.size
        deep[live] = True
        task = rows[live]
        new_rows = task[~self.tracked[task]]
        if new_rows.size:
            self._track(new_rows)
        self._refresh(task, best[live] + 2 * gamma - 2 * tol2)
        top[live] = self.top[task, :kc]
        _kernels().search_levels(
            self.inn, self.top, self.stale, task, live, cur[live], self.k[task], best, dist,
            gamma, tol2,
        )  # fmt: skip
        return dist, deep

    def choose(self, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Next node and its links ``m`` for each task of ``rows`` (node -1: nothing reachable)."""
        a, gamma = rows.size, self.gamma
        cur = self.cur[rows]
        best = self.top[rows, cur] - gamma
        node = self.lone[rows, cur]
        deep = np.zeros(a, dtype=bool)
        # revealers whose edges are scored: task index, visited number, links m
        r, u, m_u = [], [], []
        # a deeper candidate scores at most seen - 2 gamma: only these tasks may need to look
        maybe = np.flatnonzero(self.seen[rows] - 2 * gamma >= best - 2 * TIE_TOL)
        if maybe.size:
            sub, sub_best = rows[maybe], best[maybe]
            top = self.top[sub, : int(self.k[sub].max())]
            dist, went = self._distances(sub, top, sub_best)
            best[maybe] = sub_best
            deep[maybe[went]] = True
            dist, top, sub_best = dist[went], top[went], sub_best[went]
            # the revealers whose edges can score within TIE_TOL of the best
            ok = (dist >= 0) & (top - gamma * (dist + 1) >= sub_best[:, None] - TIE_TOL)
            rr, uu = np.nonzero(ok)
            mm = dist[rr, uu] + 1
            # the fewest links win ties, so only the revealers at the least distance matter,
            # unless the target (similarity 1, the highest) may be among the tied
            if rr.size:
                seg = np.flatnonzero(np.r_[True, rr[1:] != rr[:-1]])
                least = np.minimum.reduceat(mm, seg)
                near_one = np.maximum.reduceat(top[rr, uu], seg) >= 1.0 - 2 * TIE_TOL
                n_seg = np.diff(np.r_[seg, rr.size])
                keep = (mm == np.repeat(least, n_seg)) | np.repeat(near_one, n_seg)
                rr, uu, mm = rr[keep], uu[keep], mm[keep]
            r.append(maybe[went][rr])
            u.append(uu)
            m_u.append(mm)
        node[deep] = -1
        direct = np.flatnonzero(node >= 0)  # its top once the lone out-link is visited
        self.top[rows[direct], cur[direct]] = self.top2[rows[direct], cur[direct]]
        # the others look no deeper than their out-links: scored only when several tie
        own = np.flatnonzero((node < 0) & ~deep)
        r, u, m_u = (
            np.concatenate([own, *r]),
            np.concatenate([cur[own], *u]),
            np.concatenate([np.ones(own.size, dtype=np.int64), *m_u]),
        )
        m_out = (node >= 0).astype(np.int64)
        if not r.size:
            return node, m_out
        order = np.argsort(r, kind="stable")
        r, u, m_u = r[order], u[order], m_u[order]
        owner, cell, p = self._successors(rows[r], self.order[rows[r], u])
        keep = p < 0
        e, cell = owner[keep], cell[keep]
        sim = self.sim_flat[cell]
        task = r[e]
        v = cell - self.base[rows][task]
        m = m_u[e]
        score = sim - gamma * m  # the numbers the per-task rule compares
        # best is the rule's best score exactly (the same float64 operations on exact tops)
        tied = score >= best[task] - TIE_TOL
        t, tv, tm = task[tied], v[tied], m[tied]
        if t.size:
            # ties: the target first, then the fewest links, then the smallest node id
            order = np.lexsort((tv, tm, tv != self.targets[rows][t], t))
            t, tv, tm = t[order], tv[order], tm[order]
            first = np.flatnonzero(np.r_[True, t[1:] != t[:-1]])
            node[t[first]], m_out[t[first]] = tv[first], tm[first]
        # the edges are at hand: these revealers' tops, exact once the chosen node is visited
        other = v != node[task]
        self.top[rows[r], u] = _segment_max(sim[other], e[other], r.size)
        self.stale[rows[r], u] = False
        return node, m_out

    # ------------------------------------------------------------------ driving
    def step(self, active: np.ndarray) -> None:
        """One move of every task in ``active`` (running, under the step cap)."""
        node, m = self.choose(active)
        stuck = node < 0
        self.status[active[stuck]] = STUCK
        go, node, m = active[~stuck], node[~stuck], m[~stuck]
        self.steps[go] += m
        over = self.steps[go] > self.max_steps  # the detour passes the cap: the task fails
        self.status[go[over]] = STEP_CAP
        go, node = go[~over], node[~over]
        self.visit(go, node)
        self.status[go[node == self.targets[go]]] = REACHED

    def run(self) -> Lockstep:
        """Step every task until it reaches its target, hits the step cap or is stuck."""
        active = np.flatnonzero(self.status < 0)
        while active.size:
            capped = self.steps[active] >= self.max_steps
            self.status[active[capped]] = STEP_CAP
            active = active[~capped]
            if not active.size:
                break
            self.step(active)
            active = active[self.status[active] < 0]
        return self
