"""Topographic similarity: whether similar objects get similar messages.

TopSim (Brighton and Kirby 2006; paper appendix A) is the Spearman correlation, over pairs of
samples, between the Levenshtein distance of their messages (sequences of words, EOS and padding
removed) and the cosine distance ``1 - cos`` of their object vectors (equal objects are at distance 0; a zero
vector has cosine 0 with any other object). Distances are compared on a grid of step 1e-9 (coarser only beyond 2**31
pairs), so that float noise does not break ties between equal distances.

All pairs ``i < j`` are used when there are at most ``max_pairs`` of them; otherwise all pairs of
a random subset of ``s`` messages, ``s`` the largest with ``s (s - 1) / 2 <= max_pairs``, drawn
without replacement with ``np.random.default_rng(random_state)`` (EC logs are often subsampled
this way; it keeps the fast all-pairs computation).

The edit distances are computed for all pairs at once (:func:`levenshtein_matrix`): a dynamic
programme over padded ``uint8`` arrays, vectorised over blocks of pairs, whose recurrence along
the second message is a short loop over the message length; only distinct messages are compared.
"""

from __future__ import annotations

import numpy as np

from wordgames.emergent.inputs import EncodedMessages, row_ids

_BLOCK = 1 << 16  # pairs per DP block: keeps the L x block work arrays in cache


def levenshtein_pairs(a: np.ndarray, la: np.ndarray, b: np.ndarray, lb: np.ndarray) -> np.ndarray:
    """Levenshtein distance of each pair of rows ``a[p, :la[p]]`` and ``b[p, :lb[p]]``.

    ``a`` and ``b`` are integer arrays ``P x L`` (any padding after the lengths).

    Examples
    --------
    >>> a = np.array([[1, 2, 3], [1, 2, -1]]); b = np.array([[1, 3, -1], [2, 1, -1]])
    >>> levenshtein_pairs(a, np.array([3, 2]), b, np.array([2, 2])).tolist()
    [1, 2]
    """
    a, b = np.atleast_2d(a), np.atleast_2d(b)
    p = a.shape[0]
    width = max(a.shape[1], b.shape[1])
    codes = np.full((2 * p, width), -1, dtype=np.int64)
    codes[:p, : a.shape[1]] = a
    codes[p:, : b.shape[1]] = b
    lengths = np.concatenate([np.asarray(la), np.asarray(lb)]).astype(np.int64)
    return levenshtein_index(codes, lengths, np.arange(p), np.arange(p, 2 * p))


def levenshtein_index(
    codes: np.ndarray, lengths: np.ndarray, pi: np.ndarray, pj: np.ndarray
) -> np.ndarray:
    """Levenshtein distance between messages ``pi[p]`` and ``pj[p]`` of a code matrix ``B x L``."""
    lengths = np.asarray(lengths, dtype=np.int64)
    small = codes.size == 0 or (codes.min() >= -1 and codes.max() < 32767)
    # transposed so that gathering a block of messages gives contiguous L x block rows
    ct = np.ascontiguousarray(codes.T.astype(np.int16 if small else np.int64))
    out = np.empty(pi.size, dtype=np.int64)
    for start in range(0, pi.size, _BLOCK):
        stop = min(start + _BLOCK, pi.size)
        i, j = pi[start:stop], pj[start:stop]
        out[start:stop] = _levenshtein_block(ct, i, lengths[i], j, lengths[j])
    return out


