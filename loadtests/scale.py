"""`python -m loadtests.scale` (`make scale`): the paths that grow with what is stored, at scale and against a
baseline in one run.

A `redis-server` of the bench's own (a free loopback port, no persistence, stopped by its PID at the end) holds two
key prefixes: the baseline (`--base-live` live public rooms, nothing finished) and the scale one (`--finished`
finished rooms and `--live` live public rooms). Both are filled through the room store (`RedisStore`) as nodes
write them: a finished room is created, then finished (its keys expire after seven days); a live room is waiting
(some with a player seated, some empty) or playing (a snapshot of a real game's set-up), of every game, public.
Then, for each prefix, one real node (`python -m server` on the bench's Redis) is measured:

- start-up while another node runs the rooms (their leases held by a node id of the bench's): wall seconds until
  `/healthz` answers 200;
- start-up taking every room over (the leases lapsed: this node loads every live room): wall seconds until
  `/healthz` answers 200 (the node is then serving; rooms not loaded yet are loaded on first use and by the
  background load), and until every room runs on it;
- a lobby page (`list_rooms`, 100 rooms), asked `--pages` times one after the other: median and p95 wall ms, and
  the node's CPU ms per page (its process CPU time over the calls);
- quick match (`quick_match` expedition, 2 seats) by `--matchers` connections in a closed loop for `--seconds`:
  matches answered `joined` per second and the node's CPU ms per match.

The records paths (a game's end with its ratings, a leaderboard page, a player's history) are
`loadtests.records_bench` on a SQLite records file with `--base-accounts` and `--accounts` rated players.

Prints the figures, their scale / baseline ratios and the exact command; keeps the JSON in loadtests/results/.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import json
import os
import platform
import random
import secrets
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import msgpack
from websockets.asyncio.client import ClientConnection, connect

from loadtests import records_bench
from loadtests.bench import ROOT, free_port, http_get, percentile, tree_cpu_s
from server.games import get_game
from server.rooms.meta import RoomMeta
from server.store.base import pack
from server.store.redis import RedisStore

GAMES = ("expedition", "classic", "voyages", "khan")
FINISHED_TTL = 7 * 86400
#: rooms written at once while filling
CHUNK = 2000
#: a finished room's snapshot: a stand-in of a final state's size class (what Redis holds is not what is measured)
FINAL = bytes(300)


# ---- a Redis of the bench's own -------------------------------------------------------------------


class OwnRedis:
    """A redis-server on a free loopback port (no persistence), stopped by its PID."""

    def __init__(self) -> None:
        server = shutil.which("redis-server")
        if server is None:
            raise SystemExit("redis-server is needed")
        self.port = free_port()
        self.dir = tempfile.mkdtemp(prefix="mp-scale-redis-")
        args = [server, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
                "--dir", self.dir, "--logfile", os.path.join(self.dir, "redis.log")]  # fmt: skip
        self.proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.url = f"redis://127.0.0.1:{self.port}/0"

    async def ready(self) -> None:
        for _ in range(100):
            with contextlib.suppress(OSError):
                _reader, writer = await asyncio.open_connection("127.0.0.1", self.port)
                writer.close()
                return
            await asyncio.sleep(0.05)
        raise RuntimeError("the bench's redis-server did not answer")

    def used_memory(self) -> str:
        out = subprocess.run(["redis-cli", "-p", str(self.port), "INFO", "memory"], capture_output=True, text=True)
        found = [ln.split(":")[1].strip() for ln in out.stdout.splitlines() if ln.startswith("used_memory_human")]
        return found[0] if found else "?"

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)
        shutil.rmtree(self.dir, ignore_errors=True)


# ---- filling the store ------------------------------------------------------------------------------


def _setups() -> dict[tuple[str, int], bytes]:
    """A packed set-up state per (game, seats): the snapshot of a playing room."""
    out = {}
    for gid in GAMES:
        game = get_game(gid)
        for seats in (2, 3):
            state = game.setup(seats, game.parse_options({}), 7)
            out[(gid, seats)] = pack(state)
    return out


def _meta(room: str, gid: str, seats: int, status: str, seated: int, created: float) -> dict[str, Any]:
    game = get_game(gid)
    players: list[str | None] = [f"p{room}-{i}" for i in range(seated)] + [None] * (seats - seated)
    names: list[str | None] = [f"Player {i}" for i in range(seated)] + [None] * (seats - seated)
    meta = RoomMeta(
        room=room, game=gid, seats=seats, options=game.parse_options({}).model_dump(), seed=7, public=True,
        created=created, node="bench", v=1 if status == "playing" else seated, status=status, players=players,
        names=names,
    )  # fmt: skip
    return meta.to_dict()


async def fill(url: str, prefix: str, live: int, finished: int, say: Any) -> dict[str, float]:
    """`finished` finished rooms, then `live` live public rooms.

    A live room is written through the room store, as a node writes it (its indexes too). A finished room is
    written as the store leaves one (its meta, its snapshot and a short log, every key expiring with the room),
    in large pipelines, with a 300-byte stand-in snapshot: the store's own writes would take an hour for a million,
    and a finished room is in no index, so what is measured is the same."""
    store = RedisStore(url, prefix=prefix, max_batch=4096, max_connections=16)
    setups = _setups()
    rng = random.Random(prefix)
    now = time.time()
    templates = {(g, n): _meta("", g, n, "finished", n, now) for g in GAMES for n in (2, 3)}
    t0 = time.perf_counter()
    try:
        for start in range(0, finished, 5000):
            async with store.client.pipeline(transaction=False) as pipe:
                for i in range(start, min(finished, start + 5000)):
                    gid, seats = GAMES[i % 4], 2 + i % 2
                    room = f"f{i:07d}"
                    meta = {**templates[(gid, seats)], "room": room, "created": now - 86400 * rng.random()}
                    keys = [store._key(room, "meta"), store._key(room, "snap"), store._key(room, "log")]
                    pipe.hset(keys[0], mapping={"data": pack(meta), "status": "finished", "game": gid, "public": 1,
                                                "log_v": 3})  # fmt: skip
                    pipe.hset(keys[1], mapping={"v": 1, "data": FINAL})
                    for v in (2, 3):
                        pipe.xadd(keys[2], {"e": pack({"v": v, "k": "move", "seat": v % 2, "move": {"i": v}})},
                                  id=f"{v}-0")  # fmt: skip
                    for key in keys:
                        pipe.expire(key, FINISHED_TTL)
                await pipe.execute()
            if start and start % 100_000 == 0:
                say(f"  {start:,} finished rooms ({time.perf_counter() - t0:.0f} s)")
        t_finished = time.perf_counter() - t0
        t1 = time.perf_counter()
        for start in range(0, live, CHUNK):
            chunk = range(start, min(live, start + CHUNK))
            metas, snaps = [], []
            for i in chunk:
                gid, seats = GAMES[i % 4], 2 + (i // 4) % 2
                playing = i % 5 < 3  # three in five playing, the others waiting, a player seated in half of them
                status = "playing" if playing else "waiting"
                seated = seats if playing else (i // 8) % 2
                meta = _meta(f"l{i:06d}", gid, seats, status, seated, now - 3600 * rng.random())
                metas.append(meta)
                if playing:
                    snaps.append((meta["room"], setups[(gid, seats)]))
            await asyncio.gather(*(store.create_room(m) for m in metas))
            await asyncio.gather(*(store.save_snapshot(r, 1, s) for r, s in snaps))
        t_live = time.perf_counter() - t1
    finally:
        await store.close()
    return {"fill_finished_s": t_finished, "fill_live_s": t_live}


async def hold_leases(url: str, prefix: str, node: str, ttl_ms: int) -> list[tuple[str, str]]:
    """Every live room's lease taken by `node` (as if that node ran them), for `ttl_ms`: (room, token) pairs."""
    store = RedisStore(url, prefix=prefix, max_batch=4096)
    held: list[tuple[str, str]] = []
    try:
        cursor: str | None = None
        while True:
            page, cursor = await store.open_rooms(cursor, 2000)
            got = await asyncio.gather(*(store.acquire_lease(r, node, ttl_ms) for r in page))
            held += [(r, t) for r, t in zip(page, got, strict=True) if t]
            if cursor is None:
                return held
    finally:
        await store.close()


