"""Messages between nodes go in bundles: one pub/sub message per run of messages for one channel."""

from __future__ import annotations

import asyncio
import secrets
from typing import Any

import msgpack
import pytest
import redis.asyncio as aredis

from server.node.cluster import BUNDLE_BYTES, RedisCluster, bundled
from server.store import RedisStore
from tests.net.test_redis import REDIS_URL, _redis_up


def _m(i: int, size: int = 10) -> bytes:
    return msgpack.packb({"op": "frame", "conn": "c:1", "data": b"x" * size, "t": str(i)})


def _read(pairs: list[tuple[str, bytes]]) -> list[tuple[str, str]]:
    """(channel, t) of every message, as a receiving node reads them (bundles opened in order)."""
    out = []
    for channel, data in pairs:
        payload = msgpack.unpackb(data)
        items = [msgpack.unpackb(b) for b in payload["items"]] if payload["op"] == "bundle" else [payload]
        out.extend((channel, item["t"]) for item in items)
    return out


def test_runs_for_one_channel_go_as_one_bundle_and_the_order_is_kept_across_channels() -> None:
    batch = [("n:b", _m(0), 0.0), ("n:b", _m(1), 0.0), ("all", _m(2), 0.0), ("n:b", _m(3), 0.0), ("n:b", _m(4), 0.0)]
    out = bundled(batch)
    assert [ch for ch, _ in out] == ["n:b", "all", "n:b"]  # three runs: three messages
    assert msgpack.unpackb(out[1][1])["op"] == "frame"  # a run of one goes as it is
    assert _read(out) == [(ch, str(i)) for i, (ch, _, _) in enumerate(batch)]


def test_a_node_that_has_not_said_it_reads_bundles_gets_every_message_alone() -> None:
    batch = [("n:old", _m(0), 0.0), ("n:old", _m(1), 0.0), ("n:new", _m(2), 0.0), ("n:new", _m(3), 0.0)]
    out = bundled(batch, lambda channel: channel == "n:new")
    assert [(ch, msgpack.unpackb(data)["op"]) for ch, data in out] == [
        ("n:old", "frame"),
        ("n:old", "frame"),
        ("n:new", "bundle"),
    ]
    assert _read(out) == [(ch, str(i)) for i, (ch, _, _) in enumerate(batch)]


def test_a_bundle_holds_at_most_its_byte_limit() -> None:
    size = BUNDLE_BYTES // 3
    batch = [("n:b", _m(i, size), 0.0) for i in range(7)]
    out = bundled(batch)
    assert len(out) == 4  # 2 + 2 + 2 + 1: a third item would pass the limit
    assert all(len(data) <= BUNDLE_BYTES + 1024 for _, data in out)
    assert _read(out) == [("n:b", str(i)) for i in range(7)]


class _Hub:
    def __init__(self) -> None:
        self.node = "b"
        self.rooms: dict[str, Any] = {}
        self.got: list[dict[str, Any]] = []

    def leases(self) -> list[tuple[str, str]]:
        return []

    async def on_cluster(self, payload: dict[str, Any]) -> None:
        self.got.append(payload)

    async def lease_lost(self, room: str, only: Any = None) -> None: ...

    async def check_remote_rooms(self) -> None: ...

    def resubscribed(self) -> None: ...


@pytest.mark.skipif(not _redis_up(), reason="no Redis answers on 127.0.0.1:6379")
async def test_a_burst_of_messages_to_another_node_arrives_whole_in_order_in_fewer_pubsub_messages() -> None:
    prefix = f"mptest:{secrets.token_hex(6)}:"
    a_store, b_store = RedisStore(REDIS_URL, prefix=prefix), RedisStore(REDIS_URL, prefix=prefix)
    a, b = RedisCluster(a_store, "a"), RedisCluster(b_store, "b")
    hub_a, hub_b = _Hub(), _Hub()
    hub_a.node = "a"
    await a.start(hub_a)  # type: ignore[arg-type]
    await b.start(hub_b)  # type: ignore[arg-type]
    spy = aredis.Redis.from_url(REDIS_URL)
    pubsub = spy.pubsub()
    await pubsub.subscribe(b.channel("b"))
    try:
        assert not a.may_bundle(b.channel("b"))  # b has not said yet that it reads bundles
        for _ in range(400):  # every node says so once a second on the all-nodes channel
            if a.may_bundle(b.channel("b")):
                break
            await asyncio.sleep(0.05)
        assert a.may_bundle(b.channel("b")) and not a.may_bundle(a.channel(None))
        for i in range(300):  # queued in one loop pass, as a room's broadcast does
            a.send("b", {"op": "frame", "conn": "c:1", "data": b"patch", "t": str(i)})
        for _ in range(750):
            if len([p for p in hub_b.got if p.get("op") == "frame"]) >= 300:
                break
            await asyncio.sleep(0.02)
        frames = [p["t"] for p in hub_b.got if p.get("op") == "frame"]
        assert frames == [str(i) for i in range(300)]
        seen = 0
        for _ in range(50):
            msg = await pubsub.get_message(ignore_subscribe_messages=True, timeout=0.05)
            if msg is not None and msg.get("type") == "message":
                seen += 1
        assert 1 <= seen < 300 // 10  # bundled: a few pub/sub messages, not one per frame
    finally:
        await pubsub.aclose()
        await spy.aclose()
        await a.stop()
        await b.stop()
        for store in (a_store, b_store):
            await store.close()
