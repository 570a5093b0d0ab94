"""The HTML report's content, read back with html.parser."""

from __future__ import annotations

import base64
import re
from pathlib import Path

import pytest

from tests.report.handmade import (
    CN_RANK,
    EVIL_NOTE,
    LABELS,
    SHAS,
    SIM,
    SIM_OOV,
    SIM_PAIRS,
    WALES,
    WALES_NO_VECTOR,
    make_store,
)
from tests.report.htmltables import find_table, parse, row_of
from wordgames.report import write_report


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    root = make_store(tmp_path_factory.mktemp("res"))
    path = write_report(root)
    return root, path, parse(path.read_text(encoding="utf-8"))


def test_written_where_expected(report):
    root, path, _ = report
    assert path == root / "report.html" and path.stat().st_size > 0


def _footnote(raw: str, cell: str) -> str:
    """The reason behind a cell's footnote mark ``[k]`` (said once under the table)."""
    import html as _html

    k = re.search(r"\[(\d+)\]", cell).group(1)
    return _html.unescape(re.search(rf'id="fn{k}" value="{k}">([^<]*)</li>', raw).group(1))


def test_leaderboard_numbers_ranks_cis_and_oov(report):
    _, path, p = report
    raw = path.read_text(encoding="utf-8")
    t = find_table(p, "metric", "men/spearman")
    assert t[0] == ["metric", *LABELS]
    row = row_of(t, "men/spearman")
    for i, lab in enumerate(LABELS, start=1):
        assert row[i].startswith(f"{SIM[lab]:.4g} ")
        assert f"rank {i}/4" in row[i]
        # the counts in the cell, the reason once, as a footnote (issue 21)
        assert f"skipped {SIM_OOV[lab]} of {SIM_PAIRS} [" in row[i]
        assert _footnote(raw, row[i]) == "pairs with an out-of-vocabulary word"
    row = row_of(find_table(p, "metric", "human/greedy/score"), "human/greedy/score")
    assert row[1].startswith("0.5 [0.45, 0.55] rank 1/4")
    assert f"skipped {WALES_NO_VECTOR} of 1,000 [" in row[1]
    assert _footnote(raw, row[1]) == "target page has no vector"
    notes = re.findall(r'id="fn\d+" value="\d+">pairs with an out-of-vocabulary word</li>', raw)
    assert len(notes) == 1  # one footnote however many cells share the reason
    row = row_of(find_table(p, "metric", "mean_rank"), "all/cluster/human_receiver.mean_rank")
    assert "lower is better" in row[0]
    assert row[3].startswith(f"{CN_RANK['C']:.0f} [18.5, 21.5] rank 2/4")


def test_overview_and_mean_rank(report):
    _, _, p = report
    t = find_table(p, "subject", "mean rank")
    a = row_of(t, "A")
    assert a[0] == "A" and len(a) == 1 + 5 + 1
    # A is first on every ranked headline metric, D<i> last
    assert a[-1] == "1" and row_of(t, "D<i>")[-1] == "4"


def test_correlation_table(report):
    _, _, p = report
    t = find_table(p, "Spearman rho", "similarity")
    header = t[0]
    row = row_of(t, "similarity")
    assert row[header.index("wales")] == "0.8 n=4"
    assert row[header.index("codenames")] == "1 n=4"


def test_summary_embeddings_checksums_skipped(report):
    _, _, p = report
    t = find_table(p, "subject", "vocabulary size")
    c = row_of(t, "C")
    assert c[2] == "3,000" and c[4] == SHAS["C"]
    assert any(row == ["men.txt", "f" * 64] for tab in p.tables for row in tab)
    t = find_table(p, "subject", "reason")
    assert row_of(t, "A")[1:] == ["cbm", "no emergent-communication logs given (use --cbm-log)"]


def test_every_oov_count_is_shown(report):
    # the result's OOV record in words (it was shown as a JSON dict before issue 10)
    _, _, p = report
    for lab in LABELS:
        assert any(
            row == ["men / out-of-vocabulary pairs", str(SIM_OOV[lab])]
            for tab in p.tables
            for row in tab
        )
        assert any(
            row == ["men / out-of-vocabulary words", str(2 * SIM_OOV[lab])]
            for tab in p.tables
            for row in tab
        )
    assert any(row == ["number of nodes without vector", "17"] for tab in p.tables for row in tab)
    text = " ".join(p.text[p.text.index("wordgames report", 5) :])  # after the <style>
    # never a raw key or a dict repr
    assert "oov_pairs" not in text and "n_nodes_without_vector" not in text
    assert "{'" not in text and '{"' not in text


