"""The agent registry: names, needs, plug-ins, the ``wordgames agents`` listing."""

from __future__ import annotations

import numpy as np
import pytest
from typer.testing import CliRunner

from wordgames.agents import AgentSpec, all_agents, get_agent, list_agents, usable
from wordgames.embeddings import Embedding
from wordgames.errors import WordgamesError
from wordgames.subjects import PlayerSubject

#: a plug-in's agent, found through $WORDGAMES_EXTRA_AGENTS
PLUGIN = AgentSpec(
    "echo", "oddmanout", "solver", "player", "wordgames.oddmanout.players:PlayerSolver", "toy"
)


class _P(PlayerSubject):
    def answer(self, q):
        return "none"

    def identity(self):
        return {"kind": "none"}


def test_every_builtin_agent_loads_and_names_are_unique_per_game():
    for a in all_agents():
        assert callable(a.load()), a.name
    keys = [(a.game, a.name) for a in all_agents()]
    assert len(keys) == len(set(keys))


def test_usable_splits_by_capability():
    """Every receiver is usable or left out with its reason, by its need alone (read from the
    registry, so a new receiver is checked without this test naming it)."""
    emb = Embedding(["a", "b"], np.eye(2), name="e")
    receivers = list_agents("codenames", "receiver")
    for subject, has in ((emb, {"vectors", ""}), (_P("p"), {"player", ""})):
        ok, why = usable("codenames", "receiver", subject)
        assert [a.name for a in ok] == [a.name for a in receivers if a.needs in has]
        kind = "vectors" if subject is emb else "player"
        assert why == {
            a.name: f"needs a subject with {a.needs}; {subject.name} is {kind}"
            for a in receivers
            if a.needs not in has
        }
    ok, why = usable("codenames", "receiver", emb)
    assert {"nearest", "random-receiver"} <= {a.name for a in ok}  # the paper's and the baseline
    assert why["player-receiver"] == "needs a subject with player; e is vectors"


def test_unknown_agent_says_did_you_mean():
    with pytest.raises(WordgamesError, match="did you mean 'greedy'"):
        get_agent("wales", "gredy")


#: an agent in a role its game does not have (the roles are the family manifests')
BAD_ROLE = AgentSpec("x", "wales", "sender", "vectors", "m:f")


def test_bad_declarations_are_refused(monkeypatch):
    with pytest.raises(WordgamesError, match="needs 'gpu'"):
        AgentSpec("x", "wales", "navigator", "gpu", "m:f")
    # the role is checked against the manifests' roles when the agents are gathered, before
    # any is listed or used (a manifest's own agents are made while it is being loaded)
    monkeypatch.setenv("WORDGAMES_EXTRA_AGENTS", "tests.test_agents:BAD_ROLE")
    with pytest.raises(WordgamesError, match="role 'sender' is not a role of game 'wales'"):
        list_agents()
    with pytest.raises(WordgamesError, match="not a role of game"):
        get_agent("wales", "greedy")


def test_plugin_agents_from_the_environment(monkeypatch):
    monkeypatch.setenv("WORDGAMES_EXTRA_AGENTS", "tests.test_agents:PLUGIN")
    assert get_agent("oddmanout", "echo") is PLUGIN
    monkeypatch.setenv("WORDGAMES_EXTRA_AGENTS", "tests.test_agents:_P")
    with pytest.raises(WordgamesError, match="is not an AgentSpec"):
        list_agents()


def test_cli_lists_every_agent_with_its_need():
    from wordgames.cli import app

    out = CliRunner().invoke(app, ["agents"])
    assert out.exit_code == 0, out.output
    for a in all_agents():
        assert f"{a.role} {a.name}  (needs {a.needs or 'nothing'})" in out.output


def test_an_agent_declared_on_its_class_is_registered(monkeypatch):
    """A manifest's ``agent_modules``: the decorated class is an agent, with no list to edit;
    a subclass or a name imported into the module is not declared twice."""
    import dataclasses

    import wordgames.manifest as manifest
    from wordgames.agents import declared_in
    from wordgames.manifest import TOY_WORDS
    from wordgames.testing import check_agent

    specs = declared_in("tests._declared_agents")
    assert [(s.name, s.role, s.factory) for s in specs] == [
        ("farthest", "receiver", "tests._declared_agents:FarthestReceiver")
    ]
    assert specs[0].description == "Board words farthest from the clue first (a toy receiver)."
    real = manifest.manifests

    def with_module(builtin=None):
        out = real(builtin)
        return tuple(
            dataclasses.replace(m, agent_modules=(*m.agent_modules, "tests._declared_agents"))
            if m.name == "codenames" else m
            for m in out
        )  # fmt: skip

    monkeypatch.setattr(manifest, "manifests", with_module)
    names = [a.name for a in list_agents("codenames", "receiver")]
    assert names[-1] == "farthest" and names.count("farthest") == 1
    emb = Embedding(["a", "b", "c"], np.array([[1.0, 0], [0, 1], [0.8, 0.6]]), name="e")
    agent = get_agent("codenames", "farthest").build(emb)
    assert agent.ranked_forward(["a", "b"], "c") == ["b", "a"]  # nearest gives a, b
    words = [*TOY_WORDS, "pet", "animal", "metal", "water"]  # the board and the checks' clues
    toy = Embedding(words, np.random.default_rng(0).normal(size=(len(words), 4)), name="toy")
    check_agent(get_agent("codenames", "farthest"), toy)  # the receiver role's conformance
    with pytest.raises(WordgamesError, match="agent module 'tests.nowhere' cannot be imported"):
        declared_in("tests.nowhere")
