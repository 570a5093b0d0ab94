"""Error analysis (paper 5.2): polysemy of wrong answers, substitution experiments."""

from __future__ import annotations

import numpy as np
import pytest

from wordgames.oddmanout.analysis import (
    polysemy_of_errors,
    sister_substitutions,
    substitution_experiment,
)
from wordgames.oddmanout.embedding_solver import Solution
from wordgames.oddmanout.puzzles import PuzzleSet

SENSES = {
    "chicken": 4,
    "screwdriver": 2,
    "margarita": 1,
    "mimosa": 2,
    "daiquiri": 1,
    "canoe": 2,
    "school": 7,
    "flock": 3,
    "herd": 2,
    "pack": 10,
    "zzz": 0,
}


def _count(words):
    return np.array([SENSES[w] for w in words])


def test_polysemy_of_errors_by_hand():
    ps = PuzzleSet.from_odd_first(
        "t",
        [
            ["chicken", "screwdriver", "margarita", "mimosa", "daiquiri"],
            ["canoe", "school", "flock", "herd", "pack"],
            ["canoe", "school", "flock", "herd", "zzz"],
        ],
        seed=0,
    )
    w = ps.words.tolist()
    choice = np.array([w[0].index("screwdriver"), w[1].index("pack"), w[2].index("canoe")])
    sol = Solution("x", choice, np.array(["", "", ""], dtype=object), np.zeros((3, 5)))
    r = polysemy_of_errors(ps, sol, _count)
    assert r["n_wrong"] == 2  # the third one is correct
    assert r["chosen_mean_senses"] == pytest.approx((2 + 10) / 2)
    # others: chicken 4, margarita 1, mimosa 2, daiquiri 1 | canoe 2, school 7, flock 3, herd 2
    assert r["others_mean_senses"] == pytest.approx((4 + 1 + 2 + 1 + 2 + 7 + 3 + 2) / 8)
    assert r["chosen_polysemous"] == 2
    assert r["chosen_most_polysemous_of_puzzle"] == 1  # pack (10) yes, screwdriver (2) no
    assert r["examples"][0]["chosen"] == "screwdriver" and r["examples"][0]["answer"] == "chicken"


class _ToySolver:
    """Picks the first word of ``priority`` present in the puzzle, else the first alphabetically."""

    def __init__(self, priority):
        self.priority = list(priority)

    def solve(self, ps):
        choice = []
        for words in ps.words.tolist():
            hits = [words.index(w) for w in self.priority if w in words]
            choice.append(hits[0] if hits else int(np.argmin(words)))
        n = len(choice)
        return Solution("toy", np.array(choice), np.full(n, "", dtype=object), np.zeros((n, 5)))


def test_substitution_experiment_counts():
    solver = _ToySolver(["hurricane", "zombie", "chicken"])
    out = substitution_experiment(
        solver,
        "chicken",
        ["screwdriver", "margarita", "mimosa", "daiquiri"],
        "screwdriver",
        {"monosemous": ["mojito", "martini"], "polysemous": ["hurricane", "zombie", "Manhattan"]},
    )
    assert out["original_correct"] is True
    assert out["summary"]["monosemous"] == {
        "n": 2,
        "correct": 2,
        "chose_replacement": 0,
        "abstained": 0,
    }
    assert out["summary"]["polysemous"]["chose_replacement"] == 2
    assert out["summary"]["polysemous"]["correct"] == 1
    with pytest.raises(ValueError, match="not one of"):
        substitution_experiment(solver, "chicken", ["a", "b", "c", "d"], "x", {})


@pytest.mark.slow
def test_sister_substitutions_is_seeded(glove, data_root):
    from tests.conftest import require_dataset
    from wordgames.errors import DatasetMissingError
    from wordgames.oddmanout.data import load_dataset
    from wordgames.oddmanout.embedding_solver import EmbeddingSolver
    from wordgames.oddmanout.wordnet import load_wordnet

    require_dataset("oddmanout-anomia")
    try:
        wn = load_wordnet()
    except DatasetMissingError as exc:
        pytest.skip(str(exc))
    ps = load_dataset("anomia-common-dev", data_root)
    solver = EmbeddingSolver(glove)
    a = sister_substitutions(
        solver, ps, wn, per_kind=2, seed=3, max_puzzles=15, vocabulary=glove.__contains__
    )
    b = sister_substitutions(
        solver, ps, wn, per_kind=2, seed=3, max_puzzles=15, vocabulary=glove.__contains__
    )
    assert a == b and a["n_puzzles"] == 15
    for kind in ("monosemous", "polysemous"):
        s = a["summary"][kind]
        assert 0 < s["n"] <= 2 * 15
        assert s["still_correct"] + s["chose_replacement"] + s["abstained"] <= s["n"]
