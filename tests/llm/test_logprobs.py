"""Scoring by log-probabilities: a Codenames receiver that orders the board by each word's
log-probability after the clue, and the check that a server's log-probabilities are the
model's before any of them is used."""

from __future__ import annotations

import numpy as np
import pytest

import wordgames
from tests.test_player_subject import _average_precision, _score, codenames_table
from wordgames.agents import get_agent
from wordgames.llm.client import span_logprob
from wordgames.subjects import AnswerError, PlayerSubject


class TableScorer(PlayerSubject):
    """Scores a board word by minus its place in the table's order for the board and clue."""

    capabilities = frozenset({"player", "scorer"})

    def __init__(self, table):
        super().__init__("table-scorer")
        self.table, self.asked = table, 0

    def answer(self, question):
        return ""  # as a player it answers nothing readable

    def score(self, question, options):
        self.asked += 1
        key = ("codenames", question.fields["clue"], frozenset(question.fields["board"]))
        order = self.table[key].split("\n")
        return [-float(order.index(o)) for o in options]

    def identity(self):
        return {"kind": "table-scorer", "n": len(self.table)}


def test_the_continuation_is_the_tokens_after_the_prompt():
    # "The cat" + " sat" + a generated token: offsets 0, 3, 7 (" sat"), 11 (generated)
    assert span_logprob([0, 3, 7, 11], [None, -2.0, -0.25, -9.0], 7, 11) == -0.25
    assert span_logprob([0, 3, 7, 9], [None, -2.0, -0.25, -0.5], 7, 11) == -0.75
    with pytest.raises(AnswerError, match="begins where the continuation does"):
        span_logprob([0, 3, 8], [None, -2.0, -0.25], 7, 11)  # the prompt's end merged


def test_a_scorer_receiver_is_scored_by_hand_through_evaluate(data_root):
    from wordgames.codenames.board import _norm
    from wordgames.codenames.human_data import load_human_data

    table = codenames_table(data_root)
    scorer = TableScorer(table)
    res = wordgames.evaluate(
        [scorer],
        measures=["codenames"],
        options={
            "codenames": {
                "datasets": ["codenames-pilot"],
                "senders": [],
                "receivers": ["logprob-receiver"],
            }
        },  # fmt: skip
        ci_resamples=100,
    )
    row = _score(res, "codenames", "codenames-pilot", "logprob-receiver", "human_receiver.map")
    aps = []
    for r in load_human_data("codenames-pilot", data_root).receiver:
        board = list(dict.fromkeys(_norm(w) for w in r.board))
        order = table[("codenames", _norm(r.clue), frozenset(board))].split("\n")
        aps += [_average_precision(order, {_norm(w) for w in r.chosen})] * r.count
    assert row.value == pytest.approx(np.mean(aps), abs=1e-12) and row.n == len(aps)
    assert scorer.asked > 0


def test_a_player_without_scores_cannot_drive_the_logprob_receiver():
    class Words(PlayerSubject):
        def answer(self, q):
            return ""

        def identity(self):
            return {"kind": "words"}

    why = get_agent("codenames", "logprob-receiver").reason_unusable(Words("w"))
    assert "needs a subject with scorer" in why


@pytest.mark.slow
def test_the_servers_echoed_logprobs_are_checked_before_use(llm_server, tmp_path):
    """llama-cpp-python 0.3 pairs each echoed token with the next position's logits: the
    check finds it with two requests, and the receiver is left out of the run, with why."""
    from wordgames.llm.subject import ChatSubject

    def subject():
        return ChatSubject(
            "smollm2", base_url=llm_server.base_url, cache_path=str(tmp_path / "c.sqlite")
        )

    s = subject()
    why = get_agent("codenames", "logprob-receiver").reason_unusable(s)
    assert "its echoed log-probabilities are not the model's" in why
    assert s.usage.requests == 2
    again = subject()  # a new process would ask nothing: both answers are cached
    assert get_agent("codenames", "logprob-receiver").reason_unusable(again) == why
    assert again.usage.requests == 0
    res = wordgames.evaluate(
        [subject()],
        measures=["codenames"],
        options={
            "codenames": {
                "datasets": ["codenames-pilot"],
                "receivers": ["logprob-receiver", "random-receiver"],
                "senders": ["logprob-sender"],
            }
        },  # fmt: skip
        quick=True,
    )
    notes = " ".join(res.result("codenames").notes)
    assert "receiver 'logprob-receiver' not run:" in notes and "echoed" in notes
    assert "sender 'logprob-sender' not run:" in notes
    assert any(s.agent == "random-receiver" for s in res.scores)


class AlphabeticalScorer(PlayerSubject):
    """Scores options: the earlier in the alphabet, the higher (a scorer, no player)."""

    capabilities = frozenset({"player", "scorer"})

    def answer(self, question):
        return ""

    def score(self, question, options):
        order = sorted(options)
        return [-float(order.index(o)) for o in options]

    def identity(self):
        return {"kind": "alphabetical-scorer"}


def test_a_scorer_sender_ranks_the_candidates_a_person_chose_from(data_root):
    """On the source whose speakers chose among 8 given adjectives, the person's clue is
    ranked among the same candidates as every sender's; by hand for an alphabetical scorer."""
    from tests.conftest import require_dataset
    from wordgames.codenames.human_data import load_human_data
    from wordgames.codenames.measures import candidates_of, problems_from_sender_records

    name = "codenames-human-heyyjudes"
    require_dataset(name)
    res = wordgames.evaluate(
        [AlphabeticalScorer("abc")],
        measures=["codenames"],
        options={
            "codenames": {
                "datasets": [name],
                "senders": ["logprob-sender", "random-sender"],
                "receivers": [],
            }
        },  # fmt: skip
        ci_resamples=100,
    )
    row = _score(res, "codenames", name, "logprob-sender", "human_sender.mean_rank_candidates")
    ranks, weights = [], []
    for r in load_human_data(name, data_root).sender:
        cands = candidates_of(r)
        (p,), _ = problems_from_sender_records([r])
        if cands and p.clue in cands:
            ranks.append(1 + sum(c < p.clue for c in cands))
            weights.append(p.weight)
    assert row.value == pytest.approx(np.average(ranks, weights=weights), abs=1e-12)
    assert row.n == sum(weights) and len(ranks) > 0  # n counts the weighted records
    # it ranks no whole vocabulary: no free-choice row of its own
    assert not [s for s in res.scores if s.agent == "logprob-sender"
                and s.metric != "human_sender.mean_rank_candidates"]  # fmt: skip
