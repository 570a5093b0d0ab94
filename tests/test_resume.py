"""A run killed with SIGKILL resumes where it stopped, losing and duplicating nothing."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests._toy_measures import ENTRIES
from tests.test_runner import write_tiny
from wordgames.results.store import ResultStore

pytestmark = pytest.mark.slow  # real data, a browser or servers: seconds each

ROOT = Path(__file__).resolve().parents[1]
MEASURES = ["toy1", "toy2", "toy3", "toy4"]


def _cmd(out, embs, extra=()):
    args = ["run", "-o", str(out)] + [a for e in embs for a in ("-e", str(e))]
    args += [a for m in MEASURES for a in ("-m", m)] + list(extra)
    return [sys.executable, "-c", "from wordgames.cli import main; main()", *args]


def _env(tmp_path, log, sleep):
    env = dict(os.environ)
    env.update(
        WORDGAMES_EXTRA_MEASURES=ENTRIES,
        WORDGAMES_TOY_LOG=str(log),
        WORDGAMES_TOY_SLEEP=str(sleep),
        WORDGAMES_CACHE=str(tmp_path / "cache"),
        PYTHONPATH=os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")]),
    )
    return env


def _calls(log):
    return [tuple(ln.split()[:2]) for ln in log.read_text().splitlines()] if log.exists() else []


@pytest.mark.parametrize("extra", [(), ("--workers", "2")], ids=["serial", "process-pool"])
def test_sigkill_then_resume(tmp_path, extra):
    embs = [write_tiny(tmp_path / "a.txt", seed=1)[0], write_tiny(tmp_path / "b.txt", seed=2)[0]]
    out = tmp_path / "out"
    records = out / "records"
    log1, log2 = tmp_path / "run1.log", tmp_path / "run2.log"
    n_units = len(embs) * len(MEASURES)
    proc = subprocess.Popen(
        _cmd(out, embs, extra),
        env=_env(tmp_path, log1, 0.8),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    deadline = time.monotonic() + 90
    try:
        while time.monotonic() < deadline and proc.poll() is None:
            if len(list(records.glob("*/*/*.json"))) >= 2:
                break
            time.sleep(0.05)
        assert proc.poll() is None, f"the run ended before it was killed: {proc.stderr.read()!r}"
        os.killpg(proc.pid, signal.SIGKILL)  # the run and its workers, without warning
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL
    kept = {p: p.read_bytes() for p in records.glob("*/*/*.json")}
    assert 2 <= len(kept) < n_units, "kill it mid-run: some results stored, some not"
    stored = {(e["key"]["measure"], e["embedding"]["name"]) for e in map(json.loads, kept.values())}
    assert not (out / "results.json").exists()

    # run again: only the missing units are computed
    done = subprocess.run(
        _cmd(out, embs, extra),
        env=_env(tmp_path, log2, 0),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr + done.stdout
    assert f"{n_units - len(kept)} of {n_units} result(s) missing" in done.stdout
    every = {(m, e.stem) for m in MEASURES for e in embs}
    second = _calls(log2)
    assert len(second) == len(set(second)), "a unit was computed twice in one run"
    assert set(second) == every - stored
    # nothing already written was lost or rewritten
    for path, blob in kept.items():
        assert path.read_bytes() == blob
    store = ResultStore(out)
    keys = [(e["key"]["measure"], e["embedding"]["name"]) for e in store]
    assert len(keys) == n_units and set(keys) == every
    record = json.loads((out / "results.json").read_text())
    pairs = [(r["measure"], r["subject"]) for r in record["results"]]
    assert sorted(pairs) == sorted(every)
    assert record["parameters"]["reused"] == len(kept)
