"""A toy *player* subject, defined here in one file, plays three games through ``evaluate``.

The player answers from a lookup table built from the real data: the people's picks first for
Codenames boards, the odd word (or "none") for Odd-Man-Out puzzles, the next page of a
shortest path for WALES tasks; any other question gets an empty answer, which the agents count
as unreadable. So every score below is known by hand, and the report shows the player beside
the baselines.
"""

from __future__ import annotations

import json
import re

import numpy as np
import pytest

import wordgames
from wordgames.subjects import PlayerSubject, Question
from wordgames.testing import check_agent


class LookupPlayer(PlayerSubject):
    """Answers a question from ``table`` (keyed by the game and the question's fields)."""

    def __init__(self, name: str, table: dict):
        super().__init__(name)
        self.table = table
        self.asked = 0

    @staticmethod
    def key(q: Question):
        f = q.fields
        if q.game == "codenames" and q.role == "sender":
            return ("codenames-sender", frozenset(f["blue"]), frozenset(f["red"]))
        if q.game == "codenames":
            return ("codenames", f["clue"], frozenset(f["board"]))
        if q.game == "oddmanout":
            return ("oddmanout", frozenset(f["words"]))
        return ("wales", f["page"], f["target"])

    def answer(self, question: Question) -> str:
        self.asked += 1
        return self.table.get(self.key(question), "")

    def identity(self) -> dict:
        blob = json.dumps(sorted(map(repr, self.table.items())))
        return {"kind": "lookup-table", "entries": len(self.table), "table": hash_of(blob)}


def hash_of(text: str) -> str:
    import hashlib

    return hashlib.sha256(text.encode()).hexdigest()[:16]


# --------------------------------------------------------------------------- tables
def codenames_table(root) -> dict:
    from wordgames.codenames.board import _norm
    from wordgames.codenames.human_data import load_human_data

    data = load_human_data("codenames-pilot", root)
    out = {}
    for r in data.receiver:
        board = list(dict.fromkeys(_norm(w) for w in r.board))
        picks = [w for w in dict.fromkeys(_norm(w) for w in r.chosen) if w in board]
        order = picks + [w for w in board if w not in picks]
        out[("codenames", _norm(r.clue), frozenset(board))] = "\n".join(order)
    return out


FILLERS = [f"filler{c}" for c in "abcdefghijkl"]


def sender_table(root) -> dict:
    """Algorithm 4's boards (blue = the picks): the people's clues first, after 4 fillers, or
    not at all (12 fillers), by turns; a board's list holds every clue given for it that is
    a word (a clue such as "fla." is never listed: a miss)."""
    from wordgames.codenames.board import _norm
    from wordgames.codenames.human_data import load_human_data

    clues: dict = {}
    for r in load_human_data("codenames-pilot", root).receiver:
        board = list(dict.fromkeys(_norm(w) for w in r.board))
        picks = [w for w in dict.fromkeys(_norm(w) for w in r.chosen) if w in board]
        key = ("codenames-sender", frozenset(picks), frozenset(set(board) - set(picks)))
        if picks and _norm(r.clue) not in board and re.fullmatch("[a-z]+", _norm(r.clue)):
            clues.setdefault(key, []).append(_norm(r.clue))
    out = {}
    for i, (key, cs) in enumerate(sorted(clues.items(), key=repr)):
        cs = list(dict.fromkeys(cs))
        listed = [cs, FILLERS[:4] + cs, FILLERS][i % 3]
        out[key] = "\n".join(f"{c} 1" for c in listed)
    return out


def oddmanout_table(root, name: str) -> tuple[dict, int]:
    from wordgames.oddmanout.spec import OddManOutOptions
    from wordgames.oddmanout.suite import load_inputs

    ps = load_inputs(OddManOutOptions(sets=(name,)), str(root), 0, False).sets[name]
    table = {}
    for p in range(len(ps)):
        words = frozenset(str(w) for w in ps.words[p])
        table[("oddmanout", words)] = str(ps.words[p, ps.answer[p]]) if p % 2 == 0 else "none"
    return table, len(ps)


def wales_table(root, n_tasks: int) -> dict:
    from wordgames.wales.report import load_setup

    setup = load_setup("wikispeedia", data_root=root)
    g, names = setup.graph, setup.graph.names
    table = {}
    for s, t in zip(setup.human.sources[:n_tasks], setup.human.targets[:n_tasks], strict=True):
        dist = g.distances_to(int(t))
        here = int(s)
        while here != t and dist[here] > 0:
            nxt = next(int(v) for v in g.successors(here) if dist[v] == dist[here] - 1)
            table[("wales", str(names[here]), str(names[t]))] = str(names[nxt])
            here = nxt
    return table


# --------------------------------------------------------------------------- the test
OMO_SET = "anomia-common-dev"
LEFT_OUT: set = set()  # Codenames boards the table holds no answer for
N_WALES = 20


