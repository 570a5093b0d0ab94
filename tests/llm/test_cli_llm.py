"""`wordgames run -e chat:MODEL` against the real server: stored, reported, resumable, cached."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time

import pytest
from typer.testing import CliRunner

from tests.llm.conftest import PROBE
from wordgames.cli import app

pytestmark = pytest.mark.slow  # a real model server: a minute or so

N_QUICK = 102  # a quick run of a player asks anomia-common-test only


def _args(server, out):
    return ["run", "-e", "chat:smollm2", "--base-url", server.base_url, "-m", "oddmanout",
            "--quick", "-o", str(out)]  # fmt: skip


def test_run_report_and_a_second_run_makes_no_request(llm_server, tmp_path, monkeypatch):
    monkeypatch.setenv("WORDGAMES_CACHE", str(tmp_path / "cache"))
    out = tmp_path / "X"
    before = llm_server.requests()
    r = CliRunner().invoke(app, _args(llm_server, out), env={"COLUMNS": "200"})
    assert r.exit_code == 0, r.output
    assert llm_server.requests() - before == N_QUICK + PROBE  # the structured-output probe
    assert "chat:smollm2" in r.output and "pct_correct" in r.output
    again = CliRunner().invoke(app, _args(llm_server, out))
    assert again.exit_code == 0, again.output
    assert llm_server.requests() - before == N_QUICK + PROBE  # the store: nothing to compute
    other = CliRunner().invoke(app, _args(llm_server, tmp_path / "Y"))  # a new folder
    assert other.exit_code == 0, other.output
    assert llm_server.requests() - before == N_QUICK + PROBE  # the cache answers it all
    rep = CliRunner().invoke(app, ["report", str(out)])
    assert rep.exit_code == 0, rep.output
    assert "chat:smollm2" in (out / "report.html").read_text(encoding="utf-8")


def test_a_run_killed_mid_way_resends_no_answered_request(llm_server, tmp_path):
    cache = tmp_path / "cache"
    env = {**os.environ, "WORDGAMES_CACHE": str(cache)}
    before = llm_server.requests()
    cmd = [sys.executable, "-m", "wordgames", *_args(llm_server, tmp_path / "X")]
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    while llm_server.requests() - before < 20 and time.monotonic() < deadline:
        time.sleep(0.2)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    db = cache / "llm" / "responses.sqlite"
    with sqlite3.connect(db) as con:
        stored = con.execute("SELECT COUNT(*) FROM responses").fetchone()[0]
    stored -= PROBE  # the structured-output probe's outcome is kept there too
    assert 0 < stored < N_QUICK
    mid = llm_server.requests()
    r = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout + r.stderr
    assert llm_server.requests() - mid == N_QUICK - stored  # only the unanswered ones


def _dry_row(output: str) -> list[str]:
    """The cells of the dry run's one row (subject, game, role, requests ... cached)."""
    rows = [[c.strip() for c in x.strip("│ ").split("│")] for x in output.splitlines()]
    rows = [r for r in rows if len(r) == 7 and r[0] == "chat:smollm2"]
    assert len(rows) <= 1, rows
    return rows[0] if rows else []


def _cached(output: str) -> int:
    import re

    found = re.search(r"chat:smollm2: ([\d,]+) answer\(s\) already in the response cache", output)
    assert found, output
    return int(found.group(1).replace(",", ""))


def test_dry_run_counts_the_requests_a_run_then_sends(llm_server, tmp_path, monkeypatch):
    monkeypatch.setenv("WORDGAMES_CACHE", str(tmp_path / "cache"))
    out, env = tmp_path / "X", {"COLUMNS": "200"}
    before = llm_server.requests()
    dry = CliRunner().invoke(app, [*_args(llm_server, out), "--dry-run"], env=env)
    assert dry.exit_code == 0, dry.output
    assert llm_server.requests() == before  # nothing sent but the model list
    subject, game, role, requests, up_to, tokens_in, _ = _dry_row(dry.output)
    assert (game, role) == ("oddmanout", "solver") and _cached(dry.output) == 0
    assert (subject, requests, up_to) == ("chat:smollm2", str(N_QUICK), str(N_QUICK))
    assert int(tokens_in.replace(",", "")) > 20 * N_QUICK  # a prompt is ~25 words at least
    assert not (out / "records").exists() or not any((out / "records").rglob("*.json"))
    real = CliRunner().invoke(app, _args(llm_server, out), env=env)
    assert real.exit_code == 0, real.output
    assert llm_server.requests() - before == N_QUICK + PROBE  # what the dry run said
    again = CliRunner().invoke(app, [*_args(llm_server, tmp_path / "Y"), "--dry-run"], env=env)
    assert again.exit_code == 0, again.output
    # every answer cached now: no request to send
    assert _dry_row(again.output) == [] and _cached(again.output) == N_QUICK
