"""Scoring an agent on a task set: the WALES metric with its confidence interval.

Task score (paper): ``L = m(s, t) / n`` with both lengths in **edges** (links followed);
``n`` counts every link the agent walks, back-tracking included; a failed task scores 0.
The authors' published code and their human result files count lengths in **nodes**
(``(m + 1) / (n + 1)``); ``convention="nodes"`` gives that. Results always say which.

The 95 % intervals of the mean task score and of the failure rate are seeded percentile
bootstraps over the tasks (:func:`wordgames.stats.bootstrap_ci`), inside [0, 1].
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from wordgames.stats import bootstrap_ci
from wordgames.wales.agent import GreedyAgent
from wordgames.wales.graph import DiGraph
from wordgames.wales.tasks import TaskSet
from wordgames.wales.titles import NodeVectors

CONVENTIONS = ("edges", "nodes")


def task_scores(shortest, n_steps, success, convention: str = "edges") -> np.ndarray:
    """Per-task score: ``m/n`` (edges) or ``(m+1)/(n+1)`` (nodes); 0 for failures.

    >>> task_scores([2, 3], [4, 3], [True, False]).tolist()
    [0.5, 0.0]
    >>> task_scores([2], [4], [True], "nodes").tolist()
    [0.6]
    """
    m = np.asarray(shortest, dtype=float)
    n = np.asarray(n_steps, dtype=float)
    ok = np.asarray(success, dtype=bool)
    if convention == "edges":
        num, den = m, n
    elif convention == "nodes":
        num, den = m + 1, n + 1
    else:
        raise ValueError(f"convention must be one of {CONVENTIONS}, got {convention!r}")
    out = np.zeros(m.size)
    good = ok & (den > 0)
    out[good] = num[good] / den[good]
    return out


@dataclass
class TaskResults:
    """Outcome of one agent on one task set."""

    task_set: str
    sources: np.ndarray
    targets: np.ndarray
    shortest: np.ndarray  # m(s, t) in edges, -1 for excluded tasks
    n_steps: np.ndarray
    success: np.ndarray
    included: np.ndarray  # False: target without vector, or no path
    agent: dict = field(default_factory=dict)
    n_target_no_vector: int = 0
    n_unreachable: int = 0
    n_trivial: int = 0
    reasons: dict = field(default_factory=dict)

    def scores(self, convention: str = "edges") -> np.ndarray:
        sel = self.included
        return task_scores(self.shortest[sel], self.n_steps[sel], self.success[sel], convention)

    def summary(self, convention: str = "edges", *, n_resamples: int = 1000, seed: int = 0) -> dict:
        """The mean task score and the failure rate, each with its bootstrap interval.

        Parameters
        ----------
        convention : {"edges", "nodes"}
            How path lengths are counted (:func:`task_scores`).
        n_resamples : int
            Bootstrap resamples of the intervals (0: no interval, NaN bounds).
        seed : int
            Seed of the resampling.

        Returns
        -------
        dict
            ``score`` with ``ci_low``/``ci_high``, ``failure_rate`` with
            ``failure_ci_low``/``failure_ci_high``, the counts of tasks scored, failed and
            excluded (and why).
        """
        scores = self.scores(convention)
        n_inc = int(self.included.sum())
        failed = ~self.success[self.included]
        boot = {"n_resamples": n_resamples, "seed": seed, "bounds": (0.0, 1.0)}
        lo, hi = bootstrap_ci(scores, **boot)
        f_lo, f_hi = bootstrap_ci(failed.astype(float), **boot)
        ok = self.included & self.success
        return {
            "task_set": self.task_set,
            "convention": convention,
            "score": float(scores.mean()) if n_inc else float("nan"),
            "ci_low": lo,
            "ci_high": hi,
            "n_tasks": int(self.sources.size),
            "n_scored": n_inc,
            "n_failed": int(failed.sum()),
            "failure_rate": float(failed.mean()) if n_inc else float("nan"),
            "failure_ci_low": f_lo,
            "failure_ci_high": f_hi,
            "n_excluded_target_no_vector": self.n_target_no_vector,
            "n_excluded_unreachable": self.n_unreachable,
            "n_excluded_start_is_target": self.n_trivial,
            "mean_steps_success": float(self.n_steps[ok].mean()) if ok.any() else float("nan"),
            "gamma": self.agent.get("gamma"),
        }


def evaluate_tasks(
    graph: DiGraph,
    vectors: NodeVectors,
    tasks: TaskSet,
    agent: GreedyAgent | None = None,
    *,
    distance_method: str = "auto",
    shortest: np.ndarray | None = None,
) -> TaskResults:
    """Run ``agent`` on ``tasks`` and keep what the score needs.

    Tasks whose target has no vector are excluded and counted (the agent would have nothing
    to steer by); so are tasks without a path and tasks with start == target.

    Parameters
    ----------
    graph : DiGraph
        The link graph.
    vectors : NodeVectors
        Each node's title vector (:func:`~wordgames.wales.titles.title_vectors`).
    tasks : TaskSet
        (start, target) pairs.
    agent : GreedyAgent, optional
        Default: ``GreedyAgent()`` (gamma = 1, 100 steps).
    distance_method : str
        How the shortest paths ``m(s, t)`` are found (see ``DiGraph.shortest_path_lengths``).
    shortest : array, optional
        Precomputed ``m(s, t)``.

    Returns
    -------
    TaskResults
        Per task: shortest path, links walked, success; ``summary()`` gives the score.

    Examples
    --------
    >>> from wordgames.wales.agent import GreedyAgent
    >>> from wordgames.wales.graph import DiGraph
    >>> from wordgames.wales.titles import NodeVectors
    >>> g = DiGraph.from_edges([0, 0, 1, 2, 3], [1, 2, 0, 3, 0])
    >>> nv = NodeVectors(np.arange(4), np.array([[1, 0], [0.6, 0.8], [0.8, 0.6], [0, 1]]))
    >>> res = evaluate_tasks(g, nv, TaskSet("toy", np.array([0, 2]), np.array([3, 3])))
    >>> res.shortest.tolist(), res.n_steps.tolist(), res.scores().tolist()
    ([2, 1], [4, 1], [0.5, 1.0])
    """
    agent = agent or GreedyAgent()
    s, t = tasks.sources, tasks.targets
    has_vec = vectors.rows[t] >= 0
    trivial = s == t
    if shortest is None:
        shortest = np.full(s.size, -1, dtype=np.int64)
        need = has_vec & ~trivial
        shortest[need] = graph.shortest_path_lengths(s[need], t[need], method=distance_method)
    shortest = np.asarray(shortest, dtype=np.int64)
    unreachable = has_vec & ~trivial & (shortest < 0)
    included = has_vec & ~trivial & (shortest > 0)
    run = agent.run(graph, vectors, s[included], t[included])
    n_steps = np.zeros(s.size, dtype=np.int64)
    success = np.zeros(s.size, dtype=bool)
    n_steps[included], success[included] = run["n_steps"], run["success"]
    reasons = (
        {
            str(r): int(c)
            for r, c in zip(*np.unique(run["reason"].astype(str), return_counts=True), strict=True)
        }
        if included.any()
        else {}
    )
    return TaskResults(
        tasks.name,
        s,
        t,
        shortest,
        n_steps,
        success,
        included,
        agent.get_params(),
        int((~has_vec).sum()),
        int(unreachable.sum()),
        int((trivial & has_vec).sum()),
        reasons,
    )
