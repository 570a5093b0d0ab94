"""`wordgames codenames datasets`: list the human Codenames data sets with their counts.

Only typer is imported here; the loaders are imported inside the command body. The codenames
CLI calls :func:`register` to add the command to its typer app.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer


def datasets(
    data_root: Annotated[
        Path | None,
        typer.Option(
            "--data-root", help="Folder holding the data sets (default: $WORDGAMES_DATA)."
        ),
    ] = None,
    user_file: Annotated[
        list[Path] | None,
        typer.Option(
            "--file", "-f", help="Also read a user file (JSONL/CSV or a paper table); repeatable."
        ),
    ] = None,
    details: Annotated[
        bool, typer.Option("--details", help="List every repair, drop and flag with its reason.")
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")] = False,
):
    """List every human Codenames data set: sender/receiver records, repairs and drops."""
    import json

    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    from wordgames.cli.common import fail
    from wordgames.codenames.human_data import (
        HUMAN_DATASETS,
        available_human_datasets,
        load_human_data,
        read_user_file,
    )
    from wordgames.errors import WordgamesError

    available = set(available_human_datasets(data_root))
    summaries = []
    try:
        for name in HUMAN_DATASETS:
            if name in available:
                summaries.append(load_human_data(name, data_root).summary())
            else:
                summaries.append({"dataset": name, "missing": True})
        for path in user_file or []:
            summaries.append(read_user_file(path).summary())
    except WordgamesError as exc:
        fail(str(exc))
    if as_json:
        typer.echo(json.dumps(summaries, indent=2))
        return
    table = Table(title="Human Codenames data sets")
    table.add_column("data set", no_wrap=True)
    for col in ("sender", "receiver", "repaired", "dropped", "flagged"):
        table.add_column(col, justify="right", no_wrap=True)

    def cell(n_rec: int, n_dec: int) -> str:
        # aggregate sources: distinct decisions (people)
        return str(n_rec) if n_rec == n_dec else f"{n_rec} ({n_dec})"

    for s in summaries:
        if s.get("missing"):
            table.add_row(s["dataset"], "-", "-", "-", "-", "missing")
            continue
        table.add_row(
            escape(s["dataset"]),
            cell(s["n_sender"], s["sender_decisions"]),
            cell(s["n_receiver"], s["receiver_decisions"]),
            str(sum(s["repairs"].values())),
            str(sum(s["dropped"].values())),
            str(sum(s["flagged"].values())),
        )
    console = Console()
    console.print(table)
    if any(
        s.get("n_sender") != s.get("sender_decisions")
        or s.get("n_receiver") != s.get("receiver_decisions")
        for s in summaries
    ):
        console.print("(n): records of aggregate sources stand for n people (record.count)")
    if details:
        for s in summaries:
            for kind in ("repairs", "dropped", "flagged"):
                for reason, n in (s.get(kind) or {}).items():
                    console.print(
                        escape(f"{s['dataset']}: {kind} {n:>4}  {reason}"), highlight=False
                    )
    if not available:
        console.print(
            "No human data set found: set WORDGAMES_DATA (or --data-root) to the "
            "folder that holds codenames/ and codenames-human/.",
            style="yellow",
        )


def register(app: typer.Typer) -> None:
    """Add ``datasets`` to the ``wordgames codenames`` typer app."""
    app.command("datasets")(datasets)
