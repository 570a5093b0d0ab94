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

from wordgames.exact import dots
from wordgames.params import Params
from wordgames.wales.graph import DiGraph
from wordgames.wales.lockstep import TIE_TOL
from wordgames.wales.titles import NodeVectors

# precompute every node's similarity to the target when that costs less than this many
# multiply-adds; else similarities are computed only for the candidates seen
_FULL_SIMS_LIMIT = 2_000_000
# memory of one batch of the batched runner (similarities and visited numbers per node)
_LOCKSTEP_BYTES = 160_000_000
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
    def from_visited(
        cls, graph: DiGraph, sim_of, pos: np.ndarray, visited: list[int], capacity: int
    ) -> _Revealed:
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
            adj[: self.adj.shape[0], : self.adj.shape[1]] = self.adj
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
                arr[: keep.size] = arr[keep]
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

    def distances(
        self,
        start: int,
        need: np.ndarray | None = None,
        parents: bool = False,
        max_depth: int | None = None,
    ):
        """BFS over the visited nodes from visited number ``start``.

        Stops early once every visited number in ``need`` is reached, or after ``max_depth`` levels.
        Unreached: ``_INF``.
        """
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
        """Best candidate as (node, m, visited number of the node before it, BFS parents).

        Or (-1, 0, -1, None) when no unvisited node is reachable in the revealed subgraph.

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
    """cos(f(v), f(target)) for every node v, float64, clipped to [-1, 1].

    ``oov_similarity`` for nodes without a vector; exactly 1 for the target. (The one definition
    every code path uses, so fast and full paths compare identical numbers.)
    """
    tr = int(vectors.rows[target])
    if tr < 0:
        raise ValueError(f"target node {target} has no vector: such tasks must be excluded")
    sims = np.clip(dots(vectors.node_matrix64(), vectors.unit[tr]), -1.0, 1.0)  # exact
    sims[vectors.rows < 0] = oov_similarity
    sims[target] = 1.0
    return sims


def outcome_arrays(n_tasks: int, reason: str | None = None) -> dict:
    """What an agent's ``run`` fills for ``n_tasks`` tasks: ``success``, ``n_steps``, ``reason``."""
    return {
        "success": np.zeros(n_tasks, dtype=bool),
        "n_steps": np.zeros(n_tasks, dtype=np.int64),
        "reason": np.full(n_tasks, reason, dtype=object),
    }


def similarity_rows(vectors: NodeVectors, targets, oov_similarity: float) -> np.ndarray:
    """``target_similarities`` of each target, one row each (float64, targets x nodes).

    The rows are the very numbers :func:`target_similarities` gives: the products are exact
    (grid vectors, :mod:`wordgames.exact`), so one matrix product for a block of targets
    gives each the same bits as its own matrix-vector product. They run on one BLAS thread
    (on a busy machine BLAS threads mostly wait for one another).
    """
    from wordgames.blas import single_threaded_blas

    targets = np.asarray(targets, dtype=np.int64)
    tr = vectors.rows[targets] if targets.size else np.zeros(0, dtype=np.int64)
    if (tr < 0).any():
        bad = int(targets[np.flatnonzero(tr < 0)[0]])
        raise ValueError(f"target node {bad} has no vector: such tasks must be excluded")
    sims = np.empty((targets.size, vectors.rows.size), dtype=np.float64)
    m64, step = vectors.node_matrix64(), 1024
    with single_threaded_blas():
        for a in range(0, targets.size, step):  # blocks of targets: a few products
            sims[a : a + step] = dots(vectors.unit[tr[a : a + step]], m64)
    np.clip(sims, -1.0, 1.0, out=sims)
    sims[:, vectors.rows < 0] = oov_similarity
    sims[np.arange(targets.size), targets] = 1.0
    return sims


