"""What the lobby keeps beside the rooms: chat lines, finished games (history) and ratings.

Owns: one small async interface with three implementations, picked for a room store by `records_for(store)`:
- `SqlRecords` for the SQLite store: tables in the store's own file, through SQLAlchemy Core (async, over
  `aiosqlite`), so ratings, history and chat survive a restart of the node like its rooms do;
- `RedisRecords` for the Redis store, in the same Redis under the store's key prefix;
- `MemoryRecords` for the memory store (they live as long as the `MemoryStore` object).
Must not: know about rooms' engines, sockets or the rating maths (see `server.rooms.ratings`).

Redis layout under the store's prefix `{p}`:
- `{p}chat:{room}` (or `{p}chat:-lobby`): LIST of packed lines, the last `CHAT_KEEP`, expiring with the room;
- `{p}history`, `{p}history:game:{game}`, `{p}history:player:{player}`: LISTs of packed game records,
  newest first, trimmed to `HISTORY_KEEP`;
- `{p}ratings:{game}`: HASH player -> packed `{mu, sigma, games, name}`;
- `{p}rematch:{room}`: STRING, the room opened as the rematch of a finished room (set once).
"""

from __future__ import annotations

import asyncio
import contextlib
import weakref
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable, Iterator
from typing import Any, cast

import msgpack
import sqlalchemy as sa
from redis.exceptions import RedisError
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.ext.asyncio import AsyncConnection, create_async_engine
from sqlalchemy.pool import NullPool

from server.store.base import Store, StoreUnavailable
from server.store.redis import RedisStore
from server.store.sqlite import SqliteStore

CHAT_KEEP = 200
HISTORY_KEEP = 1000
LOBBY = "-lobby"  # the chat key of the lobby (no room id starts with '-')


def _pack(obj: Any) -> bytes:
    return cast(bytes, msgpack.packb(obj, use_bin_type=True))


def _unpack(data: bytes) -> Any:
    return msgpack.unpackb(data, raw=False, strict_map_key=False)


class Records(ABC):
    @abstractmethod
    async def add_chat(self, room: str | None, line: dict[str, Any], ttl_seconds: int) -> None: ...

    @abstractmethod
    async def chat(self, room: str | None) -> list[dict[str, Any]]:
        """The kept lines, oldest first."""

    @abstractmethod
    async def add_game(self, record: dict[str, Any], players: list[str]) -> None: ...

    @abstractmethod
    async def history(self, game: str | None, player: str | None, limit: int) -> list[dict[str, Any]]:
        """Finished games, newest first (records as added, with `_players`: the people's player ids)."""

    @abstractmethod
    async def ratings(self, game: str) -> dict[str, dict[str, Any]]: ...

    @abstractmethod
    async def ratings_of(self, game: str, players: list[str]) -> dict[str, dict[str, Any]]:
        """The rows of these rated ids (those that have one)."""

    @abstractmethod
    async def save_ratings(self, game: str, rows: dict[str, dict[str, Any]]) -> None: ...

    @abstractmethod
    async def set_rematch(self, room: str, new: str, ttl_seconds: int) -> str:
        """Record `new` as the rematch of `room` unless one is recorded; return the recorded one."""


class MemoryRecords(Records):
    def __init__(self) -> None:
        self._chat: dict[str, list[bytes]] = {}
        self._games: list[bytes] = []
        self._ratings: dict[str, dict[str, bytes]] = {}
        self._rematch: dict[str, str] = {}

    async def add_chat(self, room: str | None, line: dict[str, Any], ttl_seconds: int) -> None:
        lines = self._chat.setdefault(room or LOBBY, [])
        lines.append(_pack(line))
        del lines[:-CHAT_KEEP]

    async def chat(self, room: str | None) -> list[dict[str, Any]]:
        return [_unpack(x) for x in self._chat.get(room or LOBBY, [])]

    async def add_game(self, record: dict[str, Any], players: list[str]) -> None:
        record = {**record, "_players": players}
        self._games.insert(0, _pack(record))
        del self._games[HISTORY_KEEP:]

    async def history(self, game: str | None, player: str | None, limit: int) -> list[dict[str, Any]]:
        out = []
        for packed in self._games:
            rec = _unpack(packed)
            if (game is None or rec["game"] == game) and (player is None or player in rec.get("_players", [])):
                out.append(rec)
                if len(out) >= limit:
                    break
        return out

    async def ratings(self, game: str) -> dict[str, dict[str, Any]]:
        return {k: _unpack(v) for k, v in self._ratings.get(game, {}).items()}

    async def ratings_of(self, game: str, players: list[str]) -> dict[str, dict[str, Any]]:
        rows = self._ratings.get(game, {})
        return {p: _unpack(rows[p]) for p in players if p in rows}

    async def save_ratings(self, game: str, rows: dict[str, dict[str, Any]]) -> None:
        self._ratings.setdefault(game, {}).update({k: _pack(v) for k, v in rows.items()})

    async def set_rematch(self, room: str, new: str, ttl_seconds: int) -> str:
        return self._rematch.setdefault(room, new)


