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

The flat ``metrics`` of earlier versions are kept beside them:
``"<dataset>/<agent>/<data>.<statistic>"`` (e.g. ``codenames-pilot/cluster/human_receiver.mean_rank``),
each with ``...n`` and ``...n_skipped_oov``.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from wordgames.codenames.spec import MEASURE, QUICK_MAX_RECORDS, SUITE_MAX_RECORDS

if TYPE_CHECKING:
    from wordgames.results import MeasureResult

log = logging.getLogger("wordgames.codenames")

MEASURE_VERSION = MEASURE.version
__all__ = [
    "QUICK_MAX_RECORDS",
    "SUITE_MAX_RECORDS",
    "DatasetEvaluation",
    "evaluate_human_data",
    "load_available",
    "load_chosen",
    "max_records_of",
    "metrics_and_oov",
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
    "mean_rank_best",
    "mean_rank_worst",
    "mean_rank_fraction",
    "n",
    "n_skipped_oov",
)
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
}


@dataclass
class DatasetEvaluation:
    """Every agent's results on one data set."""

    dataset: str
    senders_on_receiver_data: dict = field(default_factory=dict)
    receivers_on_receiver_data: dict = field(default_factory=dict)
    senders_on_sender_data: dict = field(default_factory=dict)
    receivers_on_sender_data: dict = field(default_factory=dict)
    n_records: dict = field(default_factory=dict)
    timings: dict = field(default_factory=dict)

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


def evaluate_human_data(
    data,
    senders: Sequence,
    receivers: Sequence,
    *,
    max_records: int | None = None,
    seed: int = 0,
    target_score: float = 1.0,
    blue_score: float = 0.0,
    red_score: float = -1.0,
    progress: Callable[[int], None] | None = None,
) -> DatasetEvaluation:
    """All four measures that apply to one loaded data set.

    Parameters
    ----------
    data : LoadedHumanData
        One data set (:func:`~wordgames.codenames.human_data.load_human_data`,
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

    Returns
    -------
    DatasetEvaluation
    """
    from wordgames.codenames.measures import (
        receiver_guess_score,
        receiver_map,
        sender_ranks_receiver_data,
        sender_ranks_sender_data,
    )

    ev = DatasetEvaluation(data.dataset)
    rec = _sample(data.receiver, max_records, seed)
    snd = _sample(data.sender, max_records, seed)
    ev.n_records = {"human_receiver": len(rec), "human_sender": len(snd)}
    if rec:
        t = time.perf_counter()
        ev.senders_on_receiver_data = sender_ranks_receiver_data(senders, rec, progress=progress)
        ev.timings["human_receiver.senders"] = time.perf_counter() - t
        t = time.perf_counter()
        ev.receivers_on_receiver_data = receiver_map(receivers, rec)
        ev.timings["human_receiver.receivers"] = time.perf_counter() - t
    if snd:
        t = time.perf_counter()
        ev.senders_on_sender_data = sender_ranks_sender_data(senders, snd, progress=progress)
        ev.timings["human_sender.senders"] = time.perf_counter() - t
        t = time.perf_counter()
        ev.receivers_on_sender_data = receiver_guess_score(
            receivers, snd, target_score=target_score, blue_score=blue_score, red_score=red_score
        )
        ev.timings["human_sender.receivers"] = time.perf_counter() - t
    return ev


# --------------------------------------------------------------------------- outputs
def tables(
    evaluations: Sequence[DatasetEvaluation], embedding_name: str = ""
) -> tuple[list[dict], list[dict]]:
    """Sender rows and receiver rows: one per (data set, kind of data, agent, clue source)."""
    from wordgames.codenames.measures import groups_of

    srows, rrows = [], []
    for ev in evaluations:
        for data, results in ev.sender_results():
            for agent, res in results.items():
                for g in groups_of(res):
                    s = res.summary(g)
                    srows.append(
                        {
                            "embedding": embedding_name,
                            "dataset": ev.dataset,
                            "data": data,
                            "agent": agent,
                            "clue_source": g,
                            **{k: s[k] for k in (*SENDER_STATS, "ci_low", "ci_high")},
                            "skipped": dict(res.skipped) if g == "all" else {},
                        }
                    )
        for data, results in ev.receiver_results():
            for agent, res in results.items():
                for g in groups_of(res):
                    s = res.summary(g)
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


