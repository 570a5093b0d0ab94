"""Load test of ``wordgames serve``: simulated participants playing concurrently on loopback.

Starts ``wordgames serve`` (127.0.0.1, a free port) on the five small test studies (one per
game), then ``--participants`` simulated participants (spread over the studies) open the study
link, consent, read the instructions and play every trial to the completion code, each waiting a
seeded random think time between answers. Every request is timed; the script prints p50 / p95 /
p99 / max latency per request type, and the answers sent (acknowledged by a redirect) against
the answers stored in the database, which must be equal (0 lost, 0 duplicated). With
``--db both`` it runs on SQLite and on a throwaway PostgreSQL started from the installed
binaries (127.0.0.1 only). Bounded: at most ``--max-seconds`` per run, request timeout 30 s.

With ``--burst`` every participant lands first and then all consent at the same instant (a
study launch): the participant numbers must come out without a conflict (issue 22: 14 of 400
got HTTP 500 on PostgreSQL), one per participant and none twice.

Run: ``python bench/bench_serve.py [--participants 200] [--db sqlite|postgresql|both]
[--think 1.0 3.0] [--workers 1] [--burst]``. Not part of the test suite.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.serve.conftest import PG_BIN, Server, _as_postgres, free_port  # noqa: E402
from tests.serve.helpers import (  # noqa: E402
    current_page,
    good_answer,
    graph_next,
    hidden,
    study_dicts,
    target,
    write_inputs,
)

GAMES = {
    "cn-recv": "codenames-receiver",
    "cn-send": "codenames-sender",
    "wiki": "wiki",
    "omo": "oddmanout",
    "crowd": "oddmanout-crowd",
}


class Stats:
    """Latencies (ms) per request type, errors, answers acknowledged."""

    def __init__(self, burst: int = 0):
        self.lat = defaultdict(list)
        self.errors = defaultdict(int)
        self.acked = 0
        self.consented = 0
        self.burst = burst  # participants that must land before anyone consents
        self.landed = 0
        self.all_landed = asyncio.Event()

    async def timed(self, kind: str, coro):
        t = time.perf_counter()
        r = await coro
        self.lat[kind].append(1000 * (time.perf_counter() - t))
        return r


async def participant(
    k: int, url: str, stats: Stats, think: tuple[float, float], deadline: float, ramp: float
):
    import httpx

    slug = list(GAMES)[k % len(GAMES)]
    rng = random.Random(k)
    await asyncio.sleep(rng.uniform(0, ramp))  # arrivals spread over the ramp-up
    # plain http on loopback: no certificate bundle to load (it would cost the event loop ~20 ms)
    async with httpx.AsyncClient(base_url=url, timeout=30, verify=False) as c:
        try:
            await _play(c, slug, k, rng, stats, think, deadline)
        except (httpx.HTTPError, AssertionError) as exc:
            stats.errors[type(exc).__name__] += 1
            if stats.burst and not stats.all_landed.is_set():
                stats.landed += 1  # a participant that never landed must not hold the others
                if stats.landed == stats.burst:
                    stats.all_landed.set()


async def _play(c, slug, k, rng, stats, think, deadline):
    r = await stats.timed("GET landing", c.get(f"/s/{slug}/?PROLIFIC_PID=BENCH{k:05d}"))
    assert r.status_code == 200, r.status_code
    if stats.burst:  # a launch: everybody consents at the same instant
        stats.landed += 1
        if stats.landed == stats.burst:
            stats.all_landed.set()
        await stats.all_landed.wait()
    else:
        await asyncio.sleep(rng.uniform(*think))
    r = await stats.timed(
        "POST consent",
        c.post(
            f"/s/{slug}/consent",
            data={
                "csrf": hidden(r.text, "csrf"),
                "pid": f"BENCH{k:05d}",
                "sid": "",
                "ses": "",
                "consent": "yes",
            },
        ),
    )
    if r.status_code != 303:
        stats.errors[f"consent HTTP {r.status_code}"] += 1
        if stats.burst:  # the others still wait for this one's landing count: nothing blocks
            return
    assert r.status_code == 303, r.status_code
    stats.consented += 1
    await stats.timed("GET instructions", c.get(f"/s/{slug}/instructions"))
    page = (await stats.timed("GET trial", c.get(f"/s/{slug}/play"))).text
    while 'id="code"' not in page and time.monotonic() < deadline:
        await asyncio.sleep(rng.uniform(*think))
        if GAMES[slug] == "wiki":
            kind, path = "POST move", "move"
            data = {"to": graph_next(current_page(page), target(page))}
        else:
            kind, path = "POST answer", "answer"
            data = good_answer(GAMES[slug], page)[1]
        r = await stats.timed(
            kind, c.post(f"/s/{slug}/{path}", data={"t": hidden(page, "t"), **data})
        )
        assert r.status_code == 303, (r.status_code, r.text[-300:])
        # an answer is sent by an answer form, or by the click that reaches the wiki target
        stats.acked += kind == "POST answer" or data.get("to") == target(page)
        if "/feedback/" in r.headers["location"]:
            await stats.timed("GET feedback", c.get(r.headers["location"]))
        page = (await stats.timed("GET trial", c.get(f"/s/{slug}/play"))).text


def stored_participants(db_url: str) -> tuple[int, int]:
    """(participants stored, distinct (study, participant number))."""
    from sqlalchemy import text

    from wordgames.serve.db import Database

    db = Database(db_url)
    try:
        with db.read() as s:
            n = s.execute(text("SELECT count(*) FROM wg_participant")).scalar()
            d = s.execute(
                text("SELECT count(*) FROM (SELECT DISTINCT study_id, seq FROM wg_participant) x")
            ).scalar()
        return n, d
    finally:
        db.dispose()


def stored_answers(db_url: str) -> tuple[int, int, int]:
    """(answers stored, distinct (participant, position), wiki games stored)."""
    from sqlalchemy import text

    from wordgames.serve.db import Database

    db = Database(db_url)
    try:
        with db.read() as s:
            n = s.execute(text("SELECT count(*) FROM wg_answer")).scalar()
            d = s.execute(
                text(
                    "SELECT count(*) FROM (SELECT DISTINCT participant_id, position "
                    "FROM wg_answer) x"
                )
            ).scalar()
            w = s.execute(
                text(
                    "SELECT count(*) FROM wg_answer a JOIN wg_study s ON "
                    "a.study_id = s.id WHERE s.game = 'wiki'"
                )
            ).scalar()
        return n, d, w
    finally:
        db.dispose()


def run_once(db_url: str, folder: Path, args) -> dict:
    inputs = write_inputs(folder / "inputs")
    files = []
    for d in study_dicts(inputs, trials=args.trials):
        d["pool_size"] = max(d["pool_size"], d["trials"])
        p = folder / f"{d['slug']}.json"
        p.write_text(json.dumps(d), encoding="utf-8")
        files += ["--study", str(p)]
    srv = Server([*files, "--db", db_url, "--workers", str(args.workers)], folder)
    srv.start(timeout=120)
    stats = Stats(burst=args.participants if args.burst else 0)
    load0 = os.getloadavg()
    t0 = time.monotonic()
    try:

        async def main():
            deadline = time.monotonic() + args.max_seconds
            await asyncio.gather(
                *(
                    participant(
                        k,
                        srv.url,
                        stats,
                        tuple(args.think),
                        deadline,
                        0 if args.burst else args.ramp,
                    )
                    for k in range(args.participants)
                )
            )

        asyncio.run(main())
    finally:
        wall = time.monotonic() - t0
        load1 = os.getloadavg()
        srv.stop()
    n, distinct, wiki = stored_answers(db_url)
    people, numbers = stored_participants(db_url)
    return {
        "participants": (people, numbers),
        "stats": stats,
        "stored": n,
        "distinct": distinct,
        "wiki_stored": wiki,
        "wall": wall,
        "load": (load0, load1),
    }


def report(name: str, res: dict) -> None:
    st = res["stats"]
    n_req = sum(len(v) for v in st.lat.values())
    print(
        f"\n== {name}: {n_req} requests in {res['wall']:.1f} s ({n_req / res['wall']:.0f}/s); "
        f"load average before {res['load'][0][0]:.2f}, after {res['load'][1][0]:.2f} "
        f"({os.cpu_count()} cores)"
    )
    print(f"{'request':<18}{'n':>7}{'p50 ms':>9}{'p95 ms':>9}{'p99 ms':>9}{'max ms':>9}")
    for kind in sorted(st.lat):
        a = np.asarray(st.lat[kind])
        print(
            f"{kind:<18}{a.size:>7}{np.percentile(a, 50):>9.1f}{np.percentile(a, 95):>9.1f}"
            f"{np.percentile(a, 99):>9.1f}{a.max():>9.1f}"
        )
    all_ = np.concatenate([np.asarray(v) for v in st.lat.values()])
    print(
        f"{'all':<18}{all_.size:>7}{np.percentile(all_, 50):>9.1f}"
        f"{np.percentile(all_, 95):>9.1f}{np.percentile(all_, 99):>9.1f}{all_.max():>9.1f}"
    )
    people, numbers = res["participants"]
    print(
        f"consents acknowledged {st.consented}, participants stored {people}, distinct "
        f"participant numbers {numbers} -> duplicated numbers {people - numbers}"
    )
    sent = st.acked
    print(
        f"answers sent (acknowledged) {sent}, stored {res['stored']}, distinct "
        f"(participant, trial) {res['distinct']} -> lost {sent - res['stored']}, duplicated "
        f"{res['stored'] - res['distinct']}; errors {dict(st.errors) or 0}"
    )


def start_postgres(base: Path) -> tuple[str, callable]:
    if PG_BIN is None:
        raise SystemExit("PostgreSQL binaries not found (apt-get install postgresql)")
    base.chmod(0o755)
    data, sock = base / "pgdata", base / "pgsock"
    data.mkdir()
    sock.mkdir()
    if os.geteuid() == 0:
        for p in (data, sock):
            shutil.chown(p, "postgres", "postgres")
    subprocess.run(
        _as_postgres(
            [
                str(PG_BIN / "initdb"),
                "-D",
                str(data),
                "-U",
                "postgres",
                "--auth=trust",
                "-E",
                "UTF8",
            ]
        ),
        check=True,
        capture_output=True,
    )
    port = free_port()
    subprocess.run(
        _as_postgres(
            [
                str(PG_BIN / "pg_ctl"),
                "-D",
                str(data),
                "-o",
                f"-h 127.0.0.1 -p {port} -k {sock} -c max_connections=300",
                "-w",
                "-l",
                str(sock / "pg.log"),
                "start",
            ]
        ),
        check=True,
        capture_output=True,
    )
    import psycopg

    with psycopg.connect(
        f"postgresql://postgres@127.0.0.1:{port}/postgres", autocommit=True
    ) as conn:
        conn.execute("CREATE DATABASE bench")

    def stop():
        subprocess.run(
            _as_postgres([str(PG_BIN / "pg_ctl"), "-D", str(data), "-m", "fast", "stop"]),
            capture_output=True,
        )

    return f"postgresql://postgres@127.0.0.1:{port}/bench", stop


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--participants", type=int, default=200)
    ap.add_argument("--db", choices=("sqlite", "postgresql", "both"), default="both")
    ap.add_argument(
        "--think",
        type=float,
        nargs=2,
        default=(1.0, 3.0),
        help="think time between answers, uniform in [A, B] seconds (seeded)",
    )
    ap.add_argument(
        "--ramp",
        type=float,
        default=10.0,
        help="participants arrive uniformly over the first RAMP seconds (seeded)",
    )
    ap.add_argument("--trials", type=int, default=3, help="trials per participant and study")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--max-seconds", type=float, default=150.0)
    ap.add_argument(
        "--burst", action="store_true", help="everyone consents at the same instant (a launch)"
    )
    args = ap.parse_args(argv)
    if not 1 <= args.participants <= 1000:
        raise SystemExit("--participants must be between 1 and 1000")
    os.environ.setdefault("WORDGAMES_ADMIN_TOKEN", "bench-admin-token-0123456789")
    print(
        f"{args.participants} participants over {len(GAMES)} studies (one per game), "
        f"{args.trials} trials each (+ attention checks), think time "
        f"{args.think[0]}-{args.think[1]} s, "
        + (
            "all consenting at the same instant (--burst)"
            if args.burst
            else f"arrivals over {args.ramp:g} s"
        )
        + f", {args.workers} "
        "worker(s), loopback only"
    )
    for kind in ("sqlite", "postgresql") if args.db == "both" else (args.db,):
        with tempfile.TemporaryDirectory(prefix="wordgames-bench-") as tmp:
            folder = Path(tmp)
            stop = None
            if kind == "sqlite":
                url = f"sqlite:///{folder / 'study.db'}"
            else:
                url, stop = start_postgres(folder)
            try:
                report(kind, run_once(url, folder, args))
            finally:
                if stop:
                    stop()


if __name__ == "__main__":
    main()
