"""`wordgames similarity` commands. Heavy imports stay inside the command bodies."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from wordgames.cli.common import DataRoot, JsonOut, Quick, StoreOut

app = typer.Typer(
    help="Word-similarity benchmarks, global metrics (erank, perank, edim) and the correlation "
    "study across embeddings (WALES Figure 1).",
    no_args_is_help=True,
)

Embeddings = Annotated[
    list[str] | None,
    typer.Option(
        "-e",
        "--embedding",
        help="Built-in name, family member (see 'wordgames similarity family') or vector file; "
        "repeatable. Default: glove-6b-50d.",
    ),
]


def _fmt(v, fmt: str = ".4f") -> str:
    """A number in its column's one format; ``n/a`` when missing."""
    import math

    if v is None or (isinstance(v, float) and not math.isfinite(v)):
        return "n/a"
    return format(v, fmt)


def _check_results(res) -> None:
    """Stop with the measure's own error when a unit failed."""
    from wordgames.cli.common import fail

    if res.failed:
        fail(res.failed[0].reason)


def check_evaluate_flags(*, benchmark, tsv, only_tsv: bool, oov: str, oov_similarity) -> None:
    """Stop with an error for flags of ``similarity evaluate`` that would be ignored."""
    from wordgames.cli.common import fail

    if only_tsv and not tsv:
        fail("no benchmark to run: give --tsv files or drop --only-tsv")
    if only_tsv and benchmark:
        fail("--benchmark names shipped benchmarks, which --only-tsv leaves out: drop one")
    if oov_similarity is not None and oov != "fixed":
        fail(f"--oov-similarity applies only with --oov fixed (here --oov {oov})")


def similarity_options(*, benchmark, tsv, only_tsv: bool, oov: str, oov_similarity: float) -> dict:
    """The measure's options, from the ``evaluate`` command's options.

    A dict of :class:`~wordgames.similarity.spec.SimilarityOptions` fields.
    """
    return {
        "benchmarks": [] if only_tsv else (list(benchmark) if benchmark else None),
        "extra": [str(p) for p in tsv or ()],
        "oov": oov,
        "oov_similarity": oov_similarity,
    }


def _ci(lo, hi) -> str:
    """An interval ``[lo, hi]`` in the correlations' format (``n/a`` when none)."""
    import math

    if lo is None or hi is None or not (math.isfinite(lo) and math.isfinite(hi)):
        return "n/a"
    return f"[{lo:.3f}, {hi:.3f}]"


def print_benchmarks(con, result, oov: str, oov_similarity: float) -> None:
    """One embedding's benchmark table (from the result's ``benchmarks`` table).

    Spearman with its 95 % bootstrap interval, Pearson, the pairs and the OOV counts; no name
    is cut at any terminal width.
    """
    from wordgames.cli.tables import Col, print_table
    from wordgames.textio import literal

    right = "right"
    rows = [
        [
            literal(r["benchmark"]),
            _fmt(r["spearman"], ".3f"),
            _ci(r.get("spearman_ci_low"), r.get("spearman_ci_high")),
            _fmt(r["pearson"], ".3f"),
            f"{r['n_pairs']:,}",
            f"{r['n_oov_pairs']:,}",
            f"{r['n_oov_words']:,}",
        ]
        for r in result.tables["benchmarks"]
    ]
    cols = [
        "benchmark",
        Col("spearman", right),
        Col("95% CI", right),
        Col("pearson", right),
        Col("pairs", right),
        Col("oov pairs", right),
        Col("oov words", right),
    ]
    title = literal(
        f"{result.subject} (OOV policy: {oov}"
        + (f", cosine {oov_similarity:g}" if oov == "fixed" else "")
        + ")"
    )
    print_table(con, cols, rows, title=title)


