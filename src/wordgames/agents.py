"""Agents by name: every game's players, what kind of subject each needs, and how to find them.

An agent plays one role of one game on behalf of a subject (:mod:`wordgames.subjects`): a
Codenames sender or receiver, an Odd-Man-Out solver, a WALES navigator. Each is declared once
here (or by a plug-in) as an :class:`AgentSpec`: its name (the ``subject`` of its Score rows),
game, role, the capability it needs (``vectors``, ``player`` or none) and the class that builds
it. The measures build their line-up with :func:`usable`: the agents of a role whose need the
subject meets, each of the others with the reason it was left out. The built-in agents are
declared in their family's manifest (``wordgames.<family>.manifest``, :mod:`wordgames.manifest`),
with the games' roles.

An agent may also declare itself on its class with :func:`agent`, in a module its family's
manifest names in ``agent_modules``: a new agent is then one file (and its test). Plug-ins add
agents in their own family manifest, or through the Python entry-point group
``wordgames.agents`` (each entry an :class:`AgentSpec`) or ``$WORDGAMES_EXTRA_AGENTS``
(comma-separated ``module:attribute``).
``wordgames agents`` lists them all; :func:`wordgames.testing.check_agent` checks one.
"""

from __future__ import annotations

import difflib
import os
from dataclasses import dataclass
from functools import cache

from wordgames.errors import WordgamesError
from wordgames.measure import load_entry
from wordgames.subjects import CAPABILITIES, lacks, problem_with

EXTRA_AGENTS_ENV = "WORDGAMES_EXTRA_AGENTS"
ENTRY_POINT_GROUP = "wordgames.agents"


@dataclass(frozen=True)
class AgentSpec:
    """The declaration of one agent.

    Parameters
    ----------
    name : str
        Unique; the ``subject`` its Score rows carry (``"nearest"``, ``"cluster"``).
    game, role : str
        One of the game's roles (:func:`wordgames.manifest.roles`).
    needs : str
        The capability it needs of the subject (:data:`~wordgames.subjects.CAPABILITIES`), or
        ``""`` for an agent that needs none (a random or WordNet baseline).
    factory : str
        ``"module:attribute"`` of the class (or function) that builds it.
    description : str
        One line for ``wordgames agents``.

    Examples
    --------
    >>> spec = AgentSpec("farthest", "codenames", "receiver", "vectors",
    ...                  "mypkg.agents:FarthestReceiver", "board words farthest from the clue")
    >>> spec.needs, spec.factory.split(":")[1]
    ('vectors', 'FarthestReceiver')
    """

    name: str
    game: str
    role: str
    needs: str
    factory: str
    description: str = ""

    def __post_init__(self):
        if self.needs and self.needs not in CAPABILITIES:
            raise WordgamesError(
                f"agent {self.name!r}: needs {self.needs!r}; expected one of {CAPABILITIES} or ''"
            )
        if ":" not in self.factory:
            raise WordgamesError(f"agent {self.name!r}: factory must be 'module:attribute'")

    def load(self):
        """The class (or function) that builds the agent."""
        return load_entry(self.factory)

    def build(self, subject, **options):
        """The agent for ``subject``, built by its factory.

        The factory gets the subject when the agent needs one, and those of ``options`` (a
        run's seed, a measure's settings) that its signature names.
        """
        import inspect

        factory = self.load()
        accepted = inspect.signature(factory).parameters
        kw = {k: v for k, v in options.items() if k in accepted}
        return factory(subject, **kw) if self.needs else factory(**kw)

    def reason_unusable(self, subject, *, check: bool = True) -> str | None:
        """Why ``subject`` cannot drive this agent (None: it can).

        A capability it lacks, or, with ``check``, one it declares but fails at run time (its
        own check may ask its server: done only for an agent about to be built).
        """
        if not self.needs:
            return None
        why = lacks(subject, (self.needs,))
        return why if why or not check else problem_with(subject, self.needs)


_DECLARED = "__wordgames_agent__"


