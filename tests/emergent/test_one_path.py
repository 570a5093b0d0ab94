"""One path: `wordgames cbm evaluate` is `wordgames.evaluate` on the same options, and its
`-o DIR` is a results store the report reads."""

from __future__ import annotations

import json
import math

import numpy as np
from typer.testing import CliRunner

import wordgames
from wordgames.cli import app
from wordgames.measure import Score


def _log(path, n=150):
    # color is said with word 1 or 2 (a paraphrase), shape with 3 or 4; EOS 0 then noise
    rng = np.random.default_rng(7)
    with open(path, "w", encoding="utf-8") as fh:
        for _ in range(n):
            red, box = bool(rng.random() < 0.5), bool(rng.random() < 0.5)
            msg = [int(rng.choice([1, 2])) if red else 5, 3 if box else 4, 0, 9]
            fh.write(
                json.dumps(
                    {
                        "message": msg,
                        "concepts": [
                            "color=red" if red else "color=blue",
                            "shape=box" if box else "shape=orb",
                        ],
                    }
                )
                + "\n"
            )
    return path


def _table(scores) -> dict:
    def num(v):
        return "nan" if isinstance(v, float) and math.isnan(v) else v

    return {
        s.key: (
            num(s.value),
            num(s.ci_low),
            num(s.ci_high),
            s.n,
            s.n_skipped,
            s.skip_reason,
            s.direction,
        )
        for s in scores
    }


def test_cli_and_api_agree(tmp_path):
    from wordgames.emergent import evaluate_language, read_log
    from wordgames.registry import get_measure
    from wordgames.report import load_results

    log = _log(tmp_path / "run7.jsonl")
    out = tmp_path / "store"
    r = CliRunner().invoke(
        app, ["cbm", "evaluate", str(log), "-o", str(out), "--eos-id", "0", "--seed", "2"]
    )
    assert r.exit_code == 0, r.output
    api = wordgames.evaluate(
        measures=["cbm"], seed=2, options={"cbm": {"logs": [str(log)], "eos_id": 0}}
    )
    stored = [s for e in load_results(out).entries for s in e.scores]
    assert _table(stored) == _table(api.scores)
    # every declared metric, nothing else (accuracy needs a game's log with per-turn accuracy)
    declared = {m.name for m in get_measure("cbm").metrics} - {"accuracy"}
    assert {s.metric for s in api.scores} == declared
    assert {s.dataset for s in api.scores} == {"run7"} and {s.agent for s in api.scores} == {""}
    # the numbers are those of the language measures themselves
    lang = read_log(log)
    report = evaluate_language(lang.messages, lang.concepts, eos_id=0, random_state=2)
    by_metric = {s.metric: s for s in api.scores}
    assert by_metric["cbm"].value == report.cbm and by_metric["cbm"].n == 150
    assert by_metric["topsim"].value == report.topsim
    assert by_metric["topsim"].n == 150 * 149 // 2 and by_metric["topsim"].n_skipped == 0
    assert by_metric["cbm"].direction == "higher" and by_metric["n_samples"].direction is None
    # the per-log record beside the store is the same result
    record = json.loads((out / "cbm_run7.json").read_text())
    assert _table(map(Score.from_dict, record["scores"])) == _table(api.result("cbm").scores)


def test_run_command_gives_the_same_scores(tmp_path):
    log = _log(tmp_path / "run8.jsonl", n=250)  # > 100: with the sensitivity spread
    a, b = tmp_path / "a", tmp_path / "b"
    r1 = CliRunner().invoke(app, ["cbm", "evaluate", str(log), "-o", str(a), "--eos-id", "0"])
    r2 = CliRunner().invoke(
        app, ["run", "-m", "cbm", "--cbm-log", str(log), "--cbm-eos-id", "0", "-o", str(b)]
    )
    assert r1.exit_code == 0, r1.output
    assert r2.exit_code == 0, r2.output
    from wordgames.registry import get_measure
    from wordgames.report import load_results

    ta = _table([s for e in load_results(a).entries for s in e.scores])
    tb = _table([s for e in load_results(b).entries for s in e.scores])
    assert ta == tb and len(ta) == len(get_measure("cbm").metrics) - 1  # no accuracy here


def test_quick_runs_cap_topsim_pairs(tmp_path):
    log = _log(tmp_path / "big.jsonl", n=600)
    full = wordgames.evaluate(
        measures=["cbm"],
        options={"cbm": {"logs": [str(log)], "eos_id": 0, "topsim_max_pairs": 10_000}},
    )
    s = {x.metric: x for x in full.scores}
    # 600 messages = 179,700 pairs > 10,000: all pairs of a subset of 141 messages
    assert s["topsim"].n == 141 * 140 // 2
    assert s["topsim"].n_skipped == 600 * 599 // 2 - 141 * 140 // 2
    assert "topsim_max_pairs" in s["topsim"].skip_reason
