"""Speed of ``wordgames report`` on a synthetic store shaped like a full suite run.

Each of ``--embeddings`` embeddings gets a Codenames-like result (756 Score rows over 7 data
sets x 9 agents x 2 kinds of data x 6 statistics, 378 table rows, 88 OOV records), a
similarity-like one (45 Score rows) and a WALES-like one, plus a 40 KB plot each; about one
score in ten is thin (n below 30). The similarity results keep per-item values (1,000 pairs per
benchmark, the embeddings' cosines more or less noisy copies of the people's ratings), so the
leaderboard makes its paired comparisons ("best" only when a paired bootstrap separates it).
Figures: load, leaderboard (with the paired comparisons, and without them as the baseline in
the same run), correlation, long table and HTML rendering.

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


def _row(rng, emb: str, measure: str, dataset: str, subject: str, metric: str) -> dict:
    from wordgames.measure import Score, is_thin

    v = float(rng.random())
    n, skipped = int(rng.integers(10, 200)), int(rng.integers(0, 5))
    s = Score(
        emb,
        measure,
        dataset,
        subject,
        metric,
        v,
        v - 0.05,
        v + 0.05,
        n,
        skipped,
        "word not in vocabulary",
        coverage=n / (n + skipped),
    )
    s.thin, s.thin_reason = is_thin(s)  # about 1 in 10 is thin (n below 30)
    return s.as_dict()


def _codenames(rng, name: str, plot: Path) -> dict:
    scores, rows = [], []
    for ds in range(7):
        for ag in range(9):
            for data in ("human_receiver", "human_sender"):
                for st in ("mean_rank", "median_rank", "mrr", "hits@10", "hits@100", "map"):
                    scores.append(
                        _row(rng, name, "codenames", f"cn-{ds}", f"agent{ag}", f"{data}.{st}")
                    )
                rows.append(
                    {
                        "dataset": f"cn-{ds}",
                        "agent": f"agent{ag}",
                        "data": data,
                        "clue_source": "all",
                        "mean_rank": 1.0,
                        "ci_low": 0.5,
                        "ci_high": 1.5,
                    }
                )
    return {
        "measure": "codenames",
        "version": "1",
        "scores": scores,
        "tables": {"senders": rows * 3},
        "plots": [str(plot)],
        "oov": {f"k{j}": {"skipped": {"oov": j}} for j in range(88)},
    }


def _similarity_items(i: int) -> dict:
    """Per-pair cosines of embedding ``i`` on 15 benchmarks of 1,000 pairs (packed)."""
    from wordgames.paired import item_record, pack
    from wordgames.results import item_key

    out = {}
    for b in range(15):
        gold = np.random.default_rng(b).random(1000) * 10
        noise = np.random.default_rng([b, i]).normal(0, 2 + 0.3 * i, 1000)
        rec = item_record(range(1000), gold + noise, statistic="spearman", gold=gold)
        out[item_key(f"b{b}", "", "spearman")] = pack(rec)
    return out


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
        results = {
            "codenames": _codenames(rng, name, plot),
            "similarity": {
                "measure": "similarity",
                "version": "1",
                "scores": [
                    _row(rng, name, "similarity", f"b{b}", "", s)
                    for b in range(15)
                    for s in ("spearman", "pearson", "coverage")
                ],
                "items": _similarity_items(i),
            },
            "wales": {
                "measure": "wales",
                "version": "1",
                "scores": [_row(rng, name, "wales", "human", "greedy", "score")],
            },
        }
        for m, res in results.items():
            store.put(
                ResultKey(sha, m, "1", params_hash(params)),
                res,
                embedding={"name": name, "sha256": sha, "n_words": 1000, "dim": 50},
                params=params,
            )


def _timed(fn):
    t = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - t


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--embeddings", type=int, default=12)
    args = ap.parse_args()
    from wordgames.report import correlation_table, leaderboard, load_results, long_table
    from wordgames.report.html import write_html

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        make(root, args.embeddings)
        coll, t_load = _timed(lambda: load_results(root))
        bare = load_results(root)
        for e in bare.entries:  # the baseline: no per-item values, no paired comparison
            e.result.pop("items", None)
        leaderboard(bare)  # warm the scipy/pandas imports
        _, t_bare = _timed(lambda: leaderboard(bare))
        lb, t_lb = _timed(lambda: leaderboard(coll))
        n_cmp = sum(len(c["vs"]) for c in lb.comparisons.values())
        _, t_again = _timed(lambda: leaderboard(coll))  # the report asks again: kept
        _, t_cor = _timed(lambda: correlation_table(coll))
        lt, t_long = _timed(lambda: long_table(coll))
        out, t_html = _timed(lambda: write_html(coll, root / "report.html"))
        size = out.stat().st_size

    print(
        f"report of {args.embeddings} embeddings x 3 measures ({len(coll.entries)} results, "
        f"{len(lt)} Score rows, {len(lb.columns)} leaderboard columns); "
        f"load average {os.getloadavg()[0]:.1f}"
    )
    print(f"  load results      {t_load:7.3f} s")
    print(f"  leaderboard       {t_lb:7.3f} s  ({n_cmp} paired comparisons, "
          f"{1000 * (t_lb - t_bare) / max(n_cmp, 1):.1f} ms each; without them {t_bare:.3f} s, "
          f"{t_lb / t_bare:.1f}x; asked again {t_again:.3f} s)")  # fmt: skip
    print(f"  correlation       {t_cor:7.3f} s")
    print(f"  long table        {t_long:7.3f} s")
    print(f"  HTML (embedded)   {t_html:7.3f} s  ({size / 1e6:.1f} MB)")


if __name__ == "__main__":
    main()