class _Pool:
    """Nodes revealed so far and their similarities (a growing buffer), with ``value``.

    ``value`` is an upper bound of the similarity of the revealed nodes not visited yet -- exact
    unless ``stale`` (its node may have been visited since; then it is still an upper bound).
    """

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
        s = self.sims[: self.size][pos[self.nodes[: self.size]] < 0]
        return float(s.max()) if s.size else -np.inf


@dataclass
class _Move:
    """The next node and the links ``m`` it takes.

    With the full rule only, also the visited number of the node before it and the BFS parents, to
    record the walk back through visited pages.
    """

    node: int
    m: int = 1
    via: int = -1
    parents: np.ndarray | None = None


@dataclass
class _Walk:
    """Where one navigation stands."""

    visited: list[int]
    current: int
    steps: int = 0
    path: list[int] | None = None
    n_general: int = 0
    reason: str = "reached"


class _FullRule:
    """The full rule over the revealed subgraph.

    Its state (``_Revealed``) is built on the first step that needs it and kept up to date, or
    rebuilt after many fast steps.
    """

    def __init__(self, graph: DiGraph, sim_of, pos: np.ndarray, capacity: int):
        self.graph, self.sim_of, self.pos, self.capacity = graph, sim_of, pos, capacity
        self.state: _Revealed | None = None

    def choose(self, walk: _Walk, target: int, gamma: float) -> _Move | None:
        state = self.state
        if state is not None and len(walk.visited) - state.k > _CATCH_UP:
            state = None  # many fast steps since: rebuilding is cheaper
        if state is None:
            state = _Revealed.from_visited(
                self.graph, self.sim_of, self.pos, walk.visited, self.capacity
            )
        for v in walk.visited[state.k :]:  # nodes visited by fast steps since
            state.add(v)
        self.state = state
        nxt, m, via, par = state.choose(walk.current, target, gamma, walk.path is not None)
        return None if nxt < 0 else _Move(nxt, m, via, par)

    def visited(self, node: int) -> None:
        """Keep up after a full-rule step (fast steps are caught up in :meth:`choose`)."""
        self.state.add(node)


