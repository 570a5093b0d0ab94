"""The Python API: ``wordgames.evaluate``, the registry, typed options and Score rows."""

from __future__ import annotations

import json
import math
import subprocess
import sys

import numpy as np
import pytest

import wordgames
from wordgames.embeddings import Embedding
from wordgames.measure import Headline, Measure, Metric, OptionError, Score
from wordgames.registry import UnknownMeasureError, get_measure, list_measures


def _eye(name="eye", n=4):
    return Embedding([f"w{i}" for i in range(n)], np.eye(n) + 0.1, name=name)


def test_import_is_light_and_exports_the_api():
    probe = (
        "import sys, wordgames; "
        "print(sorted(m for m in ('numpy', 'pandas', 'scipy', 'matplotlib', 'torch', 'rich') "
        "if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
    assert {"evaluate", "list_measures", "load_embeddings", "Score"} <= set(wordgames.__all__)


def test_evaluate_in_memory_is_quiet_and_writes_nothing(tmp_path, monkeypatch, capfd):
    monkeypatch.chdir(tmp_path)
    res = wordgames.evaluate(_eye(), measures=["global-metrics"])
    out, err = capfd.readouterr()
    assert out == "" and err == ""
    assert list(tmp_path.iterdir()) == []  # no output folder, no plot
    df = res.to_frame()
    # erank of a 4x4 matrix with singular values 1.4, 1, 1, 1 (I + 0.1 * ones): hand-computed
    s = np.linalg.svd(np.eye(4) + 0.1, compute_uv=False)
    p = s / s.sum()
    erank = float(np.exp(-(p * np.log(p)).sum()))
    row = df[(df.metric == "erank")].iloc[0]
    assert row.value == pytest.approx(erank, rel=1e-5)
    assert (row.subject, row.measure, row.direction) == ("eye", "global-metrics", None)
    assert res.result("global-metrics").plots == []


def test_evaluate_accepts_the_embedding_protocol():
    class Mine:
        name = "mine"
        words = ["a", "b", "c"]
        vectors = np.diag([3.0, 2.0, 1.0])

    res = wordgames.evaluate(Mine(), measures="global-metrics")
    assert res.result("global-metrics").subject == "mine"
    assert res.result("global-metrics").value("rank") == 3


def test_similarity_scores_carry_n_and_oov(tmp_path):
    bench = tmp_path / "tiny.tsv"
    bench.write_text("w0\tw1\t1.0\nw0\tw2\t2.0\nw1\tw3\t3.0\nw0\tzzz\t4.0\n", encoding="utf-8")
    res = wordgames.evaluate(
        _eye(),
        measures=["similarity"],
        options={"similarity": {"benchmarks": ["mc30"], "extra": [str(bench)]}},
    )
    rows = {s.metric: s for s in res.scores if s.dataset == "tiny"}
    assert rows["spearman"].n == 3 and rows["spearman"].n_skipped == 1
    assert "out-of-vocabulary" in rows["spearman"].skip_reason
    assert rows["coverage"].value == pytest.approx(0.75)
    assert rows["spearman"].direction == "higher"


def test_unknown_option_names_the_key_and_the_known_ones():
    with pytest.raises(
        OptionError,
        match=r"no option 'ovv' \(did you mean 'oov'\?\); known: "
        r"benchmarks, extra, oov, oov_similarity",
    ):
        wordgames.evaluate(_eye(), measures=["similarity"], options={"similarity": {"ovv": 1}})
    with pytest.raises(OptionError, match="expected one of 'skip', 'fixed'"):
        get_measure("similarity").make_options({"oov": "drop"})
    with pytest.raises(OptionError, match="expected int or None"):
        get_measure("codenames").make_options({"max_records": "all"})
    # a list is accepted where a tuple is declared, an int where a float is
    opts = get_measure("wales").make_options({"gammas": [0, 1]})
    assert opts.gammas == (0.0, 1.0)


def test_unknown_measure_did_you_mean():
    with pytest.raises(UnknownMeasureError, match="did you mean 'codenames'"):
        wordgames.evaluate(_eye(), measures=["codename"])
    with pytest.raises(UnknownMeasureError, match="did you mean 'wales'"):
        get_measure("walse")


def test_options_for_a_measure_not_selected_is_an_error():
    from wordgames.errors import WordgamesError

    with pytest.raises(WordgamesError, match="not selected"):
        wordgames.evaluate(_eye(), measures=["global-metrics"], options={"similarity": {}})
    with pytest.raises(WordgamesError, match="read by none of the selected measures"):
        wordgames.evaluate(_eye(), measures=["global-metrics"], datasets=["codenames-pilot"])


def test_registry_lists_every_measure_with_its_declaration():
    df = list_measures()
    assert df["name"].tolist() == [
        "codenames",
        "codenames-selfplay",
        "similarity",
        "global-metrics",
        "wales",
        "wales-agents",
        "wales-power-law",
        "wales-baselines",
        "oddmanout",
        "cbm",
    ]
    assert df["name"].is_unique
    for m in (get_measure(n) for n in df["name"]):
        assert m.description and m.version and m.headlines
        for h in m.headlines:  # every headline is a declared metric with bounds in order
            lo, hi = m.bounds(h.metric)
            assert lo is None or hi is None or lo < hi
        from wordgames.datasets import all_datasets

        assert set(m.datasets) <= set(all_datasets())  # declared data sets exist


def test_measure_declaration_is_validated():
    with pytest.raises(ValueError, match="not a declared metric"):
        Measure("x", "1", "f", "d", "m:f", metrics=(Metric("a"),), headlines=(Headline("b"),))
    with pytest.raises(ValueError, match="declared twice"):
        Measure("x", "1", "f", "d", "m:f", metrics=(Metric("a"), Metric("a")))
    with pytest.raises(ValueError, match="direction"):
        Metric("a", direction="up")


def test_store_reuses_and_old_schema_is_recomputed(tmp_path):
    emb = _eye()
    first = wordgames.evaluate(emb, measures=["global-metrics"], store=tmp_path)
    again = wordgames.evaluate(emb, measures=["global-metrics"], store=tmp_path)
    assert again.parameters["reused"] == 1 and again.parameters["computed"] == 0
    assert [s.value for s in again.scores] == [s.value for s in first.scores]
    # an entry of the earlier schema (no typed scores) is never read as a result
    (path,) = (tmp_path / "records").rglob("*.json")
    entry = json.loads(path.read_text())
    entry.pop("schema_version")
    entry["result"]["scores"][0]["value"] = 999.0
    path.write_text(json.dumps(entry))
    third = wordgames.evaluate(emb, measures=["global-metrics"], store=tmp_path)
    assert third.parameters["computed"] == 1
    assert third.result("global-metrics").value("erank") != 999.0


def test_score_round_trips_through_json():
    s = Score(
        "e",
        "m",
        "d",
        "s",
        "map",
        0.5,
        0.4,
        0.6,
        n=10,
        n_skipped=2,
        skip_reason="oov",
        coverage=10 / 12,
        thin=True,
        thin_reason="n = 10 is below 30",
    )
    back = Score.from_dict(json.loads(json.dumps(s.as_dict())))
    assert back == s
    nan = Score.from_dict({**s.as_dict(), "ci_low": None})
    assert math.isnan(nan.ci_low)


def test_cli_run_and_evaluate_agree(tmp_path):
    from typer.testing import CliRunner

    from wordgames.cli import app

    vec = tmp_path / "eye.txt"
    vec.write_text(
        "".join(
            f"w{i} " + " ".join("1.1" if j == i else "0.1" for j in range(4)) + "\n"
            for i in range(4)
        ),
        encoding="utf-8",
    )
    r = CliRunner().invoke(
        app, ["run", "-e", str(vec), "-m", "global-metrics", "-o", str(tmp_path / "out")]
    )
    assert r.exit_code == 0, r.output
    record = json.loads((tmp_path / "out" / "results.json").read_text())
    stored = [Score.from_dict(d) for d in record["results"][0]["scores"]]
    direct = wordgames.evaluate(str(vec), measures=["global-metrics"]).scores
    assert stored == direct


# --------------------------------------------------------------------------- issue 21, item 5
def test_a_bad_option_value_is_refused_before_any_work_with_a_suggestion():
    from wordgames.measure import OptionError

    # the embedding does not exist: the option is refused before anything is loaded
    with pytest.raises(OptionError, match=r"'mem' is not a shipped benchmark.*did you mean 'men'"):
        wordgames.evaluate(
            "no-such-embedding",
            measures=["similarity"],
            options={"similarity": {"benchmarks": ["mem"]}},
        )
    with pytest.raises(OptionError, match=r"did you mean 'skip'"):
        wordgames.evaluate("no-such-embedding", options={"similarity": {"oov": "skp"}})
    with pytest.raises(OptionError, match=r"wales.k: must be at least 1, got 0"):
        wordgames.evaluate("no-such-embedding", options={"wales": {"k": 0}})
    with pytest.raises(OptionError, match=r"did you mean 'anomia-common-dev'"):
        wordgames.evaluate(
            "no-such-embedding", options={"oddmanout": {"sets": ["anomia-comon-dev"]}}
        )


def test_datasets_takes_the_names_that_scores_show(data_root):
    from wordgames.measure import OptionError

    res = wordgames.evaluate(
        "glove-6b-50d-pca5",
        measures=["similarity", "oddmanout"],
        datasets=["simlex999", "anomia-common-dev"],
        data_root=data_root,
        ci_resamples=0,
    )
    shown = set(zip(res.to_frame().measure, res.to_frame().dataset, strict=True))
    assert shown == {("similarity", "simlex999"), ("oddmanout", "anomia-common-dev")}
    with pytest.raises(OptionError, match=r"'simlex99' is read by none.*did you mean 'simlex999'"):
        wordgames.evaluate("no-such-embedding", datasets=["simlex99"])


# --------------------------------------------------------------------------- issue 21, item 9
@pytest.mark.slow
def test_results_repr_is_short_and_summary_marks_thin(data_root):
    res = wordgames.evaluate(
        ["glove-6b-50d", "glove-6b-50d-top10k"],
        measures=["similarity", "global-metrics"],
        data_root=data_root,
        ci_resamples=50,
    )
    text = repr(res)
    assert len(text) < 300 and "2 embedding(s)" in text and "similarity" in text
    assert f"{len(res.scores):,} scores" in text
    summary = res.summary().splitlines()
    thin = {(s.subject, s.dataset) for s in res.scores if s.thin and s.metric == "spearman"}
    assert ("glove-6b-50d-top10k", "rw") in thin
    rw = [ln for ln in summary if ln.startswith("similarity  rw  spearman  glove-6b-50d-top10k")]
    assert len(rw) == 1 and "thin, not ranked" in rw[0]
    fine = [ln for ln in summary if ln.startswith("similarity  men  spearman  glove-6b-50d ")]
    assert len(fine) == 1 and "thin" not in fine[0]


@pytest.mark.slow
def test_results_leaderboard_in_memory_equals_the_stored_one(tmp_path, data_root):
    from wordgames.report import leaderboard, load_results

    res = wordgames.evaluate(
        ["glove-6b-50d-pca10", "glove-6b-50d-pca20"],
        measures=["similarity"],
        store=tmp_path,
        data_root=data_root,
        ci_resamples=50,
    )
    mem, disk = res.leaderboard(), leaderboard(load_results(tmp_path))
    assert mem.columns == disk.columns and len(mem.columns) == 13
    order = list(mem.values.index)
    assert sorted(order) == sorted(disk.values.index)
    for frame in ("values", "ranks", "ci_low", "n"):
        a, b = getattr(mem, frame), getattr(disk, frame).loc[order]
        assert np.array_equal(a.to_numpy(float), b.to_numpy(float), equal_nan=True), frame


def test_results_plot_draws_one_bar_per_embedding_thin_hatched(data_root):
    res = wordgames.evaluate(
        ["glove-6b-50d", "glove-6b-50d-top10k"],
        measures=["similarity"],
        data_root=data_root,
        ci_resamples=50,
    )
    fig = res.plot("similarity", "spearman", dataset="rw")
    bars = fig.axes[0].patches
    assert len(bars) == 2
    rw = {s.subject: s for s in res.scores if s.dataset == "rw" and s.metric == "spearman"}
    assert [b.get_height() for b in bars] == pytest.approx(
        [rw["glove-6b-50d"].value, rw["glove-6b-50d-top10k"].value]
    )
    assert [str(b.get_hatch()) for b in bars] == ["None", "//"]  # the top-10k score is thin
    with pytest.raises(KeyError, match="no score similarity/spearmann"):
        res.plot("similarity", "spearmann")
