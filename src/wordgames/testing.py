"""Conformance checks that a plug-in's own tests can call (in the manner of ``check_estimator``).

:func:`check_agent` builds an agent declared by an :class:`~wordgames.agents.AgentSpec` for a
subject and checks what every measure relies on: configuration by the constructor only
(``get_params`` round-trips through ``clone``), the same output twice for the same input, and
output of its role's shape on a toy board, puzzle or graph. An agent driven by a player may
instead raise :class:`~wordgames.subjects.AnswerError` (its player's answer was unreadable):
that is a counted skip in a measure, never another exception.
"""

from __future__ import annotations

from wordgames.agents import AgentSpec
from wordgames.subjects import AnswerError, PlayerSubject

__all__ = ["TableScorer", "check_agent"]


class TableScorer(PlayerSubject):
    """A toy *scorer* subject: each option's score read from ``table`` (missing: -inf).

    For the examples and tests of agents that need a scorer (:data:`wordgames.subjects.SCORER`).

    >>> TableScorer({"pet": -1.0}).score(None, ["pet", "car"])
    [-1.0, -inf]
    """

    capabilities = frozenset({"scorer"})

    def __init__(self, table, name: str = "table"):
        super().__init__(name)
        self.table = dict(table)

    def score(self, question, options) -> list[float]:
        return [float(self.table.get(o, float("-inf"))) for o in options]

    def identity(self) -> dict:
        return {"kind": "table-scorer", "table": sorted(self.table.items())}


BOARD = ("dog", "cat", "car", "tree", "ship")


def _receiver(agent):
    ranked = agent.ranked_forward(list(BOARD), "pet")
    assert sorted(ranked) == sorted(BOARD), f"a receiver ranks every board word once: {ranked}"
    guess = agent.guess(list(BOARD), "pet", 2)
    assert len(guess) == 2 and set(guess) <= set(BOARD), f"a guess is 2 board words: {guess}"
    return ranked


def _sender(agent):
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


def _solver(agent):
    from wordgames.oddmanout.puzzles import PuzzleSet

    ps = PuzzleSet.from_odd_first("toy", [list(BOARD), ["car", "dog", "cat", "tree", "ship"]])
    sol = agent.solve(ps)
    assert sol.choice.shape == (2,), "one answer per puzzle"
    assert ((sol.choice >= -1) & (sol.choice < 5)).all(), "an answer is a word index or -1"
    assert all(r for c, r in zip(sol.choice, sol.reason, strict=True) if c < 0), (
        "every abstention says why"
    )
    return sol.choice.tolist()


def _navigator(agent):
    import numpy as np

    from wordgames.wales.graph import DiGraph

    g = DiGraph.from_edges([0, 0, 1, 2, 3], [1, 2, 3, 3, 0], names=list(BOARD[:4]))
    out = agent.run(g, np.array([0, 1]), np.array([3, 3]))
    n, ok = out["n_steps"], out["success"]
    assert n.shape == ok.shape == (2,), "one outcome per task"
    assert ((n >= 1) | ~ok).all(), "a finished task took at least one link"
    return n.tolist(), ok.tolist()


ROLE_CHECKS = {
    ("codenames", "receiver"): _receiver,
    ("codenames", "sender"): _sender,
    ("oddmanout", "solver"): _solver,
    ("wales", "navigator"): _navigator,
}


def check_agent(spec: AgentSpec, subject, **kwargs):
    """Check the agent ``spec`` declares, built for ``subject`` (``kwargs`` go to its factory).

    Raises ``AssertionError`` naming what does not conform; returns the agent's output on the
    toy input (or ``None`` when a player's answer was unreadable).

    Examples
    --------
    >>> from wordgames.agents import get_agent
    >>> from wordgames.subjects import PlayerSubject
    >>> class First(PlayerSubject):
    ...     def answer(self, q):
    ...         return q.fields["words"][0]
    ...     def identity(self):
    ...         return {"kind": "first"}
    >>> check_agent(get_agent("oddmanout", "player"), First("f"))
    [0, 0]
    """
    from wordgames.params import Params

    reason = spec.reason_unusable(subject)
    assert reason is None, f"agent {spec.name!r}: {reason}"
    factory = spec.load()
    agent = factory(subject, **kwargs) if spec.needs else factory(**kwargs)
    if isinstance(agent, Params):
        params = agent.get_params()
        twin = agent.clone() if hasattr(agent, "clone") else type(agent)(**params)
        assert twin.get_params().keys() == params.keys(), "clone keeps every parameter"
    check = ROLE_CHECKS[(spec.game, spec.role)]
    try:
        first = check(agent)
    except AnswerError:
        return None
    assert check(agent) == first, f"agent {spec.name!r}: two runs on one input differ"
    return first
