"""Real processes for fault tests: a Redis of the test's own, server nodes, and players that retry.

Owns: starting and stopping `redis-server` and `python -m server` on free loopback ports (each stopped by its
PID, every wait bounded), players that keep playing through faults the way the wire contract tells a client
to (resend after `unavailable` or a timeout with the version the move was made at, resync after `stale`,
reconnect to another node with the token), and the final audit of the stored log against every `ok`.
Must not: reach anything but loopback, or touch the shared Redis on 6379.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from websockets.exceptions import ConnectionClosed, InvalidHandshake

from clients.client import Client, ServerError
from server.games import get_game
from server.rooms.replay import restore
from server.store import open_store

ROOT = Path(__file__).resolve().parents[2]
#: what a client sees when a request's connection or answer is lost: the outcome is unknown
#: what a client meets when the node it talks to dies or stops: a connection lost, or (InvalidHandshake) a node
#: killed or stopping during the WebSocket handshake ("did not receive a valid HTTP response")
LOST = (TimeoutError, ConnectionError, OSError, ConnectionClosed, InvalidHandshake)
REDIS_SERVER = shutil.which("redis-server")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _wait(cond: Any, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if cond():
            return
        time.sleep(0.05)
    raise TimeoutError(f"{what} within {timeout} s")


class RedisProc:
    """A redis-server of the test's own: append-only with fsync on every write, so a restart keeps everything."""

    def __init__(self) -> None:
        assert REDIS_SERVER is not None, "redis-server is not installed"
        self.port = free_port()
        self.dir = tempfile.mkdtemp(prefix="mp-redis-")
        self.proc: subprocess.Popen[bytes] | None = None
        self.url = f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        args = [
            str(REDIS_SERVER), "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
            "--appendonly", "yes", "--appendfsync", "always", "--dir", self.dir,
            "--enable-debug-command", "local", "--logfile", os.path.join(self.dir, "redis.log"),
        ]  # fmt: skip
        self.proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _wait(self.answers, 10, f"redis on {self.port} did not answer")

    def answers(self) -> bool:
        try:
            return self.command("PING").startswith(b"+PONG")
        except OSError:
            return False

    def command(self, *words: str, timeout: float = 2.0) -> bytes:
        """One inline command on a raw socket (works while the server is stalled by another client)."""
        with socket.create_connection(("127.0.0.1", self.port), timeout=timeout) as s:
            s.sendall((" ".join(words) + "\r\n").encode())
            return s.recv(4096)

    def stall(self, seconds: float) -> None:
        """Make Redis sleep (DEBUG SLEEP) without waiting for it to wake."""
        s = socket.create_connection(("127.0.0.1", self.port), timeout=2)
        s.sendall(f"DEBUG SLEEP {seconds}\r\n".encode())
        s.close()

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)
        self.proc = None

    def stop(self) -> None:
        self.kill()
        shutil.rmtree(self.dir, ignore_errors=True)


