"""Records of a SQLite store in its own file (SQLAlchemy Core over aiosqlite): what the Redis and memory records
keep, kept across a reopen; reads go through the players or the room asked for."""

from __future__ import annotations

from pathlib import Path

from server.store.records import CHAT_KEEP, LOBBY, SqlRecords, records_for
from server.store.sqlite import SqliteStore


def _file(tmp_path: Path) -> Path:
    return tmp_path / "data" / "marcopolo.db"


async def test_a_sqlite_store_keeps_its_records_in_its_own_file_across_a_reopen(tmp_path: Path) -> None:
    async with SqliteStore(_file(tmp_path)) as store:
        records = records_for(store)
        assert isinstance(records, SqlRecords) and records_for(store) is records
        await records.add_chat("r1", {"t": "chat", "text": "gg"}, 60)
        await records.add_chat(None, {"t": "chat", "text": "hello"}, 60)
        await records.add_game({"room": "r1", "game": "expedition", "result": {"winners": [0]}}, ["pa", "pb"])
        await records.save_ratings("expedition", {"pa": {"mu": 26.0, "sigma": 8.0, "games": 1, "name": "A"}})
        assert await records.set_rematch("r1", "r2", 60) == "r2"
    async with SqliteStore(_file(tmp_path)) as reopened:
        records = records_for(reopened)
        assert [x["text"] for x in await records.chat("r1")] == ["gg"]
        assert [x["text"] for x in await records.chat(None)] == ["hello"]
        games = await records.history(None, None, 10)
        assert [(g["room"], g["_players"]) for g in games] == [("r1", ["pa", "pb"])]
        assert await records.ratings("expedition") == {"pa": {"mu": 26.0, "sigma": 8.0, "games": 1, "name": "A"}}
        assert await records.set_rematch("r1", "r3", 60) == "r2"  # set once


async def test_history_is_newest_first_by_game_and_by_player_and_bounded(tmp_path: Path) -> None:
    async with SqliteStore(_file(tmp_path)) as store:
        records = records_for(store)
        for i in range(6):
            game = "expedition" if i % 2 else "classic"
            await records.add_game({"room": f"r{i}", "game": game}, [f"p{i % 3}", "pz"])
        assert [g["room"] for g in await records.history(None, None, 4)] == ["r5", "r4", "r3", "r2"]
        assert [g["room"] for g in await records.history("expedition", None, 10)] == ["r5", "r3", "r1"]
        assert [g["room"] for g in await records.history(None, "p1", 10)] == ["r4", "r1"]
        assert [g["room"] for g in await records.history("classic", "p1", 10)] == ["r4"]
        assert len(await records.history(None, "pz", 10)) == 6


async def test_a_rooms_chat_keeps_its_last_lines_and_the_lobbys_are_apart(tmp_path: Path) -> None:
    async with SqliteStore(_file(tmp_path)) as store:
        records = records_for(store)
        for i in range(CHAT_KEEP + 5):
            await records.add_chat("r1", {"n": i}, 60)
        lines = await records.chat("r1")
        assert [x["n"] for x in lines] == list(range(5, CHAT_KEEP + 5))
        assert await records.chat(None) == [] and await records.chat(LOBBY) == []


async def test_ratings_are_read_and_written_for_the_players_asked_for_only(tmp_path: Path) -> None:
    async with SqliteStore(_file(tmp_path)) as store:
        records = records_for(store)
        rows = {f"p{i}": {"mu": 25.0 + i, "sigma": 8.0, "games": 1, "name": f"P{i}"} for i in range(50)}
        await records.save_ratings("khan", rows)
        got = await records.ratings_of("khan", ["p3", "p7", "nobody"])
        assert got == {"p3": rows["p3"], "p7": rows["p7"]}
        await records.save_ratings("khan", {"p3": {**rows["p3"], "games": 2}})  # an update, not a second row
        assert (await records.ratings_of("khan", ["p3"]))["p3"]["games"] == 2
        assert len(await records.ratings("khan")) == 50 and await records.ratings("voyages") == {}
