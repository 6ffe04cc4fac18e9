"""A room's timed events beside the turn clock: filling a waiting room's seats with bots, closing rooms nobody uses.

Owns: `RoomMeta.fill_at` (when a waiting room's empty seats get bots: `create.fill_bots_after`), `away_since`
(since when every human seat has been away), `closed` (why a room was closed unfinished, shown at the view's
top level), and the versions these timers make: seats given to bots and the start, or one version that closes
the room (status finished, no result; it leaves the lobby and expires like a finished room).
Must not: decide rules or touch sockets; the close-after settings come from the node's `Settings`.
"""

from __future__ import annotations

import logging
from typing import Any, ClassVar

from server.config import Settings
from server.rooms.core import Command, Extension, Room, RoomError, now_ms
from server.rooms.meta import RoomMeta

log = logging.getLogger("marcopolo.lobby")


def away_from_lobby(meta: RoomMeta, settings: Settings, now: float) -> bool:
    """A live game whose people have all been away `lobby_away_after` seconds is no longer listed (v1.2)."""
    after = settings.lobby_away_after
    if meta.status != "playing" or meta.mode == "turn_based" or not meta.away_since or not after:
        return False
    return now >= float(meta.away_since) + after * 1000 * float(settings.clock_scale)


class RoomTimers(Extension):
    """Fill a waiting room with bots when its fill deadline passes; close waiting rooms and abandoned games;
    (v1.2) close a room a moderator closes (`moderator_close`, from the node, never from a client)."""

    requests: ClassVar[dict[str, str]] = {"moderator_close": "moderator_close"}

    async def moderator_close(self, room: Room, cmd: Command) -> None:
        if cmd.conn is not None:  # pragma: no cover - the hub never forwards a client's command of this kind
            raise RoomError("forbidden", "only a moderator closes a room so")
        if room.status != "finished":
            await close(room, "moderator", str(cmd.args.get("message") or "")[:500] or None)

    def __init__(self, settings: Settings) -> None:
        self.scale = float(settings.clock_scale)
        self.close_waiting_after = settings.close_waiting_after
        self.close_away_after = settings.close_away_after
        self.close_empty_after = settings.close_empty_after
        self.lobby_away_after = settings.lobby_away_after
        #: rooms whose players have been away long enough to leave the lobby, and the away time that did it
        self._hidden: dict[str, int] = {}

    def hidden_from(self, meta: RoomMeta) -> int | None:
        """When (ms) a live game whose people are all away leaves the lobby (None: it stays)."""
        if meta.status != "playing" or meta.mode == "turn_based" or not meta.away_since or not self.lobby_away_after:
            return None
        return int(float(meta.away_since) + self.lobby_away_after * 1000 * self.scale)

    def on_dispose(self, room: Room) -> None:
        self._hidden.pop(room.id, None)

    def on_create(self, room: Room) -> None:
        """A new room's fill deadline runs from its creation (stored with the next version)."""
        meta = room.meta
        if meta.fill_bots_after and not meta.fill_at:
            meta.fill_at = int(float(meta.created) * 1000 + meta.fill_bots_after * 1000 * self.scale)

    def before_commit(self, room: Room, meta: RoomMeta) -> None:
        """Record since when every human seat has been away (None while one is there)."""
        humans = meta.human_seats()
        online = meta.online or []
        away = bool(humans) and not any(i < len(online) and online[i] for i in humans)
        if not away:
            meta.away_since = None
        elif not meta.away_since:
            meta.away_since = now_ms()

    def view_keys(self, room: Room) -> dict[str, Any]:
        if room.status == "waiting" and room.meta.fill_at:
            return {"fill_at": int(room.meta.fill_at)}  # v1.2: when bots fill the empty seats (a countdown)
        if not room.meta.closed:
            return {}
        if room.meta.closed_message:
            return {"closed": room.meta.closed, "closed_message": room.meta.closed_message}
        return {"closed": room.meta.closed}

    def next_due(self, room: Room) -> float | None:
        meta = room.meta
        out: list[float] = []
        if meta.closed or room.status == "finished":
            return None
        sc = self.scale
        if room.status == "waiting":
            if meta.fill_at:
                out.append(float(meta.fill_at))
            if self.close_waiting_after:
                out.append(float(meta.created or 0) * 1000 + self.close_waiting_after * 1000 * sc)
            if self.close_empty_after and not meta.human_seats():
                out.append(float(meta.created or 0) * 1000 + self.close_empty_after * 1000 * sc)
        elif room.status == "playing" and meta.mode != "turn_based":  # a turn-based room waits for its players
            if self.close_away_after and meta.away_since:
                out.append(float(meta.away_since) + self.close_away_after * 1000 * sc)
            hide = self.hidden_from(meta)
            if hide is not None and self._hidden.get(room.id) != meta.away_since:
                out.append(float(hide))
        return min(out) if out else None

    async def on_timer(self, room: Room) -> bool:
        """Handle the events that are due; True if the room changed so (the turn clock then waits)."""
        meta = room.meta
        now = now_ms()
        if meta.closed or room.status == "finished":
            return True
        sc = self.scale
        if room.status == "waiting":
            if meta.fill_at and now >= int(meta.fill_at):
                if meta.human_seats():
                    new = room.next_meta(fill_at=None)
                    free = new.free_seats()
                    for i in free:
                        new.seat_bot(i)
                    await room.seat_bots(new, free)
                    return True
                await close(room, "nobody_joined")
                return True
            after = self.close_waiting_after
            if after and now >= float(meta.created or 0) * 1000 + after * 1000 * sc:
                await close(room, "nobody_joined")
                return True
            empty = self.close_empty_after
            if empty and not meta.human_seats() and now >= float(meta.created or 0) * 1000 + empty * 1000 * sc:
                await close(room, "nobody_joined")
                return True
        elif room.status == "playing" and meta.mode != "turn_based":
            after = self.close_away_after
            if after and meta.away_since and now >= float(meta.away_since) + after * 1000 * sc:
                await close(room, "abandoned")
                return True
            hide = self.hidden_from(meta)
            if hide is not None and now >= hide and self._hidden.get(room.id) != meta.away_since:
                self._hidden[room.id] = int(meta.away_since or 0)
                room.changed()  # the lobby is listed again without it (no new version)
        return False


async def close(room: Room, reason: str, message: str | None = None, **changes: Any) -> None:
    """Close a room nobody uses (or a moderator closes): one version with status finished; it leaves the lobby
    and expires."""
    meta = room.next_meta(status="finished", closed=reason, clock=None, closed_message=message, **changes)
    await room.commit(None, meta)
    room.meta = meta
    room.broadcast()
    push: dict[str, Any] = {"t": "closed", "room": room.id, "reason": reason}
    if message:
        push["message"] = message
    for viewer in list(room.viewers.values()):
        viewer.conn.push(push)
    room.changed()
    await room.after_commit()
    log.info("room %s closed: %s", room.id, reason)
