"""The transport: one `websockets` server for the WebSocket at /ws and plain HTTP on the same port.

Owns: sockets, frame types and sizes at the socket level, HTTP routes (/healthz, /metrics, the
browser client's static files at /), the start-up sequence (open the store, load rooms, listen).
Must not: interpret messages beyond handing binary frames to the hub.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import mimetypes
import signal
from http import HTTPStatus
from pathlib import Path
from typing import Any

from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.datastructures import Headers
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request, Response

from server.cluster import RedisCluster
from server.config import Settings
from server.conn import Conn
from server.hub import Hub
from server.store import RedisStore, Store, StoreUnavailable, open_store

log = logging.getLogger("marcopolo.app")

DEFAULT_WEB_ROOT = Path(__file__).resolve().parent.parent / "clients" / "web" / "dist"


def _response(status: int, body: bytes, content_type: str, extra: dict[str, str] | None = None) -> Response:
    headers = Headers()
    headers["Content-Type"] = content_type
    headers["Content-Length"] = str(len(body))
    headers["Cache-Control"] = "no-cache"
    for k, v in (extra or {}).items():
        headers[k] = v
    return Response(status, HTTPStatus(status).phrase, headers, body)


class App:
    """A running node: hub + store + listening socket."""

    def __init__(self, settings: Settings, store: Store | None = None) -> None:
        self.settings = settings
        self.store = store or open_store(settings.store, prefix=settings.prefix, trim_log=not settings.keep_log)
        cluster = (
            RedisCluster(self.store, settings.node_id, lease_ms=settings.lease_ms, check_every=settings.check_every)
            if isinstance(self.store, RedisStore)
            else None
        )
        self.hub = Hub(settings, self.store, cluster=cluster)
        self.server: Server | None = None
        self._bootstrap: asyncio.Task[None] | None = None
        root = Path(settings.web_root) if settings.web_root else DEFAULT_WEB_ROOT
        self.web_root = root.resolve()

    async def start(self, wait_ready: bool = True) -> None:
        """Listen at once; join the cluster and load the unfinished rooms as soon as the store answers.

        Until then `/healthz` answers 503 and requests get `unavailable`. With `wait_ready` (tests, and a
        store that answers) this returns only once the node is ready.
        """
        self.server = await serve(
            self._handler,
            self.settings.host,
            self.settings.port,
            process_request=self._http,
            max_size=self.settings.hard_frame_limit,
            compression=None,
            ping_interval=20,
            ping_timeout=20,
        )
        self._bootstrap = asyncio.get_running_loop().create_task(self._become_ready(), name="bootstrap")
        if wait_ready:
            await asyncio.shield(self._bootstrap)

    async def _become_ready(self) -> None:
        delay = 0.1
        while True:
            try:
                await self.store.ping()
                await self.hub.cluster.start(self.hub)
                break
            except StoreUnavailable as err:
                log.warning("store %s does not answer (%s); retrying in %.1f s", self.settings.store, err, delay)
            except Exception as err:  # noqa: BLE001 - e.g. pub/sub refused: the same wait
                log.warning("cluster start failed (%s); retrying in %.1f s", err, delay)
                await self.hub.cluster.stop()
            await asyncio.sleep(delay)
            delay = min(delay * 2, 5.0)
        while True:
            try:
                loaded = await self.hub.load_rooms()
                break
            except StoreUnavailable as err:
                log.warning("loading rooms failed (%s); retrying in %.1f s", err, delay)
            await asyncio.sleep(delay)
            delay = min(delay * 2, 5.0)
        self.hub.ready = True
        log.info("ready: loaded %d unfinished rooms from %s", loaded, self.settings.store)

    @property
    def port(self) -> int:
        assert self.server is not None
        sock = next(iter(self.server.sockets))
        return int(sock.getsockname()[1])

    async def stop(self) -> None:
        if self._bootstrap is not None and not self._bootstrap.done():
            self._bootstrap.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._bootstrap
        # rooms first: their leases are handed back at once, so other nodes take them while sockets close
        await self.hub.close()
        if self.server is not None:
            self.server.close()
            await self.server.wait_closed()
        await self.hub.cluster.stop()
        await self.store.close()

    # ---- HTTP -------------------------------------------------------------------------------

    async def _http(self, connection: ServerConnection, request: Request) -> Response | None:
        path = request.path.split("?", 1)[0]
        if path == "/ws":
            return None  # the WebSocket handshake goes on
        if path == "/healthz":
            body: dict[str, Any] = {
                "status": "ok",
                "node": self.settings.node_id,
                "rooms": len(self.hub.rooms),
                "connections": len(self.hub.conns),
                "store": "redis" if self.settings.store.startswith("redis") else "memory",
            }
            status = 200
            try:
                await self.store.ping()
            except StoreUnavailable:
                body["status"] = "store_unavailable"
                status = 503
            else:
                if not self.hub.ready:
                    body["status"] = "starting"
                    status = 503
            return _response(status, json.dumps(body).encode(), "application/json")
        if path == "/metrics":
            return _response(200, self.hub.metrics.render(), "text/plain; version=0.0.4; charset=utf-8")
        return self._static(path)

    def _static(self, path: str) -> Response:
        rel = "index.html" if path in ("", "/") else path.lstrip("/")
        target = (self.web_root / rel).resolve()
        if not target.is_relative_to(self.web_root) or not target.is_file():
            return _response(404, b"not found\n", "text/plain; charset=utf-8")
        ctype = mimetypes.guess_type(target.name)[0] or "application/octet-stream"
        if ctype.startswith("text/") or ctype in ("application/javascript", "application/json"):
            ctype += "; charset=utf-8"
        return _response(200, target.read_bytes(), ctype)

    # ---- WebSocket --------------------------------------------------------------------------

    async def _handler(self, ws: ServerConnection) -> None:
        s = self.settings

        async def close(code: int, reason: str) -> None:
            await ws.close(code, reason)

        conn = Conn(
            ws.send, close, self.hub.metrics, queue_size=s.out_queue, rate=s.rate, burst=s.burst, prefix=s.node_id
        )
        conn.start()
        self.hub.connected(conn)
        try:
            async for frame in ws:
                if conn.closed:
                    continue  # closing: drain what is in flight so the close handshake can complete
                if isinstance(frame, str):
                    self.hub.error(conn, "bad_message", "frames are binary msgpack, not text", None)
                    continue
                await self.hub.handle_frame(conn, frame)
                if conn.refused > s.flood_close_after:
                    conn.abort(1008, "flooding: too many frames over the rate limit")
        except ConnectionClosed:
            pass
        finally:
            await self.hub.disconnected(conn)
            await asyncio.sleep(0)  # let queued frames reach the writer before it stops
            await conn.finish()


async def run(settings: Settings) -> None:
    """Run a node until SIGTERM or SIGINT (Ctrl-C), then close sockets, rooms and the store."""
    app = App(settings)
    await app.start(wait_ready=False)
    log.info("listening on ws://%s:%d/ws (node %s)", settings.host, app.port, settings.node_id)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    try:
        await stop.wait()
        log.info("stopping")
    finally:
        await app.stop()
