"""`python -m loadtests.soak`: one server node for a long time under a mixed load; fails if anything grows.

Starts `python -m server` as a process of its own on a free loopback port (`--store memory` by default) and
keeps a steady load on it for `--minutes`:

- `--rooms` rooms at all times, of all four games in turn, each with one person (a `clients.client.Client`)
  and 1-3 server bots (`random` or `greedy`, mixed); the person plays random legal moves from its prompt until
  the result, leaves, and creates the next room, so rooms are created and finished all the time while their
  number stays the same. Half of the rooms have a turn clock (`turn_seconds`).
- reconnecting players: in about a third of the games the person's connection goes away mid-game (a clean
  close or an aborted socket), comes back after 0.2-3 s with its token (`hello`) and `join`s its seat again;
  a third of the players also hang up between games.
- slow readers (`--slow-readers`): raw connections that watch a live room as spectators (moving to another
  room every 15-40 s) and read their socket in bursts: they stop reading for 2-8 s at a time, now and then
  for 60 s (long enough for the server's keepalive to close them; they connect again).
- lobby watchers (`--watchers`): `watch_lobby`, a lobby chat line every 5-20 s, now and then a reconnect.

Every `--sample` seconds it samples the server process from outside: RSS (VmRSS of /proc/PID/status), open
file descriptors (/proc/PID/fd), threads (Threads of /proc/PID/status), and the node's own counts: rooms and
connections from /healthz, rooms by status from the `mp_rooms` gauge of /metrics. One line per sample.

At the end a least-squares slope is fitted to each series over the samples after `--warmup` minutes. The run
fails (exit 1) when RSS grows faster than `--rss-slope` MiB/min and by more than `--rss-growth` (a fraction)
over that window, or when a count (fds, threads, rooms, connections) grows at all: a positive slope with every
sample of the last third of the window above every sample of its first third. It also fails when the server
exits or no game finished. `--json PATH` writes every sample and verdict.

The node's asyncio tasks (`mp_asyncio_tasks`) and the entries of its long-lived tables (rooms, viewers,
players, connections, relays, locks, rate-limit and keepalive tables: `mp_node_table_entries{table}`) come from
/metrics too and are judged like the other counts.

`--tracemalloc` starts the server under a small wrapper (`python -c`, not a change to the server) that runs
`tracemalloc` and writes a snapshot on SIGUSR1; the soak takes one at the end of the warm-up and one at the end
and prints the lines whose allocations grew most between them. Tracing slows the server and raises its RSS: its
figures are not those of a normal run.

Examples:
    python -m loadtests.soak                                   # 60 minutes, 40 rooms, memory store
    python -m loadtests.soak --minutes 6 --warmup 2 --sample 20 --rooms 20
    python -m loadtests.soak --store sqlite --json soak.json   # a SQLite file of its own, deleted at the end
    python -m loadtests.soak --minutes 20 --tracemalloc
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import json
import math
import os
import random
import re
import shutil
import signal
import sys
import tempfile
import time
import tracemalloc
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from clients.client import Client, RoomView, ServerError
from loadtests.bench import (
    DEFAULT_REDIS,
    GAMES,
    RETRY,
    STALE,
    ServerProcess,
    _error_code,
    _pack,
    _proc_rss_kib,
    _unpack,
    clean_redis,
    http_get,
    raise_nofile,
)

ROOT = Path(__file__).resolve().parent.parent
#: the counts judged by the "grows at all" rule; RSS has its own rule
COUNT_SERIES = ("fds", "threads", "rooms", "connections")
SERIES = ("rss_mib", *COUNT_SERIES)
BOT_LEVELS = ("random", "greedy")
#: a room whose view has not changed for this long is given a `sync`; after three such waits it is given up
STALL_SECONDS = 45.0
#: a game's seats by game id (expedition seats up to 5, the others up to 4): 2-4 for every game here
SEATS = (2, 3, 4)
#: room options that keep a game short enough to finish many of them (classic's house limit is 200 rounds)
OPTIONS: dict[str, dict[str, Any]] = {"classic": {"max_rounds": 20}}

#: run in the server process by `--tracemalloc` instead of `-m server` (arguments: the snapshot folder, frames,
#: then the server's own flags); SIGUSR1 writes snapshot N as snap-N.pickle (renamed into place when complete)
TRACE_WRAPPER = """
import os, runpy, signal, sys, tracemalloc
out, frames = sys.argv[1], int(sys.argv[2])
tracemalloc.start(frames)
taken = [0]
def dump(signum, frame):
    n = taken[0]
    taken[0] += 1
    tmp = os.path.join(out, f".snap-{n}.tmp")
    tracemalloc.take_snapshot().dump(tmp)
    os.rename(tmp, os.path.join(out, f"snap-{n}.pickle"))
