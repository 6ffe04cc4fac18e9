"""Server bots in a room: bot seats (`bot:N`) and seats whose player handed them to a bot (`autoplay`).

Owns: one timer per seat a server bot moves (started after every version the seat may move in, `bot_delay`
later), the bot's thinking outside the actor (a search bot runs in the process pool, `server.rooms.botpool`),
the room requests `autoplay` (a seated player hands its seat to a bot of a level, or takes it back: one version)
and `bot` (internal: a bot's move), and `RoomMeta.autoplay`, shown as the seats' `autoplay` level.
Must not: see more than a seat's own view: a bot chooses from that seat's view and prompt only.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any, ClassVar

from server.config import Settings
from server.games.bots import bot_for
from server.rooms import botpool
from server.rooms.core import Command, Extension, Room, RoomError
from server.rooms.meta import RoomMeta

log = logging.getLogger("marcopolo.room")


def autoplay(meta: RoomMeta) -> list[str | None]:
    """Per seat: the level of the server bot its player handed it to (`autoplay`), else None."""
    stored = meta.autoplay or []
    return [stored[i] if i < len(stored) else None for i in range(meta.seats)]


def played_seats(meta: RoomMeta) -> list[int]:
    """Seats a server bot moves: bot seats and seats on autoplay."""
    return sorted({*meta.bot_seats(), *(i for i, level in enumerate(autoplay(meta)) if level is not None)})


class Bots(Extension):
    """Moves for bot seats and seats on autoplay."""

    requests: ClassVar[dict[str, str]] = {"bot": "bot_move", "autoplay": "autoplay"}

    def __init__(self, settings: Settings) -> None:
        self.delay = float(settings.bot_delay)
        self.think = float(settings.bot_think)
        self._bots: dict[int, Any] = {}
        self._timers: dict[int, asyncio.Task[None]] = {}

    def on_create(self, room: Room) -> None:
        self.schedule(room)

    def on_version(self, room: Room) -> None:
        self.schedule(room)

    def on_dispose(self, room: Room) -> None:
        for timer in self._timers.values():
            timer.cancel()

    def before_move(self, room: Room, meta: RoomMeta, state: dict[str, Any] | None, mover: int | None, by: str) -> None:
        """The seat's own player moved: it plays its seat itself again."""
        if by == "player" and mover is not None and any(meta.autoplay or ()) and autoplay(meta)[mover] is not None:
            auto = autoplay(meta)
            auto[mover] = None
            meta.autoplay = auto

    def seat_keys(self, room: Room, seats: list[dict[str, Any]]) -> None:
        for i, level in enumerate(autoplay(room.meta)):
            if level is not None:
                seats[i]["autoplay"] = level  # (a wire addition: only on a seat a server bot plays for its player)

    def think_seconds(self, room: Room) -> float:
        """Seconds a search bot thinks per decision (the room's `bot_think_ms` option wins over the setting)."""
        return room.meta.bot_think_ms / 1000 if room.meta.bot_think_ms else self.think

    def schedule(self, room: Room) -> None:
        """Start a timer for every seat a bot moves that may move now (a bot move is a server-side step)."""
        if room.state is None or room.status != "playing":
            return
        active = set(room.game.active_seats(room.state))
        for seat in played_seats(room.meta):
            timer = self._timers.get(seat)
            if seat in active and (timer is None or timer.done()):
                self._timers[seat] = asyncio.get_running_loop().create_task(self._timer(room, seat, room.v))

    async def _timer(self, room: Room, seat: int, v: int) -> None:
        await asyncio.sleep(self.delay)
        try:
            # the bot thinks here, outside the actor (a search bot in the process pool): the room keeps
            # serving, and `bot_move` plays the move only if nothing changed meanwhile
            at, state, move = room.v, room.state, None
            if state is not None and room.status == "playing" and seat in room.game.active_seats(state):
                meta = room.meta
                levels = meta.bot_levels or []
                level = autoplay(meta)[seat] or (levels[seat] if seat < len(levels) else None)
                seed = (int(meta.seed) * 7919 + seat * 104729 + at) & 0xFFFFFFFF
                move = await botpool.choose(meta.game, level, state, seat, seed, seconds=self.think_seconds(room))
            await room.submit("bot", None, None, seat=seat, v=v, at=at, move=move)
        except RoomError as err:
            log.info("room %s: bot on seat %d did not move: %s", room.id, seat, err.message)
            if err.code == "unavailable" and not room.stopped:  # try again once the store is back
                await asyncio.sleep(max(self.delay, 0.5))
                if not room.stopped:
                    self.schedule(room)

    async def bot_move(self, room: Room, cmd: Command) -> None:
        seat: int = cmd.args["seat"]
        self._timers.pop(seat, None)
        if room.state is None or room.status != "playing" or seat not in room.game.active_seats(room.state):
            return
        if seat not in played_seats(room.meta):
            return  # the seat's player took it back while the bot thought
        prompt = room.prompt_for(room.state, seat)
        if prompt is None:
            return
        move = cmd.args.get("move")
        if move is not None and (cmd.args.get("at") != room.v or move not in prompt["options"]):
            self.schedule(room)  # the game moved on while the bot thought: think again
            return
        if move is None:
            bot = self._bots.get(seat)
            if bot is None:
                seed = (int(room.meta.seed) * 7919 + seat) & 0xFFFFFFFF
                bot = self._bots[seat] = bot_for(room.meta.game, seed)
            move = bot.choose(prompt, room.game.view(room.state, seat))
        await room.play(seat, move)

    async def autoplay(self, room: Room, cmd: Command) -> int:
        """A seated player hands its seat to a server bot (`level`), or takes it back (None): one version."""
        conn = cmd.conn
        assert conn is not None
        viewer = room.viewer_of(cmd, seated="spectators have no seat to hand over")
        assert viewer.seat is not None
        if room.status != "playing":
            why = "the game is over" if room.status == "finished" else "the game has not started"
            raise RoomError("forbidden", why)
        level: str | None = cmd.args.get("level")
        if level is not None:
            level = botpool.level_name(level)
        auto = autoplay(room.meta)
        if auto[viewer.seat] != level:
            meta = room.next_meta()
            auto[viewer.seat] = level
            meta.autoplay = auto
            await room.commit(None, meta)
            room.meta = meta
            room.broadcast()
        conn.push({"t": "autoplay", "re": cmd.re, "room": room.id, "v": room.v})
        return room.v
