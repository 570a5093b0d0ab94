"""The report renders in headless Chromium (Debian packages ``chromium`` and
``chromium-driver``): the DOM Chromium builds holds the leaderboard, and a screenshot is drawn."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.conftest import require_dataset
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
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        CHROMIUM is None,
        reason="headless Chromium not installed (apt-get install chromium "
        "chromium-driver); CI installs it",
    ),
]
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


# --------------------------------------------------------------------------- a real run
#: where the screenshot of the one-embedding report is kept (looked at by a person)
SCREENS = Path(os.environ.get("WORDGAMES_REPORT_SCREENS", "/tmp/report-screens"))
#: added to a copy of the report only (the report itself has no script): where the
#: leaderboard lies once Chromium has laid the page out
PROBE = """<script>window.addEventListener('load', function () {
  var t = document.getElementById('leaderboard-table');
  var b = document.body, r = t.getBoundingClientRect(), y = window.scrollY;
  b.setAttribute('data-lb-top', String(r.top + y));
  b.setAttribute('data-lb-first-row-bottom', String(t.rows[1].getBoundingClientRect().bottom + y));
  b.setAttribute('data-width', String(window.innerWidth));
});</script>"""


@pytest.fixture(scope="module")
def one_embedding_run(tmp_path_factory, data_root):
    """GloVe 6B 50d: similarity and global metrics, and the Codenames pilot (40 records)."""
    require_dataset("word-similarity")
    require_dataset("codenames-pilot")
    import wordgames

    out = tmp_path_factory.mktemp("one")
    res = wordgames.evaluate(
        "glove-6b-50d",
        measures=["similarity", "global-metrics", "codenames"],
        options={"codenames": {"datasets": ["codenames-pilot"], "max_records": 40}},
        data_root=data_root,
        store=out,
    )
    res.write(out)
    return out


def test_one_embedding_report_shows_the_leaderboard_first(one_embedding_run, tmp_path):
    report = write_report(one_embedding_run)
    html = report.read_text(encoding="utf-8")
    probe = report.with_name("probe.html")
    probe.write_text(html.replace("</body>", PROBE + "</body>"), encoding="utf-8")
    args = ["--window-size=1280,800", "--virtual-time-budget=5000", "--dump-dom", probe.as_uri()]
    res = _chromium(args, tmp_path / "profile")
    assert res.returncode == 0, res.stderr.decode(errors="replace")[-2000:]
    dom = res.stdout.decode("utf-8")
    laid = dict(
        re.findall(r'data-([a-z-]+)="([0-9.]+)"', dom.split("<body", 1)[1].split(">", 1)[0])
    )
    assert float(laid["width"]) == 1280
    # the leaderboard and its first row of values lie within the first screen (800 px)
    assert 0 < float(laid["lb-top"]) < float(laid["lb-first-row-bottom"]) < 800
    p = parse(dom)
    assert p.tables[0][0][0] == "subject"  # the first table of the page is the leaderboard
    row = row_of(p.tables[0], coll_label := "glove-6b-50d")
    assert row[0] == coll_label and all(c for c in row[1:])
    # one embedding: no rank, no highlight, one line instead of a correlation grid
    assert "rank 1/1" not in html and 'class="num best"' not in html
    assert "needs three or more embeddings; this report has 1" in html

    SCREENS.mkdir(parents=True, exist_ok=True)
    shot = SCREENS / "one-embedding.png"
    res = _chromium(
        [f"--screenshot={shot}", "--window-size=1280,800", report.as_uri()], tmp_path / "profile"
    )
    assert res.returncode == 0 and shot.is_file()
    from PIL import Image

    with Image.open(shot) as im:
        assert im.size == (1280, 800)
        colors = im.convert("L").getextrema()
        assert colors[0] < 80 and colors[1] > 200
