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

Embeddings = Annotated[list[str] | None, typer.Option(
    "-e", "--embedding",
    help="Built-in name, family member (see 'wordgames similarity family') or vector file; "
    "repeatable. Default: glove-6b-50d.")]
DataRoot = Annotated[Path | None, typer.Option(
    "--data-root", help="Folder holding the data sets (default: $WORDGAMES_DATA).")]
JsonOut = Annotated[Path | None, typer.Option("--json", help="Also write the results as JSON here.")]


def load_any(spec: str):
    """An embedding from a family member name, a built-in name or a path."""
    from wordgames.embeddings import load_embedding
    from wordgames.embeddings.family import is_family_member, load_family_member

    return load_family_member(spec) if is_family_member(spec) else load_embedding(spec)


def _load_all(specs):
    from wordgames.cli import fail
    from wordgames.errors import WordgamesError

    try:
        return [load_any(s) for s in specs]
    except WordgamesError as exc:
        fail(str(exc))


def _fmt(v) -> str:
    import math

    return "n/a" if v is None or (isinstance(v, float) and not math.isfinite(v)) else f"{v:.4f}"


@app.command()
def evaluate(
    embedding: Embeddings = None,
    benchmark: Annotated[list[str] | None, typer.Option(
        "-b", "--benchmark", help="Shipped benchmark to run (repeatable). Default: all 13.")] = None,
    tsv: Annotated[list[Path] | None, typer.Option(
        "--tsv", help="Your own word1<TAB>word2<TAB>score file (repeatable).")] = None,
    only_tsv: Annotated[bool, typer.Option(help="Run only the --tsv files, not the shipped benchmarks.")] = False,
    oov: Annotated[str, typer.Option(help="OOV pairs: 'skip' them, or score them with a 'fixed' cosine.")] = "skip",
    oov_similarity: Annotated[float, typer.Option(help="Cosine given to OOV pairs under --oov fixed.")] = 0.0,
    data_root: DataRoot = None,
    json_out: JsonOut = None,
):
    """Spearman and Pearson of cosine similarity against human scores, with OOV counts."""
    from rich.console import Console
    from rich.table import Table

    from wordgames.cli import fail
    from wordgames.errors import WordgamesError
    from wordgames.results import write_json_atomic
    from wordgames.similarity.benchmarks import (
        OOV_POLICIES,
        load_benchmarks,
        read_pairs_tsv,
    )
    from wordgames.similarity.benchmarks import (
        evaluate as run_eval,
    )

    if oov not in OOV_POLICIES:
        fail(f"--oov must be one of {', '.join(OOV_POLICIES)}, got {oov!r}")
    try:
        benches = {} if only_tsv else load_benchmarks(benchmark or None, data_root)
        for path in tsv or []:
            b = read_pairs_tsv(path)
            benches[b.name] = b
    except KeyError as exc:
        fail(str(exc.args[0]))
    except WordgamesError as exc:
        fail(str(exc))
    if not benches:
        fail("no benchmark to run: give --tsv files or drop --only-tsv")
    embs = _load_all(embedding or ["glove-6b-50d"])
    console = Console()
    out = {}
    for emb in embs:
        scores = run_eval(emb, benches, oov=oov, oov_similarity=oov_similarity)
        table = Table("benchmark", "spearman", "pearson", "pairs", "scored", "oov pairs", "oov words",
                      title=f"{emb.name} (OOV policy: {oov}"
                      + (f", cosine {oov_similarity}" if oov == "fixed" else "") + ")")
        for s in scores:
            table.add_row(s.benchmark, _fmt(s.spearman), _fmt(s.pearson), str(s.n_pairs),
                          str(s.n_scored), str(s.n_oov_pairs), str(s.n_oov_words))
        console.print(table)
        out[emb.name] = [s.as_row() for s in scores]
    repaired = {n: b.repairs for n, b in benches.items() if b.repairs}
    for n, b in benches.items():
        for note in b.notes:
            console.print(f"[dim]{n}: {note}[/]")
    if repaired:
        console.print("[dim]repairs: " + "; ".join(
            f"{n} " + ", ".join(f"{k}={v}" for k, v in r.items()) for n, r in repaired.items()) + "[/]")
    if json_out:
        write_json_atomic(json_out, {"scores": out, "repairs": repaired, "oov_policy": oov,
                                     "oov_similarity": oov_similarity if oov == "fixed" else None})


@app.command("global-metrics")
def global_metrics(
    embedding: Embeddings = None,
    center: Annotated[bool, typer.Option(help="Subtract the column mean first.")] = False,
    rownorm: Annotated[bool, typer.Option(help="l2-normalise every row first.")] = False,
    top_n: Annotated[int | None, typer.Option(help="Use only the N most frequent words.")] = None,
    perank_p: Annotated[float, typer.Option(help="Exponent of perank.")] = 2.5,
    edim_p: Annotated[float, typer.Option(help="Exponent of edim.")] = 1.0,
    json_out: JsonOut = None,
):
    """erank (Roy-Vetterli), perank(p) and edim(p) (the last two reconstructed, see docs)."""
    import time

    from rich.console import Console
    from rich.table import Table

    from wordgames.results import write_json_atomic
    from wordgames.similarity.global_metrics import GlobalMetrics

    cfg = GlobalMetrics(perank_p=perank_p, edim_p=edim_p, center=center, rownorm=rownorm, top_n=top_n)
    embs = _load_all(embedding or ["glove-6b-50d"])
    names = cfg.metric_names()
    table = Table("embedding", "rows", "dim", *names, "seconds",
                  title=f"global metrics (center={center}, rownorm={rownorm}); "
                  "perank and edim are reconstructed definitions")
    out = {}
    for emb in embs:
        t = time.perf_counter()
        vals = cfg.compute(emb)
        secs = time.perf_counter() - t
        rows = len(cfg.matrix(emb))
        table.add_row(emb.name, f"{rows:,}", str(emb.dim), *(_fmt(vals[n]) for n in names), f"{secs:.3f}")
        out[emb.name] = {**vals, "n_rows": rows}
    Console().print(table)
    if json_out:
        write_json_atomic(json_out, {"parameters": cfg.get_params(), "metrics": out})


