"""Plug-ins through entry points: a measure, an agent, a subject kind and a data set.

An installed distribution is stood in for by a ``.dist-info`` folder on ``sys.path`` (what
``pip install`` writes), with its ``entry_points.txt``.
"""

from __future__ import annotations

import sys
import textwrap

import numpy as np
import pytest

import wordgames

PLUGIN = """
from wordgames.agents import AgentSpec
from wordgames.datasets.model import DataFile, DatasetSpec, register
from wordgames.measure import Measure, Metric
from wordgames.subjects import PlayerSubject

def compute(subject, ctx):
    from wordgames.results import MeasureResult
    r = MeasureResult("plug-measure", "1")
    r.score("", "", "answer_length", float(len(subject.answer(None))), n=1)
    return r

MEASURE = Measure("plug-measure", "1", "plug", "a plug-in's measure", "plugmod:compute",
                  metrics=(Metric("answer_length", None),), subjects=("player",))
AGENT = AgentSpec("plug-solver", "oddmanout", "solver", "player",
                  "wordgames.oddmanout.players:PlayerSolver", "a plug-in's agent")

class Echo(PlayerSubject):
    def answer(self, question):
        return self.name
    def identity(self):
        return {"kind": "echo", "name": self.name}

def make(rest):
    return Echo(rest)

register(DatasetSpec(name="plug-data", folder="plug-data", family="plug", title="t",
                     files=(DataFile("a.txt", "0" * 64),),
                     upstream="u", citation="c", licence="l"))
"""


@pytest.fixture
def plugin(tmp_path, monkeypatch):
    (tmp_path / "plugmod.py").write_text(PLUGIN)
    info = tmp_path / "wordgames_plug-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: wordgames-plug\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(
        textwrap.dedent(
            """
            [wordgames.measures]
            plug = plugmod:MEASURE
            [wordgames.agents]
            plug = plugmod:AGENT
            [wordgames.subjects]
            echo = plugmod:make
            [wordgames.datasets]
            plug = plugmod
            """
        )
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    from wordgames import agents
    from wordgames.datasets import registry

    agents._plugins_of_entry_points.cache_clear()
    registry._load_declarations.cache_clear()
    yield
    agents._plugins_of_entry_points.cache_clear()
    registry._load_declarations.cache_clear()
    from wordgames.datasets.model import _REGISTRY

    _REGISTRY.pop("plug-data", None)  # the declaration leaves with the plug-in
    sys.modules.pop("plugmod", None)


def test_a_plugin_measure_and_subject_run_through_evaluate(plugin):
    res = wordgames.evaluate(["echo:hello"], measures=["plug-measure"])
    (score,) = res.scores
    assert (score.embedding, score.metric, score.value) == ("hello", "answer_length", 5.0)


def test_a_plugin_agent_is_listed_and_usable(plugin):
    from wordgames.agents import get_agent, usable
    from wordgames.subjects import from_spec

    assert get_agent("oddmanout", "plug-solver").description == "a plug-in's agent"
    ok, _ = usable("oddmanout", "solver", from_spec("echo:x"))
    assert "plug-solver" in [a.name for a in ok]


def test_a_plugin_data_set_is_declared(plugin):
    from wordgames.datasets import get_dataset

    assert get_dataset("plug-data").family == "plug"


def test_a_plugin_measure_skips_a_subject_it_cannot_score(plugin):
    from wordgames.embeddings import Embedding

    res = wordgames.evaluate(Embedding(["a"], np.ones((1, 2)), name="e"), measures=["plug-measure"])
    assert not res.scores and "needs a subject with player" in res.skipped[0].reason
