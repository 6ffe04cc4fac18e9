"""Several nodes on one Redis: any node serves any room, and a dead node's rooms move on."""

from __future__ import annotations

import asyncio
import contextlib
import random
import secrets
from collections.abc import AsyncIterator

import msgpack
import pytest
import redis.asyncio as aredis

from clients.client import Client, ServerError
from server.config import Settings
from server.games import get_game
from server.net.app import App
from server.store import RedisStore

from .conftest import play_to_end
from .test_redis import REDIS_URL, _redis_up

pytestmark = pytest.mark.skipif(not _redis_up(), reason="no Redis answers on 127.0.0.1:6379")
GAME = get_game("expedition")


@pytest.fixture
async def prefix() -> AsyncIterator[str]:
    p = f"mptest:{secrets.token_hex(6)}:"
    yield p
    raw = aredis.Redis.from_url(REDIS_URL)
    keys = [k async for k in raw.scan_iter(match=f"{p}*")]
    if keys:
        await raw.delete(*keys)
    await raw.aclose()


async def _node(prefix: str, node: str) -> App:
    settings = Settings(
        port=0, node_id=node, allow_client_seed=True, rate=1000.0, burst=2000, lease_ms=1000, store=REDIS_URL
    )
    app = App(settings, store=RedisStore(REDIS_URL, prefix=prefix))
    await app.start()
    return app


async def _client(app: App, name: str, token: str | None = None) -> Client:
    c = Client(f"ws://127.0.0.1:{app.port}/ws")
    await c.connect()
    await c.hello(name, token)
    return c


async def _two_playing(a: App, b: App, seed: int) -> tuple[Client, Client, str]:
    """ann on node a and bob on node b in a 2-seat Expedition room created on node a, the game started."""
    ann, bob = await _client(a, "ann"), await _client(b, "bob")
    room = await ann.create("expedition", 2, {"seed": seed})
    await ann.join(room)
    await bob.join(room)
    await ann.wait_for(room, lambda s: s["status"] == "playing")
    return ann, bob, room


async def _crash(app: App) -> None:
    """Stop a node the hard way: sockets gone, leases no longer renewed, nothing handed back."""
    for task in app.hub.cluster._tasks:  # type: ignore[union-attr]
        task.cancel()
    assert app.server is not None
    app.server.close()
    await app.server.wait_closed()


async def test_players_on_two_nodes_play_one_room_to_the_end(prefix: str) -> None:
    a, b = await _node(prefix, "node-a"), await _node(prefix, "node-b")
    clients: list[Client] = []
    try:
        ann, bob, watcher = await _client(a, "ann"), await _client(b, "bob"), await _client(b, "watcher")
        clients = [ann, bob, watcher]
        lobby = await watcher.request("watch_lobby")
        assert lobby["rooms"] == []
        room = await ann.create("expedition", 2, {"seed": 12})
        for _ in range(100):  # the lobby push crosses nodes
            if any(r["room"] == room for r in watcher.lobby):
                break
            await asyncio.sleep(0.02)
        assert any(r["room"] == room for r in watcher.lobby)
        assert room in a.hub.rooms and room not in b.hub.rooms
        assert await ann.join(room) == 0
        assert await bob.join(room) == 1  # forwarded from node b to node a
        await watcher.join(room, spectate=True)
        await play_to_end(room, [ann, bob], random.Random(12))
        for c in clients:
            await c.wait_for(room, lambda s: s["result"] is not None)
            snap = await c.sync(room)
            assert snap["state"] == c.view(room)
        assert bob.view(room)["private"]["hand"] != ann.view(room)["private"]["hand"]
        assert watcher.view(room)["private"] is None
    finally:
        for c in clients:
            await c.close()
        await b.stop()
        await a.stop()


