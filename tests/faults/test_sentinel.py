"""Redis's own failover: a primary, a replica and three Sentinels; the primary is SIGKILLed mid-game.

Every process is real and on a free loopback port: `redis-server` as primary (append-only) and as its replica,
three Sentinels (`redis-sentinel`, or `redis-server --sentinel`) with down-after 1000 ms, and two
`python -m server` nodes on `redis+sentinel://.../mymaster` with `--wait-replicas 1`, so a move is acknowledged
only once the replica has it. Players on both nodes play; the primary is SIGKILLed; the Sentinels promote the
replica and the nodes follow it. The killed server comes back as a replica of the new primary (as a replaced
machine would), so WAIT can be satisfied again. Meanwhile moves are refused with the retryable `unavailable`
(or settled); at the end the log on the new primary is audited against every `ok`.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from server.store import RedisStore, StoreUnavailable
from tests.store.test_store import meta_for

from .procs import REDIS_SERVER, NodeProc, Player, _wait, audit, free_port
from .test_faults import play_through

SENTINEL = shutil.which("redis-sentinel")
SERVICE = "mymaster"

pytestmark = pytest.mark.skipif(REDIS_SERVER is None, reason="redis-server is not installed")


def command(port: int, *words: str, timeout: float = 1.0) -> bytes:
    """One inline command on a raw socket; b'' if nothing answers."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
            s.sendall((" ".join(words) + "\r\n").encode())
            return s.recv(4096)
    except OSError:
        return b""


class Proc:
    """One redis-server or Sentinel process, stopped by its PID."""

    def __init__(self, args: list[str], port: int, folder: str) -> None:
        self.args, self.port, self.folder = args, port, folder
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.proc = subprocess.Popen(self.args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _wait(lambda: command(self.port, "PING").startswith(b"+PONG"), 10, f"port {self.port} did not answer")

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)
        self.proc = None


class Topology:
    """A primary, a replica and three Sentinels in one temporary folder."""

    def __init__(self) -> None:
        assert REDIS_SERVER is not None
        self.root = tempfile.mkdtemp(prefix="mp-sentinel-")
        self.ports = [free_port(), free_port()]
        self.sentinel_ports = [free_port() for _ in range(3)]
        self.procs: list[Proc] = []
        self.servers: dict[int, Proc] = {}

    def server(self, port: int, replica_of: int | None) -> Proc:
        folder = tempfile.mkdtemp(prefix=f"r{port}-", dir=self.root)
        args = [
            str(REDIS_SERVER), "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "yes",
            "--appendfsync", "always", "--repl-diskless-sync-delay", "0",
            "--dir", folder, "--logfile", os.path.join(folder, "redis.log"),
        ]  # fmt: skip
        if replica_of is not None:
            args += ["--replicaof", "127.0.0.1", str(replica_of)]
        proc = Proc(args, port, folder)
        self.procs.append(proc)
        self.servers[port] = proc
        return proc

    def sentinel(self, port: int, primary: int) -> Proc:
        folder = tempfile.mkdtemp(prefix=f"s{port}-", dir=self.root)
        conf = Path(folder) / "sentinel.conf"
        conf.write_text(
            f"port {port}\nbind 127.0.0.1\ndir {folder}\nlogfile {folder}/sentinel.log\n"
            f"sentinel monitor {SERVICE} 127.0.0.1 {primary} 2\n"
            f"sentinel down-after-milliseconds {SERVICE} 1000\n"
            f"sentinel failover-timeout {SERVICE} 4000\n"
            f"sentinel parallel-syncs {SERVICE} 1\n"
        )
        args = [SENTINEL, str(conf)] if SENTINEL else [str(REDIS_SERVER), str(conf), "--sentinel"]
        proc = Proc(args, port, folder)
        self.procs.append(proc)
        return proc

    @property
    def url(self) -> str:
        hosts = ",".join(f"127.0.0.1:{p}" for p in self.sentinel_ports)
        return f"redis+sentinel://{hosts}/{SERVICE}/0"

    def primary_port(self) -> int | None:
        """The primary a majority of Sentinels name now."""
        named: dict[int, int] = {}
        for port in self.sentinel_ports:
            reply = command(port, "SENTINEL", "get-master-addr-by-name", SERVICE).split(b"\r\n")
            if len(reply) >= 5 and reply[4].isdigit():
                named[int(reply[4])] = named.get(int(reply[4]), 0) + 1
        best = max(named.items(), key=lambda kv: kv[1], default=(None, 0))
        return best[0] if best[1] >= 2 else None

    def replicas_online(self, port: int) -> int:
        info = command(port, "INFO", "replication").decode(errors="replace")
        for line in info.splitlines():
            if line.startswith("connected_slaves:"):
                return int(line.split(":")[1])
        return 0

    def start(self) -> None:
        primary, replica = self.ports
        self.server(primary, None).start()
        self.server(replica, primary).start()
        _wait(lambda: self.replicas_online(primary) == 1, 10, "the replica did not connect")
        for port in self.sentinel_ports:
            self.sentinel(port, primary).start()
        # every Sentinel has found the replica and the other Sentinels
        _wait(self._sentinels_ready, 20, "the sentinels did not see each other and the replica")

    def _sentinels_ready(self) -> bool:
        for port in self.sentinel_ports:
            reply = command(port, "SENTINEL", "master", SERVICE).decode(errors="replace").split("\r\n")
            fields = dict(zip(reply[2::4], reply[4::4], strict=False))
            if fields.get("num-slaves") != "1" or fields.get("num-other-sentinels") != "2":
                return False
        return True

    def logs(self, tail: int = 2500) -> str:
        """The end of every Redis and Sentinel log, for a failure on a loaded machine."""
        out = []
        for proc in self.procs:
            for log in sorted(Path(proc.folder).glob("*.log")):
                text = log.read_text(errors="replace")[-tail:]
                out.append(f"--- {log.parent.name}/{log.name} (port {proc.port})\n{text}")
        return "\n".join(out)

    def stop(self) -> None:
        for proc in self.procs:
            proc.kill()
        shutil.rmtree(self.root, ignore_errors=True)


