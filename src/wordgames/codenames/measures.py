"""Measures of Codenames agents against human play (paper section 4, Algorithms 4 to 7).

* Human Receiver data (a person picked board words for a clue):
  :func:`sender_ranks_receiver_data` (Algorithm 4: B = the person's picks, R = the rest of the
  board; the rank of the given clue in the sender's ranking) and :func:`receiver_map`
  (Algorithm 5: mean average precision of the receiver's ranking of the board, the picks being
  the relevant words; the standard AP -- the paper's ``index/rank`` is a slip).
* Human Sender data (a person gave a clue for a coloured board):
  :func:`sender_ranks_sender_data` (Algorithm 6: B = blue, R = every other board word) and
  :func:`receiver_guess_score` (Algorithm 7: the receiver guesses ``tau`` words; each target
  scores ``target_score``, each other blue word ``blue_score``, each non-blue word
  ``red_score``; a record's score is their sum divided once by ``tau``).

Ranks are 1-based over the clue vocabulary without the board words and other illegal clues.
Exact ties get the mean of the tied positions (``rank``), and ``best``/``worst`` are kept.
A record with an out-of-vocabulary word (board word or clue) is skipped for the agents it
affects: it is counted under ``skipped`` and left out of every mean, never scored as 0.

Speed: the rank of one clue is found by counting how many vocabulary words have smaller sort
keys (and how many equal ones), not by sorting; similarities come from one matrix product per
batch of records (:class:`~wordgames.codenames.agents.VocabSims`), and every record with the
same (blue, red) split shares one :class:`~wordgames.codenames.agents.BoardGeometry` across all
ExhaustiveSearchSender tie-breaks.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np

from wordgames.codenames.agents import (
    BoardGeometry,
    ColumnSubset,
    CountingSender,
    DrawnRankSender,
    NoSims,
    Receiver,
    Sender,
    VocabSims,
    agent_params,
)
from wordgames.codenames.board import _norm
from wordgames.codenames.records import HumanReceiverRecord, HumanSenderRecord
from wordgames.errors import OOVError
from wordgames.stats import mean_ci, rank_summary


def _weight(record) -> int:
    return max(1, int(getattr(record, "count", 1) or 1))


def agent_name(agent) -> str:
    """The agent's ``name``, else its class name: the key of its results."""
    return getattr(agent, "name", type(agent).__name__)


# --------------------------------------------------------------------------- results
@dataclass
class SenderRanks:
    """Per-record ranks of the human clue for one sender."""

    agent: str
    params: dict
    record_ids: list[str] = field(default_factory=list)
    groups: list[str] = field(default_factory=list)
    best: list[int] = field(default_factory=list)
    worst: list[int] = field(default_factory=list)
    n_candidates: list[int] = field(default_factory=list)
    weights: list[int] = field(default_factory=list)
    skipped: Counter = field(default_factory=Counter)
    oov_words: Counter = field(default_factory=Counter)

    @property
    def rank(self) -> np.ndarray:
        """Mean of the tied positions: (best + worst) / 2."""
        return (np.asarray(self.best, float) + np.asarray(self.worst, float)) / 2

    def _expand(self, values, group):
        # a record standing for ``count`` identical decisions counts ``count`` times
        sel = (
            np.ones(len(self.best), bool)
            if group in (None, "all")
            else (np.asarray(self.groups) == group)
        )
        return np.repeat(np.asarray(values, float)[sel], np.asarray(self.weights, int)[sel])

    def summary(self, group: str | None = None) -> dict:
        """Rank statistics over decisions (records weighted by their ``count``)."""
        rank = self._expand(self.rank, group)
        out = rank_summary(rank)
        best, worst = self._expand(self.best, group), self._expand(self.worst, group)
        out["mean_rank_best"] = float(best.mean()) if best.size else float("nan")
        out["mean_rank_worst"] = float(worst.mean()) if worst.size else float("nan")
        frac = rank / self._expand(self.n_candidates, group) if rank.size else np.array([])
        out["mean_rank_fraction"] = float(frac.mean()) if frac.size else float("nan")
        ci = mean_ci(rank)
        out["ci_low"], out["ci_high"] = ci["ci_low"], ci["ci_high"]
        out["n_skipped_oov"] = int(sum(v for k, v in self.skipped.items() if k.startswith("oov")))
        out["n_skipped"] = int(sum(self.skipped.values()))
        return out


