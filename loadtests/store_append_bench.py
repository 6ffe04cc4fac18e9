"""`python -m loadtests.store_append_bench [--root DIR] [--rounds N]`: the room store's own CPU per move write.

250 rooms, each holding its lease, append one move each per round (`--rounds`, default 40), all rounds' writes
in flight together as a busy node's are; prints the process CPU and wall time per `append` for the SQLite store
as a server opens it (`takeover=True`: locked, its one writer), with `synchronous=NORMAL` so the disk's fsync
time stays out of the figure, and for the memory store. `--root` imports `server` from another checkout (a
`git worktree` of an older commit), so two versions compare on one machine in one sitting.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
import time
from typing import Any


def _meta(room: str, v: int) -> dict[str, Any]:
    names = ["a", "b", "c", "d"]
    return {"room": room, "game": "expedition", "seats": 4, "v": v, "status": "playing", "public": True,
            "players": names, "names": names, "extra": {"pad": "x" * 800}}  # fmt: skip


async def run(kind: str, rounds: int, rooms: int = 250) -> tuple[float, float, int]:
    """(CPU µs, wall µs) per append, and the appends made."""
    from server.store import MemoryStore
    from server.store.sqlite import SqliteStore

    folder = tempfile.mkdtemp(prefix="mp-append-")
    store: Any = (
        SqliteStore(os.path.join(folder, "s.db"), takeover=True, synchronous="NORMAL")
        if kind == "sqlite" else MemoryStore()
    )  # fmt: skip
    ids = [f"r{i}" for i in range(rooms)]
    tokens = {}
    for r in ids:
        await store.create_room(_meta(r, 0))
        tokens[r] = await store.acquire_lease(r, "n1", 10**9)
    move = {"k": "move", "seat": 1, "move": {"a": "play", "card": 12}}
    cpu0, wall0 = time.process_time(), time.perf_counter()
    for v in range(1, rounds + 1):
        await asyncio.gather(*(store.append(r, {"v": v, **move}, _meta(r, v), fence=tokens[r]) for r in ids))
    n = rounds * rooms
    cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
    await store.close()
    return cpu / n * 1e6, wall / n * 1e6, n


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m loadtests.store_append_bench", description=__doc__.split("\n")[0])
    ap.add_argument("--root", help="import `server` from this checkout instead")
    ap.add_argument("--rounds", type=int, default=40, choices=range(1, 1001), metavar="1..1000")
    a = ap.parse_args(argv)
    if a.root:
        sys.path.insert(0, os.path.abspath(a.root))
    for kind in ("sqlite", "memory"):
        cpu, wall, n = asyncio.run(run(kind, a.rounds))
        where = a.root or "this checkout"
        print(f"{kind:6} {n:6} appends: CPU {cpu:6.1f} µs/append, wall {wall:6.1f} µs/append ({where})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