async def test_a_dead_nodes_room_moves_to_another_node_with_no_acknowledged_move_lost(prefix: str) -> None:
    a, b = await _node(prefix, "node-a"), await _node(prefix, "node-b")
    clients: list[Client] = []
    try:
        ann, bob = await _client(b, "ann"), await _client(b, "bob")
        host = await _client(a, "host")
        clients = [ann, bob, host]
        room = await host.create("expedition", 2, {"seed": 21})
        assert room in a.hub.rooms
        await ann.join(room)
        await bob.join(room)
        await ann.wait_for(room, lambda s: s["status"] == "playing")
        rng = random.Random(21)
        acked: list[tuple[int, int, dict]] = []
        while len(acked) < 25:
            mover = next((p for p in (ann, bob) if p.view(room)["prompt"]), None)
            if mover is None:
                await asyncio.sleep(0.005)
                continue
            view = mover.view(room)
            move = rng.choice(view["prompt"]["options"])
            acked.append((await mover.move(room, move), view["you"], move))
        await _crash(a)
        # node b notices the lease lapse, loads the room from Redis and re-attaches its viewers
        for _ in range(300):
            if room in b.hub.rooms:
                break
            await asyncio.sleep(0.02)
        assert room in b.hub.rooms
        await ann.wait_for(room, lambda s: True)
        state = GAME.setup(2, {}, 21)
        for _v, seat, move in acked:
            state = GAME.apply(state, seat, move)
        for seat, p in enumerate((ann, bob)):
            snap = await p.sync(room)
            assert snap["v"] >= acked[-1][0]
            assert snap["state"]["public"] == GAME.view(state, seat)["public"]
            assert snap["state"]["private"] == GAME.view(state, seat)["private"]
        await play_to_end(room, [ann, bob], rng)
        assert ann.view(room)["result"] is not None
    finally:
        for c in clients:
            await c.close()
        await b.stop()
        with contextlib.suppress(Exception):
            await a.hub.close()
            await a.store.close()


async def test_a_re_join_that_pub_sub_dropped_is_sent_again_so_the_viewer_keeps_getting_patches(prefix: str) -> None:
    # Pub/sub drops what a node publishes while the receiving node is re-subscribing (after a Redis
    # restart). A viewer whose room moved to another node is re-joined there by its own node with no
    # request of its own; if that one message is lost, the viewer must not be left without patches.
    a, b = await _node(prefix, "node-a"), await _node(prefix, "node-b")
    clients: list[Client] = []
    try:
        ann, bob, room = await _two_playing(a, b, 31)
        clients = [ann, bob]
        assert room in a.hub.rooms
        dropped: list[dict] = []
        send = a.hub.cluster.send

        def lossy(node: str, payload: dict) -> None:
            if payload.get("op") == "req" and payload.get("kind") == "join" and not dropped:
                dropped.append(payload)  # lost on the way, as pub/sub loses it
                return
            send(node, payload)

        a.hub.cluster.send = lossy  # type: ignore[method-assign]
        # the room moves to node b: a's lease is handed back, b takes the room, a notices
        await a.store.release_lease(room, a.hub.rooms[room].fence)
        await b.hub.room_for(room)
        assert room in b.hub.rooms
        await a.hub.lease_lost(room)
        await a.hub.check_remote_rooms()
        assert dropped, "node a re-joined ann through node b"
        # bob moves on node b; ann, on node a, must see it
        moved = b.hub.rooms[room]
        v = None
        for _ in range(800):  # the seat to move, once its view is current (presence may still change it)
            mover = next((p for p in (ann, bob) if p.view(room)["prompt"] and p.views[room].v == moved.v), None)
            if mover is not None:
                try:
                    v = await mover.move(room, mover.view(room)["prompt"]["options"][0])
                    break
                except ServerError as err:
                    assert err.code == "stale", err
            await asyncio.sleep(0.01)
        assert v is not None and mover is not None, f"no current view with a prompt at v={moved.v}"
        other = ann if mover is bob else bob
        for _ in range(800):  # 8 s: a lost re-join is sent again within 1.5 s + one check
            if other.views[room].v >= v:
                break
            await asyncio.sleep(0.01)
        assert other.views[room].v >= v, f"{'ann' if other is ann else 'bob'} never saw v={v}"
    finally:
        for c in clients:
            await c.close()
        await b.stop()
        await a.stop()


