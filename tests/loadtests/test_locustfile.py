"""The locustfile imports cleanly and starts nothing, its pieces behave (game mix, fan-out bookkeeping), and a
short headless locust run plays real games against a real server with no failed request (locust runs in a
subprocess: importing it patches the standard library with gevent, which must not leak into this process)."""

from __future__ import annotations

import asyncio
import csv
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from server.config import Settings
from server.net.app import App

ROOT = Path(__file__).resolve().parents[2]
LOCUST = Path(sys.executable).with_name("locust")

PROBE = r"""
import json, threading
import loadtests.locustfile as lf
from locust import User
f = lf.Fanout()
f.join("r", 1); f.join("r", 2); f.join("r", 3)
early = f.arrived("r", 5, 1.0)           # the mover's own patch, before its ok
acked = f.acked("r", 5, 0.5)             # the ok: two players still to come
second = f.arrived("r", 5, 1.2)
last = f.arrived("r", 5, 1.5)            # the last player: 1.5 - 0.5
f2 = lf.Fanout(); f2.join("s", 1); f2.join("s", 2)
f2.arrived("s", 7, 2.0); f2.arrived("s", 7, 2.25)
late_ok = f2.acked("s", 7, 2.0)          # every player held it before the ok was read
f2.leave("s", 1); f2.leave("s", 2)
bad = []
for spec in ("chess", "expedition:-1", "expedition:0"):
    try:
        lf.parse_mix(spec)
    except ValueError:
        bad.append(spec)
print(json.dumps({
    "users": [c.__name__ for c in (lf.Player, lf.ReconnectStorm) if issubclass(c, User) and not c.abstract],
    "tasks": len(lf.Player.tasks),
    "host": lf.Player.host,
    "threads": threading.active_count(),
    "mix": lf.parse_mix("mix"),
    "weighted": lf.parse_mix("expedition:2, khan"),
    "bad": bad,
    "fanout": [early, acked, second, last, late_ok],
    "emptied": [f2.members, f2.arrivals, f2.waiting],
}))
"""


def test_locustfile_imports_without_starting_anything() -> None:
    out = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=ROOT, capture_output=True, text=True, timeout=60, check=True
    )
    got = json.loads(out.stdout.strip().splitlines()[-1])
    assert got["users"] == ["Player", "ReconnectStorm"]
    assert got["tasks"] == 1 and got["host"] == "ws://127.0.0.1:8765/ws"
    assert got["threads"] == 1
    assert got["mix"] == {"expedition": 1.0, "classic": 1.0, "voyages": 1.0, "khan": 1.0}
    assert got["weighted"] == {"expedition": 2.0, "khan": 1.0}
    assert got["bad"] == ["chess", "expedition:-1", "expedition:0"]
    assert got["fanout"] == [None, None, None, 1.0, 0.25]
    assert got["emptied"] == [{}, {}, {}]


def _rows(path: Path) -> dict[str, dict[str, str]]:
    with path.open() as fh:
        return {row["Name"]: row for row in csv.DictReader(fh)}


@pytest.mark.skipif(not LOCUST.exists() and shutil.which("locust") is None, reason="locust is not installed")
async def test_headless_locust_plays_every_kind_of_user_without_failures(tmp_path: Path) -> None:
    app = App(
        Settings(
            port=0,
            store="memory",
            rate=1000,
            burst=2000,
            max_conns_per_addr=0,
            creates_per_minute=0,
            waiting_rooms_per_player=0,
            quick_fill_bots_after=1,
            bot_delay=0.05,
        )
    )
    await app.start()
    try:
        locust = str(LOCUST) if LOCUST.exists() else "locust"
        args = ["-f", "loadtests/locustfile.py", "--headless", "-u", "10", "-r", "10", "-t", "8s"]
        args += ["--host", f"ws://127.0.0.1:{app.port}/ws", "--csv", str(tmp_path / "run"), "--only-summary"]
        args += ["--game", "expedition:1,khan:1", "--seats", "2", "--think", "0.05"]
        args += ["--storm-every", "2", "--request-timeout", "10"]
        proc = await asyncio.create_subprocess_exec(
            locust, *args, cwd=ROOT, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT
        )
        out, _ = await asyncio.wait_for(proc.communicate(), 60)
    finally:
        await app.stop()
    text = out.decode(errors="replace")
    assert proc.returncode == 0, text[-3000:]
    rows = _rows(tmp_path / "run_stats.csv")
    assert rows["Aggregated"]["Failure Count"] == "0", text[-3000:]
    assert int(rows["move"]["Request Count"]) > 0
    assert int(rows["move_to_last_patch"]["Request Count"]) > 0
    assert rows["move_to_last_patch"]["Type"] == "latency"
    assert int(rows["quick_match"]["Request Count"]) > 0
    assert int(rows["reconnect"]["Request Count"]) > 0  # the storm user (weight 1 of 10) dropped and came back
