"""`python -m loadtests.bench`: drive Expedition rooms of random-move bots against a server and print figures.

By default the server runs as a subprocess (`python -m server ...` on a free port, a fresh `mpbench:<hex>:`
key prefix, client seeds allowed, a generous rate limit) so that server and bots do not share one event
loop or one GIL. All bots live in this process, on one asyncio loop, each with its own WebSocket.

Every room has `--seats` bots. A bot moves only when its view shows a prompt, picks a random option, and
after a `not_your_turn` / `illegal_move` (a prompt gone stale) waits for the next change of its view. When a
game ends, the room's bots leave it, create a new room and play again, until `--seconds` have passed.

Figures: acknowledged moves per second; move-to-patch latency (from sending a move to receiving the mover's
own patch for the version the move made: that patch arrives before the `ok`); move-to-ok latency; mean raw
frame sizes of patches and of snapshots; rooms finished; errors by code; CPU of bots and server; server
memory. Redis keys under the run's prefix are deleted at the end (SCAN + DEL).

Examples:
    python -m loadtests.bench --rooms 20 --seconds 20 --store both
    python -m loadtests.bench --url ws://127.0.0.1:8765/ws --rooms 10
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import re
import secrets
import signal
import socket
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from websockets.exceptions import ConnectionClosed, InvalidHandshake

from clients.client import Client, ServerError

GAME = "expedition"
DEFAULT_REDIS = "redis://127.0.0.1:6379/0"
ROOT = Path(__file__).resolve().parent.parent
#: errors a bot expects from a prompt gone stale: it waits for the next change of its view
STALE = ("not_your_turn", "illegal_move", "stale")
#: errors worth a short pause and another try
RETRY = ("rate_limited", "unavailable")
#: a room whose views have not changed for this long is given up as stalled
STALL_SECONDS = 15.0


# ---- figures ---------------------------------------------------------------------------------


def percentile(values: list[float], q: float) -> float:
    """The q-th percentile (0..100) by the nearest-rank method; NaN for no values."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    rank = max(1, min(len(ordered), int(-(-q * len(ordered) // 100))))
    return ordered[rank - 1]


@dataclass
class Stats:
    """What the bots measured. Latencies are in seconds."""

    moves: int = 0
    move_patch: list[float] = field(default_factory=list)
    move_ok: list[float] = field(default_factory=list)
    missing_patch: int = 0  # an ok whose own patch did not arrive first (should stay 0)
    patch_frames: int = 0
    patch_bytes: int = 0
    own_patch_frames: int = 0
    own_patch_bytes: int = 0
    snapshot_frames: int = 0  # snapshots of views in play (`sync` answers a bot asks for once a game)
    snapshot_bytes: int = 0
    join_snapshot_frames: int = 0  # snapshots after `join` (the waiting room's small view)
    join_snapshot_bytes: int = 0
    rooms_started: int = 0
    rooms_finished: int = 0
    errors: Counter[str] = field(default_factory=Counter)


