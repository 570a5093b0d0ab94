"""Codenames agents chosen by name (``senders`` / ``receivers`` options), plug-ins' included."""

from __future__ import annotations

import pytest

import wordgames
from wordgames.agents import AgentSpec
from wordgames.codenames.agents import EmbeddingNearestReceiver

OPTS = {"datasets": ["codenames-pilot"], "max_records": 40}


class ReversedReceiver(EmbeddingNearestReceiver):
    """A plug-in's receiver: the nearest receiver's ranking, reversed (a worse guesser)."""

    name = "reversed"

    def ranked_forward(self, board_words, clue):
        return super().ranked_forward(board_words, clue)[::-1]

    def guess(self, board_words, clue, number):
        return self.ranked_forward(board_words, clue)[:number]


#: the plug-in's one declaration (with its class: the two pieces a new agent needs)
REVERSED = AgentSpec(
    "reversed", "codenames", "receiver", "vectors",
    "tests.codenames.test_agents_by_name:ReversedReceiver", "nearest, reversed",
)  # fmt: skip


def _rows(res, metric="human_receiver.map"):
    return {s.agent: s for s in res.scores if s.dataset == "codenames-pilot" and s.metric == metric}


@pytest.fixture(scope="module")
def default(glove, data_root):
    return wordgames.evaluate(glove, measures=["codenames"], options={"codenames": OPTS})


def test_agents_by_name_score_as_in_the_default_line_up(default, glove):
    opts = {**OPTS, "senders": ["cluster"], "receivers": ["nearest"]}
    res = wordgames.evaluate(glove, measures=["codenames"], options={"codenames": opts})
    assert set(_rows(res)) == {"nearest"}
    assert _rows(res)["nearest"].value == _rows(default)["nearest"].value
    rank = "human_receiver.mean_rank"
    assert set(_rows(res, rank)) == {"cluster"}
    assert _rows(res, rank)["cluster"].value == _rows(default, rank)["cluster"].value


def test_a_plugin_receiver_by_name(monkeypatch, default, glove):
    monkeypatch.setenv("WORDGAMES_EXTRA_AGENTS", "tests.codenames.test_agents_by_name:REVERSED")
    opts = {**OPTS, "receivers": ["nearest", "reversed", "player-receiver"]}
    res = wordgames.evaluate(glove, measures=["codenames"], options={"codenames": opts})
    rows = _rows(res)
    assert set(rows) == {"nearest", "reversed"}
    assert rows["reversed"].value < rows["nearest"].value == _rows(default)["nearest"].value
    notes = res.result("codenames").notes
    assert any(
        "receiver 'player-receiver' not run: needs a subject with player" in n for n in notes
    )


def test_an_unknown_agent_is_an_option_error():
    from wordgames.measure import OptionError
    from wordgames.registry import get_measure

    with pytest.raises(OptionError, match="did you mean 'nearest'"):
        get_measure("codenames").make_options({"receivers": ["nearst"]})
    with pytest.raises(OptionError, match="'cluster' is a sender, not a receiver"):
        get_measure("codenames").make_options({"receivers": ["cluster"]})
