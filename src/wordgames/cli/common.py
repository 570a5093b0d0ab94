"""What every command that evaluates shares.

Loading options, a progress bar, log lines on the console, one call of :func:`wordgames.evaluate`,
errors as messages. The CLI only parses and prints: every number comes from
:func:`wordgames.evaluate`.
"""

from __future__ import annotations

import contextlib
import logging
from pathlib import Path
from typing import Annotated

import typer

# The options every family command shares, declared once (same names, metavars and help).
DataRoot = Annotated[
    Path | None,
    typer.Option(
        "--data-root",
        metavar="FOLDER",
        help="Folder holding the data sets (default: $WORDGAMES_DATA, else ~/.local/share/wordgames, where `wordgames datasets fetch` puts them).",
    ),
]
Quick = Annotated[
    bool,
    typer.Option(
        "--quick",
        help="Smaller settings for a smoke run (fewer records, resamples, tasks; recorded with "
        "every result, which a full run then does not reuse).",
    ),
]
Datasets = Annotated[
    list[str] | None,
    typer.Option(
        "--dataset",
        "-d",
        metavar="DATASET",
        help="Only these data sets (repeatable): a declared data set or a name the scores show "
        "(a benchmark such as simlex999, a puzzle set, a Codenames data set). Default: every "
        "available one.",
    ),
]

# The results store of a family command: one name, one metavar, one default (nothing written).
StoreOut = Annotated[
    Path | None,
    typer.Option(
        "--out",
        "-o",
        metavar="FOLDER",
        help="Results store folder (read by 'wordgames report'): results.json, the records, "
        "and this command's figures and files; stored results are reused. Default: none, "
        "nothing is written.",
        show_default=False,
    ),
]
JsonOut = Annotated[
    Path | None,
    typer.Option(
        "--json",
        metavar="FILE",
        help="Also write the run as JSON to FILE: every Score as results.json holds it, with "
        "this command's tables under 'tables'. '-' writes it to stdout (and everything else "
        "to stderr).",
    ),
]


def json_to_stdout(path) -> bool:
    """Whether ``--json`` asks for the JSON on stdout (``-``)."""
    return path is not None and str(path) == "-"


def write_json_output(path, res=None, **tables) -> None:
    """The ``--json`` output: the run's record (:meth:`Results.record`) and ``tables``."""
    record = res.record() if res is not None else {}
    if tables:
        record["tables"] = tables
    write_json(path, record)


def write_json(path, data: dict) -> None:
    """``data`` as JSON on stdout when ``path`` is ``-``, else written atomically to ``path``."""
    import json

    from wordgames.errors import WordgamesError
    from wordgames.results import jsonable, write_json_atomic

    if json_to_stdout(path):
        typer.echo(json.dumps(jsonable(data), indent=2))
        return
    try:
        write_json_atomic(Path(path), data)
    except WordgamesError as exc:
        fail(str(exc))


def fail(message: str, code: int = 2) -> None:
    """Print ``error: message`` on stderr (user text escaped) and exit with ``code``."""
    from wordgames.redact import redact
    from wordgames.textio import literal

    # soft wrap: a path, a URL or a suggested command in the message is never cut in two
    console(stderr=True).print(
        f"[bold red]error:[/] {literal(redact(str(message)))}", highlight=False, soft_wrap=True
    )
    raise typer.Exit(code)


def console(stderr: bool = False, **kwargs):
    """A rich ``Console`` on stdout (or stderr; rich is imported only when a command prints).

    Lines of text are never hard-wrapped (a path, a URL or a suggested command stays one token
    a reader can copy, from a terminal or a file); tables keep the console's width.
    """
    # no emoji codes: "chat:m:" or "joy:smile:.txt" is a name, printed as given
    kwargs.setdefault("emoji", False)
    return _console_class()(stderr=stderr, **kwargs)


_CONSOLE_CLASS = None


def _console_class():
    global _CONSOLE_CLASS
    if _CONSOLE_CLASS is None:
        from rich.console import Console
        from rich.segment import Segment

        from wordgames.textio import visible

        class SoftConsole(Console):
            def print(self, *objects, soft_wrap=None, **kwargs):
                from wordgames.redact import redact

                if soft_wrap is None and objects and all(isinstance(o, str) for o in objects):
                    soft_wrap = True  # the terminal wraps what is too long for it
                # no key the process holds is ever printed, whatever a server's text quoted;
                # control characters are shown as escapes before the layout measures them
                objects = tuple(visible(redact(o)) if isinstance(o, str) else o for o in objects)
                super().print(*objects, soft_wrap=soft_wrap, **kwargs)

            def _render_buffer(self, buffer):
                # the net under tables, Text objects and progress bars: a text segment's
                # control characters are shown, never sent (rich's own codes are segments
                # marked ``control`` and styles are rendered from ``style``: both untouched)
                shown = (seg if seg.control else Segment(visible(seg.text), seg.style)
                         for seg in buffer)  # fmt: skip
                return super()._render_buffer(shown)

        _CONSOLE_CLASS = SoftConsole
    return _CONSOLE_CLASS


