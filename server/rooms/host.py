"""Host controls: what a room's creator may change before the start, and mute while it plays.

Owns: the room request `host` (`kick` a person, `add_bot` / `remove_bot`, change the `options`, `start` with
bots in the empty seats; v1.2: `mute` / `unmute` a seat's chat, before or during the game). Each change is one
version; a start is two (the seats, then the start).
Must not: decide rules (options are the engine's `parse_options`) or touch sockets.
"""

from __future__ import annotations

from typing import Any, ClassVar

from pydantic import ValidationError

from server.rooms.core import Command, Extension, Room, RoomError


class HostControls(Extension):
    """The room request `host`, for `RoomMeta.host` only, while the room waits."""

    requests: ClassVar[dict[str, str]] = {"host": "host"}

    async def host(self, room: Room, cmd: Command) -> int:
        conn = cmd.conn
        assert conn is not None
        if room.meta.host is None or conn.player != room.meta.host:
            raise RoomError("forbidden", "only the room's creator may do that")
        if cmd.args["action"] in ("mute", "unmute"):
            return await self._mute(room, cmd)
        if room.status != "waiting":
            raise RoomError("forbidden", "the game has started")
        action: str = cmd.args["action"]
        seat: int | None = cmd.args.get("seat")
        players = room.meta.players
        if seat is not None and seat >= room.meta.seats:
            raise RoomError("not_found", f"no seat {seat} in this room")
        meta = room.next_meta()
        entry: dict[str, Any] | None = None
        freed: str | None = None
        if action == "kick" or action == "remove_bot":
            if seat is None or players[seat] is None:
                raise RoomError("bad_message", "name a taken seat")
            is_bot = str(players[seat]).startswith("bot:")
            if is_bot != (action == "remove_bot"):
                raise RoomError("bad_message", "that seat holds a bot" if is_bot else "that seat holds a person")
            freed = None if is_bot else players[seat]
            meta.free_seat(seat)
            entry = {"v": meta.v, "k": "free", "seat": seat}
        elif action == "add_bot":
            free = [i for i, p in enumerate(players) if p is None]
            target = seat if seat is not None else (free[0] if free else None)
            if target is None or target not in free:
                raise RoomError("seat_taken", "no such free seat")
            meta.seat_bot(target)
            v = await room.seat_bots(meta, [target])
            conn.push({"t": "host", "re": cmd.re, "room": room.id, "v": v})
            return v
        elif action == "start":
            free = [i for i, p in enumerate(players) if p is None]
            if not any(p is not None and not str(p).startswith("bot:") for p in players):
                raise RoomError("forbidden", "nobody is seated")
            for i in free:
                meta.seat_bot(i)
            v = await room.seat_bots(meta, free)
            conn.push({"t": "host", "re": cmd.re, "room": room.id, "v": v})
            return v
        elif action == "options":
            try:
                meta.options = room.game.parse_options(dict(cmd.args.get("options") or {})).model_dump()
            except ValidationError as err:
                raise RoomError("bad_message", f"bad options: {err.errors()[0]['msg']}") from None
        else:  # pragma: no cover - the message model admits only the actions above
            raise RoomError("bad_message", f"no action {action!r}")
        await room.commit(entry, meta)
        room.meta = meta
        if freed is not None:
            for viewer in room.viewers.values():
                if viewer.seat == seat:
                    viewer.seat = None  # the removed player watches on
        room.broadcast()
        conn.push({"t": "host", "re": cmd.re, "room": room.id, "v": room.v})
        room.changed()
        if freed is not None:
            await room.index_seat(freed, False)
        return room.v

    @staticmethod
    async def _mute(room: Room, cmd: Command) -> int:
        """v1.2: the host mutes (or unmutes) a person's seat's chat while the room waits or plays: one version."""
        conn = cmd.conn
        assert conn is not None
        if room.status == "finished":
            raise RoomError("forbidden", "the game is over")
        seat: int | None = cmd.args.get("seat")
        players = room.meta.players
        if seat is None or seat >= room.meta.seats or players[seat] is None or str(players[seat]).startswith("bot:"):
            raise RoomError("bad_message", "name a seat a person holds")
        if players[seat] == conn.player:
            raise RoomError("bad_message", "you cannot mute yourself")
        meta = room.next_meta()
        muted = meta.per_seat(meta.muted, False)
        muted[seat] = cmd.args["action"] == "mute"
        meta.muted = muted if any(muted) else None
        await room.commit(None, meta)
        room.meta = meta
        room.broadcast()
        conn.push({"t": "host", "re": cmd.re, "room": room.id, "v": room.v})
        return room.v
