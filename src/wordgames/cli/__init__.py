"""The ``wordgames`` command.

Only typer is imported at start-up; every command imports what it needs inside its body so
that ``wordgames --help`` stays fast.
"""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Annotated, Literal

import typer

from wordgames._version import __version__
from wordgames.cli._lazy import WordgamesGroup
from wordgames.cli.common import (
    DataRoot,
    Datasets,
    resolve_specs,  # noqa: F401  (part of the CLI's Python surface)
)

app = typer.Typer(
    name="wordgames",
    help="Evaluate word representations by playing associative language games against human "
    "play.\n\n"
    "Start with `wordgames run --quick`; `wordgames measures` lists the measures, "
    "`wordgames datasets list` the data sets, `wordgames embeddings list` the built-in "
    "embeddings.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    # ONE help style for every command: plain click help (issue 10). Rich's help renderer
    # adds 0.05-0.1 s of imports to a `wordgames --help` that takes ~0.1 s without them (budget:
    # 0.3 s, on a loaded machine too), and plain text reads the same in a pipe, a log or under
    # NO_COLOR. Sub-apps inherit this mode (cli/_lazy.py builds them as typer does), and
    # WordgamesGroup gives every option a click-style metavar (INTEGER, PATH...) instead of
    # typer's Python type hints.
    rich_markup_mode=None,
    cls=WordgamesGroup,
)

embeddings_app = typer.Typer(
    help="List the built-in embeddings and describe one.", no_args_is_help=True
)
app.add_typer(embeddings_app, name="embeddings")


def _add_family_apps() -> None:
    # each family's CLI module only defines its typer app; heavy imports live in the commands
    from wordgames.cli import (
        cache_cli,
        cbm_cli,
        codenames_cli,
        collect_cli,
        datasets_cli,
        oddmanout_cli,
        report_cli,
        results_cli,
        serve_cli,
        similarity_cli,
        wales_cli,
    )

    app.add_typer(datasets_cli.app, name="datasets")
    app.add_typer(codenames_cli.app, name="codenames")
    app.add_typer(wales_cli.app, name="wales")
    app.add_typer(oddmanout_cli.app, name="oddmanout")
    app.add_typer(similarity_cli.app, name="similarity")
    app.add_typer(cbm_cli.app, name="cbm")
    app.add_typer(results_cli.app, name="results")
    app.add_typer(serve_cli.app, name="serve")
    app.add_typer(collect_cli.app, name="collect")
    app.add_typer(cache_cli.app, name="cache")
    report_cli.register(app)


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
    """Evaluate word representations by playing associative language games."""


Executor = Literal["local", "serial", "process", "ray"]