@pytest.fixture(scope="module")
def played(data_root, tmp_path_factory):
    table = codenames_table(data_root)
    LEFT_OUT.update(sorted(table, key=repr)[:5])
    table = {k: v for k, v in table.items() if k not in LEFT_OUT}
    omo, n_puzzles = oddmanout_table(data_root, OMO_SET)
    table |= omo | wales_table(data_root, N_WALES) | sender_table(data_root)
    player = LookupPlayer("lookup", table)
    out = tmp_path_factory.mktemp("player") / "X"
    res = wordgames.evaluate(
        [player],
        measures=["codenames", "oddmanout", "wales", "similarity"],
        options={
            "codenames": {"datasets": ["codenames-pilot"]},
            "oddmanout": {"sets": [OMO_SET], "wordnet": False},
            "wales": {"human_k": N_WALES, "k": 5, "exponents": [], "percents": [1.0]},
        },
        store=out,
        ci_resamples=100,
    )
    res.write(out)
    return res, out, n_puzzles


def _score(res, measure, dataset, subject, metric):
    df = res.to_frame()
    rows = df[
        (df.measure == measure)
        & (df.dataset == dataset)
        & (df.agent == subject)
        & (df.metric == metric)
    ]
    assert len(rows) == 1, (measure, dataset, subject, metric, df[["measure", "agent"]])
    return rows.iloc[0]


def _average_precision(ranking, picks) -> float:
    hits, total = 0, 0.0
    for i, w in enumerate(ranking, 1):
        if w in picks:
            hits += 1
            total += hits / i
    return total / len(picks)


def test_player_receiver_scores_its_table_and_counts_the_unread(played, data_root):
    from wordgames.codenames.board import _norm, derive_rng
    from wordgames.codenames.human_data import load_human_data
    from wordgames.datasets import declared_items

    res, _, _ = played
    row = _score(res, "codenames", "codenames-pilot", "player-receiver", "human_receiver.map")
    # by hand: each record's AP of the table's order for its board and clue; the records of
    # the boards left out of the table are unread answers (asked twice), scored by the game's
    # no move: the board as it was shown (the run's seeded order), in n and counted
    table = codenames_table(data_root)
    aps, unread = [], 0
    for r in load_human_data("codenames-pilot", data_root).receiver:
        board = list(dict.fromkeys(_norm(w) for w in r.board))
        key = ("codenames", _norm(r.clue), frozenset(board))
        picks = {_norm(w) for w in r.chosen}
        if key in LEFT_OUT:
            rng = derive_rng(0, "algorithm-5-board-order", *sorted(board), "|", _norm(r.clue))
            shown = [board[i] for i in rng.permutation(len(board))]
            unread += r.count
            aps += [_average_precision(shown, picks)] * r.count
            continue
        aps += [_average_precision(table[key].split("\n"), picks)] * r.count
    assert row.value == pytest.approx(np.mean(aps), abs=1e-12)
    assert row.n == len(aps) and row.n_skipped == 0 and row.n_unread == unread > 0
    assert row.n + row.n_skipped == declared_items("codenames-pilot", "human_receiver.map")
    assert 0.0 <= row.ci_low <= row.value <= row.ci_high <= 1.0
    ff = _score(res, "codenames", "codenames-pilot", "player-receiver",
                "human_receiver.format_failures")  # fmt: skip
    assert ff.value == pytest.approx(unread / len(aps)) and ff.n == len(aps)
    assert 0.0 <= ff.ci_low < ff.value < ff.ci_high <= 1.0
    (read,) = [t for t in res.results if t.measure == "codenames"][0].tables["answers_read"][1:]
    assert read["agent"] == "player-receiver" and read["unreadable"] == len(LEFT_OUT)
    assert read["reprompted"] == len(LEFT_OUT) and read["exact"] == read["answers"] - len(LEFT_OUT)


def test_player_sender_hits_and_truncated_mrr_by_hand(played, data_root):
    from wordgames.codenames.board import _norm
    from wordgames.codenames.human_data import load_human_data

    res = played[0]
    table = sender_table(data_root)
    hits, rr, unread = [], [], 0
    for r in load_human_data("codenames-pilot", data_root).receiver:
        board = list(dict.fromkeys(_norm(w) for w in r.board))
        picks = [w for w in dict.fromkeys(_norm(w) for w in r.chosen) if w in board]
        if not picks or len(picks) != len(set(_norm(w) for w in r.chosen)):
            continue  # skipped before any question (no picks, a pick off the board)
        key = ("codenames-sender", frozenset(picks), frozenset(set(board) - set(picks)))
        if key not in table:  # the lookup player answers "" for a board it has no list for:
            unread += r.count  # no clue listed, the person's clue below the list: 0, in n
            hits += [0.0] * r.count
            rr += [0.0] * r.count
            continue
        listed = [line.split()[0] for line in table[key].split("\n")][:10]
        rank = listed.index(_norm(r.clue)) + 1 if _norm(r.clue) in listed else None
        hits += [float(rank is not None)] * r.count
        rr += [1.0 / rank if rank else 0.0] * r.count
    h = _score(res, "codenames", "codenames-pilot", "player-sender", "human_receiver.hits@10")
    m = _score(res, "codenames", "codenames-pilot", "player-sender", "human_receiver.mrr@10")
    assert h.value == pytest.approx(np.mean(hits), abs=1e-12) and 0 < h.value < 1
    assert m.value == pytest.approx(np.mean(rr), abs=1e-12) and m.value < h.value
    assert h.n == m.n == len(hits) and h.n_unread == m.n_unread == unread
    assert 0.0 <= h.ci_low <= h.value <= h.ci_high <= 1.0
    # a free list defines no mean rank: no such row for the player, one for the embeddings'
    df = res.to_frame()
    assert df.query("subject == 'player-sender' and metric.str.endswith('mean_rank')").empty


