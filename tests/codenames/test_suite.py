"""The Codenames part of ``wordgames run`` and ``wordgames codenames evaluate`` on real data."""

from __future__ import annotations

import json
import re

import pytest

from tests.conftest import require_dataset
from wordgames.measure import MeasureResult


def _run(glove, tmp_path, data_root, quick=False, **options):
    from wordgames.evaluation import compute_unit
    from wordgames.registry import get_measure

    return compute_unit(
        get_measure("codenames"),
        glove,
        options=options,
        seed=0,
        quick=quick,
        data_root=data_root,
        out_dir=tmp_path,
    )


def test_suite_run_on_the_pilot(tmp_path, glove, data_root):
    require_dataset("codenames-pilot")

    # quick runs cap the sample at 30 records: 60 records and 3 restarts are asked for
    res = _run(
        glove, tmp_path, data_root, datasets=["codenames-pilot"], max_records=60, n_restarts=3
    )

    def v(agent, stat):
        return res.value(f"human_receiver.{stat}", "codenames-pilot", agent)

    # the sanity checks of the paper: random agents score as random, embedding agents better
    assert 0.4 < v("random-sender", "mean_rank_fraction") < 0.6
    assert v("cluster", "mean_rank") < v("random-sender", "mean_rank") / 3
    assert v("nearest", "map") > v("random-receiver", "map") + 0.1
    for agent in ("cluster", "exhaustive:avg_blue_dist", "random-sender"):
        n = res.find("human_receiver.mean_rank", "codenames-pilot", agent).n
        skipped = res.oov[f"codenames-pilot/{agent}/human_receiver"]["skipped"]
        assert n + sum(skipped.values()) == 60  # every record is scored or counted as skipped
        row = _row(res.tables["senders"], agent=agent, data="human_receiver", clue_source="all")
        assert row["n"] == n
        assert row["n_skipped_oov"] == sum(v for k, v in skipped.items() if k.startswith("oov"))
    assert res.datasets["codenames-pilot"]  # checksums recorded
    assert res.plots and all(p.endswith(".png") for p in res.plots)
    srcs = {r["clue_source"] for r in res.tables["senders"]}
    assert "all" in srcs and len(srcs) > 2  # broken down by the clue's initial model
    assert res.parameters["senders"]["cluster"]["n_restarts"] == 3


@pytest.mark.slow
def test_quick_run_caps_the_sample_and_the_restarts(tmp_path, glove, data_root):
    require_dataset("codenames-pilot")

    res = _run(glove, tmp_path, data_root, quick=True, datasets=["codenames-pilot"])
    assert res.parameters["max_records"] == 30
    assert res.parameters["n_records"]["codenames-pilot"]["human_receiver"] == 30
    assert res.parameters["senders"]["cluster"]["n_restarts"] == 3  # quick mode
    res = _run(
        glove,
        tmp_path,
        data_root,
        quick=True,
        datasets=["codenames-pilot"],
        max_records=12,
        n_restarts=2,
    )
    assert res.parameters["n_records"]["codenames-pilot"]["human_receiver"] == 12
    assert res.parameters["senders"]["cluster"]["n_restarts"] == 2


def test_cli_evaluate_writes_json(tmp_path, data_root):
    require_dataset("codenames-human-stanfordhci")
    from typer.testing import CliRunner

    from wordgames.cli import app

    out = tmp_path / "out"
    r = CliRunner().invoke(
        app,
        [
            "codenames",
            "evaluate",
            "--dataset",
            "codenames-human-stanfordhci",
            "--top-n",
            "20000",
            "--out",
            str(out),
            "--data-root",
            str(data_root),
        ],
    )
    assert r.exit_code == 0, r.output
    rec = json.loads((out / "results.json").read_text())
    (res,) = rec["results"]
    result = MeasureResult.from_dict(res)
    row = _row(result.tables["receivers"], agent="nearest", data="human_sender", clue_source="all")
    assert row["n"] + row["n_skipped_oov"] == 33
    assert result.find("human_sender.mean_rank", "codenames-human-stanfordhci", "cluster")
    assert list((out / "plots").rglob("*.png"))


