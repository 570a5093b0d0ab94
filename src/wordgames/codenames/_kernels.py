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

#: columns per block: a block of every board word's row stays in the level-2 cache
BLOCK = 512

jit = numba.njit(nogil=True, cache=True, error_model="numpy")


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
    q = 0
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
    zero = np.float32(0.0)  # + 0.0 turns -0.0 into 0.0 (equal in every comparison)
    for t in range(n):
        many = cnt[t] >= 2
        lo = low[t] if many else bmax[t]
        x[0, t] = (-(tot[t] / np.float32(cnt[t])) if many else -bmax[t]) + zero
        x[1, t] = -lo + zero
        x[2, t] = m[t] + zero
        x[3, t] = (m[t] - lo) + zero


@jit
def order_key(count, x):
    """An int64 that orders (count, -x) lexicographically: ``(count << 32) | rank of -x``.

    The rank of ``-x`` is 2**32 - 1 minus the float32's ordered bit pattern (a float's bits,
    sign-flipped, order as the floats do), so a higher count, then a lower ``x``, gives a
    larger key, and equal (count, x) equal keys: ``x + 0.0`` makes -0.0 the same as 0.0. A
    NaN gets rank 0 (no key of its count is smaller), so a NaN column never beats a finite
    clue of its count, as no comparison with NaN is true. Written without branches, so that
    the loop of :func:`four_keys` is vectorised.
    """
    y = np.float32(x + np.float32(0.0))
    u = np.int64(y.view(np.uint32))
    asc = u ^ (np.int64(0x80000000) + (u >> 31) * np.int64(0x7FFFFFFF))
    rank = np.int64(0xFFFFFFFF) - asc
    return (np.int64(count) << 32) | (rank if y == y else np.int64(0))


@jit
def four_keys(n, cnt, x, keys):
    """:func:`order_key` of the four scores ``x`` of every column into ``keys[code]``."""
    for e in range(4):
        for t in range(n):
            keys[e, t] = order_key(cnt[t], x[e, t])


@jit
def count_above(n, keys, key):
    """Columns whose key is above ``key`` (they beat the clue) and equal to it (ties)."""
    b = 0
    tt = 0
    for t in range(n):
        k = keys[t]
        b += k > key
        tt += k == key
    return b, tt


@jit
def default_four(c, sv, n, keys, out):
    """Columns whose (-count, score) beat the clue's (-c, ``sv[e]``), and ties.

    For the four scores' keys (:func:`four_keys`); ``out[e]`` gets (beats, ties). A clue whose
    score is NaN ties with none and is beaten by the columns of a higher count only.
    """
    for e in range(4):
        v = np.float32(sv[e])
        key = order_key(c, v) if v == v else (np.int64(c) << 32) | np.int64(0xFFFFFFFF)
        b, tt = count_above(n, keys[e], key)
        out[e, 0] += b
        out[e, 1] += tt


@jit
def default_four_direct(c, sv, n, cnt, x, out):
    """:func:`default_four` on the scores themselves: cheaper for a split of one or two records.

    The same counts (the comparisons of :func:`order_key`, made directly).
    """
    c32 = np.int32(c)
    s0, s1 = np.float32(sv[0]), np.float32(sv[1])
    s2, s3 = np.float32(sv[2]), np.float32(sv[3])
    b0 = b1 = b2 = b3 = t0 = t1 = t2 = t3 = 0
    for t in range(n):
        k = cnt[t]
        more = k > c32
        same = k == c32
        b0 += more | (same & (x[0, t] < s0))
        t0 += same & (x[0, t] == s0)
        b1 += more | (same & (x[1, t] < s1))
        t1 += same & (x[1, t] == s1)
        b2 += more | (same & (x[2, t] < s2))
        t2 += same & (x[2, t] == s2)
        b3 += more | (same & (x[3, t] < s3))
        t3 += same & (x[3, t] == s3)
    out[0, 0] += b0
    out[0, 1] += t0
    out[1, 0] += b1
    out[1, 1] += t1
    out[2, 0] += b2
    out[2, 1] += t2
    out[3, 0] += b3
    out[3, 1] += t3


#: records of a split from which the four scores are turned into keys first (:func:`four_keys`)
KEYED_FROM = 3


