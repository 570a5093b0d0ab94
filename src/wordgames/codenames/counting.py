"""Compiled ranking of the human clues: each clue's own keys and the words that beat it.

The numpy pass (:func:`wordgames.codenames.measures._count_beats`) builds one
:class:`~wordgames.codenames.agents.BoardGeometry` per board split and vocabulary slice and
walks the slice's 400,000 columns some forty times per split (the nearest red word, the
targets, each sender's keys, each comparison), each walk a separate numpy call over memory.
Here one compiled kernel (numba) does the same arithmetic in one pass over small blocks of
columns that stay in the processor's cache: for every split of the batch, the nearest red
word, the count and statistics of the targets, each ClusterSender's centroid key, and for
every record and sender the number of columns whose keys beat the clue's and tie with them
(the clue's own keys are read off its column by the same functions). One thread counts while
the calling thread chooses ClusterSender's clusters and does the caller's other work, then
both count (:func:`rank_batch`).

The arithmetic is the agents' own, operation for operation (float32 maxima and sums in the
same order, the same divisions), on the same similarity matrix, so every count is the one
the numpy pass gives: :mod:`tests.codenames.test_counting` checks it on hand-made boards with
ties and on real records. Senders the kernel does not know (a ClusterSender with the
Euclidean distance, any other :class:`~wordgames.codenames.agents.CountingSender`) keep the
numpy pass.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

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
        # records of a split with the same clue have the same counts: one kernel row for them
        rec_row = []  # the kernel row of each record, in batch order
        crows, blues, reds, rec_ptr = [], [], [], [0]
        for (blue, red), items in self.splits:
            blues.append([self.row[w] for w in blue])
            reds.append([self.row[w] for w in red])
            first: dict[int, int] = {}
            for _p, crow, *_place in items:
                if crow not in first:
                    first[crow] = len(crows)
                    crows.append(crow)
                rec_row.append(first[crow])
            rec_ptr.append(len(crows))
        self.rec_row = np.asarray(rec_row, dtype=np.int64)
        self.crows = np.asarray(crows, dtype=np.int64)
        self.n_rows = len(crows)
        self.sp = np.asarray(rec_ptr, dtype=np.int64)
        self.bp, self.bi = _csr(blues)
        self.rp, self.ri = _csr(reds)
        self.groups = _red_groups(reds)
        self.cp, self.ci = _csr([])
        self.rec_c = np.zeros((self.n_rows, len(self.ex)), dtype=np.int64)
        self.rec_v = np.zeros((self.n_rows, len(self.slots)), dtype=np.float64)

    def set_clusters(self) -> None:
        """Each cluster slot's cluster rows (ClusterSender.clusters_for: k-means, remembered)."""
        splits = [key for key, _items in self.splits]
        chosen = [self.senders[si].clusters_for(splits) for si in self.cl]
        self.cp, self.ci = _csr(
            [
                [self.row[w] for w in chosen[q][s]]
                for s in range(len(splits))
                for q in range(len(self.cl))
            ]
        )

    def args(self):
        """The arrays every kernel takes, in order."""
        return (self.sp, self.bp, self.bi, self.rp, self.ri, self.codes)

    def own(self, cols: slice) -> np.ndarray:
        """Each record's clue column inside ``cols`` (-1: outside)."""
        inside = (self.crows >= cols.start) & (self.crows < cols.stop)
        return np.where(inside, self.crows - cols.start, -1).astype(np.int64)

    def set_dropped(self, batch) -> None:
        """Every (split, slot)'s excluded rows, flat and sorted by row, for :meth:`dropped`."""
        keys, rows = [], []
        for k, ((blue, red), si) in enumerate(
            ((key, si) for key, _items in self.splits for si in self.slots)
        ):
            ex = batch.excl[(blue, red, si)]
            keys.append(np.full(len(ex), k, dtype=np.int64))
            rows.append(ex)
        self.n_lists = len(rows)
        rows = np.concatenate(rows).astype(np.int64) if rows else np.zeros(0, np.int64)
        keys = np.concatenate(keys) if keys else np.zeros(0, np.int64)
        order = np.argsort(rows, kind="stable")
        self.x_rows, self.x_keys = rows[order], keys[order]

    def dropped(self, cols: slice) -> tuple[np.ndarray, np.ndarray]:
        """Excluded columns of each (split, slot) inside ``cols`` (CSR, each list sorted)."""
        lo, hi = np.searchsorted(self.x_rows, [cols.start, cols.stop])
        keys, rows = self.x_keys[lo:hi], self.x_rows[lo:hi] - cols.start
        order = np.argsort(keys, kind="stable")  # by list; the rows stay sorted within each
        ptr = np.zeros(self.n_lists + 1, dtype=np.int64)
        ptr[1:] = np.cumsum(np.bincount(keys, minlength=self.n_lists))
        return ptr, rows[order]


