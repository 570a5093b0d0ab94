"""The paper's WALES experiments beyond the measure's report (Giesen et al., IJCAI 2022).

* :func:`table1_fresh`: Table 1 as the paper computes it, 50 *new* task sets of ``k`` uniform
  tasks for each ``k`` (the measure's default; ``table1_method="bootstrap"`` keeps the older
  resampling of one pool, :func:`wordgames.wales.report.table1`).
* :func:`compare_agents`: the greedy agent beside the stochastic one of section 3.1
  (:class:`~wordgames.wales.stochastic.StochasticAgent`) on the same task sets.
* :func:`power_law_check`: the supplement's statement that The Wiki Game's tasks follow the
  power law with ``a = 32``, checked on our graph (maximum-likelihood exponent, KS test).

Every score goes through :func:`~wordgames.wales.evaluate.evaluate_tasks` and
:meth:`~wordgames.wales.evaluate.TaskResults.summary`, the functions of the WALES measure.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from wordgames.stats import mean_ci
from wordgames.wales.evaluate import evaluate_tasks
from wordgames.wales.graph import DiGraph
from wordgames.wales.tasks import TaskSet, power_law_tasks

TABLE1_KS = (10, 50, 100, 500, 1000)


def fresh_task_sets(graph: DiGraph, k: int, trials: int, seed: int = 0) -> list[TaskSet]:
    """``trials`` independent sets of ``k`` uniform tasks, each with its own seed.

    The seeds come from ``numpy.random.SeedSequence([seed, k])``, so the sets of different
    ``k`` are independent too.

    >>> g = DiGraph.from_edges(np.arange(50), (np.arange(50) + 1) % 50)
    >>> sets = fresh_task_sets(g, 5, 3, seed=0)
    >>> [len(s) for s in sets], len({tuple(s.sources) for s in sets})
    ([5, 5, 5], 3)
    """
    seeds = np.random.SeedSequence([seed, k]).generate_state(trials)
    return [power_law_tasks(graph, 1, k, int(s)) for s in seeds]


def _concat(sets: Sequence[TaskSet], name: str) -> TaskSet:
    return TaskSet(
        name,
        np.concatenate([s.sources for s in sets]),
        np.concatenate([s.targets for s in sets]),
    )


def _per_task_scores(res, convention: str) -> np.ndarray:
    """Every task's score, NaN for the tasks the measure leaves out (target without vector)."""
    out = np.full(res.sources.size, np.nan)
    out[res.included] = res.scores(convention)
    return out


def table1_fresh(
    graph: DiGraph,
    vectors,
    agent,
    *,
    ks=TABLE1_KS,
    trials: int = 50,
    seed: int = 0,
    convention: str = "edges",
) -> list[dict]:
    """Table 1: mean and Student-t 95 % CI half-width over ``trials`` fresh task sets per ``k``.

    Each of the ``trials`` sets of each ``k`` is drawn anew (:func:`fresh_task_sets`); all
    ``trials * sum(ks)`` tasks run in one batch through
    :func:`~wordgames.wales.evaluate.evaluate_tasks` and are split back into their sets.
    Tasks the measure leaves out (targets without a vector) are left out of their set's mean.
    """
    sets = {int(k): fresh_task_sets(graph, int(k), trials, seed) for k in ks}
    every = [s for k in sets for s in sets[k]]
    scores = _per_task_scores(
        evaluate_tasks(graph, vectors, _concat(every, "table1"), agent), convention
    )
    rows, at = [], 0
    for k, group in sets.items():
        means, halves = [], []
        for _ in group:
            part = scores[at : at + k]
            at += k
            ci = mean_ci(part[np.isfinite(part)])
            means.append(ci["mean"])
            halves.append((ci["ci_high"] - ci["ci_low"]) / 2)
        rows.append(
            {
                "k": k,
                "mean": float(np.nanmean(means)),
                "ci": float(np.nanmean(halves)),
                "sd_of_means": float(np.nanstd(means, ddof=1)) if trials > 1 else float("nan"),
                "trials": trials,
                "method": "fresh",
                "pool_size": None,
                "n_tasks_run": k * trials,
                "convention": convention,
            }
        )
    return rows


