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