def test_cli_evaluate_unknown_dataset_is_a_clear_error(data_root):
    from typer.testing import CliRunner

    from wordgames.cli import app

    r = CliRunner().invoke(
        app, ["codenames", "evaluate", "--dataset", "nope", "--data-root", str(data_root)]
    )
    assert r.exit_code != 0 and "nope" in r.output


@pytest.mark.parametrize("n_blue", [3])
def test_cli_selfplay_prints_matrix(tmp_path, n_blue):
    from typer.testing import CliRunner

    from wordgames.cli import app

    vec = tmp_path / "toy.txt"
    import numpy as np

    rng = np.random.default_rng(0)
    vec.write_text(
        "".join(
            f"w{i} " + " ".join(f"{x:.4f}" for x in rng.normal(size=4)) + "\n" for i in range(60)
        )
    )
    words = tmp_path / "words.txt"
    words.write_text("\n".join(f"w{i}" for i in range(30)))
    r = CliRunner().invoke(
        app,
        [
            "codenames",
            "selfplay",
            "-e",
            str(vec),
            "--games",
            "3",
            "--n-blue",
            str(n_blue),
            "--n-red",
            "4",
            "--words",
            str(words),
            "--out",
            str(tmp_path),
        ],
    )
    assert r.exit_code == 0, r.output
    # the matrix is Score rows of the run record, as every measure's (issue 23)
    from wordgames.measure import Score

    record = json.loads((tmp_path / "results.json").read_text())
    scores = [Score.from_dict(s) for res in record["results"] for s in res["scores"]]
    rows = [s for s in scores if s.metric == "mean_turns"]
    assert len(rows) == 1 and 1 <= rows[0].value <= n_blue + 1


def test_cli_datasets_json_lists_counts(data_root, tmp_path):
    require_dataset("codenames-human-stanfordhci")
    from typer.testing import CliRunner

    from wordgames.cli import app

    r = CliRunner().invoke(
        app, ["codenames", "datasets", "--json", "-", "--data-root", str(data_root)]
    )
    assert r.exit_code == 0, r.output
    rows = {d["dataset"]: d for d in json.loads(r.output)["datasets"]}
    assert rows["codenames-human-stanfordhci"]["n_sender"] == 33
    # --json takes a path: the same JSON in a file, nothing else on the screen
    path = tmp_path / "sub" / "counts.json"
    r = CliRunner().invoke(
        app, ["codenames", "datasets", "--json", str(path), "--data-root", str(data_root)]
    )
    assert r.exit_code == 0 and r.output == ""
    assert json.loads(path.read_text())["datasets"] == json.loads(json.dumps(list(rows.values())))


def test_cli_evaluate_users_own_file_on_a_toy_embedding(tmp_path):
    """End to end without the shared data: a user's JSONL file, a toy vector file."""
    from typer.testing import CliRunner

    from wordgames.cli import app
    from wordgames.codenames.human_data import write_user_jsonl
    from wordgames.codenames.records import HumanReceiverRecord, HumanSenderRecord, LoadedHumanData

    vec = tmp_path / "toy.txt"
    vec.write_text(
        "a0 1.0 0.0\na1 0.9848 0.1736\nr -1.0 0.0\nc 0.9962 0.0872\nfar 0.0 1.0\nr2 -0.9 -0.3\n"
    )
    data = LoadedHumanData("mine")
    data.receiver.append(
        HumanReceiverRecord(
            "mine", "1", ("a0", "a1", "r", "r2"), "c", ("a0", "a1"), clue_source="me"
        )
    )
    data.receiver.append(
        HumanReceiverRecord("mine", "2", ("a0", "a1", "r", "r2"), "zzz", ("a0",), clue_source="me")
    )
    data.sender.append(
        HumanSenderRecord(
            "mine", "3", blue=("a0", "a1"), red=("r", "r2"), clue="c", targets=("a0", "a1")
        )
    )
    path = write_user_jsonl(data, tmp_path / "mine.jsonl")
    out = tmp_path / "out"
    r = CliRunner().invoke(
        app, ["codenames", "evaluate", "-e", str(vec), "--file", str(path), "--out", str(out)]
    )
    assert r.exit_code == 0, r.output
    (res,) = json.loads((out / "results.json").read_text())["results"]
    result = MeasureResult.from_dict(res)
    (ds,) = {s.dataset for s in result.scores} - {"all"}
    # one data set: the aggregate over data sets is that data set's number
    assert result.value("human_receiver.map", "all", "nearest") == result.value(
        "human_receiver.map", ds, "nearest"
    )
    # record 1: "c" covers both picks and is the only candidate that does -> rank 1;
    # record 2: clue OOV -> skipped and counted, not scored
    assert result.value("human_receiver.mean_rank", ds, "exhaustive:avg_blue_dist") == 1
    row = _row(
        result.tables["senders"],
        dataset=ds,
        agent="exhaustive:avg_blue_dist",
        data="human_receiver",
        clue_source="all",
    )
    assert row["n_skipped_oov"] == 1
    assert result.value("human_receiver.map", ds, "nearest") == 1.0
    assert result.value("human_sender.guess_score", ds, "nearest") == 1.0


