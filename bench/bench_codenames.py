"""Speed of the Codenames measures (issue 2, section 6).

The authors' published code, run on the pilot (197 records) with the full 400,000-word
GloVe 6B 50d vocabulary, took: receiver MAP 136 s, random receiver 114 s, random sender 213 s,
ClusterSender 401 s, ExhaustiveSearchSender 513 to 694 s per tie-break (about 50 minutes for
the eight). Targets: all eight in under 10 s in total; every sender and receiver on every human
data set in under 60 s; loading the default embedding in under 0.5 s.

This script times each of the eight alone, the eight together (the way ``evaluate`` and
``wordgames run`` call them: one pass shares the similarity products and the
ExhaustiveSearchSender geometry), and a naive baseline: a straightforward per-record
implementation that sorts the whole vocabulary (``ranked_forward``; scikit-learn KMeans for
ClusterSender), run on a few records and extrapolated.

    WORDGAMES_DATA=../shared/data python bench/bench_codenames.py [--all-datasets] [--naive N]

``--all-datasets`` (issue 15) also runs every sender and receiver on every human data set twice
in the same run: the compiled counting (``wordgames.codenames.counting``, the default) and the
previous method kept as the baseline (the numpy counting pass, ``compiled=False``), and prints
both totals, their ratio and whether every Score (value, interval, n, skipped) is identical.
Its gate (issue 36) is ``cpu / bound``: the job's CPU seconds (every thread) against a
single-thread CPU-time bound measured in the same run (:func:`work_bound`), which moves with
the machine's speed but not with its load the way a wall-clock bound does. ``--other-cpu``
runs the job again in a process that simulates another CPU (``NUMBA_CPU_NAME=generic``,
another ``OPENBLAS_CORETYPE``) and checks that every Score is the native run's, bit for bit.

Without the pilot data it uses 197 synthetic records (20 board words from the Codenames list
or the vocabulary, 1 to 4 picks). Wall and CPU seconds are printed: on a shared machine the
CPU time is the steadier figure.
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np

PUBLISHED = {  # seconds, the authors' code on the pilot with the full vocabulary
    "receiver MAP (nearest)": 136,
    "random receiver": 114,
    "random sender": 213,
    "ClusterSender": 401,
    "exhaustive:avg_blue_dist": (513 + 694) / 2,
    "exhaustive:max_blue_dist": (513 + 694) / 2,
    "exhaustive:max_radius": (513 + 694) / 2,
    "exhaustive:red_blue_diff": (513 + 694) / 2,
}
PUBLISHED_TOTAL = 50 * 60


class Clock:
    def __enter__(self):
        self.w, self.c = time.perf_counter(), time.process_time()
        return self

    def __exit__(self, *exc):
        self.wall = time.perf_counter() - self.w
        self.cpu = time.process_time() - self.c


def pilot_records(emb, n=197, seed=0):
    try:
        from wordgames.codenames.human_data import load_human_data

        recs = load_human_data("codenames-pilot").receiver
        return recs, "the real pilot (codenames-pilot loader)"
    except Exception as exc:  # no data: synthetic boards like the pilot's
        from wordgames.codenames.records import HumanReceiverRecord

        try:
            from wordgames.codenames.board import codenames_word_list

            pool = [w for w in codenames_word_list() if w in emb]
        except Exception:
            pool = [str(w) for w in emb.words[1000:3000]]
        rng = np.random.default_rng(seed)
        recs = []
        for i in range(n):
            board = [str(w) for w in rng.choice(pool, 20, replace=False)]
            k = int(rng.integers(1, 5))
            clue = str(emb.words[int(rng.integers(100, 20000))])
            recs.append(
                HumanReceiverRecord(
                    "synthetic",
                    str(i),
                    tuple(board),
                    clue,
                    tuple(board[:k]),
                    clue_source=f"m{i % 4}",
                )
            )
        return recs, f"197 synthetic boards ({exc.__class__.__name__}: no pilot data)"


def naive_sender_seconds(sender, problems, n):
    """Per record: the whole vocabulary sorted (ranked_forward), the clue's position read off."""
    with Clock() as c:
        for p in problems[:n]:
            sender.ranked_forward(p.blue, p.red).index(p.clue)
    return c.wall / n, c.cpu / n


