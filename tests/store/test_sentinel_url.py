"""Redis Sentinel urls and the WAIT option, without Sentinels (the real failover is in tests/faults)."""

from __future__ import annotations

import time

import pytest

from server.store import RedisStore, SentinelUrl, StoreUnavailable, parse_sentinel_url

from .conftest import REDIS_URL, Backend
from .test_store import meta_for, move, playing


def test_a_sentinel_url_names_the_sentinels_the_service_and_the_db() -> None:
    assert parse_sentinel_url("redis+sentinel://10.0.0.1:26379,sentinel-2:26380/mymaster") == SentinelUrl(
        [("10.0.0.1", 26379), ("sentinel-2", 26380)], "mymaster", 0
    )
    assert parse_sentinel_url("redis+sentinel://:s%40cret@h:1/svc/2") == SentinelUrl(
        [("h", 1)], "svc", 2, None, "s@cret"
    )


@pytest.mark.parametrize(
    "url",
    ["redis+sentinel://h:1", "redis+sentinel://h/svc", "redis+sentinel://h:1/svc/x", "redis://h:1/svc"],
)
def test_a_sentinel_url_without_ports_or_service_is_refused(url: str) -> None:
    with pytest.raises(ValueError):
        parse_sentinel_url(url)


async def test_sentinels_that_do_not_answer_raise_store_unavailable_fast() -> None:
    async with RedisStore("redis+sentinel://127.0.0.1:1,127.0.0.1:2/mymaster", prefix="mptest:dead:") as store:
        started = time.monotonic()
        with pytest.raises(StoreUnavailable):
            await store.create_room(meta_for("r1"))
        with pytest.raises(StoreUnavailable):
            await store.ping()
        assert time.monotonic() - started < 5


def test_wait_replicas_must_be_a_count() -> None:
    with pytest.raises(ValueError):
        RedisStore(REDIS_URL, wait_replicas=-1)


async def test_a_write_no_replica_confirmed_is_reported_unavailable_though_the_primary_has_it(
    redis_backend: Backend,
) -> None:
    # the test Redis has no replica: WAIT 1 times out with 0, so nothing may be acknowledged
    meta = await playing(redis_backend.store, "r1", moves=1)
    async with RedisStore(REDIS_URL, prefix=redis_backend.prefix, wait_replicas=1, wait_timeout_ms=50) as store:
        with pytest.raises(StoreUnavailable, match="replicas"):
            await store.append("r1", move(2), {**meta, "v": 2})
        with pytest.raises(StoreUnavailable, match="replicas"):
            await store.save_session("k", {"player": "p"}, 60)
        with pytest.raises(StoreUnavailable, match="replicas"):
            await store.mark_seat("p", "r1", True)
        assert await store.log_entry("r1", 2) == (2, move(2))  # the outcome was unknown, not a failure
    async with RedisStore(REDIS_URL, prefix=redis_backend.prefix, wait_replicas=0) as plain:
        await plain.append("r1", move(3), {**meta, "v": 3})
