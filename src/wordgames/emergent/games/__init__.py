"""Games that produce emergent communication: worlds, the multi-target referential game, channels.

The worlds and the game generator need only numpy; the agents, channels and training
(:mod:`~wordgames.emergent.games.agents`, :mod:`~wordgames.emergent.games.channels`,
:mod:`~wordgames.emergent.games.train`) need the optional torch extra
(``pip install 'wordgames[torch]'``) and import it themselves. Names are loaded on first use so
that ``wordgames --help`` (which registers the game commands) stays light.
"""

from __future__ import annotations

import importlib

_EXPORTS = {
    "ReferentialGame": "game",
    "Turns": "game",
    "World": "worlds",
    "ThingWorld": "worlds",
    "ShapeWorld": "worlds",
    "make_world": "worlds",
    "GameTrainer": "train",
    "GameEvaluation": "train",
    "PlayResult": "train",
    "PRESETS": "presets",
    "Preset": "presets",
    "get_preset": "presets",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name):
    if name in _EXPORTS:
        module = importlib.import_module(f"wordgames.emergent.games.{_EXPORTS[name]}")
        return getattr(module, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
