"""`wordgames wales` commands. Heavy imports stay inside the command bodies."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from wordgames.cli.common import DataRoot, JsonOut, Quick, StoreOut

app = typer.Typer(
    help="WALES: greedy agents navigating a Wikipedia link graph.", no_args_is_help=True
)

GraphOpt = Annotated[
    str,
    typer.Option(
        "--graph",
        help="'wikispeedia' (largest SCC of the shared data set), an edge list "
        "(.tsv/.txt, SNAP style or names) or the WALES authors' networkx pickle (.p).",
    ),
]
NamesOpt = Annotated[
    Path | None,
    typer.Option(
        "--names",
        help="Name table 'node_id<TAB>name' for an edge list of ids or a pickle (nodes.tsv).",
    ),
]
PairsOpt = Annotated[
    Path | None,
    typer.Option("--challenges", help="Human-played pairs 'start<TAB>target' on a custom graph."),
]


def _setup(graph: str, names: Path | None, challenges: Path | None, data_root: Path | None):
    from wordgames.wales.report import load_setup

    return load_setup(
        graph,
        names=None if names is None else str(names),
        challenges=None if challenges is None else str(challenges),
        data_root=data_root,
    )


def _load_embedding(spec: str):
    from wordgames.embeddings import load_embeddings

    return load_embeddings([spec])[0]


def evaluate_options(
    *,
    graph: str,
    names: Path | None,
    challenges: Path | None,
    require_scc: bool,
    k: int | None,
    human_k: int | None,
    gamma: list[float] | None,
    exponent: list[float] | None,
    percent: list[float] | None,
    max_steps: int | None,
    trials: int | None,
    table1_pool: int | None,
    w_path_pairs: int | None,
    table1_method: str | None = None,
) -> dict:
    """The measure's options, from the ``evaluate`` command's options.

    A dict of :class:`~wordgames.wales.spec.WalesOptions` fields; options not given keep the
    measure's defaults (and take the quick values under ``--quick``).
    """
    given = {
        "k": k,
        "human_k": human_k,
        "gammas": gamma,
        "exponents": exponent,
        "percents": percent,
        "max_steps": max_steps,
        "table1_trials": trials,
        "table1_pool": table1_pool,
        "table1_method": table1_method,
        "w_path_pairs": w_path_pairs,
        "names": None if names is None else str(names),
        "challenges": None if challenges is None else str(challenges),
    }
    options = {key: value for key, value in given.items() if value is not None}
    options.update(graph=graph, require_scc=require_scc)
    return options


def _num(v, fmt: str = ".4f") -> str:
    """A number in the column's one format; ``n/a`` when missing."""
    import math

    return "n/a" if v is None or not math.isfinite(v) else format(v, fmt)


def _ci(lo, hi) -> str:
    """An interval ``[lo, hi]`` in the score's format; ``n/a`` when there is none."""
    import math

    if lo is None or hi is None or not (math.isfinite(lo) and math.isfinite(hi)):
        return "n/a"
    return f"[{lo:.4f}, {hi:.4f}]"


