"""The compiled counting (wordgames.codenames.counting) gives the ranks of the numpy pass.

Hand-computed ranks on a 2-D board with an exact tie, then equality with the numpy pass (the
previous method, ``compiled=False``) on random boards with many exact ties, several
vocabulary slices and batches, illegal and out-of-vocabulary clues, and on real records of
every available human data set, for every sender of the default line-up and more.
"""

from __future__ import annotations

import numpy as np
import pytest

from tests.codenames._toy import angles_embedding, random_embedding
from tests.conftest import require_dataset
from wordgames.codenames.agents import (
    ClusterSender,
    ExhaustiveSearchSender,
    RandomSender,
    default_senders,
)
from wordgames.codenames.counting import kernel_kind
from wordgames.codenames.measures import RankProblem, sender_ranks

pytest.importorskip("numba")


def _same(a, b) -> None:
    assert a.keys() == b.keys()
    for name in a:
        x, y = a[name], b[name]
        assert (x.record_ids, x.best, x.worst) == (y.record_ids, y.best, y.worst), name
        assert (x.n_candidates, x.weights, x.skipped) == (y.n_candidates, y.weights, y.skipped)


def test_hand_computed_ranks_with_a_tie():
    # blue a (0 deg) and b (10 deg), red r (180 deg); x and x2 both at 5 deg (an exact tie),
    # z at -5 deg, y at 90 deg. Counts: x, x2, z have both blue words as targets, y only b
    # (cos 80 > cos 90 = its closeness to a and to r). Mean target closeness: cos 5 for x
    # and x2, (cos 5 + cos 15) / 2 for z. ClusterSender's cluster is {a, b}: its centroid
    # lies at 5 deg, so it orders x = x2, then z, then y too.
    emb = angles_embedding({"a": 0, "b": 10, "r": 180, "x": 5, "x2": 5, "z": -5, "y": 90})
    senders = [ExhaustiveSearchSender(emb), ClusterSender(emb, n_restarts=2)]
    problems = [RankProblem(c, ("a", "b"), ("r",), c) for c in ("x", "x2", "z", "y")]
    res = sender_ranks(senders, problems, n_jobs=1)
    expected = {"x": (1, 2), "x2": (1, 2), "z": (3, 3), "y": (4, 4)}
    for name in ("exhaustive:avg_blue_dist", "cluster"):
        ranks = zip(res[name].best, res[name].worst, strict=True)
        got = dict(zip(res[name].record_ids, ranks, strict=True))
        assert got == expected, name
        assert res[name].n_candidates == [4] * 4  # a, b, r may not be clues


def _random_problems(emb, n, seed):
    rng = np.random.default_rng(seed)
    out = []
    for i in range(n):
        k = int(rng.integers(4, 13))
        w = [f"w{j}" for j in rng.choice(len(emb), k + 1, replace=False)]
        n_blue = int(rng.integers(1, min(5, k)))
        out.append(RankProblem(str(i), tuple(w[:n_blue]), tuple(w[n_blue:k]), w[k]))
    # a clue on its own board (illegal), an unknown board word, an unknown clue
    out.append(RankProblem("illegal", ("w1", "w2"), ("w3",), "w3"))
    out.append(RankProblem("oov-board", ("w1",), ("zzz", "w2"), "w3"))
    out.append(RankProblem("oov-clue", ("w1",), ("w4", "w2"), "qqq"))
    # the same split twice with different clues (records share a split)
    out.append(RankProblem("twice-1", ("w5", "w6"), ("w7", "w8"), "w9"))
    out.append(RankProblem("twice-2", ("w6", "w5"), ("w8", "w7"), "w10"))
    return out


def _all_senders(emb, distance="cosine"):
    # with the Euclidean distance the kernel counts the ExhaustiveSearchSenders and the numpy
    # pass the ClusterSender (its keys come from the raw vectors)
    return [
        *default_senders(emb, quick=True, distance=distance),
        ExhaustiveSearchSender(emb, "frequency", distance=distance),
    ]


def test_kernel_knows_the_default_line_up():
    emb = random_embedding(20, 3)
    exhaustive = [("exhaustive", c) for c in range(4)]
    assert [kernel_kind(s) for s in _all_senders(emb)] == [
        ("cluster",),
        *exhaustive,
        None,  # RandomSender: its rank is drawn
        ("exhaustive", 4),
    ]
    assert [kernel_kind(s) for s in _all_senders(emb, "euclidean")][:5] == [None, *exhaustive]
    assert kernel_kind(RandomSender(emb)) is None


