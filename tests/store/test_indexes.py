"""The store's indexes, the same in every store: lobby pages, quick match's claim of a seat, the unfinished rooms a
node's start-up claims; and, for Redis, how the indexes (written outside the room scripts) repair themselves."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from server.node import cluster as cluster_mod
from server.store import RedisStore, Store
from server.store.base import match_kind

from .conftest import Backend
from .test_store import meta_for

KIND = match_kind("expedition", 2, meta_for("x")["options"])


def seated(room: str, *players: str | None, **changes: Any) -> dict[str, Any]:
    """A waiting room of two seats with `players` seated (None: free)."""
    taken = [*players, *[None] * (2 - len(players))]
    return meta_for(room, players=taken, **changes)


async def rooms_of(store: Store, game: str | None = None, offset: int = 0, limit: int = 100) -> list[str]:
    metas, _total = await store.lobby_page(game, offset, limit)
    return [m["room"] for m in metas]


# --- the lobby ---------------------------------------------------------------------------------------


async def test_a_lobby_page_holds_public_unfinished_rooms_oldest_first_with_the_total(store: Store) -> None:
    for i in range(7):
        await store.create_room(meta_for(f"r{i}", created=100.0 - i))
    await store.create_room(meta_for("private", public=False))
    await store.create_room(meta_for("over", status="finished"))
    page, total = await store.lobby_page(None, 2, 3)
    assert [m["room"] for m in page] == ["r4", "r3", "r2"] and total == 7
    assert page[0] == meta_for("r4", created=96.0)
    assert await rooms_of(store, offset=6) == ["r0"]
    assert await rooms_of(store, offset=7) == []


async def test_a_lobby_page_of_one_game_lists_only_that_game(store: Store) -> None:
    await store.create_room(meta_for("e1", created=1.0))
    await store.create_room(meta_for("c1", game="classic", created=2.0))
    await store.create_room(meta_for("e2", status="playing", created=3.0))
    assert await rooms_of(store, "expedition") == ["e1", "e2"]
    assert await rooms_of(store, "classic") == ["c1"]
    assert await store.lobby_page("nothing", 0, 10) == ([], 0)


async def test_rooms_leave_the_lobby_when_they_finish_go_private_or_are_deleted(store: Store) -> None:
    for room in ("a", "b", "c"):
        await store.create_room(meta_for(room, status="playing", players=["p1", "p2"]))
    await store.finish("a", meta_for("a"), ttl_seconds=60)
    await store.save_meta("b", meta_for("b", public=False))
    await store.delete_room("c")
    assert await store.lobby_page(None, 0, 10) == ([], 0)
    await store.save_meta("b", meta_for("b"))
    assert await rooms_of(store) == ["b"]


# --- quick match -------------------------------------------------------------------------------------


async def claim(store: Store, player: str, kind: str = KIND) -> str | None:
    got = await store.match_claim(kind, player)
    assert got is None or got[1] is False
    return got[0] if got else None


async def test_quick_match_takes_a_seat_in_the_fullest_room_then_the_oldest(store: Store) -> None:
    await store.create_room(seated("empty-old", created=1.0))
    await store.create_room(seated("half-new", "p1", created=3.0))
    await store.create_room(seated("half-old", "p2", created=2.0))
    assert await claim(store, "me") == "half-old"
    assert await claim(store, "you") == "half-new"  # the seat of half-old is claimed
    assert await claim(store, "them") == "empty-old"
    assert await claim(store, "more") == "empty-old"
    assert await claim(store, "none left") is None


async def test_quick_match_skips_rooms_the_player_sits_in_or_claimed_and_other_kinds(store: Store) -> None:
    await store.create_room(seated("mine", "me"))
    await store.create_room(meta_for("three", seats=3, players=[None, None, None]))
    await store.create_room(seated("other-options", options={"variant": "x"}))
    await store.create_room(seated("private", public=False))
    await store.create_room(seated("closed", closed="nobody_joined"))
    await store.create_room(seated("full", "a", "b"))
    assert await claim(store, "me") is None
    assert await claim(store, "you") == "mine"
    kind3 = match_kind("expedition", 3, meta_for("x")["options"])
    assert await claim(store, "you", kind3) == "three"
    assert await claim(store, "you", kind3) is None  # one claim per player and room
    assert await claim(store, "him", kind3) == "three"


async def test_with_no_room_a_new_rooms_id_takes_the_claim_and_the_next_players(store: Store) -> None:
    assert await store.match_claim(KIND, "ann", "new1", 3, 50.0) == ("new1", True)
    assert await store.match_claim(KIND, "bob", "new2", 3, 51.0) == ("new1", False)  # before new1 even exists
    assert await store.match_claim(KIND, "cy", "new3", 3, 52.0) == ("new1", False)
    assert await store.match_claim(KIND, "dan", "new4", 3, 53.0) == ("new4", True)  # new1 is full of claims
    assert await store.match_claim(KIND, "eve") == ("new4", False)
    await store.create_room(meta_for("new4", seats=3, players=[None, None, None], created=53.0))
    assert await store.match_claim(KIND, "fay") == ("new4", False)
    assert await claim(store, "gus") is None  # dan's and eve's and fay's claims are waiting for their joins
    await store.save_meta("new4", meta_for("new4", seats=3, players=["dan", "eve", None], created=53.0))
    assert await claim(store, "gus") is None  # fay's claim still counts


async def test_a_seat_claimed_and_not_used_is_handed_back(store: Store) -> None:
    await store.create_room(seated("r1", "p1"))
    assert await claim(store, "me") == "r1"
    assert await claim(store, "you") is None
    await store.match_release(KIND, "r1", "me")
    assert await claim(store, "you") == "r1"
    await store.match_release(KIND, "r1", "nobody")  # a seat never claimed is not handed back
    assert await claim(store, "me") is None
    await store.match_release(KIND, "r1", "you")
    await store.match_release(KIND, "r1", "you")
    assert await claim(store, "me") == "r1"
    assert await claim(store, "him") is None  # never more seats than the room has free


async def test_a_claim_counts_until_its_player_joins(store: Store) -> None:
    await store.create_room(seated("r1"))
    assert await claim(store, "me") == "r1"
    assert await claim(store, "you") == "r1"
    assert await claim(store, "him") is None
    await store.save_meta("r1", seated("r1", "me"))  # one claim joined; the other is still on its way
    assert await claim(store, "him") is None
    await store.match_release(KIND, "r1", "you")  # ... and failed
    assert await claim(store, "him") == "r1"
    await store.save_meta("r1", seated("r1", "me", "him", status="playing"))  # started: out of the index
    await store.save_meta("r1", seated("r1", "me", "him"))
    assert await claim(store, "me") is None


async def test_a_claim_for_a_room_that_was_never_made_is_dropped_when_handed_back(store: Store) -> None:
    assert await store.match_claim(KIND, "ann", "ghost", 2, 1.0) == ("ghost", True)
    await store.match_release(KIND, "ghost", "ann")
    assert await claim(store, "bob") is None


# --- the unfinished rooms ----------------------------------------------------------------------------


async def test_open_rooms_pages_through_every_unfinished_room_once(store: Store) -> None:
    for i in range(25):
        status = "finished" if i % 5 == 0 else "playing" if i % 2 else "waiting"
        await store.create_room(meta_for(f"r{i:02}", status=status, public=i % 3 != 0, created=float(i % 4)))
    seen: list[str] = []
    cursor: str | None = None
    pages = 0
    while True:
        page, cursor = await store.open_rooms(cursor, 4)
        seen += page
        pages += 1
        if pages == 2:  # rooms finishing between two pages do not shift the pages after them
            for rid in seen[:2]:
                await store.finish(rid, meta_for(rid), ttl_seconds=60)
        if cursor is None:
            break
    assert sorted(seen) == [f"r{i:02}" for i in range(25) if i % 5]
    assert len(seen) == len(set(seen)) and pages <= 7


# --- Redis: indexes outside the room scripts, repaired ----------------------------------------------


async def test_a_stale_lobby_entry_is_dropped_by_the_read_that_meets_it(any_redis: Backend) -> None:
    raw, p, store = any_redis.raw, any_redis.prefix, any_redis.store
    assert raw is not None
    await store.create_room(meta_for("r1"))
    await raw.zadd(f"{p}idx:lobby", {"ghost": 1.0, "r2": 2.0})  # index writes that outlived their rooms
    await store.create_room(meta_for("r2", public=False))
    await raw.zadd(f"{p}idx:lobby", {"r2": 2.0})
    page, total = await store.lobby_page(None, 0, 10)
    assert [m["room"] for m in page] == ["r1"] and total == 1
    assert await raw.zrange(f"{p}idx:lobby", 0, -1) == [b"r1"]


async def test_the_sweep_puts_lost_index_entries_back_and_drops_stale_ones(any_redis: Backend) -> None:
    raw, p, store = any_redis.raw, any_redis.prefix, any_redis.store
    assert raw is not None and isinstance(store, RedisStore)
    await store.create_room(seated("r1", "p1"))
    await store.create_room(meta_for("r2", status="playing"))
    await raw.delete(f"{p}idx:lobby", f"{p}idx:lobby:expedition", *store._match_keys(KIND))  # writes lost
    await raw.zadd(f"{p}idx:open", {"gone": 1.0})
    rooms, cursor = await store.sweep_open(None, 100)
    assert sorted(rooms) == ["r1", "r2"] and cursor is None
    assert await rooms_of(store) == ["r1", "r2"]
    assert await claim(store, "me") == "r1"
    assert await raw.zrange(f"{p}idx:open", 0, -1) == [b"r1", b"r2"]


async def test_a_room_whose_index_write_failed_is_placed_by_its_next_write(any_redis: Backend) -> None:
    raw, p, store = any_redis.raw, any_redis.prefix, any_redis.store
    assert raw is not None and isinstance(store, RedisStore)
    await store.create_room(seated("r1"))
    await raw.delete(f"{p}idx:lobby")
    store._placed.pop("r1")  # as `_write_index` does when the index write fails
    await store.save_meta("r1", seated("r1"))
    assert await rooms_of(store) == ["r1"]


async def test_rooms_of_an_earlier_version_are_moved_into_the_indexes(redis_backend: Backend) -> None:
    raw, p, store = redis_backend.raw, redis_backend.prefix, redis_backend.store
    assert raw is not None and isinstance(store, RedisStore)
    for i in range(5):  # as an earlier version wrote them: a room's keys and the set of every room
        await store.create_room(meta_for(f"old{i}", status="finished" if i == 4 else "waiting"))
    await raw.delete(f"{p}idx:open", f"{p}idx:lobby", f"{p}idx:lobby:expedition", *store._match_keys(KIND))
    await raw.sadd(f"{p}rooms", *[f"old{i}" for i in range(5)], "expired")
    assert await store.room_ids(unfinished_only=True) == []
    moved = 0
    while (got := await store.adopt_legacy(2)) > 0:
        moved += got
    assert moved == 6 and await raw.scard(f"{p}rooms") == 0
    assert await store.room_ids(unfinished_only=True) == [f"old{i}" for i in range(4)]
    assert await rooms_of(store) == [f"old{i}" for i in range(4)]
    assert await claim(store, "me") == "old0"


async def test_concurrent_quick_match_claims_never_take_more_seats_than_there_are(any_redis: Backend) -> None:
    store = any_redis.store
    for i in range(10):
        await store.create_room(seated(f"r{i}", "host", created=float(i)))
    got = await asyncio.gather(*(claim(store, f"p{i}") for i in range(15)))
    assert sorted(r for r in got if r is not None) == [f"r{i}" for i in range(10)]
    assert got.count(None) == 5


class _AdoptingHub:
    """The part of a hub the sweep calls: which rooms each chunk handed it."""

    def __init__(self) -> None:
        self.chunks: list[list[str]] = []

    async def adopt(self, rooms: list[str], grace: bool = True) -> int:
        self.chunks.append(sorted(rooms))
        return 0


async def test_one_sweep_step_repairs_a_whole_page_a_chunk_at_a_time(
    any_redis: Backend, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A sweep step reads its page in chunks (the loop free between them, so moves never wait for a whole page),
    and the chunks together still cover the page: every room's lost entries put back, every stale one dropped."""
    raw, p, store = any_redis.raw, any_redis.prefix, any_redis.store
    assert raw is not None and isinstance(store, RedisStore)
    monkeypatch.setattr(cluster_mod, "SWEEP_CHUNK", 2)
    monkeypatch.setattr(cluster_mod, "SWEEP_PAGE", 6)
    rooms = [f"r{i}" for i in range(5)]
    for i, rid in enumerate(rooms):
        await store.create_room(seated(rid, "host", created=float(i)))
    await raw.delete(f"{p}idx:lobby", f"{p}idx:lobby:expedition", *store._match_keys(KIND))  # writes lost
    await raw.zadd(f"{p}idx:lobby", {f"ghost{i}": i + 0.5 for i in range(4)})  # outlived their rooms
    cluster = cluster_mod.RedisCluster(store, "node-a")
    hub = _AdoptingHub()
    cluster._hub = hub  # type: ignore[assignment]
    assert await cluster.sweep_once()
    assert hub.chunks == [["r0", "r1"], ["r2", "r3"], ["r4"]]  # chunks of 2, the page's 5 rooms
    # the lobby's page of 6 entries, 2 at a time: r0 ghost0 r1 ghost1 r2 ghost2 read, the ghosts dropped
    lobby = [x.decode() for x in await raw.zrange(f"{p}idx:lobby", 0, -1)]
    assert lobby == ["r0", "r1", "r2", "r3", "ghost3", "r4"]
    assert await claim(store, "me") == "r0"
    # the open index was read to its end: the next step starts again from the first room; the lobby's goes on
    hub.chunks.clear()
    assert await cluster.sweep_once()
    assert hub.chunks == [["r0", "r1"], ["r2", "r3"], ["r4"]]
    assert await raw.zrange(f"{p}idx:lobby", 0, -1) == [r.encode() for r in rooms]
    assert await rooms_of(store) == rooms
    # another node holds the sweep lock meanwhile: this one does nothing
    other = cluster_mod.RedisCluster(store, "node-b")
    other._hub = _AdoptingHub()  # type: ignore[assignment]
    assert not await other.sweep_once()