signal.signal(signal.SIGUSR1, dump)
sys.argv = ["server", *sys.argv[3:]]
runpy.run_module("server", run_name="__main__", alter_sys=True)
"""


# ---- the verdict -----------------------------------------------------------------------------------------


def slope(xs: Sequence[float], ys: Sequence[float]) -> float:
    """The least-squares slope of ys over xs (0 for fewer than two points or no spread in xs)."""
    n = len(xs)
    if n < 2:
        return 0.0
    mx, my = sum(xs) / n, sum(ys) / n
    sxx = sum((x - mx) ** 2 for x in xs)
    if sxx == 0:
        return 0.0
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sxx


@dataclass
class Verdict:
    """One series after the warm-up: its fit and whether it grew."""

    series: str
    samples: int
    first: float
    last: float
    low: float
    high: float
    slope_per_min: float
    grows: bool
    why: str

    def row(self) -> str:
        mark = "GROWS" if self.grows else "ok"
        return (
            f"{self.series:<12} {self.samples:>4} {self.first:>9.1f} {self.last:>9.1f} {self.low:>9.1f}"
            f" {self.high:>9.1f} {self.slope_per_min:>+10.3f}  {mark:<5}  {self.why}"
        )


TABLE_HEAD = f"{'series':<12} {'n':>4} {'first':>9} {'last':>9} {'min':>9} {'max':>9} {'slope/min':>10}  verdict"


def judge(
    samples: Sequence[dict[str, Any]],
    warmup_min: float,
    *,
    rss_slope: float = 0.2,
    rss_growth: float = 0.05,
    series: Sequence[str] = SERIES,
) -> list[Verdict]:
    """A verdict per series over the samples taken at or after `warmup_min` minutes (`t_min` of each sample).

    `rss_mib` grows when its slope is above `rss_slope` MiB/min and the growth it fits over the window is above
    `rss_growth` of the window's first value. A count grows when its slope is positive and every sample of the
    last third of the window is above every sample of its first third (one noisy sample does not make a trend,
    a steady climb does). RSS needs three samples after the warm-up to be judged, a count six (two per third);
    with fewer the series is reported, not judged (grows is False).
    """
    after = [s for s in samples if s["t_min"] >= warmup_min]
    out = []
    for name in series:
        points = [(float(s["t_min"]), float(s[name])) for s in after if s.get(name) is not None]
        if len(points) < (3 if name == "rss_mib" else 6):
            last = points[-1][1] if points else math.nan
            out.append(Verdict(name, len(points), last, last, last, last, 0.0, False, "too few samples to judge"))
            continue
        xs, ys = [p[0] for p in points], [p[1] for p in points]
        k = slope(xs, ys)
        window = xs[-1] - xs[0]
        third = max(1, len(ys) // 3)
        if name == "rss_mib":
            grown = k * window
            share = grown / ys[0] if ys[0] else math.inf
            grows = k > rss_slope and share > rss_growth
            why = f"fitted {grown:+.1f} MiB ({share * 100:+.1f}%) over {window:.1f} min"
            why += f"; limit {rss_slope:g} MiB/min and {rss_growth * 100:g}%"
        else:
            early, late = max(ys[:third]), min(ys[-third:])
            grows = k > 0 and late > early
            why = f"last {third} samples >= {late:g}, first {third} <= {early:g}"
        out.append(Verdict(name, len(ys), ys[0], ys[-1], min(ys), max(ys), k, grows, why))
    return out


# ---- sampling the server from outside --------------------------------------------------------------------


def proc_status(pid: int) -> dict[str, int]:
    """RSS (KiB) and threads of a process from /proc/PID/status, and its open file descriptors."""
    out = {"rss_kib": _proc_rss_kib(pid), "threads": 0, "fds": 0}
    with contextlib.suppress(OSError):
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("Threads:"):
                out["threads"] = int(line.split()[1])
        out["fds"] = len(os.listdir(f"/proc/{pid}/fd"))
    return out


_ROOMS_LINE = re.compile(r'^mp_rooms\{game="([^"]*)",status="([^"]*)"\}\s+(\S+)$', re.M)
_CONNS_LINE = re.compile(r"^mp_connections\s+(\S+)$", re.M)
_TASKS_LINE = re.compile(r"^mp_asyncio_tasks\s+(\S+)$", re.M)
_TABLE_LINE = re.compile(r'^mp_node_table_entries\{table="([^"]*)"\}\s+(\S+)$', re.M)
#: a sample's field for each of the node's tables (`mp_node_table_entries`): judged like the other counts
TABLE_PREFIX = "table:"


def parse_metrics(text: str) -> dict[str, Any]:
    """The gauges of /metrics this soak samples: connections, and rooms by status (summed over games)."""
    by_status: Counter[str] = Counter()
    for _game, status, value in _ROOMS_LINE.findall(text):
        by_status[status] += int(float(value))
    conns = _CONNS_LINE.search(text)
    tasks = _TASKS_LINE.search(text)
    out: dict[str, Any] = {
        "mp_connections": int(float(conns.group(1))) if conns else None,
        "mp_rooms": dict(by_status),
        "tasks": int(float(tasks.group(1))) if tasks else None,
    }
    for table, value in _TABLE_LINE.findall(text):
        out[TABLE_PREFIX + table] = int(float(value))
    return out


def judged_series(samples: Sequence[dict[str, Any]]) -> tuple[str, ...]:
    """RSS, the counts, the event loop's tasks and every table any sample reported."""
    tables = sorted({k for s in samples for k in s if k.startswith(TABLE_PREFIX)})
    return (*SERIES, "tasks", *tables)


