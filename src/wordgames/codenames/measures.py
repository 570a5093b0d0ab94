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
ExhaustiveSearchSender tie-breaks. The counting of the default senders runs in a compiled kernel
(:mod:`wordgames.codenames.counting`) on the same similarity products; the numpy pass here
(``compiled=False``) is the reference it is tested against.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import partial

import numpy as np

from wordgames.blas import single_threaded_blas
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
from wordgames.codenames.board import _norm, derive_rng
from wordgames.codenames.records import HumanReceiverRecord, HumanSenderRecord
from wordgames.errors import OOVError
from wordgames.exact import weighted_sums
from wordgames.reading import take_tally
from wordgames.stats import rank_summary
from wordgames.subjects import AnswerError

#: the statistics of :meth:`SenderRanks.summary`, each one a mean (or median) of a
#: per-decision value, so that one bootstrap resample gives all of them
RANK_STATS = (
    "mean_rank",
    "median_rank",
    "mrr",
    "hits@10",
    "hits@100",
    "mrr@10",
    "mean_rank_best",
    "mean_rank_worst",
    "mean_rank_fraction",
)
#: the statistics defined when a rank below a sender's list is known only to be below it (a
#: player sender lists its best ``n_clues``): each counts a clue below the top 10 as 0
CENSORED_STATS = ("hits@10", "mrr@10")


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
    #: the length of the sender's list when it ranks only its best clues (a player sender):
    #: a clue not listed has rank ``listed + 1``, known only to be below the list
    listed: int | None = None
    #: decisions scored by the game's "no move" because the player's answer could not be
    #: read (in ``n``; a sender that lists no clue ranks the person's clue below its list)
    unread: int = 0
    #: how the player's answers were read (:class:`~wordgames.reading.Tally`), else None
    reading: object = None
    _summaries: dict = field(default_factory=dict, repr=False, compare=False)

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

    def values(self, group: str | None = None, stat: str = "mean_rank") -> np.ndarray:
        """Each decision's value of ``stat`` (its rank by default; records repeated ``count`` times)."""
        if stat == "mean_rank":
            return self._expand(self.rank, group)
        per, weights = self.per_record(group)
        return np.repeat(per[stat], weights)

    def defined(self) -> tuple[str, ...]:
        """The statistics of :data:`RANK_STATS` its ranks define (all, unless censored)."""
        if self.listed is None:
            return RANK_STATS
        return tuple(
            k for k in RANK_STATS if k in CENSORED_STATS or (k == "hits@100" and self.listed >= 100)
        )

    def summary(
        self,
        group: str | None = None,
        *,
        n_resamples: int = 1000,
        seed: int = 0,
        intervals: Sequence[str] = ("mean_rank",),
    ) -> dict:
        """Rank statistics over decisions (records weighted by their ``count``).

        Parameters
        ----------
        group : str, optional
            A clue source (``None`` or ``"all"``: every record).
        n_resamples : int
            Bootstrap resamples of each interval (0: no interval).
        seed : int
            Seed of the resampling; every statistic uses the same resamples.
        intervals : sequence of str
            The statistics (of :data:`RANK_STATS`) that get a percentile-bootstrap 95 %
            interval, under ``ci[statistic]``; ``ci_low``/``ci_high`` are the mean rank's.

        Returns
        -------
        dict
            The statistics, ``n``, ``n_skipped``, ``n_skipped_oov`` and the intervals.
        """
        intervals = tuple(k for k in intervals if k in self.defined())
        key = (group or "all", n_resamples, seed, intervals, len(self.best))
        hit = self._summaries.get(key)
        if hit is None:
            hit = self._summaries[key] = self._summary(group, n_resamples, seed, intervals)
        return dict(hit, ci=dict(hit["ci"]))

    def _summary(self, group, n_resamples, seed, intervals) -> dict:
        per, weights = self.per_record(group)
        rank = self.values(group)
        out = rank_summary(rank)
        for k in ("mrr@10", "mean_rank_best", "mean_rank_worst", "mean_rank_fraction"):
            out[k] = float(np.repeat(per[k], weights).mean()) if rank.size else float("nan")
        for k in set(RANK_STATS) - set(self.defined()):
            out[k] = float("nan")
        top = float(max(self.n_candidates)) if self.n_candidates else None
        bounds = {
            k: (1.0, top) if "rank" in k and k != "mean_rank_fraction" else (0.0, 1.0)
            for k in intervals
        }
        out["ci"] = joint_bootstrap_ci(
            {k: per[k] for k in intervals},
            {k: "median" if k == "median_rank" else "mean" for k in intervals},
            weights=weights,
            n_resamples=n_resamples,
            seed=seed,
            bounds=bounds,
        )
        out["ci_low"], out["ci_high"] = out["ci"].get("mean_rank", (float("nan"),) * 2)
        out["n_skipped_oov"] = int(sum(v for k, v in self.skipped.items() if k.startswith("oov")))
        out["n_skipped"] = int(sum(self.skipped.values()))
        return out

    def per_record(self, group: str | None = None) -> tuple[dict[str, np.ndarray], np.ndarray]:
        """Each statistic of :data:`RANK_STATS` as the per-record value it averages, and weights.

        A record stands for ``weights[i]`` decisions (its ``count``).
        """
        sel = (
            np.ones(len(self.best), bool)
            if group in (None, "all")
            else (np.asarray(self.groups) == group)
        )
        best = np.asarray(self.best, float)[sel]
        worst = np.asarray(self.worst, float)[sel]
        rank = (best + worst) / 2
        n_cand = np.asarray(self.n_candidates, float)[sel]
        per = {
            "mean_rank": rank,
            "median_rank": rank,
            "mrr": 1.0 / rank,
            "hits@10": (rank <= 10).astype(float),
            "hits@100": (rank <= 100).astype(float),
            "mrr@10": np.where(rank <= 10, 1.0 / rank, 0.0),
            "mean_rank_best": best,
            "mean_rank_worst": worst,
            "mean_rank_fraction": rank / n_cand,
        }
        for k in set(per) - set(self.defined()):
            per[k] = np.full(rank.shape, np.nan)
        return per, np.asarray(self.weights, int)[sel]


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
    #: the range a record's score can take (intervals are kept inside it)
    bounds: tuple[float | None, float | None] = (None, None)
    #: decisions scored by the game's "no move" because the player's answer could not be
    #: read (in ``n``: the board left as shown; no guess)
    unread: int = 0
    #: how the player's answers were read (:class:`~wordgames.reading.Tally`), else None
    reading: object = None
    _summaries: dict = field(default_factory=dict, repr=False, compare=False)

    def values(self, group: str | None = None) -> np.ndarray:
        """The score of each decision (records repeated ``count`` times)."""
        s = np.asarray(self.scores, float)
        w = np.asarray(self.weights, int)
        if group not in (None, "all"):
            sel = np.asarray(self.groups) == group
            s, w = s[sel], w[sel]
        return np.repeat(s, w)

    def summary(self, group: str | None = None, *, n_resamples: int = 1000, seed: int = 0) -> dict:
        """Mean score over decisions (records weighted by their ``count``).

        The 95 % interval is a seeded percentile bootstrap of the mean over decisions
        (``n_resamples`` resamples; 0: none); it lies within ``bounds``.
        """
        key = (group or "all", n_resamples, seed, len(self.scores))
        hit = self._summaries.get(key)
        if hit is None:
            hit = self._summaries[key] = self._summary(group, n_resamples, seed)
        return dict(hit)

    def _summary(self, group, n_resamples, seed) -> dict:
        x = self.values(group)
        s = np.asarray(self.scores, float)
        w = np.asarray(self.weights, int)
        if group not in (None, "all"):
            sel = np.asarray(self.groups) == group
            s, w = s[sel], w[sel]
        (lo, hi) = joint_bootstrap_ci(
            {"score": s},
            {"score": "mean"},
            weights=w,
            n_resamples=n_resamples,
            seed=seed,
            bounds={"score": self.bounds},
        )["score"]
        return {
            self.measure: float(x.mean()) if x.size else float("nan"),
            "ci_low": lo,
            "ci_high": hi,
            "n": int(x.size),
            "n_skipped_oov": int(sum(v for k, v in self.skipped.items() if k.startswith("oov"))),
            "n_skipped": int(sum(self.skipped.values())),
        }