@dataclass
class ReceiverScores:
    """Per-record scores (AP or Algorithm 7 score) of one receiver."""

    agent: str
    params: dict
    measure: str
    record_ids: list[str] = field(default_factory=list)
    groups: list[str] = field(default_factory=list)
    scores: list[float] = field(default_factory=list)
    weights: list[int] = field(default_factory=list)
    skipped: Counter = field(default_factory=Counter)
    oov_words: Counter = field(default_factory=Counter)

    def summary(self, group: str | None = None) -> dict:
        """Mean score over decisions (records weighted by their ``count``), 95% t interval."""
        s = np.asarray(self.scores, float)
        w = np.asarray(self.weights, int)
        if group not in (None, "all"):
            sel = np.asarray(self.groups) == group
            s, w = s[sel], w[sel]
        ci = mean_ci(np.repeat(s, w))
        return {
            self.measure: ci["mean"],
            "ci_low": ci["ci_low"],
            "ci_high": ci["ci_high"],
            "n": ci["n"],
            "n_skipped_oov": int(sum(v for k, v in self.skipped.items() if k.startswith("oov"))),
            "n_skipped": int(sum(self.skipped.values())),
        }


def groups_of(result) -> list[str]:
    """``"all"`` then every clue source, sorted."""
    return ["all", *sorted(set(result.groups))]


# --------------------------------------------------------------------------- senders
@dataclass(frozen=True)
class RankProblem:
    """One ranking question: where ``clue`` comes in the sender's ranking for (blue, red)."""

    record_id: str
    blue: tuple[str, ...]
    red: tuple[str, ...]
    clue: str
    group: str = "all"
    weight: int = 1


def problems_from_receiver_records(
    records: Iterable[HumanReceiverRecord],
) -> tuple[list[RankProblem], Counter]:
    """Algorithm 4: B = the person's picks, R = the rest of the board."""
    out, skipped = [], Counter()
    for r in records:
        board = [_norm(w) for w in r.board]
        chosen = list(dict.fromkeys(_norm(w) for w in r.chosen))
        if not chosen:
            skipped["no_picks"] += 1
            continue
        blue = tuple(w for w in chosen if w in board)
        if len(blue) != len(chosen):
            skipped["pick_not_on_board"] += 1
            continue
        red = tuple(w for w in dict.fromkeys(board) if w not in blue)
        out.append(
            RankProblem(
                r.record_id, blue, red, _norm(r.clue), r.clue_source or "unknown", _weight(r)
            )
        )
    return out, skipped


def problems_from_sender_records(
    records: Iterable[HumanSenderRecord],
) -> tuple[list[RankProblem], Counter]:
    """Algorithm 6: B = blue, R = every other board word (``record.avoid``)."""
    out, skipped = [], Counter()
    for r in records:
        blue = tuple(dict.fromkeys(_norm(w) for w in r.blue))
        red = tuple(w for w in dict.fromkeys(_norm(w) for w in r.avoid) if w not in blue)
        if not blue:
            skipped["no_blue"] += 1
            continue
        out.append(
            RankProblem(r.record_id, blue, red, _norm(r.clue), r.clue_source or "human", _weight(r))
        )
    return out, skipped


