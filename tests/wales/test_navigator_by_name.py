"""A WALES navigator chosen by name: a plug-in's, declared outside the package."""

from __future__ import annotations

import numpy as np
import pytest

import wordgames
from wordgames.agents import AgentSpec
from wordgames.params import Params


class OracleNavigator(Params):
    """Follows a shortest path: every task it finishes scores 1 (needs nothing of the subject)."""

    def __init__(self, max_steps: int = 100):
        self.max_steps = max_steps

    def run(self, graph, sources, targets):
        steps = []
        for s, t in zip(sources, targets, strict=True):
            dist, here, n = graph.distances_to(int(t)), int(s), 0
            while here != t and n < self.max_steps:
                here = next(int(v) for v in graph.successors(here) if dist[v] == dist[here] - 1)
                n += 1
            steps.append(n)
        n_steps = np.array(steps, dtype=np.int64)
        return {
            "n_steps": n_steps,
            "success": n_steps < self.max_steps,
            "reason": np.full(len(steps), ""),
        }


ORACLE = AgentSpec(
    "oracle", "wales", "navigator", "", "tests.wales.test_navigator_by_name:OracleNavigator",
    "a shortest path",
)  # fmt: skip


def test_a_plugin_navigator_by_name_scores_one_everywhere(monkeypatch, glove, data_root):
    monkeypatch.setenv("WORDGAMES_EXTRA_AGENTS", "tests.wales.test_navigator_by_name:ORACLE")
    opts = {"navigator": "oracle", "human_k": 15, "k": 10, "exponents": [32.0], "percents": []}
    res = wordgames.evaluate(
        glove, measures=["wales"], options={"wales": opts}, data_root=data_root
    )
    scores = [s for s in res.scores if s.metric == "score"]
    assert {s.agent for s in res.scores} == {"oracle"}
    assert {s.dataset for s in scores} == {"human", "powerlaw-a32"}
    assert all(s.value == 1.0 for s in scores)
    human = next(s for s in scores if s.dataset == "human")
    assert human.n + human.n_skipped == 15


def test_an_unknown_navigator_is_an_option_error():
    from wordgames.measure import OptionError
    from wordgames.registry import get_measure

    with pytest.raises(OptionError, match="did you mean 'greedy'"):
        get_measure("wales").make_options({"navigator": "gready"})
