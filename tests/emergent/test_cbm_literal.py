"""The paper's CBM formula read literally (issue 21, item 14): it can exceed 1."""

from __future__ import annotations

import pytest

from wordgames.emergent.measures import evaluate_language


def test_repeated_words_lift_the_literal_score_above_one_and_not_the_bounded_one():
    # "a" repeated for red: weights count 2 + 2 + 1 = 5 occurrences; the literal Q counts the
    # word sets, max(1, 1) per message = 3; the script's Q counts occurrences, 2 + 2 + 1 = 5
    messages = [["a", "a"], ["a", "a"], ["b"]]
    labels = [["red"], ["red"], ["blue"]]
    rep = evaluate_language(messages, labels, measures=("cbm",))
    assert rep.cbm == pytest.approx(1.0)
    assert rep.cbm_literal == pytest.approx(5 / 3)
    assert rep.metrics()["cbm_literal"] == pytest.approx(5 / 3)


def test_without_repeats_the_literal_score_is_the_score():
    rep = evaluate_language([["a", "b"], ["a", "c"]], [["red", "box"], ["red", "ball"]],
                            measures=("cbm",))  # fmt: skip
    assert rep.cbm_literal == pytest.approx(rep.cbm)
