"""`wordgames cbm` commands. Heavy imports stay inside the command bodies."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from wordgames.cli.games_cli import register

app = typer.Typer(
    help="Concept-Best-Matching and emergent-communication games.", no_args_is_help=True
)

#: CBM reads no word vectors; its results are keyed under the default embedding, as in
#: ``wordgames run --cbm-log`` (so both share stored results)
KEY_EMBEDDING = "glove-6b-50d"


def symbol(value: str | None) -> int | str | None:
    """An EOS / padding symbol from the command line: a number when it is one.

    >>> symbol("0"), symbol("<eos>"), symbol(None)
    (0, '<eos>', None)
    """
    if value is None:
        return None
    return int(value) if value.lstrip("-").isdigit() else value


def _print_result(con, result, logfile: Path) -> None:
    """The metrics, the first translation rows and the notes of one log's result."""
    from rich.markup import escape
    from rich.table import Table

    table = Table("metric", "value", title=f"CBM evaluation of {escape(logfile.name)}")
    for key, value in result.metrics.items():
        table.add_row(escape(key), f"{value:.4g}" if isinstance(value, float) else str(value))
    con.print(table)
    trans = Table("word", "concept", "weight", "share", title="translation (best match)")
    for row in result.tables["translation"][:30]:
        trans.add_row(
            escape(str(row["word"])),
            escape(str(row["concept"])),
            f"{row['weight']:g}",
            f"{row['share']:.2f}",
        )
    con.print(trans)
    for note in result.notes:
        con.print(f"[yellow]note:[/] {escape(note)}", highlight=False)


@app.command()
def evaluate(
    logfile: Annotated[
        Path,
        typer.Argument(
            help="JSONL or CSV log: message + concepts (+ object) per line; see docs/cbm.md."
        ),
    ],
    out: Annotated[
        Path,
        typer.Option(
            "--out",
            "-o",
            help="Results store folder (read by "
            "'wordgames report'), with the per-log JSON record and the "
            "best-match graph PNG.",
        ),
    ] = Path("cbm-results"),
    fmt: Annotated[str, typer.Option("--format", help="auto, jsonl or csv.")] = "auto",
    eos_id: Annotated[
        str | None, typer.Option(help="End-of-sentence token: a message ends at its first EOS.")
    ] = None,
    pad_id: Annotated[
        str | None, typer.Option(help="Padding token, dropped wherever it is.")
    ] = None,
    topsim_max_pairs: Annotated[
        int,
        typer.Option(
            help="Above this many message pairs TopSim uses a seeded random subset of messages."
        ),
    ] = 2_000_000,
    seed: Annotated[int, typer.Option(help="Seed of every random choice.")] = 0,
):
    """Evaluate an emergent language: CBM with its by-products, TopSim, AMI, PosDis, BosDis.

    Computed by the 'cbm' measure of 'wordgames run --cbm-log' (the same numbers for the same
    options); OUT is a results store, and OUT/cbm_<stem>.json the log's own record.
    """
    from rich.markup import escape

    from wordgames.cli.common import console, fail, run_evaluation
    from wordgames.results import write_json_atomic

    options = {
        "logs": [str(logfile)],
        "eos_id": symbol(eos_id),
        "pad_id": symbol(pad_id),
        "format": fmt,
        "topsim_max_pairs": topsim_max_pairs,
    }
    con = console()
    res = run_evaluation(
        con, [KEY_EMBEDDING], ["cbm"], store=out, options={"cbm": options}, seed=seed
    )
    if res.skipped:
        fail(res.skipped[0].reason)
    result = res.result("cbm")
    _print_result(con, result, logfile)
    record = write_json_atomic(out / f"cbm_{logfile.stem}.json", result.as_dict())
    con.print(f"record: {escape(str(record))}", highlight=False)
    for p in result.plots:
        con.print(f"graph: {escape(p)}", highlight=False)


# `wordgames cbm train` and `wordgames cbm table`: the games that produce the logs
register(app)
