"""The bench's raw baseline speaks the wire contract: played by the stock client (which checks every patch
against its version and applies it to a copy), its patched views equal fresh snapshots, and its Redis mode
stores one log entry per acknowledged move."""

from __future__ import annotations

import asyncio
import copy
import secrets
from collections.abc import AsyncIterator
from typing import Any

import msgpack
import pytest

from clients.client import Client, ServerError
from loadtests.baseline import GOAL, Baseline

REDIS = "redis://127.0.0.1:6379/0"


@pytest.fixture
async def baseline() -> AsyncIterator[Baseline]:
    server = Baseline()
    await server.start("127.0.0.1", 0)
    try:
        yield server
    finally:
        await server.stop()


async def _seated(url: str, seats: int) -> tuple[list[Client], str]:
    clients = [Client(url, keep_frames=True) for _ in range(seats)]
    for i, c in enumerate(clients):
        await c.connect()
        await c.hello(f"p{i}")
    room = await clients[0].create("expedition", seats)
    for c in clients:
        await c.join(room)
    for c in clients:  # every seat holds the start
        await c.wait_for(room, lambda s: s["public"]["status"] == "playing")
    return clients, room


async def _play(clients: list[Client], room: str, moves: int) -> int:
    """Play up to `moves` moves from the prompts; returns how many were acknowledged."""
    done = 0
    while done < moves:
        views = [c.view(room) for c in clients]
        if views[0]["result"] is not None:
            break
        movers = [c for c, v in zip(clients, views, strict=True) if v["prompt"] and v["prompt"]["options"]]
        assert len(movers) == 1, "one seat to move at a time"
        mover = movers[0]
        v = await mover.move(room, mover.view(room)["prompt"]["options"][done % 3])
        # the mover's own patch came before its `ok`: its view is already at the new version
        assert mover.views[room].v == v
        done += 1
        for c in clients:
            await c.wait_for(room, lambda s, c=c, v=v: c.views[room].v >= v)
    return done


async def test_patched_views_equal_fresh_snapshots(baseline: Baseline) -> None:
    url = f"ws://127.0.0.1:{baseline.port}/ws"
    clients, room = await _seated(url, 3)
    try:
        start_v = clients[0].views[room].v
        assert start_v == 4  # three joins and the start, one version each
        view = clients[1].view(room)
        assert set(view) >= {"game", "you", "public", "private", "prompt", "result"}
        assert view["you"] == 1 and view["private"] is not None and view["prompt"] is None
        assert clients[0].view(room)["prompt"]["options"] == [{"step": 1}, {"step": 2}, {"step": 3}]
        played = 0
        for _ in range(200):
            n = await _play(clients, room, 7)
            played += n
            for seat, c in enumerate(clients):
                held = copy.deepcopy(c.view(room))
                v = c.views[room].v
                snap = await c.sync(room)
                assert snap["v"] == v == start_v + played
                assert snap["state"] == held
                # hidden information: a seat's private part is its own
                assert held["you"] == seat
            if clients[0].view(room)["result"] is not None:
                break
        result = clients[0].view(room)["result"]
        assert result is not None and max(result["scores"]) >= GOAL
        assert all(c.view(room)["result"] == result for c in clients)
        assert all(c.view(room)["prompt"] is None for c in clients)
        # hidden information: the only `mark` (a seat's secret) a connection ever receives is its own
        for c in clients:
            own = c.view(room)["private"]["mark"]
            marks: list[Any] = []

            def walk(node: Any, marks: list[Any] = marks) -> None:
                if isinstance(node, dict):
                    for key, value in node.items():
                        if key == "mark":
                            marks.append(value)
                        walk(value)
                elif isinstance(node, list):
                    for item in node:
                        walk(item)

            for frame in c.frames or []:
                walk(msgpack.unpackb(frame))
            assert marks and set(marks) == {own}
        # every patch was one version on from the one before, for every seat
        for c in clients:
            frames = [msgpack.unpackb(f) for f in c.frames or []]
            patches = [m for m in frames if m["t"] == "patch"]
            assert patches and all(m["v"] == m["base"] + 1 for m in patches)
            assert len({m["v"] for m in patches}) == len(patches)
    finally:
        for c in clients:
            await c.close()


async def test_refusals_change_nothing(baseline: Baseline) -> None:
    url = f"ws://127.0.0.1:{baseline.port}/ws"
    clients, room = await _seated(url, 2)
    try:
        v = clients[0].views[room].v
        with pytest.raises(ServerError) as err:
            await clients[1].move(room, {"step": 1})
        assert err.value.code == "not_your_turn"
        with pytest.raises(ServerError) as err:
            await clients[0].move(room, {"step": 1}, v=v - 1)
        assert err.value.code == "stale"
        with pytest.raises(ServerError) as err:
            await clients[0].move(room, {"step": 4})
        assert err.value.code == "illegal_move"
        with pytest.raises(ServerError) as err:
            await clients[0].request("nonsense")
        assert err.value.code == "unknown_type"
        third = Client(url)
        await third.connect()
        try:
            with pytest.raises(ServerError) as err:
                await third.request("create", game="x", seats=2)
            assert err.value.code == "forbidden"  # no hello yet
            await third.hello("late")
            with pytest.raises(ServerError) as err:
                await third.join(room)
            assert err.value.code == "room_full"
        finally:
            await third.close()
        snap = await clients[0].sync(room)
        assert snap["v"] == v
        assert await clients[0].move(room, {"step": 2}, v=v) == v + 1
    finally:
        for c in clients:
            await c.close()


async def test_healthz_answers(baseline: Baseline) -> None:
    from loadtests.bench import http_get

    status, body = await http_get("127.0.0.1", baseline.port, "/healthz")
    assert (status, body) == (200, b"ok\n")


async def _redis_or_skip() -> Any:
    import redis.asyncio as aredis

    r = aredis.Redis.from_url(REDIS)
    try:
        await asyncio.wait_for(r.ping(), 1.0)
    except Exception:  # noqa: BLE001
        await r.aclose()
        pytest.skip("no Redis on 127.0.0.1:6379")
    return r


async def test_redis_mode_stores_one_entry_per_acknowledged_move() -> None:
    r = await _redis_or_skip()
    prefix = f"mptest:{secrets.token_hex(4)}:"
    server = Baseline(REDIS, prefix)
    await server.start("127.0.0.1", 0)
    try:
        clients, room = await _seated(f"ws://127.0.0.1:{server.port}/ws", 4)
        try:
            played = await _play(clients, room, 25)
            assert played == 25
            assert await r.xlen(f"{prefix}log:{room}") == 25
            record = msgpack.unpackb(await r.get(f"{prefix}room:{room}"))
            assert record["v"] == clients[0].views[room].v and record["moves"] == 25
            # moves of many rooms arriving together share one pipeline
            assert server.writer is not None
            tables = [await _seated(f"ws://127.0.0.1:{server.port}/ws", 2) for _ in range(10)]
            try:
                writes, flushes = server.writer.writes, server.writer.flushes
                await asyncio.gather(*(cs[0].move(rm, {"step": 1}) for cs, rm in tables))
                assert server.writer.writes - writes == 10
                assert server.writer.flushes - flushes < 10
                for _, rm in tables:
                    assert await r.xlen(f"{prefix}log:{rm}") == 1
            finally:
                for cs, _ in tables:
                    for c in cs:
                        await c.close()
        finally:
            for c in clients:
                await c.close()
    finally:
        await server.stop()
        keys = [k async for k in r.scan_iter(match=prefix + "*")]
        if keys:
            await r.delete(*keys)
        await r.aclose()