async def test_a_viewer_whose_node_lost_its_subscription_gets_the_current_view_once_it_subscribes_again(
    prefix: str,
) -> None:
    # Patches relayed to a node while its pub/sub subscription is down (Redis restarting) are gone for
    # good; once the node subscribes again, its viewers of rooms on other nodes must be brought up to date,
    # or a player whose turn came in a lost patch waits forever.
    a, b = await _node(prefix, "node-a"), await _node(prefix, "node-b")
    clients: list[Client] = []
    try:
        ann, bob, room = await _two_playing(a, b, 33)
        clients = [ann, bob]
        owner = a.hub.rooms[room]
        for _ in range(500):  # presence settles: both views current
            if ann.views[room].v == bob.views[room].v == owner.v:
                break
            await asyncio.sleep(0.01)
        send = a.hub.cluster.send
        lost: list[dict] = []

        def lossy(node: str, payload: dict) -> None:
            if node == "node-b" and payload.get("op") in ("frame", "push"):
                lost.append(payload)  # node b is not subscribed: pub/sub delivers it to nobody
                return
            send(node, payload)

        a.hub.cluster.send = lossy  # type: ignore[method-assign]
        moves = 0
        rng = random.Random(33)
        while moves < 3 and owner.state is not None and GAME.result(owner.state) is None:
            seat = GAME.active_seats(owner.state)[0]
            if seat == 1:  # bob's turn: played through the room directly, as bob's lost patches hid it
                prompt = owner.prompt_for(owner.state, 1)
                assert prompt is not None
                await owner.submit("bot", None, None, seat=1, v=owner.v, at=owner.v, move=rng.choice(prompt["options"]))
            else:
                await ann.move(room, rng.choice(ann.view(room)["prompt"]["options"]))
            moves += 1
        assert lost and bob.views[room].v < owner.v
        a.hub.cluster.send = send  # type: ignore[method-assign]
        pubsub = b.hub.cluster._pubsub  # type: ignore[union-attr]
        assert pubsub is not None and pubsub.connection is not None
        await pubsub.connection.disconnect()  # node b's subscription breaks; it subscribes again by itself
        for _ in range(800):
            if bob.views[room].v == owner.v:
                break
            await asyncio.sleep(0.01)
        assert bob.views[room].v == owner.v, f"bob is at v={bob.views[room].v}, the room at v={owner.v}"
        snap = await bob.sync(room)
        assert snap["state"] == bob.view(room)
    finally:
        for c in clients:
            await c.close()
        await b.stop()
        await a.stop()


async def test_messages_to_other_nodes_go_out_in_order_many_per_round_trip(prefix: str) -> None:
    # Under load every await of the event loop is slow: a publisher that sends one message per round trip
    # falls behind (heartbeats then arrive late and the node re-subscribes again and again).
    a = await _node(prefix, "node-a")
    raw = aredis.Redis.from_url(REDIS_URL)
    sub = raw.pubsub()
    try:
        cluster = a.hub.cluster
        await sub.subscribe(cluster.channel("node-x"))  # type: ignore[union-attr]
        client = a.store.client  # type: ignore[attr-defined]
        trips: list[str] = []
        publish, pipeline = client.publish, client.pipeline
        client.publish = lambda *args, **kw: (trips.append("publish"), publish(*args, **kw))[1]
        client.pipeline = lambda *args, **kw: (trips.append("pipeline"), pipeline(*args, **kw))[1]
        for i in range(300):
            cluster.send("node-x", {"op": "test", "i": i})  # type: ignore[union-attr]
        got: list[int] = []
        for _ in range(500):
            msg = await sub.get_message(ignore_subscribe_messages=True, timeout=0.05)
            if msg is not None and msg["type"] == "message":
                payload = msgpack.unpackb(msg["data"])  # a bundle is read as its messages, in order
                items = [msgpack.unpackb(b) for b in payload["items"]] if payload["op"] == "bundle" else [payload]
                got.extend(item["i"] for item in items)
            if len(got) >= 300:
                break
        assert got == list(range(300))
        assert len(trips) <= 3, f"{len(trips)} round trips for 300 messages"
    finally:
        await sub.aclose()
        await raw.aclose()
        await a.stop()


