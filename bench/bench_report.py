"""Speed of ``wordgames report`` on a synthetic store shaped like a full suite run.

Each of ``--embeddings`` embeddings gets a Codenames-like result (726 metrics, 700 table rows,
88 OOV records), a similarity-like one (75 metrics) and a WALES-like one, plus a 40 KB plot
each. Figures: load, leaderboard, correlation, HTML rendering, and the OOV-sibling lookup
(indexed once per result) against the naive scan of every metric for every metric (what the
first version did: O(metrics^2) per result).

Run: ``python bench/bench_report.py [--embeddings 12]``.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def make(root: Path, n_emb: int, seed: int = 0) -> None:
    from wordgames.results.store import ResultKey, ResultStore, params_hash

    rng = np.random.default_rng(seed)
    store = ResultStore(root)
    params = {"seed": 0, "quick": False, "options": {}}
    png = bytes(rng.integers(0, 256, 40_000, dtype=np.uint8))
    for i in range(n_emb):
        name = f"emb{i}"
        sha = hashlib.sha256(name.encode()).hexdigest()
        plot = root / "plots" / name / "codenames" / "p.png"
        plot.parent.mkdir(parents=True, exist_ok=True)
        plot.write_bytes(b"\x89PNG\r\n\x1a\n" + png)
        cn_m, rows = {}, []
        for ds in range(7):
            for ag in range(9):
                for data in ("human_receiver", "human_sender"):
                    p = f"cn-{ds}/agent{ag}/{data}"
                    for st in ("mean_rank", "median_rank", "mrr", "hits@10", "hits@100",
                               "n", "n_skipped_oov", "map"):
                        cn_m[f"{p}.{st}"] = float(rng.random() * 100)
                    rows.append({"dataset": f"cn-{ds}", "agent": f"agent{ag}", "data": data,
                                 "clue_source": "all", "mean_rank": 1.0, "ci_low": 0.5,
                                 "ci_high": 1.5})
        sim_m = {f"b{b}/{s}": float(rng.random()) for b in range(15)
                 for s in ("spearman", "pearson", "n_pairs", "oov_pairs", "coverage")}
        results = {
            "codenames": {"measure": "codenames", "version": "1", "metrics": cn_m,
                          "tables": {"senders": rows * 3}, "plots": [str(plot)],
                          "oov": {f"k{j}": {"skipped": {"oov": j}} for j in range(88)}},
            "similarity": {"measure": "similarity", "version": "1", "metrics": sim_m},
            "wales": {"measure": "wales", "version": "1",
                      "metrics": {"wales/score": float(rng.random()), "wales/ci_half_width": 0.05}},
        }
        for m, res in results.items():
            store.put(ResultKey(sha, m, "1", params_hash(params)), res,
                      embedding={"name": name, "sha256": sha, "n_words": 1000, "dim": 50},
                      params=params)


def naive_oov(metrics: dict, metric: str) -> dict:
    from wordgames.report.leaderboard import _num, _split

    parent, sep, _ = _split(metric)
    out = {}
    for k, v in metrics.items():
        p, s, name = _split(k)
        if k != metric and p == parent and s == sep and ("oov" in name or "no_vector" in name):
            out[name] = _num(v)
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--embeddings", type=int, default=12)
    args = ap.parse_args()
    from wordgames.report import correlation_table, leaderboard, load_results
    from wordgames.report.html import write_html
    from wordgames.report.leaderboard import oov_companions, oov_index

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        make(root, args.embeddings)
        t = time.perf_counter()
        coll = load_results(root)
        t_load = time.perf_counter() - t
        leaderboard(coll)  # warm the scipy/pandas imports
        t = time.perf_counter()
        leaderboard(coll)
        t_lb = time.perf_counter() - t
        t = time.perf_counter()
        correlation_table(coll)
        t_cor = time.perf_counter() - t
        t = time.perf_counter()
        out = write_html(coll, root / "report.html")
        t_html = time.perf_counter() - t
        size = out.stat().st_size

        metrics = coll.entries[0].result["metrics"]
        t = time.perf_counter()
        idx = oov_index(metrics)
        fast = [oov_companions(metrics, k, index=idx) for k in metrics]
        t_fast = time.perf_counter() - t
        t = time.perf_counter()
        slow = [naive_oov(metrics, k) for k in metrics]
        t_slow = time.perf_counter() - t
        assert fast == slow

    print(f"report of {args.embeddings} embeddings x 3 measures "
          f"({len(coll.entries)} results, {len(metrics)} Codenames metrics each); "
          f"load average {os.getloadavg()[0]:.1f}")
    print(f"  load results      {t_load:7.3f} s")
    print(f"  leaderboard       {t_lb:7.3f} s")
    print(f"  correlation       {t_cor:7.3f} s")
    print(f"  HTML (embedded)   {t_html:7.3f} s  ({size / 1e6:.1f} MB)")
    print(f"  OOV siblings of one result: indexed {t_fast * 1e3:.1f} ms, naive scan "
          f"{t_slow * 1e3:.1f} ms, ratio {t_slow / max(t_fast, 1e-9):.0f}x")


if __name__ == "__main__":
    main()
