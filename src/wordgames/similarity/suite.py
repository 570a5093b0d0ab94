"""``wordgames run`` entry point of the word-similarity benchmarks (measure ``"similarity"``).

Options (``ctx.options["similarity"]``):

* ``benchmarks`` -- short names of the shipped benchmarks to run (default: all 13);
* ``extra`` -- paths of users' own ``word1<TAB>word2<TAB>score`` files (named by file stem);
* ``oov`` -- ``"skip"`` (default) or ``"fixed"``; ``oov_similarity`` -- the cosine of OOV
  pairs under ``"fixed"`` (default 0.0).
"""

from __future__ import annotations

from pathlib import Path

from wordgames.results import MeasureResult, Timer
from wordgames.similarity.benchmarks import (
    BENCHMARKS,
    DATASET,
    BenchmarkScore,
    evaluate,
    load_benchmarks,
    read_pairs_tsv,
)

VERSION = "1"


def run(embedding, ctx) -> MeasureResult:
    from wordgames.datasets import verify_dataset

    opts = dict((getattr(ctx, "options", {}) or {}).get("similarity", {}))
    names = list(opts.get("benchmarks") or BENCHMARKS)
    oov = opts.get("oov", "skip")
    oov_similarity = float(opts.get("oov_similarity", 0.0))
    timings: dict[str, float] = {}
    with Timer(timings, "load"):
        datasets = {DATASET: verify_dataset(DATASET, ctx.data_root)}
        benches = load_benchmarks(names, ctx.data_root)
        for path in opts.get("extra", ()):
            b = read_pairs_tsv(path)
            benches[b.name] = b
    with Timer(timings, "score"):
        scores = evaluate(embedding, benches, oov=oov, oov_similarity=oov_similarity)
    result = scores_to_result(scores, benches, embedding.name, oov=oov, oov_similarity=oov_similarity)
    result.datasets = datasets
    result.timings.update(timings)
    with Timer(result.timings, "plot"):
        result.plots.append(str(plot_scores(scores, embedding.name,
                                            ctx.plot_dir("similarity", embedding.name))))
    return result


def scores_to_result(scores: list[BenchmarkScore], benches: dict, embedding_name: str, *,
                     oov: str, oov_similarity: float) -> MeasureResult:
    """Flat metrics (``"<benchmark>/spearman"`` beside ``"<benchmark>/oov_pairs"``), table, notes."""
    metrics: dict[str, float] = {}
    oov_rec: dict = {"policy": oov, "oov_similarity": oov_similarity if oov == "fixed" else None}
    for s in scores:
        metrics[f"{s.benchmark}/spearman"] = s.spearman
        metrics[f"{s.benchmark}/pearson"] = s.pearson
        metrics[f"{s.benchmark}/n_pairs"] = float(s.n_pairs)
        metrics[f"{s.benchmark}/oov_pairs"] = float(s.n_oov_pairs)
        metrics[f"{s.benchmark}/coverage"] = s.coverage
        oov_rec[s.benchmark] = {"pairs": s.n_pairs, "oov_pairs": s.n_oov_pairs,
                                "oov_words": s.n_oov_words, "examples": list(s.oov_examples),
                                "cased_fallback": s.cased_fallback}
    notes = [
        f"OOV policy {oov!r}: " + ("pairs with an out-of-vocabulary word are left out of the correlation"
                                   if oov == "skip" else
                                   f"pairs with an out-of-vocabulary word are scored cosine = {oov_similarity}"),
        "words are lower-cased; an OOV lower-cased word falls back to the file's spelling",
    ]
    for name, b in benches.items():
        if b.repairs:
            notes.append(f"{name}: repaired " + ", ".join(f"{k}={v}" for k, v in b.repairs.items()))
        notes.extend(f"{name}: {n}" for n in b.notes)
    return MeasureResult(
        measure="similarity",
        version=VERSION,
        metrics=metrics,
        tables={"benchmarks": [s.as_row() for s in scores],
                "repairs": [{"benchmark": n, **b.repairs, "notes": "; ".join(b.notes)}
                            for n, b in benches.items()]},
        oov=oov_rec,
        parameters={"oov": oov, "oov_similarity": oov_similarity, "similarity": "cosine",
                    "benchmarks": list(benches), "lowercase": True},
        notes=notes,
    )


def plot_scores(scores: list[BenchmarkScore], embedding_name: str, out_dir: Path) -> Path:
    """Bar chart of Spearman per benchmark, each bar labelled with its OOV pair count."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    names = [s.benchmark for s in scores]
    vals = np.array([s.spearman for s in scores], dtype=float)
    fig, ax = plt.subplots(figsize=(7, 3.4))
    ax.bar(names, np.nan_to_num(vals), color="tab:blue")
    for i, s in enumerate(scores):
        ax.annotate(f"oov {s.n_oov_pairs}/{s.n_pairs}", (i, max(0.0, np.nan_to_num(vals[i]))),
                    ha="center", va="bottom", fontsize=6, rotation=90)
    ax.set_ylabel("Spearman rho")
    ax.set_ylim(min(0.0, np.nanmin(vals) if np.isfinite(vals).any() else 0.0) - 0.05, 1.15)
    ax.set_title(f"{embedding_name}: word similarity (OOV policy {scores[0].oov_policy if scores else ''})",
                 fontsize=9)
    ax.tick_params(axis="x", rotation=45, labelsize=7)
    fig.tight_layout()
    path = Path(out_dir) / "similarity.png"
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path
