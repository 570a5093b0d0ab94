"""Compute one measure on one embedding: the step every executor and every caller shares."""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from pathlib import Path

from wordgames.measure import Measure, MeasureContext, Skip, ThinPolicy, is_thin

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
    ci_resamples: int = 1000,
    thin: ThinPolicy | None = None,
    partner=None,
):
    """Compute one measure on one embedding.

    Every score is stamped with its coverage and whether it is too thin to rank (``thin``,
    default :class:`~wordgames.measure.ThinPolicy`); plot paths are made relative to
    ``out_dir`` (results are moved and merged as folders).

    Parameters
    ----------
    measure : Measure
        The measure's record.
    embedding : object
        A subject (an :class:`~wordgames.embeddings.Embedding`, a player, ``people``).
    options : object, optional
        Its typed options (default: the record's defaults).
    seed, quick, data_root, out_dir, ci_resamples
        As for :func:`wordgames.evaluate`.
    progress : Progress, optional
        Told about the unit's steps.
    thin : ThinPolicy, optional
        When a score is too thin to rank.
    partner : object, optional
        A pair measure's second subject.

    Returns
    -------
    MeasureResult or Skip
        The result, with its :class:`~wordgames.measure.Score` rows completed (subject name,
        measure, direction from the declaration), or a :class:`~wordgames.measure.Skip` when the
        measure cannot run here (missing data set, optional dependency, no input).

    Examples
    --------
    >>> import numpy as np
    >>> from wordgames.embeddings import Embedding
    >>> from wordgames.registry import get_measure
    >>> emb = Embedding(["a", "b", "c"], np.eye(3), name="eye")
    >>> res = compute_unit(get_measure("global-metrics"), emb)
    >>> round(res.value("erank"), 3), res.scores[0].subject
    (3.0, 'eye')
    """
    import contextlib

    from wordgames.errors import DatasetMissingError, OptionalDependencyError, SkipMeasure
    from wordgames.heap import long_lived_heap
    from wordgames.safeio import confine

    opts = measure.make_options(options)
    ctx = MeasureContext(
        options=opts,
        seed=seed,
        quick=quick,
        data_root=Path(data_root) if data_root else None,
        out_dir=Path(out_dir) if out_dir else None,
        progress=progress,
        measure=measure.name,
        ci_resamples=ci_resamples,
        partner=partner,
    )
    from wordgames.subjects import is_people

    name = getattr(embedding, "name", "") or ""
    if is_people(embedding) and "people" not in measure.subjects:  # no ceiling: say why
        why = measure.people or "it scores no subject against people's answers"
        return Skip(name, measure.name, f"{measure.name} has no people row: {why}")
    if measure.uses_embedding:
        from wordgames.subjects import lacks

        why = lacks(embedding, measure.subjects) or (
            lacks(partner, measure.subjects) if partner is not None else None
        )
        if why is not None:
            return Skip(name, measure.name, f"{measure.name} {why}")
    start = time.perf_counter()
    before = _usage(embedding, partner)
    for s in (embedding, partner):  # a transcript left by an earlier, skipped unit is not ours
        if callable(getattr(s, "take_transcript", None)):
            s.take_transcript()
    try:
        # a plot or table written under the output folder never follows a link out of it; the
        # objects alive before are left out of the collector's full passes (wordgames.heap)
        with confine(out_dir) if out_dir else contextlib.nullcontext(), long_lived_heap():
            result = measure.load()(embedding, ctx)
    except (DatasetMissingError, SkipMeasure, OptionalDependencyError) as exc:
        return Skip(name, measure.name, str(exc))
    seconds = time.perf_counter() - start
    result.timings.setdefault("total", round(seconds, 4))
    if before:
        result.usage = {k: v - before[k] for k, v in _usage(embedding, partner).items()}
    _keep_transcript(result, measure, embedding, partner)
    finish_result(result, measure, name, thin=thin, partner=partner)
    result.plots = [relative_plot(p, out_dir) for p in result.plots]
    return result


def _keep_transcript(result, measure: Measure, *subjects) -> None:
    """A chat subject's raw answers of this unit as the result's ``answers`` table."""
    rows = []
    for s in subjects:
        take = getattr(s, "take_transcript", None) if s is not None else None
        if callable(take):
            rows += take()
    if rows and any(t.matches("answers") for t in measure.tables):
        result.tables["answers"] = rows


def _usage(*subjects) -> dict:
    """Requests, tokens in and out and cache hits of the subjects that send requests, summed."""
    out: dict = {}
    for s in subjects:
        usage = getattr(s, "usage", None) if s is not None else None
        if usage is not None and hasattr(usage, "as_dict"):
            for k, v in usage.as_dict().items():
                out[k] = out.get(k, 0) + v
    return out


def finish_result(
    result, measure: Measure, subject_name: str, *, thin: ThinPolicy | None = None, partner=None
) -> None:
    """Stamp the result and its scores: subject, measure, direction, coverage, thinness.

    A unit of a measure of pairs stamps the partner's name as every row's ``partner``.
    """
    from wordgames.tables import check_tables

    check_tables(measure.name, measure.tables, result.tables)
    result.subject = subject_name
    result.measure = measure.name
    result.version = measure.version
    if partner is not None:
        result.set_partner(partner.name)
    for s in result.scores:
        s.subject = subject_name
        s.measure = measure.name
        s.direction = measure.direction(s.metric)
        if not math.isfinite(s.coverage):
            s.coverage = s.known_coverage()
        s.thin, s.thin_reason = is_thin(s, thin)


def relative_plot(path, out_dir) -> str:
    """``path`` relative to ``out_dir`` when it lies inside it (else as given)."""
    if out_dir is None:
        return str(path)
    p, root = Path(path), Path(out_dir)
    try:
        return str(p.resolve().relative_to(root.resolve()))
    except ValueError:
        return str(path)
