"""Issue 10 for CBM: coverage of a subsampled TopSim, EOS symbols on the command line, console
tables that cut no metric name, -o folders."""

from __future__ import annotations

import json
import math

import pytest
from typer.testing import CliRunner

import wordgames
from tests.emergent.test_cbm_cli_suite import _log
from tests.wales.test_truthful import assert_inside_bounds
from wordgames.cli import app
from wordgames.measure import MeasureResult

runner = CliRunner()


def test_subsampled_topsim_is_not_thin_and_precision_coverage(tmp_path):
    log = _log(tmp_path / "run1.jsonl", n=120)
    opts = {"logs": [str(log)], "eos_id": 0, "topsim_max_pairs": 1000}
    res = wordgames.evaluate(measures=["cbm"], options={"cbm": opts}, seed=1)
    by = {s.metric: s for s in res.scores}
    top = by["topsim"]
    # 120 messages have 7,140 pairs; TopSim used all pairs of a seeded subset of messages
    assert top.n <= 1000 and top.n + top.n_skipped == 120 * 119 // 2 and top.n_skipped > 0
    assert top.coverage == 1.0 and not top.thin  # a uniform subsample estimates the whole log
    # every other count-based row: the default coverage n / (n + n_skipped)
    assert by["cbm"].coverage == 1.0 and by["cbm"].n == 120
    # no CBM number claims an interval; every value lies inside its bounds
    assert all(math.isnan(s.ci_low) for s in res.scores)
    assert assert_inside_bounds(res.scores, "cbm") == 0


@pytest.mark.slow
def test_eos_symbol_is_the_same_for_cbm_evaluate_and_run(tmp_path):
    # the same language with a token EOS: "<eos>" as a string symbol
    log = tmp_path / "tok.jsonl"
    lines = []
    for i in range(40):
        red = i % 2 == 0
        msg = ["r", "<eos>", "x"] if red else ["b", "<eos>", "y"]
        lines.append(json.dumps({"message": msg, "concepts": ["red" if red else "blue"]}))
    log.write_text("\n".join(lines) + "\n")
    a = runner.invoke(
        app, ["cbm", "evaluate", str(log), "-o", str(tmp_path / "a"), "--eos-id", "<eos>"]
    )
    assert a.exit_code == 0, a.output
    rec = json.loads((tmp_path / "a" / "cbm_tok.json").read_text())
    # "x" and "y" after the EOS are never words: two words, a perfect match
    m = MeasureResult.from_dict(rec)
    assert m.value("n_unique_words") == 2 and m.value("cbm") == 1.0
    b = runner.invoke(
        app,
        [
            "run",
            "-m",
            "cbm",
            "--cbm-log",
            str(log),
            "--cbm-eos-id",
            "<eos>",
            "-o",
            str(tmp_path / "b"),
        ],
    )
    assert b.exit_code == 0, b.output


@pytest.mark.parametrize("columns", ["80", "120"])
def test_cbm_tables_cut_no_metric_name(tmp_path, columns):
    log = _log(tmp_path / "a-rather-long-log-file-name-from-the-game.jsonl", n=350)
    r = runner.invoke(
        app,
        ["cbm", "evaluate", str(log), "-o", str(tmp_path / "o"), "--eos-id", "0"],
        env={"COLUMNS": columns},
    )
    assert r.exit_code == 0, r.output
    assert "…" not in r.output
    for name in (
        "sensitivity_accumulated_std",
        "unmatched_concept_rate",
        "n_unique_phrases",
        "topsim_pairs",
        "color=red",
    ):
        assert name in r.output, name
    ruled = [line for line in r.output.splitlines() if "┃" in line or "│" in line]
    assert ruled and max(len(line) for line in ruled) <= int(columns)


def test_cbm_table_output_is_a_folder(tmp_path):
    from wordgames.emergent.games.runs import write_table1

    # the writer keeps its file stem; the command passes OUT/table1
    paths = write_table1([], tmp_path / "o" / "table1")
    assert [p.name for p in paths] == ["table1.md", "table1.csv"]
    r = runner.invoke(app, ["cbm", "table", "--help"], env={"COLUMNS": "200"})
    assert "OUT/table1.md" in r.output
