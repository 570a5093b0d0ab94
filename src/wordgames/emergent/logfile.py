"""Evaluate a log file end to end: read, measure, draw the best-match graph, write the record."""

from __future__ import annotations

from pathlib import Path

from wordgames.emergent.inputs import read_log
from wordgames.emergent.measures import evaluate_log, report_to_result
from wordgames.emergent.shipped import log_name


def _safe(stem: str) -> str:
    return "".join(c if c.isalnum() or c in "-_." else "_" for c in stem)


def evaluate_log_file(
    path,
    *,
    out_dir=None,
    plot_dir=None,
    fmt: str = "auto",
    name: str = "cbm",
    write_json: bool = True,
    **kwargs,
):
    """Evaluate one JSONL/CSV log (:func:`wordgames.emergent.inputs.read_log`).

    Writes ``<plot_dir or out_dir>/cbm_graph_<stem>.png`` (and ``cbm_sensitivity_<stem>.png``
    when there are more than ``sensitivity_step`` samples) and, when ``write_json``,
    ``<out_dir>/cbm_<stem>.json`` (a :class:`wordgames.results.MeasureResult`). Keyword
    arguments go to :func:`wordgames.emergent.measures.evaluate_language`. Returns
    ``(report, result)``.
    """
    from wordgames.emergent.plots import plot_best_match_graph, plot_sensitivity
    from wordgames.results import write_json_atomic

    path = Path(path)
    report = evaluate_log(read_log(path, fmt=fmt), **kwargs)
    plots = []
    stem = _safe(log_name(path))
    target = Path(plot_dir) if plot_dir is not None else (Path(out_dir) if out_dir else None)
    if target is not None and report.cbm_result is not None:
        plots.append(
            plot_best_match_graph(
                report.cbm_result,
                target / f"cbm_graph_{stem}.png",
                title=f"{path.name}: word \u2194 concept best match",
            )
        )
    if target is not None and len(report.sensitivity) > 1:
        plots.append(
            plot_sensitivity(
                report.sensitivity,
                target / f"cbm_sensitivity_{stem}.png",
                title=f"{path.name}: CBM against evaluation-set size",
            )
        )
    result = report_to_result(report, name=name, plot_paths=plots, log=log_name(path))
    if out_dir is not None and write_json:
        write_json_atomic(Path(out_dir) / f"cbm_{stem}.json", result.as_dict())
    return report, result