@pytest.mark.parametrize(
    ("chunk_bytes", "batch_words", "n_jobs", "distance"),
    [
        (192 << 20, 512, 1, "cosine"),
        (4 * 40 * 37, 40, 2, "cosine"),
        (4 * 16 * 101, 16, 1, "cosine"),
        (4 * 40 * 37, 40, 2, "euclidean"),
    ],
)
@pytest.mark.slow
def test_compiled_equals_numpy_pass_on_random_boards_with_ties(
    chunk_bytes, batch_words, n_jobs, distance
):
    # the last 120 words copy the first 120 (exact ties of every key); small slices put clues
    # in late slices; small batches give several products
    emb = random_embedding(400, 5, seed=11, duplicates=120)
    problems = _random_problems(emb, 70, seed=12)
    kw = {"chunk_bytes": chunk_bytes, "batch_words": batch_words, "n_jobs": n_jobs}
    new = sender_ranks(_all_senders(emb, distance), problems, **kw)
    old = sender_ranks(_all_senders(emb, distance), problems, compiled=False, **kw)
    _same(new, old)
    res = new["exhaustive:avg_blue_dist"]
    assert res.skipped == {"clue_illegal": 1, "oov_board": 1, "oov_clue": 1}
    assert any(w > b for b, w in zip(res.best, res.worst, strict=True))  # ties were met
    assert any(w > b for b, w in zip(new["cluster"].best, new["cluster"].worst, strict=True))


def test_splits_with_many_records_and_exact_ties_give_the_same_result():
    # 12 splits of 1 to 6 records each (every record of a split compared with the split's
    # scores, counts below two sharing the first two scores' counts), the clues drawn among
    # the duplicated words (exact ties of every key), against the numpy pass
    emb = random_embedding(400, 5, seed=17, duplicates=120)
    rng = np.random.default_rng(18)
    problems = []
    for s in range(12):
        w = [f"w{j}" for j in rng.choice(280, 8, replace=False)]
        for r in range(1 + s % 6):
            clue = f"w{int(rng.choice(np.r_[0:120, 280:400]))}"
            if clue not in w:
                problems.append(RankProblem(f"{s}-{r}", tuple(w[:3]), tuple(w[3:]), clue))
    new = sender_ranks(_all_senders(emb), problems, chunk_bytes=4 * 40 * 37, batch_words=40)
    old = sender_ranks(_all_senders(emb), problems, chunk_bytes=4 * 40 * 37, batch_words=40,
                       compiled=False)  # fmt: skip
    _same(new, old)
    res = new["exhaustive:avg_blue_dist"]
    assert any(w > b for b, w in zip(res.best, res.worst, strict=True))  # ties were met


def test_red_groups_by_hand():
    # splits 0 and 1 share the red rows 1, 2, 3: read once (3 rows) plus one other each and
    # the shared maximum once each, 7 reads instead of 8; split 2 shares nothing: alone
    from wordgames.codenames.counting import _red_groups

    gs, gp, gi, ep, ei = _red_groups([[1, 2, 3, 4], [3, 2, 1, 5], [9]])
    assert gs.tolist() == [0, 0, 1]
    assert [gi[gp[g] : gp[g + 1]].tolist() for g in range(2)] == [[1, 2, 3], [9]]
    assert [ei[ep[s] : ep[s + 1]].tolist() for s in range(3)] == [[4], [5], []]
    # two splits sharing one red row of four each: joined, 1 + 3 + 3 + 2 = 9 reads, not 8
    gs, *_ = _red_groups([[1, 2, 3, 4], [1, 6, 7, 8]])
    assert gs.tolist() == [0, 1]


def _games(emb, n_games, seed):
    """Records of games as they go on: each turn guesses words off one 14-word board.

    The splits of a game share most red words (groups of splits in the kernel); a turn has
    one to six blue words and one or several clues, drawn among the duplicated words (exact
    ties of every key) and the rest.
    """
    rng = np.random.default_rng(seed)
    problems = []
    for g in range(n_games):
        board = [f"w{j}" for j in rng.choice(260, 14, replace=False)]
        for turn in range(6):
            left = board[turn * 2 :]
            n_blue = 1 + (g + turn) % min(6, len(left) - 1)
            blue, red = tuple(left[:n_blue]), tuple(left[n_blue:])
            for r in range(1 if (g + turn) % 3 else 4):
                clue = f"w{int(rng.choice(np.r_[0:60, 260:320, 0:260]))}"
                if clue not in board:
                    problems.append(RankProblem(f"{g}-{turn}-{r}", blue, red, clue))
    return problems


