"""Speed of the emergent-language measures against naive baselines.

Targets (issue 5): CBM with all by-products plus AMI on 100,000 messages in under 2 s; TopSim on
2,000 messages in under 0.5 s (an EGG-style TopSim with a Python distance function takes 5.6 s
on the project's 2-core machine).

Run: ``python bench/bench_cbm.py`` (``--quick`` runs the naive baselines on subsets and
extrapolates). Each measured figure is the median of ``--repeat`` warm runs
(imports and first-call set-up are reported apart as "cold").
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections import Counter, defaultdict

import numpy as np


def thing_language(n: int, label_len: int, seed: int = 0, noise: float = 0.2, msg_len: int = 4):
    """A Thing-world language: 5 attributes x 10 values; each concept has a word (id 1..50),
    ``noise`` of the words are replaced by random ids 1..63; EOS 0 after the words."""
    rng = np.random.default_rng(seed)
    attr = rng.integers(0, 10, (n, 5))
    feats = np.argsort(rng.random((n, 5)), axis=1)[:, :label_len]
    vals = attr[np.arange(n)[:, None], feats]
    labels = [
        [f"f{f}=v{v}" for f, v in zip(fr, vr, strict=True)]
        for fr, vr in zip(feats, vals, strict=True)
    ]
    words = feats * 10 + vals + 1
    words = np.where(rng.random(words.shape) < noise, rng.integers(1, 64, words.shape), words)
    msgs = np.zeros((n, msg_len), dtype=np.int64)
    msgs[:, :label_len] = words
    objects = np.zeros((n, 50))
    objects[np.arange(n)[:, None], attr + np.arange(5) * 10] = 1.0
    return msgs, labels, objects


def timed(fn, repeat):
    """Median wall time and median CPU time (this process) of ``repeat`` calls.

    On a shared machine the wall time includes waiting for a core; the CPU time is what the
    work itself costs (numpy runs single-threaded here, BLAS may add threads for the cosines).
    """
    walls, cpus, out = [], [], None
    for _ in range(repeat):
        t, c = time.perf_counter(), time.process_time()
        out = fn()
        walls.append(time.perf_counter() - t)
        cpus.append(time.process_time() - c)
    return statistics.median(walls), statistics.median(cpus), out


# ------------------------------------------------------------------ naive baselines


def naive_cbm_ami(msgs, labels, eos=0):
    """CBM + rates with Python dicts and loops over samples, AMI from strings (sklearn)."""
    from scipy.optimize import linear_sum_assignment
    from sklearn.metrics import adjusted_mutual_info_score

    sets, graph = [], defaultdict(Counter)
    for m, lab in zip(msgs.tolist(), labels, strict=True):
        ws = []
        for t in m:
            if t == eos:
                break
            ws.append(t)
        s = set(ws)
        sets.append((s, set(lab), ws))
        for w in s:
            for c in lab:
                graph[w][c] += 1
    words = sorted(graph)
    concepts = sorted({c for lab in labels for c in lab})
    ci = {c: i for i, c in enumerate(concepts)}
    g = np.zeros((len(words), len(concepts)))
    for i, w in enumerate(words):
        for c, v in graph[w].items():
            g[i, ci[c]] = v
    r, c = linear_sum_assignment(g, maximize=True)
    match = {words[i]: concepts[j] for i, j in zip(r, c, strict=True) if g[i, j] > 0}
    matched_c = set(match.values())
    q = good = amb = para = unm = 0
    for s, lab, _ in sets:
        q += max(len(s), len(lab))
        for w in s:
            if w in match:
                good += match[w] in lab
                amb += match[w] not in lab
            else:
                para += 1
        unm += sum(1 for x in lab if x not in matched_c)
    ami = adjusted_mutual_info_score(
        [" ".join(sorted(lab)) for _, lab, _ in sets],
        [" ".join(map(str, ws)) for _, _, ws in sets],
        average_method="max",
    )
    return good / q, amb / q, para / q, unm / q, ami


def py_levenshtein(a, b):
    d = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        prev, d[0] = d[:], i
        for j, y in enumerate(b, 1):
            d[j] = min(prev[j] + 1, d[j - 1] + 1, prev[j - 1] + (x != y))
    return d[-1]


def egg_topsim(msgs, objects):
    """EGG's TopographicSimilarity.compute_topsim with a Python edit distance."""
    from scipy.spatial.distance import pdist
    from scipy.stats import spearmanr

    lists = [m for m in msgs.tolist()]
    n = len(lists)
    # pdist with a Python callable, as EGG does (messages of equal length here)
    idx = np.arange(n)[:, None].astype(float)
    message_dist = pdist(idx, lambda x, y: py_levenshtein(lists[int(x[0])], lists[int(y[0])]))
    meaning_dist = pdist(objects, "cosine")
    return spearmanr(meaning_dist, message_dist).correlation


