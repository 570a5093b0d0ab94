"""Compiled kernels (numba, cached on disk): Codenames counting and ClusterSender's k-means.

The counting kernels serve :mod:`wordgames.codenames.counting`. Imported only when Codenames senders are ranked or a ClusterSender chooses its cluster:
importing numba takes a fraction of a second. Every counting function repeats the float32
arithmetic of the agents (:class:`~wordgames.codenames.agents.BoardGeometry`,
``ExhaustiveSearchSender.tie_scores``, ``ClusterSender`` centroid keys) operation for
operation, so that every comparison comes out as in numpy; :func:`lloyd` is the only k-means.
"""

from __future__ import annotations

import numba
import numpy as np

#: columns per block: the rows that a group of splits reads stay in the level-2 cache, and
#: the work of each split per block (its views, calls and counts) is spread over many columns
#: (1024 to 2048 counted the human data 9% faster than 512 on a 2 MB cache; 256 25% slower)
BLOCK = 1024

#: for the arithmetic of the agents: ``fastmath=False`` said outright, for numba gives a
#: function that does not say its caller's fast-math flags, and a sum's order is its value
jit = numba.njit(nogil=True, cache=True, error_model="numpy", fastmath=False)
#: for loops that count: float32 counters of 0.0 and 1.0 are exact in any order (a block has
#: at most BLOCK columns), so their sums may be reordered into vector code; numba would widen
#: integer counters to int64, half the lanes. Numbers such a loop computes come from ``jit``
#: functions (which LLVM inlines with their own flags), never from its own arithmetic
count_jit = numba.njit(nogil=True, cache=True, error_model="numpy", fastmath={"reassoc"})


@jit
def scratch(n):
    """Work arrays for ``n`` columns (nearest red, count, nearest blue, sum, minimum, centroid).

    The first five are :func:`split_block`'s, the last :func:`centroid_block`'s.
    """
    f = np.float32
    return (
        np.empty(n, f),
        np.empty(n, np.int32),
        np.empty(n, f),
        np.empty(n, f),
        np.empty(n, f),
        np.empty(n, f),
    )


@jit
def red_max(mat, red, j0, n, m):
    """Closeness of the nearest red word (four rows a pass: a quarter of the stores)."""
    ninf = np.float32(-np.inf)
    for t in range(n):
        m[t] = ninf
    red_more(mat, red, 0, j0, n, m)


@jit
def red_max_from(mat, red, j0, n, m, start):
    """``m``: the maximum of ``start`` and the red rows (at least one). Exact in any order."""
    r0 = mat[red[0], j0 : j0 + n]
    for t in range(n):
        m[t] = max(start[t], r0[t])
    red_more(mat, red, 1, j0, n, m)


@jit
def red_more(mat, red, q, j0, n, m):
    """``m`` raised to the red rows from the ``q``-th, four rows a pass."""
    while q + 4 <= red.shape[0]:
        r0 = mat[red[q], j0 : j0 + n]
        r1 = mat[red[q + 1], j0 : j0 + n]
        r2 = mat[red[q + 2], j0 : j0 + n]
        r3 = mat[red[q + 3], j0 : j0 + n]
        for t in range(n):
            m[t] = max(max(max(m[t], r0[t]), max(r1[t], r2[t])), r3[t])
        q += 4
    while q < red.shape[0]:
        r0 = mat[red[q], j0 : j0 + n]
        for t in range(n):
            m[t] = max(m[t], r0[t])
        q += 1


@jit
def split_block(mat, blue, red, j0, n, m, cnt, bmax, tot, low):
    """Nearest red word, targets' count, sum and minimum, nearest blue word of columns."""
    ninf = np.float32(-np.inf)
    zero = np.float32(0.0)
    inf = np.float32(np.inf)
    red_max(mat, red, j0, n, m)
    for t in range(n):
        bmax[t] = ninf
        cnt[t] = 0
        tot[t] = zero
        low[t] = inf
    for q in range(blue.shape[0]):  # in the geometry's order: the same float32 sums
        row = mat[blue[q], j0 : j0 + n]
        for t in range(n):
            v = row[t]
            hit = v > m[t]
            bmax[t] = max(bmax[t], v)
            cnt[t] += np.int32(hit)
            tot[t] += v if hit else zero
            low[t] = min(low[t], v if hit else inf)


