"""`wordgames report RESULTS_DIR`: rebuild a results folder's HTML report and leaderboard files.

Heavy imports stay inside the command body.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer


def report(
    results_dir: Annotated[
        Path,
        typer.Argument(
            metavar="RESULTS_DIR",
            help="Folder written by 'wordgames run --out DIR' (its results store, else "
            "results.json).",
        ),
    ],
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
            "-o",
            metavar="FOLDER",
            help="Folder to write the report (and the CSV files) into (default: RESULTS_DIR).",
        ),
    ] = None,
    name: Annotated[
        str,
        typer.Option(
            "--name",
            metavar="NAME",
            help="Name of the HTML page in that folder (default: report.html).",
        ),
    ] = "report.html",
    images: Annotated[
        str,
        typer.Option(
            metavar="embed|copy",
            help="'embed' (default): plots inside the HTML as data URIs, one self-contained "
            "page; 'copy': PNGs in <name>_files/ beside it.",
        ),
    ] = "embed",
    csv: Annotated[
        bool,
        typer.Option(
            help="Also write leaderboard.csv, metrics_long.csv (every Score row) and "
            "correlation.csv beside the HTML (default: yes)."
        ),
    ] = True,
):
    """Build the static HTML report of a results folder.

    It opens with the leaderboard of the measures' headline scores (95 % intervals inside each
    metric's range, items left out in words, thin scores greyed and not ranked) and the
    headline plots, then the cross-measure correlation and each measure's scores, tables,
    baselines and plots; the run's environment, parameters, checksums and timings are folded
    at the end. Opens offline.
    """
    from wordgames.cli.common import console as make_console
    from wordgames.cli.common import fail
    from wordgames.errors import WordgamesError
    from wordgames.textio import literal

    if images not in ("embed", "copy"):
        fail(f"--images must be 'embed' or 'copy', not {images!r}")
    if not name or Path(name).name != name:
        fail(f"--name must be a file name without a folder, not {name!r} (use --out FOLDER)")
    console = make_console()
    try:
        coll, path, lb = _write(results_dir, out, name, images, csv)
    except WordgamesError as exc:
        fail(str(exc))
    lines = [
        f"report: {path}  ({len(coll.labels())} embedding(s), {len(coll.measures())} "
        f"measure(s), {len(coll.entries)} stored result(s))"
    ]
    thin = int(lb.thin.to_numpy().sum()) if lb.columns else 0
    if thin:
        lines.append(
            f"note: {thin} leaderboard score(s) are thin: shown with the reason, not ranked"
        )
    lines += [f"note: {n}" for n in coll.notes]
    for line in lines:  # soft wrap: the terminal wraps long names, nothing is cut
        console.print(literal(line), highlight=False, soft_wrap=True)


def _write(results_dir: Path, out: Path | None, name: str, images: str, csv: bool):
    """Read the folder, write the HTML (and the CSV files); the collection, path, leaderboard."""
    from wordgames.report import correlation_table, leaderboard, load_results, long_table
    from wordgames.report.html import write_html

    coll = load_results(results_dir)
    folder = Path(out) if out is not None else Path(results_dir)
    path = write_html(coll, folder / name, images=images)
    lb = leaderboard(coll)
    if csv:
        from wordgames.safeio import confine, write_text_atomic

        with confine(folder):
            for file, frame in (
                ("leaderboard.csv", lb.to_frame()),
                ("metrics_long.csv", long_table(coll)),
                ("correlation.csv", correlation_table(coll).pairs),
            ):
                write_text_atomic(path.with_name(file), frame.to_csv(index=False))
    return coll, path, lb


def register(app: typer.Typer) -> None:
    """Add the ``report`` command to the ``wordgames`` app."""
    app.command("report")(report)
