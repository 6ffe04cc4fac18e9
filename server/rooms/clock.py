"""The turn clock: a per-move deadline for the seats with options, and what happens when it passes.

Owns: the clock kept in a room's meta and shown at the view's top level, the expiry moves, the seats a bot
plays after too many expiries in a row.
Must not: decide rules (moves come from the engine's prompt, chosen by the seat's bot) or touch sockets.

Meta fields (`RoomMeta`, stored with every version, so a restart or a takeover picks them up where they were):
- `turn_seconds`: seconds per move (None: no clock); `max_expiries`: expiries in a row before a bot plays the
  seat (default 3);
- `clock`: None or `{seats, deadline}`: the human seats with prompt options and when their time runs out
  (ms since the epoch). A new deadline starts when a seat gets a prompt it did not have, or when a seat that
  moved has to move again; other versions (a presence change, another seat's move in a simultaneous phase)
  keep it;
- `expiries`: per seat, the expiries in a row; `auto`: per seat, whether a bot plays it now. A move of the
  seat's own player (or the player re-attaching to the seat) resets both;
- `turns` (turn-based rooms, v1.2): per seat, `[v, ms]`, the version and the time its turn began, while it is to
  move. A turn begins when a seat gets a prompt with options it did not have, or when the seat that moved has to
  move again; other versions keep it. The node's turn listener (`server.node.signals`, found as the room host's
  `signals`) hears of every version of a turn-based room, and of the room's start and end here.
- `time_bank_seconds` (v1.2, the room's `create` field) and `banks`: per human seat, the ms left in its bank at the
  clock's deadline. A seat in `clock.seats` runs out of time at `deadline + banks[seat]`, each seat at its own time
  in a phase where several move at once; only then does the expiry rule apply (the live clock's move, or
  `on_expiry`), and its bank is empty. A seat that moves after the deadline pays the overrun from its bank;
- `clock_moves` (v1.2): the last `CLOCK_MOVES_KEPT` moves the clock made for late seats (`by` `expired` or
  `auto`), each with the public log events it added (`n_from`..`n_to`), shown as the view's top-level
  `clock_moves` so clients mark those log lines as the clock's. The stored log entry of such a move carries
  `by` too (the room core writes the `by` the clock passes to `Room.play`).

The server setting `clock_scale` (default 1.0) multiplies every clock and timer length; tests run with a small
one so that a 10 s clock (the contract's minimum) lasts a fraction of a second.
"""

from __future__ import annotations

import logging
from typing import Any, Protocol

from server.config import Settings
from server.games.bots import bot_for
from server.rooms.core import Extension, Room, now_ms
from server.rooms.meta import RoomMeta
from server.rooms.replay import CLOCK_BY, CLOCK_MOVES_KEPT, clock_move
from server.rooms.timers import close

log = logging.getLogger("marcopolo.clock")

DEFAULT_MAX_EXPIRIES = 3


class TurnListener(Protocol):
    """What hears of turn-based rooms' turns (the node's signals, `server.node.signals.Signals`)."""

    def turns_changed(self, room: Room) -> None:
        """A version of a turn-based room was adopted here (or the room started running here)."""

    def room_gone(self, room: Room) -> None:
        """The room stopped running here (stopped, or another node took it)."""


def listener(room: Room) -> TurnListener | None:
    """The turn listener of the room's node, if it has one (test hosts have none)."""
    found: TurnListener | None = getattr(room.host, "signals", None)
    return found


def new_turns(meta: RoomMeta, seats: list[int], mover: int | None) -> list[list[int] | None] | None:
    """`meta.turns` for a version whose seats to move are `seats`: a seat keeps the turn it had, unless it is the
    one that moved; a seat that had none, or moved and must move again, begins one at this version."""
    if not seats:
        return None
    old = meta.per_seat(meta.turns, None)
    turns: list[list[int] | None] = [None] * meta.seats
    now = now_ms()
    for s in seats:
        kept = old[s]
        turns[s] = list(kept) if kept is not None and s != mover else [meta.v, now]
    return turns


def reattached(meta: RoomMeta, seat: int) -> bool:
    """The seat's player came back: a bot no longer plays it. True if that changed `meta`."""
    auto = meta.per_seat(meta.auto, False)
    if not auto[seat]:
        return False
    auto[seat] = False
    expiries = meta.per_seat(meta.expiries, 0)
    expiries[seat] = 0
    meta.auto, meta.expiries = auto, expiries
    return True


