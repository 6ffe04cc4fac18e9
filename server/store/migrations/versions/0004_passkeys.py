"""Passkeys: the WebAuthn credentials accounts sign in with (their public keys and signature counters).

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "records_passkeys",
        sa.Column("id", sa.String, primary_key=True),  # the credential id, base64url
        sa.Column("player", sa.String, nullable=False),
        sa.Column("public_key", sa.LargeBinary, nullable=False),
        sa.Column("sign_count", sa.BigInteger, nullable=False),
        sa.Column("created_at", sa.BigInteger, nullable=False),
    )
    op.create_index("records_passkeys_player", "records_passkeys", ["player"])
