"""The room store's interface and what every store shares: the errors, the checks of what is written, packing.

A room is stored as

- ``meta``: a msgpack-able dict; the store reads ``room``, ``status``, ``public`` and ``game``, and for its indexes
  (the lobby, quick match, the unfinished rooms a node's start-up claims) ``created``, ``seats``, ``players``,
  ``options`` and ``closed`` (see `MetaInfo`);
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

Indexes: every store keeps, beside the rooms, the indexes that the lobby (a page of the public waiting or playing
rooms, oldest first: ``lobby_page``), quick match (a seat in the fullest waiting room of a kind: ``match_claim``)
and a node's start-up (the unfinished rooms: ``open_rooms``) read a page at a time, so that no request reads
anything in proportion to all rooms. They follow the room's writes (derived from its meta by `check_meta`).

This module must not know about engines, rooms, sessions or sockets: stores keep dicts and bytes.
"""

from __future__ import annotations

import hashlib
import json
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any, cast

import msgpack

Meta = dict[str, Any]
Entry = dict[str, Any]

STATUSES = ("waiting", "playing", "finished")
LISTED_STATUSES = ("waiting", "playing")


class StoreUnavailable(Exception):
    """The backend failed (refused, timed out, errored); the operation may be retried later."""


class StoreRefused(StoreUnavailable):
    """The store refused a write and stored none of it, for a reason an immediate retry does not cure (disk
    full, Redis out of memory, a read-only replica): the caller knows the outcome (not stored) at once."""


class StoreUnreplicated(StoreUnavailable):
    """The write ran on the Redis primary (its reply was success) but fewer replicas than `--wait-replicas`
    confirmed it in time: stored, yet it may vanish in a failover. The room adopts it without an `ok` (the
    client resyncs), and the store refuses further writes until the replicas confirm again."""


class StoreLocked(Exception):
    """The store is held by another server (a SQLite file has one writer): this one must not start."""


class StoreFenced(Exception):
    """A write carried a fencing token that no longer holds: another node owns the room now."""


def token_node(token: str) -> str:
    """The node id inside a fencing token ``"{node}|{epoch}"``."""
    return token.rsplit("|", 1)[0]


def token_epoch(token: str) -> int:
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
        """Return the ids of all stored rooms (only waiting/playing ones if asked), sorted.

        For tools and tests: it reads every room; a request path reads `open_rooms` pages instead."""

    @abstractmethod
    async def list_public(self) -> list[Meta]:
        """Return the metas of public rooms that are waiting or playing, oldest first (every one: for tools and
        tests; the lobby reads `lobby_page`)."""

    @abstractmethod
    async def lobby_page(self, game: str | None, offset: int, limit: int) -> tuple[list[Meta], int]:
        """One page of the lobby: the metas of public waiting or playing rooms (of ``game``, or of every game),
        oldest first, from position ``offset``, at most ``limit``; and how many the whole list holds. Read through
        an index: the cost grows with ``offset + limit``, not with the number of rooms."""

    @abstractmethod
    async def match_claim(
        self, kind: str, player: str, new_room: str | None = None, seats: int = 0, created: float = 0.0
    ) -> tuple[str, bool] | None:
        """Quick match, one atomic step on the kind's index (no scan): claim a seat for ``player`` in the fullest
        public waiting room of ``kind`` (see `match_kind`; the oldest among equals) that ``player`` neither sits in
        nor claimed already, and return ``(room, False)``. When there is none: with ``new_room`` (an id the caller
        then creates a room of ``seats`` under, created at ``created``), put that room in the index with the
        player's claim in it and return ``(new_room, True)``, so that other players asking meanwhile are given
        seats in it, not rooms of their own; without, None.

        A claim is a seat held in the index only: it counts against the room's free seats until the player's join
        reaches the room's meta (or `match_release` hands it back, or ten seconds pass)."""

    @abstractmethod
    async def match_release(self, kind: str, room: str, player: str) -> None:
        """Hand back the seat `match_claim` took for ``player`` in ``room`` and did not use (the join failed);
        a room that does not exist (or no longer fits) leaves the kind's index."""

    @abstractmethod
    async def open_rooms(self, after: str | None, count: int) -> tuple[list[str], str | None]:
        """A page of the unfinished rooms (waiting or playing), in a stable order: at most ``count`` ids from the
        one after ``after`` (None: the first page), and where the next page starts (None: that was the last)."""

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

    @abstractmethod
    async def delete_sessions(self, keys: list[str]) -> None:
        """Forget these sessions (a sign-out): their tokens no longer resume anybody."""

    async def __aenter__(self) -> Store:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()


