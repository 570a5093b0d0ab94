"""One path: ``wordgames codenames evaluate`` and ``wordgames.evaluate`` compute the same
numbers, and the command's output folder is a results store that the report reads."""

from __future__ import annotations

import math

import pytest

from tests.conftest import require_dataset


def _rows(scores) -> dict:
    """Score rows by key, NaN made comparable."""
    out = {}
    for s in scores:
        d = s.as_dict()
        for k in ("value", "ci_low", "ci_high"):
            d[k] = "nan" if math.isnan(d[k]) else d[k]
        out[s.key] = d
    assert len(out) == len(scores), "two rows share a key"
    return out


@pytest.mark.slow
def test_cli_and_python_api_agree_number_for_number(tmp_path, data_root):
    require_dataset("codenames-pilot")
    from typer.testing import CliRunner

    import wordgames
    from wordgames.cli import app
    from wordgames.measure import Score
    from wordgames.registry import get_measure
    from wordgames.report import load_results

    out = tmp_path / "out"
    r = CliRunner().invoke(
        app,
        [
            "codenames",
            "evaluate",
            "-d",
            "codenames-pilot",
            "--max-records",
            "40",
            "-o",
            str(out),
            "--data-root",
            str(data_root),
        ],
    )
    assert r.exit_code == 0, r.output

    res = wordgames.evaluate(
        "glove-6b-50d",
        ["codenames"],
        datasets=["codenames-pilot"],
        options={"codenames": {"max_records": 40}},
        seed=0,
        data_root=data_root,
    )
    api = _rows(res.scores)

    coll = load_results(out)
    (entry,) = coll.entries
    assert entry.measure == "codenames" and coll.from_store
    cli = _rows([Score.from_dict(d) for d in entry.result["scores"]])
    assert cli == api  # every Score row, number for number

    # what the rows hold: 6 senders x 9 statistics and 2 receivers' MAP on the pilot's
    # receiver data, and the 4 aggregates over data sets that apply to receiver data (the
    # nearest receiver's MAP, the cluster sender's mean rank, hits@10 and mrr@10); every
    # metric declared by the measure, n + skipped = the 40 records
    measure = get_measure("codenames")
    # ... and each receiver's share of the people's ceiling and its gap to them (issue 39)
    assert len(api) == 6 * 9 + 2 + 4 + 2 * 2
    per_ds = {(s.agent, s.metric): s for s in res.scores if s.dataset == "codenames-pilot"}
    agg = {(s.agent, s.metric): s for s in res.scores if s.dataset == "all"}
    assert set(agg) == {
        ("nearest", "human_receiver.map"),
        ("cluster", "human_receiver.mean_rank"),
        ("cluster", "human_receiver.hits@10"),
        ("cluster", "human_receiver.mrr@10"),
    }
    for key, a in agg.items():  # one data set: the mean over data sets is its number
        d = per_ds[key]
        assert (a.value, a.n, a.n_skipped) == (d.value, d.n, d.n_skipped)
        # the stratified bootstrap of one stratum is that stratum's bootstrap
        assert (a.ci_low, a.ci_high) == pytest.approx((d.ci_low, d.ci_high))
    assert {s.metric for s in res.scores} <= {m.name for m in measure.metrics}
    nearest = next(
        s for s in res.scores if s.agent == "nearest" and s.metric == "human_receiver.map"
    )
    assert nearest.dataset == "codenames-pilot" and nearest.direction == "higher"
    assert nearest.ci_low < nearest.value < nearest.ci_high
    assert res.result("codenames").parameters["n_records"]["codenames-pilot"] == {
        "human_receiver": 40,
        "human_sender": 0,
    }
    for s in res.scores:
        assert s.n + s.n_skipped == 40, s
        assert bool(s.skip_reason) == (s.n_skipped > 0)
    # the receivers table holds the same numbers as the Score rows
    (row,) = [
        r
        for r in res.result("codenames").tables["receivers"]
        if (r["agent"], r["data"], r["clue_source"]) == ("nearest", "human_receiver", "all")
    ]
    assert row["score"] == nearest.value
    assert (out / "results.json").is_file()