def metrics_and_oov(evaluations: Sequence[DatasetEvaluation]) -> tuple[dict, dict]:
    """The flat metrics and the OOV record of each (data set, agent, kind of data).

    Metric names are ``"<dataset>/<agent>/<data>.<statistic>"``.
    """
    metrics, oov = {}, {}
    for ev in evaluations:
        for data, results in ev.sender_results():
            for agent, res in results.items():
                s = res.summary()
                for k in SENDER_STATS:
                    metrics[f"{ev.dataset}/{agent}/{data}.{k}"] = s[k]
                oov[f"{ev.dataset}/{agent}/{data}"] = _oov_record(res)
        for data, results in ev.receiver_results():
            for agent, res in results.items():
                s = res.summary()
                metrics[f"{ev.dataset}/{agent}/{data}.{res.measure}"] = s[res.measure]
                metrics[f"{ev.dataset}/{agent}/{data}.n"] = s["n"]
                metrics[f"{ev.dataset}/{agent}/{data}.n_skipped_oov"] = s["n_skipped_oov"]
                oov[f"{ev.dataset}/{agent}/{data}"] = _oov_record(res)
    return metrics, oov


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


def scores_of(result: MeasureResult, evaluations: Sequence[DatasetEvaluation]) -> None:
    """Append the :class:`~wordgames.measure.Score` rows (all clue sources together).

    Every sender statistic (the mean rank with its 95 % interval) and every receiver score (with its
    interval), with ``n``, the skipped records and why.
    """
    for ev in evaluations:
        for data, results in ev.sender_results():
            for agent, res in results.items():
                s = res.summary()
                why = dict(n=s["n"], n_skipped=s["n_skipped"], skip_reason=skip_reason(res.skipped))
                for k in SENDER_METRICS:
                    ci = (s["ci_low"], s["ci_high"]) if k == "mean_rank" else None
                    result.score(ev.dataset, agent, f"{data}.{k}", s[k], ci=ci, **why)
        for data, results in ev.receiver_results():
            for agent, res in results.items():
                s = res.summary()
                result.score(
                    ev.dataset,
                    agent,
                    f"{data}.{res.measure}",
                    s[res.measure],
                    ci=(s["ci_low"], s["ci_high"]),
                    n=s["n"],
                    n_skipped=s["n_skipped"],
                    skip_reason=skip_reason(res.skipped),
                )


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


def _data_notes(name: str, data) -> list[str]:
    summ = {
        "repairs": dict(data.repairs),
        "dropped": dict(data.dropped),
        "flagged": dict(getattr(data, "flagged", {}) or {}),
    }
    return ([f"{name}: {summ}"] if any(summ.values()) else []) + [
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


def run(embedding, ctx) -> MeasureResult:
    """All agents on every chosen human data set.

    ``ctx.options`` is a :class:`~wordgames.codenames.spec.CodenamesOptions`.

    Default: a seeded sample of at most 200 records of each kind per data set; quick runs: at
    most 30 records and 3 k-means restarts. The sample size is recorded in ``parameters``.
    """
    from wordgames.codenames.agents import default_receivers, default_senders
    from wordgames.results import MeasureResult

    opts = ctx.options
    result = MeasureResult("codenames", MEASURE_VERSION)
    t0 = time.perf_counter()
    datasets = load_chosen(opts, ctx.data_root, result.notes)
    result.timings["load_data"] = round(time.perf_counter() - t0, 4)
    senders = default_senders(
        embedding,
        quick=ctx.quick,
        random_state=ctx.seed,
        distance=opts.distance,
        vocab_size=opts.vocab_size,
        n_restarts=opts.n_restarts,
    )
    receivers = default_receivers(embedding, random_state=ctx.seed, distance=opts.distance)
    max_records = max_records_of(opts, ctx.quick)
    evaluations = _evaluate_all(datasets, senders, receivers, max_records, ctx, result)
    result.metrics, result.oov = metrics_and_oov(evaluations)
    scores_of(result, evaluations)
    srows, rrows = tables(evaluations, embedding.name)
    result.tables = {"senders": srows, "receivers": rrows}
    result.parameters = _parameters(senders, receivers, max_records, ctx, evaluations)
    _plots(result, srows, rrows, ctx.plot_dir("codenames", embedding.name))
    return result


def _evaluate_all(
    datasets: dict, senders, receivers, max_records, ctx, result: MeasureResult
) -> list[DatasetEvaluation]:
    """Each data set in turn: its evaluation, timing, checksums and notes."""
    evaluations = []
    for i, (name, data) in enumerate(datasets.items()):
        t = time.perf_counter()
        ev = evaluate_human_data(data, senders, receivers, max_records=max_records, seed=ctx.seed)
        result.timings[name] = round(time.perf_counter() - t, 4)
        ctx.log(f"{name}: {ev.n_records} records in {result.timings[name]:.1f} s")
        if ctx.progress is not None:
            ctx.progress(f"codenames: {name}", i + 1, len(datasets))
        evaluations.append(ev)
        result.datasets[name] = dict(data.files)
        result.notes.extend(_data_notes(name, data))
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
    }


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
