"""One client connection as the rest of the server sees it: an ordered outbox and a close.

Owns: encoding outgoing messages once, the bounded outgoing queue drained by one writer task (so a
room actor never waits on a slow socket), the per-connection rate limit, and a close that always ends:
queued frames get a deadline to drain, then the close handshake, then the transport is aborted.
Must not: know rooms or games. The transport (server.net.app) supplies `send`, `close` and `kill`; tests
supply fakes.

The outbox is bounded twice: in frames (`queue_size`) and in bytes (`queue_bytes`). A reader that falls
behind either bound is closed with 1013 and its queued frames are dropped at once (the memory is freed
before the close handshake starts, not when the peer finally goes away). Frames pushed with a `key`
(`push_latest`) are coalesced: while one of that key is still queued, a newer one replaces it in place,
so a watcher that reads slowly gets the latest lobby, never a backlog of stale ones.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any

from protocol import encode
from server.metrics import Metrics

log = logging.getLogger("marcopolo.conn")
_ids = itertools.count(1)

#: close code for a reader that fell behind its outbox bound (documented in docs/protocol.md)
TOO_SLOW = 1013


class _Slot:
    """A coalesced frame in the queue: its bytes may be replaced until the writer takes it."""

    __slots__ = ("key", "data")

    def __init__(self, key: str, data: bytes) -> None:
        self.key = key
        self.data = data


class Conn:
    """A connection: `push` queues a message; a writer task sends queued frames in order."""

    def __init__(
        self,
        send: Callable[[bytes], Awaitable[None]],
        close: Callable[[int, str], Awaitable[None]],
        metrics: Metrics,
        *,
        queue_size: int = 2000,
        queue_bytes: int = 4 * 1024 * 1024,
        rate: float = 40.0,
        burst: int = 80,
        prefix: str = "c",
        kill: Callable[[], Any] | None = None,
        close_timeout: float = 5.0,
        addr: str = "",
        write_now: Callable[[bytes], bool] | None = None,
    ) -> None:
        #: unique across nodes when `prefix` is the node id (rooms on other nodes key viewers by it)
        self.id = f"{prefix}:{next(_ids)}"
        self.player: str | None = None
        self.name: str | None = None
        #: v1.2: the player is an account (signed up or in), and the hash of the token it said hello with
        self.account = False
        self.token_key: str | None = None
        #: v1.2: the players this connection's player blocks: their chat lines are not sent to it
        self.blocked: set[str] = set()
        #: the client's address (after trusted-proxy resolution), for per-address limits
        self.addr = addr
        self.closed = False
        self.close_code: int | None = None
        self._send = send
        #: writes a frame at once, without a task switch, when the socket takes it (False: queue it)
        self._write_now = write_now
        self._close = close
        self._kill = kill
        self._close_timeout = close_timeout
        self._metrics = metrics
        self._queue: deque[bytes | _Slot] = deque()
        self._queued_bytes = 0
        self._latest: dict[str, _Slot] = {}
        self._wake = asyncio.Event()
        self._idle = asyncio.Event()
        self._idle.set()
        self._queue_size = queue_size
        self._queue_bytes = queue_bytes
        self._writer: asyncio.Task[None] | None = None
        self._closer: asyncio.Task[None] | None = None
        self._rate = rate
        self._burst = float(burst)
        self._tokens = float(burst)
        self._stamp = time.monotonic()
        self.refused = 0
        #: monotonic time of the last frame received (the transport updates it)
        self.last_seen = time.monotonic()

    # ---- the outbox -------------------------------------------------------------------------

    def start(self) -> None:
        """Ready to send (call once, inside the event loop). Without `write_now` the writer task starts
        now; with it, only once a frame has to wait (an idle connection then costs no task)."""
        if self._write_now is None:
            self._start_writer()

    def _start_writer(self) -> None:
        if self._writer is None:
            self._writer = asyncio.get_running_loop().create_task(self._write_loop(), name=f"conn-{self.id}-writer")

    @property
    def queued(self) -> tuple[int, int]:
        """Frames and bytes waiting in the outbox."""
        return len(self._queue), self._queued_bytes

    def push(self, msg: dict[str, Any]) -> None:
        """Queue one message; a reader too slow to keep up is disconnected rather than buffered."""
        if self.closed:
            return
        if self.blocked and msg.get("t") == "chat" and msg.get("from") in self.blocked:
            return  # a line of a player this one blocks (rooms and lobby, relayed or not)
        self.push_bytes(encode(msg), str(msg.get("t", "?")))

    def push_bytes(self, data: bytes, t: str = "?") -> None:
        """Queue one encoded frame (the same bytes may be shared by many connections)."""
        if self.closed:
            return
        if self._write_now is not None and self._idle.is_set() and self._write_now(data):
            # nothing queued or being sent: the frame goes straight to the socket, in order
            self._metrics.sent(t, len(data))
            return
        if len(self._queue) >= self._queue_size or self._queued_bytes + len(data) > self._queue_bytes:
            self._overflow()
            return
        self._queue.append(data)
        self._start_writer()
        self._queued_bytes += len(data)
        self._count(t, data)

    def push_latest(self, key: str, data: bytes, t: str = "?") -> None:
        """Queue a frame that replaces the still unsent frame of the same `key`, if any."""
        if self.closed:
            return
        slot = self._latest.get(key)
        if slot is not None:
            self._queued_bytes += len(data) - len(slot.data)
            slot.data = data
            if self._queued_bytes > self._queue_bytes:
                self._overflow()
            return
        if len(self._queue) >= self._queue_size or self._queued_bytes + len(data) > self._queue_bytes:
            self._overflow()
            return
        slot = self._latest[key] = _Slot(key, data)
        self._queue.append(slot)
        self._start_writer()
        self._queued_bytes += len(data)
        self._count(t, data)

    def _count(self, t: str, data: bytes) -> None:
        self._idle.clear()
        self._wake.set()
        self._metrics.sent(t, len(data))

    def _overflow(self) -> None:
        frames, size = self.queued
        log.warning("connection %s too slow (%d frames, %d bytes queued); closing", self.id, frames, size)
        self._metrics.errors.labels("too_slow").inc()
        self.abort(TOO_SLOW, "too slow: outgoing queue full", drop=True)

    def _drop(self) -> None:
        """Free every queued frame now."""
        self._queue.clear()
        self._latest.clear()
        self._queued_bytes = 0
        self._idle.set()
        self._wake.set()

    # ---- rate limit -------------------------------------------------------------------------

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

    # ---- closing ----------------------------------------------------------------------------

    def abort(self, code: int, reason: str, *, drop: bool = False) -> None:
        """Close the connection (non-blocking): after what is queued unless `drop`, within a deadline.

        The queued frames get `close_timeout` seconds to drain, then the close handshake gets the rest
        of that time; past it the transport is aborted, so the socket is gone whatever the peer does.
        """
        if self.closed:
            return
        self.closed = True
        self.close_code = code
        if drop:
            self._drop()
        self._closer = asyncio.get_running_loop().create_task(self._shut(code, reason), name=f"conn-{self.id}-close")

    async def _shut(self, code: int, reason: str) -> None:
        try:
            async with asyncio.timeout(self._close_timeout):
                await self._idle.wait()
                await self._close(code, reason)
        except TimeoutError:
            log.info("connection %s did not close within %.1f s; aborting", self.id, self._close_timeout)
        except Exception:  # noqa: BLE001 - the socket is gone either way
            pass
        finally:
            self._drop()
            if self._writer is not None:
                self._writer.cancel()
            if self._kill is not None:
                with contextlib.suppress(Exception):
                    self._kill()

    async def finish(self) -> None:
        """Stop the writer and free the queue (the socket is gone or closing)."""
        self.closed = True
        self._drop()
        for task in (self._writer, self._closer):
            if task is None or task is asyncio.current_task():
                continue
            if task is self._writer:
                task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    async def _write_loop(self) -> None:
        while True:
            while not self._queue:
                self._idle.set()
                self._wake.clear()
                await self._wake.wait()
            item = self._queue.popleft()
            if isinstance(item, _Slot):
                if self._latest.get(item.key) is item:
                    del self._latest[item.key]
                data = item.data
            else:
                data = item
            self._queued_bytes -= len(data)
            try:
                await self._send(data)
            except Exception:  # noqa: BLE001 - a closed socket ends the writer quietly
                self._drop()
                return