@dataclass
class Report:
    """One run's figures (`summary()` is what the command prints)."""

    label: str
    rooms: int
    seats: int
    seconds: float  # measured wall time of the play phase
    stats: Stats
    bot_cpu: float = 0.0  # fraction of one core used by the bot process during play
    machine_cpu: float | None = None  # cores busy on the whole machine during play (all processes)
    server: dict[str, Any] = field(default_factory=dict)

    @property
    def moves_per_s(self) -> float:
        return self.stats.moves / self.seconds if self.seconds > 0 else 0.0

    @property
    def mean_patch_bytes(self) -> float:
        s = self.stats
        return s.patch_bytes / s.patch_frames if s.patch_frames else float("nan")

    @property
    def mean_snapshot_bytes(self) -> float:
        s = self.stats
        return s.snapshot_bytes / s.snapshot_frames if s.snapshot_frames else float("nan")

    def figures(self) -> dict[str, Any]:
        s = self.stats
        ms = 1000.0
        own = s.own_patch_bytes / s.own_patch_frames if s.own_patch_frames else float("nan")
        return {
            "label": self.label,
            "rooms": self.rooms,
            "seats": self.seats,
            "seconds": round(self.seconds, 2),
            "moves": s.moves,
            "moves_per_s": round(self.moves_per_s, 1),
            "move_patch_ms": {q: round(percentile(s.move_patch, q) * ms, 2) for q in (50, 95, 99)}
            | {"max": round(max(s.move_patch, default=float("nan")) * ms, 2)},
            "move_ok_ms": {q: round(percentile(s.move_ok, q) * ms, 2) for q in (50, 99)},
            "missing_patch": s.missing_patch,
            "patch_mean_bytes": round(self.mean_patch_bytes, 1),
            "patch_frames": s.patch_frames,
            "own_patch_mean_bytes": round(own, 1),
            "snapshot_mean_bytes": round(self.mean_snapshot_bytes, 1),
            "snapshot_frames": s.snapshot_frames,
            "join_snapshot_mean_bytes": round(
                s.join_snapshot_bytes / s.join_snapshot_frames if s.join_snapshot_frames else float("nan"), 1
            ),
            "rooms_started": s.rooms_started,
            "rooms_finished": s.rooms_finished,
            "errors": dict(sorted(s.errors.items())),
            "bot_cpu": round(self.bot_cpu, 2),
            "machine_cpu": None if self.machine_cpu is None else round(self.machine_cpu, 2),
            "server": self.server,
        }

    def summary(self) -> str:
        f = self.figures()
        s = self.stats
        mp, mo = f["move_patch_ms"], f["move_ok_ms"]
        errors = ", ".join(f"{k}={v}" for k, v in f["errors"].items()) or "none"
        lines = [
            f"== {self.label}: {self.rooms} rooms x {self.seats} seats, {self.seconds:.1f} s ==",
            f"moves/s            {f['moves_per_s']:.1f}  ({s.moves} ok)",
            f"move->patch ms     p50 {mp[50]:.2f}  p95 {mp[95]:.2f}  p99 {mp[99]:.2f}  max {mp['max']:.2f}",
            f"move->ok ms        p50 {mo[50]:.2f}  p99 {mo[99]:.2f}",
            f"frame bytes        patch mean {f['patch_mean_bytes']:.0f} ({s.patch_frames} frames; the mover's own"
            f" {f['own_patch_mean_bytes']:.0f})",
            f"                   snapshot mean {f['snapshot_mean_bytes']:.0f} ({s.snapshot_frames} in-game syncs;"
            f" {f['join_snapshot_mean_bytes']:.0f} at join, before the start)",
            f"rooms              finished {s.rooms_finished}  (started {s.rooms_started})",
            f"errors             {errors}",
        ]
        if s.missing_patch:
            lines.append(f"oks without own patch first: {s.missing_patch}")
        cpu = f"cpu                bots {self.bot_cpu * 100:.0f}% of a core"
        srv = self.server
        if "cpu" in srv:
            cpu += f"  server {srv['cpu'] * 100:.0f}% of a core"
        if self.machine_cpu is not None:
            cpu += f"  whole machine {self.machine_cpu * 100:.0f}% of a core ({os.cpu_count()} cores)"
            if "cpu" in srv:
                other = max(0.0, self.machine_cpu - self.bot_cpu - srv["cpu"])
                cpu += f", other processes ~{other * 100:.0f}%"
        lines.append(cpu)
        if "rss_mib" in srv:
            lines.append(
                f"server memory      rss {srv['rss_start_mib']:.0f} MiB at start of play, {srv['rss_mib']:.0f} MiB"
                f" at end, peak {srv['hwm_mib']:.0f} MiB"
            )
        if "move_mean_ms" in srv:
            line = f"server-side        move mean {srv['move_mean_ms']:.2f} ms"
            if "append_mean_ms" in srv:
                line += f"  store append mean {srv['append_mean_ms']:.2f} ms"
            lines.append(line)
        if srv.get("redis_keys") is not None:
            lines.append(f"redis keys         {srv['redis_keys']} under the prefix at the end (deleted)")
        if srv.get("stop_problem"):
            lines.append(f"server stop        {srv['stop_problem']}")
        if srv.get("log_problems"):
            lines.append(f"server log         {srv['log_problems']} warning/error lines in {srv['log']}, e.g.:")
            lines.extend(f"  {line}" for line in srv.get("log_sample", []))
        return "\n".join(lines)


# ---- bots ------------------------------------------------------------------------------------


