"""Codenames measures (Solomon & Ben Zion).

Embedding agents that play Codenames, scored against human play.

Modules (nothing heavy is imported here; the names below load on first use):

* :mod:`~wordgames.codenames.board` -- :class:`Board` (blue and red words) and :class:`ClueRules`
* :mod:`~wordgames.codenames.agents` -- ``ClusterSender``, ``ExhaustiveSearchSender``,
  ``RandomSender``, ``EmbeddingNearestReceiver``, ``RandomReceiver``
* :mod:`~wordgames.codenames.measures` -- Algorithms 4 to 7 (ranks, MAP, guess score):
  ``receiver_map``, ``receiver_guess_score``, ``sender_ranks_receiver_data``,
  ``sender_ranks_sender_data``
* :mod:`~wordgames.codenames.game` -- :class:`Game`, self-play ``game_metric``, ``cross_matrix``
* :mod:`~wordgames.codenames.play` -- the terminal game
* :mod:`~wordgames.codenames.suite` -- the measure's compute function (``wordgames.evaluate``
  with ``measures=["codenames"]``), ``evaluate_human_datasets`` (every agent on several data
  sets, the senders in one pass) and ``evaluate_human_data`` (on one)
* :mod:`~wordgames.codenames.human_data` -- loaders of human play (see docs/codenames-data.md)

>>> import wordgames.codenames as cn
>>> cn.receiver_map.__module__
'wordgames.codenames.measures'
"""

_LAZY = {
    "Board": "wordgames.codenames.board",
    "ClueRules": "wordgames.codenames.board",
    "ClusterSender": "wordgames.codenames.agents",
    "ExhaustiveSearchSender": "wordgames.codenames.agents",
    "RandomSender": "wordgames.codenames.agents",
    "EmbeddingNearestReceiver": "wordgames.codenames.agents",
    "RandomReceiver": "wordgames.codenames.agents",
    "Sender": "wordgames.codenames.agents",
    "Receiver": "wordgames.codenames.agents",
    "default_senders": "wordgames.codenames.agents",
    "default_receivers": "wordgames.codenames.agents",
    "receiver_map": "wordgames.codenames.measures",
    "receiver_guess_score": "wordgames.codenames.measures",
    "sender_ranks_receiver_data": "wordgames.codenames.measures",
    "sender_ranks_sender_data": "wordgames.codenames.measures",
    "HumanReceiverRecord": "wordgames.codenames.records",
    "HumanSenderRecord": "wordgames.codenames.records",
    "LoadedHumanData": "wordgames.codenames.records",
    "evaluate_human_data": "wordgames.codenames.suite",
    "evaluate_human_datasets": "wordgames.codenames.suite",
    "Game": "wordgames.codenames.game",
    "game_metric": "wordgames.codenames.game",
    "cross_matrix": "wordgames.codenames.game",
}

__all__ = list(_LAZY)


def __getattr__(name: str):
    if name in _LAZY:
        import importlib

        value = getattr(importlib.import_module(_LAZY[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'wordgames.codenames' has no attribute {name!r}")


def __dir__():
    return sorted([*globals(), *__all__])
