"""The Odd-Man-Out solver driven by a *player* subject (:mod:`wordgames.subjects`).

:class:`PlayerSolver` shows the player each puzzle's words (in the order every solver sees
them) and asks which one does not belong, or ``none``. ``none`` is an abstention (reason
``"abstained"``); an answer that names no word of the puzzle is an abstention with reason
``"unreadable-answer"``, counted among the abstentions by reason, never a guess.
"""

from __future__ import annotations

import numpy as np

from wordgames.oddmanout.embedding_solver import Solution
from wordgames.params import Params
from wordgames.subjects import AnswerError, Question, parse_choice

PROMPT_VERSION = "1"


class PlayerSolver(Params):
    """An Odd-Man-Out solver that asks a player.

    Parameters
    ----------
    player : Player
        The subject that answers.

    Examples
    --------
    >>> from wordgames.oddmanout.puzzles import PuzzleSet
    >>> from wordgames.subjects import PlayerSubject
    >>> class First(PlayerSubject):
    ...     def answer(self, q):
    ...         return q.fields["words"][0]
    ...     def identity(self):
    ...         return {"kind": "first"}
    >>> ps = PuzzleSet.from_odd_first("t", [["grass", "cherry", "apple", "pear", "plum"]], seed=None)
    >>> PlayerSolver(First("f")).solve(ps).choice.tolist()
    [0]
    """

    name = "player"
    #: what the notes and parameters of a run say (the player sees the words as they are)
    mwe = case = "as given"

    def __init__(self, player):
        self.player = player

    def question(self, words) -> Question:
        listed = ", ".join(words)
        prompt = (
            f"Which of these words does not belong with the others: {listed}? Answer with "
            "that one word only, or 'none' if you cannot tell."
        )
        return Question("oddmanout", "solver", {"words": tuple(words)}, prompt, PROMPT_VERSION)

    def solve(self, puzzles) -> Solution:
        """The player's answer to every puzzle (a question per puzzle: players are not batched)."""
        P, n = puzzles.words.shape
        choice = np.full(P, -1, dtype=np.int64)
        reason = np.full(P, "", dtype=object)
        for p in range(P):
            words = [str(w) for w in puzzles.words[p]]
            try:
                picked = parse_choice(
                    self.player.answer(self.question(words)), words, allow_none=True
                )
            except AnswerError:
                reason[p] = "unreadable-answer"
                continue
            if picked is None:
                reason[p] = "abstained"
            else:
                choice[p] = words.index(picked)
        return Solution(
            "player",
            choice,
            reason,
            np.zeros((P, n)),
            parameters={"player": self.player.identity(), "prompt_version": PROMPT_VERSION},
            oov={"puzzles_with_oov": 0, "oov_words": 0},
        )

    def describe(self) -> dict:
        return {"solver": "player", "player": self.player.identity()}