@jit
def centroid_block(mat, rows, j0, n, acc):
    """ClusterSender's closeness to the centroid: the cluster's rows summed in order."""
    for t in range(n):
        acc[t] = np.float32(0.0)
    for q in range(rows.shape[0]):
        row = mat[rows[q], j0 : j0 + n]
        for t in range(n):
            acc[t] += row[t]


@jit
def centroid_count(acc, n, v):
    """Columns whose key ``-acc`` is below ``v`` (a float32 value), and ties."""
    v32 = np.float32(v)
    beats = 0
    ties = 0
    for t in range(n):
        key = -acc[t]
        beats += key < v32
        ties += key == v32
    return beats, ties


@jit
def count_columns(mat, col0, j_start, j_stop, sp, bp, bi, rp, ri, codes, rec_c, rec_v,
                  cp, ci, four, beats, ties):  # fmt: skip
    """Counts over columns ``j_start:j_stop`` for every record of the batch and every slot.

    Split ``s`` has the records ``sp[s]:sp[s+1]``, blue rows ``bi[bp[s]:bp[s+1]]``, red rows
    ``ri[rp[s]:rp[s+1]]`` and, for cluster slot ``q``, the rows ``ci[cp[k]:cp[k+1]]`` with
    ``k = s * n_cluster + q``. ``four``: the first four codes are 0, 1, 2 and 3.
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
    k4 = np.empty((4, nb), np.int64)
    for j0 in range(j_start, j_stop, nb):
        n = min(nb, j_stop - j0)
        for s in range(sp.shape[0] - 1):
            if n_ex:
                blue = bi[bp[s] : bp[s + 1]]
                red = ri[rp[s] : rp[s + 1]]
                split_block(mat, blue, red, j0, n, m, cnt, bmax, tot, low)
            if four:  # the default line-up: its scores once, then one pass per record
                four_scores(n, m, cnt, bmax, tot, low, x4)
                keyed = sp[s + 1] - sp[s] >= KEYED_FROM  # keys pay for themselves from 3
                if keyed:
                    four_keys(n, cnt, x4, k4)
                for i in range(sp[s], sp[s + 1]):
                    for e in range(4):
                        sv4[codes[e]] = rec_v[i, e]
                    out4[:, :] = 0
                    if keyed:
                        default_four(rec_c[i, 0], sv4, n, k4, out4)
                    else:
                        default_four_direct(rec_c[i, 0], sv4, n, cnt, x4, out4)
                    for e in range(4):
                        beats[i, e] += out4[codes[e], 0]
                        ties[i, e] += out4[codes[e], 1]
                n_done = 4
            else:
                n_done = 0
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
                centroid_block(mat, ci[cp[k] : cp[k + 1]], j0, n, acc)
                for i in range(sp[s], sp[s + 1]):
                    b, t_ = centroid_count(acc, n, rec_v[i, n_ex + q])
                    beats[i, n_ex + q] += b
                    ties[i, n_ex + q] += t_


@jit
def drop_columns(mat, col0, sp, bp, bi, rp, ri, codes, rec_c, rec_v, cp, ci, xp, xi, own,
                 beats, ties):  # fmt: skip
    """Take out of the counts the columns that may not be clues, and each clue itself.

    Slot ``e`` of split ``s`` ignores the columns ``xi[xp[k]:xp[k+1]]`` (sorted, with
    ``k = s * n_slots + e``); record ``i`` also ignores its own column ``own[i]`` (-1: not in
    this slice). Each column's terms are computed by the block functions on that column
    alone: the same arithmetic.
    """
    m, cnt, bmax, tot, low, acc = scratch(1)
    score = np.empty(1, np.float32)
    n_ex = codes.shape[0]
    n_slots = rec_v.shape[1]
    n_cl = n_slots - n_ex
    for s in range(sp.shape[0] - 1):
        blue = bi[bp[s] : bp[s + 1]]
        red = ri[rp[s] : rp[s + 1]]
        for e in range(n_slots):
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
                        rec_v[i, e] = np.float64(x)  # the column's row: added below
                    else:
                        tie_scores(codes[e], 1, m, cnt, bmax, tot, low, score)
                        rec_v[i, e] = np.float64(score[0])
            if not ex:
                for q in range(n_cl):
                    k = s * n_cl + q
                    centroid_block(mat, ci[cp[k] : cp[k + 1]], x, 1, acc)
                    rec_v[i, n_ex + q] = np.float64(-acc[0])


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
