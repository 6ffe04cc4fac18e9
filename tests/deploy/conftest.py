"""Helpers for the deploy tests: the repository's deploy/ folder, external tools, real processes by PID."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import IO

import pytest

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"


def tool(name: str, why: str) -> str:
    """The path of an external program, or skip the test saying which Debian package brings it."""
    path = shutil.which(name)
    if path is None:
        pytest.skip(f"`{name}` is not installed here ({why}); .ci/run installs it")
    return path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def clean_env() -> dict[str, str]:
    """The environment for child processes, without MARCOPOLO_* settings of the caller's shell."""
    return {k: v for k, v in os.environ.items() if not k.startswith("MARCOPOLO_")}


def wait_port(port: int, timeout: float = 20.0, proc: subprocess.Popen[bytes] | None = None) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            raise AssertionError(f"{proc.args!r} exited with {proc.returncode} before listening on {port}")
        with socket.socket() as s:
            s.settimeout(0.2)
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.05)
    raise AssertionError(f"nothing listens on 127.0.0.1:{port} after {timeout} s")


def http_status(url: str, timeout: float = 2.0) -> int | None:
    """The HTTP status of a GET, or None when nothing answers."""
    try:
        with urllib.request.urlopen(url, timeout=timeout) as resp:
            return int(resp.status)
    except urllib.error.HTTPError as err:
        err.close()  # it holds the response's socket
        return int(err.code)
    except (OSError, urllib.error.URLError):
        return None


def wait_http_ok(url: str, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if http_status(url) == 200:
            return
        time.sleep(0.1)
    raise AssertionError(f"{url} did not answer 200 within {timeout} s")


class Processes:
    """Child processes started by a test; each one is stopped by its own PID at the end."""

    def __init__(self, logs: Path) -> None:
        self.logs = logs
        self.procs: dict[str, subprocess.Popen[bytes]] = {}
        self._files: list[IO[bytes]] = []

    def start(self, name: str, args: list[str], *, cwd: Path = ROOT) -> subprocess.Popen[bytes]:
        out = (self.logs / f"{name}.log").open("wb")
        self._files.append(out)
        proc = subprocess.Popen(args, cwd=cwd, env=clean_env(), stdout=out, stderr=subprocess.STDOUT)
        self.procs[name] = proc
        return proc

    def log(self, name: str) -> str:
        return (self.logs / f"{name}.log").read_text(errors="replace")

    def send(self, name: str, sig: signal.Signals) -> None:
        """Send a signal to one process by its PID (SIGKILL: a crash, SIGTERM: a clean stop); don't wait."""
        os.kill(self.procs[name].pid, sig)

    def stop_all(self) -> None:
        for proc in reversed(list(self.procs.values())):
            if proc.poll() is None:
                os.kill(proc.pid, signal.SIGTERM)
        for proc in reversed(list(self.procs.values())):
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.kill(proc.pid, signal.SIGKILL)
                proc.wait(timeout=10)
        for f in self._files:
            f.close()


@pytest.fixture
def processes(tmp_path: Path) -> Iterator[Processes]:
    procs = Processes(tmp_path)
    try:
        yield procs
    finally:
        procs.stop_all()
