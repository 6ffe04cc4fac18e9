"""The transport: one `websockets` server for the WebSocket at /ws and plain HTTP on the same port.

Owns: sockets, frame types and sizes at the socket level, HTTP routes (/healthz, /metrics, /push/key, the
browser client's static files at /), the start-up sequence (open the store, load rooms, listen).
Must not: interpret messages beyond handing binary frames to the hub.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import gc
import ipaddress
import json
import logging
import random
import signal
import time
from http import HTTPStatus
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

from websockets.asyncio.server import Server, ServerConnection, broadcast, serve
from websockets.datastructures import Headers
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request, Response
from websockets.protocol import State

from server.config import Settings
from server.net.admin import PREFIX as ADMIN_PREFIX
from server.net.admin import AdminApi
from server.net.conn import Conn
from server.net.deflate import deflate_extensions
from server.net.static import StaticFiles
from server.node.accounts import PasskeyError
from server.node.cluster import RedisCluster
from server.node.hub import Hub
from server.store import MemoryRecords, open_records, open_store
from server.store.base import Store, StoreUnavailable
from server.store.records_move import move_redis_records
from server.store.redis import RedisStore
from server.store.sqlite import SqliteStore

log = logging.getLogger("marcopolo.app")

#: a frame is written at once (not queued for the writer task) while the socket buffers at most this much
WRITE_NOW_BYTES = 64 * 1024
DEFAULT_WEB_ROOT = Path(__file__).resolve().parents[2] / "clients" / "web" / "dist"


#: the passkey routes' prefix (see `App._passkey`)
PASSKEY_ROUTES = "/auth/passkey/"
#: web push: the server's VAPID public key, `{"key": BASE64URL}` (404 when it sends no web push)
PUSH_KEY_ROUTE = "/push/key"


def _json(status: int, body: dict[str, Any]) -> Response:
    return _response(status, json.dumps(body).encode(), "application/json", {"Cache-Control": "no-store"})


def _response(status: int, body: bytes, content_type: str, extra: dict[str, str] | None = None) -> Response:
    headers = Headers()
    headers["Content-Type"] = content_type
    headers["Content-Length"] = str(len(body))
    headers["Cache-Control"] = "no-cache"
    for k, v in (extra or {}).items():
        if k in headers:
            del headers[k]
        headers[k] = v
    return Response(status, HTTPStatus(status).phrase, headers, body)


Network = ipaddress.IPv4Network | ipaddress.IPv6Network


#: the longest room id a socket's address may name (`/ws?room=ID`); a longer one names none
URL_ROOM_MAX = 64


def url_room(path: str) -> str | None:
    """The room a socket's address names (`/ws?room=ID`, for a proxy routing by room; docs/scale.md), if any."""
    if "?" not in path:
        return None
    room = (parse_qs(urlsplit(path).query).get("room") or [""])[0]
    return room if 0 < len(room) <= URL_ROOM_MAX else None


def parse_proxies(entries: tuple[str, ...] | list[str]) -> list[Network]:
    """Trusted proxies as networks ("10.0.0.1" is one address); raises ValueError on a bad entry."""
    return [ipaddress.ip_network(e.strip(), strict=False) for e in entries if e.strip()]


def client_address(peer: str, forwarded: str | None, proxies: list[Network]) -> str:
    """The client's address: the peer's, unless the peer is a trusted proxy and says who it forwards.

    X-Forwarded-For is read from the right: each trusted proxy appends the address it got the request
    from, so the first entry (from the right) that is not a trusted proxy is the client. Entries that
    are not IP addresses end the walk (a client can write anything on the left of the header).
    """

    def trusted(addr: str) -> bool:
        try:
            ip = ipaddress.ip_address(addr)
        except ValueError:
            return False
        return any(ip in net for net in proxies)

    if not proxies or not forwarded or not trusted(peer):
        return peer
    addr = peer
    for hop in reversed([h.strip() for h in forwarded.split(",")]):
        try:
            ipaddress.ip_address(hop)
        except ValueError:
            break
        addr = hop
        if not trusted(hop):
            break
    return addr


