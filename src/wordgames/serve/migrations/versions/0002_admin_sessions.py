"""Admin sessions: a random id per login, stored hashed, with its CSRF token and expiry.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-28
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create ``wg_admin_session``."""
    op.create_table(
        "wg_admin_session",
        sa.Column("id_hash", sa.String(64), primary_key=True),
        sa.Column("csrf", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime, nullable=False),
        sa.Column("expires_at", sa.DateTime, nullable=False),
        sa.Column("ended_at", sa.DateTime, nullable=True),
    )


def downgrade() -> None:
    """Drop ``wg_admin_session`` (every admin is logged out)."""
    op.drop_table("wg_admin_session")
