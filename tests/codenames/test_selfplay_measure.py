"""Codenames self-play through ``evaluate`` (issue 23): Score rows, stored, resumable, reported."""

from __future__ import annotations

import json

import numpy as np
import pytest
from typer.testing import CliRunner

import wordgames
from wordgames.embeddings import Embedding
from wordgames.measure import Score
from wordgames.report.text import format_number
from wordgames.subjects import PlayerSubject

RNG = np.random.default_rng(1)
WORDS = [f"w{i}" for i in range(80)]
A = Embedding(WORDS, RNG.normal(size=(80, 6)).astype("float32"), name="a")
B = Embedding(WORDS, RNG.normal(size=(80, 6)).astype("float32"), name="b")
OPTS = {"games": 4, "n_blue": 4, "n_red": 4, "words": WORDS[:40], "vocab_size": None}


def _evaluate(**kw):
    return wordgames.evaluate(
        [A, B], measures=["codenames-selfplay"], options={"codenames-selfplay": OPTS}, **kw
    )


def test_each_pair_is_the_game_metric_of_its_agents():
    from wordgames.codenames.agents import EmbeddingNearestReceiver, ExhaustiveSearchSender
    from wordgames.codenames.game import game_metric, random_boards

    res = _evaluate(ci_resamples=200)
    boards = random_boards(WORDS[:40], 4, 4, 4, seed=0, embeddings=[A, B])
    df = res.to_frame()
    assert len(res.results) == 4  # every ordered pair, the diagonal too
    for snd in (A, B):
        for rcv in (A, B):
            want = game_metric(
                ExhaustiveSearchSender(snd, "frequency", vocab_size=None),
                EmbeddingNearestReceiver(rcv), boards, n_resamples=200, seed=0,
            )  # fmt: skip
            got = df[(df.subject == snd.name) & (df.partner == rcv.name)].set_index("metric")
            assert got.loc["mean_turns", "value"] == want["mean_turns"]
            assert (got.loc["mean_turns", "ci_low"], got.loc["mean_turns", "ci_high"]) == (
                want["ci_low"], want["ci_high"]
            )  # fmt: skip
            assert got.loc["solve_rate", "value"] == want["solve_rate"]
            assert got.loc["mean_turns", "n"] == 4


def test_pairs_are_stored_by_partner_and_resume(tmp_path):
    first = _evaluate(store=tmp_path, ci_resamples=50)
    assert first.parameters["computed"] == 4
    again = _evaluate(store=tmp_path, ci_resamples=50)
    assert again.parameters["computed"] == 0 and again.parameters["reused"] == 4
    import pandas as pd

    pd.testing.assert_frame_equal(again.to_frame(), first.to_frame())


def test_selfplay_runs_only_when_named():
    from wordgames.registry import select_measures

    assert "codenames-selfplay" not in [m.name for m in select_measures(None)]


@pytest.fixture(scope="module")
def cli_run(tmp_path_factory, data_root):
    from wordgames.cli import app

    out = tmp_path_factory.mktemp("selfplay") / "X"
    args = ["codenames", "selfplay", "-e", "glove-6b-50d", "-e", "glove-6b-50d-pca20"]
    args += ["-o", str(out), "--games", "3", "--n-blue", "8", "--n-red", "8"]
    r = CliRunner().invoke(app, [*args, "--data-root", str(data_root)], terminal_width=200)
    assert r.exit_code == 0, r.output
    rep = CliRunner().invoke(app, ["report", str(out)], terminal_width=200)
    assert rep.exit_code == 0, rep.output
    return r.output, out


@pytest.mark.slow
def test_cli_matrix_is_score_rows_in_results_json(cli_run):
    output, out = cli_run
    record = json.loads((out / "results.json").read_text())
    scores = [Score.from_dict(s) for r in record["results"] for s in r["scores"]]
    turns = {(s.subject, s.partner): s for s in scores if s.metric == "mean_turns"}
    assert len(turns) == 4 and all(1 <= s.value <= 9 for s in turns.values())
    assert not (out / "codenames-selfplay.json").exists()
    for s in turns.values():  # the console prints the stored number
        assert format_number(s.value) in output


@pytest.mark.slow
def test_report_has_the_selfplay_matrix(cli_run):
    _, out = cli_run
    html = (out / "report.html").read_text(encoding="utf-8")
    assert 'id="m-codenames-selfplay"' in html and 'class="matrix"' in html
    matrix = html[html.index('class="matrix"') :].split("</table>")[0]
    assert matrix.count("<tr>") == 3  # the head and one row per sender


@pytest.mark.slow
def test_pairs_on_the_process_pool_equal_serial(tmp_path):
    import pandas as pd

    from wordgames.executors import make_executor

    serial = _evaluate(ci_resamples=50)
    pool = _evaluate(ci_resamples=50, store=tmp_path, executor=make_executor("process", workers=2))
    assert pool.parameters["computed"] == 4
    pd.testing.assert_frame_equal(pool.to_frame(), serial.to_frame())


