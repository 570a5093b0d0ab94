"""The conformance checks of the Codenames roles (declared in the family's manifest).

Each takes a built agent, plays it on a toy board and returns its output, asserting the role's
shape; :func:`wordgames.testing.check_agent` runs it twice and compares.
"""

from __future__ import annotations

from wordgames.manifest import TOY_WORDS as BOARD


def receiver(agent):
    """A receiver ranks every board word once and guesses board words."""
    ranked = agent.ranked_forward(list(BOARD), "pet")
    assert sorted(ranked) == sorted(BOARD), f"a receiver ranks every board word once: {ranked}"
    guess = agent.guess(list(BOARD), "pet", 2)
    assert len(guess) == 2 and set(guess) <= set(BOARD), f"a guess is 2 board words: {guess}"
    return ranked


def sender(agent):
    """A sender ranks clues that are no board word (or scores the candidates it is given)."""
    if getattr(agent, "candidates_only", False):  # it ranks given clues: one score each
        cands = ["animal", "metal", "water"]
        scores = agent.score_candidates(list(BOARD[:3]), list(BOARD[3:]), cands)
        assert len(scores) == len(cands), f"one score per candidate clue: {scores}"
        assert all(s == s for s in scores), f"a candidate's score is a number: {scores}"
        return [float(s) for s in scores]
    ranked = agent.ranked_forward(list(BOARD[:3]), list(BOARD[3:]))
    assert len(ranked) == len(set(ranked)), "a clue is ranked twice"
    assert not set(ranked) & set(BOARD), "a clue is never a board word"
    return ranked
