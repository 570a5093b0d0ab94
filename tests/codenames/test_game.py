"""The play API, self-play (Table 1 metric) and the terminal game driven by scripted input."""

from __future__ import annotations

import io

import pytest

from tests.codenames._toy import angles_embedding
from wordgames.codenames.agents import EmbeddingNearestReceiver, ExhaustiveSearchSender
from wordgames.codenames.board import Board, ClueRules, IllegalClueError
from wordgames.codenames.game import (
    CallableReceiver,
    CallableSender,
    Game,
    IllegalGuessError,
    cross_matrix,
    game_metric,
    random_boards,
)
from wordgames.codenames.play import play_terminal

# e1: the clue "c" sits between the two blue words; e2: "c" sits on the red word
E1 = angles_embedding({"a0": 0, "a1": 10, "r": 180, "c": 5, "far": 90}, name="e1")
E2 = angles_embedding({"a0": 0, "a1": 10, "r": 180, "c": 175, "far": 90}, name="e2")
BOARD = Board(("a0", "a1"), ("r",))


def test_scripted_game_reveals_and_ends_turn_on_red():
    clues = iter([("pet", 2), ("animal", 1), ("farm", 1)])
    guesses = iter([["dog", "car", "cat"], ["cat"], ["horse"]])
    game = Game(
        Board(("dog", "cat", "horse"), ("car", "bank")),
        CallableSender(lambda b: next(clues)),
        CallableReceiver(lambda w, c, n: next(guesses)),
        max_turns=5,
    )
    t1 = game.play_turn()
    assert (t1.guesses, t1.colors) == (["dog", "car"], ["blue", "red"])  # red ends the turn
    assert set(game.board.words) == {"cat", "horse", "bank"}
    res = game.play()
    assert res.solved and res.turns == 3 and res.blue_left == 0
    assert [t.clue for t in res.history] == ["pet", "animal", "farm"]


def test_illegal_clues_and_guesses_are_refused():
    game = Game(
        Board(("dog", "cat"), ("car",), rules=ClueRules(no_substring=True)),
        CallableSender(lambda b: ("x", 1)),
        CallableReceiver(lambda *a: []),
    )
    with pytest.raises(IllegalClueError):
        game.give_clue("dog", 1)
    with pytest.raises(IllegalClueError):
        game.give_clue("dogs", 1)  # contains a board word: forbidden by the option
    with pytest.raises(IllegalClueError):
        game.give_clue("two words", 1)
    game.give_clue("pet", 2)
    with pytest.raises(IllegalGuessError):
        game.guess(["dog", "zebra"])
    assert game.history == []  # nothing revealed


def test_game_metric_same_and_crossed_embeddings_by_hand():
    # e1 -> e1: clue c (count 2), both blue words are nearest: 1 turn.
    assert (
        game_metric(ExhaustiveSearchSender(E1, "frequency"), EmbeddingNearestReceiver(E1), [BOARD])[
            "mean_turns"
        ]
        == 1
    )
    # e1 -> e2: clue c, e2 puts r first (red: turn over); then no red left, every word covers
    # both, the most frequent legal clue is r, and e2 guesses a1, a0: 2 turns.
    m = game_metric(ExhaustiveSearchSender(E1, "frequency"), EmbeddingNearestReceiver(E2), [BOARD])
    assert m["mean_turns"] == 2 and m["solve_rate"] == 1
    # with one turn allowed the game is lost and counts as max_turns + 1
    m = game_metric(
        ExhaustiveSearchSender(E1, "frequency"), EmbeddingNearestReceiver(E2), [BOARD], max_turns=1
    )
    assert m["mean_turns"] == 2 and m["solve_rate"] == 0 and m["turns"] == [2]


def test_cross_matrix_rows():
    rows = cross_matrix([E1, E2], [BOARD], max_turns=5)
    got = {(r["sender"], r["receiver"]): r["mean_turns"] for r in rows}
    assert got[("e1", "e1")] == 1 and got[("e1", "e2")] == 2
    assert [r["same"] for r in rows] == [True, False, False, True]


def test_random_boards_are_seeded_and_in_vocabulary():
    words = [f"w{i}" for i in range(50)] + ["oov"]
    emb = angles_embedding({f"w{i}": i for i in range(50)})
    b1 = random_boards(words, 3, 4, 5, seed=1, embeddings=[emb])
    b2 = random_boards(words, 3, 4, 5, seed=1, embeddings=[emb])
    assert b1 == b2 and b1 != random_boards(words, 3, 4, 5, seed=2, embeddings=[emb])
    assert all(len(b.blue) == 4 and len(b.red) == 5 and "oov" not in b.words for b in b1)


def _console():
    from rich.console import Console

    buf = io.StringIO()
    return Console(file=buf, width=100, force_terminal=False), buf


def test_terminal_game_person_as_sender():
    console, buf = _console()
    lines = iter(["a0 2", "bogus", "c 2"])  # a board word, a malformed line, then a good clue
    res = play_terminal(
        BOARD,
        "sender",
        EmbeddingNearestReceiver(E1),
        console=console,
        ask=lambda prompt: next(lines),
    )
    out = buf.getvalue()
    assert res.solved and res.turns == 1
    assert "not a legal clue" in out and "type one word and a number" in out
    assert "all blue words found in 1 turn" in out


