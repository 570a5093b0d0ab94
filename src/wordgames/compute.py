"""Compute one measure on one embedding: the step every executor and every caller shares."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from wordgames.measure import Measure, MeasureContext, Skip

Progress = Callable[[str, int, int], None]


def compute_unit(
    measure: Measure,
    embedding,
    *,
    options=None,
    seed: int = 0,
    quick: bool = False,
    data_root=None,
    out_dir=None,
    progress: Progress | None = None,
):
    """Compute one measure on one embedding.

    Returns
    -------
    MeasureResult or Skip
        The result, with its :class:`~wordgames.measure.Score` rows completed (embedding name,
        measure, direction from the declaration), or a :class:`~wordgames.measure.Skip` when the
        measure cannot run here (missing data set, optional dependency, no input).
    """
    from wordgames.errors import DatasetMissingError, OptionalDependencyError, SkipMeasure

    opts = measure.make_options(options)
    ctx = MeasureContext(
        options=opts,
        seed=seed,
        quick=quick,
        data_root=Path(data_root) if data_root else None,
        out_dir=Path(out_dir) if out_dir else None,
        progress=progress,
        measure=measure.name,
    )
    name = getattr(embedding, "name", "") or ""
    start = time.perf_counter()
    try:
        result = measure.load()(embedding, ctx)
    except (DatasetMissingError, SkipMeasure, OptionalDependencyError) as exc:
        return Skip(name, measure.name, str(exc))
    seconds = time.perf_counter() - start
    result.timings.setdefault("total", round(seconds, 4))
    finish_result(result, measure, name)
    return result


def finish_result(result, measure: Measure, embedding_name: str) -> None:
    """Stamp the result and its scores with the embedding, measure and declared directions."""
    result.embedding = embedding_name
    result.measure = measure.name
    result.version = measure.version
    for s in result.scores:
        s.embedding = embedding_name
        s.measure = measure.name
        s.direction = measure.direction(s.metric)