def print_tables(con, tables: dict, thin: dict | None = None) -> None:
    """The distributions, the gamma sweep, Table 1 and (several embeddings) the rankings.

    ``thin``: ``{(embedding, task set): reason}`` of the greedy scores too thin to rank (left
    out of the rankings, listed apart). No name is cut at any terminal width
    (:func:`wordgames.cli.tables.print_table`).
    """
    from wordgames.cli.tables import Col, print_table
    from wordgames.textio import literal

    right = "right"
    rows = [
        [
            literal(r["embedding"]),
            literal(r["task_set"]),
            _num(r["score"]),
            _ci(r["ci_low"], r["ci_high"]),
            _num(r["failure_rate"], ".1%"),
            f"{r['n_scored']:,} of {r['n_tasks']:,}",
        ]
        for r in tables["distributions"]
        if r["convention"] == "edges"
    ]
    cols = [
        "embedding",
        "task set",
        Col("score (edges)", right),
        Col("95% CI", right),
        Col("failed", right),
        Col("tasks scored", right),
    ]
    print_table(con, cols, rows, title="WALES per task set (greedy agent, gamma = 1)", keys=2)
    sweep = [
        [
            literal(r["embedding"]),
            _num(r["gamma"], "g"),
            _num(r["score"]),
            _ci(r["ci_low"], r["ci_high"]),
            _num(r["failure_rate"], ".1%"),
        ]
        for r in tables["gamma_sweep"]
    ]
    cols = [
        "embedding",
        Col("gamma", right),
        Col("score", right),
        Col("95% CI", right),
        Col("failed", right),
    ]
    print_table(con, cols, sweep, title="gamma sweep (power law a = 16)", keys=2)
    _print_table1(con, tables["table1"])
    by_emb = {r["embedding"] for r in tables["distributions"]}
    if len(by_emb) > 1:
        _print_rankings(con, tables["rankings"], thin or {})


def _print_rankings(con, rankings: list[dict], thin: dict) -> None:
    """The embeddings per task set, best first; thin scores are listed apart, never ranked."""
    from wordgames.cli.tables import Col, print_table
    from wordgames.textio import literal

    order: dict[str, list] = {}
    apart: dict[str, list] = {}
    for r in rankings:
        key = (r["embedding"], r["task_set"])
        (apart if key in thin else order).setdefault(r["task_set"], []).append(r["embedding"])
    rows = [
        [
            literal(ts),
            literal(" > ".join(order.get(ts, [])) or "none"),
            literal(", ".join(apart.get(ts, []))),
        ]
        for ts in dict.fromkeys([*order, *apart])
    ]
    cols = ["task set", "ranking (best first)", Col("thin, not ranked", wrap=True)]
    if not apart:
        cols, rows = cols[:2], [r[:2] for r in rows]
    print_table(con, cols, rows)


def _print_table1(con, rows: list[dict]) -> None:
    """Table 1: mean / Student-t half-width per k, one row per embedding."""
    from wordgames.cli.tables import Col, print_table
    from wordgames.textio import literal

    by_emb: dict[str, dict[int, str]] = {}
    method = {r.get("method", "bootstrap") for r in rows}
    how = {
        "fresh": "fresh task sets per trial",
        "bootstrap": "bootstrap from one task pool",
    }
    for r in rows:
        by_emb.setdefault(r["embedding"], {})[r["k"]] = f"{r['mean']:.3f} / {r['ci']:.3f}"
    ks = list(dict.fromkeys(r["k"] for r in rows))
    print_table(
        con,
        ["embedding", *(Col(f"k={k}", "right") for k in ks)],
        [[literal(e), *(cells.get(k, "n/a") for k in ks)] for e, cells in by_emb.items()],
        title="Table 1 layout: mean / Student-t 95% CI half-width over trials (uniform tasks; "
        + ", ".join(how.get(m, m) for m in sorted(method))
        + ")",
    )


def write_report(out: Path, res, tables: dict) -> list[Path]:
    """Write ``wales_report.json`` and Figures 4-5 beside the results store in ``out``.

    The JSON holds every embedding's tables, rankings and coverage; the figures have one line per
    embedding.
    """
    from wordgames.results import write_json_atomic
    from wordgames.wales.report import plot_figure4, plot_figure5

    results = [r for r in res.results if r.measure == "wales"]
    plots = [
        plot_figure4(tables["distributions"], out / "wales_figure4.png"),
        plot_figure5(tables["gamma_sweep"], out / "wales_figure5.png"),
    ]
    notes = list(dict.fromkeys(n for r in results for n in r.notes))
    path = write_json_atomic(
        out / "wales_report.json",
        {
            "setup": results[0].parameters.get("graph", {}) if results else {},
            "notes": notes,
            "tables": tables,
            "coverage": {r.subject: r.oov for r in results},
            "plots": [str(p) for p in plots],
        },
    )
    return [path, *plots]


