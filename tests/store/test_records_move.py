"""The one-time move of the records an earlier version kept in Redis (`server.store.records_move`) into the
records database: on a SQLite file, on a real PostgreSQL (a database of this run's own) and in memory.

The old layout is written by hand under a random key prefix on the real Redis (never flushed: every key under
the prefix is deleted at the end): ratings of two games, three finished games (one of an unlisted room) with
their per-game and per-player copies, a room's chat and the lobby's, and a rematch. Checked: what the move
returns, the archive (newest first, by game, by player), the leaderboards, rows by player, chat in its order,
the rematch; that a second move does nothing; that the old keys stay; that what the database had already (a
rating written by a new node, a room's chat, an archived game, a rematch) wins; that two nodes starting at once
move it once; that a move that failed half-way is taken up again at once; and, end to end, that a real
`python -m server` on that Redis serves the moved leaderboard, history and lobby chat over the wire.
"""

from __future__ import annotations

import asyncio
import secrets
import signal
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgpack
import pytest
import redis.asyncio as aredis

from server.rooms import ratings
from server.store.base import StoreUnavailable
from server.store.records import LOBBY, MemoryRecords, Records
from server.store.records_move import move_redis_records
from server.store.records_sql import SqlRecords
from server.store.redis import RedisStore
from tests.faults.procs import NodeProc, Player

from .conftest import REDIS_UP, REDIS_URL


def _pack(obj: Any) -> bytes:
    return bytes(msgpack.packb(obj, use_bin_type=True))


def _text(raw: bytes | str) -> str:
    return raw.decode() if isinstance(raw, bytes) else raw


def _row(mu: float, sigma: float, games: int, name: str) -> dict[str, Any]:
    return {"mu": mu, "sigma": sigma, "games": games, "name": name}


#: the old `{p}ratings:{game}` hashes
RATINGS: dict[str, dict[str, dict[str, Any]]] = {
    "expedition": {
        "pa": _row(31.5, 2.5, 3, "Ann"),  # 24.0
        "pb": _row(27.0, 3.0, 1, "Bob"),  # 18.0
        "pc": _row(30.0, 2.0, 2, "Cyd"),  # 24.0: ties with pa, after it by id
    },
    "classic": {
        "pa": _row(22.0, 4.0, 1, "Ann"),  # 10.0
        "pd": _row(29.0, 3.0, 1, "Dee"),  # 20.0
    },
}
#: the old `{p}history`, newest first (r3 is a game of an unlisted room)
HISTORY: list[dict[str, Any]] = [
    {"room": "r3", "game": "expedition", "seats": [], "players": ["Ann", "Cyd"], "result": {"winners": [1]},
     "finished_at": 3000, "_public": False, "_players": ["pa", "pc"]},
    {"room": "r2", "game": "classic", "seats": [], "players": ["Ann", "Dee"], "result": {"winners": [1]},
     "finished_at": 2000, "_public": True, "_players": ["pa", "pd"]},
    {"room": "r1", "game": "expedition", "seats": [], "players": ["Ann", "Bob", "bot"], "result": {"winners": [0]},
     "finished_at": 1000, "_public": True, "_players": ["pa", "pb"]},
]  # fmt: skip


def _line(room: str | None, who: str, text: str, at: int) -> dict[str, Any]:
    return {"t": "chat", "room": room, "from": who, "name": who.upper(), "text": text, "at": at}


#: the old `{p}chat:{room}` lists, oldest first
CHAT: dict[str, list[dict[str, Any]]] = {
    "r1": [_line("r1", "pa", "hi", 1), _line("r1", "pb", "hello", 2), _line("r1", "pa", "gg", 3)],
    LOBBY: [_line(None, "pc", "anyone?", 4), _line(None, "pd", "me", 5)],
}
REMATCH = {"r1": "r9"}
MOVED_ALL = {"ratings": 5, "games": 3, "chat": 5, "rematch": 1}


