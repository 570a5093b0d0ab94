"""What every command that evaluates shares.

Loading options, a progress bar, log lines on the console, one call of :func:`wordgames.evaluate`,
errors as messages. The CLI only parses and prints: every number comes from
:func:`wordgames.evaluate`.
"""

from __future__ import annotations

import contextlib
import logging
from pathlib import Path

import typer


def fail(message: str, code: int = 2) -> None:
    """Print ``error: message`` on stderr (user text escaped) and exit with ``code``."""
    from rich.console import Console
    from rich.markup import escape

    Console(stderr=True).print(f"[bold red]error:[/] {escape(str(message))}", highlight=False)
    raise typer.Exit(code)


def console():
    """A rich ``Console`` on stdout (rich is imported only when a command prints)."""
    from rich.console import Console

    return Console()


@contextlib.contextmanager
def console_logging(con, level=logging.INFO):
    """Show the measures' ``logging`` lines (``wordgames.*``) on the console while running."""
    from rich.markup import escape

    class _Handler(logging.Handler):
        def emit(self, record):
            name = record.name.removeprefix("wordgames.").removeprefix("wordgames")
            prefix = f"[dim]{escape(name)}:[/] " if name else ""
            con.print(prefix + escape(record.getMessage()), highlight=False)

    logger = logging.getLogger("wordgames")
    handler = _Handler(level)
    old = logger.level
    logger.addHandler(handler)
    logger.setLevel(level)
    try:
        yield
    finally:
        logger.removeHandler(handler)
        logger.setLevel(old)


def run_evaluation(con, embeddings, measures, *, store=None, show_missing: bool = False, **kwargs):
    """:func:`wordgames.evaluate` with a progress bar and the log on ``con``.

    Errors of the user's making become ``error:`` messages. Writes ``results.json`` into the store's
    folder.
    """
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    from wordgames.errors import WordgamesError
    from wordgames.evaluation import evaluate

    dry_run = kwargs.get("dry_run", False)

    def on_plan(plan):
        if store is None:
            return
        con.print(
            f"{len(plan.missing)} of {plan.parameters['units']} result(s) missing from "
            f"the store in {store}" + ("; computing them" if plan.missing and not dry_run else ""),
            highlight=False,
        )
        if show_missing or dry_run:
            for label in plan.missing:
                con.print(f"  missing: {label}", highlight=False)

    try:
        with (
            console_logging(con),
            Progress(
                TextColumn("{task.description}"),
                BarColumn(),
                TextColumn("{task.completed}/{task.total}"),
                TimeElapsedColumn(),
                console=con,
                transient=True,
            ) as bar,
        ):
            task = bar.add_task("measures", total=None)

            def progress(label, done, total):
                bar.update(task, description=label, completed=done, total=total)

            res = evaluate(
                embeddings, measures, store=store, progress=progress, on_plan=on_plan, **kwargs
            )
    except KeyError as exc:
        fail(str(exc.args[0]) if exc.args else str(exc))
    except WordgamesError as exc:
        fail(str(exc))
    if dry_run:
        return None
    if store is not None:
        res.write(Path(store))
    return res


def print_skipped(con, res) -> None:
    """One line per skipped or failed unit."""
    from rich.markup import escape

    for s in res.skipped:
        if s.failed:
            con.print(
                f"[bold red]failed[/] {escape(s.measure)} for {escape(s.embedding)}: "
                f"{escape(s.reason)}\n{escape(s.error)}",
                highlight=False,
            )
        else:
            con.print(
                f"[yellow]skipped[/] {escape(s.measure)} for {escape(s.embedding)}: "
                f"{escape(s.reason)}",
                highlight=False,
            )


def resolve_specs(specs, *, family: bool = False) -> list[str]:
    """The embedding specs to load: those given, then (``family``) the built-in family."""
    out = [str(s) for s in (specs or [])]
    if family:
        from wordgames.embeddings.family import FAMILY_NAMES

        out += [n for n in FAMILY_NAMES if n not in out]
    return out
