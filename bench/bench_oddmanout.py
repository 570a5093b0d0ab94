"""Speed of the Odd-Man-Out solvers against naive per-puzzle loops.

Run:  WORDGAMES_DATA=/path/to/shared/data python bench/bench_oddmanout.py [--quick]

Targets (issue 4):
  * WordNet solver on a 102-puzzle Anomia file: < 2 s after WordNet is loaded, in both modes
    (the published code itself, run with nltk 3.4.5 outside this script, is timed in
    docs/oddmanout.md: about 1.6-7 s for common2 after 4-19 s of loading);
  * embedding solver on all 322,602 unfiltered crowdsourced puzzles: < 5 s;
  * sense-embedding solve (K = 5) on the 585 crowdsourced test puzzles: < 2 s.
The naive baselines run on a sample and are extrapolated linearly (printed as such).
"""

from __future__ import annotations

import argparse
import os
import time
from itertools import combinations, product

import numpy as np


def _t(fn, repeat: int = 1):
    best = float("inf")
    out = None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t0)
    return best, out


# ---------------------------------------------------------------------- naive baselines
def naive_embedding(unit_of, words_rows):
    """Per puzzle, per left-out word: mean pairwise cosine of the rest, in Python."""
    out = []
    for words in words_rows:
        vecs = [unit_of(w) for w in words]
        if any(v is None for v in vecs):
            out.append(-1)
            continue
        scores = []
        for k in range(len(vecs)):
            rest = [v for i, v in enumerate(vecs) if i != k]
            scores.append(np.mean([float(a @ b) for a, b in combinations(rest, 2)]))
        out.append(int(np.argmax(scores)))
    return out


def naive_senses(senses_of, words_rows):
    """Per puzzle, per left-out word: every sense combination, in Python."""
    out = []
    for words in words_rows:
        sets = [senses_of(w) for w in words]
        scores = []
        for k in range(len(sets)):
            rest = [s for i, s in enumerate(sets) if i != k]
            best = -np.inf
            for combo in product(*rest):
                best = max(best, np.mean([float(a @ b) for a, b in combinations(combo, 2)]))
            scores.append(best)
        out.append(int(np.argmax(scores)))
    return out


