"""`wordgames cbm train` and `wordgames cbm table` end to end on a tiny run."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest


def test_help_does_not_import_torch():
    code = (
        "import sys\nfrom typer.testing import CliRunner\nfrom wordgames.cli import app\n"
        "r = CliRunner().invoke(app, ['cbm', 'train', '--help'])\n"
        "assert r.exit_code == 0, r.output\nassert '--rule-length' in r.output\n"
        "print('torch' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_train_then_table(tmp_path):
    pytest.importorskip("torch")
    pytest.importorskip("wordgames.emergent.measures")
    from typer.testing import CliRunner

    from wordgames.cli import app

    run = tmp_path / "run"
    args = [
        "cbm",
        "train",
        "--world",
        "thing",
        "--channel",
        "qt",
        "--rule-length",
        "2",
        "--steps",
        "20",
        "--eval-every",
        "10",
        "--seed",
        "3",
        "--n-targets",
        "4",
        "--n-distractors",
        "4",
        "--hidden",
        "16",
        "--embed",
        "8",
        "--batch-size",
        "8",
        "--val-turns",
        "20",
        "--test-turns",
        "60",
        "--max-len",
        "2",
        "--out",
        str(run),
    ]
    res = CliRunner().invoke(app, args)
    assert res.exit_code == 0, res.output
    for name in ("config.json", "train_log.jsonl", "agents.pt", "eval.json", "messages.jsonl"):
        assert (run / name).is_file(), name
    rec = json.loads((run / "eval.json").read_text())
    row = rec["table1_row"]
    assert (row["Game"], row["Com"], row["l"], row["d"]) == ("Thing", "QT", 2, 6)
    assert rec["parameters"]["rule_length"] == 2 and rec["n_turns"] == 60
    log = (run / "train_log.jsonl").read_text().splitlines()
    assert [json.loads(x)["step"] for x in log] == [10, 20]
    msgs = [json.loads(x) for x in (run / "messages.jsonl").read_text().splitlines()]
    assert len(msgs) == 60 and all(len(m["concepts"]) == 2 and len(m["message"]) == 2 for m in msgs)
    assert all(len(m["object"]) == len(msgs[0]["object"]) > 0 for m in msgs)
    # the printed row is the cbm measure's Score rows, stored in the run folder; the accuracy
    # of the logged turns is the evaluation's, turn by turn
    from wordgames.measure import MeasureResult

    (stored,) = json.loads((run / "results.json").read_text())["results"]
    stored = MeasureResult.from_dict(stored)
    assert stored.value("accuracy", run.name) == pytest.approx(rec["accuracy"], abs=1e-12)
    assert stored.find("accuracy", run.name).n == 60
    assert stored.value("cbm", run.name) == pytest.approx(row["CBM"], abs=1e-12)
    assert sum(m["accuracy"] for m in msgs) / 60 == pytest.approx(rec["accuracy"], abs=1e-12)
    printed = next(x for x in res.output.splitlines() if x.startswith("| Thing | QT | 2 | 6 |"))
    assert f"| {stored.value('accuracy', run.name):.2f} |" in printed

    res = CliRunner().invoke(app, ["cbm", "table", str(run), "-o", str(tmp_path / "t1")])
    assert res.exit_code == 0, res.output
    # -o is a folder: the table goes to OUT/table1.md and OUT/table1.csv
    md = (tmp_path / "t1" / "table1.md").read_text().splitlines()
    assert md[0].startswith("| Game | Com | l | d | Cons | Phrs | #w | #m | Acc | TopSim")
    assert md[2].startswith("| Thing | QT | 2 | 6 |")
    assert (tmp_path / "t1" / "table1.csv").is_file()


def test_bad_inputs_give_clear_errors(tmp_path):
    from typer.testing import CliRunner

    from wordgames.cli import app

    res = CliRunner().invoke(app, ["cbm", "table", str(tmp_path)])
    assert res.exit_code == 2 and "eval.json" in res.output
    res = CliRunner().invoke(
        app,
        ["cbm", "train", "--world", "thing", "--rule-length", "6", "--out", str(tmp_path / "x")],
    )
    assert res.exit_code == 2 and "rule_length" in res.output


@pytest.mark.torch
def test_a_run_re_measures_to_its_own_row(tmp_path):
    """Issue 21: the objects the sender saw are kept with the messages, so that ``cbm evaluate``
    of a run's log gives the run's own TopSim (0.152 against the row's 0.07 without them)."""
    pytest.importorskip("torch")
    from wordgames.emergent.games.runs import train_and_evaluate
    from wordgames.emergent.games.train import GameTrainer
    from wordgames.emergent.logfile import evaluate_log_file

    trainer = GameTrainer(world="thing", channel="qt", rule_length=1, steps=30, eval_every=10,
                          random_state=1, n_targets=4, n_distractors=4, hidden=16, embed=8,
                          batch_size=8, max_len=2)  # fmt: skip
    train_and_evaluate(trainer, tmp_path / "run", test_turns=80, plot=False)
    row = json.loads((tmp_path / "run" / "eval.json").read_text())["language"]
    log = tmp_path / "run" / "messages.jsonl"
    again, _ = evaluate_log_file(log, write_json=False)
    assert row["topsim"] is not None
    for key in ("topsim", "cbm", "ami"):
        assert again.metrics()[key] == pytest.approx(row[key], abs=1e-12), key
    # without the objects TopSim compares the messages with something else: another number
    bare = tmp_path / "bare.jsonl"
    bare.write_text(
        "".join(
            json.dumps({k: v for k, v in json.loads(x).items() if k != "object"}) + "\n"
            for x in log.read_text().splitlines()
        )
    )
    other, _ = evaluate_log_file(bare, write_json=False)
    assert not other.topsim == pytest.approx(row["topsim"], abs=1e-6)
