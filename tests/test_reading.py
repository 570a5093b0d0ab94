"""A player's free answer is read as a careful person reads it (issue 37, wordgames.subjects).

Answers in the styles chat models write (preambles, markdown, numbering, quotes, capitals, a
reason after the item, spaces for underscores, a closing full stop) are each read as meant, by
the rule the docs name; an answer that names two options or none is unreadable, never a guess.
"""

from __future__ import annotations

import pytest

from wordgames.oddmanout.players import parse_answer
from wordgames.subjects import RULES, AnswerError, parse_choice, read_choice

PUZZLE = ["cherry", "orange", "apple", "grass", "grape"]

#: (answer, the rule that reads it): every one names "grass"
ODDMANOUT_STYLES = [
    ("grass", "exact"),
    ("Grass", "case"),
    ("grass.", "tidy"),
    ("**grass**", "tidy"),
    ("`grass`", "tidy"),
    ('"grass"', "tidy"),
    ("'Grass'.", "tidy"),
    ("1. grass", "tidy"),
    ("- grass", "tidy"),
    ("> grass", "tidy"),
    ("### grass", "tidy"),
    ("The answer is grass.", "preamble"),
    ("The odd one out is **grass**.", "preamble"),
    ("Final answer: GRASS", "preamble"),
    ("**Answer:** grass", "preamble"),
    ("The word that doesn't belong is grass.", "preamble"),
    ("grass - the others are all fruits", "reason"),
    ("grass, because the others are fruits", "reason"),
    ("grass (the others are fruits)", "reason"),
    ("My choice: grass\nReason: it is a plant, not a fruit.", "reason"),
    ("I think the odd one out is grass, since it's not a fruit.", "mention"),
    ("Looking at these words, grass stands out: it is a plant.", "mention"),
]

LINKS = ["Isaac_Newton", "Albert_Einstein", "Washington,_D.C.", "Physics",
         "E.T._the_Extra-Terrestrial"]  # fmt: skip

#: (answer, the rule that reads it): every one names "Albert_Einstein"
WALES_STYLES = [
    ("Albert_Einstein", "exact"),
    ("albert_einstein", "case"),
    ("Albert Einstein", "tidy"),
    ("Albert Einstein.", "tidy"),
    ("**Albert_Einstein**", "tidy"),
    ("`Albert_Einstein`", "tidy"),
    ('"Albert Einstein"', "tidy"),
    ("1. Albert_Einstein", "tidy"),
    ("'Albert_Einstein'.", "tidy"),
    ("> Albert_Einstein", "tidy"),
    ("I would click on Albert_Einstein.", "preamble"),
    ("I choose Albert Einstein", "preamble"),
    ("I'll follow Albert_Einstein", "preamble"),
    ("Link: Albert_Einstein", "preamble"),
    ("The best link is Albert_Einstein.", "preamble"),
    ("Answer: **Albert Einstein**", "preamble"),
    ("Albert_Einstein - he is closest to the target", "reason"),
    ("Albert_Einstein, because it leads to Physics", "reason"),
    ("Albert_Einstein (a physicist)", "reason"),
    ("Next link: Albert_Einstein", "mention"),
    ("Go to Albert_Einstein, it is the nearest page.", "mention"),
]


@pytest.mark.parametrize(("answer", "rule"), ODDMANOUT_STYLES)
def test_oddmanout_answers_in_realistic_styles_are_read_as_meant(answer, rule):
    assert read_choice(answer, PUZZLE) == read_choice(answer, PUZZLE)  # no state between calls
    got = read_choice(answer, PUZZLE)
    assert (got.value, got.rule) == ("grass", rule)
    assert parse_answer(answer, PUZZLE)[0] == "grass"


@pytest.mark.parametrize(("answer", "rule"), WALES_STYLES)
def test_wales_answers_in_realistic_styles_are_read_as_meant(answer, rule):
    got = read_choice(answer, LINKS)
    assert (got.value, got.rule) == ("Albert_Einstein", rule)


def test_there_are_twenty_styles_a_game_and_every_rule_is_used():
    assert len(ODDMANOUT_STYLES) >= 20 and len(WALES_STYLES) >= 20
    assert {r for _, r in ODDMANOUT_STYLES} == set(RULES) == {r for _, r in WALES_STYLES}


def test_an_exact_answer_ending_in_a_full_stop_is_itself():
    # the old reader took the full stop off before comparing: this title could never be chosen
    assert read_choice("Washington,_D.C.", LINKS) == read_choice("Washington,_D.C.", LINKS)
    assert parse_choice("Washington,_D.C.", LINKS) == "Washington,_D.C."
    assert parse_choice("Washington, D.C.", LINKS) == "Washington,_D.C."
    assert parse_choice("E.T. the Extra-Terrestrial.", LINKS) == "E.T._the_Extra-Terrestrial"
    assert parse_choice("running.", ["running.", "run"]) == "running."
    assert parse_choice("running.", ["running", "run"]) == "running"