def test_terminal_game_person_as_receiver():
    console, buf = _console()
    lines = iter(["zebra", "a1", "a0"])
    res = play_terminal(
        BOARD,
        "receiver",
        ExhaustiveSearchSender(E1),
        console=console,
        ask=lambda prompt: next(lines),
    )
    out = buf.getvalue()
    assert res.solved and res.turns == 1
    assert "clue: c 2" in out and "'zebra' is not a word left on the board" in out


def test_cli_play_with_fed_stdin(tmp_path):
    from typer.testing import CliRunner

    from wordgames.cli import app

    vec = tmp_path / "toy.txt"
    vec.write_text("a0 1.0 0.0\na1 0.9848 0.1736\nr -1.0 0.0\nc 0.9962 0.0872\nfar 0.0 1.0\n")
    words = tmp_path / "words.txt"
    words.write_text("a0\na1\nr\n")
    board = random_boards(["a0", "a1", "r"], 1, 2, 1, seed=0)[0]
    clue = "c 2" if set(board.blue) == {"a0", "a1"} else "far 1"
    result = CliRunner().invoke(
        app,
        [
            "codenames",
            "play",
            "--role",
            "sender",
            "-e",
            str(vec),
            "--words",
            str(words),
            "--n-blue",
            "2",
            "--n-red",
            "1",
            "--max-turns",
            "3",
        ],
        input=f"r 1\n{clue}\n{clue}\n{clue}\n",
    )
    assert "not a legal clue" in result.output
    # a game played to its end exits 0, won or lost (issue 21: it exited 1 when lost)
    assert result.exit_code == 0, result.output
    assert ("all blue words found" in result.output) != ("blue word(s) left" in result.output)


def test_no_clue_is_repeated_on_the_same_board_state():
    guesses = iter([[], ["a0", "a1"]])  # turn 1: no guess, the board stays as it was
    game = Game(
        Board(("a0", "a1"), ("r",)),
        ExhaustiveSearchSender(E1),
        CallableReceiver(lambda w, c, n: next(guesses)),
        max_turns=4,
    )
    t1 = game.play_turn()
    assert t1.clue == "c" and t1.guesses == [] and game.board.given_clues == ("c",)
    with pytest.raises(IllegalClueError, match="already given"):  # a person may not either
        game.give_clue("c", 1)
    t2 = game.play_turn()
    assert t2.clue != "c"  # the agent's next best clue
    # once a word is taken off the board, the state is new: no clue is barred
    assert Board(("a0", "a1"), ("r",), given_clues=("c",)).without(["r"]).given_clues == ()


def test_shared_stem_rule_reaches_the_agent_and_irregular_plurals():
    emb = angles_embedding({"foot": 0, "toe": 20, "bank": 180, "feet": 10, "shoe": 13})
    rules = ClueRules(no_shared_stem=True)
    board = Board(("foot", "toe"), ("bank",), rules=rules)
    assert ExhaustiveSearchSender(emb).give_clue(Board(("foot", "toe"), ("bank",)))[0] == "feet"
    # the board's rules bind an agent whose own rules are looser
    assert ExhaustiveSearchSender(emb).give_clue(board) == ("shoe", 2)
    with pytest.raises(IllegalClueError, match="shares a stem with the board word 'foot'"):
        board.check_clue("feet")
    assert random_boards(["foot", "toe", "bank"], 1, 1, 1, rules=rules)[0].rules == rules


def test_game_result_counts_and_game_metric_interval():
    game = Game(
        Board(("dog", "cat"), ("car", "bank")),
        CallableSender(lambda b: ("pet", 2)),
        CallableReceiver(lambda w, c, n: ["dog", "car"] if "car" in w else ["cat"]),
    )
    res = game.play()
    assert (res.blue_found, res.red_hit, res.turns) == (2, 1, 2)
    m = game_metric(
        ExhaustiveSearchSender(E1, "frequency"),
        EmbeddingNearestReceiver(E2),
        [BOARD] * 3 + [Board(("a0",), ("r", "a1"))] * 3,
    )
    assert 1 <= m["ci_low"] <= m["mean_turns"] <= m["ci_high"] <= 3


def test_play_takes_any_registered_agent_of_the_other_role(tmp_path):
    """Issue 42: `codenames play --agent` reads the agent registry, not a list of its own."""
    from typer.testing import CliRunner

    from wordgames.cli import app

    vec = tmp_path / "toy.txt"
    vec.write_text("a0 1.0 0.0\na1 0.9848 0.1736\nr -1.0 0.0\nc 0.9962 0.0872\nfar 0.0 1.0\n")
    words = tmp_path / "words.txt"
    words.write_text("a0\na1\nr\n")
    base = ["codenames", "play", "-e", str(vec), "--words", str(words), "--n-blue", "2",
            "--n-red", "1", "--max-turns", "1"]  # fmt: skip
    wrong = CliRunner().invoke(app, [*base, "--role", "receiver", "--agent", "nearest"])
    assert wrong.exit_code == 2 and "nearest is a receiver" in wrong.output
    player = CliRunner().invoke(app, [*base, "--role", "sender", "--agent", "player-receiver"])
    assert player.exit_code == 2 and "needs a subject with player" in player.output
    unknown = CliRunner().invoke(app, [*base, "--role", "sender", "--agent", "nearst"])
    assert unknown.exit_code == 2 and "did you mean 'nearest'" in unknown.output
    # a receiver that needs no embedding (the random baseline) plays a whole game
    played = CliRunner().invoke(app, [*base, "--role", "sender", "--agent", "random-receiver"],
                                input="c 2\n")  # fmt: skip
    assert played.exit_code == 0, played.output
    assert "blue word(s) left" in played.output or "all blue words found" in played.output
