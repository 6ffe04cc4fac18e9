"""Records in SQL: one implementation over SQLite (one node: its store's own file) and PostgreSQL (several nodes).

Owns: the `records_*` tables (SQLAlchemy Core, async: `aiosqlite` / `asyncpg`), their migrations (Alembic,
`server/store/migrations`, run once at first use, one node at a time), and the guard that makes a records
database that is down answer `StoreUnavailable` at once instead of holding a caller up.
Must not: know rooms, engines or the rating maths (a game's end hands in a function that rates rows).

Every query reads through an index:
- chat: `(room, id)`, the last `CHAT_KEEP` lines per room (and the lobby's, under `LOBBY`);
- the archive: `records_games` (unique `room`; `(game, id)` for a game's history) and `records_game_players`
  (`(player, game_id)` for a player's); the `replay` column holds what a replay needs and is read by room only;
- ratings: primary key `(game, player)` for a game's players, `(game, score DESC, player)` for a leaderboard page.

A game's end is one transaction: its archive row (skipped, and nothing else done, when the room is archived
already: retries and a second node never count a game twice), its players, and the rating rows of its players
only, read and written under a lock (the write lock of the SQLite file; per (game, player) advisory locks on
PostgreSQL, taken in sorted order, which also cover players who have no row yet).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy import event
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine
from sqlalchemy.pool import NullPool

from server.store.base import StoreUnavailable
from server.store.records import (
    BLOCKS_MAX,
    CHAT_KEEP,
    LOBBY,
    Account,
    Ban,
    Device,
    NotifyPrefs,
    Passkey,
    PushSub,
    RateFn,
    Records,
    Report,
    pack,
    renamed,
    score_of,
    unpack,
)

log = logging.getLogger("marcopolo.records")

VERSION_TABLE = "records_alembic_version"
MIGRATIONS = Path(__file__).with_name("migrations")
#: a records database that failed is not asked again for this long: callers get `unavailable` at once
DOWN_SECONDS = 2.0

_meta = sa.MetaData()
chat_table = sa.Table(
    "records_chat", _meta,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("room", sa.String, nullable=False),
    sa.Column("data", sa.LargeBinary, nullable=False),
)  # fmt: skip
games_table = sa.Table(
    "records_games", _meta,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("room", sa.String, nullable=False),
    sa.Column("game", sa.String, nullable=False),
    sa.Column("data", sa.LargeBinary, nullable=False),
    sa.Column("finished_at", sa.BigInteger, nullable=True),
    sa.Column("replay", sa.LargeBinary, nullable=True),
)  # fmt: skip
game_players_table = sa.Table(
    "records_game_players", _meta,
    sa.Column("player", sa.String, primary_key=True),
    sa.Column("game_id", sa.Integer, primary_key=True),
    sa.Column("score", sa.Float, nullable=True),
)  # fmt: skip
ratings_table = sa.Table(
    "records_ratings", _meta,
    sa.Column("game", sa.String, primary_key=True),
    sa.Column("player", sa.String, primary_key=True),
    sa.Column("data", sa.LargeBinary, nullable=False),
    sa.Column("score", sa.Float, nullable=False),
)  # fmt: skip
accounts_table = sa.Table(
    "records_accounts", _meta,
    sa.Column("player", sa.String, primary_key=True),
    sa.Column("name", sa.String, nullable=False),
    sa.Column("name_key", sa.String, nullable=True),
    sa.Column("password", sa.String, nullable=True),
    sa.Column("created_at", sa.BigInteger, nullable=False),
    sa.Column("deleted_at", sa.BigInteger, nullable=True),
    sa.Column("free_at", sa.BigInteger, nullable=True),
)  # fmt: skip
devices_table = sa.Table(
    "records_devices", _meta,
    sa.Column("key", sa.String, primary_key=True),
    sa.Column("player", sa.String, nullable=False),
    sa.Column("device", sa.String, nullable=False),
    sa.Column("created_at", sa.BigInteger, nullable=False),
    sa.Column("last_seen", sa.BigInteger, nullable=False),
)  # fmt: skip
passkeys_table = sa.Table(
    "records_passkeys", _meta,
    sa.Column("id", sa.String, primary_key=True),
    sa.Column("player", sa.String, nullable=False),
    sa.Column("public_key", sa.LargeBinary, nullable=False),
    sa.Column("sign_count", sa.BigInteger, nullable=False),
    sa.Column("created_at", sa.BigInteger, nullable=False),
)  # fmt: skip
failures_table = sa.Table(
    "records_auth_failures", _meta,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("key", sa.String, nullable=False),
    sa.Column("at", sa.BigInteger, nullable=False),
)  # fmt: skip
blocks_table = sa.Table(
    "records_blocks", _meta,
    sa.Column("player", sa.String, primary_key=True),
    sa.Column("blocked", sa.String, primary_key=True),
    sa.Column("name", sa.String, nullable=True),
    sa.Column("created_at", sa.BigInteger, nullable=False),
)  # fmt: skip
reports_table = sa.Table(
    "records_reports", _meta,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("reporter", sa.String, nullable=False),
    sa.Column("player", sa.String, nullable=False),
    sa.Column("room", sa.String, nullable=True),
    sa.Column("reason", sa.String, nullable=False),
    sa.Column("context", sa.LargeBinary, nullable=False),
    sa.Column("created_at", sa.BigInteger, nullable=False),
    sa.Column("resolved_at", sa.BigInteger, nullable=True),
    sa.Column("resolution", sa.String, nullable=True),
)  # fmt: skip
bans_table = sa.Table(
    "records_bans", _meta,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("kind", sa.String, nullable=False),
    sa.Column("value", sa.String, nullable=False),
    sa.Column("reason", sa.String, nullable=False),
    sa.Column("created_at", sa.BigInteger, nullable=False),
    sa.Column("until", sa.BigInteger, nullable=True),
    sa.Column("lifted_at", sa.BigInteger, nullable=True),
    sa.Column("by", sa.String, nullable=False),
)  # fmt: skip
audit_table = sa.Table(
    "records_audit", _meta,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("at", sa.BigInteger, nullable=False),
    sa.Column("actor", sa.String, nullable=False),
    sa.Column("action", sa.String, nullable=False),
    sa.Column("target", sa.String, nullable=True),
    sa.Column("detail", sa.LargeBinary, nullable=False),
)  # fmt: skip
notify_table = sa.Table(
    "records_notify", _meta,
    sa.Column("player", sa.String, primary_key=True),
    sa.Column("email", sa.String, nullable=True),
    sa.Column("webhook", sa.String, nullable=True),
    sa.Column("delay_minutes", sa.Integer, nullable=False),
    sa.Column("secret", sa.String, nullable=False),
    sa.Column("updated_at", sa.BigInteger, nullable=False),
)  # fmt: skip
push_table = sa.Table(
    "records_push", _meta,
    sa.Column("player", sa.String, primary_key=True),
    sa.Column("endpoint", sa.String, primary_key=True),
    sa.Column("p256dh", sa.String, nullable=False),
    sa.Column("auth", sa.String, nullable=False),
    sa.Column("created_at", sa.BigInteger, nullable=False),
)  # fmt: skip
signals_table = sa.Table(
    "records_signals", _meta,
    sa.Column("key", sa.String, primary_key=True),
    sa.Column("at", sa.BigInteger, nullable=False),
)  # fmt: skip
rematch_table = sa.Table(
    "records_rematch", _meta,
    sa.Column("room", sa.String, primary_key=True),
    sa.Column("new", sa.String, nullable=False),
)  # fmt: skip


def engine_url(url: str) -> str:
    """The SQLAlchemy url of a records url: `postgresql://` runs on asyncpg, `sqlite:` on aiosqlite."""
    if url.startswith(("postgresql://", "postgres://")):
        return "postgresql+asyncpg://" + url.split("://", 1)[1]
    if url.startswith("sqlite:"):
        from server.store.sqlite import path_of

        path = Path(path_of(url))
        path.parent.mkdir(parents=True, exist_ok=True)
        return f"sqlite+aiosqlite:///{path.resolve()}"
    return url


def _upgrade(sync_conn: sa.Connection) -> None:
    from alembic import command
    from alembic.config import Config

    if sync_conn.dialect.name == "postgresql":  # nodes starting together migrate one at a time
        sync_conn.exec_driver_sql("SELECT pg_advisory_xact_lock(7160265)")
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.attributes["connection"] = sync_conn
    command.upgrade(cfg, "head")


class SqlRecords(Records):
    """Records in the `records_*` tables of a SQLite file or a PostgreSQL database.

    `timeout` bounds every operation (seconds); after a failure the database is left alone for `DOWN_SECONDS`
    (every call meanwhile raises `StoreUnavailable` at once), so a records database that is down or stalled
    never holds up a room for longer than one timeout, and then not at all."""

    def __init__(self, url: str, *, prepare: Callable[[], Awaitable[None]] | None = None, timeout: float = 5.0) -> None:
        super().__init__()
        self.url = engine_url(url)
        self.timeout = timeout
        args: dict[str, Any] = {}
        if self.url.startswith("postgresql"):
            args = {"timeout": timeout, "command_timeout": timeout}
        elif self.url.startswith("sqlite"):
            args = {"timeout": timeout}  # the busy timeout: the room store's writer may hold the file a moment
        # a connection per operation (no pool): records are written at a game's end, a chat line, a rematch,
        # and read for the lobby's lists; nothing stays open when the node stops
        self.engine: AsyncEngine = create_async_engine(self.url, poolclass=NullPool, connect_args=args)
        if self.dialect == "sqlite":
            event.listen(self.engine.sync_engine, "connect", _sqlite_pragmas)
        #: run once before the tables are made (the SQLite store creates its file, in WAL mode)
        self._prepare = prepare
        self._ready = False
        self._lock = asyncio.Lock()
        self._down_until = 0.0

    @property
    def dialect(self) -> str:
        return self.engine.dialect.name

    @property
    def _insert(self) -> Callable[..., Any]:
        return postgresql.insert if self.dialect == "postgresql" else sqlite.insert

    async def migrate(self) -> None:
        """Bring the tables to the newest layout (once per process; several processes one at a time)."""
        if self._ready:
            return
        async with self._lock:
            if self._ready:
                return
            if self._prepare is not None:
                await self._prepare()
            for attempt in range(3):
                try:
                    async with self.engine.begin() as conn:
                        await conn.run_sync(_upgrade)
                    break
                except sa.exc.OperationalError:  # another process made a table between our check and ours
                    if attempt == 2:
                        raise
                    await asyncio.sleep(0.2 * (attempt + 1))
            self._ready = True

    @contextlib.asynccontextmanager
    async def _tx(self, timeout: float | None = None) -> AsyncIterator[AsyncConnection]:
        """One transaction, bounded in time; failures become StoreUnavailable (and mark the database down)."""
        if time.monotonic() < self._down_until:
            raise StoreUnavailable("records database unavailable (failed a moment ago)")
        try:
            async with asyncio.timeout(timeout or self.timeout):
                await self.migrate()
                async with self.engine.begin() as conn:
                    yield conn
        except sa.exc.IntegrityError:
            raise
        except (sa.exc.SQLAlchemyError, OSError, TimeoutError) as err:
            self._down_until = time.monotonic() + DOWN_SECONDS
            raise StoreUnavailable(f"records: {type(err).__name__}: {err}".strip()[:300]) from err

    async def close(self) -> None:
        await super().close()
        await self.engine.dispose()

    # ---- chat ---------------------------------------------------------------------------------

    async def add_chat(self, room: str | None, line: dict[str, Any]) -> None:
        key = room or LOBBY
        c = chat_table.c
        async with self._tx() as conn:
            await conn.execute(chat_table.insert().values(room=key, data=pack(line)))
            keep = (
                sa.select(c.id).where(c.room == key).order_by(c.id.desc()).limit(1).offset(CHAT_KEEP)
                .scalar_subquery()
            )  # fmt: skip
            await conn.execute(chat_table.delete().where(c.room == key, c.id <= keep))

    async def chat(self, room: str | None) -> list[dict[str, Any]]:
        c = chat_table.c
        async with self._tx() as conn:
            rows = await conn.execute(
                sa.select(c.data).where(c.room == (room or LOBBY)).order_by(c.id.desc()).limit(CHAT_KEEP)
            )
            lines = [unpack(r.data) for r in rows]
        lines.reverse()
        return lines

    # ---- the archive and ratings --------------------------------------------------------------

    async def finish_game(
        self,
        record: dict[str, Any],
        players: list[str],
        *,
        rated: list[str] | None = None,
        rate: RateFn | None = None,
        replay: dict[str, Any] | None = None,
        timeout: float | None = None,
    ) -> bool:
        g = games_table.c
        record = {**record, "_players": players}
        async with self._tx(timeout) as conn:
            # first a write: on SQLite it takes the file's write lock for the whole transaction
            stmt = (
                self._insert(games_table)
                .values(room=record["room"], game=record["game"], data=pack(record),
                        finished_at=record.get("finished_at"), replay=None if replay is None else pack(replay))
                .on_conflict_do_nothing(index_elements=["room"])
                .returning(g.id)
            )  # fmt: skip
            game_id = (await conn.execute(stmt)).scalar()
            if game_id is None:
                return False  # archived already (a retry, or another node): counted once
            people = sorted(set(players))
            if people:
                await conn.execute(game_players_table.insert(), [{"player": p, "game_id": game_id} for p in people])
            if rate is not None and rated:
                game = str(record["game"])
                ids = sorted(set(rated))
                if self.dialect == "postgresql":
                    for pid in ids:
                        await conn.execute(
                            sa.select(sa.func.pg_advisory_xact_lock(sa.func.hashtext(f"rating/{game}/{pid}")))
                        )
                rows = await self._ratings_of(conn, game, ids)
                new = rate(rows)
                await self._put_ratings(conn, game, new, replace=True)
                gp = game_players_table.c
                scored = [{"g": game_id, "p": pid, "s": score_of(new[pid])} for pid in sorted(set(new) & set(people))]
                if scored:  # each rated person's score after this game, in one statement
                    await conn.execute(
                        game_players_table.update()
                        .where(gp.game_id == sa.bindparam("g"), gp.player == sa.bindparam("p"))
                        .values(score=sa.bindparam("s")),
                        scored,
                    )
        return True

    async def history(self, game: str | None, player: str | None, limit: int) -> list[dict[str, Any]]:
        g, gp = games_table.c, game_players_table.c
        if player is not None:
            query = (
                sa.select(g.data, gp.score).join(game_players_table, gp.game_id == g.id)
                .where(gp.player == player).order_by(g.id.desc()).limit(limit)
            )  # fmt: skip
        else:
            query = sa.select(g.data).order_by(g.id.desc()).limit(limit)
        if game is not None:
            query = query.where(g.game == game)
        async with self._tx() as conn:
            rows = (await conn.execute(query)).all()
        out = []
        for r in rows:
            rec = unpack(r.data)
            if player is not None:
                rec["_score"] = r.score
            out.append(rec)
        return out

    async def archived(self, room: str) -> dict[str, Any] | None:
        g = games_table.c
        async with self._tx() as conn:
            got = (await conn.execute(sa.select(g.replay).where(g.room == room))).scalar()
        return None if got is None else dict(unpack(got))

    async def leaderboard(self, game: str, limit: int, offset: int = 0) -> list[tuple[str, dict[str, Any]]]:
        r = ratings_table.c
        query = (
            sa.select(r.player, r.data).where(r.game == game).order_by(r.score.desc(), r.player)
            .limit(limit).offset(offset)
        )  # fmt: skip
        async with self._tx() as conn:
            return [(row.player, unpack(row.data)) for row in await conn.execute(query)]

    async def rank_of(self, game: str, player: str) -> tuple[int, dict[str, Any]] | None:
        r = ratings_table.c
        async with self._tx() as conn:
            mine = (await conn.execute(sa.select(r.data, r.score).where(r.game == game, r.player == player))).first()
            if mine is None:
                return None
            # the rows above it, counted through the (game, score DESC, player) index
            above = sa.or_(r.score > mine.score, sa.and_(r.score == mine.score, r.player < player))
            count = (await conn.execute(sa.select(sa.func.count()).where(r.game == game, above))).scalar_one()
        return 1 + int(count), unpack(mine.data)

    async def ratings_by_player(self, player: str) -> dict[str, dict[str, Any]]:
        r = ratings_table.c
        async with self._tx() as conn:
            rows = await conn.execute(sa.select(r.game, r.data).where(r.player == player))
            return {row.game: unpack(row.data) for row in rows}

    async def ratings_of(
        self, game: str, players: list[str], timeout: float | None = None
    ) -> dict[str, dict[str, Any]]:
        if not players:
            return {}
        async with self._tx(timeout) as conn:
            return await self._ratings_of(conn, game, players)

    async def put_ratings(self, game: str, rows: dict[str, dict[str, Any]], *, replace: bool = True) -> None:
        if rows:
            async with self._tx() as conn:
                await self._put_ratings(conn, game, rows, replace=replace)

    @staticmethod
    async def _ratings_of(conn: AsyncConnection, game: str, players: list[str]) -> dict[str, dict[str, Any]]:
        r = ratings_table.c
        rows = await conn.execute(sa.select(r.player, r.data).where(r.game == game, r.player.in_(players)))
        return {row.player: unpack(row.data) for row in rows}

    async def _put_ratings(
        self, conn: AsyncConnection, game: str, rows: dict[str, dict[str, Any]], *, replace: bool
    ) -> None:
        values = [
            {"game": game, "player": p, "data": pack(row), "score": score_of(row)} for p, row in sorted(rows.items())
        ]
        if not values:
            return
        stmt = self._insert(ratings_table)
        if replace:
            stmt = stmt.on_conflict_do_update(
                index_elements=["game", "player"], set_={"data": stmt.excluded.data, "score": stmt.excluded.score}
            )
        else:
            stmt = stmt.on_conflict_do_nothing(index_elements=["game", "player"])
        await conn.execute(stmt, values)

    async def set_rematch(self, room: str, new: str) -> str:
        async with self._tx() as conn:
            await conn.execute(self._insert(rematch_table).values(room=room, new=new).on_conflict_do_nothing())
            got = await conn.execute(sa.select(rematch_table.c.new).where(rematch_table.c.room == room))
            return str(got.scalar_one())

    async def has_chat(self, room: str | None) -> bool:
        c = chat_table.c
        async with self._tx() as conn:
            got = await conn.execute(sa.select(c.id).where(c.room == (room or LOBBY)).limit(1))
            return got.first() is not None

    # ---- accounts -----------------------------------------------------------------------------

    async def create_account(self, account: Account) -> bool:
        a = accounts_table.c
        async with self._tx() as conn:
            # a deleted account whose name is free lets go of it (the unique key allows many NULLs)
            await conn.execute(
                accounts_table.update()
                .where(a.name_key == account.key, a.deleted_at.is_not(None), a.free_at <= account.created_at)
                .values(name_key=None)
            )
            stmt = (
                self._insert(accounts_table)
                .values(player=account.player, name=account.name, name_key=account.key,
                        password=account.password, created_at=account.created_at)
                .on_conflict_do_nothing()
                .returning(a.player)
            )  # fmt: skip
            return (await conn.execute(stmt)).scalar() is not None

    @staticmethod
    def _account(row: Any) -> Account:
        return Account(row.player, row.name, row.name_key, row.password, int(row.created_at))

    async def account_by_key(self, key: str) -> Account | None:
        a = accounts_table.c
        async with self._tx() as conn:
            query = sa.select(accounts_table).where(a.name_key == key, a.deleted_at.is_(None))
            row = (await conn.execute(query)).first()
        return None if row is None else self._account(row)

    async def account(self, player: str) -> Account | None:
        a = accounts_table.c
        async with self._tx() as conn:
            query = sa.select(accounts_table).where(a.player == player, a.deleted_at.is_(None))
            row = (await conn.execute(query)).first()
        return None if row is None else self._account(row)

    async def accounts_among(self, players: list[str]) -> set[str]:
        if not players:
            return set()
        a = accounts_table.c
        async with self._tx() as conn:
            rows = await conn.execute(sa.select(a.player).where(a.player.in_(players), a.deleted_at.is_(None)))
            return {r.player for r in rows}

    async def set_password(self, player: str, password: str) -> None:
        a = accounts_table.c
        async with self._tx() as conn:
            await conn.execute(
                accounts_table.update().where(a.player == player, a.deleted_at.is_(None)).values(password=password)
            )

    async def delete_account(self, player: str, now: int, free_at: int) -> list[str]:
        a, d = accounts_table.c, devices_table.c
        async with self._tx() as conn:
            done = await conn.execute(
                accounts_table.update().where(a.player == player, a.deleted_at.is_(None))
                .values(deleted_at=now, free_at=free_at, password=None)
            )  # fmt: skip
            if not done.rowcount:
                return []
            keys = [r.key for r in await conn.execute(sa.select(d.key).where(d.player == player))]
            await conn.execute(devices_table.delete().where(d.player == player))
            await conn.execute(ratings_table.delete().where(ratings_table.c.player == player))
            await conn.execute(passkeys_table.delete().where(passkeys_table.c.player == player))
            await conn.execute(notify_table.delete().where(notify_table.c.player == player))
            await conn.execute(push_table.delete().where(push_table.c.player == player))
            g, gp = games_table.c, game_players_table.c
            mine = sa.select(g.id, g.data, g.replay).join(game_players_table, gp.game_id == g.id)
            for row in (await conn.execute(mine.where(gp.player == player))).all():
                record, replay = renamed(unpack(row.data), None if row.replay is None else unpack(row.replay), player)
                await conn.execute(
                    games_table.update().where(g.id == row.id)
                    .values(data=pack(record), replay=None if replay is None else pack(replay))
                )  # fmt: skip
            return keys

    async def add_device(self, device: Device) -> None:
        async with self._tx() as conn:
            await conn.execute(
                devices_table.insert().values(key=device.key, player=device.player, device=device.device,
                                              created_at=device.created_at, last_seen=device.last_seen)
            )  # fmt: skip

    async def device(self, key: str) -> Device | None:
        a, d = accounts_table.c, devices_table.c
        query = (
            sa.select(devices_table).join(accounts_table, a.player == d.player)
            .where(d.key == key, a.deleted_at.is_(None))
        )  # fmt: skip
        async with self._tx() as conn:
            row = (await conn.execute(query)).first()
        return None if row is None else Device(row.key, row.player, row.device, int(row.created_at), int(row.last_seen))

    async def devices(self, player: str) -> list[Device]:
        d = devices_table.c
        query = sa.select(devices_table).where(d.player == player).order_by(d.created_at.desc(), d.key)
        async with self._tx() as conn:
            rows = await conn.execute(query)
            return [Device(r.key, r.player, r.device, int(r.created_at), int(r.last_seen)) for r in rows]

    async def drop_devices(self, player: str, keys: list[str] | None = None) -> list[str]:
        d = devices_table.c
        where = [d.player == player] + ([d.key.in_(keys)] if keys is not None else [])
        async with self._tx() as conn:
            gone = [r.key for r in await conn.execute(sa.select(d.key).where(*where))]
            if gone:
                await conn.execute(devices_table.delete().where(d.key.in_(gone)))
            return gone

    async def add_passkey(self, passkey: Passkey) -> bool:
        stmt = (
            self._insert(passkeys_table)
            .values(id=passkey.id, player=passkey.player, public_key=passkey.public_key,
                    sign_count=passkey.sign_count, created_at=passkey.created_at)
            .on_conflict_do_nothing()
            .returning(passkeys_table.c.id)
        )  # fmt: skip
        async with self._tx() as conn:
            return (await conn.execute(stmt)).scalar() is not None

    @staticmethod
    def _passkey(row: Any) -> Passkey:
        return Passkey(row.id, row.player, bytes(row.public_key), int(row.sign_count), int(row.created_at))

    async def passkey(self, credential: str) -> Passkey | None:
        a, k = accounts_table.c, passkeys_table.c
        query = (
            sa.select(passkeys_table).join(accounts_table, a.player == k.player)
            .where(k.id == credential, a.deleted_at.is_(None))
        )  # fmt: skip
        async with self._tx() as conn:
            row = (await conn.execute(query)).first()
        return None if row is None else self._passkey(row)

    async def passkeys(self, player: str) -> list[Passkey]:
        k = passkeys_table.c
        async with self._tx() as conn:
            rows = await conn.execute(sa.select(passkeys_table).where(k.player == player).order_by(k.id))
            return [self._passkey(r) for r in rows]

    async def set_sign_count(self, credential: str, sign_count: int) -> None:
        k = passkeys_table.c
        async with self._tx() as conn:
            await conn.execute(passkeys_table.update().where(k.id == credential).values(sign_count=sign_count))

    async def note_attempt(self, keys: list[str], now: int, window: int) -> dict[str, int]:
        f = failures_table.c
        async with self._tx() as conn:
            await conn.execute(failures_table.delete().where(f.key.in_(keys), f.at <= now - window))
            await conn.execute(failures_table.insert(), [{"key": k, "at": now} for k in keys])
            return await self._attempts(conn, keys, now - window)

    async def attempts(self, keys: list[str], since: int) -> dict[str, int]:
        async with self._tx() as conn:
            return await self._attempts(conn, keys, since)

    @staticmethod
    async def _attempts(conn: AsyncConnection, keys: list[str], since: int) -> dict[str, int]:
        f = failures_table.c
        rows = await conn.execute(
            sa.select(f.key, sa.func.count()).where(f.key.in_(keys), f.at > since).group_by(f.key)
        )
        got = {r[0]: int(r[1]) for r in rows}
        return {k: got.get(k, 0) for k in keys}

    # ---- moderation --------------------------------------------------------------------------------

    async def delete_chat(self, room: str | None, line: str) -> dict[str, Any] | None:
        c = chat_table.c
        key = room or LOBBY
        async with self._tx() as conn:
            rows = await conn.execute(
                sa.select(c.id, c.data).where(c.room == key).order_by(c.id.desc()).limit(CHAT_KEEP)
            )
            for r in rows.all():
                got = unpack(r.data)
                if got.get("line") == line:
                    await conn.execute(chat_table.delete().where(c.id == r.id))
                    return dict(got)
        return None

    async def set_block(self, player: str, other: str, blocked: bool, now: int, name: str | None = None) -> None:
        b = blocks_table.c
        async with self._tx() as conn:
            if blocked:
                await conn.execute(
                    self._insert(blocks_table).values(player=player, blocked=other, name=name, created_at=now)
                    .on_conflict_do_nothing(index_elements=["player", "blocked"])
                )  # fmt: skip
            else:
                await conn.execute(blocks_table.delete().where(b.player == player, b.blocked == other))

    async def blocked_by(self, player: str) -> set[str]:
        b = blocks_table.c
        async with self._tx() as conn:
            rows = await conn.execute(
                sa.select(b.blocked).where(b.player == player).order_by(b.created_at.desc()).limit(BLOCKS_MAX)
            )
            return {r[0] for r in rows}

    async def block_list(self, player: str) -> list[tuple[str, str | None]]:
        b = blocks_table.c
        async with self._tx() as conn:
            rows = await conn.execute(
                sa.select(b.blocked, b.name).where(b.player == player)
                .order_by(b.created_at.desc(), b.blocked).limit(BLOCKS_MAX)
            )  # fmt: skip
            return [(r[0], r[1]) for r in rows]

    async def blocks(self, player: str, other: str) -> bool:
        b = blocks_table.c
        async with self._tx() as conn:
            got = await conn.execute(sa.select(b.player).where(b.player == player, b.blocked == other))
            return got.first() is not None

    @staticmethod
    def _report(r: Any) -> Report:
        return Report(int(r.id), r.reporter, r.player, r.room, r.reason, unpack(r.context), int(r.created_at),
                      None if r.resolved_at is None else int(r.resolved_at), r.resolution)  # fmt: skip

    async def add_report(
        self, reporter: str, player: str, room: str | None, reason: str, context: dict[str, Any], now: int
    ) -> int:
        async with self._tx() as conn:
            got = await conn.execute(
                reports_table.insert().values(reporter=reporter, player=player, room=room, reason=reason,
                                              context=pack(context), created_at=now)
                .returning(reports_table.c.id)
            )  # fmt: skip
            return int(got.scalar_one())

    async def reports(self, *, open_only: bool = True, player: str | None = None, limit: int = 100) -> list[Report]:
        r = reports_table.c
        query = sa.select(reports_table).order_by(r.id.desc()).limit(limit)
        if open_only:
            query = query.where(r.resolved_at.is_(None))
        if player is not None:
            query = query.where(r.player == player)
        async with self._tx() as conn:
            return [self._report(row) for row in await conn.execute(query)]

    async def resolve_report(self, report: int, resolution: str, now: int) -> Report | None:
        r = reports_table.c
        async with self._tx() as conn:
            await conn.execute(
                reports_table.update().where(r.id == report, r.resolved_at.is_(None))
                .values(resolved_at=now, resolution=resolution)
            )  # fmt: skip
            got = (await conn.execute(sa.select(reports_table).where(r.id == report))).first()
            return None if got is None else self._report(got)

    @staticmethod
    def _ban(r: Any) -> Ban:
        return Ban(int(r.id), r.kind, r.value, r.reason, int(r.created_at), None if r.until is None else int(r.until),
                   None if r.lifted_at is None else int(r.lifted_at), r.by)  # fmt: skip

    async def add_ban(self, kind: str, value: str, reason: str, now: int, until: int | None, by: str) -> Ban:
        async with self._tx() as conn:
            got = await conn.execute(
                bans_table.insert().values(kind=kind, value=value, reason=reason, created_at=now, until=until, by=by)
                .returning(bans_table.c.id)
            )  # fmt: skip
            return Ban(int(got.scalar_one()), kind, value, reason, now, until, None, by)

    @staticmethod
    def _in_force(now: int) -> Any:
        b = bans_table.c
        return sa.and_(b.lifted_at.is_(None), sa.or_(b.until.is_(None), b.until > now))

    async def bans(self, *, active_at: int | None = None, limit: int = 100) -> list[Ban]:
        query = sa.select(bans_table).order_by(bans_table.c.id.desc()).limit(limit)
        if active_at is not None:
            query = query.where(self._in_force(active_at))
        async with self._tx() as conn:
            return [self._ban(row) for row in await conn.execute(query)]

    async def lift_ban(self, ban: int, now: int) -> Ban | None:
        b = bans_table.c
        async with self._tx() as conn:
            await conn.execute(bans_table.update().where(b.id == ban, b.lifted_at.is_(None)).values(lifted_at=now))
            got = (await conn.execute(sa.select(bans_table).where(b.id == ban))).first()
            return None if got is None else self._ban(got)

    async def bans_on(self, kind: str, values: list[str], now: int) -> list[Ban]:
        b = bans_table.c
        query = sa.select(bans_table).where(b.kind == kind, self._in_force(now))
        if kind != "net":
            query = query.where(b.value.in_(values))
        async with self._tx() as conn:
            return [self._ban(row) for row in await conn.execute(query.order_by(b.id).limit(10_000))]

    async def add_audit(self, actor: str, action: str, target: str | None, detail: dict[str, Any], now: int) -> int:
        async with self._tx() as conn:
            got = await conn.execute(
                audit_table.insert().values(at=now, actor=actor, action=action, target=target, detail=pack(detail))
                .returning(audit_table.c.id)
            )  # fmt: skip
            return int(got.scalar_one())

    async def audit(self, *, limit: int = 100, before: int | None = None) -> list[dict[str, Any]]:
        a = audit_table.c
        query = sa.select(audit_table).order_by(a.id.desc()).limit(limit)
        if before is not None:
            query = query.where(a.id < before)
        async with self._tx() as conn:
            rows = (await conn.execute(query)).all()
        return [{"id": int(r.id), "at": int(r.at), "actor": r.actor, "action": r.action, "target": r.target,
                 "detail": unpack(r.detail)} for r in rows]  # fmt: skip

    # ---- signals of turn-based games (v1.2) ---------------------------------------------------------

    async def notify_prefs(self, player: str) -> NotifyPrefs | None:
        n = notify_table.c
        async with self._tx() as conn:
            r = (await conn.execute(sa.select(notify_table).where(n.player == player))).first()
        if r is None:
            return None
        return NotifyPrefs(r.player, r.email, r.webhook, int(r.delay_minutes), r.secret, int(r.updated_at))

    async def set_notify_prefs(self, prefs: NotifyPrefs) -> None:
        values = {"email": prefs.email, "webhook": prefs.webhook, "delay_minutes": prefs.delay_minutes,
                  "secret": prefs.secret, "updated_at": prefs.updated_at}  # fmt: skip
        stmt = (
            self._insert(notify_table).values(player=prefs.player, **values)
            .on_conflict_do_update(index_elements=["player"], set_=values)
        )  # fmt: skip
        async with self._tx() as conn:
            await conn.execute(stmt)

    async def push_subs(self, player: str) -> list[PushSub]:
        p = push_table.c
        query = sa.select(push_table).where(p.player == player).order_by(p.created_at, p.endpoint)
        async with self._tx() as conn:
            rows = (await conn.execute(query)).all()
        return [PushSub(r.player, r.endpoint, r.p256dh, r.auth, int(r.created_at)) for r in rows]

    async def add_push_sub(self, sub: PushSub, keep: int) -> None:
        p = push_table.c
        values = {"p256dh": sub.p256dh, "auth": sub.auth, "created_at": sub.created_at}
        stmt = (
            self._insert(push_table).values(player=sub.player, endpoint=sub.endpoint, **values)
            .on_conflict_do_update(index_elements=["player", "endpoint"], set_=values)
        )  # fmt: skip
        async with self._tx() as conn:
            await conn.execute(stmt)
            mine = sa.select(p.endpoint).where(p.player == sub.player)
            rows = (await conn.execute(mine.order_by(p.created_at.desc(), p.endpoint.desc()))).all()
            old = [r.endpoint for r in rows[max(0, keep) :]]
            if old:
                await conn.execute(push_table.delete().where(p.player == sub.player, p.endpoint.in_(old)))

    async def drop_push_sub(self, player: str, endpoint: str | None) -> int:
        p = push_table.c
        query = push_table.delete().where(p.player == player)
        if endpoint is not None:
            query = query.where(p.endpoint == endpoint)
        async with self._tx() as conn:
            done = await conn.execute(query)
            return int(done.rowcount or 0)

    async def claim_signal(self, key: str, now: int) -> bool:
        stmt = (
            self._insert(signals_table).values(key=key, at=now)
            .on_conflict_do_nothing(index_elements=["key"])
            .returning(signals_table.c.key)
        )  # fmt: skip
        async with self._tx() as conn:
            return (await conn.execute(stmt)).scalar() is not None

    async def prune_signals(self, before: int) -> int:
        async with self._tx() as conn:
            done = await conn.execute(signals_table.delete().where(signals_table.c.at < before))
            return int(done.rowcount or 0)


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=FULL")
    cur.close()


__all__ = ["SqlRecords", "VERSION_TABLE", "engine_url"]
