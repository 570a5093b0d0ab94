"""Scale (issue 40): 400,000 and 2,000,000 words x 300 dimensions, loaded and played.

Builds seeded synthetic embeddings of the shapes users bring (fastText 2 M x 300, GloVe 840B
2.2 M x 300): GloVe 6B's 400,000 words, then made-up two-word phrases; each vector is the
word's GloVe 50d vector (so the games have something to play with) followed by seeded noise,
written with four decimals as word2vec text and as word2vec binary (the same numbers).

Printed, every figure from fresh processes of this run:

* loading each file with wordgames (no cache: the parse itself) and with gensim's
  ``KeyedVectors.load_word2vec_format``: wall and CPU seconds, peak memory, and the ratios
  ``peak wordgames / gensim`` (goal <= 1) and ``cpu gensim / wordgames`` (goal > 1); the
  float32 matrix's own size beside them;
* the main job (``wordgames run -e FILE``, first use: the file parsed and cached) on each
  size: its peak memory against ``1.5 x matrix + 1 GB`` (goal: under it), and each unit's CPU
  seconds; with both sizes, each unit's exponent ``log(cpu_2M / cpu_400k) / log(5)`` (goal
  <= 1: at most linear in the vocabulary).

Run (about 30 minutes on a quiet 2-core machine; the files take 7.5 GB under --dir)::

    WORDGAMES_DATA=../shared/data python bench/bench_scale.py
    python bench/bench_scale.py --sizes 400000 --skip-main-job      # the readers only

The machine's load average is printed with the figures.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_suite import TreeMemory  # noqa: E402 - the bench folder is not a package


class TreeKinds(TreeMemory):
    """:class:`TreeMemory` that also keeps the peaks of the tree's anonymous memory (what the
    processes cannot give back) and of its file pages (memory maps: the system may drop them
    and read them again), from ``/proc/<pid>/status``."""

    def __init__(self, pid: int, every: float = 0.2):
        super().__init__(pid, every)
        self.anon = self.file = 0

    def _kinds(self) -> tuple[int, int]:
        anon = file = 0
        for d in os.listdir("/proc"):
            if not d.isdigit():
                continue
            try:
                status = Path(f"/proc/{d}/status").read_text()
            except OSError:
                continue
            fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
            if not self._in_tree(int(d), fields):
                continue
            anon += int(fields.get("RssAnon", "0 kB").split()[0]) * 1024
            file += int(fields.get("RssFile", "0 kB").split()[0]) * 1024
        return anon, file

    def _in_tree(self, pid: int, fields: dict) -> bool:
        while pid > 1:
            if pid == self.pid:
                return True
            try:
                stat = Path(f"/proc/{pid}/stat").read_text()
                pid = int(stat[stat.rindex(")") + 2 :].split()[1])
            except (OSError, ValueError, IndexError):
                return False
        return False

    def _run(self):
        while not self._stop.is_set():
            self.peak = max(self.peak, self._tree_rss())
            anon, file = self._kinds()
            self.anon, self.file = max(self.anon, anon), max(self.file, file)
            self._stop.wait(self.every)


BLOCK = 65_536  # rows written at a time
GLOVE_DIMS = 50

LOAD = """
import json, sys, time
t, c = time.perf_counter(), time.process_time()
which, path, binary = sys.argv[1], sys.argv[2], sys.argv[3] == "1"
if which == "gensim":
    from gensim.models import KeyedVectors
    n = len(KeyedVectors.load_word2vec_format(path, binary=binary))
elif which == "wordgames":
    from wordgames.embeddings import load_embedding
    n = len(load_embedding(path, use_cache=False).words)
else:  # the interpreter and the imports alone
    import numpy, gensim.models, wordgames.embeddings
    n = 0
# VmHWM, not ru_maxrss: ru_maxrss survives exec, so it would hold the parent's peak
hwm = next(line for line in open("/proc/self/status") if line.startswith("VmHWM:"))
print(json.dumps({"wall": time.perf_counter() - t, "cpu": time.process_time() - c, "n": n,
                  "peak_mb": int(hwm.split()[1]) / 1024}))
"""


def vocabulary(n: int, seed: int) -> list[bytes]:
    """GloVe 6B's words, then seeded unique made-up phrases ``a_b`` of two of them."""
    from wordgames.embeddings import load_embedding

    glove = [w.encode() for w in load_embedding("glove-6b-50d").words]
    if n <= len(glove):
        return glove[:n]
    rng = np.random.default_rng(seed)
    seen, extra, pool = set(glove), [], np.array(glove[:50_000], dtype=object)
    while len(extra) < n - len(glove):
        a, b = rng.integers(0, len(pool), (2, 2 * (n - len(glove) - len(extra))))
        for x, y in zip(pool[a], pool[b], strict=True):
            phrase = x + b"_" + y
            if phrase not in seen:
                seen.add(phrase)
                extra.append(phrase)
    return glove + extra[: n - len(glove)]


