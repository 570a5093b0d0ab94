"""An Odd-Man-Out solver chosen by name: a plug-in's, declared outside the package."""

from __future__ import annotations

import numpy as np
import pytest

import wordgames
from wordgames.agents import AgentSpec
from wordgames.oddmanout.embedding_solver import Solution
from wordgames.params import Params

SET = "anomia-common-dev"


class FirstWordSolver(Params):
    """A plug-in baseline: always the first word shown (it needs nothing of the subject)."""

    def __init__(self, abstain_on: int = 0):
        self.abstain_on = abstain_on

    def solve(self, puzzles):
        n = len(puzzles)
        choice = np.zeros(n, dtype=np.int64)
        reason = np.full(n, "", dtype=object)
        choice[: self.abstain_on], reason[: self.abstain_on] = -1, "abstained"
        return Solution("first-word", choice, reason, np.zeros(puzzles.words.shape))


FIRST = AgentSpec(
    "first-word", "oddmanout", "solver", "",
    "tests.oddmanout.test_solver_by_name:FirstWordSolver", "the first word shown",
)  # fmt: skip


def test_a_plugin_solver_by_name_scores_by_hand(monkeypatch, glove, data_root):
    from wordgames.oddmanout.spec import OddManOutOptions
    from wordgames.oddmanout.suite import load_inputs

    monkeypatch.setenv("WORDGAMES_EXTRA_AGENTS", "tests.oddmanout.test_solver_by_name:FIRST")
    opts = {"sets": [SET], "wordnet": False, "solver": "first-word"}
    res = wordgames.evaluate(glove, measures=["oddmanout"], options={"oddmanout": opts})
    rows = {s.metric: s for s in res.scores if s.dataset == SET}
    assert {s.agent for s in res.scores} == {"first-word"}
    # by hand: the share of puzzles whose odd word is shown first (the run's seeded order)
    ps = load_inputs(OddManOutOptions(sets=(SET,)), str(data_root), 0, False).sets[SET]
    assert rows["pct_correct"].value == pytest.approx(100.0 * np.mean(ps.answer == 0))
    assert rows["pct_correct"].n == len(ps) and rows["pct_abstained"].value == 0.0


def test_a_solver_the_subject_cannot_drive_skips_the_unit(glove):
    res = wordgames.evaluate(
        glove, measures=["oddmanout"], options={"oddmanout": {"solver": "player"}}
    )
    assert not res.scores and "needs a subject with player" in res.skipped[0].reason


def test_unknown_solver_and_the_wordnet_baseline_are_option_errors():
    from wordgames.measure import OptionError
    from wordgames.registry import get_measure

    with pytest.raises(OptionError, match="did you mean 'embedding'"):
        get_measure("oddmanout").make_options({"solver": "embeding"})
    with pytest.raises(OptionError, match="the 'wordnet' option"):
        get_measure("oddmanout").make_options({"solver": "wordnet"})