async def sample_server(pid: int, port: int) -> dict[str, Any]:
    """One sample: /proc figures, then /healthz and /metrics (a field is None when its route did not answer)."""
    st = proc_status(pid)
    out: dict[str, Any] = {
        "rss_mib": round(st["rss_kib"] / 1024, 2),
        "fds": st["fds"],
        "threads": st["threads"],
        "rooms": None,
        "connections": None,
    }
    with contextlib.suppress(OSError, TimeoutError, ValueError, IndexError):
        status, body = await http_get("127.0.0.1", port, "/healthz", timeout=5.0)
        if status == 200:
            health = json.loads(body)
            out["rooms"], out["connections"] = health["rooms"], health["connections"]
    with contextlib.suppress(OSError, TimeoutError, ValueError, IndexError):
        status, body = await http_get("127.0.0.1", port, "/metrics", timeout=5.0)
        if status == 200:
            out.update(parse_metrics(body.decode()))
    return out


# ---- the load --------------------------------------------------------------------------------------------


class GaveUp(Exception):
    """A room the person could not get back to or that stopped changing."""


class Load:
    """Every load task of the soak, their counters, and the live rooms slow readers pick from."""

    def __init__(
        self, url: str, *, rooms: int, slow_readers: int, watchers: int, seed: int, think: float = 0.3
    ) -> None:
        self.url = url
        self.think = think
        self.rooms, self.slow_readers, self.watchers = rooms, slow_readers, watchers
        self.rng = random.Random(seed)
        self.seed = seed
        self.counts: Counter[str] = Counter()
        self.errors: Counter[str] = Counter()
        self.live: dict[str, str] = {}  # room -> game, rooms being played now
        self.stopping = False
        self.tasks: list[asyncio.Task[None]] = []

    def start(self) -> None:
        loop = asyncio.get_running_loop()
        for i in range(self.rooms):
            self.tasks.append(loop.create_task(self._forever(self.player, i), name=f"player-{i}"))
        for i in range(self.slow_readers):
            self.tasks.append(loop.create_task(self._forever(self.slow_reader, i), name=f"slow-{i}"))
        for i in range(self.watchers):
            self.tasks.append(loop.create_task(self._forever(self.watcher, i), name=f"watcher-{i}"))

    async def stop(self) -> None:
        self.stopping = True
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)

    async def _forever(self, role: Any, i: int) -> None:
        """Run one role again and again; an error is counted and the role starts over after a short pause."""
        rng = random.Random(f"{self.seed}:{role.__name__}:{i}")
        await asyncio.sleep(rng.uniform(0, 2))  # do not start every client in the same instant
        state: dict[str, Any] = {}  # what a role keeps between its runs (its player token)
        while not self.stopping:
            try:
                await role(i, rng, state)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # noqa: BLE001 - counted; the role starts over
                self.errors[f"{role.__name__}:{_error_code(exc)}"] += 1
                await asyncio.sleep(rng.uniform(0.5, 2.0))

    async def _client(self, name: str, state: dict[str, Any]) -> Client:
        c = Client(self.url)
        await c.connect()
        try:
            await c.hello(name, state.get("token"))
        except BaseException:
            await _close(c)
            raise
        state["token"] = c.token
        return c

    # ---- a person at a table of bots

    async def player(self, i: int, rng: random.Random, state: dict[str, Any]) -> None:
        name = f"soak{i}"
        client: Client | None = state.get("client")
        try:
            if client is None or client.closed.is_set():
                client = state["client"] = await self._client(name, state)
            game = GAMES[(i + state.setdefault("games", 0)) % len(GAMES)]
            state["games"] += 1
            seats = rng.choice(SEATS)
            fields: dict[str, Any] = {"public": True, "bots": [rng.choice(BOT_LEVELS) for _ in range(seats - 1)]}
            if game in OPTIONS:
                fields["options"] = OPTIONS[game]
            if rng.random() < 0.5:
                fields["turn_seconds"] = 30
            room = await client.create_room(game, seats, **fields)
            self.counts["rooms_created"] += 1
            await client.join(room)
            self.live[room] = game
            try:
                client = await self._play(client, room, name, rng, state)
            finally:
                self.live.pop(room, None)
            self.counts["games_finished"] += 1
            self.counts[f"finished_{game}"] += 1
            with contextlib.suppress(ServerError, ConnectionError, TimeoutError):
                await client.request("leave", room=room)
            client.views.pop(room, None)
            client.pushes.clear()
            if rng.random() < 1 / 3:  # hang up between games too
                state.pop("client", None)
                await _close(client)
                self.counts["hangups"] += 1
        except BaseException:
            client = state.pop("client", None)
            if client is not None:
                await _close(client)
            raise

    async def _play(self, client: Client, room: str, name: str, rng: random.Random, state: dict[str, Any]) -> Client:
        """Random legal moves until the room's result; maybe one reconnect on the way. Returns the client in use."""
        drop_at = rng.randint(1, 40) if rng.random() < 1 / 3 else None
        moved = stalls = 0
        while True:
            rv = client.views[room]
            view, v0 = rv.state, rv.v
            if view.get("result") is not None or view.get("status") == "finished":
                return client
            if drop_at is not None and moved >= drop_at:
                drop_at = None
                client = state["client"] = await self._reconnect(client, room, name, rng, state)
                continue
            prompt = view.get("prompt")
            if prompt and prompt.get("options") and view.get("status") == "playing":
                await asyncio.sleep(rng.uniform(0.0, self.think))
                try:
                    await client.move(room, rng.choice(prompt["options"]), v=v0)
                    moved += 1
                    self.counts["moves"] += 1
                    continue
                except ServerError as err:
                    if err.code in RETRY:
                        self.errors[f"move:{err.code}"] += 1
                        await asyncio.sleep(0.5)
                        continue
                    if err.code not in STALE:
                        raise
                    self.counts["stale_moves"] += 1
                    if client.views[room].v != v0:
                        continue
            try:
                await client.wait_for(room, _moved_on(client.views[room], v0), timeout=STALL_SECONDS)
            except TimeoutError:
                stalls += 1
                self.errors["stalled"] += 1
                if stalls >= 3:
                    raise GaveUp(f"room {room}: no change in {3 * STALL_SECONDS:.0f} s") from None
                await client.sync(room)

    async def _reconnect(
        self, client: Client, room: str, name: str, rng: random.Random, state: dict[str, Any]
    ) -> Client:
        """Lose the connection (a clean close or an aborted socket), come back with the token, join the seat."""
        state.pop("client", None)
        if rng.random() < 0.5 and client.ws is not None and client.ws.transport is not None:
            client.ws.transport.abort()
            self.counts["reconnects_abort"] += 1
        else:
            self.counts["reconnects_close"] += 1
        await _close(client)
        await asyncio.sleep(rng.uniform(0.2, 3.0))
        for attempt in range(3):
            fresh: Client | None = None
            try:
                fresh = await self._client(name, state)
                await fresh.join(room)
                return fresh
            except (ServerError, ConnectionError, OSError, TimeoutError, InvalidHandshake) as exc:
                self.errors[f"rejoin:{_error_code(exc)}"] += 1
                if fresh is not None:
                    await _close(fresh)
                await asyncio.sleep(1.0 + attempt)
        raise GaveUp(f"room {room}: could not join it again")

    # ---- a spectator that reads its socket in bursts

    async def slow_reader(self, i: int, rng: random.Random, state: dict[str, Any]) -> None:
        ws = await connect(self.url, compression=None, max_size=2**22, max_queue=4, ping_interval=None, open_timeout=30)
        self.counts["slow_connects"] += 1
        ids = itertools.count(1)
        try:
            await ws.send(_pack({"t": "hello", "id": next(ids), "name": f"slow{i}", **_token(state)}))
            while True:  # the welcome (the only answer waited for)
                raw = await asyncio.wait_for(ws.recv(), 30)
                msg = _unpack(raw if isinstance(raw, bytes) else raw.encode())
                if msg.get("t") == "welcome":
                    state["token"] = msg["token"]
                    break
                if msg.get("t") == "error":
                    raise ServerError(str(msg.get("code")), str(msg.get("message")))
            watching: str | None = None
            switch_at = 0.0
            while not self.stopping:
                now = time.monotonic()
                if now >= switch_at and self.live:
                    if watching is not None:
                        await ws.send(_pack({"t": "leave", "id": next(ids), "room": watching}))
                    watching = rng.choice(sorted(self.live))
                    await ws.send(_pack({"t": "join", "id": next(ids), "room": watching, "spectate": True}))
                    self.counts["slow_joins"] += 1
                    switch_at = now + rng.uniform(15, 40)
                await self._read_for(ws, rng.uniform(0.5, 2.0))  # a burst of reading
                pause = 60.0 if rng.random() < 0.03 else rng.uniform(2, 8)
                self.counts["slow_long_pauses" if pause >= 60 else "slow_pauses"] += 1
                await asyncio.sleep(pause)  # not reading: frames pile up in the socket and then at the server
        except ConnectionClosed as exc:
            # a close frame's code, or `abort`: the server dropped the socket without one (its keepalive does)
            code = exc.rcvd.code if exc.rcvd is not None else "abort"
            self.counts[f"slow_closed_by_server_{code}"] += 1
        finally:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(ws.close(), 5)

    async def _read_for(self, ws: ClientConnection, seconds: float) -> None:
        end = time.monotonic() + seconds
        while (left := end - time.monotonic()) > 0:
            try:
                frame = await asyncio.wait_for(ws.recv(), left)
            except TimeoutError:
                return
            self.counts["slow_frames"] += 1
            self.counts["slow_bytes"] += len(frame)

    # ---- the lobby

    async def watcher(self, i: int, rng: random.Random, state: dict[str, Any]) -> None:
        c = await self._client(f"lobby{i}", state)
        try:
            await c.request("watch_lobby")
            self.counts["lobby_watches"] += 1
            while not self.stopping:
                await asyncio.sleep(rng.uniform(5, 20))
                try:
                    await c.chat(f"lobby line {self.counts['lobby_chats']} from watcher {i}")
                    self.counts["lobby_chats"] += 1
                except ServerError as err:
                    self.errors[f"chat:{err.code}"] += 1
                c.chats.clear()
                c.pushes.clear()
                if rng.random() < 0.1:
                    await c.request("list_rooms")
                if rng.random() < 0.1:
                    self.counts["lobby_reconnects"] += 1
                    return  # the next run connects again, with the same token
        finally:
            await _close(c)