class NodeProc:
    """One `python -m server` node on Redis, with its log in a file."""

    def __init__(self, name: str, redis_url: str, prefix: str, *, lease_ms: int = 2000, extra: list[str] | None = None):
        self.name = name
        self.port = free_port()
        self.redis_url = redis_url
        self.prefix = prefix
        self.lease_ms = lease_ms
        self.extra = extra or []
        self.log_path = Path(tempfile.mkstemp(prefix=f"mp-{name}-", suffix=".log")[1])
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    def start(self, wait: bool = True) -> None:
        args = [
            sys.executable, "-m", "server", "--port", str(self.port), "--store", self.redis_url,
            "--prefix", self.prefix, "--node-id", self.name, "--allow-client-seed", "--keep-log",
            "--rate", "1000", "--burst", "2000", "--lease-ms", str(self.lease_ms), "--bot-delay", "0.05",
            *self.extra,
        ]  # fmt: skip
        with open(self.log_path, "ab") as out:
            self.proc = subprocess.Popen(args, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT)
        if wait:
            _wait(lambda: self.health()[0] == 200, 30, f"node {self.name} was not healthy")

    def health(self) -> tuple[int, str]:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/healthz", timeout=1) as r:
                return r.status, r.read().decode()
        except urllib.error.HTTPError as err:
            return err.code, err.read().decode()
        except OSError:
            return 0, ""

    def signal(self, sig: int) -> None:
        assert self.proc is not None
        self.proc.send_signal(sig)

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGCONT)
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)

    async def terminate(self, timeout: float = 20) -> int:
        """SIGTERM, then wait (without blocking the event loop) for the process to exit; its exit code."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + timeout
        while self.proc.poll() is None and time.monotonic() < deadline:
            await asyncio.sleep(0.02)
        code = self.proc.poll()
        assert code is not None, f"node {self.name} did not stop within {timeout} s"
        return code

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def stop(self) -> None:
        self.kill()
        with contextlib.suppress(OSError):
            self.log_path.unlink()


@dataclass
class Ack:
    v: int
    seat: int
    move: dict[str, Any]


@dataclass
class Player:
    """One seat played through faults: every `ok` it receives is recorded."""

    name: str
    urls: list[str]
    seat: int = -1
    token: str | None = None
    client: Client | None = None
    acks: list[Ack] = field(default_factory=list)
    #: moves answered `unavailable` or `stale`, with the version they were made at: never applied
    refused: list[Ack] = field(default_factory=list)
    #: moves whose answer was lost (timeout, closed connection): they may or may not be stored
    unknown: list[Ack] = field(default_factory=list)
    regressions: list[tuple[int, int]] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)
    reconnects: int = 0
    resent: int = 0
    highest: int = -1
    node: int = 0

    async def connect(self, node: int | None = None) -> Client:
        """(Re)connect, trying each node in turn from `node`, and say hello with the token."""
        if node is not None:
            self.node = node
        if self.client is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.client.close(), 2)
        for _ in range(60):
            url = self.urls[self.node % len(self.urls)]
            c = Client(url)
            try:
                await asyncio.wait_for(c.connect(), 2)
                known = {"token": self.token} if self.token else {}
                answer = await c.request("hello", timeout=3, name=self.name, **known)
                self.token = answer["token"]
                c.player = answer["player"]
                c.on_update = self._watch(c)
                self.client = c
                return c
            except (*LOST, ServerError):
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(c.close(), 1)
                self.node += 1
                await asyncio.sleep(0.25)
        raise AssertionError(f"{self.name} could not connect to any node")

    def _watch(self, c: Client) -> Any:
        def seen(room: str) -> None:
            v = c.views[room].v
            if v < self.highest:
                self.regressions.append((self.highest, v))
            self.highest = max(self.highest, v)

        return seen

    def count(self, code: str) -> None:
        self.errors[code] = self.errors.get(code, 0) + 1

    async def join(self, room: str, seat: int | None, spectate: bool = False) -> None:
        for _ in range(60):
            assert self.client is not None
            try:
                got = await asyncio.wait_for(self.client.join(room, seat=seat, spectate=spectate), 5)
                if not spectate:
                    assert got is not None
                    self.seat = got
                return
            except ServerError as err:
                self.count(err.code)
                if err.code != "unavailable":
                    raise
                await asyncio.sleep(0.2)
            except LOST:
                self.count("timeout")
                self.reconnects += 1
                await self.connect(self.node + 1)
        raise AssertionError(f"{self.name} could not join {room}")

    async def play(
        self, room: str, rng: random.Random, until: Any, move_timeout: float = 3.0, resend: float = 0.0
    ) -> None:
        """Play random options of the prompt until `until()` or the game ends (bounded by a deadline).

        With `resend`, that share of acknowledged moves is sent once more with the version it was made at:
        the server must refuse it (never apply a move twice)."""
        deadline = time.monotonic() + 180
        lost = 0
        while time.monotonic() < deadline and not until():
            c = self.client
            assert c is not None
            rv = c.views.get(room)
            if c.closed.is_set() or rv is None:
                self.reconnects += 1
                await self.connect(self.node + 1)
                await self.join(room, self.seat)
                continue
            if rv.v < 0 or rv.state.get("result"):
                if rv.state.get("result"):
                    return
                await asyncio.sleep(0.05)
                continue
            prompt = rv.state.get("prompt")
            if not prompt:
                rv.changed.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(rv.changed.wait(), 0.5)
                continue
            move = rng.choice(prompt["options"])
            made_at = rv.v
            try:
                answer = await c.request("move", timeout=move_timeout, room=room, move=move, v=made_at)
            except ServerError as err:
                self.count(err.code)
                if err.code in ("unavailable", "stale"):
                    self.refused.append(Ack(made_at, self.seat, move))
                if err.code == "unavailable":
                    await asyncio.sleep(0.1)
                elif err.code in ("stale", "not_your_turn", "illegal_move"):
                    with contextlib.suppress(Exception):
                        await c.sync(room)
                elif err.code == "forbidden":
                    print(f"{self.name}: forbidden on a move: {err.message}", flush=True)
                    await self.join(room, self.seat)
                else:
                    raise
                continue
            except LOST:
                self.count("timeout")
                self.unknown.append(Ack(made_at, self.seat, move))
                lost += 1
                if c.closed.is_set():
                    continue
                if lost >= 2:  # this node answers nothing: try another one
                    lost = 0
                    self.reconnects += 1
                    await self.connect(self.node + 1)
                    await self.join(room, self.seat)
                    continue
                with contextlib.suppress(Exception):
                    await c.request("sync", timeout=2, room=room)
                continue
            self.acks.append(Ack(int(answer["v"]), self.seat, move))
            lost = 0
            if resend and rng.random() < resend:
                self.resent += 1
                try:
                    again = await c.request("move", timeout=move_timeout, room=room, move=move, v=made_at)
                except ServerError as err:
                    self.count(f"resend:{err.code}")
                except LOST:
                    self.count("resend:timeout")
                else:
                    raise AssertionError(f"a move resent at v={made_at} was applied again: {again}")

    async def settle(self, room: str) -> dict[str, Any]:
        """Connect anew and take a fresh snapshot: the view this player ends with."""
        for _ in range(40):
            try:
                c = await self.connect(self.node)
                await asyncio.wait_for(c.join(room, seat=self.seat if self.seat >= 0 else None,
                                              spectate=self.seat < 0), 5)
                return c.views[room].state
            except (ServerError, *LOST):
                self.node += 1
                await asyncio.sleep(0.25)
        raise AssertionError(f"{self.name} could not read the room at the end")

    async def close(self) -> None:
        if self.client is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.client.close(), 2)


async def audit(redis_url: str, prefix: str, room: str, players: list[Player]) -> dict[str, Any]:
    """Check the stored log against every `ok`: each acknowledged move present at its version, exactly once;
    versions strictly rising; the final views equal a replay of the log. Returns figures for the report.
    `redis_url` is any store url (Redis, Sentinel, a SQLite file)."""
    async with open_store(redis_url, prefix=prefix) as store:
        log = await store.full_log(room)
        loaded = await store.load(room)
    assert loaded is not None
    versions = [e["v"] for e in log]
    assert versions == sorted(set(versions)), f"versions not strictly rising: {versions}"
    by_v = {e["v"]: e for e in log}
    acks = [a for p in players for a in p.acks]
    assert len({a.v for a in acks}) == len(acks), "two oks for one version"
    for a in acks:
        e = by_v.get(a.v)
        assert e is not None, f"acknowledged v={a.v} is not in the store"
        assert e["k"] == "move" and e["seat"] == a.seat and e["move"] == a.move, (a, e)
    acked_v = {a.v for a in acks}
    for p in players:
        unsure = {(u.v, u.seat, repr(u.move)) for u in p.unknown}
        for r in p.refused:
            if (r.v, r.seat, repr(r.move)) in unsure:
                continue  # the same choice was sent again later and its answer was lost
            e = by_v.get(r.v + 1)
            if e is not None and r.v + 1 not in acked_v and e.get("seat") == r.seat and e.get("move") == r.move:
                raise AssertionError(f"a move refused at v={r.v} was stored at v={r.v + 1}: {e}")
    for p in players:
        await p.settle(room)
    views: dict[str, tuple[int, dict[str, Any]]] = {}
    for _ in range(100):  # every client at the room's newest version (their own re-joins were versions too)
        async with open_store(redis_url, prefix=prefix) as store:
            loaded = await store.load(room)
            log = await store.full_log(room)
        assert loaded is not None
        meta, state, _ = restore(loaded.meta, 0, None, log)
        for p in players:
            # a connection attempt of this player that timed out on a slow node may still have said hello
            # there after the newer one did, and replaced it (4001, last hello wins): connect again
            if p.client is not None and p.client.closed.is_set():
                await p.settle(room)
        views = {p.name: (p.client.views[room].v, p.client.views[room].state) for p in players if p.client}
        if all(v == meta["v"] for v, _view in views.values()):
            break
        await asyncio.sleep(0.1)
    game = get_game(meta["game"])
    for p in players:
        v, view = views[p.name]
        if v != meta["v"] and p.client is not None:  # diagnostics: does the server still send to it?
            try:
                snap = await p.client.request("sync", timeout=3, room=room)
                print(f"{p.name} (node {p.node}) is at v={v}; a sync now answers v={snap.get('v')}")
            except Exception as err:  # noqa: BLE001
                print(f"{p.name} (node {p.node}) is at v={v}; a sync now fails: {err!r}")
        assert v == meta["v"], (p.name, v, meta["v"])
        if state is not None:
            expect = game.view(state, p.seat if p.seat >= 0 else None)
            assert view["public"] == expect["public"], p.name
            assert view["private"] == expect["private"], p.name
    for p in players:
        assert not p.regressions, f"{p.name} saw the version go down: {p.regressions[:3]}"
    return {"log": len(log), "acks": len(acks), "v": meta["v"]}


def _pg_bindir() -> Path | None:
    """The newest `/usr/lib/postgresql/<version>/bin` that has `initdb` (None: no PostgreSQL server installed)."""
    found = [p for p in Path("/usr/lib/postgresql").glob("*/bin") if (p / "initdb").exists()]
    found.sort(key=lambda p: [int(x) if x.isdigit() else 0 for x in p.parent.name.split(".")])
    return found[-1] if found else None


PG_BINDIR = _pg_bindir()


class PgProc:
    """A PostgreSQL of the test's own: `initdb` in a temp dir (trust auth, superuser `postgres`) and `postgres`
    on a free port, on 127.0.0.1 only, its unix socket in the temp dir. As root, initdb and the server run as
    the `postgres` system user (initdb refuses root), still as the very process this object holds the PID of.
    The server is the leader of a process group of its own: `kill()` SIGKILLs the postmaster and every backend
    at once (a crash of the database's machine, as far as its clients can tell); `start()` again runs it on
    the same data directory and port (crash recovery)."""

    def __init__(self, dbname: str = "records") -> None:
        assert PG_BINDIR is not None, "no PostgreSQL server (initdb) installed"
        self.bindir = PG_BINDIR
        self.port = free_port()
        self.dir = Path(tempfile.mkdtemp(prefix="mp-pg-"))
        self.data = self.dir / "data"
        self.sockets = self.dir / "sock"
        self.log_path = self.dir / "postgres.log"
        self.dbname = dbname
        self.proc: subprocess.Popen[bytes] | None = None
        self.as_postgres = os.geteuid() == 0
        self.sockets.mkdir()
        if self.as_postgres:
            for p in (self.dir, self.sockets):
                shutil.chown(p, "postgres", "postgres")
        self.url = f"postgresql://postgres@127.0.0.1:{self.port}/{dbname}"
        self.admin_url = f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def _user(self) -> dict[str, Any]:
        return {"user": "postgres", "group": "postgres", "extra_groups": []} if self.as_postgres else {}

    def init(self) -> None:
        args = [str(self.bindir / "initdb"), "-D", str(self.data), "-U", "postgres", "--auth=trust",
                "-E", "UTF8", "--no-sync", "--no-instructions"]  # fmt: skip
        done = subprocess.run(args, cwd=self.dir, capture_output=True, timeout=120, **self._user())
        assert done.returncode == 0, f"initdb failed: {done.stdout.decode()[-500:]} {done.stderr.decode()[-1500:]}"

    def start(self, timeout: float = 30) -> None:
        """Start the server (the PID this object holds is the postmaster's) and wait until it takes queries."""
        assert self.proc is None or self.proc.poll() is not None, "already running"
        args = [str(self.bindir / "postgres"), "-D", str(self.data), "-p", str(self.port), "-k", str(self.sockets),
                "-h", "127.0.0.1", "-c", "max_connections=40", "-c", "shared_buffers=16MB"]  # fmt: skip
        deadline = time.monotonic() + timeout
        while True:
            with open(self.log_path, "ab") as out:
                self.proc = subprocess.Popen(
                    args, cwd=self.dir, stdout=out, stderr=subprocess.STDOUT, start_new_session=True, **self._user()
                )
            while time.monotonic() < deadline and self.proc.poll() is None and not self.answers():
                time.sleep(0.1)
            if self.proc.poll() is None and self.answers():
                return
            if self.proc.poll() is None or time.monotonic() >= deadline:
                self.kill()
                raise TimeoutError(f"postgres on {self.port} did not answer within {timeout} s:\n{self.log()[-2000:]}")
            time.sleep(0.3)  # exited at once (e.g. the killed one's shared memory not yet released): again

    def answers(self) -> bool:
        args = [str(self.bindir / "pg_isready"), "-q", "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres",
                "-t", "2"]  # fmt: skip
        try:
            return subprocess.run(args, capture_output=True, timeout=5).returncode == 0
        except subprocess.TimeoutExpired:
            return False

    async def create_database(self) -> None:
        """`createdb` of `dbname` (over asyncpg, connected to the `postgres` database)."""
        import asyncpg

        conn = await asyncpg.connect(self.admin_url, timeout=5)
        try:
            await conn.execute(f'CREATE DATABASE "{self.dbname}"')
        finally:
            await conn.close()

    def kill(self) -> None:
        """SIGKILL the postmaster and every process of its group (its backends), and reap the postmaster."""
        if self.proc is None:
            return
        if self.proc.poll() is None:  # (a postmaster that exited by itself took its backends with it)
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)
        self.proc = None

    def log(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")
        except OSError:
            return ""

    def stop(self) -> None:
        self.kill()
        shutil.rmtree(self.dir, ignore_errors=True)


PASSWORD = "correct horse battery"
#: cheap password hashes for tests (the server's defaults are OWASP's: 19 MiB, two passes)
CHEAP = ["--password-memory-kib", "1024", "--password-time-cost", "1"]


async def _sign_up(p: Player, node: int = 0) -> None:
    """Make `p` an account (v1.2: only accounts are rated): sign up on a connection of its own, then connect
    with the account's token (a hello with it resumes the account, as every reconnect of `p` does)."""
    c = Client(p.urls[node])
    await c.connect()
    try:
        answer = await c.request("sign_up", name=p.name, password=PASSWORD)
        assert answer["t"] == "welcome" and answer["account"] is True, answer
    finally:
        await c.close()
    p.token = answer["token"]
    await p.connect(node)
    assert p.client is not None and p.client.player == answer["player"]
