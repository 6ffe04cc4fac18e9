"""A request forwarded to the node that runs its room always gets exactly one answer, even when the relay
between the nodes loses it (two in-process nodes on the real Redis at 6379, under a key prefix of their own).

The relay is cut at each step: the forwarded request is lost on its way, or its answer is lost, or its answer
comes back after the deadline (`--relay-timeout`). The forwarding node then answers the request itself:
`unavailable` for a read (`sync`, `game_log`), a `join`, a `leave` and a room `chat`; for a `move`, whose outcome
it cannot know, it closes the connection (1012), as a node does for a move whose store write stayed unknown, so
the client reconnects and syncs. A late answer is dropped: the client never hears twice about one request.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from collections.abc import AsyncIterator, Callable
from typing import Any

import msgpack
import pytest
import redis.asyncio as aredis

from clients.client import Client, ServerError
from server.config import Settings
from server.net.app import App
from server.store import RedisStore

from .test_redis import REDIS_URL, _redis_up

pytestmark = pytest.mark.skipif(not _redis_up(), reason="no Redis answers on 127.0.0.1:6379")

DEADLINE = 0.6


@pytest.fixture
async def prefix() -> AsyncIterator[str]:
    p = f"mptest:relay:{secrets.token_hex(5)}:"
    yield p
    raw = aredis.Redis.from_url(REDIS_URL)
    keys = [k async for k in raw.scan_iter(match=f"{p}*")]
    if keys:
        await raw.delete(*keys)
    await raw.aclose()


async def _node(prefix: str, node: str) -> App:
    settings = Settings(
        port=0, node_id=node, allow_client_seed=True, rate=1000.0, burst=2000, store=REDIS_URL,
        relay_timeout=DEADLINE,
    )  # fmt: skip
    app = App(settings, store=RedisStore(REDIS_URL, prefix=prefix))
    await app.start()
    return app


async def _client(app: App, name: str) -> Client:
    c = Client(f"ws://127.0.0.1:{app.port}/ws", keep_frames=True)
    await c.connect()
    await c.hello(name)
    return c


class Cut:
    """Wraps a node's cluster `send`: messages the filter picks are dropped, or held and sent later."""

    def __init__(self, app: App) -> None:
        self.cluster: Any = app.hub.cluster
        self.real = self.cluster.send
        self.pick: Callable[[str, dict[str, Any]], bool] | None = None
        self.hold = False
        self.held: list[tuple[str, dict[str, Any]]] = []
        self.cluster.send = self.send

    def send(self, node: str, payload: dict[str, Any]) -> None:
        if self.pick is not None and self.pick(node, payload):
            if self.hold:
                self.held.append((node, payload))
            return
        self.real(node, payload)

    def release(self) -> None:
        held, self.held = self.held, []
        for node, payload in held:
            self.real(node, payload)


REQUESTS: dict[str, dict[str, Any]] = {
    "sync": {},
    "game_log": {},
    "chat": {"text": "hello"},
    "leave": {},
}


@pytest.mark.parametrize("where", ["request lost", "answer lost", "answer late"])
async def test_every_forwarded_request_is_answered_once_whatever_the_relay_loses(prefix: str, where: str) -> None:
    a, b = await _node(prefix, "node-a"), await _node(prefix, "node-b")
    clients: list[Client] = []
    try:
        ann = await _client(a, "ann")
        room = await ann.create("expedition", 2, {"seed": 3})
        await ann.join(room)
        bob, eve = await _client(b, "bob"), await _client(b, "eve")
        clients = [ann, bob, eve]
        assert room in a.hub.rooms and room not in b.hub.rooms
        await bob.join(room)  # forwarded to node a, the relay whole
        if where == "request lost":
            cut = Cut(b)
            cut.pick = lambda _node, p: p.get("op") == "req"
        else:
            cut = Cut(a)
            cut.pick = lambda _node, p: p.get("op") in ("push", "frame") and _node == "node-b"
            cut.hold = where == "answer late"
        loop = asyncio.get_running_loop()
        asks: list[tuple[Client, str, dict[str, Any]]] = [(bob, kind, args) for kind, args in REQUESTS.items()]
        asks.insert(0, (eve, "join", {"spectate": True}))
        for who, kind, args in asks:
            assert who.frames is not None
            before = len(who.frames)
            started = loop.time()
            with pytest.raises(ServerError) as err:
                await who.request(kind, timeout=5, room=room, **args)
            took = loop.time() - started
            assert err.value.code == "unavailable", (kind, err.value)
            assert DEADLINE * 0.9 <= took < DEADLINE + 1.5, (kind, took)
            cut.release()  # a late answer arrives now: it must be dropped
            await asyncio.sleep(0.3)
            answers = [m for m in (msgpack.unpackb(f) for f in who.frames[before:]) if m.get("re") is not None]
            assert len(answers) == 1, (kind, answers)
        # a move whose answer never came: its outcome is unknown, so the connection is closed (1012)
        started = loop.time()
        with contextlib.suppress(ServerError, ConnectionError, TimeoutError):
            await bob.request("move", timeout=5, room=room, move={"pass": True}, v=0)
        await asyncio.wait_for(bob.closed.wait(), DEADLINE + 2)
        assert loop.time() - started < DEADLINE + 2
        cut.release()
        # the relay whole again: a new connection of bob's plays on
        cut.pick = None
        again = await _client(b, "bob2")
        clients.append(again)
        with contextlib.suppress(ServerError):  # answered (a snapshot, or forbidden: bob2 holds no seat)
            await again.request("sync", timeout=5, room=room)
    finally:
        for c in clients:
            with contextlib.suppress(Exception):
                await c.close()
        await b.stop()
        await a.stop()
