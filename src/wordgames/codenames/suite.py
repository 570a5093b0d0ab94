"""The compute function of the Codenames measure (declared in :mod:`wordgames.codenames.spec`).

It runs every sender and receiver on every chosen human data set (paper section 4), with tables, OOV
counts, timings and plots. ``wordgames run``, ``wordgames codenames evaluate`` and
``wordgames.evaluate(..., measures=["codenames"])`` all compute it here.

Options: :class:`~wordgames.codenames.spec.CodenamesOptions`. Scores: one row per data set
(``dataset``), agent (``subject``) and metric ``"<data>.<statistic>"``, where ``<data>`` is
``human_receiver`` (records where a person picked words for a clue: Algorithms 4 and 5) or
``human_sender`` (a person gave the clue: Algorithms 6 and 7), e.g. ``human_receiver.map`` of
``nearest`` or ``human_receiver.mean_rank`` of ``cluster``; ``n`` is the number of decisions
scored, ``n_skipped`` the records skipped, ``skip_reason`` why.

Tables (declared in :mod:`wordgames.codenames.spec`): ``senders`` and ``receivers`` (one row
per data set, agent and kind of data, with every statistic) and ``aggregates`` (the pooled
scores over every data set).
"""

from __future__ import annotations

import dataclasses
import logging
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from wordgames.codenames.people import share_scores
from wordgames.codenames.spec import (
    AGGREGATES,
    ALL_DATASETS,
    CANDIDATES_METRIC,
    MEASURE,
    QUICK_MAX_RECORDS,
    QUICK_PLAYER_DATASETS,
    SUITE_MAX_RECORDS,
)
from wordgames.heap import long_lived_heap
from wordgames.paired import item_record
from wordgames.reading import answers_read_row, format_failure_score

if TYPE_CHECKING:
    from wordgames.measure import MeasureResult

log = logging.getLogger("wordgames.codenames")

MEASURE_VERSION = MEASURE.version
__all__ = [
    "AGGREGATES",
    "ALL_DATASETS",
    "CANDIDATES_METRIC",
    "QUICK_MAX_RECORDS",
    "SUITE_MAX_RECORDS",
    "DatasetEvaluation",
    "Intervals",
    "aggregate_scores",
    "evaluate_human_data",
    "evaluate_human_datasets",
    "load_available",
    "load_chosen",
    "max_records_of",
    "oov_records",
    "run",
    "scores_of",
    "skip_reason",
    "tables",
]
SENDER_STATS = (
    "mean_rank",
    "median_rank",
    "mrr",
    "hits@10",
    "hits@100",
    "mrr@10",
    "mean_rank_best",
    "mean_rank_worst",
    "mean_rank_fraction",
    "n",
    "n_skipped_oov",
)
KINDS = ("human_receiver", "human_sender")
#: the sender statistics reported as scores (``n`` and the skipped count are fields of a score)
SENDER_METRICS = SENDER_STATS[:-2]
#: why records were skipped, in words (the keys of the measures' ``skipped`` counters)
SKIP_REASONS = {
    "oov_clue": "clue not in vocabulary",
    "oov_board": "board word not in vocabulary",
    "clue_illegal": "clue not a legal clue for its board",
    "clue_not_ranked": "clue not in the sender's ranking",
    "no_picks": "no word picked",
    "pick_not_on_board": "picked word not on the board",
    "no_blue": "no blue word",
    "no_number": "neither a number nor targets",
    "no_candidates": "no candidate clues recorded",
    "clue_not_candidate": "clue not among its candidates",
    "oov_candidate": "a candidate clue not in vocabulary",
    "unreadable_answer": "the player's answer could not be read",
}


@dataclass
class DatasetEvaluation:
    """Every agent's results on one data set."""

    dataset: str
    senders_on_receiver_data: dict = field(default_factory=dict)
    receivers_on_receiver_data: dict = field(default_factory=dict)
    senders_on_sender_data: dict = field(default_factory=dict)
    receivers_on_sender_data: dict = field(default_factory=dict)
    #: senders ranking only the clues the person chose from (``None``: the source gave none)
    senders_on_sender_candidates: dict | None = None
    n_records: dict = field(default_factory=dict)
    #: records of each kind in the data set, before any sample
    n_available: dict = field(default_factory=dict)
    timings: dict = field(default_factory=dict)
    #: the people's values by kind of data (:mod:`wordgames.codenames.people`): each held-out
    #: record by the others' answers, the ceiling every agent's share is taken of
    people: dict = field(default_factory=dict)

    def sender_results(self):
        """``(kind of data, {agent: SenderRanks})`` for both kinds of data."""
        return (
            ("human_receiver", self.senders_on_receiver_data),
            ("human_sender", self.senders_on_sender_data),
        )

    def receiver_results(self):
        """``(kind of data, {agent: ReceiverScores})`` for both kinds of data."""
        return (
            ("human_receiver", self.receivers_on_receiver_data),
            ("human_sender", self.receivers_on_sender_data),
        )


