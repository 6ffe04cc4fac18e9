"""The server's memory stays bounded when clients never read: measured as the RSS of a server subprocess.

Twenty clients never read: ten watch the lobby while 1000 rooms are created, ten watch a game and each
asks for 1500 snapshots. Against the server before the outbox had a byte bound and the lobby a cap, this
run grew the RSS by 35 MiB (51.8 -> 86.8), and by 181 MiB at twice the sleepers and 1500 rooms; it
grows by about 5 MiB now (53.2 -> 58.0): each sleeper holds at most `--out-bytes` (256 KiB here) until it is cut
off, and a lobby watcher one capped list.
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from clients.client import Client

from .conftest import play_to_end
from .rawws import RawWS

ROOT = Path(__file__).resolve().parents[2]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


async def _wait_listening(port: int, proc: subprocess.Popen[bytes]) -> None:
    for _ in range(200):
        assert proc.poll() is None, "the server exited"
        try:
            _, w = await asyncio.open_connection("127.0.0.1", port)
            w.close()
            return
        except OSError:
            await asyncio.sleep(0.05)
    raise AssertionError("the server did not start")


async def test_clients_that_never_read_leave_the_server_rss_bounded() -> None:
    port = _free_port()
    args = [sys.executable, "-m", "server", "--port", str(port), "--allow-client-seed", "--log-level", "WARNING"]
    args += ["--rate", "5000", "--burst", "5000", "--creates-per-minute", "0", "--waiting-rooms-per-player", "0"]
    args += ["--bot-delay", "0", "--out-bytes", str(256 * 1024)]
    proc = subprocess.Popen(args, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    raws: list[RawWS] = []
    try:
        await _wait_listening(port, proc)
        url = f"ws://127.0.0.1:{port}/ws"
        players = [Client(url) for _ in range(2)]
        for i, p in enumerate(players):
            await p.connect()
            await p.hello(f"p{i}")
        room = await players[0].create("expedition", 2, {"seed": 4})

        def sleepers() -> None:
            for i in range(20):  # half watch the lobby, half watch the game; none of them ever reads
                raw = RawWS(port, rcvbuf=2048)
                raw.send({"t": "hello", "id": 1, "name": f"sleeper{i}"})
                if i % 2:
                    raw.send({"t": "watch_lobby", "id": 2})
                else:
                    raw.send({"t": "join", "id": 2, "room": room, "spectate": True})
                raws.append(raw)

        def flood() -> None:
            for raw in raws[::2]:  # the spectators ask for snapshots they never read, as fast as allowed
                for n in range(1500):
                    raw.send({"t": "sync", "id": 10 + n, "room": room})

        await asyncio.to_thread(sleepers)
        await asyncio.sleep(0.5)
        rss0 = _rss_mib(proc.pid)
        maker = Client(url)
        await maker.connect()
        await maker.hello("maker")
        t0 = time.monotonic()
        for _ in range(1000):  # every room changes the lobby the sleepers never read
            await maker.create("expedition", 3)
        for p in players:
            await p.join(room)
        await asyncio.to_thread(flood)
        await play_to_end(room, players, random.Random(4))
        for _ in range(300):  # snapshots are the biggest frames: ask for many, as a fast client could
            await players[0].sync(room)
        await asyncio.sleep(0.5)
        rss1 = _rss_mib(proc.pid)
        print(f"server rss {rss0:.1f} MiB -> {rss1:.1f} MiB after {time.monotonic() - t0:.1f} s of traffic")
        # 1000 rooms cost some MiB of their own; a backlog per sleeper would be several MiB each
        assert rss1 - rss0 < 20, f"rss grew by {rss1 - rss0:.1f} MiB"
        for c in (*players, maker):
            await c.close()
    finally:
        for raw in raws:
            raw.close()
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait()


async def test_a_finished_room_is_freed_without_the_cycle_collector() -> None:
    """A served node rarely runs a full collection (`gc.set_threshold` in `server.net.app.serve`), so a finished
    room dropped from memory must be freed by reference counting alone: no cycle may keep it (and its state,
    views and log) alive. Measured: before, each finished room stayed until a full collection, and a node
    under a steady load grew by about 75 KiB per finished game (make soak)."""
    import gc
    import weakref

    from .conftest import start_app

    app = await start_app(bot_delay=0.0)
    players: list[Client] = []
    gc.collect()
    gc.disable()
    try:
        for name in ("ann", "bob"):
            c = Client(f"ws://127.0.0.1:{app.port}/ws")
            await c.connect()
            await c.hello(name)
            players.append(c)
        room_id = await players[0].create("expedition", 2, {"seed": 5})
        for c in players:
            await c.join(room_id)
        room = weakref.ref(app.hub.rooms[room_id])
        await play_to_end(room_id, players, random.Random(3))
        for c in players:
            await c.request("leave", room=room_id)
        for _ in range(100):  # the room goes idle, is dropped and its actor ends
            if room_id not in app.hub.rooms and (room() is None or room()._task.done()):  # type: ignore[union-attr]
                break
            await asyncio.sleep(0.02)
        await app.hub.records.settled()
        await asyncio.sleep(0.1)
        assert room_id not in app.hub.rooms
        alive = room()
        if alive is not None:  # name what still holds it, for the fix
            holders = [type(r).__qualname__ for r in gc.get_referrers(alive)]
            del alive
            raise AssertionError(f"a dropped room is still alive; referred to by {holders}")
    finally:
        gc.enable()
        for c in players:
            await c.close()
        await app.stop()


async def test_a_closed_connection_is_freed_without_the_cycle_collector() -> None:
    """The same for a connection: once its socket closed, nothing cyclic keeps its objects (outbox, views)."""
    import gc
    import weakref

    from .conftest import start_app

    app = await start_app()
    gc.collect()
    gc.disable()
    try:
        c = Client(f"ws://127.0.0.1:{app.port}/ws")
        await c.connect()
        await c.hello("ann")
        room_id = await c.create("expedition", 2)
        await c.join(room_id)
        with_conn = [weakref.ref(x) for x in app.hub.conns]
        assert len(with_conn) == 1
        try:
            await c.request("move", room=room_id, move={"nope": 1})  # an error answered on the way
        except Exception:  # noqa: BLE001
            pass
        await c.close()
        for _ in range(100):
            if not app.hub.conns:
                break
            await asyncio.sleep(0.02)
        await asyncio.sleep(0.2)
        alive = with_conn[0]()
        if alive is not None:
            holders = [type(r).__qualname__ for r in gc.get_referrers(alive)]
            del alive
            raise AssertionError(f"a closed connection is still alive; referred to by {holders}")
    finally:
        gc.enable()
        await app.stop()
