"""`wordgames collect`: the data a study collected (``wordgames serve``), as files and measures.

Heavy imports stay inside the command bodies.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

app = typer.Typer(
    help="Export and score the human play collected by 'wordgames serve'.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

DbOption = Annotated[
    str,
    typer.Option(
        "--db", help="Database URL: sqlite:///FILE or postgresql://USER:PASSWORD@HOST:PORT/DB."
    ),
]
StudyOption = Annotated[
    list[str] | None,
    typer.Option("--slug", metavar="SLUG", help="Only this study (repeatable). Default: all."),
]


def _fail_on_errors(func):
    from wordgames.cli.common import fail
    from wordgames.errors import WordgamesError

    try:
        return func()
    except (WordgamesError, ValueError, OSError) as exc:
        fail(str(exc))
    except Exception as exc:
        if type(exc).__module__.split(".")[0] == "sqlalchemy":
            fail(f"database error: {exc}")
        raise


@app.command("export")
def export_cmd(
    db: DbOption,
    out: Annotated[
        Path,
        typer.Option(
            "--out",
            "-o",
            metavar="FOLDER",
            help="Folder to write the files into (default: collected).",
        ),
    ] = Path("collected"),
    study: StudyOption = None,
    include_flagged: Annotated[
        bool, typer.Option(help="Keep participants who failed an attention check.")
    ] = False,
    completed_only: Annotated[
        bool, typer.Option(help="Only participants who reached the completion code.")
    ] = False,
):
    """Write the collected answers in the documented user formats.

    codenames.jsonl (for 'wordgames codenames evaluate --file'),
    wiki_paths_finished/unfinished.tsv (Wikispeedia layout), oddmanout_answers.jsonl /
    oddmanout_validated.jsonl / oddmanout_crowd_puzzles.jsonl (for '--puzzles'),
    oddmanout_seeds.jsonl, participants.tsv and manifest.json.
    """
    from wordgames.cli.common import console
    from wordgames.textio import literal

    def run():
        from wordgames.serve.db import Database, require_current
        from wordgames.serve.export import export

        database = Database(db)
        try:
            require_current(database)
            return export(
                database,
                out,
                study or None,
                include_flagged=include_flagged,
                completed_only=completed_only,
            )
        finally:
            database.dispose()

    rep = _fail_on_errors(run)
    con = console()
    for name, n in rep.counts.items():
        con.print(f"{literal(str(out / name))}: {n}", highlight=False, soft_wrap=True)
    for why, n in rep.left_out.items():
        con.print(
            f"[dim]left out: {n} answer(s): {literal(why)}[/]", highlight=False, soft_wrap=True
        )


@app.command("migrate")
def migrate_cmd(db: DbOption):
    """Create or upgrade the database schema (Alembic); 'wordgames serve' does it at start-up."""
    from wordgames.cli.common import console

    def run():
        from wordgames.serve.db import Database, migrate

        database = Database(db)
        try:
            return migrate(database)
        finally:
            database.dispose()

    console().print(f"schema revision {_fail_on_errors(run)}", highlight=False, soft_wrap=True)


@app.command("measures")
def measures_cmd(
    db: DbOption,
    study: Annotated[str, typer.Option("--slug", help="The study's slug.")],
    embedding: Annotated[
        str | None,
        typer.Option("-e", "--embedding", help="Embedding of the agents (default: the study's)."),
    ] = None,
    keep: Annotated[
        Path | None, typer.Option(help="Keep the exported files in this folder.")
    ] = None,
):
    """Print the measures on the data collected so far (what the admin page shows).

    The families' own code runs on the exported files, e.g. wordgames.evaluate for Codenames.
    """
    from wordgames.cli.common import console
    from wordgames.cli.tables import Col, print_table
    from wordgames.textio import literal

    def run():
        from wordgames.serve.db import Database
        from wordgames.serve.live import evaluate_study

        database = Database(db)
        try:
            return evaluate_study(database, study, embedding, out_dir=keep)
        finally:
            database.dispose()

    from wordgames.serve.live import display_rows

    res = _fail_on_errors(run)
    rows = []
    for r in display_rows(res["rows"]):
        cells = [
            r[k] for k in ("subject", "dataset", "agent", "metric", "value", "ci", "n", "coverage")
        ]
        # thin: shown for checking, never ranked (dimmed, and the note says why)
        rows.append([f"[dim]{literal(str(c))}[/]" if r["thin"] else literal(str(c)) for c in cells])
        rows[-1].append(literal(str(r["note"])))
    con = console()
    con.print(f"{res['n_records']} record(s)", highlight=False, soft_wrap=True)
    # names (data sets, agents, metrics) are never cut: the table splits when narrow
    print_table(
        con,
        ["subject", "dataset", "agent", "metric", Col("value", "right"),
         Col("95% CI", "right"), Col("n", "right"), Col("coverage", "right"),
         Col("note", wrap=True)],
        rows,
        keys=4,
    )  # fmt: skip
    for note in res["notes"]:
        con.print(f"[yellow]note:[/] {literal(note)}", highlight=False, soft_wrap=True)
