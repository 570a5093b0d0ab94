"""Compiled ranking of the human clues: each clue's own keys and the words that beat it.

The numpy pass (:func:`wordgames.codenames.measures._count_beats`) builds one
:class:`~wordgames.codenames.agents.BoardGeometry` per board split and vocabulary slice and
walks the slice's 400,000 columns some forty times per split (the nearest red word, the
targets, each sender's keys, each comparison), each walk a separate numpy call over memory.
Here one compiled kernel (numba) does the same arithmetic in one pass over small blocks of
columns that stay in the processor's cache: for every split of the batch, the nearest red
word, the count and statistics of the targets, each ClusterSender's centroid key, and for
every record and sender the number of columns whose keys beat the clue's and tie with them
(the clue's own keys are read off its column by the same functions). ClusterSender's k-means
runs on a thread of its own meanwhile (:func:`rank_batch`).

The arithmetic is the agents' own, operation for operation (float32 maxima and sums in the
same order, the same divisions), on the same similarity matrix, so every count is the one
the numpy pass gives: :mod:`tests.codenames.test_counting` checks it on hand-made boards with
ties and on real records. Senders the kernel does not know (a ClusterSender with the
Euclidean distance, any other :class:`~wordgames.codenames.agents.CountingSender`) keep the
numpy pass.
"""

from __future__ import annotations

import numpy as np

#: the kernel's code of each ExhaustiveSearchSender tie-break
TIE_BREAK_CODES = {
    "avg_blue_dist": 0,
    "max_blue_dist": 1,
    "max_radius": 2,
    "red_blue_diff": 3,
    "frequency": 4,
}


def kernel_kind(sender) -> tuple | None:
    """``("exhaustive", code)``, ``("cluster",)`` or ``None`` (the kernel does not know it)."""
    from wordgames.codenames.agents import ClusterSender, ExhaustiveSearchSender

    if type(sender) is ExhaustiveSearchSender:
        return ("exhaustive", TIE_BREAK_CODES[sender.tie_break])
    if type(sender) is ClusterSender and sender.distance == "cosine":
        return ("cluster",)
    return None


def compiled_available() -> bool:
    """Whether numba can be imported (else the numpy pass counts)."""
    try:
        import numba  # noqa: F401
    except ImportError:  # pragma: no cover - numba is a dependency
        return False
    return True


def _kernels():
    """The compiled kernels (numba compiles them once and keeps them on disk)."""
    from wordgames.codenames import _kernels as k

    return k.count_columns, k.drop_columns, k.clue_values


def _csr(lists) -> tuple[np.ndarray, np.ndarray]:
    """Pointers and packed values of a list of integer lists."""
    ptr = np.zeros(len(lists) + 1, dtype=np.int64)
    ptr[1:] = np.cumsum([len(x) for x in lists])
    vals = np.fromiter((v for x in lists for v in x), dtype=np.int64, count=int(ptr[-1]))
    return ptr, vals


class _Plan:
    """The batch laid out for the kernels: splits, rows, records and their clue values."""

    def __init__(self, g, batch):
        self.row = {w: i for i, w in enumerate(batch.words)}
        kinds = [kernel_kind(s) for s in g.senders]
        self.senders = g.senders
        self.ex = [si for si, k in enumerate(kinds) if k[0] == "exhaustive"]
        self.cl = [si for si, k in enumerate(kinds) if k[0] == "cluster"]
        self.slots = self.ex + self.cl
        self.codes = np.array([kinds[si][1] for si in self.ex], dtype=np.int64)
        self.four = sorted(self.codes[:4].tolist()) == [0, 1, 2, 3]
        self.splits = list(batch.splits.items())
        self.keys, crows, blues, reds, rec_ptr = [], [], [], [], [0]
        for (blue, red), items in self.splits:
            blues.append([self.row[w] for w in blue])
            reds.append([self.row[w] for w in red])
            for j, (_p, crow) in enumerate(items):
                self.keys.append((blue, red, j))
                crows.append(crow)
            rec_ptr.append(len(self.keys))
        self.crows = np.asarray(crows, dtype=np.int64)
        self.sp = np.asarray(rec_ptr, dtype=np.int64)
        self.bp, self.bi = _csr(blues)
        self.rp, self.ri = _csr(reds)
        self.cp, self.ci = _csr([])
        self.rec_c = np.zeros((len(self.keys), len(self.ex)), dtype=np.int64)
        self.rec_v = np.zeros((len(self.keys), len(self.slots)), dtype=np.float64)

    def set_clusters(self) -> None:
        """Each cluster slot's cluster rows (ClusterSender.cluster_for: k-means, remembered)."""
        self.cp, self.ci = _csr(
            [
                [self.row[w] for w in self.senders[si].cluster_for(blue, red)]
                for (blue, red), _items in self.splits
                for si in self.cl
            ]
        )

    def args(self):
        """The arrays every kernel takes, in order."""
        return (self.sp, self.bp, self.bi, self.rp, self.ri, self.codes)

    def own(self, cols: slice) -> np.ndarray:
        """Each record's clue column inside ``cols`` (-1: outside)."""
        inside = (self.crows >= cols.start) & (self.crows < cols.stop)
        return np.where(inside, self.crows - cols.start, -1).astype(np.int64)

    def dropped(self, batch, cols: slice) -> tuple[np.ndarray, np.ndarray]:
        """Excluded columns of each (split, slot) inside ``cols`` (CSR)."""
        local: dict[int, np.ndarray] = {}
        lists = []
        for (blue, red), _items in self.splits:
            for si in self.slots:
                ex = batch.excl[(blue, red, si)]
                if id(ex) not in local:
                    lo, hi = np.searchsorted(ex, [cols.start, cols.stop])
                    local[id(ex)] = ex[lo:hi] - cols.start  # sorted and unique already
                lists.append(local[id(ex)])
        return _csr(lists)