@pytest.mark.parametrize(
    "answer",
    ["cherry or grass", "banana", "", "Either grass or apple.", "I am not sure.", "orange apple"],
)
def test_an_answer_naming_two_options_or_none_is_unreadable(answer):
    with pytest.raises(AnswerError):
        read_choice(answer, PUZZLE)


def test_none_is_an_answer_only_when_allowed():
    for answer in ("none", "None.", "**None**", "Answer: none"):
        assert read_choice(answer, PUZZLE, allow_none=True).value is None
        with pytest.raises(AnswerError):
            read_choice(answer, PUZZLE)


def test_an_option_inside_a_longer_one_found_too_does_not_count():
    links = ["York", "New_York", "Paris"]
    assert read_choice("I would go to New York next.", links).value == "New_York"
    assert read_choice("Go to York next.", links).value == "York"


def test_the_category_is_kept_in_the_format_asked_for():
    assert parse_answer("**grass**: not a fruit", PUZZLE) == ("grass", "not a fruit", "named")
    assert parse_answer("Answer: grass", PUZZLE) == ("grass", None, "not-named")


def test_the_wales_navigator_sees_what_it_visited_and_never_goes_back():
    import numpy as np

    from wordgames.subjects import PlayerSubject
    from wordgames.wales.graph import DiGraph
    from wordgames.wales.players import PlayerNavigator

    asked = []

    class Back(PlayerSubject):  # always names the first link it is shown: back, if it could
        def answer(self, q):
            asked.append(q)
            return q.fields["links"][0]

        def identity(self):
            return {"kind": "back"}

    # a <-> b, b -> c, c -> a and c -> d: from a to d the first links lead back every time
    g = DiGraph.from_edges([0, 1, 1, 2, 2], [1, 0, 2, 0, 3], names=["a", "b", "c", "d"])
    out = PlayerNavigator(Back("b")).run(g, np.array([0]), np.array([3]))
    assert out["success"].tolist() == [True] and out["n_steps"].tolist() == [3]
    assert [q.fields["links"] for q in asked] == [("b",), ("c",), ("d",)]
    assert [q.fields["visited"] for q in asked] == [("a",), ("a", "b"), ("a", "b", "c")]
    assert "'a', 'b'" in asked[2].prompt
    # every link back to a visited page: a dead end, not a loop to the step cap
    g2 = DiGraph.from_edges([0, 1], [1, 0], names=["a", "b"])
    out2 = PlayerNavigator(Back("b")).run(g2, np.array([0]), np.array([1]))
    assert out2["success"].tolist() == [True]
    g3 = DiGraph.from_edges([0, 1, 2], [1, 0, 0], names=["a", "b", "c"])
    out3 = PlayerNavigator(Back("b")).run(g3, np.array([0]), np.array([2]))
    assert out3["reason"].tolist() == ["dead-end"] and out3["n_steps"].tolist() == [1]


def test_algorithm_7_asks_the_player_for_tau_guesses():
    from wordgames.codenames.measures import receiver_guess_score
    from wordgames.codenames.players import PlayerReceiver
    from wordgames.codenames.records import HumanSenderRecord
    from wordgames.subjects import PlayerSubject

    asked = []

    class Guesser(PlayerSubject):  # names the blue words it is told of, in a chatty style
        def answer(self, q):
            asked.append(q)
            return "My guesses:\n1. **Dog** (a pet)\n2. cat, because cats are pets\n3. car"

        def identity(self):
            return {"kind": "guesser"}

    rec = HumanSenderRecord("toy", "1", blue=("dog", "cat"), red=("car", "sun"), clue="pet",
                            number=2, targets=("dog", "cat"))  # fmt: skip
    res = receiver_guess_score([PlayerReceiver(Guesser("g"))], [rec])["player-receiver"]
    assert [q.fields["number"] for q in asked] == [2]
    assert "for 2 word(s)" in asked[0].prompt and "exactly 2" in asked[0].prompt
    # the heading passed over, the reasons after the words read past; two guesses read
    assert res.scores == [1.0] and dict(res.skipped) == {}
    asked.clear()

    class Plain(Guesser):
        def answer(self, q):
            asked.append(q)
            return "1. **Dog** (a pet)\n2. car\n3. cat"

    res = receiver_guess_score([PlayerReceiver(Plain("p"))], [rec])["player-receiver"]
    assert res.scores == [(1.0 - 1.0) / 2]  # dog a target, car red; the third not read

    class Remark(Guesser):  # a remark that names no board word is passed over
        def answer(self, q):
            return "1. dog\n2. something hot"

    res = receiver_guess_score([PlayerReceiver(Remark("r"))], [rec])["player-receiver"]
    assert res.scores == [1.0 / 2] and res.unread == 0

    class Unreadable(Guesser):  # no board word, asked twice (one re-prompt): no guess, in n
        def answer(self, q):
            asked.append(q)
            return "I have no idea, sorry."

    asked.clear()
    res = receiver_guess_score([PlayerReceiver(Unreadable("u"))], [rec])["player-receiver"]
    assert res.scores == [0.0] and res.unread == 1 and dict(res.skipped) == {}
    assert len(asked) == 2 and asked[1].history == (("I have no idea, sorry.",
                                                     asked[1].history[0][1]),)  # fmt: skip
    assert "guesses no board word" in asked[1].history[0][1]
    assert res.reading.row()["unreadable"] == 1 and res.reading.row()["reprompted"] == 1


