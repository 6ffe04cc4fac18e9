"""`python -m loadtests.bench`: the same load against the bundled baseline and the real server, in one run.

Each run starts `python -m loadtests.baseline` (a bare server speaking the same wire contract for a trivial
game, see that module) and then `python -m server`, each as a subprocess on a free port, drives both with
the same load, and prints each one's figures and the ratios real / baseline. `--only real|baseline` runs
one of them; `--url ws://...` drives a running server instead (no server figures).

Modes:
- `--mode closed` (default): one move in flight per room. A room's next move is sent once every seat holds
  the version the previous move made (its whole fan-out), by a seat whose prompt has options.
- `--mode open --think 1.0`: every seat moves `--think` seconds after the frame that gave it its prompt,
  whatever the others do (moves are sent with `v`, so a prompt gone stale is refused with `stale`).
- `--mode idle --connections N`: N connections that say `hello` and then stay idle; the figure is the
  server's RSS per connection (RSS with them, less RSS before them, over N).

Every seat is one WebSocket. A room plays `--game` with `--seats` seats; moves are drawn from the prompt's
options; when a game ends its seats leave, create a new room and play again. Every seat asks for a snapshot
(`sync`) once per game at a random move, so the snapshot figure is that of a view in play. The load runs in
this process, or with `--clients K` in K processes (rooms dealt out among them). Connections, `hello` and
the first room of every table are set up before the clock starts; the figures cover `--seconds` of play.

Figures, per server: moves/s (acknowledged within the window); server CPU per move in µs (utime + stime from
/proc of the server process and every process below it, so `--workers N` counts whole, plus exited children);
move->ok and move->last-patch (the time from sending a move until the last seat of the room holds the
version it made) at p50 / p99 / p99.9; errors by code; the median patch frame against the median in-game
snapshot frame; server RSS (sum over its processes) and peak; the load processes' own CPU.

Examples:
    python -m loadtests.bench --rooms 250 --seats 4 --seconds 20
    python -m loadtests.bench --rooms 250 --seats 4 --seconds 20 --store redis://127.0.0.1:6379/0
    python -m loadtests.bench --mode open --think 1.0 --rooms 500 --seconds 20
    python -m loadtests.bench --mode idle --connections 10000
    python -m loadtests.bench --game khan --rooms 50 --workers 2 --clients 2
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import gc
import itertools
import json
import math
import multiprocessing
import os
import random
import re
import resource
import secrets
import signal
import socket
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import msgpack
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake
from websockets.frames import Frame, Opcode

GAMES = ("expedition", "classic", "voyages", "khan")
DEFAULT_REDIS = "redis://127.0.0.1:6379/0"
ROOT = Path(__file__).resolve().parent.parent
#: errors a prompt gone stale brings: wait for the next change of the view
STALE = ("not_your_turn", "illegal_move", "stale")
#: errors worth a short pause and another try
RETRY = ("rate_limited", "unavailable")
#: a room whose views have not changed for this long is given up as stalled
STALL_SECONDS = 15.0
#: the longest a request may wait for its answer
REQUEST_TIMEOUT = 30.0
#: `sync_after` that never comes (`--no-sync`): no in-game snapshots, so every byte measured is play
NO_SYNC = (10**9, 10**9)

_packer = msgpack.Packer(use_bin_type=True)


def _pack(obj: Any) -> bytes:
    out: bytes = _packer.pack(obj)
    return out


def _unpack(frame: bytes) -> Any:
    return msgpack.unpackb(frame, raw=False)


class ServerError(Exception):
    """An `error` answer."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code


# ---- figures ---------------------------------------------------------------------------------


