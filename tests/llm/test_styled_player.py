"""A perfect player that writes in twenty styles scores exactly as a perfect player.

A local OpenAI-compatible server (``tests/llm/fake_server.py``) plays each question perfectly
(the odd word, the people's picks first, the people's clues, the next page of a shortest path)
and writes its answer in the next of the realistic styles of ``tests/test_reading.py``. Through
``wordgames run`` every score equals that of the same player answering in the exact format
(``wordgames.evaluate`` with a Python player), with no format failure.
"""

from __future__ import annotations

import ast
import re

import pytest
from typer.testing import CliRunner

import wordgames
from wordgames.subjects import PlayerSubject

pytestmark = pytest.mark.slow  # three games through the CLI (a minute)


class Solver:
    """The perfect play of each question, from the shared data: ``(kind, answer, options)``."""

    def __init__(self, root):
        from tests.test_player_subject import oddmanout_table, sender_table
        from wordgames.codenames.board import _norm
        from wordgames.codenames.human_data import load_human_data
        from wordgames.wales.report import load_setup

        self.odd = {k[1]: v for k, v in oddmanout_table(root, "anomia-common-test")[0].items()}
        # the odd word of every puzzle (oddmanout_table abstains on odd ones: use the answers)
        from wordgames.oddmanout.spec import OddManOutOptions
        from wordgames.oddmanout.suite import load_inputs

        ps = load_inputs(OddManOutOptions(sets=("anomia-common-test",)), str(root), 0, False)
        ps = ps.sets["anomia-common-test"]
        self.odd = {frozenset(map(str, ps.words[p])): str(ps.words[p, ps.answer[p]])
                    for p in range(len(ps))}  # fmt: skip
        self.picks: dict = {}
        for r in load_human_data("codenames-pilot", root).receiver:
            board = frozenset(_norm(w) for w in r.board)
            self.picks.setdefault((_norm(r.clue), board), [_norm(w) for w in r.chosen])
        self.clues = {k[1:]: [(ln.split()[0], 1) for ln in v.split("\n")]
                      for k, v in sender_table(root).items()}  # fmt: skip
        self.setup = load_setup("wikispeedia", data_root=root)
        self.index = {str(n): i for i, n in enumerate(self.setup.graph.names)}
        self._dist: dict = {}

    def __call__(self, prompt: str):
        head, *rest = prompt.split("\n")
        m = re.match(r"Which of these words does not belong with the others: (.*)\? Answer", head)
        if m:
            words = m.group(1).split(", ")
            return "oddmanout", self.odd[frozenset(words)], words
        m = re.match(r"We are playing Codenames\. The clue is (.+?)\. Order all", head)
        if m:
            clue, board = ast.literal_eval(m.group(1)), rest
            picks = [w for w in self.picks.get((clue, frozenset(board)), []) if w in board]
            picks = list(dict.fromkeys(picks))
            return "ranking", picks + [w for w in board if w not in picks], board
        if head.startswith("We are playing Codenames. Give one-word clues"):
            text = prompt.split("Targets:\n", 1)[1]
            blue, red = text.split("\nAvoid:\n")
            key = (frozenset(blue.split("\n")), frozenset(red.strip().split("\n")))
            return "clues", self.clues.get(key, [("filler", 1)]), None
        m = re.match(r"You are navigating Wikipedia from page (.+?) to page (.+?) by following",
                     head)  # fmt: skip
        assert m, prompt
        target = ast.literal_eval(m.group(2))
        dist = self._distances(target)
        best = min(rest, key=lambda t: (dist[self.index[t]] if dist[self.index[t]] >= 0
                                        else 10**9, rest.index(t)))  # fmt: skip
        return "wales", best, rest

    def _distances(self, target: str):
        if target not in self._dist:
            self._dist[target] = self.setup.graph.distances_to(self.index[target])
        return self._dist[target]


class Plain(PlayerSubject):
    """The same perfect play, in the exact format asked for."""

    def __init__(self, name, solve):
        super().__init__(name)
        self.solve = solve

    def answer(self, q):
        kind, answer, _ = self.solve(q.prompt)
        if kind in ("oddmanout", "wales"):
            return answer
        if kind == "ranking":
            return "\n".join(answer)
        return "\n".join(f"{c} {n}" for c, n in answer)

    def identity(self):
        return {"kind": "plain-perfect"}


MEASURES = ["oddmanout", "codenames", "wales"]


def _player_rows(entries) -> dict:
    return {
        (e_measure, s.dataset, s.agent, s.metric): (s.value, s.n, s.n_skipped, s.n_unread)
        for e_measure, scores in entries
        for s in scores
        # the category an Odd-Man-Out answer names is no part of the play compared here: the
        # styles write the word alone, some with a remark after a colon
        if s.agent.startswith("player") and not s.metric.startswith("category")
    }


def test_a_perfect_player_in_twenty_styles_scores_as_a_perfect_player(data_root, tmp_path,
                                                                       monkeypatch):  # fmt: skip
    from tests.llm.fake_server import StyledServer
    from wordgames.cli import app
    from wordgames.report import load_results

    pytest.importorskip("openai", reason="the llm extra (openai) is not installed")
    monkeypatch.setenv("WORDGAMES_CACHE", str(tmp_path / "cache"))
    solve = Solver(data_root)
    out = tmp_path / "X"
    with StyledServer(solve) as server:
        r = CliRunner().invoke(app, ["run", "-e", "chat:perfect", "--base-url", server.base_url,
                                     *sum((["-m", m] for m in MEASURES), []), "--quick",
                                     "-o", str(out)], env={"COLUMNS": "200"})  # fmt: skip
        assert r.exit_code == 0, r.output
    coll = load_results(out)
    styled = _player_rows([(e.measure, e.scores) for e in coll.entries])
    res = wordgames.evaluate([Plain("chat:perfect", solve)], MEASURES, quick=True)
    plain = _player_rows([(x.measure, x.scores) for x in res.results])
    assert set(styled) == set(plain) and len(plain) >= 10
    for key, (value, n, skipped, unread) in plain.items():
        assert styled[key][:3] == pytest.approx((value, n, skipped)), key
        assert styled[key][3] == unread == 0, key  # no format failure
    # what a perfect player gets: every puzzle right, every human-played task on a shortest path
    assert plain[("oddmanout", "anomia-common-test", "player", "pct_correct")][0] == 100.0
    assert plain[("wales", "human", "player", "score")][0] == 1.0
    fails = [k for k in styled if k[3].endswith("format_failures")]
    assert len(fails) >= 3 and all(styled[k][0] == 0.0 for k in fails)
    # the answers came in many styles, and the result counts the rules that read them
    assert all(len(server.styles_used.get(k, ())) >= 15 for k in ("oddmanout", "wales"))
    assert len(server.styles_used.get("ranking", ())) >= 15
    read = [row for e in coll.entries for row in e.result["tables"].get("answers_read", [])]
    assert sum(row["answers"] for row in read) == sum(row["answers"] for row in read
                                                      if not row["unreadable"])  # fmt: skip
    used = {rule for row in read for rule in ("case", "tidy", "preamble", "reason", "mention")
            if row[rule]}  # fmt: skip
    assert used == {"case", "tidy", "preamble", "reason", "mention"}