@app.command()
def correlate(
    embedding: Embeddings = None,
    family: Annotated[bool, typer.Option("--family", help="Add the built-in offline family.")] = False,
    table: Annotated[Path | None, typer.Option(
        "--table", help="Correlate an existing CSV (first column: embedding; one column per metric) "
        "instead of measuring.")] = None,
    reference: Annotated[str, typer.Option(help="Metric correlated with every other one.")] = "wales/score",
    measure: Annotated[list[str] | None, typer.Option(
        "-m", "--measure", help="Measures to run (default: wales, global-metrics, similarity).")] = None,
    out: Annotated[Path, typer.Option("--out", "-o", help="Output folder.")] = Path("wordgames-correlation"),
    seed: Annotated[int, typer.Option(help="Seed of every random choice.")] = 0,
    quick: Annotated[bool, typer.Option(help="Smaller settings for a smoke run.")] = False,
    oov: Annotated[str, typer.Option(
        help="OOV pairs of the similarity benchmarks: 'skip' or 'fixed' (cosine 0).")] = "skip",
    global_top_n: Annotated[int | None, typer.Option(
        help="Compute the global metrics on each embedding's N most frequent words only "
        "(the same rows for embeddings that share a vocabulary order).")] = None,
    data_root: DataRoot = None,
):
    """Spearman rank correlation across embeddings between WALES and every other metric."""
    from rich.console import Console
    from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn
    from rich.table import Table

    from wordgames.cli import fail
    from wordgames.errors import WordgamesError
    from wordgames.results import write_json_atomic
    from wordgames.similarity.correlation import DEFAULT_MEASURES, correlation_study
    from wordgames.similarity.correlation import correlate as run_corr
    from wordgames.suite import SuiteContext

    console = Console()
    out.mkdir(parents=True, exist_ok=True)
    try:
        if table is not None:
            import pandas as pd

            try:
                df = pd.read_csv(table, index_col=0)
            except (OSError, ValueError) as exc:
                fail(f"{table}: cannot read the score table ({exc})")
            result = run_corr(df.apply(pd.to_numeric, errors="coerce"), reference)
            from wordgames.similarity.correlation import plot_correlation

            plot_dir = out / "plots" / "correlation"
            plot_dir.mkdir(parents=True, exist_ok=True)
            plots = [str(p) for p in plot_correlation(result, plot_dir)]
            payload = {"correlation": result.as_dict(), "plots": plots}
        else:
            from wordgames.embeddings.family import FAMILY_NAMES

            specs = list(embedding or [])
            if family:
                specs += [n for n in FAMILY_NAMES if n not in specs]
            if not specs:
                fail("give embeddings with -e (at least 3) or use --family")
            embs = _load_all(specs)
            if oov not in ("skip", "fixed"):
                fail(f"--oov must be 'skip' or 'fixed', got {oov!r}")
            ctx = SuiteContext(out_dir=out, data_root=data_root, seed=seed, quick=quick,
                               options={"similarity": {"oov": oov, "oov_similarity": 0.0},
                                        "global-metrics": {"top_n": global_top_n}},
                               log=console.print)
            with Progress(SpinnerColumn(), TextColumn("{task.description}"), TimeElapsedColumn(),
                          console=console, transient=True) as progress:
                task = progress.add_task("measuring", total=None)
                study = correlation_study(
                    embs, ctx, measures=tuple(measure or DEFAULT_MEASURES), reference=reference,
                    on_progress=lambda msg: progress.update(task, description=msg))
            result, plots = study.correlation, study.plots
            payload = study.as_dict()
            study.table.to_csv(out / "scores.csv")
            for s in study.skipped:
                console.print(f"[yellow]skipped[/] {s['embedding']} / {s['measure']}: {s['reason']}")
    except WordgamesError as exc:
        fail(str(exc))
    write_json_atomic(out / "correlation.json", payload)
    t = Table("metric", "spearman rho", "p", "n embeddings",
              title=f"Spearman rank correlation with {reference} across {result.n_embeddings} embeddings")
    for row in result.with_reference.to_dict(orient="records"):
        t.add_row(row["metric"], _fmt(row["spearman"]), _fmt(row["p_value"]), str(row["n_embeddings"]))
    console.print(t)
    console.print(f"wrote {out / 'correlation.json'}" + "".join(f", {p}" for p in plots))


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

    from wordgames.cli import fail
    from wordgames.errors import WordgamesError
    from wordgames.similarity.benchmarks import BENCHMARKS, load_benchmarks

    try:
        benches = load_benchmarks(None, data_root)
    except WordgamesError as exc:
        fail(str(exc))
    t = Table("name", "file", "pairs", "repairs", "notes")
    for n, b in benches.items():
        t.add_row(n, BENCHMARKS[n], str(len(b)), ", ".join(f"{k}={v}" for k, v in b.repairs.items()),
                  "; ".join(b.notes))
    Console().print(t)