def _red_groups(reds: list[list[int]]) -> tuple:
    """Neighbouring splits grouped by their common red words: ``(gs, gp, gi, ep, ei)``.

    Split ``s`` is in group ``gs[s]``, whose common red rows are ``gi[gp[g]:gp[g+1]]``; its
    other red rows are ``ei[ep[s]:ep[s+1]]``. The counting kernel takes the nearest of a
    group's common red words once per block, then each split's others: the splits of one
    board as a game goes on share most of theirs (half the red rows read, on the human data).
    A split joins the group before it when that reads fewer rows (each member reads the
    common maximum once more); a maximum is exact in any order.
    """
    groups: list[tuple[set, list[int]]] = []
    common: set = set()
    members: list[int] = []
    total = 0  # red rows of the group's members
    for s, red in enumerate(reds):
        rows, k = set(red), len(members)
        if members:
            cost = total - (k - 1) * len(common) + (k if k > 1 else 0)
            shared = common & rows
            joined = total + len(rows) - k * len(shared) + k + 1
            if joined < cost + len(rows):
                common, total = shared, total + len(rows)
                members.append(s)
                continue
            groups.append((common, members))
        common, members, total = rows, [s], len(rows)
    if members:
        groups.append((common, members))
    gs = np.zeros(len(reds), dtype=np.int64)
    shared_rows, others = [], [[] for _ in reds]
    for g, (common, members) in enumerate(groups):
        shared_rows.append([r for r in reds[members[0]] if r in common])
        for s in members:
            gs[s] = g
            others[s] = [r for r in reds[s] if r not in common]
    return (gs, *_csr(shared_rows), *_csr(others))


def rank_batch(g, batch, pool, meanwhile: Callable[[], None] | None = None) -> tuple:
    """Passes 1 and 2 by the kernels: ``(beats, ties)``, a row per record, a column per sender.

    The records in batch order (its splits in order, each split's records in order).

    The same answer as :func:`wordgames.codenames.measures._clue_values` followed by
    :func:`wordgames.codenames.measures._count_beats` for the senders of :func:`kernel_kind`,
    from the same similarities: the products of vocabulary slices of at most
    ``COLUMN_BYTES``. Pass 1 copies the clue column of every record out of its slice's product
    (a small matrix) and reads each record's own keys off it. Pass 2 (:class:`_Sweep`) counts
    the slices on the pool's number of threads: while the calling thread chooses the
    ClusterSenders' clusters (k-means) and runs ``meanwhile`` (work of the caller's that holds
    the GIL, such as the receivers), one thread counts; then the calling thread counts too.
    A slice counted before the clusters were chosen is counted again for the ClusterSenders
    only; after, for every sender at once. Computing a slice's product again costs less than
    keeping them all: a large fresh array costs its page faults, and a small one stays in the
    processor's cache.
    """
    from wordgames.blas import single_threaded_blas

    with single_threaded_blas():
        return _rank_batch(g, batch, pool, meanwhile)


def _rank_batch(g, batch, pool, meanwhile) -> tuple:
    plan = _Plan(g, batch)
    sweep = _Sweep(plan, _Products(g, batch), batch, _kernels())
    n_threads = getattr(pool, "_max_workers", 1) if pool is not None else 1
    helpers = [threading.Thread(target=sweep.work, args=(k + 1, k == 0), daemon=True,
                                name=f"wordgames-count-{k + 1}") for k in range(n_threads - 1)]  # fmt: skip
    if not helpers:
        sweep.first()
    for t in helpers:
        t.start()
    try:
        if plan.cl:  # the ClusterSenders: their clusters chosen, their own keys read off
            plan.set_clusters()
            sweep.cluster_values()
        sweep.clusters_ready()
        if meanwhile is not None:
            meanwhile()
        sweep.work(0)
    finally:
        sweep.stop_if_failed()
        for t in helpers:
            t.join()
    beats, ties = sweep.totals()
    # a row per record (records of a split with the same clue share one), a column per sender
    cols = np.argsort(np.asarray(plan.slots))
    return beats[plan.rec_row][:, cols], ties[plan.rec_row][:, cols]