def test_games_on_the_default_line_up_give_the_numpy_pass_counts(monkeypatch):
    # the default line-up's own paths: red words read once per group of splits, a split's only
    # record counted straight from its blue rows (clues of fewer than two targets and of more),
    # up to four blue rows and more, several records of a split, the ClusterSender's sums
    import wordgames.codenames.counting as counting

    plans = []
    real_init = counting._Sweep.__init__

    def init(self, plan, *a):
        real_init(self, plan, *a)
        plans.append(plan)

    monkeypatch.setattr(counting._Sweep, "__init__", init)
    emb = random_embedding(320, 3, seed=31, duplicates=60)
    problems = _games(emb, 30, seed=32)
    kw = {"chunk_bytes": 4 * 90 * 150, "batch_words": 90, "n_jobs": 2}
    new = sender_ranks(default_senders(emb, quick=True), problems, **kw)
    old = sender_ranks(default_senders(emb, quick=True), problems, compiled=False, **kw)
    _same(new, old)
    assert any(w > b for b, w in zip(new["cluster"].best, new["cluster"].worst, strict=True))
    # every path was taken
    one, c, n_blue, shared = [], [], [], []
    for plan in plans:
        records = np.diff(plan.sp)
        one += (records == 1).tolist()
        c += plan.rec_c[plan.sp[:-1][records == 1], 0].tolist()
        n_blue += np.diff(plan.bp).tolist()
        gs, gp, gi, ep, ei = plan.groups
        shared.append(np.bincount(gs).max() > 1 and np.diff(gp).max() > 0)
    assert any(one) and not all(one)
    assert min(c) < 2 <= max(c)
    assert min(n_blue) == 1 and max(n_blue) > 4
    assert all(shared)


