"""The conformance check of the Odd-Man-Out solver role (declared in the family's manifest)."""

from __future__ import annotations

from wordgames.manifest import TOY_WORDS


def solver(agent):
    """A solver gives one answer per puzzle, a word index or -1 with a reason."""
    from wordgames.oddmanout.puzzles import PuzzleSet

    ps = PuzzleSet.from_odd_first("toy", [list(TOY_WORDS), ["car", "dog", "cat", "tree", "ship"]])
    sol = agent.solve(ps)
    assert sol.choice.shape == (2,), "one answer per puzzle"
    assert ((sol.choice >= -1) & (sol.choice < 5)).all(), "an answer is a word index or -1"
    assert all(r for c, r in zip(sol.choice, sol.reason, strict=True) if c < 0), (
        "every abstention says why"
    )
    return sol.choice.tolist()