@contextlib.contextmanager
def console_logging(con, level=logging.INFO):
    """Show the measures' ``logging`` lines (``wordgames.*``) on the console while running."""
    from wordgames.textio import literal

    class _Handler(logging.Handler):
        def emit(self, record):
            name = record.name.removeprefix("wordgames.").removeprefix("wordgames")
            prefix = f"[dim]{literal(name)}:[/] " if name else ""
            if record.levelno >= logging.WARNING:
                prefix = "[yellow]warning:[/] " + prefix
            con.print(prefix + literal(record.getMessage()), highlight=False)

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


def run_evaluation(
    con, embeddings, measures, *, store=None, show_missing: bool = False, bars=None, **kwargs
):
    """:func:`wordgames.evaluate` with a progress bar and the log on ``con``.

    With ``bars`` (:class:`wordgames.cli.progress.RequestBars`, a model run on a terminal) the
    units' bar is one more line of that display.

    Embedding and measure names are checked first (a missing file says "file not found", an
    embedding given to ``-m`` asks "did you mean -e"); errors of the user's making become
    ``error:`` messages. Warns about data sets the scores cover too little of. Writes
    ``results.json`` into the store's folder.
    """
    from wordgames.cli.summary import print_coverage_warnings
    from wordgames.errors import WordgamesError
    from wordgames.evaluation import evaluate
    from wordgames.registry import UnknownMeasureError

    check_embedding_specs(embeddings)
    check_measure_names(measures)
    dry_run = kwargs.get("dry_run", False)
    try:
        with console_logging(con), _progress(con, bars) as progress:
            res = evaluate(
                embeddings,
                measures,
                store=store,
                progress=progress,
                on_plan=_plan_printer(con, store, show_missing, dry_run),
                **kwargs,
            )
    except UnknownMeasureError as exc:
        fail(f"{exc} (`wordgames measures` describes them)")
    except KeyError as exc:
        fail(str(exc.args[0]) if exc.args else str(exc))
    except WordgamesError as exc:
        fail(str(exc))
    if dry_run:
        return None
    print_coverage_warnings(con, res)
    if store is not None:
        try:
            res.write(Path(store))
        except WordgamesError as exc:  # a full disk, a read-only folder: the units say why too
            print_skipped(con, res)
            fail(f"{exc}; the results computed so far are in the store and will be reused")
    return res


def print_precheck(con, res) -> None:
    """The coverage pre-check, before anything is computed: a warning per thin data set.

    Units whose data sets are all covered well get one summary line; the others say which data
    sets their scores will be thin on (or that they were skipped, with ``--skip-uncovered``).
    """
    from wordgames.cli.summary import measure_or_none
    from wordgames.textio import literal

    if not res.coverage:
        return
    least = float((res.parameters.get("thin") or {}).get("min_coverage", 0.5))
    low: dict = {}
    for c in res.coverage:
        if c.share < least:
            low.setdefault((c.subject, c.measure), []).append(c)
    n_low = sum(map(len, low.values()))
    con.print(
        f"coverage checked before computing: {len(res.coverage) - n_low} of "
        f"{len(res.coverage)} data set(s) at or above {least:.0%}",
        highlight=False,
        markup=False,
    )
    skipped = {(s.subject, s.measure) for s in res.skipped}
    for (emb, measure), rows in low.items():
        if (emb, measure) not in skipped:  # a warning's counts are those its table shows
            spec = measure_or_none(measure)
            rows = [c for c in rows if c.shown_by(spec.headlines if spec else ())]
        if not rows:
            continue
        what = "skipped (--skip-uncovered)" if (emb, measure) in skipped else "thin scores"
        parts = "; ".join(f"{c.dataset} {c.known:,} of {c.total:,} {c.unit}" for c in rows)
        con.print(
            f"[yellow]warning:[/] {literal(emb)}: {literal(measure)}: below {least:.0%} on "
            f"{len(rows)} data set(s), {what}: {literal(parts)}",
            highlight=False,
            soft_wrap=True,
        )


def _plan_printer(con, store, show_missing: bool, dry_run: bool):
    """The ``on_plan`` callback: how many results the store lacks (and which, when asked)."""

    def on_plan(plan):
        print_precheck(con, plan)
        if store is None:
            return
        con.print(
            f"{len(plan.missing)} of {plan.parameters['units']} result(s) missing from "
            f"the store in {store}" + ("; computing them" if plan.missing and not dry_run else ""),
            highlight=False,
            markup=False,
        )
        if show_missing or dry_run:
            for label in plan.missing:
                con.print(f"  missing: {label}", highlight=False, markup=False)

    return on_plan