# --------------------------------------------------------------------------- lists
BOARD = ["dog", "cat", "ice_cream", "car", "tree"]
ORDER = ["cat", "dog", "tree", "ice_cream", "car"]


def _lines(fmt: str, words=ORDER) -> str:
    return "\n".join(fmt.format(i=i, w=w, W=w.capitalize(), s=w.replace("_", " "))
                     for i, w in enumerate(words, 1))  # fmt: skip


#: (answer, the rule that reads it): every one ranks the board as ORDER
RANKING_STYLES = [
    (_lines("{w}"), "exact"),
    (", ".join(ORDER), "exact"),
    (_lines("{W}"), "case"),
    (_lines("{i}. {w}"), "tidy"),
    (_lines("{i}) {w}"), "tidy"),
    (_lines("- {w}"), "tidy"),
    (_lines("* {w}"), "tidy"),
    (_lines("**{w}**"), "tidy"),
    (_lines("{i}. **{W}**"), "tidy"),
    (_lines("`{w}`"), "tidy"),
    (_lines('"{w}"'), "tidy"),
    (_lines("{s}"), "tidy"),
    (_lines("{w}."), "tidy"),
    ("\n\n".join(ORDER), "tidy"),
    (_lines("{i}. {w} - related to pets"), "reason"),
    (_lines("{w} (a guess)"), "reason"),
    (_lines("{i}. {W}: close to the clue"), "reason"),
    ("Here is my ranking:\n" + _lines("{i}. {w}"), "tidy"),
    (
        "Sure! From most to least related:\n\n" + _lines("{i}. **{W}**") + "\n\nHope this helps.",
        "tidy",
    ),
    (_lines("{w}, because it is near"), "reason"),
    ("1. cat\n2. dog\n3. tree", "partial"),  # the rest in the order shown
]

#: (answer, the rule that reads it): every one lists ocean (2) then waves (1)
CLUE_STYLES = [
    ("ocean 2\nwaves 1", "exact"),
    ("Ocean 2\nWaves 1", "case"),
    ("1. ocean 2\n2. waves 1", "tidy"),
    ("ocean (2)\nwaves (1)", "tidy"),
    ("ocean, 2\nwaves, 1", "tidy"),
    ("ocean: 2\nwaves: 1", "tidy"),
    ("ocean - 2\nwaves - 1", "tidy"),
    ("**ocean** 2\n**waves** 1", "tidy"),
    ("**Ocean** (2)\n**Waves** (1)", "tidy"),
    ('"ocean" 2\n"waves" 1', "tidy"),
    ("- ocean 2\n- waves 1", "tidy"),
    ("ocean 2, waves 1", "tidy"),
    ("ocean 2; waves 1", "tidy"),
    ("Clue: ocean, Number: 2\nClue: waves, Number: 1", "tidy"),
    ("ocean 2 - sea and fish\nwaves 1 - the beach", "reason"),
    ("1. **ocean** (2): links sea and fish\n2. **waves** (1): the beach", "reason"),
    ("ocean 2 (sea, fish)\nwaves 1 (beach)", "reason"),
    ("Here are my clues:\nocean 2\nwaves 1", "partial"),  # the heading is passed over
    ("ocean for 2\nwaves for 1", "tidy"),
    ("ocean x2\nwaves x1", "tidy"),
    ("1) Ocean - 2\n2) Waves - 1", "tidy"),
]


@pytest.mark.parametrize(("answer", "rule"), RANKING_STYLES)
def test_rankings_in_realistic_styles_are_read_as_meant(answer, rule):
    from wordgames.subjects import read_ranking

    got = read_ranking(answer, BOARD)
    assert (got.value, got.rule) == (ORDER, rule)


@pytest.mark.parametrize(("answer", "rule"), CLUE_STYLES)
def test_clues_in_realistic_styles_are_read_as_meant(answer, rule):
    from wordgames.codenames.players import read_clues

    got = read_clues(answer, BOARD)
    assert (got.value, got.rule) == ([("ocean", 2), ("waves", 1)], rule)


def test_twenty_styles_of_lists_too():
    assert len(RANKING_STYLES) >= 20 and len(CLUE_STYLES) >= 20
