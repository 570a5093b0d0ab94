"""The `wordgames run` entry point of the benchmarks and the `wordgames similarity` commands."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from typer.testing import CliRunner

from wordgames.cli import app
from wordgames.compute import compute_unit
from wordgames.embeddings import Embedding
from wordgames.registry import get_measure

runner = CliRunner()


def test_suite_run_on_real_data(tmp_path, data_root):
    emb = Embedding(
        ["car", "automobile", "gem", "jewel", "noon", "string"],
        np.array([[1, 0], [0.9, 0.1], [0, 1], [0.1, 0.9], [-1, 0], [0.5, -0.5]]),
        name="tiny",
    )
    res = compute_unit(
        get_measure("similarity"),
        emb,
        out_dir=tmp_path,
        data_root=data_root,
        options={"benchmarks": ["mc30", "ws353-all"], "oov": "fixed", "oov_similarity": 0.0},
    )
    assert res.measure == "similarity"
    assert set(res.datasets["word-similarity"]) >= {"EN-MC-30.txt", "EN-WS-353-ALL.txt"}
    row = res.find("spearman", "mc30")
    assert row.n + row.n_skipped == 30
    # only car-automobile, gem-jewel and noon-string have both words in this vocabulary
    assert row.n_oov == 30 - 3 and row.n == 30  # under oov="fixed" they are scored
    assert res.oov["mc30"]["oov_pairs"] == 27 and res.oov["policy"] == "fixed"
    assert res.parameters["oov"] == "fixed"
    assert any("ws353-all: repaired" in n and "lowercased_rows=18" in n for n in res.notes)
    assert (tmp_path / "plots" / "tiny" / "similarity" / "similarity.png").is_file()


def _glove_text(tmp_path):
    p = tmp_path / "vecs.txt"
    p.write_text("a 1 0\nb 0.8 0.6\nc 0.6 0.8\nd 0 1\n")
    return p


def test_cli_evaluate_own_tsv(tmp_path):
    vecs = _glove_text(tmp_path)
    bench = tmp_path / "mine.tsv"
    bench.write_text("a\tb\t3\na\tc\t1\na\td\t2\nb\tc\t4\nA\tzzz\t1\n")
    out = tmp_path / "out.json"
    r = runner.invoke(
        app,
        [
            "similarity",
            "evaluate",
            "-e",
            str(vecs),
            "--tsv",
            str(bench),
            "--only-tsv",
            "--json",
            str(out),
        ],
    )
    assert r.exit_code == 0, r.output
    row = json.loads(out.read_text())["tables"]["scores"]["vecs"][0]
    assert row["benchmark"] == "mine"
    assert row["spearman"] == pytest.approx(0.8) and row["n_oov_pairs"] == 1
    assert "oov pairs" in r.output


def test_cli_evaluate_bad_tsv_names_the_line(tmp_path):
    bench = tmp_path / "bad.tsv"
    bench.write_text("a\tb\t3\na\tb\n")
    r = runner.invoke(app, ["similarity", "evaluate", "--tsv", str(bench), "--only-tsv"])
    assert r.exit_code == 2
    assert "line 2" in r.output and "expected 3 tab-separated columns" in r.output


def test_cli_global_metrics(tmp_path):
    vecs = _glove_text(tmp_path)
    out = tmp_path / "g.json"
    r = runner.invoke(app, ["similarity", "global-metrics", "-e", str(vecs), "--json", str(out)])
    assert r.exit_code == 0, r.output
    m = json.loads(out.read_text())["tables"]["metrics"]["vecs"]
    s = np.linalg.svd(np.array([[1, 0], [0.8, 0.6], [0.6, 0.8], [0, 1]]), compute_uv=False)
    q = s / s.sum()
    assert m["erank"] == pytest.approx(float(np.exp(-(q * np.log(q)).sum())), abs=1e-6)


def test_cli_correlate_table_and_refusal(tmp_path):
    csv = tmp_path / "scores.csv"
    csv.write_text(
        "embedding,wales/score,men/spearman,erank\n"
        "e1,0.1,0.5,3\ne2,0.2,0.6,1\ne3,0.3,0.7,2\ne4,0.4,0.65,4\n"
    )
    r = runner.invoke(
        app, ["similarity", "correlate", "--table", str(csv), "-o", str(tmp_path / "o")]
    )
    assert r.exit_code == 0, r.output
    got = json.loads((tmp_path / "o" / "correlation.json").read_text())["correlation"]
    rows = {x["metric"]: x for x in got["with_reference"]}
    # men ranks (1, 2, 4, 3) and erank ranks (3, 1, 2, 4) against (1, 2, 3, 4)
    assert rows["men/spearman"]["spearman"] == pytest.approx(0.8)
    assert rows["erank"]["spearman"] == pytest.approx(0.4)
    # the printed coefficients are the typed Score rows stored in correlation.json, each with
    # its Fisher-z interval: atanh(0.8) +- 1.96 * sqrt((1 + 0.8**2 / 2) / (4 - 3))
    scores = {s["metric"]: s for s in got["scores"]}
    men = scores["men/spearman"]
    assert (men["value"], men["n"], men["agent"]) == (pytest.approx(0.8), 4, "wales/score")
    half = 1.959964 * math.sqrt(1.32)
    assert men["ci_low"] == pytest.approx(math.tanh(math.atanh(0.8) - half), abs=1e-6)
    assert men["ci_high"] == pytest.approx(math.tanh(math.atanh(0.8) + half), abs=1e-6)
    assert "95% CI" in r.output and f"[{men['ci_low']:.3f}, {men['ci_high']:.3f}]" in r.output
    assert (tmp_path / "o" / "plots" / "correlation" / "correlation_matrix.png").is_file()
    csv.write_text("embedding,wales/score,erank\ne1,0.1,3\ne2,0.2,1\n")
    r = runner.invoke(
        app, ["similarity", "correlate", "--table", str(csv), "-o", str(tmp_path / "o2")]
    )
    assert r.exit_code == 2 and "at least 3 embeddings, got 2" in r.output


def test_cli_family_lists_members():
    r = runner.invoke(app, ["similarity", "family"])
    assert r.exit_code == 0 and "glove-6b-50d-pca10" in r.output and "random-50d" in r.output
