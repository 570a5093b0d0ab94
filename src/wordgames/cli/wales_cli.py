"""`wordgames wales` commands. Heavy imports stay inside the command bodies."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

app = typer.Typer(help="WALES: greedy agents navigating a Wikipedia link graph.", no_args_is_help=True)

GraphOpt = Annotated[str, typer.Option(
    "--graph", help="'wikispeedia' (largest SCC of the shared data set), an edge list "
                    "(.tsv/.txt, SNAP style or names) or the WALES authors' networkx pickle (.p).")]
NamesOpt = Annotated[Path | None, typer.Option(
    "--names", help="Name table 'node_id<TAB>name' for an edge list of ids or a pickle (nodes.tsv).")]
PairsOpt = Annotated[Path | None, typer.Option(
    "--challenges", help="Human-played pairs 'start<TAB>target' on a custom graph.")]
DataRoot = Annotated[Path | None, typer.Option("--data-root", help="Data folder (default: $WORDGAMES_DATA).")]


def _setup(graph: str, names: Path | None, challenges: Path | None, data_root: Path | None,
           require_scc: bool = False):
    from wordgames.wales.loaders import (
        read_challenges,
        read_edge_list,
        read_name_table,
        read_networkx_pickle,
    )
    from wordgames.wales.report import WalesSetup, wikispeedia_setup
    from wordgames.wales.tasks import pair_tasks

    if graph == "wikispeedia":
        return wikispeedia_setup(data_root)
    path = Path(graph)
    if path.suffix in (".p", ".pkl", ".pickle", ".gpickle"):
        mapping = None
        if names is not None:
            ids, labels = read_name_table(names)
            mapping = dict(zip(ids.tolist(), labels.tolist(), strict=True))
        g = read_networkx_pickle(path, names=mapping)
    else:
        g, _ = read_edge_list(path, names_path=names)
    notes = []
    if require_scc:
        g.require_strongly_connected(path)
    elif not g.is_strongly_connected():
        full = g.n_nodes
        g, _ = g.largest_scc()
        notes.append(f"{path}: not strongly connected; using its largest SCC "
                     f"({g.n_nodes} of {full} nodes)")
    human = None
    if challenges is not None:
        pairs = read_challenges(challenges)
        human = pair_tasks(g, pairs, "human", path=challenges)
    return WalesSetup(g, human, {}, notes, {"graph": str(path), "n_nodes": g.n_nodes,
                                            "n_edges": g.n_edges})


def _load_embeddings(specs: list[str]):
    from wordgames.embeddings import load_embedding

    return [load_embedding(s) for s in specs]


@app.command()
def evaluate(
    embedding: Annotated[list[str] | None, typer.Option("-e", "--embedding", help="Built-in name or vector file (repeatable).")] = None,
    graph: GraphOpt = "wikispeedia",
    names: NamesOpt = None,
    challenges: PairsOpt = None,
    k: Annotated[int, typer.Option(help="Tasks per distribution.")] = 1000,
    gamma: Annotated[list[float] | None, typer.Option("--gamma", help="Gammas of the sweep (repeatable).")] = None,
    max_steps: Annotated[int, typer.Option(help="Step cap: a task not solved in this many links scores 0.")] = 100,
    trials: Annotated[int, typer.Option(help="Trials per k in Table 1.")] = 50,
    seed: Annotated[int, typer.Option(help="Seed of every random choice.")] = 0,
    require_scc: Annotated[bool, typer.Option(help="Fail if the graph is not strongly connected (default: use its largest SCC).")] = False,
    out: Annotated[Path, typer.Option("--out", "-o", help="Output folder.")] = Path("wales-results"),
    data_root: DataRoot = None,
):
    """Score embeddings with WALES on every task distribution, sweep gamma, write Table 1 and
    Figures 4-5 (PNG) and a JSON of every table."""
    from rich.console import Console
    from rich.table import Table

    from wordgames.cli import fail
    from wordgames.errors import WordgamesError
    from wordgames.results import write_json_atomic
    from wordgames.wales.report import DEFAULT_GAMMAS, wales_report

    console = Console()
    try:
        setup = _setup(graph, names, challenges, data_root, require_scc)
        embs = _load_embeddings(embedding or ["glove-6b-50d"])
        with console.status("navigating ..."):
            rep = wales_report(setup, embs, out, k=k, seed=seed, max_steps=max_steps,
                               gammas=tuple(gamma) if gamma else DEFAULT_GAMMAS,
                               table1_trials=trials, log=lambda s: console.log(s))
    except (WordgamesError, ValueError) as exc:
        fail(str(exc))
    for note in setup.notes:
        console.print(f"[yellow]note:[/] {note}")
    table = Table("embedding", "task set", "score (edges)", "95% CI ±", "failed", "excluded (no vector)")
    for r in rep["tables"]["distributions"]:
        if r["convention"] == "edges":
            table.add_row(r["embedding"], r["task_set"], f"{r['score']:.4f}", f"{r['ci_half_width']:.4f}",
                          str(r["n_failed"]), str(r["n_excluded_target_no_vector"]))
    console.print(table)
    sweep = Table("embedding", "gamma", "score", "95% CI ±")
    for r in rep["tables"]["gamma_sweep"]:
        sweep.add_row(r["embedding"], f"{r['gamma']:g}", f"{r['score']:.4f}", f"{r['ci_half_width']:.4f}")
    console.print(sweep)
    t1 = Table("embedding", *[f"k={r['k']}" for r in rep["tables"]["table1"][:5]],
               title="Table 1 layout: mean / 95% CI half-width over trials (uniform tasks)")
    by_emb: dict[str, list[str]] = {}
    for r in rep["tables"]["table1"]:
        by_emb.setdefault(r["embedding"], []).append(f"{r['mean']:.3f} / {r['ci']:.3f}")
    for emb_name, cells in by_emb.items():
        t1.add_row(emb_name, *cells)
    console.print(t1)
    if len(by_emb) > 1:
        ranks = Table("task set", "ranking (best first)")
        order: dict[str, list] = {}
        for r in rep["tables"]["rankings"]:
            order.setdefault(r["task_set"], []).append(r["embedding"])
        for ts, embs_ in order.items():
            ranks.add_row(ts, " > ".join(embs_))
        console.print(ranks)
    path = write_json_atomic(Path(out) / "wales_report.json",
                             {"setup": setup.info, "notes": setup.notes, **rep})
    console.print(f"wrote {path} and {', '.join(rep['plots'])}")


@app.command()
def navigate(
    source: Annotated[str, typer.Argument(help="Start article (node name).")],
    target: Annotated[str, typer.Argument(help="Target article (node name).")],
    embedding: Annotated[str, typer.Option("-e", "--embedding")] = "glove-6b-50d",
    gamma: Annotated[float, typer.Option(help="Decision parameter in [0, 1].")] = 1.0,
    max_steps: Annotated[int, typer.Option()] = 100,
    graph: GraphOpt = "wikispeedia",
    names: NamesOpt = None,
    data_root: DataRoot = None,
):
    """Show the path the agent takes from SOURCE to TARGET, with each page's cosine to the target."""
    from wordgames.cli import fail
    from wordgames.errors import WordgamesError
    from wordgames.wales.agent import GreedyAgent
    from wordgames.wales.titles import title_vectors

    try:
        setup = _setup(graph, names, None, data_root)
        g = setup.graph
        s, t = g.node_id(source), g.node_id(target)
        emb = _load_embeddings([embedding])[0]
        vectors = title_vectors(g.names, emb)
        if vectors.rows[t] < 0:
            fail(f"target {target!r} has no vector in {emb.name} (title rule: {vectors.report['rule']})")
        nav = GreedyAgent(gamma=gamma, max_steps=max_steps).navigate(g, vectors, s, t, record_path=True)
    except (WordgamesError, ValueError) as exc:
        fail(str(exc))
    sims = vectors.similarity(nav.path, t)
    for node, sim in zip(nav.path, sims, strict=True):
        vec = "" if vectors.rows[node] >= 0 else "  (no vector)"
        typer.echo(f"{sim:+.3f}  {g.names[node]}{vec}")
    m = g.distance(s, t)
    status = "reached" if nav.success else f"failed ({nav.reason})"
    score = m / nav.n_steps if nav.success else 0.0
    typer.echo(f"{status} in {nav.n_steps} links; shortest path {m}; task score m/n = {score:.3f}")