def print_wales_tables(con, res) -> dict:
    """The notes, then the task-distribution, Table 1, w-path and gamma tables of every subject.

    The ``wales`` printer of ``wordgames run --tables`` (:mod:`wordgames.cli.family_tables`);
    returns the merged tables (what ``wales evaluate`` also writes).
    """
    from wordgames.textio import literal
    from wordgames.wales.report import merge_tables

    notes = dict.fromkeys(n for r in res.results for n in r.notes)
    for note in notes:
        con.print(f"[yellow]note:[/] {literal(note)}", highlight=False)
    tables = merge_tables([r for r in res.results if r.measure == "wales"])
    thin = {
        (sc.subject, sc.dataset): sc.thin_reason
        for sc in res.scores
        if sc.measure == "wales" and sc.agent == "greedy" and sc.metric == "score" and sc.thin
    }
    print_tables(con, tables, thin)
    return tables


@app.command()
def evaluate(
    embedding: Annotated[
        list[str] | None,
        typer.Option("-e", "--embedding", help="Built-in name or vector file (repeatable)."),
    ] = None,
    graph: GraphOpt = "wikispeedia",
    names: NamesOpt = None,
    challenges: PairsOpt = None,
    k: Annotated[int | None, typer.Option(help="Tasks per distribution (default 1000).")] = None,
    human_k: Annotated[
        int | None, typer.Option(help="Use only the first N human-played pairs (default: all).")
    ] = None,
    gamma: Annotated[
        list[float] | None,
        typer.Option(
            "--gamma", help="Gammas of the sweep (repeatable; default 0, 0.1, 0.3, 0.5, 1)."
        ),
    ] = None,
    exponent: Annotated[
        list[float] | None,
        typer.Option(
            "--exponent",
            help="Power-law exponents a of the task distributions (repeatable; default 1, 2, 4, 8, 16, 32).",
        ),
    ] = None,
    percent: Annotated[
        list[float] | None,
        typer.Option(
            "--percent",
            help="Top-b% task distributions (repeatable; default 1, 5, 10, 25, 50, 100).",
        ),
    ] = None,
    max_steps: Annotated[
        int | None,
        typer.Option(help="Step cap: a task not solved in this many links scores 0 (default 100)."),
    ] = None,
    trials: Annotated[
        int | None, typer.Option(help="Trials per k in Table 1 (default 50).")
    ] = None,
    table1_pool: Annotated[
        int | None,
        typer.Option(help="Uniform tasks in the Table 1 pool (bootstrap only; default 5000)."),
    ] = None,
    table1_method: Annotated[
        str | None,
        typer.Option(
            help="Table 1: 'fresh' (new task sets per trial, as the paper; default) or "
            "'bootstrap' (resample one pool)."
        ),
    ] = None,
    real: Annotated[
        bool,
        typer.Option("--real", help="Add every real embedding of 'wordgames embeddings list'."),
    ] = False,
    w_path_pairs: Annotated[
        int | None, typer.Option(help="Node pairs of the w-path baseline (default 1000).")
    ] = None,
    seed: Annotated[int, typer.Option(help="Seed of every random choice.")] = 0,
    quick: Quick = False,
    require_scc: Annotated[
        bool,
        typer.Option(
            help="Fail if the graph is not strongly connected (default: use its largest SCC)."
        ),
    ] = False,
    out: StoreOut = None,
    json_out: JsonOut = None,
    data_root: DataRoot = None,
):
    """Score embeddings with WALES on every task distribution and sweep gamma.

    With -o, writes the results store, Figures 4-5 (PNG) and wales_report.json (every table).

    Computed by the 'wales' measure of 'wordgames run' (the same numbers for the same
    options); stored results in OUT are reused.
    """
    from wordgames.cli.common import (
        console,
        fail,
        json_to_stdout,
        run_evaluation,
        write_json_output,
    )
    from wordgames.textio import literal

    options = evaluate_options(
        graph=graph,
        names=names,
        challenges=challenges,
        require_scc=require_scc,
        k=k,
        human_k=human_k,
        gamma=gamma,
        exponent=exponent,
        percent=percent,
        max_steps=max_steps,
        trials=trials,
        table1_pool=table1_pool,
        w_path_pairs=w_path_pairs,
        table1_method=table1_method,
    )
    con = console(stderr=json_to_stdout(json_out))
    from wordgames.cli.common import resolve_specs

    res = run_evaluation(
        con,
        resolve_specs(embedding or ([] if real else ["glove-6b-50d"]), real=real),
        ["wales"],
        store=out,
        options={"wales": options},
        seed=seed,
        quick=quick,
        data_root=data_root,
    )
    if res.failed:
        fail(res.failed[0].reason)
    for s in res.skipped:
        con.print(f"[yellow]skipped[/] {literal(s.subject)}: {literal(s.reason)}", highlight=False)
    if not res.results:
        raise typer.Exit(2)
    tables = print_wales_tables(con, res)
    if json_out is not None:
        write_json_output(json_out, res, **tables)
    if out is None:
        return
    written = write_report(out, res, tables)
    con.print(
        f"wrote {literal(str(out))} (results store) and "
        + ", ".join(literal(str(p)) for p in written),
        highlight=False,
        soft_wrap=True,
    )


