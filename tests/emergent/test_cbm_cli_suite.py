"""`wordgames cbm evaluate`, the suite entry point, the result record and the graph picture."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest
from typer.testing import CliRunner

from wordgames.emergent.inputs import read_log
from wordgames.emergent.measures import evaluate_language, report_to_result
from wordgames.emergent.plots import plot_best_match_graph
from wordgames.emergent.spec import CBMOptions
from wordgames.errors import DataFormatError, SkipMeasure
from wordgames.measure import MeasureContext, MeasureResult


def _log(path: Path, n=60) -> Path:
    # paraphrasing language: red said "1" or "2", blue "3"; EOS 0
    rng = np.random.default_rng(0)
    with open(path, "w", encoding="utf-8") as fh:
        for _ in range(n):
            red = bool(rng.random() < 0.5)
            msg = [int(rng.choice([1, 2])) if red else 3, 0, 5]
            fh.write(
                json.dumps({"message": msg, "concepts": ["color=red" if red else "color=blue"]})
                + "\n"
            )
    return path


def test_cli_evaluate_writes_record_and_graph(tmp_path):
    from wordgames.cli import app

    log = _log(tmp_path / "run1.jsonl")
    out = tmp_path / "out"
    res = CliRunner().invoke(app, ["cbm", "evaluate", str(log), "--out", str(out), "--eos-id", "0"])
    assert res.exit_code == 0, res.output
    record = json.loads((out / "cbm_run1.json").read_text())
    assert record["measure"] == "cbm"
    m = MeasureResult.from_dict(record)
    # "5" after EOS is never a word: 3 words; the paraphrase word is the lighter of 1 and 2
    assert m.value("n_unique_words") == 3 and m.value("n_matched") == 2
    assert m.value("cbm") + m.value("paraphrase_rate") == pytest.approx(1.0)
    assert {s.dataset for s in m.scores} == {"run1"}
    assert {r["concept"] for r in record["tables"]["translation"]} == {"color=red", "color=blue"}
    # -o is a results store: plots go under plots/<embedding>/<measure>/ (CBM is keyed under the
    # default embedding, whose vectors it never reads); the record, in OUT, names them relative
    # to OUT (results are moved and merged as folders)
    rel = "plots/glove-6b-50d/cbm/cbm_graph_run1.png"
    png = out / rel
    assert record["plots"] == [rel] and png.stat().st_size > 1000
    assert f"graph: {png}" in res.output
    assert "translation" in res.output


def test_cli_reports_bad_file(tmp_path):
    from wordgames.cli import app

    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"message": [1], "concepts": ["a"]}\nnot json\n')
    res = CliRunner().invoke(app, ["cbm", "evaluate", str(bad), "--out", str(tmp_path / "o")])
    assert res.exit_code == 2
    text = " ".join(res.output.split())  # rich wraps long lines
    assert "bad.jsonl, line 2: invalid JSON" in text


def test_suite_skips_without_logs_and_evaluates_given_logs(tmp_path, monkeypatch):
    from wordgames.emergent import shipped
    from wordgames.emergent.suite import run

    emb = SimpleNamespace(name="glove-test")

    def ctx(**options):
        return MeasureContext(options=CBMOptions(**options), out_dir=tmp_path, measure="cbm")

    # no logs given and none shipped (a stripped install): skipped, saying both
    monkeypatch.setattr(shipped, "shipped_folder", lambda: tmp_path / "none")
    with pytest.raises(SkipMeasure, match=r"--cbm-log.*ships no trained runs"):
        run(emb, ctx())
    a, b = _log(tmp_path / "a.jsonl", 40), _log(tmp_path / "b.jsonl", 50)
    res = run(emb, ctx(logs=(str(a), str(b)), eos_id=0))
    assert res.measure == "cbm" and res.value("n_samples", "a") == 40
    assert res.value("n_samples", "b") == 50 and 0 < res.value("cbm", "b") <= 1
    assert {r["log"] for r in res.tables["translation"]} == {"a", "b"}
    assert len(res.plots) == 2 and all(Path(p).is_file() for p in res.plots)
    single = run(emb, ctx(logs=(str(a),), eos_id=0))
    assert single.value("cbm", "a") == res.value("cbm", "a")
    json.dumps(single.as_dict())  # JSON-safe


def test_result_record_and_report_dict():
    r = evaluate_language([["a"], ["b"], ["c"], ["a"]], [["red"], ["red"], ["blue"], ["red"]])
    d = r.as_dict()
    assert d["cbm"] == 0.75 and d["translation"]["a"] == ["red", 2.0]
    assert d["topsim_input"] == "concepts"
    json.dumps(d)
    res = report_to_result(r)
    assert res.value("cbm") == 0.75 and res.value("paraphrase_rate") == 0.25
    row = res.tables["translation"][0]
    # "a" is in 2 messages, both for red: share 1; red is in 3 messages, 2 with "a"
    assert row == {
        "log": "",
        "word": "a",
        "concept": "red",
        "weight": 2.0,
        "word_uses": 2,
        "share": 1.0,
        "concept_uses": 3,
        "concept_share": pytest.approx(2 / 3),
    }
    assert res.tables["sensitivity"] == [
        {"log": "", "n_samples": 4, "accumulated": 0.75, "segment": 0.75}
    ]


def test_graph_picture_is_written(tmp_path):
    rng = np.random.default_rng(0)
    msgs = rng.integers(1, 90, (400, 3))
    labels = [[f"f{k}=v{rng.integers(0, 9)}" for k in range(2)] for _ in range(400)]
    r = evaluate_language(msgs, labels, measures=("cbm",))
    p = plot_best_match_graph(r.cbm_result, tmp_path / "g.png", max_nodes=30, max_edges=50)
    assert p.is_file() and p.stat().st_size > 1000


def test_sensitivity_curve_and_table1_row(tmp_path):
    from wordgames.emergent.logfile import evaluate_log_file

    log = _log(tmp_path / "long.jsonl", n=350)
    report, result = evaluate_log_file(log, out_dir=tmp_path / "o", eos_id=0)
    assert [Path(p).name for p in result.plots] == [
        "cbm_graph_long.png",
        "cbm_sensitivity_long.png",
    ]
    assert [r["n_samples"] for r in result.tables["sensitivity"]] == [100, 200, 300, 350]
    acc = [r["accumulated"] for r in report.sensitivity]
    assert result.value("sensitivity_accumulated_std", "long") == pytest.approx(np.std(acc))
    row = report.table1_row()
    assert row["CBM"] == report.cbm and row["Para"] == report.paraphrase_rate
    assert (row["Cons"], row["Phrs"], row["#w"], row["#m"]) == (2, 2, 3, 3)


def test_a_games_log_gives_its_accuracy_with_an_interval(tmp_path):
    import wordgames

    log = tmp_path / "game.jsonl"
    acc = [1.0, 0.5, 0.75, 1.0] * 10
    log.write_text(
        "".join(
            json.dumps({"message": [i % 3], "concepts": [f"c{i % 3}"], "accuracy": a}) + "\n"
            for i, a in enumerate(acc)
        )
    )
    res = wordgames.evaluate(measures=["cbm"], options={"cbm": {"logs": [str(log)]}})
    row = res.result("cbm").find("accuracy", "game")
    assert row.value == pytest.approx(0.8125) and row.n == 40  # (1 + .5 + .75 + 1) / 4
    assert 0.5 <= row.ci_low < row.value < row.ci_high <= 1.0
    assert row.direction == "higher"
    lines = log.read_text().splitlines()
    lines[2] = json.dumps({"message": [2], "concepts": ["c2"], "accuracy": 1.5})
    log.write_text("\n".join(lines) + "\n")
    with pytest.raises(DataFormatError, match=r"line 3: 'accuracy' must be a number in \[0, 1\]"):
        read_log(log)
    lines[2] = json.dumps({"message": [2], "concepts": ["c2"]})
    log.write_text("\n".join(lines) + "\n")
    with pytest.raises(DataFormatError, match="line 3: 'accuracy' is given on some lines"):
        read_log(log)