def _sample(records: list, max_records: int | None, seed: int) -> list:
    if max_records is None or len(records) <= max_records:
        return list(records)
    idx = np.sort(np.random.default_rng(seed).choice(len(records), max_records, replace=False))
    return [records[i] for i in idx]


def evaluate_human_data(data, senders: Sequence, receivers: Sequence, **kw) -> DatasetEvaluation:
    """All four measures that apply to one loaded data set.

    :func:`evaluate_human_datasets` of this one data set (the same keywords).

    Parameters
    ----------
    data : LoadedHumanData
        One data set (:func:`~wordgames.codenames.human_data.load_human_data`,
        :func:`~wordgames.codenames.human_data.read_user_file`).
    senders, receivers : sequence of agents
        E.g. :func:`~wordgames.codenames.agents.default_senders`.

    Returns
    -------
    DatasetEvaluation
    """
    return evaluate_human_datasets([data], senders, receivers, **kw)[0]


@long_lived_heap()  # no full collection walks the loaded data while the kernels wait
def evaluate_human_datasets(
    datasets: Sequence,
    senders: Sequence,
    receivers: Sequence,
    *,
    max_records: int | None = None,
    seed: int = 0,
    target_score: float = 1.0,
    blue_score: float = 0.0,
    red_score: float = -1.0,
    progress: Callable[[int], None] | None = None,
    compiled: bool = True,
) -> list[DatasetEvaluation]:
    """All four measures that apply to each of several loaded data sets.

    The senders rank the records of every data set and kind in one pass
    (:func:`~wordgames.codenames.measures.sender_ranks_parts`: one set of similarity products
    for all of them); each data set's results are its own, the same as alone.

    Parameters
    ----------
    datasets : sequence of LoadedHumanData
        The data sets (:func:`~wordgames.codenames.human_data.load_human_data`,
        :func:`~wordgames.codenames.human_data.read_user_file`).
    senders, receivers : sequence of agents
        E.g. :func:`~wordgames.codenames.agents.default_senders`.
    max_records : int, optional
        A seeded sample of at most this many records of each kind (default: all).
    seed : int
        Seed of the sample.
    target_score, blue_score, red_score : float
        Algorithm 7's score of a guessed target, other blue word and non-blue word.
    progress : callable, optional
        ``progress(n)`` after every ``n`` records ranked.
    compiled : bool
        Count the senders' ranks with the compiled kernel (default) or, ``False``, with the
        previous numpy pass kept as the reference (the same results, slower; see
        :func:`~wordgames.codenames.measures.sender_ranks`).

    Returns
    -------
    list of DatasetEvaluation
        One per data set, in order. ``timings["senders"]`` is the shared pass's time, the
        receivers' included: they run while the senders' kernels count.
    """
    from wordgames.codenames.measures import sender_ranks_parts
    from wordgames.codenames.people import people_values

    evs, samples, parts, slots = [], [], [], []
    for data in datasets:
        ev = DatasetEvaluation(data.dataset)
        rec = _sample(data.receiver, max_records, seed)
        snd = _sample(data.sender, max_records, seed)
        ev.n_records = {"human_receiver": len(rec), "human_sender": len(snd)}
        ev.n_available = {"human_receiver": len(data.receiver), "human_sender": len(data.sender)}
        for kind, records in (("human_receiver", rec), ("human_sender", snd)):
            if records:
                parts.append(_problems(kind, records))
                slots.append((ev, kind))
        ev.people = people_values(data, rec, snd)
        evs.append(ev)
        samples.append((rec, snd))
    scores = {"target_score": target_score, "blue_score": blue_score, "red_score": red_score}

    def receivers_and_candidates():  # while the senders' kernels count
        for ev, (rec, snd) in zip(evs, samples, strict=True):
            _receivers_and_candidates(ev, rec, snd, senders, receivers, scores, seed)

    t = time.perf_counter()
    ranked = sender_ranks_parts(
        senders, parts, progress=progress, compiled=compiled, meanwhile=receivers_and_candidates
    )
    for (ev, kind), res in zip(slots, ranked, strict=True):
        setattr(ev, SENDERS_ON[kind], res)
    seconds = time.perf_counter() - t
    for ev in evs:
        ev.timings["senders"] = seconds
    return evs


#: where the senders' ranks of each kind of data go
SENDERS_ON = {
    "human_receiver": "senders_on_receiver_data",
    "human_sender": "senders_on_sender_data",
}


def _problems(kind: str, records):
    """Algorithm 4's problems of receiver data, Algorithm 6's of sender data, and the skips."""
    from wordgames.codenames.measures import (
        problems_from_receiver_records,
        problems_from_sender_records,
    )

    if kind == "human_receiver":
        return problems_from_receiver_records(records)
    return problems_from_sender_records(records)


