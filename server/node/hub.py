"""The node's switchboard: sessions, the rooms it runs, the lobby, and request dispatch.

Owns: `hello` (tokens, players, resuming a player on a new connection), room creation and loading
(every unfinished room is loaded from the store at start) with the standard room extensions, the lobby and
its watchers, routing room requests to room actors (here, or forwarded to the node that runs the room),
turning every failure into an `error` answer with a wire code.
Must not: touch sockets (connections are `Connection` objects the transport supplies), decide any game rule,
or reach into a room: it talks to rooms through `Room.submit` and the `RoomHost` callbacks.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import logging
import secrets
import time
from collections import OrderedDict
from typing import Any, Protocol

from pydantic import ValidationError

from protocol import ProtocolError, decode_client, encode
from protocol import messages as m
from protocol.codec import peek_id
from server.config import Settings
from server.games import all_games
from server.metrics import Metrics
from server.node import lobby
from server.node.accounts import DEVICE_ID_CHARS, Accounts, Identity, token_key
from server.node.cluster import LocalCluster, RedisCluster, RemoteConn
from server.node.moderation import Moderation
from server.node.signals import Signals
from server.rooms import botpool
from server.rooms.clock import DEFAULT_MAX_EXPIRIES
from server.rooms.core import Room, RoomError, now_ms
from server.rooms.meta import RoomMeta
from server.rooms.names import NameRefused, check_name
from server.rooms.replay import restore
from server.rooms.results import seat_ratings
from server.rooms.standard import standard_extensions
from server.rooms.timers import away_from_lobby
from server.store import records_for
from server.store.base import Store, StoreRefused, StoreUnavailable
from server.store.records import Records

log = logging.getLogger("marcopolo.hub")

LOBBY_DELAY = 0.05
#: rooms of the store's index of unfinished rooms read in one page at start-up, and loaded at once at most
LOAD_PAGE = 500
LOAD_CONCURRENCY = 32
#: seconds a new room is left to the node creating it before another node's sweep may claim it as an orphan
ADOPT_GRACE = 10.0
#: the longest think time a room may ask of its search bots (`create.options.bot_think_ms`)
MAX_BOT_THINK_MS = 10_000
#: how long a re-join forwarded to another node may go unanswered before it is sent again
JOIN_CONFIRM_SECONDS = 1.5
#: /healthz answers 503 this long after the store refused a room's write (unless a write of the room succeeded)
REFUSING_SHOWN = 10.0
#: requests answered here at their deadline whose late answers are still watched for (the oldest are forgotten)
RELAY_LATE_KEPT = 10_000
#: routing by room (docs/scale.md): a room runs here at least this long (seconds) before it may be handed to the node
#: that holds most of its viewers' sockets (the sockets of a room that was just created, taken over or handed over
#: are still arriving)
FOLLOW_SETTLE = 2.0
#: seconds between two looks at where the viewers of this node's rooms have their sockets
FOLLOW_EVERY = 1.0
#: how long the other nodes leave a room handed to a node to that node (then any node may take it, as after a crash)
HANDOVER_WAIT = 1.0
#: a node heard from in the last this many seconds is alive enough to be handed a room
HANDOVER_ALIVE = 3.0
#: a turn-based room's clock when `create` names none: three days a move
TURN_BASED_DEFAULT_SECONDS = 3 * 86400
#: v1.1 requests handled by server.node.lobby: (hub, conn, msg) -> None, answering on the connection
LOBBY_REQUESTS: dict[type, Any] = {
    m.QuickMatch: lobby.quick_match,
    m.ChatSend: lobby.lobby_chat,
    m.ChatLog: lobby.chat_log,
    m.HistoryRequest: lobby.history,
    m.ReplayRequest: lobby.replay,
    m.RatingsRequest: lobby.leaderboard,
    m.PlayerRequest: lobby.player_page,
    m.MyGamesRequest: lobby.my_games,
    m.Rematch: lobby.rematch,
}  # seconds: lobby pushes are coalesced over this window


class Connection(Protocol):
    """What the node needs of a client connection (`server.net.conn.Conn` is the one the transport makes)."""

    id: str
    player: str | None
    name: str | None
    #: the client's address, for per-address limits ("" when unknown)
    addr: str
    #: v1.2: the players this connection's player blocks
    blocked: set[str]

    def push(self, msg: dict[str, Any]) -> None: ...

    def push_bytes(self, data: bytes, t: str = "?") -> None: ...

    def push_latest(self, key: str, data: bytes, t: str = "?") -> None: ...

    def allow(self) -> bool: ...

    def abort(self, code: int, reason: str, *, drop: bool = False) -> None: ...


def room_info(meta: RoomMeta) -> dict[str, Any]:
    """A room as the lobby lists it."""
    return {
        "room": meta.room,
        "game": meta.game,
        "seats": meta.seats,
        "players": list(meta.names),
        "status": meta.status,
        "public": meta.public,
        "ratings": meta.ratings,
        "guests": meta.guests(),
        **({"mode": meta.mode} if meta.mode else {}),
        **({"away": True} if meta.status == "playing" and meta.away_since else {}),
    }


def _ref(node: str, conn: Connection) -> dict[str, Any]:
    """A local connection as other nodes address it."""
    ref = {"node": node, "id": conn.id, "player": conn.player, "name": conn.name, "account": conn.account}
    room = getattr(conn, "url_room", None)
    return {**ref, "room": room} if room else ref


def hello_token(secret: str, name: str, expires: int) -> str:
    """A signed `hello.auth` for `name`, valid until `expires` (Unix seconds): what an operator's
    login service hands out when the server runs with `hello_auth="hmac"`."""
    sig = hmac.new(secret.encode(), f"{expires}.{name}".encode(), hashlib.sha256).hexdigest()
    return f"{expires}.{sig}"


class RemoteRoom:
    """A room run by another node: requests are forwarded there, its pushes come back over the cluster."""

    def __init__(self, hub: Hub, owner: str, room_id: str) -> None:
        self.hub = hub
        self.owner = owner
        self.id = room_id

    async def submit(self, kind: str, conn: Connection, re: int | None = None, **args: Any) -> None:
        hub = self.hub
        if kind == "join":
            hub.remote_views.setdefault(self.id, {})[conn.id] = bool(args.get("spectate"))
            hub.remote_owner[self.id] = self.owner
            if re is None:  # a re-join the server makes on its own: nobody else would notice it got lost
                hub.join_pending[(self.id, conn.id)] = time.monotonic() + JOIN_CONFIRM_SECONDS
            if args.get("invite"):
                hub.invites[self.id] = args["invite"]
        elif kind == "leave":
            hub.remote_views.get(self.id, {}).pop(conn.id, None)
        hub.forward(self.owner, self.id, kind, conn, re, args)


class Hub:
    def __init__(
        self,
        settings: Settings,
        store: Store,
        metrics: Metrics | None = None,
        cluster: LocalCluster | RedisCluster | None = None,
        records: Records | None = None,
    ) -> None:
        self.settings = settings
        self.node = settings.node_id
        self.store = store
        #: chat, the archive of finished games, ratings: a database apart from the room store
        self.records = records if records is not None else records_for(store)
        self.metrics = metrics or Metrics()
        self.cluster = cluster or LocalCluster(self.node, store)
        self.accounts = Accounts(settings, self.records, self.metrics)
        self.moderation = Moderation(self, settings)
        self.rooms: dict[str, Room] = {}
        #: v1.2: e-mail and webhook signals of turn-based games (the rooms' turn clocks tell it of their turns)
        self.signals = Signals(settings, self.records, self.metrics, self.rooms.get)
        self.players: dict[str, Connection] = {}  # player id -> its current connection
        self.conns: set[Connection] = set()
        self.local_conns: dict[str, Connection] = {}  # by connection id, for pushes relayed from other nodes
        self.watchers: set[Connection] = set()
        #: rooms of other nodes that local connections watch: room -> {connection id: spectating}
        self.remote_views: dict[str, dict[str, bool]] = {}
        self.remote_owner: dict[str, str] = {}
        #: re-joins forwarded to another node and not yet answered `joined`: (room, conn id) -> deadline.
        #: Pub/sub drops what a node publishes while the other one is (re-)subscribing, so an unanswered
        #: re-join is sent again (a join of a seat already held only re-attaches it).
        self.join_pending: dict[tuple[str, str], float] = {}
        #: requests with an id forwarded to another node and not answered yet: (conn id, id) -> (deadline timer,
        #: connection, kind). At the deadline this node answers them itself (see `_relay_expired`).
        self.relayed: dict[tuple[str, int], tuple[asyncio.TimerHandle, Connection, str]] = {}
        #: requests answered here at their deadline: a late answer from the room's node is dropped (bounded)
        self.relay_late: OrderedDict[tuple[str, int], None] = OrderedDict()
        self._rooms_dirty = False
        self.metrics.before_render.append(self._render_rooms)
        self.metrics.table_sizes.append(self.table_sizes)
        #: connections of other nodes that watch rooms of this node
        self.remote_conns: dict[str, RemoteConn] = {}
        self._lobby_task: asyncio.Task[None] | None = None
        self._room_locks: dict[str, asyncio.Lock] = {}
        #: False until the store answered and the unfinished rooms were loaded (requests get `unavailable`)
        self.ready = False
        self._follow_lock = asyncio.Lock()
        #: requests forwarded to rooms while this node loads them, by room, in order of arrival
        self._parked: dict[str, list[dict[str, Any]]] = {}
        #: invites of private rooms local viewers joined elsewhere (to re-join them when the room moves)
        self.invites: dict[str, str] = {}
        #: the start-up's loading of the rooms it found (see `load_rooms`)
        self._loader: asyncio.Task[None] | None = None
        #: rooms quick match is creating here (set once they run): seats claimed in them wait for that, not the store
        self.match_pending: dict[str, asyncio.Event] = {}
        #: rooms each player created that may still be waiting (pruned on the player's next create)
        self._created_by: dict[str, set[str]] = {}
        #: when each room began to run here (monotonic seconds), for `follow_sockets`
        self._arrived: dict[str, float] = {}
        self._followed_at = 0.0
        #: rooms handed to another node a moment ago (by this node or another): room -> (node, until when the other
        #: nodes leave the room to it)
        self.handed: dict[str, tuple[str, float]] = {}
        #: rooms this node is handing over: requests forwarded to them meanwhile, sent on once their next node has them
        self._handing: dict[str, list[dict[str, Any]]] = {}
        #: when each other node last forwarded a request here (monotonic seconds): alive enough to be handed a room
        self._peer_seen: dict[str, float] = {}
        self.metrics.relayed_out.append(self._relayed_out)

    # ---- start and stop ---------------------------------------------------------------------

    async def load_rooms(self, background: bool = False) -> int:
        """Load every unfinished room no other node runs (crash recovery), reading the store's index of unfinished
        rooms a page at a time; returns how many run here now.

        With `background` (a node starting): only find those rooms, and load them in a task of their own
        (`LOAD_CONCURRENCY` at a time) while the node already serves; returns how many it found. A request for one
        of them meanwhile loads it at once (`room_for`), as a takeover does."""
        count = 0
        orphans: list[str] = []
        cursor: str | None = None
        while True:
            page, cursor = await self.store.open_rooms(cursor, LOAD_PAGE)
            if background:
                orphans += await self._orphans(page)
            else:
                count += await self.adopt(page, grace=False)
            if cursor is None:
                break
        if background:
            self._loader = asyncio.get_running_loop().create_task(self._load_later(orphans), name="load-rooms")
            return len(orphans)
        self._count_rooms()
        return count

    async def loaded(self) -> None:
        """Wait until the rooms `load_rooms(background=True)` found are loaded (at once if none are left)."""
        if self._loader is not None:
            await asyncio.shield(self._loader)

    async def _orphans(self, rooms: list[str]) -> list[str]:
        """Those of `rooms` not run here that no node runs (no lease; or this node's own, from an earlier process)."""
        todo = [r for r in rooms if r not in self.rooms and not self._handed_elsewhere(r)]
        owners = await self.cluster.owners(todo) if todo else []
        return [r for r, owner in zip(todo, owners, strict=True) if owner is None or owner == self.node]

    async def _load_later(self, rooms: list[str]) -> None:
        t0 = time.monotonic()
        loaded = 0
        for start in range(0, len(rooms), LOAD_PAGE):
            while True:
                try:
                    loaded += await self.adopt(rooms[start : start + LOAD_PAGE], grace=False)
                    break
                except StoreUnavailable as err:
                    log.warning("loading rooms: %s; retrying in 1 s", err)
                    await asyncio.sleep(1.0)
        took = time.monotonic() - t0
        log.info("loaded %d of the %d unfinished rooms found at start in %.1f s", loaded, len(rooms), took)

    async def adopt(self, rooms: list[str], grace: bool = True) -> int:
        """Claim and load those of `rooms` that no node runs (their lease lapsed; or it is this node's own, from an
        earlier process), `LOAD_CONCURRENCY` at a time; returns how many of `rooms` run here now. With `grace`
        (the cluster's sweep), a room created less than `ADOPT_GRACE` seconds ago is left to its creator."""
        orphans = await self._orphans(rooms)
        gate = asyncio.Semaphore(LOAD_CONCURRENCY)

        async def one(room_id: str) -> bool:
            async with gate:
                if grace:
                    meta = await self.store.get_meta(room_id)
                    young = meta is None or float(meta.get("created") or 0) > time.time() - ADOPT_GRACE
                    if young or meta.get("status") == "finished":
                        return False
                return await self._claim_and_load(room_id, takeover=grace and self.cluster.clustered) is not None

        done = await asyncio.gather(*(one(r) for r in orphans), return_exceptions=True)
        for room_id, got in zip(orphans, done, strict=True):
            if isinstance(got, StoreUnavailable):
                raise got
            if isinstance(got, BaseException):
                log.error("room %s: not loaded: %r", room_id, got)
        if orphans:
            self._count_rooms()
        return sum(1 for r in rooms if r in self.rooms)

    async def _claim_and_load(self, room_id: str, takeover: bool = False) -> Room | None:
        """Take the room's lease and load it; None if another node holds it or there is no such room."""
        lock = self._room_locks.setdefault(room_id, asyncio.Lock())
        async with lock:
            if room_id in self.rooms:
                return self.rooms[room_id]
            self._parked.setdefault(room_id, [])
            try:
                return await self._claim_and_load_locked(room_id, takeover)
            finally:
                parked = self._parked.pop(room_id, [])
                room = self.rooms.get(room_id)
                for payload in parked:
                    if room is None:
                        self._refuse_remote(payload)
                    else:
                        rc = self._remote_conn(payload["conn"])
                        asyncio.get_running_loop().create_task(self._remote_submit(room, rc, payload))

    async def _claim_and_load_locked(self, room_id: str, takeover: bool) -> Room | None:
        token = await self.cluster.claim(room_id)
        if token is None:
            return None
        try:
            loaded = await self.store.load(room_id)
        except BaseException:
            await self.cluster.release(room_id, token)
            raise
        if loaded is None:
            await self.cluster.release(room_id, token)
            return None
        try:
            stored, state, snap_v = restore(loaded.meta, loaded.snap_v, loaded.snapshot, loaded.log)
            meta = RoomMeta.from_dict(stored)
        except BaseException:
            log.exception("room %s: could not be restored", room_id)
            await self.cluster.release(room_id, token)
            raise
        meta.snap_v = snap_v
        # a load slower than the lease must not run a room whose lease another node took meanwhile
        if not await self.store.renew_lease(room_id, token, self.cluster.lease_ms):
            log.warning("room %s: the lease lapsed and was taken while loading", room_id)
            return None
        log.info("room %s: runs here from v=%d (lease %s)", room_id, meta.v, token)
        if takeover:
            self.metrics.takeovers.inc()
        return self._new_room(meta, state, token, grace=self.settings.presence_grace)

    def _new_room(self, meta: RoomMeta, state: dict[str, Any] | None, fence: str | None, grace: float = 0.0) -> Room:
        room = Room(
            self,
            meta,
            state,
            extensions=standard_extensions(self.settings, presence_grace=grace),
            snapshot_every=self.settings.snapshot_every,
            finished_ttl=self.settings.finished_ttl,
            fence=fence,
            lease_ms=self.cluster.lease_ms,  # one node: a day (its SQLite file is locked to it); else the cluster's
        )
        self.rooms[room.id] = room
        self._arrived[room.id] = time.monotonic()
        self.handed.pop(room.id, None)
        room.start()
        self._room_locks.pop(room.id, None)
        return room

    def leases(self) -> list[tuple[str, str]]:
        """(room, fencing token) of every room this node runs, for the batched renewal."""
        return [(rid, r.fence) for rid, r in self.rooms.items() if r.fence is not None and not r.fenced]

    async def close(self) -> None:
        """Stop every room and hand its lease back, so another node can take it at once."""
        self.ready = False
        if self._loader is not None:
            self._loader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._loader
        # each room leaves the table before its lease is handed back: a renewal running meanwhile would read a
        # released lease of a room still here as taken by another node (a false warning, a needless lease_lost)
        while self.rooms:
            room = self.rooms.pop(next(iter(self.rooms)))
            await room.stop()
            await self.cluster.release(room.id, room.fence)
        await self.signals.close()
        if self._lobby_task is not None:
            self._lobby_task.cancel()
        await self.moderation.close()

    # ---- the Hub protocol rooms call back ---------------------------------------------------

    def room_changed(self, room: Room) -> None:
        self._count_rooms()
        self.lobby_changed()

    def room_idle(self, room: Room) -> None:
        """A finished room nobody watches is dropped from memory (it stays readable in the store)."""
        if room.status == "finished" and not room.viewers:
            self.rooms.pop(room.id, None)

            async def drop() -> None:
                await room.stop()
                await self.cluster.release(room.id, room.fence)

            asyncio.get_running_loop().create_task(drop())
            self._count_rooms()

    def room_fenced(self, room: Room) -> None:
        """The room found another node owns it: drop it here and move its viewers there."""
        self.metrics.rooms_fenced.inc()
        asyncio.get_running_loop().create_task(self.lease_lost(room.id, only=room))

    async def seat_changed(self, room: Room, player: str, held: bool) -> None:
        """Keep the store's index of a player's rooms (for `welcome.rooms` on any node)."""
        await self.store.mark_seat(player, room.id, held)

    async def forget_seat(self, player: str, room_id: str) -> None:
        """Drop a finished (or expired) room from the player's index, once a read met it: the index then holds the
        player's unfinished rooms and those that finished since, not every game the player ever played."""
        with contextlib.suppress(StoreUnavailable):
            await self.store.mark_seat(player, room_id, False)

    # ---- connections ------------------------------------------------------------------------

    def connected(self, conn: Connection) -> None:
        self.conns.add(conn)
        self.local_conns[conn.id] = conn
        self.metrics.connections.set(len(self.conns))

    async def disconnected(self, conn: Connection) -> None:
        if conn not in self.conns:
            return
        self.conns.discard(conn)
        self.local_conns.pop(conn.id, None)
        self.watchers.discard(conn)
        self.metrics.connections.set(len(self.conns))
        if conn.player is not None and self.players.get(conn.player) is conn:
            del self.players[conn.player]
        await self._detach_everywhere(conn)

    async def _detach_everywhere(self, conn: Connection) -> None:
        """The connection stops viewing every room, here and on other nodes."""
        for room in list(self.rooms.values()):
            if conn.id in room.viewers:
                try:
                    await room.submit("detach", conn)
                except RoomError:
                    pass
        for room_id, views in list(self.remote_views.items()):
            if views.pop(conn.id, None) is not None and room_id in self.remote_owner:
                detach = {"op": "detach", "room": room_id, "conn": _ref(self.node, conn)}
                self.cluster.send(self.remote_owner[room_id], detach)

    async def handle_frame(self, conn: Connection, data: bytes) -> None:
        """Decode one binary frame and answer it; every failure becomes an `error` message."""
        re: int | None = None
        try:
            if not conn.allow():
                # refused unread, but answered: a client waiting on this id must not hang
                self.metrics.messages_in.labels("rate_limited").inc()
                raise ProtocolError("rate_limited", "too many frames; slow down", peek_id(data))
            if len(data) > self.settings.max_frame:
                raise ProtocolError("too_large", f"frame over {self.settings.max_frame} bytes", peek_id(data))
            msg = decode_client(data, max_size=self.settings.max_frame, max_depth=self.settings.max_depth)
            re = msg.id
            self.metrics.into(msg.t).inc()
            await self.dispatch(conn, msg)
        except ProtocolError as err:
            self.error(conn, err.code, err.message, err.re)
        except RoomError as err:
            if err.code == "abandoned":  # the outcome is unknown: no answer would be true; the client resyncs
                conn.abort(1012, "the server is restarting; reconnect and sync")
            else:
                self.error(conn, err.code, err.message, re)
        except StoreUnavailable:
            self.error(conn, "unavailable", "the store is unavailable; retry", re)
        except Exception:
            log.exception("fault handling a frame from connection %s", conn.id)
            self.error(conn, "internal", "server fault", re)

    def error(self, conn: Connection, code: str, message: str, re: int | None) -> None:
        self.metrics.errors.labels(code).inc()
        conn.push({"t": "error", "re": re, "code": code, "message": message})

    # ---- dispatch ---------------------------------------------------------------------------

    async def dispatch(self, conn: Connection, msg: Any) -> None:
        if isinstance(msg, m.Hello):
            await self._hello(conn, msg)
            return
        if isinstance(msg, m.Ping):
            conn.push({"t": "pong", "re": msg.id})
            return
        if isinstance(msg, (m.SignUp, m.SignIn)):
            if self.settings.hello_auth != "none" and conn.player is None:  # a closed server: `auth` comes first
                raise RoomError("forbidden", "this server admits only clients with a valid `auth`: say hello first")
            if not self.ready:
                raise RoomError("unavailable", "the server is starting (waiting for the store); retry")
            if isinstance(msg, m.SignUp):
                await self._sign_up(conn, msg)
            else:
                await self._sign_in(conn, msg)
            return
        if conn.player is None:
            raise RoomError("forbidden", "say hello first")
        if not self.ready:
            raise RoomError("unavailable", "the server is starting (waiting for the store); retry")
        if isinstance(msg, m.ListRooms):
            rooms, total = await self.lobby_page(msg.game, msg.offset or 0, msg.limit)
            conn.push({"t": "rooms", "re": msg.id, "rooms": rooms, "total": total})
        elif isinstance(msg, m.WatchLobby):
            self.watchers.add(conn)
            rooms, total = await self.lobby_page()
            conn.push({"t": "rooms", "re": msg.id, "rooms": rooms, "total": total})
        elif isinstance(msg, m.UnwatchLobby):
            self.watchers.discard(conn)
            rooms, total = await self.lobby_page()
            conn.push({"t": "rooms", "re": msg.id, "rooms": rooms, "total": total})
        elif isinstance(msg, m.SignOut):
            await self._sign_out(conn, msg)
        elif isinstance(msg, (m.DevicesRequest, m.ChangePassword, m.DeleteAccount)):
            await self._account_request(conn, msg)
        elif isinstance(msg, m.NotifyRequest):
            answer = await self.signals.request(self._account_of(conn), msg)
            conn.push({**answer, "re": msg.id})
        elif isinstance(msg, (m.Block, m.Unblock, m.BlocksRequest, m.ReportRequest)):
            await self.moderation.request(conn, msg)
        elif isinstance(msg, m.Create):
            room_id = await self.create_room(msg, conn, host=conn.player)
            invite = self.rooms[room_id].meta.invite if room_id in self.rooms else None
            conn.push({"t": "created", "re": msg.id, "room": room_id, "invite": invite})
        elif isinstance(msg, m.Join):
            room = await self.room_for(msg.room)
            host = room.meta.host if isinstance(room, Room) else getattr(await self.meta_of(msg.room), "host", None)
            if await self.moderation.host_blocks(host, conn.player):
                raise RoomError("forbidden", "the room's host does not admit you")
            await self._check_turn_based_seats(conn, room, msg)
            args: dict[str, Any] = {"seat": msg.seat, "spectate": msg.spectate}
            if msg.invite is not None:
                args["invite"] = msg.invite
            await room.submit("join", conn, msg.id, **args)
        elif isinstance(msg, m.Move):
            t0 = time.perf_counter()
            room = await self._followed(msg.room, conn)
            await room.submit("move", conn, msg.id, move=msg.move, v=msg.v)
            self.metrics.move_latency.observe(time.perf_counter() - t0)
        elif isinstance(msg, m.Undo):
            room = await self._followed(msg.room, conn)
            await room.submit("undo", conn, msg.id, v=msg.v)
        elif isinstance(msg, m.Sync):
            room = await self._followed(msg.room, conn)
            await room.submit("sync", conn, msg.id)
        elif isinstance(msg, m.Leave):
            room = await self._followed(msg.room, conn)
            await room.submit("leave", conn, msg.id)
        elif isinstance(msg, m.ChatSend) and msg.room is not None:
            room = await self._followed(msg.room, conn)
            await self.moderation.check_chat(conn, msg.text)
            await room.submit("chat", conn, msg.id, text=msg.text)
        elif isinstance(msg, m.Host):
            room = await self._followed(msg.room, conn)
            await room.submit("host", conn, msg.id, action=msg.action, seat=msg.seat, options=msg.options)
        elif isinstance(msg, m.GameLogRequest):
            room = await self._followed(msg.room, conn)
            await room.submit("game_log", conn, msg.id)
        elif isinstance(msg, m.Autoplay):
            room = await self._followed(msg.room, conn)
            await room.submit("autoplay", conn, msg.id, level=msg.level)
        elif type(msg) in LOBBY_REQUESTS:
            await LOBBY_REQUESTS[type(msg)](self, conn, msg)
        else:  # pragma: no cover - decode_client admits only the types above
            raise RoomError("unknown_type", f"no handler for {msg.t}")

    async def room_for(self, room_id: str) -> Room | RemoteRoom:
        """The room `room_id`: run here (loaded from the store if nobody runs it), or a handle to its node."""
        room = self.rooms.get(room_id)
        if room is not None:
            return room
        if self.cluster.clustered:
            owner = await self.cluster.owner(room_id)
            if owner in (None, self.node) and self._handed_elsewhere(room_id):
                owner = await self._await_handover(room_id)  # its next node is taking it: wait for it, never race it
            if owner is not None and owner != self.node:
                return RemoteRoom(self, owner, room_id)
        loaded = await self._claim_and_load(room_id, takeover=self.cluster.clustered)
        if loaded is not None:
            return loaded
        if self.cluster.clustered:
            owner = await self.cluster.owner(room_id)
            if owner is not None and owner != self.node:
                return RemoteRoom(self, owner, room_id)
            if owner is not None or await self.store.get_meta(room_id) is not None:
                raise RoomError("unavailable", "the room is moving between nodes; retry")
        raise RoomError("not_found", f"no room {room_id!r}")

    async def _followed(self, room_id: str, conn: Connection) -> Room | RemoteRoom:
        """The room for a request of a connection that watches it; if the room moved to another node since
        the connection joined, re-join it there first, so a handover never answers `forbidden`."""
        room = await self.room_for(room_id)
        views = self.remote_views.get(room_id)
        if views is None or conn.id not in views:
            return room
        if isinstance(room, Room):
            spectate = views.pop(conn.id, None)
            if spectate is not None and conn.id not in room.viewers:
                try:
                    invite = self.invites.get(room_id)
                    await room.submit("join", conn, None, seat=None, spectate=spectate, invite=invite)
                except RoomError:
                    self.remote_views.setdefault(room_id, {})[conn.id] = spectate
                    raise
        elif self.remote_owner.get(room_id) != room.owner or (room_id, conn.id) in self.join_pending:
            # (a re-join not yet answered may have been lost: send it again, ahead of this request). When the room
            # moved, every local viewer follows it now, not only this one: the owner noted here keeps
            # `check_remote_rooms` from re-joining the others (they would miss every patch from the new node)
            moved = self.remote_owner.get(room_id) != room.owner
            for cid in [conn.id, *(c for c in views if c != conn.id and moved)]:
                viewer = self.local_conns.get(cid)
                if viewer is None:
                    continue
                args = {"seat": None, "spectate": views[cid], "invite": self.invites.get(room_id)}
                self.forward(room.owner, room_id, "join", viewer, None, args)
                self.join_pending[(room_id, cid)] = time.monotonic() + JOIN_CONFIRM_SECONDS
            self.remote_owner[room_id] = room.owner
        return room

    # ---- the cluster ------------------------------------------------------------------------

    def _relayed_out(self) -> int:
        """Frames for clients published to other nodes since the last scrape (`mp_relay_frames_total{out}`)."""
        n, self.cluster.frames_out = self.cluster.frames_out, 0
        return n

    def _handed_elsewhere(self, room_id: str) -> bool:
        """The room was handed to another node a moment ago: this node leaves it to that one."""
        entry = self.handed.get(room_id)
        if entry is None:
            return False
        if entry[1] < time.monotonic():
            del self.handed[room_id]
            return False
        return entry[0] != self.node

    async def _await_handover(self, room_id: str) -> str | None:
        """The room's node once the node it was handed to holds its lease (at most until `HANDOVER_WAIT` is over)."""
        owner: str | None = None
        for _ in range(int(HANDOVER_WAIT / 0.02) + 1):
            owner = await self.cluster.owner(room_id)
            if owner not in (None, self.node) or not self._handed_elsewhere(room_id):
                break
            await asyncio.sleep(0.02)
        return owner

    async def follow_sockets(self) -> None:
        """Routing by room (docs/scale.md): hand each room run here to the node that holds more of its viewers'
        sockets than this node, so that its frames go out there without crossing Redis. A proxy that sends the
        sockets naming a room (`/ws?room=ID`) to one node puts them all there; the room then follows them once
        (after its creation, a takeover, or a change of the proxy's servers). Without such a proxy a room goes
        where most of its sockets happen to be. Runs every `FOLLOW_EVERY` seconds (from the cluster's watch loop)."""
        if not self.ready or not self.cluster.clustered:
            return
        now = time.monotonic()
        if now - self._followed_at < FOLLOW_EVERY:
            return
        self._followed_at = now
        if len(self._arrived) > 2 * len(self.rooms) + 100:
            self._arrived = {r: t for r, t in self._arrived.items() if r in self.rooms}
        if len(self.handed) > 1000:
            self.handed = {r: e for r, e in self.handed.items() if e[1] >= now}
        if len(self._peer_seen) > 100:  # node ids of nodes gone (a restarted pod's new name) are forgotten
            self._peer_seen = {n: t for n, t in self._peer_seen.items() if now - t < HANDOVER_ALIVE}
        for room in list(self.rooms.values()):
            self._follow_room(room, now)

    def _follow_room(self, room: Room, now: float) -> None:
        """Hand `room` to the node holding more of its routed viewers' sockets (those whose address named the room,
        `/ws?room=ID`: a proxy routing by room put them on the node the room belongs on) than this one: at once when
        none is here, else once it ran here `FOLLOW_SETTLE` seconds (the sockets of a room just taken over are still
        coming back). Sockets that named no room (or another) count for nothing: without routing nothing moves."""
        if room.status == "finished" or room.stopped or room.fenced or not room.viewers:
            return
        counts: dict[str, int] = {}
        for viewer in room.viewers.values():
            if getattr(viewer.conn, "url_room", None) != room.id:
                continue
            node = viewer.conn.node if isinstance(viewer.conn, RemoteConn) else self.node
            counts[node] = counts.get(node, 0) + 1
        here = counts.pop(self.node, 0)
        if not counts or (here and now - self._arrived.get(room.id, now) < FOLLOW_SETTLE):
            return
        best = max(sorted(counts), key=lambda n: counts[n])
        heard = getattr(self.cluster, "heard_from", None)
        alive = now - self._peer_seen.get(best, -HANDOVER_ALIVE) < HANDOVER_ALIVE or (
            heard is None or heard(best, HANDOVER_ALIVE)
        )
        if counts[best] > here and alive:
            log.info("room %s: handed to %s (%d of its sockets there, %d here)", room.id, best, counts[best], here)
            self._hand_over(room, best)

    def _hand_over(self, room: Room, to: str) -> None:
        """Stop the room here and hand its lease to node `to`; local viewers follow it there (as after `lease_lost`)."""
        room_id = room.id
        self._room_moves_away(room)
        self._arrived.pop(room_id, None)
        self.handed[room_id] = (to, time.monotonic() + HANDOVER_WAIT)
        self._handing[room_id] = []
        self.metrics.handovers.inc()
        self._count_rooms()

        async def go() -> None:
            owner: str | None = None
            try:
                await room.stop()  # what is queued in the room is done first, under its lease
                await self.cluster.release(room_id, room.fence, to=to)
                owner = await self._await_handover(room_id)
            finally:
                for payload in self._handing.pop(room_id, []):  # requests that came meanwhile, in order
                    if owner is not None and owner != self.node:
                        self.cluster.send(owner, payload)
                    else:
                        self._refuse_remote(payload)

        asyncio.get_running_loop().create_task(go(), name=f"hand-over-{room_id}")

    def forward(
        self, owner: str, room_id: str, kind: str, conn: Connection, re: int | None, args: dict[str, Any]
    ) -> None:
        """Send a room request to the node that runs the room."""
        req = {"op": "req", "room": room_id, "kind": kind, "re": re, "args": args, "conn": _ref(self.node, conn)}
        if re is not None:
            key = (conn.id, re)
            old = self.relayed.pop(key, None)
            if old is not None:
                old[0].cancel()
            timer = asyncio.get_running_loop().call_later(self.settings.relay_timeout, self._relay_expired, key)
            self.relayed[key] = (timer, conn, kind)
        self.cluster.send(owner, req)

    def refusing(self) -> str | None:
        """Why the store refuses writes, if it refused one of a room here in the last `REFUSING_SHOWN` seconds
        and none of that room's writes succeeded since (what /healthz reports)."""
        now = time.monotonic()
        for room in self.rooms.values():
            if room.refusing is not None and now - room.refusing[1] < REFUSING_SHOWN:
                return room.refusing[0]
        return None

    def _relay_expired(self, key: tuple[str, int]) -> None:
        """A forwarded request got no answer in time (the relay lost it, or its answer): answer it here, once."""
        entry = self.relayed.pop(key, None)
        if entry is None:
            return
        _timer, conn, kind = entry
        self.relay_late[key] = None
        while len(self.relay_late) > RELAY_LATE_KEPT:
            self.relay_late.popitem(last=False)
        self.metrics.relay_timeouts.inc()
        log.warning("no answer to a forwarded %s of connection %s in time", kind, conn.id)
        if kind in ("move", "undo"):  # stored or not, nobody here knows: no answer would be true; the client resyncs
            conn.abort(1012, "no answer from the node running the room; reconnect and sync")
        else:
            self.error(conn, "unavailable", "no answer from the node running the room in time; retry", key[1])

    def _relay_answered(self, cid: str, msg: Any) -> bool:
        """A pushed message for a local connection: False when it answers a request already answered here."""
        re = msg.get("re") if isinstance(msg, dict) else None
        if re is None:
            return True
        key = (cid, re)
        entry = self.relayed.pop(key, None)
        if entry is not None:
            entry[0].cancel()
            return True
        if key in self.relay_late:
            del self.relay_late[key]
            return False
        return True

    async def on_cluster(self, payload: dict[str, Any]) -> None:
        """A message from another node (see server.node.cluster)."""
        op = payload.get("op")
        if op == "push":
            target = self.local_conns.get(payload["conn"])
            msg = payload["msg"]
            if (self.relayed or self.relay_late) and not self._relay_answered(payload["conn"], msg):
                return
            if self.join_pending and isinstance(msg, dict) and msg.get("t") == "joined":
                self.join_pending.pop((str(msg.get("room")), payload["conn"]), None)
            if target is not None:
                self.metrics.relayed_in += 1
                target.push(msg)
        elif op == "frame":
            target = self.local_conns.get(payload["conn"])
            if target is not None:
                self.metrics.relayed_in += 1
                target.push_bytes(payload["data"], str(payload.get("t", "?")))
        elif op == "req":
            room_id = payload["room"]
            if isinstance(payload["conn"].get("node"), str):
                self._peer_seen[payload["conn"]["node"]] = time.monotonic()
            if payload["conn"].get("node") == self.node:  # a request of a socket here, sent back by a room's handover
                own = self.local_conns.get(payload["conn"]["id"])
                if own is not None:
                    asyncio.get_running_loop().create_task(self._serve_own(own, payload))
                return
            room = self.rooms.get(room_id)
            if room is None and room_id in self._parked:  # being loaded here: served in order once it runs
                self._parked[room_id].append(payload)
                return
            if room is None and room_id in self._handing:  # being handed over: sent on to its next node
                self._handing[room_id].append(payload)
                return
            if room is None and self._handed_elsewhere(room_id):  # handed over a moment ago: sent on there
                self.cluster.send(self.handed[room_id][0], payload)
                return
            if room is None:
                self._refuse_remote(payload)
                return
            # one task per request; tasks start in order, so the room's inbox keeps the order of arrival
            rc = self._remote_conn(payload["conn"])
            asyncio.get_running_loop().create_task(self._remote_submit(room, rc, payload))
        elif op == "bounce":  # a room we forwarded to is not on that node: find where it went
            if self.remote_owner.get(payload["room"]) == payload.get("node"):
                self.remote_owner.pop(payload["room"], None)

            async def recheck() -> None:
                await asyncio.sleep(0.1)
                await self.check_remote_rooms()

            asyncio.get_running_loop().create_task(recheck())
        elif op == "detach":
            room = self.rooms.get(payload["room"])
            rc = self.remote_conns.get(payload["conn"]["id"])
            if room is not None and rc is not None:
                with contextlib.suppress(RoomError):
                    await room.submit("detach", rc)
        elif op == "lobby":
            self.lobby_changed(local=True)
        elif op == "chat":
            lobby.lobby_chat_local(self, payload["msg"])
        elif op == "moved":
            room_id, to = payload.get("room"), payload.get("to")
            if isinstance(room_id, str) and isinstance(to, str) and to != self.node:
                self.handed[room_id] = (to, time.monotonic() + HANDOVER_WAIT)
            elif isinstance(room_id, str) and to == self.node:  # handed to this node: take it now
                self.handed.pop(room_id, None)  # (even if this node handed it away a moment ago)
                with contextlib.suppress(RoomError, StoreUnavailable):
                    await self.room_for(room_id)
            if room_id in self.remote_views:
                await self.check_remote_rooms()
        elif op == "close":
            target = self.local_conns.get(payload["conn"])
            if target is not None:
                target.abort(int(payload.get("code", 1012)), str(payload.get("reason", "")))
        elif op == "kick":
            await self._kick(payload["player"], payload.get("keep"), payload.get("tokens"))
        elif op == "banned":
            await self.moderation.close_banned(payload)
        elif op == "chat_deleted":
            self.moderation.chat_deleted_local(payload)
        elif op == "moderator_close":
            room = self.rooms.get(payload["room"])
            if room is not None:
                with contextlib.suppress(RoomError):
                    await room.submit("moderator_close", None, message=str(payload.get("message", "")))

    async def _kick(self, player: str, keep: str | None, tokens: list[str] | None = None) -> None:
        """Close this node's connection of `player` (unless it is `keep`): replaced by a newer one (4001), or, with
        `tokens` (hashes), signed out (4002) when it said hello with one of them."""
        old = self.players.get(player)
        if old is None or old.id == keep:
            return
        if tokens is None:
            old.abort(4001, "replaced by a newer connection of the same player")
        elif getattr(old, "token_key", None) in tokens:
            old.abort(4002, "signed out")
        else:
            return
        await self.disconnected(old)

    async def _signed_out(self, player: str, keep: str, tokens: list[str]) -> None:
        """The connections that said hello with these tokens close (4002), on this node and the others."""
        await self._kick(player, keep, tokens)
        if self.cluster.clustered:
            self.cluster.broadcast({"op": "kick", "player": player, "keep": keep, "tokens": tokens})

    def _refuse_remote(self, payload: dict[str, Any]) -> None:
        """A forwarded request for a room this node does not run: `unavailable`, and the sender re-checks."""
        rc = self._remote_conn(payload["conn"])
        rc.push({"t": "error", "re": payload.get("re"), "code": "unavailable",
                 "message": "the room moved to another node; retry"})  # fmt: skip
        self.cluster.send(rc.node, {"op": "bounce", "room": payload["room"], "node": self.node})

    def _remote_conn(self, ref: dict[str, Any]) -> RemoteConn:
        rc = self.remote_conns.get(ref["id"])
        if rc is None:
            rc = self.remote_conns[ref["id"]] = RemoteConn(self.cluster, ref["node"], ref["id"], None, None)
        rc.player, rc.name, rc.account = ref["player"], ref["name"], bool(ref.get("account"))
        rc.url_room = ref.get("room") if isinstance(ref.get("room"), str) else None
        return rc

    async def _serve_own(self, conn: Connection, payload: dict[str, Any]) -> None:
        """A request this node forwarded for one of its sockets, sent back to it by the node that handed the room here
        meanwhile: served as if it had just come from the socket (re-joining the room here first, if need be)."""
        re = payload.get("re")
        if re is not None:  # answered here, not by a relayed message: its deadline no longer applies
            entry = self.relayed.pop((conn.id, re), None)
            if entry is not None:
                entry[0].cancel()
        try:
            room = await self._followed(payload["room"], conn)
            await room.submit(payload["kind"], conn, re, **payload.get("args", {}))
        except RoomError as err:
            if err.code == "abandoned":
                conn.abort(1012, "the server is restarting; reconnect and sync")
            else:
                self.error(conn, err.code, err.message, re)
        except StoreUnavailable:
            self.error(conn, "unavailable", "the store is unavailable; retry", re)

    async def _remote_submit(self, room: Room, rc: RemoteConn, payload: dict[str, Any]) -> None:
        try:
            await room.submit(payload["kind"], rc, payload.get("re"), **payload.get("args", {}))
            if payload["kind"] == "join" and room.id in self.rooms:
                self._follow_room(room, time.monotonic())  # a room whose sockets are all elsewhere goes there at once
        except RoomError as err:
            if room.stopped and room.id in self._handing:  # stopped for its handover: sent on to its next node
                self._handing[room.id].append(payload)
                return
            if err.code == "abandoned":
                rc.close(1012, "the server is restarting; reconnect and sync")
                return
            self.metrics.errors.labels(err.code).inc()
            rc.push({"t": "error", "re": payload.get("re"), "code": err.code, "message": err.message})

    async def lease_lost(self, room_id: str, only: Room | None = None) -> None:
        """Another node runs this room now: stop it here; local viewers follow it (check_remote_rooms).

        With `only`, nothing happens unless that very room object is still the one here."""
        room = self.rooms.get(room_id)
        if room is None or (only is not None and room is not only):
            return
        self._room_moves_away(room)
        self._count_rooms()
        await room.stop()

    def _room_moves_away(self, room: Room) -> None:
        """The room no longer runs here: its local viewers are kept to follow it to its next node."""
        room_id = room.id
        del self.rooms[room_id]
        if room.meta.invite:
            self.invites[room_id] = room.meta.invite
        views = self.remote_views.setdefault(room_id, {})
        for viewer in list(room.viewers.values()):
            if viewer.conn.id in self.local_conns:
                views[viewer.conn.id] = viewer.seat is None
        self.remote_owner[room_id] = self.node  # stale on purpose: the next check re-routes the viewers

    def resubscribed(self) -> None:
        """This node's pub/sub subscription was down and is back: pushes relayed to it meanwhile are lost,
        so every local viewer of a room on another node is joined there again (a join of a held seat or
        a spectator's join only re-attaches it, and sends the current view)."""
        for room_id in self.remote_views:
            self.remote_owner.pop(room_id, None)
        asyncio.get_running_loop().create_task(self.check_remote_rooms())

    async def check_remote_rooms(self) -> None:
        """Follow rooms whose node changed or died: take them over, or re-join them where they went."""
        async with self._follow_lock:
            await self._check_remote_rooms()

    async def _check_remote_rooms(self) -> None:
        if not self.ready:
            return
        if self.join_pending:
            now = time.monotonic()
            for key, deadline in list(self.join_pending.items()):
                room_id, cid = key
                if cid not in self.local_conns or cid not in self.remote_views.get(room_id, {}):
                    del self.join_pending[key]
                elif deadline < now:  # unanswered: forget the owner, so the loop below joins it again
                    log.info("re-join of %s to %s was not answered; sending it again", cid, room_id)
                    del self.join_pending[key]
                    self.remote_owner.pop(room_id, None)
        for room_id, views in list(self.remote_views.items()):
            if not views:
                self.remote_views.pop(room_id, None)
                self.remote_owner.pop(room_id, None)
                self.invites.pop(room_id, None)
        # every followed room's node in one round trip (one read per room, 4 times a second, cost a node
        # with hundreds of followed rooms more than relaying their frames)
        followed = list(self.remote_views)
        owners = dict(zip(followed, await self.cluster.owners(followed), strict=True)) if followed else {}
        for room_id, views in list(self.remote_views.items()):
            if not views or room_id not in owners:
                continue
            owner = owners[room_id]
            if owner is not None and owner == self.remote_owner.get(room_id) and owner != self.node:
                continue
            if owner in (None, self.node) and self._handed_elsewhere(room_id):
                continue  # handed to another node a moment ago: that node takes it (then the viewers follow)
            if owner is None or owner == self.node:
                try:
                    room = await self.room_for(room_id)
                except RoomError:
                    continue
                if isinstance(room, Room) and owner is None:
                    log.info("room %s: took it over", room_id)
            else:
                room = RemoteRoom(self, owner, room_id)
            log.info("room %s now runs on %s; re-joining %d viewers", room_id, owner or self.node, len(views))
            self.remote_owner.pop(room_id, None)
            for cid in list(views):
                spectate = views.pop(cid, None)  # None: a request of that connection re-joined it meanwhile
                conn = self.local_conns.get(cid)
                if conn is None or spectate is None:
                    continue
                try:
                    invite = self.invites.get(room_id)
                    await room.submit("join", conn, None, seat=None, spectate=spectate, invite=invite)
                except RoomError as err:  # keep following it: the next check (or request) tries again
                    log.warning("re-joining %s to %s failed: %s", cid, room_id, err.message)
                    self.remote_views.setdefault(room_id, {})[cid] = spectate
            if not self.remote_views.get(room_id):
                self.remote_views.pop(room_id, None)

    # ---- hello ------------------------------------------------------------------------------

    async def _hello(self, conn: Connection, msg: m.Hello) -> None:
        if conn.player is not None:
            raise RoomError("forbidden", "this connection already said hello")
        if not self._auth_ok(msg):
            self.error(conn, "forbidden", "this server admits only clients with a valid `auth`", msg.id)
            conn.abort(1008, "hello refused: no valid auth")
            return
        try:
            check_name(msg.name, self.settings.name_max)
        except NameRefused as err:
            raise RoomError("bad_message", f"name: {err}") from None
        session = None
        token = msg.token
        if token is not None:
            key = token_key(token)
            session = await self.accounts.resume(key, await self.store.load_session(key))
        if session is None:
            token = secrets.token_hex(16)  # 128 random bits
            player = "p" + secrets.token_hex(8)
            account = False
        else:
            assert token is not None
            player = str(session["player"])
            account = bool(session.get("account"))
        await self.moderation.check_banned(player, conn.addr)
        # an account is shown by its own name; a guest may not use a name an account holds
        name = str(session["name"]) if account and session else msg.name
        if not account and await self.accounts.name_held(name):
            raise RoomError("name_taken", "an account holds that name (or one that reads the same); choose another")
        try:
            await self.store.save_session(
                token_key(token), {"player": player, "name": name, "account": account}, self.settings.session_ttl
            )
        except StoreRefused:
            if session is None:  # a new token must be stored before it is handed out
                raise
            # a returning player's session is stored already: only its refresh waits for the store
            log.info("hello: the session of %s was not refreshed: the store refuses writes", player)
        await self._welcome(conn, msg.id, player, name, token, account)

    async def _welcome(
        self, conn: Connection, re: int | None, player: str, name: str, token: str, account: bool
    ) -> None:
        """The connection is `player` from now on: the older connection of that player is replaced."""
        old = self.players.get(player)
        if old is not None and old is not conn:
            old.abort(4001, "replaced by a newer connection of the same player")
            await self.disconnected(old)
        conn.player = player
        conn.name = name
        conn.account = account
        conn.token_key = token_key(token)
        self.players[player] = conn
        await self.moderation.load_blocks(conn)
        if self.cluster.clustered:
            self.cluster.broadcast({"op": "kick", "player": player, "keep": conn.id})
        held = []
        for room_id in await self.store.player_rooms(player):
            meta = await self.meta_of(room_id)
            if meta is None or meta.status == "finished" or player not in meta.players:
                await self.forget_seat(player, room_id)
                continue
            held.append({"room": room_id, "game": meta.game, "seat": meta.players.index(player)})
        conn.push({"t": "welcome", "re": re, "player": player, "token": token, "rooms": held,
                   "account": account, "name": name})  # fmt: skip

    async def _sign_up(self, conn: Connection, msg: m.SignUp) -> None:
        if conn.account:
            raise RoomError("forbidden", "this connection is signed in to an account already")
        await self.moderation.check_banned(conn.player, conn.addr)
        guest, guest_key = conn.player, conn.token_key
        who = await self.accounts.sign_up(msg.name, msg.password, conn.addr, guest, msg.device)
        if guest_key is not None:  # the guest's token no longer resumes the player id the account took over
            with contextlib.suppress(StoreUnavailable):
                await self.store.delete_sessions([guest_key])
        await self._signed_in(conn, msg.id, who)

    async def _sign_in(self, conn: Connection, msg: m.SignIn) -> None:
        await self.moderation.check_banned(None, conn.addr)
        who = await self.accounts.sign_in(msg.name, msg.password, conn.addr, msg.device)
        try:
            await self.moderation.check_banned(who.player, None)
        except RoomError:
            with contextlib.suppress(StoreUnavailable):  # the token just made is of no use to a banned account
                await self.records.drop_devices(who.player, [token_key(who.token)])
            raise
        if conn.player is not None and conn.player != who.player:
            await self._forget_identity(conn)  # the guest (or other account) this connection was
        await self._signed_in(conn, msg.id, who)

    async def _signed_in(self, conn: Connection, re: int | None, who: Identity) -> None:
        await self.store.save_session(
            token_key(who.token), {"player": who.player, "name": who.name, "account": True}, self.settings.session_ttl
        )
        await self._welcome(conn, re, who.player, who.name, who.token, True)

    def _account_of(self, conn: Connection) -> str:
        if not conn.account or conn.player is None:
            raise RoomError("forbidden", "this connection is not signed in to an account")
        return conn.player

    async def _account_request(self, conn: Connection, msg: Any) -> None:
        """`devices`, `change_password`, `delete_account` (additions of v1.2)."""
        player = self._account_of(conn)
        if isinstance(msg, m.DevicesRequest):
            devices = await self.accounts.devices(player, conn.token_key)
            conn.push({"t": "devices", "re": msg.id, "devices": devices})
        elif isinstance(msg, m.ChangePassword):
            keys = await self.accounts.change_password(
                player, msg.password, msg.new_password, conn.addr, conn.token_key
            )
            await self.store.delete_sessions(keys)
            await self._signed_out(player, conn.id, keys)
            conn.push({"t": "ok", "re": msg.id})
        else:
            keys = await self.accounts.delete(player, msg.password, conn.addr)
            await self.store.delete_sessions(sorted(set(keys) | {conn.token_key or ""} - {""}))
            await self._signed_out(player, conn.id, keys)
            conn.push({"t": "ok", "re": msg.id})
            conn.abort(4002, "account deleted")

    async def signed_in_elsewhere(self, who: Identity) -> None:
        """A sign-in outside the WebSocket (a passkey): the token's session, so `hello` with it resumes the account."""
        await self.store.save_session(
            token_key(who.token), {"player": who.player, "name": who.name, "account": True}, self.settings.session_ttl
        )

    async def _sign_out(self, conn: Connection, msg: m.SignOut) -> None:
        player = self._account_of(conn)
        if msg.device is not None:
            mine = conn.token_key is not None and conn.token_key[:DEVICE_ID_CHARS] == msg.device
            if not mine:
                keys = await self.accounts.sign_out_device(player, msg.device)
                if not keys:
                    raise RoomError("not_found", "the account has no such device")
                await self.store.delete_sessions(keys)
                await self._signed_out(player, conn.id, keys)
                conn.push({"t": "ok", "re": msg.id})
                return
        keys = await self.accounts.sign_out(player, conn.token_key, bool(msg.everywhere))
        await self.store.delete_sessions(keys)
        await self._signed_out(player, conn.id, keys)
        conn.push({"t": "ok", "re": msg.id})
        conn.abort(4002, "signed out")

    async def _forget_identity(self, conn: Connection) -> None:
        """Detach a connection from the player it was (its rooms, the player table) before it becomes another."""
        if conn.player is not None and self.players.get(conn.player) is conn:
            del self.players[conn.player]
        await self._detach_everywhere(conn)
        conn.player = conn.name = conn.token_key = None
        conn.account = False

    def _auth_ok(self, msg: m.Hello) -> bool:
        """The closed-server check of `hello` (settings `hello_auth`, `hello_secret`)."""
        mode = self.settings.hello_auth
        if mode == "none":
            return True
        secret = self.settings.hello_secret
        given = msg.auth or ""
        if not secret or not given:
            return False
        if mode == "secret":
            return hmac.compare_digest(given.encode(), secret.encode())
        if mode == "hmac":
            expires, _, sig = given.partition(".")
            if not (expires.isascii() and expires.isdigit()) or len(expires) > 12 or int(expires) < time.time():
                return False
            return hmac.compare_digest(given.encode(), hello_token(secret, msg.name, int(expires)).encode())
        return False

    # ---- rooms and lobby --------------------------------------------------------------------

    async def _check_turn_based_seats(self, conn: Connection, room: Room | RemoteRoom, msg: m.Join) -> None:
        """A player holds at most `turn_based_games` seats in unfinished turn-based rooms (a new seat only)."""
        limit = self.settings.turn_based_games
        if msg.spectate or not limit or conn.player is None:
            return
        meta = room.meta if isinstance(room, Room) else await self.meta_of(msg.room)
        if meta is None or meta.mode != "turn_based" or conn.player in meta.players:
            return
        held = 0
        for room_id in await self.store.player_rooms(conn.player):
            other = await self.meta_of(room_id)
            if other is not None and other.mode == "turn_based" and other.status != "finished":
                held += other.players.count(conn.player) > 0
        if held >= limit:
            raise RoomError("rate_limited", f"you hold seats in {held} turn-based games (at most {limit}); finish one")

    def _check_create_limits(self, conn: Connection) -> None:
        """Waiting rooms per player (rooms per minute are counted on all nodes: `Moderation.check_create`)."""
        s = self.settings
        player = conn.player or ""
        if s.waiting_rooms_per_player:
            mine = self._created_by.get(player, set())
            mine = {r for r in mine if r in self.rooms and self.rooms[r].status == "waiting"}
            self._created_by[player] = mine
            if len(self._created_by) > 10_000:  # forget players with no room waiting
                rooms = self.rooms
                self._created_by = {p: rs for p, rs in self._created_by.items() if any(r in rooms for r in rs)}
            if len(mine) >= s.waiting_rooms_per_player:
                raise RoomError(
                    "rate_limited", f"you already have {len(mine)} rooms waiting for players; start one first"
                )

    async def meta_of(self, room_id: str) -> RoomMeta | None:
        """A room's meta: the one of the room run here, else the stored one (None: no such room)."""
        local = self.rooms.get(room_id)
        if local is not None:
            return local.meta
        stored = await self.store.get_meta(room_id)
        return None if stored is None else RoomMeta.from_dict(stored)

    async def create_room(
        self, msg: m.Create, conn: Connection | None = None, host: str | None = None, room_id: str | None = None
    ) -> str:
        """A new room run here (`conn`: its creator's connection, for the creation limits; `host`: the player
        who may use host controls; `room_id`: an id quick match chose). Returns the room id."""
        if conn is not None:
            self._check_create_limits(conn)
            await self.moderation.check_create(conn)
        games = all_games()
        game = games.get(msg.game)
        if game is None:
            raise RoomError("not_found", f"no game {msg.game!r}; known: {', '.join(sorted(games))}")
        if not game.min_seats <= msg.seats <= game.max_seats:
            raise RoomError("bad_message", f"{game.id} takes {game.min_seats} to {game.max_seats} seats")
        levels = [botpool.level_name(x) for x in msg.bots] if isinstance(msg.bots, list) else []
        n_bots = len(levels) if isinstance(msg.bots, list) else msg.bots
        if n_bots >= msg.seats:
            raise RoomError("bad_message", "bots must leave at least one seat for people")
        options = dict(msg.options or {})
        seed = options.pop("seed", None)
        # a room option of every game: a search bot's think time per decision, in milliseconds
        think = options.pop("bot_think_ms", None)
        bad_think = not isinstance(think, int) or isinstance(think, bool) or not 0 < think <= MAX_BOT_THINK_MS
        if think is not None and bad_think:
            raise RoomError("bad_message", f"bot_think_ms must be an integer in [1, {MAX_BOT_THINK_MS}]")
        if seed is not None:
            if not self.settings.allow_client_seed:
                raise RoomError("forbidden", "the seed option is for test servers only")
            if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**63:
                raise RoomError("bad_message", "seed must be an integer in [0, 2**63)")
        else:
            seed = secrets.randbits(63)
        try:
            parsed = game.parse_options(options)
        except ValidationError as err:
            raise RoomError("bad_message", f"bad options: {err.errors()[0]['msg']}") from None
        room_id = room_id or lobby.new_room_id()
        # a private room's invite: random, independent of the room id (which only tells that it exists)
        invite = None if msg.public else secrets.token_urlsafe(16)
        meta = RoomMeta(
            room=room_id,
            game=game.id,
            seats=msg.seats,
            options=parsed.model_dump(),
            seed=seed,
            public=msg.public,
            status="waiting",
            players=[None] * (msg.seats - n_bots) + [f"bot:{i + 1}" for i in range(n_bots)],
            names=[None] * (msg.seats - n_bots)
            + [f"Bot {i + 1}" + (f" ({levels[i]})" if levels else "") for i in range(n_bots)],
            # the level of every bot seat (None for people); named levels show in the bots' names
            bot_levels=[None] * (msg.seats - n_bots) + (levels or [botpool.DEFAULT_LEVEL] * n_bots),
            created=time.time(),
            v=0,
            node=self.settings.node_id,
            invite=invite,
            bot_think_ms=think,
            host=host,
        )
        if getattr(msg, "mode", None) == "turn_based":
            meta.mode = "turn_based"
            meta.on_expiry = msg.on_expiry or "wait"
            meta.turn_seconds = msg.turn_seconds or TURN_BASED_DEFAULT_SECONDS
            meta.max_expiries = msg.max_expiries or DEFAULT_MAX_EXPIRIES
        elif msg.turn_seconds is not None:
            meta.turn_seconds = msg.turn_seconds
            meta.max_expiries = msg.max_expiries or DEFAULT_MAX_EXPIRIES
        if msg.time_bank_seconds and meta.turn_seconds:  # v1.2: each person's seat gets a bank (`server.rooms.clock`)
            meta.time_bank_seconds = msg.time_bank_seconds
        meta.fill_bots_after = msg.fill_bots_after
        meta.ratings = await seat_ratings(self.records, meta)
        # the lease first, under the room's lock: once the store's indexes show the room (quick match may hand a
        # seat in it to another request at once), this node holds it and a `room_for` here waits for it to run
        async with self._room_locks.setdefault(room_id, asyncio.Lock()):
            token = await self.cluster.claim(room_id)
            if token is None:  # pragma: no cover - a new random id nobody can hold
                raise RoomError("unavailable", "the new room's lease is held elsewhere; retry")
            try:
                await self.store.create_room(meta.to_dict())
            except BaseException:
                await self.cluster.release(room_id, token)
                self._room_locks.pop(room_id, None)
                raise
            self._new_room(meta, None, token)
        if conn is not None and conn.player is not None:
            self._created_by.setdefault(conn.player, set()).add(room_id)
        self._count_rooms()
        self.lobby_changed()
        return room_id

    async def lobby_page(
        self, game: str | None = None, offset: int = 0, limit: int | None = None
    ) -> tuple[list[dict[str, Any]], int]:
        """One page of the lobby (at most `lobby_max` rooms: public, waiting or playing, oldest first, of every node
        when clustered), read through the store's lobby index, and how many rooms the whole list holds (a live
        game whose people are all away is left out of the page; `total` may still count it)."""
        size = min(limit or self.settings.lobby_max, self.settings.lobby_max)
        metas, total = await self.store.lobby_page(game, offset, size)
        now = now_ms()
        rooms = []
        for data in metas:
            local = self.rooms.get(str(data.get("room")))
            meta = local.meta if local is not None else RoomMeta.from_dict(data)
            if meta.public and meta.status in ("waiting", "playing") and not away_from_lobby(meta, self.settings, now):
                rooms.append(room_info(meta))
        return rooms, total

    def lobby_changed(self, local: bool = False) -> None:
        """The lobby's rooms changed: push the new list to the watchers (of every node when clustered)."""
        if self.cluster.clustered and not local:
            self.cluster.broadcast({"op": "lobby"})  # every node (this one too) pushes to its watchers
            return
        if self.watchers and (self._lobby_task is None or self._lobby_task.done()):
            self._lobby_task = asyncio.get_running_loop().create_task(self._push_lobby())

    async def _push_lobby(self) -> None:
        await asyncio.sleep(LOBBY_DELAY)
        try:
            rooms, total = await self.lobby_page()
        except StoreUnavailable:
            return
        # encoded once for every watcher; a watcher whose last push is still unsent gets it replaced
        data = encode({"t": "lobby", "rooms": rooms, "total": total})
        for conn in list(self.watchers):
            conn.push_latest("lobby", data, "lobby")

    def _count_rooms(self) -> None:
        """The rooms gauge is counted when /metrics is read, not on every change of a room."""
        self._rooms_dirty = True

    def table_sizes(self) -> dict[str, int]:
        """Entries of every table this node keeps beyond one request (for `mp_node_table_entries`)."""
        return {
            "rooms": len(self.rooms),
            "room_viewers": sum(len(r.viewers) for r in self.rooms.values()),
            "players": len(self.players),
            "conns": len(self.conns),
            "local_conns": len(self.local_conns),
            "lobby_watchers": len(self.watchers),
            "remote_views": len(self.remote_views),
            "remote_owner": len(self.remote_owner),
            "remote_conns": len(self.remote_conns),
            "join_pending": len(self.join_pending),
            "relayed": len(self.relayed),
            "relay_late": len(self.relay_late),
            "room_locks": len(self._room_locks),
            "parked": len(self._parked),
            "invites": len(self.invites),
            "created_by": len(self._created_by),
            "match_pending": len(self.match_pending),
            "arrived": len(self._arrived),
            "handed": len(self.handed),
            "handing": len(self._handing),
            "peer_seen": len(self._peer_seen),
        }

    def _render_rooms(self) -> None:
        if not self._rooms_dirty:
            return
        self._rooms_dirty = False
        self.metrics.rooms.clear()
        counts: dict[tuple[str, str], int] = {}
        for r in self.rooms.values():
            key = (r.meta.game, r.status)
            counts[key] = counts.get(key, 0) + 1
        for (game, status), n in counts.items():
            self.metrics.rooms.labels(game, status).set(n)
