"""The compute function of the word-similarity measure (declared in :mod:`wordgames.similarity.spec`).

Options: :class:`~wordgames.similarity.spec.SimilarityOptions`. Scores: one row per benchmark
(``dataset``) and metric (``spearman``, ``pearson``, ``coverage``), with the pairs used as ``n``
and the out-of-vocabulary pairs as ``n_skipped`` (under ``oov="fixed"`` they are kept in ``n``,
scored with the fixed cosine, and counted as ``n_oov``). Every row's ``coverage`` is the share of the benchmark's pairs
with both words in the vocabulary, set explicitly: under ``"fixed"`` the pairs scored with a
made-up cosine do not count as covered.

Intervals: Spearman and Pearson carry a seeded percentile-bootstrap 95 % interval over the
pairs (resampled together; ``ctx.ci_resamples`` resamples seeded by ``ctx.seed``), inside
[-1, 1]. The ``coverage`` metric is a count over every pair: no interval.
"""

from __future__ import annotations

import math
from pathlib import Path

from wordgames.errors import WordgamesError
from wordgames.measure import MeasureResult, Timer
from wordgames.paired import item_record
from wordgames.safeio import save_figure
from wordgames.similarity.benchmarks import (
    BENCHMARKS,
    DATASET,
    BenchmarkScore,
    evaluate,
    load_benchmarks,
    read_pairs_tsv,
)

VERSION = "2"


def run(embedding, ctx) -> MeasureResult:
    """Every benchmark's correlation with the embedding's cosines.

    ``ctx.options`` is a :class:`~wordgames.similarity.spec.SimilarityOptions`.
    """
    from wordgames.datasets import verify_dataset

    opts = ctx.options
    # None: every shipped benchmark; an empty list: only the users' files
    names = list(BENCHMARKS if opts.benchmarks is None else opts.benchmarks)
    if not names and not opts.extra:
        raise WordgamesError(
            "no similarity benchmark to run: name shipped benchmarks or give "
            "your own files (option 'extra')"
        )
    timings: dict[str, float] = {}
    with Timer(timings, "load"):
        datasets = {DATASET: verify_dataset(DATASET, ctx.data_root)} if names else {}
        benches = load_benchmarks(names, ctx.data_root) if names else {}
        for path in opts.extra:
            b = read_pairs_tsv(path)
            benches[b.name] = b
    with Timer(timings, "score"):
        scores = evaluate(
            embedding,
            benches,
            oov=opts.oov,
            oov_similarity=opts.oov_similarity,
            n_resamples=ctx.ci_resamples,
            seed=ctx.seed,
        )
    result = scores_to_result(
        scores, benches, embedding.name, oov=opts.oov, oov_similarity=opts.oov_similarity
    )
    result.datasets = datasets
    result.timings.update(timings)
    folder = ctx.plot_dir("similarity", embedding.name)
    if folder is not None:
        with Timer(result.timings, "plot"):
            result.plots.append(str(plot_scores(scores, embedding.name, folder)))
    return result


