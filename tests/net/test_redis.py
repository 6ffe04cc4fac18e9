"""The same games on RedisStore against the real Redis, including a server killed with SIGKILL mid-game."""

from __future__ import annotations

import asyncio
import os
import random
import secrets
import signal
import socket
import subprocess
import sys
import urllib.request
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import redis.asyncio as aredis

from clients.client import Client
from server.games import get_game
from server.store import RedisStore

from .conftest import play_to_end, start_app

REDIS_URL = os.environ.get("MP_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
ROOT = Path(__file__).resolve().parents[2]
GAME = get_game("expedition")


def _redis_up() -> bool:
    try:
        with socket.create_connection(("127.0.0.1", 6379), timeout=0.5) as s:
            s.sendall(b"PING\r\n")
            return s.recv(16).startswith(b"+PONG")
    except OSError:
        return False


pytestmark = pytest.mark.skipif(not _redis_up(), reason="no Redis answers on 127.0.0.1:6379")


@pytest.fixture
async def prefix() -> AsyncIterator[str]:
    """A fresh key prefix; every key under it is deleted afterwards."""
    p = f"mptest:{secrets.token_hex(6)}:"
    yield p
    raw = aredis.Redis.from_url(REDIS_URL)
    keys = [k async for k in raw.scan_iter(match=f"{p}*")]
    if keys:
        await raw.delete(*keys)
    await raw.aclose()


async def test_a_whole_game_on_redis_is_stored_and_stays_readable_when_finished(prefix: str) -> None:
    app = await start_app(store=RedisStore(REDIS_URL, prefix=prefix))
    url = f"ws://127.0.0.1:{app.port}/ws"
    try:
        players = [Client(url) for _ in range(3)]
        for i, p in enumerate(players):
            await p.connect()
            await p.hello(f"r{i}")
        room = await players[0].create("expedition", 3, {"seed": 31})
        for p in players:
            await p.join(room)
        await play_to_end(room, players, random.Random(31))
        result = players[0].view(room)["result"]
        for p in players:
            await p.close()
    finally:
        await app.stop()
    # a new node on the same Redis serves the finished room read-only from the store
    app2 = await start_app(store=RedisStore(REDIS_URL, prefix=prefix))
    try:
        assert app2.hub.rooms == {}  # finished rooms are not loaded at start
        async with Client(f"ws://127.0.0.1:{app2.port}/ws") as late:
            await late.hello("late")
            await late.join(room, spectate=True)
            assert late.view(room)["result"] == result
            assert late.view(room)["status"] == "finished"
    finally:
        await app2.stop()
    raw = aredis.Redis.from_url(REDIS_URL)
    ttl = await raw.pttl(f"{prefix}room:{room}:meta")
    await raw.aclose()
    assert ttl > 0, "finished rooms expire"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def _spawn(port: int, prefix: str) -> subprocess.Popen[bytes]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "server", "--port", str(port), "--store", REDIS_URL, "--prefix", prefix,
         "--allow-client-seed", "--rate", "1000", "--burst", "2000", "--log-level", "WARNING"],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    loop = asyncio.get_running_loop()

    def healthy() -> bool:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=0.5) as r:
                return r.status == 200
        except OSError:
            return False

    for _ in range(600):
        if await loop.run_in_executor(None, healthy):
            return proc
        await asyncio.sleep(0.1)
    proc.kill()
    raise AssertionError("server did not start")


async def test_a_server_killed_mid_game_resumes_from_redis_with_no_acknowledged_move_lost(prefix: str) -> None:
    port = _free_port()
    url = f"ws://127.0.0.1:{port}/ws"
    proc = await _spawn(port, prefix)
    seed, seats = 47, 3
    rng = random.Random(seed)
    acked: list[tuple[int, int, dict]] = []
    players = [Client(url) for _ in range(seats)]
    try:
        for i, p in enumerate(players):
            await p.connect()
            await p.hello(f"k{i}")
        room = await players[0].create("expedition", seats, {"seed": seed})
        for p in players:
            await p.join(room)
        await players[0].wait_for(room, lambda s: s["status"] == "playing")
        start_v = players[0].views[room].v
        # play 40 acknowledged moves, then kill the server without warning
        while len(acked) < 40:
            mover = next((p for p in players if p.view(room)["prompt"]), None)
            if mover is None:
                await asyncio.sleep(0.005)
                continue
            view = mover.view(room)
            move = rng.choice(view["prompt"]["options"])
            acked.append((await mover.move(room, move), view["you"], move))
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
        tokens = [p.token for p in players]
        for p in players:
            await p.close()

        proc = await _spawn(port, prefix)
        players = [Client(url) for _ in range(seats)]
        for i, p in enumerate(players):
            await p.connect()
            welcome = await p.hello(f"k{i}", tokens[i])
            assert welcome["rooms"] == [{"room": room, "game": "expedition", "seat": i}]
            await p.join(room)
        # the restored game is exactly the seed replayed with every acknowledged move
        state = GAME.setup(seats, {}, seed)
        for _i, (_v, seat, move) in enumerate(acked):
            try:
                state = GAME.apply(state, seat, move)
            except Exception:
                print("DEBUG", _i, acked[max(0,_i-3):_i+2], GAME.active_seats(state), start_v)
                raise
        for i, p in enumerate(players):
            view = p.view(room)
            assert p.views[room].v >= acked[-1][0] > start_v
            assert view["public"] == GAME.view(state, i)["public"]
            assert view["private"] == GAME.view(state, i)["private"]
        await play_to_end(room, players, rng)
        assert players[0].view(room)["result"] is not None
    finally:
        for p in players:
            await p.close()
        proc.kill()
        proc.wait(10)