class App:
    """A running node: hub + store + listening socket."""

    def __init__(self, settings: Settings, store: Store | None = None) -> None:
        self.settings = settings
        self.store = store or open_store(
            settings.store,
            prefix=settings.prefix,
            trim_log=not settings.keep_log,
            wait_replicas=settings.wait_replicas,
            takeover=True,  # a SQLite file has one writer: this node
        )
        cluster = (
            RedisCluster(self.store, settings.node_id, lease_ms=settings.lease_ms, check_every=settings.check_every)
            if isinstance(self.store, RedisStore)
            else None
        )
        self.records = open_records(settings.records, self.store, timeout=settings.records_timeout)
        self.hub = Hub(settings, self.store, cluster=cluster, records=self.records)
        #: /admin/ (closed, answering 404, unless --admin-token is set)
        self.admin = AdminApi(self.hub, settings.admin_token)
        self.server: Server | None = None
        self._bootstrap: asyncio.Task[None] | None = None
        root = Path(settings.web_root) if settings.web_root else DEFAULT_WEB_ROOT
        self.web_root = root.resolve()
        #: the browser client's files at / (cache headers, ETags, precompressed copies: server/net/static.py)
        self.static = StaticFiles(self.web_root)
        if settings.hello_auth not in ("none", "secret", "hmac"):
            raise ValueError(f"hello_auth must be none, secret or hmac, not {settings.hello_auth!r}")
        if settings.hello_auth != "none" and len(settings.hello_secret) < 16:
            raise ValueError("a closed server (hello_auth) needs a hello_secret of at least 16 characters")
        if settings.smtp_host and "@" not in settings.smtp_from:
            raise ValueError("turn e-mails (smtp_host) need a From address (smtp_from)")
        if settings.public_url and not settings.public_url.startswith(("https://", "http://")):
            raise ValueError("public_url is the server's http(s):// address as players reach it")
        if settings.admin_token and len(settings.admin_token) < 16:
            raise ValueError("an admin_token has at least 16 characters (or is empty: /admin/ is then off)")
        self.proxies = parse_proxies(settings.trusted_proxies)
        #: open WebSocket connections by client address (for `max_conns_per_addr`)
        self.by_addr: dict[str, set[ServerConnection]] = {}
        self.addr_of: dict[ServerConnection, str] = {}
        #: every open connection's hello deadline and next ping (one sweeper task for all, see _keepalive)
        self._watched: dict[Conn, _Watch] = {}
        self._sweeper: asyncio.Task[None] | None = None
        self.hub.metrics.table_sizes.append(
            lambda: {"addresses": len(self.by_addr), "sockets": len(self.addr_of), "keepalive": len(self._watched)}
        )

    async def start(self, wait_ready: bool = True) -> None:
        """Listen at once; join the cluster and read the index of unfinished rooms as soon as the store answers,
        then load the rooms no node runs in the background (the node serves meanwhile).

        Until then `/healthz` answers 503 and requests get `unavailable`. With `wait_ready` (tests, and a
        store that answers) this returns only once the node is ready and has loaded those rooms.
        """
        if isinstance(self.store, SqliteStore) and self.store.takeover:
            self.store.lock()  # StoreLocked: another server has this file; this one does not start
        self.server = await serve(
            self._handler,
            self.settings.host,
            self.settings.port,
            process_request=self._http,
            max_size=self.settings.hard_frame_limit,
            compression=None,
            extensions=deflate_extensions(self.settings),
            # keepalive is the handler's own (see _keepalive): the library's ping waits forever on a
            # peer that does not read, so it never times such a peer out
            ping_interval=None,
            close_timeout=self.settings.close_timeout,
            reuse_port=self.settings.reuse_port or None,
        )
        self._bootstrap = asyncio.get_running_loop().create_task(self._become_ready(), name="bootstrap")
        if wait_ready:
            await asyncio.shield(self._bootstrap)
            await self.hub.loaded()

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
        await self._records_ready()
        while True:
            try:
                found = await self.hub.load_rooms(background=True)
                break
            except StoreUnavailable as err:
                log.warning("reading the unfinished rooms failed (%s); retrying in %.1f s", err, delay)
            await asyncio.sleep(delay)
            delay = min(delay * 2, 5.0)
        self.hub.ready = True
        log.info("ready: %d unfinished rooms from %s to run here (loading them now)", found, self.settings.store)

    async def _records_ready(self) -> None:
        """Migrate the records database and move what an earlier version kept in Redis, once. A records
        database that is down does not keep the node from serving games: records requests answer `unavailable`
        until it answers (and the first use migrates it)."""
        try:
            await self.records.migrate()
        except Exception as err:  # noqa: BLE001 - down, refused, or a migration that failed: say so, serve games
            log.error("records database not ready (%s): records requests answer unavailable until it is", err)
            return
        # (a Redis Cluster never held the records of earlier versions: they could not run on one)
        earlier = isinstance(self.store, RedisStore) and not self.store.sharded
        if earlier and not isinstance(self.records, MemoryRecords):
            try:
                await move_redis_records(self.store, self.records, self.settings.node_id)
            except StoreUnavailable as err:
                log.error("records kept in Redis not moved yet (%s); the next start tries again", err)

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
        if self._sweeper is not None:
            self._sweeper.cancel()
        await self.hub.cluster.stop()
        await self.records.close()
        await self.store.close()

    # ---- HTTP -------------------------------------------------------------------------------

    async def _http(self, connection: ServerConnection, request: Request) -> Response | None:
        """Every HTTP request (the WebSocket handshake at /ws included): the answer, or None to go on with the
        handshake. The node answers one request per connection (websockets closes it after a response), and a
        HEAD gets the GET's headers without its body."""
        response = await self._route(connection, request)
        if response is not None:
            if "Connection" not in response.headers:
                response.headers["Connection"] = "close"
            if getattr(request, "method", "GET") == "HEAD":
                response.body = b""  # (Content-Length stays the GET's)
        return response

    async def _route(self, connection: ServerConnection, request: Request) -> Response | None:
        path = request.path.split("?", 1)[0]
        if path == "/ws":
            return self._admit(connection, request)
        if path == "/healthz":
            body: dict[str, Any] = {
                "status": "ok",
                "node": self.settings.node_id,
                "rooms": len(self.hub.rooms),
                "connections": len(self.hub.conns),
                "store": self.settings.store_kind,
            }
            status = 200
            try:
                await self.store.ping()
            except StoreUnavailable:
                body["status"] = "store_unavailable"
                status = 503
            else:
                refusing = self.hub.refusing()
                if not self.hub.ready:
                    body["status"] = "starting"
                    status = 503
                elif refusing is not None:
                    body["status"] = "store_refusing_writes"
                    body["reason"] = refusing
                    status = 503
            return _response(status, json.dumps(body).encode(), "application/json")
        if path == "/metrics":
            return _response(200, self.hub.metrics.render(), "text/plain; version=0.0.4; charset=utf-8")
        if path == PUSH_KEY_ROUTE:
            # (v1.2 addition) web push: the VAPID public key a browser subscribes with (`applicationServerKey`)
            key = self.hub.signals.push_key
            if key is None:
                return _json(404, {"error": "not_found", "message": "this server sends no web push"})
            return _json(200, {"key": key})
        if path.startswith(PASSKEY_ROUTES):
            return await self._passkey(connection, request, path)
        if path.startswith(ADMIN_PREFIX):
            peer = str(connection.remote_address[0]) if connection.remote_address else ""
            return await self.admin.handle(request, client_address(peer, request.headers.get("X-Forwarded-For"),
                                                                   self.proxies))  # fmt: skip
        if getattr(request, "method", "GET") not in ("GET", "HEAD"):
            return _json(405, {"error": "method_not_allowed", "message": "only GET and HEAD here"})
        return self.static.respond(path, request.headers)

    # ---- passkeys (WebAuthn) --------------------------------------------------------------------

    def _relying_party(self, request: Request) -> tuple[str, list[str]]:
        """The relying party id and the origins a ceremony may come from: as configured, else from the host
        the browser asked for (browsers run WebAuthn only on https and on localhost)."""
        host = request.headers.get("Host", "")
        name = host.rsplit(":", 1)[0] if not host.endswith("]") else host
        rp_id = self.settings.passkey_rp_id or name
        origins = list(self.settings.passkey_origins) or [f"https://{host}", f"http://{host}"]
        return rp_id, origins

    async def _passkey(self, connection: ServerConnection, request: Request, path: str) -> Response:
        """The four passkey routes (GET: the node's HTTP side takes no bodies): the account's token in
        `Authorization: Bearer`, the ceremony and the browser's credential JSON (base64url) in `X-Ceremony` and
        `X-Credential`. JSON answers, never cached; a refusal is `{error, message}` with 400, 401 or 429."""
        accounts, store, h = self.hub.accounts, self.store, request.headers
        rp_id, origins = self._relying_party(request)
        auth = h.get("Authorization", "")
        token = auth[7:].strip() if auth.startswith("Bearer ") else None
        try:
            if not self.hub.ready:
                raise PasskeyError(503, "unavailable", "the server is starting; retry")
            if path == "/auth/passkey/register/options":
                body = await accounts.passkey_register_options(store, token, rp_id)
            elif path == "/auth/passkey/login/options":
                body = await accounts.passkey_login_options(store, rp_id)
            elif path in ("/auth/passkey/register", "/auth/passkey/login"):
                ceremony, credential = h.get("X-Ceremony", ""), h.get("X-Credential", "")
                try:
                    credential = base64.urlsafe_b64decode(credential + "=" * (-len(credential) % 4)).decode()
                except (ValueError, UnicodeDecodeError):
                    raise PasskeyError(400, "bad_message", "X-Credential is not base64url") from None
                if path.endswith("/register"):
                    body = await accounts.passkey_register(store, token, ceremony, credential, rp_id, origins)
                else:
                    peer = str(connection.remote_address[0]) if connection.remote_address else ""
                    addr = client_address(peer, h.get("X-Forwarded-For"), self.proxies)
                    label = "".join(ch for ch in (h.get("X-Device") or "") if ch.isprintable())
                    device = label[:32].strip() or None  # shown in `devices`: printable, as a name
                    who = await accounts.passkey_login(store, ceremony, credential, rp_id, origins, addr, device)
                    await self.hub.signed_in_elsewhere(who)
                    body = {"player": who.player, "name": who.name, "token": who.token}
            else:
                raise PasskeyError(404, "not_found", "no such route")
        except PasskeyError as err:
            return _json(err.status, {"error": err.code, "message": err.message})
        except StoreUnavailable:
            return _json(503, {"error": "unavailable", "message": "the store is unavailable; retry"})
        return _json(200, body)

    def _admit(self, connection: ServerConnection, request: Request) -> Response | None:
        """Count the connection against its client address; over the limit it is refused with 429."""
        peer = str(connection.remote_address[0]) if connection.remote_address else ""
        addr = client_address(peer, request.headers.get("X-Forwarded-For"), self.proxies)
        live = self.by_addr.setdefault(addr, set())
        for other in [c for c in live if c.state is State.CLOSED]:  # handshakes that failed
            live.discard(other)
            self.addr_of.pop(other, None)
        limit = self.settings.max_conns_per_addr
        if limit and len(live) >= limit:
            self.hub.metrics.errors.labels("too_many_connections").inc()
            return _response(429, b"too many connections from your address\n", "text/plain; charset=utf-8")
        live.add(connection)
        self.addr_of[connection] = addr
        return None  # the WebSocket handshake goes on

    def _forget(self, ws: ServerConnection) -> None:
        addr = self.addr_of.pop(ws, None)
        if addr is not None:
            live = self.by_addr.get(addr)
            if live is not None:
                live.discard(ws)
                if not live:
                    del self.by_addr[addr]

    # ---- WebSocket --------------------------------------------------------------------------

    async def _handler(self, ws: ServerConnection) -> None:
        s = self.settings

        async def close(code: int, reason: str) -> None:
            await ws.close(code, reason)

        def kill() -> None:
            ws.transport.abort()

        def write_now(data: bytes) -> bool:
            transport = ws.transport
            if (
                ws.protocol.state is not State.OPEN
                or transport is None
                or transport.is_closing()
                or transport.get_write_buffer_size() > WRITE_NOW_BYTES
                or getattr(ws, "send_in_progress", None) is not None
            ):
                return False  # the writer task sends it, waiting for the socket to drain
            broadcast([ws], data)  # frames and writes it now, without waiting for the drain
            return True

        conn = Conn(
            ws.send,
            close,
            self.hub.metrics,
            queue_size=s.out_queue,
            queue_bytes=s.out_bytes,
            rate=s.rate,
            burst=s.burst,
            prefix=s.node_id,
            kill=kill,
            close_timeout=s.close_timeout,
            addr=self.addr_of.get(ws, ""),
            write_now=write_now,
        )
        # the room the socket's address named: a proxy routing by room sent it to the node that room belongs on, and
        # the room follows such sockets there (`Hub.follow_sockets`)
        # (an attribute of the node's own, beside those of `Conn`: the hub and the cluster read it with getattr)
        setattr(conn, "url_room", url_room(ws.request.path) if ws.request is not None else None)  # noqa: B010
        conn.start()
        self.hub.connected(conn)
        self._watch(ws, conn)
        try:
            async for frame in ws:
                conn.last_seen = time.monotonic()
                if conn.closed:
                    continue  # closing: drain what is in flight so the close handshake can complete
                if isinstance(frame, str):
                    self.hub.error(conn, "bad_message", "frames are binary msgpack, not text", None)
                    continue
                await self.hub.handle_frame(conn, frame)
                if conn.refused > s.flood_close_after:
                    conn.abort(1008, "flooding: too many frames over the rate limit", drop=True)
        except ConnectionClosed:
            pass
        finally:
            watch = self._watched.pop(conn, None)
            if watch is not None and watch.ping is not None:
                watch.ping.cancel()
            self._forget(ws)
            await self.hub.disconnected(conn)
            await asyncio.sleep(0)  # let queued frames reach the writer before it stops
            await conn.finish()

    def _watch(self, ws: ServerConnection, conn: Conn) -> None:
        """Put a new connection under the `hello` deadline and the keepalive (see `_keepalive`)."""
        s = self.settings
        now = time.monotonic()
        hello_by = now + s.hello_timeout if s.hello_timeout > 0 else None
        # the first ping at a random point of the second half of the interval: connections opened together
        # (a reconnect storm, a load test) would otherwise all be pinged in the same sweep, every interval
        next_ping = now + s.ping_interval * random.uniform(0.5, 1.0) if s.ping_interval > 0 else None
        self._watched[conn] = _Watch(ws, hello_by, next_ping)
        if self._sweeper is None or self._sweeper.done():
            self._sweeper = asyncio.get_running_loop().create_task(self._keepalive(), name="keepalive")

    async def _keepalive(self) -> None:
        """One task for every connection: the `hello` deadline, then a ping every `ping_interval`; no pong in
        time closes. A ping is bounded as a whole (sending it included): a peer that does not read cannot make
        it wait forever, as it could the library's own keepalive. A ping in flight is a task of its own."""
        s = self.settings
        step = max(0.05, min(t for t in (s.hello_timeout, s.ping_interval, 1.0) if t > 0) / 4)
        while True:
            await asyncio.sleep(step)
            now = time.monotonic()
            for conn, watch in list(self._watched.items()):
                if conn.closed:
                    continue
                if watch.hello_by is not None and conn.player is not None:
                    watch.hello_by = None
                if watch.hello_by is not None and now >= watch.hello_by:
                    conn.abort(1008, f"no hello within {s.hello_timeout:g} s", drop=True)
                    continue
                if watch.next_ping is not None and now >= watch.next_ping and watch.ping is None:
                    watch.ping = asyncio.get_running_loop().create_task(self._ping(conn, watch))

    async def _ping(self, conn: Conn, watch: _Watch) -> None:
        s = self.settings
        try:
            async with asyncio.timeout(s.ping_timeout):
                pong = await watch.ws.ping()
                await pong
        except TimeoutError:
            log.info("connection %s: no pong within %g s; closing", conn.id, s.ping_timeout)
            conn.abort(1011, "keepalive ping timeout", drop=True)
        except (ConnectionClosed, asyncio.CancelledError):
            pass
        finally:
            watch.ping = None
            watch.next_ping = time.monotonic() + s.ping_interval * random.uniform(0.9, 1.1)