class _FrameMeter(list):  # type: ignore[type-arg]
    """Stands in for `Client.frames`: keeps only the size of the latest frame, not the frame."""

    __slots__ = ("last",)

    def __init__(self) -> None:
        super().__init__()
        self.last = 0

    def append(self, frame: bytes) -> None:  # type: ignore[override]
        self.last = len(frame)


def apply_in_place(doc: Any, ops: list[dict[str, Any]]) -> Any:
    """Apply a server's diff (add / remove / replace only) to `doc` in place, trusting its shape.

    The lean twin of `protocol.patch.apply_patch`: no copies, no validation beyond what Python raises
    (KeyError, IndexError, ValueError, TypeError) for a patch that does not fit.
    """
    for op in ops:
        kind, path = op["op"], op["path"]
        if not path:
            if kind not in ("add", "replace"):
                raise ValueError(f"cannot {kind} the whole document")
            doc = op["value"]
            continue
        tokens = path[1:].split("/")
        if "~" in path:
            tokens = [t.replace("~1", "/").replace("~0", "~") for t in tokens]
        parent = doc
        for token in tokens[:-1]:
            parent = parent[int(token)] if type(parent) is list else parent[token]
        last = tokens[-1]
        if type(parent) is list:
            if kind == "add":
                parent.insert(len(parent) if last == "-" else int(last), op["value"])
            elif kind == "replace":
                parent[int(last)] = op["value"]
            elif kind == "remove":
                del parent[int(last)]
            else:
                raise ValueError(f"unexpected op {kind!r}")
        elif kind == "add":
            parent[last] = op["value"]
        elif kind == "replace":
            if last not in parent:
                raise KeyError(last)
            parent[last] = op["value"]
        elif kind == "remove":
            del parent[last]
        else:
            raise ValueError(f"unexpected op {kind!r}")
    return doc


class LightClient(Client):
    """A Client that applies patches in place (its view is its own, nothing else holds it) and lean.

    The stock Client copies the whole view for every patch and checks every pointer: with hundreds of
    bots in one process that, not the server, would set the pace. A patch that does not apply, a gap,
    and every other message go through the stock code (which re-syncs).
    """

    patch_failures = 0

    async def _handle(self, msg: dict[str, Any]) -> None:
        if msg.get("t") == "patch":
            rv = self.views.get(msg["room"])
            if rv is not None and rv.v == msg["base"]:
                try:
                    rv.state = apply_in_place(rv.state, msg["ops"])
                except (KeyError, IndexError, ValueError, TypeError):
                    self.patch_failures += 1
                    rv.v = -1  # the view is damaged: the stock path sees a gap and asks for a snapshot
                else:
                    rv.v = msg["v"]
                    rv.patches += 1
                    self._updated(rv)
                    return
        await super()._handle(msg)


