"""What the lobby keeps beside the rooms: chat, the archive of finished games (history, replays) and ratings.

Owns: the records interface and its in-memory implementation. The records are a database apart from live room
state (see shared/DESIGN.md section 5): `server.store.records_sql` keeps them in SQL (a node's SQLite file, or a
PostgreSQL that several nodes share) and `server.store.open_records` picks one for a node. Redis keeps no
records (`server.store.records_move` moves what an earlier version kept there, once).
Must not: know about rooms' engines, sockets or the rating maths (see `server.rooms.ratings`): a game's end
hands in the function that turns its players' old rows into new ones.

Rating rows are `{mu, sigma, games, name}`; the leaderboard orders them by `score_of` (mu - 3 sigma, the
conservative estimate the lobby shows), best first, then by player id.
"""

from __future__ import annotations

import asyncio
from abc import ABC, abstractmethod
from collections.abc import Callable, Coroutine
from typing import Any, cast

import msgpack

CHAT_KEEP = 200
LOBBY = "-lobby"  # the chat key of the lobby (no room id starts with '-')
#: what an in-memory archive keeps (the SQL archive keeps every game until the operator deletes it)
MEMORY_GAMES_KEEP = 1000

#: a game's end: old rating rows of its rated ids (those that have one) -> the new rows
RateFn = Callable[[dict[str, dict[str, Any]]], dict[str, dict[str, Any]]]


def pack(obj: Any) -> bytes:
    return cast(bytes, msgpack.packb(obj, use_bin_type=True))


def unpack(data: bytes) -> Any:
    return msgpack.unpackb(data, raw=False, strict_map_key=False)


def score_of(row: dict[str, Any]) -> float:
    """The leaderboard's order of a rating row: mu - 3 sigma, higher first."""
    return float(row["mu"]) - 3 * float(row["sigma"])


class Records(ABC):
    """The records of a node. Writes started in the background (`spawn`) are waited for by `settled`, so a
    node reads its own writes: the lobby's lists wait for the archive of a game this node just ended."""

    def __init__(self) -> None:
        self._pending: set[asyncio.Task[Any]] = set()
        self._settle: set[asyncio.Task[Any]] = set()

    def spawn(self, work: Coroutine[Any, Any, Any], name: str = "records", settle: bool = True) -> asyncio.Task[Any]:
        """Run `work` without anybody awaiting it (kept until done; `close` waits for it, and `settled` too
        unless `settle` is False: retries of a write that failed are not waited for)."""
        task = asyncio.get_running_loop().create_task(work, name=name)
        for kept in (self._pending, self._settle) if settle else (self._pending,):
            kept.add(task)
            task.add_done_callback(kept.discard)
        return task

    async def settled(self, timeout: float = 2.0) -> None:
        """Wait (at most `timeout` seconds) for the first attempt of the background writes started so far."""
        if self._settle:
            await asyncio.wait(set(self._settle), timeout=timeout)

    async def close(self) -> None:
        await self.settled(2.0)  # a game's archive a moment from done; one stuck on a database that is down is not
        for task in list(self._pending):
            task.cancel()

    async def migrate(self) -> None:  # noqa: B027 - most records have nothing to make ready
        """Make the database ready (tables, migrations); called at start-up, and by the first use otherwise."""

    @abstractmethod
    async def add_chat(self, room: str | None, line: dict[str, Any]) -> None: ...

    @abstractmethod
    async def chat(self, room: str | None) -> list[dict[str, Any]]:
        """The kept lines of a room (None: the lobby), oldest first."""

    @abstractmethod
    async def has_chat(self, room: str | None) -> bool: ...

    @abstractmethod
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
        """Archive a finished game (`record` has `room` and `game`; `players`: its people's ids) with what its
        replay needs, and rate it: `rate` gets the rows of the ids in `rated` and returns the new ones, all in
        one atomic step. Done once per room: False (and nothing changed) when the room is archived already."""

    @abstractmethod
    async def history(self, game: str | None, player: str | None, limit: int) -> list[dict[str, Any]]:
        """The newest finished games first (records as archived, with `_players`)."""

    @abstractmethod
    async def archived(self, room: str) -> dict[str, Any] | None:
        """What the replay of an archived game needs (`{"meta": ..., "entries": [...]}`), or None."""

    @abstractmethod
    async def leaderboard(self, game: str, limit: int) -> list[tuple[str, dict[str, Any]]]:
        """The best `limit` rating rows of a game, best first: (player, row)."""

    @abstractmethod
    async def ratings_of(
        self, game: str, players: list[str], timeout: float | None = None
    ) -> dict[str, dict[str, Any]]:
        """The rows of these rated ids (those that have one)."""

    @abstractmethod
    async def put_ratings(self, game: str, rows: dict[str, dict[str, Any]], *, replace: bool = True) -> None:
        """Write rating rows as they are (`replace=False`: only where a player has none)."""

    @abstractmethod
    async def set_rematch(self, room: str, new: str) -> str:
        """Record `new` as the rematch of `room` unless one is recorded; return the recorded one."""


