"""A RedisStore whose Redis does not answer fails fast with StoreUnavailable."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import pytest

from server.store import RedisStore, StoreUnavailable

META = {"room": "r1", "game": "expedition", "status": "waiting", "public": True}

OPERATIONS: dict[str, Callable[[RedisStore], Awaitable[Any]]] = {
    "create_room": lambda s: s.create_room(META),
    "save_meta": lambda s: s.save_meta("r1", META),
    "append": lambda s: s.append("r1", {"v": 1}, META),
    "save_snapshot": lambda s: s.save_snapshot("r1", 1, b"s"),
    "load": lambda s: s.load("r1"),
    "room_ids": lambda s: s.room_ids(),
    "list_public": lambda s: s.list_public(),
    "finish": lambda s: s.finish("r1", META, 60),
    "delete_room": lambda s: s.delete_room("r1"),
    "ping": lambda s: s.ping(),
    "acquire_lease": lambda s: s.acquire_lease("r1", "n", 1000),
    "renew_lease": lambda s: s.renew_lease("r1", "n", 1000),
    "release_lease": lambda s: s.release_lease("r1", "n"),
    "lease_holder": lambda s: s.lease_holder("r1"),
}


@pytest.fixture
async def dead_store() -> AsyncIterator[RedisStore]:
    store = RedisStore("redis://127.0.0.1:1/0", prefix="mptest:dead:")
    yield store
    await store.close()


@pytest.mark.parametrize("operation", sorted(OPERATIONS))
async def test_every_operation_on_an_unreachable_redis_raises_store_unavailable(
    dead_store: RedisStore, operation: str
) -> None:
    started = time.monotonic()
    with pytest.raises(StoreUnavailable):
        await OPERATIONS[operation](dead_store)
    assert time.monotonic() - started < 2.5


async def test_caller_mistakes_are_reported_before_the_backend_is_asked(dead_store: RedisStore) -> None:
    with pytest.raises(ValueError):
        await dead_store.append("r1", {"v": 0}, META)
    with pytest.raises(ValueError):
        await dead_store.create_room({**META, "status": "lost"})


async def test_closing_a_store_twice_is_harmless(dead_store: RedisStore) -> None:
    await dead_store.close()
    await dead_store.close()
