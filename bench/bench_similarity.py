"""Timings of the word-similarity benchmarks and the global metrics on GloVe 6B 50d (400k x 50).

Run:  WORDGAMES_DATA=../shared/data python bench/bench_similarity.py

Prints, for all 13 benchmarks together, the vectorised scoring (one batched row-wise dot
product per benchmark) against a naive per-pair Python loop, and for the global metrics the
chunked float64 Gram route against LAPACK's full SVD of the 400,000 x 50 matrix, each as a
ratio. Times are medians of several repeats; the machine's load average is printed because
it is shared.
"""

from __future__ import annotations

import os
import statistics
import time

import numpy as np


def median_time(fn, repeats: int = 5) -> float:
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def naive_scores(emb, benches):
    """Baseline: one Python iteration per pair, a norm and a dot product each."""
    from scipy import stats

    vectors, index = emb.vectors, emb.word_index
    out = {}
    for name, b in benches.items():
        xs, ys = [], []
        for w1, w2, y in zip(b.word1, b.word2, b.scores, strict=True):
            if w1 in index and w2 in index:
                v1, v2 = vectors[index[w1]], vectors[index[w2]]
                xs.append(float(v1 @ v2 / (np.linalg.norm(v1) * np.linalg.norm(v2))))
                ys.append(y)
        out[name] = stats.spearmanr(xs, ys).statistic
    return out


def main() -> None:
    from wordgames.embeddings import load_embedding
    from wordgames.similarity.benchmarks import evaluate, load_benchmarks
    from wordgames.similarity.global_metrics import GlobalMetrics, singular_values

    print(f"load average at start: {os.getloadavg()}, cores: {os.cpu_count()}")
    t = time.perf_counter()
    emb = load_embedding("glove-6b-50d")
    print(f"load GloVe 6B 50d (memory map): {time.perf_counter() - t:.3f} s")
    t = time.perf_counter()
    benches = load_benchmarks()
    n_pairs = sum(len(b) for b in benches.values())
    print(f"parse 13 benchmarks ({n_pairs:,} pairs): {time.perf_counter() - t:.3f} s")
    t = time.perf_counter()
    _ = emb.unit, emb.word_index
    print(f"one-time per embedding (unit rows + word index): {time.perf_counter() - t:.3f} s")

    fast = median_time(lambda: evaluate(emb, benches))
    slow = median_time(lambda: naive_scores(emb, benches), repeats=3)
    ours = {s.benchmark: s.spearman for s in evaluate(emb, benches)}
    ref = naive_scores(emb, benches)
    diff = max(abs(ours[k] - ref[k]) for k in ours)
    print(
        f"13 benchmarks, vectorised: {fast * 1000:.1f} ms; naive per-pair loop: {slow * 1000:.1f} ms; "
        f"ratio {slow / fast:.1f}x (max |rho difference| {diff:.1e})"
    )

    # where the vectorised time goes: word lookup (one dict access per word, inside
    # Embedding.lookup), the batched cosines, and scipy's spearmanr + pearsonr
    from wordgames.similarity.benchmarks import _correlations, _indices, pair_cosines

    idx = {
        n: (_indices(emb, b.word1, b.raw1)[0], _indices(emb, b.word2, b.raw2)[0])
        for n, b in benches.items()
    }
    look = median_time(
        lambda: [
            (_indices(emb, b.word1, b.raw1), _indices(emb, b.word2, b.raw2))
            for b in benches.values()
        ]
    )
    found = {n: (i1 >= 0) & (i2 >= 0) for n, (i1, i2) in idx.items()}
    cos = median_time(
        lambda: [pair_cosines(emb.unit, i1[found[n]], i2[found[n]]) for n, (i1, i2) in idx.items()]
    )
    cosines = {n: pair_cosines(emb.unit, i1[found[n]], i2[found[n]]) for n, (i1, i2) in idx.items()}
    corr = median_time(
        lambda: [_correlations(cosines[n], b.scores[found[n]]) for n, b in benches.items()]
    )
    print(
        f"  of which: word lookup {look * 1000:.1f} ms, batched cosines {cos * 1000:.1f} ms, "
        f"scipy spearmanr+pearsonr {corr * 1000:.1f} ms"
    )
    loop_cos = median_time(
        lambda: [
            [
                float(
                    emb.vectors[emb.word_index[a]]
                    @ emb.vectors[emb.word_index[c]]
                    / (
                        np.linalg.norm(emb.vectors[emb.word_index[a]])
                        * np.linalg.norm(emb.vectors[emb.word_index[c]])
                    )
                )
                for a, c, ok in zip(b.word1, b.word2, found[n], strict=True)
                if ok
            ]
            for n, b in benches.items()
        ],
        repeats=3,
    )
    print(
        f"  cosines alone: batched {cos * 1000:.1f} ms vs per-pair loop {loop_cos * 1000:.1f} ms, "
        f"ratio {loop_cos / cos:.0f}x"
    )

    x = emb.vectors
    gram = median_time(lambda: singular_values(x, method="gram"))
    svd = median_time(lambda: singular_values(x, method="svd"), repeats=2)
    full = median_time(lambda: GlobalMetrics().compute(emb))
    s_g, s_s = singular_values(x, method="gram"), singular_values(x, method="svd")
    print(
        f"global metrics on 400,000 x 50: Gram route {gram * 1000:.0f} ms, full SVD {svd * 1000:.0f} ms, "
        f"ratio {svd / gram:.1f}x (max relative singular-value difference "
        f"{np.max(np.abs(s_g - s_s) / s_s):.1e}); erank+perank+edim together {full * 1000:.0f} ms"
    )
    print(f"load average at end: {os.getloadavg()}")


if __name__ == "__main__":
    main()
