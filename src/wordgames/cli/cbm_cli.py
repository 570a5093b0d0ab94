"""`wordgames cbm` commands. Heavy imports stay inside the command bodies."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

app = typer.Typer(help="Concept-Best-Matching and emergent-communication games.", no_args_is_help=True)


@app.command()
def evaluate(
    logfile: Annotated[Path, typer.Argument(help="JSONL or CSV log: message + concepts "
                                                 "(+ object) per line; see docs/cbm.md.")],
    out: Annotated[Path, typer.Option("--out", "-o", help="Output folder (JSON record and "
                                                          "best-match graph PNG).")] = Path(
        "cbm-results"),
    fmt: Annotated[str, typer.Option("--format", help="auto, jsonl or csv.")] = "auto",
    eos_id: Annotated[str | None, typer.Option(
        help="End-of-sentence token: a message ends at its first EOS.")] = None,
    pad_id: Annotated[str | None, typer.Option(help="Padding token, dropped wherever it is.")] = None,
    topsim_max_pairs: Annotated[int, typer.Option(
        help="Above this many message pairs TopSim uses a seeded random subset of messages.")
    ] = 2_000_000,
    seed: Annotated[int, typer.Option(help="Seed of every random choice.")] = 0,
):
    """Evaluate an emergent language: CBM with its by-products, TopSim, AMI, PosDis, BosDis."""
    from rich.console import Console
    from rich.table import Table

    from wordgames.cli import fail
    from wordgames.emergent.logfile import evaluate_log_file
    from wordgames.errors import WordgamesError

    console = Console()
    try:
        with console.status(f"evaluating {logfile}"):
            report, result = evaluate_log_file(logfile, out_dir=out, fmt=fmt, eos_id=eos_id,
                                               pad_id=pad_id, topsim_max_pairs=topsim_max_pairs,
                                               random_state=seed)
    except (WordgamesError, ValueError) as exc:
        fail(str(exc))
    table = Table("metric", "value", title=f"CBM evaluation of {logfile.name}")
    for key, value in result.metrics.items():
        table.add_row(key, f"{value:.4g}" if isinstance(value, float) else str(value))
    console.print(table)
    trans = Table("word", "concept", "weight", "share", title="translation (best match)")
    for row in result.tables["translation"][:30]:
        trans.add_row(row["word"], row["concept"], f"{row['weight']:g}", f"{row['share']:.2f}")
    console.print(trans)
    for note in report.notes:
        console.print(f"[yellow]note:[/] {note}")
    console.print(f"record: {out / ('cbm_' + logfile.stem + '.json')}")
    for p in result.plots:
        console.print(f"graph: {p}")


# --- commands of the games helper ---------------------------------------------------------
# `wordgames cbm train` (and any other game command) is registered by
# wordgames.emergent.games.cli.register(app) when that module exists.
def _register_game_commands() -> None:
    # look for the file first: importing the games package just to ask would load numpy
    games_cli = Path(__file__).resolve().parents[1] / "emergent" / "games" / "cli.py"
    if games_cli.is_file():
        from wordgames.emergent.games.cli import register

        register(app)


_register_game_commands()