def sender_ranks(
    senders: Sequence,
    problems: Sequence[RankProblem],
    *,
    batch_words: int = 512,
    chunk_bytes: int = 192 << 20,
    n_jobs: int | None = None,
    skipped: Counter | None = None,
    progress: Callable[[int], None] | None = None,
) -> dict[str, SenderRanks]:
    """Rank of each problem's clue for each sender (the core of Algorithms 4 and 6).

    Senders are measured by what they are (:mod:`wordgames.codenames.agents` protocols):
    a :class:`~wordgames.codenames.agents.DrawnRankSender` draws its rank; a
    :class:`~wordgames.codenames.agents.CountingSender` is measured with the fast path:
    senders on the same embedding and distance share one matrix product per batch of records
    (at most ``batch_words`` distinct board words each) and one geometry per (blue, red) split;
    any other :class:`~wordgames.codenames.agents.Sender` is asked for
    ``ranked_forward(blue, red)`` and the clue's position in it.
    ``chunk_bytes`` bounds the similarity matrix of one vocabulary slice; ``n_jobs`` threads
    (default: the number of CPUs, at most 8) share the records of a slice.
    ``progress(n)`` is called after every ``n`` problems of every sender group.
    """
    results: dict[str, SenderRanks] = {}
    fast: dict[tuple, list] = defaultdict(list)
    for s in senders:
        name = agent_name(s)
        if name in results:
            raise ValueError(f"two senders are named {name!r}; give them distinct names")
        results[name] = SenderRanks(name, agent_params(s), skipped=Counter(skipped or {}))
        if isinstance(s, DrawnRankSender):
            _drawn_ranks(s, problems, results[name])
        elif isinstance(s, CountingSender):
            fast[(id(s.embedding), s.distance, s.n_vocab)].append(s)
        elif isinstance(s, Sender):
            _slow_sender(s, problems, results[name], progress)
        else:
            raise TypeError(
                f"{name!r} is not a sender: it needs give_clue(board) and ranked_forward(blue, red)"
            )

    for group in fast.values():
        _fast_senders(group, problems, results, batch_words, progress, chunk_bytes, n_jobs)
    return results


def _record_rank(res: SenderRanks, p: RankProblem, best: int, worst: int, n_cand: int) -> None:
    res.record_ids.append(p.record_id)
    res.groups.append(p.group)
    res.best.append(int(best))
    res.worst.append(int(worst))
    res.n_candidates.append(int(n_cand))
    res.weights.append(int(p.weight))


def _slow_sender(sender, problems, res: SenderRanks, progress) -> None:
    for p in problems:
        try:
            ranking = list(sender.ranked_forward(list(p.blue), list(p.red)))
        except (OOVError, KeyError):
            res.skipped["oov_board"] += 1
            continue
        try:
            pos = ranking.index(p.clue) + 1
        except ValueError:
            res.skipped["clue_not_ranked"] += 1
            continue
        _record_rank(res, p, pos, pos, len(ranking))
        if progress:
            progress(1)


def _valid_for(sender, problems, res: SenderRanks):
    """Problems whose words the sender's embedding knows (the others are counted as skipped)."""
    index, n_vocab = sender.embedding.word_index, sender.n_vocab
    out = []
    for p in problems:
        oov = [w for w in p.blue + p.red if w not in index]
        crow = index.get(p.clue)
        if oov:
            res.skipped["oov_board"] += 1
            res.oov_words.update(oov)
        elif crow is None or crow >= n_vocab:
            res.skipped["oov_clue"] += 1
            res.oov_words[p.clue] += 1
        else:
            out.append((p, crow))
    return out


def _drawn_ranks(sender, problems, res: SenderRanks) -> None:
    """Senders whose rank distribution is known (RandomSender): one draw per record."""
    cache: dict[tuple, np.ndarray] = {}
    for p, crow in _valid_for(sender, problems, res):
        board = tuple(sorted(p.blue + p.red))
        if board not in cache:
            cache[board] = sender.excluded_rows(board)
        ex = cache[board]
        if crow in set(ex.tolist()):
            res.skipped["clue_illegal"] += 1
            continue
        n_cand = sender.n_vocab - len(ex)
        r = sender.draw_rank(p.blue, p.red, p.clue, n_cand)
        _record_rank(res, p, r, r, n_cand)