@contextlib.contextmanager
def topology() -> Iterator[Topology]:
    t = Topology()
    try:
        t.start()
        yield t
    finally:
        t.stop()


async def test_nodes_follow_a_sentinel_failover_and_with_wait_lose_no_acknowledged_move() -> None:
    with topology() as t:
        prefix = f"mps:{secrets.token_hex(4)}:"
        nodes = [NodeProc(f"node-{n}", t.url, prefix, extra=["--wait-replicas", "1"]) for n in "ab"]
        players: list[Player] = []
        try:
            for node in nodes:
                node.start(wait=False)
            _wait(lambda: all(n.health()[0] == 200 for n in nodes), 30, "the nodes were not healthy")
            urls = [n.url for n in nodes]
            ann, bob = Player("ann", urls, node=0), Player("bob", urls, node=1)
            players = [ann, bob]
            for p in players:
                await p.connect()
            assert ann.client is not None
            room = await ann.client.create("expedition", 2, {"seed": 401})
            await ann.join(room, None)
            await bob.join(room, None)
            old, new = t.ports
            timing: dict[str, float] = {}

            async def fail_over() -> None:
                t.servers[old].kill()
                killed = time.monotonic()
                deadline = killed + 30
                while t.primary_port() != new and time.monotonic() < deadline:
                    await asyncio.sleep(0.1)
                assert t.primary_port() == new, "the sentinels did not promote the replica"
                timing["promoted"] = time.monotonic() - killed
                # the killed machine comes back empty, as a replica of the new primary: WAIT 1 can succeed again
                t.server(old, new).start()
                while t.replicas_online(new) < 1 and time.monotonic() < deadline:
                    await asyncio.sleep(0.1)
                timing["replica_back"] = time.monotonic() - killed

            try:
                await play_through(room, players, fail_over, before=10, after=10, seed=11)
                assert "promoted" in timing
                figures = await audit(t.url, prefix, room, players)
            except BaseException:
                for node in nodes:  # what each node saw, for a failure on a loaded machine
                    print(f"--- {node.name}\n{node.log()[-3000:]}")
                print(f"timing {timing}\n{t.logs()}")
                raise
            assert t.primary_port() == new
            assert figures["acks"] >= 20
            refused = {code: n for p in players for code, n in p.errors.items()}
            print(f"failover: {timing}; {figures}; refusals {refused}")
            if os.environ.get("MP_SENTINEL_LOGS"):
                print(t.logs(20000))
        finally:
            for p in players:
                await p.close()
            for node in nodes:
                node.stop()


