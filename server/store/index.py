"""The indexes of an in-process store (memory, SQLite): the lobby, quick match and the unfinished rooms.

Owns: `Directory`, kept in memory beside the rooms and updated after each write of a room (with the `MetaInfo` of
the meta written): sorted lists read a page at a time, so that the lobby, quick match and a node's start-up cost
what a page costs, not what all rooms cost. The Redis store keeps the same indexes in Redis
(`server.store.redis`). The same semantics in both: a seat `claim` takes is held in the index only, and the room's
next write counts it again while it waits for its player's join (at most `HOLD_SECONDS`).
Must not: know rooms beyond their `MetaInfo`; it does no I/O.
"""

from __future__ import annotations

import bisect
import time
from typing import Any

from server.store.base import MetaInfo


class SortedIndex:
    """Room ids ordered by a key (a tuple ending with the room id), with their positions by bisection."""

    def __init__(self) -> None:
        self._keys: list[tuple[Any, ...]] = []
        self._by_room: dict[str, tuple[Any, ...]] = {}

    def __len__(self) -> int:
        return len(self._keys)

    def __contains__(self, room: str) -> bool:
        return room in self._by_room

    def put(self, room: str, key: tuple[Any, ...]) -> None:
        old = self._by_room.get(room)
        if old == key:
            return
        if old is not None:
            self._remove_key(old)
        self._by_room[room] = key
        bisect.insort(self._keys, key)

    def remove(self, room: str) -> None:
        old = self._by_room.pop(room, None)
        if old is not None:
            self._remove_key(old)

    def key(self, room: str) -> tuple[Any, ...] | None:
        return self._by_room.get(room)

    def _remove_key(self, key: tuple[Any, ...]) -> None:
        i = bisect.bisect_left(self._keys, key)
        if i < len(self._keys) and self._keys[i] == key:
            del self._keys[i]

    def page(self, offset: int, limit: int) -> list[str]:
        return [str(k[-1]) for k in self._keys[offset : offset + limit]]

    def after(self, key: tuple[Any, ...] | None, count: int) -> list[tuple[Any, ...]]:
        """At most `count` keys after `key` (from the start when None)."""
        start = 0 if key is None else bisect.bisect_right(self._keys, key)
        return self._keys[start : start + count]

    def first(self, n: int) -> list[tuple[Any, ...]]:
        return self._keys[:n]


#: how many of the fullest rooms of a kind quick match looks at for one that the player does not sit in yet
MATCH_LOOK = 32
#: how long a seat quick match took waits for its player's join before it counts as free again
HOLD_SECONDS = 10.0


class Directory:
    """The lobby (all games, and per game), quick match (per kind) and the unfinished rooms, in memory."""

    def __init__(self) -> None:
        self._placed: dict[str, MetaInfo] = {}
        self.open = SortedIndex()  # (created, room)
        self.lobby: dict[str | None, SortedIndex] = {None: SortedIndex()}  # (created, room)
        self.match: dict[str, SortedIndex] = {}  # (free seats neither held nor claimed, created, room)
        self.who: dict[str, tuple[str, ...]] = {}  # room -> the players seated in it
        self.held: dict[str, dict[str, float]] = {}  # room -> player -> when (monotonic s) its claim was made
        self._kinds: dict[str, tuple[str, int, float]] = {}  # room -> (kind, free seats, created) of its meta

    def update(self, room: str, info: MetaInfo | None) -> None:
        """The room's meta is now `info` (None: the room is gone)."""
        old = self._placed.get(room)
        if info is not None and old is not None and old.place() == info.place():
            self._placed[room] = info
            return
        if old is not None:
            if old.kind and (info is None or info.kind != old.kind or not info.matchable):
                self._unmatch(old.kind, room)
            if old.listed and (info is None or not info.listed):
                self.lobby[None].remove(room)
                self.lobby.get(old.game, SortedIndex()).remove(room)
        if info is None:
            self._placed.pop(room, None)
            self.open.remove(room)
            return
        if info.open:
            self._placed[room] = info
            self.open.put(room, (info.created, room))
        else:  # a finished room is in no index: nothing to remember of it
            self._placed.pop(room, None)
            self.open.remove(room)
        if info.listed:
            self.lobby[None].put(room, (info.created, room))
            self.lobby.setdefault(info.game, SortedIndex()).put(room, (info.created, room))
        if info.matchable:
            self._kinds[room] = (info.kind, info.free, info.created)
            self.who[room] = info.players
            self._place(room)

    def _place(self, room: str, drop: str | None = None) -> None:
        """Put a matchable room where its free seats, less the claims still waiting for their joins, say."""
        kind, free, created = self._kinds[room]
        now = time.monotonic()
        seated = self.who.get(room, ())
        held = {p: t for p, t in self.held.get(room, {}).items() if p != drop and p not in seated
                and t + HOLD_SECONDS > now}  # fmt: skip
        if held:
            self.held[room] = held
        else:
            self.held.pop(room, None)
        index = self.match.setdefault(kind, SortedIndex())
        if free - len(held) > 0:
            index.put(room, (free - len(held), created, room))
        else:
            index.remove(room)

    def _unmatch(self, kind: str, room: str) -> None:
        index = self.match.get(kind)
        if index is not None:
            index.remove(room)
            if not len(index):
                del self.match[kind]
        self.who.pop(room, None)
        self.held.pop(room, None)
        self._kinds.pop(room, None)

    def lobby_page(self, game: str | None, offset: int, limit: int) -> tuple[list[str], int]:
        index = self.lobby.get(game)
        if index is None:
            return [], 0
        return index.page(offset, limit), len(index)

    def claim(
        self, kind: str, player: str, new_room: str | None = None, seats: int = 0, created: float = 0.0
    ) -> tuple[str, bool] | None:
        """A seat for `player` in the fullest room of `kind` it neither sits in nor claimed: (room, False); else,
        given `new_room`, that room placed with the player's claim in it (the caller creates it): (room, True)."""
        now = time.monotonic()
        index = self.match.get(kind)
        for free, created_at, room in index.first(MATCH_LOOK) if index is not None else []:
            if player in self.who.get(room, ()) or player in self.held.get(room, {}):
                continue
            assert index is not None
            if free <= 1:
                index.remove(room)
            else:
                index.put(room, (free - 1, created_at, room))
            self.held.setdefault(room, {})[player] = now
            return str(room), False
        if new_room is None:
            return None
        self.held[new_room] = {player: now}
        self.who[new_room] = ()
        self._kinds[new_room] = (kind, seats, created)
        if seats > 1:
            self.match.setdefault(kind, SortedIndex()).put(new_room, (seats - 1, created, new_room))
        return new_room, True

    def release(self, kind: str, room: str, player: str) -> None:
        """Hand back the seat `player` claimed in `room` and did not take."""
        info = self._placed.get(room)
        if info is None or not info.matchable or info.kind != kind:  # gone (or never made), started, changed
            if info is None and self._kinds.get(room, ("",))[0] == kind:
                self._unmatch(kind, room)
            return
        self._place(room, drop=player)

    def open_page(self, after: str | None, count: int) -> tuple[list[str], str | None]:
        """A page of the unfinished rooms; the cursor is the last one's key ("created|room"), so a room that
        finished meanwhile does not lose the place."""
        start = None
        if after is not None:
            created, _, room = after.partition("|")
            start = (float(created), room)
        keys = self.open.after(start, count)
        last = f"{keys[-1][0]!r}|{keys[-1][1]}" if len(keys) == count else None
        return [str(k[1]) for k in keys], last
