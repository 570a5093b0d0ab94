"""Models behind an OpenAI-compatible server as subjects: ``chat:MODEL`` players.

* :mod:`wordgames.llm.cache` -- the response cache (SQLite, content-addressed, one row per
  response, shared by every run and output folder).
* :mod:`wordgames.llm.client` -- the requests: the ``openai`` package's client (``base_url``),
  bounded retries with back-off on 429 and 5xx, timeouts, the server checked before any work.
* :mod:`wordgames.llm.subject` -- :class:`~wordgames.llm.subject.ChatSubject`, a *player*
  (:mod:`wordgames.subjects`) that answers a game's question with the model's reply.

``openai`` is imported only when a request is made: ``import wordgames`` stays light.
"""

from __future__ import annotations

from wordgames.llm.subject import ChatSubject

__all__ = ["ChatSubject"]
