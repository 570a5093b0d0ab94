"""WALES: greedy agents navigating a Wikipedia link graph (Giesen et al., IJCAI 2022).

Modules: :mod:`~wordgames.wales.graph` (CSR digraph, SCC, BFS), :mod:`~wordgames.wales.loaders`
(edge lists, Wikispeedia, the WALES authors' files, safe networkx pickles),
:mod:`~wordgames.wales.titles` (titles -> vectors), :mod:`~wordgames.wales.agent` (the decision
rule), :mod:`~wordgames.wales.tasks` (task distributions), :mod:`~wordgames.wales.evaluate`
(scores and CIs), :mod:`~wordgames.wales.baselines` (human and w-path),
:mod:`~wordgames.wales.report` (Table 1, Figures 4-5) and :mod:`~wordgames.wales.suite`
(``wordgames run``).
"""

from wordgames.wales.agent import GreedyAgent, Navigation
from wordgames.wales.evaluate import TaskResults, evaluate_tasks, task_scores
from wordgames.wales.graph import DiGraph, GraphError
from wordgames.wales.tasks import TaskSet, pair_tasks, power_law_tasks, top_percent_tasks
from wordgames.wales.titles import NodeVectors, title_vectors

__all__ = [
    "DiGraph",
    "GraphError",
    "GreedyAgent",
    "Navigation",
    "NodeVectors",
    "TaskResults",
    "TaskSet",
    "evaluate_tasks",
    "pair_tasks",
    "power_law_tasks",
    "task_scores",
    "title_vectors",
    "top_percent_tasks",
]