def naive_cluster_seconds(emb, problems, n, n_restarts=10, max_clusters=10):
    """ClusterSender the straightforward way: one scikit-learn KMeans per k and restart, then a
    full argsort of the vocabulary's distances to the centroid."""
    from sklearn.cluster import KMeans

    u = emb.unit
    with Clock() as c:
        for p in problems[:n]:
            words = list(p.blue) + list(p.red)
            x = u[emb.lookup(words).indices].astype(np.float64)
            best = None
            for k in range(1, min(max_clusters, len(words)) + 1):
                for r in range(n_restarts):
                    lab = KMeans(k, n_init=1, init="random", random_state=r).fit(x).labels_
                    for j in range(k):
                        m = lab == j
                        if m[: len(p.blue)].sum() == m.sum() and (
                            best is None or m.sum() > best.sum()
                        ):
                            best = m
            cent = x[best].mean(0)
            order = np.argsort(-(u @ cent))
            int(np.flatnonzero(emb.words[order] == p.clue)[0])
    return c.wall / n, c.cpu / n


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "--all-datasets",
        action="store_true",
        help="also time every sender and receiver on every available human data set",
    )
    ap.add_argument("--naive", type=int, default=3, help="records for the naive baseline")
    ap.add_argument(
        "--other-cpu",
        action="store_true",
        help="with --all-datasets: also run the job under a simulated other CPU and compare",
    )
    ap.add_argument("--rows-to", help=argparse.SUPPRESS)  # the other CPU's side of --other-cpu
    args = ap.parse_args()
    if args.rows_to:
        import json

        from wordgames.embeddings import load_embedding

        with open(args.rows_to, "w") as f:
            json.dump(_job_rows(load_embedding("glove-6b-50d")), f)
        return

    from wordgames.codenames.agents import (
        ClusterSender,
        EmbeddingNearestReceiver,
        ExhaustiveSearchSender,
        RandomReceiver,
        RandomSender,
    )
    from wordgames.codenames.measures import (
        problems_from_receiver_records,
        receiver_map,
        sender_ranks_receiver_data,
    )
    from wordgames.embeddings import load_embedding

    print(f"cpus: {os.cpu_count()}, load average: {os.getloadavg()}")
    with Clock() as c:
        emb = load_embedding("glove-6b-50d")
    print(f"load glove-6b-50d ({len(emb)} words): {c.wall:.3f} s wall (target < 0.5 s)")
    with Clock() as c:
        emb.unit, emb.word_index  # noqa: B018 - built once per session, outside the measures
        import scipy.stats  # noqa: F401 - imported by the first summary; not a measure's cost
    print(f"unit vectors + word index + scipy.stats import, once per session: {c.wall:.2f} s")
    records, source = pilot_records(emb)
    problems, _ = problems_from_receiver_records(records)
    with Clock() as c:  # numba's kernels, from its disk cache (compiled on a first run)
        sender_ranks_receiver_data([ExhaustiveSearchSender(emb), ClusterSender(emb)], records[:2])
    print(f"compiled counting kernels loaded, once per session: {c.wall:.2f} s")
    print(f"records: {len(records)} from {source}\n")

    senders = {
        "random sender": RandomSender(emb, random_state=0),
        "ClusterSender": ClusterSender(emb, random_state=0),
        **{
            f"exhaustive:{tb}": ExhaustiveSearchSender(emb, tb)
            for tb in ("avg_blue_dist", "max_blue_dist", "max_radius", "red_blue_diff")
        },
    }
    receivers = {
        "receiver MAP (nearest)": EmbeddingNearestReceiver(emb),
        "random receiver": RandomReceiver(random_state=0),
    }

    rows = []
    for name, r in receivers.items():
        with Clock() as c:
            res = receiver_map([r], records)[r.name].summary()
        rows.append((name, c.wall, c.cpu, f"MAP {res['map']:.3f} (n={res['n']})"))
    for name, s in senders.items():
        with Clock() as c:
            res = sender_ranks_receiver_data([s], records)[s.name].summary()
        rows.append((name, c.wall, c.cpu, f"mean rank {res['mean_rank']:.0f} (n={res['n']})"))

    print(
        f"{'measure':28s} {'wall s':>8s} {'cpu s':>8s} {'published s':>12s} {'speed-up':>9s}  result"
    )
    for name, w, cpu, txt in rows:
        pub = PUBLISHED[name]
        print(f"{name:28s} {w:8.2f} {cpu:8.2f} {pub:12.0f} {pub / w:8.0f}x  {txt}")
    alone = sum(r[1] for r in rows)
    print(
        f"{'eight, each alone':28s} {alone:8.2f} {sum(r[2] for r in rows):8.2f} "
        f"{PUBLISHED_TOTAL:12.0f} {PUBLISHED_TOTAL / alone:8.0f}x"
    )

    with Clock() as c:
        receiver_map(list(receivers.values()), records)
        sender_ranks_receiver_data(list(senders.values()), records)
    print(
        f"{'eight together (one pass)':28s} {c.wall:8.2f} {c.cpu:8.2f} {PUBLISHED_TOTAL:12.0f} "
        f"{PUBLISHED_TOTAL / c.wall:8.0f}x   target: < 10 s"
    )

    # naive baseline: full sort per record, extrapolated to all records
    print(
        f"\nnaive baseline (full sort of the vocabulary per record, {args.naive} records, "
        f"extrapolated to {len(problems)}):"
    )
    naive = {}
    for name in ("exhaustive:avg_blue_dist", "random sender"):
        naive[name] = naive_sender_seconds(senders[name], problems, args.naive)
    naive["ClusterSender"] = naive_cluster_seconds(emb, problems, max(1, args.naive // 2 or 1))
    ours = {r[0]: r[1] for r in rows}
    for name, (w, _cpu) in naive.items():
        total = w * len(problems)
        print(
            f"  {name:28s} naive {total:8.1f} s   ours {ours[name]:6.2f} s   ratio {total / ours[name]:6.0f}x"
        )

    if args.all_datasets:
        all_datasets(emb, other_cpu=args.other_cpu)


def _score_rows(evaluations) -> list[tuple]:
    """Every Score of the evaluations (value, interval, n, skipped), as comparable tuples."""
    from wordgames.codenames.suite import Intervals, scores_of
    from wordgames.results import MeasureResult

    result = MeasureResult("codenames", "bench")
    scores_of(result, evaluations, Intervals())
    return [
        tuple(np.nan_to_num(x, nan=-1e300) if isinstance(x, float) else x for x in row)
        for row in (
            (s.dataset, s.agent, s.metric, s.value, s.ci_low, s.ci_high, s.n, s.n_skipped)
            for s in result.scores
        )
    ]


def _best_cpu(fn, repeat: int = 3) -> float:
    """The least CPU seconds of ``repeat`` calls of ``fn`` (one BLAS thread: CPU = wall)."""
    from wordgames.blas import single_threaded_blas

    times = []
    with single_threaded_blas():
        for _ in range(repeat):
            t = time.process_time()
            fn()
            times.append(time.process_time() - t)
    return min(times)


def work_bound(emb, datasets) -> dict:
    """A lower bound, in single-thread CPU seconds, for the work of every sender on every data set.

    Nothing in it depends on our implementation: ``G`` is the best-of-3 CPU time, on one BLAS
    thread, of one GEMM of the whole vocabulary against the distinct board words of all the
    data, in float64 on the grid vectors (the exact similarities the measure is defined on:
    ``wordgames.exact``); ``F`` that GEMM's floating-point operations (``2 x V x d x W``) and
    ``C`` the element operations the counting cannot avoid: for each distinct board split
    (blue, red) of Algorithms 4 and 6, the vocabulary size times the split's board size.
    ``bound = G x (1 + C / F)``: the counting done at BLAS's peak rate. ``G32`` (the same
    GEMM in float32, the bound of earlier versions) and ``bound32`` are given beside it.
    """
    from wordgames.codenames.measures import (
        problems_from_receiver_records,
        problems_from_sender_records,
    )

    splits, words = set(), set()
    for data in datasets:
        for problems in (
            problems_from_receiver_records(data.receiver)[0],
            problems_from_sender_records(data.sender)[0],
        ):
            for p in problems:
                splits.add((frozenset(p.blue), frozenset(p.red)))
                words.update(p.blue + p.red)
    rows = [emb.word_index[w] for w in sorted(words) if w in emb.word_index]
    m32 = np.ascontiguousarray(emb.unit)
    b32 = np.ascontiguousarray(m32[rows].T)
    m64, b64 = m32.astype(np.float64), b32.astype(np.float64)
    g64 = _best_cpu(lambda: m64 @ b64)
    g32 = _best_cpu(lambda: m32 @ b32)
    n_vocab, dim = m32.shape
    f = 2.0 * n_vocab * dim * len(rows)
    c = float(sum(n_vocab * (len(blue) + len(red)) for blue, red in splits))
    return {"G": g64, "G32": g32, "C": c, "F": f, "W": len(rows),
            "bound": g64 * (1.0 + c / f), "bound32": g32 * (1.0 + c / f)}  # fmt: skip


def all_datasets(emb, other_cpu: bool = False):
    """Every sender and receiver on every human data set: the compiled counting (now) and the
    previous method (the numpy counting pass, ``compiled=False``) in the same run, each with
    fresh agents, then a check that every Score (value, interval, n, skipped) is identical.

    The job is one :func:`~wordgames.codenames.suite.evaluate_human_datasets` call, as the
    suite makes it: the senders rank every data set's records in one pass."""
    from wordgames.codenames.agents import default_receivers, default_senders
    from wordgames.codenames.human_data import available_human_datasets, load_human_data
    from wordgames.codenames.suite import evaluate_human_datasets

    datasets = [load_human_data(name) for name in available_human_datasets()]
    runs = {}
    for compiled in (True, False):
        ss, rr = default_senders(emb), default_receivers(emb)
        with Clock() as c:
            evs = evaluate_human_datasets(datasets, ss, rr, compiled=compiled)
        runs[compiled] = (evs, (c.wall, c.cpu))
    print("\nevery sender and receiver on every available human data set (one pass):")
    print(f"  {'data set':32s} {'records':>13s} {'receivers s':>12s}")
    for data, ev in zip(datasets, runs[True][0], strict=True):
        rs = sum(v for k, v in ev.timings.items() if k.endswith(".receivers"))
        print(f"  {data.dataset:32s} {len(data.receiver):5d} + {len(data.sender):4d} {rs:12.2f}")
    (tw, tc), (ow, oc) = runs[True][1], runs[False][1]
    senders = runs[True][0][0].timings["senders"]
    print(
        f"  total: now {tw:.2f} s wall, {tc:.1f} s cpu (senders, the receivers beside them: "
        f"{senders:.2f} s); previous "
        f"{ow:.2f} s wall, {oc:.1f} s cpu; ratio previous/now {ow / tw:.1f}x wall, "
        f"{oc / tc:.1f}x cpu"
    )
    b = work_bound(emb, datasets)
    print(f"  bound: G = {b['G']:.3f} CPU s (best of 3, one thread: one float64 GEMM of the "
          f"grid vectors, {len(emb):,} x {emb.dim} against the {b['W']:,} distinct board "
          f"words), F = {b['F']:.3e} flops, C = {b['C']:.3e} element operations; "
          f"bound = G x (1 + C / F) = {b['bound']:.3f} CPU s")  # fmt: skip
    print(f"  cpu / bound: {tc / b['bound']:.2f}   (target <= 5 on a quiet machine)")
    print(f"  beside it, against the float32 GEMM (G32 = {b['G32']:.3f} CPU s, bound "
          f"{b['bound32']:.3f}): cpu / float32 bound {tc / b['bound32']:.2f}; wall / bound "
          f"{tw / b['bound']:.2f}")  # fmt: skip
    new, old = _score_rows(runs[True][0]), _score_rows(runs[False][0])
    same = new == old
    print(f"  identical results: {same} ({len(new)} scores: value, interval, n, skipped)")
    if other_cpu:
        same = _other_cpu(new) and same
    print(f"  load average after: {os.getloadavg()}")
    if not same:
        raise SystemExit("the compiled counting changed a result")


def _job_rows(emb) -> list[tuple]:
    """Every Score of the job (compiled counting, fresh agents), as :func:`_score_rows` gives."""
    from wordgames.codenames.agents import default_receivers, default_senders
    from wordgames.codenames.human_data import available_human_datasets, load_human_data
    from wordgames.codenames.suite import evaluate_human_datasets

    datasets = [load_human_data(name) for name in available_human_datasets()]
    return _score_rows(evaluate_human_datasets(datasets, default_senders(emb),
                                               default_receivers(emb)))  # fmt: skip


def _other_cpu(native: list[tuple]) -> bool:
    """The job again in a process that simulates another CPU; True when every Score is equal.

    numba compiles for a generic x86-64 (no AVX, no FMA) into a fresh cache and OpenBLAS
    takes another core type's kernels.
    """
    import json
    import subprocess
    import sys
    import tempfile

    core = "Haswell" if os.environ.get("OPENBLAS_CORETYPE") == "Sandybridge" else "Sandybridge"
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "NUMBA_CPU_NAME": "generic", "OPENBLAS_CORETYPE": core,
               "NUMBA_CACHE_DIR": tmp}  # fmt: skip
        out = os.path.join(tmp, "rows.json")
        with Clock() as c:
            subprocess.run([sys.executable, __file__, "--rows-to", out], env=env, check=True)
        with open(out) as f:
            other = [tuple(r) for r in json.load(f)]
    same = other == [tuple(json.loads(json.dumps(r))) for r in native]
    print(f"  identical results under another CPU (NUMBA_CPU_NAME=generic, "
          f"OPENBLAS_CORETYPE={core}; {c.wall:.0f} s with compiling): {same}")  # fmt: skip
    return same


if __name__ == "__main__":
    main()