def agent(name: str, game: str, role: str, needs: str = "", description: str = ""):
    """Declare the decorated class (or function) an agent, in the file that defines it.

    Its family's manifest names the module in ``agent_modules``
    (:class:`wordgames.manifest.FamilyManifest`); no other file lists it.

    Parameters
    ----------
    name, game, role, needs : str
        As :class:`AgentSpec`'s.
    description : str
        One line for ``wordgames agents``; default: the first line of the docstring.

    Returns
    -------
    callable
        The decorator; it returns the class unchanged, its :class:`AgentSpec` attached.

    Examples
    --------
    >>> @agent("farthest", "codenames", "receiver", "vectors")
    ... class FarthestReceiver:
    ...     '''Board words farthest from the clue first.'''
    >>> spec = declared_agent(FarthestReceiver)
    >>> spec.factory.endswith(":FarthestReceiver"), spec.description
    (True, 'Board words farthest from the clue first.')
    """

    def declare(factory):
        doc = (factory.__doc__ or "").strip().splitlines()
        target = f"{factory.__module__}:{factory.__qualname__}"
        spec = AgentSpec(name, game, role, needs, target, description or (doc[0] if doc else ""))
        setattr(factory, _DECLARED, spec)
        return factory

    return declare


def declared_agent(obj) -> AgentSpec | None:
    """The :class:`AgentSpec` that :func:`agent` attached to ``obj`` itself (not a base's).

    Parameters
    ----------
    obj : object
        A class or function (anything else has none).

    Returns
    -------
    AgentSpec or None

    Examples
    --------
    >>> @agent("x", "wales", "navigator")
    ... class Base:
    ...     pass
    >>> class Child(Base):
    ...     pass
    >>> declared_agent(Base).name, declared_agent(Child)
    ('x', None)
    """
    return vars(obj).get(_DECLARED) if hasattr(obj, "__dict__") else None


def declared_in(module_name: str) -> tuple[AgentSpec, ...]:
    """The agents declared with :func:`agent` in ``module_name``, in definition order.

    Names imported into the module from elsewhere are not its declarations.

    Parameters
    ----------
    module_name : str
        A module that a family manifest names in ``agent_modules``.

    Returns
    -------
    tuple of AgentSpec

    Raises
    ------
    WordgamesError
        The module cannot be imported.

    Examples
    --------
    >>> declared_in("wordgames.wales.agent")  # its agent is listed in the manifest
    ()
    """
    import importlib

    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise WordgamesError(f"agent module {module_name!r} cannot be imported: {exc}") from None
    specs = (declared_agent(v) for v in vars(module).values())
    return tuple(s for s in specs if s is not None and s.factory.startswith(module_name + ":"))


def _entry_point_agents() -> tuple[AgentSpec, ...]:
    from wordgames.plugins import entry_point_objects

    return entry_point_objects(ENTRY_POINT_GROUP, AgentSpec)


def _env_agents() -> tuple[AgentSpec, ...]:
    out = []
    for item in filter(None, (p.strip() for p in os.environ.get(EXTRA_AGENTS_ENV, "").split(","))):
        if ":" not in item:
            raise WordgamesError(f"${EXTRA_AGENTS_ENV}: expected 'module:attribute', got {item!r}")
        spec = load_entry(item)
        if not isinstance(spec, AgentSpec):
            raise WordgamesError(f"${EXTRA_AGENTS_ENV}: {item} is not an AgentSpec")
        out.append(spec)
    return tuple(out)


@cache
def _plugins_of_entry_points() -> tuple[AgentSpec, ...]:
    return _entry_point_agents()


