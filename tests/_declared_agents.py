"""Agents that declare themselves on their class (tests/test_agents.py reads this module)."""

from wordgames.agents import agent
from wordgames.codenames.agents import EmbeddingNearestReceiver
from wordgames.codenames.agents import RandomReceiver as Imported  # not declared here


@agent("farthest", "codenames", "receiver", "vectors")
class FarthestReceiver(EmbeddingNearestReceiver):
    """Board words farthest from the clue first (a toy receiver)."""

    name = "farthest"

    def ranked_forward(self, board_words, clue):
        return super().ranked_forward(board_words, clue)[::-1]


class Subclass(FarthestReceiver):  # inherits the attribute, declares nothing itself
    pass


__all__ = ["FarthestReceiver", "Imported", "Subclass"]
