"""A real Ray cluster of two nodes on loopback, no shared filesystem, a worker node killed mid-run.

The cluster is started and the driver run by ``bench/bench_ray.py`` in a process of its own (a
driver must set Ray's environment before ``ray`` is first imported, which this test process may
already have done).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # a real cluster and three measures twice: a minute or two

ROOT = Path(__file__).resolve().parents[1]


def test_two_nodes_with_a_worker_killed_give_the_serial_scores(data_root):
    pytest.importorskip("ray", reason="ray is not installed (pip install 'wordgames[ray]')")
    env = {**os.environ, "WORDGAMES_DATA": str(data_root)}
    r = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "bench_ray.py"), "--nodes", "2", "--quick",
         "--kill-worker"],
        env=env, capture_output=True, text=True, timeout=900,
    )  # fmt: skip
    out = r.stdout
    assert r.returncode == 0, out[-3000:] + r.stderr[-3000:]
    assert "loopback only: True" in out  # ss: every node listens on 127.0.0.1 only
    assert "killed worker node 1" in out  # mid-run: after the first result, before the last
    assert "units: 6 (6 results, 0 skipped)" in out
    assert "identical: True" in out
    rows = next(line for line in out.splitlines() if line.startswith("score rows:"))
    serial, ray = (int(w.replace(",", "")) for w in rows.split() if w.replace(",", "").isdigit())
    assert serial == ray > 1000
