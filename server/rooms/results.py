"""Ratings shown at the seats, and what a finished game leaves behind: its archive record (history, replay)
and the rating update of its players.

Owns: `RoomMeta.ratings` (each seat's public rating, read when the seats change), the seats' `rating` in the
view, and, once a game ends, handing its archive and rating update to the records (`server.rooms.ratings`
holds the maths, `server.store.records` the storage).
Must not: decide results (the engine's `result` does), fail a move or hold one up: records are written in the
background (retried a while when the records database is down) and seat ratings are read within a short bound.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from server.rooms import ratings
from server.rooms.core import Extension, Room, now_ms
from server.rooms.meta import RoomMeta
from server.store.base import Store, StoreUnavailable
from server.store.records import RateFn, Records

log = logging.getLogger("marcopolo.lobby")

#: how long seating a player waits for the seats' ratings before showing none (seconds)
SEAT_RATINGS_TIMEOUT = 1.0
#: a game's archive and rating update is retried this long while the records database is down (seconds)
ARCHIVE_RETRY_SECONDS = 600.0


async def seat_ratings(records: Records, meta: RoomMeta) -> list[int | None]:
    """Each seat's public rating in the room's game (None: a free seat or nobody rated yet); best effort."""
    players = [None if p is None else ratings.identity(str(p)) for p in meta.players]
    ids = sorted({p for p in players if p is not None})
    try:
        rows = await records.ratings_of(meta.game, ids, timeout=SEAT_RATINGS_TIMEOUT) if ids else {}
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
        meta.ratings = await seat_ratings(room.records, meta)

    def seat_keys(self, room: Room, seats: list[dict[str, Any]]) -> None:
        rated = room.meta.ratings or []
        guests = room.meta.guests()
        for i, seat in enumerate(seats):
            seat["rating"] = rated[i] if i < len(rated) else None
            if i < len(guests) and guests[i] is not None:
                seat["guest"] = guests[i]  # v1.2: a person without an account

    def before_move(self, room: Room, meta: RoomMeta, state: dict[str, Any] | None, mover: int | None, by: str) -> None:
        """Count the seat's moves, and those its own player chose (what makes a seat's rating change)."""
        if mover is None:
            return
        decisions = [list(d) for d in meta.decisions or []]
        decisions += [[0, 0] for _ in range(meta.seats - len(decisions))]
        decisions[mover][1] += 1
        if by == "player":
            decisions[mover][0] += 1
        meta.decisions = decisions

    def __init__(self) -> None:
        #: finished rooms whose archive this process started (once per room; the archive itself is keyed by
        #: room too, so a second start, after a restart, changes nothing)
        self._archived: set[str] = set()

    def on_dispose(self, room: Room) -> None:
        self._archived.discard(room.id)

    def on_version(self, room: Room) -> None:
        """The version that ends the game is adopted (stored): its archive and rating update start now, in the
        background, before its patches go out, so a player who sees the result and asks for the history or
        the leaderboard finds the game there (the lobby waits for the first attempt, see `Records.settled`)."""
        meta = room.meta
        if meta.status != "finished" or room.id in self._archived or room.state is None or meta.closed:
            return
        result = room.game.result(room.state)
        if result is None:
            return
        self._archived.add(room.id)
        players = [str(p) for p in meta.players]
        names = [str(n) for n in meta.names]
        record = {"room": room.id, "game": meta.game, "seats": meta.seats, "players": list(meta.names),
                  "result": result, "finished_at": now_ms(), "_public": bool(meta.public),
                  "_seat_players": list(meta.players)}  # fmt: skip
        kept = {k: v for k, v in meta.to_dict().items() if k != "invite"}  # a secret nothing needs any more
        people = [p for p in players if not p.startswith("bot:")]
        public, decisions = bool(meta.public) and meta.invite is None, meta.decisions

        def rated_now(accounts: set[str]) -> tuple[list[str], RateFn]:
            """Who is rated, and the rating step that changes only their rows (the maths sees every seat)."""
            changed = ratings.rated_ids(players, public, decisions, accounts)

            def rate(rows: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
                new = ratings.rate_game(rows, players, names, result)
                return {pid: row for pid, row in new.items() if pid in changed}

            return (sorted({ratings.identity(p) for p in players}) if changed else []), rate

        work = archive(room.records, room.store, kept, record, people, rated_now)
        room.records.spawn(work, name=f"archive {room.id}")


#: a finished game's players that are accounts -> (ids whose rows are read, the rating step)
RatedFn = Callable[[set[str]], tuple[list[str], RateFn]]


async def archive(
    records: Records,
    store: Store,
    meta: dict[str, Any],
    record: dict[str, Any],
    people: list[str],
    rated_now: RatedFn,
) -> bool:
    """Archive and rate one finished game with what its replay needs (its meta and whole log, read from the
    room store). Which of its people are accounts is read from the records then (a guest who signed up during
    the game counts as one). A first attempt that fails leaves the retries (with backoff, for
    `ARCHIVE_RETRY_SECONDS`) to a task of their own, which the lobby's reads do not wait for; a retry after an
    outcome that stayed unknown changes nothing twice (the archive is keyed by room)."""
    room = str(record["room"])
    try:
        entries = await store.full_log(room)  # type: ignore[attr-defined]
        replay: dict[str, Any] | None = {"meta": meta, "entries": entries}
    except StoreUnavailable as err:
        log.warning("room %s: archived without its replay: %s", room, err)
        replay = None
    try:
        return await _finish(records, record, people, rated_now, replay)
    except StoreUnavailable as err:
        log.warning("room %s: history/ratings not stored yet (%s); retrying", room, err)
    records.spawn(_retry(records, record, people, rated_now, replay), name=f"archive {room} (retry)", settle=False)
    return False


async def _finish(
    records: Records, record: dict[str, Any], people: list[str], rated_now: RatedFn, replay: dict[str, Any] | None
) -> bool:
    accounts = await records.accounts_among(people)
    rated, rate = rated_now(accounts)
    seat_players = record.get("_seat_players") or []
    guests = [None if p is None or str(p).startswith("bot:") else str(p) not in accounts for p in seat_players]
    record = {**record, "guests": guests}  # v1.2: marked wherever a name is shown
    return await records.finish_game(record, people, rated=rated, rate=rate, replay=replay)


async def _retry(
    records: Records,
    record: dict[str, Any],
    people: list[str],
    rated_now: RatedFn,
    replay: dict[str, Any] | None,
) -> bool:
    loop = asyncio.get_running_loop()
    give_up = loop.time() + ARCHIVE_RETRY_SECONDS
    delay = 0.5
    while True:
        await asyncio.sleep(delay)
        try:
            return await _finish(records, record, people, rated_now, replay)
        except StoreUnavailable as err:
            if loop.time() + delay > give_up:
                log.error("room %s: history/ratings not stored (gave up): %s", record["room"], err)
                return False
            log.warning("room %s: history/ratings not stored yet (%s); retrying in %.1f s", record["room"], err, delay)
        delay = min(delay * 2, 30.0)
