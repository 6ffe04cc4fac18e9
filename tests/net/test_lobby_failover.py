"""Turn clocks survive a node's SIGKILL: on its restart, and on a takeover by another node (real processes,
a Redis of the test's own on a free port; see tests/faults/procs.py)."""

from __future__ import annotations

import asyncio
import os
import secrets
import time
from collections.abc import Iterator

import pytest

from clients.client import Client
from tests.faults.procs import REDIS_SERVER, NodeProc, RedisProc

pytestmark = pytest.mark.skipif(REDIS_SERVER is None, reason="redis-server is not installed")

SCALE = ["--clock-scale", "1.5"]  # a 10 s clock lasts 15 s: longer than a node's restart on a busy machine


@pytest.fixture
def redis() -> Iterator[RedisProc]:
    r = RedisProc()
    r.start()
    yield r
    r.stop()


async def _clocked_game(node: NodeProc) -> tuple[str, list[Client], dict[str, int]]:
    players = []
    for name in ("ann", "bob"):
        c = Client(node.url)
        await c.connect()
        await c.hello(name)
        players.append(c)
    room = str((await players[0].request("create", game="expedition", seats=2, options={"seed": 4},
                                         turn_seconds=10))["room"])
    for c in players:
        await c.join(room)
    for c in players:
        await c.wait_for(room, lambda s: s["status"] == "playing")
    clock = players[0].view(room)["clock"]
    assert clock["deadline"] > time.time() * 1000 + 1000
    return room, players, clock


async def _back(url: str, token: str | None, room: str) -> Client:
    c = Client(url)
    await c.connect()
    await c.hello("ann", token)
    for _ in range(100):  # the room is unavailable until a node took it over
        try:
            await c.join(room)
            return c
        except Exception:  # noqa: BLE001
            await asyncio.sleep(0.1)
    raise AssertionError("the room never came back")


@pytest.mark.parametrize(
    "how",
    [
        # the in-process restart is in test_lobby.py; this one (20 s) runs with MP_SLOW_TESTS=1
        pytest.param("restart", marks=pytest.mark.skipif(not os.environ.get("MP_SLOW_TESTS"), reason="slow")),
        "takeover",
    ],
)
async def test_a_running_clock_survives_a_sigkill_of_its_node(redis: RedisProc, how: str) -> None:
    prefix = f"mpl:{secrets.token_hex(4)}:"
    a = NodeProc("node-a", redis.url, prefix, lease_ms=1000, extra=SCALE)
    b = NodeProc("node-b", redis.url, prefix, lease_ms=1000, extra=SCALE)
    a.start()
    if how == "takeover":
        b.start()
    clients: list[Client] = []
    try:
        room, players, clock = await _clocked_game(a)
        clients += players
        v_before = players[0].views[room].v
        a.kill()
        if how == "restart":
            a.start()
        back = await _back((a if how == "restart" else b).url, players[0].token, room)
        clients.append(back)
        view = back.view(room)
        assert time.time() * 1000 < clock["deadline"], "the node came back after the deadline: test too slow"
        # the same stored deadline, not a new clock
        assert view["clock"]["deadline"] == clock["deadline"], (view.get("clock"), clock)
        # nobody moves: once the deadline passes the node now running the room plays the late seat
        wait = clock["deadline"] / 1000 - time.time() + 2.0
        await back.wait_for(room, lambda s: (s.get("clock") or {}).get("deadline") != clock["deadline"],
                            timeout=max(wait, 0.5))
        assert time.time() * 1000 >= clock["deadline"]
        assert back.views[room].v > v_before
    finally:
        for c in clients:
            await c.close()
        a.stop()
        b.stop()