def print_similarity_tables(con, res) -> None:
    """Each subject's benchmark table, then the repairs the benchmark reader made.

    The ``similarity`` printer of ``wordgames run --tables`` (:mod:`wordgames.cli.family_tables`):
    the OOV policy in each title is the one the result records.
    """
    from wordgames.textio import literal

    for result in res.results:
        p = result.parameters
        print_benchmarks(con, result, p.get("oov", "skip"), float(p.get("oov_similarity") or 0))
    first = res.results[0] if res.results else None
    repaired = _repairs(first) if first else {}
    for row in first.tables.get("repairs", []) if first else []:
        for note in filter(None, row["notes"].split("; ")):
            con.print(f"[dim]{literal(row['benchmark'])}: {literal(note)}[/]", highlight=False)
    if repaired:
        text = "; ".join(
            f"{n} " + ", ".join(f"{k}={v}" for k, v in r.items()) for n, r in repaired.items()
        )
        con.print(f"[dim]repairs: {literal(text)}[/]", highlight=False)


def _repairs(result) -> dict[str, dict]:
    """``{benchmark: repairs}`` of the benchmarks the reader repaired."""
    return {
        r["benchmark"]: {k: v for k, v in r.items() if k not in ("benchmark", "notes")}
        for r in result.tables.get("repairs", [])
        if any(k not in ("benchmark", "notes") for k in r)
    }


@app.command()
def evaluate(
    embedding: Embeddings = None,
    benchmark: Annotated[
        list[str] | None,
        typer.Option(
            "--dataset",
            "-d",
            "-b",
            "--benchmark",
            metavar="DATASET",
            help="Shipped benchmark to run (repeatable). Default: all 13.",
        ),
    ] = None,
    tsv: Annotated[
        list[Path] | None,
        typer.Option("--tsv", help="Your own word1<TAB>word2<TAB>score file (repeatable)."),
    ] = None,
    only_tsv: Annotated[
        bool, typer.Option(help="Run only the --tsv files, not the shipped benchmarks.")
    ] = False,
    oov: Annotated[
        str, typer.Option(help="OOV pairs: 'skip' them, or score them with a 'fixed' cosine.")
    ] = "skip",
    oov_similarity: Annotated[
        float | None,
        typer.Option(help="Cosine given to OOV pairs; only with --oov fixed (default 0)."),
    ] = None,
    seed: Annotated[int, typer.Option(help="Seed of the bootstrap intervals.")] = 0,
    data_root: DataRoot = None,
    out: StoreOut = None,
    json_out: JsonOut = None,
    quick: Quick = False,
):
    """Spearman and Pearson of cosine similarity against human scores, with OOV counts.

    Each correlation comes with a 95 % percentile-bootstrap interval over the pairs. Computed
    by the 'similarity' measure of 'wordgames run' (the same numbers for the same options).
    """
    from wordgames.cli.common import console, json_to_stdout, run_evaluation, write_json_output

    check_evaluate_flags(
        benchmark=benchmark,
        tsv=tsv,
        only_tsv=only_tsv,
        oov=oov,
        oov_similarity=oov_similarity,
    )
    oov_similarity = 0.0 if oov_similarity is None else oov_similarity
    options = similarity_options(
        benchmark=benchmark, tsv=tsv, only_tsv=only_tsv, oov=oov, oov_similarity=oov_similarity
    )
    con = console(stderr=json_to_stdout(json_out))
    res = run_evaluation(
        con,
        embedding or ["glove-6b-50d"],
        ["similarity"],
        store=out,
        options={"similarity": options},
        data_root=data_root,
        seed=seed,
        quick=quick,
    )
    _check_results(res)
    print_similarity_tables(con, res)
    if json_out is not None:
        write_json_output(
            json_out,
            res,
            scores={r.subject: r.tables["benchmarks"] for r in res.results},
            repairs=_repairs(res.results[0]) if res.results else {},
            oov_policy=oov,
            oov_similarity=oov_similarity if oov == "fixed" else None,
        )