async def release_leases(url: str, prefix: str, held: list[tuple[str, str]]) -> None:
    """The leases `hold_leases` took handed back, as a node stopping does (without telling the other nodes)."""
    store = RedisStore(url, prefix=prefix, max_batch=4096)
    try:
        for start in range(0, len(held), CHUNK):
            await asyncio.gather(*(store.release_lease(r, t) for r, t in held[start : start + CHUNK]))
    finally:
        await store.close()


# ---- a node and its clients ------------------------------------------------------------------------


class Node:
    """One `python -m server` on the bench's Redis, under `prefix`."""

    def __init__(self, url: str, prefix: str, node_id: str) -> None:
        self.port = free_port()
        self.log = tempfile.NamedTemporaryFile(prefix="mp-scale-node-", suffix=".log", delete=False)  # noqa: SIM115
        self.args = [
            sys.executable, "-m", "server", "--port", str(self.port), "--store", url, "--prefix", prefix,
            "--node-id", node_id, "--rate", "100000", "--burst", "100000", "--log-level", "INFO",
            "--max-conns-per-addr", "0", "--creates-per-minute", "0", "--waiting-rooms-per-player", "0",
            "--lease-ms", "10000", "--records", "memory",
        ]  # fmt: skip
        self.proc: subprocess.Popen[bytes] | None = None

    async def start(self, timeout: float = 300.0) -> float:
        """Start it; wall seconds until /healthz answers 200."""
        t0 = time.perf_counter()
        self.proc = subprocess.Popen(self.args, cwd=ROOT, stdout=self.log, stderr=subprocess.STDOUT)
        while time.perf_counter() - t0 < timeout:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the node exited ({self.proc.returncode}); see {self.log.name}")
            status = 0
            with contextlib.suppress(OSError, TimeoutError, ValueError, IndexError):
                status, _ = await http_get("127.0.0.1", self.port, "/healthz", timeout=1.0)
            if status == 200:
                return time.perf_counter() - t0
            await asyncio.sleep(0.02)
        raise RuntimeError(f"the node did not answer /healthz in {timeout} s; see {self.log.name}")

    def ready_after_listening(self) -> float:
        """Seconds from "listening" to "ready" in the node's log: its start-up reads and claims, without Python's
        own start (imports), which a loaded machine stretches."""
        stamps: dict[str, float] = {}
        for line in Path(self.log.name).read_text(errors="replace").splitlines():
            for word in ("listening on", "ready: "):
                if word in line and word not in stamps:
                    clock = line.split(" ", 2)[1]
                    hms, _, ms = clock.partition(",")
                    h, m, sec = (int(x) for x in hms.split(":"))
                    stamps[word] = h * 3600 + m * 60 + sec + int(ms or 0) / 1000
        if len(stamps) < 2:
            return float("nan")
        return stamps["ready: "] - stamps["listening on"]

    async def rooms_running(self) -> int:
        _status, body = await http_get("127.0.0.1", self.port, "/metrics", timeout=10.0)
        total = 0
        for line in body.decode().splitlines():
            if line.startswith("mp_rooms{"):
                total += int(float(line.rsplit(" ", 1)[1]))
        return total

    @property
    def cpu_s(self) -> float:
        assert self.proc is not None
        return tree_cpu_s(self.proc.pid)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
        self.log.close()
        with contextlib.suppress(OSError):
            os.unlink(self.log.name)


