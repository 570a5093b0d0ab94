"""The ``wordgames`` command.

Only typer is imported at start-up; every command imports what it needs inside its body so
that ``wordgames --help`` stays fast.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from wordgames._version import __version__
from wordgames.cli.common import resolve_specs  # noqa: F401  (part of the CLI's Python surface)

app = typer.Typer(
    name="wordgames",
    help="Evaluate word representations by playing associative language games against human play.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    # plain click help for the top level: rich's help renderer costs ~0.4 s of imports,
    # more than the whole start-up budget of `wordgames --help`
    rich_markup_mode=None,
)

datasets_app = typer.Typer(help="List and verify the declared data sets.", no_args_is_help=True)
embeddings_app = typer.Typer(help="Inspect and convert embeddings.", no_args_is_help=True)
app.add_typer(datasets_app, name="datasets")
app.add_typer(embeddings_app, name="embeddings")


def _add_family_apps() -> None:
    # each family's CLI module only defines its typer app; heavy imports live in the commands
    from wordgames.cli import (
        cbm_cli,
        codenames_cli,
        collect_cli,
        oddmanout_cli,
        report_cli,
        results_cli,
        serve_cli,
        similarity_cli,
        wales_cli,
    )

    app.add_typer(codenames_cli.app, name="codenames")
    app.add_typer(wales_cli.app, name="wales")
    app.add_typer(oddmanout_cli.app, name="oddmanout")
    app.add_typer(similarity_cli.app, name="similarity")
    app.add_typer(cbm_cli.app, name="cbm")
    app.add_typer(results_cli.app, name="results")
    app.add_typer(serve_cli.app, name="serve")
    app.add_typer(collect_cli.app, name="collect")
    report_cli.register(app)


DataRoot = Annotated[
    Path | None,
    typer.Option("--data-root", help="Folder holding the data sets (default: $WORDGAMES_DATA)."),
]


def fail(message: str, code: int = 2) -> None:
    """Print an error (user text escaped) and exit: see :func:`wordgames.cli.common.fail`."""
    from wordgames.cli.common import fail as _fail

    _fail(message, code)


def version_callback(value: bool):
    """Typer callback of ``--version``: print the version and exit when it is given."""
    if value:
        typer.echo(f"wordgames {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool,
        typer.Option(
            "--version",
            callback=version_callback,
            is_eager=True,
            help="Print the version and exit.",
        ),
    ] = False,
):
    """wordgames: Codenames, WALES, Odd-Man-Out and Concept-Best-Matching measures."""


@app.command()
def run(
    embedding: Annotated[
        list[str] | None,
        typer.Option(
            "-e",
            "--embedding",
            metavar="NAME|FILE",
            help="Built-in name (glove-6b-50d, a family member such as glove-6b-50d-pca10, "
            "transformer:all-MiniLM-L6-v2) or vector file; repeat for several. "
            "Default: glove-6b-50d.",
        ),
    ] = None,
    family: Annotated[
        bool,
        typer.Option(
            "--family",
            help="Add every member of the built-in offline family (PCA dims, vocabulary "
            "sizes, random control).",
        ),
    ] = False,
    out: Annotated[
        Path, typer.Option("--out", "-o", help="Output folder (holds the results store).")
    ] = Path("wordgames-results"),
    measure: Annotated[
        list[str] | None,
        typer.Option(
            "-m",
            "--measure",
            metavar="MEASURE",
            help="Run only these measures (repeatable). Default: all.",
        ),
    ] = None,
    data_root: DataRoot = None,
    seed: Annotated[int, typer.Option(help="Seed of every random choice.")] = 0,
    quick: Annotated[bool, typer.Option(help="Smaller settings for a smoke run.")] = False,
    top_n: Annotated[
        int | None,
        typer.Option(help="Vocabulary policy: keep each embedding's N most frequent words."),
    ] = None,
    lower_alpha: Annotated[
        bool,
        typer.Option(
            "--lower-alpha", help="Vocabulary policy: keep only words made of the letters a-z."
        ),
    ] = False,
    intersect: Annotated[
        bool,
        typer.Option(help="Vocabulary policy: restrict all embeddings to their shared vocabulary."),
    ] = False,
    overwrite: Annotated[
        bool,
        typer.Option(
            help="Recompute results already in the output folder's store (default: reuse them)."
        ),
    ] = False,
    only_missing: Annotated[
        bool,
        typer.Option(
            "--only-missing", help="List the results the store lacks, then compute only those."
        ),
    ] = False,
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Only count and list the missing results.")
    ] = False,
    executor: Annotated[
        str,
        typer.Option(
            help="local (this process; a process pool with --workers > 1), serial, process or ray."
        ),
    ] = "local",
    workers: Annotated[int, typer.Option(help="Worker processes of the local executor.")] = 1,
    address: Annotated[
        str | None,
        typer.Option(
            help="Ray cluster address (auto, HOST:6379, ray://HOST:10001); default: a local Ray."
        ),
    ] = None,
    blas_threads: Annotated[
        int | None,
        typer.Option(
            help="BLAS threads per worker (default 1 for process/ray workers, unchanged for serial)."
        ),
    ] = None,
    transformer_vocab: Annotated[
        str | None,
        typer.Option(
            help="Vocabulary of transformer:MODEL embeddings: a number N (GloVe's top N lower-case "
            "words; default 10000) or a word-list file."
        ),
    ] = None,
    cbm_log: Annotated[
        list[Path] | None,
        typer.Option(
            "--cbm-log",
            metavar="FILE",
            help="Emergent-communication log (JSONL/CSV) for the CBM measure; repeatable.",
        ),
    ] = None,
    cbm_eos_id: Annotated[int | None, typer.Option(help="EOS symbol id in the CBM logs.")] = None,
    cbm_pad_id: Annotated[
        int | None, typer.Option(help="Padding symbol id in the CBM logs.")
    ] = None,
):
    """Evaluate embeddings on every measure whose data is available; write tables, JSON and plots.

    Results are stored one file per (embedding, measure, parameters) in OUT/records as soon as
    each is computed: running the same command again resumes an interrupted run.
    """
    from wordgames.cli.common import console, print_skipped, run_evaluation
    from wordgames.cli.summary import print_summary
    from wordgames.embeddings.sets import VocabularyPolicy

    if overwrite and only_missing:
        fail("--overwrite and --only-missing contradict each other: choose one")
    options = {}
    if cbm_log and (not measure or "cbm" in measure):
        options["cbm"] = {
            "logs": [str(p) for p in cbm_log],
            "eos_id": cbm_eos_id,
            "pad_id": cbm_pad_id,
        }
    specs = resolve_specs(embedding or ([] if family else ["glove-6b-50d"]), family=family)
    vocab = _transformer_vocab(transformer_vocab)
    runner = _executor(executor, workers, address, blas_threads)
    con = console()
    policy = VocabularyPolicy(top_n=top_n, lower_alpha=lower_alpha, intersect=intersect)
    res = run_evaluation(
        con,
        specs,
        measure or None,
        store=out,
        show_missing=only_missing,
        dry_run=dry_run,
        data_root=data_root,
        seed=seed,
        quick=quick,
        vocabulary=policy,
        options=options,
        overwrite=overwrite,
        executor=runner,
        transformer_vocab=vocab,
    )
    if res is None:
        return
    print_summary(con, res, out=out, vocabulary=policy.describe())
    print_skipped(con, res)
    if res.failed:
        raise typer.Exit(1)


def _transformer_vocab(value: str | None):
    if value is None:
        return None
    return int(value) if value.isdigit() else Path(value)


def _executor(kind: str, workers: int, address: str | None, blas_threads: int | None):
    from wordgames.errors import WordgamesError
    from wordgames.executors import make_executor

    try:
        return make_executor(kind, workers=workers, address=address, blas_threads=blas_threads)
    except (WordgamesError, ValueError) as exc:
        fail(str(exc))


@app.command("measures")
def measures_list():
    """List every measure: name, family, version, data sets, headline scores, options."""
    from rich.markup import escape
    from rich.table import Table

    from wordgames.cli.common import console
    from wordgames.registry import all_measures

    table = Table()
    for col in ("measure", "family", "version", "description", "data sets", "options"):
        table.add_column(col, overflow="fold")
    for m in all_measures():
        table.add_row(
            *(
                escape(x)
                for x in (
                    m.name,
                    m.family,
                    m.version,
                    m.description,
                    ", ".join(m.datasets) or "-",
                    ", ".join(m.option_names()) or "-",
                )
            )
        )
    console().print(table)


@datasets_app.command("list")
def datasets_list(data_root: DataRoot = None):
    """List every declared data set and whether it is available."""
    from rich.console import Console
    from rich.table import Table

    from wordgames.datasets import all_datasets, is_available
    from wordgames.errors import DatasetMissingError

    table = Table("name", "family", "files", "available", "title")
    for name, spec in all_datasets().items():
        try:
            ok = is_available(name, data_root)
        except DatasetMissingError:
            ok = False
        table.add_row(name, spec.family, str(len(spec.files)), "yes" if ok else "no", spec.title)
    Console().print(table)


@datasets_app.command("verify")
def datasets_verify(
    names: Annotated[list[str] | None, typer.Argument()] = None, data_root: DataRoot = None
):
    """Check the sha256 of every file of the given (default: all available) data sets."""
    from wordgames.datasets import all_datasets, is_available, verify_dataset
    from wordgames.errors import WordgamesError

    names = names or [n for n in all_datasets() if is_available(n, data_root)]
    bad = 0
    for name in names:
        try:
            sums = verify_dataset(name, data_root)
            typer.echo(f"ok       {name} ({len(sums)} files)")
        except WordgamesError as exc:
            bad += 1
            typer.echo(f"FAILED   {name}: {exc}")
    if bad:
        raise typer.Exit(1)


@embeddings_app.command("info")
def embeddings_info(
    spec: Annotated[str, typer.Argument(help="Built-in name or vector file.")] = "glove-6b-50d",
    fmt: Annotated[str, typer.Option("--format")] = "auto",
):
    """Load an embedding (converting it to the cache once) and describe it."""
    import json

    from wordgames.embeddings import load_embedding
    from wordgames.errors import WordgamesError

    try:
        emb = load_embedding(spec, fmt=fmt)
    except WordgamesError as exc:
        fail(str(exc))
    typer.echo(json.dumps(emb.describe(), indent=2))


_add_family_apps()


def main() -> None:  # console-script entry point
    """Run the ``wordgames`` command line."""
    # sub-apps are converted to click only when named: keeps `wordgames --help` fast
    from wordgames.cli._lazy import lazy_command

    lazy_command(app)()
