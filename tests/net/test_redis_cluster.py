"""Several nodes on a Redis Cluster (`--store redis+cluster://...`): six `redis-server` of this run's own (three
primaries, a replica each). Every game is played to the end by players on two nodes; quick match, the lobby, a
crashed node's rooms and a restarted node's start-up work as on one Redis. The primary's failover mid-game is
`tests/faults/test_redis_cluster_failover.py`."""

from __future__ import annotations

import asyncio
import random
import secrets
from collections.abc import AsyncIterator
from typing import Any

import pytest
from redis.asyncio.cluster import RedisCluster as AsyncRedisCluster

from clients.client import Client
from server.config import Settings
from server.games import all_games, get_game
from server.net.app import App
from server.rooms.replay import restore
from server.store import RedisStore

from .conftest import play_to_end


async def _node(url: str, prefix: str, node: str) -> App:
    settings = Settings(
        port=0, node_id=node, allow_client_seed=True, rate=1000.0, burst=2000, lease_ms=1000, store=url
    )
    app = App(settings, store=RedisStore(url, prefix=prefix, trim_log=False))
    await app.start()
    return app


async def _client(app: App, name: str, token: str | None = None) -> Client:
    c = Client(f"ws://127.0.0.1:{app.port}/ws")
    await c.connect()
    await c.hello(name, token)
    return c


class Nodes:
    def __init__(self, url: str) -> None:
        self.url = url
        self.prefix = f"mpc:{secrets.token_hex(5)}:"
        self.apps: list[App] = []
        self.clients: list[Client] = []

    async def start(self, name: str) -> App:
        app = await _node(self.url, self.prefix, name)
        self.apps.append(app)
        return app

    async def client(self, app: App, name: str, token: str | None = None) -> Client:
        c = await _client(app, name, token)
        self.clients.append(c)
        return c


@pytest.fixture
async def cluster_nodes(redis_cluster: Any) -> AsyncIterator[Nodes]:
    nodes = Nodes(redis_cluster.url)
    yield nodes
    for c in nodes.clients:
        await c.close()
    for app in nodes.apps:
        await app.stop()
    raw = AsyncRedisCluster.from_url(redis_cluster.url.replace("redis+cluster://", "redis://").split(",")[0])
    async for key in raw.scan_iter(match=f"{nodes.prefix}*"):
        await raw.delete(key)
    await raw.aclose()


async def _until(check: Any, timeout: float = 10.0) -> None:
    loop = asyncio.get_running_loop()
    stop = loop.time() + timeout
    while not await check():
        assert loop.time() < stop, "timed out"
        await asyncio.sleep(0.05)


@pytest.mark.parametrize("game", sorted(all_games()))
async def test_players_on_two_nodes_play_a_game_to_the_end_on_a_redis_cluster(cluster_nodes: Nodes, game: str) -> None:
    a, b = await cluster_nodes.start("node-a"), await cluster_nodes.start("node-b")
    ann, bob = await cluster_nodes.client(a, "ann"), await cluster_nodes.client(b, "bob")
    watcher = await cluster_nodes.client(b, "watcher")
    await watcher.request("watch_lobby")
    room = await ann.create(game, 2, {"seed": 7})
    await ann.join(room)
    await bob.join(room)
    await watcher.join(room, spectate=True)
    await ann.wait_for(room, lambda s: s["status"] == "playing")

    async def listed() -> bool:
        return any(r["room"] == room and r["status"] == "playing" for r in watcher.lobby)

    await _until(listed)  # node b's lobby push shows node a's room (the lobby index, a sharded broadcast)
    played = await play_to_end(room, [ann, bob], random.Random(game))
    await watcher.wait_for(room, lambda s: s.get("result") is not None)
    assert ann.view(room)["result"] == bob.view(room)["result"] == watcher.view(room)["result"]
    store = a.store
    assert isinstance(store, RedisStore) and store.sharded
    log = await store.full_log(room)
    assert [(e["v"], e["seat"], e["move"]) for e in log if e["k"] == "move"] == played
    loaded = await store.load(room)
    assert loaded is not None and loaded.meta["status"] == "finished"
    meta, state, _ = restore(loaded.meta, 0, None, log)
    assert state is not None and get_game(game).result(state) is not None

    async def unlisted() -> bool:
        return all(r["room"] != room for r in watcher.lobby)

    await _until(unlisted)


async def test_quick_match_pairs_players_of_two_nodes_on_a_redis_cluster(cluster_nodes: Nodes) -> None:
    a, b = await cluster_nodes.start("node-a"), await cluster_nodes.start("node-b")
    ann, bob = await cluster_nodes.client(a, "ann"), await cluster_nodes.client(b, "bob")
    room_a, seat_a = await ann.quick_match("expedition", 2)
    room_b, seat_b = await bob.quick_match("expedition", 2)
    assert room_a == room_b and {seat_a, seat_b} == {0, 1}
    await bob.wait_for(room_b, lambda s: s["status"] == "playing")
    cid = await cluster_nodes.client(b, "cid")
    room_c, _ = await cid.quick_match("expedition", 2)
    assert room_c != room_a  # the first one is full: a new one


async def test_a_crashed_nodes_room_moves_to_the_node_of_its_players(cluster_nodes: Nodes) -> None:
    a, b = await cluster_nodes.start("node-a"), await cluster_nodes.start("node-b")
    ann, bob = await cluster_nodes.client(a, "ann"), await cluster_nodes.client(b, "bob")
    room = await bob.create("expedition", 2, {"seed": 3})  # runs on node b
    await bob.join(room)
    await ann.join(room)
    await ann.wait_for(room, lambda s: s["status"] == "playing")
    for task in b.hub.cluster._tasks:  # type: ignore[union-attr]  # node b dies: its lease is no longer renewed
        task.cancel()
    assert b.server is not None
    b.server.close()
    await b.server.wait_closed()
    await _until(lambda: asyncio.sleep(0, room in a.hub.rooms))  # node a took the room its player watches
    assert bob.token is not None
    bob = await cluster_nodes.client(a, "bob", bob.token)  # bob's connection died with node b: he comes back on a
    await bob.join(room)
    v = ann.views[room].v
    for _ in range(6):  # the game goes on, on node a
        await ann.wait_for(room, lambda s, v=v: ann.views[room].v >= v)
        await bob.wait_for(room, lambda s, v=v: bob.views[room].v >= v)
        mover = next((c for c in (ann, bob) if c.view(room).get("prompt")), None)
        if mover is None:
            break
        v = await mover.move(room, mover.view(room)["prompt"]["options"][0])
    assert v > 0


async def test_a_node_starting_claims_the_unfinished_rooms_no_node_runs(cluster_nodes: Nodes) -> None:
    a = await cluster_nodes.start("node-a")
    ann = await cluster_nodes.client(a, "ann")
    rooms = [await ann.create("expedition", 2, {"seed": i}) for i in range(5)]
    for room in rooms[:3]:
        await ann.join(room)
    await a.hub.close()  # node a stops: every lease handed back (its store stays open for the cleanup)
    b = await cluster_nodes.start("node-b")  # ready once it read the index; it loads the rooms it found meanwhile

    async def loaded() -> bool:
        return set(rooms) <= set(b.hub.rooms)

    await _until(loaded)