@app.command("global-metrics")
def global_metrics(
    embedding: Embeddings = None,
    center: Annotated[bool, typer.Option(help="Subtract the column mean first.")] = False,
    rownorm: Annotated[bool, typer.Option(help="l2-normalise every row first.")] = False,
    top_n: Annotated[int | None, typer.Option(help="Use only the N most frequent words.")] = None,
    perank_p: Annotated[float, typer.Option(help="Exponent of perank.")] = 2.5,
    edim_p: Annotated[float, typer.Option(help="Exponent of edim.")] = 1.0,
    out: StoreOut = None,
    json_out: JsonOut = None,
):
    """The erank (Roy-Vetterli), perank(p) and edim(p) (the last two reconstructed, see docs).

    Computed by the 'global-metrics' measure of 'wordgames run'.
    """
    from wordgames.cli.common import console, json_to_stdout, run_evaluation, write_json_output

    options = {
        "perank_p": perank_p,
        "edim_p": edim_p,
        "center": center,
        "rownorm": rownorm,
        "top_n": top_n,
    }
    con = console(stderr=json_to_stdout(json_out))
    res = run_evaluation(
        con,
        embedding or ["glove-6b-50d"],
        ["global-metrics"],
        store=out,
        options={"global-metrics": options},
    )
    _check_results(res)
    print_global_metrics_tables(con, res)
    if json_out is not None:
        write_json_output(
            json_out,
            res,
            metrics={
                r.subject: {**_global_values(r), "n_rows": r.find("erank").n} for r in res.results
            },
        )


def print_global_metrics_tables(con, res) -> None:
    """One row per subject: rows, dimensions, erank, perank(p), edim(p) and the seconds.

    The ``global-metrics`` printer of ``wordgames run --tables``; the exponents, centring and
    normalisation shown are the ones each result records.
    """
    from wordgames.cli.tables import Col, print_table
    from wordgames.textio import literal

    if not res.results:
        return
    right = "right"
    rows = [
        [
            literal(r.subject),
            f"{r.find('erank').n:,}",
            str(r.parameters["dim"]),
            *(_fmt(v) for v in _global_values(r).values()),
            _fmt(r.timings.get("total", float("nan")), ".3f"),
        ]
        for r in res.results
    ]
    p = res.results[0].parameters
    print_table(
        con,
        [
            "subject",
            Col("rows", right),
            Col("dim", right),
            *(Col(n, right) for n in _global_values(res.results[0])),
            Col("seconds", right),
        ],
        rows,
        title=f"global metrics (center={p.get('center')}, rownorm={p.get('rownorm')}); "
        "perank and edim are reconstructed definitions",
    )


def _global_values(result) -> dict[str, float]:
    """``{"erank": ..., "perank_p2.5": ..., "edim_p1.0": ...}`` from the result's Score rows.

    Labelled as the correlation study labels them (:func:`~wordgames.similarity.correlation.score_label`).
    """
    from wordgames.similarity.correlation import score_label

    return {
        score_label(s, result.measure): s.value
        for s in result.scores
        if s.metric in ("erank", "perank", "edim")
    }


def _correlate_table(table: Path, reference: str, out: Path | None):
    """Correlate a CSV the user already has (no measuring)."""
    import pandas as pd

    from wordgames.cli.common import fail
    from wordgames.similarity.correlation import correlate as run_corr
    from wordgames.similarity.correlation import plot_correlation

    try:
        df = pd.read_csv(table, index_col=0)
    except (OSError, ValueError) as exc:
        fail(f"{table}: cannot read the score table ({exc})")
    result = run_corr(df.apply(pd.to_numeric, errors="coerce"), reference)
    plots = []
    if out is not None:
        plot_dir = out / "plots" / "correlation"
        plot_dir.mkdir(parents=True, exist_ok=True)
        plots = [str(p) for p in plot_correlation(result, plot_dir)]
    return result, plots, {"correlation": result.as_dict(), "plots": plots}, None