async def test_a_request_right_after_a_lost_re_join_is_not_answered_forbidden(prefix: str) -> None:
    # The re-join a node sends by itself after a room moved may be lost; a request of that connection
    # made before the re-join is sent again must not find the room's new node without it ("join first").
    a, b = await _node(prefix, "node-a"), await _node(prefix, "node-b")
    clients: list[Client] = []
    try:
        ann, bob, room = await _two_playing(a, b, 35)
        clients = [ann, bob]
        dropped: list[dict] = []
        send = a.hub.cluster.send

        def lossy(node: str, payload: dict) -> None:
            if payload.get("op") == "req" and payload.get("kind") == "join" and not dropped:
                dropped.append(payload)
                return
            send(node, payload)

        a.hub.cluster.send = lossy  # type: ignore[method-assign]
        await a.store.release_lease(room, a.hub.rooms[room].fence)
        await b.hub.room_for(room)
        await a.hub.lease_lost(room)
        await a.hub.check_remote_rooms()
        assert dropped
        snap = await ann.sync(room)  # at once: well inside the 1.5 s before the re-join is sent again
        assert snap["state"]["you"] == 0
    finally:
        for c in clients:
            await c.close()
        await b.stop()
        await a.stop()


async def test_an_owner_that_stopped_renewing_never_answers_with_a_view_older_than_the_new_owners(
    prefix: str,
) -> None:
    # An owner paused past its lease (SIGSTOP, a long stall) wakes up still holding the room object. Its
    # writes are fenced, but it must not answer a sync with the view of a version the new owner moved past.
    a, b = await _node(prefix, "node-a"), await _node(prefix, "node-b")
    clients: list[Client] = []
    try:
        ann, bob, room = await _two_playing(a, b, 37)
        clients = [ann, bob]
        old = a.hub.rooms[room]
        for task in a.hub.cluster._tasks:  # type: ignore[union-attr]
            if task.get_name() in ("cluster-renew", "cluster-watch"):
                task.cancel()  # node a no longer renews nor looks: as if it were paused
        await asyncio.sleep(1.5)  # the 1 s lease lapses
        new = await b.hub.room_for(room)
        assert room in b.hub.rooms and new is b.hub.rooms[room]
        seat = GAME.active_seats(new.state)[0]
        prompt = new.prompt_for(new.state, seat)
        assert prompt is not None
        await new.submit("bot", None, None, seat=seat, v=new.v, at=new.v, move=prompt["options"][0])
        assert new.v > old.v
        try:
            snap = await ann.sync(room)
        except ServerError as err:
            assert err.code == "unavailable"  # retryable: the next try finds the new owner
        else:
            assert snap["v"] >= new.v, f"node a answered v={snap['v']}; the room is at v={new.v}"
    finally:
        for c in clients:
            await c.close()
        await b.stop()
        with contextlib.suppress(Exception, asyncio.CancelledError):
            await a.stop()