@pytest.mark.parametrize("column_bytes", [4 * 40 * 10, 4 * 40 * 37, 4 * 40 * 1])
def test_slices_cut_smaller_than_the_batch_give_the_same_counts(column_bytes, monkeypatch):
    # the batch's slices have 37 columns for 40 words; the compiled passes cut them into
    # pieces of 10, 37 (not cut) or 1 column, each product into its thread's buffer, the
    # number of threads from n_jobs
    import wordgames.codenames.counting as counting

    emb = random_embedding(400, 5, seed=11, duplicates=120)
    problems = _random_problems(emb, 70, seed=12)
    kw = {"chunk_bytes": 4 * 40 * 37, "batch_words": 40, "n_jobs": 2}
    old = sender_ranks(_all_senders(emb, "cosine"), problems, compiled=False, **kw)
    filled, in_pass1 = [], []
    real_fill, real_pass1 = counting._Products.fill, counting._clue_columns

    def fill(self, mat, start, stop, at):
        if not hasattr(self, "batch_no"):  # one object a batch (ids of freed ones come back)
            self.batch_no = len({f[0] for f in filled})
        filled.append((self.batch_no, self.shape, start, stop, bool(in_pass1)))
        return real_fill(self, mat, start, stop, at)

    calls = []

    def pass1(plan, products):
        in_pass1.append(True)
        calls.append(products)
        try:
            return real_pass1(plan, products)
        finally:
            in_pass1.clear()

    monkeypatch.setattr(counting, "COLUMN_BYTES", column_bytes)
    monkeypatch.setattr(counting._Products, "fill", fill)
    monkeypatch.setattr(counting, "_clue_columns", pass1)
    new = sender_ranks(_all_senders(emb, "cosine"), problems, **kw)
    _same(new, old)
    for _batch, (n_words, step), start, stop, _p1 in filled:  # within the budget and the slice
        assert (
            stop - start <= step == max(1, min(37 * 40 // n_words, column_bytes // (4 * n_words)))
        )
    batches = {f[0] for f in filled}
    for batch in batches:
        # pass 2 counts every column once for every sender, or twice where a slice was counted
        # before the clusters were chosen; pass 1 computes no piece (it multiplies the clue
        # rows alone: the products are exact, the same bits in any shape)
        cover = {True: np.zeros(400, int), False: np.zeros(400, int)}
        for b, _shape, start, stop, p1 in filled:
            cover[p1][start:stop] += b == batch
        assert set(cover[False].tolist()) <= {1, 2} and not cover[True].any()
    assert len(calls) == len({id(c) for c in calls}) == len(batches) > 1  # once a batch


def test_compiled_equals_numpy_pass_with_a_smaller_clue_vocabulary():
    emb = random_embedding(300, 4, seed=13, duplicates=50)
    problems = _random_problems(emb, 40, seed=14)
    senders = lambda: default_senders(emb, vocab_size=200, quick=True)  # noqa: E731
    new = sender_ranks(senders(), problems, chunk_bytes=4 * 30 * 64)
    old = sender_ranks(senders(), problems, chunk_bytes=4 * 30 * 64, compiled=False)
    _same(new, old)
    assert new["cluster"].skipped["oov_clue"] > 0  # clues beyond the first 200 rows


@pytest.mark.parametrize(
    "name",
    [
        "codenames-pilot",
        "codenames-human-salt",
        "codenames-human-noahprescott",
        "codenames-human-itsluisa",
        "codenames-human-xerevity",
        "codenames-human-heyyjudes",
        "codenames-human-stanfordhci",
    ],
)
@pytest.mark.slow
def test_compiled_equals_numpy_pass_on_real_records(name, glove):
    from wordgames.codenames.human_data import load_human_data
    from wordgames.codenames.measures import (
        sender_ranks_receiver_data,
        sender_ranks_sender_data,
    )

    require_dataset(name)
    data = load_human_data(name)
    rng = np.random.default_rng(0)
    for measure, records in (
        (sender_ranks_receiver_data, data.receiver),
        (sender_ranks_sender_data, data.sender),
    ):
        if not records:
            continue
        sample = [records[i] for i in sorted(rng.choice(len(records), min(25, len(records))))]
        new = measure(default_senders(glove), sample)
        old = measure(default_senders(glove), sample, compiled=False)
        _same(new, old)
        assert sum(len(r.best) for r in new.values()) > 0


def test_meanwhile_runs_once_on_the_calling_thread_while_the_kernels_count(monkeypatch):
    # work the caller gives to run beside the counting: once, on its own thread, before that
    # thread counts (another counts meanwhile), and the ranks are unchanged
    import threading

    import wordgames.codenames.counting as counting
    from wordgames.codenames.measures import sender_ranks_parts

    sweeps = []
    real_init = counting._Sweep.__init__

    def init(self, *a):
        real_init(self, *a)
        sweeps.append(self)

    monkeypatch.setattr(counting._Sweep, "__init__", init)
    emb = random_embedding(300, 4, seed=21, duplicates=40)
    problems = _random_problems(emb, 40, seed=22)
    kw = {"chunk_bytes": 4 * 40 * 20, "batch_words": 40, "n_jobs": 2}
    calls = []

    def meanwhile():
        on_caller = threading.current_thread() is threading.main_thread()
        calls.append((on_caller, len(sweeps), 0 in sweeps[-1].counts if sweeps else None))

    new = sender_ranks_parts(_all_senders(emb), [(problems, None)], meanwhile=meanwhile, **kw)
    old = sender_ranks(_all_senders(emb), problems, compiled=False, **kw)
    _same(new[0], old)
    assert calls == [(True, 1, False)]  # the calling thread had not counted yet
    assert 1 in sweeps[0].counts  # the other thread counted
    # no counting sender: it still runs, once
    calls.clear()
    sweeps.clear()
    sender_ranks_parts([RandomSender(emb)], [(problems, None)], meanwhile=meanwhile, **kw)
    assert calls == [(True, 0, None)]


def test_an_error_beside_the_counting_stops_it_and_is_raised():
    import threading

    emb = random_embedding(300, 4, seed=23)
    problems = _random_problems(emb, 30, seed=24)

    def meanwhile():
        raise KeyError("boom")

    from wordgames.codenames.measures import sender_ranks_parts

    with pytest.raises(KeyError, match="boom"):
        sender_ranks_parts(_all_senders(emb), [(problems, None)], meanwhile=meanwhile,
                           chunk_bytes=4 * 40 * 20, batch_words=40, n_jobs=2)  # fmt: skip
    assert not [t for t in threading.enumerate() if t.name.startswith("wordgames-count")]
