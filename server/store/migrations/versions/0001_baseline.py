"""The records tables as first kept in a SQLite store's file (chat, games, game players, ratings, rematch).

Revision ID: 0001
Files written before migrations existed already hold these tables: each is made only where it is missing.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "records_chat",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("room", sa.String, nullable=False),
        sa.Column("data", sa.LargeBinary, nullable=False),
        if_not_exists=True,
    )
    op.create_index("records_chat_room", "records_chat", ["room", "id"], if_not_exists=True)
    op.create_table(
        "records_games",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("room", sa.String, nullable=False),
        sa.Column("game", sa.String, nullable=False),
        sa.Column("data", sa.LargeBinary, nullable=False),
        if_not_exists=True,
    )
    op.create_index("records_games_game", "records_games", ["game", "id"], if_not_exists=True)
    op.create_table(
        "records_game_players",
        sa.Column("player", sa.String, primary_key=True),
        sa.Column("game_id", sa.Integer, primary_key=True),
        if_not_exists=True,
    )
    op.create_table(
        "records_ratings",
        sa.Column("game", sa.String, primary_key=True),
        sa.Column("player", sa.String, primary_key=True),
        sa.Column("data", sa.LargeBinary, nullable=False),
        if_not_exists=True,
    )
    op.create_table(
        "records_rematch",
        sa.Column("room", sa.String, primary_key=True),
        sa.Column("new", sa.String, nullable=False),
        if_not_exists=True,
    )
