"""The paper's presets, resuming a run from its checkpoint, and the tables beside the paper's."""

from __future__ import annotations

import json

import numpy as np
import pytest

from wordgames.emergent.games.presets import (
    PRESETS,
    TABLE1_PAPER,
    TABLE2,
    TABLE3_PAPER,
    TABLE4_PAPER,
    get_preset,
)
from wordgames.emergent.games.worlds import ThingWorld


def test_every_preset_validates_and_there_is_one_per_paper_row():
    assert [p.validate().name for p in PRESETS.values()][:8] == [
        "shape-gs-l1",
        "shape-qt-l1",
        "shape-gs-l4",
        "shape-qt-l4",
        "thing-gs-l1",
        "thing-qt-l1",
        "thing-gs-l4",
        "thing-qt-l4",
    ]
    assert [n for n in PRESETS if n.startswith("d")] == [f"d{i:02d}" for i in range(1, 17)]
    with pytest.raises(ValueError, match="unknown preset"):
        get_preset("thing-qt-l2")


def test_presets_carry_the_papers_settings():
    # Table 2: batch 10, lr 0.0005, LSTM, sender 60/60, receiver 40/40
    assert TABLE2 == {
        "batch_size": 10,
        "lr": 0.0005,
        "cell": "lstm",
        "sender_hidden": 60,
        "sender_embed": 60,
        "receiver_hidden": 40,
        "receiver_embed": 40,
    }
    qt = get_preset("thing-qt-l1").trainer_params()
    # #w = #m = 50 in Table 1: one-word messages of 6 bits; 20 targets and 20 distractors
    assert (qt["word_dim"], qt["max_len"], qt["eos"]) == (6, 1, False)
    assert (qt["n_targets"], qt["n_distractors"], qt["batch_size"], qt["cell"]) == (
        20,
        20,
        10,
        "lstm",
    )
    gs4 = get_preset("thing-gs-l4").trainer_params()
    assert (gs4["vocab_size"], gs4["max_len"], gs4["eos"]) == (50, 4, True)
    assert get_preset("shape-qt-l4").trainer_params()["word_dim"] == 5
    assert get_preset("shape-gs-l1").trainer_params()["vocab_size"] == 17
    # appendix D: 8 + 8 candidates; experiment 11 is Thing, GS, l = 4, 8 words, 1-word messages
    d11 = get_preset("d11").trainer_params()
    assert (d11["world"], d11["channel"], d11["rule_length"]) == ("thing", "gs", 4)
    assert (d11["vocab_size"], d11["max_len"], d11["n_targets"], d11["n_distractors"]) == (
        8,
        1,
        8,
        8,
    )
    d06 = get_preset("d06").trainer_params()
    assert (d06["word_dim"], d06["max_len"]) == (64, 4)
    # appendix C: the Thing input is 270-dimensional
    assert ThingWorld(**qt["world_params"]).feature_shape == (270,)


def test_the_papers_tables_hold_their_identities():
    # Table 1: CBM + Amb + Para = 1 in every row (to the printed rounding)
    for row in TABLE1_PAPER:
        cbm, amb, para = row[11:14]
        assert abs(cbm + amb + para - 1.0) <= 0.011, row
    # Table 4 (1000 test samples): Good + Amb + Phrs edges = the word occurrences, 1000 x the
    # message length; Totl Edgs = Q = 1000 x max(message length, rule length)
    for row3, row4 in zip(TABLE3_PAPER, TABLE4_PAPER, strict=True):
        rule, msg = row3[3], row3[5]
        assert row4[6] + row4[7] + row4[8] == 1000 * msg, row4
        assert row4[5] == 1000 * max(rule, msg), row4


def test_thing_token_encoding_is_five_one_hots_over_54_tokens():
    w = ThingWorld(encoding="tokens")
    x = w.features(np.array([[9, 0, 0, 0, 9]]))
    assert x.shape == (1, 270) and x.sum() == 5
    # attribute 0 value 9 is token 4 + 9 = 13; attribute 4 value 9 is token 4 + 49 = 53
    assert x[0].nonzero()[0].tolist() == [13, 54 + 14, 108 + 24, 162 + 34, 216 + 53]
    with pytest.raises(ValueError, match="encoding"):
        ThingWorld(encoding="bits")