@contextlib.contextmanager
def _unavailable() -> Iterator[None]:
    try:
        yield
    except (RedisError, OSError) as err:
        raise StoreUnavailable(str(err)) from err


class RedisRecords(Records):
    def __init__(self, store: RedisStore) -> None:
        self.r = store.client
        self.p = store.prefix

    async def add_chat(self, room: str | None, line: dict[str, Any], ttl_seconds: int) -> None:
        key = f"{self.p}chat:{room or LOBBY}"
        with _unavailable():
            pipe = self.r.pipeline(transaction=True)
            pipe.rpush(key, _pack(line))
            pipe.ltrim(key, -CHAT_KEEP, -1)
            pipe.expire(key, ttl_seconds)
            await pipe.execute()

    async def chat(self, room: str | None) -> list[dict[str, Any]]:
        with _unavailable():
            return [_unpack(x) for x in await self.r.lrange(f"{self.p}chat:{room or LOBBY}", 0, -1)]

    async def add_game(self, record: dict[str, Any], players: list[str]) -> None:
        record = {**record, "_players": players}
        packed = _pack(record)
        keys = [f"{self.p}history", f"{self.p}history:game:{record['game']}"]
        keys += [f"{self.p}history:player:{p}" for p in sorted(set(players))]
        with _unavailable():
            pipe = self.r.pipeline(transaction=True)
            for key in keys:
                pipe.lpush(key, packed)
                pipe.ltrim(key, 0, HISTORY_KEEP - 1)
            await pipe.execute()

    async def history(self, game: str | None, player: str | None, limit: int) -> list[dict[str, Any]]:
        if player is not None:
            key = f"{self.p}history:player:{player}"
        elif game is not None:
            key = f"{self.p}history:game:{game}"
        else:
            key = f"{self.p}history"
        with _unavailable():
            raw = await self.r.lrange(key, 0, HISTORY_KEEP - 1)
        out = []
        for packed in raw:
            rec = _unpack(packed)
            if game is None or rec["game"] == game:
                out.append(rec)
                if len(out) >= limit:
                    break
        return out

    async def ratings(self, game: str) -> dict[str, dict[str, Any]]:
        with _unavailable():
            raw = await self.r.hgetall(f"{self.p}ratings:{game}")
        return {k.decode() if isinstance(k, bytes) else k: _unpack(v) for k, v in raw.items()}

    async def ratings_of(self, game: str, players: list[str]) -> dict[str, dict[str, Any]]:
        if not players:
            return {}
        with _unavailable():
            raw = await self.r.hmget(f"{self.p}ratings:{game}", players)
        return {p: _unpack(x) for p, x in zip(players, raw, strict=True) if x is not None}

    async def save_ratings(self, game: str, rows: dict[str, dict[str, Any]]) -> None:
        if rows:
            with _unavailable():
                await self.r.hset(f"{self.p}ratings:{game}", mapping={k: _pack(v) for k, v in rows.items()})

    async def set_rematch(self, room: str, new: str, ttl_seconds: int) -> str:
        key = f"{self.p}rematch:{room}"
        with _unavailable():
            await self.r.set(key, new, nx=True, ex=ttl_seconds)
            got = await self.r.get(key)
        return got.decode() if isinstance(got, bytes) else str(got)


# ---- SQL ------------------------------------------------------------------------------------------

_meta = sa.MetaData()
#: chat lines, oldest first by `id`; the lobby's under `LOBBY`; the last `CHAT_KEEP` of each room are kept
_chat = sa.Table(
    "records_chat", _meta,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("room", sa.String, nullable=False),
    sa.Column("data", sa.LargeBinary, nullable=False),
    sa.Index("records_chat_room", "room", "id"),
)
#: finished games, newest first by `id`: the history; `players` lists the people of each game
_games = sa.Table(
    "records_games", _meta,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("room", sa.String, nullable=False),
    sa.Column("game", sa.String, nullable=False),
    sa.Column("data", sa.LargeBinary, nullable=False),
    sa.Index("records_games_game", "game", "id"),
)
_game_players = sa.Table(
    "records_game_players", _meta,
    sa.Column("player", sa.String, primary_key=True),
    sa.Column("game_id", sa.Integer, primary_key=True),
)
_ratings = sa.Table(
    "records_ratings", _meta,
    sa.Column("game", sa.String, primary_key=True),
    sa.Column("player", sa.String, primary_key=True),
    sa.Column("data", sa.LargeBinary, nullable=False),
)
_rematch = sa.Table(
    "records_rematch", _meta,
    sa.Column("room", sa.String, primary_key=True),
    sa.Column("new", sa.String, nullable=False),
)


@contextlib.contextmanager
def _sql_unavailable() -> Iterator[None]:
    try:
        yield
    except (sa.exc.SQLAlchemyError, OSError) as err:
        raise StoreUnavailable(f"records: {err}") from err