def _toy_file(tmp_path):
    import numpy as np

    from wordgames.codenames.human_data import write_user_jsonl
    from wordgames.codenames.records import HumanReceiverRecord, HumanSenderRecord, LoadedHumanData
    from wordgames.embeddings import Embedding

    words = ["a0", "a1", "r", "c", "far", "r2"]
    vec = np.array(
        [[1.0, 0.0], [0.9848, 0.1736], [-1.0, 0.0], [0.9962, 0.0872], [0.0, 1.0], [-0.9, -0.3]]
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
            "mine",
            "3",
            blue=("a0", "a1"),
            red=("r", "r2"),
            clue="c",
            targets=("a0", "a1"),
            meta={"candidate_clues": ["far", "c"]},  # the person chose among these two
        )
    )
    return Embedding(words, vec, name="toy"), write_user_jsonl(data, tmp_path / "mine.jsonl")


def test_users_own_file_through_the_python_api_in_memory(tmp_path):
    """``files`` reads a user's data through the measure; in memory nothing is written."""
    import wordgames

    emb, path = _toy_file(tmp_path)
    res = wordgames.evaluate(emb, ["codenames"], options={"codenames": {"files": [str(path)]}})
    (result,) = res.results
    assert result.plots == [] and not list(tmp_path.rglob("*.png"))
    rows = {(s.agent, s.metric): s for s in res.scores}
    assert {s.dataset for s in res.scores} == {"user:mine.jsonl", "all"}
    rows = {(s.agent, s.metric): s for s in res.scores if s.dataset != "all"}
    rank = rows[("exhaustive:avg_blue_dist", "human_receiver.mean_rank")]
    # record 1: "c" covers both picks and is the only candidate that does -> rank 1;
    # record 2: its clue is not in the vocabulary -> skipped, counted and said why
    assert (rank.value, rank.n, rank.n_skipped) == (1.0, 1, 1)
    assert rank.skip_reason == "clue not in vocabulary"
    assert rows[("nearest", "human_receiver.map")].value == 1.0
    assert rows[("nearest", "human_sender.guess_score")].value == 1.0
    assert rows[("cluster", "human_sender.mean_rank")].direction == "lower"
    # among the 2 candidates the person chose from, "c" (nearer both blue words) comes first
    # for the exhaustive sender; the random sender draws 1 or 2
    cand = rows[("exhaustive:avg_blue_dist", "human_sender.mean_rank_candidates")]
    assert (cand.value, cand.n) == (1.0, 1)
    assert rows[("random-sender", "human_sender.mean_rank_candidates")].value in (1.0, 2.0)
    # both kinds of data: every metric emitted is declared, with its direction
    from wordgames.registry import get_measure

    declared = {m.name: m.direction for m in get_measure("codenames").metrics}
    players_only = {m for m in declared if m.endswith(".format_failures")}  # a player's answers
    # a share of the human ceiling needs an item two people answered: none here (issue 39)
    ceiling = {m for m in declared if m.endswith((".share_of_ceiling", ".gap_to_people"))}
    assert len(ceiling) == 6
    assert {s.metric for s in res.scores} == set(declared) - players_only - ceiling
    assert all(s.direction == declared[s.metric] for s in res.scores)


def test_unknown_data_set_or_bad_option_is_an_error_before_any_work():
    import pytest

    import wordgames
    from wordgames.measure import OptionError

    with pytest.raises(OptionError, match="'nope' is not a human Codenames data set"):
        wordgames.evaluate(
            "glove-6b-50d", ["codenames"], options={"codenames": {"datasets": ["nope"]}}
        )
    with pytest.raises(OptionError, match="max_records must be at least 0"):
        wordgames.evaluate(
            "glove-6b-50d", ["codenames"], options={"codenames": {"max_records": -1}}
        )
