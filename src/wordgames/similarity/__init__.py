"""Word-similarity benchmarks, global metrics and the correlation study across embeddings.

Modules (imported on use, so ``import wordgames.similarity`` stays light):

* :mod:`~wordgames.similarity.benchmarks` -- the 13 shipped benchmarks and users' TSV files,
  Spearman/Pearson of cosine similarity with OOV accounting;
* :mod:`~wordgames.similarity.suite` -- ``run(embedding, ctx)`` of the ``similarity`` measure;
* :mod:`~wordgames.similarity.global_metrics` -- erank, perank(p), edim(p) and ``run`` of the
  ``global-metrics`` measure;
* :mod:`~wordgames.similarity.correlation` -- Spearman rank correlation across embeddings
  between WALES and every other metric (WALES Figure 1).
"""
