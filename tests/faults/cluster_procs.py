"""A Redis Cluster of the test's own: three primaries with one replica each, real `redis-server` processes.

Owns: starting six `redis-server --cluster-enabled yes` on free loopback ports, joining them with
`redis-cli --cluster create ... --cluster-replicas 1`, waiting (bounded) until every node says `cluster_state:ok`,
killing one (a primary, to fail it over) and starting it again, and stopping every process by its PID.
Must not: reach anything but loopback, or touch the shared Redis on 6379.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

REDIS_SERVER = shutil.which("redis-server")
REDIS_CLI = shutil.which("redis-cli")
#: how long a primary may be unreachable before its replica is promoted (the cluster's `cluster-node-timeout`)
NODE_TIMEOUT_MS = 1000


def free_ports(n: int) -> list[int]:
    """`n` distinct free ports whose cluster bus ports (port + 10000) are free too."""
    ports: list[int] = []
    while len(ports) < n:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = int(s.getsockname()[1])
        if port + 10000 > 65535 or port in ports:
            continue
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port + 10000))
            except OSError:
                continue
        ports.append(port)
    return ports


def command(port: int, *words: str, timeout: float = 1.0) -> str:
    """One inline command on a raw socket; '' if nothing answers."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
            s.sendall((" ".join(words) + "\r\n").encode())
            data = b""
            deadline = time.monotonic() + timeout
            while time.monotonic() < deadline:
                chunk = s.recv(65536)
                data += chunk
                if not chunk or _complete(data):
                    break
            return data.decode(errors="replace")
    except OSError:
        return ""


def _complete(data: bytes) -> bool:
    """Whether a reply of one simple, integer, error or bulk string is complete."""
    if data[:1] in (b"+", b"-", b":"):
        return data.endswith(b"\r\n")
    if data[:1] == b"$":
        head, _, rest = data.partition(b"\r\n")
        return int(head[1:]) < 0 or len(rest) >= int(head[1:]) + 2
    return data.endswith(b"\r\n")


def wait_for(cond: object, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if cond():  # type: ignore[operator]
            return
        time.sleep(0.05)
    raise TimeoutError(f"{what} within {timeout} s")


class ClusterNodeProc:
    """One cluster-enabled redis-server (append-only, fsync `always` or `everysec`), stopped by its PID."""

    def __init__(self, port: int, root: str, fsync: str = "always") -> None:
        self.port = port
        self.fsync = fsync
        self.dir = tempfile.mkdtemp(prefix=f"n{port}-", dir=root)
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        assert REDIS_SERVER is not None
        args = [
            REDIS_SERVER, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
            "--appendonly", "yes", "--appendfsync", self.fsync, "--dir", self.dir,
            "--logfile", os.path.join(self.dir, "redis.log"),
            "--cluster-enabled", "yes", "--cluster-config-file", os.path.join(self.dir, "nodes.conf"),
            "--cluster-node-timeout", str(NODE_TIMEOUT_MS), "--repl-diskless-sync-delay", "0",
            "--cluster-replica-validity-factor", "0", "--cluster-require-full-coverage", "no",
        ]  # fmt: skip
        self.proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_for(lambda: command(self.port, "PING").startswith("+PONG"), 10, f"redis on {self.port} did not answer")

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)
        self.proc = None

    @property
    def running(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def info(self, section: str) -> dict[str, str]:
        text = command(self.port, "INFO", section)
        return dict(line.split(":", 1) for line in text.splitlines() if ":" in line and not line.startswith("#"))

    def role(self) -> str:
        return self.info("replication").get("role", "")


class LocalRedisCluster:
    """Six cluster nodes (three primaries, a replica each) in one temporary folder. `fsync` is each node's
    `appendfsync`: `always` where a test kills a node and audits what it acknowledged, `everysec` otherwise."""

    def __init__(self, nodes: int = 6, fsync: str = "always") -> None:
        assert REDIS_SERVER is not None and REDIS_CLI is not None, "redis-server and redis-cli are needed"
        self.root = tempfile.mkdtemp(prefix="mp-cluster-")
        self.nodes = [ClusterNodeProc(port, self.root, fsync) for port in free_ports(nodes)]

    @property
    def url(self) -> str:
        return "redis+cluster://" + ",".join(f"127.0.0.1:{n.port}" for n in self.nodes)

    def start(self) -> None:
        for node in self.nodes:
            node.start()
        assert REDIS_CLI is not None
        args = [REDIS_CLI, "--cluster", "create", *(f"127.0.0.1:{n.port}" for n in self.nodes),
                "--cluster-replicas", "1", "--cluster-yes"]  # fmt: skip
        done = subprocess.run(args, capture_output=True, timeout=60)
        assert done.returncode == 0, done.stdout.decode()[-2000:] + done.stderr.decode()[-2000:]
        wait_for(self.ready, 30, "the cluster did not reach cluster_state:ok with a replica per primary")

    def ready(self) -> bool:
        """Every running node says `cluster_state:ok`, and every primary has a replica in sync."""
        running = [n for n in self.nodes if n.running]
        if not all("cluster_state:ok" in command(n.port, "CLUSTER", "INFO") for n in running):
            return False
        primaries = [n for n in running if n.role() == "master"]
        return len(primaries) == 3 and all(self.replicas_online(n) >= 1 for n in primaries)

    def replicas_online(self, node: ClusterNodeProc) -> int:
        info = node.info("replication")
        return sum(1 for k, v in info.items() if k.startswith("slave") and "state=online" in v)

    def primaries(self) -> list[ClusterNodeProc]:
        return [n for n in self.nodes if n.running and n.role() == "master"]

    def owner_of(self, key: str) -> ClusterNodeProc:
        """The primary serving `key`'s slot now."""
        for node in self.primaries():
            if not command(node.port, "EXISTS", key).startswith("-MOVED"):
                return node
        raise AssertionError(f"no primary serves {key!r}")

    def replica_of(self, primary: ClusterNodeProc) -> ClusterNodeProc | None:
        for node in self.nodes:
            if node.running and node is not primary:
                info = node.info("replication")
                if info.get("role") == "slave" and info.get("master_port") == str(primary.port):
                    return node
        return None

    def logs(self, tail: int = 2500) -> str:
        out = []
        for node in self.nodes:
            log = Path(node.dir) / "redis.log"
            if log.exists():
                out.append(f"--- redis {node.port}\n{log.read_text(errors='replace')[-tail:]}")
        return "\n".join(out)

    def stop(self) -> None:
        for node in self.nodes:
            node.kill()
        shutil.rmtree(self.root, ignore_errors=True)


@contextlib.contextmanager
def local_cluster() -> Iterator[LocalRedisCluster]:
    c = LocalRedisCluster()
    try:
        c.start()
        yield c
    finally:
        c.stop()
