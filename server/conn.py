"""One client connection as the rest of the server sees it: an ordered outbox and a close.

Owns: encoding outgoing messages once, the bounded outgoing queue drained by one writer task (so a
room actor never waits on a slow socket), the per-connection rate limit.
Must not: know rooms or games. The transport (server.app) supplies `send` and `close`; tests supply fakes.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from protocol import encode
from server.metrics import Metrics

log = logging.getLogger("marcopolo.conn")
_ids = itertools.count(1)


class Conn:
    """A connection: `push` queues a message; a writer task sends queued frames in order."""

    def __init__(
        self,
        send: Callable[[bytes], Awaitable[None]],
        close: Callable[[int, str], Awaitable[None]],
        metrics: Metrics,
        *,
        queue_size: int = 2000,
        rate: float = 40.0,
        burst: int = 80,
        prefix: str = "c",
    ) -> None:
        #: unique across nodes when `prefix` is the node id (rooms on other nodes key viewers by it)
        self.id = f"{prefix}:{next(_ids)}"
        self.player: str | None = None
        self.name: str | None = None
        self.closed = False
        self._send = send
        self._close = close
        self._metrics = metrics
        self._queue: asyncio.Queue[bytes | None] = asyncio.Queue(queue_size)
        self._writer: asyncio.Task[None] | None = None
        self._rate = rate
        self._burst = float(burst)
        self._tokens = float(burst)
        self._stamp = time.monotonic()
        self.refused = 0

    def start(self) -> None:
        """Start the writer task (call once, inside the event loop)."""
        self._writer = asyncio.create_task(self._write_loop(), name=f"conn-{self.id}-writer")

    def push(self, msg: dict[str, Any]) -> None:
        """Queue one message; a reader too slow to keep up is disconnected rather than buffered forever."""
        if self.closed:
            return
        data = encode(msg)
        try:
            self._queue.put_nowait(data)
        except asyncio.QueueFull:
            log.warning("connection %s too slow; closing", self.id)
            self.abort(1013, "too slow: outgoing queue full")
            return
        self._metrics.messages_out.labels(msg.get("t", "?")).inc()
        self._metrics.bytes_out.inc(len(data))

    def allow(self) -> bool:
        """Token bucket: True if one more frame may be processed now."""
        now = time.monotonic()
        self._tokens = min(self._burst, self._tokens + (now - self._stamp) * self._rate)
        self._stamp = now
        if self._tokens >= 1:
            self._tokens -= 1
            self.refused = 0
            return True
        self.refused += 1
        return False

    def abort(self, code: int, reason: str) -> None:
        """Close the connection after what is already queued (non-blocking)."""
        if self.closed:
            return
        self.closed = True
        asyncio.get_running_loop().create_task(self._close(code, reason))
        try:
            self._queue.put_nowait(None)
        except asyncio.QueueFull:
            pass

    async def finish(self) -> None:
        """Stop the writer once the queue is drained (the socket is gone or closing)."""
        self.closed = True
        if self._writer is not None:
            self._writer.cancel()
            try:
                await self._writer
            except asyncio.CancelledError:
                pass
            except Exception:  # noqa: BLE001 - the socket is gone either way
                pass

    async def _write_loop(self) -> None:
        while True:
            data = await self._queue.get()
            if data is None:
                return
            try:
                await self._send(data)
            except Exception:  # noqa: BLE001 - a closed socket ends the writer quietly
                return