@jit
def tie_scores(code, n, m, cnt, bmax, tot, low, score):
    """ExhaustiveSearchSender.tie_scores of each column (lower is better), float32."""
    if code == 0:  # avg_blue_dist: minus the mean closeness of the targets
        for t in range(n):
            k = cnt[t]
            score[t] = -(tot[t] / np.float32(k)) if k >= 2 else -bmax[t]
    elif code == 1:  # max_blue_dist: minus the farthest target's closeness
        for t in range(n):
            score[t] = -low[t] if cnt[t] >= 2 else -bmax[t]
    elif code == 2:  # max_radius: the nearest red word's closeness
        for t in range(n):
            score[t] = m[t]
    elif code == 3:  # red_blue_diff
        for t in range(n):
            score[t] = m[t] - (low[t] if cnt[t] >= 2 else bmax[t])


@jit
def exhaustive_count(code, c, sv, n, col0, cnt, score):
    """Columns whose (-count, score) beat (-c, sv), and ties."""
    beats = 0
    ties = 0
    if code == 4:  # frequency: the column's row
        for t in range(n):
            k = cnt[t]
            s = np.float64(col0 + t)
            beats += (k > c) | ((k == c) & (s < sv))
            ties += (k == c) & (s == sv)
        return beats, ties
    sv32 = np.float32(sv)  # the clue's own float32 score: exact
    c32 = np.int32(c)
    for t in range(n):
        k = cnt[t]
        s = score[t]
        beats += (k > c32) | ((k == c32) & (s < sv32))
        ties += (k == c32) & (s == sv32)
    return beats, ties


@jit
def four_scores(n, m, cnt, bmax, tot, low, x):
    """The four tie-break scores of the default line-up (codes 0, 1, 2, 3) into ``x[code]``.

    Those of :func:`tie_scores`, computed once per split for all of its records.
    """
    for t in range(n):
        many = cnt[t] >= 2
        lo = low[t] if many else bmax[t]
        x[0, t] = -(tot[t] / np.float32(cnt[t])) if many else -bmax[t]
        x[1, t] = -lo
        x[2, t] = m[t]
        x[3, t] = m[t] - lo


@numba.njit(inline="always")
def _tie(b, tt, same, v, s):
    """A column of the clue's count: its beat (a lower score) and tie added to ``(b, tt)``."""
    one, zero = np.float32(1.0), np.float32(0.0)
    return b + (one if (same and v < s) else zero), tt + (one if (same and v == s) else zero)


@jit
def _add_counts(out, more, beats, ties):
    """Four scores' beats and ties (float32 counts) into ``out``, each beaten by ``more`` too."""
    for e in range(4):
        out[e, 0] += np.int64(beats[e]) + np.int64(more)
        out[e, 1] += np.int64(ties[e])


@count_jit
def four_direct(c, sv, n, cnt, x, out):
    """Columns that beat the clue for each of the default line-up's four scores, and ties.

    ``out[e]`` gets (beats, ties) for the scores ``x[e]`` (:func:`four_scores`) against the
    clue's count ``c`` and score ``sv[e]``. A column beats the clue with a higher count, or the
    same count and a lower score; it ties with the same count and an equal score. A NaN score
    is beaten by, and ties with, nothing (as no comparison with NaN is true): a NaN clue is
    beaten by the columns of a higher count only. Below two targets the first two scores are
    the same number (minus the nearest blue word's closeness), for the columns of the clue's
    count and for the clue itself, so their counts are counted once (the loop without them).
    """
    c32 = np.int32(c)
    one, z = np.float32(1.0), np.float32(0.0)
    s0, s1 = np.float32(sv[0]), np.float32(sv[1])
    s2, s3 = np.float32(sv[2]), np.float32(sv[3])
    mo = b0 = b1 = b2 = b3 = t0 = t1 = t2 = t3 = z
    two = c >= 2
    for t in range(n if two else 0):
        same = cnt[t] == c32
        mo += one if cnt[t] > c32 else z
        b0, t0 = _tie(b0, t0, same, x[0, t], s0)
        b1, t1 = _tie(b1, t1, same, x[1, t], s1)
        b2, t2 = _tie(b2, t2, same, x[2, t], s2)
        b3, t3 = _tie(b3, t3, same, x[3, t], s3)
    for t in range(0 if two else n):
        same = cnt[t] == c32
        mo += one if cnt[t] > c32 else z
        b0, t0 = _tie(b0, t0, same, x[0, t], s0)
        b2, t2 = _tie(b2, t2, same, x[2, t], s2)
        b3, t3 = _tie(b3, t3, same, x[3, t], s3)
    if not two:
        b1, t1 = b0, t0
    _add_counts(out, mo, (b0, b1, b2, b3), (t0, t1, t2, t3))


