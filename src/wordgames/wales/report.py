"""The WALES report: every task distribution, the gamma sweep, Table 1 and the baselines.

Reproduces the layout of the paper's Table 1 (mean and 95% CI half-width against the
number of tasks k), Figure 4 (scores per task distribution, one line per embedding) and
Figure 5 (scores against gamma on the power law a = 16), as tables (row dicts) and PNGs.

Every score's interval is a seeded percentile bootstrap over the tasks (inside [0, 1]); the
figures' error bars are those intervals. Table 1 keeps the paper's own statistic, the mean
Student-t half-width for k tasks, since its point is how that width shrinks with k.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from wordgames.safeio import save_figure
from wordgames.stats import mean_ci
from wordgames.wales.agent import GreedyAgent
from wordgames.wales.baselines import w_path_baseline
from wordgames.wales.evaluate import evaluate_tasks, task_scores
from wordgames.wales.graph import DiGraph
from wordgames.wales.tasks import (
    POWER_LAW_EXPONENTS,
    TOP_PERCENTS,
    TaskSet,
    default_distributions,
    pair_tasks,
    power_law_tasks,
)
from wordgames.wales.titles import title_vectors

DEFAULT_GAMMAS = (0.0, 0.1, 0.3, 0.5, 1.0)
TABLE1_KS = (10, 50, 100, 500, 1000)
SWEEP_EXPONENT = 16

log = logging.getLogger("wordgames.wales")


@dataclass
class WalesSetup:
    """A graph to navigate and the human-played tasks on it."""

    graph: DiGraph
    human: TaskSet | None
    datasets: dict = field(default_factory=dict)
    notes: list = field(default_factory=list)
    info: dict = field(default_factory=dict)


def wikispeedia_setup(root=None, *, verify: bool = True) -> WalesSetup:
    """The largest SCC of Wikispeedia and its 1000 human-played pairs.

    The SCC has 4,051 nodes and 111,900 links; the pairs are ``challenges_1000_seed0.tsv``.
    """
    from wordgames.datasets import dataset_dir, verify_dataset
    from wordgames.wales.loaders import load_wikispeedia, read_challenges

    folder = dataset_dir("wikispeedia", root)
    sums = {"wikispeedia": verify_dataset("wikispeedia", root)} if verify else {}
    ws = load_wikispeedia(folder)
    graph, _ = ws.graph.largest_scc()
    graph.name = "wikispeedia-lscc"
    path = folder / "challenges_1000_seed0.tsv"
    pairs = read_challenges(path)
    human = pair_tasks(graph, pairs, "human", path=path, lines=list(range(2, len(pairs) + 2)))
    info = {
        "graph": graph.name,
        "n_nodes": graph.n_nodes,
        "n_edges": graph.n_edges,
        "full_graph_nodes": ws.graph.n_nodes,
        "full_graph_edges": ws.graph.n_edges,
    }
    notes = [
        "WALES authors' graph (38,609-node LSCC of SNAP enwiki) is not public: the score is "
        "on the Wikispeedia LSCC; human-played pairs are Wikispeedia games "
        "(challenges_1000_seed0.tsv), not The Wiki Game challenges."
    ]
    return WalesSetup(graph, human, sums, notes, info)


def table1(
    graph: DiGraph,
    vectors,
    agent: GreedyAgent,
    *,
    ks=TABLE1_KS,
    trials: int = 50,
    pool_size: int = 5000,
    seed: int = 0,
    convention: str = "edges",
) -> list[dict]:
    """Mean and 95% CI half-width of WALES on ``k`` uniform tasks, averaged over ``trials``.

    The half-width is the paper's Student-t one (Table 1 shows how it shrinks with k); the
    scores' own intervals elsewhere are bootstrap intervals.

    To keep the cost linear in ``pool_size`` rather than ``trials * sum(ks)``, the agent runs
    once on a pool of uniform tasks and each trial draws its ``k`` tasks from the pool with
    replacement (a bootstrap of the uniform distribution); the pool size is recorded.
    """
    pool = power_law_tasks(graph, 1, pool_size, seed)
    res = evaluate_tasks(graph, vectors, pool, agent)
    scores = res.scores(convention)
    rng = np.random.default_rng(seed + 7)
    rows = []
    for k in ks:
        means, halves = [], []
        for _ in range(trials):
            ci = mean_ci(scores[rng.integers(0, scores.size, k)])
            means.append(ci["mean"])
            halves.append((ci["ci_high"] - ci["ci_low"]) / 2)
        rows.append(
            {
                "k": int(k),
                "mean": float(np.mean(means)),
                "ci": float(np.nanmean(halves)),
                "sd_of_means": float(np.std(means, ddof=1)) if trials > 1 else float("nan"),
                "trials": trials,
                "pool_size": int(scores.size),
                "n_tasks_run": int(scores.size),  # the pool: each draw resamples it
                "method": "bootstrap",
                "convention": convention,
            }
        )
    return rows


def load_setup(
    graph: str = "wikispeedia",
    *,
    names=None,
    challenges=None,
    data_root=None,
    require_scc: bool = False,
) -> WalesSetup:
    r"""The graph to navigate and its human-played tasks, from the measure's options.

    Parameters
    ----------
    graph : str
        ``"wikispeedia"`` (the largest SCC of the shared data set, with its 1000 human-played
        pairs), an edge list (``.tsv``/``.txt``, SNAP ids or names) or the WALES authors'
        networkx pickle (``.p``).
    names : path, optional
        Name table ``node_id<TAB>name`` for an edge list of ids or a pickle.
    challenges : path, optional
        Human-played pairs ``start<TAB>target`` on a custom graph.
    data_root : path, optional
        Data root (default: ``$WORDGAMES_DATA``).
    require_scc : bool
        Fail (:class:`~wordgames.wales.graph.GraphError`) when a custom graph is not strongly
        connected; by default its largest SCC is used and a note says so.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (d / "g.tsv").write_text("a\tb\nb\ta\nb\tc\n")
    >>> setup = load_setup(str(d / "g.tsv"))
    >>> setup.graph.n_nodes, setup.notes[0].endswith("(2 of 3 nodes)")
    (2, True)
    """
    from wordgames.wales.loaders import (
        read_challenges,
        read_edge_list,
        read_name_table,
        read_networkx_pickle,
    )
    from wordgames.wales.spec import check_graph_options

    check_graph_options(graph, names=names, challenges=challenges, require_scc=require_scc)
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
        notes.append(
            f"{path}: not strongly connected; using its largest SCC ({g.n_nodes} of {full} nodes)"
        )
    human = None
    if challenges is not None:
        human = pair_tasks(g, read_challenges(challenges), "human", path=challenges)
    return WalesSetup(
        g, human, {}, notes, {"graph": str(path), "n_nodes": g.n_nodes, "n_edges": g.n_edges}
    )


def evaluate_embedding(
    setup: WalesSetup,
    embedding,
    *,
    k: int = 1000,
    seed: int = 0,
    gammas: Sequence[float] = DEFAULT_GAMMAS,
    exponents=None,
    percents=None,
    table1_trials: int = 50,
    table1_pool: int = 5000,
    table1_method: str = "fresh",
    max_steps: int = 100,
    w_path_pairs: int = 1000,
    human_k: int | None = None,
    n_resamples: int = 1000,
) -> dict:
    """Everything WALES measures for one embedding.

    Returns tables (lists of row dicts), the title-coverage report and timings.

    ``k`` tasks per sampled distribution (power laws ``exponents`` and top-percent sets
    ``percents``; ``None``: the paper's); the human-played pairs are all used unless
    ``human_k`` takes only the first ones. Intervals: ``n_resamples`` bootstrap resamples
    seeded by ``seed`` (0: none). Table 1: ``table1_method`` ``"fresh"`` (new task sets per
    trial, :func:`~wordgames.wales.experiments.table1_fresh`) or ``"bootstrap"`` (:func:`table1`).
    Progress goes to the ``wordgames.wales`` logger.
    """
    timings = {}
    t0 = time.perf_counter()
    vectors = title_vectors(setup.graph.names, embedding)
    timings["title_vectors"] = time.perf_counter() - t0
    agent = GreedyAgent(gamma=1.0, max_steps=max_steps)
    t0 = time.perf_counter()
    rows = _distribution_rows(
        setup,
        embedding.name,
        vectors,
        agent,
        _task_sets(setup, k, seed, exponents, percents, human_k),
        boot={"n_resamples": n_resamples, "seed": seed},
    )
    timings["distributions"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    sweep = gamma_sweep(
        setup.graph,
        vectors,
        embedding.name,
        gammas=gammas,
        k=k,
        seed=seed,
        max_steps=max_steps,
        n_resamples=n_resamples,
    )
    timings["gamma_sweep"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    if table1_method == "fresh":
        from wordgames.wales.experiments import table1_fresh

        t1_rows = table1_fresh(setup.graph, vectors, agent, trials=table1_trials, seed=seed)
    else:
        t1_rows = table1(
            setup.graph, vectors, agent, trials=table1_trials, pool_size=table1_pool, seed=seed
        )
    t1 = [{"embedding": embedding.name, **r} for r in t1_rows]
    timings["table1"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    wpath = {
        "embedding": embedding.name,
        **w_path_baseline(setup.graph, vectors, w_path_pairs, seed, n_resamples=n_resamples),
    }
    timings["w_path"] = time.perf_counter() - t0
    return {
        "distributions": rows,
        "gamma_sweep": sweep,
        "table1": t1,
        "w_path": [wpath],
        "coverage": vectors.report,
        "timings": timings,
        "agent": agent.get_params(),
    }


def _task_sets(
    setup: WalesSetup, k: int, seed: int, exponents, percents, human_k: int | None
) -> list[TaskSet]:
    """The human-played pairs (the first ``human_k``), then the sampled distributions."""
    sets = default_distributions(
        setup.graph,
        k,
        seed,
        POWER_LAW_EXPONENTS if exponents is None else exponents,
        TOP_PERCENTS if percents is None else percents,
    )
    if setup.human is None:
        return sets
    human = setup.human
    if human_k is not None and human_k < len(human):
        human = TaskSet(
            human.name,
            human.sources[:human_k],
            human.targets[:human_k],
            {**human.params, "first": human_k},
        )
    return [human] + sets


def task_items(res) -> dict:
    """The per-task scores behind a task set's score (:func:`wordgames.paired.item_record`)."""
    from wordgames.paired import item_record

    # a task set may draw one (start, target) pair twice: its position keeps the ids unique
    at = np.flatnonzero(res.included)
    ids = [f"{i}:{s}>{t}" for i, s, t in zip(at, res.sources[at], res.targets[at], strict=True)]
    return item_record(ids, res.scores("edges"))


def _distribution_rows(
    setup: WalesSetup,
    name: str,
    vectors,
    agent: GreedyAgent,
    sets: list[TaskSet],
    *,
    boot: dict | None = None,
) -> list[dict]:
    """One row per task set and length convention (edges, then nodes).

    ``boot``: the bootstrap settings of :meth:`~wordgames.wales.evaluate.TaskResults.summary`.
    """
    rows = []
    for ts in sets:
        res = evaluate_tasks(setup.graph, vectors, ts, agent)
        for conv in ("edges", "nodes"):
            row = {"embedding": name, **res.summary(conv, **(boot or {}))}
            row.update({f"param_{key}": v for key, v in ts.params.items() if key != "seed"})
            if conv == "edges":  # what a paired comparison of two embeddings resamples
                row["_items"] = task_items(res)
            rows.append(row)
        log.info("%s: %s: %.4f", name, ts.name, rows[-2]["score"])
    return rows


def gamma_sweep(
    graph: DiGraph,
    vectors,
    name: str,
    *,
    gammas: Sequence[float] = DEFAULT_GAMMAS,
    k: int = 1000,
    seed: int = 0,
    max_steps: int = 100,
    n_resamples: int = 1000,
) -> list[dict]:
    """Scores against gamma on ``k`` tasks of the power law a = 16 (Figure 5), in edges.

    Each with its bootstrap interval (``n_resamples`` resamples seeded by ``seed``).
    """
    sweep_set = power_law_tasks(graph, SWEEP_EXPONENT, k, seed + 4242)
    sweep = []
    for gamma in gammas:
        res = evaluate_tasks(
            graph, vectors, sweep_set, GreedyAgent(gamma=gamma, max_steps=max_steps)
        )
        sweep.append(
            {"embedding": name, **res.summary("edges", n_resamples=n_resamples, seed=seed)}
        )
        log.info("%s: gamma=%s: %.4f", name, gamma, sweep[-1]["score"])
    return sweep


def rankings(rows: list[dict], convention: str = "edges") -> list[dict]:
    """Rank of each embedding (1 = best) per task set, as in the paper's Figure 4 discussion."""
    from collections import defaultdict

    by_set = defaultdict(list)
    for r in rows:
        if r.get("convention", "edges") == convention:
            by_set[r["task_set"]].append(r)
    out = []
    for ts, rs in by_set.items():
        order = sorted(rs, key=lambda r: -(r["score"] if np.isfinite(r["score"]) else -np.inf))
        for rank, r in enumerate(order, 1):
            out.append(
                {"task_set": ts, "embedding": r["embedding"], "rank": rank, "score": r["score"]}
            )
    return out


def _series(rows, prefix, param):
    import collections

    data = collections.defaultdict(list)
    for r in rows:
        if r.get("convention", "edges") == "edges" and r["task_set"].startswith(prefix):
            data[r["embedding"]].append((r[param], r["score"], r["ci_low"], r["ci_high"]))
    return {e: sorted(v) for e, v in data.items()}


def error_bars(y, lo, hi) -> np.ndarray:
    """The ``(2, n)`` ``yerr`` of matplotlib for the intervals ``[lo, hi]`` around ``y``.

    Missing intervals (NaN) draw no bar.

    Examples
    --------
    >>> error_bars([0.5, 0.2], [0.4, float("nan")], [0.7, float("nan")]).round(2).tolist()
    [[0.1, 0.0], [0.2, 0.0]]
    """
    y, lo, hi = (np.asarray(v, dtype=float) for v in (y, lo, hi))
    return np.nan_to_num(np.stack([y - lo, hi - y]), nan=0.0).clip(min=0.0)


def plot_figure4(rows: list[dict], path: str | Path) -> Path:
    """Score against top-b% (left) and against the power-law exponent a (right).

    Top-b% is uniform over the b% nodes of most in-links. One line per embedding, with the
    scores' 95% bootstrap intervals as error bars.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(10, 4), sharey=True)
    for ax, prefix, param, label in (
        (axes[0], "top-b", "param_b", "top b% of nodes by in-degree"),
        (axes[1], "powerlaw-a", "param_a", "power-law exponent a"),
    ):
        for emb, pts in _series(rows, prefix, param).items():
            x, y, lo, hi = (np.array(v, dtype=float) for v in zip(*pts, strict=True))
            ax.errorbar(x, y, yerr=error_bars(y, lo, hi), marker="o", capsize=3, label=emb)
        ax.set_xscale("log")
        ax.set_xlabel(label)
        ax.grid(alpha=0.3)
    axes[0].set_ylabel("WALES (gamma = 1, edges)")
    axes[1].legend(fontsize=8)
    fig.suptitle("WALES by task distribution (cf. paper Figure 4)")
    fig.tight_layout()
    path = Path(path)
    save_figure(fig, path, dpi=120)
    plt.close(fig)
    return path


def plot_figure5(sweep: list[dict], path: str | Path) -> Path:
    """Score against gamma on the power law a = 16 (cf. paper Figure 5), 95% bootstrap bars."""
    import collections

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    data = collections.defaultdict(list)
    for r in sweep:
        data[r["embedding"]].append((r["gamma"], r["score"], r["ci_low"], r["ci_high"]))
    fig, ax = plt.subplots(figsize=(5, 4))
    for emb, pts in data.items():
        x, y, lo, hi = (np.array(v, dtype=float) for v in zip(*sorted(pts), strict=True))
        ax.errorbar(x, y, yerr=error_bars(y, lo, hi), marker="o", capsize=3, label=emb)
    ax.set_xlabel("gamma")
    ax.set_ylabel(f"WALES (power law a = {SWEEP_EXPONENT})")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    path = Path(path)
    save_figure(fig, path, dpi=120)
    plt.close(fig)
    return path


def merge_tables(results: Sequence) -> dict[str, list]:
    """The tables of several embeddings' WALES results, one after the other.

    They come with the rankings of the embeddings per task set and per gamma (Figure 4 and 5
    discussions).

    ``results`` are :class:`~wordgames.results.MeasureResult` of the ``wales`` measure (or
    their ``tables`` dicts).
    """
    tables: dict[str, list] = {"distributions": [], "gamma_sweep": [], "table1": [], "w_path": []}
    for r in results:
        own = r if isinstance(r, dict) else r.tables
        for key in tables:
            tables[key].extend(own.get(key, []))
    tables["rankings"] = rankings(tables["distributions"])
    tables["rankings_gamma"] = rankings(
        [{**r, "task_set": f"gamma={r['gamma']}"} for r in tables["gamma_sweep"]]
    )
    return tables


__all__ = [
    "DEFAULT_GAMMAS",
    "TABLE1_KS",
    "WalesSetup",
    "error_bars",
    "evaluate_embedding",
    "gamma_sweep",
    "load_setup",
    "merge_tables",
    "plot_figure4",
    "plot_figure5",
    "rankings",
    "table1",
    "task_scores",
    "wikispeedia_setup",
]