class SqlRecords(Records):
    """Records in SQL tables (`records_*`), created on first use; every query reads through an index.

    Connections are opened per operation (no pool: records are written at a game's end, a chat line, a
    rematch, and read for the lobby's lists), so nothing stays open when the node stops."""

    def __init__(self, url: str, prepare: Callable[[], Awaitable[None]] | None = None) -> None:
        self.engine = create_async_engine(url, poolclass=NullPool)
        #: run once before the tables are made (the SQLite store creates its file, in WAL mode)
        self._prepare = prepare
        self._ready = False
        self._lock = asyncio.Lock()

    async def _begin(self) -> contextlib.AbstractAsyncContextManager[AsyncConnection]:
        if not self._ready:
            async with self._lock:
                if not self._ready:
                    if self._prepare is not None:
                        await self._prepare()
                    async with self.engine.begin() as conn:
                        await conn.run_sync(_meta.create_all)
                    self._ready = True
        return self.engine.begin()

    async def add_chat(self, room: str | None, line: dict[str, Any], ttl_seconds: int) -> None:
        key = room or LOBBY
        with _sql_unavailable():
            async with await self._begin() as conn:
                await conn.execute(_chat.insert().values(room=key, data=_pack(line)))
                keep = (
                    sa.select(_chat.c.id).where(_chat.c.room == key).order_by(_chat.c.id.desc())
                    .limit(1).offset(CHAT_KEEP).scalar_subquery()
                )  # fmt: skip
                await conn.execute(_chat.delete().where(_chat.c.room == key, _chat.c.id <= keep))

    async def chat(self, room: str | None) -> list[dict[str, Any]]:
        key = room or LOBBY
        with _sql_unavailable():
            async with await self._begin() as conn:
                rows = await conn.execute(
                    sa.select(_chat.c.data).where(_chat.c.room == key).order_by(_chat.c.id.desc()).limit(CHAT_KEEP)
                )
                lines = [_unpack(r.data) for r in rows]
        lines.reverse()
        return lines

    async def add_game(self, record: dict[str, Any], players: list[str]) -> None:
        record = {**record, "_players": players}
        with _sql_unavailable():
            async with await self._begin() as conn:
                done = await conn.execute(
                    _games.insert().values(room=record["room"], game=record["game"], data=_pack(record))
                )
                game_id = done.inserted_primary_key[0]
                people = sorted(set(players))
                if people:
                    await conn.execute(_game_players.insert(), [{"player": p, "game_id": game_id} for p in people])

    async def history(self, game: str | None, player: str | None, limit: int) -> list[dict[str, Any]]:
        query = sa.select(_games.c.data).order_by(_games.c.id.desc()).limit(limit)
        if player is not None:
            query = query.join(_game_players, _game_players.c.game_id == _games.c.id).where(
                _game_players.c.player == player
            )
        if game is not None:
            query = query.where(_games.c.game == game)
        with _sql_unavailable():
            async with await self._begin() as conn:
                return [_unpack(r.data) for r in await conn.execute(query)]

    async def ratings(self, game: str) -> dict[str, dict[str, Any]]:
        with _sql_unavailable():
            async with await self._begin() as conn:
                rows = await conn.execute(sa.select(_ratings.c.player, _ratings.c.data).where(_ratings.c.game == game))
                return {r.player: _unpack(r.data) for r in rows}

    async def ratings_of(self, game: str, players: list[str]) -> dict[str, dict[str, Any]]:
        if not players:
            return {}
        with _sql_unavailable():
            async with await self._begin() as conn:
                rows = await conn.execute(
                    sa.select(_ratings.c.player, _ratings.c.data).where(
                        _ratings.c.game == game, _ratings.c.player.in_(players)
                    )
                )
                return {r.player: _unpack(r.data) for r in rows}

    async def save_ratings(self, game: str, rows: dict[str, dict[str, Any]]) -> None:
        if not rows:
            return
        with _sql_unavailable():
            async with await self._begin() as conn:
                for player, row in rows.items():
                    stmt = sqlite_insert(_ratings).values(game=game, player=player, data=_pack(row))
                    await conn.execute(stmt.on_conflict_do_update(index_elements=["game", "player"],
                                                                  set_={"data": stmt.excluded.data}))

    async def set_rematch(self, room: str, new: str, ttl_seconds: int) -> str:
        with _sql_unavailable():
            async with await self._begin() as conn:
                await conn.execute(sqlite_insert(_rematch).values(room=room, new=new).on_conflict_do_nothing())
                got = await conn.execute(sa.select(_rematch.c.new).where(_rematch.c.room == room))
                return str(got.scalar_one())


def sqlite_records_url(store: SqliteStore) -> str:
    """The records of a SQLite store: tables in the same file."""
    return f"sqlite+aiosqlite:///{store.path.resolve()}"


_memory: weakref.WeakKeyDictionary[Store, Records] = weakref.WeakKeyDictionary()


def records_for(store: Store) -> Records:
    """The records kept beside `store` (one object per store)."""
    found = _memory.get(store)
    if found is None:
        if isinstance(store, RedisStore):
            found = RedisRecords(store)
        elif isinstance(store, SqliteStore):
            found = SqlRecords(sqlite_records_url(store), prepare=store.ping)
        else:
            found = MemoryRecords()
        _memory[store] = found
    return found


__all__ = ["LOBBY", "MemoryRecords", "Records", "RedisRecords", "SqlRecords", "records_for"]