def blocks(n: int, dim: int, seed: int):
    """``(start, q)``: the vectors in units of 1e-4 (int32), GloVe's 50d first, then noise."""
    from wordgames.embeddings import load_embedding

    glove = np.asarray(load_embedding("glove-6b-50d").vectors, dtype=np.float64)
    rng = np.random.default_rng(seed)
    for start in range(0, n, BLOCK):
        stop = min(n, start + BLOCK)
        v = rng.standard_normal((stop - start, dim)) * 0.1
        have = max(0, min(stop, len(glove)) - start)
        v[:have, : min(dim, GLOVE_DIMS)] = glove[start : start + have, :dim]
        yield start, np.clip(np.rint(v * 1e4), -99_999, 99_999).astype(np.int32)


def _decimal_table() -> np.ndarray:
    """Row ``q + 99,999``: the bytes of ``" +9.9999"`` for ``q / 1e4`` (fixed width 8)."""
    q = np.arange(-99_999, 100_000)
    text = "".join(f" {'-' if x < 0 else '+'}{abs(x) // 10_000}.{abs(x) % 10_000:04d}" for x in q)
    return np.frombuffer(text.encode(), dtype=np.uint8).reshape(len(q), 8)


def build(folder: Path, n: int, dim: int, seed: int) -> tuple[Path, Path]:
    """The text and binary files of ``n x dim`` (kept in ``folder`` and reused when there)."""
    text, binary = folder / f"synthetic-{n}x{dim}.vec", folder / f"synthetic-{n}x{dim}.bin"
    if text.exists() and binary.exists():
        return text, binary
    words, table = vocabulary(n, seed), _decimal_table()
    t = time.perf_counter()
    with open(f"{text}.tmp", "wb") as ft, open(f"{binary}.tmp", "wb") as fb:
        ft.write(f"{n} {dim}\n".encode())
        fb.write(f"{n} {dim}\n".encode())
        for start, q in blocks(n, dim, seed):
            chars = table[q + 99_999].reshape(len(q), dim * 8)
            floats = (q / 1e4).astype("<f4")
            ws = words[start : start + len(q)]
            ft.write(b"".join(w + c.tobytes() + b"\n" for w, c in zip(ws, chars, strict=True)))
            fb.write(b"".join(w + b" " + f.tobytes() for w, f in zip(ws, floats, strict=True)))
    os.replace(f"{text}.tmp", text)
    os.replace(f"{binary}.tmp", binary)
    print(f"  built {text.name} ({text.stat().st_size / 1e9:.2f} GB) and {binary.name} "
          f"({binary.stat().st_size / 1e9:.2f} GB) in {time.perf_counter() - t:.0f} s")  # fmt: skip
    return text, binary


def load_once(which: str, path: Path, binary: bool) -> dict:
    env = {**os.environ, "OPENBLAS_NUM_THREADS": "1"}
    out = subprocess.run([sys.executable, "-c", LOAD, which, str(path), "1" if binary else "0"],
                         capture_output=True, text=True, env=env, check=False)  # fmt: skip
    if out.returncode != 0:
        return {"failed": (out.stderr.strip().splitlines() or ["?"])[-1][:200]}
    return json.loads(out.stdout.strip().splitlines()[-1])


def bench_load(path: Path, binary: bool, n: int, dim: int) -> None:
    kind = "binary" if binary else "text"
    base = load_once("imports", path, binary)
    ours, theirs = load_once("wordgames", path, binary), load_once("gensim", path, binary)
    matrix_mb = n * dim * 4 / 2**20
    print(f"  {kind:6s} {path.stat().st_size / 1e9:5.2f} GB, float32 matrix {matrix_mb:,.0f} MB; "
          f"interpreter + imports {base.get('peak_mb', float('nan')):,.0f} MB")  # fmt: skip
    for name, r in (("wordgames", ours), ("gensim", theirs)):
        if "failed" in r:
            print(f"    {name:9s} FAILED: {r['failed']}")
        else:
            print(f"    {name:9s} {r['wall']:7.1f} s wall {r['cpu']:7.1f} s CPU, "
                  f"peak {r['peak_mb']:7,.0f} MB ({r['n']:,} words)")  # fmt: skip
    if "failed" not in ours and "failed" not in theirs:
        peak = ours["peak_mb"] / theirs["peak_mb"]
        print(f"    peak wordgames / gensim: {peak:.2f} (goal <= 1: "
              f"{'OK' if peak <= 1 else 'OVER'}); cpu gensim / wordgames: "
              f"{theirs['cpu'] / ours['cpu']:.2f} (goal > 1)")  # fmt: skip


