"""Moderation on a node: blocks, reports, bans, shared limits, the chat word filter, and the moderators' actions.

Owns: the v1.2 requests `block`, `unblock`, `blocks` and `report`; the ban check of `hello`, `sign_in` and
`sign_up` and the closing of a banned party's connections on every node (cluster op `banned`); chat and room
creation limits counted per player and per client address across all nodes (the `limits` library: a moving
window in the node's Redis, in memory when the node runs alone); the word filter (`chat_deny`, folded like
names); and what the administrators' API (`server.net.admin`) asks of a node: ban and lift, delete a chat line
everywhere (cluster op `chat_deleted`), close a room with a reason, each written to the audit log.
Must not: decide rules, touch sockets (connections are the hub's), or read another player's secrets: a report's
context is the public log and chat lines only.
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import time
from datetime import UTC, datetime
from typing import Any

from limits import RateLimitItemPerSecond
from limits.aio.storage import MemoryStorage, RedisClusterStorage, RedisSentinelStorage, RedisStorage, Storage
from limits.aio.strategies import MovingWindowRateLimiter

from protocol import messages as m
from server.config import Settings
from server.rooms.core import RoomError
from server.rooms.names import account_key
from server.store.base import StoreUnavailable
from server.store.records import Ban, Records

#: the node (`server.node.hub.Hub`) and its connections, as this module uses them (not imported: the hub
#: imports this module)
Hub = Any
Connection = Any

log = logging.getLogger("marcopolo.moderation")

#: close code of a banned party's connections
BANNED_CLOSE = 4003
#: chat lines a report keeps as its context, and public log events
REPORT_CHAT_LINES = 30
REPORT_LOG_EVENTS = 60
#: denied words at least this long are refused inside other words too
LONG_WORD = 8
#: a shared limit's store that fails is not asked again for this long (the node's own memory counts meanwhile)
LIMITS_DOWN_SECONDS = 5.0
#: how long one shared-limit hit may take before the node counts it in memory instead
LIMITS_TIMEOUT = 0.5


def when(until: int | None) -> str:
    """A ban's end as people read it."""
    if until is None:
        return "permanently"
    return "until " + datetime.fromtimestamp(until, UTC).strftime("%Y-%m-%d %H:%M UTC")


def ban_message(ban: Ban) -> str:
    return f"banned {when(ban.until)}: {ban.reason}"


def _limits_storage(store: Any) -> Storage:
    """The moving windows live in the node's Redis (shared by every node), else in this process."""
    url = getattr(store, "url", None)
    prefix = str(getattr(store, "prefix", "mp:")) + "limits"
    opts: dict[str, Any] = {"socket_timeout": LIMITS_TIMEOUT, "socket_connect_timeout": LIMITS_TIMEOUT}
    if isinstance(url, str) and url.startswith("redis+sentinel://"):
        rest = url.split("://", 1)[1]
        return RedisSentinelStorage(
            "async+redis+sentinel://" + rest, implementation="redispy", key_prefix=prefix, **opts
        )
    if isinstance(url, str) and url.startswith("redis+cluster://"):
        rest = url.split("://", 1)[1]
        return RedisClusterStorage("async+redis+cluster://" + rest, implementation="redispy", key_prefix=prefix, **opts)
    if isinstance(url, str) and url.startswith(("redis://", "rediss://")):
        return RedisStorage("async+" + url, implementation="redispy", key_prefix=prefix, **opts)
    return MemoryStorage()


class SharedLimits:
    """Moving-window limits shared by every node (Redis), counted in this process when that store fails."""

    def __init__(self, store: Any) -> None:
        self.shared = _limits_storage(store)
        self.local = MemoryStorage() if not isinstance(self.shared, MemoryStorage) else self.shared
        self._shared = MovingWindowRateLimiter(self.shared)
        self._local = MovingWindowRateLimiter(self.local)
        self._down_until = 0.0

    async def hit(self, amount: int, seconds: float, *keys: str) -> bool:
        """Count one event under `keys`; False when `amount` events were counted in the last `seconds` already."""
        item = RateLimitItemPerSecond(amount, max(1, round(seconds)))
        if self.local is not self.shared and time.monotonic() >= self._down_until:
            try:
                async with asyncio.timeout(LIMITS_TIMEOUT * 2):
                    return bool(await self._shared.hit(item, *keys))
            except Exception as err:  # noqa: BLE001 - any failure of the shared store: count here instead
                self._down_until = time.monotonic() + LIMITS_DOWN_SECONDS
                log.warning("shared limits unavailable (%s); counting on this node", type(err).__name__)
        return bool(await self._local.hit(item, *keys))

    async def close(self) -> None:
        """Close the shared store's connections (the library keeps a redis-py client on its bridge)."""
        client = getattr(getattr(self.shared, "bridge", None), "storage", None)
        closer = getattr(client, "aclose", None)
        if closer is not None:
            try:
                await closer()
            except Exception:  # noqa: BLE001 - closing a store that is gone
                pass


