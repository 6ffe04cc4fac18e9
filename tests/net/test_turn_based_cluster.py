"""Turn-based rooms on two nodes sharing one Redis: `my_games` asked on either node lists the same rooms, whichever
node runs them, with whose turn it is."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from clients.client import Client
from server.config import Settings
from server.net.app import App
from server.store import RedisStore

from .test_cluster import prefix  # noqa: F401 - the fixture
from .test_redis import REDIS_URL, _redis_up

pytestmark = pytest.mark.skipif(not _redis_up(), reason="no Redis answers on 127.0.0.1:6379")


@pytest.fixture
async def nodes(prefix: str) -> AsyncIterator[tuple[App, App]]:  # noqa: F811
    apps = []
    for name in ("node-a", "node-b"):
        settings = Settings(port=0, node_id=name, rate=1000.0, burst=2000, lease_ms=1000, store=REDIS_URL,
                            records="memory", allow_client_seed=True)  # fmt: skip
        app = App(settings, store=RedisStore(REDIS_URL, prefix=prefix))
        await app.start()
        apps.append(app)
    yield apps[0], apps[1]
    for app in apps:
        await app.stop()


async def _conn(app: App, name: str, token: str | None = None) -> Client:
    c = Client(f"ws://127.0.0.1:{app.port}/ws")
    await c.connect()
    await c.hello(name, token)
    return c


async def test_my_games_lists_the_same_rooms_from_either_node(nodes: tuple[App, App]) -> None:
    a, b = nodes
    ann_a = await _conn(a, "Ann")
    bob_b = await _conn(b, "Bob")
    rooms = []
    for host, game in ((ann_a, "expedition"), (bob_b, "classic")):  # one room run by each node
        room = await host.create_room(game, 2, options={"seed": 3}, mode="turn_based", turn_seconds=86400 * 7)
        await ann_a.join(room)
        await bob_b.join(room)
        for c in (ann_a, bob_b):
            await c.wait_for(room, lambda s: s["status"] == "playing")
        rooms.append(room)
    assert {r in a.hub.rooms for r in rooms} == {True, False}  # one run by each node
    from_a = (await ann_a.request("my_games"))["rooms"]
    ann_b = await _conn(b, "Ann", ann_a.token)  # Ann again, on the other node (the first connection is replaced)
    from_b = (await ann_b.request("my_games"))["rooms"]
    assert sorted(r["room"] for r in from_a) == sorted(rooms) == sorted(r["room"] for r in from_b)
    assert [(r["room"], r["your_turn"], r["seat"]) for r in from_a] == [
        (r["room"], r["your_turn"], r["seat"]) for r in from_b
    ]
    for r in from_b:  # nobody moved since Ann's first connection last saw each room
        view = ann_a.view(r["room"])
        assert r["seat"] == view["you"] != bob_b.view(r["room"])["you"] and r["mode"] == "turn_based"
        assert r["your_turn"] is bool(view.get("prompt") and view["prompt"]["options"])
    for c in (ann_a, ann_b, bob_b):
        await c.close()