def _warm_clusters(plan: _Plan):
    """Choose every split's clusters on a thread of its own, while the kernels count.

    The k-means loop and the kernels release the GIL, so they overlap (the choice among each
    board's clusters, a little numpy, holds it).
    """
    import threading

    if not plan.cl:
        return None
    splits = [key for key, _items in plan.splits]
    senders = [plan.senders[si] for si in plan.cl]

    def work():
        for blue, red in splits:
            for s in senders:
                s.cluster_for(blue, red)

    t = threading.Thread(target=work, name="wordgames-kmeans", daemon=True)
    t.start()
    return t


def rank_batch(g, batch, pool) -> dict:
    """Passes 1 and 2 by the kernels: ``{(blue, red, sender index, record index): [beats, ties]}``.

    The same answer as :func:`wordgames.codenames.measures._clue_values` followed by
    :func:`wordgames.codenames.measures._count_beats` for the senders of :func:`kernel_kind`,
    with the same similarity products (one per vocabulary slice holding a clue, then one per
    slice, the first kept): each record's own keys are read off its clue's column, then every
    slice's columns are counted, shared out among the pool's threads (the kernels release the
    GIL). The clusters of ClusterSenders are chosen on a thread of their own meanwhile; their
    counting waits for them.
    """
    count_columns, drop_columns, clue_values = _kernels()
    plan = _Plan(g, batch)
    # k-means is compiled and calls no BLAS, so it runs beside the products and the counting
    warm = _warm_clusters(plan)
    pending: list = []  # slices whose cluster values wait for the clusters

    def cluster_values(own, mat):
        clue_values(mat, *plan.args(), plan.cp, plan.ci, own, False, plan.rec_c, plan.rec_v)

    def ready():  # the clusters chosen, the pending slices' cluster values read off
        nonlocal warm
        _join(warm, plan)
        warm = None
        for own, mat in pending:
            cluster_values(own, mat)
        pending.clear()

    products = _Products(g, batch)
    if not products.keeps_all:  # a slice read later may be overwritten: no value may wait
        ready()
    for ci, cols in enumerate(batch.chunks):
        own = plan.own(cols)
        if not (own >= 0).any():
            continue
        mat = products.get(ci)
        clue_values(mat, *plan.args(), plan.cp, plan.ci, own, True, plan.rec_c, plan.rec_v)
        _add_rows(plan, own, cols)
        if warm is not None:
            pending.append((own, mat))
        elif plan.cl:
            cluster_values(own, mat)
    beats = np.zeros((len(plan.keys), len(plan.slots)), dtype=np.int64)
    ties = np.zeros_like(beats)
    for ci, cols in enumerate(batch.chunks):
        mat = products.get(ci)
        if warm is not None:  # count the exhaustive slots while k-means runs, then the clusters
            _sweep(count_columns, plan, mat, cols, pool, beats, ties, clusters=False)
            ready()
            _sweep(count_columns, plan, mat, cols, pool, beats, ties, exhaustive=False)
        else:
            _sweep(count_columns, plan, mat, cols, pool, beats, ties)
        xp, xi = plan.dropped(batch, cols)
        drop_columns(mat, cols.start, *plan.args(), plan.rec_c, plan.rec_v, plan.cp, plan.ci,
                     xp, xi, plan.own(cols), beats, ties)  # fmt: skip
    out = {}
    for i, (blue, red, j) in enumerate(plan.keys):
        for e, si in enumerate(plan.slots):
            out[(blue, red, si, j)] = [int(beats[i, e]), int(ties[i, e])]
    return out


