"""The records database (`server.store.records_sql`, and the in-memory records for comparison): the same
behaviour on a SQLite file, on a real PostgreSQL (a database of this run's own, see tests/conftest.py) and in
memory; a SQLite store keeps its records in its own file across a reopen; migrations bring a file written before
they existed to the newest layout; a game's end rates its players once and atomically, also when two nodes
(two engines) end games of the same players at once; every query reads through an index."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import msgpack
import pytest

from server.store import open_records, records_for
from server.store.records import CHAT_KEEP, LOBBY, MemoryRecords, Records
from server.store.records_sql import SqlRecords
from server.store.sqlite import SqliteStore


def _file(tmp_path: Path) -> Path:
    return tmp_path / "data" / "marcopolo.db"


@pytest.fixture(params=["sqlite", "postgresql", "memory"])
async def records(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Records]:
    if request.param == "memory":
        found: Records = MemoryRecords()
    elif request.param == "sqlite":
        found = SqlRecords(f"sqlite:///{tmp_path}/records.db")
    else:
        found = SqlRecords(request.getfixturevalue("pg_url"))
    await found.migrate()
    yield found
    await found.close()


def _row(mu: float, games: int = 1, name: str = "P") -> dict[str, Any]:
    return {"mu": mu, "sigma": 8.0, "games": games, "name": name}


def _plus_one(rows: dict[str, dict[str, Any]], ids: list[str]) -> dict[str, dict[str, Any]]:
    """A rating function that counts games: each id's `games` + 1, `mu` + 1."""
    return {p: _row(float(rows.get(p, {}).get("mu", 25.0)) + 1, int(rows.get(p, {}).get("games", 0)) + 1) for p in ids}


async def test_chat_keeps_the_last_lines_of_each_room_and_the_lobbys_apart(records: Records) -> None:
    for i in range(CHAT_KEEP + 5):
        await records.add_chat("r1", {"n": i})
    await records.add_chat(None, {"n": "lobby"})
    assert [x["n"] for x in await records.chat("r1")] == list(range(5, CHAT_KEEP + 5))
    assert [x["n"] for x in await records.chat(None)] == ["lobby"] == [x["n"] for x in await records.chat(LOBBY)]
    assert await records.chat("r2") == [] and not await records.has_chat("r2") and await records.has_chat("r1")


