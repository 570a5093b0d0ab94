"""Alembic environment of ``wordgames serve``.

Run by :func:`wordgames.serve.db.migrate` with a connection in
``config.attributes["connection"]`` (or a URL in ``sqlalchemy.url``).
"""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine

from wordgames.serve.models import Base

config = context.config
target_metadata = Base.metadata


def _run(connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=connection.dialect.name == "sqlite",
    )
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    """Run the migrations on the connection given by ``migrate``, else on ``sqlalchemy.url``."""
    connection = config.attributes.get("connection")
    if connection is not None:
        _run(connection)
        return
    engine = create_engine(config.get_main_option("sqlalchemy.url"))
    with engine.connect() as conn:
        _run(conn)


if context.is_offline_mode():  # pragma: no cover - `alembic upgrade --sql`
    context.configure(
        url=config.get_main_option("sqlalchemy.url"),
        target_metadata=target_metadata,
        literal_binds=True,
    )
    with context.begin_transaction():
        context.run_migrations()
else:
    run_migrations_online()