async def test_a_node_of_an_older_version_gets_no_bundles_and_its_players_play_to_the_end(prefix: str) -> None:
    # During a rolling update a node that predates bundles runs beside new ones: it never says it reads
    # them, so every message to it must go alone (it would ignore a bundle, and its players lose frames).
    new, old = await _node(prefix, "node-new"), await _node(prefix, "node-old")
    old_cluster = old.hub.cluster
    broadcast = old_cluster.broadcast
    old_cluster.broadcast = lambda payload: None if payload.get("op") == "caps" else broadcast(payload)  # type: ignore[method-assign]
    raw = aredis.Redis.from_url(REDIS_URL)
    spy = raw.pubsub()
    await spy.subscribe(old_cluster.channel("node-old"))  # type: ignore[union-attr]
    clients: list[Client] = []
    try:
        await asyncio.sleep(1.5)  # the new node has announced itself at least once
        assert new.hub.cluster.may_bundle(new.hub.cluster.channel("node-old")) is False  # type: ignore[union-attr]
        assert old_cluster.may_bundle(old_cluster.channel("node-new"))  # type: ignore[union-attr]
        ann, bob, watcher = await _client(new, "ann"), await _client(old, "bob"), await _client(old, "watcher")
        clients = [ann, bob, watcher]
        room = await ann.create("expedition", 2, {"seed": 31})
        assert room in new.hub.rooms
        await ann.join(room)
        await bob.join(room)
        await watcher.join(room, spectate=True)
        await play_to_end(room, [ann, bob], random.Random(31))
        for c in clients:
            await c.wait_for(room, lambda s: s["result"] is not None)
            assert (await c.sync(room))["state"] == c.view(room)
        ops: list[str] = []
        quiet = 0
        for _ in range(5000):  # (a None is also what the subscription's confirmation reads as)
            msg = await spy.get_message(ignore_subscribe_messages=True, timeout=0.05)
            quiet = quiet + 1 if msg is None else 0
            if quiet >= 5:
                break
            if msg is not None and msg["type"] == "message":
                ops.append(msgpack.unpackb(msg["data"])["op"])
        assert ops.count("frame") >= 20 and "bundle" not in ops
    finally:
        await spy.aclose()
        await raw.aclose()
        for c in clients:
            await c.close()
        await old.stop()
        await new.stop()


async def test_a_node_that_stops_hands_its_leases_back_without_reading_them_as_taken(
    prefix: str, caplog: pytest.LogCaptureFixture
) -> None:
    """A renewal that runs while a stopping node hands its rooms back must not read a lease the node itself just
    released as taken by another node (a false warning at every graceful stop, and a needless lease_lost)."""
    a = await _node(prefix, "node-a")
    clients: list[Client] = []
    lost: list[str] = []
    stopped = False
    try:
        ann = await _client(a, "ann")
        clients = [ann]
        rooms = [await ann.create("expedition", 2, {"seed": 30 + i}) for i in range(3)]
        for room in rooms:
            await ann.join(room)
        assert all(r in a.hub.rooms for r in rooms)
        cluster = a.hub.cluster
        release, lease_lost = cluster.release, a.hub.lease_lost

        async def release_then_renew(room: str, token: str | None, to: str | None = None) -> None:
            await release(room, token, to)
            await cluster.renew_once()  # the renewal loop's turn comes right after a lease went back

        async def note_lost(room: str, only: object = None) -> None:
            lost.append(room)
            await lease_lost(room, only)  # type: ignore[arg-type]

        cluster.release = release_then_renew  # type: ignore[method-assign]
        a.hub.lease_lost = note_lost  # type: ignore[method-assign]
        with caplog.at_level("WARNING", logger="marcopolo.cluster"):
            await a.stop()
            stopped = True
            await asyncio.sleep(0.05)  # a lease_lost task would run now
        assert not [r for r in caplog.records if "another node took the lease" in r.getMessage()]
        assert lost == []
        store = RedisStore(REDIS_URL, prefix=prefix)
        try:  # every lease went back: another node may take each room at once
            assert await store.lease_holders(rooms) == [None] * len(rooms)
        finally:
            await store.close()
    finally:
        for c in clients:
            await c.close()
        if not stopped:
            await a.stop()
