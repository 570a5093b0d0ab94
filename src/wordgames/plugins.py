"""Plug-ins: what installed distributions declare in wordgames' entry-point groups.

``wordgames.measures`` (a :class:`~wordgames.measure.Measure`), ``wordgames.agents`` (an
:class:`~wordgames.agents.AgentSpec`), ``wordgames.subjects`` (a function of a spec's rest
that returns a subject) and ``wordgames.datasets`` (a module that registers declarations).
"""

from __future__ import annotations

from wordgames.errors import WordgamesError


def entry_point_objects(group: str, kind: type) -> tuple:
    """Every object the entry points of ``group`` name, each checked to be a ``kind``."""
    from importlib.metadata import entry_points

    out = []
    for ep in entry_points(group=group):
        obj = ep.load()
        if not isinstance(obj, kind):
            raise WordgamesError(
                f"entry point {ep.name!r} ({ep.value}) of group {group!r} is not a "
                f"{kind.__module__}.{kind.__name__}"
            )
        out.append(obj)
    return tuple(out)
