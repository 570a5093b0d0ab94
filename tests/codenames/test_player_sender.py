"""The player sender: how it reads a list of clues, its censored ranks and mrr@10."""

from __future__ import annotations

import numpy as np
import pytest

from wordgames.codenames.board import Board, ClueRules
from wordgames.codenames.measures import RANK_STATS, RankProblem, SenderRanks, sender_ranks
from wordgames.codenames.players import PlayerSender, parse_clues
from wordgames.subjects import AnswerError, PlayerSubject


class Listing(PlayerSubject):
    """Answers every sender question with the same text."""

    def __init__(self, text: str):
        super().__init__("listing")
        self.text, self.asked = text, 0

    def answer(self, q):
        self.asked += 1
        return self.text

    def identity(self):
        return {"kind": "listing", "text": self.text}


TEN = "\n".join(f"clue{c} 1" for c in "abcdefghij")


@pytest.mark.parametrize(
    ("answer", "why"),
    [
        ("", "lists no clue"),
        ("sea breeze 1", "not a word and a number"),
        ("Dog 1", "it is a board word"),
        ("ice 1", "part of the board word 'ice cream'"),
    ],
)
def test_parse_clues_names_what_it_cannot_read(answer, why):
    with pytest.raises(AnswerError, match=why):
        parse_clues(answer, ["dog", "ice cream"])


@pytest.mark.parametrize(
    ("answer", "read", "rule"),
    [
        ("ocean", [("ocean", 1)], "partial"),  # no number: read with 1
        ("ocean 2\nsea breeze 1", [("ocean", 2)], "partial"),  # two words: passed over
        ("ocean 2\nocean 1", [("ocean", 2)], "partial"),  # listed again: the first stands
        ("ocean 2\ndog 1\nwaves 1", [("ocean", 2), ("waves", 1)], "partial"),  # a board word
        ("ocean 2\nwaves 1", [("ocean", 2), ("waves", 1)], "exact"),
    ],
)
def test_read_clues_passes_over_what_is_no_legal_clue_and_says_so(answer, read, rule):
    from wordgames.codenames.players import read_clues

    got = read_clues(answer, ["dog", "ice cream"])
    assert (got.value, got.rule) == (read, rule)


def test_parse_clues_reads_numbering_and_separators_and_applies_the_boards_rules():
    got = parse_clues("1. Ocean: 2\n2) waves - 1\ntide 0", ["dog"])
    assert got == [("ocean", 2), ("waves", 1), ("tide", 0)]
    assert parse_clues("ocean 2, waves 1; tide 0", ["dog"]) == [("ocean", 2), ("waves", 1),
                                                                 ("tide", 0)]  # fmt: skip
    with pytest.raises(AnswerError, match="shares a stem"):
        parse_clues("dogs 1", ["dog"], ClueRules(no_shared_stem=True))


def test_the_list_is_cut_at_n_clues_and_fewer_than_ten_is_refused():
    s = PlayerSender(Listing(TEN + "\nextra 1"))
    assert len(s.ranked_forward(["dog"], ["cat"])) == 10
    with pytest.raises(ValueError, match="at least 10"):
        PlayerSender(Listing(TEN), n_clues=5)


def test_give_clue_skips_a_clue_already_given_on_this_board():
    s = PlayerSender(Listing("pet 2\nfur 1"))
    board = Board(("dog", "cat"), ("car",))
    assert s.give_clue(board) == ("pet", 2)
    assert s.give_clue(board.with_clue_given("pet")) == ("fur", 1)
    with pytest.raises(AnswerError, match="already given"):
        s.give_clue(board.with_clue_given("pet").with_clue_given("fur"))


def test_censored_ranks_by_hand():
    # the list: cluea..cluej; people's clues at positions 1 and 4, one unlisted, one unreadable
    problems = [
        RankProblem("r1", ("dog",), ("cat",), "cluea"),
        RankProblem("r2", ("dog",), ("cat",), "clued", weight=2),
        RankProblem("r3", ("dog",), ("cat",), "zebra"),
    ]
    res = sender_ranks([PlayerSender(Listing(TEN))], problems)["player-sender"]
    assert res.listed == 10 and res.best == [1, 4, 11]
    s = res.summary(n_resamples=200, intervals=RANK_STATS)
    assert s["hits@10"] == pytest.approx(3 / 4)  # r2 counts twice
    assert s["mrr@10"] == pytest.approx((1 + 2 * 0.25 + 0) / 4)
    assert np.isnan(s["mean_rank"]) and np.isnan(s["mrr"]) and np.isnan(s["hits@100"])
    assert res.defined() == ("hits@10", "mrr@10")
    lo, hi = s["ci"]["mrr@10"]
    assert 0.0 <= lo <= s["mrr@10"] <= hi <= 1.0
    # no list at all (asked again, once): the game's no move, no clue listed, in n, counted
    listing = Listing("no list here!")
    bad = sender_ranks([PlayerSender(listing)], problems)["player-sender"]
    assert not bad.skipped and bad.best == [11, 11, 11] and bad.unread == 4
    assert listing.asked == 2 and bad.reading.row()["unreadable"] == 1
    assert bad.summary(n_resamples=0)["hits@10"] == 0.0


def test_mrr_at_10_of_a_full_ranking_is_its_reciprocal_rank_cut_at_ten():
    r = SenderRanks("s", {})
    for i, (best, worst) in enumerate([(1, 1), (4, 4), (12, 12), (2, 3)]):
        r.record_ids.append(str(i))
        r.groups.append("g")
        r.best.append(best)
        r.worst.append(worst)
        r.n_candidates.append(100)
        r.weights.append(1)
    s = r.summary(n_resamples=0)
    assert s["mrr@10"] == pytest.approx((1 + 0.25 + 0 + 1 / 2.5) / 4)
    assert s["mrr@10"] <= s["mrr"] and r.defined()[0] == "mean_rank"
