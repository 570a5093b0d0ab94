"""The database tables of ``wordgames serve`` (SQLAlchemy 2 ORM; schema by Alembic migrations).

* ``wg_study``: one row per study: its configuration (JSON), the hash of its design, the salt
  that hashes platform ids and the secret that signs CSRF tokens.
* ``wg_item``: the generated trials of a study (boards with the agent's clue, wiki start/target
  pairs, puzzles...) per condition, and its attention checks; immutable once written.
* ``wg_participant``: one row per participant: hashed platform id, condition, the ordered plan
  of items, the position of the next trial, status.
* ``wg_answer``: one row per answered trial; ``(participant, position)`` and the idempotency key
  are unique, so a retry or a double click never duplicates a row.
* ``wg_move``: each click of a wiki navigation in progress (``(participant, position, seq)``
  unique), so a participant who drops out mid-navigation resumes on the same page.
* ``wg_snapshot``: measures computed on the collected data (the admin page's live measures).

No personal data: a platform id (``PROLIFIC_PID``) is stored only as HMAC-SHA256 with the
study's salt; the session id likewise.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime

from sqlalchemy import (
    Boolean,
    DateTime,
    ForeignKey,
    Integer,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

SCHEMA_REVISION = "0001"


def utcnow() -> datetime:
    """Now, UTC, without tzinfo (SQLite keeps no time zone; every time here is UTC)."""
    return datetime.now(UTC).replace(tzinfo=None)


class Base(DeclarativeBase):
    """Declarative base of the app's tables."""


class JSONMixin:
    """``loads``/``dumps`` helpers for Text columns holding JSON."""

    @staticmethod
    def dumps(value) -> str:
        return json.dumps(value, ensure_ascii=False, sort_keys=True)

    @staticmethod
    def loads(text: str | None):
        return None if text is None else json.loads(text)


class Study(Base, JSONMixin):
    """A study (see :class:`wordgames.serve.config.StudyConfig`)."""

    __tablename__ = "wg_study"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    slug: Mapped[str] = mapped_column(String(40), unique=True)
    game: Mapped[str] = mapped_column(String(32))
    config: Mapped[str] = mapped_column(Text)
    design_sha: Mapped[str] = mapped_column(String(64))
    salt: Mapped[str] = mapped_column(String(64))
    secret: Mapped[str] = mapped_column(String(64))
    n_items: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)


class Item(Base, JSONMixin):
    """A generated trial (``kind="trial"``) or attention check (``kind="attention"``)."""

    __tablename__ = "wg_item"
    __table_args__ = (
        UniqueConstraint(
            "study_id", "condition", "kind", "idx", name="uq_item_study_condition_kind_idx"
        ),
    )
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    study_id: Mapped[int] = mapped_column(ForeignKey("wg_study.id"), index=True)
    condition: Mapped[str] = mapped_column(String(64))
    kind: Mapped[str] = mapped_column(String(16))
    idx: Mapped[int] = mapped_column(Integer)
    payload: Mapped[str] = mapped_column(Text)


class Participant(Base, JSONMixin):
    """A participant of one study."""

    __tablename__ = "wg_participant"
    __table_args__ = (
        UniqueConstraint("study_id", "pid_hash", name="uq_participant_pid"),
        UniqueConstraint("study_id", "seq", name="uq_participant_seq"),
    )
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    study_id: Mapped[int] = mapped_column(ForeignKey("wg_study.id"), index=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    pid_hash: Mapped[str] = mapped_column(String(64))
    source: Mapped[str] = mapped_column(String(16))
    platform_study: Mapped[str | None] = mapped_column(String(64), nullable=True)
    session_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    seq: Mapped[int] = mapped_column(Integer)
    condition: Mapped[str] = mapped_column(String(64))
    plan: Mapped[str] = mapped_column(Text)
    position: Mapped[int] = mapped_column(Integer, default=0)
    status: Mapped[str] = mapped_column(String(16), default="active")
    attention_failed: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    completed_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)


class Answer(Base, JSONMixin):
    """One answered trial."""

    __tablename__ = "wg_answer"
    __table_args__ = (UniqueConstraint("participant_id", "position", name="uq_answer_position"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    study_id: Mapped[int] = mapped_column(ForeignKey("wg_study.id"), index=True)
    participant_id: Mapped[int] = mapped_column(ForeignKey("wg_participant.id"), index=True)
    item_id: Mapped[int] = mapped_column(ForeignKey("wg_item.id"))
    position: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(16))
    idem: Mapped[str] = mapped_column(String(64), unique=True)
    payload: Mapped[str] = mapped_column(Text)
    outcome: Mapped[str] = mapped_column(Text)
    rt_ms: Mapped[int] = mapped_column(Integer)
    client_rt_ms: Mapped[int | None] = mapped_column(Integer, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)


class Move(Base):
    """One click of a wiki navigation (a link followed, or ``back``)."""

    __tablename__ = "wg_move"
    __table_args__ = (UniqueConstraint("participant_id", "position", "seq", name="uq_move_seq"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    participant_id: Mapped[int] = mapped_column(ForeignKey("wg_participant.id"), index=True)
    position: Mapped[int] = mapped_column(Integer)
    seq: Mapped[int] = mapped_column(Integer)
    page: Mapped[str] = mapped_column(String(300))
    back: Mapped[bool] = mapped_column(Boolean, default=False)
    rt_ms: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)


class Snapshot(Base, JSONMixin):
    """Measures computed on a study's data at one time."""

    __tablename__ = "wg_snapshot"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    study_id: Mapped[int] = mapped_column(ForeignKey("wg_study.id"), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    n_records: Mapped[int] = mapped_column(Integer)
    content: Mapped[str] = mapped_column(Text)


class AdminSession(Base):
    """One admin login: a random session id (stored hashed), its CSRF token and its expiry."""

    __tablename__ = "wg_admin_session"
    id_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    csrf: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    expires_at: Mapped[datetime] = mapped_column(DateTime)
    ended_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