class _Sweep:
    """Pass 1, then pass 2: the slices counted by several threads, each with its own counts.

    The first counting thread does pass 1 (:meth:`first`) while the calling thread chooses the
    clusters. Then a thread takes the next slice, computes its product into its own buffer and
    counts it for every sender when the clusters are chosen, else for the
    ExhaustiveSearchSenders (the slice waits for a second count for the ClusterSenders). A
    thread's counts are its own, summed at the end: the same totals whatever thread counted
    what. Each slice's dropped columns are laid out in pass 1, so that a counting thread holds
    the GIL only to start a product or a kernel.
    """

    def __init__(self, plan: _Plan, products: _Products, batch, kernels):
        self.plan, self.products, self.batch, self.kernels = plan, products, batch, kernels
        self.n_ex, self.n_slots = len(plan.ex), len(plan.slots)
        self.fresh = list(range(len(products.chunks)))[::-1]  # popped from the end: in order
        self.later: list[int] = []  # counted for the ExhaustiveSearchSenders only
        self.values = threading.Event()  # pass 1 done
        self.ready = threading.Event()  # the clusters chosen and their keys read off
        self.lock = threading.Lock()
        self.failed: BaseException | None = None
        self.shape = (plan.n_rows, self.n_slots)
        self.counts: dict[int, tuple[np.ndarray, np.ndarray]] = {}
        self.slot_args: dict[tuple[int, int], tuple] = {}

    def first(self, k: int = 0) -> None:
        """Pass 1 (thread ``k``'s buffer): each record's own keys, the dropped columns."""
        plan, clue_values = self.plan, self.kernels[2]
        self.clue_mat, self.own_col = _clue_columns(plan, self.products)
        clue_values(self.clue_mat, *plan.args(), plan.cp, plan.ci, self.own_col, True,
                    plan.rec_c, plan.rec_v)  # fmt: skip
        _frequency_rows(plan)
        plan.set_dropped(self.batch)
        self.dropped = [plan.dropped(cols) for cols in self.products.chunks]
        self.own = [plan.own(cols) for cols in self.products.chunks]
        self.slot_args[(0, self.n_ex)] = _slot_args(plan, 0, self.n_ex)
        self.values.set()

    def cluster_values(self) -> None:
        """The ClusterSenders' own keys, read off the clue columns once pass 1 is done."""
        self.values.wait()
        if self.failed is None:
            plan = self.plan
            self.kernels[2](self.clue_mat, *plan.args(), plan.cp, plan.ci, self.own_col, False,
                            plan.rec_c, plan.rec_v)  # fmt: skip

    def clusters_ready(self) -> None:
        """The ClusterSenders' keys are read off: slices may be counted for every sender."""
        self.values.wait()
        if self.failed is not None:  # in pass 1
            raise self.failed
        for lo in (0, self.n_ex):
            self.slot_args[(lo, self.n_slots)] = _slot_args(self.plan, lo, self.n_slots)
        self.ready.set()

    def _next(self) -> tuple[int, int, int] | None:
        """``(slice, first slot, end slot)`` to count next, or None when all are counted."""
        while True:
            with self.lock:
                ready = self.ready.is_set()
                if self.failed is not None or not (self.fresh or self.later):
                    return None
                if self.fresh and ready:
                    return self.fresh.pop(), 0, self.n_slots
                if self.fresh and self.n_ex:
                    ci = self.fresh.pop()
                    if self.n_ex < self.n_slots:
                        self.later.append(ci)
                    return ci, 0, self.n_ex
                if self.later and ready:
                    return self.later.pop(), self.n_ex, self.n_slots
            self.ready.wait()

    def work(self, k: int, first: bool = False) -> None:
        """Count slices until none is left (thread ``k``: its own product buffer and counts).

        ``first``: do pass 1 before.
        """
        try:
            if first:
                self.first(k)
            self.values.wait()
            while (task := self._next()) is not None:
                self._count(k, *task)
        except BaseException as exc:  # the calling thread raises it
            with self.lock:
                self.failed = self.failed or exc
            self.values.set()
            self.ready.set()
            if k == 0:
                raise

    def stop_if_failed(self) -> None:
        """Let waiting threads end (after an error of the calling thread's, say)."""
        with self.lock:
            if self.fresh or self.later or not self.values.is_set():
                self.failed = self.failed or RuntimeError("counting stopped")
        self.values.set()
        self.ready.set()

    def _count(self, k: int, ci: int, lo: int, hi: int) -> None:
        count_columns, drop_columns, _clue_values = self.kernels
        plan, cols = self.plan, self.products.chunks[ci]
        if k not in self.counts:
            self.counts[k] = (np.zeros(self.shape, np.int64), np.zeros(self.shape, np.int64))
        beats, ties = self.counts[k]
        mat = self.products.get(ci, k)
        codes, rec_c, rec_v, four = self.slot_args[(lo, hi)]
        shape = (plan.n_rows, hi - lo)
        bt, tt = np.zeros(shape, np.int64), np.zeros(shape, np.int64)
        count_columns(mat, cols.start, 0, mat.shape[1], plan.sp, plan.bp, plan.bi, plan.rp,
                      plan.ri, codes, rec_c, rec_v, plan.cp, plan.ci, four, *plan.groups, bt, tt)  # fmt: skip
        beats[:, lo:hi] += bt
        ties[:, lo:hi] += tt
        xp, xi = self.dropped[ci]
        drop_columns(mat, cols.start, *plan.args(), plan.rec_c, plan.rec_v, plan.cp, plan.ci,
                     xp, xi, self.own[ci], lo, hi, beats, ties)  # fmt: skip

    def totals(self) -> tuple[np.ndarray, np.ndarray]:
        """Every thread's counts summed: ``(beats, ties)``."""
        if self.failed is not None:
            raise self.failed
        beats, ties = np.zeros(self.shape, np.int64), np.zeros(self.shape, np.int64)
        for b, t in self.counts.values():
            beats += b
            ties += t
        return beats, ties


