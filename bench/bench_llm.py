"""A chat model as a player: requests/s and tokens/s at concurrency 1, 2 and 4, and the time of
a quick run cold and from the response cache.

Run: python bench/bench_llm.py [--base-url URL --model NAME] [--requests 24]
Without --base-url it starts llama.cpp's server with SmolLM2-135M-Instruct on 127.0.0.1 (the
``llm-server`` extra) and stops it after. The requests are Odd-Man-Out questions of the
``anomia-common-test`` set, each sent once per concurrency (a fresh cache each time). The quick
run is ``wordgames.evaluate(chat subject, ["oddmanout"], quick=True)``; the second one reads
every answer from the cache: its time against the cold run's is the figure (bound: it sends no
request at all).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import tempfile
import time
from pathlib import Path


def _questions(n: int):
    from wordgames.oddmanout.data import load_dataset
    from wordgames.oddmanout.players import PlayerSolver

    ps = load_dataset("anomia-common-test")
    solver = PlayerSolver(None)
    return [solver.question([str(w) for w in ps.words[i]]) for i in range(min(n, len(ps)))]


def _throughput(base_url: str, model: str, questions, concurrency: int, folder: Path) -> dict:
    from wordgames.llm import ChatSubject

    subject = ChatSubject(
        model,
        base_url=base_url,
        max_concurrency=concurrency,
        cache_path=str(folder / f"c{concurrency}.sqlite"),
    )
    subject.check()
    t = time.perf_counter()
    subject.answer_many(questions)
    wall = time.perf_counter() - t
    u = subject.usage
    return {
        "concurrency": concurrency,
        "requests": u.requests,
        "wall_s": wall,
        "requests_per_s": u.requests / wall,
        "tokens_in_per_s": u.tokens_in / wall,
        "tokens_out_per_s": u.tokens_out / wall,
    }


def _quick_run(base_url: str, model: str, folder: Path) -> tuple[float, dict]:
    import wordgames
    from wordgames.llm import ChatSubject

    subject = ChatSubject(model, base_url=base_url, cache_path=str(folder / "quick.sqlite"))
    t = time.perf_counter()
    res = wordgames.evaluate(subject, ["oddmanout"], quick=True)
    wall = time.perf_counter() - t
    return wall, res.results[0].usage


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base-url", default=None)
    ap.add_argument("--model", default="smollm2")
    ap.add_argument("--requests", type=int, default=24)
    args = ap.parse_args()
    print(f"load average at start: {os.getloadavg()[0]:.2f}")
    with tempfile.TemporaryDirectory() as tmp, contextlib.ExitStack() as stack:
        folder = Path(tmp)
        base_url = args.base_url
        if base_url is None:
            from wordgames.llm.local import llama_server

            server = stack.enter_context(llama_server(log_path=folder / "server.log"))
            base_url = server.base_url
            print(f"llama.cpp server with SmolLM2-135M-Instruct at {base_url} (pid {server.pid})")
        questions = _questions(args.requests)
        print(f"{len(questions)} Odd-Man-Out questions per concurrency")
        print("concurrency  requests  wall s  requests/s  tokens in/s  tokens out/s")
        for c in (1, 2, 4):
            r = _throughput(base_url, args.model, questions, c, folder)
            print(
                f"{c:11d}  {r['requests']:8d}  {r['wall_s']:6.1f}  {r['requests_per_s']:10.2f}"
                f"  {r['tokens_in_per_s']:11.0f}  {r['tokens_out_per_s']:12.1f}"
            )
        cold, u1 = _quick_run(base_url, args.model, folder)
        warm, u2 = _quick_run(base_url, args.model, folder)
        print(f"quick run (oddmanout), cold: {cold:.1f} s, {u1['requests']} requests")
        print(
            f"quick run from the cache: {warm:.1f} s, {u2['requests']} requests, "
            f"{u2['cache_hits']} cache hits; cold / cached: {cold / warm:.1f}x"
        )
    print(f"load average at end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    sys.exit(main())
