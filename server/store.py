"""Room persistence: one small async interface, an in-process store and a Redis store (plain or Sentinel).

The SQLite store (one file, one node) is in ``server.store_sqlite``; ``open_store`` picks a store by url.

This module owns how a room survives a restart or a node failure. A room is stored as

- ``meta``: a msgpack-able dict; the store reads only ``room``, ``status``, ``public`` and ``game``;
- a ``snapshot``: the packed engine state at version ``snap_v`` (opaque bytes);
- a ``log``: append-only entries (dicts with an int ``v`` >= 1, strictly increasing) applied after the
  snapshot. Recovery is ``load()``: the latest snapshot plus the entries with ``v > snap_v``.

``append`` is the point where a move is stored: it writes the entry and the new meta in one atomic step,
and the server acknowledges the move only after it returns. Any backend failure raises ``StoreUnavailable``
(retryable); for a write the outcome is then unknown, and the caller settles it with ``refence`` (which
makes any write still in flight under the old token fail) before it reads the room back.
Caller mistakes raise ``KeyError`` (unknown room) or ``ValueError`` (duplicate room, stale version, bad
meta); nothing is written in that case.

Leases and fencing: a room runs on the node holding its lease. ``acquire_lease`` hands out a *fencing
token* ``"{node}|{epoch}"``, where the epoch is a per-room counter raised by every acquisition. Every write
a room owner makes (``append``, ``save_meta``, ``save_snapshot``, ``finish``) carries its token and is
refused with ``StoreFenced``, atomically and with nothing written, unless the token still holds: the lease
key holds exactly that token, or the lease lapsed and nobody acquired it since (the epoch is unchanged).
So a node that lost its lease can never write over the room's new owner, whatever its clock says.

Redis layout under a prefix (default ``mp:``), one Lua script per write so each write is atomic:

- ``{p}room:{id}:meta``: HASH ``data`` (packed meta), plain ``status``/``game``/``public`` for
  inspection, ``log_v`` (highest appended v);
- ``{p}room:{id}:snap``: HASH ``v``, ``data``;
- ``{p}room:{id}:log``: STREAM, entry id ``{v}-0``, field ``e`` (packed entry); a snapshot at v trims it
  with ``XTRIM MINID = {v+1}-0`` in the same script, which is exact;
- ``{p}rooms``: SET of room ids; ``{p}public``: SET of public waiting/playing room ids (both pruned lazily
  once a finished room's keys expire); ``{p}lease:{id}``: STRING fencing token with a PX expiry;
  ``{p}fence:{id}``: STRING, the room's epoch counter.

Writes go through one writer task per store: every script call queued during one loop tick is sent in one
pipeline, and each caller is answered when that pipeline returns (its own reply, or StoreUnavailable if the
connection failed). The connection pool blocks when busy instead of failing: a busy pool is not an outage.

This module must not know about engines, sessions or sockets: it stores dicts and bytes.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any, cast
from urllib.parse import unquote

import msgpack
import redis.asyncio as aredis
from redis.asyncio.connection import BlockingConnectionPool
from redis.asyncio.retry import Retry
from redis.asyncio.sentinel import MasterNotFoundError, Sentinel, SentinelConnectionPool, SentinelManagedConnection
from redis.backoff import NoBackoff
from redis.commands.core import AsyncScript
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisError

__all__ = [
    "LoadedRoom",
    "MemoryStore",
    "RedisStore",
    "Store",
    "StoreFenced",
    "StoreUnavailable",
    "open_store",
    "SentinelUrl",
    "parse_sentinel_url",
    "token_node",
]

Meta = dict[str, Any]
Entry = dict[str, Any]

STATUSES = ("waiting", "playing", "finished")
LISTED_STATUSES = ("waiting", "playing")


class StoreUnavailable(Exception):
    """The backend failed (refused, timed out, errored); the operation may be retried later."""


class StoreFenced(Exception):
    """A write carried a fencing token that no longer holds: another node owns the room now."""


def token_node(token: str) -> str:
    """The node id inside a fencing token ``"{node}|{epoch}"``."""
    return token.rsplit("|", 1)[0]


def _token_epoch(token: str) -> int:
    try:
        return int(token.rsplit("|", 1)[1])
    except (IndexError, ValueError):
        return -1


@dataclass(slots=True)
class LoadedRoom:
    """Everything needed to recover a room: meta, the latest snapshot and the log after it."""

    meta: Meta
    snap_v: int = 0
    snapshot: bytes | None = None
    log: list[Entry] = field(default_factory=list)


class Store(ABC):
    """Async persistence for rooms; see the module docstring for the data model."""

    @abstractmethod
    async def create_room(self, meta: Meta) -> None:
        """Store a new room; raise ValueError if ``meta["room"]`` already exists."""

    @abstractmethod
    async def save_meta(self, room: str, meta: Meta, *, fence: str | None = None) -> None:
        """Replace the room's meta and update the public directory."""

    @abstractmethod
    async def append(self, room: str, entry: Entry, meta: Meta, *, fence: str | None = None) -> None:
        """Atomically append ``entry`` to the log and replace the meta: the move is stored on return.

        ``fence`` is the writer's fencing token (None only for tools and tests that own the store alone);
        a token that no longer holds raises StoreFenced and writes nothing. The same for every write below.
        """

    @abstractmethod
    async def save_snapshot(self, room: str, v: int, snapshot: bytes, *, fence: str | None = None) -> None:
        """Store the snapshot taken at ``v`` and drop the log entries with v' <= v, atomically.

        A store opened with ``trim_log=False`` keeps the whole log (replays, audits); ``load`` still returns
        only the entries after the snapshot.
        """

    @abstractmethod
    async def load(self, room: str) -> LoadedRoom | None:
        """Return the room's meta, latest snapshot and the log after it, or None if there is no room."""

    @abstractmethod
    async def log_entry(self, room: str, v: int) -> tuple[int, Entry | None]:
        """The room's highest appended version and its log entry at ``v`` (None if absent or trimmed)."""

    @abstractmethod
    async def room_ids(self, *, unfinished_only: bool = False) -> list[str]:
        """Return the ids of all stored rooms (only waiting/playing ones if asked), sorted."""

    @abstractmethod
    async def list_public(self) -> list[Meta]:
        """Return the metas of public rooms that are waiting or playing, oldest first."""

    @abstractmethod
    async def finish(self, room: str, meta: Meta, ttl_seconds: int, *, fence: str | None = None) -> None:
        """Save the meta with status finished and make every key of the room expire after the ttl."""

    @abstractmethod
    async def delete_room(self, room: str) -> None:
        """Remove the room, its snapshot, log and lease; a missing room is not an error."""

    @abstractmethod
    async def close(self) -> None:
        """Release the backend's resources; safe to call twice."""

    @abstractmethod
    async def ping(self) -> None:
        """Raise StoreUnavailable if the backend does not answer."""

    @abstractmethod
    async def acquire_lease(self, room: str, node: str, ttl_ms: int) -> str | None:
        """Take the lease for ``node`` with a new fencing token and return it; None if another node holds it.

        ``node`` taking a lease it already holds gets a new token too (an older process of the same node id
        is fenced off).
        """

    @abstractmethod
    async def renew_lease(self, room: str, token: str, ttl_ms: int) -> bool:
        """Extend the lease to ``ttl_ms`` from now, only if ``token`` still holds (see the module docstring)."""

    @abstractmethod
    async def keep_leases(self, leases: list[tuple[str, str]], ttl_ms: int) -> list[bool]:
        """Renew many ``(room, token)`` leases in one round trip (a lapsed one is taken back if its token holds).

        Returns, per lease, whether its token holds now (False: another node took the room).
        """

    @abstractmethod
    async def refence(self, room: str, token: str, ttl_ms: int) -> str | None:
        """Swap a token that still holds for a new one (atomically); None if it no longer holds.

        After a write of unknown outcome this settles it: a write still in flight under the old token can no
        longer land, so what ``load`` reads next is final.
        """

    @abstractmethod
    async def release_lease(self, room: str, token: str) -> None:
        """Drop the lease, only if ``token`` holds it; the token can then never be taken back or write."""

    @abstractmethod
    async def lease_holder(self, room: str) -> str | None:
        """Return the node holding the room's lease, or None."""

    async def lease_holders(self, rooms: list[str]) -> list[str | None]:
        """`lease_holder` of every room, in order (a store that can reads them all in one round trip)."""
        return [await self.lease_holder(room) for room in rooms]

    @abstractmethod
    async def get_meta(self, room: str) -> Meta | None:
        """Return only the room's meta (cheap), or None if there is no room."""

    @abstractmethod
    async def mark_seat(self, player: str, room: str, held: bool) -> None:
        """Record in the player's index that the player holds (or no longer holds) a seat in ``room``."""

    @abstractmethod
    async def player_rooms(self, player: str) -> list[str]:
        """Rooms recorded as holding a seat of ``player`` (sorted; may include finished or expired rooms)."""

    @abstractmethod
    async def save_session(self, key: str, session: dict[str, Any], ttl_seconds: int) -> None:
        """Store a player session under ``key`` (a hash of the token, never the token) for ``ttl_seconds``."""

    @abstractmethod
    async def load_session(self, key: str) -> dict[str, Any] | None:
        """The session stored under ``key``, or None (unknown or expired)."""

    async def __aenter__(self) -> Store:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()


