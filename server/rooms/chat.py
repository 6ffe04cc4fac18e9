"""Chat: a room's lines to its viewers, and the checks every chat line passes (the lobby's too).

Owns: what a chat line is (`{t:"chat", room, from, name, text, at}`), its checks (plain text, no control
characters) and the per-connection rate limit, and the room request `chat` (kept with the room's records).
Must not: interpret text (clients show it as plain text) or touch sockets.
"""

from __future__ import annotations

import secrets
import time
from typing import Any, ClassVar

from server.config import Settings
from server.rooms.core import Command, Conn, Extension, Room, RoomError, now_ms
from server.store.base import StoreUnavailable

_CTRL = {chr(c) for c in range(32) if c != 10} | {chr(c) for c in range(0x7F, 0xA0)}
#: recent lines per connection id (the lobby's and every room's, one limit)
_buckets: dict[str, list[float]] = {}
#: past this many connections in `_buckets`, those with no recent line are forgotten
BUCKETS_KEPT = 10_000


def check_chat(settings: Settings, conn: Conn, text: str) -> str:
    """`text` if it may be sent now by `conn`; else RoomError `bad_message` or `rate_limited`."""
    if not text.strip() or any(ch in _CTRL for ch in text):
        raise RoomError("bad_message", "chat text is 1..500 characters of plain text (no control characters)")
    lines = int(settings.chat_lines)
    window = float(settings.chat_window)
    now = time.monotonic()
    recent = [t for t in _buckets.get(conn.id, []) if now - t < window]
    if lines and len(recent) >= lines:
        _buckets[conn.id] = recent
        raise RoomError("rate_limited", f"at most {lines} chat lines per {window:.0f} s")
    recent.append(now)
    _buckets[conn.id] = recent
    if len(_buckets) > BUCKETS_KEPT:  # forget the connections with no line in the window (never all of them)
        for key in [k for k, ts in _buckets.items() if not ts or now - ts[-1] >= window]:
            del _buckets[key]
    return text


def chat_line(room: str | None, conn: Conn, text: str) -> dict[str, Any]:
    """The chat message every viewer (or lobby watcher) receives."""
    line = {"t": "chat", "room": room, "from": conn.player, "name": conn.name, "text": text, "at": now_ms(),
            "line": secrets.token_hex(6)}  # fmt: skip
    line["guest"] = not getattr(conn, "account", False)  # v1.2: marked wherever a name is shown
    return line


class Chat(Extension):
    """The room request `chat`."""

    requests: ClassVar[dict[str, str]] = {"chat": "room_chat"}

    def __init__(self, settings: Settings) -> None:
        self.settings = settings

    def seat_keys(self, room: Room, seats: list[dict[str, Any]]) -> None:
        """v1.2: `muted: true` on a seat whose chat the host muted."""
        for i, muted in enumerate(room.meta.muted or []):
            if muted and i < len(seats):
                seats[i]["muted"] = True

    async def room_chat(self, room: Room, cmd: Command) -> None:
        """A chat line to a room's viewers; kept with the room."""
        conn = cmd.conn
        if conn is None or conn.id not in room.viewers:
            raise RoomError("forbidden", "join the room (or watch it) first")
        seat = room.viewers[conn.id].seat
        muted = room.meta.muted or []
        if seat is not None and seat < len(muted) and muted[seat]:
            raise RoomError("muted", "the room's host muted your chat")
        line = chat_line(room.id, conn, check_chat(self.settings, conn, cmd.args["text"]))
        # kept in the records before anybody hears it, but outside the actor: moves never wait on the records
        room.records.spawn(self._say(room, conn, cmd.re, line), name=f"chat {room.id}")

    @staticmethod
    async def _say(room: Room, conn: Conn, re: int | None, line: dict[str, Any]) -> None:
        try:
            await room.records.add_chat(room.id, line)
        except StoreUnavailable:
            conn.push({"t": "error", "re": re, "code": "unavailable", "message": "chat is unavailable; retry"})
            return
        conn.push({"t": "ok", "re": re})
        for viewer in list(room.viewers.values()):
            viewer.conn.push(line)
