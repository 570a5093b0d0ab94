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
from wordgames.prompts import template
from wordgames.subjects import Question, parse_ranking

#: the receiver's prompt (``wordgames/prompts/codenames_receiver.txt``) and its version (part
#: of the question, hence of the player's answers)
PROMPT, PROMPT_VERSION = template("codenames_receiver")


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
        prompt = PROMPT.format(clue=clue, board="\n".join(board_words))
        fields = {"board": tuple(board_words), "clue": clue}
        # a word a line: about 3 tokens each
        tokens = 8 + 4 * len(board_words)
        return Question(
            "codenames", "receiver", fields, prompt, PROMPT_VERSION, answer_tokens=tokens
        )

    def ranked_forward(self, board_words: Sequence[str], clue: str) -> list[str]:
        answer = self.player.answer(self.question(board_words, clue))
        return parse_ranking(answer, board_words)

    def guess(self, board_words: Sequence[str], clue: str, number: int) -> list[str]:
        return self.ranked_forward(board_words, clue)[:number]