class GreedyAgent(Params):
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
    >>> GreedyAgent(gamma=0.5).get_params()["gamma"]
    0.5
    """

    def __init__(
        self,
        gamma: float = 1.0,
        max_steps: int = 100,
        oov_similarity: float = -1.0,
        fast_path: bool = True,
        neighbour_first: bool = False,
    ):
        _check_params(gamma, max_steps, oov_similarity)  # fail at construction, set nothing
        self.gamma = gamma
        self.max_steps = max_steps
        self.oov_similarity = oov_similarity
        self.fast_path = fast_path
        self.neighbour_first = neighbour_first

    def _similarity_function(self, graph: DiGraph, vectors: NodeVectors, target: int):
        oov = float(self.oov_similarity)
        if graph.n_nodes * vectors.unit.shape[1] <= _FULL_SIMS_LIMIT:
            return target_similarities(vectors, target, oov).__getitem__
        tr = int(vectors.rows[target])
        if tr < 0:
            raise ValueError(f"target node {target} has no vector: such tasks must be excluded")
        ut = vectors.unit[tr]

        def sim_of(nodes):
            r = vectors.rows[nodes]
            s = np.clip(dots(vectors.unit[r], ut), -1.0, 1.0)
            s[r < 0] = oov
            s[nodes == target] = 1.0
            return s

        return sim_of

    def navigate(
        self,
        graph: DiGraph,
        vectors: NodeVectors,
        source: int,
        target: int,
        record_path: bool = False,
    ) -> Navigation:
        """Walk from ``source`` to ``target``.

        The fast path: the unvisited out-links of the current node are exactly the
        candidates with ``m = 1``. Every other candidate has ``m >= 2`` and was revealed by an
        earlier visited node u; it was an unvisited out-link of u when the agent stood at u,
        so it is in the pool of nodes revealed by earlier steps, and its cosine is at most
        ``seen``, the highest cosine of a pool node not visited yet (the batched runner's
        level-by-level search makes the same test, :mod:`wordgames.wales.lockstep`); its
        score is at most ``seen - 2 gamma``. If the best out-link scores
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
        _check_params(self.gamma, self.max_steps, self.oov_similarity)
        source, target = int(source), int(target)
        sim_of = self._similarity_function(graph, vectors, target)
        pos = np.full(graph.n_nodes, -1, dtype=np.int64)
        walk = _Walk([source], source, path=[source] if record_path else None)
        return self._walk(graph, sim_of, pos, target, walk)

    def _walk(
        self, graph: DiGraph, sim_of, pos: np.ndarray, target: int, walk: _Walk
    ) -> Navigation:
        """Go on with ``walk`` until the target, the step cap or a dead end.

        ``pos`` (node -> visited number, -1 elsewhere) is scratch space, all -1 again on return.
        """
        use_fast = self.fast_path or self.neighbour_first
        rule = _FullRule(graph, sim_of, pos, int(self.max_steps) + 2)
        pos[np.asarray(walk.visited, dtype=np.int64)] = np.arange(len(walk.visited))
        pool = self._initial_pool(graph, sim_of, pos, walk.visited)
        try:
            while walk.current != target:
                if walk.steps >= self.max_steps:
                    walk.reason = "step-cap"
                    break
                move = (
                    self._fast_step(graph, sim_of, pos, pool, walk.current, target)
                    if use_fast
                    else None
                )
                if move is None:
                    walk.n_general += 1
                    move = rule.choose(walk, target, float(self.gamma))
                    pool.stale = True
                    if move is None:
                        walk.reason = "stuck"
                        break
                if not self._advance(walk, move, pos, rule):
                    walk.reason = "step-cap"
                    break
        finally:
            pos[np.asarray(walk.visited, dtype=np.int64)] = -1
        return Navigation(
            walk.visited[0],
            target,
            walk.reason == "reached",
            walk.steps,
            walk.reason,
            walk.path,
            walk.n_general,
        )

    @staticmethod
    def _initial_pool(graph: DiGraph, sim_of, pos: np.ndarray, visited: list[int]) -> _Pool:
        """Every node revealed by an earlier step, with its similarity.

        Visited ones are masked out when the pool is read. It bounds the cosine of any deeper
        candidate.
        """
        pool = _Pool()
        if len(visited) > 1:
            from wordgames.wales.graph import _gather

            earlier = _gather(graph.indptr, graph.indices, np.asarray(visited[:-1], dtype=np.int64))
            earlier = earlier[pos[earlier] < 0]
            pool.add(earlier, sim_of(earlier))
            pool.refresh(pos)
        return pool

    def _fast_step(
        self, graph: DiGraph, sim_of, pos: np.ndarray, pool: _Pool, current: int, target: int
    ) -> _Move | None:
        """The best unvisited out-link when it provably wins (see :meth:`navigate`), else ``None``.

        The out-links join the pool either way.
        """
        gamma = float(self.gamma)
        neighbour_first = bool(self.neighbour_first) and gamma == 1.0
        nbrs = graph.indices[graph.indptr[current] : graph.indptr[current + 1]]
        cand = nbrs[pos[nbrs] < 0]
        if not cand.size:
            return None
        sims = sim_of(cand)
        j = int(sims.argmax())
        score = sims - gamma
        best = score[j]
        two_gamma = 2.0 * gamma
        fast = neighbour_first or best > pool.value - two_gamma + 2 * TIE_TOL
        if not fast and pool.stale:  # retry with the exact bound
            pool.refresh(pos)
            fast = best > pool.value - two_gamma + 2 * TIE_TOL
        pool.add(cand, sims)
        # the node moved to (cosine >= c1 - TIE_TOL) may be the bound's node
        pool.stale |= bool(sims[j] + TIE_TOL >= pool.value)
        if not fast:
            return None
        tie = score >= best - TIE_TOL
        if np.count_nonzero(tie) > 1:
            tied = cand[tie]
            return _Move(target if (tied == target).any() else int(tied.min()))
        return _Move(int(cand[j]))

    def _advance(self, walk: _Walk, move: _Move, pos: np.ndarray, rule: _FullRule) -> bool:
        """Take ``move`` (its ``m`` links count); ``False`` when that passes the step cap."""
        walk.steps += move.m
        if walk.path is not None:
            if move.via >= 0:
                hops = _Revealed.walk(move.parents, int(pos[walk.current]), move.via)[1:]
                walk.path.extend(walk.visited[i] for i in hops)
            walk.path.append(move.node)
        if walk.steps > self.max_steps:
            return False
        pos[move.node] = len(walk.visited)
        walk.visited.append(move.node)
        if move.via >= 0:
            rule.visited(move.node)
        walk.current = move.node
        return True

    def run(
        self,
        graph: DiGraph,
        vectors: NodeVectors,
        sources,
        targets,
        *,
        lockstep: bool | None = None,
    ) -> dict:
        """Navigate many tasks; returns arrays ``success``, ``n_steps`` and ``reason``.

        On graphs small enough for every node's similarity to each target to be held, all
        tasks step together (:mod:`wordgames.wales.lockstep`: one numpy pass per step over all
        running tasks, the full rule included); else, and with ``lockstep=False``, each task is
        navigated alone by :meth:`navigate`'s rule. The result is the same (tested).
        ``n_general_steps`` counts the steps that searched beyond the current node's out-links.
        """
        _check_params(self.gamma, self.max_steps, self.oov_similarity)
        sources = np.asarray(sources, dtype=np.int64)
        targets = np.asarray(targets, dtype=np.int64)
        n_tasks = sources.size
        out = outcome_arrays(n_tasks)
        if lockstep is None:
            lockstep = (
                self.fast_path
                and not self.neighbour_first
                and graph.n_nodes * vectors.unit.shape[1] <= _FULL_SIMS_LIMIT
            )
        if lockstep and n_tasks:
            general = self._run_batched(graph, vectors, sources, targets, out)
            return {**out, "n_general_steps": general}
        pos = np.full(graph.n_nodes, -1, dtype=np.int64)
        general = 0
        for i in range(n_tasks):
            s, t = int(sources[i]), int(targets[i])
            nav = self._walk(
                graph, self._similarity_function(graph, vectors, t), pos, t, _Walk([s], s)
            )
            out["success"][i], out["n_steps"][i], out["reason"][i] = (
                nav.success,
                nav.n_steps,
                nav.reason,
            )
            general += nav.n_general_steps
        return {**out, "n_general_steps": general}

    def _run_batched(
        self, graph: DiGraph, vectors: NodeVectors, sources, targets, out: dict
    ) -> int:
        """Every task in batches (:class:`~wordgames.wales.lockstep.Lockstep`), filling ``out``.

        Returns the number of steps that searched beyond the current node's out-links.
        """
        from wordgames.wales.lockstep import REASONS, Lockstep, bytes_per_task

        oov = float(self.oov_similarity)
        chunk = max(1, _LOCKSTEP_BYTES // bytes_per_task(graph.n_nodes, int(self.max_steps)))
        general = 0
        for lo in range(0, sources.size, chunk):
            sl = slice(lo, lo + chunk)
            sims = similarity_rows(vectors, targets[sl], oov)  # the numbers navigate() uses
            batch = Lockstep(graph, sims, sources[sl], targets[sl], self.gamma, self.max_steps)
            batch.run()
            out["success"][sl] = batch.status == 0
            out["n_steps"][sl] = batch.steps
            out["reason"][sl] = REASONS[batch.status]
            general += batch.n_general
        return general


def _check_params(gamma, max_steps, oov_similarity) -> None:
    if not 0.0 <= gamma <= 1.0:
        raise ValueError(f"gamma must lie in [0, 1], got {gamma}")
    if max_steps < 1:
        raise ValueError("max_steps must be at least 1")
    if not -1.0 <= oov_similarity <= 1.0:
        raise ValueError("oov_similarity must lie in [-1, 1]")
