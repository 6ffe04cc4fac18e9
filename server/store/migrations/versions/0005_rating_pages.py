"""Rating pages: a player's rows read by player (for the player page), and the score each rated player had after
each archived game (its rating history).

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("records_ratings_player", "records_ratings", ["player"])
    op.add_column("records_game_players", sa.Column("score", sa.Float, nullable=True))
