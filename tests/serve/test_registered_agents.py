"""Issue 42: a study's Codenames agent may be any registered agent (a plug-in's too), not only
the web app's own line-up; an agent that cannot play from the study's embedding is refused."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from wordgames.agents import AgentSpec

#: a receiver only the registry knows (a plug-in's, through $WORDGAMES_EXTRA_AGENTS)
PLUGIN_RECEIVER = AgentSpec("plug-nearest", "codenames", "receiver", "vectors",
                            "wordgames.codenames.agents:EmbeddingNearestReceiver", "a test's")  # fmt: skip


def _cfg():
    return SimpleNamespace(codenames={"embedding": "glove-6b-50d"}, seed=0, slug="s")


def test_a_registered_receiver_plays_in_a_study(monkeypatch):
    from wordgames.codenames.agents import EmbeddingNearestReceiver
    from wordgames.serve import resources

    monkeypatch.setenv(
        "WORDGAMES_EXTRA_AGENTS", "tests.serve.test_registered_agents:PLUGIN_RECEIVER"
    )
    bot = resources.agent("receiver", "plug-nearest", _cfg())
    assert isinstance(bot, EmbeddingNearestReceiver)
    assert bot.guess(["dog", "car", "tree"], "cat", 1) == ["dog"]
    assert resources.agent("receiver", "nearest", _cfg()).name == "nearest"  # the line-up's


def test_an_agent_that_cannot_play_from_the_embedding_is_refused():
    from wordgames.serve import resources
    from wordgames.serve.config import StudyConfigError

    with pytest.raises(
        StudyConfigError, match="'logprob-receiver' is a receiver that needs scorer"
    ):
        resources.agent("receiver", "logprob-receiver", _cfg())
    with pytest.raises(StudyConfigError, match="'cluster' is a sender"):
        resources.agent("receiver", "cluster", _cfg())
    with pytest.raises(
        StudyConfigError, match=r"unknown receiver 'nearst'; known: .*or chat:MODEL"
    ):
        resources.agent("receiver", "nearst", _cfg())
