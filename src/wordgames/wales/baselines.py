"""Baselines of WALES (paper section 4.2): human players and the w-path metric.

Human baseline: for each challenge (s, t), ``m(s, t) / agr(s, t)`` with ``agr`` the best,
average or median length of the successful human attempts, averaged over challenges.
The Wiki Game files of the WALES authors count lengths in nodes (``opt`` = shortest path in
edges + 1, ``human_*`` = pages in the path); the same ratio in edges is
``(opt - 1) / (len - 1)``. Both are offered; results say which.

w-path baseline: Spearman correlation between ``-m(i, j)`` and ``cos(f(w_i), f(w_j))`` over
random node pairs.
"""

from __future__ import annotations

import numpy as np

from wordgames.stats import bootstrap_ci, paired_bootstrap_ci, rowwise_spearman
from wordgames.wales.graph import DiGraph
from wordgames.wales.loaders import HumanPaths
from wordgames.wales.titles import NodeVectors


def _ratio(opt_nodes, length_nodes, convention: str):
    opt = np.asarray(opt_nodes, dtype=float)
    length = np.asarray(length_nodes, dtype=float)
    if convention == "nodes":
        return opt / length
    if convention == "edges":
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(length > 1, (opt - 1) / (length - 1), np.nan)
    raise ValueError("convention must be 'nodes' or 'edges'")


def human_baseline(
    results, convention: str = "nodes", *, n_resamples: int = 1000, seed: int = 0
) -> dict:
    """Mean over challenges of opt/best, opt/average and opt/median human length.

    ``results`` is a DataFrame with columns ``opt, human_best, human_avg, human_median``
    (lengths in nodes, as in ``human_results_wales.tsv``). Each mean comes with a seeded
    percentile-bootstrap 95 % interval over the challenges (``<key>_ci_low``,
    ``<key>_ci_high``; ``n_resamples=0``: none).
    """
    out = {"convention": convention, "n_tasks": int(len(results))}
    for key, col in (("best", "human_best"), ("average", "human_avg"), ("median", "human_median")):
        r = _ratio(results["opt"].to_numpy(), results[col].to_numpy(), convention)
        r = r[np.isfinite(r)]
        out[key] = float(r.mean()) if r.size else float("nan")
        out[f"{key}_ci_low"], out[f"{key}_ci_high"] = bootstrap_ci(
            r, n_resamples=n_resamples, seed=seed, bounds=(0.0, None)
        )
    return out


def path_length_stats(records: list[dict]):
    """Per (start, target): number of successful paths, best/average/median length in nodes.

    From ``wikigame_human_paths.jsonl`` records (``{"start", "target", "paths"}``).
    """
    import pandas as pd

    rows = []
    for rec in records:
        lengths = np.array([len(p) for p in rec["paths"]], dtype=float)
        if lengths.size == 0:
            continue
        rows.append(
            {
                "start": rec["start"],
                "target": rec["target"],
                "n_paths": int(lengths.size),
                "human_best": lengths.min(),
                "human_avg": lengths.mean(),
                "human_median": float(np.median(lengths)),
                "human_worst": lengths.max(),
            }
        )
    return pd.DataFrame(rows)


def wikispeedia_human_table(graph: DiGraph, finished: HumanPaths):
    """Per (start, target) of finished Wikispeedia games: number of games and clicks.

    Best/average/median clicks (edges; back clicks count as clicks) and the shortest path ``m`` in
    edges.

    Games whose start or target is not a node of ``graph`` are counted in
    ``table.attrs["n_games_outside_graph"]`` and left out.
    """
    import pandas as pd

    df = pd.DataFrame(
        {"start": finished.starts, "target": finished.targets, "clicks": finished.n_clicks}
    )
    index = graph.node_index
    inside = df["start"].map(index).notna() & df["target"].map(index).notna() & (df["clicks"] > 0)
    outside = int((~inside).sum())
    df = df[inside]
    g = df.groupby(["start", "target"])["clicks"]
    table = pd.DataFrame(
        {"n_games": g.size(), "best": g.min(), "average": g.mean(), "median": g.median()}
    ).reset_index()
    s = np.array([index[x] for x in table["start"]], dtype=np.int64)
    t = np.array([index[x] for x in table["target"]], dtype=np.int64)
    table["opt"] = graph.shortest_path_lengths(s, t)
    table.attrs["n_games_outside_graph"] = outside
    return table


