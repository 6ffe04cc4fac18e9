"""What the lobby keeps beside the rooms: chat lines, finished games (history) and ratings.

Owns: one small async interface with a memory and a Redis implementation, picked for a room store by
`records_for(store)` (the memory records live as long as the `MemoryStore` object, so an app restarted on
the same store finds them; the Redis records live in the same Redis, under the store's key prefix).
Must not: know about rooms' engines, sockets or the rating maths (see `server.rooms.ratings`).

Redis layout under the store's prefix `{p}`:
- `{p}chat:{room}` (or `{p}chat:-lobby`): LIST of packed lines, the last `CHAT_KEEP`, expiring with the room;
- `{p}history`, `{p}history:game:{game}`, `{p}history:player:{player}`: LISTs of packed game records,
  newest first, trimmed to `HISTORY_KEEP`;
- `{p}ratings:{game}`: HASH player -> packed `{mu, sigma, games, name}`;
- `{p}rematch:{room}`: STRING, the room opened as the rematch of a finished room (set once).
"""

from __future__ import annotations

import contextlib
import weakref
from abc import ABC, abstractmethod
from collections.abc import Iterator
from typing import Any, cast

import msgpack
from redis.exceptions import RedisError

from server.store.base import Store, StoreUnavailable
from server.store.redis import RedisStore

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


_memory: weakref.WeakKeyDictionary[Store, Records] = weakref.WeakKeyDictionary()


def records_for(store: Store) -> Records:
    """The records kept beside `store` (one object per store)."""
    found = _memory.get(store)
    if found is None:
        found = RedisRecords(store) if isinstance(store, RedisStore) else MemoryRecords()
        _memory[store] = found
    return found


__all__ = ["LOBBY", "MemoryRecords", "Records", "RedisRecords", "records_for"]