def _receivers_and_candidates(ev, rec, snd, senders, receivers, scores: dict, seed=0) -> None:
    """Algorithms 5 and 7 of one data set, and its senders on the candidates people chose from."""
    from wordgames.codenames.measures import (
        receiver_guess_score,
        receiver_map,
        sender_ranks_candidates,
    )

    if rec:
        t = time.perf_counter()
        ev.receivers_on_receiver_data = receiver_map(receivers, rec, seed=seed)
        ev.timings["human_receiver.receivers"] = time.perf_counter() - t
    if snd:
        t = time.perf_counter()
        ev.senders_on_sender_candidates = sender_ranks_candidates(senders, snd)
        ev.receivers_on_sender_data = receiver_guess_score(receivers, snd, **scores)
        ev.timings["human_sender.receivers"] = time.perf_counter() - t


# --------------------------------------------------------------------------- outputs
@dataclass(frozen=True)
class Intervals:
    """How the 95 % intervals are computed: seeded percentile bootstraps.

    Parameters
    ----------
    n_resamples : int
        Resamples of every bootstrap (0: no interval).
    seed : int
        Seed of the resampling.
    """

    n_resamples: int = 1000
    seed: int = 0

    def kw(self) -> dict:
        return {"n_resamples": self.n_resamples, "seed": self.seed}


def _sender_parts(ev: DatasetEvaluation):
    """``(kind of data, ranked among, {agent: SenderRanks})`` of one data set."""
    for data, results in ev.sender_results():
        yield data, "vocabulary", results
    if ev.senders_on_sender_candidates:
        yield "human_sender", "candidates", ev.senders_on_sender_candidates


def tables(
    evaluations: Sequence[DatasetEvaluation],
    embedding_name: str = "",
    intervals: Intervals | None = None,
) -> tuple[list[dict], list[dict]]:
    """Sender rows and receiver rows: one per (data set, kind of data, agent, clue source).

    Sender rows say what the clue was ranked among (``ranked_among``): the whole clue vocabulary,
    or the candidates the person chose from.
    """
    from wordgames.codenames.measures import RANK_STATS, groups_of

    ci = intervals or Intervals()
    srows, rrows = [], []
    for ev in evaluations:
        for data, among, results in _sender_parts(ev):
            for agent, res in results.items():
                for g in groups_of(res):
                    stats = RANK_STATS if g == "all" else ("mean_rank", "hits@10")
                    s = res.summary(g, intervals=stats, **ci.kw())
                    srows.append(
                        {
                            "embedding": embedding_name,
                            "dataset": ev.dataset,
                            "data": data,
                            "ranked_among": among,
                            "agent": agent,
                            "clue_source": g,
                            **{k: s[k] for k in (*SENDER_STATS, "ci_low", "ci_high")},
                            "skipped": dict(res.skipped) if g == "all" else {},
                        }
                    )
        for data, results in ev.receiver_results():
            for agent, res in results.items():
                for g in groups_of(res):
                    s = res.summary(g, **ci.kw())
                    rrows.append(
                        {
                            "embedding": embedding_name,
                            "dataset": ev.dataset,
                            "data": data,
                            "agent": agent,
                            "clue_source": g,
                            "measure": res.measure,
                            "score": s[res.measure],
                            "ci_low": s["ci_low"],
                            "ci_high": s["ci_high"],
                            "n": s["n"],
                            "n_skipped_oov": s["n_skipped_oov"],
                            "skipped": dict(res.skipped) if g == "all" else {},
                        }
                    )
    return srows, rrows


def _oov_record(res) -> dict:
    return {
        "skipped": dict(res.skipped),
        "oov_words": dict(res.oov_words.most_common(20)),
        "n_oov_words": len(res.oov_words),
    }


def oov_records(evaluations: Sequence[DatasetEvaluation]) -> dict:
    """The OOV record of each (data set, agent, kind of data): what was skipped and the words."""
    oov = {}
    for ev in evaluations:
        for data, results in ev.sender_results():
            for agent, res in results.items():
                oov[f"{ev.dataset}/{agent}/{data}"] = _oov_record(res)
        for agent, res in (ev.senders_on_sender_candidates or {}).items():
            oov[f"{ev.dataset}/{agent}/human_sender.candidates"] = _oov_record(res)
        for data, results in ev.receiver_results():
            for agent, res in results.items():
                oov[f"{ev.dataset}/{agent}/{data}"] = _oov_record(res)
    return oov


def skip_reason(skipped) -> str:
    """The ``skipped`` counter of a result in words.

    >>> skip_reason({"oov_clue": 4})
    'clue not in vocabulary'
    >>> skip_reason({"oov_board": 1, "oov_clue": 4})
    'clue not in vocabulary (4); board word not in vocabulary (1)'
    """
    parts = sorted(((n, k) for k, n in dict(skipped).items() if n), key=lambda t: (-t[0], t[1]))
    if len(parts) == 1:
        return SKIP_REASONS.get(parts[0][1], parts[0][1])
    return "; ".join(f"{SKIP_REASONS.get(k, k)} ({n})" for n, k in parts)


