"""Room persistence: one small async interface, an in-process store and a Redis store.

This module owns how a room survives a restart or a node failure. A room is stored as

- ``meta``: a msgpack-able dict; the store reads only ``room``, ``status``, ``public`` and ``game``;
- a ``snapshot``: the packed engine state at version ``snap_v`` (opaque bytes);
- a ``log``: append-only entries (dicts with an int ``v`` >= 1, strictly increasing) applied after the
  snapshot. Recovery is ``load()``: the latest snapshot plus the entries with ``v > snap_v``.

``append`` is the point where a move is stored: it writes the entry and the new meta in one atomic step,
and the server acknowledges the move only after it returns. Any backend failure raises ``StoreUnavailable``
(retryable); for ``append`` the outcome is then unknown, so the caller must reload before going on.
Caller mistakes raise ``KeyError`` (unknown room) or ``ValueError`` (duplicate room, stale version, bad
meta); nothing is written in that case.

Redis layout under a prefix (default ``mp:``), one Lua script per write so each write is atomic:

- ``{p}room:{id}:meta``: HASH ``data`` (packed meta), plain ``status``/``game``/``public`` for
  inspection, ``log_v`` (highest appended v);
- ``{p}room:{id}:snap``: HASH ``v``, ``data``;
- ``{p}room:{id}:log``: STREAM, entry id ``{v}-0``, field ``e`` (packed entry); a snapshot at v trims it
  with ``XTRIM MINID = {v+1}-0`` in the same script, which is exact;
- ``{p}rooms``: SET of room ids; ``{p}public``: SET of public waiting/playing room ids (both pruned lazily
  once a finished room's keys expire); ``{p}lease:{id}``: STRING node id with a PX expiry.

This module must not know about engines, sessions or sockets: it stores dicts and bytes.
"""

from __future__ import annotations

import contextlib
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any, cast

import msgpack
import redis.asyncio as aredis
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.exceptions import RedisError

__all__ = [
    "LoadedRoom",
    "MemoryStore",
    "RedisStore",
    "Store",
    "StoreUnavailable",
    "open_store",
]

Meta = dict[str, Any]
Entry = dict[str, Any]

STATUSES = ("waiting", "playing", "finished")
LISTED_STATUSES = ("waiting", "playing")


class StoreUnavailable(Exception):
    """The backend failed (refused, timed out, errored); the operation may be retried later."""


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
    async def save_meta(self, room: str, meta: Meta) -> None:
        """Replace the room's meta and update the public directory."""

    @abstractmethod
    async def append(self, room: str, entry: Entry, meta: Meta) -> None:
        """Atomically append ``entry`` to the log and replace the meta: the move is stored on return."""

    @abstractmethod
    async def save_snapshot(self, room: str, v: int, snapshot: bytes) -> None:
        """Store the snapshot taken at ``v`` and drop the log entries with v' <= v, atomically."""

    @abstractmethod
    async def load(self, room: str) -> LoadedRoom | None:
        """Return the room's meta, latest snapshot and the log after it, or None if there is no room."""

    @abstractmethod
    async def room_ids(self, *, unfinished_only: bool = False) -> list[str]:
        """Return the ids of all stored rooms (only waiting/playing ones if asked), sorted."""

    @abstractmethod
    async def list_public(self) -> list[Meta]:
        """Return the metas of public rooms that are waiting or playing, oldest first."""

    @abstractmethod
    async def finish(self, room: str, meta: Meta, ttl_seconds: int) -> None:
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
    async def acquire_lease(self, room: str, node: str, ttl_ms: int) -> bool:
        """Take the lease for ``node`` (renew it if ``node`` holds it); False if another node holds it."""

    @abstractmethod
    async def renew_lease(self, room: str, node: str, ttl_ms: int) -> bool:
        """Extend the lease to ``ttl_ms`` from now, only if ``node`` holds it."""

    @abstractmethod
    async def keep_leases(self, rooms: list[str], node: str, ttl_ms: int) -> list[bool]:
        """Renew ``node``'s leases of ``rooms`` (taking any that lapsed and are free) in one round trip.

        Returns, per room, whether ``node`` holds the lease now (False: another node took it).
        """

    @abstractmethod
    async def release_lease(self, room: str, node: str) -> None:
        """Drop the lease, only if ``node`` holds it."""

    @abstractmethod
    async def lease_holder(self, room: str) -> str | None:
        """Return the node holding the room's lease, or None."""

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