@numba.njit(inline="always")
def _blue_hit(v, mt, bx, c, s, lo):
    """One blue word's terms of a column: :func:`split_block`'s operations, with a float count."""
    h = v > mt
    zero = np.float32(0.0)
    return (
        max(bx, v),
        c + (np.float32(1.0) if h else zero),
        s + (v if h else zero),
        min(lo, v if h else np.float32(np.inf)),
    )


@jit
def _high_keys(c, s, lo, mt):
    """Scores of a column of two targets or more: its first, second and fourth."""
    return -(s / c), -lo, mt - lo


@numba.njit(inline="always")
def _four_hits(r0, r1, r2, r3, t, mt, bx, c, s, lo):
    """:func:`_blue_hit` of column ``t`` of four blue rows, in order."""
    bx, c, s, lo = _blue_hit(r0[t], mt, bx, c, s, lo)
    bx, c, s, lo = _blue_hit(r1[t], mt, bx, c, s, lo)
    bx, c, s, lo = _blue_hit(r2[t], mt, bx, c, s, lo)
    return _blue_hit(r3[t], mt, bx, c, s, lo)


@numba.njit(inline="always")
def _four_into(t, mt, bx, c, s, lo, cnt, x):
    """The four scores of :func:`four_scores` from one column's statistics."""
    many = c >= np.float32(2.0)
    lw = lo if many else bx
    cnt[t] = np.int32(c)
    x[0, t] = -(s / c) if many else -bx
    x[1, t] = -lw
    x[2, t] = mt
    x[3, t] = mt - lw


@jit
def _low_hit(v, mt, bx, c):
    """A blue word's terms for a clue of fewer than two targets: nearest blue word, count."""
    return max(bx, v), c + (np.float32(1.0) if v > mt else np.float32(0.0))


@jit
def _low_keys(mt, bx):
    """Scores of a column of fewer than two targets: its first (and second) and its fourth."""
    return -bx, mt - bx


@jit
def _high_hit(v, mt, c, s, lo):
    """A blue word's terms for a clue of two targets or more: count, sum, minimum."""
    h = v > mt
    return (
        c + (np.float32(1.0) if h else np.float32(0.0)),
        s + (v if h else np.float32(0.0)),
        min(lo, v if h else np.float32(np.inf)),
    )


@count_jit
def one_low(r0, r1, r2, r3, nbl, m, n, cc, sv, out):
    """:func:`four_direct` of a split's only record, its clue of count < 2, from the blue rows.

    Columns of a count other than the clue's beat it or not whatever their scores, and those
    of its count (below two) have the scores of a count below two: minus the nearest blue
    word's closeness, the nearest red word's, their difference. So only the nearest blue word
    and the count are needed. ``nbl`` blue rows (1 to 4) in ``r0``...
    """
    f = np.float32
    z, ninf, one = f(0.0), f(-np.inf), f(1.0)
    ccf, s0, s2, s3 = f(cc), f(sv[0]), f(sv[2]), f(sv[3])
    mo = b0 = t0 = b2 = t2 = b3 = t3 = z
    for t in range(n):
        mt = m[t]
        bx, c = _low_hit(r0[t], mt, ninf, z)
        if nbl > 1:
            bx, c = _low_hit(r1[t], mt, bx, c)
        if nbl > 2:
            bx, c = _low_hit(r2[t], mt, bx, c)
        if nbl > 3:
            bx, c = _low_hit(r3[t], mt, bx, c)
        same = c == ccf
        mo += one if c > ccf else z
        x0, x3 = _low_keys(mt, bx)
        b0, t0 = _tie(b0, t0, same, x0, s0)
        b2, t2 = _tie(b2, t2, same, mt, s2)
        b3, t3 = _tie(b3, t3, same, x3, s3)
    _add_counts(out, mo, (b0, b0, b2, b3), (t0, t0, t2, t3))


