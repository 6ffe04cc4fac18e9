"""Accounts: a unique folded name per live account (a deleted one keeps it until its `free_at`), the devices
(tokens, as hashes) each signed in with, and failed sign-ins per name and address, counted across nodes.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "records_accounts",
        sa.Column("player", sa.String, primary_key=True),
        sa.Column("name", sa.String, nullable=False),
        sa.Column("name_key", sa.String, nullable=True),
        sa.Column("password", sa.String, nullable=True),
        sa.Column("created_at", sa.BigInteger, nullable=False),
        sa.Column("deleted_at", sa.BigInteger, nullable=True),
        sa.Column("free_at", sa.BigInteger, nullable=True),
    )
    op.create_index("records_accounts_name_key", "records_accounts", ["name_key"], unique=True)
    op.create_table(
        "records_devices",
        sa.Column("key", sa.String, primary_key=True),
        sa.Column("player", sa.String, nullable=False),
        sa.Column("device", sa.String, nullable=False),
        sa.Column("created_at", sa.BigInteger, nullable=False),
        sa.Column("last_seen", sa.BigInteger, nullable=False),
    )
    op.create_index("records_devices_player", "records_devices", ["player"])
    op.create_table(
        "records_auth_failures",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("key", sa.String, nullable=False),
        sa.Column("at", sa.BigInteger, nullable=False),
    )
    op.create_index("records_auth_failures_key", "records_auth_failures", ["key", "at"])
