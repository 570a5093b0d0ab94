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
            help="Folder written by 'wordgames run --out DIR' (its results store, else results.json)."
        ),
    ],
    out: Annotated[
        Path | None,
        typer.Option("--out", "-o", help="HTML file to write (default: RESULTS_DIR/report.html)."),
    ] = None,
    images: Annotated[
        str,
        typer.Option(
            help="'embed': plots inside the HTML as data URIs (one self-contained file); 'copy': PNGs "
            "in <name>_files/ beside it."
        ),
    ] = "embed",
    csv: Annotated[
        bool,
        typer.Option(
            help="Also write leaderboard.csv, metrics_long.csv (every Score row) and correlation.csv "
            "beside the HTML."
        ),
    ] = True,
):
    """Build the static HTML report.

    Leaderboard of the measures' headline scores with CIs and skipped (OOV) counts, cross-measure
    correlation, each measure's scores, tables, plots and baselines. Opens offline.
    """
    from rich.console import Console

    from wordgames.cli.common import fail
    from wordgames.errors import WordgamesError

    if images not in ("embed", "copy"):
        fail(f"--images must be 'embed' or 'copy', not {images!r}")
    console = Console()
    try:
        from wordgames.report import correlation_table, leaderboard, load_results, long_table
        from wordgames.report.html import write_html

        coll = load_results(results_dir)
        path = write_html(
            coll, Path(out) if out is not None else Path(results_dir) / "report.html", images=images
        )
        if csv:
            leaderboard(coll).to_frame().to_csv(path.with_name("leaderboard.csv"), index=False)
            long_table(coll).to_csv(path.with_name("metrics_long.csv"), index=False)
            correlation_table(coll).pairs.to_csv(path.with_name("correlation.csv"), index=False)
    except WordgamesError as exc:
        fail(str(exc))
    from rich.markup import escape

    n_emb, n_meas = len(coll.labels()), len(coll.measures())
    console.print(
        f"report: {escape(str(path))}  ({n_emb} embedding(s), {n_meas} measure(s), "
        f"{len(coll.entries)} stored result(s))",
        highlight=False,
    )
    for note in coll.notes:
        console.print(f"[yellow]note:[/] {escape(note)}", highlight=False)


def register(app: typer.Typer) -> None:
    """Add the ``report`` command to the ``wordgames`` app."""
    app.command("report")(report)
