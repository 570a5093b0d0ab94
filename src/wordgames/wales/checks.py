"""The conformance check of the WALES navigator role (declared in the family's manifest)."""

from __future__ import annotations

from wordgames.manifest import TOY_WORDS


def navigator(agent):
    """A navigator gives one outcome per task; a finished task took at least one link."""
    import numpy as np

    from wordgames.wales.graph import DiGraph

    g = DiGraph.from_edges([0, 0, 1, 2, 3], [1, 2, 3, 3, 0], names=list(TOY_WORDS[:4]))
    out = agent.run(g, np.array([0, 1]), np.array([3, 3]))
    n, ok = out["n_steps"], out["success"]
    assert n.shape == ok.shape == (2,), "one outcome per task"
    assert ((n >= 1) | ~ok).all(), "a finished task took at least one link"
    return n.tolist(), ok.tolist()