def open_store(
    url: str, *, prefix: str = "mp:", trim_log: bool = True, wait_replicas: int = 0, takeover: bool = False
) -> Store:
    """The store a url names.

    - ``memory``: a MemoryStore (tests and throwaway runs: nothing survives the process);
    - ``sqlite:///path/to.db`` (absolute), ``sqlite:///./rel.db`` or ``sqlite:rel.db`` (relative to the working
      directory), bare ``sqlite:`` for ``./data/marcopolo.db``: a SqliteStore (one node, one file);
    - ``redis://host:port/db``, ``rediss://...``, ``unix://...``: a RedisStore;
    - ``redis+sentinel://host:port,host:port/service[/db]``: a RedisStore on the primary the Sentinels name,
      following failovers.

    ``wait_replicas`` (Redis only): every write batch is acknowledged only once that many replicas have it.
    ``takeover`` (SQLite only; a server node asks for it): this process is the file's one writer from now on,
    so every lease an earlier process held is fenced off (see SqliteStore).
    """
    if url == "memory":
        return MemoryStore(trim_log=trim_log)
    if url == "sqlite" or url.startswith("sqlite:"):
        from server.store_sqlite import SqliteStore, path_of

        return SqliteStore(path_of(url), trim_log=trim_log, takeover=takeover)
    if url.startswith(("redis://", "rediss://", "unix://", "redis+sentinel://")):
        return RedisStore(url, prefix=prefix, trim_log=trim_log, wait_replicas=wait_replicas)
    raise ValueError(
        f"unknown store url {url!r}: use 'memory', 'sqlite:///path/to.db', 'redis://host:port/db' "
        "or 'redis+sentinel://host:port,host:port/service'"
    )


@dataclass(frozen=True, slots=True)
class SentinelUrl:
    """A parsed ``redis+sentinel://[[user]:password@]host:port,host:port/service[/db]``."""

    sentinels: list[tuple[str, int]]
    service: str
    db: int = 0
    username: str | None = None
    password: str | None = None


def parse_sentinel_url(url: str) -> SentinelUrl:
    """Split a Sentinel url; the password (if any) is the primary's, not the Sentinels'."""
    scheme = "redis+sentinel://"
    if not url.startswith(scheme):
        raise ValueError(f"not a sentinel url: {url!r}")
    rest = url[len(scheme) :]
    netloc, _, path = rest.partition("/")
    username = password = None
    if "@" in netloc:
        auth, netloc = netloc.rsplit("@", 1)
        user, _, pw = auth.partition(":")
        username, password = (unquote(user) or None), (unquote(pw) or None)
    sentinels: list[tuple[str, int]] = []
    for part in netloc.split(","):
        host, _, port = part.strip().rpartition(":")
        if not host or not port.isdigit():
            raise ValueError(f"sentinel url {url!r}: {part!r} is not host:port")
        sentinels.append((host.strip("[]"), int(port)))
    parts = [p for p in path.split("/") if p]
    if not parts or len(parts) > 2:
        raise ValueError(f"sentinel url {url!r}: give the service name (and optionally a db) after the hosts")
    if len(parts) == 2 and not parts[1].isdigit():
        raise ValueError(f"sentinel url {url!r}: the db must be a number, got {parts[1]!r}")
    return SentinelUrl(sentinels, unquote(parts[0]), int(parts[1]) if len(parts) == 2 else 0, username, password)


