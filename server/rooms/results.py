"""Ratings shown at the seats, and what a finished game leaves behind: its history record and new ratings.

Owns: `RoomMeta.ratings` (each seat's public rating, read when the seats change), the seats' `rating` in the
view, and, once a game ends, its record in the history and the rating update of its players
(`server.rooms.ratings` holds the maths, `server.store.records` the storage).
Must not: decide results (the engine's `result` does) or fail a move: records are best effort.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable
from typing import Any

from server.rooms import ratings
from server.rooms.core import Extension, Room, now_ms
from server.rooms.meta import RoomMeta
from server.store.base import Store, StoreUnavailable
from server.store.records import records_for

log = logging.getLogger("marcopolo.lobby")


async def seat_ratings(store: Store, meta: RoomMeta) -> list[int | None]:
    """Each seat's public rating in the room's game (None: a free seat or nobody rated yet); best effort."""
    players = [None if p is None else ratings.identity(str(p)) for p in meta.players]
    ids = sorted({p for p in players if p is not None})
    try:
        rows = await records_for(store).ratings_of(meta.game, ids) if ids else {}
    except StoreUnavailable as err:
        log.info("room %s: ratings not read: %s", meta.room, err)
        rows = {}
    return [ratings.shown(rows[p]) if p in rows else None for p in players]


class Results(Extension):
    """Seat ratings in the view; history and ratings at the end of a game."""

    def before_commit(self, room: Room, meta: RoomMeta) -> Awaitable[None] | None:
        """Before a version that seats or frees a player: the seats' ratings (read from the records)."""
        if meta.players != room.meta.players or room.meta.ratings is None:
            return self._rate_seats(room, meta)
        return None

    async def _rate_seats(self, room: Room, meta: RoomMeta) -> None:
        meta.ratings = await seat_ratings(room.store, meta)

    def seat_keys(self, room: Room, seats: list[dict[str, Any]]) -> None:
        rated = room.meta.ratings or []
        for i, seat in enumerate(seats):
            seat["rating"] = rated[i] if i < len(rated) else None

    async def on_finish(self, room: Room) -> None:
        """A game ended (called once, by the node that stored the last move): history and ratings."""
        meta = room.meta
        if room.state is None or meta.closed:
            return
        result = room.game.result(room.state)
        if result is None:
            return
        records = records_for(room.store)
        players = [str(p) for p in meta.players]
        names = [str(n) for n in meta.names]
        try:
            await records.add_game(
                {"room": room.id, "game": meta.game, "seats": meta.seats, "players": list(meta.names),
                 "result": result, "finished_at": now_ms(), "_public": bool(meta.public)},
                [p for p in players if not p.startswith("bot:")],
            )  # fmt: skip
            if meta.human_seats():  # the rows of this game's players only, whatever the number of rated players
                rows = await records.ratings_of(meta.game, sorted({ratings.identity(p) for p in players}))
                await records.save_ratings(meta.game, ratings.rate_game(rows, players, names, result))
        except StoreUnavailable as err:
            log.warning("room %s: history/ratings not stored: %s", room.id, err)