def open_store(url: str, *, prefix: str = "mp:") -> Store:
    """Return a MemoryStore for ``"memory"``, a RedisStore for a redis://, rediss:// or unix:// url."""
    if url == "memory":
        return MemoryStore()
    if url.startswith(("redis://", "rediss://", "unix://")):
        return RedisStore(url, prefix=prefix)
    raise ValueError(f"unknown store url {url!r}: use 'memory' or 'redis://host:port/db'")


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

    def __init__(self, *, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._rooms: dict[str, _MemRoom] = {}
        self._leases: dict[str, tuple[str, float]] = {}
        self._sessions: dict[str, tuple[bytes, float]] = {}
        self._player_rooms: dict[str, set[str]] = {}

    def _get(self, room: str) -> _MemRoom | None:
        stored = self._rooms.get(room)
        if stored is not None and stored.expires_at is not None and self._clock() >= stored.expires_at:
            del self._rooms[room]
            return None
        return stored

    def _need(self, room: str) -> _MemRoom:
        _check_room(room)
        stored = self._get(room)
        if stored is None:
            raise KeyError(room)
        return stored

    def _live_rooms(self) -> list[_MemRoom]:
        return [r for rid in list(self._rooms) if (r := self._get(rid)) is not None]

    async def create_room(self, meta: Meta) -> None:
        info = _check_meta(meta)
        if self._get(info.room) is not None:
            raise ValueError(f"room {info.room!r} already exists")
        self._rooms[info.room] = _MemRoom(info)

    async def save_meta(self, room: str, meta: Meta) -> None:
        info = _check_meta(meta, room)
        self._need(room).info = info

    async def append(self, room: str, entry: Entry, meta: Meta) -> None:
        info = _check_meta(meta, room)
        v, packed = _check_entry(entry)
        stored = self._need(room)
        last = max(stored.log_v, stored.snap_v)
        if v <= last:
            raise ValueError(f"entry v={v} is not above the room's last stored version {last}")
        stored.log.append((v, packed))
        stored.log_v = v
        stored.info = info

    async def save_snapshot(self, room: str, v: int, snapshot: bytes) -> None:
        _check_version(v, "snapshot v", 0)
        stored = self._need(room)
        if stored.snapshot is not None and v < stored.snap_v:
            raise ValueError(f"snapshot v={v} is older than the stored one at v={stored.snap_v}")
        stored.snap_v = v
        stored.snapshot = bytes(snapshot)
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

    async def room_ids(self, *, unfinished_only: bool = False) -> list[str]:
        return sorted(r.info.room for r in self._live_rooms() if not unfinished_only or r.info.status != "finished")

    async def list_public(self) -> list[Meta]:
        metas = [_unpack(r.info.packed) for r in self._live_rooms() if r.info.listed]
        return sorted(metas, key=_listing_order)

    async def finish(self, room: str, meta: Meta, ttl_seconds: int) -> None:
        _check_ttl(ttl_seconds, "ttl_seconds")
        info = _check_meta({**meta, "status": "finished"}, room)
        stored = self._need(room)
        stored.info = info
        stored.expires_at = self._clock() + ttl_seconds

    async def delete_room(self, room: str) -> None:
        _check_room(room)
        self._rooms.pop(room, None)
        self._leases.pop(room, None)

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

    def _holder(self, room: str) -> str | None:
        lease = self._leases.get(room)
        if lease is None:
            return None
        if self._clock() >= lease[1]:
            del self._leases[room]
            return None
        return lease[0]

    async def acquire_lease(self, room: str, node: str, ttl_ms: int) -> bool:
        _check_ttl(ttl_ms, "ttl_ms")
        holder = self._holder(room)
        if holder is not None and holder != node:
            return False
        self._leases[room] = (node, self._clock() + ttl_ms / 1000)
        return True

    async def renew_lease(self, room: str, node: str, ttl_ms: int) -> bool:
        _check_ttl(ttl_ms, "ttl_ms")
        if self._holder(room) != node:
            return False
        self._leases[room] = (node, self._clock() + ttl_ms / 1000)
        return True

    async def keep_leases(self, rooms: list[str], node: str, ttl_ms: int) -> list[bool]:
        return [await self.acquire_lease(room, node, ttl_ms) for room in rooms]

    async def release_lease(self, room: str, node: str) -> None:
        if self._holder(room) == node:
            del self._leases[room]

    async def lease_holder(self, room: str) -> str | None:
        return self._holder(room)


# --- Redis store -----------------------------------------------------------------------------------

# Every script takes the meta fields as ARGV[1..6]: data, status, game, public, room id, listed.
_WRITE_META = """
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
"""


def _with_meta_helpers(body: str) -> str:
    return _WRITE_META + body


# KEYS: meta, snap, log, rooms, public
_CREATE = _with_meta_helpers(
    """
if redis.call('EXISTS', KEYS[1]) == 1 then return -2 end
redis.call('DEL', KEYS[2], KEYS[3])
write_meta(KEYS[1], KEYS[5])
redis.call('HSET', KEYS[1], 'log_v', 0)
redis.call('SADD', KEYS[4], ARGV[5])
return 1
"""
)

# KEYS: meta, public
_SAVE_META = _with_meta_helpers(
    """
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
write_meta(KEYS[1], KEYS[2])
return 1
"""
)

# KEYS: meta, snap, log, public; ARGV[7]: v, ARGV[8]: packed entry
_APPEND = _with_meta_helpers(
    """
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
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

# KEYS: meta, snap, log; ARGV: v, data, min stream id to keep
_SNAPSHOT = _with_meta_helpers(
    """
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
local current = redis.call('HGET', KEYS[2], 'v')
if current and tonumber(current) > tonumber(ARGV[1]) then return -1 end
redis.call('HSET', KEYS[2], 'v', ARGV[1], 'data', ARGV[2])
redis.call('XTRIM', KEYS[3], 'MINID', '=', ARGV[3])
inherit_ttl(KEYS[1], KEYS[2])
inherit_ttl(KEYS[1], KEYS[3])
return 1
"""
)

# KEYS: meta, snap, log, public; ARGV[7]: ttl in ms
_FINISH = _with_meta_helpers(
    """
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
write_meta(KEYS[1], KEYS[4])
for i = 1, 3 do redis.call('PEXPIRE', KEYS[i], ARGV[7]) end
return 1
"""
)

# KEYS: lease; ARGV: node, ttl ms
_ACQUIRE = """
local holder = redis.call('GET', KEYS[1])
if holder == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
if holder then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
"""

_RENEW = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
return 0
"""

_KEEP = """
local out = {}
for i, key in ipairs(KEYS) do
  local holder = redis.call('GET', key)
  if holder == ARGV[1] or not holder then
    redis.call('SET', key, ARGV[1], 'PX', ARGV[2])
    out[i] = 1
  else
    out[i] = 0
  end
end
return out
"""

_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('DEL', KEYS[1])
  return 1
end
return 0
"""

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


@contextlib.contextmanager
def _unavailable() -> Iterator[None]:
    try:
        yield
    except (RedisError, OSError) as exc:
        raise StoreUnavailable(f"redis: {exc}") from exc


def _meta_args(info: _MetaInfo) -> list[bytes | str | int]:
    return [info.packed, info.status, info.game, int(info.public), info.room, int(info.listed)]


class RedisStore(Store):
    """Rooms in Redis under ``prefix``; every write is one Lua script, so it is atomic.

    The client fails fast (``timeout`` seconds for connect and socket reads, no automatic retries): a dead
    Redis surfaces as StoreUnavailable instead of a hung room. ``client`` is exposed for pub/sub relays.
    """

    def __init__(self, url: str = "redis://127.0.0.1:6379/0", *, prefix: str = "mp:", timeout: float = 2.0):
        self.prefix = prefix
        self.client: aredis.Redis = aredis.Redis.from_url(
            url,
            decode_responses=False,
            socket_timeout=timeout,
            socket_connect_timeout=timeout,
            retry=Retry(NoBackoff(), 0),
        )
        reg = self.client.register_script
        self._create, self._save_meta, self._append = reg(_CREATE), reg(_SAVE_META), reg(_APPEND)
        self._snapshot, self._finish = reg(_SNAPSHOT), reg(_FINISH)
        self._acquire, self._renew, self._release = reg(_ACQUIRE), reg(_RENEW), reg(_RELEASE)
        self._keep = reg(_KEEP)
        self._prune = reg(_PRUNE)
        self._closed = False

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

    async def create_room(self, meta: Meta) -> None:
        info = _check_meta(meta)
        keys = [*self._room_keys(info.room), self._rooms_key, self._public_key]
        with _unavailable():
            done = await self._create(keys=keys, args=_meta_args(info))
        if done == _EXISTS:
            raise ValueError(f"room {info.room!r} already exists")

    async def save_meta(self, room: str, meta: Meta) -> None:
        info = _check_meta(meta, room)
        with _unavailable():
            keys = [self._key(room, "meta"), self._public_key]
            done = await self._save_meta(keys=keys, args=_meta_args(info))
        if done == _MISSING:
            raise KeyError(room)

    async def append(self, room: str, entry: Entry, meta: Meta) -> None:
        info = _check_meta(meta, room)
        v, packed = _check_entry(entry)
        keys = [*self._room_keys(room), self._public_key]
        with _unavailable():
            done = await self._append(keys=keys, args=[*_meta_args(info), v, packed])
        if done == _MISSING:
            raise KeyError(room)
        if done == _STALE:
            raise ValueError(f"entry v={v} is not above the room's last stored version")

    async def save_snapshot(self, room: str, v: int, snapshot: bytes) -> None:
        _check_version(v, "snapshot v", 0)
        _check_room(room)
        with _unavailable():
            args: list[bytes | str | int] = [v, bytes(snapshot), f"{v + 1}-0"]
            done = await self._snapshot(keys=list(self._room_keys(room)), args=args)
        if done == _MISSING:
            raise KeyError(room)
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

    async def finish(self, room: str, meta: Meta, ttl_seconds: int) -> None:
        _check_ttl(ttl_seconds, "ttl_seconds")
        info = _check_meta({**meta, "status": "finished"}, room)
        keys = [*self._room_keys(room), self._public_key]
        with _unavailable():
            done = await self._finish(keys=keys, args=[*_meta_args(info), ttl_seconds * 1000])
        if done == _MISSING:
            raise KeyError(room)

    async def delete_room(self, room: str) -> None:
        _check_room(room)
        with _unavailable():
            async with self.client.pipeline(transaction=True) as pipe:
                pipe.delete(*self._room_keys(room), self._lease_key(room))
                pipe.srem(self._rooms_key, room)
                pipe.srem(self._public_key, room)
                await pipe.execute()

    async def close(self) -> None:
        if not self._closed:
            self._closed = True
            await self.client.aclose()

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
        with _unavailable():
            if held:
                await self.client.sadd(key, room)
            else:
                await self.client.srem(key, room)

    async def player_rooms(self, player: str) -> list[str]:
        with _unavailable():
            members = await self.client.smembers(f"{self.prefix}player:{player}:rooms")
        return sorted(m.decode() if isinstance(m, bytes) else str(m) for m in members)

    async def save_session(self, key: str, session: dict[str, Any], ttl_seconds: int) -> None:
        _check_ttl(ttl_seconds, "ttl_seconds")
        with _unavailable():
            await self.client.set(f"{self.prefix}session:{key}", _pack(session), ex=ttl_seconds)

    async def load_session(self, key: str) -> dict[str, Any] | None:
        with _unavailable():
            data = await self.client.get(f"{self.prefix}session:{key}")
        if not isinstance(data, bytes):
            return None
        session: dict[str, Any] = _unpack(data)
        return session

    async def acquire_lease(self, room: str, node: str, ttl_ms: int) -> bool:
        _check_ttl(ttl_ms, "ttl_ms")
        with _unavailable():
            return bool(await self._acquire(keys=[self._lease_key(room)], args=[node, ttl_ms]))

    async def renew_lease(self, room: str, node: str, ttl_ms: int) -> bool:
        _check_ttl(ttl_ms, "ttl_ms")
        with _unavailable():
            return bool(await self._renew(keys=[self._lease_key(room)], args=[node, ttl_ms]))

    async def keep_leases(self, rooms: list[str], node: str, ttl_ms: int) -> list[bool]:
        _check_ttl(ttl_ms, "ttl_ms")
        held: list[bool] = []
        with _unavailable():
            for i in range(0, len(rooms), 500):
                chunk = [self._lease_key(r) for r in rooms[i : i + 500]]
                held.extend(bool(x) for x in await self._keep(keys=chunk, args=[node, ttl_ms]))
        return held

    async def release_lease(self, room: str, node: str) -> None:
        with _unavailable():
            await self._release(keys=[self._lease_key(room)], args=[node])

    async def lease_holder(self, room: str) -> str | None:
        with _unavailable():
            holder = await self.client.get(self._lease_key(room))
        return holder.decode() if isinstance(holder, bytes) else None
