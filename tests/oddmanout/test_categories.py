"""A player names the category of the four words it keeps; WordNet confirms it or not."""

from __future__ import annotations

import numpy as np
import pytest

import wordgames
from wordgames.oddmanout.categories import LEFT_OUT, category_vertices, compare_categories
from wordgames.oddmanout.players import PlayerSolver, parse_answer
from wordgames.oddmanout.puzzles import PuzzleSet
from wordgames.subjects import AnswerError, PlayerSubject

SET = "anomia-common-dev"


@pytest.fixture(scope="module")
def wordnet():
    from wordgames.errors import DatasetMissingError
    from wordgames.oddmanout.wordnet import wordnet_solver

    try:
        return wordnet_solver()
    except (DatasetMissingError, LookupError, ImportError) as exc:
        pytest.skip(f"WordNet not available: {exc}")


class Answers(PlayerSubject):
    """Answers from a table keyed by the puzzle's words (in any order)."""

    def __init__(self, table):
        super().__init__("answers")
        self.table = {frozenset(k): v for k, v in table.items()}

    def answer(self, q):
        return self.table.get(frozenset(q.fields["words"]), "none")

    def identity(self):
        return {"kind": "answers", "n": len(self.table)}


def test_the_answer_is_read_strictly_and_the_category_apart():
    words = ["apple", "bus", "pear"]
    assert parse_answer("BUS : Kinds of Fruit.", words) == ("bus", "kinds of fruit", "named")
    assert parse_answer("none", words) == (None, None, "not-named")
    assert parse_answer("bus:", words) == ("bus", None, "not-named")
    assert parse_answer("bus: a b c d e f g", words) == ("bus", None, "unreadable")
    with pytest.raises(AnswerError):
        parse_answer("kiwi: fruit", words)


def test_categories_against_wordnet_by_hand(wordnet):
    table = {
        # WordNet explains apple, cherry, pear, plum by fruit_tree.n.01 (a sense of each is a
        # fruit tree): "fruits" names fruit.n.01, a class of a sense of each, not a hypernym
        # of fruit_tree.n.01: holds, does not agree
        ("grass", "apple", "pear", "cherry", "plum"): "grass: fruits",
        # placental.n.01 explains cat, cow, dog, horse; animal.n.01 is above it: both
        ("car", "cat", "dog", "horse", "cow"): "car: animals",
        # WordNet's day_of_the_week.n.01 is a calendar_day.n.01, not a day.n.*: neither
        ("red", "monday", "tuesday", "friday", "sunday"): "red: days",
        ("rose", "oak", "bus", "car", "truck"): "rose",  # no category named
        ("salt", "pepper", "sugar", "flour", "piano"): "piano: qwxzv",  # not in WordNet
    }
    ps = PuzzleSet.from_odd_first("t", [list(k) for k in table], seed=None)
    mine = PlayerSolver(Answers(table)).solve(ps)
    found = compare_categories(ps, mine, wordnet.solve(ps), wordnet.taxonomy)
    rows = {r["odd"]: r for r in found["rows"]}
    assert (rows["grass"]["holds"], rows["grass"]["agrees"]) == (True, False)
    assert rows["grass"]["explanation"] == "fruit_tree.n.01"
    assert (rows["car"]["holds"], rows["car"]["agrees"]) == (True, True)
    assert (rows["red"]["holds"], rows["red"]["agrees"]) == (False, False)
    assert found["holds"].tolist() == [1.0, 1.0, 0.0]
    assert found["agrees"].tolist() == [0.0, 1.0, 0.0]
    assert found["holds_left_out"] == {LEFT_OUT[0]: 1, LEFT_OUT[4]: 1}
    assert found["agrees_left_out"] == {LEFT_OUT[0]: 1, LEFT_OUT[4]: 1}
    assert category_vertices(wordnet.taxonomy, "kinds of fruit") == category_vertices(
        wordnet.taxonomy, "fruit"
    )


def test_a_players_categories_are_scored_through_evaluate(wordnet, data_root):
    from nltk.corpus.reader.wordnet import NOUN

    from wordgames.oddmanout.spec import OddManOutOptions
    from wordgames.oddmanout.suite import load_inputs
    from wordgames.oddmanout.wordnet import load_wordnet

    ps = load_inputs(OddManOutOptions(sets=(SET,)), str(data_root), 0, False).sets[SET]
    # always the right word; a third without category, a third "entity" (WordNet's root of
    # every noun), a third a category WordNet does not know
    cats = ["", ": entity", ": qwxzv"]
    table = {
        tuple(map(str, ps.words[p])): str(ps.words[p, ps.answer[p]]) + cats[p % 3]
        for p in range(len(ps))
    }
    res = wordgames.evaluate(
        Answers(table), measures=["oddmanout"], options={"oddmanout": {"sets": [SET]}}
    )
    rows = {s.metric: s for s in res.scores if s.dataset == SET and s.agent == "player"}
    P = len(ps)
    thirds = [np.arange(P) % 3 == k for k in range(3)]
    assert rows["category_named"].value == pytest.approx(100.0 * (P - thirds[0].sum()) / P)
    assert rows["category_named"].n == P
    # by hand: "entity" holds exactly when every kept word has a noun sense (WordNet directly)
    wn = load_wordnet()
    noun = [
        all(wn.synsets("_".join(w.split()), pos=NOUN) for i, w in enumerate(ps.words[p])
            if i != ps.answer[p])
        for p in np.flatnonzero(thirds[1])
    ]  # fmt: skip
    holds = rows["category_holds_wordnet"]
    assert holds.n == thirds[1].sum() and holds.n_skipped == P - thirds[1].sum()
    assert holds.value == pytest.approx(100.0 * np.mean(noun))
    assert "no category named: " in holds.skip_reason
    # agrees: entity is above every noun explanation; compared only where WordNet chose alike
    wn_sol = wordnet.solve(ps)
    same = thirds[1] & (wn_sol.choice == ps.answer)
    agrees = rows["category_agrees_wordnet"]
    assert agrees.n == same.sum()
    nouns = [".n." in str(e) for e in wn_sol.extra["explanation"][same]]
    assert agrees.value == pytest.approx(100.0 * np.mean(nouns))
    assert agrees.ci_low <= agrees.value <= agrees.ci_high
    categories = res.result("oddmanout").tables["categories"]
    assert len(categories) == P and {r["dataset"] for r in categories} == {SET}