def _words(settings: Settings) -> list[str]:
    words = list(settings.chat_deny)
    if settings.chat_deny_file is not None:
        for line in settings.chat_deny_file.read_text(encoding="utf-8").splitlines():
            line = line.strip()
            if line and not line.startswith("#"):
                words.append(line)
    return sorted({k for k in (account_key(w) for w in words) if k})


class Moderation:
    """A node's moderation (one per hub)."""

    def __init__(self, hub: Hub, settings: Settings) -> None:
        self.hub = hub
        self.settings = settings
        self.limits = SharedLimits(hub.store)
        self.words = _words(settings)
        self._nets: tuple[float, list[Ban]] = (0.0, [])

    @property
    def records(self) -> Records:
        return self.hub.records

    async def close(self) -> None:
        await self.limits.close()

    # ---- bans --------------------------------------------------------------------------------

    async def _net_bans(self, now: int) -> list[Ban]:
        at, bans = self._nets
        if time.monotonic() - at > 5.0:
            bans = await self.records.bans_on("net", [], now)
            self._nets = (time.monotonic(), bans)
        return [b for b in bans if b.active(now)]

    async def ban_of(self, player: str | None, addr: str | None) -> Ban | None:
        """The ban in force on this player or address, if any (the one that lasts longest)."""
        now = int(time.time())
        found: list[Ban] = []
        if player:
            found += await self.records.bans_on("player", [player], now)
        if addr:
            found += await self.records.bans_on("addr", [addr], now)
            try:
                ip = ipaddress.ip_address(addr)
            except ValueError:
                ip = None
            if ip is not None:
                for ban in await self._net_bans(now):
                    try:
                        if ip in ipaddress.ip_network(ban.value, strict=False):
                            found.append(ban)
                    except ValueError:
                        continue
        if not found:
            return None
        return max(found, key=lambda b: float("inf") if b.until is None else b.until)

    async def check_banned(self, player: str | None, addr: str | None) -> None:
        """Raise `banned` when a ban is in force on this player or address (a records outage lets it pass)."""
        try:
            ban = await self.ban_of(player, addr)
        except StoreUnavailable:
            return
        if ban is not None:
            raise RoomError("banned", ban_message(ban))

    async def ban(self, kind: str, value: str, reason: str, until: int | None, by: str) -> Ban:
        """Ban a player, an address or a network; its connections close at once on every node."""
        if kind == "net":
            value = str(ipaddress.ip_network(value, strict=False))
        elif kind == "addr":
            value = str(ipaddress.ip_address(value))
        ban = await self.records.add_ban(kind, value, reason, int(time.time()), until, by)
        self._nets = (0.0, [])
        order = {"op": "banned", "kind": kind, "value": value, "message": ban_message(ban)}
        await self.close_banned(order)  # here at once (again when the broadcast comes back: nothing left then)
        if self.hub.cluster.clustered:
            self.hub.cluster.broadcast(order)
        return ban

    async def lift(self, ban_id: int) -> Ban | None:
        self._nets = (0.0, [])
        return await self.records.lift_ban(ban_id, int(time.time()))

    async def close_banned(self, order: dict[str, Any]) -> None:
        """Close this node's connections a ban names (4003, its message as the reason)."""
        kind, value, message = order["kind"], order["value"], str(order.get("message", "banned"))
        net = ipaddress.ip_network(value, strict=False) if kind == "net" else None
        for conn in list(self.hub.local_conns.values()):
            addr = getattr(conn, "addr", None)
            hit = False
            if kind == "player":
                hit = conn.player == value
            elif kind == "addr":
                hit = addr == value
            elif net is not None and addr:
                try:
                    hit = ipaddress.ip_address(addr) in net
                except ValueError:
                    hit = False
            if hit:
                # the whole message first (a close reason holds at most 123 bytes), then the close
                conn.push({"t": "error", "re": None, "code": "banned", "message": message})
                conn.abort(BANNED_CLOSE, message.encode()[:120].decode(errors="ignore"))
                await self.hub.disconnected(conn)

    # ---- limits and the word filter ------------------------------------------------------------

    async def check_chat(self, conn: Connection, text: str) -> None:
        """The word filter, then the chat limits per player and per address on all nodes together."""
        self.check_words(text)
        await self.check_chat_limits(conn)

    def check_words(self, text: str) -> None:
        """Refuse (`filtered`) a line holding a denied word, before any limit counts it."""
        if self.words:
            tokens = _fold_words(text)
            words = set(tokens) | {t[:-1] for t in tokens if t.endswith("s")}
            joined = "".join(tokens)
            for word in self.words:
                # a denied word as a word of its own (or its plural), spelt out letter by letter, and a long one
                # also inside other words (short ones are not: "knave" would refuse "knavery")
                if word in words or (len(word) >= LONG_WORD and word in joined):
                    raise RoomError("filtered", "that line holds a word this server does not allow")

    async def check_chat_limits(self, conn: Connection) -> None:
        s = self.settings
        if s.chat_lines and not await self.limits.hit(s.chat_lines, s.chat_window, "chat", "p", conn.player or ""):
            raise RoomError("rate_limited", f"at most {s.chat_lines} chat lines per {s.chat_window:.0f} s")
        addr = getattr(conn, "addr", None)
        if addr and s.chat_lines_per_addr and not await self.limits.hit(
            s.chat_lines_per_addr, s.chat_window, "chat", "a", addr
        ):
            raise RoomError("rate_limited", "too many chat lines from your address; slow down")

    async def check_create(self, conn: Connection) -> None:
        """Rooms created per minute, per player and per address, on all nodes together."""
        n = self.settings.creates_per_minute
        if not n:
            return
        keys = [("p", conn.player or "")]
        addr = getattr(conn, "addr", None)
        if addr:
            keys.append(("a", addr))
        for kind, key in keys:
            if not await self.limits.hit(n, 60, "create", kind, key):
                raise RoomError("rate_limited", f"at most {n} new rooms a minute; retry later")

    # ---- players' requests -------------------------------------------------------------------

    async def load_blocks(self, conn: Connection) -> None:
        """The player's blocks, read once per identity (a records outage: none applied until the next hello)."""
        try:
            conn.blocked = await self.records.blocked_by(conn.player) if conn.player else set()
        except StoreUnavailable:
            conn.blocked = set()

    async def request(self, conn: Connection, msg: Any) -> None:
        player = conn.player
        assert player is not None
        now = int(time.time())
        if isinstance(msg, (m.Block, m.Unblock)):
            if msg.player == player:
                raise RoomError("bad_message", "you cannot block yourself")
            blocked = isinstance(msg, m.Block)
            await self.records.set_block(player, msg.player, blocked, now, getattr(msg, "name", None))
            mine = set(getattr(conn, "blocked", set()))
            if blocked:
                mine.add(msg.player)
            else:
                mine.discard(msg.player)
            conn.blocked = mine
            conn.push({"t": "ok", "re": msg.id})
        elif isinstance(msg, m.BlocksRequest):
            rows = await self.records.block_list(player)
            conn.push({"t": "blocks", "re": msg.id, "players": [{"player": p, "name": n} for p, n in rows]})
        elif isinstance(msg, m.ReportRequest):
            await self._report(conn, msg, now)

    async def _report(self, conn: Connection, msg: m.ReportRequest, now: int) -> None:
        player = conn.player or ""
        if msg.player == player:
            raise RoomError("bad_message", "you cannot report yourself")
        if not await self.limits.hit(self.settings.reports_per_hour, 3600, "report", "p", player):
            raise RoomError("rate_limited", f"at most {self.settings.reports_per_hour} reports an hour")
        context: dict[str, Any] = {"chat": (await self.records.chat(msg.room))[-REPORT_CHAT_LINES:]}
        if msg.room is not None:
            meta = await self.hub.meta_of(msg.room)
            if meta is None:
                raise RoomError("not_found", f"no room {msg.room!r}")
            if not meta.public and player not in meta.players:
                raise RoomError("forbidden", "report from an unlisted room you play in")
            context["game"] = meta.game
            seated = zip(meta.players, meta.names, strict=False)
            context["players"] = [{"seat": i, "player": p, "name": n} for i, (p, n) in enumerate(seated)]
            log_events = await self._public_log(msg.room, meta)
            if log_events is not None:
                context["log"] = log_events[-REPORT_LOG_EVENTS:]
        rid = await self.records.add_report(player, msg.player, msg.room, msg.reason, context, now)
        self.hub.metrics.reports.inc()
        log.info("report %d: %s reported %s (room %s)", rid, player, msg.player, msg.room or "lobby")
        conn.push({"t": "ok", "re": msg.id})

    async def _public_log(self, room_id: str, meta: Any) -> list[Any] | None:
        """The room's public log: the running room's own (on this node), else rebuilt from its stored log or its
        archive, as a spectator sees it (None: not kept). Never a seat's private part."""
        room = self.hub.rooms.get(room_id)
        if room is not None:
            return room.public_log()
        try:
            entries = await self.hub.store.full_log(room_id)  # type: ignore[attr-defined]
            base = meta.to_dict()
        except (StoreUnavailable, AttributeError):
            entries = None
        if not entries:
            archived = await self.records.archived(room_id)
            if archived is None:
                return None
            base, entries = archived["meta"], list(archived["entries"])
        from server.rooms.replay import ReplayCursor

        try:
            entries.sort(key=lambda e: e["v"])
            cursor = ReplayCursor(base, entries)
            cursor.advance(int(base.get("v", 0)))
            got = (cursor.view().get("public") or {}).get("log")
        except Exception:  # noqa: BLE001 - a log that cannot be replayed: the report goes without it
            log.warning("report: the log of room %s could not be rebuilt", room_id, exc_info=True)
            return None
        return list(got) if isinstance(got, list) else None

    async def host_blocks(self, host: str | None, player: str | None) -> bool:
        """Does the room's host block this player (who then may not join its room)?"""
        if not host or not player or host == player:
            return False
        try:
            return await self.records.blocks(host, player)
        except StoreUnavailable:
            return False

    # ---- the moderators' actions (server.net.admin) -----------------------------------------------

    async def audit(self, actor: str, action: str, target: str | None, detail: dict[str, Any]) -> int:
        return await self.records.add_audit(actor, action, target, detail, int(time.time()))

    async def delete_chat(self, room: str | None, line: str) -> dict[str, Any] | None:
        """Delete a kept chat line; every node tells its viewers of that room (or its lobby watchers)."""
        gone = await self.records.delete_chat(room, line)
        if gone is None:
            return None
        order = {"op": "chat_deleted", "room": room, "line": line}
        if self.hub.cluster.clustered:  # every node, this one too
            self.hub.cluster.broadcast(order)
        else:
            self.chat_deleted_local(order)
        return gone

    def chat_deleted_local(self, order: dict[str, Any]) -> None:
        """Push `chat_deleted` to this node's own connections that see that chat."""
        room_id, line = order.get("room"), str(order["line"])
        msg = {"t": "chat_deleted", "room": room_id, "line": line}
        hub = self.hub
        if room_id is None:
            targets = list(hub.watchers)
        else:
            ids: set[str] = set(hub.remote_views.get(room_id, {}))
            room = hub.rooms.get(room_id)
            if room is not None:
                ids |= set(room.viewers)
            targets = [hub.local_conns[i] for i in ids if i in hub.local_conns]
        for conn in targets:
            conn.push(msg)

    async def close_room(self, room_id: str, message: str) -> bool:
        """Close a room (status finished, `closed: moderator`, the message shown to its viewers) where it runs."""
        target = await self.hub.room_for(room_id)
        room = self.hub.rooms.get(room_id)
        if room is not None:
            await room.submit("moderator_close", None, message=message)
            return True
        owner = getattr(target, "owner", None)
        if owner is None:
            return False
        self.hub.cluster.send(owner, {"op": "moderator_close", "room": room_id, "message": message})
        return True


def _fold_words(text: str) -> list[str]:
    """A line's words folded like names (case, compatibility forms, look-alike letters, punctuation inside);
    a run of single letters ("b a d") is one word."""
    out: list[str] = []
    run = ""
    for k in (account_key(w) for w in text.split()):
        if len(k) == 1:
            run += k
            continue
        if run:
            out.append(run)
            run = ""
        if k:
            out.append(k)
    if run:
        out.append(run)
    return out
