"""%correct / %wrong / %abstained and the Table-3 layout."""

from __future__ import annotations

import numpy as np
import pytest

from wordgames.oddmanout.embedding_solver import Solution
from wordgames.oddmanout.metrics import format_table3, score, table3_row
from wordgames.oddmanout.puzzles import PuzzleSet


def test_score_by_hand():
    ps = PuzzleSet.from_odd_first("t", [list("abcde")] * 8, seed=0)
    choice = ps.answer.copy()
    choice[:2] = (ps.answer[:2] + 1) % 5  # 2 wrong
    choice[2:5] = -1  # 3 abstained, 3 correct
    reason = np.array(["", "", "oov", "oov", "tie", "", "", ""], dtype=object)
    s = score(
        ps,
        Solution(
            "x", choice, reason, np.zeros((8, 5)), oov={"puzzles_with_oov": 2, "oov_words": 1}
        ),
    )
    assert (s["correct"], s["wrong"], s["abstained"]) == (3, 2, 3)
    assert s["pct_correct"] + s["pct_wrong"] + s["pct_abstained"] == pytest.approx(100)
    assert s["pct_correct"] == pytest.approx(37.5)
    assert s["accuracy_answered"] == pytest.approx(0.6)
    assert s["abstained_by_reason"] == {"oov": 2, "tie": 1}
    assert s["puzzles_with_oov"] == 2


def test_length_mismatch_is_an_error():
    ps = PuzzleSet.from_odd_first("t", [list("abcde")])
    with pytest.raises(ValueError):
        score(ps, Solution("x", np.array([0, 1]), np.array(["", ""]), np.zeros((2, 5))))


def test_table3_layout():
    s = {
        "n": 10,
        "pct_correct": 50.0,
        "pct_wrong": 30.0,
        "pct_abstained": 20.0,
        "accuracy_answered": 0.625,
        "oov_words": 1,
        "puzzles_with_oov": 2,
    }
    rows = [table3_row("glove", "set-a", s), table3_row("wordnet", "set-b", s)]
    assert rows[0]["accuracy_answered"] == 62.5
    text = format_table3(rows)
    lines = text.splitlines()
    assert "set-a" in lines[0] and "set-b" in lines[0]
    assert lines[3].startswith("glove") and "50.0/ 30.0/ 20.0 ( 62.5)" in lines[3]
    assert "-" in lines[3].split("|")[2]  # glove has no row for set-b
    assert "  glove: set-a 1/2" in lines  # OOV words / puzzles beside the scores