@count_jit
def one_high(r0, r1, r2, r3, nbl, m, n, cc, sv, out):
    """:func:`one_low` for a clue of count ``cc`` >= 2 (``nbl`` 2 to 4 blue rows).

    The columns of its count have two targets or more: their scores need the targets' sum and
    minimum, not the nearest blue word.
    """
    f = np.float32
    z, inf, one = f(0.0), f(np.inf), f(1.0)
    ccf, s0, s1, s2, s3 = f(cc), f(sv[0]), f(sv[1]), f(sv[2]), f(sv[3])
    mo = b0 = t0 = b1 = t1 = b2 = t2 = b3 = t3 = z
    for t in range(n):
        mt = m[t]
        c, s, lo = _high_hit(r0[t], mt, z, z, inf)
        c, s, lo = _high_hit(r1[t], mt, c, s, lo)
        if nbl > 2:
            c, s, lo = _high_hit(r2[t], mt, c, s, lo)
        if nbl > 3:
            c, s, lo = _high_hit(r3[t], mt, c, s, lo)
        same = c == ccf
        mo += one if c > ccf else z
        x0, x1, x3 = _high_keys(c, s, lo, mt)
        b0, t0 = _tie(b0, t0, same, x0, s0)
        b1, t1 = _tie(b1, t1, same, x1, s1)
        b2, t2 = _tie(b2, t2, same, mt, s2)
        b3, t3 = _tie(b3, t3, same, x3, s3)
    _add_counts(out, mo, (b0, b1, b2, b3), (t0, t1, t2, t3))


@jit
def blue4_scores(r0, r1, r2, r3, m, n, cnt, x):
    """:func:`blue4` with ``first`` and ``last``: four blue rows, straight to the scores.

    The same operations, in one loop of its own (fewer rows: :func:`blue1_scores` and on).
    """
    z, ninf, inf = np.float32(0.0), np.float32(-np.inf), np.float32(np.inf)
    for t in range(n):
        mt = m[t]
        bx, c, s, lo = _four_hits(r0, r1, r2, r3, t, mt, ninf, z, z, inf)
        _four_into(t, mt, bx, c, s, lo, cnt, x)


@jit
def blue1_scores(r0, m, n, cnt, x):
    """:func:`blue4_scores` of one blue row (no missing rows to go through)."""
    z, ninf, inf = np.float32(0.0), np.float32(-np.inf), np.float32(np.inf)
    for t in range(n):
        mt = m[t]
        bx, c, s, lo = _blue_hit(r0[t], mt, ninf, z, z, inf)
        _four_into(t, mt, bx, c, s, lo, cnt, x)


@jit
def blue2_scores(r0, r1, m, n, cnt, x):
    """:func:`blue4_scores` of two blue rows."""
    z, ninf, inf = np.float32(0.0), np.float32(-np.inf), np.float32(np.inf)
    for t in range(n):
        mt = m[t]
        bx, c, s, lo = _blue_hit(r0[t], mt, ninf, z, z, inf)
        bx, c, s, lo = _blue_hit(r1[t], mt, bx, c, s, lo)
        _four_into(t, mt, bx, c, s, lo, cnt, x)


@jit
def blue3_scores(r0, r1, r2, m, n, cnt, x):
    """:func:`blue4_scores` of three blue rows."""
    z, ninf, inf = np.float32(0.0), np.float32(-np.inf), np.float32(np.inf)
    for t in range(n):
        mt = m[t]
        bx, c, s, lo = _blue_hit(r0[t], mt, ninf, z, z, inf)
        bx, c, s, lo = _blue_hit(r1[t], mt, bx, c, s, lo)
        bx, c, s, lo = _blue_hit(r2[t], mt, bx, c, s, lo)
        _four_into(t, mt, bx, c, s, lo, cnt, x)


@jit
def blue4(r0, r1, r2, r3, m, n, first, last, cnt, bmax, tot, low, x):
    """:func:`split_block`'s blue pass over four blue rows, and :func:`four_scores` after the last.

    The blue rows go four at a time: ``first`` starts the statistics, else they are read from
    ``cnt``, ``bmax``, ``tot``, ``low``; ``last`` writes the four scores into ``x`` and the
    count into ``cnt``, else the statistics back. A missing row is a row of -inf, which changes
    nothing: never closer than the nearest red word, never the nearest blue word, nothing added
    to the sum. The operations are split_block's, in the geometry's order; the count is a
    float32 inside the loop (small integers, exact) so that its lanes stay 32 bits wide. One
    loop for each case, so that each is vector code; up to four rows, :func:`blue4_scores`.
    """
    z, ninf, inf = np.float32(0.0), np.float32(-np.inf), np.float32(np.inf)
    if first:
        for t in range(n):
            mt = m[t]
            bx, c, s, lo = _four_hits(r0, r1, r2, r3, t, mt, ninf, z, z, inf)
            bmax[t], cnt[t], tot[t], low[t] = bx, np.int32(c), s, lo
    else:
        for t in range(n):
            mt = m[t]
            bx, c, s, lo = bmax[t], np.float32(cnt[t]), tot[t], low[t]
            bx, c, s, lo = _four_hits(r0, r1, r2, r3, t, mt, bx, c, s, lo)
            if last:
                _four_into(t, mt, bx, c, s, lo, cnt, x)
            else:
                bmax[t], cnt[t], tot[t], low[t] = bx, np.int32(c), s, lo


