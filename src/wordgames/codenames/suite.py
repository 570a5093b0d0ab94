"""The Codenames part of ``wordgames run`` and ``wordgames codenames evaluate``: every sender
and receiver on every available human data set (paper section 4), with tables, OOV counts,
timings and plots.

Metric names are ``"<dataset>/<agent>/<data>.<statistic>"`` where ``<data>`` is
``human_receiver`` (records where a person picked words for a clue: Algorithms 4 and 5) or
``human_sender`` (a person gave the clue: Algorithms 6 and 7), e.g.
``codenames-pilot/cluster/human_receiver.mean_rank`` or
``codenames-pilot/nearest/human_receiver.map``. Each has ``...n_skipped_oov`` beside it.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from wordgames.results import MeasureResult

MEASURE_VERSION = "1"
QUICK_MAX_RECORDS = 30
#: ``wordgames run`` scores a seeded sample of at most this many records of each kind per data
#: set so that the whole suite stays well under a minute; ``wordgames codenames evaluate``
#: scores every record by default.
SUITE_MAX_RECORDS = 200
SENDER_STATS = ("mean_rank", "median_rank", "mrr", "hits@10", "hits@100", "mean_rank_best",
                "mean_rank_worst", "mean_rank_fraction", "n", "n_skipped_oov")


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


def _sample(records: list, max_records: int | None, seed: int) -> list:
    if max_records is None or len(records) <= max_records:
        return list(records)
    idx = np.sort(np.random.default_rng(seed).choice(len(records), max_records, replace=False))
    return [records[i] for i in idx]


def evaluate_human_data(data, senders: Sequence, receivers: Sequence, *,
                        max_records: int | None = None, seed: int = 0,
                        target_score: float = 1.0, blue_score: float = 0.0,
                        red_score: float = -1.0,
                        progress: Callable[[int], None] | None = None) -> DatasetEvaluation:
    """All four measures that apply to one loaded data set
    (:class:`~wordgames.codenames.records.LoadedHumanData`). ``max_records`` takes a seeded
    sample of each kind of record (quick runs)."""
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
            receivers, snd, target_score=target_score, blue_score=blue_score, red_score=red_score)
        ev.timings["human_sender.receivers"] = time.perf_counter() - t
    return ev


def tables(evaluations: Sequence[DatasetEvaluation], embedding_name: str = "") -> tuple[list[dict], list[dict]]:
    """Sender rows and receiver rows: one per (data set, kind of data, agent, clue source)."""
    from wordgames.codenames.measures import groups_of

    srows, rrows = [], []
    for ev in evaluations:
        for data, results in (("human_receiver", ev.senders_on_receiver_data),
                              ("human_sender", ev.senders_on_sender_data)):
            for agent, res in results.items():
                for g in groups_of(res):
                    s = res.summary(g)
                    srows.append({"embedding": embedding_name, "dataset": ev.dataset, "data": data,
                                  "agent": agent, "clue_source": g,
                                  **{k: s[k] for k in (*SENDER_STATS, "ci_low", "ci_high")},
                                  "skipped": dict(res.skipped) if g == "all" else {}})
        for data, results in (("human_receiver", ev.receivers_on_receiver_data),
                              ("human_sender", ev.receivers_on_sender_data)):
            for agent, res in results.items():
                for g in groups_of(res):
                    s = res.summary(g)
                    rrows.append({"embedding": embedding_name, "dataset": ev.dataset, "data": data,
                                  "agent": agent, "clue_source": g, "measure": res.measure,
                                  "score": s[res.measure], "ci_low": s["ci_low"],
                                  "ci_high": s["ci_high"], "n": s["n"],
                                  "n_skipped_oov": s["n_skipped_oov"],
                                  "skipped": dict(res.skipped) if g == "all" else {}})
    return srows, rrows


def metrics_and_oov(evaluations: Sequence[DatasetEvaluation]) -> tuple[dict, dict]:
    metrics, oov = {}, {}
    for ev in evaluations:
        for data, results in (("human_receiver", ev.senders_on_receiver_data),
                              ("human_sender", ev.senders_on_sender_data)):
            for agent, res in results.items():
                s = res.summary()
                for k in SENDER_STATS:
                    metrics[f"{ev.dataset}/{agent}/{data}.{k}"] = s[k]
                oov[f"{ev.dataset}/{agent}/{data}"] = {
                    "skipped": dict(res.skipped),
                    "oov_words": dict(res.oov_words.most_common(20)),
                    "n_oov_words": len(res.oov_words)}
        for data, results in (("human_receiver", ev.receivers_on_receiver_data),
                              ("human_sender", ev.receivers_on_sender_data)):
            for agent, res in results.items():
                s = res.summary()
                metrics[f"{ev.dataset}/{agent}/{data}.{res.measure}"] = s[res.measure]
                metrics[f"{ev.dataset}/{agent}/{data}.n"] = s["n"]
                metrics[f"{ev.dataset}/{agent}/{data}.n_skipped_oov"] = s["n_skipped_oov"]
                oov[f"{ev.dataset}/{agent}/{data}"] = {
                    "skipped": dict(res.skipped),
                    "oov_words": dict(res.oov_words.most_common(20)),
                    "n_oov_words": len(res.oov_words)}
    return metrics, oov


def load_available(root=None, names: Sequence[str] | None = None,
                   log: Callable[[str], None] = print, problems: list | None = None) -> dict:
    """Every available (or every named) human data set, loaded. A data set that fails to load
    (damaged beyond repair, checksum mismatch) is left out and its error appended to
    ``problems`` when given (else raised); :class:`~wordgames.suite.SkipMeasure` when none is
    left."""
    from wordgames.errors import WordgamesError
    from wordgames.errors import SkipMeasure

    try:
        from wordgames.codenames.human_data import available_human_datasets, load_human_data
    except ImportError as exc:  # the loaders are a separate module
        raise SkipMeasure(f"the Codenames human-data loaders are not installed: {exc}") from exc
    names = list(names) if names else available_human_datasets(root)
    out = {}
    for n in names:
        try:
            out[n] = load_human_data(n, root)
        except WordgamesError as exc:
            if problems is None:
                raise
            problems.append(f"{n} not evaluated: {exc}")
            log(f"codenames: {n} not evaluated: {exc}")
    if not out:
        raise SkipMeasure("no human Codenames data set is available: set WORDGAMES_DATA to the "
                          "folder holding codenames/ and codenames-human/"
                          + (f" ({'; '.join(problems)})" if problems else ""))
    return out


def run(embedding, ctx) -> MeasureResult:
    """``wordgames run``: all agents on every available human data set.

    ``ctx.options["codenames"]`` may hold ``datasets`` (names), ``max_records``,
    ``n_restarts``, ``distance``, ``vocab_size`` (``max_records=None`` scores every record).
    Default: a seeded sample of at most 200 records of each kind per data set; quick mode: 30
    records and 3 k-means restarts. The sample size is recorded in ``parameters``.
    """
    from wordgames.codenames.agents import default_receivers, default_senders
    from wordgames.codenames.plots import plot_evaluation
    from wordgames.results import MeasureResult

    opts = dict((ctx.options or {}).get("codenames", {}))
    t0 = time.perf_counter()
    problems: list[str] = []
    datasets = load_available(ctx.data_root, opts.get("datasets"), ctx.log, problems)
    t_load = time.perf_counter() - t0
    distance = opts.get("distance", "cosine")
    senders = default_senders(embedding, quick=ctx.quick, random_state=ctx.seed,
                              distance=distance, vocab_size=opts.get("vocab_size"),
                              n_restarts=opts.get("n_restarts"))
    receivers = default_receivers(embedding, random_state=ctx.seed, distance=distance)
    max_records = opts.get("max_records", QUICK_MAX_RECORDS if ctx.quick else SUITE_MAX_RECORDS)

    result = MeasureResult("codenames", MEASURE_VERSION)
    result.timings["load_data"] = round(t_load, 4)
    result.notes.extend(problems)
    evaluations = []
    for name, data in datasets.items():
        t = time.perf_counter()
        ev = evaluate_human_data(data, senders, receivers, max_records=max_records, seed=ctx.seed)
        result.timings[name] = round(time.perf_counter() - t, 4)
        ctx.log(f"codenames: {name}: {ev.n_records} records in {result.timings[name]:.1f} s")
        evaluations.append(ev)
        result.datasets[name] = dict(data.files)
        summ = {"repairs": dict(data.repairs), "dropped": dict(data.dropped),
                "flagged": dict(getattr(data, "flagged", {}) or {})}
        if any(summ.values()):
            result.notes.append(f"{name}: {summ}")
        result.notes.extend(f"{name}: {n}" for n in data.notes)
    result.metrics, result.oov = metrics_and_oov(evaluations)
    srows, rrows = tables(evaluations, embedding.name)
    result.tables = {"senders": srows, "receivers": rrows}
    result.parameters = {
        "senders": {s.name: s.get_params() for s in senders},
        "receivers": {r.name: r.get_params() for r in receivers},
        "max_records": max_records, "seed": ctx.seed, "quick": ctx.quick,
        "algorithm7_scores": {"target": 1.0, "blue": 0.0, "red": -1.0},
        "n_records": {ev.dataset: ev.n_records for ev in evaluations},
    }
    try:
        t = time.perf_counter()
        result.plots = [str(p) for p in plot_evaluation(srows, rrows, ctx.plot_dir("codenames", embedding.name))]
        result.timings["plots"] = round(time.perf_counter() - t, 4)
    except Exception as exc:  # a plot must never cost the numbers
        result.notes.append(f"plots failed: {exc!r}")
    return result