def _moved_on(rv: RoomView, v0: int) -> Callable[[dict[str, Any]], bool]:
    """A `wait_for` condition: the view is no longer at version `v0`."""
    return lambda _state: rv.v != v0


def _token(state: dict[str, Any]) -> dict[str, Any]:
    return {"token": state["token"]} if state.get("token") else {}


async def _close(c: Client) -> None:
    with contextlib.suppress(Exception):
        await asyncio.wait_for(c.close(), 5)


# ---- tracemalloc in the server ---------------------------------------------------------------------------


async def take_snapshot(pid: int, folder: Path, n: int, timeout: float = 120.0) -> Path | None:
    """Ask the traced server for snapshot `n` (SIGUSR1) and wait for its file."""
    os.kill(pid, signal.SIGUSR1)
    path = folder / f"snap-{n}.pickle"
    deadline = time.monotonic() + timeout
    while not path.exists():
        if time.monotonic() > deadline:
            return None
        await asyncio.sleep(0.5)
    return path


def snapshot_growth(first: Path, last: Path, top: int = 15) -> list[dict[str, Any]]:
    """The source lines whose live allocations grew most from `first` to `last`."""
    ignore = [
        tracemalloc.Filter(False, tracemalloc.__file__),
        tracemalloc.Filter(False, "<frozen importlib._bootstrap*"),
        tracemalloc.Filter(False, "<unknown>"),
    ]
    a = tracemalloc.Snapshot.load(str(first)).filter_traces(ignore)
    b = tracemalloc.Snapshot.load(str(last)).filter_traces(ignore)
    out = []
    for stat in b.compare_to(a, "traceback")[:top]:
        frames = [_short(f.filename, f.lineno) for f in reversed(stat.traceback)]  # the allocation first
        ours = [f for f in frames if f.startswith(("server/", "protocol/"))]
        out.append(
            {
                "size_diff_kib": round(stat.size_diff / 1024, 1),
                "size_kib": round(stat.size / 1024, 1),
                "count_diff": stat.count_diff,
                "where": frames[0] if frames else "?",
                "via": ours[0] if ours and ours[0] != frames[0] else None,
                "traceback": frames,
            }
        )
    return out


