"""Word-similarity benchmarks, global metrics and the correlation study across embeddings.

Modules (imported on use, so ``import wordgames.similarity`` stays light):

* :mod:`~wordgames.similarity.benchmarks` -- the 13 shipped benchmarks and users' TSV files,
  Spearman/Pearson of cosine similarity with OOV accounting;
* :mod:`~wordgames.similarity.suite` -- ``run(embedding, ctx)`` of the ``similarity`` measure;
* :mod:`~wordgames.similarity.global_metrics` -- erank, perank(p), edim(p) and ``run`` of the
  ``global-metrics`` measure;
* :mod:`~wordgames.similarity.correlation` -- Spearman rank correlation across embeddings
  between WALES and every other metric (WALES Figure 1).

The main functions are also reachable here, imported on first use:
:func:`evaluate` and :func:`read_pairs_tsv` / :func:`load_benchmarks` (benchmarks),
:class:`GlobalMetrics` and :func:`correlate` (the study that runs the measures first is
:func:`wordgames.experiments.correlation_study`).
"""

_LAZY = {
    "evaluate": "benchmarks",
    "evaluate_benchmark": "benchmarks",
    "load_benchmarks": "benchmarks",
    "read_pairs_tsv": "benchmarks",
    "GlobalMetrics": "global_metrics",
    "correlate": "correlation",
}

__all__ = sorted(_LAZY)


def __getattr__(name: str):
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(f"wordgames.similarity.{_LAZY[name]}"), name)
    raise AttributeError(f"module 'wordgames.similarity' has no attribute {name!r}")