def _measured_study(
    con,
    specs: list[str],
    measures: list[str],
    *,
    reference: str,
    out: Path | None,
    seed: int,
    quick: bool,
    oov: str,
    global_top_n: int | None,
    data_root,
):
    """Measure every embedding (:func:`wordgames.evaluate`, store in ``out``) and correlate."""
    from wordgames.cli.common import run_evaluation
    from wordgames.similarity.correlation import require_embeddings, study_from_results
    from wordgames.textio import literal

    require_embeddings(specs)
    options = {
        "similarity": {"oov": oov, "oov_similarity": 0.0},
        "global-metrics": {"top_n": global_top_n},
    }
    res = run_evaluation(
        con,
        specs,
        measures,
        store=out,
        seed=seed,
        quick=quick,
        data_root=data_root,
        options={m: o for m, o in options.items() if m in measures},
    )
    plot_dir = None if out is None else out / "plots" / "correlation"
    study = study_from_results(res, reference=reference, plot_dir=plot_dir)
    if out is not None:
        study.table.to_csv(out / "scores.csv")
    for s in study.skipped:
        con.print(
            f"[yellow]skipped[/] {literal(s['subject'])} / {literal(s['measure'])}: "
            f"{literal(s['reason'])}",
            highlight=False,
        )
    return study.correlation, study.plots, study.as_dict(), res


@app.command()
def correlate(
    embedding: Embeddings = None,
    family: Annotated[
        bool, typer.Option("--family", help="Add the built-in offline family.")
    ] = False,
    real: Annotated[
        bool,
        typer.Option("--real", help="Add every real embedding of 'wordgames embeddings list'."),
    ] = False,
    table: Annotated[
        Path | None,
        typer.Option(
            "--table",
            help="Correlate an existing CSV (first column: embedding; one column per metric) "
            "instead of measuring.",
        ),
    ] = None,
    reference: Annotated[
        str, typer.Option(help="Metric correlated with every other one.")
    ] = "wales/score",
    measure: Annotated[
        list[str] | None,
        typer.Option(
            "-m", "--measure", help="Measures to run (default: wales, global-metrics, similarity)."
        ),
    ] = None,
    out: StoreOut = None,
    json_out: JsonOut = None,
    seed: Annotated[
        int | None, typer.Option(help="Seed of every random choice (default 0).")
    ] = None,
    quick: Quick = False,
    oov: Annotated[
        str | None,
        typer.Option(
            help="OOV pairs of the similarity benchmarks: 'skip' (default) or 'fixed' (cosine 0)."
        ),
    ] = None,
    global_top_n: Annotated[
        int | None,
        typer.Option(
            help="Compute the global metrics on each embedding's N most frequent words only "
            "(the same rows for embeddings that share a vocabulary order)."
        ),
    ] = None,
    data_root: DataRoot = None,
):
    """Spearman rank correlation across embeddings between WALES and every other metric.

    The measures run through 'wordgames run''s path; with -o their results are stored in OUT
    (read by 'wordgames report'), with correlation.json, scores.csv and the figures. With
    --table, an existing score table is correlated instead and nothing is measured.
    """
    from wordgames.cli.common import console, fail, json_to_stdout, write_json_output
    from wordgames.errors import WordgamesError
    from wordgames.results import write_json_atomic
    from wordgames.similarity.correlation import DEFAULT_MEASURES
    from wordgames.textio import literal

    measures = list(measure or DEFAULT_MEASURES)
    flags = {
        "-e/--embedding": bool(embedding),
        "--family": family,
        "--real": real,
        "-m/--measure": bool(measure),
        "--seed": seed is not None,
        "--quick": quick,
        "--oov": oov is not None,
        "--global-top-n": global_top_n is not None,
        "--data-root": data_root is not None,
    }
    check_correlate_flags(table is not None, flags, measures)
    con = console(stderr=json_to_stdout(json_out))
    try:
        if table is not None:
            result, plots, payload, res = _correlate_table(table, reference, out)
        else:
            from wordgames.cli.common import resolve_specs

            specs = resolve_specs(embedding or [], family=family, real=real)
            if not specs:
                fail("give embeddings with -e (at least 3), --real or --family")
            result, plots, payload, res = _measured_study(
                con,
                specs,
                measures,
                reference=reference,
                out=out,
                seed=seed or 0,
                quick=quick,
                oov=oov or "skip",
                global_top_n=global_top_n,
                data_root=data_root,
            )
    except WordgamesError as exc:
        fail(str(exc))
    _print_correlations(con, result, reference)
    for t in payload.get("thin_left_out", []):
        con.print(
            literal(f"note: {t['metric']} of {t['subject']} is thin ({t['reason']}): left out"),
            highlight=False,
        )
    if json_out is not None:
        write_json_output(json_out, res, **{k: v for k, v in payload.items() if k != "results"})
    if out is None:
        return
    write_json_atomic(out / "correlation.json", payload)
    con.print(
        literal(f"wrote {out / 'correlation.json'}" + "".join(f", {p}" for p in plots)),
        highlight=False,
        soft_wrap=True,
    )