def test_player_solver_half_right_half_abstained(played):
    res, _, n = played
    correct = _score(res, "oddmanout", OMO_SET, "player", "pct_correct")
    abstained = _score(res, "oddmanout", OMO_SET, "player", "pct_abstained")
    assert correct.value == pytest.approx(100.0 * ((n + 1) // 2) / n)
    assert abstained.value == pytest.approx(100.0 * (n // 2) / n)
    assert correct.n == n and correct.n_skipped == 0


def test_player_navigator_on_shortest_paths_scores_one(played):
    res = played[0]
    human = _score(res, "wales", "human", "player", "score")
    assert human.value == 1.0 and human.n == N_WALES
    # no table entry for the sampled tasks: every answer unreadable, every task failed
    other = res.to_frame().query("measure == 'wales' and dataset != 'human' and metric == "
                                 "'failure_rate'")  # fmt: skip
    assert len(other) and (other.value == 1.0).all()


def test_a_measure_that_needs_vectors_skips_the_player_with_the_reason(played):
    res = played[0]
    skip = next(s for s in res.skipped if s.measure == "similarity")
    assert "needs a subject with vectors" in skip.reason and not skip.failed


def test_the_report_shows_the_player(played):
    from wordgames.report import leaderboard, load_results, write_report

    res, out, _ = played
    html = write_report(out).read_text(encoding="utf-8")
    assert "lookup" in html and "player-receiver" in html
    # a player's cells say how many of its answers could not be read, 0 included (an
    # embedding's, which answers nothing, say nothing of the kind)
    omo = _score(res, "oddmanout", OMO_SET, "player", "pct_correct")
    assert omo.n_unread == 0 and f"unreadable answers 0 of {omo.n}" in html
    cn = _score(res, "codenames", "codenames-pilot", "player-receiver", "human_receiver.map")
    assert f"unreadable answers {cn.n_unread} of {cn.n}, scored as the game" in html
    board = leaderboard(load_results(out)).to_frame()
    mine = board[board.subject == "lookup"]
    assert {"codenames", "oddmanout", "wales"} <= set(mine.measure)


def test_the_player_agents_pass_the_conformance_check():
    from wordgames.agents import list_agents

    player = LookupPlayer("p", {})
    for spec in list_agents():
        if spec.needs == "player":
            check_agent(spec, player)


def test_a_players_identity_keys_the_store_and_holds_no_secret(monkeypatch):
    monkeypatch.setenv("TOY_KEY", "s3cr3t")
    a, b = LookupPlayer("a", {("x",): "1"}), LookupPlayer("a", {("x",): "2"})
    assert a.fingerprint() != b.fingerprint()
    assert "s3cr3t" not in json.dumps(a.describe())
    assert np.all([len(a.fingerprint()) == 64])


def test_a_players_codenames_questions_are_asked_together(data_root):
    """The receiver's questions of a data set go to ``answer_many`` in one call (a server
    that batches answers them together); the scores are those of one question at a time."""

    class Batching(LookupPlayer):
        def __init__(self, name, table):
            super().__init__(name, table)
            self.batches = []

        def answer_many(self, questions):
            self.batches.append(len(questions))
            return [self.answer(q) for q in questions]

    table = codenames_table(data_root)
    opts = {"codenames": {"datasets": ["codenames-pilot"], "senders": []}}
    one = wordgames.evaluate([LookupPlayer("one", table)], measures=["codenames"], options=opts)
    player = Batching("many", table)
    many = wordgames.evaluate([player], measures=["codenames"], options=opts)
    metric = "human_receiver.map"
    a = _score(one, "codenames", "codenames-pilot", "player-receiver", metric)
    b = _score(many, "codenames", "codenames-pilot", "player-receiver", metric)
    assert (a.value, a.n, a.n_skipped) == (b.value, b.n, b.n_skipped)
    # each distinct (board, clue) once, in one call; records that repeat one read its answer
    distinct = {("codenames", c, b) for (_, c, b) in codenames_table(data_root)}
    assert player.batches == [player.asked] and player.asked == len(distinct) > 1