class Bot:
    """One seat's player: a Client plus the bookkeeping for latencies and frame sizes."""

    def __init__(
        self,
        url: str,
        name: str,
        stats: Stats,
        rng: random.Random,
        stock: bool = False,
        sync_after: tuple[int, int] = (1, 80),
    ) -> None:
        self.client = Client(url) if stock else LightClient(url)
        self.sync_after = sync_after
        self.meter = _FrameMeter()
        self.client.frames = self.meter
        self.client.on_update = self._on_update
        self.name = name
        self.stats = stats
        self.rng = rng
        self.changed = asyncio.Event()
        self.updates = 0
        self._patches = 0  # RoomView.patches at the latest update: tells a patch from a snapshot
        self._pending = False
        self._syncing = False
        self._sync_at = 0  # this bot asks for a snapshot after its n-th move in a room
        self._moved = 0
        self._patch_at: dict[int, tuple[float, int]] = {}  # version -> (arrival, size), while a move is out

    async def start(self) -> None:
        await self.client.connect()
        await self.client.hello(self.name)

    async def close(self) -> None:
        with contextlib.suppress(Exception):
            await self.client.close()
        failures = getattr(self.client, "patch_failures", 0)
        if failures:
            self.stats.errors["patch_did_not_apply"] += failures
            self.client.patch_failures = 0

    def _on_update(self, room: str) -> None:
        now = time.perf_counter()
        rv = self.client.views[room]
        size = self.meter.last
        if rv.patches != self._patches:
            self._patches = rv.patches
            self.stats.patch_frames += 1
            self.stats.patch_bytes += size
            if self._pending:
                self._patch_at[rv.v] = (now, size)
        elif self._syncing:
            self.stats.snapshot_frames += 1
            self.stats.snapshot_bytes += size
        else:
            self.stats.join_snapshot_frames += 1
            self.stats.join_snapshot_bytes += size
        self.updates += 1
        self.changed.set()

    async def join(self, room: str) -> None:
        self._patches = 0
        self._moved = 0
        self._sync_at = self.rng.randint(*self.sync_after)  # a 3-seat game gives a bot about 90 moves
        await self.client.join(room)

    async def _sample_snapshot(self, room: str) -> None:
        """Ask for a snapshot of the view in play, to weigh a full view against the patches."""
        self._syncing = True
        try:
            await self.client.sync(room)
        finally:
            self._syncing = False

    async def leave(self, room: str) -> None:
        with contextlib.suppress(ServerError):
            await self.client.request("leave", room=room)
        self.client.views.pop(room, None)

    async def _wait_update(self, seen: int, stop_at: float) -> bool:
        """Wait for an update after the `seen`-th; False at the deadline or when stalled."""
        limit = min(stop_at, time.monotonic() + STALL_SECONDS)
        while self.updates <= seen:
            if self.client.closed.is_set():
                raise ConnectionError("connection closed")
            self.changed.clear()
            left = limit - time.monotonic()
            if left <= 0:
                if time.monotonic() < stop_at:
                    self.stats.errors["stalled"] += 1
                return False
            with contextlib.suppress(TimeoutError):  # wake up now and then to notice a closed connection
                await asyncio.wait_for(self.changed.wait(), min(left, 1.0))
        return True

    async def play(self, room: str, stop_at: float) -> bool:
        """Play until the game ends (True) or the deadline passes (False)."""
        rv = self.client.views[room]
        while True:
            state = rv.state
            if state.get("result") is not None:
                return True
            if time.monotonic() >= stop_at:
                return False
            prompt = state.get("prompt")
            seen = self.updates
            if not (prompt and prompt.get("options")):
                if not await self._wait_update(seen, stop_at):
                    return False
                continue
            move = self.rng.choice(prompt["options"])
            self._patch_at.clear()
            self._pending = True
            t0 = time.perf_counter()
            try:
                v = await self.client.move(room, move)
            except ServerError as err:
                self.stats.errors[err.code] += 1
                if err.code in RETRY:
                    await asyncio.sleep(0.05)
                elif not await self._wait_update(seen, stop_at):  # stale or refused: wait for news
                    return False
                continue
            finally:
                self._pending = False
            t1 = time.perf_counter()
            self.stats.moves += 1
            self.stats.move_ok.append(t1 - t0)
            own = self._patch_at.get(v)
            if own is None:
                self.stats.missing_patch += 1
            else:
                self.stats.move_patch.append(own[0] - t0)
                self.stats.own_patch_frames += 1
                self.stats.own_patch_bytes += own[1]
            self._moved += 1
            if self._moved == self._sync_at:
                await self._sample_snapshot(room)


def _error_code(exc: BaseException) -> str:
    if isinstance(exc, ServerError):
        return exc.code
    if isinstance(exc, TimeoutError):
        return "timeout"
    if isinstance(exc, ConnectionError | ConnectionClosed | InvalidHandshake | OSError):
        return "connection_lost"
    return type(exc).__name__


