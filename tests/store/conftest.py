"""Fixtures that run the store suite against MemoryStore and SqliteStore (both with a fake clock) and a real Redis."""

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

from server.store import MemoryStore, RedisStore, Store
from server.store.sqlite import SqliteStore

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
    raw: aredis.Redis | None = None
    prefix: str = ""

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


@pytest.fixture(params=["memory", "sqlite", pytest.param("redis", marks=needs_redis)])
async def backend(request: pytest.FixtureRequest, tmp_path: object) -> AsyncIterator[Backend]:
    """Each store in turn: memory and sqlite (a temp file) with a fake clock, then Redis under a fresh prefix."""
    if request.param == "memory":
        yield memory_backend()
        return
    if request.param == "sqlite":
        async with sqlite_backend_in(str(tmp_path)) as backend:
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


@pytest.fixture
def store(backend: Backend) -> Store:
    return backend.store