@app.command()
def baselines(
    embedding: Annotated[str | None, typer.Option("-e", "--embedding", help="Also compute w-path for this embedding.")] = None,
    pairs: Annotated[int, typer.Option(help="Node pairs for w-path.")] = 1000,
    seed: Annotated[int, typer.Option()] = 0,
    data_root: DataRoot = None,
):
    """Human baselines (The Wiki Game results of the WALES authors; Wikispeedia games) and w-path."""
    from wordgames.cli import fail
    from wordgames.datasets import dataset_file, is_available
    from wordgames.errors import WordgamesError
    from wordgames.wales.baselines import human_baseline, human_success_rate, w_path_baseline
    from wordgames.wales.loaders import read_human_results, read_wikispeedia_paths

    try:
        if is_available("wales", data_root):
            df = read_human_results(dataset_file("wales", "human_results_wales.tsv", data_root))
            for conv in ("nodes", "edges"):
                hb = human_baseline(df, conv)
                typer.echo(f"The Wiki Game, {hb['n_tasks']} challenges, lengths in {conv}: best "
                           f"{hb['best']:.4f}  average {hb['average']:.4f}  median {hb['median']:.4f}")
        else:
            typer.echo("The Wiki Game results: data set 'wales' not available")
        if is_available("wikispeedia", data_root):
            from wordgames.wales.report import wikispeedia_setup

            setup = wikispeedia_setup(data_root)
            unf = read_wikispeedia_paths(dataset_file("wikispeedia", "paths_unfinished.tsv", data_root))
            sr = human_success_rate(unf, None, setup.graph)
            typer.echo(f"Wikispeedia: {sr['n_unfinished']} unfinished games ({sr['n_unfinished_timeout']} "
                       f"timeout, {sr['n_unfinished_restart']} restart; {sr['n_unfinished_target_not_in_graph']} "
                       f"with a target outside the LSCC); success rate: {sr['note']}")
            if embedding:
                from wordgames.wales.titles import title_vectors

                emb = _load_embeddings([embedding])[0]
                wp = w_path_baseline(setup.graph, title_vectors(setup.graph.names, emb), pairs, seed)
                typer.echo(f"w-path ({emb.name}, {wp['n_pairs']} pairs): Spearman {wp['w_path']:.4f} "
                           f"(p = {wp['p_value']:.2g})")
    except WordgamesError as exc:
        fail(str(exc))