def _short(filename: str, lineno: int) -> str:
    """A frame as `path:line`, relative to the project (or to site-packages / the standard library)."""
    path = Path(filename)
    if path.is_relative_to(ROOT) and ".venv" not in path.parts:
        return f"{path.relative_to(ROOT)}:{lineno}"
    for marker in ("site-packages", "lib"):
        if marker in path.parts:
            i = len(path.parts) - 1 - path.parts[::-1].index(marker)
            return f"{Path(*path.parts[i + 1 :])}:{lineno}"
    return f"{filename}:{lineno}"


# ---- a run -----------------------------------------------------------------------------------------------


def _line(s: dict[str, Any], load: dict[str, int]) -> str:
    by = s.get("mp_rooms") or {}
    rooms = "-" if s["rooms"] is None else str(s["rooms"])
    conns = "-" if s["connections"] is None else str(s["connections"])
    status = " ".join(f"{k} {v}" for k, v in sorted(by.items()))
    return (
        f"t={s['t_min']:6.2f} min  rss {s['rss_mib']:7.1f} MiB  fds {s['fds']:4d}  threads {s['threads']:3d}"
        f"  rooms {rooms:>4} ({status})  conns {conns:>4}  tasks {s.get('tasks', '-')}"
        f"  games {load.get('games_finished', 0)}"
        f"  moves {load.get('moves', 0)}  reconnects"
        f" {load.get('reconnects_abort', 0) + load.get('reconnects_close', 0)}"
    )


