"""Player sessions survive in the store (so a token still works after a restart) and expire."""

from __future__ import annotations

from .conftest import Backend


async def test_a_saved_session_loads_back(backend: Backend) -> None:
    await backend.store.save_session("abc", {"player": "p1", "name": "Ann"}, 60)
    assert await backend.store.load_session("abc") == {"player": "p1", "name": "Ann"}


async def test_an_unknown_session_loads_as_none(backend: Backend) -> None:
    assert await backend.store.load_session("nope") is None


async def test_a_session_expires_after_its_ttl(backend: Backend) -> None:
    await backend.store.save_session("short", {"player": "p2"}, 1)
    await backend.elapse(1.2)
    assert await backend.store.load_session("short") is None


async def test_the_seat_index_lists_a_players_rooms(backend: Backend) -> None:
    store = backend.store
    await store.mark_seat("p1", "r2", True)
    await store.mark_seat("p1", "r1", True)
    await store.mark_seat("p2", "r1", True)
    assert await store.player_rooms("p1") == ["r1", "r2"]
    await store.mark_seat("p1", "r2", False)
    assert await store.player_rooms("p1") == ["r1"]
    assert await store.player_rooms("nobody") == []


async def test_get_meta_reads_only_the_meta(backend: Backend) -> None:
    from .test_store import meta_for

    await backend.store.create_room(meta_for("rm1"))
    meta = await backend.store.get_meta("rm1")
    assert meta is not None and meta["room"] == "rm1"
    assert await backend.store.get_meta("nope") is None


async def test_keep_leases_renews_ours_takes_back_lapsed_ones_and_leaves_others(backend: Backend) -> None:
    store = backend.store
    t1 = await store.acquire_lease("r1", "n1", 60_000)
    assert await store.acquire_lease("r2", "n2", 60_000)
    t3 = await store.acquire_lease("r3", "n1", 50)
    assert t1 and t3
    await backend.elapse(0.1)  # r3's lease lapsed; nobody took it
    assert await store.keep_leases([("r1", t1), ("r2", "n1|1"), ("r3", t3)], 60_000) == [True, False, True]
    assert await store.lease_holder("r1") == "n1"
    assert await store.lease_holder("r2") == "n2"
    assert await store.lease_holder("r3") == "n1"
    # all of them at once (one round trip on Redis), in order, None for a room nobody holds
    assert await store.lease_holders(["r2", "nobody", "r1", "r3"]) == ["n2", None, "n1", "n1"]
    assert await store.lease_holders([]) == []