def seat_banks(meta: RoomMeta, scale: float = 1.0) -> list[int | None]:
    """Per seat, the ms left in its time bank at the clock's deadline (a new list): the stored ones, a full bank
    for a person's seat that has none stored yet, None for a seat without a bank (a server bot's, or every seat
    of a room without banks). `scale` is the server's `clock_scale`."""
    if not meta.time_bank_seconds:
        return [None] * meta.seats
    full = int(meta.time_bank_seconds * 1000 * scale)
    stored = meta.per_seat(meta.banks, None)
    people = set(meta.human_seats())
    return [(full if stored[s] is None else int(stored[s])) if s in people else None for s in range(meta.seats)]


def runs_out(meta: RoomMeta, scale: float = 1.0) -> dict[int, int]:
    """When (ms since the epoch) each seat the clock runs for is out of time: its deadline plus its bank."""
    clock = meta.clock
    if not clock:
        return {}
    banks = seat_banks(meta, scale)
    return {int(s): int(clock["deadline"]) + int(banks[int(s)] or 0) for s in clock["seats"]}


class TurnClock(Extension):
    """Per-move deadlines (`create.turn_seconds`); the seat's bot moves for a late seat."""

    def __init__(self, settings: Settings) -> None:
        self.scale = float(settings.clock_scale)
        self.bot_delay = float(settings.bot_delay)
        self._bots: dict[int, Any] = {}

    def before_move(self, room: Room, meta: RoomMeta, state: dict[str, Any] | None, mover: int | None, by: str) -> None:
        """Set the clock of the version `meta` describes.

        `by`: `player` (the seat's own player moved), `expired` (the clock played it), `auto` (a bot plays the
        seat after expiries), `bot` (a server bot seat) or `start`."""
        seats: list[int] = []
        if state is not None and meta.status == "playing":
            seats = [
                s for s in meta.human_seats() if (p := room.prompt_for(state, s)) is not None and p.get("options")
            ]
        meta.to_move = seats or None  # whose turn it is (v1.2 `my_games`), clock or not
        if meta.mode == "turn_based":
            meta.turns = new_turns(meta, seats, mover)
        if mover is not None and by in CLOCK_BY and state is not None:  # v1.2: the clock's move, shown as such
            moved = clock_move(room.game, room.state, state, mover, by, meta.v)
            meta.clock_moves = [*(meta.clock_moves or []), moved][-CLOCK_MOVES_KEPT:]
        turn = meta.turn_seconds
        if not turn:
            return  # a room without a clock keeps the rest of its meta as it was
        if mover is not None and by == "player" and meta.late:
            late = meta.per_seat(meta.late, False)
            late[mover] = False
            meta.late = late if any(late) else None
        expiries = meta.per_seat(meta.expiries, 0)
        auto = meta.per_seat(meta.auto, False)
        if mover is not None:
            if by == "player":
                expiries[mover], auto[mover] = 0, False
            elif by == "expired":
                expiries[mover] += 1
                if expiries[mover] >= int(meta.max_expiries or DEFAULT_MAX_EXPIRIES):
                    auto[mover] = True
        meta.expiries, meta.auto = expiries, auto
        old = meta.clock  # the clock of the version before this one (`meta` is its copy)
        if meta.time_bank_seconds:
            banks = self.banks(meta)
            left = banks[mover] if mover is not None else None
            if mover is not None and left is not None and old and mover in old["seats"]:
                over = now_ms() - int(old["deadline"])  # the time the mover took beyond its deadline
                if over > 0:
                    banks[mover] = max(0, left - over)
            meta.banks = banks
        if state is None or meta.status != "playing":
            meta.clock = None
            return
        if not seats:
            meta.clock = None
        elif old and set(seats) <= set(old["seats"]) and mover not in seats:
            meta.clock = {"seats": seats, "deadline": int(old["deadline"])}
        else:
            meta.clock = {"seats": seats, "deadline": now_ms() + int(turn * 1000 * self.scale)}

    def banks(self, meta: RoomMeta) -> list[int | None]:
        """Per seat, the ms left in its time bank at the clock's deadline (see `seat_banks`)."""
        return seat_banks(meta, self.scale)

    def runs_out(self, meta: RoomMeta) -> dict[int, int]:
        """When (ms since the epoch) each seat the clock runs for is out of time (see `runs_out`)."""
        return runs_out(meta, self.scale)

    def on_create(self, room: Room) -> None:
        if room.meta.mode == "turn_based" and (heard := listener(room)) is not None:
            heard.turns_changed(room)  # loaded after a restart or a takeover: its turns go on here

    def on_version(self, room: Room) -> None:
        if room.meta.mode == "turn_based" and (heard := listener(room)) is not None:
            heard.turns_changed(room)

    def on_dispose(self, room: Room) -> None:
        if room.meta.mode == "turn_based" and (heard := listener(room)) is not None:
            heard.room_gone(room)

    async def on_rejoin(self, room: Room, seat: int) -> None:
        """The seat's player re-attached: if a bot played the seat, hand it back (one version)."""
        meta = room.next_meta()
        if not reattached(meta, seat):
            return
        await room.commit(None, meta)
        room.meta = meta
        room.broadcast()

    def view_keys(self, room: Room) -> dict[str, Any]:
        meta = room.meta
        keys: dict[str, Any] = {}
        if meta.mode == "turn_based":  # v1.2: the room's rule, in every view
            rule: dict[str, Any] = {
                "mode": "turn_based",
                "turn_seconds": meta.turn_seconds,
                "on_expiry": meta.on_expiry,
            }
            if meta.time_bank_seconds:
                rule["time_bank_seconds"] = meta.time_bank_seconds
            keys["turn"] = rule
        if meta.clock_moves:  # v1.2: the clock's last moves for late seats (in every status: the log stays)
            keys["clock_moves"] = [dict(m) for m in meta.clock_moves]
        clock = meta.clock
        if not clock or room.status != "playing":
            return keys
        out: dict[str, Any] = {"seats": list(clock["seats"]), "deadline": int(clock["deadline"])}
        auto = [i for i, a in enumerate(meta.per_seat(meta.auto, False)) if a]
        if auto:
            out["auto"] = auto
        late = [i for i, a in enumerate(meta.per_seat(meta.late, False)) if a]
        if late:
            out["late"] = late
        if meta.time_bank_seconds:
            out["bank"] = self.banks(meta)
        keys["clock"] = out
        return keys

    def next_due(self, room: Room) -> float | None:
        meta = room.meta
        clock = meta.clock
        if room.status != "playing" or not clock:
            return None
        ends = self.runs_out(meta)
        if meta.mode == "turn_based" and meta.on_expiry in (None, "wait"):
            late = meta.per_seat(meta.late, False)
            waiting = [at for s, at in ends.items() if not late[s]]
            return float(min(waiting)) if waiting else None  # every late seat is marked: the game waits for a move
        due = float(min(ends.values()))
        auto = meta.per_seat(meta.auto, False)
        if any(auto[s] for s in clock["seats"]):
            due = min(due, now_ms() + self.bot_delay * 1000)
        return due

    async def on_timer(self, room: Room) -> bool:
        """Play late seats (out of time: past the deadline and their bank) and seats a bot plays after expiries."""
        clock = room.meta.clock
        if room.status != "playing" or room.state is None or not clock:
            return False
        now = now_ms()
        out = {s for s, at in self.runs_out(room.meta).items() if now >= at}
        if room.meta.mode == "turn_based" and room.meta.on_expiry != "bot":
            if out:
                await self._turn_based_expiry(room, [int(s) for s in clock["seats"] if int(s) in out])
            return False
        auto = room.meta.per_seat(room.meta.auto, False)
        for seat in list(clock["seats"]):
            if not (seat in out or auto[seat]) or room.status != "playing" or room.state is None:
                continue
            prompt = room.game.prompt(room.state, seat)
            if prompt is None or not prompt.get("options"):
                continue
            move = self._bot_move(room, seat, prompt)
            await room.play(seat, move, by="auto" if auto[seat] else "expired")
        return False

    def _spent(self, meta: RoomMeta, seats: list[int]) -> list[int | None] | None:
        """`meta.banks` with the banks of `seats` used up (they ran out of time), or as it was without banks."""
        if not meta.time_bank_seconds:
            return meta.banks
        banks = self.banks(meta)
        for s in seats:
            if banks[s] is not None:
                banks[s] = 0
        return banks

    async def _turn_based_expiry(self, room: Room, seats: list[int]) -> None:
        """A turn-based seat's time ran out: marked late (the game waits for it), or the game ends naming it."""
        meta = room.meta
        if meta.on_expiry == "end":
            names = ", ".join(str(meta.names[s]) for s in seats)
            new_late = meta.per_seat(meta.late, False)
            for s in seats:
                new_late[s] = True
            await close(room, "timeout", f"time ran out for {names}", late=new_late, to_move=None,
                        banks=self._spent(meta, seats))  # fmt: skip
            return
        late = meta.per_seat(meta.late, False)
        if all(late[s] for s in seats):
            return
        new = room.next_meta()
        for s in seats:
            late[s] = True
        new.late = late
        new.banks = self._spent(meta, seats)
        await room.commit(None, new)
        room.meta = new
        room.broadcast()
        room.changed()
        log.info("room %s: seats %s are late; the game waits for them", room.id, seats)

    def _bot_move(self, room: Room, seat: int, prompt: dict[str, Any]) -> Any:
        bot = self._bots.get(seat)
        if bot is None:
            bot = self._bots[seat] = bot_for(room.meta.game, (int(room.meta.seed) * 7919 + seat + 101) & 0xFFFFFFFF)
        assert room.state is not None
        return bot.choose(prompt, room.game.view(room.state, seat))
