"""Golden wire traces: every frame a scripted session of each game sends, in order, recorded as JSON lines.

A node (the real hub and rooms on the memory store, no sockets) is driven through `handle_frame` with the
frames clients send: hello, create with a clock and a host, joins, the host's options and a kick, chat, a
spectator, every move (the option a seeded choice picks from the prompt), autoplay on and off, sync, the
game log, a leave and (in Expedition) the end of the game. Each frame every connection receives is decoded
with its key order kept and written as one line `conn<TAB>json`. The wall clock is fake (it starts at a
fixed time and moves one second before each request), so deadlines and chat times are the same on every
run, and the random ids (rooms, players, tokens, invites, seeds) come from a counter. So a change of the room
core that changes nothing on the wire leaves these files byte-identical; `python -m tests.golden.wire`
rewrites them (`make golden` does too).
"""

from __future__ import annotations

import asyncio
import itertools
import json
import random
import secrets
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgpack

from protocol import encode

HERE = Path(__file__).parent / "wire"
GAMES = ("expedition", "classic", "voyages", "khan")
#: the fake wall clock (seconds since the epoch): `Client.send` moves it one second on
NOW = [1_800_000_000.0]
#: moves a trace plays at most (the whole of an Expedition game; the first hundreds of moves of the others)
MAX_MOVES = {"expedition": 400, "classic": 400, "voyages": 120, "khan": 120}


def _imports() -> tuple[Any, Any, Any, Any, Any]:
    from server.config import Settings
    from server.metrics import Metrics
    from server.net.conn import Conn
    from server.node.hub import Hub
    from server.store.memory import MemoryStore

    return Settings, Metrics, Conn, Hub, MemoryStore


class Client:
    def __init__(self, name: str, hub: Any, conn_cls: Any, out: list[str]) -> None:
        self.name, self.hub, self.out = name, hub, out
        self.ids = itertools.count(1)
        self.conn = conn_cls(self._send, self._close, hub.metrics, rate=1e9, burst=10**9)
        self.conn.start()
        hub.connected(self.conn)
        self.views: dict[str, dict[str, Any]] = {}
        self.vs: dict[str, int] = {}
        self.frames: list[dict[str, Any]] = []

    async def _send(self, data: bytes) -> None:
        msg = msgpack.unpackb(data)
        self.frames.append(msg)
        self.out.append(f"{self.name}\t{json.dumps(msg, ensure_ascii=False)}")
        from protocol.patch import apply_patch

        if msg["t"] == "snapshot":
            self.views[msg["room"]], self.vs[msg["room"]] = msg["state"], msg["v"]
        elif msg["t"] == "patch" and msg["room"] in self.views:
            self.views[msg["room"]] = apply_patch(self.views[msg["room"]], msg["ops"])
            self.vs[msg["room"]] = msg["v"]

    async def _close(self, code: int, reason: str) -> None:
        self.out.append(f"{self.name}\tclosed {code} {reason}")

    async def send(self, t: str, **fields: Any) -> None:
        NOW[0] += 1.0
        await self.hub.handle_frame(self.conn, encode({"t": t, "id": next(self.ids), **fields}))
        await settle()


async def settle() -> None:
    for _ in range(20):
        await asyncio.sleep(0)


def _fixed_ids() -> Iterator[None]:
    counter = itertools.count(1)
    real = secrets.token_hex, secrets.token_urlsafe, secrets.randbits
    real_time = time.time
    NOW[0] = 1_800_000_000.0
    time.time = lambda: NOW[0]  # type: ignore[assignment]

    def hexed(n: int = 16) -> str:
        return f"{next(counter):0{2 * n}x}"

    secrets.token_hex = hexed  # type: ignore[assignment]
    secrets.token_urlsafe = lambda n=16: "inv" + hexed(4)  # type: ignore[assignment]
    secrets.randbits = lambda k: 12345  # type: ignore[assignment]
    try:
        yield
    finally:
        secrets.token_hex, secrets.token_urlsafe, secrets.randbits = real  # type: ignore[assignment]
        time.time = real_time  # type: ignore[assignment]


async def trace(game: str) -> list[str]:
    """Every frame of one scripted session of `game`, as the lines of its golden file."""
    Settings, Metrics, Conn, Hub, MemoryStore = _imports()
    out: list[str] = []
    settings = Settings(allow_client_seed=True, bot_delay=3600.0, presence_grace=0.0)
    hub = Hub(settings, MemoryStore(), Metrics())
    sys.modules[Hub.__module__].LOBBY_DELAY = 0  # lobby pushes at the next loop turn, not 50 ms later
    hub.ready = True
    ann, bob, eve = (Client(n, hub, Conn, out) for n in ("ann", "bob", "eve"))
    await ann.send("hello", name="Ann")
    await bob.send("hello", name="Bob")
    await eve.send("hello", name="Eve")
    await ann.send("watch_lobby")
    await ann.send("create", game=game, seats=2, options={"seed": 8}, turn_seconds=86400)
    room = next(f["room"] for f in ann.frames if f["t"] == "created")
    await ann.send("join", room=room)
    await ann.send("host", room=room, action="options", options={})
    await bob.send("join", room=room)
    await ann.send("host", room=room, action="kick", seat=1)
    await ann.send("chat", room=room, text="hello table")
    await ann.send("chat", text="hello lobby")
    await eve.send("join", room=room, spectate=True)
    await bob.send("join", room=room)
    await ann.send("game_log", room=room)
    rng = random.Random(f"{game}-trace")
    players = {0: ann, 1: bob}
    for n in range(MAX_MOVES[game]):
        view = ann.views[room]
        if view.get("result") is not None:
            break
        for who in players.values():
            prompt = who.views[room].get("prompt")
            if prompt and prompt.get("options"):
                move = rng.choice(prompt["options"])
                await who.send("move", room=room, move=move, v=who.vs[room])
                break
        if n == 3:
            await bob.send("autoplay", room=room, level="easy")
            await bob.send("autoplay", room=room, level=None)
            await bob.send("sync", room=room)
        if n == 5:
            await ann.send("move", room=room, move={"no": "such move"})
            await eve.send("leave", room=room)
    await ann.send("game_log", room=room)
    await ann.send("leave", room=room)
    await ann.send("list_rooms")
    await hub.close()
    await settle()
    return out


def path_for(game: str) -> Path:
    return HERE / f"{game}.txt"


def record(game: str) -> list[str]:
    """The trace of `game`, with the fake clock and ids in place only while it runs."""
    gen = _fixed_ids()
    next(gen)
    try:
        return asyncio.run(trace(game))
    finally:
        next(gen, None)


def main(argv: list[str]) -> None:
    games = argv or list(GAMES)
    HERE.mkdir(exist_ok=True)
    for game in games:
        lines = record(game)
        path_for(game).write_text("\n".join(lines) + "\n", encoding="utf-8")
        print(f"{path_for(game)}: {len(lines)} frames")


if __name__ == "__main__":
    main(sys.argv[1:])