def test_stop_weights_by_hand():
    torch = pytest.importorskip("torch")
    from wordgames.emergent.games.agents import stop_weights

    # P(EOS) 0.5 at word 1, 0.5 at word 2: stop after 1: 0.5, after 2: 0.25, after 3: 0.25
    words = torch.tensor([[[0.5, 0.5], [0.5, 0.5], [0.1, 0.9]]])
    assert stop_weights(words, eos=True).tolist() == [[0.5, 0.25, 0.25]]
    assert stop_weights(words, eos=False).tolist() == [[0.0, 0.0, 1.0]]


def test_64_bit_words_get_distinct_ids():
    torch = pytest.importorskip("torch")
    from wordgames.emergent.games.channels import QuantizedChannel

    ch = QuantizedChannel(word_dim=64)
    bits = torch.zeros(3, 64)
    bits[1, 63] = 1
    bits[2, [0, 63]] = 1
    ids = ch.word_ids(bits).tolist()
    assert ids == [0, -(2**63), -(2**63) + 1] and len(set(ids)) == 3


def _tiny(out, steps, extra=()):
    return [
        "cbm", "train", "--world", "thing", "--channel", "gs", "--rule-length", "2",
        "--max-len", "3", "--eos", "--cell", "lstm", "--vocab-size", "6", "--steps", str(steps),
        "--eval-every", "10", "--seed", "5", "--n-targets", "3", "--n-distractors", "3",
        "--hidden", "12", "--embed", "6", "--batch-size", "6", "--val-turns", "20",
        "--test-turns", "40", "--out", str(out), *extra,
    ]  # fmt: skip


@pytest.mark.slow
def test_resumed_run_equals_the_uninterrupted_run(tmp_path):
    torch = pytest.importorskip("torch")
    from typer.testing import CliRunner

    from wordgames.cli import app

    runner = CliRunner()
    whole, parts = tmp_path / "whole", tmp_path / "parts"
    assert runner.invoke(app, _tiny(whole, 40)).exit_code == 0
    res = runner.invoke(app, _tiny(parts, 20))
    assert res.exit_code == 0, res.output
    res = runner.invoke(app, _tiny(parts, 40))  # same folder: resumes at step 20
    assert res.exit_code == 0 and "resuming" in res.output, res.output

    a = torch.load(whole / "agents.pt", weights_only=True)
    b = torch.load(parts / "agents.pt", weights_only=True)
    for agent in ("sender", "receiver"):
        assert a[agent].keys() == b[agent].keys()
        assert all(torch.equal(a[agent][k], b[agent][k]) for k in a[agent])

    def log(run):
        recs = [json.loads(x) for x in (run / "train_log.jsonl").read_text().splitlines()]
        return [{k: v for k, v in r.items() if k != "elapsed_s"} for r in recs]

    assert [r["step"] for r in log(parts)] == [10, 20, 30, 40]
    assert log(parts) == log(whole)
    assert (parts / "messages.jsonl").read_text() == (whole / "messages.jsonl").read_text()
    sessions = json.loads((parts / "eval.json").read_text())["parameters"]["sessions"]
    assert [(s["start_step"], s["device"], s["threads"]) for s in sessions] == [
        (0, "cpu", 1),
        (20, "cpu", 1),
    ]
    # a run folder resumes only with its own settings
    res = runner.invoke(app, _tiny(parts, 60, ["--lr", "0.1"]))
    assert res.exit_code == 2 and "lr" in res.output


def _fake_run(path, preset, game, com, ln, d, messages):
    """A run folder as `cbm train` writes it: the configuration in eval.json, and a message log.

    eval.json's recorded measures are deliberately wrong (-1): the table must measure the log.
    """
    path.mkdir(parents=True)
    (path / "messages.jsonl").write_text("".join(json.dumps(m) + "\n" for m in messages))
    wrong = dict.fromkeys(("Cons", "Phrs", "#w", "#m", "Acc", "TopSim", "AMI", "CBM"), -1)
    row = {"Game": game, "Com": com, "l": ln, "d": d, **wrong}
    rec = {"table1_row": row, "preset": preset, "language": {"cbm": -1},
           "parameters": {"n_steps": 1200, "train_seconds": 90.0, "max_len": 1,
                          "random_state": 0}}  # fmt: skip
    (path / "eval.json").write_text(json.dumps(rec))


def _turns(pattern, times):
    return [dict(m) for _ in range(times) for m in pattern]