def naive_wordnet(wn, words_rows):
    """The published algorithm's shape: per puzzle and word, ancestor sets through nltk and
    descendant counts by recursion over hyponyms (memoised within the run)."""
    memo: dict = {}

    def ndesc(s):
        if s not in memo:
            memo[s] = 1 + sum(ndesc(h) for h in s.hyponyms())  # counts paths in the DAG
        return memo[s]

    def ancestors(word):
        out = set()
        for s in wn.synsets("_".join(word.split()), pos=None):
            out.add(s)
            out.update(s.closure(lambda x: x.hypernyms()))
        return out

    answers = []
    for words in words_rows:
        anc = [ancestors(w) for w in words]
        spec = []
        for k in range(len(words)):
            common = set.intersection(*[a for i, a in enumerate(anc) if i != k]) - anc[k]
            spec.append(max((1.0 / ndesc(s) for s in common), default=0.0))
        answers.append(int(np.argmax(spec)))
    return answers


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="smaller naive samples")
    args = ap.parse_args()
    from wordgames.embeddings import load_embedding
    from wordgames.oddmanout.data import load_dataset
    from wordgames.oddmanout.embedding_solver import EmbeddingSolver
    from wordgames.oddmanout.senses import SenseEmbedding
    from wordgames.oddmanout.taxonomy import TaxonomySolver
    from wordgames.oddmanout.wordnet import (
        load_wordnet,
        published_wordnet_taxonomy,
        wordnet_taxonomy,
    )

    print(f"load average: {os.getloadavg()}  cpus: {os.cpu_count()}")
    glove = load_embedding("glove-6b-50d")
    unit = glove.unit
    idx = glove.word_index

    def unit_of(w):
        # the solver's default multi-word policy: the phrase, else the mean of the tokens
        toks = w.split()
        rows = [idx.get(t, idx.get(t.lower(), -1)) for t in toks]
        if len(toks) > 1:
            p = idx.get("_".join(toks), idx.get("_".join(toks).lower(), -1))
            if p >= 0:
                rows = [p]
        if min(rows) < 0:
            return None
        v = unit[rows].astype(np.float64).mean(axis=0)
        return v / np.linalg.norm(v)

    # ------------------------------------------------------------------ WordNet
    t_wn, wn = _t(load_wordnet)
    t_tax, tax = _t(wordnet_taxonomy)
    print(
        f"\nWordNet: nltk reader {t_wn:.2f} s, taxonomy + closure {t_tax:.2f} s "
        f"({tax.n_vertices:,} synsets, closure nnz {tax.closure.nnz:,}) -- one-off per process"
    )
    ps = load_dataset("anomia-common-test")
    solver = TaxonomySolver(tax)
    t_first, _ = _t(lambda: solver.solve(ps))
    t_warm, _ = _t(lambda: solver.solve(ps), repeat=3)
    n_naive = 10 if args.quick else len(ps)
    rows = ps.words[:n_naive].tolist()
    t_naive, _ = _t(lambda: naive_wordnet(wn, rows))
    naive_full = t_naive / n_naive * len(ps)
    print(
        f"WordNet solver, {len(ps)} puzzles (anomia-common-test): first call {t_first:.3f} s, "
        f"warm {t_warm:.3f} s   [target < 2 s]"
    )
    extra = "" if n_naive == len(ps) else f" -> ~{naive_full:.1f} s for {len(ps)} (extrapolated)"
    print(
        f"  naive per-puzzle loop (nltk objects, memoised descendant recursion): {t_naive:.2f} s "
        f"for {n_naive} puzzles{extra}; ratio {naive_full / t_first:.0f}x (first call), "
        f"{naive_full / t_warm:.0f}x (warm)"
    )
    t_pub_tax, pub = _t(lambda: published_wordnet_taxonomy())
    psolver = TaxonomySolver(pub, missing="root")
    t_pub_first, _ = _t(lambda: psolver.solve(ps))
    t_pub_warm, _ = _t(lambda: psolver.solve(ps), repeat=3)
    print(
        f"WordNet solver, published mode: taxonomy + closure + lemma counts {t_pub_tax:.2f} s "
        f"(one-off); {len(ps)} puzzles first call {t_pub_first:.3f} s, warm {t_pub_warm:.3f} s; "
        f"naive loop / first call {naive_full / t_pub_first:.0f}x   [target < 2 s]"
    )

    # ------------------------------------------------------------------ embedding, 322,602
    t_load, big = _t(
        lambda: load_dataset("crowdsourced-unfiltered", dedupe=False, drop_repeated=False)
    )
    esolver = EmbeddingSolver(glove)
    t_solve, sol = _t(lambda: esolver.solve(big), repeat=2)
    n_naive = 2000 if args.quick else 10000
    sample = np.random.default_rng(0).choice(len(big), n_naive, replace=False)
    t_naive, naive = _t(lambda: naive_embedding(unit_of, big.words[sample].tolist()))
    agree = np.mean(np.asarray(naive) == np.where(sol.choice[sample] >= 0, sol.choice[sample], -1))
    naive_full = t_naive / n_naive * len(big)
    print(
        f"\nEmbedding solver (GloVe 6B 50d), {len(big):,} unfiltered puzzles: {t_solve:.2f} s "
        f"(file load {t_load:.2f} s, not counted)   [target < 5 s]"
    )
    print(
        f"  naive per-puzzle loop: {t_naive:.2f} s for {n_naive:,} -> ~{naive_full:.0f} s for "
        f"all (extrapolated, random sample); ratio {naive_full / t_solve:.0f}x; answers agree on "
        f"{100 * agree:.1f} % of the sample"
    )

    # ------------------------------------------------------------------ senses, K = 5
    test = load_dataset("crowdsourced-filtered")
    rng = np.random.default_rng(0)
    vocab = [w for w in test.vocabulary() if unit_of(w) is not None]
    base = np.stack([unit_of(w) for w in vocab])
    K = 5
    vecs = np.repeat(base, K, axis=0) + 0.3 * rng.normal(size=(len(vocab) * K, base.shape[1]))
    se = SenseEmbedding(vocab, vecs, np.arange(len(vocab) + 1) * K, name="glove+noise-k5")
    ssolver = EmbeddingSolver(se, mwe="phrase")
    t_first, ssol = _t(lambda: ssolver.solve(test))
    t_sense, _ = _t(lambda: ssolver.solve(test), repeat=3)
    n_naive = 3 if args.quick else 10
    ok = np.flatnonzero(ssol.choice >= 0)[:n_naive]

    def senses_of(w):
        return list(se.senses(w))

    t_naive, naive = _t(lambda: naive_senses(senses_of, test.words[ok].tolist()))
    naive_full = t_naive / n_naive * len(test)
    print(
        f"\nSense solver (K = {K}, exact search, synthetic senses), {len(test)} crowdsourced test "
        f"puzzles: first call {t_first:.3f} s, warm {t_sense:.3f} s   [target < 2 s]"
    )
    print(
        f"  naive per-puzzle loop: {t_naive:.2f} s for {n_naive} -> ~{naive_full:.0f} s for "
        f"{len(test)} (extrapolated); ratio {naive_full / t_first:.0f}x; answers agree: "
        f"{bool((np.asarray(naive) == ssol.choice[ok]).all())}"
    )
    print(f"\nload average at the end: {os.getloadavg()}")


if __name__ == "__main__":
    main()
