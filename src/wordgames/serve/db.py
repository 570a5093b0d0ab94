"""Database engines and migrations.

SQLite is the embedded default: WAL journal (readers never block the writer), full
synchronous commits, a 30 s busy timeout, foreign keys on, and every *write* transaction opened
with ``BEGIN IMMEDIATE`` so that concurrent writers queue on the lock instead of failing on a
lock upgrade. PostgreSQL (``postgresql://...``, driver psycopg 3) is for several workers or
machines: the app keeps no state outside the database, and a participant's row is locked
(``SELECT ... FOR UPDATE``) while an answer is written.
"""

from __future__ import annotations

import logging
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy import create_engine, event, inspect, text
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.orm import Session, sessionmaker

from wordgames.errors import WordgamesError

log = logging.getLogger("wordgames.serve")
MIGRATIONS = Path(__file__).parent / "migrations"


class DatabaseError(WordgamesError):
    """The database URL is invalid, unreachable or at another schema revision."""


def normalise_url(url: str) -> str:
    """The SQLAlchemy URL of a database URL given by the user.

    ``sqlite:///file.db`` as is; ``postgresql://`` and ``postgres://`` get the psycopg 3
    driver. Anything else is an error.

    >>> normalise_url("postgres://u@127.0.0.1/db")
    'postgresql+psycopg://u@127.0.0.1/db'
    >>> normalise_url("sqlite:///study.db")
    'sqlite:///study.db'
    """
    url = str(url).strip()
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    if url.startswith(("sqlite:///", "postgresql+psycopg://")):
        return url
    raise DatabaseError(
        f"database URL {url!r}: expected sqlite:///FILE or postgresql://USER:PASSWORD@HOST:PORT/DB"
    )


def make_engine(url: str, *, pool_size: int = 10) -> Engine:
    """An engine for ``url`` (see the module docstring for the SQLite settings).

    Write sessions use ``engine.execution_options(wg_write=True)`` (:func:`write_session`).
    """
    url = normalise_url(url)
    if url.startswith("sqlite"):
        path = make_url(url).database
        if not path or path == ":memory:":
            raise DatabaseError(
                "an in-memory SQLite database cannot be shared by requests: "
                "give a file (sqlite:///study.db)"
            )
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(
            url,
            connect_args={"check_same_thread": False, "timeout": 30},
            pool_size=pool_size,
            max_overflow=2 * pool_size,
        )
        _sqlite_setup(engine)
        return engine
    return create_engine(url, pool_size=pool_size, max_overflow=2 * pool_size, pool_pre_ping=True)


def _sqlite_setup(engine: Engine) -> None:
    @event.listens_for(engine, "connect")
    def _connect(dbapi_conn, _record):
        dbapi_conn.isolation_level = None  # transactions are begun below
        cur = dbapi_conn.cursor()
        for pragma in (
            "journal_mode=WAL",
            "synchronous=FULL",
            "foreign_keys=ON",
            "busy_timeout=30000",
        ):
            cur.execute(f"PRAGMA {pragma}")
        cur.close()

    @event.listens_for(engine, "begin")
    def _begin(conn):
        write = conn.get_execution_options().get("wg_write", False)
        conn.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")


class Database:
    """An engine with its session factories.

    ``read()`` and ``write()`` are context managers that commit on success and roll back on
    error.
    """

    def __init__(self, url: str, *, pool_size: int = 10):
        self.url = normalise_url(url)
        self.engine = make_engine(self.url, pool_size=pool_size)
        self.is_sqlite = self.url.startswith("sqlite")
        self._read = sessionmaker(self.engine, expire_on_commit=False)
        self._write = sessionmaker(
            self.engine.execution_options(wg_write=True), expire_on_commit=False
        )

    @contextmanager
    def read(self):
        """A read session (deferred transaction)."""
        with self._read() as s, s.begin():
            yield s

    @contextmanager
    def write(self):
        """A write session: one transaction, committed when the block ends."""
        with self._write() as s, s.begin():
            yield s

    def lock(self, session: Session, stmt):
        """``stmt`` with ``FOR UPDATE`` on PostgreSQL (SQLite's write lock is already held)."""
        return stmt if self.is_sqlite else stmt.with_for_update()

    def dispose(self) -> None:
        """Close the pooled connections."""
        self.engine.dispose()


def alembic_config(connection=None, url: str | None = None):
    """The Alembic configuration of the app's migrations (no ``alembic.ini`` needed)."""
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    if url:
        cfg.set_main_option("sqlalchemy.url", normalise_url(url).replace("%", "%%"))
    if connection is not None:
        cfg.attributes["connection"] = connection
    return cfg


def migrate(db: Database, revision: str = "head") -> str:
    """Upgrade the schema to ``revision``; returns the revision now in the database."""
    from alembic import command

    with db.engine.begin() as conn:
        command.upgrade(alembic_config(conn), revision)
    return current_revision(db)


def current_revision(db: Database) -> str | None:
    """The schema revision stored in the database (None: not migrated)."""
    with db.engine.connect() as conn:
        if not inspect(conn).has_table("alembic_version"):
            return None
        return conn.execute(text("SELECT version_num FROM alembic_version")).scalar()


def require_current(db: Database) -> None:
    """Raise :class:`DatabaseError` unless the database is at the latest revision."""
    from alembic.script import ScriptDirectory

    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    have = current_revision(db)
    if have != head:
        raise DatabaseError(
            f"database {db.engine.url.render_as_string(hide_password=True)} is at "
            f"schema revision {have!r}, the app needs {head!r}: run "
            "'wordgames collect migrate --db URL' (or start 'wordgames serve', "
            "which migrates)"
        )