def test_table_measures_each_log_and_prints_the_papers_values_beside_ours(tmp_path):
    from typer.testing import CliRunner

    from wordgames.cli import app

    # a: one word per concept, always right: CBM 1, AMI 1, Acc 1
    perfect = [{"message": [k + 1], "concepts": [f"f0=v{k}"], "accuracy": 1.0} for k in range(4)]
    _fake_run(tmp_path / "a", "thing-qt-l1", "Thing", "QT", 1, 6, _turns(perfect, 10))
    # b: one message for two concepts (20 each): CBM 20 / 40, AMI 0, Acc 0.5
    const = [{"message": [1], "concepts": [f"f0=v{k}"], "accuracy": float(k)} for k in (0, 1)]
    _fake_run(tmp_path / "b", None, "Thing", "GS", 1, 50, _turns(const, 20))
    # c: x 10 of three turns. Co-occurrence: w1-v1 10, w2-v1 20, w4-v1 10, w4-f1 10; best
    # match w2-v1 + w4-f1 = 30; Q = 10 x (max(3, 1) + max(1, 2) + max(0, 1)) = 60: CBM 0.5;
    # good 10 x (2 + 1), paraphrase 10 x 1 (w1), ambiguous 0; concepts 10 x 4, unmatched 10
    # (f3=v3); three distinct messages for three distinct labels: AMI 1
    q_case = [
        {"message": [1, 2, 2], "concepts": ["f0=v1"], "accuracy": 1.0},
        {"message": [4], "concepts": ["f0=v1", "f1=v2"], "accuracy": 1.0},
        {"message": [], "concepts": ["f3=v3"], "accuracy": 0.0},
    ]
    _fake_run(tmp_path / "c", "d13", "Thing", "QT", 1, 3, _turns(q_case, 10))
    runs = [str(tmp_path / x) for x in "abc"]
    res = CliRunner().invoke(
        app, ["cbm", "table", *runs, "-o", str(tmp_path / "out")], env={"COLUMNS": "400"}
    )
    assert res.exit_code == 0, res.output
    lines = res.output.splitlines()
    # Table 1 rows: ours (paper); the Thing QT l = 1 row of the paper: Acc 0.92, AMI 0.74, CBM 0.73
    qt = next(x for x in lines if x.startswith("| Thing | QT | 1 | 6 | 4 (50) | 4 (50) | 4 (50) |"))
    assert "| 1.00 (0.92) |" in qt and "| 1.00 (0.74) | 1.00 (0.73) |" in qt
    assert qt.endswith("| 1,200 steps, 1.5 min |")
    gs = next(x for x in lines if x.startswith("| Thing | GS | 1 | 50 |"))
    assert "| 0.50 (0.86) |" in gs and "| 0.00 (0.72) | 0.50 (0.38) |" in gs
    # appendix D run 13 in Tables 3 and 4 only
    assert not any(x.startswith("| Thing | QT | 1 | 3 |") for x in lines)
    t3 = next(x for x in lines if x.startswith("| 13 | Thing | qt | 1 | 3 | 4 |"))
    assert "| 0.667 (0.838) | 1.000 (0.267) | 0.500 (0.119) |" in t3
    t4 = next(x for x in lines if x.startswith("| 13 | 3 (412) | 3 (8) | 3 (50) | 3 (50) |"))
    assert "| 60 (4000) | 30 (478) | 0 (3522) | 10 (0) | 40 (1000) | 10 (795) |" in t4
    # (AMI, CBM) = (1, 1), (0, 0.5), (1, 0.5): deviations x (1, -2, 1) / 3, y (2, -1, -1) / 6;
    # sum of products 1/6, sums of squares 2/3 and 1/6: r = (1/6) / sqrt(1/9) = 0.5
    assert "Pearson(AMI, CBM), Thing: 0.50 over 3 runs (paper 0.79)" in res.output
    assert "Pearson(AMI, CBM), Shape: nan over 0 runs (paper 0.70)" in res.output
    # the numbers are stored: each run's results under OUT/runs, a second table reuses them
    stored = sorted((tmp_path / "out" / "runs").glob("*/results.json"))
    assert len(stored) == 3
    again = CliRunner().invoke(app, ["cbm", "table", *runs, "-o", str(tmp_path / "out")])
    assert again.exit_code == 0, again.output
    assert again.output.count("0 of 1 result(s) missing from the store") == 3


