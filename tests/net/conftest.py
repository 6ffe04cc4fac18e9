"""Fixtures for tests over real sockets on loopback: an in-process server and connected clients."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import pytest

from clients.client import Client, ServerError
from server.config import Settings
from server.net.app import App
from server.store import MemoryStore, Store, StoreUnavailable


class FlakyStore(MemoryStore):
    """A memory store whose writes can be made to fail, as if Redis went away.

    `down`: writes are refused before anything is stored. `lose_replies`: writes are stored, then fail as a
    timed-out reply would (the outcome is unknown to the caller).
    """

    def __init__(self) -> None:
        super().__init__()
        self.down = False
        self.lose_replies = False

    def _check(self) -> None:
        if self.down:
            raise StoreUnavailable("store switched off by the test")

    def _after(self) -> None:
        if self.lose_replies:
            raise StoreUnavailable("the reply was lost (switched on by the test)")

    async def append(self, room: str, entry: dict[str, Any], meta: dict[str, Any], *, fence: str | None = None) -> None:
        self._check()
        await super().append(room, entry, meta, fence=fence)
        self._after()

    async def save_meta(self, room: str, meta: dict[str, Any], *, fence: str | None = None) -> None:
        self._check()
        await super().save_meta(room, meta, fence=fence)
        self._after()

    async def load(self, room: str) -> Any:
        self._check()
        return await super().load(room)


async def start_app(store: Store | None = None, **settings: Any) -> App:
    base: dict[str, Any] = {"port": 0, "allow_client_seed": True, "rate": 1000.0, "burst": 2000}
    base.update(settings)
    app = App(Settings(**base), store=store)
    await app.start()
    return app


@pytest.fixture
async def app() -> AsyncIterator[App]:
    app = await start_app()
    yield app
    await app.stop()


@pytest.fixture
async def connect(app: App) -> AsyncIterator[Callable[..., Awaitable[Client]]]:
    """`await connect(name)` gives a client that has said hello (closed after the test)."""
    clients: list[Client] = []

    async def make(name: str | None = None, keep_frames: bool = False, token: str | None = None) -> Client:
        c = Client(f"ws://127.0.0.1:{app.port}/ws", keep_frames=keep_frames)
        await c.connect()
        clients.append(c)
        if name is not None:
            await c.hello(name, token)
        return c

    yield make
    for c in clients:
        await c.close()


Played = list[tuple[int, int, dict[str, Any]]]


async def play_to_end(room: str, players: list[Client], rng: random.Random, max_moves: int = 5000) -> Played:
    """Play random legal moves until the result is set; returns (v, seat, move) of every acknowledged move."""
    done: Played = []
    for _ in range(max_moves):
        views = [p.view(room) for p in players]
        if any(v.get("result") for v in views):
            return done
        mover = next((p for p, v in zip(players, views, strict=True) if v.get("prompt")), None)
        if mover is None:
            await _settle(players, room)
            continue
        view = mover.view(room)
        move = rng.choice(view["prompt"]["options"])
        try:
            v = await mover.move(room, move)
        except ServerError as err:
            assert err.code in ("not_your_turn", "illegal_move", "stale"), err  # a stale prompt
            await _settle(players, room)
            continue
        done.append((v, view["you"], move))
    raise AssertionError("the game did not end")


async def _settle(players: list[Client], room: str) -> None:
    """Wait until every client holds the same, newest version of the room."""
    for _ in range(200):
        vs = {p.views[room].v for p in players}
        if len(vs) == 1:
            return
        await asyncio.sleep(0.005)
