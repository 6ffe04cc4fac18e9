"""Moderation: players' blocks, reports with their context, bans (by account, address or network, timed or
permanent) and the administrators' audit log.

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "records_blocks",
        sa.Column("player", sa.String, primary_key=True),  # who blocks
        sa.Column("blocked", sa.String, primary_key=True),
        sa.Column("name", sa.String, nullable=True),  # the blocked player's name when blocked
        sa.Column("created_at", sa.BigInteger, nullable=False),
    )
    op.create_table(
        "records_reports",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("reporter", sa.String, nullable=False),
        sa.Column("player", sa.String, nullable=False),
        sa.Column("room", sa.String, nullable=True),
        sa.Column("reason", sa.String, nullable=False),
        sa.Column("context", sa.LargeBinary, nullable=False),
        sa.Column("created_at", sa.BigInteger, nullable=False),
        sa.Column("resolved_at", sa.BigInteger, nullable=True),
        sa.Column("resolution", sa.String, nullable=True),
    )
    op.create_index("records_reports_open", "records_reports", ["resolved_at", "id"])
    op.create_index("records_reports_player", "records_reports", ["player", "id"])
    op.create_table(
        "records_bans",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("kind", sa.String, nullable=False),  # player | addr | net
        sa.Column("value", sa.String, nullable=False),
        sa.Column("reason", sa.String, nullable=False),
        sa.Column("created_at", sa.BigInteger, nullable=False),
        sa.Column("until", sa.BigInteger, nullable=True),  # None: permanent
        sa.Column("lifted_at", sa.BigInteger, nullable=True),
        sa.Column("by", sa.String, nullable=False),
    )
    op.create_index("records_bans_value", "records_bans", ["kind", "value"])
    op.create_table(
        "records_audit",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("at", sa.BigInteger, nullable=False),
        sa.Column("actor", sa.String, nullable=False),
        sa.Column("action", sa.String, nullable=False),
        sa.Column("target", sa.String, nullable=True),
        sa.Column("detail", sa.LargeBinary, nullable=False),
    )