@dataclass
class Old:
    """The old layout under a prefix of this test's own: a raw client, and stores on it (`store()`)."""

    prefix: str
    raw: aredis.Redis

    def store(self) -> RedisStore:
        return RedisStore(REDIS_URL, prefix=self.prefix)

    async def fill(self) -> None:
        p, r = self.prefix, self.raw
        for game, rows in RATINGS.items():
            await r.hset(f"{p}ratings:{game}", mapping={k: _pack(v) for k, v in rows.items()})
        for rec in reversed(HISTORY):  # each game lpushed as it ended, as the earlier version did
            packed = _pack(rec)
            keys = [f"{p}history", f"{p}history:game:{rec['game']}"]
            keys += [f"{p}history:player:{x}" for x in rec["_players"]]
            for key in keys:
                await r.lpush(key, packed)
        for room, lines in CHAT.items():
            await r.rpush(f"{p}chat:{room}", *[_pack(x) for x in lines])
        for room, new in REMATCH.items():
            await r.set(f"{p}rematch:{room}", new)

    async def keys(self) -> dict[str, Any]:
        """Every key under the prefix with its contents."""
        out: dict[str, Any] = {}
        async for key in self.raw.scan_iter(match=f"{self.prefix}*", count=500):
            name = _text(key)[len(self.prefix) :]
            kind = _text(await self.raw.type(key))
            if kind == "hash":
                out[name] = await self.raw.hgetall(key)
            elif kind == "list":
                out[name] = await self.raw.lrange(key, 0, -1)
            else:
                out[name] = await self.raw.get(key)
        return out


@pytest.fixture
async def old() -> AsyncIterator[Old]:
    if not REDIS_UP:
        pytest.skip(f"no Redis answers PING at {REDIS_URL}")
    prefix = f"mptest:move:{secrets.token_hex(4)}:"
    raw = aredis.Redis.from_url(REDIS_URL)
    try:
        yield Old(prefix, raw)
    finally:  # this test's keys only (its own prefix); never a FLUSH
        keys = [key async for key in raw.scan_iter(match=f"{prefix}*", count=500)]
        if keys:
            await raw.delete(*keys)
        await raw.aclose()


def _new_records(kind: str, request: pytest.FixtureRequest, tmp_path: Path) -> Records:
    if kind == "memory":
        return MemoryRecords()
    if kind == "sqlite":
        return SqlRecords(f"sqlite:///{tmp_path}/records.db")
    return SqlRecords(request.getfixturevalue("pg_url"))


@pytest.fixture(params=["sqlite", "postgresql", "memory"])
async def records(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Records]:
    found = _new_records(request.param, request, tmp_path)
    await found.migrate()
    yield found
    await found.close()


async def _move(old: Old, records: Records, node: str = "") -> dict[str, int] | None:
    store = old.store()
    try:
        return await move_redis_records(store, records, node)
    finally:
        await store.close()


def _board(game: str) -> list[tuple[str, dict[str, Any]]]:
    """The expected leaderboard of the old rows: mu - 3 sigma, best first, then by id."""
    rows = RATINGS[game]
    return sorted(rows.items(), key=lambda pr: (-(pr[1]["mu"] - 3 * pr[1]["sigma"]), pr[0]))


async def _everything(records: Records) -> dict[str, Any]:
    """What a records database holds of the moved records (for "nothing changed")."""
    players = ["pa", "pb", "pc", "pd"]
    return {
        "history": await records.history(None, None, 100),
        "by_player": {p: await records.history(None, p, 100) for p in players},
        "boards": {g: await records.leaderboard(g, 100) for g in RATINGS},
        "rows": {g: await records.ratings_of(g, players) for g in RATINGS},
        "chat": {room: await records.chat(room) for room in ("r1", None)},
    }


def _rooms(games: list[dict[str, Any]]) -> list[str]:
    return [str(g["room"]) for g in games]