def scores_of(
    result: MeasureResult,
    evaluations: Sequence[DatasetEvaluation],
    intervals: Intervals | None = None,
) -> None:
    """Append the :class:`~wordgames.measure.Score` rows (all clue sources together).

    Every sender statistic and every receiver score with its percentile-bootstrap 95 % interval,
    ``n``, the skipped records and why; the ranks among the candidates the person chose from
    (:data:`CANDIDATES_METRIC`) where the source gives them; then the aggregates over data sets
    (:func:`aggregate_scores`).
    """
    from wordgames.codenames.measures import RANK_STATS

    ci = intervals or Intervals()
    for ev in evaluations:
        for data, among, results in _sender_parts(ev):
            for agent, res in results.items():
                s = res.summary(intervals=RANK_STATS, **ci.kw())
                why = dict(n=s["n"], n_skipped=s["n_skipped"], skip_reason=skip_reason(res.skipped),
                           n_unread=res.unread)  # fmt: skip
                _reading_rows(result, ev.dataset, data, agent, res, s["n"])
                if among == "candidates":
                    result.score(
                        ev.dataset,
                        agent,
                        CANDIDATES_METRIC,
                        s["mean_rank"],
                        ci=s["ci"]["mean_rank"],
                        **why,
                    )
                    continue
                for k in SENDER_METRICS:
                    if k in res.defined():
                        result.score(ev.dataset, agent, f"{data}.{k}", s[k], ci=s["ci"][k], **why)
        for data, results in ev.receiver_results():
            for agent, res in results.items():
                s = res.summary(**ci.kw())
                row = result.score(
                    ev.dataset,
                    agent,
                    f"{data}.{res.measure}",
                    s[res.measure],
                    ci=(s["ci_low"], s["ci_high"]),
                    n=s["n"],
                    n_skipped=s["n_skipped"],
                    skip_reason=skip_reason(res.skipped),
                    n_unread=res.unread,
                )
                _reading_rows(result, ev.dataset, data, agent, res, s["n"])
                if MEASURE.headline_of(row) is not None:
                    result.keep_items(row, _items([(ev.dataset, res)], strata=False))
    aggregate_scores(result, evaluations, ci)


def _reading_rows(result: MeasureResult, dataset: str, data: str, agent: str, res, n) -> None:
    """A player agent's ``format_failures`` row and ``answers_read`` row (others have none)."""
    if res.reading is None:
        return
    metric = f"{data}.format_failures"
    if any((r.dataset, r.agent, r.metric) == (dataset, agent, metric) for r in result.scores):
        return  # a sender's statistics share one reading
    format_failure_score(result, dataset, agent, metric, res.unread, n)
    result.tables.setdefault("answers_read", []).append(
        answers_read_row(dataset, agent, res.reading, data)
    )


def _stat(role: str, stat: str) -> dict:
    """The keyword that picks a sender statistic's per-decision values (receivers have one)."""
    return {"stat": stat} if role == "sender" else {}


def _items(parts, *, strata: bool, stat: str | None = None) -> dict:
    """The per-record values behind a score of ``parts`` (``[(data set, result)]``).

    Receivers: each record's score; senders: each record's value of ``stat`` (default its
    rank). Records are weighted by their count; over several data sets each is a stratum (the
    mean of the data sets' means).
    """
    ids, values, weights, names = [], [], [], []
    for name, res in parts:
        per = res.per_record()[0][stat or "mean_rank"] if hasattr(res, "per_record") else res.scores
        ids += [f"{name}:{r}" for r in res.record_ids]
        values += list(np.asarray(per, float))
        weights += list(res.weights)
        names += [name] * len(res.record_ids)
    return item_record(ids, values, weights=weights, strata=names if strata else None)


def _agent_result(ev: DatasetEvaluation, data: str, role: str, agent: str):
    """One agent's result on one kind of data of one data set, or ``None``."""
    if not ev.n_records.get(data):
        return None
    pairs = dict(ev.sender_results() if role == "sender" else ev.receiver_results())
    return pairs[data].get(agent)


