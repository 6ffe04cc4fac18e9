"""Presence: which seats show as connected, stored with the room so every node shows the same view.

Owns: `RoomMeta.online` (one flag per seat), the versions that change it (a seated player's connection comes
back, leaves or closes), the seats' `connected` flags in the view (bot seats always show as connected), and the
grace after a takeover: seats stay shown as connected for `grace` seconds so that their players can re-attach,
then one version turns off the seats nobody re-attached.
Must not: know connections beyond the room's viewers, or block a change of seats (presence is best effort:
when the store refuses a presence change, nothing is shown and the next change corrects it).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any, ClassVar

from server.rooms.core import Command, Conn, Extension, Room, RoomError, Viewer
from server.rooms.meta import RoomMeta

log = logging.getLogger("marcopolo.room")


def online(meta: RoomMeta) -> list[bool]:
    """Which seats show as connected: the stored presence (bots are always there)."""
    stored = meta.online or []
    bots = set(meta.bot_seats())
    return [i in bots or (i < len(stored) and bool(stored[i])) for i in range(meta.seats)]


class Presence(Extension):
    """Seats' `connected` flags as versions of the room."""

    requests: ClassVar[dict[str, str]] = {"presence": "after_grace"}  # internal: the sweep once the grace ends

    def __init__(self, grace: float = 0.0) -> None:
        self.grace = grace
        self._task: asyncio.Task[None] | None = None

    def on_create(self, room: Room) -> None:
        if self.grace > 0:
            self._task = asyncio.get_running_loop().create_task(self._sweep_later(room))

    def on_dispose(self, room: Room) -> None:
        if self._task is not None:
            self._task.cancel()

    def _in_grace(self) -> bool:
        return self._task is not None and not self._task.done()

    async def _sweep_later(self, room: Room) -> None:
        await asyncio.sleep(self.grace)
        try:
            await room.submit("presence", None)
        except RoomError:
            pass

    async def after_grace(self, room: Room, cmd: Command) -> None:
        await self.sync(room)

    async def on_join(self, room: Room, viewer: Viewer, returning: bool) -> None:
        if returning:
            await self.sync(room, skip=viewer.conn)

    async def on_leave(self, room: Room, seat: int) -> None:
        await self.sync(room, hold=self._in_grace())

    def before_commit(self, room: Room, meta: RoomMeta) -> None:
        """A person who takes a seat is connected; a freed seat is not."""
        old = room.meta.players
        if meta.players == old:
            return
        online = meta.per_seat(meta.online, False)
        for i, p in enumerate(meta.players):
            if p != old[i]:
                if p is None:
                    online[i] = False
                elif not p.startswith("bot:"):
                    online[i] = True
        meta.online = online

    def seat_keys(self, room: Room, seats: list[dict[str, Any]]) -> None:
        for seat, flag in zip(seats, online(room.meta), strict=True):
            seat["connected"] = flag

    async def sync(self, room: Room, skip: Conn | None = None, hold: bool = False) -> None:
        """Store and show a presence change when the seats with viewers differ from the stored presence.

        With `hold` (just after a takeover), seats are only turned on, not off."""
        seats = room.meta.seats
        seated = {v.seat for v in room.viewers.values() if v.seat is not None}
        stored = [bool(x) for x in (room.meta.online or [False] * seats)]
        want = [i in seated or (hold and stored[i]) for i in range(seats)]
        if want == stored:
            return
        meta = room.next_meta(online=want)
        try:
            await room.commit(None, meta)
        except RoomError as err:
            if err.code == "abandoned":
                raise
            log.info("room %s: presence not stored (%s)", room.id, err.message)
            return
        room.meta = meta
        room.broadcast(skip=skip)
