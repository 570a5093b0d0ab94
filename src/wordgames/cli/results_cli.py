"""``wordgames results``: merge results stores and show them as one table."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

app = typer.Typer(
    help="Merge results stores of several runs and show them as one table.", no_args_is_help=True
)


@app.command("merge")
def merge(
    sources: Annotated[list[Path], typer.Argument(help="Output folders (stores) of earlier runs.")],
    into: Annotated[
        Path, typer.Option("--into", help="Store to merge them into (created if needed).")
    ],
    overwrite: Annotated[
        bool,
        typer.Option(help="Replace results the target already holds (default: keep the target's)."),
    ] = False,
):
    """Copy every result of SOURCES into the store INTO (same key = same numbers: kept once)."""
    from wordgames.cli.common import fail
    from wordgames.results.store import ResultStore

    target = ResultStore(into)
    total = 0
    for src in sources:
        if not (src / "records").is_dir():
            fail(f"{src} holds no results store (no {src / 'records'} folder)")
        added = target.merge_from(src, overwrite=overwrite)
        typer.echo(f"{src}: {added} of {len(ResultStore(src))} result(s) added")
        total += added
    typer.echo(f"{into}: {len(target)} result(s) ({total} added)")


@app.command("table")
def table(
    store: Annotated[Path, typer.Argument(help="An output folder (results store).")],
    measure: Annotated[
        list[str] | None, typer.Option("-m", "--measure", help="Only these measures.")
    ] = None,
    fmt: Annotated[str, typer.Option("--format", help="rich, csv or markdown.")] = "rich",
    wide: Annotated[
        bool,
        typer.Option(
            help="One row per score (measure, data set, subject, metric), one column per embedding."
        ),
    ] = False,
    output: Annotated[
        Path | None, typer.Option("--output", help="Write the table to this file.")
    ] = None,
):
    """Every stored score of every embedding and measure, as one table.

    Columns: embedding, measure, data set, subject, metric, value, 95 % interval (ci_low, ci_high),
    n and items skipped.
    """
    from wordgames.cli.common import fail
    from wordgames.results.store import ResultStore

    if fmt not in ("rich", "csv", "markdown"):
        fail(f"unknown --format {fmt!r}; use rich, csv or markdown")
    if not (store / "records").is_dir():
        fail(f"{store} holds no results store (no {store / 'records'} folder)")
    df = ResultStore(store).table()
    if measure:
        df = df[df["measure"].isin(measure)]
    if wide:
        df = df.pivot_table(
            index=["measure", "dataset", "subject", "metric"],
            columns="embedding",
            values="value",
            aggfunc="first",
        ).reset_index()
        df.columns.name = None
    else:
        df = df.drop(columns=["embedding_sha256"])
    if fmt == "csv":
        text = df.to_csv(index=False)
    elif fmt == "markdown":
        cols = [str(c) for c in df.columns]
        rows = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
        rows += [
            "| " + " | ".join(_fmt(v) for v in rec) + " |" for rec in df.itertuples(index=False)
        ]
        text = "\n".join(rows) + "\n"
    else:
        from rich.console import Console
        from rich.markup import escape
        from rich.table import Table

        tab = Table(title=escape(f"{store}: {len(df)} row(s)"))
        for col in df.columns:
            tab.add_column(escape(str(col)), overflow="fold")
        for rec in df.itertuples(index=False):
            tab.add_row(*(escape(_fmt(v)) for v in rec))
        if output is None:
            Console().print(tab)
            return
        console = Console(record=True, width=200)
        console.print(tab)
        text = console.export_text()
    if output is not None:
        output.write_text(text, encoding="utf-8")
        typer.echo(f"wrote {output}")
    else:
        typer.echo(text, nl=False)


def _fmt(value) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        return "" if value != value else f"{value:.4g}"
    return str(value)
