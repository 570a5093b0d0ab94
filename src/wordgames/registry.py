"""The registry of measures: every :class:`~wordgames.measure.Measure` by unique name.

Each family declares its measures in a light module (``wordgames.<family>.spec``) that imports
no numerical library, so listing the measures is fast, and names them in its manifest
(:mod:`wordgames.manifest`), registered through entry points as a plug-in's is. Installed
plug-ins add measures in a family manifest or through the entry-point group
``wordgames.measures``; measures can also be added through
``$WORDGAMES_EXTRA_MEASURES`` (comma-separated ``name=module:attribute``): the attribute is a
:class:`~wordgames.measure.Measure`, or a plain ``compute(embedding, ctx)`` function that is
wrapped in a measure without options or declared metrics (``@version`` may follow).
"""

from __future__ import annotations

import difflib
import os
from functools import cache

from wordgames.errors import WordgamesError
from wordgames.measure import Measure, load_entry

EXTRA_MEASURES_ENV = "WORDGAMES_EXTRA_MEASURES"


class UnknownMeasureError(WordgamesError, KeyError):
    """A measure name that is not in the registry."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "unknown measure"


@cache
def builtin_measures() -> tuple[Measure, ...]:
    """The built-in measures: those the built-in families' manifests name, in their order."""
    from wordgames.manifest import manifests

    return _check_unique(tuple(load_entry(e) for m in manifests(builtin=True) for e in m.measures))


@cache
def manifest_measures() -> tuple[Measure, ...]:
    """The measures plug-in families' manifests name (after the built-ins)."""
    from wordgames.manifest import manifests

    return tuple(load_entry(e) for m in manifests(builtin=False) for e in m.measures)


def extra_measures(value: str | None = None) -> tuple[Measure, ...]:
    """Measures added through ``$WORDGAMES_EXTRA_MEASURES`` (plug-ins and test measures).

    Parameters
    ----------
    value : str or None
        Comma-separated ``name=module:attribute[@version]``; ``None``: the variable's value.

    Returns
    -------
    tuple of Measure

    Examples
    --------
    >>> [m.name for m in extra_measures("toy=my.module:run, other=my.mod:f@2")]
    ['toy', 'other']
    >>> extra_measures("other=my.mod:f@2")[0].version
    '2'
    """
    value = os.environ.get(EXTRA_MEASURES_ENV, "") if value is None else value
    out = []
    for item in filter(None, (part.strip() for part in value.split(","))):
        name, sep, entry = item.partition("=")
        entry, _, version = entry.partition("@")
        name, entry = name.strip(), entry.strip()
        if not sep or ":" not in entry or not name:
            raise WordgamesError(
                f"${EXTRA_MEASURES_ENV}: expected 'name=module:attribute', got {item!r}"
            )
        out.append(_extra(name, entry, version.strip() or "1"))
    return tuple(out)


def _extra(name: str, entry: str, version: str) -> Measure:
    try:
        obj = load_entry(entry)
    except (ImportError, AttributeError):
        obj = None  # a function that is not importable yet: resolved when the measure runs
    if isinstance(obj, Measure):
        return obj
    return Measure(
        name=name,
        version=version,
        family="extra",
        description=f"extra measure {entry}",
        compute=entry,
    )


def _check_unique(measures: tuple[Measure, ...]) -> tuple[Measure, ...]:
    seen: set[str] = set()
    for m in measures:
        if m.name in seen:
            raise WordgamesError(f"two measures are declared with the name {m.name!r}")
        seen.add(m.name)
    return measures


#: the entry-point group of plug-in measures (each entry a :class:`~wordgames.measure.Measure`)
ENTRY_POINT_GROUP = "wordgames.measures"


def plugin_measures() -> tuple[Measure, ...]:
    """Measures of installed plug-ins: the entry points of :data:`ENTRY_POINT_GROUP`.

    Returns
    -------
    tuple of Measure
        In the entry points' order (a plug-in family's come through its manifest instead).

    Examples
    --------
    >>> all(m.name for m in plugin_measures())
    True
    """
    from wordgames.plugins import entry_point_objects

    return entry_point_objects(ENTRY_POINT_GROUP, Measure)


def all_measures() -> tuple[Measure, ...]:
    """Every measure: the built-ins, the plug-ins', then ``$WORDGAMES_EXTRA_MEASURES``.

    A plug-in's come from its family manifest, then from single measures' entry points.

    Returns
    -------
    tuple of Measure
        Names unique (two measures with one name are an error).

    Examples
    --------
    >>> {"codenames", "oddmanout", "wales", "similarity", "cbm"} <= {m.name for m in all_measures()}
    True
    """
    return _check_unique(
        builtin_measures() + manifest_measures() + plugin_measures() + extra_measures()
    )


def get_measure(name: str) -> Measure:
    """The measure called ``name``; :class:`UnknownMeasureError` with a "did you mean" otherwise.

    Parameters
    ----------
    name : str
        A measure's name (``wordgames measures`` lists them), a plug-in's included.

    Returns
    -------
    Measure

    Examples
    --------
    >>> get_measure("wales").family
    'wales'
    >>> try:
    ...     get_measure("walse")
    ... except UnknownMeasureError as exc:
    ...     print(str(exc).split("; known")[0])  # then every known name
    unknown measure 'walse' (did you mean 'wales'?)
    """
    known = all_measures()
    for m in known:
        if m.name == name:
            return m
    names = [m.name for m in known]
    close = difflib.get_close_matches(str(name), names, n=1)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    raise UnknownMeasureError(f"unknown measure {name!r}{hint}; known: {', '.join(names)}")


def select_measures(names=None) -> list[Measure]:
    """The measures to run: the named ones (extra measures only when named), else the built-ins.

    Without names: the built-ins of the default run (not those that run only when named, such
    as ``codenames-selfplay``).

    Parameters
    ----------
    names : str, sequence of str or Measure, or None
        Measure names (or records), each once in the order given.

    Returns
    -------
    list of Measure

    Raises
    ------
    UnknownMeasureError
        A name no measure has, with a "did you mean".

    Examples
    --------
    >>> [m.name for m in select_measures(["wales", "cbm", "wales"])]
    ['wales', 'cbm']
    >>> "codenames-selfplay" in [m.name for m in select_measures()]
    False
    """
    if not names:
        return [m for m in builtin_measures() if m.in_default_run]
    if isinstance(names, str):
        names = [names]
    return [n if isinstance(n, Measure) else get_measure(n) for n in dict.fromkeys(names)]


def list_measures():
    """The registry as a pandas DataFrame.

    Returns
    -------
    pandas.DataFrame
        Columns: name, family, version, description, data sets, headlines, options, citation.

    Examples
    --------
    >>> import wordgames
    >>> "codenames" in wordgames.list_measures()["name"].tolist()
    True
    """
    import pandas as pd

    rows = [
        {
            "name": m.name,
            "family": m.family,
            "version": m.version,
            "description": m.description,
            "datasets": ", ".join(m.datasets),
            "headlines": ", ".join(
                h.metric + (f" ({h.agent})" if h.agent else "") for h in m.headlines
            ),
            "options": ", ".join(m.option_names()),
            "citation": m.citation,
        }
        for m in all_measures()
    ]
    return pd.DataFrame(rows)