def main_job(path: Path, out: Path, workers: int) -> dict:
    cmd = [sys.executable, "-c", "from wordgames.cli import main; main()", "run", "-e", str(path),
           "-o", str(out), "--workers", str(workers)]  # fmt: skip
    env = {**os.environ, "WORDGAMES_CACHE": str(out.parent / f"cache-{out.name}")}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            env=env)  # fmt: skip
    with TreeKinds(proc.pid) as mem:
        log, _ = proc.communicate()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode not in (0,):
        print(log[-3000:])
        raise SystemExit(f"the main job failed (exit {proc.returncode})")
    record = json.loads((out / "results.json").read_text())
    timings, results = record["timings"], record["results"]
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return {"wall": time.perf_counter() - t, "cpu": cpu, "peak": mem.peak, "anon": mem.anon,
            "file": mem.file, "timings": timings, "results": results}  # fmt: skip


def bench_main_job(files: dict, dim: int, workers: int) -> None:
    units: dict[int, dict[str, float]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for n, path in files.items():
            r = main_job(path, Path(tmp) / f"run-{n}", workers)
            bound = 1.5 * n * dim * 4 + 2**30
            print(
                f"  {n:,} x {dim}: {r['wall']:.0f} s wall, {r['cpu']:.0f} s CPU; peak resident "
                f"{r['peak'] / 2**30:.2f} GiB, of which anonymous at most "
                f"{r['anon'] / 2**30:.2f} GiB and file pages (maps) at most "
                f"{r['file'] / 2**30:.2f} GiB; load average {os.getloadavg()[0]:.2f}"
            )
            print(
                f"    peak / (1.5 x matrix + 1 GiB): {r['peak'] / bound:.2f}; anonymous peak / "
                f"(1.5 x matrix + 1 GiB): {r['anon'] / bound:.2f} (goal <= 1)"
            )
            for res in r["results"]:
                tm = res.get("timings") or {}
                part = sum(v for k, v in tm.items() if "plot" in k or k == "intervals")
                if tm.get("total"):
                    print(
                        f"    {res['measure']:15s} {res.get('embedding', '')[:20]:20s} total "
                        f"{tm['total']:7.1f} s: plots and intervals {part:6.1f} s "
                        f"({part / tm['total']:.0%}); "
                        + ", ".join(f"{k} {v:.1f}" for k, v in tm.items() if k != "total")
                    )
            cpus = {
                k.removesuffix("/cpu"): v for k, v in r["timings"].items() if k.endswith("/cpu")
            }
            # the same unit at both sizes: its label without the file's name
            units[n] = {k.replace(path.stem, "FILE"): v for k, v in cpus.items()}
            for key, secs in r["timings"].items():
                if not key.endswith(("/cpu", "/peak_rss_mb")):
                    extra = ""
                    if key in cpus:
                        peak = r["timings"].get(f"{key}/peak_rss_mb", float("nan"))
                        extra = f"  {cpus[key]:8.1f} s CPU, process peak {peak:,.0f} MB"
                    print(f"    {key:40s} {secs:8.1f} s{extra}")
    if len(units) == 2:
        (n1, a), (n2, b) = sorted(units.items())
        print(f"  growth with the vocabulary, {n1:,} -> {n2:,} words "
              f"(exponent log(cpu ratio) / log({n2 / n1:g}); goal <= 1):")  # fmt: skip
        for key in a:
            if key in b and a[key] > 0.05:
                e = math.log(max(b[key], 1e-9) / a[key]) / math.log(n2 / n1)
                print(f"    {key:40s} {a[key]:7.1f} -> {b[key]:7.1f} s CPU: exponent {e:5.2f}")


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)  # fmt: skip
    p.add_argument("--sizes", default="400000,2000000", help="vocabulary sizes, comma-separated")
    p.add_argument("--dim", type=int, default=300)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--dir", default="/tmp/wordgames-bench-scale", help="where the files are kept")
    p.add_argument("--skip-load", action="store_true")
    p.add_argument("--skip-main-job", action="store_true")
    p.add_argument("--workers", type=int, default=1, help="the main job's --workers")
    args = p.parse_args(argv)
    folder = Path(args.dir)
    folder.mkdir(parents=True, exist_ok=True)
    sizes = [int(s) for s in args.sizes.split(",")]
    print(f"bench_scale: sizes {sizes}, dim {args.dim}, seed {args.seed}; load average "
          f"{os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")  # fmt: skip
    files = {n: build(folder, n, args.dim, args.seed) for n in sizes}
    if not args.skip_load:
        print("\nloading (fresh process each, imports included, one BLAS thread):")
        for n, (text, binary) in files.items():
            bench_load(text, False, n, args.dim)
            bench_load(binary, True, n, args.dim)
    if not args.skip_main_job:
        print("\nthe main job (wordgames run -e FILE, first use, empty caches; serial):")
        bench_main_job({n: t for n, (t, _) in files.items()}, args.dim, args.workers)


if __name__ == "__main__":
    main()
