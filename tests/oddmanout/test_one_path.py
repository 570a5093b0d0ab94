"""One path: `wordgames oddmanout evaluate` is `wordgames.evaluate` on the same options, and its
`-o DIR` is a results store the report reads."""

from __future__ import annotations

import json
import math

import pytest
from typer.testing import CliRunner

import wordgames
from tests.conftest import require_dataset
from wordgames.cli import app
from wordgames.measure import Score

# upstream layout: CATEGORY, ODD-MAN, four others; "zzqxw" is out of GloVe's vocabulary
PUZZLES = (
    "fruit\tgrass\tcherry\torange\tapple\tgrape\n"
    "animals\tcar\tdog\tcat\thorse\tcow\n"
    "colors\ttable\tred\tblue\tgreen\tyellow\n"
    "tools\tbanana\thammer\tsaw\tdrill\twrench\n"
    "weather\tpiano\train\tsnow\twind\tzzqxw\n"
    "music\tcarrot\tguitar\tviolin\tdrum\tflute\n"
)


def _table(scores) -> dict:
    """Every Score row by its key, NaN made comparable."""

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


def _stored_scores(folder):
    from wordgames.report import load_results

    collection = load_results(folder)
    return [s for e in collection.entries for s in e.scores]


@pytest.mark.slow
def test_cli_and_api_agree_on_a_puzzle_file(tmp_path, glove):
    from wordgames.oddmanout import EmbeddingSolver, read_puzzles, score

    puzzles = tmp_path / "toy.tsv"
    puzzles.write_text(PUZZLES, encoding="utf-8")
    out, js = tmp_path / "store", tmp_path / "omo.json"
    r = CliRunner().invoke(
        app,
        [
            "oddmanout",
            "evaluate",
            "--puzzles",
            str(puzzles),
            "--no-wordnet",
            "-o",
            str(out),
            "--json",
            str(js),
        ],
    )
    assert r.exit_code == 0, r.output
    api = wordgames.evaluate(
        "glove-6b-50d",
        measures=["oddmanout"],
        options={"oddmanout": {"sets": [], "puzzles": [str(puzzles)], "wordnet": False}},
    )
    stored = _stored_scores(out)
    assert len(api.scores) == 4  # one set x (pct_correct, pct_wrong, pct_abstained, accuracy)
    assert _table(stored) == _table(api.scores)
    # the numbers are those of the solver itself (seed 0, the default of both)
    ps = read_puzzles(puzzles, seed=0)
    s = score(ps, EmbeddingSolver(glove).solve(ps))
    row = {x.metric: x for x in api.scores}
    assert row["pct_correct"].value == s["pct_correct"] and row["pct_correct"].n == 6
    assert row["accuracy_answered"].value == s["accuracy_answered"]
    # the OOV puzzle is abstained on: inside n, counted as n_oov (one meaning of n)
    assert (row["pct_abstained"].n_oov, row["pct_abstained"].n_skipped) == (1, 0)
    assert "not in the embedding" in row["pct_abstained"].skip_reason
    assert {x.dataset for x in api.scores} == {"toy"} and {x.agent for x in api.scores} == {
        "embedding"
    }
    # the --json extra is the same result record
    record = json.loads(js.read_text())
    assert _table(map(Score.from_dict, record["results"][0]["scores"])) == _table(
        api.result("oddmanout").scores
    )
    assert f"{s['pct_correct']:5.1f}" in r.output


def test_cli_and_api_agree_on_a_published_set(tmp_path):
    require_dataset("oddmanout-anomia")
    out = tmp_path / "store"
    r = CliRunner().invoke(
        app,
        [
            "oddmanout",
            "evaluate",
            "--set",
            "anomia-common-test",
            "--no-wordnet",
            "--mwe",
            "mean",
            "--seed",
            "3",
            "-o",
            str(out),
        ],
    )
    assert r.exit_code == 0, r.output
    api = wordgames.evaluate(
        "glove-6b-50d",
        measures=["oddmanout"],
        seed=3,
        options={"oddmanout": {"sets": ["anomia-common-test"], "wordnet": False, "mwe": "mean"}},
    )
    assert len(api.scores) == 4
    assert _table(_stored_scores(out)) == _table(api.scores)
    assert api.result("oddmanout").parameters["mwe"] == "mean"


@pytest.mark.slow
def test_cli_reuses_the_store(tmp_path):
    puzzles = tmp_path / "toy.tsv"
    puzzles.write_text(PUZZLES, encoding="utf-8")
    out = tmp_path / "store"
    args = ["oddmanout", "evaluate", "--puzzles", str(puzzles), "--no-wordnet", "-o", str(out)]
    first = CliRunner().invoke(app, args)
    again = CliRunner().invoke(app, args)
    assert first.exit_code == 0 and again.exit_code == 0, again.output
    assert "1 of 1 result(s) missing" in first.output
    assert "0 of 1 result(s) missing" in again.output


def test_unknown_option_value_is_an_error(tmp_path):
    puzzles = tmp_path / "toy.tsv"
    puzzles.write_text(PUZZLES, encoding="utf-8")
    r = CliRunner().invoke(
        app, ["oddmanout", "evaluate", "--puzzles", str(puzzles), "--no-wordnet", "--mwe", "glue"]
    )
    assert r.exit_code == 2
    assert "mwe" in r.output and "glue" in r.output


@pytest.mark.parametrize("bad", [["--set", "anomia-common-tset"]])
def test_unknown_set_is_named(bad):
    r = CliRunner().invoke(app, ["oddmanout", "evaluate", *bad, "--no-wordnet"])
    assert r.exit_code == 2
    assert "anomia-common-tset" in r.output
