"""The archive and the indexed pages: a finished game is archived once (unique room) with what its replay
needs; ratings carry their leaderboard score, indexed per game, so a page of the leaderboard reads its rows only.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import msgpack
import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    bind = op.get_bind()
    op.add_column("records_games", sa.Column("finished_at", sa.BigInteger, nullable=True))
    op.add_column("records_games", sa.Column("replay", sa.LargeBinary, nullable=True))
    # a game recorded twice (before the room was unique) keeps its first record
    games = sa.table("records_games", sa.column("id", sa.Integer), sa.column("room", sa.String))
    players = sa.table("records_game_players", sa.column("game_id", sa.Integer))
    first = sa.select(sa.func.min(games.c.id)).group_by(games.c.room)
    bind.execute(players.delete().where(players.c.game_id.not_in(first)))
    bind.execute(games.delete().where(games.c.id.not_in(first)))
    op.create_index("records_games_room", "records_games", ["room"], unique=True)
    op.create_index("records_game_players_game", "records_game_players", ["game_id"])

    op.add_column("records_ratings", sa.Column("score", sa.Float, nullable=False, server_default="0"))
    ratings = sa.table(
        "records_ratings",
        sa.column("game", sa.String),
        sa.column("player", sa.String),
        sa.column("data", sa.LargeBinary),
        sa.column("score", sa.Float),
    )
    rows = bind.execute(sa.select(ratings.c.game, ratings.c.player, ratings.c.data)).all()
    for game, player, data in rows:
        row = msgpack.unpackb(data, raw=False)
        score = float(row["mu"]) - 3 * float(row["sigma"])
        bind.execute(ratings.update().where(ratings.c.game == game, ratings.c.player == player).values(score=score))
    op.create_index("records_ratings_board", "records_ratings", ["game", sa.text("score DESC"), "player"])
