"""Codenames measures (Solomon & Ben Zion): embedding agents that play Codenames, scored against
human play.

Modules (nothing heavy is imported here):

* :mod:`~wordgames.codenames.board` -- :class:`Board` (blue and red words) and :class:`ClueRules`
* :mod:`~wordgames.codenames.agents` -- ``ClusterSender``, ``ExhaustiveSearchSender``,
  ``RandomSender``, ``EmbeddingNearestReceiver``, ``RandomReceiver``
* :mod:`~wordgames.codenames.measures` -- Algorithms 4 to 7 (ranks, MAP, guess score)
* :mod:`~wordgames.codenames.game` -- :class:`Game`, self-play ``game_metric``, ``cross_matrix``
* :mod:`~wordgames.codenames.play` -- the terminal game
* :mod:`~wordgames.codenames.suite` -- the Codenames part of ``wordgames run``
* :mod:`~wordgames.codenames.human_data` -- loaders of human play (see docs/codenames-data.md)
"""