def groups_of(result) -> list[str]:
    """``"all"`` then every clue source, sorted."""
    return ["all", *sorted(set(result.groups))]


def joint_bootstrap_ci(
    columns: dict[str, np.ndarray],
    statistics: dict[str, str],
    *,
    weights=None,
    n_resamples: int = 1000,
    confidence: float = 0.95,
    seed: int = 0,
    bounds: dict | None = None,
    chunk: int = 2_000_000,
) -> dict[str, tuple[float, float]]:
    """Percentile-bootstrap intervals of several statistics of the same decisions, one resampling.

    Every column holds one value per record (e.g. a rank, its reciprocal, a hit); a record
    stands for ``weights[i]`` identical decisions. Each resample draws the decisions with
    replacement (as :func:`wordgames.stats.bootstrap_ci` draws them from the values repeated by
    their weights: the same generator, the same draws) and every statistic is computed on it
    from the records' counts in the resample, so that one draw serves every statistic and a
    record standing for many decisions costs no more than one.

    Parameters
    ----------
    columns : dict of str to array of float
        The per-record values of each statistic (equal lengths; finite).
    statistics : dict of str to {"mean", "median"}
        The statistic of each column.
    weights : array of int, optional
        Decisions per record (default: 1 each).
    n_resamples : int
        Bootstrap resamples; 0 gives ``(nan, nan)`` for each.
    confidence : float
        Coverage of the intervals.
    seed : int
        Seed of the resampling.
    bounds : dict of str to (float or None, float or None), optional
        Each statistic's natural range (the interval is clipped to it as a guard).
    chunk : int
        About this many decisions are drawn at once.

    Returns
    -------
    dict of str to (float, float)

    Examples
    --------
    >>> from wordgames.stats import bootstrap_ci
    >>> r, w = np.array([1.0, 3.0, 2.0, 10.0]), np.array([2, 1, 1, 3])
    >>> got = joint_bootstrap_ci({"m": r, "md": r}, {"m": "mean", "md": "median"}, weights=w)
    >>> x = np.repeat(r, w)
    >>> np.allclose(got["m"], bootstrap_ci(x)), got["md"] == bootstrap_ci(x, statistic="median")
    (True, True)
    """
    nan = (float("nan"), float("nan"))
    cols = {k: np.asarray(v, dtype=float) for k, v in columns.items()}
    k_rec = len(next(iter(cols.values()))) if cols else 0
    w = np.ones(k_rec, dtype=np.int64) if weights is None else np.asarray(weights, dtype=np.int64)
    if int(w.sum()) < 2 or n_resamples <= 0:
        return {k: nan for k in cols}
    n = int(w.sum())
    means = [k for k in cols if statistics[k] == "mean"]
    mean_cols = np.stack([cols[k] for k in means], axis=1) if means else None
    orders = {k: np.argsort(v, kind="stable") for k, v in cols.items() if statistics[k] == "median"}
    dist: dict[str, list] = {k: [] for k in cols}
    with single_threaded_blas():  # small products: BLAS threads cost more than they give
        for counts in _shared_counts(w, n_resamples, seed, chunk):
            if means:
                # summed in a fixed order: the interval's last bits never come from the CPU
                for k, m in zip(means, (weighted_sums(counts, mean_cols) / n).T, strict=True):
                    dist[k].append(m)
            for k, order in orders.items():
                dist[k].append(_median_of_counts(counts, cols[k], order, n))
    alpha = (1.0 - confidence) / 2.0
    out = {}
    for k, parts in dist.items():
        lo, hi = (float(x) for x in np.quantile(np.concatenate(parts), [alpha, 1.0 - alpha]))
        out[k] = _clip((lo, hi), (bounds or {}).get(k))
    return out