@jit
def centroid_block(mat, rows, j0, n, acc):
    """ClusterSender's closeness to the centroid: the cluster's rows summed in order."""
    for t in range(n):
        acc[t] = np.float32(0.0)
    for q in range(rows.shape[0]):
        row = mat[rows[q], j0 : j0 + n]
        for t in range(n):
            acc[t] += row[t]


@count_jit
def centroid_count(acc, n, v):
    """Columns whose key ``-acc`` is below ``v`` (a float32 value), and ties."""
    v32 = np.float32(v)
    one = np.float32(1.0)
    zero = np.float32(0.0)
    beats = zero
    ties = zero
    for t in range(n):
        key = -acc[t]
        beats += one if key < v32 else zero
        ties += one if key == v32 else zero
    return np.int64(beats), np.int64(ties)


@jit
def _centroid_sum(v0, v1, v2, v3, nr):
    """A column's sum of its first ``nr`` cluster rows (1 to 4), in order: :func:`centroid_block`."""
    acc = np.float32(0.0) + v0
    if nr > 1:
        acc += v1
    if nr > 2:
        acc += v2
    if nr > 3:
        acc += v3
    return acc


@count_jit
def centroid_direct(mat, rows, j0, n, v):
    """:func:`centroid_block` then :func:`centroid_count`, for up to four cluster rows."""
    nr = rows.shape[0]
    r0 = mat[rows[0], j0 : j0 + n]
    r1 = mat[rows[min(1, nr - 1)], j0 : j0 + n]
    r2 = mat[rows[min(2, nr - 1)], j0 : j0 + n]
    r3 = mat[rows[min(3, nr - 1)], j0 : j0 + n]
    v32 = np.float32(v)
    one, zero = np.float32(1.0), np.float32(0.0)
    beats = ties = zero
    for t in range(n):
        key = -_centroid_sum(r0[t], r1[t], r2[t], r3[t], nr)
        beats += one if key < v32 else zero
        ties += one if key == v32 else zero
    return np.int64(beats), np.int64(ties)