@pytest.mark.slow
@pytest.mark.parametrize("width", [80, 120])
def test_cli_evaluate_tables_fit_the_terminal_and_cut_no_name(tmp_path, data_root, width):
    require_dataset("codenames-pilot")
    require_dataset("codenames-human-heyyjudes")
    from typer.testing import CliRunner

    from wordgames.cli import app

    r = CliRunner().invoke(
        app,
        [
            "codenames",
            "evaluate",
            "-d",
            "codenames-pilot",
            "-d",
            "codenames-human-heyyjudes",
            "--max-records",
            "30",
            "--data-root",
            str(data_root),
        ],
        env={"COLUMNS": str(width)},
    )
    assert r.exit_code == 0, r.output
    out = r.output
    assert "…" not in out and "..." not in out
    # table rows (columns two spaces apart) and rules fit; a line of text is never
    # hard-wrapped (issue 21, item 12): the terminal wraps it
    table = [ln for ln in out.splitlines() if "  " in ln.strip() or ln[:1] in "─━"]
    assert table and max(len(line) for line in table) <= width
    assert any(ln.startswith("senders: rank of the people's clue") for ln in out.splitlines())
    lines = out.splitlines()
    names = [
        "cluster",
        "exhaustive:avg_blue_dist",
        "exhaustive:max_blue_dist",
        "exhaustive:max_radius",
        "exhaustive:red_blue_diff",
        "random-sender",
        "nearest",
        "random-receiver",
        "codenames-pilot",
        "codenames-human-heyyjudes",
    ]
    for name in names:  # every name whole, at the start of a table row or in a title
        assert any(re.search(rf"(^|\s){re.escape(name)}(\s|$)", ln) for ln in lines), name
    # the records used are said: here a sample, with what it was drawn from
    assert "records: a seeded sample of at most 30" in " ".join(lines)
    assert "3,358" in out  # heyyjudes's receiver records before the sample
    # the restricted choice of Shen et al. beside the full-vocabulary rank
    assert "rank among the clues people chose from" in out


def test_algorithm_7_weights_are_options_and_flags(tmp_path):
    """Issue 21: the guess score's reward and penalty weights, hand-checked on one record."""
    from typer.testing import CliRunner

    import wordgames
    from wordgames.cli import app
    from wordgames.codenames.human_data import write_user_jsonl
    from wordgames.codenames.records import HumanSenderRecord, LoadedHumanData
    from wordgames.measure import OptionError

    vec = tmp_path / "toy.txt"
    vec.write_text("a0 1.0 0.0\na1 0.9848 0.1736\nr -1.0 0.0\nr2 -0.9 -0.3\nc2 0.9987 -0.05\n")
    data = LoadedHumanData("mine")
    # the target is a1 (tau = 1); the nearest receiver guesses a0: a blue word, not a target
    data.sender.append(
        HumanSenderRecord(
            "mine", "1", blue=("a0", "a1"), red=("r", "r2"), clue="c2", targets=("a1",)
        )
    )
    path = write_user_jsonl(data, tmp_path / "mine.jsonl")

    def guess(**weights):
        res = wordgames.evaluate(
            str(vec),
            measures=["codenames"],
            options={"codenames": {"files": [str(path)], **weights}},
        )
        return next(
            s.value
            for s in res.scores
            if s.metric == "human_sender.guess_score"
            and s.agent == "nearest"
            and s.dataset != "all"
        )

    assert guess() == 0.0  # the paper's weights: another blue word scores 0
    assert guess(blue_score=0.5) == 0.5
    with pytest.raises(OptionError, match="red <= blue <= target"):
        guess(blue_score=2.0)
    out = tmp_path / "out"
    r = CliRunner().invoke(
        app,
        [
            "codenames",
            "evaluate",
            "-e",
            str(vec),
            "--file",
            str(path),
            "--blue-score",
            "0.25",
            "-o",
            str(out),
        ],
    )
    assert r.exit_code == 0, r.output
    (res,) = json.loads((out / "results.json").read_text())["results"]
    (guess,) = [
        s.value
        for s in MeasureResult.from_dict(res).scores
        if s.agent == "nearest" and s.metric == "human_sender.guess_score" and s.dataset != "all"
    ]
    assert guess == 0.25


