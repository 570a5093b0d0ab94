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
    assert (score.subject, score.metric, score.value) == ("hello", "answer_length", 5.0)


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


OPTIONS_PLUGIN = '''
from dataclasses import dataclass
from typing import Literal

from wordgames.measure import Measure, Metric
from wordgames.subjects import PlayerSubject


@dataclass(frozen=True)
class EchoOptions:
    """Options of the echo measure.

    Parameters
    ----------
    repeat : int
        How many times the answer is said.
    style : {"plain", "shout"}
        How it is said.
    """

    repeat: int = 1
    style: Literal["plain", "shout"] = "plain"


def compute(subject, ctx):
    from wordgames.results import MeasureResult

    text = subject.answer(None) * ctx.options.repeat
    if ctx.options.style == "shout":
        text = text.upper() + "!"
    r = MeasureResult("echo-length", "1")
    r.score("", "", "answer_length", float(len(text)), n=1)
    return r


MEASURE = Measure("echo-length", "1", "echo", "a plug-in's measure with options",
                  "plugopts:compute", metrics=(Metric("answer_length", None),),
                  subjects=("player",), options=EchoOptions)


class Parrot(PlayerSubject):
    def __init__(self, name, *, times: int = 1):
        super().__init__(name)
        self.times = times

    def answer(self, question):
        return self.name * self.times

    def identity(self):
        return {"kind": "parrot", "name": self.name, "times": self.times}


def make(rest, *, times: int = 1):
    return Parrot(rest, times=times)


def print_tables(con, res):
    for r in res.results:
        con.print(f"echo table of {r.subject}: {r.find('answer_length').value:g} characters")
'''


@pytest.fixture
def options_plugin(tmp_path):
    """A distribution in a folder of its own: a measure with options and a subject kind."""
    (tmp_path / "plugopts.py").write_text(OPTIONS_PLUGIN)
    info = tmp_path / "wordgames_plugopts-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: wordgames-plugopts\nVersion: 0.1\n"
    )
    (info / "entry_points.txt").write_text(
        "[wordgames.measures]\necho = plugopts:MEASURE\n[wordgames.subjects]\nparrot = plugopts:make\n"
        "[wordgames.tables]\necho-length = plugopts:print_tables\n"
    )
    return tmp_path


def _wordgames(args, plugin_dir, cwd):
    import os
    import subprocess

    env = {**os.environ, "PYTHONPATH": str(plugin_dir), "COLUMNS": "200"}  # no wrapped help
    return subprocess.run([sys.executable, "-m", "wordgames", *args], env=env, cwd=cwd,
                          capture_output=True, text=True, timeout=300)  # fmt: skip


def test_a_plugin_measure_and_subject_kind_run_from_the_cli_with_their_options(
    options_plugin, tmp_path
):
    """Issue 42: -O and --subject-option reach a plug-in's options; no core file names it."""
    import json

    out = tmp_path / "out"
    args = ["run", "-e", "parrot:hey", "-m", "echo-length", "-O", "echo-length.repeat=3",
            "-O", "echo-length.style=shout", "--subject-option", "times=2", "-o", str(out)]  # fmt: skip
    r = _wordgames(args, options_plugin, tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    rec = json.loads((out / "results.json").read_text())
    (result,) = rec["results"]
    (score,) = result["scores"]
    assert score["value"] == len(("hey" * 2 * 3).upper() + "!") == 19
    assert rec["parameters"]["options"]["echo-length"] == {"repeat": 3, "style": "shout"}
    listed = _wordgames(["options", "echo-length"], options_plugin, tmp_path)
    assert listed.returncode == 0, listed.stderr
    text = " ".join(listed.stdout.split())
    assert "echo-length.repeat" in text and "How many times the answer is said." in text
    assert "one of 'plain', 'shout'" in text
    bad = _wordgames(["run", "-e", "parrot:hey", "-m", "echo-length", "-O",
                      "echo-length.style=whisper", "-o", str(out)], options_plugin, tmp_path)  # fmt: skip
    assert bad.returncode == 2 and "expected one of 'plain', 'shout', got 'whisper'" in bad.stderr
    twice = _wordgames([*args, "-O", "echo-length.repeat=4"], options_plugin, tmp_path)
    assert twice.returncode == 2 and "echo-length.repeat is given twice" in twice.stderr
    wrong = _wordgames(["run", "-e", "parrot:hey", "-m", "echo-length", "--subject-option",
                        "tims=2", "-o", str(out)], options_plugin, tmp_path)  # fmt: skip
    assert wrong.returncode == 2 and "no option 'tims' (did you mean 'times'?)" in wrong.stderr


def test_a_plugin_measure_prints_its_own_tables_with_run_tables(options_plugin, tmp_path):
    """A plug-in's printer, declared in its own entry points, prints under run --tables."""
    args = ["run", "-e", "parrot:hey", "-m", "echo-length", "-O", "echo-length.repeat=2",
            "-o", str(tmp_path / "out")]  # fmt: skip
    plain = _wordgames(args, options_plugin, tmp_path)
    assert plain.returncode == 0 and "echo table" not in plain.stdout, plain.stderr
    r = _wordgames([*args, "--tables"], options_plugin, tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "echo-length: its tables" in r.stdout
    assert "echo table of hey: 6 characters" in r.stdout  # "heyhey": repeat=2


def test_an_uninstalled_subject_kind_names_the_kinds_it_could_be(tmp_path):
    r = _wordgames(["run", "-e", "first:x", "-o", str(tmp_path / "o")], tmp_path, tmp_path)
    assert r.returncode == 2 and "a subject kind 'PREFIX:NAME'" in " ".join(r.stderr.split())