@jit
def count_columns(mat, col0, j_start, j_stop, sp, bp, bi, rp, ri, codes, rec_c, rec_v,
                  cp, ci, four, gs, gp, gi, ep, ei, beats, ties):  # fmt: skip
    """Counts over columns ``j_start:j_stop`` for every record of the batch and every slot.

    Split ``s`` has the records ``sp[s]:sp[s+1]``, blue rows ``bi[bp[s]:bp[s+1]]``, red rows
    ``ri[rp[s]:rp[s+1]]`` and, for cluster slot ``q``, the rows ``ci[cp[k]:cp[k+1]]`` with
    ``k = s * n_cluster + q``. ``four``: the first four codes are 0, 1, 2 and 3. The default
    line-up reads the red rows by group (:func:`wordgames.codenames.counting._red_groups`):
    split ``s`` is in group ``gs[s]``, of common rows ``gi[gp[g]:gp[g+1]]``, and has its
    others ``ei[ep[s]:ep[s+1]]``.

    One function, longer than most: numba passes every array as several numbers, a cost per
    call paid for every split of every block, and its own inlining of helpers made this
    loop 3-10% slower (measured on the human data).
    """
    nb = BLOCK
    m, cnt, bmax, tot, low, acc = scratch(nb)
    n_ex = codes.shape[0]
    n_cl = rec_v.shape[1]
    scores = np.empty((max(n_ex, 1), nb), np.float32)
    # the default line-up's four tie-breaks, once each, come first: one fused pass
    sv4 = np.empty(4, np.float64)
    out4 = np.zeros((4, 2), np.int64)
    x4 = np.empty((4, nb), np.float32)
    neg = np.full(nb, -np.inf, np.float32)  # a missing blue row of blue4
    fused = four and n_ex == 4  # the default line-up alone needs no statistics but its scores
    mc = np.empty(nb, np.float32)  # the nearest of the red words common to a group of splits
    for j0 in range(j_start, j_stop, nb):
        n = min(nb, j_stop - j0)
        cur = -1
        for s in range(sp.shape[0] - 1):
            blue = bi[bp[s] : bp[s + 1]]
            nbl = blue.shape[0]
            # a split's only record of up to four blue rows: counted straight from the rows
            one = fused and 0 < nbl <= 4 and sp[s + 1] - sp[s] == 1
            mm = m
            if fused and nbl:  # the group's common red words once, then the split's others
                gr = gs[s]
                if gr != cur:
                    red_max(mat, gi[gp[gr] : gp[gr + 1]], j0, n, mc)
                    cur = gr
                if ep[s + 1] > ep[s]:
                    red_max_from(mat, ei[ep[s] : ep[s + 1]], j0, n, m, mc)
                else:
                    mm = mc
                for g in range(0, 0 if one else nbl, 4):  # four blue rows a time, missing -inf
                    r0 = mat[blue[g], j0 : j0 + n]
                    r1 = mat[blue[g + 1], j0 : j0 + n] if g + 1 < nbl else neg[:n]
                    r2 = mat[blue[g + 2], j0 : j0 + n] if g + 2 < nbl else neg[:n]
                    r3 = mat[blue[g + 3], j0 : j0 + n] if g + 3 < nbl else neg[:n]
                    if nbl == 1:  # below four rows, no missing row is gone through
                        blue1_scores(r0, mm, n, cnt, x4)
                    elif nbl == 2:
                        blue2_scores(r0, r1, mm, n, cnt, x4)
                    elif nbl == 3:
                        blue3_scores(r0, r1, r2, mm, n, cnt, x4)
                    elif nbl == 4:
                        blue4_scores(r0, r1, r2, r3, mm, n, cnt, x4)
                    else:
                        blue4(r0, r1, r2, r3, mm, n, g == 0, g + 4 >= nbl, cnt, bmax, tot, low, x4)
            elif n_ex:
                split_block(mat, blue, ri[rp[s] : rp[s + 1]], j0, n, m, cnt, bmax, tot, low)
                if four:
                    four_scores(n, m, cnt, bmax, tot, low, x4)
            n_done = 0
            if four:  # the line-up's scores once (or none: one record), then each record
                for i in range(sp[s], sp[s + 1]):
                    for e in range(4):
                        sv4[codes[e]] = rec_v[i, e]
                    out4[:, :] = 0
                    if not one:
                        four_direct(rec_c[i, 0], sv4, n, cnt, x4, out4)
                    else:
                        r0 = mat[blue[0], j0 : j0 + n]
                        r1 = mat[blue[min(1, nbl - 1)], j0 : j0 + n]
                        r2 = mat[blue[min(2, nbl - 1)], j0 : j0 + n]
                        r3 = mat[blue[min(3, nbl - 1)], j0 : j0 + n]
                        if rec_c[i, 0] < 2:
                            one_low(r0, r1, r2, r3, nbl, mm, n, rec_c[i, 0], sv4, out4)
                        elif rec_c[i, 0] <= nbl:
                            one_high(r0, r1, r2, r3, nbl, mm, n, rec_c[i, 0], sv4, out4)
                    for e in range(4):
                        beats[i, e] += out4[codes[e], 0]
                        ties[i, e] += out4[codes[e], 1]
                n_done = 4
            for e in range(n_done, n_ex):
                tie_scores(codes[e], n, m, cnt, bmax, tot, low, scores[e])
                for i in range(sp[s], sp[s + 1]):
                    b, t_ = exhaustive_count(
                        codes[e], rec_c[i, e], rec_v[i, e], n, col0 + j0, cnt, scores[e]
                    )
                    beats[i, e] += b
                    ties[i, e] += t_
            for q in range(n_cl - n_ex):
                k = s * (n_cl - n_ex) + q
                rows = ci[cp[k] : cp[k + 1]]
                if sp[s + 1] - sp[s] == 1 and 0 < rows.shape[0] <= 4:  # one record: no sums kept
                    i = sp[s]
                    b, t_ = centroid_direct(mat, rows, j0, n, rec_v[i, n_ex + q])
                    beats[i, n_ex + q] += b
                    ties[i, n_ex + q] += t_
                    continue
                centroid_block(mat, rows, j0, n, acc)
                for i in range(sp[s], sp[s + 1]):
                    b, t_ = centroid_count(acc, n, rec_v[i, n_ex + q])
                    beats[i, n_ex + q] += b
                    ties[i, n_ex + q] += t_