def wikispeedia_human_baseline(table) -> dict:
    """Mean over pairs of m/best, m/average, m/median (edges) from :func:`wikispeedia_human_table`."""
    out = {
        "convention": "edges",
        "n_pairs": int(len(table)),
        "n_games": int(table["n_games"].sum()) if len(table) else 0,
        "n_games_outside_graph": int(table.attrs.get("n_games_outside_graph", 0)),
    }
    ok = table["opt"].to_numpy() > 0
    for key in ("best", "average", "median"):
        r = table["opt"].to_numpy()[ok] / table[key].to_numpy()[ok]
        out[key] = float(r.mean()) if r.size else float("nan")
    return out


def human_success_rate(
    unfinished: HumanPaths, finished: HumanPaths | None = None, graph: DiGraph | None = None
) -> dict:
    """Share of games finished: finished / (finished + unfinished).

    Without the finished games (``paths_finished.tsv`` is not in the shared data), only the
    counts of unfinished games are returned and ``success_rate`` is None.
    """
    out = {
        "n_unfinished": int(unfinished.starts.size),
        "n_unfinished_timeout": int((unfinished.extra.get("type") == "timeout").sum()),
        "n_unfinished_restart": int((unfinished.extra.get("type") == "restart").sum()),
    }
    if graph is not None:
        index = graph.node_index
        unknown = sum(1 for t in unfinished.targets.tolist() if t not in index)
        out["n_unfinished_target_not_in_graph"] = unknown
    if finished is None:
        out.update(
            {
                "n_finished": None,
                "success_rate": None,
                "note": "finished games unavailable (paths_finished.tsv missing)",
            }
        )
        return out
    n_fin = int(finished.starts.size)
    out.update({"n_finished": n_fin, "success_rate": n_fin / (n_fin + out["n_unfinished"])})
    return out


def w_path_baseline(
    graph: DiGraph,
    vectors: NodeVectors,
    n_pairs: int = 1000,
    seed: int = 0,
    *,
    n_resamples: int = 1000,
) -> dict:
    """Spearman correlation of ``-m(i, j)`` with ``cos(f(w_i), f(w_j))`` over random node pairs.

    The pairs are of distinct nodes that both have vectors; pairs without a path (none in an
    SCC) are left out and counted. ``ci_low``/``ci_high``: a seeded percentile-bootstrap 95 %
    interval over the pairs (resampled together; ``n_resamples=0``: none), inside [-1, 1].
    """
    from scipy.stats import spearmanr

    rng = np.random.default_rng(seed)
    pool = np.flatnonzero(vectors.has_vector)
    if pool.size < 2:
        raise ValueError("fewer than two nodes have vectors")
    i = pool[rng.integers(0, pool.size, n_pairs)]
    j = pool[rng.integers(0, pool.size, n_pairs)]
    same = i == j
    while same.any():
        j[same] = pool[rng.integers(0, pool.size, int(same.sum()))]
        same = i == j
    m = graph.shortest_path_lengths(i, j)
    ok = m > 0
    cos = vectors.cosine_pairs(i[ok], j[ok])
    rho, p = spearmanr(-m[ok], cos)
    lo, hi = paired_bootstrap_ci(
        -m[ok], cos, rowwise_spearman, n_resamples=n_resamples, seed=seed, bounds=(-1.0, 1.0)
    )
    return {
        "w_path": float(rho),
        "ci_low": lo,
        "ci_high": hi,
        "p_value": float(p),
        "n_pairs": int(ok.sum()),
        "n_no_path": int((~ok).sum()),
        "n_nodes_without_vector": int((~vectors.has_vector).sum()),
        "seed": seed,
    }