@app.command()
def run(
    embedding: Annotated[
        list[str] | None,
        typer.Option(
            "-e",
            "--embedding",
            "--subject",
            metavar="NAME|FILE",
            help="A subject to score: a built-in embedding (glove-6b-50d, a real one such as "
            "retrofit-glove-6b-50d, a family member such as glove-6b-50d-pca10, "
            "transformer:all-MiniLM-L6-v2: see `wordgames embeddings list`), a vector file, or "
            "a kind's PREFIX:NAME (chat:MODEL, embed:MODEL, gguf:FILE, people); repeat for "
            "several. Default: glove-6b-50d.",
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
    dataset: Datasets = None,
    option: Annotated[
        list[str] | None,
        typer.Option(
            "-O",
            "--option",
            metavar="MEASURE.OPTION=VALUE",
            help="Any option of any measure, plug-ins' included (repeatable; lists "
            "comma-separated, `none` for None): e.g. -O codenames.receivers=nearest "
            "-O oddmanout.sets=anomia-common-test. `wordgames options` lists them with their "
            "types, defaults and help.",
        ),
    ] = None,
    subject_option: Annotated[
        list[str] | None,
        typer.Option(
            "--subject-option",
            metavar="KEY=VALUE",
            help="An option of the subject kinds given as PREFIX:NAME (chat:, embed:, gguf: "
            "and plug-ins' kinds), passed to each one's factory by name (repeatable).",
        ),
    ] = None,
    real: Annotated[
        bool,
        typer.Option(
            "--real",
            help="Add every real embedding of `wordgames embeddings list` (distributed, "
            "derived from GloVe, trained here, transformers; built on first use).",
        ),
    ] = False,
    out: Annotated[
        Path,
        typer.Option(
            "--out", "-o", metavar="FOLDER", help="Output folder (holds the results store)."
        ),
    ] = Path("wordgames-results"),
    measure: Annotated[
        list[str] | None,
        typer.Option(
            "-m",
            "--measure",
            metavar="MEASURE",
            help="Run only these measures (repeatable; `wordgames measures` lists them). "
            "Default: all.",
        ),
    ] = None,
    data_root: DataRoot = None,
    seed: Annotated[int, typer.Option(help="Seed of every random choice.")] = 0,
    quick: Annotated[bool, typer.Option(help="Smaller settings for a smoke run.")] = False,
    top_n: Annotated[
        int | None,
        typer.Option(
            metavar="N", help="Vocabulary policy: keep each embedding's N most frequent words."
        ),
    ] = None,
    lower_alpha: Annotated[
        bool,
        typer.Option(
            "--lower-alpha", help="Vocabulary policy: keep only words made of the letters a-z."
        ),
    ] = False,
    intersect: Annotated[
        bool,
        typer.Option(
            help="Vocabulary policy: restrict all embeddings (two or more) to their shared "
            "vocabulary."
        ),
    ] = False,
    ci_resamples: Annotated[
        int,
        typer.Option(
            metavar="N",
            min=0,
            help="Bootstrap resamples of every 95% confidence interval (0: no intervals).",
        ),
    ] = 1000,
    min_coverage: Annotated[
        float,
        typer.Option(
            metavar="SHARE",
            min=0.0,
            max=1.0,
            help="A score reflecting less than this share of its data set's items is thin: "
            "shown, never ranked.",
        ),
    ] = 0.5,
    min_n: Annotated[
        int,
        typer.Option(
            metavar="N", min=0, help="A score computed on fewer items is thin: shown, never ranked."
        ),
    ] = 30,
    skip_uncovered: Annotated[
        bool,
        typer.Option(
            "--skip-uncovered",
            help="Skip a measure on an embedding whose vocabulary covers every one of its data "
            "sets below --min-coverage (checked before computing; by default it runs and its "
            "scores are thin).",
        ),
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
    people: Annotated[
        bool | None,
        typer.Option(
            "--people/--no-people",
            help="Score the people of the human data too (-e people): each held-out person "
            "by the others' answers, the human ceiling every model's share is taken of "
            "(default: on when a measure of the run has people rows, as codenames has).",
        ),
    ] = None,
    executor: Annotated[
        Executor,
        typer.Option(
            help="local: this process, or a process pool with --workers > 1; serial; process; "
            "ray (needs the ray extra)."
        ),
    ] = "local",
    workers: Annotated[
        int | None,
        typer.Option(
            metavar="N",
            min=1,
            help="Worker processes of the local or process executor (default 1 for local, "
            "2 for process).",
        ),
    ] = None,
    address: Annotated[
        str | None,
        typer.Option(
            metavar="ADDRESS",
            help="With --executor ray: the cluster address (auto, HOST:6379, ray://HOST:10001); "
            "default: a local Ray.",
        ),
    ] = None,
    ray_files: Annotated[
        str,
        typer.Option(
            metavar="HOW",
            help="With --executor ray: how nodes get embeddings, data and results. ship "
            "(default): through Ray, the data sets sent once; node: through Ray, each node's own "
            "$WORDGAMES_DATA checked by sha256; shared: a filesystem every node shares.",
        ),
    ] = "ship",
    blas_threads: Annotated[
        int | None,
        typer.Option(
            metavar="N",
            min=1,
            help="BLAS threads per unit (default 1 for every executor: on a machine shared "
            "with other work, BLAS threads cost more than they give).",
        ),
    ] = None,
    transformer_vocab: Annotated[
        str | None,
        typer.Option(
            metavar="N|FILE",
            help="Vocabulary of transformer:MODEL embeddings: a number N (GloVe's top N lower-case "
            "words; default 10000) or a word-list file.",
        ),
    ] = None,
    trust_pickle: Annotated[
        bool,
        typer.Option(
            "--trust-pickle",
            help="Load gensim KeyedVectors through gensim's own unpickler, which runs code stored "
            "in the file: only for files you trust. Default: a restricted reader that runs nothing.",
        ),
    ] = False,
    cbm_log: Annotated[
        list[Path] | None,
        typer.Option(
            "--cbm-log",
            metavar="FILE",
            help="Emergent-communication log (JSONL/CSV) for the CBM measure; repeatable. "
            "Default: the 8 trained runs of the paper's Table 1 that ship with wordgames.",
        ),
    ] = None,
    cbm_eos_id: Annotated[
        str | None,
        typer.Option(
            metavar="SYMBOL",
            help="With --cbm-log: the end-of-sentence symbol of the logs (an integer id or the "
            "token itself, as `cbm evaluate --eos-id`).",
        ),
    ] = None,
    cbm_pad_id: Annotated[
        str | None,
        typer.Option(
            metavar="SYMBOL",
            help="With --cbm-log: the padding symbol of the logs (an integer id or the token "
            "itself, as `cbm evaluate --pad-id`).",
        ),
    ] = None,
    base_url: Annotated[
        str | None,
        typer.Option(
            metavar="URL",
            help="With chat:MODEL subjects: the OpenAI-compatible server (default "
            "$OPENAI_BASE_URL), e.g. http://127.0.0.1:8080/v1.",
        ),
    ] = None,
    api_key_env: Annotated[
        str,
        typer.Option(
            metavar="NAME",
            help="With chat:MODEL: the environment variable holding the API key (the key is "
            "never written anywhere; a local server needs none).",
        ),
    ] = "OPENAI_API_KEY",
    max_concurrency: Annotated[
        int,
        typer.Option(
            help="With chat:MODEL: requests in flight at once (default 1; raise it for servers "
            "that batch requests: vLLM, hosted APIs).",
            min=1,
        ),
    ] = 1,
    max_requests: Annotated[
        int | None,
        typer.Option(
            help="With chat:MODEL: stop after this many requests (cached answers are free); "
            "what is done is stored, the rest is skipped with the reason.",
            min=0,
        ),
    ] = None,
    answers: Annotated[
        str,
        typer.Option(
            metavar="free|structured|auto",
            help="With chat:MODEL: structured answers (a JSON schema the server constrains "
            "its output to: a legal option by construction), free text read by the games' "
            "rules, or auto (default: structured where the server honours a schema, probed "
            "once before any work).",
        ),
    ] = "auto",
    reprompts: Annotated[
        int,
        typer.Option(
            help="With chat:MODEL: times an answer that cannot be read is asked again, told "
            "what was wrong (default 1).",
            min=0,
        ),
    ] = 1,
    quiet: Annotated[
        bool,
        typer.Option(
            "--quiet",
            "-q",
            help="No progress bars (there are none either when stderr is not a terminal).",
        ),
    ] = False,
    tables: Annotated[
        bool,
        typer.Option(
            "--tables",
            help="After the summary, print each measure's own tables, as its family command "
            "does (Codenames' agent tables per data set, Odd-Man-Out's Table 3, the similarity "
            "benchmarks, WALES' task tables, the self-play matrix).",
        ),
    ] = False,
):
    """Score subjects on every measure whose data is available; write tables, JSON and plots.

    Results are stored one file per (embedding, measure, parameters) in OUT/records as soon as
    each is computed: running the same command again resumes an interrupted run.
    """
    from wordgames.cli.common import (
        check_embedding_specs,
        check_measure_names,
        console,
        print_skipped,
        run_evaluation,
    )
    from wordgames.cli.summary import print_summary
    from wordgames.embeddings.sets import VocabularyPolicy
    from wordgames.measure import ThinPolicy

    specs = resolve_specs(
        embedding or ([] if family or real else ["glove-6b-50d"]), family=family, real=real
    )
    problem = inapplicable_run_options(
        specs,
        measure,
        overwrite=overwrite,
        only_missing=only_missing,
        intersect=intersect,
        executor=executor,
        workers=workers,
        address=address,
        transformer_vocab=transformer_vocab,
        cbm_log=cbm_log,
        cbm_ids={"--cbm-eos-id": cbm_eos_id, "--cbm-pad-id": cbm_pad_id},
        ray_files=ray_files,
    )
    if problem:
        fail(problem)
    if _with_people(people, measure) and "people" not in specs:  # the human ceiling
        specs = [*specs, "people"]
    specs = _kind_subjects(
        specs,
        _subject_options(subject_option),
        base_url=base_url,
        api_key_env=api_key_env,
        max_concurrency=max_concurrency,
        max_requests=max_requests,
        answers=answers,
        reprompts=reprompts,
        probe=not dry_run,  # a dry run sends nothing: a cached probe, else free answers
    )
    check_embedding_specs(specs)  # before any executor starts: "file not found" first
    check_measure_names(measure)
    options = _measure_options(option)
    if cbm_log:
        if set(options.get("cbm", {})) & {"logs", "eos_id", "pad_id"}:
            fail("give the CBM logs and symbols either with --cbm-log/--cbm-eos-id/--cbm-pad-id "
                 "or with -O cbm.logs=..., not both")  # fmt: skip
        options.setdefault("cbm", {}).update(
            logs=[str(p) for p in cbm_log], eos_id=_symbol(cbm_eos_id), pad_id=_symbol(cbm_pad_id)
        )
    runner = _executor(executor, workers, address, blas_threads, ray_files)
    con = console()
    policy = VocabularyPolicy(top_n=top_n, lower_alpha=lower_alpha, intersect=intersect)
    bars = None if dry_run else _request_bars(
        specs, measure, quiet, datasets=dataset or None, data_root=data_root, seed=seed,
        quick=quick, options=options,
    )  # fmt: skip
    with bars or contextlib.nullcontext():
        res = run_evaluation(
            bars.console if bars else con,  # progress and log on stderr while bars are drawn
            specs,
            measure or None,
            bars=bars,
            datasets=dataset or None,
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
            transformer_vocab=_transformer_vocab(transformer_vocab),
            trust_pickle=trust_pickle,
            ci_resamples=ci_resamples,
            thin=ThinPolicy(min_coverage=min_coverage, min_n=min_n),
            skip_uncovered=skip_uncovered,
        )
    if res is None:
        if dry_run:
            _print_request_estimate(
                con, specs, measure or None, datasets=dataset or None, data_root=data_root,
                seed=seed, quick=quick, options=options,
            )  # fmt: skip
        return
    print_summary(con, res, out=out, vocabulary=policy.describe())
    if tables:
        from wordgames.cli.family_tables import print_family_tables

        print_family_tables(con, res)
    print_skipped(con, res)
    if res.failed:
        raise typer.Exit(1)
    if not res.results:  # every measure was skipped: nothing to show is not a success
        fail(nothing_computed(res))


def nothing_computed(res) -> str:
    """Why a run computed nothing, from its skips' reasons: only what did happen is said.

    >>> from types import SimpleNamespace as NS
    >>> from wordgames.measure import Skip
    >>> nothing_computed(NS(skipped=[Skip("chat:m", "oddmanout", "5 request(s) sent to "
    ...     "http://h/v1: the cap (--max-requests) is reached")], parameters={}))[:58]
    'nothing was computed: the request cap (--max-requests) was'
    """
    reasons = [s.reason for s in res.skipped]
    if reasons and all("--max-requests" in r for r in reasons):
        return ("nothing was computed: the request cap (--max-requests) was reached before a "
                "result was complete; the answers so far are cached, so a run with a higher "
                "cap sends only the rest")  # fmt: skip
    out = "nothing was computed: every measure was skipped (the reasons are above)"
    if any(_about_data(r) for r in reasons) or not reasons:
        root = res.parameters.get("data_root")
        out += (f"; `wordgames datasets fetch` gets the data sets into the data root"
                f"{f' (now {root})' if root else ''}, or point WORDGAMES_DATA or --data-root "
                "at a folder that holds them")  # fmt: skip
    return out


def _about_data(reason: str) -> bool:
    """Whether a skip's reason is data that was not found."""
    low = reason.lower()
    return any(w in low for w in ("available", "missing", "data root", "not found"))


def inapplicable_run_options(
    specs,
    measures,
    *,
    overwrite,
    only_missing,
    intersect,
    executor,
    workers,
    address,
    transformer_vocab,
    cbm_log,
    cbm_ids,
    ray_files="ship",
) -> str:
    """Why options given to ``wordgames run`` contradict or do not apply (``""``: they all do).

    An option that would be silently ignored is an error.
    """
    measures = list(measures or [])
    checks = [
        (
            overwrite and only_missing,
            "--overwrite and --only-missing contradict each other: choose one",
        ),
        (
            intersect and len(specs) < 2,
            "--intersect restricts two or more embeddings to their shared vocabulary: give "
            "several -e (or --family)",
        ),
        (
            workers is not None and executor not in ("local", "process"),
            f"--workers applies to the local and process executors, not to --executor {executor}",
        ),
        (
            address is not None and executor != "ray",
            "--address is the address of a Ray cluster: it needs --executor ray",
        ),
        (
            ray_files != "ship" and executor != "ray",
            "--ray-files says how Ray nodes get their files: it needs --executor ray",
        ),
        (
            transformer_vocab is not None
            and not any(str(s).startswith("transformer:") for s in specs),
            "--transformer-vocab applies to transformer:MODEL embeddings, and none is given",
        ),
        (
            bool(cbm_log) and bool(measures) and "cbm" not in measures,
            "--cbm-log feeds the cbm measure, which -m leaves out: add -m cbm",
        ),
    ]
    given_ids = [name for name, value in cbm_ids.items() if value is not None]
    checks.append(
        (
            bool(given_ids) and not cbm_log,
            f"{' and '.join(given_ids)} {'describes' if len(given_ids) == 1 else 'describe'} "
            "the CBM logs: give --cbm-log too",
        )
    )
    return next((message for bad, message in checks if bad), "")


def _symbol(value: str | None) -> int | str | None:
    """An EOS / padding symbol of CBM logs: an integer id when it is one, else the token."""
    if value is None:
        return None
    return int(value) if value.lstrip("-").isdigit() else value


def _request_bars(specs, measures, quiet: bool, **settings):
    """The model requests' progress bars on stderr (``None``: quiet, no terminal, no model)."""
    from wordgames.cli.common import console
    from wordgames.cli.progress import request_bars
    from wordgames.errors import WordgamesError

    try:
        return request_bars(console(stderr=True), specs, measures or None, quiet=quiet, **settings)
    except WordgamesError:  # the run itself says what is wrong, in its own words
        return None


def _print_request_estimate(con, specs, measures, **settings) -> None:
    """``--dry-run`` with chat subjects: the requests the run would send and their tokens."""
    from wordgames.cli.tables import Col, print_table
    from wordgames.errors import WordgamesError
    from wordgames.llm.plan import estimate_requests
    from wordgames.llm.subject import CHARS_PER_TOKEN
    from wordgames.textio import literal

    try:
        rows, cached = estimate_requests(specs, measures, **settings)
    except WordgamesError as exc:
        fail(str(exc))
    if not cached:  # no chat subject: nothing would be sent
        return
    rows = [r for r in rows if r["requests"]]  # a role the cache answers whole sends nothing
    right = "right"
    print_table(
        con,
        [Col("subject"), Col("game"), Col("role"), Col("requests", right), Col("up to", right),
         Col("tokens in (est.)", right), Col("max tokens out", right)],
        [[literal(r["subject"]), r["game"], r["role"], f"{r['requests']:,}", f"{r['up_to']:,}",
          f"{r['tokens_in']:,}", f"{r['max_tokens_out']:,}"] for r in rows],
        title="dry run: the requests the run would send (nothing was sent but the model list)",
        keys=3,
    )  # fmt: skip
    for name, n in cached.items():
        con.print(
            f"{literal(name)}: {n:,} answer(s) already in the response cache (free)",
            highlight=False,
        )
    con.print(
        f"tokens in: the prompts' characters / {CHARS_PER_TOKEN}; up to: a WALES task asks "
        "once a step, up to its step cap (self-play: once a turn)",
        highlight=False,
        markup=False,
    )


def _with_people(people: bool | None, measures) -> bool:
    """``--people``, else whether a measure of the run scores the people (has a ceiling)."""
    if people is not None:
        return people
    from wordgames.registry import UnknownMeasureError, select_measures

    try:
        return any("people" in m.subjects for m in select_measures(measures or None))
    except UnknownMeasureError:  # said with its "did you mean" by the run itself
        return False


def _measure_options(items) -> dict:
    """``-O MEASURE.OPTION=VALUE`` texts as typed options (exit 2 naming a bad one)."""
    if not items:
        return {}
    from wordgames.measure import OptionError
    from wordgames.optiontext import parse_options
    from wordgames.registry import all_measures

    try:
        return parse_options(items, all_measures())
    except OptionError as exc:
        fail(str(exc))


def _subject_options(items) -> dict:
    """``--subject-option KEY=VALUE`` texts as ``{key: text}`` (each kind reads its own)."""
    out = {}
    for item in items or ():
        key, sep, value = str(item).partition("=")
        if not sep or not key.strip().isidentifier():
            fail(f"--subject-option {item}: expected KEY=VALUE, KEY a Python name")
        if key.strip() in out:
            fail(f"--subject-option {item}: {key.strip()} is given twice")
        out[key.strip()] = value
    return out


def _kind_subjects(specs, given: dict, **options):
    """Each ``PREFIX:NAME`` spec of a subject kind (built-in or plug-in) as its subject.

    A built-in kind takes the run's own flags it has a parameter for (a chat model every one;
    an embeddings service the server's and the request cap; a model in this process how it is
    asked); ``given`` (``--subject-option``) goes to every kind named, read by the types of
    its factory's parameters.
    """
    from wordgames.errors import WordgamesError
    from wordgames.subjects import kind_of, kind_options

    kinds = [k for k in map(kind_of, specs) if k]
    served = {"chat", "embed"}
    if not served & set(kinds) and (options["base_url"] or options["max_requests"] is not None):
        fail("--base-url and --max-requests apply to chat:MODEL and embed:MODEL subjects")
    if not kinds:
        if given:
            fail("--subject-option applies to subjects given as PREFIX:NAME (chat:, embed:, "
                 "gguf: or a plug-in's kind)")  # fmt: skip
        return specs
    from wordgames.subjects import from_spec

    out = []
    for spec in specs:
        kind = kind_of(spec)
        if not kind:
            out.append(spec)
            continue
        try:
            flags = kind_options(kind, options, given)
            out.append(from_spec(spec, **flags))
        except WordgamesError as exc:
            fail(str(exc))
    return out


def _transformer_vocab(value: str | None):
    if value is None:
        return None
    return int(value) if value.isdigit() else Path(value)


def _executor(
    kind: str, workers: int | None, address: str | None, blas_threads: int | None,
    ray_files: str = "ship",
):  # fmt: skip
    from wordgames.errors import WordgamesError
    from wordgames.executors import make_executor

    if workers is None:
        workers = 2 if kind == "process" else 1
    try:
        return make_executor(
            kind, workers=workers, address=address, blas_threads=blas_threads, ray_files=ray_files
        )
    except (WordgamesError, ValueError) as exc:
        fail(str(exc))


@app.command("measures")
def measures_list():
    """List every measure: name, family, version, data sets, headline scores, options."""
    from rich.text import Text

    from wordgames.cli.common import console
    from wordgames.registry import all_measures

    con = console()
    for m in all_measures():
        con.print(Text(f"{m.name}  (family {m.family}, version {m.version})", style="bold"))
        lines = _field("", m.description, con.width)
        lines += _field("data sets", ", ".join(m.datasets) or "-", con.width)
        for k, h in enumerate(m.headlines):
            what = h.description or " ".join(p for p in (h.agent, h.metric, h.dataset) if p)
            lines += _field("headlines" if k == 0 else "", what, con.width)
        lines += _field("options", ", ".join(m.option_names()) or "-", con.width)
        for line in lines:
            con.print(Text(line), soft_wrap=True)
        con.print()


@app.command("options")
def options_list(
    measures: Annotated[
        list[str] | None,
        typer.Argument(metavar="MEASURE", help="Only these measures (default: every one)."),
    ] = None,
):
    """Every option `wordgames run -O MEASURE.OPTION=VALUE` takes: type, default, help.

    Read from each measure's options dataclass and its numpydoc, plug-ins' included.
    """
    from wordgames.cli.common import console
    from wordgames.cli.tables import Col, print_table
    from wordgames.optiontext import option_rows
    from wordgames.registry import UnknownMeasureError, all_measures, get_measure
    from wordgames.textio import literal

    try:
        chosen = [get_measure(n) for n in measures] if measures else list(all_measures())
    except UnknownMeasureError as exc:
        fail(str(exc))
    rows = [
        [literal(r["name"]), literal(r["type"]), literal(r["default"]), literal(r["description"])]
        for m in chosen
        for r in option_rows(m)
    ]
    cols = ["option", Col("type", wrap=True), "default", Col("help", wrap=True)]
    print_table(console(), cols, rows)


@app.command("agents")
def agents_list(
    game: Annotated[
        str | None, typer.Option(help="Only this game's agents (codenames, oddmanout, wales).")
    ] = None,
):
    """List every agent: game, role, the kind of subject it needs, what it does.

    An agent plays one role for a subject; a measure runs the agents its subject can drive
    (``vectors``: an embedding; ``player``: a model that answers). Plug-ins add agents through
    the entry-point group ``wordgames.agents``.
    """
    import textwrap

    from rich.text import Text

    from wordgames.agents import list_agents
    from wordgames.cli.common import console, fail
    from wordgames.manifest import roles

    games = roles()
    if game is not None and game not in games:
        fail(f"--game must be one of {', '.join(games)}, got {game!r}")
    con = console()
    for g in [game] if game else list(games):
        con.print(Text(g, style="bold"))
        for a in list_agents(g):
            con.print(Text(f"  {a.role} {a.name}  (needs {a.needs or 'nothing'})"), soft_wrap=True)
            for line in textwrap.wrap(
                a.description, max(con.width, 40), initial_indent="      ",
                subsequent_indent="      ", break_long_words=False, break_on_hyphens=False,
            ):  # fmt: skip
                con.print(Text(line), soft_wrap=True)
        con.print()


def _field(label: str, text: str, width: int) -> list[str]:
    """``label: text`` wrapped at spaces under a hanging indent (names are never cut)."""
    import textwrap

    lead = f"  {label + ':' if label else '':<11} "
    return textwrap.wrap(
        text,
        max(width, 40),
        initial_indent=lead,
        subsequent_indent=" " * len(lead),
        break_long_words=False,
        break_on_hyphens=False,
    )


@embeddings_app.command("list")
def embeddings_list():
    """List the built-in embeddings: the real ones, then every member of the offline family."""
    from rich.table import Table

    from wordgames.cli.common import console
    from wordgames.embeddings.family import family_members
    from wordgames.embeddings.real import real_table
    from wordgames.textio import literal

    table = Table(
        "name",
        "kind",
        "dim",
        "vocab",
        "MB",
        "ready",
        title="real embeddings (-e NAME; every one: wordgames run --real)",
    )
    for col in table.columns[:5]:
        col.no_wrap = True
    rows = real_table()
    for row in rows:
        vocab = f"{row['vocab']:,}" if row["vocab"] else "-"
        mb = f"{row['mb']:.0f}" if row["mb"] is not None else "-"
        cells = (row["name"], row["kind"], str(row["dim"]), vocab, mb, row["available"])
        table.add_row(*map(literal, cells))
    console().print(table)
    for row in rows:
        console().print(
            f"[bold]{literal(row['name'])}[/]: {literal(row['description'])}. Source: "
            f"{literal(row['source'])}. Licence: {literal(row['licence'])}.",
            highlight=False,
        )
    family = Table("name", "what", title="the GloVe variants (control group: --family)")
    family.columns[0].no_wrap = True
    for member in family_members():
        family.add_row(literal(member.name), literal(member.description))
    family.add_row(
        "transformer:MODEL",
        "a sentence-transformers model folder encoding a vocabulary "
        "(--transformer-vocab; needs the contextual extra)",
    )
    console().print(family)
    console().print(
        "Any other -e value is read as a vector file (word2vec, GloVe, fastText, .npy, gensim).",
        highlight=False,
    )


EmbeddingFormat = Literal[
    "auto", "word2vec", "word2vec-binary", "glove", "fasttext", "npy", "gensim", "builtin"
]


@embeddings_app.command("info")
def embeddings_info(
    spec: Annotated[
        str,
        typer.Argument(
            metavar="NAME|FILE",
            help="Built-in name (`wordgames embeddings list`) or vector file.",
        ),
    ] = "glove-6b-50d",
    fmt: Annotated[
        EmbeddingFormat,
        typer.Option("--format", help="Format of a vector file (auto: from its name and content)."),
    ] = "auto",
):
    """Load an embedding (converting a vector file to the cache once) and describe it."""
    import json

    from wordgames.cli.common import check_embedding_specs
    from wordgames.embeddings import load_embedding
    from wordgames.errors import WordgamesError

    check_embedding_specs([spec])
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