#: the resample counts of the weights bootstrapped last (every agent scored on the same records
#: of a data set draws the same resamples: one draw serves them all), the most recent first
#: kept within _COUNTS_CACHE_BYTES: the scores, the tables and the shares of a unit visit the
#: same data sets in turn, and drawing them again was a third of the unit's intervals
_COUNTS_CACHE: dict[tuple, list[np.ndarray]] = {}
_COUNTS_CACHE_BYTES = 256 << 20


def _shared_counts(weights: np.ndarray, n_resamples: int, seed: int, chunk: int) -> list:
    """:func:`_resampled_counts` as a list, remembered for recent weights (when small enough).

    The draws depend only on the weights, ``n_resamples``, ``seed`` and ``chunk``, so agents
    scored on the same records get the very same resamples, drawn once.
    """
    key = (weights.tobytes(), len(weights), n_resamples, seed, chunk)
    hit = _COUNTS_CACHE.pop(key, None)
    if hit is None:
        hit = list(_resampled_counts(weights, n_resamples, seed, chunk))
    size = n_resamples * len(weights) * 8
    if size <= _COUNTS_CACHE_BYTES:
        _COUNTS_CACHE[key] = hit  # now the most recent
        while sum(sum(c.nbytes for c in v) for v in _COUNTS_CACHE.values()) > _COUNTS_CACHE_BYTES:
            del _COUNTS_CACHE[next(iter(_COUNTS_CACHE))]  # the least recent
    return hit


