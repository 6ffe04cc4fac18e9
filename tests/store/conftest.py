"""Fixtures that run the store suite against MemoryStore and SqliteStore (both with a fake clock), a real Redis and a
real Redis Cluster (three primaries with a replica each, started once for the session on free loopback ports)."""

from __future__ import annotations

import asyncio
import os
import secrets
import socket
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from urllib.parse import urlsplit

import pytest
import redis.asyncio as aredis
from redis.asyncio.cluster import RedisCluster as AsyncRedisCluster

from server.store import MemoryStore, RedisStore, Store
from server.store.sqlite import SqliteStore
from tests.faults.cluster_procs import LocalRedisCluster

# MP_TEST_REDIS_URL points the suite at another Redis (keys stay under a random mptest:<hex>: prefix).
REDIS_URL = os.environ.get("MP_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")


def redis_answers() -> bool:
    """True if REDIS_URL answers PING (checked with a raw socket so no event loop is needed)."""
    url = urlsplit(REDIS_URL)
    try:
        with socket.create_connection((url.hostname or "127.0.0.1", url.port or 6379), timeout=0.5) as sock:
            sock.sendall(b"PING\r\n")
            return sock.recv(16).startswith(b"+PONG")
    except OSError:
        return False


REDIS_UP = redis_answers()


class FakeClock:
    """A monotonic clock that moves only when told."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@dataclass
class Backend:
    """The store under test plus what a test needs to make time pass or look at raw keys."""

    kind: str
    store: Store
    clock: FakeClock | None = None
    raw: aredis.Redis | AsyncRedisCluster | None = None
    prefix: str = ""

    def key(self, room: str, part: str) -> str:
        """The raw name of a room's key (`part`: meta, snap, log, lease, fence) in this store's layout."""
        tag = f"{{{room}}}" if self.kind == "cluster" else room
        return f"{self.prefix}room:{tag}:{part}" if part in ("meta", "snap", "log") else f"{self.prefix}{part}:{tag}"

    async def elapse(self, seconds: float) -> None:
        """Let `seconds` pass: instantly on the fake clock, for real against Redis."""
        if self.clock is not None:
            self.clock.now += seconds
        else:
            await asyncio.sleep(seconds)


@asynccontextmanager
async def redis_backend_on(prefix: str) -> AsyncIterator[Backend]:
    """A RedisStore under `prefix`; every key under the prefix is deleted afterwards."""
    store = RedisStore(REDIS_URL, prefix=prefix)
    raw = aredis.Redis.from_url(REDIS_URL)
    try:
        yield Backend("redis", store, raw=raw, prefix=prefix)
    finally:
        keys = [key async for key in raw.scan_iter(match=f"{prefix}*")]
        if keys:
            await raw.delete(*keys)
        await store.close()
        await raw.aclose()


@asynccontextmanager
async def cluster_backend_on(url: str, prefix: str) -> AsyncIterator[Backend]:
    """A RedisStore on a Redis Cluster under `prefix`; every key under the prefix is deleted afterwards."""
    store = RedisStore(url, prefix=prefix)
    raw = AsyncRedisCluster.from_url(url.replace("redis+cluster://", "redis://").split(",")[0])
    try:
        yield Backend("cluster", store, raw=raw, prefix=prefix)
    finally:
        async for key in raw.scan_iter(match=f"{prefix}*"):
            await raw.delete(key)
        await store.close()
        await raw.aclose()


def memory_backend() -> Backend:
    clock = FakeClock()
    return Backend("memory", MemoryStore(clock=clock), clock=clock)


@asynccontextmanager
async def sqlite_backend_in(folder: str) -> AsyncIterator[Backend]:
    """A SqliteStore on a new file in `folder` (the folder is created by the store), with a fake clock."""
    clock = FakeClock()
    # as a server opens it: the file's one writer (locked; its fence rows cached)
    store = SqliteStore(os.path.join(folder, "db", "store.db"), clock=clock, takeover=True)
    try:
        yield Backend("sqlite", store, clock=clock)
    finally:
        await store.close()


needs_redis = pytest.mark.skipif(not REDIS_UP, reason=f"no Redis answers PING at {REDIS_URL}")


@pytest.fixture(params=["memory", "sqlite", pytest.param("redis", marks=needs_redis), "cluster"])
async def backend(request: pytest.FixtureRequest, tmp_path: object) -> AsyncIterator[Backend]:
    """Each store in turn: memory and sqlite (a temp file) with a fake clock, then Redis and a Redis Cluster under
    a fresh prefix."""
    if request.param == "memory":
        yield memory_backend()
        return
    if request.param == "sqlite":
        async with sqlite_backend_in(str(tmp_path)) as backend:
            yield backend
        return
    if request.param == "cluster":
        cluster: LocalRedisCluster = request.getfixturevalue("redis_cluster")
        async with cluster_backend_on(cluster.url, f"mptest:{secrets.token_hex(6)}:") as backend:
            yield backend
        return
    async with redis_backend_on(f"mptest:{secrets.token_hex(6)}:") as backend:
        yield backend


@pytest.fixture
async def redis_backend() -> AsyncIterator[Backend]:
    """Redis only, under a fresh random prefix; skipped when no Redis answers."""
    if not REDIS_UP:
        pytest.skip(f"no Redis answers PING at {REDIS_URL}")
    async with redis_backend_on(f"mptest:{secrets.token_hex(6)}:") as backend:
        yield backend


@pytest.fixture(params=[pytest.param("redis", marks=needs_redis), "cluster"])
async def any_redis(request: pytest.FixtureRequest) -> AsyncIterator[Backend]:
    """A plain Redis, then a Redis Cluster, each under a fresh random prefix."""
    if request.param == "cluster":
        cluster: LocalRedisCluster = request.getfixturevalue("redis_cluster")
        async with cluster_backend_on(cluster.url, f"mptest:{secrets.token_hex(6)}:") as backend:
            yield backend
        return
    async with redis_backend_on(f"mptest:{secrets.token_hex(6)}:") as backend:
        yield backend


@pytest.fixture
def store(backend: Backend) -> Store:
    return backend.store
