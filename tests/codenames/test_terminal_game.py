"""``wordgames codenames play`` driven in a pseudo-terminal, as a person would play it.

The real program runs in a child process on a pseudo-terminal (the standard library's ``pty``),
80 columns wide, with ``NO_COLOR`` set; the test answers its prompts and reads the screen.
"""

from __future__ import annotations

import os
import re
import select
import sys
import time

import numpy as np
import pytest

pty = pytest.importorskip("pty")  # POSIX only

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07|\r")
PROMPT = "(empty to stop)"

# foot and toe (blue) against bank and river (red). "feet" is the best clue for foot + toe
# but shares a stem with "foot"; "shoe" is the next best; "sky" is nearer no blue word.
ANGLES = {
    "foot": 0,
    "toe": 20,
    "bank": 180,
    "river": 160,
    "feet": 10,
    "shoe": 13,
    "sock": 5,
    "money": 175,
    "water": 165,
    "sky": 90,
}
BOARD_WORDS = ("foot", "toe", "bank", "river")


def _files(tmp_path):
    vec = tmp_path / "toy.txt"
    vec.write_text(
        "".join(
            f"{w} {np.cos(np.deg2rad(a)):.6f} {np.sin(np.deg2rad(a)):.6f}\n"
            for w, a in ANGLES.items()
        )
    )
    words = tmp_path / "words.txt"
    words.write_text("\n".join(BOARD_WORDS) + "\n")
    return vec, words


def _seed_with_blue(blue: set[str]) -> int:
    """A board seed whose blue words are ``blue`` (the board is all four words)."""
    from wordgames.codenames.game import random_boards

    for seed in range(200):
        if set(random_boards(BOARD_WORDS, 1, 2, 2, seed=seed)[0].blue) == blue:
            return seed
    raise AssertionError("no seed gives that board")


def _drive(argv: list[str], answers: list[str], env: dict, timeout: float = 120) -> tuple:
    """Run ``argv`` on a pseudo-terminal; answer the i-th prompt with ``answers[i]``.

    Returns the exit status and everything the program wrote (raw, with escape codes).
    """
    pid, fd = pty.fork()
    if pid == 0:  # the child: the program itself
        try:
            os.execve(argv[0], argv, env)
        finally:
            os._exit(127)
    import fcntl
    import struct
    import termios

    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 80, 0, 0))
    out, answered, deadline = b"", 0, time.monotonic() + timeout
    while time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.5)
        if ready:
            try:
                chunk = os.read(fd, 4096)
            except OSError:  # the child closed the terminal
                break
            if not chunk:
                break
            out += chunk
        asked = out.decode("utf-8", "replace").count(PROMPT)
        if asked > answered:
            reply = answers[answered] if answered < len(answers) else ""
            os.write(fd, reply.encode() + b"\r")
            answered += 1
    else:
        os.kill(pid, 9)
        raise AssertionError(
            f"the game did not end in {timeout} s:\n{out.decode(errors='replace')}"
        )
    _, status = os.waitpid(pid, 0)
    os.close(fd)
    return os.waitstatus_to_exitcode(status), out.decode("utf-8", "replace")


def _board_lines(screen: str) -> list[str]:
    return [ln for ln in screen.splitlines() if "foot" in ln and "river" in ln]


@pytest.mark.slow
def test_play_in_a_terminal_as_receiver(tmp_path):
    vec, words = _files(tmp_path)
    seed = _seed_with_blue({"foot", "toe"})
    env = {**os.environ, "NO_COLOR": "1", "TERM": "xterm-256color", "COLUMNS": "80"}
    env.pop("FORCE_COLOR", None)
    argv = [
        sys.executable,
        "-c",
        "from wordgames.cli import main; main()",
        "codenames",
        "play",
        "--role",
        "receiver",
        "--agent",
        "exhaustive",
        "-e",
        str(vec),
        "--words",
        str(words),
        "--n-blue",
        "2",
        "--n-red",
        "2",
        "--max-turns",
        "5",
        "--seed",
        str(seed),
    ]
    # turn 1: the person stops without guessing; then guesses foot and toe as asked
    code, raw = _drive(argv, ["", "foot", "toe", "toe"], env)
    screen = ANSI.sub("", raw)
    assert code == 0, screen

    # NO_COLOR: no colour escape codes, the text markers say it all
    assert not re.search(r"\x1b\[[0-9;]*(3[0-7]|9[0-7]|38;)", raw), "colour codes with NO_COLOR"
    assert "[ ] foot" in screen and "[+] foot" in screen and "[ ] not guessed" in screen

    # the stem rule is on by default: the agent never gives "feet" for the board word "foot"
    clues = re.findall(r"clue: (\S+) (\d+)", screen)
    assert clues and all(c != "feet" for c, _ in clues), clues
    assert clues[0] == ("shoe", "2")  # the best clue that does not share a stem
    # turn 1 had no guess (the board state did not change): the next clue is another one
    assert clues[1][0] != clues[0][0], clues

    # the board keeps its places: every word sits in the same column in every rendering
    lines = _board_lines(screen)
    assert len(lines) >= 3, screen  # two turns and the board at the end
    for w in BOARD_WORDS:
        assert len({ln.index(w) for ln in lines}) == 1, (w, lines)

    # a running score line, then the summary of every turn
    assert "turn 1 of 5 | blue found 0 of 2 | red hit 0" in screen
    assert "turn 2 of 5 | blue found 0 of 2 | red hit 0" in screen
    assert "game over" in screen
    assert re.search(r"all blue words found in \d turn\(s\) \(0 red hits\)", screen)
    summary = screen[screen.index("game over") :]
    assert "no guess" in summary and "[+] foot" in summary and "[+] toe" in summary


@pytest.mark.slow
def test_play_in_a_terminal_as_sender_refuses_a_shared_stem(tmp_path):
    vec, words = _files(tmp_path)
    seed = _seed_with_blue({"foot", "toe"})
    env = {**os.environ, "NO_COLOR": "1", "TERM": "xterm-256color", "COLUMNS": "80"}
    argv = [
        sys.executable,
        "-c",
        "from wordgames.cli import main; main()",
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
        "2",
        "--max-turns",
        "3",
        "--seed",
        str(seed),
    ]
    global PROMPT
    old, PROMPT = PROMPT, "(e.g. 'animal 2')"
    try:
        code, raw = _drive(argv, ["feet 2", "sock 2"], env)
    finally:
        PROMPT = old
    screen = ANSI.sub("", raw)
    assert "'feet' is not a legal clue on this board: it shares a stem with the board word" in (
        screen.replace("\n", " ")
    ), screen
    # the sender sees the colours as text: [B] blue, [R] red
    assert "[B] foot" in screen and "[R] bank" in screen
    assert code == 0 and "all blue words found in 1 turn(s)" in screen
