"""The WALES report: every task distribution, the gamma sweep, Table 1 and the baselines.

Reproduces the layout of the paper's Table 1 (mean and 95% CI half-width against the
number of tasks k), Figure 4 (scores per task distribution, one line per embedding) and
Figure 5 (scores against gamma on the power law a = 16), as tables (row dicts) and PNGs.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from wordgames.stats import mean_ci
from wordgames.wales.agent import GreedyAgent
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


@dataclass
class WalesSetup:
    """A graph to navigate and the human-played tasks on it."""

    graph: DiGraph
    human: TaskSet | None
    datasets: dict = field(default_factory=dict)
    notes: list = field(default_factory=list)
    info: dict = field(default_factory=dict)


def wikispeedia_setup(root=None, *, verify: bool = True) -> WalesSetup:
    """The largest SCC of Wikispeedia (4,051 nodes, 111,900 links) and its 1000 human-played
    pairs (``challenges_1000_seed0.tsv``)."""
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
    info = {"graph": graph.name, "n_nodes": graph.n_nodes, "n_edges": graph.n_edges,
            "full_graph_nodes": ws.graph.n_nodes, "full_graph_edges": ws.graph.n_edges}
    notes = ["WALES authors' graph (38,609-node LSCC of SNAP enwiki) is not public: the score is "
             "on the Wikispeedia LSCC; human-played pairs are Wikispeedia games "
             "(challenges_1000_seed0.tsv), not The Wiki Game challenges."]
    return WalesSetup(graph, human, sums, notes, info)


def table1(graph: DiGraph, vectors, agent: GreedyAgent, *, ks=TABLE1_KS, trials: int = 50,
           pool_size: int = 5000, seed: int = 0, convention: str = "edges") -> list[dict]:
    """Mean and 95% CI half-width of WALES on ``k`` uniform tasks, averaged over ``trials``.

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
        rows.append({"k": int(k), "mean": float(np.mean(means)), "ci": float(np.nanmean(halves)),
                     "trials": trials, "pool_size": int(scores.size), "convention": convention})
    return rows


