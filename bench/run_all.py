"""Run every benchmark script of every family, one after another, and print their figures.

    WORDGAMES_DATA=../shared/data python bench/run_all.py               # the hot paths (~10 min)
    WORDGAMES_DATA=../shared/data python bench/run_all.py --with-training --with-scale

Each script prints its figures beside its targets, the naive baseline and the published code's
times (from the issues), as ratios. ``--with-training`` adds the referential-game training
benchmark (up to 10 minutes per channel), ``--with-scale`` the Wikipedia-size WALES graph (6.5 M nodes, 170 M links).
Run it on a quiet machine: the figures are wall-clock times.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent

SCRIPTS = [
    ("embeddings", ["bench_embeddings.py"]),
    ("codenames human data", ["bench_codenames_data.py"]),
    ("codenames", ["bench_codenames.py", "--all-datasets"]),
    ("wales", ["bench_wales.py"]),
    ("similarity and global metrics", ["bench_similarity.py"]),
    ("odd-man-out", ["bench_oddmanout.py", "--quick"]),
    ("concept-best-matching", ["bench_cbm.py", "--quick"]),
    ("report", ["bench_report.py"]),
    ("suite", ["bench_suite.py", "--workers", "1"]),
]


def main() -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--with-training", action="store_true", help="also the game-training benchmark")
    ap.add_argument("--with-scale", action="store_true", help="also the Wikipedia-size WALES graph")
    ap.add_argument("--only", action="append", help="run only scripts whose name contains this")
    args = ap.parse_args()
    scripts = list(SCRIPTS)
    if args.with_scale:
        scripts[3] = ("wales", ["bench_wales.py", "--scale"])
    if args.with_training:
        scripts.append(("referential-game training", ["bench_games.py"]))
    if args.only:
        scripts = [s for s in scripts if any(o in s[0] for o in args.only)]
    if not os.environ.get("WORDGAMES_DATA"):
        print("note: WORDGAMES_DATA is not set; benchmarks that need real data will say so")
    failed = []
    for title, argv in scripts:
        print(f"\n=== {title}: python bench/{' '.join(argv)}", flush=True)
        start = time.perf_counter()
        rc = subprocess.call([sys.executable, str(HERE / argv[0]), *argv[1:]])
        print(f"--- {title}: {time.perf_counter() - start:.1f} s, exit {rc}", flush=True)
        if rc:
            failed.append(title)
    if failed:
        print("\nfailed: " + ", ".join(failed))
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
