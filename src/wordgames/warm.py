"""Compile the numba kernels ahead of the first run (``python -m wordgames.warm``).

numba compiles a kernel the first time it is called with a given set of argument types and
keeps the machine code on disk (``cache=True``). A newcomer's first ``wordgames run`` would pay
that (10-15 s here); the install script runs this module instead, which calls every kernel
through the code paths a run takes, on toy inputs of the same types: the Codenames counting,
clue values and dropped columns (every sender of the paper's line-up, ClusterSender's k-means
included), the fixed-order sums of the intervals and the WALES agent's lockstep search. The
compiled code is kept for the CPU it was compiled on: a different machine compiles again on
first use, as before.

Example
-------
>>> from wordgames.warm import warm_kernels
>>> sorted(warm_kernels())
['codenames', 'wales']
"""

from __future__ import annotations

import time

import numpy as np

__all__ = ["warm_kernels"]

_WORDS = [f"w{i}" for i in range(64)]


def _toy_embedding():
    from wordgames.embeddings import Embedding

    rng = np.random.default_rng(0)
    return Embedding(_WORDS, rng.normal(size=(len(_WORDS), 8)).astype(np.float32), name="warm")


def _codenames(emb) -> None:
    from wordgames.codenames.agents import ClusterSender, default_senders
    from wordgames.codenames.measures import RankProblem, sender_ranks

    problems = [
        RankProblem(f"r{i}", tuple(_WORDS[i : i + 3]), tuple(_WORDS[i + 3 : i + 9]), _WORDS[40 + i])
        for i in range(4)
    ]
    sender_ranks(default_senders(emb, quick=True), problems, n_jobs=2)
    # one board alone: the k-means and cluster codes Python calls itself (a split that goes
    # alone, as when a word is unknown or a board has more than 62 words)
    ClusterSender(emb, n_restarts=2).choose_cluster(_WORDS[:3], _WORDS[3:9])
    # the intervals' and paired comparisons' fixed-order sums (wordgames.exact)
    from wordgames.exact import weighted_sums

    weighted_sums(np.ones((2, 3)), np.ones((3, 2)))


def _wales(emb) -> None:
    from wordgames.wales.agent import GreedyAgent
    from wordgames.wales.graph import DiGraph
    from wordgames.wales.titles import NodeVectors

    src = np.arange(16, dtype=np.int64)
    g = DiGraph.from_edges(np.r_[src, src], np.r_[(src + 1) % 16, (src + 5) % 16])
    # nodes 4 apart share a vector, so each node's two links (1 and 5 on) tie: the deeper
    # search, whose loops are compiled, runs
    nv = NodeVectors(src % 4, emb.vectors[:4])
    for gamma in (1.0, 0.5):  # the greedy rule and the general search
        GreedyAgent(gamma=gamma).run(g, nv, np.array([0, 3]), np.array([9, 12]), lockstep=True)


def warm_kernels() -> dict[str, float]:
    """Compile every kernel (a no-op when they are on disk); seconds per family."""
    emb = _toy_embedding()
    out = {}
    for name, fn in (("codenames", _codenames), ("wales", _wales)):
        t = time.perf_counter()
        fn(emb)
        out[name] = round(time.perf_counter() - t, 2)
    return out


if __name__ == "__main__":
    took = warm_kernels()
    print("numba kernels compiled: " + ", ".join(f"{k} {v:.1f} s" for k, v in took.items()))