def test_cli_selfplay_says_its_vocabulary_and_takes_the_shared_options(tmp_path):
    """Issue 21: selfplay intersected silently; it now says so and takes --no-intersect/--top-n."""
    import numpy as np
    from typer.testing import CliRunner

    from wordgames.cli import app

    rng = np.random.default_rng(0)
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    a.write_text(
        "".join(
            f"w{i} " + " ".join(f"{x:.4f}" for x in rng.normal(size=4)) + "\n" for i in range(60)
        )
    )
    b.write_text(
        "".join(
            f"w{i} " + " ".join(f"{x:.4f}" for x in rng.normal(size=4)) + "\n" for i in range(50)
        )
    )
    words = tmp_path / "words.txt"
    words.write_text("\n".join(f"w{i}" for i in range(30)))
    base = ["codenames", "selfplay", "-e", str(a), "-e", str(b), "--games", "2", "--n-blue", "3"]
    base += ["--n-red", "3", "--words", str(words)]
    r = CliRunner().invoke(app, base, terminal_width=200)
    assert r.exit_code == 0, r.output
    assert "vocabulary: intersection (a[∩50]: 50 words, b[∩50]: 50 words)" in r.output
    r = CliRunner().invoke(app, [*base, "--no-intersect", "--top-n", "40"], terminal_width=200)
    assert r.exit_code == 0, r.output
    assert "vocabulary: top 40" in r.output and "a[top40]: 40 words" in r.output


def _row(rows, **where):
    """The one table row whose columns have the values ``where`` gives."""
    (row,) = [r for r in rows if all(r.get(k) == v for k, v in where.items())]
    return row


def test_several_data_sets_in_one_pass_equal_each_alone(glove):
    # the senders rank every data set's records (both kinds) in one pass; each data set's
    # results are the ones it gets alone: the same records in the same order, the same ranks
    # and skips (so the same intervals), whatever else shares the pass
    from wordgames.codenames.agents import default_receivers, default_senders
    from wordgames.codenames.human_data import load_human_data
    from wordgames.codenames.suite import evaluate_human_data, evaluate_human_datasets

    names = ["codenames-pilot", "codenames-human-stanfordhci", "codenames-human-itsluisa"]
    for name in names:
        require_dataset(name)
    datasets = [load_human_data(name) for name in names]

    def agents():
        return default_senders(glove, quick=True), default_receivers(glove)

    together = evaluate_human_datasets(datasets, *agents(), max_records=60)
    assert [ev.dataset for ev in together] == names
    for data, ev in zip(datasets, together, strict=True):
        alone = evaluate_human_data(data, *agents(), max_records=60)
        for (kind, a), (_kind, b) in zip(alone.sender_results(), ev.sender_results(), strict=True):
            assert a.keys() == b.keys(), kind
            for agent in a:
                x, y = a[agent], b[agent]
                assert (x.record_ids, x.best, x.worst) == (y.record_ids, y.best, y.worst)
                assert (x.weights, x.n_candidates, x.skipped) == (
                    y.weights,
                    y.n_candidates,
                    y.skipped,
                )
        assert sum(len(r.best) for _kind, res in ev.sender_results() for r in res.values()) > 0
    # records of the two kinds of one data set and of several data sets shared the pass
    assert together[0].timings["senders"] == together[2].timings["senders"]