class Client:
    """A bare WebSocket client: requests with ids, their answers by `re`, pushes ignored."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.ids = itertools.count(1)
        self.waiting: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self.reader = asyncio.get_running_loop().create_task(self._read())

    @classmethod
    async def open(cls, port: int, name: str) -> Client:
        ws = await connect(f"ws://127.0.0.1:{port}/ws", max_size=None, compression=None)
        c = cls(ws)
        await c.request("hello", name=name)
        return c

    async def _read(self) -> None:
        with contextlib.suppress(Exception):
            async for frame in self.ws:
                msg = msgpack.unpackb(frame, raw=False)
                fut = self.waiting.pop(msg.get("re"), None) if isinstance(msg.get("re"), int) else None
                if fut is not None and not fut.done():
                    fut.set_result(msg)

    async def request(self, t: str, **fields: Any) -> dict[str, Any]:
        rid = next(self.ids)
        fut: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.waiting[rid] = fut
        await self.ws.send(msgpack.packb({"t": t, "id": rid, **fields}, use_bin_type=True))
        return await asyncio.wait_for(fut, 60)

    async def close(self) -> None:
        await self.ws.close()
        self.reader.cancel()


async def lobby_pages(node: Node, pages: int) -> dict[str, float]:
    c = await Client.open(node.port, "lobby-reader")
    try:
        for _ in range(5):  # warm up
            await c.request("list_rooms", limit=100)
        walls = []
        cpu0 = node.cpu_s
        for _ in range(pages):
            t0 = time.perf_counter()
            answer = await c.request("list_rooms", limit=100)
            walls.append(time.perf_counter() - t0)
            assert answer["t"] == "rooms", answer
        cpu = node.cpu_s - cpu0
        return {
            "lobby_ms_median": 1000 * statistics.median(walls), "lobby_ms_p95": 1000 * percentile(walls, 95),
            "lobby_cpu_ms": 1000 * cpu / pages, "lobby_rooms": len(answer["rooms"]), "lobby_total": answer["total"],
        }  # fmt: skip
    finally:
        await c.close()


async def quick_matches(node: Node, matchers: int, seconds: float) -> dict[str, float]:
    clients = [await Client.open(node.port, f"m{i}") for i in range(matchers)]
    joined = 0
    errors: dict[str, int] = {}
    stop = False

    async def loop(c: Client) -> None:
        nonlocal joined
        while not stop:
            answer = await c.request("quick_match", game="expedition", seats=2)
            if answer["t"] == "joined":
                joined += 1
            else:
                errors[answer.get("code", "?")] = errors.get(answer.get("code", "?"), 0) + 1

    try:
        tasks = [asyncio.create_task(loop(c)) for c in clients]
        await asyncio.sleep(1.0)  # warm up
        j0, cpu0, t0 = joined, node.cpu_s, time.perf_counter()
        await asyncio.sleep(seconds)
        j1, cpu1, t1 = joined, node.cpu_s, time.perf_counter()
        stop = True
        await asyncio.wait(tasks, timeout=30)
        n = j1 - j0
        return {
            "matches_per_s": n / (t1 - t0), "match_cpu_ms": 1000 * (cpu1 - cpu0) / max(n, 1), "matches": n,
            "match_errors": sum(errors.values()),
        }  # fmt: skip
    finally:
        for c in clients:
            await c.close()


# ---- one prefix -------------------------------------------------------------------------------------


async def measure(url: str, prefix: str, a: argparse.Namespace, say: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    leases = await hold_leases(url, prefix, "bench-other", 600_000)
    held = len(leases)
    joining = Node(url, prefix, "node-joining")
    try:
        out["start_joining_s"] = await joining.start()
        out["start_joining_store_s"] = joining.ready_after_listening()
        out["rooms_run_by_other"] = held
    finally:
        joining.stop()
    # the other node is gone, its leases handed back: a node starting now takes every live room over
    await release_leases(url, prefix, leases)
    node = Node(url, prefix, "node-a")
    try:
        out["start_takeover_s"] = await node.start()
        out["start_takeover_store_s"] = node.ready_after_listening()
        t0 = time.perf_counter()
        while await node.rooms_running() < held and time.perf_counter() - t0 < 600:
            await asyncio.sleep(0.2)
        out["start_all_loaded_s"] = out["start_takeover_s"] + time.perf_counter() - t0
        out["rooms_loaded"] = await node.rooms_running()
        say(f"  start-up: {out['start_joining_s']:.2f} s joining, {out['start_takeover_s']:.2f} s taking over "
            f"({out['rooms_loaded']:,} rooms running after {out['start_all_loaded_s']:.1f} s)")  # fmt: skip
        out.update(await lobby_pages(node, a.pages))
        say(f"  lobby page: {out['lobby_ms_median']:.2f} ms median, {out['lobby_cpu_ms']:.2f} ms node CPU")
        out.update(await quick_matches(node, a.matchers, a.seconds))
        say(f"  quick match: {out['matches_per_s']:.0f}/s, {out['match_cpu_ms']:.2f} ms node CPU each")
    finally:
        node.stop()
    return out


ROWS = (
    ("node start-up, another node runs the rooms: process start to /healthz 200 (s)", "start_joining_s", "{:.2f}"),
    ("... listening to ready (its reads of the store) (s)", "start_joining_store_s", "{:.2f}"),
    ("node start-up, taking every room over: /healthz 200 (s)", "start_takeover_s", "{:.2f}"),
    ("... listening to ready (s)", "start_takeover_store_s", "{:.2f}"),
    ("... every room running on it (s)", "start_all_loaded_s", "{:.1f}"),
    ("lobby page (100 rooms) median wall (ms)", "lobby_ms_median", "{:.2f}"),
    ("lobby page p95 wall (ms)", "lobby_ms_p95", "{:.2f}"),
    ("lobby page node CPU (ms)", "lobby_cpu_ms", "{:.2f}"),
    ("quick matches per second (one node)", "matches_per_s", "{:.0f}"),
    ("quick match node CPU (ms)", "match_cpu_ms", "{:.2f}"),
)


def table(base: dict[str, Any], scale: dict[str, Any], a: argparse.Namespace) -> list[str]:
    head = (f"| | baseline: {a.base_live:,} live rooms | {a.live:,} live + {a.finished:,} finished rooms "
            "| scale / baseline |")  # fmt: skip
    lines = [head, "|---|---|---|---|"]
    for label, key, fmt in ROWS:
        ratio = scale[key] / base[key] if base.get(key) else float("nan")
        lines.append(f"| {label} | {fmt.format(base[key])} | {fmt.format(scale[key])} | {ratio:.2f}x |")
    return lines


def parse(argv: list[str] | None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--finished", type=int, default=1_000_000, help="finished rooms (scale prefix)")
    ap.add_argument("--live", type=int, default=25_000, help="live public rooms (scale prefix)")
    ap.add_argument("--base-live", type=int, default=100, help="live public rooms (baseline prefix)")
    ap.add_argument("--accounts", type=int, default=100_000, help="rated accounts (records, scale)")
    ap.add_argument("--base-accounts", type=int, default=100, help="rated accounts (records, baseline)")
    ap.add_argument("--ends", type=int, default=200, help="game ends measured on the records database")
    ap.add_argument("--pages", type=int, default=200, help="lobby pages asked")
    ap.add_argument("--matchers", type=int, default=64, help="connections asking for quick matches")
    ap.add_argument("--seconds", type=float, default=10.0, help="seconds of quick matches measured")
    ap.add_argument("--skip-records", action="store_true", help="leave out the records database")
    ap.add_argument("--results", default=str(ROOT / "loadtests" / "results"), help="folder of the JSON kept")
    a = ap.parse_args(argv)
    for name in ("finished", "live", "base_live", "accounts", "base_accounts", "ends", "pages", "matchers"):
        if not 0 <= getattr(a, name) <= 5_000_000:
            ap.error(f"--{name.replace('_', '-')} must be 0..5,000,000")
    return a


async def main_async(a: argparse.Namespace, argv: list[str]) -> int:
    def say(text: str) -> None:
        print(text, flush=True)

    redis = OwnRedis()
    results: dict[str, Any] = {"command": "python -m loadtests.scale " + " ".join(argv), "started": time.time(),
                               "machine": f"{os.cpu_count()} cores, Python {platform.python_version()}"}  # fmt: skip
    try:
        await redis.ready()
        base, scale = f"mpscale:base:{secrets.token_hex(3)}:", f"mpscale:big:{secrets.token_hex(3)}:"
        say(f"filling: baseline {a.base_live:,} live rooms; scale {a.finished:,} finished + {a.live:,} live ...")
        results["fill_base"] = await fill(redis.url, base, a.base_live, 0, say)
        results["fill_scale"] = await fill(redis.url, scale, a.live, a.finished, say)
        results["redis_memory"] = redis.used_memory()
        say(f"  filled in {results['fill_scale']['fill_finished_s'] + results['fill_scale']['fill_live_s']:.0f} s; "
            f"Redis uses {results['redis_memory']}")  # fmt: skip
        say("baseline:")
        results["base"] = await measure(redis.url, base, a, say)
        say("scale:")
        results["scale"] = await measure(redis.url, scale, a, say)
    finally:
        redis.stop()
    lines = table(results["base"], results["scale"], a)
    if not a.skip_records:
        say(f"records: {a.base_accounts:,} and {a.accounts:,} rated accounts, {a.ends} game ends ...")
        rec = await records_bench.run(["sqlite"], [a.base_accounts, a.accounts], a.ends, say=say)
        results["records"] = rec
        lines += ["", *records_bench.table(rec), "", *records_bench.ratios(rec)]
    print("\n".join(lines))
    out = Path(a.results) / f"scale-{time.strftime('%Y%m%d-%H%M%S')}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(results, indent=2, default=str))
    print(f"\n{results['command']}\nJSON: {out}")
    return 0


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    return asyncio.run(main_async(parse(argv), argv))


if __name__ == "__main__":
    raise SystemExit(main())