#: bytes of similarity products kept from the first pass to the second (else computed again)
KEEP_BYTES = 1 << 30


class _Products:
    """The batch's similarity products, each slice's computed once when they fit ``KEEP_BYTES``.

    They are written into buffers that the sender group keeps from batch to batch: a fresh
    200 MB array costs its page faults each time (0.2 s here, four times the product itself).
    Beyond the budget one buffer takes each slice in turn, computed again when asked again.
    """

    def __init__(self, g, batch, keep_bytes: int | None = None):
        keep_bytes = KEEP_BYTES if keep_bytes is None else keep_bytes
        self.g, self.batch = g, batch
        self.shape = (len(batch.words), batch.step)
        per = 4 * self.shape[0] * self.shape[1]
        self.n_slots = max(1, min(len(batch.chunks), keep_bytes // max(per, 1)))
        self.keeps_all = self.n_slots >= len(batch.chunks)
        self.done: dict[int, np.ndarray] = {}  # slice -> its product, while it is in its slot
        self.in_slot: dict[int, int] = {}  # slot -> slice

    def get(self, ci: int) -> np.ndarray:
        """The product of slice ``ci`` (from its slot when it is still there)."""
        if ci in self.done:
            return self.done[ci]
        slot = ci if ci < self.n_slots else self.n_slots - 1
        old = self.in_slot.pop(slot, None)
        self.done.pop(old, None)
        cols = self.batch.chunks[ci]
        out = self._buffer(slot)[: self.shape[0] * (cols.stop - cols.start)]
        out = out.reshape(self.shape[0], cols.stop - cols.start)
        mat = self.g.sims(self.batch.words, cols, out=out).mat
        mat = np.ascontiguousarray(mat, dtype=np.float32)  # a no-op for the cosine products
        self.done[ci], self.in_slot[slot] = mat, ci
        return mat

    def _buffer(self, slot: int) -> np.ndarray:
        need = self.shape[0] * self.shape[1]
        bufs = self.g.buffers
        while len(bufs) <= slot:
            bufs.append(np.empty(0, np.float32))
        if bufs[slot].size < need:
            bufs[slot] = np.empty(need, np.float32)
        return bufs[slot]


def _add_rows(plan: _Plan, own: np.ndarray, cols: slice) -> None:
    """Frequency tie-break values are the clue's vocabulary row, not its slice column."""
    freq = [e for e, code in enumerate(plan.codes.tolist()) if code == 4]
    if freq:
        hit = own >= 0
        for e in freq:
            plan.rec_v[hit, e] += cols.start


def _join(warm, plan: _Plan) -> None:
    """Wait for the clusters and lay them out (once)."""
    if warm is not None:
        warm.join()
    if plan.cl and len(plan.cp) == 1:
        plan.set_clusters()


def _sweep(count_columns, plan, mat, cols, pool, beats, ties, exhaustive=True, clusters=True):
    """Count the columns of one slice, its columns shared out among the pool's threads."""
    n_parts = getattr(pool, "_max_workers", 1) if pool is not None else 1
    codes = plan.codes if exhaustive else plan.codes[:0]
    n_ex = len(plan.ex)
    if exhaustive and clusters:
        rec_c, rec_v, sl = plan.rec_c, plan.rec_v, slice(None)
    elif exhaustive:
        rec_c, rec_v, sl = plan.rec_c, plan.rec_v[:, :n_ex], slice(0, n_ex)
    else:
        rec_c, rec_v, sl = plan.rec_c[:, :0], plan.rec_v[:, n_ex:], slice(n_ex, None)
    rec_v = np.ascontiguousarray(rec_v)
    rec_c = np.ascontiguousarray(rec_c)
    if not rec_v.shape[1]:
        return
    edges = np.linspace(0, mat.shape[1], n_parts + 1).astype(np.int64)
    parts = [(int(a), int(b)) for a, b in zip(edges[:-1], edges[1:], strict=True) if b > a]
    shape = (len(plan.keys), rec_v.shape[1])
    outs = [(np.zeros(shape, np.int64), np.zeros(shape, np.int64)) for _ in parts]
    four = plan.four and exhaustive

    def run(k):
        (a, b), (bt, tt) = parts[k], outs[k]
        count_columns(mat, cols.start, a, b, plan.sp, plan.bp, plan.bi, plan.rp, plan.ri,
                      codes, rec_c, rec_v, plan.cp, plan.ci, four, bt, tt)  # fmt: skip

    if pool is not None and len(parts) > 1:
        list(pool.map(run, range(len(parts))))
    else:
        for k in range(len(parts)):
            run(k)
    for bt, tt in outs:
        beats[:, sl] += bt
        ties[:, sl] += tt