# --- shared helpers --------------------------------------------------------------------------------


def _pack(obj: Any) -> bytes:
    return cast(bytes, msgpack.packb(obj, use_bin_type=True))


def _unpack(data: bytes) -> Any:
    return msgpack.unpackb(data, raw=False, strict_map_key=False)


@dataclass(frozen=True, slots=True)
class _MetaInfo:
    """The fields of a meta the store reads, checked, plus the packed meta."""

    room: str
    status: str
    game: str
    public: bool
    packed: bytes

    @property
    def listed(self) -> bool:
        return self.public and self.status in LISTED_STATUSES


def _check_room(room: str) -> None:
    if not isinstance(room, str) or not room:
        raise ValueError(f"room id must be a non-empty string, got {room!r}")


def _check_meta(meta: Meta, room: str | None = None) -> _MetaInfo:
    if not isinstance(meta, dict):
        raise ValueError("meta must be a dict")
    rid = meta.get("room")
    _check_room(cast(str, rid))
    if room is not None and rid != room:
        raise ValueError(f"meta is for room {rid!r}, not {room!r}")
    status = meta.get("status")
    if status not in STATUSES:
        raise ValueError(f"meta status must be one of {STATUSES}, got {status!r}")
    public = meta.get("public", True)
    if not isinstance(public, bool):
        raise ValueError(f"meta public must be a bool, got {public!r}")
    game = meta.get("game", "")
    if not isinstance(game, str):
        raise ValueError(f"meta game must be a string, got {game!r}")
    return _MetaInfo(cast(str, rid), cast(str, status), game, public, _pack(meta))


def _check_version(v: object, what: str, minimum: int) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or v < minimum:
        raise ValueError(f"{what} must be an int >= {minimum}, got {v!r}")
    return v


def _check_entry(entry: Entry) -> tuple[int, bytes]:
    if not isinstance(entry, dict):
        raise ValueError("a log entry must be a dict")
    return _check_version(entry.get("v"), "entry v", 1), _pack(entry)


def _check_ttl(ttl: int, what: str) -> None:
    if isinstance(ttl, bool) or not isinstance(ttl, int) or ttl <= 0:
        raise ValueError(f"{what} must be a positive int, got {ttl!r}")


def _listing_order(meta: Meta) -> tuple[float, str]:
    created = meta.get("created")
    when = float(created) if isinstance(created, int | float) and not isinstance(created, bool) else 0.0
    return when, str(meta.get("room"))


# --- in-process store ------------------------------------------------------------------------------


@dataclass(slots=True)
class _MemRoom:
    info: _MetaInfo
    snap_v: int = 0
    snapshot: bytes | None = None
    log: list[tuple[int, bytes]] = field(default_factory=list)
    log_v: int = 0
    expires_at: float | None = None