class _Watch:
    """What the keepalive knows of one connection."""

    __slots__ = ("ws", "hello_by", "next_ping", "ping")

    def __init__(self, ws: ServerConnection, hello_by: float | None, next_ping: float | None) -> None:
        self.ws = ws
        self.hello_by = hello_by
        self.next_ping = next_ping
        self.ping: asyncio.Task[None] | None = None


async def run(settings: Settings) -> None:
    """Run a node until SIGTERM or SIGINT (Ctrl-C), then close sockets, rooms and the store."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):  # first: a stop asked for during start-up is a clean stop too
        loop.add_signal_handler(sig, stop.set)
    app = App(settings)
    try:
        await app.start(wait_ready=False)
        log.info("listening on ws://%s:%d/ws (node %s)", settings.host, app.port, settings.node_id)
        if settings.store_kind == "memory":
            log.warning(
                "store memory: rooms, players' tokens and finished games live in this process only; "
                "nothing survives a restart (the default store is a SQLite file)"
            )
        # what start-up made (modules, game data, settings) lives as long as the process: keep it out of
        # the collector's generations, so collections walk only what rooms and connections allocate
        gc.freeze()
        # rooms keep many small long-lived objects (states, views): collect the young generation less
        # often and the oldest much less often; measured in docs/benchmarks.md (open loop, p99)
        gc.set_threshold(50_000, 50, 1000)
        await stop.wait()
        log.info("stopping")
    finally:
        await app.stop()
