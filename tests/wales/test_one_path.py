"""One path: the family commands and ``wordgames.evaluate`` give the same Score rows, and the
commands' ``-o`` folder is a results store that the report reads."""

from __future__ import annotations

import math

import pytest
from typer.testing import CliRunner

import wordgames
from tests.conftest import require_dataset
from wordgames.cli import app

runner = CliRunner()

# small WALES settings: a few tasks of one power law and one top-b% set, one gamma
WALES = {
    "k": 30,
    "human_k": 30,
    "gammas": [1.0],
    "exponents": [8.0],
    "percents": [50.0],
    "table1_trials": 2,
    "table1_pool": 50,
    "w_path_pairs": 50,
}
WALES_FLAGS = [
    "--k",
    "30",
    "--human-k",
    "30",
    "--gamma",
    "1",
    "--exponent",
    "8",
    "--percent",
    "50",
    "--trials",
    "2",
    "--table1-pool",
    "50",
    "--w-path-pairs",
    "50",
]


def _rows(scores) -> list[dict]:
    """Score rows as plain dicts (NaN as None, so that equal rows compare equal), sorted."""
    out = []
    for s in scores:
        d = s.as_dict()
        out.append({k: None if isinstance(v, float) and math.isnan(v) else v for k, v in d.items()})
    return sorted(
        out, key=lambda d: (d["subject"], d["measure"], d["dataset"], d["agent"], d["metric"])
    )


def _stored_rows(folder, measure: str) -> list[dict]:
    from wordgames.report import load_results

    coll = load_results(folder)
    entries = [e for e in coll.entries if e.measure == measure]
    assert entries, f"no {measure} result in the store of {folder}"
    return _rows([s for e in entries for s in e.scores])


@pytest.mark.slow
def test_wales_command_and_api_agree(tmp_path, data_root):
    require_dataset("wikispeedia")
    out = tmp_path / "wales"
    r = runner.invoke(
        app,
        [
            "wales",
            "evaluate",
            *WALES_FLAGS,
            "--seed",
            "0",
            "-o",
            str(out),
            "--data-root",
            str(data_root),
        ],
    )
    assert r.exit_code == 0, r.output
    res = wordgames.evaluate(
        "glove-6b-50d", ["wales"], options={"wales": WALES}, seed=0, data_root=data_root
    )
    api = _rows(res.scores)
    # every kind of row is there: the greedy agent per task set, the sweep, w-path, coverage
    assert {(d["dataset"], d["agent"], d["metric"]) for d in api} >= {
        ("human", "greedy", "score"),
        ("powerlaw-a8", "greedy", "score_nodes"),
        ("top-b50", "greedy", "failure_rate"),
        ("powerlaw-a16", "greedy(gamma=1)", "score"),
        ("wikispeedia-lscc", "w-path", "w_path"),
        ("wikispeedia-lscc", "", "title_coverage"),
    }
    human = next(
        d for d in api if (d["dataset"], d["agent"], d["metric"]) == ("human", "greedy", "score")
    )
    assert human["n"] + human["n_skipped"] == 30 and human["ci_low"] < human["value"]
    # the command's store, read by the report, holds the same rows number for number
    assert _stored_rows(out, "wales") == api
    # and every option was mapped (Table 1 has no Score rows: compare the options themselves)
    from wordgames.report import load_results

    stored = next(e for e in load_results(out).entries if e.measure == "wales")
    assert stored.result["parameters"]["options"] == res.result("wales").parameters["options"]
    (row,) = [
        r
        for r in res.result("wales").tables["distributions"]
        if (r["task_set"], r["convention"]) == ("human", "edges")
    ]
    assert row["score"] == human["value"]


@pytest.mark.parametrize("only_tsv", [True, False])
def test_similarity_command_and_api_agree(tmp_path, data_root, only_tsv):
    vecs = tmp_path / "vecs.txt"
    vecs.write_text("a 1 0\nb 0.8 0.6\nc 0.6 0.8\nd 0 1\ncar 1 0.1\nautomobile 0.9 0.2\n")
    bench = tmp_path / "mine.tsv"
    bench.write_text("a\tb\t3\na\tc\t1\na\td\t2\nb\tc\t4\nA\tzzz\t1\n")
    out = tmp_path / "sim"
    flags = ["--only-tsv"] if only_tsv else ["-b", "mc30", "-b", "rg65"]
    r = runner.invoke(
        app,
        [
            "similarity",
            "evaluate",
            "-e",
            str(vecs),
            "--tsv",
            str(bench),
            *flags,
            "--oov",
            "fixed",
            "-o",
            str(out),
            "--data-root",
            str(data_root),
        ],
    )
    assert r.exit_code == 0, r.output
    options = {
        "benchmarks": [] if only_tsv else ["mc30", "rg65"],
        "extra": [str(bench)],
        "oov": "fixed",
    }
    res = wordgames.evaluate(
        str(vecs), ["similarity"], options={"similarity": options}, data_root=data_root
    )
    api = _rows(res.scores)
    assert {d["dataset"] for d in api} == ({"mine"} if only_tsv else {"mine", "mc30", "rg65"})
    mine = next(d for d in api if (d["dataset"], d["metric"]) == ("mine", "spearman"))
    assert mine["n"] == 5 and mine["n_skipped"] == 0  # the zzz pair is kept, scored as fixed
    assert _stored_rows(out, "similarity") == api


def test_global_metrics_command_and_api_agree(tmp_path):
    vecs = tmp_path / "vecs.txt"
    vecs.write_text("a 1 0\nb 0.8 0.6\nc 0.6 0.8\nd 0 1\n")
    out = tmp_path / "gm"
    r = runner.invoke(
        app,
        [
            "similarity",
            "global-metrics",
            "-e",
            str(vecs),
            "--center",
            "--perank-p",
            "2",
            "-o",
            str(out),
        ],
    )
    assert r.exit_code == 0, r.output
    res = wordgames.evaluate(
        str(vecs), ["global-metrics"], options={"global-metrics": {"center": True, "perank_p": 2.0}}
    )
    api = _rows(res.scores)
    assert ("p=2.0", "perank") in {(d["agent"], d["metric"]) for d in api}
    assert _stored_rows(out, "global-metrics") == api
