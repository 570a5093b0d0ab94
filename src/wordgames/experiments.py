"""Experiments: studies built on :func:`wordgames.evaluate`, above every measure family.

No family module calls :func:`~wordgames.evaluate`; a study that runs several measures on
several subjects and then analyses their stored Score rows lives here, so that its numbers are
stored, resumable and in the report like every other.

* :func:`correlation_study` -- WALES Figure 1: each measure on each embedding, then the rank
  correlation of every metric with the reference (:mod:`wordgames.similarity.correlation`).
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

__all__ = ["correlation_study"]


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
