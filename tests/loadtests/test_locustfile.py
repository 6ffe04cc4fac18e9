"""The locustfile imports cleanly and starts nothing (checked in a subprocess: importing locust patches the
standard library with gevent, which must not leak into this test process)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PROBE = r"""
import json, threading
import loadtests.locustfile as lf
from locust import User
rooms = [
    {"room": "r1", "game": "expedition", "seats": 3, "players": ["a", "b", "c"], "status": "playing"},
    {"room": "r2", "game": "other", "seats": 2, "players": ["a", None], "status": "waiting"},
    {"room": "r3", "game": "expedition", "seats": 3, "players": ["a", None, None], "status": "waiting"},
    {"room": "r4", "game": "expedition", "seats": 3, "players": [None, None, None], "status": "waiting"},
]
print(json.dumps({
    "user": issubclass(lf.ExpeditionPlayer, User) and not lf.ExpeditionPlayer.abstract,
    "tasks": len(lf.ExpeditionPlayer.tasks),
    "host": lf.ExpeditionPlayer.host,
    "threads": threading.active_count(),
    "pick": lf.pick_room(rooms),
    "none": lf.pick_room(rooms[:2]),
}))
"""


def test_locustfile_imports_without_starting_anything() -> None:
    out = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=ROOT, capture_output=True, text=True, timeout=60, check=True
    )
    got = json.loads(out.stdout.strip().splitlines()[-1])
    assert got == {
        "user": True,
        "tasks": 1,
        "host": "ws://127.0.0.1:8765/ws",
        "threads": 1,
        "pick": "r3",
        "none": None,
    }