class Table:
    """One room's worth of bots, playing game after game until the deadline."""

    def __init__(self, index: int, url: str, seats: int, stats: Stats, rng: random.Random, **bot_options: Any) -> None:
        self.index = index
        self.bot_options = bot_options
        self.url = url
        self.seats = seats
        self.stats = stats
        self.rng = rng
        self.bots: list[Bot] = []
        self.use_seed = True
        self._generation = 0

    async def seat_bots(self) -> None:
        self._generation += 1
        self.bots = [
            Bot(
                self.url,
                f"t{self.index}g{self._generation}s{i}",
                self.stats,
                random.Random(self.rng.random()),
                **self.bot_options,
            )
            for i in range(self.seats)
        ]
        await asyncio.gather(*(b.start() for b in self.bots))

    async def close(self) -> None:
        await asyncio.gather(*(b.close() for b in self.bots))
        self.bots = []

    async def _create(self) -> str:
        creator = self.bots[0].client
        if self.use_seed:
            try:
                return await creator.create(GAME, self.seats, options={"seed": self.rng.randrange(2**63)})
            except ServerError as err:
                if err.code != "forbidden":
                    raise
                self.use_seed = False  # a server without --allow-client-seed: let it draw seeds
        return await creator.create(GAME, self.seats)

    async def run(self, stop_at: float) -> None:
        try:
            while time.monotonic() < stop_at:
                try:
                    if not self.bots:
                        await self.seat_bots()
                    room = await self._create()
                    self.stats.rooms_started += 1
                    for bot in self.bots:
                        await bot.join(room)
                    async with asyncio.TaskGroup() as tg:
                        plays = [tg.create_task(bot.play(room, stop_at)) for bot in self.bots]
                    if all(p.result() for p in plays):
                        self.stats.rooms_finished += 1
                    # leave, so that the server may drop the finished room from memory
                    await asyncio.gather(*(bot.leave(room) for bot in self.bots))
                except* Exception as eg:  # counted by code or type; the table starts over on new connections
                    self.stats.errors[_error_code(eg.exceptions[0])] += 1
                    await self.close()
                    await asyncio.sleep(0.2)
        finally:
            await self.close()


async def run_load(
    url: str,
    *,
    rooms: int,
    seats: int = 3,
    seconds: float = 10.0,
    seed: int = 1,
    stock: bool = False,
    sync_after: tuple[int, int] = (1, 80),
) -> Report:
    """The core: connect `rooms * seats` bots, play for `seconds`, close every connection, return figures.

    `stock` makes the bots use the stock `Client` (a copy of the view per patch) instead of `LightClient`.
    Each bot asks once per game for a snapshot (`sync`) after a random number of its moves in `sync_after`.
    """
    stats = Stats()
    master = random.Random(seed)
    tables = [
        Table(i, url, seats, stats, random.Random(master.random()), stock=stock, sync_after=sync_after)
        for i in range(rooms)
    ]
    try:
        # connections are set up before the clock starts (in batches, not to look like a SYN flood)
        for i in range(0, rooms, 25):
            await asyncio.gather(*(t.seat_bots() for t in tables[i : i + 25]))
        cpu0, t0, machine0 = time.process_time(), time.perf_counter(), _machine_ticks()
        stop_at = time.monotonic() + seconds
        await asyncio.gather(*(t.run(stop_at) for t in tables))
        elapsed = time.perf_counter() - t0
        cpu = (time.process_time() - cpu0) / elapsed if elapsed > 0 else 0.0
        machine1 = _machine_ticks()
        machine = None
        if machine0 and machine1 and machine1[1] > machine0[1]:
            busy, total = machine1[0] - machine0[0], machine1[1] - machine0[1]
            machine = busy / total * (os.cpu_count() or 1)
    finally:
        await asyncio.gather(*(t.close() for t in tables))
    return Report(label=url, rooms=rooms, seats=seats, seconds=elapsed, stats=stats, bot_cpu=cpu, machine_cpu=machine)


def _machine_ticks() -> tuple[int, int] | None:
    """(busy, total) CPU ticks of the whole machine so far, from /proc/stat (None without it)."""
    try:
        fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    except (OSError, ValueError):
        return None
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)  # idle + iowait
    return sum(fields[:8]) - idle, sum(fields[:8])


# ---- the server subprocess -------------------------------------------------------------------


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def http_get(host: str, port: int, path: str, timeout: float = 5.0) -> tuple[int, bytes]:
    """A bare HTTP/1.1 GET (no extra dependency); returns (status, body)."""

    async def go() -> tuple[int, bytes]:
        reader, writer = await asyncio.open_connection(host, port)
        try:
            writer.write(f"GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n".encode())
            await writer.drain()
            data = await reader.read()
        finally:
            writer.close()
            with contextlib.suppress(Exception):
                await writer.wait_closed()
        head, _, body = data.partition(b"\r\n\r\n")
        return int(head.split(b" ", 2)[1]), body

    return await asyncio.wait_for(go(), timeout)


def _proc_figures(pid: int) -> dict[str, float]:
    """RSS, peak RSS (MiB) and CPU seconds of a process, from /proc (empty where there is no /proc)."""
    out: dict[str, float] = {}
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                out["rss_mib"] = int(line.split()[1]) / 1024
            elif line.startswith("VmHWM:"):
                out["hwm_mib"] = int(line.split()[1]) / 1024
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        out["cpu_s"] = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        pass
    return out