def test_baselines_beside_agents(report):
    _, _, p = report
    # the WALES scores: each embedding's agent beside the people of The Wiki Game (shown once)
    t = find_table(p, "embedding", "people (best player)")
    value, ci = t[0].index("value"), t[0].index("95 % CI")
    assert float(row_of(t, "A")[value]) == WALES["A"]
    # one number format per column (issue 21): every value with the same decimals
    decimals = {len(r[value].split(".")[1]) for r in t[1:] if "." in r[value]}
    assert len(decimals) == 1
    best = [r for r in t if "people (best player)" in r]
    assert len(best) == 1 and best[0][0] == "all (baseline)"
    assert float(best[0][value]) == 0.7 and best[0][ci] == "[0.69, 0.71]"
    # the WordNet row of Odd-Man-Out is the same for every embedding: shown once, as baseline
    t = find_table(p, "embedding", "wordnet")
    wn = [r for r in t if "wordnet" in r]
    assert len(wn) == 1 and wn[0][0] == "all (baseline)"


def test_text_is_escaped(report):
    _, path, p = report
    raw = path.read_text(encoding="utf-8")
    assert p.tags.get("script", 0) == 0 and "<script>" not in raw
    assert "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt; &amp; &quot;quoted&quot;" in raw
    assert EVIL_NOTE in "".join(p.text)
    assert "D<i>" in "".join(p.text) and p.tags.get("i", 0) == 0


def test_images_embedded_are_the_plots(report):
    root, _, p = report
    assert len(p.imgs) == len(LABELS)
    want = (root / "plots" / "A" / "similarity" / "sim.png").read_bytes()
    srcs = [s for s in p.imgs if s.startswith("data:image/png;base64,")]
    assert len(srcs) == len(LABELS)
    assert any(base64.b64decode(s.split(",", 1)[1]) == want for s in srcs)


def test_images_copied_beside_html(tmp_path):
    root = make_store(tmp_path / "res")
    out = write_report(root, tmp_path / "site" / "index.html", images="copy")
    p = parse(out.read_text(encoding="utf-8"))
    assert len(p.imgs) == len(LABELS)
    for src in p.imgs:
        assert not src.startswith(("data:", "/", "file:"))
        f = out.parent / src
        assert f.is_file() and f.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_moved_results_folder_still_finds_plots(tmp_path):
    root = make_store(tmp_path / "res")
    moved = root.rename(tmp_path / "moved")
    p = parse(write_report(moved).read_text(encoding="utf-8"))
    assert len([s for s in p.imgs if s.startswith("data:image/png")]) == len(LABELS)
    assert "Missing files" not in p.headings


def test_missing_plot_is_reported(tmp_path):
    root = make_store(tmp_path / "res")
    (root / "plots" / "B" / "similarity" / "sim.png").unlink()
    p = parse(write_report(root).read_text(encoding="utf-8"))
    assert "Missing files" in p.headings and len(p.imgs) == len(LABELS) - 1


def test_single_embedding_report_explains_missing_correlation(tmp_path):
    # issue 10: one line saying why, instead of a grid of "n/a" (the grid was asserted before)
    root = make_store(tmp_path / "one", labels=("A",))
    text = write_report(root).read_text(encoding="utf-8")
    p = parse(text)
    assert "needs three or more embeddings; this report has 1" in "".join(p.text)
    assert not any(t and t[0] and t[0][0] == "Spearman rho" for t in p.tables)
    assert "n/a n=1" not in "".join(p.text)


def test_cli_report_command(tmp_path):
    import typer
    from typer.testing import CliRunner

    from wordgames.cli.report_cli import register

    app = typer.Typer()

    @app.callback()
    def _main():
        """test app"""

    register(app)
    root = make_store(tmp_path / "res")
    out = tmp_path / "out" / "r.html"
    # --out is a folder (issue 10: -o is always a folder); --name names the page in it
    res = CliRunner().invoke(
        app, ["report", str(root), "--out", str(out.parent), "--name", "r.html"]
    )
    assert res.exit_code == 0, res.output
    assert out.is_file() and (out.parent / "leaderboard.csv").is_file()
    import pandas as pd

    lb = pd.read_csv(out.parent / "leaderboard.csv")
    r = lb[(lb.subject == "B") & (lb.dataset == "men") & (lb.metric == "spearman")].iloc[0]
    assert r.value == SIM["B"] and r["rank"] == 2
    cor = pd.read_csv(out.parent / "correlation.csv")
    assert cor[(cor.measure_a == "similarity") & (cor.measure_b == "wales")].rho.iloc[
        0
    ] == pytest.approx(0.8)
    res = CliRunner().invoke(app, ["report", str(tmp_path / "nowhere")])
    assert res.exit_code == 2 and "does not exist" in res.output
    assert Path(out).read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


def test_one_comparison_figure_per_headline_score_opening_full_size(report):
    from wordgames.report import leaderboard, load_results

    root, path, p = report
    n_headlines = len(leaderboard(load_results(root)).columns)
    assert n_headlines > 1 and len(p.comparison_imgs) == n_headlines
    assert all(s.startswith("data:image/png;base64,") for s in p.comparison_imgs)
    raw = path.read_text(encoding="utf-8")
    # each figure is a link to itself: a click opens it full size
    for src in p.comparison_imgs[:3]:
        assert f'<a href="{src}" target="_blank"' in raw
