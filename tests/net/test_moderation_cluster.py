"""Moderation on two nodes sharing one Redis (live state, shared limits) and one PostgreSQL (records): a ban made on
one node closes the banned party's connection on the other at once; a chat line deleted on one node disappears
for the room's viewers on the other; the chat limit per address holds across both nodes together."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from typing import Any

import pytest

from clients.client import Client, ServerError
from server.config import Settings
from server.net.app import App
from server.store import RedisStore

from .test_accounts import PASSWORD
from .test_cluster import prefix  # noqa: F401 - the fixture
from .test_redis import REDIS_URL, _redis_up

pytestmark = pytest.mark.skipif(not _redis_up(), reason="no Redis answers on 127.0.0.1:6379")


@pytest.fixture
async def nodes(prefix: str, pg_url: str) -> AsyncIterator[tuple[App, App]]:  # noqa: F811
    apps = []
    for name in ("node-a", "node-b"):
        settings = Settings(
            port=0, node_id=name, rate=1000.0, burst=2000, lease_ms=1000, store=REDIS_URL, records=pg_url,
            password_memory_kib=1024, password_time_cost=1, chat_lines=5, chat_lines_per_addr=12,
        )  # fmt: skip
        app = App(settings, store=RedisStore(REDIS_URL, prefix=prefix))
        await app.start()
        apps.append(app)
    yield apps[0], apps[1]
    for app in apps:
        await app.stop()


async def _conn(app: App, name: str) -> Client:
    c = Client(f"ws://127.0.0.1:{app.port}/ws")
    await c.connect()
    await c.hello(name)
    return c


async def _code(coro: Any) -> str:
    try:
        await coro
    except ServerError as err:
        return err.code
    return "ok"


async def test_a_ban_on_one_node_closes_the_connection_on_the_other(nodes: tuple[App, App]) -> None:
    a, b = nodes
    cheat = Client(f"ws://127.0.0.1:{b.port}/ws")
    await cheat.connect()
    await cheat.sign_up("Cheat", PASSWORD)
    bystander = await _conn(b, "Bystander")
    t0 = time.monotonic()
    await a.hub.moderation.ban("player", str(cheat.player), "cheating", None, "admin")
    await asyncio.wait_for(cheat.closed.wait(), 5)
    assert cheat.close_code == 4003 and time.monotonic() - t0 < 2.0
    assert not bystander.closed.is_set()
    again = Client(f"ws://127.0.0.1:{b.port}/ws")
    await again.connect()
    assert await _code(again.sign_in("Cheat", PASSWORD)) == "banned"
    for c in (bystander, again):
        await c.close()


async def test_a_line_deleted_on_one_node_disappears_for_viewers_on_the_other(nodes: tuple[App, App]) -> None:
    a, b = nodes
    ann = await _conn(a, "Ann")
    bob = await _conn(b, "Bob")
    room = await ann.create("expedition", 2)
    await ann.join(room)
    await bob.join(room)  # on node b, relayed to the room's node a
    await ann.chat("delete me", room=room)
    line = await bob.wait_chat(lambda x: x["text"] == "delete me")
    await b.hub.moderation.delete_chat(room, line["line"])  # the moderator is on node b; the room runs on a
    stop = time.monotonic() + 5
    got: list[dict[str, Any]] = []
    while time.monotonic() < stop and not got:
        got = [p for p in ann.pushes if p.get("t") == "chat_deleted"]
        await asyncio.sleep(0.02)
    assert got == [{"t": "chat_deleted", "room": room, "line": line["line"]}]
    assert [p for p in bob.pushes if p.get("t") == "chat_deleted"] == got  # once each
    # lobby chat too: watchers on both nodes are told
    await bob.chat("lobby line")
    await ann.request("watch_lobby")
    kept = [x for x in await ann.chat_log(None) if x["text"] == "lobby line"]
    await a.hub.moderation.delete_chat(None, kept[0]["line"])
    stop = time.monotonic() + 5
    while time.monotonic() < stop and not [p for p in ann.pushes if p.get("t") == "chat_deleted" and p["room"] is None]:
        await asyncio.sleep(0.02)
    assert [p["line"] for p in ann.pushes if p.get("t") == "chat_deleted" and p["room"] is None] == [kept[0]["line"]]
    assert await bob.chat_log(None) == []
    for c in (ann, bob):
        await c.close()


async def test_the_chat_limit_per_address_holds_across_nodes(nodes: tuple[App, App]) -> None:
    a, b = nodes
    flood = [await _conn(a if i % 2 else b, f"Flood {i}") for i in range(10)]
    codes = await asyncio.gather(*(_code(c.chat(f"line {i} {j}")) for i, c in enumerate(flood) for j in range(4)))
    assert codes.count("ok") == 12 and codes.count("rate_limited") == 28, codes
    for c in flood:
        await c.close()
