# ruff: noqa: F811 - `records` is the fixture imported from test_records_sql
"""Accounts in the records database: the same behaviour on SQLite, a real PostgreSQL and in memory. A name key is
held by one live account; a deleted account keeps it until its name is free; devices (token hashes) are listed,
dropped one by one or all at once and die with the account; failed sign-ins are counted per key in a window."""

from __future__ import annotations

import asyncio
from typing import Any

from server.store.records import DELETED_NAME, Account, Device, Records

from .test_records_sql import records  # noqa: F401 - the fixture: SQLite, PostgreSQL, memory


def _account(player: str, key: str, at: int = 1000, name: str | None = None) -> Account:
    return Account(player, name or key.title(), key, f"hash-{player}", at)


async def test_a_name_key_belongs_to_one_live_account(records: Records) -> None:
    assert await records.create_account(_account("pa", "allce"))
    assert not await records.create_account(_account("pb", "allce", name="ALICE"))
    assert not await records.create_account(_account("pa", "bob"))  # one account per player id
    got = await records.account_by_key("allce")
    assert got is not None and got.player == "pa" and got.password == "hash-pa" and got.name == "Allce"
    assert await records.account("pa") == got and await records.account("pb") is None
    assert await records.accounts_among(["pa", "pb", "bot:1"]) == {"pa"}
    await records.set_password("pa", "new")
    again = await records.account("pa")
    assert again is not None and again.password == "new"


async def test_a_deleted_account_holds_its_name_until_it_is_free_and_loses_its_devices(records: Records) -> None:
    assert await records.create_account(_account("pa", "allce", at=1000))
    await records.add_device(Device("k1", "pa", "phone", 1000, 1000))
    assert await records.delete_account("pa", now=2000, free_at=5000) == ["k1"]
    assert await records.account("pa") is None and await records.account_by_key("allce") is None
    assert await records.device("k1") is None and await records.accounts_among(["pa"]) == set()
    assert await records.delete_account("pa", now=2100, free_at=9000) == []  # once
    assert not await records.create_account(_account("pb", "allce", at=4999))
    assert await records.create_account(_account("pc", "allce", at=5000))
    got = await records.account_by_key("allce")
    assert got is not None and got.player == "pc"


async def test_devices_are_listed_dropped_one_by_one_or_all(records: Records) -> None:
    assert await records.create_account(_account("pa", "allce"))
    assert await records.create_account(_account("pb", "bob"))
    for i, (key, player) in enumerate([("k1", "pa"), ("k2", "pa"), ("k3", "pb")]):
        await records.add_device(Device(key, player, f"dev{i}", 1000 + i, 1000 + i))
    assert [d.key for d in await records.devices("pa")] == ["k2", "k1"]
    got = await records.device("k1")
    assert got is not None and got.player == "pa" and got.device == "dev0"
    assert await records.drop_devices("pa", ["k1", "k3"]) == ["k1"]  # not another account's
    assert await records.device("k1") is None and await records.device("k3") is not None
    assert await records.drop_devices("pa") == ["k2"]
    assert await records.devices("pa") == [] and await records.device("k3") is not None


async def test_failed_sign_ins_are_counted_per_key_in_a_window(records: Records) -> None:
    for t in range(5):
        counts = await records.note_attempt(["n:allce", "a:10.0.0.1"], now=1000 + t, window=60)
    assert counts == {"n:allce": 5, "a:10.0.0.1": 5}
    counts = await records.note_attempt(["n:bob", "a:10.0.0.1"], now=1030, window=60)
    assert counts == {"n:bob": 1, "a:10.0.0.1": 6}
    assert await records.attempts(["n:allce", "n:bob", "n:eve"], since=1001) == {"n:allce": 3, "n:bob": 1, "n:eve": 0}
    later = await records.note_attempt(["n:allce"], now=1070, window=60)  # the first failures fell out
    assert later == {"n:allce": 1}


async def test_two_sign_ups_of_one_name_at_once_make_one_account(records: Records) -> None:
    made = await asyncio.gather(*(records.create_account(_account(f"p{i}", "allce")) for i in range(6)))
    assert sum(made) == 1


async def test_a_deleted_accounts_games_stay_under_deleted_player_and_its_ratings_go(records: Records) -> None:
    assert await records.create_account(_account("pa", "allce"))
    record = {"room": "r1", "game": "expedition", "seats": 2, "players": ["Alice", "Bob"], "result": {},
              "_public": True, "_seat_players": ["pa", "pb"]}  # fmt: skip
    replay = {"meta": {"players": ["pa", "pb"], "names": ["Alice", "Bob"]},
              "entries": [{"v": 1, "k": "join", "seat": 0, "player": "pa", "name": "Alice"},
                          {"v": 2, "k": "join", "seat": 1, "player": "pb", "name": "Bob"}]}  # fmt: skip

    def rate(rows: dict[str, dict[str, object]]) -> dict[str, dict[str, object]]:
        return {p: {"mu": 25.0, "sigma": 8.0, "games": 1, "name": p} for p in ("pa", "pb")}

    assert await records.finish_game(record, ["pa", "pb"], rated=["pa", "pb"], rate=rate, replay=replay)
    await records.delete_account("pa", now=2000, free_at=3000)
    [game] = await records.history(None, "pb", 10)
    assert game["players"] == [DELETED_NAME, "Bob"]
    kept = await records.archived("r1")
    assert kept is not None and kept["meta"]["names"] == [DELETED_NAME, "Bob"]
    assert [e["name"] for e in kept["entries"]] == [DELETED_NAME, "Bob"]
    assert [p for p, _ in await records.leaderboard("expedition", 10)] == ["pb"]


async def test_leaderboard_pages_ranks_and_a_players_rows_and_score_history(records: Records) -> None:
    def rows_for(mus: dict[str, float]) -> Any:
        def rate(old: dict[str, dict[str, object]]) -> dict[str, dict[str, object]]:
            return {p: {"mu": mu, "sigma": 1.0, "games": 1, "name": p} for p, mu in mus.items()}

        return rate

    mus = {f"p{i}": 10.0 + i for i in range(7)}  # p6 best
    record = {"room": "r1", "game": "classic", "seats": 7, "players": list(mus), "result": {}}
    assert await records.finish_game(record, list(mus), rated=list(mus), rate=rows_for(mus))
    page = await records.leaderboard("classic", 3, offset=2)
    assert [p for p, _ in page] == ["p4", "p3", "p2"]
    got = await records.rank_of("classic", "p3")
    assert got is not None and got[0] == 4 and got[1]["mu"] == 13.0
    assert await records.rank_of("classic", "nobody") is None and await records.rank_of("khan", "p3") is None
    later = {"p3": 30.0, "p0": 5.0}
    record2 = {"room": "r2", "game": "khan", "seats": 2, "players": ["p3", "p0"], "result": {}}
    assert await records.finish_game(record2, ["p3", "p0"], rated=["p3", "p0"], rate=rows_for(later))
    assert set(await records.ratings_by_player("p3")) == {"classic", "khan"}
    history = await records.history(None, "p3", 10)
    assert [(g["room"], g["_score"]) for g in history] == [("r2", 30.0 - 3), ("r1", 13.0 - 3)]
    unrated = {"room": "r3", "game": "khan", "seats": 2, "players": ["p3", "px"], "result": {}}
    assert await records.finish_game(unrated, ["p3", "px"])
    assert (await records.history(None, "p3", 1))[0]["_score"] is None
