"""Fixtures for browser tests: a server subprocess serving the built client, Debian's Chromium via Playwright.

The server runs in its own process (Playwright's sync API must not run inside an asyncio loop, and the
browser must reach a server that keeps running between test steps). Skips, with the reason, when Chromium
or the built client is missing.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import re
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Callable, Coroutine, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest

from clients.client import Client

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")
DIST = ROOT / "clients" / "web" / "dist"
ARTIFACTS = ROOT / "tests" / "artifacts"
T = TypeVar("T")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def built() -> bool:
    """Whether dist/ holds a build: index.html and the files it links (`assets/app-HASH.js`, ...)."""
    index = DIST / "index.html"
    if not index.is_file():
        return False
    links = re.findall(r'\b(?:href|src)="([^"#:]+)"', index.read_text())
    return any(ln.endswith(".js") for ln in links) and all((DIST / ln).is_file() for ln in links)


@contextlib.contextmanager
def running_server(*extra: str) -> Iterator[str]:
    """A server process with client seeds allowed (and `extra` flags); yields its base URL."""
    if not built():
        pytest.skip("the browser client is not built: run `make web` (clients/web/dist/ is missing)")
    port = _free_port()
    cmd = [sys.executable, "-m", "server", "--port", str(port), "--allow-client-seed", "--log-level", "WARNING", *extra]
    proc = subprocess.Popen(cmd, cwd=ROOT, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 15
        while True:
            try:
                with urllib.request.urlopen(f"{base}/healthz", timeout=1) as r:
                    if r.status == 200:
                        break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("the server did not start") from None
                time.sleep(0.1)
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    """A server process with client seeds allowed; yields its base URL (http://127.0.0.1:PORT)."""
    with running_server() as base:
        yield base


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's Chromium, headless, driven by Playwright's sync API."""
    from playwright.sync_api import sync_playwright

    pw = sync_playwright().start()
    try:
        b = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield b
        b.close()
    finally:
        pw.stop()


@pytest.fixture
def artifacts() -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS


def run_async(make: Callable[[], Coroutine[Any, Any, T]]) -> T:
    """Run a coroutine to completion in a thread of its own (Playwright's sync API holds this thread's loop)."""
    out: list[T] = []
    err: list[BaseException] = []

    def target() -> None:
        try:
            out.append(asyncio.run(make()))
        except BaseException as exc:  # re-raised in the caller's thread
            err.append(exc)

    t = threading.Thread(target=target, name="run-async")
    t.start()
    t.join(60)
    if err:
        raise err[0]
    assert out, "the coroutine did not finish in 60 s"
    return out[0]


def _needs_attention(view: dict[str, Any]) -> bool:
    return view.get("prompt") is not None or view.get("result") is not None


class Bot:
    """A random-move player over the Python client, in its own thread and event loop (a person's name: the
    server keeps names with the word "bot" for its own bots)."""

    def __init__(self, url: str, room: str, name: str = "Otto", seed: int = 0) -> None:
        self.url, self.room, self.name = url, room, name
        self.rng = random.Random(seed)
        self.result: dict[str, Any] | None = None
        self.seat: int | None = None
        self.moves = 0
        self.error: BaseException | None = None
        self.joined = threading.Event()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"bot-{name}", daemon=True)

    def start(self) -> Bot:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(15)

    def _run(self) -> None:
        try:
            asyncio.run(self._play())
        except BaseException as exc:  # reported to the test through `self.error`
            self.error = exc

    async def _play(self) -> None:
        async with Client(self.url) as c:
            await c.hello(self.name)
            self.seat = await c.join(self.room)
            self.joined.set()
            while not self._stop.is_set():
                with contextlib.suppress(TimeoutError):
                    await c.wait_for(self.room, _needs_attention, 0.5)
                view = c.view(self.room)
                if view.get("result") is not None:
                    self.result = view["result"]
                    return
                if view.get("prompt"):
                    await c.move(self.room, self.rng.choice(view["prompt"]["options"]))
                    self.moves += 1