# ------------------------------------------------------------------ main


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument(
        "--quick", action="store_true", help="run the naive baselines on a subset and extrapolate"
    )
    args = ap.parse_args(argv)

    from wordgames.emergent.inputs import encode_messages
    from wordgames.emergent.measures import evaluate_language
    from wordgames.emergent.topsim import topographic_similarity

    try:
        load = os.getloadavg()[0]
    except OSError:  # pragma: no cover
        load = float("nan")
    print(f"cpus: {os.cpu_count()}, load average (1 min): {load:.2f}")

    print("\n== CBM + all by-products + AMI, 100,000 messages (target < 2 s) ==")
    for label_len in (1, 2, 4):
        msgs, labels, _ = thing_language(100_000, label_len, seed=label_len)

        def ours(msgs=msgs, labels=labels):
            return evaluate_language(msgs, labels, eos_id=0, measures=("cbm", "sensitivity", "ami"))

        t = time.perf_counter()
        ours()
        cold = time.perf_counter() - t
        warm, cpu, rep = timed(ours, args.repeat)
        if args.quick or label_len > 2:
            # sklearn's AMI is quadratic in the distinct messages and phrases (98,000 x 43,000
            # for l=4): a linear extrapolation from 10,000 samples is a lower bound
            k = 10_000
            t = time.perf_counter()
            naive_cbm_ami(msgs[:k], labels[:k])
            naive = (time.perf_counter() - t) * (100_000 / k)
            naive_note = "linear extrapolation from 10,000: a lower bound"
        else:
            t = time.perf_counter()
            ref = naive_cbm_ami(msgs, labels)
            naive = time.perf_counter() - t
            naive_note = "full"
            assert abs(ref[0] - rep.cbm) < 1e-12 and abs(ref[4] - rep.ami) < 1e-9, (ref, rep.cbm)
        print(
            f"l={label_len}: ours {warm:.3f} s wall, {cpu:.3f} s CPU (cold {cold:.2f} s) | "
            f"{rep.n_unique_messages} "
            f"messages, {rep.n_unique_phrases} phrases, CBM {rep.cbm:.3f}, AMI {rep.ami:.3f} | "
            f"phases {rep.timings} | naive Python {naive:.2f} s ({naive_note}) -> "
            f"x{naive / warm:.1f} | target (wall) {'met' if warm < 2 else 'MISSED'}"
        )

    print(
        "\n== TopSim, 2,000 messages, all 1,999,000 pairs (target < 0.5 s; EGG-style 5.6 s quoted) =="
    )
    rng = np.random.default_rng(0)
    cases = {
        # messages repeat (63 distinct), objects are one-hot attribute vectors
        "Thing l=1 language": thing_language(2000, 1, seed=7)[0::2],
        # worst case: every message distinct, every object distinct
        "random distinct messages L=6 V=9": (
            rng.integers(1, 10, (2000, 6)),
            rng.random((2000, 20)),
        ),
    }
    for name, (msgs, objects) in cases.items():
        m = encode_messages(msgs, eos_id=0)

        def ours(m=m, objects=objects):
            return topographic_similarity(m, objects, max_pairs=None)

        ours()
        warm, cpu, (ts, n_pairs) = timed(ours, args.repeat)
        n_eval = 400 if args.quick else 2000
        t = time.perf_counter()
        ref = egg_topsim(msgs[:n_eval], objects[:n_eval])
        naive = (time.perf_counter() - t) * (2000 * 1999) / (n_eval * (n_eval - 1))
        if not args.quick:
            assert abs(ref - ts) < 1e-3, (ref, ts)
        print(
            f"{name}: ours {warm:.3f} s wall, {cpu:.3f} s CPU, TopSim {ts:.4f} over {n_pairs} "
            f"pairs | EGG-style "
            f"{naive:.2f} s{' (extrapolated from 400)' if args.quick else ''} -> "
            f"x{naive / warm:.1f} | target (wall) {'met' if warm < 0.5 else 'MISSED'}"
        )


if __name__ == "__main__":
    main()
