"""The in-process room store: rooms in dicts, values packed in and out exactly as Redis would keep them.

For tests and throwaway runs (``--store memory``): nothing survives the process. Its indexes (lobby, quick match,
unfinished rooms) are ``server.store.index.Directory``, kept up by every write.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from server.store.base import (
    Entry,
    LoadedRoom,
    Meta,
    MetaInfo,
    Store,
    StoreFenced,
    check_entry,
    check_meta,
    check_room,
    check_ttl,
    check_version,
    listing_order,
    pack,
    token_epoch,
    token_node,
    unpack,
)
from server.store.index import Directory

# --- in-process store ------------------------------------------------------------------------------


@dataclass(slots=True)
class _MemRoom:
    info: MetaInfo
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
        #: the lobby, quick match and the unfinished rooms, read a page at a time
        self.directory = Directory()

    def _get(self, room: str) -> _MemRoom | None:
        stored = self._rooms.get(room)
        if stored is not None and stored.expires_at is not None and self._clock() >= stored.expires_at:
            del self._rooms[room]
            return None
        return stored

    def _need(self, room: str, fence: str | None = None) -> _MemRoom:
        check_room(room)
        stored = self._get(room)
        if stored is None:
            raise KeyError(room)
        if fence is not None and not self._holds(room, fence):
            raise StoreFenced(f"room {room!r}: the lease is no longer {fence!r}")
        return stored

    def _live_rooms(self) -> list[_MemRoom]:
        return [r for rid in list(self._rooms) if (r := self._get(rid)) is not None]

    async def create_room(self, meta: Meta) -> None:
        info = check_meta(meta)
        if self._get(info.room) is not None:
            raise ValueError(f"room {info.room!r} already exists")
        self._rooms[info.room] = _MemRoom(info)
        self.directory.update(info.room, info)

    async def save_meta(self, room: str, meta: Meta, *, fence: str | None = None) -> None:
        info = check_meta(meta, room)
        self._need(room, fence).info = info
        self.directory.update(room, info)

    async def append(self, room: str, entry: Entry, meta: Meta, *, fence: str | None = None) -> None:
        info = check_meta(meta, room)
        v, packed = check_entry(entry)
        stored = self._need(room, fence)
        last = max(stored.log_v, stored.snap_v)
        if v <= last:
            raise ValueError(f"entry v={v} is not above the room's last stored version {last}")
        stored.log.append((v, packed))
        stored.log_v = v
        stored.info = info
        self.directory.update(room, info)

    async def save_snapshot(self, room: str, v: int, snapshot: bytes, *, fence: str | None = None) -> None:
        check_version(v, "snapshot v", 0)
        stored = self._need(room, fence)
        if stored.snapshot is not None and v < stored.snap_v:
            raise ValueError(f"snapshot v={v} is older than the stored one at v={stored.snap_v}")
        stored.snap_v = v
        stored.snapshot = bytes(snapshot)
        if self.trim_log:
            stored.log = [(ev, e) for ev, e in stored.log if ev > v]

    async def load(self, room: str) -> LoadedRoom | None:
        check_room(room)
        stored = self._get(room)
        if stored is None:
            return None
        return LoadedRoom(
            meta=unpack(stored.info.packed),
            snap_v=stored.snap_v,
            snapshot=stored.snapshot,
            log=[unpack(e) for ev, e in stored.log if ev > stored.snap_v],
        )

    async def log_entry(self, room: str, v: int) -> tuple[int, Entry | None]:
        stored = self._need(room)
        found = next((e for ev, e in stored.log if ev == v), None)
        return stored.log_v, None if found is None else unpack(found)

    async def full_log(self, room: str) -> list[Entry]:
        """Every stored log entry of the room (all of them only with ``trim_log=False``)."""
        stored = self._need(room)
        return [unpack(e) for _ev, e in stored.log]

    async def room_ids(self, *, unfinished_only: bool = False) -> list[str]:
        return sorted(r.info.room for r in self._live_rooms() if not unfinished_only or r.info.status != "finished")

    async def list_public(self) -> list[Meta]:
        metas = [unpack(r.info.packed) for r in self._live_rooms() if r.info.listed]
        return sorted(metas, key=listing_order)

    async def lobby_page(self, game: str | None, offset: int, limit: int) -> tuple[list[Meta], int]:
        ids, total = self.directory.lobby_page(game, offset, limit)
        return [unpack(stored.info.packed) for rid in ids if (stored := self._get(rid)) is not None], total

    async def match_claim(
        self, kind: str, player: str, new_room: str | None = None, seats: int = 0, created: float = 0.0
    ) -> tuple[str, bool] | None:
        return self.directory.claim(kind, player, new_room, seats, created)

    async def match_release(self, kind: str, room: str, player: str) -> None:
        self.directory.release(kind, room, player)

    async def open_rooms(self, after: str | None, count: int) -> tuple[list[str], str | None]:
        return self.directory.open_page(after, count)

    async def finish(self, room: str, meta: Meta, ttl_seconds: int, *, fence: str | None = None) -> None:
        check_ttl(ttl_seconds, "ttl_seconds")
        info = check_meta({**meta, "status": "finished"}, room)
        stored = self._need(room, fence)
        stored.info = info
        stored.expires_at = self._clock() + ttl_seconds
        self.directory.update(room, info)

    async def delete_room(self, room: str) -> None:
        check_room(room)
        self._rooms.pop(room, None)
        self.directory.update(room, None)
        self._leases.pop(room, None)
        self._epochs.pop(room, None)

    async def close(self) -> None:
        pass

    async def ping(self) -> None:
        pass

    async def get_meta(self, room: str) -> Meta | None:
        check_room(room)
        stored = self._get(room)
        return None if stored is None else unpack(stored.info.packed)

    async def mark_seat(self, player: str, room: str, held: bool) -> None:
        rooms = self._player_rooms.setdefault(player, set())
        if held:
            rooms.add(room)
        else:
            rooms.discard(room)

    async def player_rooms(self, player: str) -> list[str]:
        return sorted(self._player_rooms.get(player, ()))

    async def save_session(self, key: str, session: dict[str, Any], ttl_seconds: int) -> None:
        check_ttl(ttl_seconds, "ttl_seconds")
        self._sessions[key] = (pack(session), self._clock() + ttl_seconds)

    async def load_session(self, key: str) -> dict[str, Any] | None:
        item = self._sessions.get(key)
        if item is None or self._clock() >= item[1]:
            self._sessions.pop(key, None)
            return None
        session: dict[str, Any] = unpack(item[0])
        return session

    async def delete_sessions(self, keys: list[str]) -> None:
        for key in keys:
            self._sessions.pop(key, None)

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
        return token_epoch(token) == self._epochs.get(room, 0)

    def _grant(self, room: str, node: str, ttl_ms: int) -> str:
        epoch = self._epochs[room] = self._epochs.get(room, 0) + 1
        token = f"{node}|{epoch}"
        self._leases[room] = (token, self._clock() + ttl_ms / 1000)
        return token

    async def acquire_lease(self, room: str, node: str, ttl_ms: int) -> str | None:
        check_ttl(ttl_ms, "ttl_ms")
        held = self._lease(room)
        if held is not None and token_node(held) != node:
            return None
        return self._grant(room, node, ttl_ms)

    async def renew_lease(self, room: str, token: str, ttl_ms: int) -> bool:
        check_ttl(ttl_ms, "ttl_ms")
        if not self._holds(room, token):
            return False
        self._leases[room] = (token, self._clock() + ttl_ms / 1000)
        return True

    async def keep_leases(self, leases: list[tuple[str, str]], ttl_ms: int) -> list[bool]:
        return [await self.renew_lease(room, token, ttl_ms) for room, token in leases]

    async def refence(self, room: str, token: str, ttl_ms: int) -> str | None:
        check_ttl(ttl_ms, "ttl_ms")
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


