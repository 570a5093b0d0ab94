"""Doctest collection of ``wordgames.serve``.

The Alembic environment runs only under Alembic, and without the ``serve`` extra (fastapi,
sqlalchemy...) nothing here can be imported.
"""

import importlib.util

collect_ignore_glob = ["migrations/*"]
if any(importlib.util.find_spec(m) is None for m in ("fastapi", "sqlalchemy", "alembic", "jinja2")):
    collect_ignore_glob.append("*.py")
