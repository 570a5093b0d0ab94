"""`wordgames similarity` commands. Heavy imports stay inside the command bodies."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

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
DataRoot = Annotated[
    Path | None,
    typer.Option("--data-root", help="Folder holding the data sets (default: $WORDGAMES_DATA)."),
]
JsonOut = Annotated[
    Path | None, typer.Option("--json", help="Also write the results as JSON here.")
]


Out = Annotated[
    Path | None,
    typer.Option(
        "--out",
        "-o",
        help="Results store folder (read by 'wordgames report'); stored results are "
        "reused. Default: in memory.",
    ),
]


def _fmt(v) -> str:
    import math

    return "n/a" if v is None or (isinstance(v, float) and not math.isfinite(v)) else f"{v:.4f}"


def _check_results(res) -> None:
    """Stop with the measure's own error when a unit failed."""
    from wordgames.cli.common import fail

    if res.failed:
        fail(res.failed[0].reason)


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


def print_benchmarks(con, result, oov: str, oov_similarity: float) -> None:
    """One embedding's benchmark table (from the result's ``benchmarks`` table)."""
    from rich.markup import escape
    from rich.table import Table

    table = Table(
        "benchmark",
        "spearman",
        "pearson",
        "pairs",
        "scored",
        "oov pairs",
        "oov words",
        title=escape(
            f"{result.embedding} (OOV policy: {oov}"
            + (f", cosine {oov_similarity}" if oov == "fixed" else "")
            + ")"
        ),
    )
    for r in result.tables["benchmarks"]:
        table.add_row(
            escape(r["benchmark"]),
            _fmt(r["spearman"]),
            _fmt(r["pearson"]),
            str(r["n_pairs"]),
            str(r["n_scored"]),
            str(r["n_oov_pairs"]),
            str(r["n_oov_words"]),
        )
    con.print(table)


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
            "-b", "--benchmark", help="Shipped benchmark to run (repeatable). Default: all 13."
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
        float, typer.Option(help="Cosine given to OOV pairs under --oov fixed.")
    ] = 0.0,
    data_root: DataRoot = None,
    out: Out = None,
    json_out: JsonOut = None,
):
    """Spearman and Pearson of cosine similarity against human scores, with OOV counts.

    Computed by the 'similarity' measure of 'wordgames run' (the same numbers for the same
    options).
    """
    from rich.markup import escape

    from wordgames.cli.common import console, fail, run_evaluation
    from wordgames.results import write_json_atomic

    if only_tsv and not tsv:
        fail("no benchmark to run: give --tsv files or drop --only-tsv")
    options = similarity_options(
        benchmark=benchmark, tsv=tsv, only_tsv=only_tsv, oov=oov, oov_similarity=oov_similarity
    )
    con = console()
    res = run_evaluation(
        con,
        embedding or ["glove-6b-50d"],
        ["similarity"],
        store=out,
        options={"similarity": options},
        data_root=data_root,
    )
    _check_results(res)
    for result in res.results:
        print_benchmarks(con, result, oov, oov_similarity)
    first = res.results[0] if res.results else None
    repaired = _repairs(first) if first else {}
    for row in first.tables.get("repairs", []) if first else []:
        for note in filter(None, row["notes"].split("; ")):
            con.print(f"[dim]{escape(row['benchmark'])}: {escape(note)}[/]", highlight=False)
    if repaired:
        con.print(
            "[dim]repairs: "
            + escape(
                "; ".join(
                    f"{n} " + ", ".join(f"{k}={v}" for k, v in r.items())
                    for n, r in repaired.items()
                )
            )
            + "[/]",
            highlight=False,
        )
    if json_out:
        write_json_atomic(
            json_out,
            {
                "scores": {r.embedding: r.tables["benchmarks"] for r in res.results},
                "repairs": repaired,
                "oov_policy": oov,
                "oov_similarity": oov_similarity if oov == "fixed" else None,
            },
        )


@app.command("global-metrics")
def global_metrics(
    embedding: Embeddings = None,
    center: Annotated[bool, typer.Option(help="Subtract the column mean first.")] = False,
    rownorm: Annotated[bool, typer.Option(help="l2-normalise every row first.")] = False,
    top_n: Annotated[int | None, typer.Option(help="Use only the N most frequent words.")] = None,
    perank_p: Annotated[float, typer.Option(help="Exponent of perank.")] = 2.5,
    edim_p: Annotated[float, typer.Option(help="Exponent of edim.")] = 1.0,
    out: Out = None,
    json_out: JsonOut = None,
):
    """The erank (Roy-Vetterli), perank(p) and edim(p) (the last two reconstructed, see docs).

    Computed by the 'global-metrics' measure of 'wordgames run'.
    """
    from rich.markup import escape
    from rich.table import Table

    from wordgames.cli.common import console, run_evaluation
    from wordgames.results import write_json_atomic
    from wordgames.similarity.global_metrics import GlobalMetrics

    options = {
        "perank_p": perank_p,
        "edim_p": edim_p,
        "center": center,
        "rownorm": rownorm,
        "top_n": top_n,
    }
    con = console()
    res = run_evaluation(
        con,
        embedding or ["glove-6b-50d"],
        ["global-metrics"],
        store=out,
        options={"global-metrics": options},
    )
    _check_results(res)
    names = GlobalMetrics(**options).metric_names()
    table = Table(
        "embedding",
        "rows",
        "dim",
        *names,
        "seconds",
        title=f"global metrics (center={center}, rownorm={rownorm}); "
        "perank and edim are reconstructed definitions",
    )
    for r in res.results:
        table.add_row(
            escape(r.embedding),
            f"{int(r.metrics['n_rows']):,}",
            str(r.parameters["dim"]),
            *(_fmt(r.metrics[n]) for n in names),
            f"{r.timings.get('total', float('nan')):.3f}",
        )
    con.print(table)
    if json_out:
        write_json_atomic(
            json_out,
            {
                "parameters": res.parameters["options"]["global-metrics"],
                "metrics": {
                    r.embedding: {
                        **{n: r.metrics[n] for n in names},
                        "n_rows": int(r.metrics["n_rows"]),
                    }
                    for r in res.results
                },
            },
        )