async def test_a_game_is_archived_and_rated_once_whatever_the_retries(records: Records) -> None:
    ids = ["pa", "pb", "bot"]
    calls: list[dict[str, Any]] = []

    def rate(rows: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
        calls.append(rows)
        return _plus_one(rows, ids)

    record = {"room": "r1", "game": "expedition", "result": {"winners": [0]}, "finished_at": 5}
    replay = {"meta": {"room": "r1"}, "entries": [{"v": 1, "k": "join"}]}
    assert await records.finish_game(record, ["pa", "pb"], rated=ids, rate=rate, replay=replay)
    assert not await records.finish_game(record, ["pa", "pb"], rated=ids, rate=rate, replay=replay)
    assert calls == [{}], "a second end of the same room rated again"
    assert await records.archived("r1") == replay and await records.archived("nope") is None
    got = await records.ratings_of("expedition", ["pa", "pb", "bot", "nobody"])
    assert got == {p: _row(26.0) for p in ids}
    history = await records.history(None, None, 10)
    assert [(g["room"], g["_players"]) for g in history] == [("r1", ["pa", "pb"])]
    assert "entries" not in history[0], "the replay is read by room only, never listed"
    # the next game of pa reads pa's row (and only the rows asked for)
    assert await records.finish_game({"room": "r2", "game": "expedition"}, ["pa"], rated=["pa"],
                                     rate=lambda rows: (calls.append(rows), _plus_one(rows, ["pa"]))[1])  # fmt: skip
    assert calls[-1] == {"pa": _row(26.0)}
    assert (await records.ratings_of("expedition", ["pa"]))["pa"] == _row(27.0, 2)


async def test_history_is_newest_first_by_game_and_by_player_and_bounded(records: Records) -> None:
    for i in range(6):
        game = "expedition" if i % 2 else "classic"
        await records.finish_game({"room": f"r{i}", "game": game}, [f"p{i % 3}", "pz"])
    assert [g["room"] for g in await records.history(None, None, 4)] == ["r5", "r4", "r3", "r2"]
    assert [g["room"] for g in await records.history("expedition", None, 10)] == ["r5", "r3", "r1"]
    assert [g["room"] for g in await records.history(None, "p1", 10)] == ["r4", "r1"]
    assert [g["room"] for g in await records.history("classic", "p1", 10)] == ["r4"]
    assert len(await records.history(None, "pz", 10)) == 6


async def test_the_leaderboard_is_a_page_best_first(records: Records) -> None:
    rows = {f"p{i:03d}": _row(20.0 + (i % 17), name=f"P{i}") for i in range(150)}
    await records.put_ratings("khan", rows)
    await records.put_ratings("voyages", {"other": _row(99.0)})
    page = await records.leaderboard("khan", 100)
    want = sorted(rows.items(), key=lambda pr: (-(pr[1]["mu"] - 24.0), pr[0]))[:100]
    assert page == want
    assert await records.leaderboard("classic", 100) == []
    # put_ratings(replace=False) leaves rows already there (the one-time move from Redis)
    await records.put_ratings("khan", {"p000": _row(1.0), "new": _row(2.0)}, replace=False)
    got = await records.ratings_of("khan", ["p000", "new"])
    assert got == {"p000": rows["p000"], "new": _row(2.0)}


async def test_a_rematch_is_recorded_once(records: Records) -> None:
    assert await records.set_rematch("r1", "r2") == "r2"
    assert await records.set_rematch("r1", "r3") == "r2"


async def test_two_nodes_ending_games_of_the_same_players_at_once_lose_no_rating_update(
    pg_url: str, tmp_path: Path
) -> None:
    """Two engines on one database (as two nodes): 40 games of the same four players end concurrently, 20 on
    each; every player ends with 40 games counted. A read-modify-write without a lock loses some."""
    for url in (pg_url, f"sqlite:///{tmp_path}/shared.db"):
        nodes = [SqlRecords(url), SqlRecords(url)]
        for node in nodes:
            await node.migrate()
        ids = ["a", "b", "c", "d"]

        async def end(node: SqlRecords, i: int, ids: list[str] = ids) -> bool:
            def rate(rows: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
                return _plus_one(rows, ids)

            return await node.finish_game({"room": f"g{i}", "game": "classic"}, ids, rated=ids, rate=rate)

        done = await asyncio.gather(*(end(nodes[i % 2], i) for i in range(40)))
        assert all(done)
        got = await nodes[0].ratings_of("classic", ids)
        assert {p: r["games"] for p, r in got.items()} == dict.fromkeys(ids, 40), url
        assert len(await nodes[1].history("classic", None, 100)) == 40
        for node in nodes:
            await node.close()


async def test_a_sqlite_store_keeps_its_records_in_its_own_file_across_a_reopen(tmp_path: Path) -> None:
    async with SqliteStore(_file(tmp_path)) as store:
        records = records_for(store)
        assert isinstance(records, SqlRecords) and records_for(store) is records
        await records.add_chat("r1", {"t": "chat", "text": "gg"})
        await records.finish_game({"room": "r1", "game": "expedition"}, ["pa"], rated=["pa"],
                                  rate=lambda rows: {"pa": _row(26.0)})  # fmt: skip
        await records.close()
    assert {"records_games", "records_ratings", "rooms"} <= _tables(_file(tmp_path))
    async with SqliteStore(_file(tmp_path)) as reopened:
        again = open_records(None, reopened)
        assert [x["text"] for x in await again.chat("r1")] == ["gg"]
        assert [g["room"] for g in await again.history(None, "pa", 10)] == ["r1"]
        assert await again.leaderboard("expedition", 10) == [("pa", _row(26.0))]
        await again.close()


def _tables(path: Path) -> set[str]:
    with sqlite3.connect(path) as db:
        return {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


async def test_a_file_written_before_migrations_is_brought_to_the_newest_layout(tmp_path: Path) -> None:
    """The layout the first SQLite records had (tables made without Alembic, a room archived twice, ratings
    without a score): the migrations keep its rows, drop the second copy, and index the leaderboard."""
    path = tmp_path / "old.db"
    pack = msgpack.packb
    with sqlite3.connect(path) as db:
        db.executescript(
            """
            CREATE TABLE records_chat (id INTEGER PRIMARY KEY AUTOINCREMENT, room VARCHAR NOT NULL, data BLOB NOT NULL);
            CREATE INDEX records_chat_room ON records_chat (room, id);
            CREATE TABLE records_games (id INTEGER PRIMARY KEY AUTOINCREMENT, room VARCHAR NOT NULL,
                game VARCHAR NOT NULL, data BLOB NOT NULL);
            CREATE INDEX records_games_game ON records_games (game, id);
            CREATE TABLE records_game_players (player VARCHAR NOT NULL, game_id INTEGER NOT NULL,
                PRIMARY KEY (player, game_id));
            CREATE TABLE records_ratings (game VARCHAR NOT NULL, player VARCHAR NOT NULL, data BLOB NOT NULL,
                PRIMARY KEY (game, player));
            CREATE TABLE records_rematch (room VARCHAR NOT NULL PRIMARY KEY, new VARCHAR NOT NULL);
            """
        )
        for gid in (1, 2):
            rec = pack({"room": "old", "game": "classic", "_players": ["pa"]})
            db.execute("INSERT INTO records_games (id, room, game, data) VALUES (?, 'old', 'classic', ?)", (gid, rec))
            db.execute("INSERT INTO records_game_players VALUES ('pa', ?)", (gid,))
        for player, mu in (("pa", 30.0), ("pb", 40.0)):
            db.execute("INSERT INTO records_ratings VALUES ('classic', ?, ?)", (player, pack(_row(mu))))
        db.execute("INSERT INTO records_chat (room, data) VALUES ('old', ?)", (pack({"text": "kept"}),))
    records = SqlRecords(f"sqlite:///{path}")
    await records.migrate()
    assert [g["room"] for g in await records.history(None, "pa", 10)] == ["old"]
    assert [p for p, _ in await records.leaderboard("classic", 10)] == ["pb", "pa"]
    assert [x["text"] for x in await records.chat("old")] == ["kept"]
    assert not await records.finish_game({"room": "old", "game": "classic"}, ["pa"])  # archived already
    await records.close()
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT version_num FROM records_alembic_version").fetchall() == [(_head(),)]
        plan = " ".join(
            str(r[-1])
            for r in db.execute(
                "EXPLAIN QUERY PLAN SELECT player, data FROM records_ratings WHERE game = 'classic' "
                "ORDER BY score DESC, player LIMIT 100"
            )
        )
        assert "records_ratings_board" in plan and "TEMP B-TREE" not in plan, plan
        plan = " ".join(str(r[-1]) for r in db.execute(
            "EXPLAIN QUERY PLAN SELECT g.data FROM records_games g JOIN records_game_players p ON p.game_id = g.id "
            "WHERE p.player = 'pa' ORDER BY g.id DESC LIMIT 50"))  # fmt: skip
        assert "SCAN g" not in plan and "SCAN records_games" not in plan, plan


async def test_a_records_database_that_is_down_answers_unavailable_at_once(tmp_path: Path) -> None:
    """Nothing listens at the url: the first call fails within its timeout, the next ones at once."""
    from server.store.base import StoreUnavailable

    records = SqlRecords("postgresql://nobody@127.0.0.1:1/none", timeout=2.0)
    loop = asyncio.get_running_loop()
    for _ in range(3):
        started = loop.time()
        with pytest.raises(StoreUnavailable):
            await records.history(None, None, 10)
        assert loop.time() - started < 2.5
    started = loop.time()
    with pytest.raises(StoreUnavailable):
        await records.add_chat(None, {"text": "x"})
    assert loop.time() - started < 0.1, "a database known down was asked again"
    await records.close()


def test_records_urls() -> None:
    from server.store import MemoryStore

    store = MemoryStore()
    assert isinstance(open_records(None, store), MemoryRecords)
    assert isinstance(open_records("memory", store), MemoryRecords)
    pg = open_records("postgresql://u:p@db:5432/mp", store)
    assert isinstance(pg, SqlRecords) and pg.url == "postgresql+asyncpg://u:p@db:5432/mp"
    with pytest.raises(ValueError):
        open_records("mysql://x", store)


def _head() -> str:
    """The newest migration's revision (the file names start with it)."""
    versions = Path(__file__).resolve().parents[2] / "server" / "store" / "migrations" / "versions"
    return max(p.name.split("_", 1)[0] for p in versions.glob("[0-9]*_*.py"))
