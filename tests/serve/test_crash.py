"""Crash: ``kill -9`` the server while participants are answering, restart it, and every
participant resumes at the trial they were on; no answer acknowledged before the kill is lost,
none is duplicated (also not the ones re-sent after the restart)."""

from __future__ import annotations

import json
import threading
import time

import httpx
import pytest

from tests.serve.conftest import Server
from tests.serve.helpers import Player, good_answer, hidden

pytestmark = pytest.mark.slow  # real data, a browser or servers: seconds each

N_PARTICIPANTS = 8
TRIALS = 6


class Runner(threading.Thread):
    """A participant answering as fast as the server lets it, until told to stop."""

    def __init__(self, url: str, k: int, stop: threading.Event):
        super().__init__(daemon=True)
        self.client = httpx.Client(base_url=url, timeout=10)
        self.player = Player(self.client, "omo", pid=f"CRASH{k:03d}")
        self.stop = stop
        self.acked: dict[int, str] = {}  # position -> choice, acknowledged (303) by the server
        self.pending: dict | None = None  # a form in flight when the server died
        self.page = None

    def run(self):
        try:
            self.page = self.player.start()
            while not self.stop.is_set() and 'id="code"' not in self.page:
                self.step()
        except httpx.HTTPError:
            pass

    def step(self):
        position = int(hidden(self.page, "t").split(".")[0])
        _, data = good_answer("oddmanout", self.page)
        self.pending = {"t": hidden(self.page, "t"), **data}
        r = self.client.post("/s/omo/answer", data=self.pending)
        assert r.status_code == 303, r.text
        self.acked[position] = data["choice"]
        self.pending = None
        self.page = self.player.play()


def test_kill9_mid_study_then_resume(inputs, tmp_path, db_url):
    from tests.serve.test_api import rows
    from wordgames.serve.models import Answer, Participant

    study = {
        "slug": "omo",
        "game": "oddmanout",
        "trials": TRIALS,
        "pool_size": 6,
        "completion_code": "OMO1",
        "oddmanout": {"puzzles": inputs["puzzles"]},
    }
    (tmp_path / "omo.json").write_text(json.dumps(study), encoding="utf-8")
    db = db_url
    srv = Server(["--study", str(tmp_path / "omo.json"), "--db", db], tmp_path).start()
    stop = threading.Event()
    runners = [Runner(srv.url, k, stop) for k in range(N_PARTICIPANTS)]
    for r in runners:
        r.start()
    end = time.monotonic() + 60
    while sum(len(r.acked) for r in runners) < 12 and time.monotonic() < end:
        time.sleep(0.005)
    srv.kill9()  # in the middle of the study: answers are being sent right now
    stop.set()
    for r in runners:
        r.join(15)
    acked_before = {id(r): dict(r.acked) for r in runners}
    n_acked = sum(map(len, acked_before.values()))
    assert 12 <= n_acked < N_PARTICIPANTS * TRIALS, "the kill must come mid-study"

    in_flight = sum(r.pending is not None for r in runners)
    t0 = time.monotonic()
    srv.start()  # same port, same database
    restart_s = time.monotonic() - t0
    try:
        for r in runners:
            if r.pending is not None:  # the browser re-sends what was in flight
                assert r.client.post("/s/omo/answer", data=r.pending).status_code in (303, 200)
            pid = _pid(db, r)
            stored = {a.position for a in rows(db, Answer) if a.participant_id == pid}
            # with its cookie the browser resumes; a browser that never got the cookie (its
            # consent was cut by the kill) or never consented opens the study link again
            page = r.player.play() if "wg_omo" in r.client.cookies else r.player.start()
            # resumes exactly where the database says it is
            assert f"Round {len(stored) + 1} of {TRIALS}" in page or (
                'id="code"' in page and len(stored) == TRIALS
            )
            r.page, r.stop = page, threading.Event()
            r.run()
            assert 'id="code"' in r.page
    finally:
        srv.stop()
        for r in runners:
            r.client.close()

    answers = rows(db, Answer)
    parts = rows(db, Participant)
    assert len(parts) == N_PARTICIPANTS and all(p.status == "completed" for p in parts)
    assert len(answers) == N_PARTICIPANTS * TRIALS  # none lost, none duplicated
    by = {(a.participant_id, a.position): json.loads(a.payload)["choice"] for a in answers}
    assert len(by) == len(answers)
    for r in runners:
        pid = _pid(db, r)
        for pos, choice in acked_before[id(r)].items():  # every acknowledged answer is there
            assert by[(pid, pos)] == choice
    print(
        f"\ncrash ({db.split(':')[0]}): {n_acked} answers acknowledged before kill -9, 0 lost, 0 duplicated; "
        f"{in_flight} forms in flight re-sent; restart to /health 200 in {restart_s:.2f} s; "
        f"{len(answers)} answers at the end"
    )


def _pid(db, runner) -> int:
    from wordgames.serve.db import Database
    from wordgames.serve.store import find_participant, load_study

    d = Database(db)
    try:
        p = find_participant(d, load_study(d, "omo"), pid=runner.player.pid)
        return None if p is None else p.id
    finally:
        d.dispose()


if __name__ == "__main__":  # pragma: no cover
    pytest.main([__file__, "-s"])


def test_two_workers_share_one_database(inputs, tmp_path, db_url):
    """``--workers 2``: the app keeps no state outside the database, so participants whose
    requests land on either worker play through; nothing is lost or duplicated."""
    from tests.serve.helpers import play_to_end
    from tests.serve.test_api import rows
    from wordgames.serve.models import Answer

    study = {
        "slug": "omo",
        "game": "oddmanout",
        "trials": 4,
        "pool_size": 6,
        "completion_code": "OMO1",
        "oddmanout": {"puzzles": inputs["puzzles"]},
    }
    (tmp_path / "omo.json").write_text(json.dumps(study), encoding="utf-8")
    srv = Server(
        ["--study", str(tmp_path / "omo.json"), "--db", db_url, "--workers", "2"], tmp_path
    ).start()
    try:
        for k in range(4):  # a new connection per request: spread over the workers
            with httpx.Client(
                base_url=srv.url, timeout=10, limits=httpx.Limits(max_keepalive_connections=0)
            ) as c:
                pl = Player(c, "omo", pid=f"W{k}")
                assert 'id="code"' in play_to_end(pl, "oddmanout", pl.start())
    finally:
        srv.stop()
    assert len(rows(db_url, Answer)) == 16
