"""SQLite specifics: one file that keeps everything across a reopen, WAL mode, failures as StoreUnavailable."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import threading
from pathlib import Path

import pytest

from server.store import LoadedRoom, StoreFenced, StoreUnavailable, open_store
from server.store.sqlite import DEFAULT_PATH, SqliteStore, path_of

from .conftest import FakeClock
from .test_store import meta_for, move, playing


def db_file(tmp_path: Path) -> Path:
    return tmp_path / "data" / "marcopolo.db"


async def test_the_file_and_its_folder_are_created_in_wal_mode_with_full_sync(tmp_path: Path) -> None:
    async with SqliteStore(db_file(tmp_path)) as store:
        await store.ping()
        assert db_file(tmp_path).is_file()
        assert await store.pragma("journal_mode") == "wal"
        assert await store.pragma("synchronous") == 2  # FULL: the WAL is fsynced at every commit


async def test_normal_sync_can_be_asked_for_and_anything_else_is_refused(tmp_path: Path) -> None:
    async with SqliteStore(db_file(tmp_path), synchronous="normal") as store:
        assert await store.pragma("synchronous") == 1
    with pytest.raises(ValueError):
        SqliteStore(db_file(tmp_path), synchronous="OFF")


async def test_reopening_the_file_keeps_every_room_log_snapshot_session_seat_and_fence(tmp_path: Path) -> None:
    clock = FakeClock()
    async with SqliteStore(db_file(tmp_path), clock=clock) as store:
        meta = await playing(store, "r1", moves=3)
        await store.save_snapshot("r1", 2, b"s2")
        done = await playing(store, "r2", moves=1)
        await store.finish("r2", done, ttl_seconds=60)
        await store.create_room(meta_for("r3", public=True))
        await store.save_session("k1", {"player": "p1", "name": "Ann"}, 3600)
        await store.mark_seat("p1", "r1", True)
        old = await store.acquire_lease("r1", "node-a", 10_000)
        token = await store.acquire_lease("r1", "node-a", 10_000)
    assert old and token
    async with SqliteStore(db_file(tmp_path), clock=clock) as reopened:
        assert await reopened.room_ids() == ["r1", "r2", "r3"]
        assert await reopened.room_ids(unfinished_only=True) == ["r1", "r3"]
        assert await reopened.load("r1") == LoadedRoom(meta=meta, snap_v=2, snapshot=b"s2", log=[move(3)])
        finished = await reopened.get_meta("r2")
        assert finished is not None and finished["status"] == "finished"
        assert [m["room"] for m in await reopened.list_public()] == ["r1", "r3"]
        assert await reopened.load_session("k1") == {"player": "p1", "name": "Ann"}
        assert await reopened.player_rooms("p1") == ["r1"]
        assert await reopened.lease_holder("r1") == "node-a"
        with pytest.raises(StoreFenced):
            await reopened.append("r1", move(4), {**meta, "v": 4}, fence=old)
        await reopened.append("r1", move(4), {**meta, "v": 4}, fence=token)
        assert await reopened.log_entry("r1", 4) == (4, move(4))
        clock.now += 60  # the finished room's ttl runs out whether or not the process was restarted
        assert await reopened.room_ids() == ["r1", "r3"]


async def test_a_store_opened_to_take_over_fences_every_earlier_token_and_frees_every_lease(tmp_path: Path) -> None:
    async with SqliteStore(db_file(tmp_path)) as store:
        meta = await playing(store, "r1", moves=1)
        held = await store.acquire_lease("r1", "node-a", 86_400_000)
        lapsed = await store.acquire_lease("r2", "node-a", 1)
    assert held and lapsed
    async with SqliteStore(db_file(tmp_path), takeover=True) as store:
        assert await store.lease_holder("r1") is None
        with pytest.raises(StoreFenced):
            await store.append("r1", move(2), {**meta, "v": 2}, fence=held)
        assert await store.keep_leases([("r1", held), ("r2", lapsed)], 1000) == [False, False]
        token = await store.acquire_lease("r1", "node-b", 1000)  # another node id takes the room at once
        assert token is not None and token.startswith("node-b|")
        await store.append("r1", move(2), {**meta, "v": 2}, fence=token)


async def test_a_finished_room_disappears_after_its_ttl(tmp_path: Path) -> None:
    clock = FakeClock()
    async with SqliteStore(db_file(tmp_path), clock=clock) as store:
        meta = await playing(store, "r1", moves=2)
        await store.save_snapshot("r1", 1, b"s1")
        await store.finish("r1", meta, ttl_seconds=60)
        clock.now += 59
        assert await store.load("r1") is not None
        clock.now += 1
        assert await store.load("r1") is None
        assert await store.room_ids() == []
        await store.create_room(meta_for("r1"))
        loaded = await store.load("r1")
        assert loaded is not None and loaded.log == [] and loaded.snapshot is None


async def test_a_store_that_keeps_its_log_returns_every_entry(tmp_path: Path) -> None:
    async with SqliteStore(db_file(tmp_path), trim_log=False) as store:
        await playing(store, "r1", moves=4)
        await store.save_snapshot("r1", 2, b"s2")
        loaded = await store.load("r1")
        assert loaded is not None and loaded.log == [move(3), move(4)]
        assert await store.full_log("r1") == [move(v) for v in range(1, 5)]


async def test_another_process_can_read_the_file_while_the_store_writes(tmp_path: Path) -> None:
    async with SqliteStore(db_file(tmp_path)) as store:
        await playing(store, "r1", moves=2)
        with sqlite3.connect(db_file(tmp_path)) as reader:
            assert reader.execute("SELECT v FROM log WHERE room = 'r1' ORDER BY v").fetchall() == [(1,), (2,)]
            await store.append("r1", move(3), meta_for("r1", status="playing", v=3))
            assert reader.execute("SELECT count(*) FROM log").fetchone() == (3,)


async def test_the_work_runs_on_one_thread_that_is_not_the_event_loops(tmp_path: Path) -> None:
    seen: set[int] = set()
    async with SqliteStore(db_file(tmp_path)) as store:
        original = store._now

        def spy() -> float:
            seen.add(threading.get_ident())
            return original()

        store._now = spy  # type: ignore[method-assign]
        metas = [await playing(store, f"r{i}") for i in range(20)]
        await asyncio.gather(*(store.append(f"r{i}", move(1), {**metas[i], "v": 1}) for i in range(20)))
    assert len(seen) == 1 and threading.get_ident() not in seen


async def test_many_concurrent_writes_each_get_their_own_answer(tmp_path: Path) -> None:
    async with SqliteStore(db_file(tmp_path)) as store:
        metas = [await playing(store, f"r{i}") for i in range(50)]
        await store.append("r0", move(1), {**metas[0], "v": 1})
        results = await asyncio.gather(
            *(store.append(f"r{i}", move(1), {**metas[i], "v": 1}) for i in range(50)), return_exceptions=True
        )
        assert isinstance(results[0], ValueError)
        assert results[1:] == [None] * 49


async def test_a_file_that_cannot_be_opened_raises_store_unavailable(tmp_path: Path) -> None:
    (tmp_path / "taken").mkdir()
    async with SqliteStore(tmp_path / "taken") as store:  # a folder where the file should be
        with pytest.raises(StoreUnavailable):
            await store.ping()
        with pytest.raises(StoreUnavailable):
            await store.create_room(meta_for("r1"))


async def test_a_closed_store_refuses_work_and_closing_twice_is_harmless(tmp_path: Path) -> None:
    store = SqliteStore(db_file(tmp_path))
    await store.create_room(meta_for("r1"))
    await store.close()
    await store.close()
    with pytest.raises(StoreUnavailable):
        await store.load("r1")


def test_sqlite_urls_name_a_file_relative_or_absolute_or_the_default() -> None:
    assert path_of("sqlite:///abs/dir/x.db") == path_of("sqlite:////abs/dir/x.db") == "/abs/dir/x.db"
    assert path_of("sqlite:///./data/marcopolo.db") == "./data/marcopolo.db"
    assert path_of("sqlite:rel/x.db") == "rel/x.db"
    assert path_of("sqlite:") == path_of("sqlite://") == path_of("sqlite") == DEFAULT_PATH


async def test_open_store_opens_a_sqlite_file(tmp_path: Path) -> None:
    store = open_store(f"sqlite://{tmp_path}/a/b.db", trim_log=False)
    assert isinstance(store, SqliteStore) and store.trim_log is False
    await store.create_room(meta_for("r1"))
    await store.close()
    assert os.path.isfile(tmp_path / "a" / "b.db")


async def test_a_server_on_a_sqlite_file_runs_alone_as_the_files_writer(tmp_path: Path) -> None:
    from server.config import Settings
    from server.net.app import App
    from server.node.cluster import LocalCluster

    app = App(Settings(store=f"sqlite://{db_file(tmp_path)}", node_id="n1"))
    try:
        assert isinstance(app.store, SqliteStore) and app.store.takeover
        assert isinstance(app.hub.cluster, LocalCluster) and not app.hub.cluster.clustered
    finally:
        await app.store.close()


class HeldWorker:
    """Keeps the store's worker thread busy until released, so that writes queue up behind it."""

    def __init__(self, store: SqliteStore) -> None:
        self.release = threading.Event()
        self.done = store._pool.submit(self.release.wait, 10)

    def __enter__(self) -> HeldWorker:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release.set()


