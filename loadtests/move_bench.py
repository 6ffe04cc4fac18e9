"""`python -m loadtests.move_bench`: what a move costs inside one server process, without sockets.

The real hub and rooms on the memory store, driven through `Hub.handle_frame` with the encoded `move` frames a
client sends (decoding, validation, the room actor, `apply`, the store, views, diffs, frames and metrics all
run), while every connection's socket is replaced by a writer that takes each frame at once and drops it. So
the figure is the server's own work per move, the part a faster socket library cannot change. Rooms take
turns, one move each, seeded; a finished game is replaced by a new room. Prints CPU µs per move (best of
`--repeat` windows) and, with `--profile FILE`, writes a pyinstrument text profile of one more window.

    python -m loadtests.move_bench --game expedition --rooms 50 --moves 4000

`--instructions` counts instructions instead (valgrind's callgrind, which counts the same whatever else the
machine runs): the same command twice under callgrind, with `--moves N` and `--moves 3N` (one window,
`PYTHONHASHSEED=0`), and the difference of the two totals over the 2N extra moves, so the set-up cancels
out. Slow (about 90 s a game at the default N of 150); the figure to compare two versions with.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import random
import re
import subprocess
import sys
import time
from typing import Any

import msgpack

from protocol import messages as m
from server.config import Settings
from server.metrics import Metrics
from server.net.conn import Conn
from server.node.hub import Hub
from server.store import MemoryStore

GAMES = ("expedition", "classic", "voyages", "khan")


class Seat:
    """A connection whose socket takes every frame at once (and drops it)."""

    def __init__(self, hub: Hub, player: str) -> None:
        self.frames = 0
        self.conn = Conn(self._send, self._close, hub.metrics, rate=1e9, burst=10**9, write_now=self._write)
        self.conn.player, self.conn.name = player, player
        self.conn.start()
        hub.connected(self.conn)

    def _write(self, data: bytes) -> bool:
        self.frames += 1
        return True

    async def _send(self, data: bytes) -> None:  # pragma: no cover - `_write` always takes the frame
        self.frames += 1

    async def _close(self, code: int, reason: str) -> None:
        pass


class Table:
    """One room and its seats."""

    def __init__(self, hub: Hub, game: str, seats: int, seed: int) -> None:
        self.hub, self.game, self.n, self.seed = hub, game, seats, seed
        self.seats = [Seat(hub, f"p{seed}-{i}") for i in range(seats)]
        self.room_id = ""
        self.next_id = 1

    async def start(self) -> None:
        msg = m.Create(game=self.game, seats=self.n, options={"seed": self.seed})
        self.room_id = await self.hub.create_room(msg)
        room = self.hub.rooms[self.room_id]
        for seat in self.seats:
            await room.submit("join", seat.conn)

    def frame(self, rng: random.Random) -> tuple[Seat, bytes] | None:
        """The next move's frame, as a client would send it (None: the game is over)."""
        room = self.hub.rooms[self.room_id]
        if room.state is None or room.status != "playing":
            return None
        for i in room.game.active_seats(room.state):
            prompt = room.prompt_for(room.state, i)
            if prompt and prompt.get("options"):
                self.next_id += 1
                move = rng.choice(prompt["options"])
                data = msgpack.packb({"t": "move", "id": self.next_id, "room": self.room_id, "v": room.v, "move": move})
                return self.seats[i], data
        return None


async def _window(hub: Hub, tables: list[Table], moves: int, rng: random.Random) -> tuple[float, int]:
    """CPU seconds and moves of one window of about `moves` moves (new rooms replace finished ones)."""
    done = 0
    cpu = 0.0
    while done < moves:
        for k, table in enumerate(tables):
            nxt = table.frame(rng)
            if nxt is None:
                table.seed += 1000
                tables[k] = table = Table(hub, table.game, table.n, table.seed)
                await table.start()
                continue
            seat, data = nxt
            t0 = time.process_time()
            await hub.handle_frame(seat.conn, data)
            cpu += time.process_time() - t0
            done += 1
    return cpu, done


async def run(game: str, rooms: int, seats: int, moves: int, repeat: int, profile: str | None) -> dict[str, Any]:
    hub = Hub(Settings(allow_client_seed=True, rate=1e9, burst=10**9), MemoryStore(), Metrics())
    hub.ready = True
    tables = [Table(hub, game, seats, seed) for seed in range(rooms)]
    for table in tables:
        await table.start()
    rng = random.Random(1)
    gc.collect()
    gc.freeze()
    best = float("inf")
    for _ in range(repeat):
        cpu, done = await _window(hub, tables, moves, rng)
        best = min(best, cpu / done)
    out: dict[str, Any] = {"game": game, "rooms": rooms, "seats": seats, "us_per_move": best * 1e6, "hub": hub}
    if profile:
        from pyinstrument import Profiler

        profiler = Profiler(interval=0.0002, async_mode="disabled")
        profiler.start()
        await _window(hub, tables, moves, rng)
        profiler.stop()
        with open(profile, "w") as fh:
            fh.write(profiler.output_text(unicode=False, color=False, show_all=False))
    return out


def instructions(game: str, rooms: int, seats: int, moves: int) -> int:
    """Instructions per move of `game`, counted by callgrind (see the module's doc)."""
    totals = []
    for n in (moves, 3 * moves):
        cmd = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable, "-m",
               "loadtests.move_bench", "--game", game, "--rooms", str(rooms), "--seats", str(seats),
               "--moves", str(n), "--repeat", "1"]  # fmt: skip
        env = {**os.environ, "PYTHONHASHSEED": "0"}
        out = subprocess.run(cmd, capture_output=True, text=True, env=env, check=True).stderr
        found = re.search(r"Collected\s*:\s*(\d+)", out)
        if found is None:
            raise RuntimeError(f"callgrind printed no total:\n{out[-2000:]}")
        totals.append(int(found.group(1)))
    return (totals[1] - totals[0]) // (2 * moves)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", choices=(*GAMES, "all"), default="expedition")
    ap.add_argument("--rooms", type=int, help="rooms playing (default 50; 20 with --instructions)")
    ap.add_argument("--seats", type=int, default=4)
    ap.add_argument("--moves", type=int, help="moves per window (default 4000; 150 with --instructions)")
    ap.add_argument("--repeat", type=int, default=3, help="windows; the best is printed")
    ap.add_argument("--profile", help="write a pyinstrument profile of one more window here")
    ap.add_argument("--instructions", action="store_true", help="count instructions per move with callgrind")
    args = ap.parse_args()
    args.rooms = args.rooms or (20 if args.instructions else 50)
    args.moves = args.moves or (150 if args.instructions else 4000)
    if args.instructions:
        for game in GAMES if args.game == "all" else (args.game,):
            n = instructions(game, args.rooms, args.seats, args.moves)
            print(f"{game:<11} {args.rooms} rooms x {args.seats} seats: {n:,} instructions per move")
        return
    for game in GAMES if args.game == "all" else (args.game,):
        out = asyncio.run(run(game, args.rooms, args.seats, args.moves, args.repeat, args.profile))
        what = f"{out['game']:<11} {out['rooms']} rooms x {out['seats']} seats"
        print(f"{what}: {out['us_per_move']:7.1f} µs CPU per move")


if __name__ == "__main__":
    main()