def aggregate_scores(
    result: MeasureResult,
    evaluations: Sequence[DatasetEvaluation],
    intervals: Intervals | None = None,
) -> list[dict]:
    """The ``"all"`` rows: each headline metric as the mean over the data sets.

    For each of :data:`AGGREGATES`, the value is the mean of the per-data-set values over the
    data sets that have records of its kind and at least one scored record, each data set
    weighted equally (not by its size: noahprescott's 6,336 receiver records would otherwise
    outweigh the pilot's 196). ``n`` and ``n_skipped`` are summed over those data sets;
    ``coverage`` is the mean of the data sets' coverages (a data set with nothing scored
    counts 0); the 95 % interval is a percentile bootstrap that resamples the decisions within
    each data set (:func:`~wordgames.codenames.measures.stratified_mean_ci`). Also returned,
    and kept as the ``aggregates`` table: which data sets each row covers.
    """
    from wordgames.codenames.measures import stratified_mean_ci

    ci = intervals or Intervals()
    rows = []
    for data, role, agent, stat in AGGREGATES:
        metric = f"{data}.{stat}"
        parts = [(ev.dataset, _agent_result(ev, data, role, agent)) for ev in evaluations]
        parts = [(name, res) for name, res in parts if res is not None]
        if not parts:
            continue
        values = {name: res.values(**_stat(role, stat)) for name, res in parts}
        used = [name for name, v in values.items() if v.size]
        n = sum(values[name].size for name in used)
        skipped = Counter()
        for _name, res in parts:
            skipped.update(res.skipped)
        n_skipped = sum(skipped.values())
        n_unread = sum(getattr(res, "unread", 0) for _name, res in parts)
        covs = [
            values[name].size / (values[name].size + sum(res.skipped.values()))
            if values[name].size
            else 0.0
            for name, res in parts
        ]
        value = float(np.mean([values[name].mean() for name in used])) if used else float("nan")
        lo, hi = stratified_mean_ci(
            [values[name] for name in used], bounds=MEASURE.bounds(metric), **ci.kw()
        )
        why = skip_reason(skipped)
        empty = [name for name in values if name not in used]
        if empty:
            why = "; ".join(filter(None, [why, f"nothing scored in {', '.join(empty)}"]))
        row = result.score(
            ALL_DATASETS,
            agent,
            metric,
            value,
            ci=(lo, hi),
            n=n,
            n_skipped=n_skipped,
            skip_reason=why,
            n_unread=n_unread,
        )
        row.coverage = float(np.mean(covs))
        used_parts = [(nm, r) for nm, r in parts if nm in used]
        result.keep_items(
            row, _items(used_parts, strata=True, stat=stat if role == "sender" else None)
        )
        rows.append(
            {
                "metric": metric,
                "agent": agent,
                "value": value,
                "ci_low": lo,
                "ci_high": hi,
                "n": n,
                "n_skipped": n_skipped,
                "coverage": row.coverage,
                "datasets": used,
                "n_datasets": len(used),
                "datasets_without_scores": empty,
            }
        )
    result.tables["aggregates"] = rows
    return rows


# --------------------------------------------------------------------------- data
def load_available(
    root=None, names: Sequence[str] | None = None, problems: list | None = None
) -> dict:
    """Every available (or every named) human data set, loaded.

    A data set that fails to load (damaged beyond repair, checksum mismatch) is left out, its
    error appended to ``problems`` when given (else raised) and logged;
    :class:`~wordgames.errors.SkipMeasure` when none is left. An unknown name is a
    ``KeyError`` naming the known ones.
    """
    from wordgames.codenames.human_data import available_human_datasets, load_human_data
    from wordgames.errors import SkipMeasure, WordgamesError

    names = list(names) if names else available_human_datasets(root)
    out = {}
    for n in names:
        try:
            out[n] = load_human_data(n, root)
        except WordgamesError as exc:
            if problems is None:
                raise
            problems.append(f"{n} not evaluated: {exc}")
            log.warning("%s not evaluated: %s", n, exc)
    if not out:
        raise SkipMeasure(
            "no human Codenames data set is available: set WORDGAMES_DATA to the "
            "folder holding codenames/ and codenames-human/"
            + (f" ({'; '.join(problems)})" if problems else "")
        )
    return out


def load_chosen(opts, data_root=None, problems: list | None = None) -> dict:
    """The data sets of the options.

    The named (or, without ``files``, every available) human data sets, then the users' own files
    (``files``).
    """
    from wordgames.codenames.human_data import read_user_file

    datasets = {}
    if opts.datasets or not opts.files:
        datasets = load_available(data_root, opts.datasets, problems)
    for f in opts.files:
        d = read_user_file(f)
        datasets[d.dataset] = d
    return datasets


def data_notes(name: str, data) -> list[str]:
    """What the loader repaired, dropped and flagged, in words, then its notes.

    >>> from wordgames.codenames.records import LoadedHumanData
    >>> d = LoadedHumanData("d", repairs={"a row padded": 3}, dropped={"no guess": 1})
    >>> data_notes("d", d)
    ['d: 3 rows repaired (a row padded: 3), 1 row dropped (no guess: 1)']
    """
    parts = []
    for kind, counts in (
        ("repaired", data.repairs),
        ("dropped", data.dropped),
        ("kept but flagged", getattr(data, "flagged", {}) or {}),
    ):
        total = sum(counts.values())
        if total:
            why = "; ".join(f"{reason}: {n:,}" for reason, n in counts.items())
            parts.append(f"{total:,} row{'s' if total != 1 else ''} {kind} ({why})")
    return ([f"{name}: " + ", ".join(parts)] if parts else []) + [
        f"{name}: {n}" for n in data.notes
    ]