def _resampled_counts(weights: np.ndarray, n_resamples: int, seed: int, chunk: int):
    """Chunks of bootstrap resamples of the decisions, as counts per record ``(b, records)``.

    The decisions are drawn as :func:`wordgames.stats.bootstrap_ci` draws them (one generator
    seeded with ``seed``, ``(b, n)`` integers per chunk of about ``chunk`` values).
    """
    k_rec, n = len(weights), int(weights.sum())
    # decision -> its record (``None``: one decision per record)
    record_of = None if n == k_rec else np.repeat(np.arange(k_rec), weights)
    rng = np.random.default_rng(seed)
    per_chunk = max(1, chunk // n)
    for start in range(0, n_resamples, per_chunk):
        b = min(per_chunk, n_resamples - start)
        rec = rng.integers(0, n, size=(b, n))
        if record_of is not None:
            rec = record_of[rec]
        rec += (np.arange(b) * k_rec)[:, None]
        counts = np.bincount(rec.ravel(), minlength=b * k_rec).reshape(b, k_rec)
        yield counts.astype(float)


def _median_of_counts(counts: np.ndarray, values: np.ndarray, order: np.ndarray, n: int):
    """The median of each row's multiset (``counts[i, j]`` copies of ``values[j]``)."""
    cum = np.cumsum(counts[:, order], axis=1)
    v = values[order]

    def kth(k: int) -> np.ndarray:  # the k-th smallest (1-based) of each row
        return v[(cum < k).sum(axis=1)]

    if n % 2:
        return kth((n + 1) // 2)
    return (kth(n // 2) + kth(n // 2 + 1)) / 2.0


def _clip(ci: tuple[float, float], bounds) -> tuple[float, float]:
    lo, hi = ci
    b_lo, b_hi = bounds if bounds is not None else (None, None)
    if b_lo is not None:
        lo, hi = max(lo, b_lo), max(hi, b_lo)
    if b_hi is not None:
        lo, hi = min(lo, b_hi), min(hi, b_hi)
    return lo, hi


def stratified_mean_ci(
    strata: Sequence,
    *,
    n_resamples: int = 1000,
    confidence: float = 0.95,
    seed: int = 0,
    bounds=None,
    chunk: int = 2_000_000,
) -> tuple[float, float]:
    """Percentile-bootstrap interval of the mean of stratum means (each stratum weighted equally).

    Each resample draws the values of every stratum again from that stratum (with replacement,
    as many as it has) and averages the strata's means: the interval of an aggregate over data
    sets whose records are resampled within their own data set. With one stratum it is
    :func:`wordgames.stats.bootstrap_ci` of the mean, resample for resample.

    Parameters
    ----------
    strata : sequence of array-like of float
        The per-item values of each stratum (NaN values and empty strata are left out).
    n_resamples : int
        Bootstrap resamples; 0 gives ``(nan, nan)``.
    confidence : float
        Coverage of the interval.
    seed : int
        Seed of the resampling.
    bounds : tuple of (float or None, float or None), optional
        The metric's natural range (the interval is clipped to it as a guard).
    chunk : int
        About this many values are drawn at once.

    Returns
    -------
    tuple of float
        ``(low, high)``; ``(nan, nan)`` with fewer than two values in all.

    Examples
    --------
    >>> stratified_mean_ci([[0.0, 1.0], [1.0, 1.0, 1.0]], seed=0, bounds=(0.0, 1.0))
    (0.5, 1.0)
    """
    xs = [np.asarray(v, dtype=float) for v in strata]
    xs = [x[np.isfinite(x)] for x in xs]
    xs = [x for x in xs if x.size]
    if sum(x.size for x in xs) < 2 or n_resamples <= 0:
        return float("nan"), float("nan")
    rng = np.random.default_rng(seed)
    total = np.zeros(n_resamples)
    for x in xs:
        per_chunk = max(1, chunk // x.size)
        for start in range(0, n_resamples, per_chunk):
            b = min(per_chunk, n_resamples - start)
            total[start : start + b] += x[rng.integers(0, x.size, size=(b, x.size))].mean(1)
    dist = total / len(xs)
    alpha = (1.0 - confidence) / 2.0
    lo, hi = (float(v) for v in np.quantile(dist, [alpha, 1.0 - alpha]))
    return _clip((lo, hi), bounds)


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
            skipped["no_picks"] += _weight(r)
            continue
        blue = tuple(w for w in chosen if w in board)
        if len(blue) != len(chosen):
            skipped["pick_not_on_board"] += _weight(r)
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
            skipped["no_blue"] += _weight(r)
            continue
        out.append(
            RankProblem(r.record_id, blue, red, _norm(r.clue), r.clue_source or "human", _weight(r))
        )
    return out, skipped


def sender_ranks(
    senders: Sequence,
    problems: Sequence[RankProblem],
    *,
    skipped: Counter | None = None,
    **kw,
) -> dict[str, SenderRanks]:
    """Rank of each problem's clue for each sender (the core of Algorithms 4 and 6).

    Senders are measured by what they are (:mod:`wordgames.codenames.agents` protocols):
    a :class:`~wordgames.codenames.agents.DrawnRankSender` draws its rank; a
    :class:`~wordgames.codenames.agents.CountingSender` is measured with the fast path:
    senders on the same embedding and distance share one matrix product per batch of records
    (at most ``batch_words`` distinct board words each) and one geometry per (blue, red) split;
    any other :class:`~wordgames.codenames.agents.Sender` is asked for
    ``ranked_forward(blue, red)`` and the clue's position in it. The keywords are those of
    :func:`sender_ranks_parts`, which ranks several sets of problems in one pass.
    """
    return sender_ranks_parts(senders, [(problems, skipped)], **kw)[0]


def sender_ranks_parts(
    senders: Sequence,
    parts: Sequence[tuple[Sequence[RankProblem], Counter | None]],
    *,
    batch_words: int = 1024,
    chunk_bytes: int = 192 << 20,
    n_jobs: int | None = None,
    progress: Callable[[int], None] | None = None,
    compiled: bool = True,
    meanwhile: Callable[[], None] | None = None,
) -> list[dict[str, SenderRanks]]:
    """:func:`sender_ranks` of several sets of problems (data sets, kinds of data) at once.

    Each part is ``(problems, skipped)`` and gets its own results, the same as
    :func:`sender_ranks` gives it alone; the counting senders rank every part's problems in
    one pass, so the similarity products and a board split that several parts share are
    computed once.

    ``chunk_bytes`` bounds the similarity matrix of one vocabulary slice; ``n_jobs`` threads
    (default: the number of CPUs, at most 8) share the columns of a slice.
    ``progress(n)`` is called after every ``n`` problems of every sender group.
    ``compiled``: the senders that :func:`~wordgames.codenames.counting.kernel_kind` knows are
    counted by the compiled kernel (:mod:`wordgames.codenames.counting`); ``False`` counts
    every sender with the numpy pass, the previous method, kept as the reference (the same
    ranks). ``meanwhile()``, when given, is called once on the calling thread: while the
    compiled kernels count on another (with the draws of the
    :class:`~wordgames.codenames.agents.DrawnRankSender`), else at the end. Work that holds
    the GIL, such as the receivers, then shares the processors with the counting.
    """
    from wordgames.codenames.counting import compiled_available, kernel_kind

    compiled = compiled and compiled_available()
    results: list[dict[str, SenderRanks]] = [{} for _ in parts]
    fast: dict[tuple, list] = defaultdict(list)
    later: list[Callable[[], None]] = []  # work for the calling thread while the kernels count
    seen: set[str] = set()
    for s in senders:
        name = agent_name(s)
        if name in seen:
            raise ValueError(f"two senders are named {name!r}; give them distinct names")
        seen.add(name)
        if getattr(s, "candidates_only", False):
            continue  # it ranks only given candidates (sender_ranks_candidates)
        for out, (_problems, skipped) in zip(results, parts, strict=True):
            out[name] = SenderRanks(name, agent_params(s), skipped=Counter(skipped or {}))
        if isinstance(s, DrawnRankSender):
            for out, (problems, _skipped) in zip(results, parts, strict=True):
                later.append(partial(_drawn_ranks, s, problems, out[name]))
        elif isinstance(s, CountingSender):
            by_kernel = compiled and kernel_kind(s) is not None
            fast[(id(s.embedding), s.distance, s.n_vocab, by_kernel)].append(s)
        elif isinstance(s, Sender):
            for out, (problems, _skipped) in zip(results, parts, strict=True):
                _slow_sender(s, problems, out[name], progress)
        else:
            raise TypeError(
                f"{name!r} is not a sender: it needs give_clue(board) and ranked_forward(blue, red)"
            )

    problems = [p for p, _skipped in parts]
    once = _Once([*later, meanwhile])
    for key, group in fast.items():
        counter = _count_beats
        if key[-1]:
            from wordgames.codenames.counting import rank_batch

            counter = partial(rank_batch, meanwhile=once)
        _fast_senders(group, problems, results, batch_words, progress, chunk_bytes, n_jobs, counter)
    once()
    return results


class _Once:
    """Calls that run once, in order, on the first call (later calls do nothing)."""

    def __init__(self, calls):
        self.calls = [c for c in calls if c is not None]

    def __call__(self) -> None:
        calls, self.calls = self.calls, []
        for call in calls:
            call()


def _record_rank(res: SenderRanks, p: RankProblem, best: int, worst: int, n_cand: int) -> None:
    res.record_ids.append(p.record_id)
    res.groups.append(p.group)
    res.best.append(int(best))
    res.worst.append(int(worst))
    res.n_candidates.append(int(n_cand))
    res.weights.append(int(p.weight))


def _slow_sender(sender, problems, res: SenderRanks, progress) -> None:
    """Each clue's position in ``ranked_forward``.

    A sender that lists only its best ``n_clues`` (a player) gives a clue it did not list the
    censored rank ``n_clues + 1``.
    """
    res.listed = getattr(sender, "n_clues", None)
    _ask_ahead(sender, [(list(p.blue), list(p.red)) for p in problems])
    for p in problems:
        try:
            ranking = list(sender.ranked_forward(list(p.blue), list(p.red)))
        except (OOVError, KeyError):
            res.skipped["oov_board"] += p.weight
            continue
        except AnswerError:  # no readable clue: the game's "no move", no clue listed, counted
            if res.listed is None:
                res.skipped["unreadable_answer"] += p.weight
                continue
            ranking = []
            res.unread += p.weight
        if p.clue in ranking:
            pos = ranking.index(p.clue) + 1
            _record_rank(res, p, pos, pos, len(ranking))
        elif res.listed is not None:
            _record_rank(res, p, res.listed + 1, res.listed + 1, res.listed)
        else:
            res.skipped["clue_not_ranked"] += p.weight
            continue
        if progress:
            progress(1)
    res.reading = take_tally(sender)


def _ask_ahead(agent, questions: list) -> None:
    """Let an agent that asks a player ask all of a loop's questions together, in order.

    A :class:`~wordgames.codenames.players.PlayerReceiver` or ``PlayerSender`` sends them with
    the player's ``answer_many`` (``max_concurrency`` requests at a time); the loop then reads
    the answers one by one. Other agents have no ``ask_ahead``.
    """
    ask = getattr(agent, "ask_ahead", None)
    if callable(ask) and questions:
        ask(questions)


def _map_boards(records, seed: int | None = 0) -> list[tuple]:
    """``(record, board, picks, clue, why skipped or None)`` of each record, normalised once.

    The board is in a seeded order (the seed, the board's words and the clue: the same order
    for every receiver and whatever else is evaluated): a record's own order can carry the
    people's picks first (noahprescott's alone gives AP 0.428 against 0.393 by chance), and a
    receiver that keeps the board's order among equal scores must not profit from it.
    ``seed=None`` keeps the record's order.
    """
    out = []
    for r in records:
        board = list(dict.fromkeys(_norm(w) for w in r.board))
        if seed is not None:
            # its own key: no agent's draws (a random receiver's) may share this generator
            rng = derive_rng(seed, "algorithm-5-board-order", *sorted(board), "|", _norm(r.clue))
            board = [board[i] for i in rng.permutation(len(board))]
        picks = set(_norm(w) for w in r.chosen)
        why = "no_picks" if not picks else None if picks <= set(board) else "pick_not_on_board"
        out.append((r, board, picks, _norm(r.clue), why))
    return out


def _map_questions(rec, boards, res):
    """The records Algorithm 5 asks ``rec`` about: ``(record, board, picks)``; skips counted."""
    for r, board, picks, clue, why in boards:
        if why is not None:
            res.skipped[why] += _weight(r)
            continue
        if _skipped_oov(rec, res, board, clue, _weight(r)):
            continue
        yield r, board, picks


def _guess_questions(rec, records, res, number_for):
    """The records Algorithm 7 asks ``rec`` about; skips counted.

    Yields ``(record, board, clue, blue, tau, targets)``.
    """
    for r in records:
        tau, targets = number_for(r)
        if not tau:
            res.skipped["no_number"] += _weight(r)
            continue
        blue = set(_norm(w) for w in r.blue)
        board = sorted(set(blue) | {_norm(w) for w in r.avoid})
        clue = _norm(r.clue)
        if _skipped_oov(rec, res, board, clue, _weight(r)):
            continue
        yield r, board, clue, blue, tau, targets


def _skipped_oov(rec, res, board, clue: str, weight: int) -> bool:
    """Whether the receiver's embedding lacks the clue or a board word (then counted)."""
    oov = _receiver_oov(rec, [*board, clue])
    if oov:
        res.skipped["oov_clue" if clue in oov else "oov_board"] += weight
        res.oov_words.update(oov)
    return bool(oov)


def _valid_for(sender, problems, res: SenderRanks):
    """Problems whose words the sender's embedding knows (the others are counted as skipped)."""
    index, n_vocab = sender.embedding.word_index, sender.n_vocab
    out = []
    for p in problems:
        oov = [w for w in p.blue + p.red if w not in index]
        crow = index.get(p.clue)
        if oov:
            res.skipped["oov_board"] += p.weight
            res.oov_words.update(oov)
        elif crow is None or crow >= n_vocab:
            res.skipped["oov_clue"] += p.weight
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
            res.skipped["clue_illegal"] += p.weight
            continue
        n_cand = sender.n_vocab - len(ex)
        r = sender.draw_rank(p.blue, p.red, p.clue, n_cand)
        _record_rank(res, p, r, r, n_cand)


def _fast_senders(
    group: list,
    problems: list[Sequence[RankProblem]],
    results: list[dict],
    batch_words,
    progress,
    chunk_bytes: int = 192 << 20,
    n_jobs: int | None = None,
    counter: Callable | None = None,
):
    n_jobs = _n_jobs(n_jobs)
    args = (group, problems, results, batch_words, progress, chunk_bytes)
    if n_jobs > 1:
        from concurrent.futures import ThreadPoolExecutor

        with ThreadPoolExecutor(n_jobs) as pool:
            return _fast_senders_on(*args, pool, counter or _count_beats)
    return _fast_senders_on(*args, None, counter or _count_beats)


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
    #: reusable float32 buffers of the similarity products, one per counting thread
    #: (:func:`~.counting.rank_batch`)
    buffers: dict = field(default_factory=dict)

    @property
    def embedding(self):
        return self.senders[0].embedding

    @property
    def n_vocab(self) -> int:
        return self.senders[0].n_vocab

    def sims(self, words: list[str], cols: slice, out: np.ndarray | None = None):
        """Closeness of the vocabulary slice ``cols`` to ``words`` (into ``out``: cosine only).

        None when no sender of the group needs similarities.
        """
        if any(getattr(s, "needs_similarities", True) for s in self.senders):
            distance = self.senders[0].distance
            out = out if distance == "cosine" else None
            return VocabSims(self.embedding, words, distance, self.n_vocab, cols=cols, out=out)
        return NoSims(words, self.n_vocab, cols)


@dataclass
class _Batch:
    """Records whose distinct board words fit one matrix product per vocabulary slice."""

    words: list[str]
    step: int  # columns per vocabulary slice
    chunks: list[slice]
    splits: dict[tuple, list]  # (blue, red) -> [(problem, clue row)]
    excl: dict[tuple, np.ndarray]  # (blue, red, sender index) -> rows that may not be clues


def _fast_senders_on(group, problems, results, batch_words, progress, chunk_bytes, pool, counter):
    g = _SenderGroup(group, [agent_name(s) for s in group])
    # the senders of a group share embedding and vocabulary: the same records are valid (each
    # sender's skipped records are counted in its own result); each keeps its part and place
    valid = []
    for part, (probs, out) in enumerate(zip(problems, results, strict=True)):
        kept = [_valid_for(s, probs, out[n]) for s, n in zip(group, g.names, strict=True)][0]
        valid.extend((p, crow, part, i) for i, (p, crow) in enumerate(kept))
    excl_cache: dict[tuple, np.ndarray] = {}
    ranked = []  # each batch's _Ranked
    for records in _batches(valid, batch_words):
        batch = _prepare_batch(g, records, chunk_bytes, excl_cache)
        if counter is _count_beats:  # the numpy pass
            target, kept = _clue_values(g, batch)
            counts = _count_arrays(batch, _count_beats(g, batch, target, kept, pool), len(group))
        else:  # the compiled passes (wordgames.codenames.counting.rank_batch)
            counts = counter(g, batch, pool)
        ranked.append(_ranks_of_batch(g, batch, *counts, results))
        if progress:
            progress(len(records))
    _record_ranks(g, ranked, results)


def _count_arrays(batch, beats: dict, n_senders: int) -> tuple[np.ndarray, np.ndarray]:
    """The numpy pass's ``{(blue, red, sender, record): [beats, ties]}`` as two arrays.

    Row ``r`` is the batch's ``r``-th record (splits in order, each split's records in
    order), column ``s`` its sender.
    """
    keys = [(*split, si, j) for split, items in batch.splits.items() for j in range(len(items))
            for si in range(n_senders)]  # fmt: skip
    arr = np.array([beats[k] for k in keys], dtype=np.int64).reshape(-1, n_senders, 2)
    return arr[:, :, 0], arr[:, :, 1]


def _batches(valid: list, batch_words: int) -> list[list]:
    """Consecutive records, cut where the distinct board words would exceed ``batch_words``."""
    batches, cur, cur_words = [], [], set()
    for item in valid:
        words = set(item[0].blue + item[0].red)
        if cur and len(cur_words | words) > batch_words:
            batches.append(cur)
            cur, cur_words = [], set()
        cur.append(item)
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
    words = sorted({w for p, *_ in records for w in p.blue + p.red})
    step = max(1, chunk_bytes // (4 * len(words)))
    chunks = [slice(a, min(a + step, g.n_vocab)) for a in range(0, g.n_vocab, step)]
    splits: dict[tuple, list] = defaultdict(list)
    for item in records:
        p = item[0]
        splits[(tuple(sorted(p.blue)), tuple(sorted(p.red)))].append(item)
    excl = {}
    rules: dict = {}  # senders with equal rules share their excluded rows
    kinds = [rules.setdefault(s.clue_rules, len(rules)) for s in g.senders]
    for blue, red in splits:
        board = tuple(sorted(blue + red))
        for si, s in enumerate(g.senders):
            key = (kinds[si], board)
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
            k: [(j, item) for j, item in enumerate(v) if item[1] // batch.step == ci]
            for k, v in batch.splits.items()
        }
        todo = {k: v for k, v in todo.items() if v}
        if not todo:
            continue
        sims = g.sims(batch.words, cols)
        if not kept:
            kept[ci] = sims  # reused by pass 2
        for (blue, red), items in todo.items():
            local = np.array([item[1] - cols.start for _j, item in items])
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
        for j, (_p, crow, *_place) in enumerate(items):
            own = crow - cols.start if cols.start <= crow < cols.stop else None
            out.append(((blue, red, si, j), s.count_rank(geom, target[(blue, red, si, j)], own)))
    return out


def _count_beats(g: _SenderGroup, batch: _Batch, target: dict, kept: dict, pool) -> dict:
    """Pass 2: count, slice by slice, the words that beat each clue and the ties.

    The splits of a slice are independent, so they run on a pool of threads (numpy releases the GIL
    inside its loops). Returns ``{(blue, red, sender index, record index): [beats, ties]}``.
    """
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


@dataclass
class _Ranked:
    """One batch's ranks: records in batch order, a column per sender (-1: not ranked)."""

    problems: list
    part: np.ndarray
    place: np.ndarray
    best: np.ndarray  # (records, senders)
    worst: np.ndarray
    n_cand: np.ndarray


def _ranks_of_batch(g: _SenderGroup, batch: _Batch, beats, ties, results) -> _Ranked:
    """Each record's ranks from its counts (``beats``, ``ties``: records x senders).

    A clue that may not be given for its board is counted as ``clue_illegal`` in its result
    and gets no rank.
    """
    items = [item for _split, its in batch.splits.items() for item in its]
    crow = [it[1] for it in items]
    n_cand = np.empty((len(items), len(g.names)), dtype=np.int64)
    legal = np.ones_like(n_cand, dtype=bool)
    ex_sets: dict[int, set] = {}  # the senders of a split mostly share one exclusion array
    r = 0
    for (blue, red), its in batch.splits.items():
        for si in range(len(g.names)):
            ex = batch.excl[(blue, red, si)]
            n_cand[r : r + len(its), si] = g.n_vocab - len(ex)
            bad = ex_sets.get(id(ex))
            if bad is None:
                bad = ex_sets[id(ex)] = set(ex.tolist())
            for k in range(r, r + len(its)):
                if crow[k] in bad:
                    legal[k, si] = False
        r += len(its)
    for k, si in zip(*np.nonzero(~legal), strict=True):
        p, _crow, part, _i = items[k]
        results[part][g.names[si]].skipped["clue_illegal"] += p.weight
    best = np.where(legal, beats + 1, -1)
    return _Ranked(
        [it[0] for it in items],
        np.fromiter((it[2] for it in items), dtype=np.int64, count=len(items)),
        np.fromiter((it[3] for it in items), dtype=np.int64, count=len(items)),
        best,
        np.where(legal, beats + 1 + ties, -1),
        n_cand,
    )


def _record_ranks(g: _SenderGroup, ranked: list[_Ranked], results) -> None:
    """The batches' ranks into each part's results, in the order of its problems.

    Whatever the batches, each result lists its records in input order: the intervals
    resample that order.
    """
    if not ranked:
        return
    problems = [p for rk in ranked for p in rk.problems]
    part = np.concatenate([rk.part for rk in ranked])
    place = np.concatenate([rk.place for rk in ranked])
    best, worst, n_cand = (np.concatenate([getattr(rk, a) for rk in ranked]) for a in
                           ("best", "worst", "n_cand"))  # fmt: skip
    order = np.lexsort((place, part))
    for si, name in enumerate(g.names):
        for pt in np.unique(part).tolist():
            rows = order[(part[order] == pt) & (best[order, si] > 0)]
            res = results[pt][name]
            ps = [problems[k] for k in rows.tolist()]
            res.record_ids.extend(p.record_id for p in ps)
            res.groups.extend(p.group for p in ps)
            res.best.extend(best[rows, si].tolist())
            res.worst.extend(worst[rows, si].tolist())
            res.n_candidates.extend(n_cand[rows, si].tolist())
            res.weights.extend(int(p.weight) for p in ps)


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


# --------------------------------------------------------------------------- restricted choice
def candidates_of(record) -> tuple[str, ...]:
    """The clues a person chose from (``meta["candidate_clues"]``), normalised; ``()`` if free."""
    meta = getattr(record, "meta", None) or {}
    return tuple(dict.fromkeys(_norm(c) for c in meta.get("candidate_clues") or ()))


def sender_ranks_candidates(
    senders: Sequence, records: Iterable[HumanSenderRecord]
) -> dict[str, SenderRanks] | None:
    """Algorithm 6 restricted to the clues the person chose from.

    Where a source gave its speakers a fixed list (Shen et al. 2018: 8 adjectives per board,
    ``meta["candidate_clues"]``), each sender ranks only those candidates for the board and the
    rank of the person's choice among them is kept (1 to the number of candidates; ties get
    the mean of their positions, as in the full ranking). A record whose candidates are not all
    in the sender's clue vocabulary is skipped (``oov_candidate``), so that every rank is among
    the same candidates for every embedding.

    Returns
    -------
    dict of str to SenderRanks or None
        By sender name; ``None`` when no record has candidates.
    """
    problems, skipped = [], Counter()
    for r in records:
        cands = candidates_of(r)
        if not cands:
            skipped["no_candidates"] += _weight(r)
            continue
        ps, sk = problems_from_sender_records([r])
        skipped.update(sk)
        if ps and ps[0].clue not in cands:
            skipped["clue_not_candidate"] += _weight(r)
        elif ps:
            problems.append((ps[0], cands))
    if not problems:
        return None
    out = {}
    for s in senders:
        if getattr(s, "n_clues", None) is not None:
            continue  # a player's free list says nothing of its order of given candidates
        name = agent_name(s)
        res = out[name] = SenderRanks(name, agent_params(s), skipped=Counter(skipped))
        if isinstance(s, DrawnRankSender):
            for p, cands in _known_candidates(s, problems, res):
                r = s.draw_rank(p.blue, p.red, p.clue, len(cands))
                _record_rank(res, p, r, r, len(cands))
        elif isinstance(s, CountingSender):
            _counted_candidates(s, _known_candidates(s, problems, res), res)
        elif getattr(s, "candidates_only", False):
            _scored_candidates(s, problems, res)
        elif isinstance(s, Sender):
            for p, cands in problems:
                try:
                    ranking = [w for w in s.ranked_forward(list(p.blue), list(p.red)) if w in cands]
                except (OOVError, KeyError):
                    res.skipped["oov_board"] += p.weight
                    continue
                if p.clue not in ranking:
                    res.skipped["clue_not_ranked"] += p.weight
                    continue
                pos = ranking.index(p.clue) + 1
                _record_rank(res, p, pos, pos, len(ranking))
        else:
            raise TypeError(f"{name!r} is not a sender")
    return out


def _scored_candidates(sender, problems: list, res: SenderRanks) -> None:
    """Rank each clue among its candidates by the sender's scores (higher is better).

    Equal scores share their positions: the rank runs from the best to the worst of them, as
    for every sender. An answer that cannot be read skips the record, counted.
    """
    for p, cands in problems:
        try:
            scores = sender.score_candidates(list(p.blue), list(p.red), list(cands))
        except AnswerError:
            res.skipped["unreadable_answer"] += p.weight
            continue
        mine = scores[list(cands).index(p.clue)]
        best = 1 + sum(x > mine for x in scores)
        _record_rank(res, p, best, best - 1 + sum(x == mine for x in scores), len(cands))


def _known_candidates(sender, problems, res: SenderRanks) -> list:
    """The problems whose board, clue and candidates are all in the sender's clue vocabulary."""
    index, n_vocab = sender.embedding.word_index, sender.n_vocab
    out = []
    for p, cands in problems:
        oov = [w for w in p.blue + p.red if w not in index]
        missing = [c for c in cands if index.get(c, n_vocab) >= n_vocab]
        if oov:
            res.skipped["oov_board"] += p.weight
            res.oov_words.update(oov)
        elif p.clue in missing:
            res.skipped["oov_clue"] += p.weight
            res.oov_words[p.clue] += 1
        elif missing:
            res.skipped["oov_candidate"] += p.weight
            res.oov_words.update(missing)
        else:
            out.append((p, cands))
    return out


def _counted_candidates(sender, problems: list, res: SenderRanks) -> None:
    """Rank each clue among its candidates by the sender's own sort keys (one geometry per board)."""
    index = sender.embedding.word_index
    by_board: dict[tuple, list] = defaultdict(list)
    for p, cands in problems:
        by_board[(p.blue, p.red, cands)].append(p)
    for (blue, red, cands), ps in by_board.items():
        rows = np.array([index[c] for c in cands], dtype=np.int64)
        illegal = set(sender.excluded_rows(blue + red).tolist())
        local_ex = np.array([j for j, r in enumerate(rows) if int(r) in illegal], dtype=np.int64)
        words = list(blue + red)
        if getattr(sender, "needs_similarities", True):
            sims = VocabSims(sender.embedding, words, sender.distance, sender.n_vocab, cols=rows)
        else:
            sims = NoSims(words, sender.n_vocab, cols=rows)
        geom = BoardGeometry(sims, blue, red, excluded=local_ex)
        n_cand = len(cands) - len(local_ex)
        for p in ps:
            j = cands.index(p.clue)
            if j in local_ex.tolist():
                res.skipped["clue_illegal"] += p.weight
                continue
            beats, ties = sender.count_rank(geom, sender.rank_values(geom, j), j)
            _record_rank(res, p, beats + 1, beats + 1 + ties, n_cand)


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
    receivers: Sequence, records: Iterable[HumanReceiverRecord], *, seed: int | None = 0
) -> dict[str, ReceiverScores]:
    """Algorithm 5: average precision of ``receiver.ranked_forward(board, clue)``.

    The person's picks are the relevant words; the mean over records is the MAP. Every
    receiver is shown each board in the same seeded order (``seed``: the run's; ``None``: the
    record's own order, which may list the picks first).

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
    boards = _map_boards(records, seed)
    out = {}
    for rec in receivers:
        name = agent_name(rec)
        res = ReceiverScores(name, agent_params(_receiver(rec)), "map", bounds=(0.0, 1.0))
        asked = list(_map_questions(rec, boards, res))
        _ask_ahead(rec, [(board, _norm(r.clue)) for r, board, _ in asked])
        for r, board, picks in asked:
            try:
                ranking = rec.ranked_forward(board, _norm(r.clue))
            except (OOVError, KeyError):
                res.skipped["oov_board"] += _weight(r)
                continue
            except AnswerError:  # the game's "no move": the board left as shown, counted
                ranking = list(board)
                res.unread += _weight(r)
            res.record_ids.append(r.record_id)
            res.groups.append(r.clue_source or "unknown")
            res.scores.append(average_precision(ranking, picks))
            res.weights.append(_weight(r))
        res.reading = take_tally(rec)
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
    # a record scores at most tau guesses / tau: between the lowest and the highest score
    # (0 when fewer guesses are made)
    kinds = (target_score, blue_score, red_score, 0.0)
    bounds = (float(min(kinds)), float(max(kinds)))
    out = {}
    for rec in receivers:
        name = agent_name(rec)
        res = ReceiverScores(name, agent_params(_receiver(rec)), "guess_score", bounds=bounds)
        asked = list(_guess_questions(rec, records, res, number_for))
        _ask_ahead(rec, [(board, clue, tau) for _, board, clue, _, tau, _ in asked])
        for r, board, clue, blue, tau, targets in asked:
            try:
                picks = rec.guess(board, clue, tau)
            except (OOVError, KeyError):
                res.skipped["oov_board"] += _weight(r)
                continue
            except AnswerError:  # the game's "no move": no guess, scored 0, counted
                picks = []
                res.unread += _weight(r)
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
        res.reading = take_tally(rec)
        out[name] = res
    return out
