"""Signals of turn-based games (v1.2): each account's e-mail address, webhook, delay and webhook secret, and the
claims that make a turn's signals go out once whatever the number of nodes.

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "records_notify",
        sa.Column("player", sa.String, primary_key=True),
        sa.Column("email", sa.String, nullable=True),
        sa.Column("webhook", sa.String, nullable=True),
        sa.Column("delay_minutes", sa.Integer, nullable=False),
        sa.Column("secret", sa.String, nullable=False),  # the webhook's HMAC key (the server signs with it)
        sa.Column("updated_at", sa.BigInteger, nullable=False),
    )
    op.create_table(
        "records_signals",
        sa.Column("key", sa.String, primary_key=True),  # ROOM:SEAT:V, the turn
        sa.Column("at", sa.BigInteger, nullable=False),
    )
    op.create_index("records_signals_at", "records_signals", ["at"])