@app.command()
def navigate(
    source: Annotated[str, typer.Argument(help="Start article (node name).")],
    target: Annotated[str, typer.Argument(help="Target article (node name).")],
    embedding: Annotated[
        str, typer.Option("-e", "--embedding", help="Built-in name or vector file.")
    ] = "glove-6b-50d",
    gamma: Annotated[float, typer.Option(help="Decision parameter in [0, 1].")] = 1.0,
    max_steps: Annotated[
        int, typer.Option(help="Step cap: the agent gives up after this many links.")
    ] = 100,
    graph: GraphOpt = "wikispeedia",
    names: NamesOpt = None,
    data_root: DataRoot = None,
):
    """Show the path the agent takes from SOURCE to TARGET, with each page's cosine to the target.

    An inspection of one walk: scores come from `wales evaluate` (the store and the report).
    """
    from wordgames.cli.common import fail
    from wordgames.errors import WordgamesError
    from wordgames.wales.agent import GreedyAgent
    from wordgames.wales.titles import title_vectors

    try:
        setup = _setup(graph, names, None, data_root)
        g = setup.graph
        s, t = g.node_id(source), g.node_id(target)
        emb = _load_embedding(embedding)
        vectors = title_vectors(g.names, emb)
        if vectors.rows[t] < 0:
            fail(
                f"target {target!r} has no vector in {emb.name} (title rule: {vectors.report['rule']})"
            )
        nav = GreedyAgent(gamma=gamma, max_steps=max_steps).navigate(
            g, vectors, s, t, record_path=True
        )
    except (WordgamesError, ValueError) as exc:
        fail(str(exc))
    sims = vectors.similarity(nav.path, t)
    for node, sim in zip(nav.path, sims, strict=True):
        vec = "" if vectors.rows[node] >= 0 else "  (no vector)"
        typer.echo(f"{sim:+.3f}  {g.names[node]}{vec}")
    m = g.distance(s, t)
    status = "reached" if nav.success else f"failed ({nav.reason})"
    typer.echo(f"{status} in {nav.n_steps} links; shortest path {m} links")