# --------------------------------------------------------------------------- the measure
def max_records_of(opts, quick: bool) -> int | None:
    """The sample size: the option (``None``: every record), capped at 30 in quick runs."""
    if not quick:
        return opts.max_records
    return (
        QUICK_MAX_RECORDS if opts.max_records is None else min(opts.max_records, QUICK_MAX_RECORDS)
    )


def _is_player(subject) -> bool:
    from wordgames.subjects import is_player

    return is_player(subject)


def run(embedding, ctx) -> MeasureResult:
    """All agents on every chosen human data set.

    ``ctx.options`` is a :class:`~wordgames.codenames.spec.CodenamesOptions`.

    Default: every record (``max_records``: a seeded sample of at most that many records of
    each kind per data set); quick runs: at most 30 records and 3 k-means restarts. The records
    used and available are recorded in ``parameters`` (``n_records``, ``n_available``) and a
    sample is stated in ``notes``. Intervals: seeded percentile bootstraps with
    ``ctx.ci_resamples`` resamples.
    """
    from wordgames.measure import MeasureResult
    from wordgames.subjects import is_people

    opts = ctx.options
    result = MeasureResult("codenames", MEASURE_VERSION)
    if is_people(embedding):
        return _people_run(ctx, result)
    if ctx.quick and _is_player(embedding) and opts.datasets is None and not opts.files:
        # every answer of a player is a request: a quick run asks one data set's sample
        opts = dataclasses.replace(opts, datasets=QUICK_PLAYER_DATASETS)
        result.notes.append(
            f"quick run of a player: only {', '.join(QUICK_PLAYER_DATASETS)} (every answer "
            "is a request)"
        )
    t0 = time.perf_counter()
    datasets = load_chosen(opts, ctx.data_root, result.notes)
    result.timings["load_data"] = round(time.perf_counter() - t0, 4)
    senders, receivers, clues = _line_up(embedding, ctx, result)
    max_records = max_records_of(opts, ctx.quick)
    evaluations = _evaluate_all(datasets, senders, receivers, max_records, ctx, result)
    intervals = Intervals(int(ctx.ci_resamples), int(ctx.seed))
    t = time.perf_counter()
    result.oov = oov_records(evaluations)
    scores_of(result, evaluations, intervals)
    share_scores(result, evaluations, intervals)
    srows, rrows = tables(evaluations, embedding.name, intervals)
    result.timings["intervals"] = round(time.perf_counter() - t, 4)
    result.tables.update({"senders": srows, "receivers": rrows})
    result.parameters = _parameters(senders, receivers, max_records, ctx, evaluations)
    if clues is not None:
        result.notes.append(clues.note())
        result.parameters["clue_vocabulary"] = {
            "name": clues.name,
            "n_clues": clues.n_clues,
            "n_listed": clues.n_listed,
            "n_oov": len(clues.oov),
        }
    records = records_notes(evaluations, max_records)
    result.notes.extend(records)
    for line in records:
        ctx.log(line)
    _plots(result, srows, rrows, ctx.plot_dir("codenames", embedding.name))
    return result


def _people_run(ctx, result: MeasureResult) -> MeasureResult:
    """The people's rows (the human ceiling) of every chosen data set, on the agents' records.

    The same data sets, sample (``max_records``, the run's seed) and intervals as an
    embedding's run; nothing is asked of any model (:mod:`wordgames.codenames.people`).
    """
    from wordgames.codenames.people import people_scores, people_values

    opts = ctx.options
    t0 = time.perf_counter()
    datasets = load_chosen(opts, ctx.data_root, result.notes)
    max_records = max_records_of(opts, ctx.quick)
    evaluations = []
    for name, data in datasets.items():
        ev = DatasetEvaluation(name)
        rec = _sample(data.receiver, max_records, ctx.seed)
        snd = _sample(data.sender, max_records, ctx.seed)
        ev.n_records = {"human_receiver": len(rec), "human_sender": len(snd)}
        ev.n_available = {"human_receiver": len(data.receiver), "human_sender": len(data.sender)}
        ev.people = people_values(data, rec, snd)
        evaluations.append(ev)
        result.datasets[name] = dict(data.files)
        result.notes.extend(data_notes(name, data))
    people_scores(result, evaluations, Intervals(int(ctx.ci_resamples), int(ctx.seed)))
    result.notes.append(PEOPLE_NOTE)
    result.notes.extend(records_notes(evaluations, max_records))
    result.parameters = {
        "method": "leave one person out: each held-out response by the other responses to "
        "the same item (wordgames.codenames.people)",
        "max_records": max_records,
        "seed": ctx.seed,
        "quick": ctx.quick,
        "n_records": {ev.dataset: ev.n_records for ev in evaluations},
        "n_available": {ev.dataset: ev.n_available for ev in evaluations},
        "intervals": {
            "method": "percentile bootstrap over items (clusters)",
            "confidence": 0.95,
            "resamples": int(ctx.ci_resamples),
            "seed": ctx.seed,
        },  # fmt: skip
    }
    result.timings["people"] = round(time.perf_counter() - t0, 4)
    return result


