"""Issue 21, item 15: the trained CBM runs of docs/cbm-games.md ship in ``reproductions/cbm/``
(their logs, not their weights). ``wordgames cbm table`` rebuilds Tables 1, 3 and 4 from them
(each log measured again through ``evaluate``), and each log re-measures to its own row."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from wordgames.emergent.games.presets import PRESETS

pytestmark = pytest.mark.slow  # real data, a browser or servers: seconds each

ROOT = Path(__file__).resolve().parents[2] / "src" / "wordgames" / "reproductions" / "cbm"
RUNS = sorted(p for p in ROOT.glob("*") if (p / "eval.json").is_file()) if ROOT.is_dir() else []


def test_every_preset_ships_one_run():
    assert sorted(p.name for p in RUNS) == sorted(PRESETS)


@pytest.mark.parametrize("run", RUNS, ids=[p.name for p in RUNS])
def test_a_shipped_run_is_logs_only_and_re_measures_to_its_own_row(run):
    from wordgames.emergent.logfile import evaluate_log_file

    names = {p.name for p in run.iterdir()}
    assert {"config.json", "run.json", "eval.json", "messages.jsonl.gz"} <= names
    assert not names & {"checkpoint.pt", "agents.pt"}  # no weights: logs only
    assert json.loads((run / "run.json").read_text())["preset"] == run.name
    record = json.loads((run / "eval.json").read_text())
    again, _ = evaluate_log_file(run / "messages.jsonl.gz", write_json=False)
    for key in ("cbm", "ami", "topsim"):
        assert again.metrics()[key] == pytest.approx(record["language"][key], abs=1e-9), key


def test_cbm_table_rebuilds_the_papers_tables_from_the_shipped_runs(tmp_path):
    from typer.testing import CliRunner

    from wordgames.cli import app

    if not RUNS:
        pytest.skip("no shipped run")
    r = CliRunner().invoke(app, ["cbm", "table", *map(str, RUNS), "-o", str(tmp_path)])
    assert r.exit_code == 0, r.output
    rows = (tmp_path / "table1.csv").read_text().splitlines()
    assert len(rows) == 1 + len(RUNS)
    table1 = [p for p in RUNS if PRESETS[p.name].table == "1"]
    lines = r.output.splitlines()
    for run in table1:  # each Table 1 row is its log measured again: the recorded CBM and AMI
        rec = json.loads((run / "eval.json").read_text())
        row, lang = rec["table1_row"], rec["language"]
        head = f"| {row['Game']} | {row['Com']} | {row['l']} | {row['d']} |"
        printed = [x for x in lines if x.startswith(head)]
        assert any(f"| {lang['ami']:.2f} (" in x and f"| {lang['cbm']:.2f} (" in x for x in printed)
    # the shipped logs carry no per-turn accuracy: no Acc is printed, and the output says why
    assert "carry no per-turn accuracy" in r.output
    assert len(list((tmp_path / "runs").glob("*/results.json"))) == len(RUNS)
    if len(table1) < len(RUNS):
        assert "Table 3 layout" in r.output and "Table 4 layout" in r.output


def test_the_main_job_measures_the_shipped_table1_runs_when_no_log_is_given(tmp_path):
    """Issue 41: CBM in the default run is the 8 Table 1 runs, each under its run's name."""
    import wordgames
    from wordgames.emergent.shipped import shipped_logs

    table1 = sorted(p.name for p in RUNS if PRESETS[p.name].table == "1")
    assert [p.parent.name for p in shipped_logs()] == table1 and len(table1) == 8
    res = wordgames.evaluate(measures=["cbm"], quick=True)
    cbm = {s.dataset: s for s in res.scores if s.metric == "cbm"}
    assert sorted(cbm) == table1
    for name in table1:  # the quick run subsamples TopSim only: CBM is the recorded one
        rec = json.loads((ROOT / name / "eval.json").read_text())
        assert cbm[name].value == pytest.approx(rec["language"]["cbm"], abs=1e-9), name
        assert cbm[name].n == 1000
    assert any("trained runs of the paper's Table 1" in n for n in res.result("cbm").notes)


def test_two_logs_with_one_name_are_refused_not_merged(tmp_path):
    import wordgames

    for run in ("a", "b"):
        (tmp_path / run / "x").mkdir(parents=True)
    logs = [str(ROOT / "d01" / "messages.jsonl.gz"), str(ROOT / "d02" / "messages.jsonl.gz")]
    res = wordgames.evaluate(measures=["cbm"], options={"cbm": {"logs": logs}}, quick=True)
    assert {s.dataset for s in res.scores} == {"d01", "d02"}  # run folders keep them apart
    same = [str(tmp_path / r / "x" / "messages.jsonl.gz") for r in ("a", "b")]
    for path in same:
        Path(path).write_bytes((ROOT / "d01" / "messages.jsonl.gz").read_bytes())
    res = wordgames.evaluate(measures=["cbm"], options={"cbm": {"logs": same}}, quick=True)
    assert not res.scores and "the same name 'x'" in res.skipped[0].reason