def test_a_thin_score_is_marked_and_left_out_of_the_correlation(tmp_path):
    from wordgames.emergent.games.runs import ami_cbm_correlation, format_table1, table_notes
    from wordgames.experiments import cbm_table

    perfect = [{"message": [k + 1], "concepts": [f"f0=v{k}"], "accuracy": 1.0} for k in range(4)]
    for name, times in (("a", 10), ("b", 2), ("c", 10), ("d", 10)):  # b: 8 turns, below 30
        turns = _turns(perfect, times)
        if name in "cd":  # two words for concept v0 in c, three in d: lower CBM
            v0 = [t for t in turns if t["concepts"] == ["f0=v0"]]
            for j, t in enumerate(v0):
                t["message"] = [10 + j % (2 if name == "c" else 3)]
        _fake_run(tmp_path / name, None, "Thing", "GS", 1, 50, turns)
    rows, results = cbm_table([tmp_path / x for x in "abcd"])
    thin = {r["run"][-1]: r["thin"] for r in rows}
    assert set(thin["b"]) >= {"AMI", "CBM", "Acc"} and not thin["a"]
    assert "n = 8 is below 30" in thin["b"]["CBM"]
    b = next(line for line in format_table1(rows).splitlines() if "| 0.00 |" not in line
             and line.count("†") >= 3)  # fmt: skip
    assert b.startswith("| Thing | GS | 1 | 50 |")
    assert any(n.startswith("† b CBM: thin (n = 8 is below 30)") for n in table_notes(rows))
    r, n = ami_cbm_correlation(rows)["Thing"]
    assert n == 3  # a, c and d; not b
    by_run = dict(zip("abcd", results, strict=True))
    ami, cbm = ([by_run[k].result("cbm").value(m, k) for k in "acd"] for m in ("ami", "cbm"))
    assert cbm == pytest.approx([1.0, 35 / 40, 34 / 40])  # v0's 10 turns: 5 + 5, 4 + 3 + 3 words
    assert r == pytest.approx(float(np.corrcoef(ami, cbm)[0, 1]), abs=1e-12)


def test_train_with_a_preset_records_it_and_keeps_it_on_resume(tmp_path):
    pytest.importorskip("torch")
    from typer.testing import CliRunner

    from wordgames.cli import app

    run = tmp_path / "d13"
    short = ["--steps", "20", "--eval-every", "10", "--val-turns", "20", "--test-turns", "40"]
    res = CliRunner().invoke(app, ["cbm", "train", "--preset", "d13", *short, "--out", str(run)])
    assert res.exit_code == 0, res.output
    assert json.loads((run / "run.json").read_text()) == {"preset": "d13"}
    config = json.loads((run / "config.json").read_text())
    # Table 3, experiment 13: Thing, QT, l = 1, 3-bit words, 4-word messages, 8 + 8, Table 2
    assert (config["world"], config["channel"], config["rule_length"]) == ("thing", "qt", 1)
    assert (config["word_dim"], config["max_len"], config["n_targets"]) == (3, 4, 8)
    assert (config["cell"], config["batch_size"], config["lr"]) == ("lstm", 10, 0.0005)
    rec = json.loads((run / "eval.json").read_text())
    assert rec["preset"] == "d13" and rec["n_turns"] == 40
    msgs = (run / "messages.jsonl").read_text().splitlines()
    assert all(len(json.loads(m)["message"]) == 4 for m in msgs)
    res = CliRunner().invoke(app, ["cbm", "train", "--preset", "d14", *short, "--out", str(run)])
    assert res.exit_code == 2 and "d13" in res.output
    res = CliRunner().invoke(app, ["cbm", "presets"])
    assert res.exit_code == 0 and "thing-qt-l1" in res.output and "d16" in res.output


def test_shapes_renders_every_shape_and_colour_and_one_turn(tmp_path):
    pytest.importorskip("matplotlib")
    from matplotlib.image import imread
    from typer.testing import CliRunner

    from wordgames.cli import app
    from wordgames.emergent.games.worlds import ShapeWorld
    from wordgames.emergent.plots import shape_sample_objects

    grid, turn = shape_sample_objects(seed=3)
    world = ShapeWorld()
    # the grid is the 30 shape x colour pairs, each object a valid Shape-world object
    assert sorted(map(tuple, grid[:, :2].tolist())) == [(s, c) for s in range(5) for c in range(6)]
    assert ((grid >= 0) & (grid < world.cardinalities)).all()
    # the turn: 8 targets of one colour, then 8 distractors of other colours
    assert turn.shape == (16, 4)
    assert (turn[:8, 1] == turn[0, 1]).all() and (turn[8:, 1] != turn[0, 1]).all()
    res = CliRunner().invoke(app, ["cbm", "shapes", "-o", str(tmp_path), "--seed", "3"])
    assert res.exit_code == 0, res.output
    img = imread(tmp_path / "shape_samples.png")
    assert img.shape[0] > 400 and img.shape[1] > 400