#: what the people's rows leave out, in the result's notes
PEOPLE_NOTE = (
    "people: Algorithms 5 (receiver data) and 6 (sender data) only; Algorithm 4 has no people "
    "row (its clue was given to the people whose picks it is scored on, not chosen by them) "
    "and Algorithm 7 none (its truth is the clue giver's targets; the guessers of the receiver "
    "data saw other clues)"
)


def _line_up(subject, ctx, result: MeasureResult):
    """``(senders, receivers, clue list)``: the agents named by the options, else the defaults.

    The defaults: the paper's agents for vectors, the player's sender and receiver for a
    player. The agents the subject cannot drive are named in the result's notes with the
    reason.
    """
    from wordgames.agents import usable
    from wordgames.codenames.agents import default_receivers, default_senders
    from wordgames.subjects import is_player

    opts = ctx.options
    if is_player(subject):
        if opts.senders is None and opts.receivers is None:
            for role in ("sender", "receiver"):
                for name, why in usable("codenames", role, subject)[1].items():
                    result.notes.append(f"{role} {name!r} not run: {why}")
        names = opts.senders if opts.senders is not None else ("player-sender",)
        senders = _by_name("sender", names, subject, ctx, result)
        names = opts.receivers if opts.receivers is not None else ("player-receiver",)
        return senders, _by_name("receiver", names, subject, ctx, result), None
    clue_embedding, vocab_size, clues = _clue_vocabulary(subject, opts, ctx.data_root)
    if opts.senders is not None:
        senders = _by_name("sender", opts.senders, clue_embedding, ctx, result, vocab_size)
    else:
        senders = default_senders(
            clue_embedding,
            quick=ctx.quick,
            random_state=ctx.seed,
            distance=opts.distance,
            vocab_size=vocab_size,
            n_restarts=opts.n_restarts,
        )
    if opts.receivers is not None:
        receivers = _by_name("receiver", opts.receivers, subject, ctx, result)
    else:
        receivers = default_receivers(subject, random_state=ctx.seed, distance=opts.distance)
    return senders, receivers, clues


def _by_name(role: str, names, subject, ctx, result: MeasureResult, vocab_size=None) -> list:
    """The agents ``names`` for ``subject`` (:mod:`wordgames.agents`).

    Each is built by its registered factory with the run's seed and the measure's options
    where its signature takes them; one the subject cannot drive is named in the notes.
    """
    from wordgames.agents import get_agent
    from wordgames.codenames.agents import kmeans_restarts

    opts, out = ctx.options, []
    for name in names:
        spec = get_agent("codenames", name)
        why = spec.reason_unusable(subject)
        if why is not None:
            result.notes.append(f"{role} {name!r} not run: {why}")
            continue
        out.append(
            spec.build(
                subject,
                random_state=ctx.seed,
                distance=opts.distance,
                vocab_size=vocab_size,
                n_restarts=kmeans_restarts(opts.n_restarts, ctx.quick),
            )  # fmt: skip
        )
    return out


def _clue_vocabulary(embedding, opts, data_root):
    """The senders' embedding, ``vocab_size`` and clue list of the ``clue_vocabulary`` option.

    Default: the embedding itself, ``opts.vocab_size`` and no list.
    """
    if opts.clue_vocabulary is None:
        return embedding, opts.vocab_size, None
    from wordgames.codenames.experiments import load_clue_vocabulary

    clues = load_clue_vocabulary(embedding, opts.clue_vocabulary, data_root)
    return clues.embedding, clues.n_clues, clues


def _evaluate_all(
    datasets: dict, senders, receivers, max_records, ctx, result: MeasureResult
) -> list[DatasetEvaluation]:
    """Every data set's evaluation (the senders in one pass over all), timings and notes."""
    opts = ctx.options
    t = time.perf_counter()
    evaluations = evaluate_human_datasets(
        list(datasets.values()),
        senders,
        receivers,
        max_records=max_records,
        seed=ctx.seed,
        target_score=opts.target_score,
        blue_score=opts.blue_score,
        red_score=opts.red_score,
    )
    result.timings["senders"] = round(evaluations[0].timings["senders"], 4) if evaluations else 0
    for i, ((name, data), ev) in enumerate(zip(datasets.items(), evaluations, strict=True)):
        receivers_s = sum(v for k, v in ev.timings.items() if k.endswith(".receivers"))
        result.timings[f"{name}.receivers"] = round(receivers_s, 4)
        ctx.log(
            f"{name}: {ev.n_records['human_receiver']:,} receiver and "
            f"{ev.n_records['human_sender']:,} sender records (receivers {receivers_s:.1f} s)"
        )
        if ctx.progress is not None:
            ctx.progress(f"codenames: {name}", i + 1, len(datasets))
        result.datasets[name] = dict(data.files)
        result.notes.extend(data_notes(name, data))
    ctx.log(f"codenames: senders on every data set in {time.perf_counter() - t:.1f} s")
    return evaluations


