"""Fixtures for the terminal-client tests: an in-process server and captured consoles."""

from __future__ import annotations

import asyncio
import io
from collections.abc import AsyncIterator, Callable

import pytest
from rich.console import Console

from server.config import Settings
from server.net.app import App


@pytest.fixture
async def app() -> AsyncIterator[App]:
    """A server node on a free port with the memory store; client seeds allowed."""
    node = App(Settings(port=0, allow_client_seed=True))
    await node.start()
    try:
        yield node
    finally:
        await node.stop()


@pytest.fixture
def url(app: App) -> str:
    """The WebSocket URL of the test server."""
    return f"ws://127.0.0.1:{app.port}/ws"


class Screen:
    """A rich console writing to memory; `text` is everything printed so far."""

    def __init__(self) -> None:
        self.buf = io.StringIO()
        self.console = Console(file=self.buf, width=120, color_system=None, force_terminal=False)

    @property
    def text(self) -> str:
        return self.buf.getvalue()


@pytest.fixture
def screen() -> Callable[[], Screen]:
    """Make a fresh captured console."""
    return Screen


async def until(cond: Callable[[], object], timeout: float = 30.0, what: str = "condition") -> None:
    """Poll `cond` until it is true (fails the test after `timeout` seconds)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not cond():
        if loop.time() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.01)