def evaluate_embedding(setup: WalesSetup, embedding, *, k: int = 1000, seed: int = 0,
                       gammas: Sequence[float] = DEFAULT_GAMMAS, exponents=POWER_LAW_EXPONENTS,
                       percents=TOP_PERCENTS, table1_trials: int = 50, table1_pool: int = 5000,
                       max_steps: int = 100, w_path_pairs: int = 1000, human_k: int | None = None,
                       log: Callable[[str], None] | None = None) -> dict:
    """Everything WALES measures for one embedding; returns tables (lists of row dicts),
    the title-coverage report and timings.

    ``k`` tasks per sampled distribution; the human-played pairs are all used unless
    ``human_k`` takes only the first ones.
    """
    import time

    from wordgames.wales.baselines import w_path_baseline

    log = log or (lambda s: None)
    name = embedding.name
    timings = {}
    t0 = time.perf_counter()
    vectors = title_vectors(setup.graph.names, embedding)
    timings["title_vectors"] = time.perf_counter() - t0
    agent = GreedyAgent(gamma=1.0, max_steps=max_steps)
    sets = default_distributions(setup.graph, k, seed, exponents, percents)
    if setup.human is not None:
        human = setup.human
        if human_k is not None and human_k < len(human):  # the first human_k pairs
            human = TaskSet(human.name, human.sources[:human_k], human.targets[:human_k],
                            {**human.params, "first": human_k})
        sets = [human] + sets
    rows = []
    t0 = time.perf_counter()
    for ts in sets:
        res = evaluate_tasks(setup.graph, vectors, ts, agent)
        for conv in ("edges", "nodes"):
            row = {"embedding": name, **res.summary(conv)}
            row.update({f"param_{key}": v for key, v in ts.params.items() if key != "seed"})
            rows.append(row)
        log(f"wales {name}: {ts.name}: {rows[-2]['score']:.4f}")
    timings["distributions"] = time.perf_counter() - t0

    t0 = time.perf_counter()
    sweep_set = power_law_tasks(setup.graph, SWEEP_EXPONENT, k, seed + 4242)
    sweep = []
    for gamma in gammas:
        res = evaluate_tasks(setup.graph, vectors, sweep_set,
                             GreedyAgent(gamma=gamma, max_steps=max_steps))
        sweep.append({"embedding": name, **res.summary("edges")})
        log(f"wales {name}: gamma={gamma}: {sweep[-1]['score']:.4f}")
    timings["gamma_sweep"] = time.perf_counter() - t0

    t0 = time.perf_counter()
    t1 = [{"embedding": name, **r} for r in table1(setup.graph, vectors, agent, trials=table1_trials,
                                                    pool_size=table1_pool, seed=seed)]
    timings["table1"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    wpath = {"embedding": name, **w_path_baseline(setup.graph, vectors, w_path_pairs, seed)}
    timings["w_path"] = time.perf_counter() - t0
    return {"distributions": rows, "gamma_sweep": sweep, "table1": t1, "w_path": [wpath],
            "coverage": vectors.report, "timings": timings, "agent": agent.get_params()}


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
            out.append({"task_set": ts, "embedding": r["embedding"], "rank": rank, "score": r["score"]})
    return out


def _series(rows, prefix, param):
    import collections

    data = collections.defaultdict(list)
    for r in rows:
        if r.get("convention", "edges") == "edges" and r["task_set"].startswith(prefix):
            data[r["embedding"]].append((r[param], r["score"], r["ci_half_width"]))
    return {e: sorted(v) for e, v in data.items()}


def plot_figure4(rows: list[dict], path: str | Path) -> Path:
    """Left: score against top-b% (uniform over the b% nodes of most in-links); right: score
    against the power-law exponent a. One line per embedding, 95% CI bars."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(10, 4), sharey=True)
    for ax, prefix, param, label in ((axes[0], "top-b", "param_b", "top b% of nodes by in-degree"),
                                     (axes[1], "powerlaw-a", "param_a", "power-law exponent a")):
        for emb, pts in _series(rows, prefix, param).items():
            x, y, e = (np.array(v, dtype=float) for v in zip(*pts, strict=True))
            ax.errorbar(x, y, yerr=e, marker="o", capsize=3, label=emb)
        ax.set_xscale("log")
        ax.set_xlabel(label)
        ax.grid(alpha=0.3)
    axes[0].set_ylabel("WALES (gamma = 1, edges)")
    axes[1].legend(fontsize=8)
    fig.suptitle("WALES by task distribution (cf. paper Figure 4)")
    fig.tight_layout()
    path = Path(path)
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path


def plot_figure5(sweep: list[dict], path: str | Path) -> Path:
    """Score against gamma on the power law a = 16 (cf. paper Figure 5)."""
    import collections

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    data = collections.defaultdict(list)
    for r in sweep:
        data[r["embedding"]].append((r["gamma"], r["score"], r["ci_half_width"]))
    fig, ax = plt.subplots(figsize=(5, 4))
    for emb, pts in data.items():
        x, y, e = (np.array(v, dtype=float) for v in zip(*sorted(pts), strict=True))
        ax.errorbar(x, y, yerr=e, marker="o", capsize=3, label=emb)
    ax.set_xlabel("gamma")
    ax.set_ylabel(f"WALES (power law a = {SWEEP_EXPONENT})")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    path = Path(path)
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path


def wales_report(setup: WalesSetup, embeddings: Sequence, out_dir: str | Path, **kwargs) -> dict:
    """Evaluate several embeddings, rank them and write Figure 4 / Figure 5 PNGs."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    tables: dict[str, list] = {"distributions": [], "gamma_sweep": [], "table1": [], "w_path": []}
    coverage = {}
    for emb in embeddings:
        r = evaluate_embedding(setup, emb, **kwargs)
        for key in tables:
            tables[key].extend(r[key])
        coverage[emb.name] = r["coverage"]
    tables["rankings"] = rankings(tables["distributions"])
    tables["rankings_gamma"] = rankings([{**r, "task_set": f"gamma={r['gamma']}"} for r in tables["gamma_sweep"]])
    plots = [str(plot_figure4(tables["distributions"], out_dir / "wales_figure4.png")),
             str(plot_figure5(tables["gamma_sweep"], out_dir / "wales_figure5.png"))]
    return {"tables": tables, "coverage": coverage, "plots": plots}


__all__ = ["DEFAULT_GAMMAS", "TABLE1_KS", "WalesSetup", "evaluate_embedding", "plot_figure4",
           "plot_figure5", "rankings", "table1", "task_scores", "wales_report", "wikispeedia_setup"]