@contextlib.contextmanager
def _progress(con, bars=None):
    """A transient progress bar; yields the ``progress(label, done, total)`` callback."""
    if bars is not None:  # one live display at a time: the units join the requests' bars
        yield bars.add_task("measures")
        return
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    with Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        TextColumn("{task.completed}/{task.total}"),
        TimeElapsedColumn(),
        console=con,
        transient=True,
    ) as bar:
        task = bar.add_task("measures", total=None)

        def progress(label, done, total):
            bar.update(task, description=label, completed=done, total=total)

        yield progress


def embedding_problem(spec) -> str:
    """Why ``spec`` names no embedding, in words (``""`` when it names one).

    A spec that looks like a path says "file not found" first; a name gets the closest
    built-in names. Objects (loaded embeddings) are taken as they are.

    Examples
    --------
    >>> embedding_problem("glove-6b-50d")
    ''
    >>> embedding_problem("/nonexistent.vec").split(" (")[0]
    'file not found: /nonexistent.vec'
    """
    if not isinstance(spec, str | Path):
        return ""
    text = str(spec)
    if text in _builtin_names() or text == "people" or text.startswith(("transformer:", "hf:")):
        return ""  # "people": the people of the human data (the human ceiling)
    from wordgames.subjects import kind_of

    if kind_of(text):  # a subject kind, built-in (chat:, embed:, gguf:) or a plug-in's
        return ""
    path = Path(text)
    if path.exists():
        return ""
    listing = "`wordgames embeddings list` lists the built-in names"
    if isinstance(spec, Path) or "/" in text or "\\" in text or path.suffix or text[:1] in "~.":
        return (
            f"file not found: {text} ('{text}' is neither a built-in name nor an existing "
            f"file; {listing})"
        )
    import difflib

    close = difflib.get_close_matches(text, _builtin_names(), n=1)
    hint = f" (did you mean '{close[0]}'?)" if close else ""
    return (
        f"unknown embedding '{text}'{hint}: neither a built-in name, a real embedding, a member "
        f"of the built-in family, 'transformer:MODEL', a subject kind 'PREFIX:NAME' (chat:, "
        f"embed:, gguf: or an installed plug-in's) nor an existing file; {listing}"
    )


def _builtin_names() -> list[str]:
    from wordgames.embeddings.family import FAMILY_NAMES
    from wordgames.embeddings.loaders import BUILTIN
    from wordgames.embeddings.real import REAL_NAMES

    return list(dict.fromkeys([*BUILTIN, *REAL_NAMES, *FAMILY_NAMES]))


def check_embedding_specs(specs) -> None:
    """Fail (exit 2) on the first spec that names no embedding: :func:`embedding_problem`."""
    if specs is None or isinstance(specs, str | Path):
        specs = [] if specs is None else [specs]
    for spec in specs if isinstance(specs, list | tuple) else []:
        problem = embedding_problem(spec)
        if problem:
            fail(problem)


def check_measure_names(measures) -> None:
    """Fail when a measure name is an embedding instead (users of MTEB, where ``-m`` is a model).

    Unknown names that are no embedding are left to the registry's "unknown measure" error.
    """
    if not measures or isinstance(measures, str):
        measures = [measures] if measures else []
    from wordgames.registry import all_measures

    known = {m.name for m in all_measures()}
    for name in measures:
        if isinstance(name, str) and name not in known and not embedding_problem(name):
            fail(
                f"'{name}' is an embedding, not a measure: did you mean -e {name}? "
                "(-m names a measure; `wordgames measures` lists them)"
            )


def end_command(con, res, json_out=None, **tables) -> None:
    """The end of a scoring command: the skipped units, ``--json``, exit 1 when nothing ran.

    A unit that failed, or a run without any result, ends the command with exit status 1.
    """
    import typer

    print_skipped(con, res)
    if json_out is not None:
        write_json_output(json_out, res, **tables)
    if res.failed or not res.results:
        raise typer.Exit(1)


def print_skipped(con, res) -> None:
    """One line per skipped or failed unit."""
    from wordgames.textio import literal

    for s in res.skipped:
        if s.failed:
            con.print(
                f"[bold red]failed[/] {literal(s.measure)} for {literal(s.subject)}: "
                f"{literal(s.reason)}\n{literal(s.error)}",
                highlight=False,
            )
        else:
            con.print(
                f"[yellow]skipped[/] {literal(s.measure)} for {literal(s.subject)}: "
                f"{literal(s.reason)}",
                highlight=False,
            )


def resolve_specs(specs, *, family: bool = False, real: bool = False) -> list[str]:
    """The embedding specs: those given, then (``real``) the real ones, (``family``) the family."""
    out = [str(s) for s in (specs or [])]
    if real:
        from wordgames.embeddings.real import REAL_NAMES

        out += [n for n in REAL_NAMES if n not in out]
    if family:
        from wordgames.embeddings.family import FAMILY_NAMES

        out += [n for n in FAMILY_NAMES if n not in out]
    return out