@pytest.mark.slow
def test_the_leaderboard_fills_every_receiver_column_and_keeps_the_items(cli_run):
    """One entry per partner: each receiver's column reads its own entry, and the per-board
    turns the paired comparisons resample are found under the receiver's name."""
    import numpy as np

    from wordgames.paired import unpack
    from wordgames.report import leaderboard, load_results
    from wordgames.results import item_key

    _, out = cli_run
    coll = load_results(out)
    frame = leaderboard(coll).to_frame()
    turns = frame[frame.metric == "mean_turns"]
    assert len(turns) == 4 and turns.value.notna().all()
    for row in turns.itertuples():  # a pair column's agent level is the partner (receiver)
        e = coll.entry(row.subject, row.measure, (row.dataset, row.agent, row.metric))
        items = unpack(e.result["items"][item_key(row.dataset, "", row.metric, row.agent)])
        assert np.mean(items["values"]) == pytest.approx(row.value)


def test_the_paired_comparison_separates_the_senders_of_one_receiver():
    """Thirty boards: the receiver's own embedding as sender is "best" by the paired rule."""
    from wordgames.report import leaderboard
    from wordgames.report.collect import collection_of

    opts = {**OPTS, "games": 30}
    res = wordgames.evaluate(
        [A, B], measures=["codenames-selfplay"], options={"codenames-selfplay": opts}
    )
    frame = leaderboard(collection_of(res)).to_frame()
    turns = frame[frame.metric == "mean_turns"]
    for receiver, column in turns.groupby("agent"):
        assert column.loc[column.best, "subject"].tolist() == [receiver]


# --------------------------------------------------------------------------- players (issue 24)
class Oracle(PlayerSubject):
    """Knows each board's blue words: clues ``hint N`` for all of them and guesses them first.

    ``mute=True`` answers nothing readable (a sender with no clue, a receiver with no order).
    """

    def __init__(self, name: str, blue_of: dict, mute: bool = False):
        super().__init__(name)
        self.blue_of, self.mute = blue_of, mute

    def answer(self, q):
        if self.mute:
            return "I am not sure."
        if q.role == "sender":
            return f"hint {len(q.fields['blue'])}\n" + "\n".join(f"spare{c} 1" for c in "abcdefghi")
        board = q.fields["board"]
        blue = next(b for full, b in self.blue_of.items() if set(board) <= full)
        return "\n".join(sorted(board, key=lambda w: (w not in blue, w)))

    def identity(self):
        return {"kind": "oracle", "mute": self.mute}


def test_players_take_rows_and_columns_of_the_matrix_by_hand():
    from wordgames.codenames.game import random_boards

    boards = random_boards(WORDS[:40], 4, 4, 4, seed=0, embeddings=[A])
    blue_of = {frozenset(b.words): set(b.blue) for b in boards}
    oracle, mute = Oracle("oracle", blue_of), Oracle("mute", blue_of, mute=True)
    res = wordgames.evaluate(
        [A, oracle, mute], measures=["codenames-selfplay"],
        options={"codenames-selfplay": OPTS}, ci_resamples=50,
    )  # fmt: skip
    df = res.to_frame().query("metric in ['mean_turns', 'solve_rate']")
    cell = df.set_index(["subject", "partner", "metric"]).value
    assert len(res.results) == 9 and not res.skipped
    # the oracle clues every blue word at once and guesses them: one turn a game
    assert cell["oracle", "oracle", "mean_turns"] == 1.0
    assert cell["oracle", "oracle", "solve_rate"] == 1.0
    # with the oracle guessing, every clue of the embedding's sender finds only blue words
    assert cell["a", "oracle", "solve_rate"] == 1.0
    assert 1.0 <= cell["a", "oracle", "mean_turns"] <= 4.0
    # nothing readable: every turn is lost, every game unsolved (limit 4 + 1 turns)
    for snd, rcv in [("mute", "a"), ("mute", "oracle"), ("a", "mute"), ("oracle", "mute")]:
        assert cell[snd, rcv, "mean_turns"] == 5.0 and cell[snd, rcv, "solve_rate"] == 0.0
    notes = {(r.subject, r.scores[0].partner): " ".join(r.notes) for r in res.results}
    assert "sender 16" in notes["mute", "a"]  # 4 games x 4 turns
    assert "receiver 16" in notes["a", "mute"]
    # the oracle's clue "hint" is not a word of embedding a: the nearest receiver cannot read
    # it and every turn is lost, which is not an unreadable answer
    assert cell["oracle", "a", "mean_turns"] == 5.0 and "unreadable" not in notes["oracle", "a"]
