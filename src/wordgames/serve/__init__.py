"""``wordgames serve``: a web app where people play the games with the agents.

Every move is stored in a database (SQLite by default, PostgreSQL by URL), and the collected
play is exported to the user formats that the measures read (``wordgames collect export``). See
``docs/serve.md``.

Modules: :mod:`~wordgames.serve.config` (study files), :mod:`~wordgames.serve.db` (engines,
migrations), :mod:`~wordgames.serve.models` (tables), :mod:`~wordgames.serve.games` and
:mod:`~wordgames.serve.wiki` (the games), :mod:`~wordgames.serve.store` (transactions),
:mod:`~wordgames.serve.app` / :mod:`~wordgames.serve.pages` / :mod:`~wordgames.serve.admin`
(HTTP), :mod:`~wordgames.serve.export` and :mod:`~wordgames.serve.live` (files and measures).
Needs the ``serve`` extra: ``pip install 'wordgames[serve]'``.
"""