def _slot_args(plan: _Plan, lo: int, hi: int) -> tuple:
    """The kernel's arguments for slots ``lo:hi``: codes, counts, values, the four fused.

    The slots are the ExhaustiveSearchSenders' (``lo`` 0) and, from ``len(plan.ex)``, the
    ClusterSenders'.
    """
    exhaustive = lo == 0 and len(plan.ex) > 0
    return (
        plan.codes if exhaustive else plan.codes[:0],
        np.ascontiguousarray(plan.rec_c if exhaustive else plan.rec_c[:, :0]),
        np.ascontiguousarray(plan.rec_v[:, lo:hi]),
        plan.four and exhaustive,
    )


#: bytes of one slice's similarity product in the compiled passes (a piece of the batch's own
#: slice when that is larger): small enough to stay in the processor's cache
COLUMN_BYTES = 32 << 20


class _Products:
    """The similarity products of the compiled passes' slices, one at a time, into one buffer.

    The slices are the batch's (:class:`~wordgames.codenames.measures._Batch`), cut to at most
    ``COLUMN_BYTES`` each. The buffer is the sender group's, kept from batch to batch.
    """

    def __init__(self, g, batch, column_bytes: int | None = None):
        column_bytes = COLUMN_BYTES if column_bytes is None else column_bytes
        self.g, self.words = g, batch.words
        step = max(1, min(batch.step, column_bytes // (4 * len(batch.words))))
        self.chunks = [
            slice(a, min(a + step, cols.stop))
            for cols in batch.chunks
            for a in range(cols.start, cols.stop, step)
        ]
        self.shape = (len(batch.words), step)

    def buffer(self, ci: int, k: int = 0) -> np.ndarray:
        """Thread ``k``'s buffer shaped for slice ``ci`` (overwritten by :meth:`fill`)."""
        n = self.chunks[ci].stop - self.chunks[ci].start
        size = self.shape[0] * self.shape[1]
        bufs = self.g.buffers
        if k not in bufs or bufs[k].size < size:
            bufs[k] = np.empty(size, np.float32)
        return bufs[k][: self.shape[0] * n].reshape(self.shape[0], n)

    def fill(self, mat: np.ndarray, start: int, stop: int, at: int) -> None:
        """The product of the vocabulary rows ``start:stop`` into ``mat``'s columns from ``at``."""
        out = mat[:, at : at + stop - start]
        res = self.g.sims(self.words, slice(start, stop), out=out).mat
        if res is not out:  # a distance other than the cosine makes its own array
            out[...] = res

    def get(self, ci: int, k: int = 0) -> np.ndarray:
        """The product of slice ``ci``, in thread ``k``'s buffer (overwriting the one before)."""
        mat = self.buffer(ci, k)
        self.fill(mat, self.chunks[ci].start, self.chunks[ci].stop, 0)
        return mat


def _clue_columns(plan: _Plan, products: _Products) -> tuple[np.ndarray, np.ndarray]:
    """Pass 1: the product's column of every record's clue, and each record's column in it.

    One product of the batch's words with the clues' rows alone: every similarity is exact
    (:mod:`wordgames.exact`), so each number is the one pass 2 sees in its slice.
    """
    rows = np.unique(plan.crows)
    out = products.g.sims(products.words, rows).mat
    return np.ascontiguousarray(out, dtype=np.float32), np.searchsorted(rows, plan.crows)


def _frequency_rows(plan: _Plan) -> None:
    """Frequency tie-break values are the clue's vocabulary row (its column in pass 1 is not)."""
    for e, code in enumerate(plan.codes.tolist()):
        if code == TIE_BREAK_CODES["frequency"]:
            plan.rec_v[:, e] = plan.crows