@app.command()
def baselines(
    embedding: Annotated[
        str | None,
        typer.Option("-e", "--embedding", help="Also compute w-path for this embedding."),
    ] = None,
    pairs: Annotated[
        int | None, typer.Option(help="Node pairs for w-path (with -e; default 1000).")
    ] = None,
    seed: Annotated[
        int | None, typer.Option(help="Seed of the w-path pairs (with -e; default 0).")
    ] = None,
    data_root: DataRoot = None,
    out: StoreOut = None,
    json_out: JsonOut = None,
):
    """Human baselines (The Wiki Game results of the WALES authors; Wikispeedia games) and w-path.

    The numbers come from wordgames.evaluate (measure "wales-baselines").
    """
    from wordgames.cli.common import (
        console,
        end_command,
        fail,
        json_to_stdout,
        run_evaluation,
    )

    if embedding is None:
        given = [flag for flag, v in (("--pairs", pairs), ("--seed", seed)) if v is not None]
        if given:
            fail(f"{' and '.join(given)} apply only to w-path: give an embedding with -e")
    options = {"w_path": embedding is not None, "pairs": 1000 if pairs is None else pairs}
    con = console(stderr=json_to_stdout(json_out))
    res = run_evaluation(
        con, [embedding] if embedding else None, ["wales-baselines"], store=out,
        options={"wales-baselines": options}, data_root=data_root, seed=seed or 0,
    )  # fmt: skip
    by = {(s.agent, s.metric): s for s in res.scores}
    for conv in ("nodes", "edges"):
        row = {k: by.get((f"people:{conv}", f"human_{k}")) for k in ("best", "average", "median")}
        if all(row.values()):
            con.print(
                f"The Wiki Game, {row['best'].n} challenges, lengths in {conv}: "
                + "  ".join(f"{k} {s.value:.4f} {_ci(s.ci_low, s.ci_high)}" for k, s in row.items()),
                markup=False, highlight=False, soft_wrap=True,
            )  # fmt: skip
    for r in res.results:
        for note in r.notes:
            con.print(note, markup=False, highlight=False, soft_wrap=True)
    wp = next((s for s in res.scores if s.metric == "w_path"), None)
    if wp is not None:
        con.print(
            f"w-path ({wp.subject}, {wp.n} pairs): Spearman {wp.value:.4f} "
            f"(95% CI {_ci(wp.ci_low, wp.ci_high)})",
            markup=False, highlight=False, soft_wrap=True,
        )  # fmt: skip
    end_command(con, res, json_out)


@app.command()
def agents(
    embedding: Annotated[
        list[str] | None,
        typer.Option("-e", "--embedding", help="Built-in name or vector file (repeatable)."),
    ] = None,
    real: Annotated[
        bool,
        typer.Option("--real", help="Add every real embedding of 'wordgames embeddings list'."),
    ] = False,
    k: Annotated[int, typer.Option(help="Tasks per sampled distribution.")] = 1000,
    exponent: Annotated[
        list[float] | None,
        typer.Option("--exponent", help="Power-law task sets (repeatable; default 1, 32)."),
    ] = None,
    max_steps: Annotated[int, typer.Option(help="Step cap of both agents.")] = 100,
    seed: Annotated[int, typer.Option(help="Seed of the tasks and the stochastic agent.")] = 0,
    quick: Quick = False,
    data_root: DataRoot = None,
    out: StoreOut = None,
    json_out: JsonOut = None,
):
    """Greedy (gamma = 1) beside the stochastic P_q agent of the paper's section 3.1.

    On the human-played Wikispeedia pairs and power-law task sets; scores in edges with their
    95% bootstrap intervals. The numbers come from wordgames.evaluate (measure "wales-agents").
    """
    from wordgames.cli.common import (
        console,
        end_command,
        json_to_stdout,
        resolve_specs,
        run_evaluation,
    )
    from wordgames.cli.tables import Col, print_table
    from wordgames.textio import literal

    specs = resolve_specs(embedding or ([] if real else ["glove-6b-50d"]), real=real)
    options = {"k": k, "exponents": list(exponent or [1.0, 32.0]), "max_steps": max_steps}
    con = console(stderr=json_to_stdout(json_out))
    res = run_evaluation(
        con, specs, ["wales-agents"], store=out, options={"wales-agents": options},
        data_root=data_root, seed=seed, quick=quick,
    )  # fmt: skip
    cell = {(s.subject, s.dataset, s.agent, s.metric): s for s in res.scores}
    cells = [
        [
            literal(s.subject),
            literal(s.dataset),
            s.agent,
            _num(s.value),
            _ci(s.ci_low, s.ci_high),
            _num(cell[(s.subject, s.dataset, s.agent, "failure_rate")].value, ".1%"),
        ]  # fmt: skip
        for s in res.scores
        if s.metric == "score"
    ]
    cols = [
        "embedding",
        "task set",
        "agent",
        Col("score (edges)", "right"),
        Col("95% CI", "right"),
        Col("failed", "right"),
    ]
    print_table(con, cols, cells, title="greedy vs stochastic (P_q) agent", keys=2)
    end_command(con, res, json_out)


