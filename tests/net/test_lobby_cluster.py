"""Public-lobby requests across two nodes on one Redis: quick match finds a room of the other node, room chat
and host controls are forwarded to the node running the room, lobby chat reaches every node's watchers."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from clients.client import Client, ServerError
from server.net.app import App

from .test_cluster import _client, _node, prefix  # noqa: F401 - the fixture is used by name
from .test_redis import _redis_up

pytestmark = pytest.mark.skipif(not _redis_up(), reason="no Redis answers on 127.0.0.1:6379")


@pytest.fixture
async def nodes(prefix: str) -> AsyncIterator[list[App]]:  # noqa: F811
    apps = [await _node(prefix, "node-a"), await _node(prefix, "node-b")]
    yield apps
    for app in apps:
        await app.stop()


async def test_quick_match_chat_and_host_controls_work_across_nodes(nodes: list[App]) -> None:
    a, b = nodes
    clients: list[Client] = []
    try:
        ann = await _client(a, "ann")
        bob = await _client(b, "bob")
        watcher = await _client(b, "watcher")
        clients += [ann, bob, watcher]
        room, _ = await ann.quick_match("expedition", 3, fill_bots_after=3600)
        assert room in a.hub.rooms
        room_b, seat_b = await bob.quick_match("expedition", 3)
        assert room_b == room and seat_b == 1  # found on the other node through the store
        await watcher.join(room, spectate=True)
        await bob.chat("hello from node b", room=room)
        for c in (ann, bob, watcher):
            await c.wait_chat(lambda x: x["text"] == "hello from node b")
        # the host (ann) comes back on node b; her host control is forwarded to node a
        ann_b = await _client(b, "ann", ann.token)
        clients.append(ann_b)
        await ann_b.join(room)
        with pytest.raises(ServerError) as err:
            await bob.host(room, "add_bot")
        assert err.value.code == "forbidden"
        await ann_b.host(room, "add_bot")
        await watcher.wait_for(room, lambda s: s["status"] == "playing")
        # lobby chat from node b reaches a lobby watcher on node a
        lounger = await _client(a, "lounger")
        clients.append(lounger)
        await lounger.request("watch_lobby")
        await bob.chat("anyone for khan?")
        line = await lounger.wait_chat(lambda x: x["room"] is None)
        assert line["text"] == "anyone for khan?" and line["from"] == bob.player
    finally:
        for c in clients:
            await c.close()
