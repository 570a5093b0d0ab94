"""The first schema: studies, items, participants, answers, moves, snapshots.

Revision ID: 0001
Revises:
Create Date: 2025-01-01
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the six tables of the app (``wg_study`` ... ``wg_snapshot``) and their indexes."""
    op.create_table(
        "wg_study",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("slug", sa.String(40), nullable=False, unique=True),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("config", sa.Text, nullable=False),
        sa.Column("design_sha", sa.String(64), nullable=False),
        sa.Column("salt", sa.String(64), nullable=False),
        sa.Column("secret", sa.String(64), nullable=False),
        sa.Column("n_items", sa.Integer, nullable=False),
        sa.Column("created_at", sa.DateTime, nullable=False),
    )
    op.create_table(
        "wg_item",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("study_id", sa.Integer, sa.ForeignKey("wg_study.id"), nullable=False, index=True),
        sa.Column("condition", sa.String(64), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("idx", sa.Integer, nullable=False),
        sa.Column("payload", sa.Text, nullable=False),
        sa.UniqueConstraint(
            "study_id", "condition", "kind", "idx", name="uq_item_study_condition_kind_idx"
        ),
    )
    op.create_table(
        "wg_participant",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("study_id", sa.Integer, sa.ForeignKey("wg_study.id"), nullable=False, index=True),
        sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("pid_hash", sa.String(64), nullable=False),
        sa.Column("source", sa.String(16), nullable=False),
        sa.Column("platform_study", sa.String(64), nullable=True),
        sa.Column("session_hash", sa.String(64), nullable=True),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("condition", sa.String(64), nullable=False),
        sa.Column("plan", sa.Text, nullable=False),
        sa.Column("position", sa.Integer, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("attention_failed", sa.Integer, nullable=False),
        sa.Column("created_at", sa.DateTime, nullable=False),
        sa.Column("completed_at", sa.DateTime, nullable=True),
        sa.UniqueConstraint("study_id", "pid_hash", name="uq_participant_pid"),
        sa.UniqueConstraint("study_id", "seq", name="uq_participant_seq"),
    )
    op.create_table(
        "wg_answer",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("study_id", sa.Integer, sa.ForeignKey("wg_study.id"), nullable=False, index=True),
        sa.Column(
            "participant_id",
            sa.Integer,
            sa.ForeignKey("wg_participant.id"),
            nullable=False,
            index=True,
        ),
        sa.Column("item_id", sa.Integer, sa.ForeignKey("wg_item.id"), nullable=False),
        sa.Column("position", sa.Integer, nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("idem", sa.String(64), nullable=False, unique=True),
        sa.Column("payload", sa.Text, nullable=False),
        sa.Column("outcome", sa.Text, nullable=False),
        sa.Column("rt_ms", sa.Integer, nullable=False),
        sa.Column("client_rt_ms", sa.Integer, nullable=True),
        sa.Column("created_at", sa.DateTime, nullable=False),
        sa.UniqueConstraint("participant_id", "position", name="uq_answer_position"),
    )
    op.create_table(
        "wg_move",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column(
            "participant_id",
            sa.Integer,
            sa.ForeignKey("wg_participant.id"),
            nullable=False,
            index=True,
        ),
        sa.Column("position", sa.Integer, nullable=False),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("page", sa.String(300), nullable=False),
        sa.Column("back", sa.Boolean, nullable=False),
        sa.Column("rt_ms", sa.Integer, nullable=False),
        sa.Column("created_at", sa.DateTime, nullable=False),
        sa.UniqueConstraint("participant_id", "position", "seq", name="uq_move_seq"),
    )
    op.create_table(
        "wg_snapshot",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("study_id", sa.Integer, sa.ForeignKey("wg_study.id"), nullable=False, index=True),
        sa.Column("created_at", sa.DateTime, nullable=False),
        sa.Column("n_records", sa.Integer, nullable=False),
        sa.Column("content", sa.Text, nullable=False),
    )


def downgrade() -> None:
    """Drop the six tables, dependants first (every collected answer is lost)."""
    for table in ("wg_snapshot", "wg_move", "wg_answer", "wg_participant", "wg_item", "wg_study"):
        op.drop_table(table)