async def test_writes_queued_while_the_worker_is_busy_share_one_commit_and_all_are_durable(tmp_path: Path) -> None:
    async with SqliteStore(db_file(tmp_path)) as store:
        metas = [await playing(store, f"r{i}") for i in range(100)]
        before = store.groups
        with HeldWorker(store):
            writes = [asyncio.ensure_future(store.append(f"r{i}", move(1), {**metas[i], "v": 1})) for i in range(100)]
            await asyncio.sleep(0.05)
            assert not any(w.done() for w in writes)  # nothing is answered before its commit
        await asyncio.gather(*writes)
        assert store.groups - before == 1  # one transaction (one fsync) for a hundred moves
    async with SqliteStore(db_file(tmp_path)) as reopened:
        for i in range(100):
            assert await reopened.log_entry(f"r{i}", 1) == (1, move(1))


async def test_a_database_failure_in_a_group_answers_every_write_of_it_unavailable_and_stores_none(
    tmp_path: Path,
) -> None:
    async with SqliteStore(db_file(tmp_path)) as store:
        metas = [await playing(store, f"r{i}") for i in range(3)]

        def broken(db: sqlite3.Connection) -> None:
            raise sqlite3.OperationalError("disk I/O error")

        with HeldWorker(store):
            group = asyncio.gather(
                store.append("r0", move(1), {**metas[0], "v": 1}),
                store._call(broken, write=True),
                store.append("r2", move(1), {**metas[2], "v": 1}),
                return_exceptions=True,
            )
            await asyncio.sleep(0.05)
        results = await group
        assert all(isinstance(r, StoreUnavailable) for r in results), results
        assert await store.log_entry("r0", 1) == (0, None) and await store.log_entry("r2", 1) == (0, None)
        await store.append("r0", move(1), {**metas[0], "v": 1})  # the next group commits as usual
        assert await store.log_entry("r0", 1) == (1, move(1))


async def test_a_refused_write_in_a_group_is_rolled_back_alone(tmp_path: Path) -> None:
    async with SqliteStore(db_file(tmp_path)) as store:
        metas = [await playing(store, f"r{i}") for i in range(3)]
        token = await store.acquire_lease("r1", "node-a", 10_000)
        assert token is not None
        with HeldWorker(store):
            group = asyncio.gather(
                store.append("r0", move(1), {**metas[0], "v": 1}),
                store.append("r1", move(1), {**metas[1], "v": 1}, fence="node-b|9"),  # not the lease's token
                store.append("r2", move(1), {**metas[2], "v": 1}),
                store.append("r2", {**move(1), "again": True}, {**metas[2], "v": 1}),  # v=1 again: stale
                store.save_session("k", {"player": "p"}, 60),
                return_exceptions=True,
            )
            await asyncio.sleep(0.05)
        first, fenced, second, stale, session = await group
        assert first is None and second is None and session is None
        assert isinstance(fenced, StoreFenced) and isinstance(stale, ValueError)
        assert await store.log_entry("r0", 1) == (1, move(1)) and await store.log_entry("r2", 1) == (1, move(1))
        assert await store.log_entry("r1", 1) == (0, None)
        assert await store.load_session("k") == {"player": "p"}