def _correlate_table(table: Path, reference: str, out: Path):
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
    plot_dir = out / "plots" / "correlation"
    plot_dir.mkdir(parents=True, exist_ok=True)
    plots = [str(p) for p in plot_correlation(result, plot_dir)]
    return result, plots, {"correlation": result.as_dict(), "plots": plots}


def _measured_study(
    con,
    specs: list[str],
    measures: list[str],
    *,
    reference: str,
    out: Path,
    seed: int,
    quick: bool,
    oov: str,
    global_top_n: int | None,
    data_root,
):
    """Measure every embedding (:func:`wordgames.evaluate`, store in ``out``) and correlate."""
    from rich.markup import escape

    from wordgames.cli.common import run_evaluation
    from wordgames.similarity.correlation import require_embeddings, study_from_results

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
    study = study_from_results(res, reference=reference, plot_dir=out / "plots" / "correlation")
    study.table.to_csv(out / "scores.csv")
    for s in study.skipped:
        con.print(
            f"[yellow]skipped[/] {escape(s['embedding'])} / {escape(s['measure'])}: "
            f"{escape(s['reason'])}",
            highlight=False,
        )
    return study.correlation, study.plots, study.as_dict()


@app.command()
def correlate(
    embedding: Embeddings = None,
    family: Annotated[
        bool, typer.Option("--family", help="Add the built-in offline family.")
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
    out: Annotated[
        Path, typer.Option("--out", "-o", help="Output folder (holds the results store).")
    ] = Path("wordgames-correlation"),
    seed: Annotated[int, typer.Option(help="Seed of every random choice.")] = 0,
    quick: Annotated[bool, typer.Option(help="Smaller settings for a smoke run.")] = False,
    oov: Annotated[
        str,
        typer.Option(help="OOV pairs of the similarity benchmarks: 'skip' or 'fixed' (cosine 0)."),
    ] = "skip",
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

    The measures run through 'wordgames run''s path; their results are stored in OUT (read by
    'wordgames report'), with correlation.json, scores.csv and the figures.
    """
    from rich.markup import escape
    from rich.table import Table

    from wordgames.cli.common import console, fail
    from wordgames.errors import WordgamesError
    from wordgames.results import write_json_atomic
    from wordgames.similarity.correlation import DEFAULT_MEASURES

    con = console()
    out.mkdir(parents=True, exist_ok=True)
    try:
        if table is not None:
            result, plots, payload = _correlate_table(table, reference, out)
        else:
            from wordgames.cli.common import resolve_specs

            specs = resolve_specs(embedding or [], family=family)
            if not specs:
                fail("give embeddings with -e (at least 3) or use --family")
            result, plots, payload = _measured_study(
                con,
                specs,
                list(measure or DEFAULT_MEASURES),
                reference=reference,
                out=out,
                seed=seed,
                quick=quick,
                oov=oov,
                global_top_n=global_top_n,
                data_root=data_root,
            )
    except WordgamesError as exc:
        fail(str(exc))
    write_json_atomic(out / "correlation.json", payload)
    t = Table(
        "metric",
        "spearman rho",
        "p",
        "n embeddings",
        title=escape(
            f"Spearman rank correlation with {reference} across {result.n_embeddings} embeddings"
        ),
    )
    for row in result.with_reference.to_dict(orient="records"):
        t.add_row(
            escape(row["metric"]),
            _fmt(row["spearman"]),
            _fmt(row["p_value"]),
            str(row["n_embeddings"]),
        )
    con.print(t)
    con.print(
        escape(f"wrote {out / 'correlation.json'}" + "".join(f", {p}" for p in plots)),
        highlight=False,
    )


@app.command("family")
def family_list():
    """List the built-in offline embedding family (for correlation studies)."""
    from rich.console import Console
    from rich.table import Table

    from wordgames.embeddings.family import family_members

    t = Table("name", "kind", "description")
    for m in family_members():
        t.add_row(m.name, m.kind, m.description)
    Console().print(t)


@app.command("benchmarks")
def benchmarks_list(data_root: DataRoot = None):
    """List the shipped benchmarks with their pair counts and the repairs made while reading."""
    from rich.console import Console
    from rich.table import Table

    from wordgames.cli.common import fail
    from wordgames.errors import WordgamesError
    from wordgames.similarity.benchmarks import BENCHMARKS, load_benchmarks

    try:
        benches = load_benchmarks(None, data_root)
    except WordgamesError as exc:
        fail(str(exc))
    t = Table("name", "file", "pairs", "repairs", "notes")
    for n, b in benches.items():
        t.add_row(
            n,
            BENCHMARKS[n],
            str(len(b)),
            ", ".join(f"{k}={v}" for k, v in b.repairs.items()),
            "; ".join(b.notes),
        )
    Console().print(t)