class MemoryStore(Store):
    """Rooms in process dicts; values are copied in and out by packing them, exactly as Redis would.

    ``clock`` (default ``time.monotonic``) drives lease and finished-room expiry; expired rooms are purged
    lazily on access.
    """

    def __init__(self, *, clock: Callable[[], float] = time.monotonic, trim_log: bool = True) -> None:
        self._clock = clock
        self.trim_log = trim_log
        self._rooms: dict[str, _MemRoom] = {}
        self._leases: dict[str, tuple[str, float]] = {}
        self._epochs: dict[str, int] = {}
        self._sessions: dict[str, tuple[bytes, float]] = {}
        self._player_rooms: dict[str, set[str]] = {}

    def _get(self, room: str) -> _MemRoom | None:
        stored = self._rooms.get(room)
        if stored is not None and stored.expires_at is not None and self._clock() >= stored.expires_at:
            del self._rooms[room]
            return None
        return stored

    def _need(self, room: str, fence: str | None = None) -> _MemRoom:
        _check_room(room)
        stored = self._get(room)
        if stored is None:
            raise KeyError(room)
        if fence is not None and not self._holds(room, fence):
            raise StoreFenced(f"room {room!r}: the lease is no longer {fence!r}")
        return stored

    def _live_rooms(self) -> list[_MemRoom]:
        return [r for rid in list(self._rooms) if (r := self._get(rid)) is not None]

    async def create_room(self, meta: Meta) -> None:
        info = _check_meta(meta)
        if self._get(info.room) is not None:
            raise ValueError(f"room {info.room!r} already exists")
        self._rooms[info.room] = _MemRoom(info)

    async def save_meta(self, room: str, meta: Meta, *, fence: str | None = None) -> None:
        info = _check_meta(meta, room)
        self._need(room, fence).info = info

    async def append(self, room: str, entry: Entry, meta: Meta, *, fence: str | None = None) -> None:
        info = _check_meta(meta, room)
        v, packed = _check_entry(entry)
        stored = self._need(room, fence)
        last = max(stored.log_v, stored.snap_v)
        if v <= last:
            raise ValueError(f"entry v={v} is not above the room's last stored version {last}")
        stored.log.append((v, packed))
        stored.log_v = v
        stored.info = info

    async def save_snapshot(self, room: str, v: int, snapshot: bytes, *, fence: str | None = None) -> None:
        _check_version(v, "snapshot v", 0)
        stored = self._need(room, fence)
        if stored.snapshot is not None and v < stored.snap_v:
            raise ValueError(f"snapshot v={v} is older than the stored one at v={stored.snap_v}")
        stored.snap_v = v
        stored.snapshot = bytes(snapshot)
        if self.trim_log:
            stored.log = [(ev, e) for ev, e in stored.log if ev > v]

    async def load(self, room: str) -> LoadedRoom | None:
        _check_room(room)
        stored = self._get(room)
        if stored is None:
            return None
        return LoadedRoom(
            meta=_unpack(stored.info.packed),
            snap_v=stored.snap_v,
            snapshot=stored.snapshot,
            log=[_unpack(e) for ev, e in stored.log if ev > stored.snap_v],
        )

    async def log_entry(self, room: str, v: int) -> tuple[int, Entry | None]:
        stored = self._need(room)
        found = next((e for ev, e in stored.log if ev == v), None)
        return stored.log_v, None if found is None else _unpack(found)

    async def full_log(self, room: str) -> list[Entry]:
        """Every stored log entry of the room (all of them only with ``trim_log=False``)."""
        stored = self._need(room)
        return [_unpack(e) for _ev, e in stored.log]

    async def room_ids(self, *, unfinished_only: bool = False) -> list[str]:
        return sorted(r.info.room for r in self._live_rooms() if not unfinished_only or r.info.status != "finished")

    async def list_public(self) -> list[Meta]:
        metas = [_unpack(r.info.packed) for r in self._live_rooms() if r.info.listed]
        return sorted(metas, key=_listing_order)

    async def finish(self, room: str, meta: Meta, ttl_seconds: int, *, fence: str | None = None) -> None:
        _check_ttl(ttl_seconds, "ttl_seconds")
        info = _check_meta({**meta, "status": "finished"}, room)
        stored = self._need(room, fence)
        stored.info = info
        stored.expires_at = self._clock() + ttl_seconds

    async def delete_room(self, room: str) -> None:
        _check_room(room)
        self._rooms.pop(room, None)
        self._leases.pop(room, None)
        self._epochs.pop(room, None)

    async def close(self) -> None:
        pass

    async def ping(self) -> None:
        pass

    async def get_meta(self, room: str) -> Meta | None:
        _check_room(room)
        stored = self._get(room)
        return None if stored is None else _unpack(stored.info.packed)

    async def mark_seat(self, player: str, room: str, held: bool) -> None:
        rooms = self._player_rooms.setdefault(player, set())
        if held:
            rooms.add(room)
        else:
            rooms.discard(room)

    async def player_rooms(self, player: str) -> list[str]:
        return sorted(self._player_rooms.get(player, ()))

    async def save_session(self, key: str, session: dict[str, Any], ttl_seconds: int) -> None:
        _check_ttl(ttl_seconds, "ttl_seconds")
        self._sessions[key] = (_pack(session), self._clock() + ttl_seconds)

    async def load_session(self, key: str) -> dict[str, Any] | None:
        item = self._sessions.get(key)
        if item is None or self._clock() >= item[1]:
            self._sessions.pop(key, None)
            return None
        session: dict[str, Any] = _unpack(item[0])
        return session

    def _lease(self, room: str) -> str | None:
        lease = self._leases.get(room)
        if lease is None:
            return None
        if self._clock() >= lease[1]:
            del self._leases[room]
            return None
        return lease[0]

    def _holds(self, room: str, token: str) -> bool:
        held = self._lease(room)
        if held is not None:
            return held == token
        return _token_epoch(token) == self._epochs.get(room, 0)

    def _grant(self, room: str, node: str, ttl_ms: int) -> str:
        epoch = self._epochs[room] = self._epochs.get(room, 0) + 1
        token = f"{node}|{epoch}"
        self._leases[room] = (token, self._clock() + ttl_ms / 1000)
        return token

    async def acquire_lease(self, room: str, node: str, ttl_ms: int) -> str | None:
        _check_ttl(ttl_ms, "ttl_ms")
        held = self._lease(room)
        if held is not None and token_node(held) != node:
            return None
        return self._grant(room, node, ttl_ms)

    async def renew_lease(self, room: str, token: str, ttl_ms: int) -> bool:
        _check_ttl(ttl_ms, "ttl_ms")
        if not self._holds(room, token):
            return False
        self._leases[room] = (token, self._clock() + ttl_ms / 1000)
        return True

    async def keep_leases(self, leases: list[tuple[str, str]], ttl_ms: int) -> list[bool]:
        return [await self.renew_lease(room, token, ttl_ms) for room, token in leases]

    async def refence(self, room: str, token: str, ttl_ms: int) -> str | None:
        _check_ttl(ttl_ms, "ttl_ms")
        if not self._holds(room, token):
            return None
        return self._grant(room, token_node(token), ttl_ms)

    async def release_lease(self, room: str, token: str) -> None:
        if self._lease(room) == token:
            del self._leases[room]
            self._epochs[room] = self._epochs.get(room, 0) + 1

    async def lease_holder(self, room: str) -> str | None:
        held = self._lease(room)
        return None if held is None else token_node(held)


# --- Redis store -----------------------------------------------------------------------------------

# Every write script takes the meta fields as ARGV[1..6]: data, status, game, public, room id, listed;
# the fenced ones take the lease and fence keys as their last two KEYS and the token as their last ARGV
# ('' means unfenced: tools and tests that own the store alone).
_HELPERS = """
local function write_meta(meta_key, public_key)
  redis.call('HSET', meta_key, 'data', ARGV[1], 'status', ARGV[2], 'game', ARGV[3], 'public', ARGV[4])
  if ARGV[6] == '1' then
    redis.call('SADD', public_key, ARGV[5])
  else
    redis.call('SREM', public_key, ARGV[5])
  end
end
-- a key written after finish() inherits the room's expiry
local function inherit_ttl(meta_key, key)
  local ttl = redis.call('PTTL', meta_key)
  if ttl > 0 then redis.call('PEXPIRE', key, ttl) end
end
-- does a fencing token 'node|epoch' still hold? the lease is that token, or it lapsed and the epoch is unchanged
local function holds(lease_key, fence_key, token)
  if token == '' then return true end
  local held = redis.call('GET', lease_key)
  if held then return held == token end
  local epoch = string.match(token, '|(%d+)$')
  return epoch ~= nil and (redis.call('GET', fence_key) or '0') == epoch
end
"""


def _script(body: str) -> str:
    return _HELPERS + body


# KEYS: meta, snap, log, rooms, public
_CREATE = _script(
    """
if redis.call('EXISTS', KEYS[1]) == 1 then return -2 end
redis.call('DEL', KEYS[2], KEYS[3])
write_meta(KEYS[1], KEYS[5])
redis.call('HSET', KEYS[1], 'log_v', 0)
redis.call('SADD', KEYS[4], ARGV[5])
return 1
"""
)

# KEYS: meta, public, lease, fence; ARGV[7]: token
_SAVE_META = _script(
    """
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
if not holds(KEYS[3], KEYS[4], ARGV[7]) then return -3 end
write_meta(KEYS[1], KEYS[2])
return 1
"""
)