def _metric_mean(text: str, name: str, labels: str = "") -> float | None:
    """Mean of a Prometheus histogram (sum / count) in the text exposition, in ms."""

    def value(suffix: str) -> float | None:
        m = re.search(rf"^{name}_{suffix}{re.escape(labels)} ([0-9.eE+-]+)$", text, re.MULTILINE)
        return float(m.group(1)) if m else None

    total, count = value("sum"), value("count")
    if not total or not count:
        return None
    return total / count * 1000.0


def _default_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


class ServerProcess:
    """`python -m server` on a free port, started and stopped around a run."""

    def __init__(self, store: str, prefix: str) -> None:
        self.store = store
        self.prefix = prefix
        self.port = free_port()
        self.proc: asyncio.subprocess.Process | None = None
        self.stop_problem: str | None = None
        self.log = tempfile.NamedTemporaryFile(prefix="mpbench-server-", suffix=".log", delete=False)  # noqa: SIM115

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    async def start(self, timeout: float = 20.0) -> None:
        args = ["--port", str(self.port), "--store", self.store, "--prefix", self.prefix]
        args += ["--allow-client-seed", "--rate", "1000", "--burst", "2000", "--log-level", "WARNING"]
        # every bot connects from loopback: no per-address limits (docs/security.md)
        args += ["--max-conns-per-addr", "0", "--creates-per-minute", "0", "--waiting-rooms-per-player", "0"]
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "server",
            *args,
            cwd=ROOT,
            stdout=self.log,
            stderr=asyncio.subprocess.STDOUT,
            # a shell without job control starts background jobs with SIGINT ignored, and Python keeps it
            # so: restore it, or `stop` could not ask the server to shut down cleanly
            preexec_fn=_default_sigint,
        )
        deadline = time.monotonic() + timeout
        while True:
            if self.proc.returncode is not None:
                raise RuntimeError(f"the server exited with {self.proc.returncode}; see {self.log.name}")
            with contextlib.suppress(OSError, TimeoutError, ValueError, IndexError):
                status, _ = await http_get("127.0.0.1", self.port, "/healthz", timeout=1.0)
                if status == 200:
                    return
            if time.monotonic() > deadline:
                raise RuntimeError(f"the server did not answer /healthz in {timeout} s; see {self.log.name}")
            await asyncio.sleep(0.1)

    def figures(self) -> dict[str, float]:
        return _proc_figures(self.proc.pid) if self.proc is not None else {}

    async def metrics(self) -> str:
        with contextlib.suppress(OSError, TimeoutError, ValueError, IndexError):
            status, body = await http_get("127.0.0.1", self.port, "/metrics")
            if status == 200:
                return body.decode()
        return ""

    async def stop(self) -> None:
        if self.proc is not None and self.proc.returncode is None:
            self.proc.send_signal(signal.SIGINT)  # the server stops its rooms and store cleanly on Ctrl-C
            try:
                await asyncio.wait_for(self.proc.wait(), 10)
            except TimeoutError:
                self.stop_problem = "did not stop within 10 s of SIGINT: killed"
                self.proc.kill()
                await self.proc.wait()
        self.log.close()

    def log_problems(self, sample: int = 5) -> tuple[int, list[str]]:
        """Warning / error lines the server logged, and a few of them (deduplicated)."""
        text = Path(self.log.name).read_text(errors="replace")
        bad = [ln for ln in text.splitlines() if re.search(r" (WARNING|ERROR|CRITICAL) |Traceback", ln)]
        seen: list[str] = []
        for ln in bad:
            short = re.sub(r"^\S+ \S+ ", "", ln)[:160]
            if short not in seen:
                seen.append(short)
        return len(bad), seen[:sample]


async def clean_redis(url: str, prefix: str) -> int:
    """Delete every key under `prefix` (SCAN + DEL); returns how many there were."""
    import redis.asyncio as aredis

    r = aredis.Redis.from_url(url)
    n = 0
    try:
        batch: list[bytes] = []
        async for key in r.scan_iter(match=prefix + "*", count=1000):
            batch.append(key)
            if len(batch) >= 500:
                n += await r.delete(*batch)
                batch = []
        if batch:
            n += await r.delete(*batch)
    finally:
        await r.aclose()
    return n


