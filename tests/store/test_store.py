"""One suite for every store: the same behaviour from MemoryStore and RedisStore."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from redis.asyncio.cluster import RedisCluster as AsyncRedisCluster

from server.store import LoadedRoom, MemoryStore, RedisStore, Store, StoreFenced, open_store, token_node

from .conftest import Backend, memory_backend


def meta_for(room: str, **changes: Any) -> dict[str, Any]:
    meta: dict[str, Any] = {
        "room": room,
        "game": "expedition",
        "seats": 2,
        "options": {"variant": "base", "nested": [1, {"a": None}]},
        "seed": 1234,
        "public": True,
        "status": "waiting",
        "players": [None, None],
        "names": [None, None],
        "created": 100.0,
        "v": 0,
    }
    meta.update(changes)
    return meta


def move(v: int) -> dict[str, Any]:
    return {"v": v, "seat": v % 2, "move": {"take": v}}


async def playing(store: Store, room: str, moves: int = 0) -> dict[str, Any]:
    """Create a playing room with `moves` log entries; return its current meta."""
    meta = meta_for(room, status="playing", players=["p1", "p2"], names=["Ann", "Bob"])
    await store.create_room(meta)
    for v in range(1, moves + 1):
        meta = {**meta, "v": v}
        await store.append(room, move(v), meta)
    return meta


# --- create and load ---------------------------------------------------------------------------------


async def test_a_created_room_loads_with_its_meta_and_nothing_else(store: Store) -> None:
    await store.create_room(meta_for("r1"))
    loaded = await store.load("r1")
    assert loaded == LoadedRoom(meta=meta_for("r1"), snap_v=0, snapshot=None, log=[])


async def test_an_unknown_room_loads_as_none(store: Store) -> None:
    assert await store.load("nope") is None


async def test_creating_a_room_twice_fails_and_keeps_the_first(store: Store) -> None:
    await store.create_room(meta_for("r1"))
    with pytest.raises(ValueError, match="already exists"):
        await store.create_room(meta_for("r1", game="other"))
    loaded = await store.load("r1")
    assert loaded is not None and loaded.meta["game"] == "expedition"


async def test_a_meta_without_a_valid_room_or_status_is_refused(store: Store) -> None:
    with pytest.raises(ValueError):
        await store.create_room(meta_for(""))
    with pytest.raises(ValueError):
        await store.create_room(meta_for("r1", status="paused"))
    with pytest.raises(ValueError):
        await store.create_room(meta_for("r1", public="yes"))
    assert await store.room_ids() == []


async def test_save_meta_replaces_the_meta(store: Store) -> None:
    await store.create_room(meta_for("r1"))
    await store.save_meta("r1", meta_for("r1", players=["p1", None], v=1))
    loaded = await store.load("r1")
    assert loaded is not None and loaded.meta == meta_for("r1", players=["p1", None], v=1)


async def test_save_meta_refuses_a_meta_for_another_room(store: Store) -> None:
    await store.create_room(meta_for("r1"))
    with pytest.raises(ValueError, match="not 'r1'"):
        await store.save_meta("r1", meta_for("r2"))


async def test_writing_to_an_unknown_room_raises_key_error(store: Store) -> None:
    with pytest.raises(KeyError):
        await store.save_meta("ghost", meta_for("ghost"))
    with pytest.raises(KeyError):
        await store.append("ghost", move(1), meta_for("ghost"))
    with pytest.raises(KeyError):
        await store.save_snapshot("ghost", 1, b"state")
    with pytest.raises(KeyError):
        await store.finish("ghost", meta_for("ghost"), ttl_seconds=60)
    assert await store.load("ghost") is None
    assert await store.room_ids() == []


# --- the log and snapshots ---------------------------------------------------------------------------


async def test_appended_entries_load_in_order_with_the_latest_meta(store: Store) -> None:
    meta = await playing(store, "r1", moves=5)
    loaded = await store.load("r1")
    assert loaded is not None
    assert loaded.log == [move(v) for v in range(1, 6)]
    assert loaded.meta == meta and loaded.meta["v"] == 5
    assert loaded.snapshot is None and loaded.snap_v == 0


async def test_an_entry_not_above_the_last_version_is_refused_and_changes_nothing(store: Store) -> None:
    meta = await playing(store, "r1", moves=3)
    for v in (3, 2):
        with pytest.raises(ValueError, match=f"v={v}"):
            await store.append("r1", move(v), {**meta, "v": 99})
    loaded = await store.load("r1")
    assert loaded is not None
    assert loaded.meta == meta
    assert loaded.log == [move(1), move(2), move(3)]


async def test_an_entry_needs_an_int_version_of_at_least_one(store: Store) -> None:
    meta = await playing(store, "r1")
    for bad in ({"v": 0}, {"v": "1"}, {"v": True}, {"seat": 0}):
        with pytest.raises(ValueError):
            await store.append("r1", bad, meta)


async def test_versions_may_skip_but_must_rise(store: Store) -> None:
    meta = await playing(store, "r1")
    await store.append("r1", move(2), meta)
    await store.append("r1", move(7), meta)
    loaded = await store.load("r1")
    assert loaded is not None and [e["v"] for e in loaded.log] == [2, 7]


async def test_a_room_loads_its_snapshot_and_the_log_after_it(store: Store) -> None:
    meta = await playing(store, "r1", moves=6)
    await store.save_snapshot("r1", 4, b"\x00state@4\xff")
    loaded = await store.load("r1")
    assert loaded == LoadedRoom(meta=meta, snap_v=4, snapshot=b"\x00state@4\xff", log=[move(5), move(6)])


async def test_a_snapshot_at_the_last_version_empties_the_log(store: Store) -> None:
    await playing(store, "r1", moves=3)
    await store.save_snapshot("r1", 3, b"s3")
    loaded = await store.load("r1")
    assert loaded is not None and loaded.snap_v == 3 and loaded.log == []


async def test_entries_appended_after_a_snapshot_follow_it(store: Store) -> None:
    meta = await playing(store, "r1", moves=3)
    await store.save_snapshot("r1", 3, b"s3")
    await store.append("r1", move(4), {**meta, "v": 4})
    await store.save_snapshot("r1", 4, b"s4")
    await store.append("r1", move(5), {**meta, "v": 5})
    loaded = await store.load("r1")
    assert loaded is not None
    assert (loaded.snap_v, loaded.snapshot, loaded.log) == (4, b"s4", [move(5)])


async def test_an_entry_at_or_below_the_snapshot_is_refused(store: Store) -> None:
    meta = await playing(store, "r1", moves=2)
    await store.save_snapshot("r1", 10, b"s10")
    with pytest.raises(ValueError):
        await store.append("r1", move(10), meta)
    await store.append("r1", move(11), meta)


async def test_an_older_snapshot_is_refused_and_changes_nothing(store: Store) -> None:
    await playing(store, "r1", moves=5)
    await store.save_snapshot("r1", 4, b"s4")
    with pytest.raises(ValueError, match="older"):
        await store.save_snapshot("r1", 2, b"s2")
    loaded = await store.load("r1")
    assert loaded is not None and (loaded.snap_v, loaded.snapshot, loaded.log) == (4, b"s4", [move(5)])


async def test_saving_the_same_snapshot_again_is_harmless(store: Store) -> None:
    await playing(store, "r1", moves=2)
    await store.save_snapshot("r1", 2, b"s2")
    await store.save_snapshot("r1", 2, b"s2")
    loaded = await store.load("r1")
    assert loaded is not None and (loaded.snap_v, loaded.snapshot) == (2, b"s2")


async def test_a_snapshot_at_version_zero_is_a_snapshot(store: Store) -> None:
    await playing(store, "r1", moves=1)
    await store.save_snapshot("r1", 0, b"initial")
    loaded = await store.load("r1")
    assert loaded is not None and (loaded.snap_v, loaded.snapshot, loaded.log) == (0, b"initial", [move(1)])


async def test_recovery_replays_to_the_same_state(store: Store) -> None:
    # A toy engine: the state is the list of moves taken so far, packed as bytes.
    meta = await playing(store, "r1")
    state: list[int] = []
    for v in range(1, 21):
        state.append(v)
        meta = {**meta, "v": v}
        await store.append("r1", move(v), meta)
        if v % 7 == 0:
            await store.save_snapshot("r1", v, bytes(state))
    loaded = await store.load("r1")
    assert loaded is not None
    recovered = list(loaded.snapshot or b"") + [e["move"]["take"] for e in loaded.log]
    assert recovered == state and loaded.snap_v == 14 and loaded.meta["v"] == 20


# --- the directory -----------------------------------------------------------------------------------


async def test_list_public_shows_only_public_waiting_or_playing_rooms_oldest_first(store: Store) -> None:
    await store.create_room(meta_for("b-waiting", created=2.0))
    await store.create_room(meta_for("a-playing", status="playing", created=3.0))
    await store.create_room(meta_for("c-private", public=False))
    await store.create_room(meta_for("d-finished", status="finished"))
    await store.create_room(meta_for("e-older", created=1.0))
    listed = await store.list_public()
    assert [m["room"] for m in listed] == ["e-older", "b-waiting", "a-playing"]
    assert listed[1] == meta_for("b-waiting", created=2.0)


async def test_save_meta_moves_a_room_in_and_out_of_the_public_list(store: Store) -> None:
    await store.create_room(meta_for("r1", public=False))
    assert await store.list_public() == []
    await store.save_meta("r1", meta_for("r1"))
    assert [m["room"] for m in await store.list_public()] == ["r1"]
    await store.save_meta("r1", meta_for("r1", status="finished"))
    assert await store.list_public() == []


async def test_append_updates_the_public_list_with_the_meta(store: Store) -> None:
    meta = await playing(store, "r1")
    await store.append("r1", move(1), {**meta, "public": False})
    assert await store.list_public() == []
    await store.append("r1", move(2), {**meta, "v": 2})
    assert [m["v"] for m in await store.list_public()] == [2]


async def test_room_ids_lists_every_room_or_only_unfinished_ones(store: Store) -> None:
    await store.create_room(meta_for("w"))
    await store.create_room(meta_for("p", status="playing", public=False))
    await store.create_room(meta_for("f"))
    await store.finish("f", meta_for("f"), ttl_seconds=3600)
    assert await store.room_ids() == ["f", "p", "w"]
    assert await store.room_ids(unfinished_only=True) == ["p", "w"]


# --- finish and delete -------------------------------------------------------------------------------


async def test_a_finished_room_stays_loadable_but_leaves_the_lobby(store: Store) -> None:
    meta = await playing(store, "r1", moves=2)
    await store.finish("r1", {**meta, "status": "finished"}, ttl_seconds=3600)
    loaded = await store.load("r1")
    assert loaded is not None and loaded.meta["status"] == "finished" and len(loaded.log) == 2
    assert await store.list_public() == []


async def test_finish_stores_status_finished_whatever_the_meta_says(store: Store) -> None:
    meta = await playing(store, "r1")
    await store.finish("r1", meta, ttl_seconds=3600)
    loaded = await store.load("r1")
    assert loaded is not None and loaded.meta["status"] == "finished"
    assert meta["status"] == "playing"


async def test_finish_needs_a_positive_ttl(store: Store) -> None:
    meta = await playing(store, "r1")
    with pytest.raises(ValueError):
        await store.finish("r1", meta, ttl_seconds=0)


async def test_a_finished_room_disappears_from_memory_after_its_ttl() -> None:
    # Redis expires keys itself; the redis tests below check that every key carries the ttl.
    backend = memory_backend()
    store = backend.store
    meta = await playing(store, "r1", moves=2)
    await store.save_snapshot("r1", 1, b"s1")
    await store.finish("r1", meta, ttl_seconds=60)
    await backend.elapse(59)
    assert await store.load("r1") is not None
    await backend.elapse(1)
    assert await store.load("r1") is None
    assert await store.room_ids() == []
    await store.create_room(meta_for("r1"))
    loaded = await store.load("r1")
    assert loaded is not None and loaded.log == [] and loaded.snapshot is None


async def test_finish_sets_an_expiry_on_every_key_of_the_room_in_redis(any_redis: Backend) -> None:
    store, raw = any_redis.store, any_redis.raw
    assert raw is not None
    meta = await playing(store, "r1", moves=3)
    await store.save_snapshot("r1", 1, b"s1")
    await store.finish("r1", meta, ttl_seconds=60)
    for part in ("meta", "snap", "log"):
        ttl = await raw.pttl(any_redis.key("r1", part))
        assert 0 < ttl <= 60_000, part


async def test_keys_first_written_after_finish_expire_with_the_room_in_redis(any_redis: Backend) -> None:
    store, raw = any_redis.store, any_redis.raw
    assert raw is not None
    meta = await playing(store, "r1")
    await store.finish("r1", meta, ttl_seconds=60)
    await store.append("r1", move(1), {**meta, "status": "finished"})
    await store.save_snapshot("r1", 1, b"s1")
    for part in ("meta", "snap", "log"):
        assert 0 < await raw.pttl(any_redis.key("r1", part)) <= 60_000, part


async def test_a_deleted_room_is_gone_everywhere(store: Store) -> None:
    meta = await playing(store, "r1", moves=2)
    await store.save_snapshot("r1", 1, b"s1")
    assert await store.acquire_lease("r1", "node-a", 10_000)
    await store.delete_room("r1")
    assert await store.load("r1") is None
    assert await store.room_ids() == [] and await store.list_public() == []
    assert await store.lease_holder("r1") is None
    await store.delete_room("r1")
    await store.create_room(meta)
    loaded = await store.load("r1")
    assert loaded is not None and loaded.log == [] and loaded.snapshot is None


async def test_rooms_do_not_see_each_other(store: Store) -> None:
    await playing(store, "a", moves=2)
    await playing(store, "a:log", moves=1)
    await store.save_snapshot("a", 2, b"sa")
    a, b = await store.load("a"), await store.load("a:log")
    assert a is not None and b is not None
    assert (a.snapshot, a.log) == (b"sa", [])
    assert (b.snapshot, b.log) == (None, [move(1)])


# --- aliasing ----------------------------------------------------------------------------------------


async def test_stored_data_cannot_be_changed_through_arguments_or_results(store: Store) -> None:
    meta = meta_for("r1", status="playing")
    entry = move(1)
    await store.create_room(meta)
    await store.append("r1", entry, meta)
    meta["options"]["nested"][1]["a"] = "changed"
    meta["players"].append("intruder")
    entry["move"]["take"] = -1
    loaded = await store.load("r1")
    assert loaded is not None
    loaded.meta["options"]["variant"] = "changed"
    loaded.log[0]["move"]["take"] = -2
    (await store.list_public())[0]["names"][0] = "changed"
    again = await store.load("r1")
    assert again is not None
    assert again.meta == meta_for("r1", status="playing")
    assert again.log == [move(1)]


async def test_a_mutable_snapshot_buffer_is_copied(store: Store) -> None:
    await playing(store, "r1")
    buffer = bytearray(b"state")
    await store.save_snapshot("r1", 0, buffer)  # type: ignore[arg-type]
    buffer[0:1] = b"X"
    loaded = await store.load("r1")
    assert loaded is not None and loaded.snapshot == b"state"


async def test_values_come_back_as_msgpack_gives_them(store: Store) -> None:
    await store.create_room(meta_for("r1", options={"pair": (1, 2), 3: "int key"}))
    loaded = await store.load("r1")
    assert loaded is not None and loaded.meta["options"] == {"pair": [1, 2], 3: "int key"}


async def test_a_value_msgpack_cannot_pack_is_refused_before_anything_is_stored(store: Store) -> None:
    with pytest.raises(TypeError):
        await store.create_room(meta_for("r1", options={"bad": object()}))
    assert await store.room_ids() == []


# --- leases and fencing ------------------------------------------------------------------------------


async def test_a_free_lease_is_acquired_with_a_token_naming_the_node(store: Store) -> None:
    assert await store.lease_holder("r1") is None
    token = await store.acquire_lease("r1", "node-a", 10_000)
    assert token is not None and token_node(token) == "node-a"
    assert await store.lease_holder("r1") == "node-a"


async def test_a_second_node_is_refused_a_held_lease(store: Store) -> None:
    assert await store.acquire_lease("r1", "node-a", 10_000)
    assert await store.acquire_lease("r1", "node-b", 10_000) is None
    assert await store.lease_holder("r1") == "node-a"


async def test_the_holder_acquiring_again_gets_a_new_token_and_fences_the_old_one(backend: Backend) -> None:
    store = backend.store
    meta = await playing(store, "r1")
    old = await store.acquire_lease("r1", "node-a", 200)
    await backend.elapse(0.15)
    new = await store.acquire_lease("r1", "node-a", 200)
    assert old and new and old != new
    await backend.elapse(0.15)
    assert await store.lease_holder("r1") == "node-a"
    with pytest.raises(StoreFenced):
        await store.append("r1", move(1), {**meta, "v": 1}, fence=old)
    await store.append("r1", move(1), {**meta, "v": 1}, fence=new)


async def test_only_the_holders_token_renews_a_lease(backend: Backend) -> None:
    store = backend.store
    token = await store.acquire_lease("r1", "node-a", 200)
    assert token is not None
    assert not await store.renew_lease("r1", "node-b|1", 10_000)
    await backend.elapse(0.15)
    assert await store.renew_lease("r1", token, 200)
    await backend.elapse(0.15)
    assert await store.lease_holder("r1") == "node-a"


async def test_a_lapsed_lease_nobody_took_is_taken_back_by_its_token(backend: Backend) -> None:
    store = backend.store
    token = await store.acquire_lease("r1", "node-a", 50)
    assert token is not None
    await backend.elapse(0.1)
    assert await store.lease_holder("r1") is None
    assert await store.keep_leases([("r1", token)], 10_000) == [True]
    assert await store.lease_holder("r1") == "node-a"


async def test_a_lapsed_lease_another_node_took_cannot_be_renewed_even_after_that_one_lapsed(backend: Backend) -> None:
    store = backend.store
    old = await store.acquire_lease("r1", "node-a", 50)
    await backend.elapse(0.1)
    assert await store.acquire_lease("r1", "node-b", 50)
    await backend.elapse(0.1)  # node b's lease lapsed as well: the epoch still tells node a it lost
    assert old is not None
    assert not await store.renew_lease("r1", old, 10_000)
    assert await store.keep_leases([("r1", old)], 10_000) == [False]
    assert await store.lease_holder("r1") is None


async def test_only_the_holder_releases_a_lease(store: Store) -> None:
    token = await store.acquire_lease("r1", "node-a", 10_000)
    assert token is not None
    await store.release_lease("r1", "node-b|1")
    assert await store.lease_holder("r1") == "node-a"
    await store.release_lease("r1", token)
    assert await store.lease_holder("r1") is None
    assert await store.acquire_lease("r1", "node-b", 10_000)


async def test_a_released_token_can_neither_be_taken_back_nor_write(store: Store) -> None:
    meta = await playing(store, "r1")
    token = await store.acquire_lease("r1", "node-a", 10_000)
    assert token is not None
    await store.release_lease("r1", token)
    assert await store.keep_leases([("r1", token)], 10_000) == [False]
    assert await store.lease_holder("r1") is None
    with pytest.raises(StoreFenced):
        await store.append("r1", move(1), {**meta, "v": 1}, fence=token)


async def test_a_lease_expires_and_another_node_takes_it(backend: Backend) -> None:
    store = backend.store
    old = await store.acquire_lease("r1", "node-a", 50)
    assert old is not None
    await backend.elapse(0.1)
    assert await store.lease_holder("r1") is None
    assert await store.acquire_lease("r1", "node-b", 10_000)
    await store.release_lease("r1", old)
    assert await store.lease_holder("r1") == "node-b"


async def test_leases_of_different_rooms_are_independent(store: Store) -> None:
    assert await store.acquire_lease("r1", "node-a", 10_000)
    assert await store.acquire_lease("r2", "node-b", 10_000)
    assert [await store.lease_holder(r) for r in ("r1", "r2", "r3")] == ["node-a", "node-b", None]


async def test_a_lease_needs_a_positive_ttl(store: Store) -> None:
    with pytest.raises(ValueError):
        await store.acquire_lease("r1", "node-a", 0)
    with pytest.raises(ValueError):
        await store.renew_lease("r1", "node-a|1", -5)


async def test_concurrent_acquirers_get_exactly_one_lease(store: Store) -> None:
    results = await asyncio.gather(*(store.acquire_lease("r1", f"node-{i}", 10_000) for i in range(10)))
    won = [r for r in results if r is not None]
    assert len(won) == 1
    assert await store.lease_holder("r1") == token_node(won[0])


async def test_every_write_under_a_token_that_lost_the_lease_is_refused_and_writes_nothing(
    backend: Backend,
) -> None:
    store = backend.store
    meta = await playing(store, "r1", moves=1)
    old = await store.acquire_lease("r1", "node-a", 50)
    await backend.elapse(0.1)
    new = await store.acquire_lease("r1", "node-b", 10_000)
    assert old and new
    before = await store.load("r1")
    with pytest.raises(StoreFenced):
        await store.append("r1", move(2), {**meta, "v": 2}, fence=old)
    with pytest.raises(StoreFenced):
        await store.save_meta("r1", {**meta, "v": 2}, fence=old)
    with pytest.raises(StoreFenced):
        await store.save_snapshot("r1", 1, b"s1", fence=old)
    with pytest.raises(StoreFenced):
        await store.finish("r1", meta, 60, fence=old)
    assert await store.load("r1") == before
    await store.append("r1", move(2), {**meta, "v": 2}, fence=new)


async def test_a_write_under_a_lapsed_token_nobody_replaced_still_lands(backend: Backend) -> None:
    store = backend.store
    meta = await playing(store, "r1")
    token = await store.acquire_lease("r1", "node-a", 50)
    await backend.elapse(0.1)
    await store.append("r1", move(1), {**meta, "v": 1}, fence=token)
    loaded = await store.load("r1")
    assert loaded is not None and loaded.log == [move(1)]


async def test_log_entry_gives_the_last_version_and_one_entry(store: Store) -> None:
    await playing(store, "r1", moves=3)
    assert await store.log_entry("r1", 2) == (3, move(2))
    assert await store.log_entry("r1", 5) == (3, None)
    await store.save_snapshot("r1", 2, b"s2")
    assert await store.log_entry("r1", 2) == (3, None)  # trimmed by the snapshot
    with pytest.raises(KeyError):
        await store.log_entry("nope", 1)


async def test_refence_swaps_a_holding_token_and_fences_the_old_one(store: Store) -> None:
    meta = await playing(store, "r1")
    token = await store.acquire_lease("r1", "node-a", 10_000)
    assert token is not None
    new = await store.refence("r1", token, 10_000)
    assert new is not None and new != token and token_node(new) == "node-a"
    with pytest.raises(StoreFenced):
        await store.append("r1", move(1), {**meta, "v": 1}, fence=token)
    assert await store.refence("r1", token, 10_000) is None
    await store.append("r1", move(1), {**meta, "v": 1}, fence=new)


async def test_a_store_that_keeps_its_log_returns_every_entry_but_loads_only_those_after_the_snapshot() -> None:
    store = MemoryStore(trim_log=False)
    await playing(store, "r1", moves=4)
    await store.save_snapshot("r1", 2, b"s2")
    loaded = await store.load("r1")
    assert loaded is not None and loaded.log == [move(3), move(4)]
    assert await store.full_log("r1") == [move(v) for v in range(1, 5)]


async def test_redis_keeps_the_whole_log_when_asked(any_redis: Backend) -> None:
    assert isinstance(any_redis.store, RedisStore)
    async with RedisStore(any_redis.store.url, prefix=any_redis.prefix, trim_log=False) as store:
        await playing(store, "r1", moves=4)
        await store.save_snapshot("r1", 2, b"s2")
        loaded = await store.load("r1")
        assert loaded is not None and loaded.log == [move(3), move(4)]
        assert await store.full_log("r1") == [move(v) for v in range(1, 5)]


async def test_many_concurrent_writes_share_few_pipelines_and_each_gets_its_own_answer(
    any_redis: Backend,
) -> None:
    store = any_redis.store
    assert isinstance(store, RedisStore)
    metas = [await playing(store, f"r{i}") for i in range(200)]
    await store.append("r0", move(1), {**metas[0], "v": 1})
    batches = store.batches
    results = await asyncio.gather(
        *(store.append(f"r{i}", move(1), {**metas[i], "v": 1}) for i in range(200)), return_exceptions=True
    )
    assert isinstance(results[0], ValueError)  # r0 already holds v=1: its own refusal, nobody else's
    assert results[1:] == [None] * 199
    assert store.batches - batches <= 5
    for i in (1, 100, 199):
        loaded = await store.load(f"r{i}")
        assert loaded is not None and loaded.log == [move(1)]


# --- Redis specifics ---------------------------------------------------------------------------------


async def test_a_new_redis_store_on_the_same_prefix_picks_the_rooms_up(any_redis: Backend) -> None:
    meta = await playing(any_redis.store, "r1", moves=3)
    await any_redis.store.save_snapshot("r1", 2, b"s2")
    assert isinstance(any_redis.store, RedisStore)
    async with RedisStore(any_redis.store.url, prefix=any_redis.prefix) as restarted:
        assert await restarted.room_ids(unfinished_only=True) == ["r1"]
        assert await restarted.load("r1") == LoadedRoom(meta=meta, snap_v=2, snapshot=b"s2", log=[move(3)])


async def test_the_redis_layout_is_readable_by_hand(any_redis: Backend) -> None:
    raw, p, store = any_redis.raw, any_redis.prefix, any_redis.store
    assert raw is not None
    await playing(store, "r1", moves=2)
    await store.save_snapshot("r1", 1, b"s1")
    assert await raw.hmget(any_redis.key("r1", "meta"), ["status", "game", "public", "log_v"]) == [
        b"playing",
        b"expedition",
        b"1",
        b"2",
    ]
    assert await raw.hgetall(any_redis.key("r1", "snap")) == {b"v": b"1", b"data": b"s1"}
    log = await raw.xrange(any_redis.key("r1", "log"))
    assert log is not None and [entry_id for entry_id, _ in log] == [b"2-0"]
    assert await raw.zrange(f"{p}idx:open", 0, -1) == [b"r1"]
    assert await raw.zrange(f"{p}idx:lobby", 0, -1) == [b"r1"]
    assert await raw.zrange(f"{p}idx:lobby:expedition", 0, -1) == [b"r1"]


async def test_the_keys_of_a_room_share_one_slot_on_a_cluster(any_redis: Backend) -> None:
    raw, store = any_redis.raw, any_redis.store
    assert raw is not None
    await playing(store, "r1", moves=2)
    await store.save_snapshot("r1", 1, b"s1")
    assert await store.acquire_lease("r1", "node-a", 10_000)
    keys = [any_redis.key("r1", part) for part in ("meta", "snap", "log", "lease", "fence")]
    assert all([await raw.exists(key) for key in keys])
    if any_redis.kind == "cluster":
        assert isinstance(raw, AsyncRedisCluster)
        assert len({raw.keyslot(key) for key in keys}) == 1
    else:  # a plain Redis keeps the names of earlier versions (a rolling upgrade finds every room)
        assert keys[0] == f"{any_redis.prefix}room:r1:meta" and keys[3] == f"{any_redis.prefix}lease:r1"


async def test_index_entries_of_expired_rooms_are_pruned(any_redis: Backend) -> None:
    raw, p, store = any_redis.raw, any_redis.prefix, any_redis.store
    assert raw is not None
    await store.create_room(meta_for("r1"))
    await raw.delete(any_redis.key("r1", "meta"))  # as if its ttl had run out
    assert await store.list_public() == [] and await store.room_ids() == []
    assert await store.room_ids(unfinished_only=True) == []
    assert await raw.zrange(f"{p}idx:open", 0, -1) == [] and await raw.zrange(f"{p}idx:lobby", 0, -1) == []


# --- opening -----------------------------------------------------------------------------------------


async def test_open_store_picks_the_backend_from_the_url() -> None:
    assert isinstance(open_store("memory"), MemoryStore)
    store = open_store("redis://127.0.0.1:6379/0", prefix="x:")
    assert isinstance(store, RedisStore) and store.prefix == "x:"
    await store.close()
    with pytest.raises(ValueError, match="unknown store url"):
        open_store("postgres://db")


async def test_open_store_knows_sqlite_and_sentinel_urls(tmp_path: Any) -> None:
    from server.store.sqlite import SqliteStore

    store = open_store(f"sqlite://{tmp_path}/x.db")
    assert isinstance(store, SqliteStore)
    await store.close()
    sentinel = open_store("redis+sentinel://127.0.0.1:1,127.0.0.1:2/mymaster/3", wait_replicas=1)
    assert isinstance(sentinel, RedisStore) and sentinel.sentinel is not None and sentinel.wait_replicas == 1
    await sentinel.close()