def percentile(values: list[float], q: float) -> float:
    """The q-th percentile (0..100) by the nearest-rank method; NaN for no values."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    rank = max(1, min(len(ordered), math.ceil(q * len(ordered) / 100)))
    return ordered[rank - 1]


def median_of(counts: Counter[int]) -> float:
    """The median of a histogram of integer values (the lower median); NaN when empty."""
    total = sum(counts.values())
    if not total:
        return float("nan")
    half = (total + 1) // 2
    seen = 0
    for value in sorted(counts):
        seen += counts[value]
        if seen >= half:
            return float(value)
    return float("nan")  # pragma: no cover


@dataclass
class Stats:
    """What the load measured in its window (latencies in seconds)."""

    moves: int = 0
    ack: list[float] = field(default_factory=list)
    fanout: list[float] = field(default_factory=list)
    fanout_missing: int = 0  # acknowledged moves whose version did not reach every seat by patch
    patch_sizes: Counter[int] = field(default_factory=Counter)
    snapshot_sizes: Counter[int] = field(default_factory=Counter)  # in-game `sync` answers
    rooms_started: int = 0
    rooms_finished: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    client_cpu_s: float = 0.0  # CPU of the load processes during the window, summed
    client_cpu_max: float = 0.0  # the busiest load process, in cores
    client_processes: int = 1
    connections: int = 0  # connections open after set-up (idle mode: the figure's N)
    client_rss_mib: float = 0.0
    wire_bytes: int = 0  # what the seats' sockets read in the window (TCP payload: frames, their headers, pings)
    payload_bytes: int = 0  # the messages in it, decompressed (frame payloads as the seats decode them)

    def merge(self, other: Stats) -> None:
        self.moves += other.moves
        self.ack += other.ack
        self.fanout += other.fanout
        self.fanout_missing += other.fanout_missing
        self.patch_sizes.update(other.patch_sizes)
        self.snapshot_sizes.update(other.snapshot_sizes)
        self.rooms_started += other.rooms_started
        self.rooms_finished += other.rooms_finished
        self.errors.update(other.errors)
        self.client_cpu_s += other.client_cpu_s
        self.client_cpu_max = max(self.client_cpu_max, other.client_cpu_max)
        self.connections += other.connections
        self.client_rss_mib += other.client_rss_mib
        self.wire_bytes += other.wire_bytes
        self.payload_bytes += other.payload_bytes


# ---- the load client -------------------------------------------------------------------------


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


def _options(state: dict[str, Any] | None) -> list[Any] | None:
    prompt = state.get("prompt") if state else None
    return prompt.get("options") if prompt else None


class FrameConnection(ClientConnection):
    """A client connection that hands each complete binary frame to `on_frame` as it is parsed.

    The stock connection queues every frame for `recv()` (an assembler, a future and a task wake-up per
    message); with thousands of connections in one process that would be most of the load client's cost.
    Pings, pongs, closes and anything else still go through the stock code.
    """

    on_frame: Callable[[Any, float], None] | None = None
    #: counts the bytes the socket reads (before the WebSocket layer: with compression, the compressed bytes)
    on_bytes: Callable[[int], None] | None = None

    def data_received(self, data: bytes) -> None:
        on_bytes = self.on_bytes
        if on_bytes is not None:
            on_bytes(len(data))
        super().data_received(data)

    def process_event(self, event: Any) -> None:
        on_frame = self.on_frame
        if on_frame is not None and type(event) is Frame and event.opcode is Opcode.BINARY and event.fin:
            on_frame(event.data, time.perf_counter())
            return
        super().process_event(event)


class Seat:
    """One connection: requests matched by `re`, its view kept current from snapshot + patches in place."""

    def __init__(self, runner: Runner, table: Table | None, url: str, name: str) -> None:
        self.runner = runner
        self.table = table
        self.url = url
        self.name = name
        self.ws: FrameConnection | None = None
        self.reader: asyncio.Task[None] | None = None
        self.waiting: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self._ids = itertools.count(1)
        self.room: str | None = None
        self.state: dict[str, Any] | None = None
        self.v = -1
        self.at = 0.0  # arrival of the frame that made the view held
        self.event = asyncio.Event()
        self.closed = False
        self._sends: set[asyncio.Task[None]] = set()

    async def open(self) -> None:
        ws = await connect(
            self.url,
            compression="deflate" if self.runner.spec.compression == "deflate" else None,
            max_size=2**24,
            ping_interval=None,
            open_timeout=60,
            close_timeout=2,
            create_connection=FrameConnection,
        )
        assert isinstance(ws, FrameConnection)
        ws.on_frame = self._frame
        ws.on_bytes = self._bytes
        self.ws = ws
        self.reader = asyncio.get_running_loop().create_task(self._watch())
        await self.request("hello", name=self.name)

    async def close(self) -> None:
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await self.ws.close()
        if self.reader is not None:
            with contextlib.suppress(BaseException):
                await self.reader

    async def request(self, t: str, timeout: float = REQUEST_TIMEOUT, **fields: Any) -> dict[str, Any]:
        """Send `{t, id, **fields}`; the answer with that `re` (its arrival time in `_at`); raises ServerError."""
        if self.ws is None or self.closed:
            raise ConnectionError("connection closed")
        rid = next(self._ids)
        fut: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.waiting[rid] = fut
        try:
            await self.ws.send(_pack({"t": t, "id": rid, **fields}))
            async with asyncio.timeout(timeout):
                answer = await fut
        finally:
            self.waiting.pop(rid, None)
        if answer["t"] == "error":
            raise ServerError(str(answer.get("code")), str(answer.get("message")))
        return answer

    async def _watch(self) -> None:
        """Wait for the socket to close, then fail what waits on it."""
        assert self.ws is not None
        with contextlib.suppress(Exception):
            await self.ws.wait_closed()
        self.closed = True
        for fut in self.waiting.values():
            if not fut.done():
                fut.set_exception(ConnectionError("connection closed"))
        self._changed()

    def _bytes(self, n: int) -> None:
        runner = self.runner
        if runner.measuring:
            runner.stats.wire_bytes += n

    def _frame(self, frame: Any, now: float) -> None:
        """One frame from the server, as soon as it is parsed."""
        runner = self.runner
        if runner.measuring:
            runner.stats.payload_bytes += len(frame)
        msg = _unpack(frame)
        t = msg["t"]
        if t == "patch":
            if msg["room"] == self.room:
                self._patch(msg, len(frame), now)
        elif t == "snapshot":
            if msg["room"] == self.room:
                self.state, self.v, self.at = msg["state"], msg["v"], now
                if msg.get("re") is not None and runner.measuring and self.state.get("result") is None:
                    runner.stats.snapshot_sizes[len(frame)] += 1
                self._changed()
        rid = msg.get("re")
        if rid is not None:
            fut = self.waiting.get(rid)
            if fut is not None and not fut.done():
                msg["_at"] = now
                fut.set_result(msg)

    def _send_soon(self, msg: dict[str, Any]) -> None:
        assert self.ws is not None
        task = asyncio.get_running_loop().create_task(self.ws.send(_pack(msg)))
        self._sends.add(task)
        task.add_done_callback(self._sent)

    def _sent(self, task: asyncio.Task[None]) -> None:
        self._sends.discard(task)
        if not task.cancelled():
            task.exception()  # a closed socket: the watcher sees it

    def _patch(self, msg: dict[str, Any], size: int, now: float) -> None:
        runner = self.runner
        if self.state is None or self.v != msg["base"]:
            if self.v != -2:  # a gap: ask once for a snapshot
                runner.stats.errors["gap"] += runner.measuring
                self.v = -2
                self._send_soon({"t": "sync", "room": msg["room"]})
            return
        try:
            self.state = apply_in_place(self.state, msg["ops"])
        except (KeyError, IndexError, ValueError, TypeError):
            runner.stats.errors["patch_did_not_apply"] += 1
            self.v = -2
            self._send_soon({"t": "sync", "room": msg["room"]})
            return
        self.v = msg["v"]
        self.at = now
        if runner.measuring:
            runner.stats.patch_sizes[size] += 1
        if self.table is not None:
            self.table.arrived(self.v, now)
        self._changed()

    def _changed(self) -> None:
        self.event.set()
        if self.table is not None:
            self.table.event.set()


def _moved_on(seat: Seat, v: int) -> bool:
    return seat.v != v


class Stalled(Exception):
    pass


class Table:
    """One room's seats, playing game after game; tracks each version's arrival at every seat."""

    def __init__(self, runner: Runner, index: int) -> None:
        self.runner = runner
        self.index = index
        self.rng = random.Random(f"{runner.seed}:{index}")
        self.seats: list[Seat] = []
        self.event = asyncio.Event()
        self.arrivals: dict[int, list[float]] = {}  # version -> [seats holding it, latest arrival]
        self.fan_wait: dict[int, float] = {}  # version -> send time of the move that made it, until all hold it
        self.room: str | None = None
        self.generation = 0
        self.use_seed = True
        self.sync_at: list[int] = []
        #: open mode: how much later than one think time the room's first move is sent (None: not drawn yet)
        self.phase: float | None = None

    # ---- fan-out bookkeeping ----

    def arrived(self, v: int, now: float) -> None:
        entry = self.arrivals.get(v)
        if entry is None:
            entry = self.arrivals[v] = [0, now]
            if len(self.arrivals) > 64:
                for old in sorted(self.arrivals)[:-32]:
                    del self.arrivals[old]
        entry[0] += 1
        entry[1] = now
        if entry[0] >= len(self.seats):
            t0 = self.fan_wait.pop(v, None)
            if t0 is not None:
                del self.arrivals[v]
                self._fanout(now - t0, now)

    def acked(self, v: int, t0: float, at: float) -> None:
        runner = self.runner
        if not runner.in_window(at):
            return
        runner.stats.moves += 1
        runner.stats.ack.append(at - t0)
        entry = self.arrivals.get(v)
        if entry is not None and entry[0] >= len(self.seats):
            del self.arrivals[v]
            self._fanout(entry[1] - t0, entry[1])
        else:
            self.fan_wait[v] = t0
            if len(self.fan_wait) > 64:
                for old in sorted(self.fan_wait)[:-32]:
                    del self.fan_wait[old]
                    runner.stats.fanout_missing += 1

    def _fanout(self, latency: float, at: float) -> None:
        if self.runner.in_window(at):
            self.runner.stats.fanout.append(latency)

    # ---- set-up ----

    async def open(self) -> None:
        self.generation += 1
        self.seats = [
            Seat(self.runner, self, self.runner.url, f"t{self.index}g{self.generation}s{i}")
            for i in range(self.runner.seats)
        ]
        await asyncio.gather(*(s.open() for s in self.seats))

    async def close(self) -> None:
        await asyncio.gather(*(s.close() for s in self.seats))
        self.seats = []
        self.room = None

    async def new_game(self) -> None:
        r = self.runner
        creator = self.seats[0]
        answer = None
        if self.use_seed:
            try:
                answer = await creator.request(
                    "create", game=r.game, seats=r.seats, options={"seed": self.rng.randrange(2**62)}
                )
            except ServerError as err:
                if err.code != "forbidden":
                    raise
                self.use_seed = False  # a server without --allow-client-seed: let it draw seeds
        if answer is None:
            answer = await creator.request("create", game=r.game, seats=r.seats)
        room = str(answer["room"])
        self.room = room
        self.arrivals.clear()
        self.fan_wait.clear()
        for s in self.seats:
            s.room, s.state, s.v = room, None, -1
            await s.request("join", room=room)
        await self.wait(self._started, time.perf_counter() + STALL_SECONDS)
        r.stats.rooms_started += r.measuring
        # each seat asks for one snapshot of the view in play per game, after a random number of room moves
        self.sync_at = [self.rng.randint(*r.sync_after) for _ in self.seats]

    def _started(self) -> bool:
        return self._settled() and any(_options(s.state) for s in self.seats)

    def _settled(self) -> bool:
        v = self.seats[0].v
        return v >= 0 and all(s.v == v for s in self.seats)

    async def wait(self, cond: Callable[[], bool], stop_at: float) -> bool:
        """Wait until `cond()`; False at `stop_at`; Stalled when nothing changed for STALL_SECONDS."""
        last = time.perf_counter()
        while not cond():
            if any(s.closed for s in self.seats):
                raise ConnectionError("connection closed")
            now = time.perf_counter()
            if now >= stop_at:
                return False
            if now - last > STALL_SECONDS:
                raise Stalled()
            self.event.clear()
            try:
                # a closed connection sets the event too, so the wait can be long (and cheap: no task)
                async with asyncio.timeout(min(stop_at - now, STALL_SECONDS)):
                    await self.event.wait()
                last = time.perf_counter()
            except TimeoutError:
                pass
        # (a condition met by a frame read after `stop_at` is too late: the caller would act past the window)
        return time.perf_counter() < stop_at

    async def _sample(self, seat: Seat) -> None:
        assert self.room is not None
        await seat.request("sync", room=self.room)

    async def leave(self) -> None:
        room = self.room
        self.room = None
        for s in self.seats:
            s.room, s.state, s.v = None, None, -1
        if room is not None:
            await asyncio.gather(*(s.request("leave", room=room) for s in self.seats), return_exceptions=True)

    # ---- play ----

    async def run(self, stop_at: float) -> None:
        r = self.runner
        while time.perf_counter() < stop_at:
            try:
                if not self.seats:
                    await self.open()
                if self.room is None:
                    await self.new_game()
                play = self.play_closed if r.mode == "closed" else self.play_open
                if await play(stop_at):
                    r.stats.rooms_finished += 1
                    await self.leave()
            except Stalled:
                r.stats.errors["stalled"] += 1
                await self.leave()
            except Exception as exc:  # noqa: BLE001 (counted by code; the table starts over on new connections)
                if time.perf_counter() < stop_at:
                    r.stats.errors[_error_code(exc)] += 1
                await self.close()
                await asyncio.sleep(0.2)

    async def play_closed(self, stop_at: float) -> bool:
        """One move in flight: wait for the whole fan-out of a move before the next. True at the game's end."""
        moves = 0
        while True:
            if time.perf_counter() >= stop_at or not await self.wait(self._settled, stop_at):
                return False
            state = self.seats[0].state
            assert state is not None
            if state.get("result") is not None:
                return True
            movers = [s for s in self.seats if _options(s.state)]
            if not movers:
                v = self.seats[0].v
                if not await self.wait(functools.partial(_moved_on, self.seats[0], v), stop_at):
                    return False
                continue
            seat = self.rng.choice(movers)
            options = _options(seat.state)
            assert options and self.room is not None
            move = self.rng.choice(options)
            t0 = time.perf_counter()
            if t0 >= stop_at:  # the window closed while the move was chosen: no move past it
                return False
            try:
                answer = await seat.request("move", room=self.room, move=move, v=seat.v)
            except ServerError as err:
                self.runner.count_error(err.code)
                if err.code in RETRY:
                    await asyncio.sleep(0.05)
                else:  # the views are settled, so a refusal is news: wait for the next version
                    v = seat.v
                    if not await self.wait(
                        functools.partial(_moved_on, seat, v), min(stop_at, time.perf_counter() + 1.0)
                    ):
                        if time.perf_counter() >= stop_at:
                            return False
                continue
            self.acked(int(answer["v"]), t0, answer["_at"])
            moves += 1
            for i, at in enumerate(self.sync_at):
                if at == moves and self.runner.measuring:
                    await self._sample(self.seats[i])

    async def play_open(self, stop_at: float) -> bool:
        loop = asyncio.get_running_loop()
        tasks = [loop.create_task(self._seat_open(s, i, stop_at)) for i, s in enumerate(self.seats)]
        try:
            done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_EXCEPTION)
        finally:
            for t in tasks:
                t.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
        for t in done:
            if not t.cancelled() and t.exception() is not None:
                raise t.exception()  # type: ignore[misc]
        state = self.seats[0].state if self.seats else None
        return bool(state and state.get("result") is not None)

    async def _seat_open(self, seat: Seat, index: int, stop_at: float) -> None:
        """This seat moves `think` seconds after the frame that gave it its prompt."""
        r = self.runner
        think = r.think
        acted = -1  # the version this seat last moved from
        moves = 0
        last_change = time.perf_counter()
        while True:
            if seat.closed:
                raise ConnectionError("connection closed")
            now = time.perf_counter()
            if now >= stop_at:
                return
            state = seat.state
            if state is not None and state.get("result") is not None:
                return
            options = _options(state)
            if seat.v >= 0 and seat.v != acted and options:
                if self.phase is None:
                    # the room's first move waits a random part of one think time more: rooms that all
                    # start at once would otherwise move in waves, every room in the same millisecond
                    self.phase = self.rng.uniform(0.0, think)
                    # (counted from the window's start: a prompt that came during set-up is older than one
                    # think time, and all those rooms would move in the window's first millisecond)
                    seat.at = max(seat.at, r.started_at - think)
                due = seat.at + think + self.phase
                if due > now:
                    await asyncio.sleep(due - now)
                    if time.perf_counter() >= stop_at:
                        return
                    continue  # look again: the view may have moved on meanwhile
                assert self.room is not None
                acted = v = seat.v
                self.phase = 0.0  # only the room's first move is shifted
                t0 = time.perf_counter()
                try:
                    answer = await seat.request("move", room=self.room, move=self.rng.choice(options), v=v)
                except ServerError as err:
                    r.count_error(err.code)
                    if err.code in RETRY:
                        acted = -1
                        await asyncio.sleep(0.05)
                    continue
                self.acked(int(answer["v"]), t0, answer["_at"])
                moves += 1
                last_change = time.perf_counter()
                if moves == self.sync_at[index] and r.measuring:
                    await self._sample(seat)
                continue
            seat.event.clear()
            try:
                async with asyncio.timeout(min(stop_at - now, STALL_SECONDS)):
                    await seat.event.wait()
                last_change = time.perf_counter()
            except TimeoutError:
                if time.perf_counter() - max(last_change, self._latest()) > STALL_SECONDS + think:
                    raise Stalled() from None

    def _latest(self) -> float:
        return max((s.at for s in self.seats), default=0.0)


