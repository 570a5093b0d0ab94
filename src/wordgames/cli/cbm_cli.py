"""`wordgames cbm` commands. Heavy imports stay inside the command bodies."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from wordgames.cli.common import JsonOut, StoreOut
from wordgames.cli.games_cli import register

app = typer.Typer(
    help="Concept-Best-Matching and emergent-communication games.", no_args_is_help=True
)


def symbol(value: str | None) -> int | str | None:
    """An EOS / padding symbol from the command line: a number when it is one.

    >>> symbol("0"), symbol("<eos>"), symbol(None)
    (0, '<eos>', None)
    """
    if value is None:
        return None
    return int(value) if value.lstrip("-").isdigit() else value


def _is_count(metric: str) -> bool:
    """Counts (``n_samples``, ``topsim_pairs``) go in their own table: one number format a column.

    >>> _is_count("n_matched"), _is_count("topsim_pairs"), _is_count("cbm")
    (True, True, False)
    """
    return metric.startswith("n_") or metric.endswith("_pairs")


def _print_result(con, result, logfile: Path) -> None:
    """The Score rows, the first translation rows and the notes of one log's result."""
    from wordgames.cli.tables import Col, print_table
    from wordgames.textio import literal

    right = "right"
    rates, counts = [], []
    for s in result.scores:
        if _is_count(s.metric):
            counts.append([literal(s.metric), f"{s.value:,.0f}"])
        else:
            rates.append([literal(s.metric), "nan" if s.value != s.value else f"{s.value:.4f}"])
    name = literal(logfile.name)
    print_table(con, ["metric", Col("value", right)], rates, title=f"CBM evaluation of {name}")
    print_table(con, ["count", Col("value", right)], counts)
    trans = [
        [
            literal(str(r["word"])),
            literal(str(r["concept"])),
            f"{r['weight']:g}",
            f"{r['share']:.2f}",
        ]
        for r in result.tables["translation"][:30]
    ]
    print_table(
        con,
        ["word", "concept", Col("weight", right), Col("share", right)],
        trans,
        title="translation (best match)",
    )
    for note in result.notes:
        con.print(f"[yellow]note:[/] {literal(note)}", highlight=False)


@app.command()
def evaluate(
    logfile: Annotated[
        Path,
        typer.Argument(
            help="JSONL or CSV log: message + concepts (+ object) per line; see docs/cbm.md."
        ),
    ],
    out: StoreOut = None,
    json_out: JsonOut = None,
    fmt: Annotated[
        str, typer.Option("--format", help="auto (by the file suffix), jsonl or csv.")
    ] = "auto",
    eos_id: Annotated[
        str | None,
        typer.Option(
            metavar="SYMBOL",
            help="End-of-sentence symbol of the log (an integer id or the token itself): a "
            "message ends at its first EOS.",
        ),
    ] = None,
    pad_id: Annotated[
        str | None,
        typer.Option(
            metavar="SYMBOL",
            help="Padding symbol of the log (an integer id or the token itself), dropped "
            "wherever it is.",
        ),
    ] = None,
    topsim_max_pairs: Annotated[
        int,
        typer.Option(
            help="Above this many message pairs TopSim uses a seeded random subset of messages "
            "(default 2,000,000).",
            show_default=False,
        ),
    ] = 2_000_000,
    counting: Annotated[
        str,
        typer.Option(
            metavar="occurrences|types",
            help="How CBM counts a word repeated within a message: every occurrence (the "
            "paper's and the authors' script's convention; default) or once per message.",
            show_default=False,
        ),
    ] = "occurrences",
    seed: Annotated[
        int, typer.Option(help="Seed of every random choice (default 0).", show_default=False)
    ] = 0,
):
    """Evaluate an emergent language: CBM with its by-products, TopSim, AMI, PosDis, BosDis.

    Computed by the 'cbm' measure of 'wordgames run --cbm-log' (the same numbers for the same
    options); with -o, OUT is a results store, with OUT/cbm_<stem>.json (the log's own record)
    and the best-match graph.
    """
    from wordgames.cli.common import (
        console,
        fail,
        json_to_stdout,
        run_evaluation,
        write_json_output,
    )
    from wordgames.results import write_json_atomic
    from wordgames.textio import literal

    options = {
        "logs": [str(logfile)],
        "eos_id": symbol(eos_id),
        "pad_id": symbol(pad_id),
        "format": fmt,
        "topsim_max_pairs": topsim_max_pairs,
        "counting": counting,
    }
    from wordgames.emergent.spec import KEY_EMBEDDING  # here: the spec imports the measures

    con = console(stderr=json_to_stdout(json_out))
    res = run_evaluation(
        con, [KEY_EMBEDDING], ["cbm"], store=out, options={"cbm": options}, seed=seed
    )
    if res.skipped:
        fail(res.skipped[0].reason)
    result = res.result("cbm")
    _print_result(con, result, logfile)
    if json_out is not None:
        write_json_output(json_out, res)
    if out is None:
        return
    from wordgames.emergent.shipped import log_name

    record = write_json_atomic(out / f"cbm_{log_name(logfile)}.json", result.as_dict())
    con.print(f"record: {literal(str(record))}", highlight=False, soft_wrap=True)
    for p in result.plots:  # relative to the results folder
        con.print(f"graph: {literal(str(out / p))}", highlight=False, soft_wrap=True)


# `wordgames cbm train` and `wordgames cbm table`: the games that produce the logs
register(app)
