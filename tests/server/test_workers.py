"""`python -m server --workers N`: N processes on one port (SO_REUSEPORT) sharing rooms through Redis."""

from __future__ import annotations

import asyncio
import json
import random
import secrets
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
import redis

from clients.client import Client
from tests.net.conftest import play_to_end

ROOT = Path(__file__).resolve().parent.parent.parent
REDIS_URL = "redis://127.0.0.1:6379/0"


def _redis_up() -> bool:
    try:
        return bool(redis.Redis.from_url(REDIS_URL, socket_timeout=0.5).ping())
    except redis.RedisError:
        return False


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _health(port: int) -> dict | None:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2) as r:
            return dict(json.loads(r.read()))
    except OSError:
        return None


def test_workers_need_a_redis_store() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "server", "--workers", "2", "--port", str(_free_port()), "--store", "memory"],
        cwd=ROOT, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert out.returncode == 2
    assert "needs a redis:// store" in out.stderr


@pytest.mark.skipif(not _redis_up(), reason="no Redis answers on 127.0.0.1:6379")
async def test_two_workers_share_one_port_and_play_a_room_across_them_then_stop_on_sigterm(tmp_path: Path) -> None:
    port = _free_port()
    out = (tmp_path / "workers.log").open("wb")
    prefix = f"mpworkers:{secrets.token_hex(4)}:"
    proc = subprocess.Popen(
        [sys.executable, "-m", "server", "--workers", "2", "--port", str(port), "--store", REDIS_URL,
         "--prefix", prefix, "--node-id", "wtest", "--allow-client-seed", "--log-level", "WARNING"],
        cwd=ROOT, stdout=out, stderr=subprocess.STDOUT,
    )  # fmt: skip
    clients: list[Client] = []
    try:
        nodes: set[str] = set()
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and len(nodes) < 2:  # new connections spread over both workers
            health = await asyncio.to_thread(_health, port)
            if health is not None and health["status"] == "ok":
                nodes.add(health["node"])
            else:
                await asyncio.sleep(0.1)
        assert nodes == {"wtest-w1", "wtest-w2"}, (tmp_path / "workers.log").read_text()
        for name in ("ann", "bob", "cid"):
            c = Client(f"ws://127.0.0.1:{port}/ws")
            await c.connect()
            await c.hello(name, None)
            clients.append(c)
        room = await clients[0].create("expedition", 3, {"seed": 5})
        for c in clients:
            await c.join(room)
        await play_to_end(room, clients, random.Random(5))
        for c in clients:
            await c.wait_for(room, lambda s: s["result"] is not None)
            assert (await c.sync(room))["state"] == c.view(room)
    finally:
        for c in clients:
            await c.close()
        proc.send_signal(signal.SIGTERM)
        try:
            rc = proc.wait(timeout=30)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
            out.close()
            r = redis.Redis.from_url(REDIS_URL)
            keys = list(r.scan_iter(match=f"{prefix}*"))
            if keys:
                r.delete(*keys)
    assert rc == 0
    assert _health(port) is None  # both workers are gone