# KEYS: meta, snap, log, public, lease, fence; ARGV[7]: v, ARGV[8]: packed entry, ARGV[9]: token
_APPEND = _script(
    """
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
if not holds(KEYS[5], KEYS[6], ARGV[9]) then return -3 end
local v = tonumber(ARGV[7])
local last = tonumber(redis.call('HGET', KEYS[1], 'log_v') or '0')
local snap_v = tonumber(redis.call('HGET', KEYS[2], 'v') or '0')
if v <= last or v <= snap_v then return -1 end
redis.call('XADD', KEYS[3], ARGV[7] .. '-0', 'e', ARGV[8])
write_meta(KEYS[1], KEYS[4])
redis.call('HSET', KEYS[1], 'log_v', ARGV[7])
inherit_ttl(KEYS[1], KEYS[3])
return 1
"""
)

# KEYS: meta, snap, log, lease, fence; ARGV: v, data, min stream id to keep ('' keeps the log), token
_SNAPSHOT = _script(
    """
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
if not holds(KEYS[4], KEYS[5], ARGV[4]) then return -3 end
local current = redis.call('HGET', KEYS[2], 'v')
if current and tonumber(current) > tonumber(ARGV[1]) then return -1 end
redis.call('HSET', KEYS[2], 'v', ARGV[1], 'data', ARGV[2])
if ARGV[3] ~= '' then redis.call('XTRIM', KEYS[3], 'MINID', '=', ARGV[3]) end
inherit_ttl(KEYS[1], KEYS[2])
inherit_ttl(KEYS[1], KEYS[3])
return 1
"""
)

# KEYS: meta, snap, log, public, lease, fence; ARGV[7]: ttl in ms, ARGV[8]: token
_FINISH = _script(
    """
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
if not holds(KEYS[5], KEYS[6], ARGV[8]) then return -3 end
write_meta(KEYS[1], KEYS[4])
for i = 1, 3 do redis.call('PEXPIRE', KEYS[i], ARGV[7]) end
redis.call('PEXPIRE', KEYS[6], ARGV[7])
return 1
"""
)

# KEYS: lease, fence; ARGV: node, ttl ms. Returns the new token, or false when another node holds the lease.
_ACQUIRE = _script(
    """
local held = redis.call('GET', KEYS[1])
if held and string.sub(held, 1, #ARGV[1] + 1) ~= ARGV[1] .. '|' then return false end
local token = ARGV[1] .. '|' .. redis.call('INCR', KEYS[2])
redis.call('SET', KEYS[1], token, 'PX', ARGV[2])
return token
"""
)

# KEYS: lease, fence; ARGV: token, ttl ms. Swap a token that holds for a new one of the same node.
_REFENCE = _script(
    """
if not holds(KEYS[1], KEYS[2], ARGV[1]) then return false end
local node = string.match(ARGV[1], '^(.*)|%d+$')
local token = node .. '|' .. redis.call('INCR', KEYS[2])
redis.call('SET', KEYS[1], token, 'PX', ARGV[2])
return token
"""
)

# KEYS: lease1, fence1, lease2, fence2, ...; ARGV: ttl ms, token1, token2, ...
_KEEP = _script(
    """
local out = {}
for i = 1, #KEYS / 2 do
  local token = ARGV[i + 1]
  if holds(KEYS[2 * i - 1], KEYS[2 * i], token) then
    redis.call('SET', KEYS[2 * i - 1], token, 'PX', ARGV[1])
    out[i] = 1
  else
    out[i] = 0
  end
end
return out
"""
)

# KEYS: lease, fence; ARGV: token. The epoch moves on, so the released token can never be taken back.
_RELEASE = _script(
    """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('DEL', KEYS[1])
  redis.call('INCR', KEYS[2])
  return 1
end
return 0
"""
)

# KEYS: a directory set; ARGV: the meta key's prefix and suffix, then room ids whose meta looked gone
_PRUNE = """
for i = 3, #ARGV do
  if redis.call('EXISTS', ARGV[1] .. ARGV[i] .. ARGV[2]) == 0 then redis.call('SREM', KEYS[1], ARGV[i]) end
end
return 0
"""

_MISSING = 0
_STALE = -1
_EXISTS = -2
_FENCED = -3


@contextlib.contextmanager
def _unavailable() -> Iterator[None]:
    try:
        yield
    except (RedisError, OSError) as exc:
        raise StoreUnavailable(f"redis: {exc}") from exc


def _meta_args(info: _MetaInfo) -> list[bytes | str | int]:
    return [info.packed, info.status, info.game, int(info.public), info.room, int(info.listed)]


def _check_done(room: str, done: Any, what: str) -> None:
    if done == _MISSING:
        raise KeyError(room)
    if done == _FENCED:
        raise StoreFenced(f"room {room!r}: the {what} carried a token that no longer holds")


@dataclass(slots=True)
class _Call:
    script: AsyncScript
    keys: list[str]
    args: list[Any]
    done: asyncio.Future[Any]


class _NewestSentinel(Sentinel):
    """Sentinels asked all at once; the primary named in the newest configuration wins.

    redis-py takes the first Sentinel that answers. Right after a failover a Sentinel that has not yet heard of
    it still names the old primary, which may be back by then as an (empty, still syncing) replica: a node
    that believed it would read no rooms there and drop them. The Sentinels' configuration epoch grows with
    every failover, so the highest epoch among the answers names the current primary (ties: the address most
    Sentinels name, then the first in the url).
    """

    async def discover_master(self, service_name: str) -> tuple[str, int]:
        async def ask(sentinel: Any) -> Any:
            try:
                return (await sentinel.sentinel_masters()).get(service_name)
            except RedisError as e:  # that Sentinel is down, or refuses: the others decide
                return e

        answers = await asyncio.gather(*(ask(s) for s in self.sentinels))
        named: dict[tuple[str, int], list[int]] = {}  # address -> [best epoch, votes, -first position]
        for position, state in enumerate(answers):
            if isinstance(state, dict) and self.check_master_state(state, service_name):  # type: ignore[no-untyped-call]
                address = (str(state["ip"]), int(state["port"]))
                epoch = int(state.get("config-epoch", 0))
                seen = named.setdefault(address, [epoch, 0, -position])
                seen[0], seen[1] = max(seen[0], epoch), seen[1] + 1
        if not named:
            pairs = zip(self.sentinels, answers, strict=True)
            errors = ", ".join(f"{s!r} - {e!r}" for s, e in pairs if not isinstance(e, dict))
            raise MasterNotFoundError(f"No master found for {service_name!r} : {errors}")
        return max(named.items(), key=lambda kv: kv[1])[0]


