"""Turn clocks and the room's other timers (filling seats with bots, closing rooms nobody uses).

Owns: the clock kept in a room's meta and shown at the view's top level, the expiry moves, the seats a bot
plays after too many expiries, and one timer task per room for the next timed event.
Must not: decide rules (moves come from the engine's prompt, chosen by the seat's bot) or touch sockets.

Meta keys (stored with every version, so a restart or a takeover picks them up where they were):
- `turn_seconds`: seconds per move (None: no clock); `max_expiries`: expiries in a row before a bot
  plays the seat (default 3);
- `clock`: None or `{seats, deadline}`: the human seats with prompt options and when their time runs out
  (ms since the epoch). A new deadline starts when a seat gets a prompt it did not have, or when a seat
  that moved has to move again; other versions (a presence change, another seat's move in a simultaneous
  phase) keep it;
- `expiries`: per seat, the expiries in a row; `auto`: per seat, whether a bot plays it now. A move of the
  seat's own player (or the player re-attaching to the seat) resets both;
- `fill_at`: ms since the epoch at which a waiting room's empty seats get bots (`fill_bots_after`).

The server setting `clock_scale` (default 1.0) multiplies every clock and timer length; tests run with a
small one so that a 10 s clock (the contract's minimum) lasts a fraction of a second.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING, Any

from server.games.bots import bot_for

if TYPE_CHECKING:
    from server.room import Room

log = logging.getLogger("marcopolo.clock")

DEFAULT_MAX_EXPIRIES = 3


def now_ms() -> int:
    return int(time.time() * 1000)


def _setting(room: Room, name: str, default: Any) -> Any:
    settings = getattr(room.hub, "settings", None)
    return getattr(settings, name, default) if settings is not None else default


def scale(room: Room) -> float:
    return float(_setting(room, "clock_scale", 1.0))


def _human(meta: dict[str, Any], seat: int) -> bool:
    p = meta["players"][seat]
    return isinstance(p, str) and not p.startswith("bot:")


def _per_seat(meta: dict[str, Any], key: str, fill: Any) -> list[Any]:
    vals = list(meta.get(key) or [])
    return vals[: meta["seats"]] + [fill] * (meta["seats"] - len(vals))


def stamp(room: Room, meta: dict[str, Any], state: dict[str, Any] | None, mover: int | None, by: str) -> None:
    """Set the clock of the version `meta` describes (call before committing it).

    `by`: `player` (the seat's own player moved), `expired` (the clock played it), `auto` (a bot plays the
    seat after expiries), `bot` (a server bot seat) or `start`.
    """
    turn = meta.get("turn_seconds")
    if not turn:
        return  # a room without a clock keeps its meta as it was
    expiries = _per_seat(meta, "expiries", 0)
    auto = _per_seat(meta, "auto", False)
    if mover is not None:
        if by == "player":
            expiries[mover], auto[mover] = 0, False
        elif by == "expired":
            expiries[mover] += 1
            if expiries[mover] >= int(meta.get("max_expiries") or DEFAULT_MAX_EXPIRIES):
                auto[mover] = True
    meta["expiries"], meta["auto"] = expiries, auto
    if state is None or meta["status"] != "playing":
        meta["clock"] = None
        return
    seats = [
        s
        for s in range(meta["seats"])
        if _human(meta, s) and (p := room.prompt_for(state, s)) is not None and p.get("options")
    ]
    old = meta.get("clock")
    if not seats:
        meta["clock"] = None
    elif old and set(seats) <= set(old["seats"]) and mover not in seats:
        meta["clock"] = {"seats": seats, "deadline": int(old["deadline"])}
    else:
        meta["clock"] = {"seats": seats, "deadline": now_ms() + int(turn * 1000 * scale(room))}


def reattached(meta: dict[str, Any], seat: int) -> bool:
    """The seat's player came back: a bot no longer plays it. True if that changed the meta."""
    auto = _per_seat(meta, "auto", False)
    if not auto[seat]:
        return False
    auto[seat] = False
    expiries = _per_seat(meta, "expiries", 0)
    expiries[seat] = 0
    meta["auto"], meta["expiries"] = auto, expiries
    return True