def _error_code(exc: BaseException) -> str:
    if isinstance(exc, ServerError):
        return exc.code
    if isinstance(exc, TimeoutError):
        return "timeout"
    if isinstance(exc, ConnectionError | ConnectionClosed | InvalidHandshake | OSError):
        return "connection_lost"
    return type(exc).__name__


@dataclass
class LoadSpec:
    """What one load process does (picklable: it is sent to `--clients` processes)."""

    url: str
    mode: str = "closed"
    game: str = "expedition"
    seats: int = 4
    tables: tuple[int, ...] = ()  # the table indexes this process plays
    think: float = 1.0
    connections: int = 0  # idle mode
    seed: int = 1
    sync_after: tuple[int, int] = (1, 80)
    compression: str | None = None  # "deflate": the seats offer permessage-deflate (None: they do not)


class Runner:
    """The load of one process: `setup()` (untimed), `play(stop_at)` (the window), `close()`."""

    def __init__(self, spec: LoadSpec) -> None:
        self.spec = spec
        self.url = spec.url
        self.mode = spec.mode
        self.game = spec.game
        self.seats = spec.seats
        self.think = spec.think
        self.seed = spec.seed
        self.sync_after = spec.sync_after
        self.stats = Stats()
        self.measuring = False
        self.stop_at = math.inf
        self.started_at = 0.0  # when the measured window began (perf_counter)
        self.tables = [Table(self, i) for i in spec.tables]
        self.idle: list[Seat] = []
        self.setup_stats = Stats()

    def in_window(self, at: float) -> bool:
        return self.measuring and at <= self.stop_at

    def count_error(self, code: str) -> None:
        if self.measuring:
            self.stats.errors[code] += 1

    async def setup(self) -> None:
        """Open every connection (in batches) and seat the first room of every table."""
        if self.mode == "idle":
            n = self.spec.connections
            for i in range(0, n, 100):
                batch = [Seat(self, None, self.url, f"idle{self.seed}x{j}") for j in range(i, min(n, i + 100))]
                results = await asyncio.gather(*(s.open() for s in batch), return_exceptions=True)
                for s, res in zip(batch, results, strict=True):
                    if isinstance(res, BaseException):
                        self.stats.errors[_error_code(res)] += 1
                        await s.close()
                    else:
                        self.idle.append(s)
            self._end_setup(len(self.idle))
            return

        async def one(t: Table) -> None:
            try:
                await t.open()
                await t.new_game()
            except Exception as exc:  # noqa: BLE001
                self.stats.errors[f"setup_{_error_code(exc)}"] += 1
                await t.close()

        for i in range(0, len(self.tables), 25):
            await asyncio.gather(*(one(t) for t in self.tables[i : i + 25]))
        self._end_setup(sum(len(t.seats) for t in self.tables))

    def _end_setup(self, connections: int) -> None:
        """Set-up figures apart (`setup_stats`): the window's figures start from nothing."""
        self.setup_stats = Stats(errors=Counter(self.stats.errors), connections=connections)
        self.stats = Stats()

    async def play(self, stop_at: float) -> Stats:
        self.stop_at = stop_at
        # the load client must not stall its own measurements: with the collector on, its full collections
        # over every connection's view took 120-190 ms each and showed up as the servers' p99 (seen with
        # gc.callbacks). Set-up's objects are frozen out of the collector and it is off for the window;
        # what the window frees it frees by reference counting, the rest is collected after it.
        gc.collect()
        gc.freeze()
        gc.disable()
        try:
            return await self._play(stop_at)
        finally:
            gc.enable()
            gc.unfreeze()

    async def _play(self, stop_at: float) -> Stats:
        self.measuring = True
        cpu0, t0 = time.process_time(), time.perf_counter()
        self.started_at = t0
        if self.mode == "idle":
            await asyncio.sleep(max(0.0, stop_at - time.perf_counter()))
            lost = sum(s.closed for s in self.idle)
            if lost:
                self.stats.errors["idle_connection_closed"] += lost
        else:
            await asyncio.gather(*(t.run(stop_at) for t in self.tables))
        self.measuring = False
        cpu = time.process_time() - cpu0
        wall = max(1e-9, time.perf_counter() - t0)
        self.stats.client_cpu_s = cpu
        self.stats.client_cpu_max = cpu / wall
        self.stats.client_rss_mib = _proc_rss_kib(os.getpid()) / 1024
        return self.stats

    async def close(self) -> None:
        for i in range(0, len(self.tables), 50):
            await asyncio.gather(*(t.close() for t in self.tables[i : i + 50]))
        for i in range(0, len(self.idle), 500):
            await asyncio.gather(*(s.close() for s in self.idle[i : i + 500]))
        self.idle = []


