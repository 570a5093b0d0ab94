"""The greedy information-foraging agent of WALES (Giesen et al., IJCAI 2022, section 3.2).

At step ``i`` the agent knows the *revealed* subgraph ``T_i``: the out-links of every node it
has visited. It moves to

    v* = argmax over unvisited v of T_i with m_i(v) < inf of  cos(f(w_v), f(w_t)) - gamma * m_i(v)

where ``m_i(v)`` is the length of a shortest path from the current node to ``v`` inside
``T_i``. Reaching ``v*`` takes ``m_i(v*)`` links (back through visited pages), all counted in
the path length ``n``.

Scores within ``TIE_TOL`` (1e-6) of the best are ties, broken the same way everywhere: the
target first, then the smallest ``m`` (fewest links), then the smallest node id. Nodes without a vector get the similarity ``oov_similarity`` (default
-1, the lowest cosine, so any node with a vector is preferred at the same depth); the target
itself must have a vector (tasks whose target has none are excluded by the evaluation, never
walked blindly).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from wordgames.wales.graph import DiGraph
from wordgames.wales.titles import NodeVectors

# precompute every node's similarity to the target when that costs less than this many
# multiply-adds; else similarities are computed only for the candidates seen
_FULL_SIMS_LIMIT = 2_000_000
# the batched runner keeps n_tasks x n_nodes booleans and float64 similarities
_LOCKSTEP_CELLS = 8_000_000
# after this many fast steps without the full rule, its state is rebuilt rather than caught up
_CATCH_UP = 32


@dataclass
class Navigation:
    """One navigation: success, links walked (``n_steps``), and the walk when recorded."""

    source: int
    target: int
    success: bool
    n_steps: int
    reason: str  # "reached", "step-cap", "stuck"
    path: list[int] | None = None
    n_general_steps: int = 0  # steps that needed the BFS over the revealed subgraph


# scores closer than this are ties: cosines of float32 vectors are not more precise
TIE_TOL = 1e-6
_INF = 1 << 20  # "no path" inside the revealed subgraph


class _Revealed:
    """The revealed subgraph of one navigation: the out-edges of the visited nodes.

    Visited nodes are numbered 0..k-1 in visiting order (``pos`` maps node id -> number).
    ``adj`` is the adjacency among them (k x k booleans): a shortest path inside the revealed
    subgraph runs through visited nodes only (only they have out-edges there), so one BFS
    over ``adj`` from the current node gives every ``m_i`` (the candidate's visited in-
    neighbour's distance + 1). ``src/dst/sim`` hold the revealed edges (``sim``: similarity
    of the end to the target); edges whose end has been visited since are dropped now and then.
    """

    def __init__(self, graph: DiGraph, sim_of, pos: np.ndarray, capacity: int):
        self.graph, self.sim_of, self.pos = graph, sim_of, pos
        self.adj = np.zeros((capacity, capacity), dtype=bool)
        self.k = 0
        self.n_dead = 0  # edges whose end has been visited since
        self.n_edges = 0
        self.src = np.empty(4096, dtype=np.int64)
        self.dst = np.empty(4096, dtype=np.int64)
        self.sim = np.empty(4096, dtype=np.float64)

    @classmethod
    def from_visited(cls, graph: DiGraph, sim_of, pos: np.ndarray, visited: list[int],
                     capacity: int) -> _Revealed:
        """Build the state of a walk that visited ``visited`` (in order) in one go."""
        from wordgames.wales.graph import _gather

        self = cls(graph, sim_of, pos, max(capacity, len(visited) + 1))
        v = np.asarray(visited, dtype=np.int64)
        lens = graph.indptr[v + 1] - graph.indptr[v]
        dst = _gather(graph.indptr, graph.indices, v).astype(np.int64)
        src = np.repeat(np.arange(v.size, dtype=np.int64), lens)
        p = pos[dst]
        inner = p >= 0
        self.adj[src[inner], p[inner]] = True
        self._append(src[~inner], dst[~inner])
        self.k = v.size
        return self

    def _append(self, src: np.ndarray, dst: np.ndarray) -> None:
        e0, e1 = self.n_edges, self.n_edges + dst.size
        if e1 > self.src.size:
            size = max(2 * self.src.size, e1)
            for name in ("src", "dst", "sim"):
                old = getattr(self, name)
                new = np.empty(size, dtype=old.dtype)
                new[:e0] = old[:e0]
                setattr(self, name, new)
        self.src[e0:e1] = src
        self.dst[e0:e1] = dst
        self.sim[e0:e1] = self.sim_of(dst)
        self.n_edges = e1

    def add(self, node: int) -> None:
        """Add the node just visited (``pos[node]`` must be the next number)."""
        j = self.k
        if int(self.pos[node]) != j:
            raise AssertionError("visited nodes must be added in visiting order")
        if j + 1 > self.adj.shape[0]:
            adj = np.zeros((2 * (j + 1), 2 * (j + 1)), dtype=bool)
            adj[:self.adj.shape[0], :self.adj.shape[1]] = self.adj
            self.adj = adj
        e = self.n_edges
        into = self.dst[:e] == node
        self.adj[self.src[:e][into], j] = True  # revealed edges into the new node
        self.n_dead += int(np.count_nonzero(into))
        if self.n_dead > 256 and 2 * self.n_dead > e:  # drop edges whose end is visited
            pd = self.pos[self.dst[:e]]
            keep = np.flatnonzero((pd < 0) | (pd > j))
            for name in ("src", "dst", "sim"):
                arr = getattr(self, name)
                arr[:keep.size] = arr[keep]
            self.n_edges, self.n_dead = int(keep.size), 0
        nb = self.graph.successors(node).astype(np.int64)
        p = self.pos[nb]
        earlier = (p >= 0) & (p <= j)
        self.adj[j, p[earlier]] = True
        # edges to nodes not added yet (unvisited, or visited later while catching up) are kept:
        # a later node picks up its in-edges from them when it is added
        later = ~earlier
        self._append(np.full(int(later.sum()), j, dtype=np.int64), nb[later])
        self.k = j + 1

    def distances(self, start: int, need: np.ndarray | None = None, parents: bool = False,
                  max_depth: int | None = None):
        """BFS over the visited nodes from visited number ``start``; stops early once every
        visited number in ``need`` is reached, or after ``max_depth`` levels. Unreached:
        ``_INF``."""
        k = self.k
        a = self.adj[:k, :k]
        d = np.full(k, _INF, dtype=np.int64)
        par = np.full(k, -1, dtype=np.int64) if parents else None
        d[start] = 0
        front = np.array([start])
        level = 0
        while front.size and (need is None or (d[need] == _INF).any()):
            level += 1
            if max_depth is not None and level > max_depth:
                break
            new = np.flatnonzero(a[front].any(axis=0) & (d == _INF))
            if new.size == 0:
                break
            d[new] = level
            if parents:
                par[new] = front[a[np.ix_(front, new)].argmax(axis=0)]
            front = new
        return d, par

    @staticmethod
    def walk(par: np.ndarray, start: int, end: int) -> list[int]:
        """Visited numbers of the BFS-tree path start -> end (both included)."""
        out = [end]
        while out[-1] != start:
            out.append(int(par[out[-1]]))
        return out[::-1]

    def choose(self, current: int, target: int, gamma: float, parents: bool = False):
        """Best candidate as (node, m, visited number of the node before it, BFS parents),
        or (-1, 0, -1, None) when no unvisited node is reachable in the revealed subgraph.

        Only edges whose end has a similarity of at least ``c1 - TIE_TOL`` are scored, where
        ``c1`` is the best similarity among the unvisited out-links: the best out-link scores
        ``c1 - gamma``, so any candidate at depth m >= 1 with a lower similarity scores below
        ``c1 - gamma - TIE_TOL`` and can neither win nor tie (one vectorised comparison
        leaves the few edges worth scoring, and the BFS stops once their sources are reached).
        """
        e = self.n_edges
        nb = self.graph.successors(current)
        nb = nb[self.pos[nb] < 0]
        c1 = float(self.sim_of(nb).max()) if nb.size else None
        sel = np.flatnonzero(self.sim[:e] >= c1 - TIE_TOL) if nb.size else np.arange(e)
        dst = self.dst[sel]
        live = self.pos[dst] < 0  # not visited since revealed
        sel, dst = sel[live], dst[live]
        if sel.size == 0:
            return -1, 0, -1, None
        src = self.src[sel]
        # a candidate at depth m scores at most max sim - gamma m; below c1 - gamma - TIE_TOL
        # it cannot win or tie, so its source need not be searched beyond depth m - 1
        max_depth = None
        if c1 is not None and gamma > 0:
            max_depth = int(np.floor((float(self.sim[sel].max()) - c1 + 2 * TIE_TOL) / gamma))
        d, par = self.distances(int(self.pos[current]), np.unique(src), parents, max_depth)
        ds = d[src]
        ok = ds < _INF
        if not ok.any():
            return -1, 0, -1, None
        m = ds + 1
        score = np.where(ok, self.sim[sel] - gamma * m, -np.inf)
        tied = np.flatnonzero(score >= score.max() - TIE_TOL)
        c_dst = dst[tied]
        if (c_dst == target).any():
            tied = tied[c_dst == target]
        tied = tied[m[tied] == m[tied].min()]
        best = tied[np.argmin(dst[tied])]
        return int(dst[best]), int(m[best]), int(src[best]), par


def target_similarities(vectors: NodeVectors, target: int, oov_similarity: float) -> np.ndarray:
    """cos(f(v), f(target)) for every node v, float64, clipped to [-1, 1]; ``oov_similarity``
    for nodes without a vector; exactly 1 for the target. (The one definition every code
    path uses, so fast and full paths compare identical numbers.)"""
    tr = int(vectors.rows[target])
    if tr < 0:
        raise ValueError(f"target node {target} has no vector: such tasks must be excluded")
    sims = np.clip((vectors.node_matrix() @ vectors.unit[tr]).astype(np.float64), -1.0, 1.0)
    sims[vectors.rows < 0] = oov_similarity
    sims[target] = 1.0
    return sims


class _Pool:
    """Nodes revealed so far and their similarities (a growing buffer), with ``value``: an
    upper bound of the similarity of the revealed nodes not visited yet -- exact unless
    ``stale`` (its node may have been visited since; then it is still an upper bound)."""

    def __init__(self):
        self.nodes = np.empty(1024, dtype=np.int64)
        self.sims = np.empty(1024, dtype=np.float64)
        self.size = 0
        self.value = -np.inf
        self.stale = False

    def refresh(self, pos: np.ndarray) -> None:
        self.value = self.bound(pos)
        self.stale = False

    def add(self, nodes: np.ndarray, sims: np.ndarray) -> None:
        e0, e1 = self.size, self.size + nodes.size
        if e1 > self.nodes.size:
            size = max(2 * self.nodes.size, e1)
            for name in ("nodes", "sims"):
                old = getattr(self, name)
                new = np.empty(size, dtype=old.dtype)
                new[:e0] = old[:e0]
                setattr(self, name, new)
        self.nodes[e0:e1] = nodes
        self.sims[e0:e1] = sims
        self.size = e1
        if sims.size:
            self.value = max(self.value, float(sims.max()))

    def bound(self, pos: np.ndarray) -> float:
        """Highest similarity of a revealed node not visited yet (-inf if none)."""
        if self.size == 0:
            return -np.inf
        s = self.sims[:self.size][pos[self.nodes[:self.size]] < 0]
        return float(s.max()) if s.size else -np.inf


class GreedyAgent:
    """The WALES agent with decision parameter ``gamma``.

    Parameters
    ----------
    gamma : float in [0, 1]
        Penalty per link of the detour to a candidate (0: best candidate anywhere in the
        revealed subgraph; 1: essentially the best unvisited out-link).
    max_steps : int
        A navigation that has not reached the target after this many links fails (score 0).
    oov_similarity : float in [-1, 1]
        Similarity used for nodes whose title has no vector.
    fast_path : bool
        Take the shortcut described in :meth:`navigate` where it provably picks the same node
        as the full rule (on by default; ``False`` always runs the full rule, for checking).
    neighbour_first : bool
        Reproduce the authors' published code instead of the paper's rule: with gamma = 1,
        always move to the best unvisited out-link when one exists, even when a deeper
        candidate scores higher (they differ only when every unvisited out-link has a
        cosine <= 0). Off by default.

    Examples
    --------
    >>> from wordgames.wales.titles import NodeVectors
    >>> g = DiGraph.from_edges([0, 0, 1, 2], [1, 2, 3, 3])
    >>> nv = NodeVectors(np.arange(4), np.array([[1, 0], [0.6, 0.8], [0.8, 0.6], [0, 1]]))
    >>> nav = GreedyAgent(gamma=1.0).navigate(g, nv, 0, 3, record_path=True)
    >>> nav.path, nav.n_steps, nav.success
    ([0, 1, 3], 2, True)
    """

    def __init__(self, gamma: float = 1.0, max_steps: int = 100, oov_similarity: float = -1.0,
                 fast_path: bool = True, neighbour_first: bool = False):
        if not 0.0 <= gamma <= 1.0:
            raise ValueError(f"gamma must lie in [0, 1], got {gamma}")
        if max_steps < 1:
            raise ValueError("max_steps must be at least 1")
        if not -1.0 <= oov_similarity <= 1.0:
            raise ValueError("oov_similarity must lie in [-1, 1]")
        self.gamma = float(gamma)
        self.max_steps = int(max_steps)
        self.oov_similarity = float(oov_similarity)
        self.fast_path = bool(fast_path)
        self.neighbour_first = bool(neighbour_first)
        self._pos: np.ndarray | None = None

    def get_params(self) -> dict:
        return {"gamma": self.gamma, "max_steps": self.max_steps,
                "oov_similarity": self.oov_similarity, "fast_path": self.fast_path,
                "neighbour_first": self.neighbour_first}

    def __repr__(self) -> str:
        return "GreedyAgent(" + ", ".join(f"{k}={v!r}" for k, v in self.get_params().items()) + ")"

    def _similarity_function(self, graph: DiGraph, vectors: NodeVectors, target: int):
        if graph.n_nodes * vectors.unit.shape[1] <= _FULL_SIMS_LIMIT:
            return target_similarities(vectors, target, self.oov_similarity).__getitem__
        tr = int(vectors.rows[target])
        if tr < 0:
            raise ValueError(f"target node {target} has no vector: such tasks must be excluded")
        ut = vectors.unit[tr]
        oov = self.oov_similarity

        def sim_of(nodes):
            r = vectors.rows[nodes]
            s = np.clip((vectors.unit[r] @ ut).astype(np.float64), -1.0, 1.0)
            s[r < 0] = oov
            s[nodes == target] = 1.0
            return s

        return sim_of

    def navigate(self, graph: DiGraph, vectors: NodeVectors, source: int, target: int,
                 record_path: bool = False, *, _resume: tuple | None = None) -> Navigation:
        """Walk from ``source`` to ``target``.

        The fast path: the unvisited out-links of the current node are exactly the
        candidates with ``m = 1``. Every other candidate has ``m >= 2`` and was revealed by an
        earlier visited node u; it was an unvisited out-link of u when the agent stood at u,
        so it is in the pool of nodes revealed by earlier steps, and its cosine is at most
        ``seen``, the highest cosine of a pool node not visited yet (the batched runner keeps
        the same bound per task); its score is at most ``seen - 2 gamma``. If the best out-link scores
        ``best = max cos - gamma > seen - 2 gamma + 2 TIE_TOL``, every deeper candidate scores
        below ``best - TIE_TOL`` (the second TIE_TOL absorbs float64 rounding, ~1e-16), so
        the full rule's tie set (scores within ``TIE_TOL`` of its maximum, which is ``best``)
        holds only out-links, and the full rule's tie-break (target, then smallest m -- all 1
        here --, then smallest id) is applied to the same float64 scores ``cos - gamma * 1``:
        both pick the same node. In float64, ``cos - gamma * m <= seen - 2 gamma`` holds for
        ``m >= 2`` since rounding is monotone and ``2 gamma`` is exact. (At gamma = 1 the
        condition holds whenever some out-link's cosine exceeds ``seen - 1``, i.e. nearly
        always; at gamma = 0 only when an out-link beats every revealed unvisited node.)
        Otherwise the full rule runs on the revealed subgraph, whose visited-to-visited
        distances are kept up to date (see ``_Revealed``), so every ``m_i`` is one row lookup.
        """
        source, target = int(source), int(target)
        if self._pos is None or self._pos.size != graph.n_nodes:
            self._pos = np.full(graph.n_nodes, -1, dtype=np.int64)
        pos = self._pos
        if _resume is not None:
            sim_of = _resume[3].__getitem__
        else:
            sim_of = self._similarity_function(graph, vectors, target)
        gamma = self.gamma
        two_gamma = 2.0 * gamma
        indptr, indices = graph.indptr, graph.indices
        use_fast = self.fast_path or self.neighbour_first
        neighbour_first = self.neighbour_first and gamma == 1.0

        if _resume is None:
            visited, current, steps = [source], source, 0
        else:
            visited, current, steps = list(_resume[0]), int(_resume[1]), int(_resume[2])
            record_path = False
        pos[np.asarray(visited, dtype=np.int64)] = np.arange(len(visited))
        # every node revealed by an earlier step, with its similarity (visited ones are
        # masked out when the pool is read): bounds the cosine of any deeper candidate
        pool = _Pool()
        if len(visited) > 1:
            from wordgames.wales.graph import _gather

            earlier = _gather(indptr, indices, np.asarray(visited[:-1], dtype=np.int64))
            earlier = earlier[pos[earlier] < 0]
            pool.add(earlier, sim_of(earlier))
            pool.refresh(pos)
        path = [source] if record_path else None
        state: _Revealed | None = None
        n_general, reason = 0, "reached"
        try:
            while current != target:
                if steps >= self.max_steps:
                    reason = "step-cap"
                    break
                nxt = -1
                if use_fast:
                    nbrs = indices[indptr[current]:indptr[current + 1]]
                    cand = nbrs[pos[nbrs] < 0]
                    if cand.size:
                        sims = sim_of(cand)
                        j = int(sims.argmax())
                        score = sims - gamma
                        best = score[j]
                        fast = neighbour_first or best > pool.value - two_gamma + 2 * TIE_TOL
                        if not fast and pool.stale:  # retry with the exact bound
                            pool.refresh(pos)
                            fast = best > pool.value - two_gamma + 2 * TIE_TOL
                        pool.add(cand, sims)
                        # the node moved to (cosine >= c1 - TIE_TOL) may be the bound's node
                        pool.stale |= bool(sims[j] + TIE_TOL >= pool.value)
                        if fast:
                            tie = score >= best - TIE_TOL
                            if np.count_nonzero(tie) > 1:
                                tied = cand[tie]
                                nxt = target if (tied == target).any() else int(tied.min())
                            else:
                                nxt = int(cand[j])
                            m, via = 1, -1
                if nxt < 0:
                    n_general += 1
                    if state is not None and len(visited) - state.k > _CATCH_UP:
                        state = None  # many fast steps since: rebuilding is cheaper
                    if state is None:
                        state = _Revealed.from_visited(graph, sim_of, pos, visited, self.max_steps + 2)
                    for v in visited[state.k:]:  # nodes visited by fast steps since
                        state.add(v)
                    nxt, m, via, par = state.choose(current, target, gamma, record_path)
                    pool.stale = True
                    if nxt < 0:
                        reason = "stuck"
                        break
                steps += m
                if record_path:
                    if via >= 0:
                        hops = _Revealed.walk(par, int(pos[current]), via)[1:]
                        path.extend(visited[i] for i in hops)
                    path.append(nxt)
                if steps > self.max_steps:
                    reason = "step-cap"
                    break
                pos[nxt] = len(visited)
                visited.append(nxt)
                if state is not None and via >= 0:  # keep up after full-rule steps only
                    state.add(nxt)
                current = nxt
        finally:
            pos[np.asarray(visited, dtype=np.int64)] = -1
        return Navigation(source, target, reason == "reached", steps, reason, path, n_general)

    def run(self, graph: DiGraph, vectors: NodeVectors, sources, targets, *,
            lockstep: bool | None = None) -> dict:
        """Navigate many tasks; returns arrays ``success``, ``n_steps`` and ``reason``.

        On graphs small enough (``n_nodes * n_tasks`` booleans in memory), the fast-path steps
        of all tasks run together, one numpy pass per step over every task's out-links; a task
        whose step needs the full rule leaves the batch and is finished alone from where it
        stands. The result is the same as navigating each task alone (tested).
        """
        sources = np.asarray(sources, dtype=np.int64)
        targets = np.asarray(targets, dtype=np.int64)
        n_tasks = sources.size
        success = np.zeros(n_tasks, dtype=bool)
        n_steps = np.zeros(n_tasks, dtype=np.int64)
        reason = np.empty(n_tasks, dtype=object)
        general = 0
        if lockstep is None:
            lockstep = (self.fast_path and not self.neighbour_first
                        and graph.n_nodes * vectors.unit.shape[1] <= _FULL_SIMS_LIMIT)
        resume: dict[int, tuple] = {}
        if lockstep and n_tasks:
            chunk = max(1, _LOCKSTEP_CELLS // max(1, graph.n_nodes))
            for lo in range(0, n_tasks, chunk):
                sl = slice(lo, lo + chunk)
                done, st, rs, res = self._lockstep(graph, vectors, sources[sl], targets[sl])
                idx = np.arange(lo, min(lo + chunk, n_tasks))
                success[idx[done]] = st[done] == 0
                n_steps[idx] = rs
                reason[idx[done]] = np.where(st[done] == 0, "reached", "step-cap")
                for i, state in res.items():
                    resume[int(idx[i])] = state
            todo = sorted(resume)
        else:
            todo = range(n_tasks)
        for i in todo:
            nav = self.navigate(graph, vectors, int(sources[i]), int(targets[i]),
                                _resume=resume.get(i))
            success[i], n_steps[i], reason[i] = nav.success, nav.n_steps, nav.reason
            general += nav.n_general_steps
        return {"success": success, "n_steps": n_steps, "reason": reason,
                "n_general_steps": general, "n_left_batch": len(resume)}

    def _lockstep(self, graph: DiGraph, vectors: NodeVectors, sources, targets):
        """Fast-path steps of many tasks at once.

        Returns ``done`` (bool per task), ``status`` (0 reached, 1 step cap), ``steps`` and
        ``resume``: {task: (visited list, current, steps, similarities)} for tasks that need
        the full rule.
        """
        b = sources.size
        n = graph.n_nodes
        gamma, two_gamma = self.gamma, 2.0 * self.gamma
        # the scores cos - gamma of every node for every task, flat (task * n + node)
        sims = np.empty((b, n), dtype=np.float64)
        for i, t in enumerate(targets.tolist()):  # the same numbers navigate() uses
            sims[i] = target_similarities(vectors, t, self.oov_similarity)
        sim_flat = sims.ravel()
        score_flat = (sims - gamma).ravel()
        # per task: nodes revealed so far, and the best cosine among those not visited yet
        # (a bound whose node has been visited is stale: still an upper bound, recomputed
        # only when a task's test fails with it)
        revealed = np.zeros(b * n, dtype=bool)
        bound = np.full(b, -np.inf)
        stale = np.zeros(b, dtype=bool)
        visited = np.zeros(b * n, dtype=bool)
        base = np.arange(b, dtype=np.int64) * n
        order = np.full((b, self.max_steps + 1), -1, dtype=np.int64)
        visited[base + sources] = True
        order[:, 0] = sources
        current = sources.copy()
        steps = np.zeros(b, dtype=np.int64)
        status = np.full(b, -1, dtype=np.int64)  # -1 running, 0 reached, 1 cap, 2 left batch
        status[current == targets] = 0
        resume = {}
        indptr, indices = graph.indptr, graph.indices
        active = np.flatnonzero(status < 0)
        while active.size:
            capped = steps[active] >= self.max_steps
            if capped.any():
                status[active[capped]] = 1
                active = active[~capped]
                if active.size == 0:
                    break
            cur = current[active]
            starts = indptr[cur]
            lens = indptr[cur + 1] - starts
            offsets = np.cumsum(lens) - lens
            flat = np.repeat(starts - offsets, lens) + np.arange(int(offsets[-1] + lens[-1]))
            owner = np.repeat(np.arange(active.size), lens)
            cell = base[active][owner] + indices[flat]
            keep = ~visited[cell]
            cell, owner = cell[keep], owner[keep]
            score = score_flat[cell]
            best = np.full(active.size, -np.inf)
            c1 = np.full(active.size, -np.inf)
            if owner.size:
                seg = np.flatnonzero(np.r_[True, owner[1:] != owner[:-1]])
                best[owner[seg]] = np.maximum.reduceat(score, seg)
                c1[owner[seg]] = np.maximum.reduceat(sim_flat[cell], seg)
            # the same test as navigate(); no unvisited out-link: best = -inf
            ok = best > bound[active] - two_gamma + 2 * TIE_TOL
            redo = np.flatnonzero(~ok & stale[active] & (best > -np.inf))
            if redo.size:
                rows = active[redo]
                rv = revealed.reshape(b, n)[rows] & ~visited.reshape(b, n)[rows]
                bound[rows] = np.where(rv, sims[rows], -np.inf).max(axis=1)
                stale[rows] = False
                ok[redo] = best[redo] > bound[rows] - two_gamma + 2 * TIE_TOL
            revealed[cell] = True
            bound[active] = np.maximum(bound[active], c1)
            if not ok.all():
                leave = active[~ok]
                status[leave] = 2
                for t in leave.tolist():
                    resume[t] = (order[t, :steps[t] + 1].tolist(), int(current[t]), int(steps[t]),
                                 sims[t])
                if not ok.any():
                    break
            sel = np.flatnonzero(ok[owner] & (score >= best[owner] - TIE_TOL))
            o = owner[sel]
            node = cell[sel] - base[active][o]
            key = np.where(node == targets[active][o], -1, node)  # the target wins ties
            seg = np.flatnonzero(np.r_[True, o[1:] != o[:-1]])
            nxt = np.minimum.reduceat(key, seg)
            moved = active[o[seg]]
            nxt = np.where(nxt == -1, targets[moved], nxt)
            steps[moved] += 1
            current[moved] = nxt
            visited[base[moved] + nxt] = True
            order[moved, steps[moved]] = nxt
            status[moved[nxt == targets[moved]]] = 0
            active = moved[nxt != targets[moved]]
            stale[moved[sims[moved, nxt] >= bound[moved]]] = True
        done = status <= 1
        return done, status, steps, resume