class MemoryRecords(Records):
    """Records that live as long as the object (the memory store's, and tests')."""

    def __init__(self) -> None:
        super().__init__()
        self._chat: dict[str, list[bytes]] = {}
        self._games: list[tuple[str, bytes]] = []  # (room, packed record), newest first
        self._replays: dict[str, bytes] = {}
        self._ratings: dict[str, dict[str, bytes]] = {}
        self._rematch: dict[str, str] = {}

    async def add_chat(self, room: str | None, line: dict[str, Any]) -> None:
        lines = self._chat.setdefault(room or LOBBY, [])
        lines.append(pack(line))
        del lines[:-CHAT_KEEP]

    async def chat(self, room: str | None) -> list[dict[str, Any]]:
        return [unpack(x) for x in self._chat.get(room or LOBBY, [])]

    async def has_chat(self, room: str | None) -> bool:
        return bool(self._chat.get(room or LOBBY))

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
        room = str(record["room"])
        if any(r == room for r, _ in self._games):
            return False
        self._games.insert(0, (room, pack({**record, "_players": players})))
        dropped = self._games[MEMORY_GAMES_KEEP:]
        del self._games[MEMORY_GAMES_KEEP:]
        for old, _ in dropped:
            self._replays.pop(old, None)
        if replay is not None:
            self._replays[room] = pack(replay)
        if rate is not None and rated:
            game = str(record["game"])
            rows = self._ratings.setdefault(game, {})
            new = rate({p: unpack(rows[p]) for p in sorted(set(rated)) if p in rows})
            rows.update({k: pack(v) for k, v in new.items()})
        return True

    async def history(self, game: str | None, player: str | None, limit: int) -> list[dict[str, Any]]:
        out = []
        for _, packed in self._games:
            rec = unpack(packed)
            if (game is None or rec["game"] == game) and (player is None or player in rec.get("_players", [])):
                out.append(rec)
                if len(out) >= limit:
                    break
        return out

    async def archived(self, room: str) -> dict[str, Any] | None:
        got = self._replays.get(room)
        return None if got is None else dict(unpack(got))

    async def leaderboard(self, game: str, limit: int) -> list[tuple[str, dict[str, Any]]]:
        rows = [(p, unpack(v)) for p, v in self._ratings.get(game, {}).items()]
        rows.sort(key=lambda pr: (-score_of(pr[1]), pr[0]))
        return rows[:limit]

    async def ratings_of(
        self, game: str, players: list[str], timeout: float | None = None
    ) -> dict[str, dict[str, Any]]:
        rows = self._ratings.get(game, {})
        return {p: unpack(rows[p]) for p in players if p in rows}

    async def put_ratings(self, game: str, rows: dict[str, dict[str, Any]], *, replace: bool = True) -> None:
        kept = self._ratings.setdefault(game, {})
        for p, row in rows.items():
            if replace or p not in kept:
                kept[p] = pack(row)

    async def set_rematch(self, room: str, new: str) -> str:
        return self._rematch.setdefault(room, new)


__all__ = ["CHAT_KEEP", "LOBBY", "MemoryRecords", "RateFn", "Records", "pack", "score_of", "unpack"]
