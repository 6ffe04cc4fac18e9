"""A store that refuses writes (a full SQLite database, here its `max_page_count` reached; a Redis at `maxmemory`
with `noeviction`, a Redis of the test's own) answers at once: the move `unavailable` within a second, another
seat's `sync` served from what the room holds, `/healthz` 503 with the reason and a metric counting it; nothing
refused is applied later, and once the store takes writes again play goes on and `/healthz` is 200."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import subprocess
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from clients.client import Client, ServerError
from server.net.app import App
from server.store import RedisStore
from server.store.sqlite import SqliteStore
from tests.faults.procs import REDIS_SERVER, RedisProc

from .conftest import start_app


def _health(app: App) -> tuple[int, dict[str, Any]]:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{app.port}/healthz", timeout=2) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read())


async def _game(app: App) -> tuple[str, list[Client]]:
    players = []
    for name in ("ann", "bob"):
        c = Client(f"ws://127.0.0.1:{app.port}/ws")
        await c.connect()
        await c.hello(name)
        players.append(c)
    room = await players[0].create("expedition", 2, {"seed": 9})
    for c in players:
        await c.join(room)
    await players[0].wait_for(room, lambda s: s["status"] == "playing")
    return room, players


async def _move_until_refused(room: str, players: list[Client], rng: random.Random) -> tuple[Client, float]:
    """Play until a move is answered `unavailable`; (the mover, how long that answer took)."""
    loop = asyncio.get_running_loop()
    for _ in range(400):
        mover = next((p for p in players if p.view(room).get("prompt")), None)
        if mover is None:
            await asyncio.sleep(0.01)
            continue
        started = loop.time()
        try:
            await mover.move(room, rng.choice(mover.view(room)["prompt"]["options"]), v=mover.views[room].v)
        except ServerError as err:
            if err.code == "unavailable":
                return mover, loop.time() - started
            assert err.code in ("stale", "not_your_turn"), err
    raise AssertionError("the store never refused a move")


async def _check_refusing_then_recovering(app: App, room: str, players: list[Client], lift: Any) -> None:
    rng = random.Random(9)
    mover, took = await _move_until_refused(room, players, rng)
    assert took < 1.0, f"the refused move was answered after {took:.2f} s"
    v = mover.views[room].v
    other = next(p for p in players if p is not mover)
    loop = asyncio.get_running_loop()
    started = loop.time()
    snap = await other.request("sync", timeout=5, room=room)
    assert loop.time() - started < 1.0 and snap["v"] == v, "a read waited on the refusing store"
    status, body = await asyncio.to_thread(_health, app)
    assert status == 503 and body["status"] == "store_refusing_writes" and body["reason"], body
    assert "mp_store_refused_writes_total" in app.hub.metrics.render().decode()
    # longer than a lease: the node keeps the room (renewing a lease stores nothing new) and keeps serving reads
    await asyncio.sleep(app.hub.settings.lease_ms / 1000 * 1.5)
    started = loop.time()
    snap = await other.request("sync", timeout=5, room=room)
    assert loop.time() - started < 1.0 and snap["v"] == v, "a read after a lease period failed while refusing"
    await lift()
    for _ in range(50):  # the next move goes through (the refused one was never stored)
        movers = [p for p in players if p.view(room).get("prompt")]
        if movers:
            got = await movers[0].move(room, rng.choice(movers[0].view(room)["prompt"]["options"]), v=v)
            assert got == v + 1
            break
        await asyncio.sleep(0.02)
    else:
        raise AssertionError("nobody could move after the store took writes again")
    status, body = await asyncio.to_thread(_health, app)
    assert status == 200, body


@contextlib.contextmanager
def _small_disk(where: Path, size: str = "16m") -> Iterator[Path]:
    """A tmpfs of the test's own (root only; skipped where mounting is not allowed)."""
    where.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(where)], capture_output=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.decode().strip()}")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], capture_output=True)


async def test_a_full_disk_under_sqlite_refuses_a_move_at_once_and_play_resumes(tmp_path: Path) -> None:
    with _small_disk(tmp_path / "disk") as disk:
        store = SqliteStore(disk / "rooms.db", takeover=True)
        app = await start_app(store=store)
        players: list[Client] = []
        ballast = disk / "ballast"
        try:
            room, players = await _game(app)

            def fill() -> None:  # every free byte of the disk
                with contextlib.suppress(OSError), open(ballast, "wb") as f:
                    for _ in range(100_000):
                        f.write(b"\0" * 4096)
                        f.flush()

            await asyncio.to_thread(fill)

            async def lift() -> None:
                ballast.unlink()

            await _check_refusing_then_recovering(app, room, players, lift)
        finally:
            for c in players:
                await c.close()
            await app.stop()


@pytest.mark.skipif(REDIS_SERVER is None, reason="redis-server is not installed")
async def test_a_redis_out_of_memory_refuses_a_move_at_once_and_play_resumes() -> None:
    redis = RedisProc()
    redis.start()
    players: list[Client] = []
    app = await start_app(store=RedisStore(redis.url, prefix="mp:"))
    try:
        room, players = await _game(app)
        redis.command("CONFIG", "SET", "maxmemory-policy", "noeviction")
        redis.command("CONFIG", "SET", "maxmemory", "1")

        async def lift() -> None:
            redis.command("CONFIG", "SET", "maxmemory", "0")

        await _check_refusing_then_recovering(app, room, players, lift)
    finally:
        for c in players:
            await c.close()
        await app.stop()
        redis.stop()