def _parameters(senders, receivers, max_records, ctx, evaluations) -> dict:
    from wordgames.codenames.agents import agent_params

    return {
        "senders": {s.name: agent_params(s) for s in senders},
        "receivers": {r.name: agent_params(r) for r in receivers},
        "max_records": max_records,
        "seed": ctx.seed,
        "quick": ctx.quick,
        "algorithm7_scores": {"target": 1.0, "blue": 0.0, "red": -1.0},
        "n_records": {ev.dataset: ev.n_records for ev in evaluations},
        "n_available": {ev.dataset: ev.n_available for ev in evaluations},
        "intervals": {
            "method": "percentile bootstrap over decisions (records weighted by their count); "
            f"'{ALL_DATASETS}' rows resample within each data set",
            "confidence": 0.95,
            "resamples": int(ctx.ci_resamples),
            "seed": ctx.seed,
        },
    }


def records_notes(evaluations: Sequence[DatasetEvaluation], max_records: int | None) -> list[str]:
    """The records used, in words: every record, or the sample and what it was drawn from.

    >>> ev = DatasetEvaluation("d", n_records={"human_receiver": 30, "human_sender": 0},
    ...                        n_available={"human_receiver": 196, "human_sender": 0})
    >>> records_notes([ev], 30)
    ['records: a seeded sample of at most 30 per data set and kind: d 30 of 196 receiver']
    >>> ev.n_records["human_receiver"] = 196
    >>> records_notes([ev], None)
    ['records: all 196 receiver and 0 sender records of 1 data set']
    """
    used = {k: sum(ev.n_records.get(k, 0) for ev in evaluations) for k in KINDS}
    avail = {k: sum(ev.n_available.get(k, 0) for ev in evaluations) for k in KINDS}
    n_ds = len(evaluations)
    if used == avail:
        return [
            f"records: all {used['human_receiver']:,} receiver and {used['human_sender']:,} "
            f"sender records of {n_ds} data set{'s' if n_ds != 1 else ''}"
        ]
    parts = []
    for ev in evaluations:
        for k in KINDS:
            if ev.n_records.get(k, 0) != ev.n_available.get(k, 0):
                parts.append(
                    f"{ev.dataset} {ev.n_records[k]:,} of {ev.n_available[k]:,} "
                    f"{k.removeprefix('human_')}"
                )
    return [
        f"records: a seeded sample of at most {max_records:,} per data set and kind: "
        + ", ".join(parts)
    ]


def _plots(result: MeasureResult, srows, rrows, folder) -> None:
    """The figures of one embedding, when the run writes files.

    A plot never costs the numbers: a failure is a note.
    """
    if folder is None:
        return
    from wordgames.codenames.plots import plot_evaluation

    try:
        t = time.perf_counter()
        result.plots = [str(p) for p in plot_evaluation(srows, rrows, folder)]
        result.timings["plots"] = round(time.perf_counter() - t, 4)
    except Exception as exc:  # a plot must never cost the numbers
        result.notes.append(f"plots failed: {exc!r}")


# --------------------------------------------------------------------------- pre-check
def coverage(embedding, opts, root):
    """``(data set, items known, items, unit)`` of each data set: the pre-check of a unit."""
    from wordgames.precheck import known_rows

    out = []
    for name, data in load_chosen(opts, root).items():
        for role, records, words_of in (
            ("human_receiver", data.receiver, lambda r: [*r.board, r.clue]),
            ("human_sender", data.sender, lambda r: [*r.blue, *r.avoid, r.clue]),
        ):
            if not records:
                continue
            groups = [[str(w).lower() for w in words_of(r)] for r in records]
            weights = np.array([max(1, int(getattr(r, "count", 1) or 1)) for r in records])
            known = known_rows(embedding, groups)
            out.append(
                (
                    f"{name} ({role})",
                    int(weights[known].sum()),
                    int(weights.sum()),
                    "records",
                    role,
                )  # fmt: skip
            )
    return out


def game_words(root) -> set[str]:
    """Every word this game asks an embedding about on the available data."""
    from wordgames.codenames.board import codenames_word_list
    from wordgames.codenames.spec import CodenamesOptions

    out = set(codenames_word_list(root))
    for data in load_chosen(CodenamesOptions(), root).values():
        for r in data.receiver:
            out.update(str(w).lower() for w in (*r.board, r.clue))
        for r in data.sender:
            out.update(str(w).lower() for w in (*r.blue, *r.avoid, r.clue))
    return out