def check_correlate_flags(with_table: bool, given: dict[str, bool], measures: list[str]) -> None:
    """Stop with an error for flags of ``similarity correlate`` that would be ignored.

    With ``--table`` nothing is measured, so no flag about measuring applies; without it,
    ``--oov`` needs the similarity measure and ``--global-top-n`` the global metrics.
    """
    from wordgames.cli.common import fail

    if with_table:
        ignored = [flag for flag, is_given in given.items() if is_given]
        if ignored:
            fail(
                f"{', '.join(ignored)}: not used with --table (the table is correlated as it "
                "is, nothing is measured)"
            )
        return
    for flag, measure in (("--oov", "similarity"), ("--global-top-n", "global-metrics")):
        if given[flag] and measure not in measures:
            fail(f"{flag} applies to the {measure!r} measure, which -m leaves out")


def _print_correlations(con, result, reference: str) -> None:
    """The correlation of every metric with the reference (its typed Score rows), one row each."""
    from wordgames.cli.tables import Col, print_table
    from wordgames.textio import literal

    rows = [
        [literal(s.metric), _fmt(s.value, ".3f"), _ci(s.ci_low, s.ci_high), str(s.n)]
        for s in result.scores()
    ]
    print_table(
        con,
        [
            "metric",
            Col("spearman rho", "right"),
            Col("95% CI", "right"),
            Col("embeddings", "right"),
        ],
        rows,
        title=literal(
            f"Spearman rank correlation with {reference} across {result.n_embeddings} embeddings"
        ),
    )


@app.command("family")
def family_list():
    """List the built-in offline embedding family (for correlation studies)."""
    from wordgames.cli.common import console
    from wordgames.cli.tables import Col, print_table
    from wordgames.embeddings.family import family_members
    from wordgames.textio import literal

    rows = [[literal(m.name), literal(m.kind), literal(m.description)] for m in family_members()]
    print_table(console(), ["name", "kind", Col("description", wrap=True)], rows)


@app.command("benchmarks")
def benchmarks_list(data_root: DataRoot = None):
    """List the shipped benchmarks with their pair counts and the repairs made while reading."""
    from wordgames.cli.common import console, fail
    from wordgames.cli.tables import Col, print_table
    from wordgames.errors import WordgamesError
    from wordgames.similarity.benchmarks import BENCHMARKS, load_benchmarks
    from wordgames.textio import literal

    try:
        benches = load_benchmarks(None, data_root)
    except WordgamesError as exc:
        fail(str(exc))
    rows = [
        [
            literal(n),
            literal(BENCHMARKS[n]),
            f"{len(b):,}",
            literal(", ".join(f"{k}={v}" for k, v in b.repairs.items())),
            literal("; ".join(b.notes)),
        ]
        for n, b in benches.items()
    ]
    print_table(
        console(),
        ["name", "file", Col("pairs", "right"), Col("repairs", wrap=True), Col("notes", wrap=True)],
        rows,
    )
