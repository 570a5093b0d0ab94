"""Cheap measures for the suite's own tests, plugged in through $WORDGAMES_EXTRA_MEASURES.

Each one appends ``<measure> <embedding> <pid>`` to the file named by ``$WORDGAMES_TOY_LOG`` when it
starts (so a test can tell which units a run computed), sleeps ``$WORDGAMES_TOY_SLEEP``
seconds (so a test can kill a run mid-way), and returns numbers computed from the vectors.
"""

from __future__ import annotations

import os
import time

import numpy as np

from wordgames.results import MeasureResult

ENTRIES = ",".join(f"toy{i}=tests._toy_measures:toy{i}" for i in range(1, 5))


def _blas_threads() -> int:
    from threadpoolctl import threadpool_info

    return max((p["num_threads"] for p in threadpool_info() if p["user_api"] == "blas"), default=0)


def _measure(name: str):
    def run(embedding, ctx) -> MeasureResult:
        log = os.environ.get("WORDGAMES_TOY_LOG")
        if log:
            with open(log, "a", encoding="utf-8") as fh:
                fh.write(f"{name} {embedding.name} {os.getpid()}\n")
        time.sleep(float(os.environ.get("WORDGAMES_TOY_SLEEP", "0")))
        v = np.asarray(embedding.vectors, dtype=np.float64)
        u = embedding.unit
        rng = np.random.default_rng(ctx.seed)
        pairs = rng.integers(0, len(embedding), size=(50, 2))
        metrics = {
            "mean_norm": float(np.linalg.norm(v, axis=1).mean()),
            "n_words": float(len(embedding)),
            "gram_trace": float(np.trace(v.T @ v)),
            "mean_pair_cosine": float((u[pairs[:, 0]] * u[pairs[:, 1]]).sum(1).mean()),
        }
        result = MeasureResult(
            measure=name,
            version="1",
            parameters={"seed": ctx.seed, "blas_threads": _blas_threads(), "pid": os.getpid()},
        )
        for metric, value in metrics.items():
            result.score("", "", metric, value, n=len(embedding))
        return result

    run.__name__ = name
    return run


toy1, toy2, toy3, toy4 = (_measure(f"toy{i}") for i in range(1, 5))