def scores_to_result(
    scores: list[BenchmarkScore],
    benches: dict,
    embedding_name: str,
    *,
    oov: str,
    oov_similarity: float,
) -> MeasureResult:
    """Score rows per benchmark (Spearman, Pearson, coverage), the tables, OOV record and notes."""
    oov_rec: dict = {"policy": oov, "oov_similarity": oov_similarity if oov == "fixed" else None}
    result = MeasureResult(measure="similarity", version=VERSION)
    why = "pairs with an out-of-vocabulary word" + (" (scored as fixed)" if oov == "fixed" else "")
    for s in scores:
        for metric, value, ci in (
            ("spearman", s.spearman, s.spearman_ci),
            ("pearson", s.pearson, s.pearson_ci),
            ("coverage", s.coverage, (math.nan, math.nan)),
        ):
            row = result.score(
                s.benchmark,
                "",
                metric,
                value,
                ci=ci,
                n=s.n_scored,
                n_skipped=s.n_pairs - s.n_scored,
                skip_reason=why if s.n_oov_pairs else "",
                n_oov=s.n_oov_pairs if oov == "fixed" else 0,
            )
            row.coverage = s.coverage
            if metric == "spearman" and s.pairs:
                ids, model, gold = s.pairs
                result.keep_items(row, item_record(ids, model, statistic="spearman", gold=gold))
        oov_rec[s.benchmark] = {
            "pairs": s.n_pairs,
            "oov_pairs": s.n_oov_pairs,
            "oov_words": s.n_oov_words,
            "examples": list(s.oov_examples),
            "cased_fallback": s.cased_fallback,
        }
    notes = [
        f"OOV policy {oov!r}: "
        + (
            "pairs with an out-of-vocabulary word are left out of the correlation"
            if oov == "skip"
            else f"pairs with an out-of-vocabulary word are scored cosine = {oov_similarity}"
        ),
        "words are lower-cased; an OOV lower-cased word falls back to the file's spelling",
    ]
    for name, b in benches.items():
        if b.repairs:
            notes.append(f"{name}: repaired " + ", ".join(f"{k}={v}" for k, v in b.repairs.items()))
        notes.extend(f"{name}: {n}" for n in b.notes)
    result.tables = {
        "benchmarks": [s.as_row() for s in scores],
        "repairs": [
            {"benchmark": n, **b.repairs, "notes": "; ".join(b.notes)} for n, b in benches.items()
        ],
    }
    result.oov = oov_rec
    result.parameters = {
        "oov": oov,
        "oov_similarity": oov_similarity,
        "similarity": "cosine",
        "benchmarks": list(benches),
        "lowercase": True,
    }
    result.notes = notes
    return result


def plot_scores(scores: list[BenchmarkScore], embedding_name: str, out_dir: Path) -> Path:
    """Bar chart of Spearman per benchmark with its 95 % bootstrap interval, and OOV pair counts."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    names = [s.benchmark for s in scores]
    vals = np.array([s.spearman for s in scores], dtype=float)
    lo = np.array([s.spearman_ci[0] for s in scores], dtype=float)
    hi = np.array([s.spearman_ci[1] for s in scores], dtype=float)
    yerr = np.nan_to_num(np.stack([vals - lo, hi - vals]), nan=0.0).clip(min=0.0)
    fig, ax = plt.subplots(figsize=(7, 3.4))
    ax.bar(names, np.nan_to_num(vals), yerr=yerr, capsize=2, color="tab:blue")
    for i, s in enumerate(scores):
        ax.annotate(
            f"oov {s.n_oov_pairs}/{s.n_pairs}",
            (i, max(0.0, np.nan_to_num(hi[i] if np.isfinite(hi[i]) else vals[i]))),
            ha="center",
            va="bottom",
            fontsize=6,
            rotation=90,
        )
    ax.set_ylabel("Spearman rho (95% bootstrap interval)")
    ax.set_ylim(min(0.0, np.nanmin(vals) if np.isfinite(vals).any() else 0.0) - 0.05, 1.15)
    ax.set_title(
        f"{embedding_name}: word similarity (OOV policy {scores[0].oov_policy if scores else ''})",
        fontsize=9,
    )
    ax.tick_params(axis="x", rotation=45, labelsize=7)
    fig.tight_layout()
    path = Path(out_dir) / "similarity.png"
    save_figure(fig, path, dpi=120)
    plt.close(fig)
    return path


# --------------------------------------------------------------------------- pre-check
def coverage(embedding, opts, root):
    """``(data set, items known, items, unit)`` of each data set: the pre-check of a unit."""
    from wordgames.similarity.benchmarks import _indices, load_benchmarks

    if opts.benchmarks == ():
        return []
    out = []
    for name, b in load_benchmarks(opts.benchmarks, root).items():
        i1, _ = _indices(embedding, b.word1, b.raw1)
        i2, _ = _indices(embedding, b.word2, b.raw2)
        out.append((name, int(((i1 >= 0) & (i2 >= 0)).sum()), len(b), "pairs"))
    return out


def game_words(root) -> set[str]:
    """Every word this game asks an embedding about on the available data."""
    from wordgames.similarity.benchmarks import load_benchmarks

    out: set[str] = set()
    for b in load_benchmarks(None, root).values():
        out.update(map(str, b.word1))
        out.update(map(str, b.word2))
    return out