@jit
def drop_columns(mat, col0, sp, bp, bi, rp, ri, codes, rec_c, rec_v, cp, ci, xp, xi, own,
                 e_lo, e_hi, beats, ties):  # fmt: skip
    """Take out of the counts the columns that may not be clues, and each clue itself.

    Slot ``e`` (of ``e_lo:e_hi``, the slots counted) of split ``s`` ignores the columns
    ``xi[xp[k]:xp[k+1]]`` (sorted, with ``k = s * n_slots + e``); record ``i`` also ignores
    its own column ``own[i]`` (-1: not in this slice). Each column's terms are computed by the
    block functions on that column alone: the same arithmetic.
    """
    m, cnt, bmax, tot, low, acc = scratch(1)
    score = np.empty(1, np.float32)
    n_ex = codes.shape[0]
    n_slots = rec_v.shape[1]
    n_cl = n_slots - n_ex
    for s in range(sp.shape[0] - 1):
        blue = bi[bp[s] : bp[s + 1]]
        red = ri[rp[s] : rp[s + 1]]
        for e in range(e_lo, e_hi):
            k = s * n_slots + e
            drop = xi[xp[k] : xp[k + 1]]
            for i in range(sp[s], sp[s + 1]):
                n_drop = drop.shape[0]
                o = own[i]
                if o >= 0 and not (n_drop and drop[np.searchsorted(drop, o) % n_drop] == o):
                    n_drop += 1
                for d in range(n_drop):
                    x = drop[d] if d < drop.shape[0] else o
                    if e < n_ex:
                        split_block(mat, blue, red, x, 1, m, cnt, bmax, tot, low)
                        tie_scores(codes[e], 1, m, cnt, bmax, tot, low, score)
                        b, t_ = exhaustive_count(
                            codes[e], rec_c[i, e], rec_v[i, e], 1, col0 + x, cnt, score
                        )
                    else:
                        kk = s * n_cl + e - n_ex
                        centroid_block(mat, ci[cp[kk] : cp[kk + 1]], x, 1, acc)
                        b, t_ = centroid_count(acc, 1, rec_v[i, e])
                    beats[i, e] -= b
                    ties[i, e] -= t_


@jit
def clue_values(mat, sp, bp, bi, rp, ri, codes, cp, ci, own, ex, rec_c, rec_v):
    """Each record's own keys, read off its clue's column ``own[i]`` (-1: another slice).

    ``ex``: the exhaustive slots (else the cluster slots, which need the clusters).
    """
    m, cnt, bmax, tot, low, acc = scratch(1)
    score = np.empty(1, np.float32)
    n_ex = codes.shape[0]
    n_cl = rec_v.shape[1] - n_ex
    for s in range(sp.shape[0] - 1):
        blue = bi[bp[s] : bp[s + 1]]
        red = ri[rp[s] : rp[s + 1]]
        for i in range(sp[s], sp[s + 1]):
            x = own[i]
            if x < 0:
                continue
            if ex and n_ex:
                split_block(mat, blue, red, x, 1, m, cnt, bmax, tot, low)
                for e in range(n_ex):
                    rec_c[i, e] = cnt[0]
                    if codes[e] == 4:
                        rec_v[i, e] = np.float64(
                            x
                        )  # the column; its vocabulary row is set by the caller
                    else:
                        tie_scores(codes[e], 1, m, cnt, bmax, tot, low, score)
                        rec_v[i, e] = np.float64(score[0])
            if not ex:
                for q in range(n_cl):
                    k = s * n_cl + q
                    centroid_block(mat, ci[cp[k] : cp[k + 1]], x, 1, acc)
                    rec_v[i, n_ex + q] = np.float64(-acc[0])