@app.command("power-law")
def power_law(
    a: Annotated[float, typer.Option("--a", help="The exponent to test against.")] = 32.0,
    embedding: Annotated[
        str | None,
        typer.Option(
            "-e",
            "--embedding",
            help="Also score the greedy agent on each sample and on power laws of the fitted "
            "exponent and of A (1000 tasks each).",
        ),
    ] = None,
    data_root: DataRoot = None,
    out: StoreOut = None,
    json_out: JsonOut = None,
):
    """Do human-played tasks follow the power law with exponent A on our graph? (supplement).

    Fits the exponent to the in-degree positions of the task ends (maximum likelihood) and
    tests the fit and A with Kolmogorov-Smirnov: The Wiki Game's challenges that are pages of
    the Wikispeedia LSCC, and the Wikispeedia human-played pairs. The numbers come from
    wordgames.evaluate (measure "wales-power-law").
    """
    from wordgames.cli.common import (
        console,
        end_command,
        json_to_stdout,
        run_evaluation,
    )
    from wordgames.cli.tables import Col, print_table

    con = console(stderr=json_to_stdout(json_out))
    res = run_evaluation(
        con, [embedding] if embedding else None, ["wales-power-law"], store=out,
        options={"wales-power-law": {"a": a, "greedy": embedding is not None}},
        data_root=data_root,
    )  # fmt: skip
    for r in res.results:
        for note in r.notes:
            con.print(note, markup=False, highlight=False, soft_wrap=True)
    cell = {(s.dataset, s.agent, s.metric): s for s in res.scores}
    cells = []
    for s in res.scores:
        if s.metric != "a_mle":
            continue
        row = {m: cell[(s.dataset, s.agent, m)].value for m in _POWER_LAW_METRICS}
        cells.append(
            [
                s.dataset, s.agent.removeprefix("people:"), str(s.n),
                f"{s.value:.2f} {_ci(s.ci_low, s.ci_high)}",
                f"{row['ks_fit']:.3f} (p {row['ks_fit_p']:.2g})",
                f"{row['ks_claim']:.3f} (p {row['ks_claim_p']:.2g})",
                f"{row['median_position']:.3f}",
            ]
        )  # fmt: skip
    cols = [
        "sample",
        "ends",
        Col("n", "right"),
        Col("a (MLE, 95% CI)", "right"),
        Col("KS vs fit", "right"),
        Col(f"KS vs a = {a:g}", "right"),
        Col("median position", "right"),
    ]
    print_table(con, cols, cells, title="task ends against the power law", keys=2)
    scored = [s for s in res.scores if s.agent == "greedy" and s.metric == "score"]
    if scored:
        cells = [[s.dataset, _num(s.value), _ci(s.ci_low, s.ci_high), str(s.n)] for s in scored]
        cols = [
            "task set",
            Col("score (edges)", "right"),
            Col("95% CI", "right"),
            Col("n", "right"),
        ]
        print_table(con, cols, cells, title=f"greedy agent (gamma = 1), {embedding}")
    end_command(con, res, json_out)


_POWER_LAW_METRICS = ("ks_fit", "ks_fit_p", "ks_claim", "ks_claim_p", "median_position")
