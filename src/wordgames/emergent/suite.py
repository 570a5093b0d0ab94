"""The CBM measure for ``wordgames run``.

CBM does not depend on a word embedding: it evaluates the emergent-communication logs named in
``ctx.options["cbm_logs"]`` (a path or a list of paths; optional settings in
``ctx.options["cbm"]``: ``eos_id``, ``pad_id``, ``format``). Without logs the measure is skipped.
"""

from __future__ import annotations

from pathlib import Path

from wordgames.errors import SkipMeasure


def run(embedding, ctx):
    """Evaluate every log given; one :class:`~wordgames.results.MeasureResult` for all of them.

    With one log the metrics keep their names (``cbm``, ``ami``, ...); with several they are
    prefixed by the log's file stem (``run1/cbm``).
    """
    from wordgames.emergent.logfile import evaluate_log_file
    from wordgames.results import MeasureResult

    logs = ctx.options.get("cbm_logs")
    if not logs:
        raise SkipMeasure("no emergent-communication logs given (use --cbm-log)")
    logs = [logs] if isinstance(logs, str | Path) else list(logs)
    opts = dict(ctx.options.get("cbm") or {})
    kwargs = {"eos_id": opts.get("eos_id"), "pad_id": opts.get("pad_id"),
              "random_state": ctx.seed}
    if ctx.quick:  # smoke runs: fewer TopSim pairs and sensitivity steps
        kwargs.update(topsim_max_pairs=100_000, sensitivity_max_samples=500)
    plot_dir = ctx.plot_dir("cbm", getattr(embedding, "name", "no-embedding"))
    combined = MeasureResult(measure="cbm", version="1")
    for path in logs:
        path = Path(path)
        ctx.log(f"cbm: evaluating {path}")
        _, res = evaluate_log_file(path, plot_dir=plot_dir, fmt=opts.get("format", "auto"),
                                   write_json=False, **kwargs)
        prefix = "" if len(logs) == 1 else f"{path.stem}/"
        combined.metrics.update({prefix + k: v for k, v in res.metrics.items()})
        combined.tables.update({prefix + k: v for k, v in res.tables.items()})
        combined.plots.extend(res.plots)
        combined.timings.update({prefix + k: v for k, v in res.timings.items()})
        combined.notes.extend(f"{path.name}: {n}" for n in res.notes)
        combined.parameters[str(path)] = res.parameters
    combined.notes.append("CBM does not use the word embedding: the same logs give the same "
                          "numbers for every embedding")
    return combined