# --- shared helpers (public: every store module uses them) -----------------------------------


def pack(obj: Any) -> bytes:
    return cast(bytes, msgpack.packb(obj, use_bin_type=True))


def unpack(data: bytes) -> Any:
    return msgpack.unpackb(data, raw=False, strict_map_key=False)


def match_kind(game: str, seats: int, options: dict[str, Any] | None) -> str:
    """What quick match pairs rooms by: the game, the number of seats and the options (a digest of them)."""
    try:
        canonical = json.dumps(options or {}, sort_keys=True, separators=(",", ":"), default=str).encode()
    except TypeError:  # keys of mixed types: not sortable, packed as they come
        canonical = pack(options)
    return f"{game}:{seats}:{hashlib.sha1(canonical).hexdigest()[:16]}"


@dataclass(frozen=True, slots=True)
class MetaInfo:
    """The fields of a meta the store reads, checked, plus the packed meta and where the room shows in the
    store's indexes."""

    room: str
    status: str
    game: str
    public: bool
    packed: bytes
    #: when the room was created (seconds since the epoch; 0 when the meta does not say): the lobby's order
    created: float = 0.0
    #: quick match's kind (`match_kind`), "" when the meta names no seats
    kind: str = ""
    #: seats no one holds (``players`` entries that are None)
    free: int = 0
    #: the players (and bots) holding seats
    players: tuple[str, ...] = ()
    closed: bool = False

    @property
    def listed(self) -> bool:
        """In the lobby: public, waiting or playing."""
        return self.public and self.status in LISTED_STATUSES

    @property
    def open(self) -> bool:
        """Unfinished: among the rooms a node's start-up claims."""
        return self.status != "finished"

    @property
    def matchable(self) -> bool:
        """In quick match's index: public, waiting, not closed, with a free seat."""
        return self.public and self.status == "waiting" and not self.closed and self.free > 0 and bool(self.kind)

    @property
    def created_ms(self) -> int:
        return int(self.created * 1000)

    def place(self) -> tuple[Any, ...]:
        """What the indexes hold of the room: two metas with the same place need no index write between them."""
        return (self.open, self.listed, self.game, self.created, self.matchable, self.kind, self.free, self.players)


def check_room(room: str) -> None:
    if not isinstance(room, str) or not room:
        raise ValueError(f"room id must be a non-empty string, got {room!r}")


def check_meta(meta: Meta, room: str | None = None) -> MetaInfo:
    if not isinstance(meta, dict):
        raise ValueError("meta must be a dict")
    rid = meta.get("room")
    check_room(cast(str, rid))
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
    created = listing_order(meta)[0]
    seats = meta.get("seats")
    players = meta.get("players")
    seated: tuple[str, ...] = ()
    free = 0
    if isinstance(players, list):
        seated = tuple(str(p) for p in players if p is not None)
        free = len(players) - len(seated)
    kind = ""
    if isinstance(seats, int) and not isinstance(seats, bool) and status == "waiting":  # only a waiting room matches
        options = meta.get("options")
        kind = match_kind(game, seats, options if isinstance(options, dict) else None)
    closed = bool(meta.get("closed"))
    return MetaInfo(cast(str, rid), cast(str, status), game, public, pack(meta), created, kind, free, seated, closed)


def check_version(v: object, what: str, minimum: int) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or v < minimum:
        raise ValueError(f"{what} must be an int >= {minimum}, got {v!r}")
    return v


def check_entry(entry: Entry) -> tuple[int, bytes]:
    if not isinstance(entry, dict):
        raise ValueError("a log entry must be a dict")
    return check_version(entry.get("v"), "entry v", 1), pack(entry)


def check_ttl(ttl: int, what: str) -> None:
    if isinstance(ttl, bool) or not isinstance(ttl, int) or ttl <= 0:
        raise ValueError(f"{what} must be a positive int, got {ttl!r}")


def listing_order(meta: Meta) -> tuple[float, str]:
    created = meta.get("created")
    when = float(created) if isinstance(created, int | float) and not isinstance(created, bool) else 0.0
    return when, str(meta.get("room"))


