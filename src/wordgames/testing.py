"""Conformance checks that a plug-in's own tests can call (in the manner of ``check_estimator``).

:func:`check_agent` builds an agent declared by an :class:`~wordgames.agents.AgentSpec` for a
subject and checks what every measure relies on: configuration by the constructor only
(``get_params`` round-trips through ``clone``), the same output twice for the same input, and
output of its role's shape on a toy board, puzzle or graph (the role's check, declared in its
family's manifest: :func:`role_check`). An agent driven by a player may
instead raise :class:`~wordgames.subjects.AnswerError` (its player's answer was unreadable):
that is a counted skip in a measure, never another exception.
"""

from __future__ import annotations

from wordgames.agents import AgentSpec
from wordgames.subjects import AnswerError, PlayerSubject

__all__ = ["TableScorer", "check_agent", "role_check"]


class TableScorer(PlayerSubject):
    """A toy *scorer* subject: each option's score read from ``table`` (missing: -inf).

    For the examples and tests of agents that need a scorer (:data:`wordgames.subjects.SCORER`).

    Parameters
    ----------
    table : mapping of str to float
        Each option's score (its log-probability, for a real scorer).
    name : str
        The subject's name.

    Examples
    --------
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


def role_check(game: str, role: str):
    """The conformance check of ``role`` in ``game``, as its family's manifest declares it.

    Parameters
    ----------
    game, role : str
        A game and one of its roles (:func:`wordgames.manifest.roles`).

    Returns
    -------
    callable
        ``check(agent)``: plays the built agent on a toy input, asserts the role's output and
        returns it.

    Examples
    --------
    >>> role_check("codenames", "receiver").__name__
    'receiver'
    """
    from wordgames.manifest import role as declared
    from wordgames.measure import load_entry

    return load_entry(declared(game, role).check)


def check_agent(spec: AgentSpec, subject, **kwargs):
    """Check the agent ``spec`` declares, built for ``subject``.

    Parameters
    ----------
    spec : AgentSpec
        The agent's declaration (a plug-in's own, or :func:`wordgames.agents.get_agent`).
    subject : object
        A subject it can drive (an embedding, a player, a scorer); ignored by an agent that
        needs none.
    **kwargs
        Passed to its factory.

    Returns
    -------
    object or None
        The agent's output on the toy input, or ``None`` when a player's answer was
        unreadable.

    Raises
    ------
    AssertionError
        Naming what does not conform.

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
    check = role_check(spec.game, spec.role)
    try:
        first = check(agent)
    except AnswerError:
        return None
    assert check(agent) == first, f"agent {spec.name!r}: two runs on one input differ"
    return first