def all_agents() -> tuple[AgentSpec, ...]:
    """Every agent: the family manifests' (built-ins first), entry points', then the env's.

    A manifest's agents are its ``agents``, then those its ``agent_modules`` declare with
    :func:`agent`.

    The plug-ins' own entry points come after the manifests, ``$WORDGAMES_EXTRA_AGENTS`` last;
    each is checked to play a declared role, and names are unique per game.

    Returns
    -------
    tuple of AgentSpec

    Raises
    ------
    WordgamesError
        An agent in a role its game does not have, or two agents of a game with one name.

    Examples
    --------
    >>> ("wales", "greedy") in {(a.game, a.name) for a in all_agents()}
    True
    """
    from wordgames.manifest import manifests, roles

    from_manifests = tuple(
        a for m in manifests() for a in (*m.agents, *_declared_of(m.agent_modules))
    )
    agents = from_manifests + _plugins_of_entry_points() + _env_agents()
    known = roles()
    seen: set[tuple[str, str]] = set()
    for a in agents:
        if a.role not in known.get(a.game, ()):
            raise WordgamesError(
                f"agent {a.name!r}: role {a.role!r} is not a role of game {a.game!r} "
                f"(roles: {known})"
            )
        if (a.game, a.name) in seen:
            raise WordgamesError(f"two {a.game} agents are declared with the name {a.name!r}")
        seen.add((a.game, a.name))
    return agents


def _declared_of(modules) -> tuple[AgentSpec, ...]:
    return tuple(a for name in modules for a in declared_in(name))


def list_agents(game: str | None = None, role: str | None = None) -> list[AgentSpec]:
    """The agents of ``game`` (and ``role``), in declaration order.

    Parameters
    ----------
    game, role : str or None
        Only this game's (and role's) agents; ``None``: every one.

    Returns
    -------
    list of AgentSpec

    Examples
    --------
    >>> [a.name for a in list_agents("wales")]
    ['greedy', 'player']
    """
    return [
        a
        for a in all_agents()
        if (game is None or a.game == game) and (role is None or a.role == role)
    ]


def get_agent(game: str, name: str) -> AgentSpec:
    """The agent ``name`` of ``game``, or an error with a "did you mean".

    Parameters
    ----------
    game : str
        ``codenames``, ``oddmanout``, ``wales`` or a plug-in family's game.
    name : str
        The agent's name (``wordgames agents``).

    Returns
    -------
    AgentSpec

    Examples
    --------
    >>> try:
    ...     get_agent("codenames", "nearst")
    ... except WordgamesError as exc:
    ...     print(str(exc).split("; known")[0])  # then every known name
    unknown codenames agent 'nearst' (did you mean 'nearest'?)
    """
    known = list_agents(game)
    for a in known:
        if a.name == name:
            return a
    names = [a.name for a in known]
    close = difflib.get_close_matches(name, names, n=1)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    raise WordgamesError(f"unknown {game} agent {name!r}{hint}; known: {', '.join(names)}")


def usable(game: str, role: str, subject) -> tuple[list[AgentSpec], dict[str, str]]:
    """The agents of a role that ``subject`` can drive, and why each other one cannot.

    By capability only: no subject is asked to check itself (a server is not asked).

    Parameters
    ----------
    game, role : str
        The role's game and name.
    subject : object
        The subject the agents would play for.

    Returns
    -------
    list of AgentSpec
        Those it can drive, in declaration order.
    dict of str to str
        Each other agent's name and why not.

    Examples
    --------
    >>> from wordgames.subjects import PlayerSubject
    >>> ok, left_out = usable("wales", "navigator", PlayerSubject("p"))
    >>> [a.name for a in ok], left_out["greedy"]
    (['player'], 'needs a subject with vectors; p is player')
    """
    ok, why = [], {}
    for a in list_agents(game, role):
        reason = a.reason_unusable(subject, check=False)
        if reason is None:
            ok.append(a)
        else:
            why[a.name] = reason
    return ok, why


def check_agent_option(where: str, game: str, names, role: str | None = None) -> None:
    """Every name in ``names`` a registered agent of ``game`` (and ``role``), or an OptionError.

    What a measure's options record checks when it is made: an unknown name says "did you
    mean", an agent of another role says which role it plays.

    >>> check_agent_option("codenames.receivers", "codenames", ["cluster"], "receiver")
    Traceback (most recent call last):
    ...
    wordgames.measure.OptionError: codenames.receivers: 'cluster' is a sender, not a receiver
    """
    from wordgames.measure import OptionError

    for name in names or ():
        try:
            spec = get_agent(game, name)
        except WordgamesError as exc:
            raise OptionError(f"{where}: {exc}") from None
        if role is not None and spec.role != role:
            raise OptionError(f"{where}: {name!r} is a {spec.role}, not a {role}")
