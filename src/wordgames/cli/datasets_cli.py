"""`wordgames datasets`: list, verify and fetch the declared data sets.

The work is :mod:`wordgames.datasets` (status, checksums) and :mod:`wordgames.datasets.fetch`;
this module parses and prints. Heavy imports stay inside the command bodies.
"""

from __future__ import annotations

from typing import Annotated

import typer

from wordgames.cli.common import DataRoot

app = typer.Typer(
    help="List, verify and fetch the declared data sets.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

Names = Annotated[
    list[str] | None,
    typer.Argument(metavar="NAME", help="Data sets (`wordgames datasets list` names them)."),
]


def _size(n: int) -> str:
    """``n`` bytes for a reader: ``15.9 MB``, ``543 B``."""
    for unit, scale in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if n >= scale:
            return f"{n / scale:.1f} {unit}"
    return f"{n} B"


@app.command("list")
def datasets_list(data_root: DataRoot = None):
    """Every declared data set: present, missing, partial or damaged; its size and licence."""
    from wordgames.cli.common import console
    from wordgames.cli.tables import Col, print_table
    from wordgames.datasets import all_datasets
    from wordgames.datasets import data_root as root_of
    from wordgames.datasets.registry import dataset_status
    from wordgames.textio import literal

    rows = []
    for name, spec in all_datasets().items():
        st = dataset_status(name, data_root)
        state = st["state"]
        if st["missing"] and state != "missing":
            state += f" ({len(st['missing'])} of {len(spec.files)} missing)"
        if st["damaged"]:
            state += f" ({len(st['damaged'])} damaged: {st['damaged'][0]})"
        size = _size(st["bytes"] if st["state"] == "present" else st["declared_bytes"])
        rows.append(
            [literal(name), literal(spec.family), literal(state), size, literal(spec.licence)]
        )
    con = console()
    con.print(f"data root: {root_of(data_root)}", markup=False, highlight=False)
    cols = ["name", "family", "state", Col("size", justify="right"), Col("licence", wrap=True)]
    print_table(con, cols, rows)


@app.command("verify")
def datasets_verify(names: Names = None, data_root: DataRoot = None):
    """Check the sha256 of every file of the given data sets (default: every one on disk).

    Exits 1 when a file is missing or damaged, or, with no names, when no data set is there at
    all; without names, a data set none of whose files is there is listed as not fetched.
    """
    from wordgames.cli.common import console, fail
    from wordgames.datasets import all_datasets, get_dataset
    from wordgames.datasets import data_root as root_of
    from wordgames.datasets.registry import FETCH_COMMAND, dataset_status
    from wordgames.errors import UnknownDatasetError

    try:
        specs = [get_dataset(n) for n in names] if names else list(all_datasets().values())
    except UnknownDatasetError as exc:
        fail(str(exc.args[0]))
    out = console()
    root = root_of(data_root)
    out.print(f"data root: {root}", markup=False, highlight=False)
    status = {s.name: dataset_status(s.name, data_root) for s in specs}
    absent = [n for n, st in status.items() if st["state"] == "missing"]
    if not names and len(absent) == len(specs):
        fail(f"no data set is under {root}; get them with `{FETCH_COMMAND}` "
             "(or point --data-root / $WORDGAMES_DATA at a data root)", 1)  # fmt: skip
    bad = 0
    for spec in specs:
        st = status[spec.name]
        if st["state"] == "missing" and not names:
            continue  # named below, once
        bad += st["state"] != "present"
        out.print(_verify_line(spec, st), markup=False, highlight=False, soft_wrap=True)
    if absent and not names:
        out.print(f"not fetched ({len(absent)}): {', '.join(absent)}", markup=False,
                  highlight=False, soft_wrap=True)  # fmt: skip
    if bad:
        fail(f"{bad} data set(s) with missing or damaged files (named above); "
             f"`{FETCH_COMMAND} NAME` fetches them again", 1)  # fmt: skip


def _verify_line(spec, st) -> str:
    """One data set's verdict: ``ok``, or what is missing and damaged, file by file."""
    n = len(spec.files)
    if st["state"] == "present":
        return f"ok       {spec.name} ({n} files)"
    parts = [f"{len(st['missing'])} of {n} missing"] if st["missing"] else []
    parts += [f"{len(st['damaged'])} damaged (sha256 differs)"] if st["damaged"] else []
    files = [*(f"missing: {f}" for f in st["missing"]), *(f"damaged: {f}" for f in st["damaged"])]
    shown = "; ".join(files[:5]) + (f"; and {len(files) - 5} more" if len(files) > 5 else "")
    return f"FAILED   {spec.name}: {', '.join(parts)} ({shown})"


@app.command("fetch")
def datasets_fetch(
    names: Names = None,
    mirror: Annotated[
        str | None,
        typer.Option(
            "--mirror",
            metavar="URL",
            envvar="WORDGAMES_MIRROR",
            help="A mirror laid out as a data root (http://, https://, file:// or a folder); "
            "default: $WORDGAMES_MIRROR, else each file's pinned upstream address.",
        ),
    ] = None,
    data_root: DataRoot = None,
    timeout: Annotated[
        float, typer.Option(metavar="SECONDS", help="Give up an attempt after this long silent.")
    ] = 30.0,
    attempts: Annotated[
        int, typer.Option(min=1, max=20, help="Attempts per file, each resuming the last.")
    ] = 4,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
):
    """Download the data sets (default: all), each file checked against its declared sha256.

    Files already there and intact are kept; a cut download resumes; a file whose checksum
    differs is refused and nothing of it kept. Prints each data set's licence and citation.
    """
    from wordgames.cli.common import console, fail
    from wordgames.datasets import all_datasets, get_dataset
    from wordgames.datasets import data_root as root_of
    from wordgames.datasets.fetch import fetch_dataset
    from wordgames.errors import FetchError, UnknownDatasetError

    try:
        specs = [get_dataset(n) for n in names] if names else list(all_datasets().values())
    except UnknownDatasetError as exc:
        fail(str(exc.args[0]))
    out, err = console(), console(stderr=True)
    root = root_of(data_root)
    out.print(f"data root: {root}", markup=False, highlight=False)
    failed = 0
    with _bar(err, quiet) as progress:
        for spec in specs:
            try:
                got = fetch_dataset(
                    spec.name, root, mirror=mirror, timeout=timeout, attempts=attempts,
                    progress=progress,
                )  # fmt: skip
            except FetchError as exc:
                fail(str(exc), 1)
            failed += _print_outcome(out, err, spec, got)
    if failed:
        fail(f"{failed} file(s) not fetched (named above); run the command again to resume", 1)


def _print_outcome(out, err, spec, got) -> int:
    """One data set's lines: what was fetched, kept or failed; licence and citation."""
    from wordgames.redact import redact

    fetched, present = got.count("fetched"), got.count("present")
    resumed = sum(1 for f in got.files if f.resumed_from)
    replaced = sum(1 for f in got.files if f.status == "fetched" and f.replaced_damaged)
    line = f"{spec.name}: {fetched} fetched, {present} already present"
    line += f", {resumed} resumed" if resumed else ""
    line += f", {replaced} replacing a damaged copy" if replaced else ""
    bad = [f for f in got.files if f.status == "failed"]
    line += f", {len(bad)} FAILED" if bad else ""
    out.print(line + f" -> {got.folder}", markup=False, highlight=False)
    for f in bad:
        err.print(f"  failed: {redact(f.reason)}", markup=False, highlight=False, soft_wrap=True)
    if fetched:  # what a user takes on by downloading it
        out.print(f"  licence: {spec.licence}", markup=False, highlight=False)
        out.print(f"  cite: {spec.citation}", markup=False, highlight=False)
    return len(bad)


class _RichProgress:
    """A :class:`~wordgames.datasets.fetch.Progress` drawn as a rich bar with sizes."""

    def __init__(self, bar):
        self.bar, self.task = bar, None

    def start(self, label, total, done):
        self.task = self.bar.add_task(label, total=total, completed=done)

    def advance(self, n):
        self.bar.advance(self.task, n)

    def end(self):
        self.bar.remove_task(self.task)


class _bar:
    """A context giving a progress reporter: a bar on a terminal, nothing otherwise."""

    def __init__(self, con, quiet: bool):
        self.con, self.quiet, self.bar = con, quiet, None

    def __enter__(self):
        if self.quiet or not self.con.is_terminal:
            return None
        from rich.progress import (
            BarColumn,
            DownloadColumn,
            Progress,
            TextColumn,
            TimeRemainingColumn,
            TransferSpeedColumn,
        )

        self.bar = Progress(
            TextColumn("{task.description}", markup=False),
            BarColumn(),
            DownloadColumn(),
            TransferSpeedColumn(),
            TimeRemainingColumn(),
            console=self.con,
            transient=True,
        )
        self.bar.__enter__()
        return _RichProgress(self.bar)

    def __exit__(self, *exc):
        if self.bar is not None:
            self.bar.__exit__(*exc)
