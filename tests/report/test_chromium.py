"""The report renders in headless Chromium (Debian packages ``chromium`` and
``chromium-driver``): the DOM Chromium builds holds the leaderboard, and a screenshot is drawn."""

from __future__ import annotations

import os
import shutil
import subprocess

import pytest

from tests.report.handmade import LABELS, SIM, make_store
from tests.report.htmltables import find_table, parse, row_of
from wordgames.report import write_report

CHROMIUM = next(
    (
        p
        for p in (shutil.which("chromium"), "/usr/bin/chromium", shutil.which("chromium-browser"))
        if p and os.path.exists(p)
    ),
    None,
)
pytestmark = pytest.mark.skipif(
    CHROMIUM is None,
    reason="headless Chromium not installed (apt-get install chromium "
    "chromium-driver); CI installs it",
)
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
)


def _chromium(args, profile, timeout=60):
    return subprocess.run(
        [CHROMIUM, *FLAGS, f"--user-data-dir={profile}", *args],
        capture_output=True,
        timeout=timeout,
        check=False,
    )


def test_renders_in_headless_chromium(tmp_path):
    report = write_report(make_store(tmp_path / "res"))
    url = report.resolve().as_uri()
    res = _chromium(["--dump-dom", url], tmp_path / "profile")
    assert res.returncode == 0, res.stderr.decode(errors="replace")[-2000:]
    dom = parse(res.stdout.decode("utf-8"))
    # what Chromium parsed and laid out holds the leaderboard values and ranks
    row = row_of(find_table(dom, "metric", "men/spearman"), "men/spearman")
    for i, lab in enumerate(LABELS, start=1):
        assert row[i].startswith(f"{SIM[lab]:.4g} ") and f"rank {i}/4" in row[i]
    assert dom.tags.get("script", 0) == 0
    assert len([s for s in dom.imgs if s.startswith("data:image/png;base64,")]) == len(LABELS)

    shot = tmp_path / "shot.png"
    res = _chromium([f"--screenshot={shot}", "--window-size=1200,900", url], tmp_path / "profile")
    assert res.returncode == 0 and shot.is_file()
    from PIL import Image

    with Image.open(shot) as im:
        assert im.size == (1200, 900)
        # not a blank page: the dark header band and the light body are both drawn
        colors = im.convert("L").getextrema()
        assert colors[0] < 80 and colors[1] > 200