class _PrimaryConnection(SentinelManagedConnection):
    """A connection that checks with ROLE that the server it reached is a primary (as the Sentinel client
    guidelines ask): reads from a replica the Sentinels still named would see missing or old rooms, and its
    pub/sub would never hear the primary's messages. A replica is a connection error, so the caller gets
    StoreUnavailable and the next connection asks the Sentinels again."""

    async def connect_to(self, address: tuple[str, int]) -> None:
        await super().connect_to(address)
        await self.send_command("ROLE")
        reply = await self.read_response()
        role = reply[0].decode() if isinstance(reply, list) and isinstance(reply[0], bytes) else reply[0]
        if role != "master":
            await self.disconnect()
            raise RedisConnectionError(f"{address[0]}:{address[1]} is a {role}, not the primary")


class _BlockingSentinelPool(SentinelConnectionPool, BlockingConnectionPool):
    """Connections to the primary the Sentinels name, from a pool that blocks when busy (as RedisStore's does).

    SentinelConnectionPool finds the primary (and drops idle connections when it moved); BlockingConnectionPool
    makes a caller wait up to ``timeout`` seconds for a free connection instead of failing.
    """


class RedisStore(Store):
    """Rooms in Redis under ``prefix``; every write is one Lua script, so it is atomic.

    The client fails fast (``timeout`` seconds for connect and socket reads, no automatic retries): a dead
    Redis surfaces as StoreUnavailable instead of a hung room. Connections come from a blocking pool of
    ``max_connections`` (a caller waits up to ``pool_wait`` seconds for one). Write scripts are coalesced:
    one writer task sends every call queued meanwhile in one pipeline. ``client`` is exposed for pub/sub.

    A ``redis+sentinel://`` url connects to the primary the Sentinels name and follows a failover: a
    connection that fails (or finds its server demoted) asks the Sentinels again on its next use, so writes
    fail with StoreUnavailable until a replica is promoted and then go to it.

    ``wait_replicas`` N > 0: each write pipeline ends with ``WAIT N wait_timeout_ms`` on the same connection;
    if fewer than N replicas confirm, every call of the batch raises StoreUnavailable (a write of unknown
    outcome, which the caller settles), so no write is acknowledged before N replicas have it. The session
    and seat-index writes wait the same way; deleting a room does not (losing a delete in a failover is
    harmless: it is repeated).
    """

    def __init__(
        self,
        url: str = "redis://127.0.0.1:6379/0",
        *,
        prefix: str = "mp:",
        timeout: float = 2.0,
        trim_log: bool = True,
        max_connections: int = 64,
        pool_wait: float = 10.0,
        max_batch: int = 512,
        wait_replicas: int = 0,
        wait_timeout_ms: int | None = None,
    ):
        if isinstance(wait_replicas, bool) or not isinstance(wait_replicas, int) or wait_replicas < 0:
            raise ValueError(f"wait_replicas must be an int >= 0, got {wait_replicas!r}")
        self.prefix = prefix
        self.trim_log = trim_log
        self.timeout = timeout
        self.wait_replicas = wait_replicas
        #: how long WAIT waits for the replicas; below the socket timeout, so a WAIT never looks like an outage
        self.wait_timeout_ms = wait_timeout_ms if wait_timeout_ms is not None else max(1, int(timeout * 500))
        self.sentinel: Sentinel | None = None
        self.client: aredis.Redis
        if url.startswith("redis+sentinel://"):
            where = parse_sentinel_url(url)
            fail_fast: dict[str, Any] = {
                "socket_timeout": timeout,
                "socket_connect_timeout": timeout,
                "retry": Retry(NoBackoff(), 0),
            }
            self.sentinel = _NewestSentinel(where.sentinels, sentinel_kwargs=dict(fail_fast), **fail_fast)  # type: ignore[no-untyped-call]
            self.client = self.sentinel.master_for(
                where.service,
                redis_class=aredis.Redis,
                connection_pool_class=_BlockingSentinelPool,
                connection_class=_PrimaryConnection,
                max_connections=max_connections,
                timeout=pool_wait,
                db=where.db,
                username=where.username,
                password=where.password,
            )
        else:
            pool = aredis.BlockingConnectionPool.from_url(
                url,
                max_connections=max_connections,
                timeout=pool_wait,
                socket_timeout=timeout,
                socket_connect_timeout=timeout,
                retry=Retry(NoBackoff(), 0),
            )
            self.client = aredis.Redis.from_pool(pool)
        reg = self.client.register_script
        self._create, self._save_meta, self._append = reg(_CREATE), reg(_SAVE_META), reg(_APPEND)
        self._snapshot, self._finish = reg(_SNAPSHOT), reg(_FINISH)
        self._acquire, self._refence, self._release = reg(_ACQUIRE), reg(_REFENCE), reg(_RELEASE)
        self._keep = reg(_KEEP)
        self._prune = reg(_PRUNE)
        self._closed = False
        self._max_batch = max_batch
        self._queue: list[_Call] = []
        self._wake: asyncio.Event | None = None
        self._writer: asyncio.Task[None] | None = None
        #: pipelines sent and calls they carried (the benchmark reads these)
        self.batches = 0
        self.batched_calls = 0

    def _key(self, room: str, part: str) -> str:
        return f"{self.prefix}room:{room}:{part}"

    def _room_keys(self, room: str) -> tuple[str, str, str]:
        return self._key(room, "meta"), self._key(room, "snap"), self._key(room, "log")

    @property
    def _rooms_key(self) -> str:
        return f"{self.prefix}rooms"

    @property
    def _public_key(self) -> str:
        return f"{self.prefix}public"

    def _lease_key(self, room: str) -> str:
        return f"{self.prefix}lease:{room}"

    def _fence_keys(self, room: str) -> list[str]:
        return [self._lease_key(room), f"{self.prefix}fence:{room}"]

    # ---- the coalescing writer ------------------------------------------------------------------

    async def _run(self, script: AsyncScript, keys: list[str], args: list[Any]) -> Any:
        """Queue one script call for the writer task and wait for its own reply."""
        if self._closed:
            raise StoreUnavailable("the store is closed")
        loop = asyncio.get_running_loop()
        if self._writer is None or self._writer.done():
            self._wake = asyncio.Event()
            self._writer = loop.create_task(self._write_loop(), name="redis-writer")
        call = _Call(script, keys, args, loop.create_future())
        self._queue.append(call)
        assert self._wake is not None
        self._wake.set()
        return await call.done

    async def _write_loop(self) -> None:
        assert self._wake is not None
        while not self._closed:
            await self._wake.wait()
            self._wake.clear()
            await asyncio.sleep(0)  # let every room that is ready this tick queue its write
            while self._queue:
                batch, self._queue = self._queue[: self._max_batch], self._queue[self._max_batch :]
                await self._send(batch)

    async def _send(self, batch: list[_Call]) -> None:
        self.batches += 1
        self.batched_calls += len(batch)
        try:
            async with self.client.pipeline(transaction=False) as pipe:
                for call in batch:
                    await call.script(keys=call.keys, args=call.args, client=pipe)
                self._queue_wait(pipe)
                replies = await pipe.execute(raise_on_error=False)
            self._check_wait(replies)
        except (RedisError, OSError, StoreUnavailable) as exc:
            failure = exc if isinstance(exc, StoreUnavailable) else StoreUnavailable(f"redis: {exc}")
            for call in batch:
                if not call.done.done():
                    call.done.set_exception(failure)
            return
        except asyncio.CancelledError:
            for call in batch:
                if not call.done.done():
                    call.done.set_exception(StoreUnavailable("the store is closing"))
            raise
        for call, reply in zip(batch, replies, strict=True):
            if call.done.done():
                continue
            if isinstance(reply, Exception):
                call.done.set_exception(StoreUnavailable(f"redis: {reply}"))
            else:
                call.done.set_result(reply)

    def _queue_wait(self, pipe: Any) -> None:
        """End a write pipeline with WAIT when replicas must confirm (its reply is the pipeline's last)."""
        if self.wait_replicas:
            pipe.execute_command("WAIT", self.wait_replicas, self.wait_timeout_ms)

    def _check_wait(self, replies: list[Any]) -> None:
        """Pop WAIT's reply; raise StoreUnavailable if fewer replicas than asked have the pipeline's writes."""
        if not self.wait_replicas:
            return
        acked = replies.pop()
        if isinstance(acked, Exception) or not isinstance(acked, int) or acked < self.wait_replicas:
            raise StoreUnavailable(
                f"redis: the writes reached {acked!r} replicas, not {self.wait_replicas}: outcome unknown"
            )

    async def _replicated(self, build: Callable[[Any], None]) -> list[Any]:
        """Send the commands ``build(pipe)`` queues in one pipeline (then WAIT, if asked); their replies."""
        with _unavailable():
            async with self.client.pipeline(transaction=False) as pipe:
                build(pipe)
                self._queue_wait(pipe)
                replies: list[Any] = await pipe.execute()
        self._check_wait(replies)
        return replies

    # ---- rooms ----------------------------------------------------------------------------------

    async def create_room(self, meta: Meta) -> None:
        info = _check_meta(meta)
        keys = [*self._room_keys(info.room), self._rooms_key, self._public_key]
        done = await self._run(self._create, keys, _meta_args(info))
        if done == _EXISTS:
            raise ValueError(f"room {info.room!r} already exists")

    async def save_meta(self, room: str, meta: Meta, *, fence: str | None = None) -> None:
        info = _check_meta(meta, room)
        keys = [self._key(room, "meta"), self._public_key, *self._fence_keys(room)]
        done = await self._run(self._save_meta, keys, [*_meta_args(info), fence or ""])
        _check_done(room, done, "meta")

    async def append(self, room: str, entry: Entry, meta: Meta, *, fence: str | None = None) -> None:
        info = _check_meta(meta, room)
        v, packed = _check_entry(entry)
        keys = [*self._room_keys(room), self._public_key, *self._fence_keys(room)]
        done = await self._run(self._append, keys, [*_meta_args(info), v, packed, fence or ""])
        _check_done(room, done, "append")
        if done == _STALE:
            raise ValueError(f"entry v={v} is not above the room's last stored version")

    async def save_snapshot(self, room: str, v: int, snapshot: bytes, *, fence: str | None = None) -> None:
        _check_version(v, "snapshot v", 0)
        _check_room(room)
        trim = f"{v + 1}-0" if self.trim_log else ""
        args: list[bytes | str | int] = [v, bytes(snapshot), trim, fence or ""]
        done = await self._run(self._snapshot, [*self._room_keys(room), *self._fence_keys(room)], args)
        _check_done(room, done, "snapshot")
        if done == _STALE:
            raise ValueError(f"snapshot v={v} is older than the stored one")

    async def load(self, room: str) -> LoadedRoom | None:
        _check_room(room)
        meta_key, snap_key, log_key = self._room_keys(room)
        with _unavailable():
            async with self.client.pipeline(transaction=True) as pipe:
                pipe.hget(meta_key, "data")
                pipe.hmget(snap_key, ["v", "data"])
                pipe.xrange(log_key, "-", "+")
                data, (snap_v, snapshot), log = await pipe.execute()
        if data is None:
            return None
        base = int(snap_v) if snap_v is not None else 0
        entries = [_unpack(fields[b"e"]) for _id, fields in log]
        return LoadedRoom(
            meta=_unpack(data),
            snap_v=base,
            snapshot=snapshot,
            log=[e for e in entries if e["v"] > base],
        )

    async def log_entry(self, room: str, v: int) -> tuple[int, Entry | None]:
        meta_key, _snap, log_key = self._room_keys(room)
        with _unavailable():
            async with self.client.pipeline(transaction=True) as pipe:
                pipe.hget(meta_key, "log_v")
                pipe.xrange(log_key, f"{v}-0", f"{v}-0")
                log_v, found = await pipe.execute()
        if log_v is None:
            raise KeyError(room)
        return int(log_v), _unpack(found[0][1][b"e"]) if found else None

    async def full_log(self, room: str) -> list[Entry]:
        """Every stored log entry of the room (all of them only with ``trim_log=False``)."""
        with _unavailable():
            log = await self.client.xrange(self._key(room, "log"), "-", "+")
        return [_unpack(fields[b"e"]) for _id, fields in log]

    async def _fields_of(self, set_key: str, field_name: str) -> dict[str, bytes]:
        """Read one meta field of every room in a directory set; drop ids whose room has expired."""
        with _unavailable():
            members = await self.client.smembers(set_key)
            ids = sorted(m.decode() if isinstance(m, bytes) else m for m in members)
            async with self.client.pipeline(transaction=False) as pipe:
                for rid in ids:
                    pipe.hget(self._key(rid, "meta"), field_name)
                values = await pipe.execute()
            gone = [rid for rid, value in zip(ids, values, strict=True) if value is None]
            if gone:
                args = [f"{self.prefix}room:", ":meta", *gone]
                await self._prune(keys=[set_key], args=args)
        return {rid: value for rid, value in zip(ids, values, strict=True) if value is not None}

    async def room_ids(self, *, unfinished_only: bool = False) -> list[str]:
        statuses = await self._fields_of(self._rooms_key, "status")
        return [rid for rid, status in statuses.items() if not unfinished_only or status != b"finished"]

    async def list_public(self) -> list[Meta]:
        metas = [_unpack(data) for data in (await self._fields_of(self._public_key, "data")).values()]
        listed = [m for m in metas if m.get("public", True) is True and m.get("status") in LISTED_STATUSES]
        return sorted(listed, key=_listing_order)

    async def finish(self, room: str, meta: Meta, ttl_seconds: int, *, fence: str | None = None) -> None:
        _check_ttl(ttl_seconds, "ttl_seconds")
        info = _check_meta({**meta, "status": "finished"}, room)
        keys = [*self._room_keys(room), self._public_key, *self._fence_keys(room)]
        done = await self._run(self._finish, keys, [*_meta_args(info), ttl_seconds * 1000, fence or ""])
        _check_done(room, done, "finish")

    async def delete_room(self, room: str) -> None:
        _check_room(room)
        with _unavailable():
            async with self.client.pipeline(transaction=True) as pipe:
                pipe.delete(*self._room_keys(room), *self._fence_keys(room))
                pipe.srem(self._rooms_key, room)
                pipe.srem(self._public_key, room)
                await pipe.execute()

    async def close(self) -> None:
        if not self._closed:
            self._closed = True
            if self._writer is not None:
                self._writer.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await self._writer
            for call in self._queue:
                if not call.done.done():
                    call.done.set_exception(StoreUnavailable("the store is closed"))
            self._queue = []
            await self.client.aclose()
            await self.client.connection_pool.disconnect()
            if self.sentinel is not None:
                await self.sentinel.aclose()

    async def ping(self) -> None:
        with _unavailable():
            await self.client.ping()

    async def get_meta(self, room: str) -> Meta | None:
        _check_room(room)
        with _unavailable():
            data = await self.client.hget(self._key(room, "meta"), "data")
        if not isinstance(data, bytes):
            return None
        meta: Meta = _unpack(data)
        return meta

    async def mark_seat(self, player: str, room: str, held: bool) -> None:
        key = f"{self.prefix}player:{player}:rooms"
        await self._replicated(lambda pipe: pipe.sadd(key, room) if held else pipe.srem(key, room))

    async def player_rooms(self, player: str) -> list[str]:
        with _unavailable():
            members = await self.client.smembers(f"{self.prefix}player:{player}:rooms")
        return sorted(m.decode() if isinstance(m, bytes) else str(m) for m in members)

    async def save_session(self, key: str, session: dict[str, Any], ttl_seconds: int) -> None:
        _check_ttl(ttl_seconds, "ttl_seconds")
        packed = _pack(session)
        await self._replicated(lambda pipe: pipe.set(f"{self.prefix}session:{key}", packed, ex=ttl_seconds))

    async def load_session(self, key: str) -> dict[str, Any] | None:
        with _unavailable():
            data = await self.client.get(f"{self.prefix}session:{key}")
        if not isinstance(data, bytes):
            return None
        session: dict[str, Any] = _unpack(data)
        return session

    # ---- leases ---------------------------------------------------------------------------------

    async def acquire_lease(self, room: str, node: str, ttl_ms: int) -> str | None:
        _check_ttl(ttl_ms, "ttl_ms")
        token = await self._run(self._acquire, self._fence_keys(room), [node, ttl_ms])
        return token.decode() if isinstance(token, bytes) else None

    async def renew_lease(self, room: str, token: str, ttl_ms: int) -> bool:
        return (await self.keep_leases([(room, token)], ttl_ms))[0]

    async def keep_leases(self, leases: list[tuple[str, str]], ttl_ms: int) -> list[bool]:
        _check_ttl(ttl_ms, "ttl_ms")
        held: list[bool] = []
        for i in range(0, len(leases), 500):
            chunk = leases[i : i + 500]
            keys = [k for room, _token in chunk for k in self._fence_keys(room)]
            args = [ttl_ms, *(token for _room, token in chunk)]
            held.extend(bool(x) for x in await self._run(self._keep, keys, args))
        return held

    async def refence(self, room: str, token: str, ttl_ms: int) -> str | None:
        _check_ttl(ttl_ms, "ttl_ms")
        new = await self._run(self._refence, self._fence_keys(room), [token, ttl_ms])
        return new.decode() if isinstance(new, bytes) else None

    async def release_lease(self, room: str, token: str) -> None:
        await self._run(self._release, self._fence_keys(room), [token])

    async def lease_holder(self, room: str) -> str | None:
        with _unavailable():
            held = await self.client.get(self._lease_key(room))
        return token_node(held.decode()) if isinstance(held, bytes) else None

    async def lease_holders(self, rooms: list[str]) -> list[str | None]:
        """Every room's lease holder, read with one MGET per 500 rooms."""
        out: list[str | None] = []
        for i in range(0, len(rooms), 500):
            with _unavailable():
                held = await self.client.mget([self._lease_key(room) for room in rooms[i : i + 500]])
            out.extend(token_node(h.decode()) if isinstance(h, bytes) else None for h in held)
        return out