def compare_agents(
    graph: DiGraph,
    vectors,
    name: str,
    agents: dict,
    task_sets: Sequence[TaskSet],
    *,
    n_resamples: int = 1000,
    seed: int = 0,
) -> list[dict]:
    """One row per task set and agent: the measure's summary (score in edges, interval).

    ``agents``: label -> agent (a :class:`~wordgames.wales.agent.GreedyAgent` or a
    :class:`~wordgames.wales.stochastic.StochasticAgent`).
    """
    rows = []
    for ts in task_sets:
        for label, agent in agents.items():
            res = evaluate_tasks(graph, vectors, ts, agent)
            summary = res.summary("edges", n_resamples=n_resamples, seed=seed)
            rows.append({"embedding": name, "agent": label, **summary})
    return rows


def in_degree_positions(graph: DiGraph, nodes) -> np.ndarray:
    """Each node's place in the ascending in-degree order as a fraction in (0, 1).

    Nodes of equal in-degree share the middle of their block (the generator's order inside a
    block is by node id, which says nothing about a task drawn elsewhere).

    >>> g = DiGraph.from_edges([0, 1, 2, 3], [1, 2, 2, 0])   # in-degrees 1, 1, 2, 0
    >>> in_degree_positions(g, [3, 0, 2]).tolist()
    [0.125, 0.5, 0.875]
    """
    deg = graph.in_degree
    ordered = np.sort(deg)
    d = deg[np.asarray(nodes, dtype=np.int64)]
    below = np.searchsorted(ordered, d, side="left")
    tied = np.searchsorted(ordered, d, side="right") - below
    return (below + tied / 2.0) / deg.size


def fit_power_law(x) -> dict:
    """Maximum-likelihood exponent of ``x ~ a x^(a-1)`` on (0, 1], with a KS test.

    ``a_hat = n / -sum(log x)``; its standard error is ``a_hat / sqrt(n)``. ``ks`` is the
    Kolmogorov-Smirnov statistic against the fitted law (CDF ``x^a``).

    >>> r = fit_power_law(np.array([0.5, 0.5]))
    >>> round(r["a"], 4), r["n"]
    (1.4427, 2)
    """
    from scipy import stats

    x = np.asarray(x, dtype=float)
    if x.size == 0 or (x <= 0).any() or (x > 1).any():
        raise ValueError("a power-law sample lies in (0, 1] and is not empty")
    a = float(x.size / -np.log(x).sum())
    ks = stats.kstest(x, lambda v: np.clip(v, 0, 1) ** a)
    return {
        "a": a,
        "se": a / np.sqrt(x.size),
        "n": int(x.size),
        "ks": float(ks.statistic),
        "ks_p": float(ks.pvalue),
    }


def ks_against(x, a: float) -> tuple[float, float]:
    """KS statistic and p-value of ``x`` against the power law with exponent ``a``."""
    from scipy import stats

    res = stats.kstest(np.asarray(x, dtype=float), lambda v: np.clip(v, 0, 1) ** a)
    return float(res.statistic), float(res.pvalue)


def wiki_game_tasks(graph: DiGraph, pairs) -> tuple[TaskSet, int]:
    """The Wiki Game challenges whose two titles are pages of ``graph`` (and how many are).

    Titles match after URL-decoding, ``_`` -> space and lower-casing (The Wiki Game's
    challenges are lower-case titles with spaces).
    """
    from urllib.parse import unquote

    index = {unquote(str(n)).replace("_", " ").lower(): i for i, n in enumerate(graph.names)}
    kept = [(index[s], index[t]) for s, t in pairs if s in index and t in index]
    arr = np.array(kept, dtype=np.int64).reshape(-1, 2)
    return TaskSet("wikigame-on-graph", arr[:, 0], arr[:, 1]), len(kept)


def power_law_check(graph: DiGraph, samples: dict, a_claim: float = 32.0) -> list[dict]:
    """Fit the power law to each sample's task ends and test it against ``a = a_claim``.

    ``samples``: label -> :class:`~wordgames.wales.tasks.TaskSet`. One row per sample and end
    (``targets``, ``starts``, ``both``): the fitted exponent, its standard error, the KS
    statistic against the fit and against ``a_claim`` with their p-values.
    """
    rows = []
    for label, ts in samples.items():
        ends = {"targets": ts.targets, "starts": ts.sources}
        ends["both"] = np.concatenate([ts.sources, ts.targets])
        for which, nodes in ends.items():
            x = in_degree_positions(graph, nodes)
            fit = fit_power_law(x)
            d, p = ks_against(x, a_claim)
            rows.append(
                {
                    "sample": label,
                    "ends": which,
                    **fit,
                    f"ks_a{a_claim:g}": d,
                    f"ks_a{a_claim:g}_p": p,
                    "median_position": float(np.median(x)),
                }
            )
    return rows