def _fast_senders(
    group: list,
    problems: Sequence[RankProblem],
    results,
    batch_words,
    progress,
    chunk_bytes: int = 192 << 20,
    n_jobs: int | None = None,
):
    n_jobs = _n_jobs(n_jobs)
    if n_jobs > 1:
        from concurrent.futures import ThreadPoolExecutor

        with ThreadPoolExecutor(n_jobs) as pool:
            return _fast_senders_on(
                group, problems, results, batch_words, progress, chunk_bytes, pool
            )
    return _fast_senders_on(group, problems, results, batch_words, progress, chunk_bytes, None)


def _n_jobs(n_jobs: int | None) -> int:
    import os

    if n_jobs is None:
        return max(1, min(8, os.cpu_count() or 1))
    return max(1, int(n_jobs))


@dataclass
class _SenderGroup:
    """Counting senders that share one embedding, distance and clue vocabulary.

    One matrix product per batch of records and vocabulary slice serves them all.
    """

    senders: list
    names: list[str]

    @property
    def embedding(self):
        return self.senders[0].embedding

    @property
    def n_vocab(self) -> int:
        return self.senders[0].n_vocab

    def sims(self, words: list[str], cols: slice):
        """Closeness of the vocabulary slice ``cols`` to ``words``.

        None when no sender of the group needs similarities.
        """
        if any(getattr(s, "needs_similarities", True) for s in self.senders):
            return VocabSims(
                self.embedding, words, self.senders[0].distance, self.n_vocab, cols=cols
            )
        return NoSims(words, self.n_vocab, cols)


@dataclass
class _Batch:
    """Records whose distinct board words fit one matrix product per vocabulary slice."""

    words: list[str]
    step: int  # columns per vocabulary slice
    chunks: list[slice]
    splits: dict[tuple, list]  # (blue, red) -> [(problem, clue row)]
    excl: dict[tuple, np.ndarray]  # (blue, red, sender index) -> rows that may not be clues


def _fast_senders_on(group, problems, results, batch_words, progress, chunk_bytes, pool):
    g = _SenderGroup(group, [agent_name(s) for s in group])
    # the senders of a group share embedding and vocabulary: the same records are valid (each
    # sender's skipped records are counted in its own result)
    valid = [_valid_for(s, problems, results[n]) for s, n in zip(group, g.names, strict=True)][0]
    excl_cache: dict[tuple, np.ndarray] = {}
    for records in _batches(valid, batch_words):
        batch = _prepare_batch(g, records, chunk_bytes, excl_cache)
        target, kept = _clue_values(g, batch)
        beats = _count_beats(g, batch, target, kept, pool)
        _record_batch(g, batch, beats, results)
        if progress:
            progress(len(records))


def _batches(valid: list, batch_words: int) -> list[list]:
    """Consecutive records, cut where the distinct board words would exceed ``batch_words``."""
    batches, cur, cur_words = [], [], set()
    for p, crow in valid:
        words = set(p.blue + p.red)
        if cur and len(cur_words | words) > batch_words:
            batches.append(cur)
            cur, cur_words = [], set()
        cur.append((p, crow))
        cur_words |= words
    if cur:
        batches.append(cur)
    return batches


