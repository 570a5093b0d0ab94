"""The compute function of the CBM measure (declared in :mod:`wordgames.emergent.spec`).

CBM does not depend on a word embedding: it evaluates the emergent-communication logs named in
the options (:class:`~wordgames.emergent.spec.CBMOptions`: ``logs``, ``eos_id``, ``pad_id``,
``format``, ``topsim_max_pairs``, ``counting``). Without logs it evaluates the trained runs of
the paper's Table 1 that ship with wordgames (:mod:`wordgames.emergent.shipped`). Scores: one
row per log (``dataset``: :func:`~wordgames.emergent.shipped.log_name`) and metric,
``subject`` empty.

Coverage: ``precision`` leaves out the messages without words (``n_skipped``; the default
``n / (n + n_skipped)``). TopSim above ``topsim_max_pairs`` uses every pair of a seeded uniform
random subset of messages: ``n`` and ``n_skipped`` say how many pairs it used and left, but a
uniform subsample estimates the whole log's TopSim rather than losing part of it, so its
``coverage`` is set to 1 (a 2,000,000-pair estimate is not a thin score). No CBM number has a
confidence interval (the log is the population, not a sample of it).
"""

from __future__ import annotations

from pathlib import Path

from wordgames.errors import SkipMeasure

QUICK_TOPSIM_PAIRS = 100_000
QUICK_SENSITIVITY_SAMPLES = 500


def measure_kwargs(opts, seed: int, quick: bool) -> dict:
    """Keyword arguments of :func:`~wordgames.emergent.measures.evaluate_language`.

    Taken from the options; smoke runs use fewer TopSim pairs and sensitivity steps.
    """
    kwargs = {
        "eos_id": opts.eos_id,
        "pad_id": opts.pad_id,
        "random_state": seed,
        "topsim_max_pairs": opts.topsim_max_pairs,
        "counting": opts.counting,
    }
    if quick:
        kwargs.update(
            topsim_max_pairs=min(opts.topsim_max_pairs, QUICK_TOPSIM_PAIRS),
            sensitivity_max_samples=QUICK_SENSITIVITY_SAMPLES,
        )
    return kwargs


def run(embedding, ctx):
    """Evaluate every log given; one :class:`~wordgames.measure.MeasureResult` for all of them.

    The Score rows name the log (its file stem) in ``dataset``; every table row in ``log``.
    """
    from wordgames.emergent.logfile import evaluate_log_file
    from wordgames.emergent.shipped import log_name
    from wordgames.emergent.spec import MEASURE
    from wordgames.measure import MeasureResult

    opts = ctx.options
    logs, shipped = _logs(opts)
    kwargs = measure_kwargs(opts, ctx.seed, ctx.quick)
    plot_dir = ctx.plot_dir("cbm", getattr(embedding, "name", "") or "no-embedding")
    combined = MeasureResult(measure="cbm", version=MEASURE.version)
    if shipped:
        combined.notes.append(
            f"no --cbm-log given: the {len(logs)} trained runs of the paper's Table 1 that ship "
            "with wordgames (docs/cbm-games.md)"
        )
    for path in logs:
        ctx.log(f"evaluating {path}")
        _, res = evaluate_log_file(
            path, plot_dir=plot_dir, fmt=opts.format, write_json=False, **kwargs
        )
        for table, rows in res.tables.items():
            combined.tables.setdefault(table, []).extend(rows)
        combined.scores.extend(res.scores)
        combined.plots.extend(res.plots)
        prefix = "" if len(logs) == 1 else f"{log_name(path)}/"
        combined.timings.update({prefix + k: v for k, v in res.timings.items()})
        combined.notes.extend(f"{path.name}: {n}" for n in res.notes)
        combined.parameters[str(path)] = res.parameters
    combined.notes.append(
        "CBM does not use the word embedding: the same logs give the same "
        "numbers for every embedding"
    )
    return combined


def _logs(opts) -> tuple[list[Path], bool]:
    """The logs to evaluate and whether they are the shipped runs (none given)."""
    from wordgames.emergent.shipped import log_name, shipped_folder, shipped_logs

    logs = [Path(p) for p in opts.logs] or shipped_logs()
    if not logs:
        raise SkipMeasure(
            "no emergent-communication logs given (use --cbm-log), and this install ships no "
            f"trained runs (none under {shipped_folder()})"
        )
    names = [log_name(p) for p in logs]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise SkipMeasure(
            f"two logs would carry the same name {twice[0]!r} in the scores: give logs with "
            "different file names (or run folders)"
        )
    return logs, not opts.logs
