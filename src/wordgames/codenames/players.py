"""Codenames agents driven by a *player* subject (:mod:`wordgames.subjects`).

:class:`PlayerReceiver` asks the player to order the board words for a clue; the order is the
receiver's ``ranked_forward`` (Algorithm 5's ranking) and its first ``number`` words its guess
(Algorithm 7). An answer that is not an ordering of exactly the board words is an
:class:`~wordgames.subjects.AnswerError`: the record is skipped as ``unreadable_answer`` and
counted, never scored as a guess.
"""

from __future__ import annotations

from collections.abc import Sequence

from wordgames.codenames.agents import Agent
from wordgames.subjects import Question, parse_ranking

#: the version of the receiver's prompt (part of the question, hence of the player's answers)
PROMPT_VERSION = "1"


class PlayerReceiver(Agent):
    """A Codenames receiver that asks a player.

    Parameters
    ----------
    player : Player
        The subject that answers (:class:`~wordgames.subjects.Player`).

    Examples
    --------
    >>> from wordgames.subjects import PlayerSubject
    >>> class Alphabetical(PlayerSubject):
    ...     def answer(self, q):
    ...         return ", ".join(sorted(q.fields["board"]))
    ...     def identity(self):
    ...         return {"kind": "alphabetical"}
    >>> PlayerReceiver(Alphabetical("abc")).ranked_forward(["dog", "cat", "car"], "pet")
    ['car', 'cat', 'dog']
    """

    name = "player-receiver"

    def __init__(self, player):
        self.player = player

    def question(self, board_words: Sequence[str], clue: str) -> Question:
        words = "\n".join(board_words)
        prompt = (
            f"We are playing Codenames. The clue is {clue!r}. Order all of these board words "
            "from the most to the least related to the clue: one word per line, every word "
            f"once, nothing else.\n{words}"
        )
        fields = {"board": tuple(board_words), "clue": clue}
        return Question("codenames", "receiver", fields, prompt, PROMPT_VERSION)

    def ranked_forward(self, board_words: Sequence[str], clue: str) -> list[str]:
        answer = self.player.answer(self.question(board_words, clue))
        return parse_ranking(answer, board_words)

    def guess(self, board_words: Sequence[str], clue: str, number: int) -> list[str]:
        return self.ranked_forward(board_words, clue)[:number]