def _resp(value: object) -> bytes:
    """RESP3 encoding of a str, int, dict or (nested) list."""
    if isinstance(value, dict):
        return b"%%%d\r\n" % len(value) + b"".join(_resp(k) + _resp(v) for k, v in value.items())
    if isinstance(value, list):
        return b"*%d\r\n" % len(value) + b"".join(_resp(v) for v in value)
    if isinstance(value, int):
        return b":%d\r\n" % value
    data = str(value).encode()
    return b"$%d\r\n%s\r\n" % (len(data), data)


class LaggingSentinel:
    """A Sentinel that has not heard of the last failover: it names `port` as the primary, with `epoch`.

    Speaks just enough RESP3 for redis-py's discovery (HELLO, SENTINEL MASTERS; +OK to the rest). The real
    Sentinels of the topology stay the reference; this one plays the one a node may ask first.
    """

    def __init__(self, port: int, epoch: int) -> None:
        self.named, self.epoch = port, epoch
        self.server: asyncio.Server | None = None
        self.asked = 0

    async def start(self) -> int:
        self.server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        return int(self.server.sockets[0].getsockname()[1])

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while line := await reader.readline():
                words = []
                for _ in range(int(line[1:]) if line.startswith(b"*") else 0):
                    size = int((await reader.readline())[1:])
                    words.append((await reader.readexactly(size + 2))[:-2].decode().upper())
                if words[:2] == ["SENTINEL", "MASTERS"]:
                    self.asked += 1
                    fields = {"name": SERVICE, "ip": "127.0.0.1", "port": self.named, "flags": "master",
                              "num-other-sentinels": 2, "config-epoch": self.epoch}  # fmt: skip
                    writer.write(_resp([fields]))
                elif words[:1] == ["HELLO"]:
                    writer.write(_resp({"server": "redis", "version": "7.0.15", "proto": 3, "mode": "sentinel"}))
                else:
                    writer.write(b"+OK\r\n")
                await writer.drain()
        except (ConnectionError, asyncio.IncompleteReadError, ValueError):
            pass
        finally:
            writer.close()

    async def stop(self) -> None:
        if self.server is not None:
            self.server.close()
            await self.server.wait_closed()


async def test_a_sentinel_that_still_names_a_replica_is_outvoted_and_a_replica_is_never_used() -> None:
    """The first Sentinel asked names the replica (as one that missed a failover does): the store follows the
    newest configuration the others give, and a replica named with the newest epoch is refused, not read
    (a read there finds no room, and a node would drop it)."""
    with topology() as t:
        primary, replica = t.ports
        real = ",".join(f"127.0.0.1:{p}" for p in t.sentinel_ports)
        prefix = f"mps:{secrets.token_hex(4)}:"
        stale, newest = LaggingSentinel(replica, epoch=0), LaggingSentinel(replica, epoch=99)
        stores: list[RedisStore] = []
        try:
            stale_port, newest_port = await stale.start(), await newest.start()
            outvoted = RedisStore(f"redis+sentinel://127.0.0.1:{stale_port},{real}/{SERVICE}/0", prefix=prefix)
            stores.append(outvoted)
            await outvoted.create_room(meta_for("r1"))
            _wait(lambda: command(replica, "DBSIZE") not in (b"", b":0\r\n"), 10, "the replica did not sync")
            assert stale.asked >= 1
            assert (await outvoted.load("r1")) is not None
            fooled = RedisStore(f"redis+sentinel://127.0.0.1:{newest_port}/{SERVICE}/0", prefix=prefix)
            stores.append(fooled)
            with pytest.raises(StoreUnavailable, match="not the primary"):
                await fooled.load("r1")
            with pytest.raises(StoreUnavailable):
                await fooled.get_meta("r1")
            assert newest.asked >= 2
            assert command(primary, "ROLE").startswith(b"*3\r\n$6\r\nmaster")
        finally:
            for store in stores:
                await store.close()
            await stale.stop()
            await newest.stop()
