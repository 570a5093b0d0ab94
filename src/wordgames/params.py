"""Agents and solvers configured like scikit-learn estimators: constructor = configuration.

:class:`Params` reads the parameters from the ``__init__`` signature; every subclass stores
each argument under its own name and sets nothing else in ``__init__`` (work that depends on
the data is done when a method is called, and cached in attributes ending in ``_``). That
gives ``get_params``, ``set_params``, ``clone`` and a ``repr`` that shows the non-default
parameters, for every agent and solver, from one place.
"""

from __future__ import annotations

import copy
import inspect
from typing import Any


class Params:
    """Base class of configurable agents and solvers.

    Examples
    --------
    >>> class Agent(Params):
    ...     def __init__(self, k=3, distance="cosine"):
    ...         self.k = k
    ...         self.distance = distance
    >>> a = Agent(k=5)
    >>> a
    Agent(k=5)
    >>> a.get_params()
    {'distance': 'cosine', 'k': 5}
    >>> b = a.clone().set_params(distance="euclidean")
    >>> (a.distance, b.distance, b.k)
    ('cosine', 'euclidean', 5)
    """

    @classmethod
    def _param_names(cls) -> list[str]:
        init = cls.__init__
        if init is object.__init__:
            return []
        sig = inspect.signature(init)
        names = []
        for p in sig.parameters.values():
            if p.name == "self" or p.kind in (p.VAR_KEYWORD, p.VAR_POSITIONAL):
                continue
            names.append(p.name)
        return sorted(names)

    def get_params(self, deep: bool = False) -> dict[str, Any]:
        """The constructor's parameters and their values (sorted by name)."""
        out = {}
        for name in self._param_names():
            value = getattr(self, name)
            out[name] = value
            if deep and hasattr(value, "get_params") and not isinstance(value, type):
                out.update({f"{name}__{k}": v for k, v in value.get_params().items()})
        return out

    def set_params(self, **params) -> Params:
        """Set parameters by name (unknown names are an error); returns ``self``."""
        valid = self._param_names()
        for key, value in params.items():
            if key not in valid:
                raise ValueError(
                    f"{type(self).__name__} has no parameter {key!r}; known: {', '.join(valid)}"
                )
            setattr(self, key, value)
        for attr in [a for a in vars(self) if a.endswith("_") and not a.startswith("_")]:
            delattr(self, attr)  # fitted state of the old parameters
        return self

    def clone(self) -> Params:
        """A new, unfitted object with the same parameters (data such as embeddings shared)."""
        params = {k: v if _shared(v) else copy.deepcopy(v) for k, v in self.get_params().items()}
        return type(self)(**params)

    def __repr__(self) -> str:
        sig = inspect.signature(type(self).__init__)
        shown = []
        for name, value in self.get_params().items():
            default = sig.parameters[name].default
            if default is inspect.Parameter.empty or not _same(value, default):
                shown.append(f"{name}={_short(value)}")
        return f"{type(self).__name__}({', '.join(shown)})"


def _shared(value) -> bool:
    """Large data (embeddings, arrays, graphs) is shared by clones, not copied."""
    return not isinstance(value, int | float | str | bool | tuple | list | dict | type(None))


def _same(a, b) -> bool:
    try:
        return bool(a == b) if not _shared(a) else a is b
    except Exception:
        return False


def _short(value) -> str:
    if _shared(value):
        name = getattr(value, "name", None)
        return f"<{type(value).__name__} {name}>" if name else f"<{type(value).__name__}>"
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
