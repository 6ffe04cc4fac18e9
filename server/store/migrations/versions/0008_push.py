"""Web push of turn-based games (v1.2): each account's browsers' push subscriptions (endpoint and keys).

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "records_push",
        sa.Column("player", sa.String, primary_key=True),
        sa.Column("endpoint", sa.String, primary_key=True),  # the push service's URL for one browser
        sa.Column("p256dh", sa.String, nullable=False),  # the browser's public key (base64url)
        sa.Column("auth", sa.String, nullable=False),  # the browser's authentication secret (base64url)
        sa.Column("created_at", sa.BigInteger, nullable=False),
    )
