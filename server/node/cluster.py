"""Several nodes behind one Redis: room leases, forwarding requests, relaying pushes, failover.

Owns: which node runs a room (the holder of the room's lease, a Redis key with a TTL renewed while the node
lives), the node-to-node messages over Redis pub/sub, and `RemoteConn`, the stand-in a room uses for a
connection that lives on another node.
Must not: know rules or frames. The hub decides what to do with a message; this module only carries it.

Messages (msgpack maps) on `{prefix}node:{id}` (one channel per node) and `{prefix}cluster` (all nodes); on a
Redis Cluster these are sharded channels (SSUBSCRIBE/SPUBLISH: each lives on the shard of its name's slot):
  to the room's node:   {op:"req", room, kind, re, args, conn:{node, id, player, name, account, room?}}
                        (conn.room: the room the socket's address named, `/ws?room=ID`: routing by room)
                        {op:"detach", room, conn:{...}}
  to the client's node: {op:"push", conn, msg}       {op:"close", conn, code, reason}
  to every node:        {op:"lobby"}                 {op:"kick", player, keep}
                        {op:"moved", room}  (a room's lease was handed back: nodes watching it look at once)
                        {op:"moved", room, to}  (handed to node `to`, which holds most of its viewers' sockets:
                        that node takes it at once, the others leave it to that node for HANDOVER_WAIT seconds)
  any of these, bundled: {op:"bundle", items:[packed message, ...]}  (consecutive messages for one channel,
                        published as one; read in order, as if they had come one by one; only to a node
                        that announced, within CAPS_FRESH seconds, that it reads them)
  to every node, 1/s:   {op:"caps", node, bundles:true}  (ignored by nodes that predate it)
A single node on the memory store uses `LocalCluster`, which owns every room and sends nothing.

The sweep: one node at a time (a lock key in Redis) walks the store's indexes a page every `SWEEP_EVERY` seconds,
repairing index entries that a failed index write left (the indexes are written outside the room scripts), moving
the rooms of earlier versions into them, and claiming the unfinished rooms whose node is gone that nobody watches.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

import msgpack

from server.store.base import Store, StoreUnavailable
from server.store.redis import RedisStore

log = logging.getLogger("marcopolo.cluster")


class ClusterHub(Protocol):
    node: str
    rooms: dict[str, Any]

    def leases(self) -> list[tuple[str, str]]: ...

    async def on_cluster(self, payload: dict[str, Any]) -> None: ...

    async def lease_lost(self, room: str, only: Any = None) -> None: ...

    async def check_remote_rooms(self) -> None: ...

    async def adopt(self, rooms: list[str], grace: bool = True) -> int: ...

    def resubscribed(self) -> None: ...


class LocalCluster:
    """One node: it owns every room. Leases are still taken, so every write carries a fencing token."""

    clustered = False
    #: frames for clients published to other nodes (never, here)
    frames_out = 0

    def __init__(self, node: str, store: Store | None = None, *, lease_ms: int = 24 * 3600 * 1000) -> None:
        self.node = node
        self.store = store
        self.lease_ms = lease_ms

    async def start(self, hub: ClusterHub) -> None:
        pass

    async def stop(self) -> None:
        pass

    async def claim(self, room: str) -> str | None:
        if self.store is None:
            return f"{self.node}|0"
        return await self.store.acquire_lease(room, self.node, self.lease_ms)

    async def owner(self, room: str) -> str | None:
        return self.node

    async def owners(self, rooms: list[str]) -> list[str | None]:
        return [self.node for _ in rooms]

    async def release(self, room: str, token: str | None, to: str | None = None) -> None:
        if self.store is not None and token is not None:
            with contextlib.suppress(StoreUnavailable):
                await self.store.release_lease(room, token)

    def send(self, node: str, payload: dict[str, Any]) -> None:
        raise AssertionError("a single node sends nothing")

    def broadcast(self, payload: dict[str, Any]) -> None:
        pass


#: how long a message to another node waits for Redis before it is dropped
PUBLISH_PATIENCE = 5.0
#: most messages to other nodes sent in one pipeline
PUBLISH_BATCH = 500


#: a bundle of messages for one channel holds at most this many bytes of them
BUNDLE_BYTES = 256 * 1024


#: a node that announced it reads bundles less than this many seconds ago is sent them
CAPS_FRESH = 10.0

#: seconds between two pages of the sweep (see the module docstring), and rooms in one page
SWEEP_EVERY = 2.0
SWEEP_PAGE = 200
#: a page is read and repaired this many rooms at a time, the event loop free between two chunks: the rooms' moves
#: wait for one chunk's work at most, not a whole page's (at 500 rooms x 4 seats on Redis, a whole page held moves
#: back for 25-35 ms every sweep: the open loop's p99)
SWEEP_CHUNK = 25
#: pages of an earlier version's set of rooms moved into the indexes in one sweep step
LEGACY_PAGES = 10


def bundled(
    batch: list[tuple[str, bytes, float]], may_bundle: Callable[[str], bool] | None = None
) -> list[tuple[str, bytes]]:
    """The (channel, message) pairs to publish for `batch`: each run of consecutive messages for one channel
    goes as one `bundle` message (at most BUNDLE_BYTES of them), so a node under load publishes, and its
    peer reads and parses, one pub/sub message per run instead of one per frame. The order of the messages
    is kept, across channels too (a run ends where another channel's message comes). A channel for which
    `may_bundle` says no (a node that has not said it reads bundles, e.g. an older version during a rolling
    update) gets its messages one by one."""
    out: list[tuple[str, bytes]] = []
    run: list[bytes] = []
    size = 0
    channel = ""

    def close_run() -> None:
        if len(run) == 1 or (run and may_bundle is not None and not may_bundle(channel)):
            out.extend((channel, data) for data in run)
        elif run:
            out.append((channel, msgpack.packb({"op": "bundle", "items": run}, use_bin_type=True)))

    for ch, data, _queued in batch:
        if run and (ch != channel or size + len(data) > BUNDLE_BYTES):
            close_run()
            run, size = [], 0
        channel = ch
        run.append(data)
        size += len(data)
    close_run()
    return out


@dataclass(slots=True)
class _Subscription:
    """Channels read over one pub/sub connection, and when its last heartbeat came (loop time)."""

    channels: tuple[str, ...]
    pubsub: Any = None
    heard: float = 0.0


class RedisCluster:
    """Leases and pub/sub on the room store's Redis."""

    clustered = True

    def __init__(self, store: RedisStore, node: str, *, lease_ms: int = 2000, check_every: float = 0.25) -> None:
        self.store = store
        self.node = node
        self.lease_ms = lease_ms
        self.check_every = check_every
        self._hub: ClusterHub | None = None
        self._out: asyncio.Queue[tuple[str, bytes, float] | None] = asyncio.Queue()
        self._tasks: list[asyncio.Task[None]] = []
        self._subs: list[_Subscription] = []
        #: node channel -> when its node last announced that it reads bundles (monotonic seconds)
        self._bundles_to: dict[str, float] = {}
        #: frames for clients (pushes and patches of `RemoteConn`) published to other nodes, not yet counted
        self.frames_out = 0
        #: where the sweep goes on: the open index's cursor, the lobby index's offset (None: from the start)
        self._sweep_cursor: str | None = None
        self._sweep_lobby: int | None = 0

    def channel(self, node: str | None) -> str:
        return f"{self.store.prefix}cluster" if node is None else f"{self.store.prefix}node:{node}"

    async def start(self, hub: ClusterHub) -> None:
        self._hub = hub
        self._bundles_to[self.channel(self.node)] = math.inf  # (this node reads them)
        # On a Redis Cluster the two channels live on two shards: a subscription (one connection) for each, read by
        # a task of its own (one reader polling both would hold a message on one while it waits on the other).
        node, everyone = self.channel(self.node), self.channel(None)
        self._subs = [_Subscription((node,)), _Subscription((everyone,))] if self.store.sharded else [
            _Subscription((node, everyone))
        ]
        for sub in self._subs:
            sub.pubsub = await self._subscribe(sub.channels)
        self._tasks = [
            *(asyncio.create_task(self._listen(sub), name="cluster-listen") for sub in self._subs),
            asyncio.create_task(self._publish(), name="cluster-publish"),
            asyncio.create_task(self._renew(), name="cluster-renew"),
            asyncio.create_task(self._watch(), name="cluster-watch"),
            asyncio.create_task(self._beat(), name="cluster-beat"),
            asyncio.create_task(self._sweep(), name="cluster-sweep"),
        ]

    @property
    def _pubsub(self) -> Any:
        """The pub/sub of this node's own channel."""
        return self._subs[0].pubsub if self._subs else None

    async def _subscribe(self, channels: tuple[str, ...]) -> Any:
        """A pub/sub subscribed to `channels` (sharded channels on a Redis Cluster)."""
        pubsub = self.store.client.pubsub()
        try:
            if self.store.sharded:
                await pubsub.ssubscribe(*channels)
            else:
                await pubsub.subscribe(*channels)
        except BaseException:
            with contextlib.suppress(Exception):
                await pubsub.aclose()
            raise
        return pubsub

    async def stop(self) -> None:
        await self._out.put(None)
        publisher = next((t for t in self._tasks if t.get_name() == "cluster-publish"), None)
        if publisher is not None:  # let the last messages (leases handed back) go out first
            with contextlib.suppress(asyncio.TimeoutError, asyncio.CancelledError, Exception):
                await asyncio.wait_for(asyncio.shield(publisher), 1.0)
        for task in self._tasks:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        for sub in self._subs:
            if sub.pubsub is not None:
                with contextlib.suppress(Exception):
                    await sub.pubsub.aclose()

    async def claim(self, room: str) -> str | None:
        """Take the room's lease if it is free (or already ours): its new fencing token, or None."""
        return await self.store.acquire_lease(room, self.node, self.lease_ms)

    async def owner(self, room: str) -> str | None:
        return await self.store.lease_holder(room)

    async def owners(self, rooms: list[str]) -> list[str | None]:
        """`owner` of every room, in one round trip."""
        return await self.store.lease_holders(rooms)

    async def release(self, room: str, token: str | None, to: str | None = None) -> None:
        """Hand the lease back and tell every node, so one that watches the room takes it at once (with `to`: that
        node takes it, the others leave it to that node for a moment)."""
        if token is None:
            return
        with contextlib.suppress(StoreUnavailable):
            await self.store.release_lease(room, token)
        self.broadcast({"op": "moved", "room": room, **({"to": to} if to is not None else {})})

    def send(self, node: str, payload: dict[str, Any]) -> None:
        """Queue a message for one node (sent in order by one publisher task)."""
        self._out.put_nowait((self.channel(node), msgpack.packb(payload, use_bin_type=True), time.monotonic()))

    def broadcast(self, payload: dict[str, Any]) -> None:
        self._out.put_nowait((self.channel(None), msgpack.packb(payload, use_bin_type=True), time.monotonic()))

    async def _publish(self) -> None:
        """Publish queued messages in order, everything queued so far in one pipeline (one round trip):
        under load a message-at-a-time publisher falls behind the loop and heartbeats arrive late."""
        while True:
            item = await self._out.get()
            if item is None:
                return
            batch = [item]
            while len(batch) < PUBLISH_BATCH and not self._out.empty():
                nxt = self._out.get_nowait()
                if nxt is None:
                    await self._publish_batch(batch)
                    return
                batch.append(nxt)
            await self._publish_batch(batch)

    async def _publish_batch(self, batch: list[tuple[str, bytes, float]]) -> None:
        # While Redis is away the batch waits (in order, with everything behind it) until PUBLISH_PATIENCE
        # seconds after its oldest message was queued, then it is dropped: what is lost then is made good
        # when the receiving node subscribes again (it re-joins every room it relays) or by the clients'
        # retries. Past its deadline a batch gets one try, so a long outage drains the queue.
        deadline = batch[0][2] + PUBLISH_PATIENCE
        delay = 0.05
        while True:
            try:
                async with self.store.client.pipeline(transaction=False) as pipe:
                    for channel, data in bundled(batch, self.may_bundle):
                        if self.store.sharded:
                            pipe.spublish(channel, data)
                        else:
                            pipe.publish(channel, data)
                    await pipe.execute()
                return
            except Exception as err:  # noqa: BLE001
                if time.monotonic() + delay > deadline:
                    log.warning("cluster: publishing %d messages failed: %s", len(batch), err)
                    return
                await asyncio.sleep(delay)
                delay = min(delay * 2, 0.5)

    def heard_from(self, node: str, within: float = 3.0) -> bool:
        """Whether `node` announced itself (its `caps`, once a second) in the last `within` seconds."""
        return time.monotonic() - self._bundles_to.get(self.channel(node), -math.inf) < within

    def may_bundle(self, channel: str) -> bool:
        """Whether the node of `channel` said lately that it reads bundles (the all-nodes channel: never)."""
        return time.monotonic() - self._bundles_to.get(channel, -math.inf) < CAPS_FRESH

    async def _beat(self) -> None:
        """Send this node a heartbeat every second (the listener knows its subscription is alive), and tell
        every node that this one reads bundles."""
        while True:
            await asyncio.sleep(1.0)
            self.send(self.node, {"op": "beat"})
            self.broadcast({"op": "caps", "node": self.node, "bundles": True})

    async def _listen(self, sub: _Subscription) -> None:
        """Read one subscription's messages. A subscription that hears none of its heartbeats (this node's `beat`
        on its own channel, its own `caps` on the all-nodes channel) for 4 s subscribes again."""
        assert self._hub is not None and sub.pubsub is not None
        loop = asyncio.get_running_loop()
        delay = 0.1
        sub.heard = loop.time()
        while True:
            try:
                if loop.time() - sub.heard > 4.0:  # our own heartbeats stopped arriving: subscribe again
                    sub.heard = loop.time()
                    raise ConnectionError(f"no heartbeat for 4 s on {', '.join(sub.channels)}")
                if self.store.sharded:
                    msg = await sub.pubsub.get_sharded_message(ignore_subscribe_messages=True, timeout=1.0)
                else:
                    msg = await sub.pubsub.get_message(ignore_subscribe_messages=True, timeout=1.0)
                delay = 0.1
            except asyncio.CancelledError:
                raise
            except Exception as err:  # noqa: BLE001 - Redis went away: subscribe again once it is back
                log.warning("cluster: pub/sub read failed: %s", err)
                await asyncio.sleep(delay)
                delay = min(delay * 2, 2.0)
                await self._resubscribe(sub)
                continue
            if msg is None or msg.get("type") not in ("message", "smessage"):
                continue
            try:
                payload = msgpack.unpackb(msg["data"], raw=False)
                items = payload.get("items") if payload.get("op") == "bundle" else None
                for one in [payload] if items is None else (msgpack.unpackb(b, raw=False) for b in items):
                    try:
                        if one.get("op") == "beat":
                            sub.heard = loop.time()
                            continue
                        if one.get("op") == "caps":  # (a node older than bundles ignores this op)
                            if one.get("node") == self.node:
                                sub.heard = loop.time()
                            if one.get("bundles") is True and isinstance(one.get("node"), str):
                                self._bundles_to[self.channel(one["node"])] = time.monotonic()
                            continue
                        await self._hub.on_cluster(one)
                    except Exception:
                        log.exception("cluster: bad message")
            except Exception:
                log.exception("cluster: bad message")

    async def _resubscribe(self, sub: _Subscription) -> None:
        with contextlib.suppress(Exception):
            await sub.pubsub.aclose()
        try:
            pubsub = await self._subscribe(sub.channels)
        except Exception as err:  # noqa: BLE001
            log.warning("cluster: subscribing again failed: %s", err)
            return
        sub.pubsub = pubsub
        sub.heard = asyncio.get_running_loop().time()  # the heartbeat clock starts again with the subscription
        log.info("cluster: subscribed again to %s", ", ".join(sub.channels))
        if self._hub is not None:  # what other nodes sent meanwhile reached nobody: catch up
            self._hub.resubscribed()

    async def _renew(self) -> None:
        """Renew the leases of our rooms, in one round trip, every third of the lease.

        This loop does nothing else, so a slow takeover or a room busy settling a write never delays it.
        """
        renew_every = self.lease_ms / 3000
        while True:
            await asyncio.sleep(renew_every)
            try:
                await self.renew_once()
            except StoreUnavailable as err:
                log.warning("cluster: lease renewal failed: %s", err)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("cluster: renewal loop")

    async def renew_once(self) -> None:
        """One renewal of every lease the hub holds; a room whose lease another node holds now is dropped here."""
        assert self._hub is not None
        leases = self._hub.leases()
        sent = time.monotonic()
        # a lease that lapsed while nobody took it is simply taken back (its token still holds)
        held = await self.store.keep_leases(leases, self.lease_ms) if leases else []
        for (room, token), ours in zip(leases, held, strict=True):
            current = self._hub.rooms.get(room)
            if ours and current is not None and current.fence == token:
                current.lease_until = max(current.lease_until, sent + self.lease_ms / 1000)
            # still here under that token: not a finished room handed back, nor settled meanwhile
            if not ours and current is not None and current.fence == token:
                log.warning("cluster: another node took the lease of room %s", room)
                asyncio.get_running_loop().create_task(self._hub.lease_lost(room, only=current))

    async def _sweep(self) -> None:
        """The sweep (see the module docstring): a page of each index every `SWEEP_EVERY` seconds, on the one node
        that holds the sweep lock."""
        while True:
            await asyncio.sleep(SWEEP_EVERY)
            try:
                await self.sweep_once()
            except StoreUnavailable as err:
                log.info("cluster: sweep failed: %s", err)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("cluster: sweep loop")

    async def sweep_once(self) -> bool:
        """One step of the sweep, if this node holds the sweep lock (False if not): a page of the open rooms (orphans
        adopted) and a page of the lobby index, each `SWEEP_CHUNK` rooms at a time, on from where the last step
        stopped."""
        assert self._hub is not None
        if not await self.store.take_sweep(self.node, int(SWEEP_EVERY * 5000)):
            return False
        for _ in range(LEGACY_PAGES):
            if not await self.store.adopt_legacy(500):
                break
        for _ in range(0, SWEEP_PAGE, SWEEP_CHUNK):
            rooms, self._sweep_cursor = await self.store.sweep_open(self._sweep_cursor, SWEEP_CHUNK)
            await self._hub.adopt(rooms)
            await asyncio.sleep(0)
            if self._sweep_cursor is None:
                break
        for _ in range(0, SWEEP_PAGE, SWEEP_CHUNK):
            self._sweep_lobby = await self.store.sweep_lobby(self._sweep_lobby or 0, SWEEP_CHUNK)
            await asyncio.sleep(0)
            if self._sweep_lobby is None:
                break
        return True

    async def _watch(self) -> None:
        """Notice rooms our connections watch whose node went away (and take them or follow them); hand rooms to the
        node that holds most of their viewers' sockets (`Hub.follow_sockets`)."""
        assert self._hub is not None
        follow = getattr(self._hub, "follow_sockets", None)
        while True:
            await asyncio.sleep(self.check_every)
            try:
                await self._hub.check_remote_rooms()
                if follow is not None:
                    await follow()
            except StoreUnavailable as err:
                log.info("cluster: checking remote rooms failed: %s", err)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("cluster: watch loop")


class RemoteConn:
    """A connection on another node, as a room on this node sees it: pushes travel over pub/sub."""

    def __init__(self, cluster: RedisCluster | LocalCluster, node: str, cid: str, player: str | None, name: str | None):
        self.cluster = cluster
        self.node = node
        self.id = cid
        self.player = player
        self.name = name
        self.account = False
        #: the room the connection's socket named in its address (`/ws?room=ID`), if any
        self.url_room: str | None = None

    def push(self, msg: dict[str, Any]) -> None:
        self.cluster.frames_out += 1
        self.cluster.send(self.node, {"op": "push", "conn": self.id, "msg": msg})

    def push_bytes(self, data: bytes, t: str = "?") -> None:
        """An encoded frame, relayed as it is (the node holding the socket sends these very bytes)."""
        self.cluster.frames_out += 1
        self.cluster.send(self.node, {"op": "frame", "conn": self.id, "data": data, "t": t})

    def close(self, code: int, reason: str) -> None:
        self.cluster.send(self.node, {"op": "close", "conn": self.id, "code": code, "reason": reason})