@jit
def blue_cluster_codes(labels, is_blue):
    """``(size, codes)``: the largest all-blue cluster size of any run and its member sets.

    Run ``r`` puts point ``i`` in cluster ``labels[r, i]``. A cluster is coded as the integer
    with bit ``n - 1 - i`` for each member ``i`` (so codes order as the rows of ``np.unique``
    on membership masks); the codes come back sorted and distinct. ``n`` is at most 62.
    """
    runs, n = labels.shape
    best = 0
    codes = np.empty(runs * n, np.int64)
    size = np.empty(n, np.int64)
    blue = np.empty(n, np.bool_)
    code = np.empty(n, np.int64)
    k = 0
    for r in range(runs):
        size[:] = 0
        blue[:] = True
        code[:] = 0
        for i in range(n):  # one pass over the points: each cluster's size, colour and code
            j = labels[r, i]
            size[j] += 1
            blue[j] = blue[j] and is_blue[i]
            code[j] |= np.int64(1) << (n - 1 - i)
        for j in range(n):
            if size[j] == 0 or not blue[j] or size[j] < best:
                continue
            if size[j] > best:
                best = size[j]
                k = 0
            codes[k] = code[j]
            k += 1
    return best, np.unique(codes[:k])


@jit
def kmeans_codes(x, xp, karr, kp, init, ip, max_iter, is_blue):
    """:func:`lloyd` and :func:`blue_cluster_codes` of many boards in one call.

    Board ``b`` has the points ``x[xp[b]:xp[b+1]]`` (blue where ``is_blue``), the runs
    ``karr[kp[b]:kp[b+1]]`` and their initial points ``init[ip[b]:ip[b+1]]`` (runs x the
    board's largest k, flat). Returns each board's largest all-blue size and its codes,
    ``codes[cp[b]:cp[b+1]]``.
    """
    n_boards = xp.shape[0] - 1
    best = np.zeros(n_boards, np.int64)
    cp = np.zeros(n_boards + 1, np.int64)
    parts = []
    for b in range(n_boards):
        n = xp[b + 1] - xp[b]
        runs = kp[b + 1] - kp[b]
        kmax = (ip[b + 1] - ip[b]) // max(runs, 1)
        labels = np.zeros((runs, n), np.int64)
        starts = init[ip[b] : ip[b + 1]].reshape(runs, kmax)
        lloyd(x[xp[b] : xp[b + 1]], karr[kp[b] : kp[b + 1]], starts, max_iter, labels)
        size, codes = blue_cluster_codes(labels, is_blue[xp[b] : xp[b + 1]])
        best[b] = size
        cp[b + 1] = cp[b] + codes.shape[0]
        parts.append(codes)
    out = np.empty(cp[-1], np.int64)
    for b in range(n_boards):
        out[cp[b] : cp[b + 1]] = parts[b]
    return best, out, cp


@jit
def lloyd(x, karr, init, max_iter, labels):
    """Lloyd's k-means, run ``r`` with ``karr[r]`` centres started at points ``init[r]``.

    Each centre is the mean of its points, so its products with the points are means of rows
    of the Gram matrix ``x x^T`` and its squared norm the mean of those products over its own
    points: an iteration costs ``n * n`` additions instead of ``n * k * d``. A run stops when
    no label changes (its centres would not move again) or after ``max_iter`` assignments; an
    empty cluster keeps its centre. Labels go to ``labels[r]``; ties go to the lower centre.
    """
    n, d = x.shape
    kmax = init.shape[1]
    g = np.empty((n, n))
    for i in range(n):
        for j in range(i, n):
            s = 0.0
            for t in range(d):
                s += x[i, t] * x[j, t]
            g[i, j] = s
            g[j, i] = s
    dots = np.empty((kmax, n))  # centre . point
    cc = np.empty(kmax)  # centre . centre
    count = np.empty(kmax, dtype=np.int64)
    new = np.empty(n, dtype=np.int64)
    for r in range(karr.shape[0]):
        k = karr[r]
        for c in range(k):
            p = init[r, c]
            for j in range(n):
                dots[c, j] = g[p, j]
            cc[c] = g[p, p]
        for it in range(max_iter):
            changed = it == 0
            for j in range(n):
                best, bc = np.inf, 0
                for c in range(k):
                    v = cc[c] - 2.0 * dots[c, j] + g[j, j]
                    if v < best:
                        best, bc = v, c
                new[j] = bc
                changed = changed or bc != labels[r, j]
            if not changed:
                break
            count[:k] = 0
            for j in range(n):
                labels[r, j] = new[j]
                count[new[j]] += 1
            for c in range(k):
                if count[c]:
                    dots[c, :] = 0.0
            for i in range(n):
                c = new[i]
                for j in range(n):
                    dots[c, j] += g[i, j]
            for c in range(k):
                if count[c]:
                    s = 0.0
                    for j in range(n):
                        dots[c, j] /= count[c]
                        if new[j] == c:
                            s += dots[c, j]
                    cc[c] = s / count[c]