def store_url(store: str, tmp: Path) -> str:
    """`redis` and bare `sqlite` name a default / a file of the run's own; anything else is used as given."""
    if store == "redis":
        return DEFAULT_REDIS
    if store == "sqlite":
        return f"sqlite:///{tmp / 'soak.db'}"
    return store


async def run(a: argparse.Namespace) -> dict[str, Any]:
    raise_nofile()
    tmp = Path(tempfile.mkdtemp(prefix="mpsoak-"))
    store = store_url(a.store, tmp)
    server = ServerProcess("real", store)
    server.args += ["--bot-delay", str(a.bot_delay)]
    if a.tracemalloc:
        (tmp / "trace").mkdir()
        server.args = ["-c", TRACE_WRAPPER, str(tmp / "trace"), str(a.trace_frames), *server.args[2:]]
    out: dict[str, Any] = {"args": vars(a), "store": store, "samples": [], "errors": {}, "load": {}}
    load: Load | None = None
    samples: list[dict[str, Any]] = out["samples"]
    failures: list[str] = []
    try:
        await server.start()
        out["server"] = {"pid": server.pid, "url": server.url, "log": server.log.name}
        print(f"soak: server pid {server.pid} at {server.url}, store {store}", flush=True)
        n_slow = a.slow_readers if a.slow_readers is not None else max(1, a.rooms // 8)
        n_watch = a.watchers if a.watchers is not None else max(1, a.rooms // 10)
        print(
            f"soak: {a.minutes:g} min, {a.rooms} rooms (1 person + bots each), {n_slow} slow readers,"
            f" {n_watch} lobby watchers; a sample every {a.sample:g} s; judged after {a.warmup:g} min",
            flush=True,
        )
        load = Load(server.url, rooms=a.rooms, slow_readers=n_slow, watchers=n_watch, seed=a.seed, think=a.think)
        load.start()
        t0 = time.monotonic()
        end = t0 + a.minutes * 60
        traced: list[Path] = []
        for k in itertools.count():
            at = t0 + k * a.sample
            if at > end + 1e-6:
                break
            await asyncio.sleep(max(0.0, at - time.monotonic()))
            assert server.proc is not None
            if server.proc.returncode is not None:
                failures.append(f"the server exited with {server.proc.returncode}")
                break
            s = await sample_server(server.pid, server.port)
            s["t_min"] = round((time.monotonic() - t0) / 60, 3)
            s["load"] = dict(load.counts)
            samples.append(s)
            print(_line(s, load.counts), flush=True)
            # the snapshot at the last sample before the judged window: the RSS its taking costs stays out of it
            if a.tracemalloc and not traced and s["t_min"] + a.sample / 60 >= a.warmup:
                snap = await take_snapshot(server.pid, tmp / "trace", 0)
                if snap is not None:
                    traced.append(snap)
        if a.tracemalloc and traced and server.proc is not None and server.proc.returncode is None:
            last = await take_snapshot(server.pid, tmp / "trace", 1)
            if last is not None:
                out["tracemalloc"] = snapshot_growth(traced[0], last)
        await load.stop()
    finally:
        if load is not None and not load.stopping:
            await load.stop()
        await server.stop()  # SIGINT to its PID; killed if it does not stop within 15 s
        if store.startswith("redis"):
            with contextlib.suppress(Exception):
                await clean_redis(store, server.prefix)
        shutil.rmtree(tmp, ignore_errors=True)
    out["load"] = dict(sorted(load.counts.items())) if load is not None else {}
    out["errors"] = dict(sorted(load.errors.items())) if load is not None else {}
    verdicts = judge(
        samples, a.warmup, rss_slope=a.rss_slope, rss_growth=a.rss_growth, series=judged_series(samples)
    )
    out["verdicts"] = [asdict(v) for v in verdicts]
    out["rss_per_game_kib"] = rss_per_game(samples, verdicts, a.warmup)
    if not out["load"].get("games_finished"):
        failures.append("no game finished: the load did not run")
    failures += [f"{v.series} grows after the warm-up ({v.why})" for v in verdicts if v.grows]
    count, sample = log_problems(Path(server.log.name))
    out["server_log_problems"] = {"lines": count, "sample": sample}
    if count == 0:
        Path(server.log.name).unlink(missing_ok=True)
    if server.stop_problem:
        out["server_stop"] = server.stop_problem
    out["failures"] = failures
    out["ok"] = not failures
    return out


def rss_per_game(samples: Sequence[dict[str, Any]], verdicts: Sequence[Verdict], warmup: float) -> float | None:
    """The RSS growth fitted after the warm-up over the games finished in that window, in KiB per game."""
    after = [s for s in samples if s["t_min"] >= warmup]
    rss = next((v for v in verdicts if v.series == "rss_mib"), None)
    if len(after) < 2 or rss is None or rss.samples < 3:
        return None
    games = after[-1]["load"].get("games_finished", 0) - after[0]["load"].get("games_finished", 0)
    window = after[-1]["t_min"] - after[0]["t_min"]
    return round(rss.slope_per_min * window * 1024 / games, 1) if games else None


def log_problems(log: Path, keep: int = 5) -> tuple[int, list[str]]:
    """Warning / error lines of the server's log (bar the memory store's start-up warning), a few of them."""
    text = log.read_text(errors="replace") if log.exists() else ""
    bad = [
        ln
        for ln in text.splitlines()
        if re.search(r" (WARNING|ERROR|CRITICAL) |Traceback", ln) and "store memory: rooms" not in ln
    ]
    seen: list[str] = []
    for ln in bad:
        short = re.sub(r"^\S+ \S+ ", "", ln)[:160]
        if short not in seen:
            seen.append(short)
    return len(bad), seen[:keep]


def report(out: dict[str, Any]) -> str:
    a = out["args"]
    lines = [f"== soak: verdicts over the samples from minute {a['warmup']:g} on ==", TABLE_HEAD]
    lines += [Verdict(**v).row() for v in out["verdicts"]]
    if out.get("rss_per_game_kib") is not None:
        lines.append(
            f"rss per game finished after the warm-up: {out['rss_per_game_kib']:+.1f} KiB (fitted growth / games)"
        )
    if a.get("tracemalloc"):
        lines.append("tracemalloc run: the server is traced, its RSS is not that of a normal run")
    load = out["load"]
    mins = a["minutes"]
    lines.append(
        f"load: {load.get('rooms_created', 0)} rooms created, {load.get('games_finished', 0)} games finished"
        f" ({load.get('games_finished', 0) / mins:.1f}/min), {load.get('moves', 0)} moves by people,"
        f" {load.get('reconnects_abort', 0) + load.get('reconnects_close', 0)} reconnects mid-game,"
        f" {load.get('hangups', 0)} hang-ups between games, {load.get('slow_joins', 0)} slow-reader joins"
        f" ({load.get('slow_long_pauses', 0)} 60 s stalls), {load.get('lobby_chats', 0)} lobby chat lines"
    )
    closed = {k: v for k, v in load.items() if k.startswith("slow_closed")}
    if closed:
        lines.append(f"slow readers closed by the server: {closed}")
    lines.append(f"load errors: {out['errors'] or 'none'}")
    probs = out.get("server_log_problems", {})
    if probs.get("lines"):
        lines.append(f"server log: {probs['lines']} warning/error lines, e.g. {probs['sample'][:3]}")
    if out.get("tracemalloc"):
        lines.append("tracemalloc: live allocations that grew most from the end of the warm-up to the end")
    for row in out.get("tracemalloc", []):
        via = f"  <- {row['via']}" if row.get("via") else ""
        lines.append(f"  {row['size_diff_kib']:+9.1f} KiB {row['count_diff']:+7d} blocks  {row['where']}{via}")
    lines.append("PASS: nothing grows" if out["ok"] else "FAIL: " + "; ".join(out["failures"]))
    return "\n".join(lines)


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(prog="python -m loadtests.soak", description=__doc__.split("\n\n")[0])
    ap.add_argument("--minutes", type=float, default=60.0, help="length of the run (default 60)")
    ap.add_argument("--warmup", type=float, default=10.0, help="minutes not judged at the start (default 10)")
    ap.add_argument("--sample", type=float, default=60.0, help="seconds between samples (default 60)")
    ap.add_argument("--rooms", type=int, default=40, help="rooms in play at all times (default 40)")
    ap.add_argument("--slow-readers", type=int, help="spectators that read slowly (default rooms/8, at least 1)")
    ap.add_argument("--watchers", type=int, help="lobby watchers (default rooms/10, at least 1)")
    ap.add_argument(
        "--store",
        default="memory",
        help="memory (default), sqlite (a file of the run's own), sqlite:///path, redis://...",
    )
    ap.add_argument("--bot-delay", type=float, default=0.2, help="the server's --bot-delay in seconds (default 0.2)")
    ap.add_argument("--think", type=float, default=0.3, help="a person's longest think before a move (default 0.3 s)")
    ap.add_argument("--rss-slope", type=float, default=0.2, help="MiB/min of RSS growth allowed (default 0.2)")
    ap.add_argument("--rss-growth", type=float, default=0.05, help="fraction of RSS growth allowed (default 0.05)")
    ap.add_argument("--tracemalloc", action="store_true", help="trace the server's allocations; print where they grew")
    ap.add_argument("--trace-frames", type=int, default=6, help="frames kept per traced allocation (default 6)")
    ap.add_argument("--seed", type=int, default=1, help="seeds the load's choices")
    ap.add_argument("--json", dest="json_path", help="write every sample and verdict as JSON to this file")
    a = ap.parse_args(argv)
    if a.minutes <= 0 or a.sample <= 0 or a.rooms < 1 or a.warmup < 0:
        ap.error("--minutes, --sample and --rooms must be positive, --warmup not negative")
    if a.warmup >= a.minutes:
        ap.error("--warmup must be shorter than --minutes")
    return a


def _interrupt(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    a = parse(argv)
    signal.signal(signal.SIGTERM, _interrupt)  # a plain `kill` of the soak still stops its server (finally)
    try:
        out = asyncio.run(run(a))
    except KeyboardInterrupt:
        print("soak: interrupted (the server was stopped)", file=sys.stderr, flush=True)
        return 130
    out["command"] = "python -m loadtests.soak " + " ".join(argv)
    print(report(out), flush=True)
    if a.json_path:
        Path(a.json_path).write_text(json.dumps(out, indent=2, default=str) + "\n")
    return 0 if out["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