async def bench_store(store: str, *, rooms: int, seats: int, seconds: float, seed: int, stock: bool = False) -> Report:
    """Start a server subprocess on `store`, run the load, gather server figures, stop, clean up."""
    prefix = f"mpbench:{secrets.token_hex(4)}:"
    server = ServerProcess(store, prefix)
    label = "memory" if store == "memory" else f"redis ({urlsplit(store).netloc})"
    try:
        await server.start()
        before = server.figures()
        report = await run_load(server.url, rooms=rooms, seats=seats, seconds=seconds, seed=seed, stock=stock)
        after = server.figures()
        metrics = await server.metrics()
    finally:
        await server.stop()
        keys = await clean_redis(store, prefix) if store.startswith("redis") else None
    report.label = label
    srv: dict[str, Any] = {"log": server.log.name}
    if "cpu_s" in after and "cpu_s" in before:
        srv["cpu"] = round((after["cpu_s"] - before["cpu_s"]) / report.seconds, 2)
    if "rss_mib" in after:
        srv |= {"rss_start_mib": before.get("rss_mib", 0.0), "rss_mib": after["rss_mib"], "hwm_mib": after["hwm_mib"]}
    move_mean = _metric_mean(metrics, "mp_move_latency_seconds")
    if move_mean is not None:
        srv["move_mean_ms"] = round(move_mean, 3)
    append_mean = _metric_mean(metrics, "mp_store_latency_seconds", '{op="append"}')
    if append_mean is not None:
        srv["append_mean_ms"] = round(append_mean, 3)
    srv["redis_keys"] = keys
    if server.stop_problem:
        srv["stop_problem"] = server.stop_problem
    count, sample = server.log_problems()
    if count:
        srv["log_problems"], srv["log_sample"] = count, sample
    else:
        Path(server.log.name).unlink(missing_ok=True)  # kept only when it has something to show
        del srv["log"]
    report.server = srv
    return report


# ---- command line ----------------------------------------------------------------------------


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(prog="python -m loadtests.bench", description=__doc__.split("\n\n")[0])
    ap.add_argument("--rooms", type=int, default=20, help="concurrent rooms (default 20)")
    ap.add_argument("--seats", type=int, default=3, help="bots per room, 2..5 (default 3)")
    ap.add_argument("--seconds", type=float, default=20.0, help="length of the play phase (default 20)")
    ap.add_argument(
        "--store",
        default="memory",
        help=f"memory (default), redis://host:port/db, or both (memory, then {DEFAULT_REDIS})",
    )
    ap.add_argument("--url", help="target a running server (ws://host:port/ws) instead of starting one")
    ap.add_argument("--seed", type=int, default=1, help="seeds the bots' choices and the rooms' decks")
    ap.add_argument("--stock-client", action="store_true", help="bots use the stock Client (copies the view per patch)")
    ap.add_argument("--json", dest="json_path", help="also write the figures as JSON to this file")
    a = ap.parse_args(argv)
    if not 2 <= a.seats <= 5:
        ap.error("--seats must be 2..5")
    if a.rooms < 1 or a.seconds <= 0:
        ap.error("--rooms and --seconds must be positive")
    return a


async def amain(a: argparse.Namespace) -> list[Report]:
    reports: list[Report] = []
    if a.url:
        report = await run_load(
            a.url, rooms=a.rooms, seats=a.seats, seconds=a.seconds, seed=a.seed, stock=a.stock_client
        )
        report.label = f"external {a.url}"
        print(report.summary(), flush=True)
        return [report]
    stores = ["memory", DEFAULT_REDIS] if a.store == "both" else [a.store]
    for store in stores:
        report = await bench_store(
            store, rooms=a.rooms, seats=a.seats, seconds=a.seconds, seed=a.seed, stock=a.stock_client
        )
        print(report.summary(), flush=True)
        reports.append(report)
    return reports


def main(argv: list[str] | None = None) -> int:
    a = parse(argv)
    reports = asyncio.run(amain(a))
    if a.json_path:
        Path(a.json_path).write_text(json.dumps([r.figures() for r in reports], indent=2) + "\n")
    return 1 if any(r.stats.moves == 0 for r in reports) else 0


if __name__ == "__main__":
    sys.exit(main())