async def test_the_old_records_are_moved_once_and_the_old_keys_stay(old: Old, records: Records) -> None:
    await old.fill()
    before = await old.keys()

    counts = await _move(old, records, "n1")

    assert counts == MOVED_ALL
    # the archive: newest first, as archived (with `_players` and `_public`), by game and by player
    assert await records.history(None, None, 10) == HISTORY
    assert _rooms(await records.history(None, None, 2)) == ["r3", "r2"]
    assert _rooms(await records.history("expedition", None, 10)) == ["r3", "r1"]
    assert _rooms(await records.history("classic", None, 10)) == ["r2"]
    assert _rooms(await records.history(None, "pa", 10)) == ["r3", "r2", "r1"]
    assert _rooms(await records.history(None, "pb", 10)) == ["r1"]
    assert _rooms(await records.history(None, "pc", 10)) == ["r3"]
    assert _rooms(await records.history("expedition", "pd", 10)) == []
    assert _rooms(await records.history("classic", "pd", 10)) == ["r2"]
    assert await records.history(None, "bot", 10) == []  # a name in `players`, not a player id
    # ratings: the leaderboards (mu - 3 sigma, ties by id) and rows by player
    for game in RATINGS:
        assert await records.leaderboard(game, 10) == _board(game)
    assert [p for p, _ in await records.leaderboard("expedition", 2)] == ["pa", "pc"]
    assert await records.leaderboard("khan", 10) == []
    assert await records.ratings_of("classic", ["pa", "pd", "pb"]) == RATINGS["classic"]
    assert await records.ratings_of("expedition", ["pb"]) == {"pb": RATINGS["expedition"]["pb"]}
    # chat in its order; a room without chat has none
    assert await records.chat("r1") == CHAT["r1"]
    assert await records.chat(None) == CHAT[LOBBY] == await records.chat(LOBBY)
    assert await records.chat("r2") == [] and not await records.has_chat("r2")
    # the old keys stay (the operator deletes them); the marker says the move was done, the lock is gone
    after = await old.keys()
    assert after.pop("records:moved") == b"n1"
    assert after == before

    # done once: a second move (another node starting later) does nothing
    moved = await _everything(records)
    assert await _move(old, records, "n2") is None
    assert await _everything(records) == moved
    assert (await old.keys())["records:moved"] == b"n1"

    # the rematch of r1 was recorded: a later one is answered with it
    assert await records.set_rematch("r1", "r-other") == "r9"
    assert await records.set_rematch("r2", "r-new") == "r-new"


