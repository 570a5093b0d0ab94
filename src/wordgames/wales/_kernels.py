"""The compiled kernels of :mod:`wordgames.wales.lockstep` (numba, cached on disk).

Imported only when the batched runner searches deeper than a current node's out-links:
importing numba takes a fraction of a second. Each kernel makes the comparisons of the numpy
code it replaced in the same float64 operations, so every choice comes out the same
(``tests/wales/test_lockstep.py`` checks the walks against the plain rule).
"""

from __future__ import annotations

import numba
import numpy as np

jit = numba.njit(nogil=True, cache=True, error_model="numpy")


@jit
def link_bits(inn, pos, base, indptr, indices, rindptr, rindices, task, num, node):
    """The revealed edges at visited node ``node[i]`` (number ``num[i]``) of task ``task[i]``.

    ``inn[t, j]`` holds bit ``i`` when visited number ``i`` links to visited number ``j``: the
    node's in-links from visited nodes (read from the reverse graph ``rindptr, rindices``) and
    its out-links to visited nodes (``indptr, indices``). ``pos`` (flat, ``base[t] + node``)
    must already number the node. Repeats are ORed, so a node may be given twice.
    """
    one = np.uint64(1)
    for i in range(task.shape[0]):
        t, k, v = task[i], num[i], node[i]
        b0 = base[t]
        for e in range(rindptr[v], rindptr[v + 1]):
            p = pos[b0 + rindices[e]]
            if p >= 0:
                inn[t, k, p >> 6] |= one << np.uint64(p & 63)
        kbit = one << np.uint64(k & 63)
        for e in range(indptr[v], indptr[v + 1]):
            p = pos[b0 + indices[e]]
            if p >= 0:
                inn[t, p, k >> 6] |= kbit


@jit
def refresh_tops(top, stale, order, pos, sims, base, indptr, indices, task, num):
    """Make the top of visited number ``num[i]`` of task ``task[i]`` exact and not stale.

    The best similarity among its unvisited out-links (``-inf`` when none), the maximum the
    numpy segment max took (a maximum is exact in any order).
    """
    for i in range(task.shape[0]):
        t, u = task[i], num[i]
        v, b0 = order[t, u], base[t]
        best = -np.inf
        for e in range(indptr[v], indptr[v + 1]):
            c = b0 + indices[e]
            if pos[c] < 0:
                best = max(best, sims[c])
        top[t, u] = best
        stale[t, u] = False


@jit
def search_levels(inn, top, stale, task, slot, cur, k, best, dist, gamma, tol2):
    """Breadth-first distances from each task's current node over its ``inn`` bitsets, pruned.

    Task ``task[i]`` writes row ``slot[i]`` of ``dist`` and raises ``best[slot[i]]``. Level 1 is
    expanded unconditionally (its bound was tested by the caller on the tops before they were
    refreshed); each later level only while an unreached node's top, less ``gamma * (level +
    1)``, can come within ``tol2`` of the best score so far. Only exact (not stale) tops raise
    the best score.
    """
    words = inn.shape[2]
    front = np.zeros(words, dtype=np.uint64)
    new = np.zeros(words, dtype=np.uint64)
    reached = np.zeros(words, dtype=np.uint64)
    one = np.uint64(1)
    for i in range(task.shape[0]):
        t, s, kk = task[i], slot[i], k[i]
        front[:] = 0
        reached[:] = 0
        c = cur[i]
        front[c >> 6] = one << np.uint64(c & 63)
        reached[c >> 6] = front[c >> 6]
        level = 1
        while True:
            m = gamma * (level + 1)
            if level > 1:
                upper = -np.inf
                for u in range(kk):
                    if not reached[u >> 6] & (one << np.uint64(u & 63)):
                        upper = max(upper, top[t, u])
                if upper == -np.inf or upper - m < best[s] - tol2:
                    break
            new[:] = 0
            found = -np.inf
            hit_any = False
            for u in range(kk):
                ubit = one << np.uint64(u & 63)
                if reached[u >> 6] & ubit:
                    continue
                for w in range(words):
                    if inn[t, u, w] & front[w]:
                        new[u >> 6] |= ubit
                        dist[s, u] = level
                        hit_any = True
                        if not stale[t, u]:
                            found = max(found, top[t, u])
                        break
            if not hit_any:
                break
            best[s] = max(best[s], found - m)
            for w in range(words):
                reached[w] |= new[w]
                front[w] = new[w]
            level += 1