async def reattach(room: Room, seat: int) -> None:
    """The seat's player re-attached: if a bot played the seat, hand it back (one version)."""
    meta = room._next_meta()
    if not reattached(meta, seat):
        return
    await room._commit(None, meta)
    room.meta = meta
    room._broadcast()


def view_keys(meta: dict[str, Any]) -> dict[str, Any]:
    """The top-level view keys of the clock and the room's closing (the same for every viewer)."""
    out: dict[str, Any] = {}
    clock = meta.get("clock")
    if clock:
        out["clock"] = {"seats": list(clock["seats"]), "deadline": int(clock["deadline"])}
        auto = [i for i, a in enumerate(_per_seat(meta, "auto", False)) if a]
        if auto:
            out["clock"]["auto"] = auto
    if meta.get("closed"):
        out["closed"] = meta["closed"]
    return out


# ---- the room's timer ---------------------------------------------------------------------------


def _next_event(room: Room) -> float | None:
    """When (ms since the epoch) something timed is due in this room, or None."""
    meta = room.meta
    due: list[float] = []
    clock = meta.get("clock")
    if room.status == "playing" and clock:
        due.append(float(clock["deadline"]))
        auto = _per_seat(meta, "auto", False)
        if any(auto[s] for s in clock["seats"]):
            due.append(now_ms() + room.bot_delay * 1000)
    from server import lobby  # noqa: PLC0415 - lobby imports this module

    due += lobby.due(room)
    return min(due) if due else None


def schedule(room: Room) -> None:
    """(Re)start the room's timer for its next timed event (call after every version and at start)."""
    if room._stopped:
        return
    at = _next_event(room)
    task: asyncio.Task[None] | None = getattr(room, "_clock_task", None)
    if task is not None and not task.done():
        if getattr(room, "_clock_at", None) == at:
            return
        task.cancel()
    room._clock_at = at  # type: ignore[attr-defined]
    if at is None:
        room._clock_task = None  # type: ignore[attr-defined]
        return
    room._clock_task = asyncio.get_running_loop().create_task(_timer(room, at))  # type: ignore[attr-defined]


def cancel(room: Room) -> None:
    task: asyncio.Task[None] | None = getattr(room, "_clock_task", None)
    if task is not None:
        task.cancel()


async def _timer(room: Room, at: float) -> None:
    await asyncio.sleep(max(0.0, (at - now_ms()) / 1000))
    room._clock_at = None  # type: ignore[attr-defined]
    try:
        await room.submit("tick", None)
    except Exception as err:  # noqa: BLE001 - a refused tick is retried at the next version
        log.info("room %s: timed step not taken: %s", room.id, err)


async def tick(room: Room) -> None:
    """The actor's handler of a timer: play late and bot-played seats, fill or close rooms."""
    from server import lobby  # noqa: PLC0415

    try:
        if await lobby.tick(room):
            return
        clock = room.meta.get("clock")
        if room.status != "playing" or room.state is None or not clock:
            return
        late = now_ms() >= int(clock["deadline"])
        auto = _per_seat(room.meta, "auto", False)
        for seat in list(clock["seats"]):
            if not (late or auto[seat]) or room.status != "playing" or room.state is None:
                continue
            prompt = room.game.prompt(room.state, seat)
            if prompt is None or not prompt.get("options"):
                continue
            move = _bot_move(room, seat, prompt)
            room._clock_by = "auto" if auto[seat] else "expired"  # type: ignore[attr-defined]
            try:
                await room._play(seat, move, None, None)
            finally:
                room._clock_by = None  # type: ignore[attr-defined]
    finally:
        schedule(room)


def _bot_move(room: Room, seat: int, prompt: dict[str, Any]) -> Any:
    key = ("clock", seat)
    bot = room._bots.get(key)  # type: ignore[call-overload]
    if bot is None:
        bot = room._bots[key] = bot_for(  # type: ignore[index]
            room.meta["game"], (int(room.meta["seed"]) * 7919 + seat + 101) & 0xFFFFFFFF
        )
    return bot.choose(prompt, room.game.view(room.state, seat))  # type: ignore[arg-type]


def mover_kind(room: Room, conn: Any, seat: int) -> str:
    """How `seat` moved in the `_play` now running (for `stamp`)."""
    by = getattr(room, "_clock_by", None)
    if by:
        return str(by)
    if conn is not None:
        return "player"
    return "bot"