# ---- load in several processes ---------------------------------------------------------------


def _child_main(conn: Any, spec: LoadSpec) -> None:
    """A `--clients` process: set up, say ready, play when told, send the figures, close when told."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent stops us
    asyncio.run(_child(conn, spec))


async def _child(conn: Any, spec: LoadSpec) -> None:
    loop = asyncio.get_running_loop()
    runner = Runner(spec)
    try:
        await runner.setup()
        conn.send(("ready", runner.setup_stats))
        deadline = await loop.run_in_executor(None, conn.recv)  # wall-clock end of the window
        stop_at = time.perf_counter() + (deadline - time.time())
        stats = await runner.play(stop_at)
        conn.send(("done", stats))
        await loop.run_in_executor(None, conn.recv)
    finally:
        await runner.close()
        conn.close()


class Load:
    """The load for one server: in this process (`clients=1`) or in `clients` processes."""

    def __init__(self, spec: LoadSpec, rooms: int, clients: int = 1) -> None:
        self.clients = max(1, clients)
        self.specs = []
        for k in range(self.clients):
            tables = tuple(range(k, rooms, self.clients)) if spec.mode != "idle" else ()
            conns = spec.connections // self.clients + (k < spec.connections % self.clients)
            self.specs.append(
                LoadSpec(**(asdict(spec) | {"tables": tables, "connections": conns, "seed": spec.seed + k}))
            )
        self.runner: Runner | None = None
        self.procs: list[Any] = []
        self.pipes: list[Any] = []

    async def setup(self) -> Stats:
        if self.clients == 1:
            self.runner = Runner(self.specs[0])
            await self.runner.setup()
            return self.runner.setup_stats
        ctx = multiprocessing.get_context("spawn")
        for spec in self.specs:
            ours, theirs = ctx.Pipe()
            p = ctx.Process(target=_child_main, args=(theirs, spec), daemon=True)
            p.start()
            theirs.close()
            self.procs.append(p)
            self.pipes.append(ours)
        setup = Stats()
        for pipe in self.pipes:
            _, stats = await self._recv(pipe)
            setup.merge(stats)
        return setup

    async def _recv(self, pipe: Any) -> Any:
        loop = asyncio.get_running_loop()
        ready = await loop.run_in_executor(None, pipe.poll, 900)
        if not ready:
            raise RuntimeError("a load process did not answer")
        return pipe.recv()

    async def play(self, stop_at: float) -> Stats:
        if self.runner is not None:
            return await self.runner.play(stop_at)
        deadline = time.time() + (stop_at - time.perf_counter())
        for pipe in self.pipes:
            pipe.send(deadline)
        total = Stats(client_processes=self.clients)
        for pipe in self.pipes:
            _, stats = await self._recv(pipe)
            total.merge(stats)
        return total

    async def close(self) -> None:
        if self.runner is not None:
            await self.runner.close()
            return
        for pipe in self.pipes:
            with contextlib.suppress(OSError):
                pipe.send("close")
        loop = asyncio.get_running_loop()
        for p in self.procs:
            await loop.run_in_executor(None, p.join, 60)
            if p.is_alive():
                p.kill()
        self.procs, self.pipes = [], []


# ---- /proc -----------------------------------------------------------------------------------


def _stat_fields(pid: int) -> list[str]:
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()


def process_tree(root: int) -> list[int]:
    """`root` and every process below it (from /proc/*/stat parent ids)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            ppid = int(_stat_fields(int(entry.name))[1])
        except (OSError, ValueError, IndexError):
            continue
        children.setdefault(ppid, []).append(int(entry.name))
    out, todo = [], [root]
    while todo:
        pid = todo.pop()
        out.append(pid)
        todo.extend(children.get(pid, []))
    return out


def tree_cpu_s(root: int) -> float:
    """CPU seconds (user + system) of `root`, of every live process below it, and of its reaped children."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in process_tree(root):
        try:
            f = _stat_fields(pid)
        except (OSError, IndexError):
            continue
        total += int(f[11]) + int(f[12])
        if pid == root:
            total += int(f[13]) + int(f[14])  # cutime + cstime: children that exited and were waited for
    return total / tick


def _proc_rss_kib(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def tree_rss_kib(root: int) -> int:
    """RSS summed over the process tree (pages shared between forked workers count once per process)."""
    return sum(_proc_rss_kib(pid) for pid in process_tree(root))


def _machine_ticks() -> tuple[int, int] | None:
    """(busy, total) CPU ticks of the whole machine so far, from /proc/stat (None without it)."""
    try:
        fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    except (OSError, ValueError):
        return None
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)  # idle + iowait
    return sum(fields[:8]) - idle, sum(fields[:8])


def raise_nofile() -> tuple[int, int]:
    """Raise this process's soft limit of open files to the hard limit (children inherit it)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY:
        hard = 1 << 20
    if soft < hard:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)


# ---- server subprocesses ---------------------------------------------------------------------


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


def _default_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def real_server_args(
    port: int, store: str, prefix: str, workers: str | None = None, compression: str | None = None
) -> list[str]:
    args = ["-m", "server", "--port", str(port), "--store", store, "--prefix", prefix]
    args += ["--allow-client-seed", "--rate", "1000", "--burst", "2000", "--log-level", "WARNING"]
    # every connection comes from loopback: no per-address limits (docs/security.md)
    args += ["--max-conns-per-addr", "0", "--creates-per-minute", "0", "--waiting-rooms-per-player", "0"]
    if workers is not None:
        args += ["--workers", str(workers)]
    if compression is not None:
        args += ["--compression", compression]
    return args


def baseline_args(port: int, store: str, prefix: str) -> list[str]:
    return ["-m", "loadtests.baseline", "--port", str(port), "--store", store, "--prefix", prefix]


class ServerProcess:
    """A server subprocess on a free port, started and stopped around a run."""

    def __init__(self, kind: str, store: str, workers: str | None = None, compression: str | None = None) -> None:
        self.kind = kind  # "baseline" or "real"
        self.store = store
        self.prefix = f"mpbench:{secrets.token_hex(4)}:"
        self.port = free_port()
        if kind == "baseline":
            self.args = baseline_args(self.port, store, self.prefix)
        else:
            self.args = real_server_args(self.port, store, self.prefix, workers, compression)
        self.proc: asyncio.subprocess.Process | None = None
        self.stop_problem: str | None = None
        self.log = tempfile.NamedTemporaryFile(prefix=f"mpbench-{kind}-", suffix=".log", delete=False)  # noqa: SIM115

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    async def start(self, timeout: float = 30.0) -> None:
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable,
            *self.args,
            cwd=ROOT,
            stdout=self.log,
            stderr=asyncio.subprocess.STDOUT,
            # a shell without job control starts background jobs with SIGINT ignored, and Python keeps it
            # so: restore it, or `stop` could not ask the server to shut down cleanly
            preexec_fn=_default_sigint,
        )
        deadline = time.monotonic() + timeout
        healthy = 0  # several answers in a row: with --workers each connection may reach another process
        while True:
            if self.proc.returncode is not None:
                raise RuntimeError(f"the {self.kind} server exited with {self.proc.returncode}; see {self.log.name}")
            status = 0
            with contextlib.suppress(OSError, TimeoutError, ValueError, IndexError):
                status, _ = await http_get("127.0.0.1", self.port, "/healthz", timeout=1.0)
            healthy = healthy + 1 if status == 200 else 0
            if healthy >= 8:
                return
            if healthy:
                continue
            if time.monotonic() > deadline:
                raise RuntimeError(
                    f"the {self.kind} server did not answer /healthz in {timeout} s; see {self.log.name}"
                )
            await asyncio.sleep(0.1)

    async def stop(self) -> None:
        if self.proc is not None and self.proc.returncode is None:
            self.proc.send_signal(signal.SIGINT)  # both servers stop cleanly on Ctrl-C
            try:
                await asyncio.wait_for(self.proc.wait(), 15)
            except TimeoutError:
                self.stop_problem = "did not stop within 15 s of SIGINT: killed"
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


# ---- one measured run ------------------------------------------------------------------------


@dataclass
class Report:
    """One server's figures under one load."""

    label: str  # "baseline" / "real" / "external"
    mode: str
    game: str
    rooms: int
    seats: int
    seconds: float
    stats: Stats
    server_cpu_s: float | None = None
    server_processes: int = 0
    rss_base_kib: int = 0  # before the load's connections were opened
    setup_cpu_s: float | None = None  # server CPU while the connections were opened (idle mode: connect + hello)
    rss_start_kib: int = 0
    rss_end_kib: int = 0
    rss_peak_kib: int = 0
    machine_cpu: float | None = None  # busy cores on the whole machine during the window
    notes: list[str] = field(default_factory=list)

    def figures(self) -> dict[str, Any]:
        s = self.stats
        ms = 1000.0
        patch = median_of(s.patch_sizes)
        snap = median_of(s.snapshot_sizes)
        out: dict[str, Any] = {
            "label": self.label,
            "mode": self.mode,
            "game": self.game,
            "rooms": self.rooms,
            "seats": self.seats,
            "seconds": round(self.seconds, 2),
            "moves": s.moves,
            "moves_per_s": round(s.moves / self.seconds, 1) if self.seconds > 0 else 0.0,
            "ack_ms": {str(q): round(percentile(s.ack, q) * ms, 3) for q in (50, 99, 99.9)},
            "fanout_ms": {str(q): round(percentile(s.fanout, q) * ms, 3) for q in (50, 99, 99.9)},
            "fanout_samples": len(s.fanout),
            "fanout_missing": s.fanout_missing,
            "patch_median_bytes": patch,
            "snapshot_median_bytes": snap,
            "patch_to_snapshot": round(patch / snap, 4) if snap and not math.isnan(snap) else float("nan"),
            "patch_frames": sum(s.patch_sizes.values()),
            "wire_bytes_per_move": round(s.wire_bytes / s.moves, 1) if s.moves else float("nan"),
            "payload_bytes_per_move": round(s.payload_bytes / s.moves, 1) if s.moves else float("nan"),
            "snapshot_samples": sum(s.snapshot_sizes.values()),
            "rooms_started": s.rooms_started,
            "rooms_finished": s.rooms_finished,
            "errors": dict(sorted(s.errors.items())),
            "connections": s.connections,
            "client_cpu": round(s.client_cpu_s / self.seconds, 3) if self.seconds > 0 else 0.0,
            "client_cpu_max": round(s.client_cpu_max, 3),
            "client_processes": s.client_processes,
            "client_rss_mib": round(s.client_rss_mib, 1),
            "machine_cpu": None if self.machine_cpu is None else round(self.machine_cpu, 2),
            "notes": self.notes,
        }
        if self.server_cpu_s is not None:
            out["server_cpu"] = round(self.server_cpu_s / self.seconds, 3)
            out["server_cpu_us_per_move"] = round(self.server_cpu_s * 1e6 / s.moves, 1) if s.moves else float("nan")
            out["server_processes"] = self.server_processes
            out["rss_start_mib"] = round(self.rss_start_kib / 1024, 1)
            out["rss_end_mib"] = round(self.rss_end_kib / 1024, 1)
            out["rss_peak_mib"] = round(self.rss_peak_kib / 1024, 1)
            if self.mode == "idle" and s.connections and self.setup_cpu_s is not None:
                out["setup_cpu_us_per_connection"] = round(self.setup_cpu_s * 1e6 / s.connections, 1)
            if self.mode == "idle" and s.connections:
                out["rss_base_mib"] = round(self.rss_base_kib / 1024, 1)
                out["rss_per_connection_kib"] = round((self.rss_end_kib - self.rss_base_kib) / s.connections, 2)
        return out

    def summary(self) -> str:
        f = self.figures()
        a, fo = f["ack_ms"], f["fanout_ms"]
        errors = ", ".join(f"{k}={v}" for k, v in f["errors"].items()) or "none"
        if self.mode == "idle":
            lines = [f"== {self.label}: idle, {f['connections']} connections, {self.seconds:.1f} s =="]
        else:
            shape = f"{self.rooms} rooms x {self.seats} seats"
            lines = [f"== {self.label}: {self.mode}, {self.game}, {shape}, {self.seconds:.1f} s =="]
        if self.mode == "idle":
            lines.append(f"connections        {f['connections']} open (each said hello)")
        else:
            lines += [
                f"moves/s            {f['moves_per_s']:.1f}  ({f['moves']} acknowledged)",
                f"move->ok ms        p50 {a['50']:.2f}  p99 {a['99']:.2f}  p99.9 {a['99.9']:.2f}",
                f"move->last patch   p50 {fo['50']:.2f}  p99 {fo['99']:.2f}  p99.9 {fo['99.9']:.2f}"
                f"  ({f['fanout_samples']} moves; {f['fanout_missing']} not seen by every seat)",
                f"frame bytes        patch median {f['patch_median_bytes']:.0f} ({f['patch_frames']} frames),"
                f" in-game snapshot median {f['snapshot_median_bytes']:.0f} ({f['snapshot_samples']} syncs):"
                f" {f['patch_to_snapshot'] * 100:.1f}%",
                f"bytes per move     {f['wire_bytes_per_move']:.0f} read by all seats' sockets,"
                f" {f['payload_bytes_per_move']:.0f} in messages (decompressed)",
                f"rooms              started {f['rooms_started']}  finished {f['rooms_finished']} within the window",
            ]
        lines.append(f"errors             {errors}")
        if "server_cpu" in f:
            line = f"server cpu         {f['server_cpu'] * 100:.0f}% of a core ({f['server_processes']} processes)"
            if self.mode != "idle":
                line += f", {f['server_cpu_us_per_move']:.0f} us per move"
            elif "setup_cpu_us_per_connection" in f:
                line += f" idle; {f['setup_cpu_us_per_connection']:.0f} us per connection opened (connect + hello)"
            lines.append(line)
            line = (
                f"server rss         {f['rss_start_mib']:.1f} MiB before the window, {f['rss_end_mib']:.1f} at its end,"
                f" peak {f['rss_peak_mib']:.1f}"
            )
            if "rss_per_connection_kib" in f:
                line += (
                    f"; {f['rss_base_mib']:.1f} MiB before the connections:"
                    f" {f['rss_per_connection_kib']:.1f} KiB per idle connection"
                )
            lines.append(line)
        line = (
            f"load client        {f['client_cpu'] * 100:.0f}% of a core in {f['client_processes']} process(es),"
            f" busiest {f['client_cpu_max'] * 100:.0f}%"
        )
        if f["machine_cpu"] is not None:
            line += f"; whole machine {f['machine_cpu'] * 100:.0f}% of a core ({os.cpu_count()} cores)"
        lines.append(line)
        lines += [f"note               {n}" for n in self.notes]
        return "\n".join(lines)


async def measure(
    spec: LoadSpec, *, rooms: int, seconds: float, clients: int, label: str, server: ServerProcess | None = None
) -> Report:
    """Set the load up, measure `seconds` of it (server CPU and RSS from /proc when `server` is given)."""
    load = Load(spec, rooms, clients)
    report = Report(label, spec.mode, spec.game if spec.mode != "idle" else "-", rooms, spec.seats, seconds, Stats())
    pid = server.pid if server is not None else None
    try:
        setup_cpu0 = 0.0
        if pid:
            report.rss_base_kib = tree_rss_kib(pid)
            setup_cpu0 = tree_cpu_s(pid)
        setup = await load.setup()
        if spec.mode == "idle":
            await asyncio.sleep(1.0)  # let the server settle the last connections
        if pid:
            report.setup_cpu_s = tree_cpu_s(pid) - setup_cpu0
        cpu0 = tree_cpu_s(pid) if pid else None
        if pid:
            report.rss_start_kib = report.rss_peak_kib = tree_rss_kib(pid)
        machine0 = _machine_ticks()
        t0 = time.perf_counter()
        stop_at = t0 + seconds
        cpu_end: list[float] = []

        async def sampler() -> None:
            while True:
                left = stop_at - time.perf_counter()
                if left <= 0:
                    break
                await asyncio.sleep(min(1.0, left))
                if pid:
                    report.rss_peak_kib = max(report.rss_peak_kib, tree_rss_kib(pid))
            if pid:
                cpu_end.append(tree_cpu_s(pid))
                report.rss_end_kib = tree_rss_kib(pid)
                report.rss_peak_kib = max(report.rss_peak_kib, report.rss_end_kib)
                report.server_processes = len(process_tree(pid))

        sampling = asyncio.get_running_loop().create_task(sampler())
        stats = await load.play(stop_at)
        await sampling
        machine1 = _machine_ticks()
        if machine0 and machine1 and machine1[1] > machine0[1]:
            report.machine_cpu = (machine1[0] - machine0[0]) / (machine1[1] - machine0[1]) * (os.cpu_count() or 1)
        stats.connections = setup.connections
        stats.errors.update(setup.errors)
        if cpu0 is not None and cpu_end:
            report.server_cpu_s = cpu_end[0] - cpu0
        report.stats = stats
        if spec.mode != "idle" and stats.client_cpu_max > 0.9:
            report.notes.append("a load process used over 90% of a core: the load client may set the pace (--clients)")
    finally:
        await load.close()
    return report


async def bench_server(kind: str, a: argparse.Namespace) -> Report:
    """Start one server (`baseline` or `real`), measure the load against it, stop it, clean up."""
    server = ServerProcess(kind, a.store, a.workers if kind == "real" else None, a.compression)
    try:
        await server.start()
        spec = LoadSpec(
            url=server.url,
            mode=a.mode,
            game=a.game,
            seats=a.seats,
            think=a.think,
            connections=a.connections,
            seed=a.seed,
            sync_after=NO_SYNC if a.no_sync else (1, 80),
            compression=a.compression,
        )
        report = await measure(spec, rooms=a.rooms, seconds=a.seconds, clients=a.clients, label=kind, server=server)
    finally:
        await server.stop()
        if a.store.startswith("redis"):
            await clean_redis(a.store, server.prefix)
    if server.stop_problem:
        report.notes.append(f"server stop: {server.stop_problem}")
    count, sample = server.log_problems()
    if count:
        report.notes.append(f"{count} warning/error lines in {server.log.name}, e.g. {sample[:2]}")
    else:
        Path(server.log.name).unlink(missing_ok=True)
    return report


def ratios(real: dict[str, Any], base: dict[str, Any]) -> dict[str, float]:
    """real / baseline for the figures where the comparison means something."""

    def r(x: Any, y: Any) -> float:
        try:
            return round(float(x) / float(y), 2) if y and not math.isnan(float(y)) else float("nan")
        except (TypeError, ValueError):
            return float("nan")

    out: dict[str, float] = {}
    if real["mode"] == "idle":
        out["rss_per_connection"] = r(real.get("rss_per_connection_kib"), base.get("rss_per_connection_kib"))
        out["setup_cpu_per_connection"] = r(
            real.get("setup_cpu_us_per_connection"), base.get("setup_cpu_us_per_connection")
        )
        return out
    out["cpu_per_move"] = r(real.get("server_cpu_us_per_move"), base.get("server_cpu_us_per_move"))
    out["moves_per_s"] = r(real["moves_per_s"], base["moves_per_s"])
    for q in ("50", "99", "99.9"):
        out[f"ack_p{q}"] = r(real["ack_ms"][q], base["ack_ms"][q])
        out[f"fanout_p{q}"] = r(real["fanout_ms"][q], base["fanout_ms"][q])
    out["rss_end"] = r(real.get("rss_end_mib"), base.get("rss_end_mib"))
    return out


def format_ratios(rat: dict[str, float]) -> str:
    names = {
        "cpu_per_move": "server CPU per move",
        "moves_per_s": "moves/s",
        "ack_p50": "move->ok p50",
        "ack_p99": "move->ok p99",
        "ack_p99.9": "move->ok p99.9",
        "fanout_p50": "move->last patch p50",
        "fanout_p99": "move->last patch p99",
        "fanout_p99.9": "move->last patch p99.9",
        "rss_end": "server RSS",
        "rss_per_connection": "RSS per idle connection",
        "setup_cpu_per_connection": "CPU per connection opened",
    }
    lines = ["== real / baseline =="]
    lines += [f"{names.get(k, k):<26} {v:.2f}x" for k, v in rat.items()]
    return "\n".join(lines)


# ---- command line ----------------------------------------------------------------------------


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(prog="python -m loadtests.bench", description=__doc__.split("\n\n")[0])
    ap.add_argument("--mode", choices=("closed", "open", "idle"), default="closed", help="load shape (default closed)")
    ap.add_argument("--game", choices=GAMES, default="expedition", help="game id played by every room")
    ap.add_argument("--rooms", type=int, default=20, help="concurrent rooms (default 20)")
    ap.add_argument("--seats", type=int, default=4, help="seats per room, 2..5 (default 4)")
    ap.add_argument("--seconds", type=float, default=20.0, help="length of the measured window (default 20)")
    ap.add_argument("--think", type=float, default=1.0, help="open mode: seconds a seat thinks after its prompt")
    ap.add_argument("--connections", type=int, default=1000, help="idle mode: connections (default 1000)")
    ap.add_argument("--store", default="memory", help="memory (default) or redis://host:port/db, for both servers")
    ap.add_argument("--workers", help="passed to the real server as --workers (left out when not given)")
    ap.add_argument("--clients", type=int, default=1, help="load processes (default 1: this one)")
    ap.add_argument("--only", choices=("both", "baseline", "real"), default="both", help="which servers to run")
    ap.add_argument("--url", help="drive a running server (ws://host:port/ws) instead; no server figures")
    ap.add_argument("--seed", type=int, default=1, help="seeds the moves and the rooms' decks")
    ap.add_argument(
        "--compression",
        choices=("deflate", "none"),
        help="the seats offer permessage-deflate (deflate) or not (none), and the real server is started with"
        " --compression the same; default: the seats offer none and the server keeps its own default",
    )
    ap.add_argument(
        "--no-sync", action="store_true", help="no in-game `sync` per seat (no snapshot figure): moves only"
    )
    ap.add_argument("--json", dest="json_path", help="also write the figures as JSON to this file")
    a = ap.parse_args(argv)
    if not 2 <= a.seats <= 5:
        ap.error("--seats must be 2..5")
    if a.game != "expedition" and a.seats > 4:
        ap.error(f"{a.game} seats 2..4")
    if a.rooms < 1 or a.seconds <= 0 or a.clients < 1 or a.connections < 1:
        ap.error("--rooms, --seconds, --clients and --connections must be positive")
    if a.store == "redis":
        a.store = DEFAULT_REDIS
    if a.workers not in (None, "1") and not a.store.startswith("redis"):
        ap.error("--workers above 1 needs a redis:// store (the workers share rooms through it)")
    return a


def command_line(argv: list[str]) -> str:
    return "python -m loadtests.bench " + " ".join(argv)


async def amain(a: argparse.Namespace) -> dict[str, Any]:
    raise_nofile()
    out: dict[str, Any] = {"args": vars(a), "reports": []}
    if a.url:
        spec = LoadSpec(
            url=a.url,
            mode=a.mode,
            game=a.game,
            seats=a.seats,
            think=a.think,
            connections=a.connections,
            seed=a.seed,
            sync_after=NO_SYNC if a.no_sync else (1, 80),
            compression=a.compression,
        )
        report = await measure(spec, rooms=a.rooms, seconds=a.seconds, clients=a.clients, label=f"external {a.url}")
        print(report.summary(), flush=True)
        out["reports"].append(report.figures())
        return out
    kinds = ["baseline", "real"] if a.only == "both" else [a.only]
    figures: dict[str, dict[str, Any]] = {}
    for kind in kinds:
        report = await bench_server(kind, a)
        print(report.summary(), flush=True)
        figures[kind] = report.figures()
        out["reports"].append(figures[kind])
    if len(figures) == 2:
        out["ratios"] = ratios(figures["real"], figures["baseline"])
        print(format_ratios(out["ratios"]), flush=True)
    return out


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    a = parse(argv)
    out = asyncio.run(amain(a))
    out["command"] = command_line(argv)
    if a.json_path:
        Path(a.json_path).write_text(json.dumps(out, indent=2, default=str) + "\n")
    bad = any(r["moves"] == 0 for r in out["reports"] if r["mode"] != "idle") or any(
        r["connections"] == 0 for r in out["reports"]
    )
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
