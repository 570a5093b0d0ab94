"""One manifest per measure family: everything it contributes, declared once.

A family's :class:`FamilyManifest` names its measure records, the modules that declare its data
sets, its games' roles with each role's conformance check, and its agents. The built-in
families are registered exactly as a plug-in's are: through the entry-point group
:data:`ENTRY_POINT_GROUP` of the installed distribution (``pyproject.toml``). The registry of
measures, the agents, the data-set declarations and :func:`wordgames.testing.check_agent` read
the manifests, so adding to a family is adding to its manifest.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from wordgames.errors import WordgamesError

#: the entry-point group of family manifests (each entry a :class:`FamilyManifest`)
ENTRY_POINT_GROUP = "wordgames.families"
#: the distribution whose manifests are the built-ins
BUILTIN_DISTRIBUTION = "wordgames"


@dataclass(frozen=True)
class Role:
    """A role of a game, and the check every agent in it must pass.

    Parameters
    ----------
    game : str
        The game (``codenames``, ``oddmanout``, ``wales``...).
    name : str
        The role (``sender``, ``solver``...).
    check : str
        ``"module:function"`` of its conformance check: called with a built agent, it runs it
        on a toy input, asserts the role's output shape and returns the output
        (:func:`wordgames.testing.check_agent` calls it twice and compares).

    Examples
    --------
    >>> Role("oddmanout", "solver", "wordgames.oddmanout.checks:solver").name
    'solver'
    """

    game: str
    name: str
    check: str


@dataclass(frozen=True)
class FamilyManifest:
    """What one family contributes.

    Parameters
    ----------
    name : str
        The family (the package name for a built-in).
    order : int
        Where its measures come in listings (built-ins 10-50; plug-ins after them).
    measures : tuple of str
        ``"module:attribute"`` of each :class:`~wordgames.measure.Measure` record.
    datasets : tuple of str
        Modules whose import registers the family's data-set declarations.
    roles : tuple of Role
        Its games' roles.
    agents : tuple of AgentSpec
        Its agents (:class:`wordgames.agents.AgentSpec`), each in one of ``roles``.
    agent_modules : tuple of str
        Modules whose classes (or functions) declare themselves agents with
        :func:`wordgames.agents.agent`: an agent added there is registered with no other
        file touched. They come after ``agents``, in the modules' order, then in the order
        they are defined.

    Examples
    --------
    A plug-in's family, registered in its ``pyproject.toml`` as
    ``[project.entry-points."wordgames.families"] mine = "mypkg.manifest:MANIFEST"``:

    >>> MANIFEST = FamilyManifest(name="mine", measures=("mypkg.spec:MEASURE",))
    >>> MANIFEST.order, MANIFEST.roles
    (100, ())
    """

    name: str
    order: int = 100
    measures: tuple[str, ...] = ()
    datasets: tuple[str, ...] = ()
    roles: tuple[Role, ...] = ()
    agents: tuple = ()
    agent_modules: tuple[str, ...] = ()


@cache
def _registered() -> tuple[tuple[FamilyManifest, bool], ...]:
    from importlib.metadata import entry_points

    out, seen = [], set()
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        obj = ep.load()
        if not isinstance(obj, FamilyManifest):
            raise WordgamesError(
                f"entry point {ep.name!r} ({ep.value}) of group {ENTRY_POINT_GROUP!r} is not a "
                "wordgames.manifest.FamilyManifest"
            )
        if obj.name in seen:
            raise WordgamesError(f"two family manifests are named {obj.name!r}")
        seen.add(obj.name)
        builtin = ep.dist is not None and ep.dist.metadata["Name"] == BUILTIN_DISTRIBUTION
        out.append((obj, builtin))
    if not any(b for _, b in out):
        raise WordgamesError(
            f"no built-in family is registered: the installed wordgames has no "
            f"'{ENTRY_POINT_GROUP}' entry points (an install older than its source?); "
            "install it again: pip install -e ."
        )
    return tuple(sorted(out, key=lambda mb: (mb[0].order, mb[0].name)))


def manifests(builtin: bool | None = None) -> tuple[FamilyManifest, ...]:
    """The registered manifests in listing order.

    Parameters
    ----------
    builtin : bool or None
        ``True``: only wordgames' own; ``False``: only plug-ins'; ``None``: all.

    Returns
    -------
    tuple of FamilyManifest

    Examples
    --------
    >>> [m.name for m in manifests(builtin=True)]
    ['codenames', 'similarity', 'wales', 'oddmanout', 'emergent']
    """
    return tuple(m for m, b in _registered() if builtin is None or b == builtin)


def roles() -> dict[str, tuple[str, ...]]:
    """``{game: its roles}`` over every manifest.

    Returns
    -------
    dict of str to tuple of str

    Examples
    --------
    >>> roles()["codenames"]
    ('sender', 'receiver')
    """
    out: dict[str, tuple[str, ...]] = {}
    for m in manifests():
        for r in m.roles:
            out[r.game] = (*out.get(r.game, ()), r.name)
    return out


def role(game: str, name: str) -> Role:
    """The declared role ``name`` of ``game``.

    Parameters
    ----------
    game, name : str
        A game and a role name.

    Returns
    -------
    Role

    Raises
    ------
    WordgamesError
        No manifest declares it (the known roles are named).

    Examples
    --------
    >>> role("wales", "navigator").check
    'wordgames.wales.checks:navigator'
    """
    for m in manifests():
        for r in m.roles:
            if (r.game, r.name) == (game, name):
                return r
    raise WordgamesError(f"no game {game!r} has a role {name!r}; roles: {roles()}")


#: the five words every role check plays on (a board, a puzzle, a graph's titles)
TOY_WORDS = ("dog", "cat", "car", "tree", "ship")
