"""Playing Codenames: a :class:`Game` that agents and people drive, and self-play.

Self-play gives :func:`game_metric` (the paper's Table 1) and the sender x receiver cross matrix.

Turn rules (the paper's simplified two-colour game): the sender gives ``(clue, number)``; the
receiver guesses up to ``number`` board words, revealed one at a time; a blue word is taken
off the board and the receiver goes on; a red word is taken off the board and ends the turn.
The game ends when every blue word is found or after ``max_turns`` turns. A clue is never
given twice on the same board state: after a turn without a guess it is in
``board.given_clues`` until a word is taken off.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from wordgames.codenames.agents import Agent
from wordgames.codenames.board import Board, ClueRules, IllegalClueError, _norm
from wordgames.errors import OOVError
from wordgames.subjects import AnswerError


class IllegalGuessError(ValueError):
    """A guess that is not a word still on the board."""


class CallableSender(Agent):
    """A sender whose clues come from a function ``ask(board) -> (clue, number)``.

    The function may be a person at a terminal, a web form or a script. It has no ranking.

    Parameters
    ----------
    ask : callable
        ``ask(board) -> (clue, number)``.

    Examples
    --------
    >>> CallableSender(lambda board: ("pet", 2)).give_clue(Board(("dog", "cat"), ("car",)))
    ('pet', 2)
    """

    name = "human-sender"

    def __init__(self, ask: Callable[[Board], tuple[str, int]]):
        self.ask = ask

    def give_clue(self, board: Board) -> tuple[str, int]:
        return self.ask(board)

    def ranked_forward(self, blue, red):
        raise NotImplementedError("a person's clues have no ranking over the vocabulary")


class CallableReceiver(Agent):
    """A receiver whose guesses come from ``ask(board_words, clue, number) -> list[str]``.

    Parameters
    ----------
    ask : callable
        ``ask(board_words, clue, number) -> list of board words``.

    Examples
    --------
    >>> CallableReceiver(lambda words, clue, n: words[:n]).guess(["dog", "cat"], "pet", 1)
    ['dog']
    """

    name = "human-receiver"

    def __init__(self, ask: Callable[[list[str], str, int], list[str]]):
        self.ask = ask

    def guess(self, board_words, clue, number) -> list[str]:
        return list(self.ask(list(board_words), clue, number))

    def ranked_forward(self, board_words, clue):
        raise NotImplementedError("a person's guesses have no ranking over the board")


@dataclass
class Turn:
    """One turn: the clue, the guesses made and their colours."""

    clue: str
    number: int
    guesses: list[str] = field(default_factory=list)
    colors: list[str] = field(default_factory=list)
    #: whose unreadable answer lost the turn: "sender", "receiver" or "" (none)
    unreadable: str = ""

    @property
    def n_blue(self) -> int:
        return self.colors.count("blue")


@dataclass
class GameResult:
    """The outcome of a :class:`Game`, from :meth:`Game.result`.

    Parameters
    ----------
    turns : int
        Turns played.
    solved : bool
        Whether every blue word was found.
    blue_left : int
        Blue words still on the board.
    history : list of Turn
        Every turn, in order.
    """

    turns: int
    solved: bool
    blue_left: int
    history: list[Turn]

    @property
    def blue_found(self) -> int:
        """Blue words guessed."""
        return sum(t.n_blue for t in self.history)

    @property
    def red_hit(self) -> int:
        """Red words guessed (each ended its turn)."""
        return sum(len(t.colors) - t.n_blue for t in self.history)


class Game:
    """One game between a sender and a receiver.

    They are agents, or people through :class:`CallableSender`/:class:`CallableReceiver`.

    Drive it turn by turn (``give_clue`` then ``guess``, or ``play_turn``) or to the end
    (``play``).

    Examples
    --------
    >>> g = Game(Board(("dog", "cat"), ("car",)),
    ...          CallableSender(lambda b: ("pet", 2)),
    ...          CallableReceiver(lambda words, clue, n: ["dog", "car"]))
    >>> t = g.play_turn()
    >>> t.guesses, t.colors, g.board.blue, g.done
    (['dog', 'car'], ['blue', 'red'], ('cat',), False)
    """

    def __init__(self, board: Board, sender, receiver, max_turns: int = 25):
        self.board = board
        self.sender = sender
        self.receiver = receiver
        self.max_turns = int(max_turns)
        self.history: list[Turn] = []
        self._pending: tuple[str, int] | None = None

    @property
    def done(self) -> bool:
        return not self.board.blue or len(self.history) >= self.max_turns

    @property
    def solved(self) -> bool:
        return not self.board.blue

    def give_clue(self, clue: str | None = None, number: int | None = None) -> tuple[str, int]:
        """The sender's clue for the current board (or the given one).

        It is checked against the board's rules; raises :class:`IllegalClueError` for an illegal
        clue.
        """
        if self.done:
            raise RuntimeError("the game is over")
        if clue is None:
            clue, number = self.sender.give_clue(self.board)
        clue = self.board.check_clue(clue)
        number = int(number if number is not None else 1)
        if number < 0:
            raise IllegalClueError(f"the number must be 0 or more, got {number}")
        self._pending = (clue, number)
        return self._pending

    def guess(self, words: Sequence[str] | None = None) -> Turn:
        """Reveal the receiver's guesses (or the given ones) for the pending clue.

        Guesses beyond the clue's number are ignored; a word not on the board raises
        :class:`IllegalGuessError` before anything is revealed.
        """
        if self._pending is None:
            raise RuntimeError("give a clue first")
        clue, number = self._pending
        unreadable = ""
        if words is None:
            try:
                words = self.receiver.guess(list(self.board.words), clue, number)
            except OOVError:  # the receiver cannot read this clue: the turn is lost
                words = []
            except AnswerError:  # a player's answer that names no guess: lost, counted
                words, unreadable = [], "receiver"
        words = [_norm(w) for w in words][:number]
        on_board = set(self.board.words)
        bad = [w for w in words if w not in on_board]
        if bad or len(set(words)) != len(words):
            raise IllegalGuessError(f"not on the board (or repeated): {bad or words}")
        turn = Turn(clue, number, unreadable=unreadable)
        for w in words:
            color = self.board.color(w)
            turn.guesses.append(w)
            turn.colors.append(color)
            self.board = self.board.without([w])
            if color != "blue" or not self.board.blue:
                break
        if not turn.guesses:  # the board did not change: the clue may not be given again on it
            self.board = self.board.with_clue_given(clue)
        self.history.append(turn)
        self._pending = None
        return turn

    def play_turn(self) -> Turn:
        try:
            self.give_clue()
        except AnswerError:  # a player's answer that gives no usable clue: the turn passes
            turn = Turn("", 0, unreadable="sender")
            self.history.append(turn)
            return turn
        return self.guess()

    def play(self) -> GameResult:
        while not self.done:
            self.play_turn()
        return self.result()

    def result(self) -> GameResult:
        return GameResult(len(self.history), self.solved, len(self.board.blue), self.history)


def random_boards(
    words: Sequence[str],
    n_boards: int,
    n_blue: int,
    n_red: int,
    seed: int = 0,
    embeddings: Sequence = (),
    rules: ClueRules | None = None,
) -> list[Board]:
    """``n_boards`` seeded random boards from ``words``, restricted to words every embedding knows.

    This way no agent meets an out-of-vocabulary board word. ``rules`` are the boards' clue
    rules (default: none beyond "never a board word").
    """
    pool = sorted({_norm(w) for w in words})
    for emb in embeddings:
        pool = [w for w in pool if w in emb]
    rng = np.random.default_rng(seed)
    seeds = rng.integers(0, 2**31, size=n_boards)
    return [Board.random(pool, n_blue, n_red, seed=int(s), rules=rules) for s in seeds]


def play_boards(sender, receiver, boards: Sequence[Board], max_turns: int | None = None, lost=None):
    """``(turns, solved, largest turn limit)``: every board played to the end.

    An unsolved game counts its limit + 1 turns (the limit: ``max_turns``, default the
    number of blue words of the board, as in the paper). ``lost`` (a Counter) counts the turns
    lost to a player's unreadable answer, by role (``"sender"``, ``"receiver"``).
    """
    turns, solved, limits = [], [], [0]
    for board in boards:
        limit = len(board.blue) if max_turns is None else int(max_turns)
        res = Game(board, sender, receiver, max_turns=limit).play()
        turns.append(res.turns if res.solved else limit + 1)
        solved.append(res.solved)
        limits.append(limit)
        if lost is not None:
            lost.update(t.unreadable for t in res.history if t.unreadable)
    return turns, solved, max(limits)


def game_metric(
    sender,
    receiver,
    boards: Sequence[Board],
    max_turns: int | None = None,
    *,
    n_resamples: int = 1000,
    seed: int = 0,
) -> dict:
    """Self-play: every board played to the end; the paper's Table 1 metric is ``mean_turns``.

    Convention: a game not solved within ``max_turns`` (default: the number of blue words of
    the board, as in the paper) counts as ``max_turns + 1`` turns. ``solve_rate`` and
    ``mean_turns_solved`` (over solved games only) are reported beside it. The 95 % interval
    of ``mean_turns`` is a seeded percentile bootstrap over boards (``n_resamples``
    resamples, ``seed``), so it lies between 1 and the largest count of turns.
    """
    from wordgames.stats import bootstrap_ci

    turns, solved, limit = play_boards(sender, receiver, boards, max_turns)
    t, s = np.asarray(turns, float), np.asarray(solved, bool)
    lo, hi = bootstrap_ci(t, n_resamples=n_resamples, seed=seed, bounds=(1.0, float(limit + 1)))
    return {
        "mean_turns": float(t.mean()) if t.size else float("nan"),
        "ci_low": lo,
        "ci_high": hi,
        "solve_rate": float(s.mean()) if s.size else float("nan"),
        "mean_turns_solved": float(t[s].mean()) if s.any() else float("nan"),
        "n_games": int(t.size),
        "turns": turns,
    }


def cross_matrix(
    embeddings: Sequence,
    boards: Sequence[Board],
    *,
    max_turns: int | None = None,
    make_sender: Callable | None = None,
    make_receiver: Callable | None = None,
    progress: Callable[[str], None] | None = None,
) -> list[dict]:
    """Every (sender embedding, receiver embedding) pair plays every board (Table 1).

    Defaults: ``ExhaustiveSearchSender(emb, tie_break="frequency")`` (the paper's "first
    optimal clue") and ``EmbeddingNearestReceiver(emb)``. Returns one row per pair.

    The games run on one BLAS thread: every turn is a few small products, which several BLAS
    threads only slow down on a busy machine (ten embeddings: 17 min with the default threads
    at load 8 for 25 pairs, 5.6 min for 100 pairs with one), and the rows then do not depend on
    the machine's core count.
    """
    from wordgames.blas import single_threaded_blas
    from wordgames.codenames.agents import EmbeddingNearestReceiver, ExhaustiveSearchSender

    make_sender = make_sender or (lambda e: ExhaustiveSearchSender(e, "frequency"))
    make_receiver = make_receiver or EmbeddingNearestReceiver
    rows = []
    with single_threaded_blas():
        for es in embeddings:
            sender = make_sender(es)
            for er in embeddings:
                if progress:
                    progress(f"{es.name} -> {er.name}")
                m = game_metric(sender, make_receiver(er), boards, max_turns)
                m.pop("turns")
                rows.append({"sender": es.name, "receiver": er.name, "same": es is er, **m})
    return rows