def _prepare_batch(
    g: _SenderGroup, records: list, chunk_bytes: int, excl_cache: dict[tuple, np.ndarray]
) -> _Batch:
    """The batch's words, vocabulary slices, (blue, red) splits and excluded rows per sender.

    Excluded rows are shared by senders with the same clue rules, and across batches.
    """
    words = sorted({w for p, _ in records for w in p.blue + p.red})
    step = max(1, chunk_bytes // (4 * len(words)))
    chunks = [slice(a, min(a + step, g.n_vocab)) for a in range(0, g.n_vocab, step)]
    splits: dict[tuple, list] = defaultdict(list)
    for p, crow in records:
        splits[(tuple(sorted(p.blue)), tuple(sorted(p.red)))].append((p, crow))
    excl = {}
    for blue, red in splits:
        board = tuple(sorted(blue + red))
        for si, s in enumerate(g.senders):
            key = (s.clue_rules, board)
            if key not in excl_cache:
                excl_cache[key] = s.excluded_rows(board)
            excl[(blue, red, si)] = excl_cache[key]
    return _Batch(words, step, chunks, splits, excl)


def _clue_values(g: _SenderGroup, batch: _Batch) -> tuple[dict, dict]:
    """Pass 1: each clue's own sort keys, from the vocabulary slice that holds it.

    The slice's similarities are restricted to the clue columns, so the values are those of
    pass 2 (elementwise operations on the same numbers) and a tie is an exact tie. Returns
    ``{(blue, red, sender index, record index): keys}`` and the first slice's similarities,
    kept for pass 2.
    """
    target: dict[tuple, tuple] = {}
    kept: dict[int, object] = {}
    for ci, cols in enumerate(batch.chunks):
        todo = {
            k: [(j, pc) for j, pc in enumerate(v) if pc[1] // batch.step == ci]
            for k, v in batch.splits.items()
        }
        todo = {k: v for k, v in todo.items() if v}
        if not todo:
            continue
        sims = g.sims(batch.words, cols)
        if not kept:
            kept[ci] = sims  # reused by pass 2
        for (blue, red), items in todo.items():
            local = np.array([crow - cols.start for _j, (_p, crow) in items])
            geom = BoardGeometry(ColumnSubset(sims, local), blue, red)
            for si, s in enumerate(g.senders):
                for pos, (j, _pc) in enumerate(items):
                    target[(blue, red, si, j)] = s.rank_values(geom, pos)
    return target, kept


def _count_split(g: _SenderGroup, batch: _Batch, target: dict, job) -> list:
    """The words of one vocabulary slice that beat each clue of one split, and the ties."""
    (blue, red), items, sims, cols = job
    out = []
    geoms: dict[int, BoardGeometry] = {}  # one per distinct exclusion set
    for si, s in enumerate(g.senders):
        ex = batch.excl[(blue, red, si)]
        geom = geoms.get(id(ex))
        if geom is None:
            local = ex[(ex >= cols.start) & (ex < cols.stop)] - cols.start
            geom = geoms[id(ex)] = BoardGeometry(sims, blue, red, excluded=local)
        for j, (_p, crow) in enumerate(items):
            own = crow - cols.start if cols.start <= crow < cols.stop else None
            out.append(((blue, red, si, j), s.count_rank(geom, target[(blue, red, si, j)], own)))
    return out


def _count_beats(g: _SenderGroup, batch: _Batch, target: dict, kept: dict, pool) -> dict:
    """Pass 2: count, slice by slice, the words that beat each clue and the ties.

    The splits of a slice are independent, so they run on a pool of threads (numpy releases the GIL
    inside its loops). Returns ``{(blue, red, sender index, record index): [beats, ties]}``.
    """
    from functools import partial

    count = partial(_count_split, g, batch, target)
    beats: dict[tuple, list] = defaultdict(lambda: [0, 0])
    for ci, cols in enumerate(batch.chunks):
        sims = kept.pop(ci, None) or g.sims(batch.words, cols)
        jobs = [(k, v, sims, cols) for k, v in batch.splits.items()]
        for res in pool.map(count, jobs) if pool else map(count, jobs):
            for key, (b, t) in res:
                acc = beats[key]
                acc[0] += b
                acc[1] += t
        kept.clear()
    return beats


def _record_batch(g: _SenderGroup, batch: _Batch, beats: dict, results) -> None:
    """Each record's best and worst rank into its sender's result.

    A clue that may not be given for its board is counted as ``clue_illegal``.
    """
    ex_sets: dict[int, set] = {}
    for (blue, red), items in batch.splits.items():
        for si, name in enumerate(g.names):
            ex = batch.excl[(blue, red, si)]
            if id(ex) not in ex_sets:
                ex_sets[id(ex)] = set(ex.tolist())
            for j, (p, crow) in enumerate(items):
                if crow in ex_sets[id(ex)]:
                    results[name].skipped["clue_illegal"] += 1
                    continue
                b, t = beats[(blue, red, si, j)]
                _record_rank(results[name], p, b + 1, b + 1 + t, g.n_vocab - len(ex))


def sender_ranks_receiver_data(
    senders, records: Iterable[HumanReceiverRecord], **kw
) -> dict[str, SenderRanks]:
    """Algorithm 4 on Human Receiver records (B = the picks, R = the rest of the board)."""
    problems, skipped = problems_from_receiver_records(records)
    return sender_ranks(senders, problems, skipped=skipped, **kw)


def sender_ranks_sender_data(
    senders, records: Iterable[HumanSenderRecord], **kw
) -> dict[str, SenderRanks]:
    """Algorithm 6 on Human Sender records (B = blue, R = red + neutral + assassin)."""
    problems, skipped = problems_from_sender_records(records)
    return sender_ranks(senders, problems, skipped=skipped, **kw)


# --------------------------------------------------------------------------- receivers
def average_precision(ranking: Sequence[str], relevant: Iterable[str]) -> float:
    """Standard average precision.

    The mean over relevant items of the precision at their position in ``ranking`` (relevant items
    missing from the ranking count as precision 0).

    >>> average_precision(["a", "b", "c", "d"], {"a", "c"})  # (1/1 + 2/3) / 2
    0.8333333333333333
    """
    rel = set(relevant)
    if not rel:
        raise ValueError("average precision needs at least one relevant item")
    hits, total = 0, 0.0
    for i, w in enumerate(ranking, start=1):
        if w in rel:
            hits += 1
            total += hits / i
    return total / len(rel)


def expected_random_ap(n: int, n_relevant: int) -> float:
    """Expected AP of a uniformly random ranking of ``n`` items with ``n_relevant`` relevant.

    It is ``(H_n + (R - 1)/(n - 1) * (n - H_n)) / n`` (sum over positions of P(relevant) times the
    expected precision there).
    """
    h = float(np.sum(1.0 / np.arange(1, n + 1)))
    if n == 1:
        return 1.0
    return (h + (n_relevant - 1) / (n - 1) * (n - h)) / n


def _receiver(agent):
    if not isinstance(agent, Receiver):
        raise TypeError(
            f"{agent_name(agent)!r} is not a receiver: it needs "
            "guess(board_words, clue, number) and ranked_forward(board_words, clue)"
        )
    return agent


def _receiver_oov(receiver, words: Sequence[str]) -> list[str]:
    emb = getattr(receiver, "embedding", None)
    if emb is None:
        return []
    return [w for w in words if w not in emb]


def receiver_map(
    receivers: Sequence, records: Iterable[HumanReceiverRecord]
) -> dict[str, ReceiverScores]:
    """Algorithm 5: average precision of ``receiver.ranked_forward(board, clue)``.

    The person's picks are the relevant words; the mean over records is the MAP.

    Parameters
    ----------
    receivers : sequence of Receiver
        Agents with ``ranked_forward(board_words, clue)`` and ``guess`` (e.g.
        :class:`~wordgames.codenames.agents.EmbeddingNearestReceiver`), distinct names.
    records : iterable of HumanReceiverRecord
        A person's picks for a clue on a board.

    Returns
    -------
    dict of str to ReceiverScores
        By agent name: per-record average precision; ``.summary()`` gives the ``map``, its 95 %
        interval, ``n`` and the skipped counts (a record with a word the agent does not know
        is skipped and counted, never scored 0).

    Examples
    --------
    >>> import numpy as np
    >>> from wordgames.embeddings import Embedding
    >>> from wordgames.codenames import EmbeddingNearestReceiver, HumanReceiverRecord
    >>> emb = Embedding(["dog", "cat", "car", "pet"],
    ...                 np.array([[1.0, 0.1], [0.9, 0.3], [0.0, 1.0], [1.0, 0.2]]), name="toy")
    >>> picked = HumanReceiverRecord("mine", "1", board=("dog", "cat", "car"), clue="pet",
    ...                              chosen=("dog", "cat"))
    >>> unknown = HumanReceiverRecord("mine", "2", board=("dog", "cat", "car"), clue="zebra",
    ...                               chosen=("dog",))
    >>> res = receiver_map([EmbeddingNearestReceiver(emb)], [picked, unknown])["nearest"]
    >>> s = res.summary()
    >>> s["map"], s["n"], dict(res.skipped)
    (1.0, 1, {'oov_clue': 1})
    """
    records = list(records)
    out = {}
    for rec in receivers:
        name = agent_name(rec)
        res = ReceiverScores(name, agent_params(_receiver(rec)), "map")
        for r in records:
            board = list(dict.fromkeys(_norm(w) for w in r.board))
            picks = set(_norm(w) for w in r.chosen)
            if not picks:
                res.skipped["no_picks"] += 1
                continue
            if not picks <= set(board):
                res.skipped["pick_not_on_board"] += 1
                continue
            oov = _receiver_oov(rec, [*board, _norm(r.clue)])
            if oov:
                res.skipped["oov_clue" if _norm(r.clue) in oov else "oov_board"] += 1
                res.oov_words.update(oov)
                continue
            try:
                ranking = rec.ranked_forward(board, _norm(r.clue))
            except (OOVError, KeyError):
                res.skipped["oov_board"] += 1
                continue
            res.record_ids.append(r.record_id)
            res.groups.append(r.clue_source or "unknown")
            res.scores.append(average_precision(ranking, picks))
            res.weights.append(_weight(r))
        out[name] = res
    return out


def number_for(record: HumanSenderRecord) -> tuple[int | None, tuple[str, ...]]:
    """``tau`` and the target set of a Human Sender record for Algorithm 7.

    tau = the number of stated targets; where the source records no targets, tau = the number
    the person gave and *every blue word counts as a target* (nothing tells them apart).
    Returns ``(None, ())`` when neither is known.
    """
    blue = tuple(_norm(w) for w in record.blue)
    targets = tuple(dict.fromkeys(_norm(w) for w in record.targets if _norm(w) in blue))
    if targets:
        return len(targets), targets
    if record.number:
        return int(record.number), blue
    return None, ()


def receiver_guess_score(
    receivers: Sequence,
    records: Iterable[HumanSenderRecord],
    *,
    target_score: float = 1.0,
    blue_score: float = 0.0,
    red_score: float = -1.0,
) -> dict[str, ReceiverScores]:
    """Algorithm 7: ``receiver.guess(board, clue, tau)`` scored per guessed word.

    Each guess scores by kind (target, other blue, non-blue), the row's sum is divided once by
    ``tau``, and the result is the mean over records.

    The board is shown to the receiver in alphabetical order so that no colour comes first.
    """
    records = list(records)
    out = {}
    for rec in receivers:
        name = agent_name(rec)
        res = ReceiverScores(name, agent_params(_receiver(rec)), "guess_score")
        for r in records:
            tau, targets = number_for(r)
            if not tau:
                res.skipped["no_number"] += 1
                continue
            blue = set(_norm(w) for w in r.blue)
            board = sorted(set(blue) | {_norm(w) for w in r.avoid})
            clue = _norm(r.clue)
            oov = _receiver_oov(rec, [*board, clue])
            if oov:
                res.skipped["oov_clue" if clue in oov else "oov_board"] += 1
                res.oov_words.update(oov)
                continue
            try:
                picks = rec.guess(board, clue, tau)
            except (OOVError, KeyError):
                res.skipped["oov_board"] += 1
                continue
            tset = set(targets)
            row = 0.0
            for w in picks:
                if w in tset:
                    row += target_score
                elif w in blue:
                    row += blue_score
                else:
                    row += red_score
            res.record_ids.append(r.record_id)
            res.groups.append(r.clue_source or "human")
            res.scores.append(row / tau)
            res.weights.append(_weight(r))
        out[name] = res
    return out