def levenshtein_matrix(codes: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """Symmetric ``B x B`` matrix of Levenshtein distances between all messages of a code matrix.

    Computed by blocks of rows against every later message (the upper triangle), so the
    messages are sliced, never gathered pair by pair.
    """
    lengths = np.asarray(lengths, dtype=np.int64)
    n, width = codes.shape
    small = codes.size == 0 or (codes.min() >= -1 and codes.max() < 32767)
    ct = np.ascontiguousarray(codes.T.astype(np.int16 if small else np.int64))
    big = width >= 120
    out = np.zeros((n, n), dtype=np.int32 if big else np.int16)
    i0 = 0
    while i0 < n:
        m = n - i0
        k = int(min(max(1, _BLOCK // m), m))  # rows i0 .. i0+k against columns i0 .. n
        la, lb = lengths[i0 : i0 + k], lengths[i0:]
        ma, mb = int(la.max()), int(lb.max())
        if ma == 0 or mb == 0:
            out[i0 : i0 + k, i0:] = np.where(la[:, None] == 0, lb[None, :], la[:, None])
            i0 += k
            continue
        a = ct[:ma, i0 : i0 + k]  # ma x k
        b = ct[:mb, i0:]  # mb x m
        dtype = np.uint8 if not big else np.int32
        prev = np.broadcast_to(np.arange(mb + 1, dtype=dtype)[:, None, None], (mb + 1, k, m)).copy()
        cur = np.empty_like(prev)
        cost = np.empty((mb, k, m), dtype=bool)
        row = np.empty((k, m), dtype=dtype)
        res = np.broadcast_to(lb[None, :], (k, m)).astype(out.dtype)  # rows of length 0
        for i in range(1, ma + 1):
            np.not_equal(b[:, None, :], a[i - 1][None, :, None], out=cost)
            np.add(prev[:-1], cost, out=cur[1:], casting="unsafe")  # substitution / match
            cur[0] = i
            for j in range(1, mb + 1):  # deletion and insertion share the +1
                np.minimum(prev[j], cur[j - 1], out=row)
                row += 1
                np.minimum(cur[j], row, out=cur[j])
            rows = np.flatnonzero(la == i)
            if rows.size:
                res[rows] = np.take_along_axis(cur[:, rows, :], lb[None, None, :], axis=0)[0]
            prev, cur = cur, prev
        out[i0 : i0 + k, i0:] = res
        i0 += k
    iu = np.triu_indices(n, 1)
    out.T[iu] = out[iu]
    np.fill_diagonal(out, 0)
    return out


def _levenshtein_block(ct, i_idx, la, j_idx, lb):
    p = i_idx.size
    if p == 0:
        return np.zeros(0, dtype=np.int64)
    ma, mb = int(la.max()), int(lb.max())
    if ma == 0 or mb == 0:
        return np.where(la == 0, lb, la)
    at = ct[:ma][:, i_idx]  # ma x P
    bt = ct[:mb][:, j_idx]  # mb x P
    dtype = np.uint8 if ma + mb < 250 else np.int32
    result = lb.copy()  # messages of length 0: distance = length of the other
    prev = np.broadcast_to(np.arange(mb + 1, dtype=dtype)[:, None], (mb + 1, p)).copy()
    cur = np.empty_like(prev)
    tmp = np.empty((mb, p), dtype=dtype)
    cost = np.empty((mb, p), dtype=bool)
    row = np.empty(p, dtype=dtype)
    cols = np.arange(p)
    # rows of equal first length finish together: their results are read once the row is done
    by_len = np.argsort(la, kind="stable")
    bounds = np.searchsorted(la[by_len], np.arange(ma + 2))
    for i in range(1, ma + 1):  # in-place: no allocation inside the loops
        np.not_equal(bt, at[i - 1], out=cost)
        np.add(prev[:-1], cost, out=cur[1:], casting="unsafe")  # substitution / match
        np.add(prev[1:], 1, out=tmp)  # deletion
        np.minimum(cur[1:], tmp, out=cur[1:])
        cur[0] = i
        for j in range(1, mb + 1):  # insertion: D[i, j] = min(., D[i, j-1] + 1)
            np.add(cur[j - 1], 1, out=row)
            np.minimum(cur[j], row, out=cur[j])
        sel = by_len[bounds[i] : bounds[i + 1]]
        if sel.size:
            result[sel] = cur[lb[sel], cols[sel]]
        prev, cur = cur, prev
    return result


def _average_ranks_int(x: np.ndarray) -> np.ndarray:
    """Average (1-based) ranks of small non-negative integers, ties sharing their mean rank."""
    counts = np.bincount(x)
    upper = np.cumsum(counts)
    avg = upper - (counts - 1) / 2.0
    return avg[x]


def _grid(x: np.ndarray, val_bits: int) -> np.ndarray:
    """Order-preserving non-negative integers for finite floats, on the tie grid.

    Step ``max(1e-9, (max - min) / 2**(val_bits - 1))`` from the minimum: values closer than a
    step count as tied, which absorbs float noise (two equal cosines computed in different ways
    differ by ~1e-16). The result is below ``2**(val_bits - 1)``, so ``63 - val_bits`` low bits
    are free for an index or a group.
    """
    lo, hi = float(x.min()), float(x.max())
    if not (np.isfinite(lo) and np.isfinite(hi)):
        raise ValueError("distances must be finite")
    if hi == lo:
        return np.zeros(x.size, dtype=np.int64)
    scale = min(2.0 ** (val_bits - 1) / (hi - lo), 1e9)
    return np.rint((x - lo) * scale).astype(np.int64)


def _average_ranks(x: np.ndarray) -> np.ndarray:
    """Average (1-based) ranks of finite values.

    Values tied on the grid of :func:`_grid` share their mean rank.

    numpy sorts integers several times faster than it argsorts floats: the grid values get the
    index in their low bits and one integer sort gives the order.
    """
    n = x.size
    if n == 0:
        return np.zeros(0)
    idx_bits = max(1, int(n - 1).bit_length())
    if 63 - idx_bits < 30:
        raise ValueError("too many values to rank")
    q = _grid(x, 63 - idx_bits)
    few = _few_values(q)
    if few is not None:
        return _average_ranks_int(few)
    keys = np.sort((q << idx_bits) | np.arange(n, dtype=np.int64))
    order = keys & ((1 << idx_bits) - 1)
    qs = keys >> idx_bits
    new = np.empty(n, dtype=bool)
    new[0] = True
    np.not_equal(qs[1:], qs[:-1], out=new[1:])
    group = np.cumsum(new) - 1
    starts = np.flatnonzero(new)
    ends = np.append(starts[1:], n)
    avg = (starts + ends + 1) / 2.0  # mean of the 1-based ranks start+1 .. end
    ranks = np.empty(n, dtype=np.float64)
    ranks[order] = avg[group]
    return ranks


def _few_values(x: np.ndarray, max_values: int = 4096) -> np.ndarray | None:
    """Codes of integers ``x`` in their sorted distinct values when there are few, else ``None``.

    Distances between objects made of one-hot attributes take a handful of values; then ranks
    come from a count per value instead of a sort of all pairs. The candidates come from a
    sample and are accepted only if every value is found among them exactly.
    """
    if x.size < 4 * max_values:
        return None
    step = max(1, x.size // (4 * max_values))
    cand = np.unique(x[::step])
    if cand.size > max_values // 4:
        return None
    pos = np.searchsorted(cand, x)
    pos = np.minimum(pos, cand.size - 1)
    if not np.array_equal(cand[pos], x):
        return None
    return pos


def spearman_small_int(g: np.ndarray, x: np.ndarray) -> float:
    """Spearman correlation of small non-negative integers ``g`` (edit distances) with ``x``.

    Ties share their mean rank in both, as in ``scipy.stats.spearmanr``. ``x`` is sorted once as
    integer keys holding its value on the tie grid of :func:`_average_ranks` and ``g`` in the
    low bits; the covariance then only needs the sum of ``x``-ranks within each value of ``g``.
    """
    g = np.asarray(g, dtype=np.int64)
    n = g.size
    if n < 2:
        return float("nan")
    counts = np.bincount(g).astype(np.float64)
    g_bits = max(1, int(counts.size - 1).bit_length())
    mean = (n + 1) / 2.0
    rank_g = np.cumsum(counts) - (counts - 1) / 2.0 - mean  # centred rank of each g value
    if g_bits > 20:
        return _pearson(_average_ranks_int(g), _average_ranks(x))
    q = _grid(x, 63 - g_bits)
    few = _few_values(q)
    if few is not None:
        # both sides take few values: everything follows from their joint counts
        k = int(few.max()) + 1
        joint = np.bincount(g * k + few, minlength=counts.size * k).reshape(counts.size, k)
        counts_x = joint.sum(axis=0).astype(np.float64)
        rank_x = np.cumsum(counts_x) - (counts_x - 1) / 2.0 - mean
        den = np.sqrt(float(counts @ rank_g**2) * float(counts_x @ rank_x**2))
        return float(rank_g @ joint @ rank_x / den) if den > 0 else float("nan")
    q <<= g_bits
    q |= g
    q.sort()
    gs = q & ((1 << g_bits) - 1)
    q >>= g_bits
    new = np.empty(n, dtype=bool)
    new[0] = True
    np.not_equal(q[1:], q[:-1], out=new[1:])
    if new.all():  # no ties among the x values
        r_sorted = np.arange(1 - mean, n + 1 - mean)
    else:
        starts = np.flatnonzero(new)
        sizes = np.diff(np.append(starts, n))
        r_sorted = np.repeat((2 * starts + sizes + 1) / 2.0 - mean, sizes)  # centred x-ranks
    sum_per_g = np.bincount(gs, weights=r_sorted, minlength=counts.size)
    cov = float(rank_g @ sum_per_g)
    var_g = float(counts @ rank_g**2)
    var_x = float(r_sorted @ r_sorted)
    den = np.sqrt(var_g * var_x)
    return float(cov / den) if den > 0 else float("nan")


def _pearson(x: np.ndarray, y: np.ndarray) -> float:
    x = x - x.mean()
    y = y - y.mean()
    den = np.sqrt((x @ x) * (y @ y))
    return float((x @ y) / den) if den > 0 else float("nan")


def topographic_similarity(
    messages: EncodedMessages,
    objects,
    *,
    max_pairs: int | None = 2_000_000,
    random_state=0,
    normalize: bool = False,
) -> tuple[float, int]:
    """TopSim of messages against object vectors; returns ``(topsim, number of pairs used)``.

    Parameters
    ----------
    messages : encoded messages
    objects : ``B x D`` object representations (a 1-D array is read as ``B x 1``)
    max_pairs : cap on the number of pairs: above it, TopSim is computed on all pairs of a
        seeded random subset of messages, the largest whose pairs fit; ``None``: all pairs
    random_state : seed of the subset
    normalize : divide each edit distance by the mean length of the two messages, as EGG does
        (the paper uses the plain distance)

    Examples
    --------
    >>> from wordgames.emergent.inputs import encode_messages
    >>> m = encode_messages([["a", "b"], ["a", "c"], ["d", "c"]])
    >>> objs = np.array([[1, 0, 1, 0], [1, 0, 0, 1], [0, 1, 0, 1.]])
    >>> topographic_similarity(m, objs)
    (1.0, 3)
    """
    objects = np.asarray(objects, dtype=np.float64)
    if objects.ndim == 1:
        objects = objects[:, None]
    objects = objects.reshape(objects.shape[0], -1)
    n = len(messages)
    if objects.shape[0] != n:
        raise ValueError(f"{n} messages but {objects.shape[0]} objects")
    if n < 2:
        return float("nan"), 0
    if max_pairs is not None and n * (n - 1) // 2 > max_pairs:
        # a seeded random subset of messages, as many as the pair budget allows
        size = int((1 + np.sqrt(1 + 8 * float(max_pairs))) / 2)
        while size * (size - 1) // 2 > max_pairs:
            size -= 1
        if size < 2:
            raise ValueError("max_pairs must allow at least one pair")
        rows = np.sort(np.random.default_rng(random_state).choice(n, size, replace=False))
        messages, objects, n = messages.take(rows), objects[rows], size
    codes, lengths = messages.codes, messages.lengths
    # messages repeat a lot in EC logs: distances between distinct messages only
    msg_id, n_msg = messages.message_ids()  # ids in order of first appearance
    first = np.zeros(n_msg, dtype=np.int64)
    first[msg_id[::-1]] = np.arange(n - 1, -1, -1)  # one representative per distinct message
    # the upper triangle, row-major: the order of np.triu_indices(n, 1)
    upper = np.triu(np.ones((n, n), dtype=bool), 1)
    n_pairs = n * (n - 1) // 2
    d = levenshtein_matrix(codes[first], lengths[first])
    edit = (d if n_msg == n else d[msg_id][:, msg_id])[upper]

    # equal objects share an id (compared bit for bit; row_ids hashes instead of sorting rows)
    obj_id, n_obj = row_ids(np.ascontiguousarray(objects).view(np.int64))
    first_obj = np.zeros(n_obj, dtype=np.int64)
    first_obj[obj_id[::-1]] = np.arange(n - 1, -1, -1)
    uniq_obj = objects[first_obj]
    norms = np.linalg.norm(uniq_obj, axis=1)
    unit = np.divide(
        uniq_obj, norms[:, None], out=np.zeros_like(uniq_obj), where=norms[:, None] > 0
    )
    full = unit[obj_id]
    dist = 1.0 - (full @ full.T)[upper]
    if n_obj < n:  # equal objects are at distance 0, zero vectors included
        dist[(obj_id[:, None] == obj_id[None, :])[upper]] = 0.0

    if normalize:
        mean_len = (lengths[:, None] + lengths[None, :])[upper] / 2.0
        edit_f = np.divide(edit, mean_len, out=np.zeros(edit.size), where=mean_len > 0)
        return _pearson(_average_ranks(edit_f), _average_ranks(dist)), int(n_pairs)
    return spearman_small_int(edit, dist), int(n_pairs)