async def test_what_the_database_has_already_wins_over_the_old_records(old: Old, records: Records) -> None:
    await old.fill()
    # a node of this version wrote these before the move (started first, or while another node moved)
    newer = _row(40.0, 1.0, 9, "Ann (new)")
    await records.put_ratings("expedition", {"pa": newer})
    new_line = _line("r1", "pb", "written by a new node", 99)
    await records.add_chat("r1", new_line)
    kept_r2 = {"room": "r2", "game": "classic", "result": {"winners": [0]}, "finished_at": 2001, "_public": True}
    assert await records.finish_game(kept_r2, ["pa", "pd"])
    assert await records.set_rematch("r1", "r7") == "r7"

    counts = await _move(old, records, "n1")

    assert counts is not None
    assert counts["games"] == 2  # r2 was archived already: not twice
    assert counts["chat"] == len(CHAT[LOBBY])  # r1 had chat: not moved (nor duplicated)
    # the rating row written by the new node stays; the others are moved
    assert await records.ratings_of("expedition", ["pa", "pb", "pc"]) == {**RATINGS["expedition"], "pa": newer}
    assert await records.ratings_of("classic", ["pa", "pd"]) == RATINGS["classic"]
    assert [p for p, _ in await records.leaderboard("expedition", 10)] == ["pa", "pc", "pb"]
    # r2 is listed once, as the database had it; r1 and r3 are moved (after it: archived later)
    games = await records.history(None, None, 10)
    assert sorted(_rooms(games)) == ["r1", "r2", "r3"]
    assert [g for g in games if g["room"] == "r2"] == [{**kept_r2, "_players": ["pa", "pd"]}]
    assert _rooms(await records.history(None, "pd", 10)) == ["r2"]
    assert _rooms(await records.history("expedition", None, 10)) == ["r3", "r1"]
    # r1's chat is the database's alone; the lobby's is moved
    assert await records.chat("r1") == [new_line]
    assert await records.chat(None) == CHAT[LOBBY]
    # the rematch recorded first stays
    assert await records.set_rematch("r1", "r-other") == "r7"
    # and it is done: a second move does nothing
    assert await _move(old, records, "n2") is None
    assert await records.chat("r1") == [new_line]
    assert len(await records.history(None, None, 10)) == 3


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
async def test_two_nodes_starting_together_move_the_records_once(
    old: Old, kind: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    await old.fill()
    first = _new_records(kind, request, tmp_path)
    second = SqlRecords(first.url) if isinstance(first, SqlRecords) else first  # another node's engine, one database
    try:
        await first.migrate()  # as each node does at start-up, before it moves
        await second.migrate()
        got = await asyncio.gather(_move(old, first, "n1"), _move(old, second, "n2"))
        assert sorted(got, key=lambda c: c is None) == [MOVED_ALL, None], got
        winner = "n1" if got[0] is not None else "n2"
        assert (await old.keys())["records:moved"] == winner.encode()
        for records in (first, second):
            assert await records.history(None, None, 10) == HISTORY
            assert await records.chat("r1") == CHAT["r1"]
            assert await records.chat(None) == CHAT[LOBBY]
            for game in RATINGS:
                assert await records.leaderboard(game, 10) == _board(game)
        assert await first.set_rematch("r1", "x") == "r9"
        # and nobody moves them again
        assert list(await asyncio.gather(_move(old, first, "n3"), _move(old, second, "n4"))) == [None, None]
        assert await first.history(None, None, 10) == HISTORY
    finally:
        await first.close()
        if second is not first:
            await second.close()


class FailingChat(MemoryRecords):
    """Records whose chat writes fail while `down` (a records database that went away mid-move)."""

    def __init__(self) -> None:
        super().__init__()
        self.down = True

    async def add_chat(self, room: str | None, line: dict[str, Any]) -> None:
        if self.down:
            raise StoreUnavailable("records database unavailable (test)")
        await super().add_chat(room, line)


async def test_a_move_that_failed_half_way_is_taken_up_again_by_the_next_start(old: Old) -> None:
    await old.fill()
    records = FailingChat()
    with pytest.raises(StoreUnavailable):
        await _move(old, records, "n1")
    keys = await old.keys()
    assert "records:moved" not in keys
    assert "records:moving" not in keys, "a failed move kept its lock: the next start would skip the move"
    assert _rooms(await records.history(None, None, 10)) == ["r3", "r2", "r1"]  # moved before the failure

    records.down = False
    counts = await _move(old, records, "n2")  # the next start, at once

    assert counts is not None and counts["games"] == 0 and counts["chat"] == 5 and counts["rematch"] == 1
    assert await records.history(None, None, 10) == HISTORY  # not twice
    assert await records.chat("r1") == CHAT["r1"] and await records.chat(None) == CHAT[LOBBY]
    assert (await old.keys())["records:moved"] == b"n2"


async def _stop(node: NodeProc) -> None:
    """SIGTERM by its PID, then SIGKILL if it did not stop (and remove its log)."""
    try:
        if node.proc is not None and node.proc.poll() is None:
            node.proc.send_signal(signal.SIGTERM)
            deadline = time.monotonic() + 15
            while node.proc.poll() is None and time.monotonic() < deadline:
                await asyncio.sleep(0.05)
    finally:
        node.stop()


async def test_a_node_started_on_the_old_layout_serves_the_moved_records(old: Old, tmp_path: Path) -> None:
    await old.fill()
    node = NodeProc("mover", REDIS_URL, old.prefix, extra=["--records", f"sqlite:///{tmp_path}/records.db"])
    eve = Player("eve", [])
    try:
        await asyncio.to_thread(node.start)  # healthy once the records are moved (they are moved before ready)
        eve.urls = [node.url]
        c = await eve.connect()
        # the leaderboards: the moved rows, best first
        for game in RATINGS:
            board = await c.request("ratings", game=game)
            want = [{"player": p, "name": row["name"], "rating": ratings.shown(row), "games": row["games"],
                     "rank": i + 1, "provisional": ratings.provisional(row)}
                    for i, (p, row) in enumerate(_board(game))]  # fmt: skip
            assert board["players"] == want, board
        # the history: newest first, without the game of the unlisted room (eve did not play it)
        listed = [{k: v for k, v in rec.items() if not k.startswith("_")} for rec in HISTORY if rec["_public"]]
        assert (await c.request("history"))["games"] == listed
        assert _rooms((await c.request("history", game="expedition"))["games"]) == ["r1"]
        assert _rooms((await c.request("history", player="pd"))["games"]) == ["r2"]
        # the lobby's chat, in its order
        lobby = await c.request("chat_log")
        assert lobby["messages"] == [{k: v for k, v in x.items() if k != "t"} for x in CHAT[LOBBY]]
        keys = await old.keys()
        assert keys.get("records:moved") == b"mover" and "records:moving" not in keys
        assert "moved the records kept in Redis" in node.log()
    finally:
        await eve.close()
        await _stop(node)
