"""Public lobbies (wire contract v1.1, DESIGN.md section 3b): quick match, room options set at creation,
host controls, chat, history, replays, ratings, rematch, filling seats with bots and closing rooms.

Owns: the handlers of the v1.1 requests (called by `server.hub` for lobby-wide requests and by
`server.room` inside a room's actor for room requests), what happens when a game ends (history and
ratings), and the room timers' lobby events (`due`, `tick`).
Must not: decide rules, touch sockets, or write a room's version outside `Room._commit`.
"""

from __future__ import annotations

import contextvars
import logging
import time
from collections import OrderedDict
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from protocol import messages as m
from server import clock, ratings
from server.games import get_game
from server.records import records_for
from server.store import StoreUnavailable

if TYPE_CHECKING:
    from server.hub import Hub
    from server.room import Command, Room

log = logging.getLogger("marcopolo.lobby")

#: the player whose `create` (or `quick_match`) is being handled: recorded as the room's host
CREATOR: contextvars.ContextVar[str | None] = contextvars.ContextVar("creator", default=None)
HISTORY_LIMIT = 50
CHAT_RATE = (5, 10.0)  # at most 5 lines per 10 seconds per connection
_CTRL = {chr(c) for c in range(32) if c != 10} | {chr(c) for c in range(0x7F, 0xA0)}


class LobbyError(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code, self.message = code, message


def _err(code: str, message: str) -> Exception:
    from server.room import RoomError  # noqa: PLC0415 - room imports this module

    return RoomError(code, message)


def _setting(hub: Any, name: str, default: Any) -> Any:
    return getattr(getattr(hub, "settings", None), name, default)


# ---- create -----------------------------------------------------------------------------------


def create_extra(msg: m.Create) -> dict[str, Any]:
    """The v1.1 meta keys of a new room (set by `Hub._create`)."""
    extra: dict[str, Any] = {"host": CREATOR.get()}
    if msg.turn_seconds is not None:
        extra["turn_seconds"] = msg.turn_seconds
        extra["max_expiries"] = msg.max_expiries or clock.DEFAULT_MAX_EXPIRIES
    if msg.fill_bots_after is not None:
        extra["fill_bots_after"] = msg.fill_bots_after
    return extra


def started(room: Room) -> None:
    """A new room's timers start from its creation (the fill deadline is stored with the next version)."""
    meta = room.meta
    if meta.get("fill_bots_after") and not meta.get("fill_at"):
        meta["fill_at"] = int(float(meta["created"]) * 1000 + meta["fill_bots_after"] * 1000 * clock.scale(room))


# ---- quick match ------------------------------------------------------------------------------

async def quick_match(hub: Hub, conn: Any, msg: m.QuickMatch) -> None:
    game = get_game(msg.game) if msg.game in _games() else None
    if game is None:
        raise _err("not_found", f"no game {msg.game!r}")
    try:
        wanted = game.parse_options(dict(msg.options or {})).model_dump()
    except ValidationError as err:
        raise _err("bad_message", f"bad options: {err.errors()[0]['msg']}") from None
    async with hub.match_lock:
        metas = await hub.store.list_public() if hub.cluster.clustered else [r.meta for r in hub.rooms.values()]
        fits = [
            meta for meta in metas
            if meta["public"] and meta["status"] == "waiting" and meta["game"] == msg.game
            and meta["seats"] == msg.seats and meta["options"] == wanted and not meta.get("closed")
            and None in meta["players"] and conn.player not in meta["players"]
        ]
        fits.sort(key=lambda meta: (-sum(p is not None for p in meta["players"]), meta.get("created", 0)))
        for meta in fits:
            room = await hub._room(meta["room"])
            try:
                await room.submit("join", conn, msg.id)
                return
            except Exception as err:  # noqa: BLE001 - filled meanwhile: try the next one
                code = getattr(err, "code", "")
                if code not in ("room_full", "seat_taken", "unavailable"):
                    raise
        fill = msg.fill_bots_after
        if fill is None:
            fill = _setting(hub, "quick_fill_bots_after", 60) or None
        create = m.Create(
            game=msg.game, seats=msg.seats, options=msg.options, public=True,
            turn_seconds=msg.turn_seconds, fill_bots_after=fill,
        )
        token = CREATOR.set(conn.player)
        try:
            room_id = await hub._create(create)
        finally:
            CREATOR.reset(token)
        room = await hub._room(room_id)
        await room.submit("join", conn, msg.id)


def _games() -> set[str]:
    from server.games import all_games  # noqa: PLC0415

    return set(all_games())


# ---- chat -------------------------------------------------------------------------------------

_buckets: dict[str, list[float]] = {}


def _check_chat(hub: Any, conn: Any, text: str) -> str:
    if not text.strip() or any(ch in _CTRL for ch in text):
        raise _err("bad_message", "chat text is 1..500 characters of plain text (no control characters)")
    lines = int(_setting(hub, "chat_lines", CHAT_RATE[0]))
    window = float(_setting(hub, "chat_window", CHAT_RATE[1]))
    now = time.monotonic()
    recent = [t for t in _buckets.get(conn.id, []) if now - t < window]
    if lines and len(recent) >= lines:
        _buckets[conn.id] = recent
        raise _err("rate_limited", f"at most {lines} chat lines per {window:.0f} s")
    recent.append(now)
    _buckets[conn.id] = recent
    if len(_buckets) > 10000:
        _buckets.clear()
    return text


def _line(room: str | None, conn: Any, text: str) -> dict[str, Any]:
    return {"t": "chat", "room": room, "from": conn.player, "name": conn.name, "text": text, "at": clock.now_ms()}


async def room_chat(room: Room, cmd: Command) -> None:
    """A chat line to a room's viewers (inside the actor); kept with the room."""
    conn = cmd.conn
    if conn is None or conn.id not in room.viewers:
        raise _err("forbidden", "join the room (or watch it) first")
    line = _line(room.id, conn, _check_chat(room.hub, conn, cmd.args["text"]))
    await records_for(room.hub.store).add_chat(room.id, line, room.finished_ttl)
    conn.push({"t": "ok", "re": cmd.re})
    for viewer in list(room.viewers.values()):
        viewer.conn.push(line)


async def lobby_chat(hub: Hub, conn: Any, msg: m.ChatSend) -> None:
    line = _line(None, conn, _check_chat(hub, conn, msg.text))
    await records_for(hub.store).add_chat(None, line, hub.settings.finished_ttl)
    conn.push({"t": "ok", "re": msg.id})
    if hub.cluster.clustered:
        hub.cluster.broadcast({"op": "chat", "msg": line})
    else:
        lobby_chat_local(hub, line)


def lobby_chat_local(hub: Hub, line: dict[str, Any]) -> None:
    for watcher in list(hub.watchers):
        watcher.push(line)


async def chat_log(hub: Hub, conn: Any, msg: m.ChatLog) -> None:
    if msg.room is not None:
        meta = await _meta(hub, msg.room)
        if not meta["public"] and conn.player not in meta["players"]:
            local = hub.rooms.get(msg.room)
            if local is None or conn.id not in local.viewers:
                raise _err("forbidden", "the chat of an unlisted room is for its viewers")
    lines = await records_for(hub.store).chat(msg.room)
    conn.push({"t": "chat_log", "re": msg.id, "room": msg.room,
               "messages": [{k: v for k, v in x.items() if k != "t"} for x in lines]})


# ---- host controls ----------------------------------------------------------------------------


async def host(room: Room, cmd: Command) -> int:
    """The creator's changes before the start (inside the actor): each is one version (a start two)."""
    conn = cmd.conn
    assert conn is not None
    if room.meta.get("host") is None or conn.player != room.meta.get("host"):
        raise _err("forbidden", "only the room's creator may do that")
    if room.status != "waiting":
        raise _err("forbidden", "the game has started")
    action: str = cmd.args["action"]
    seat: int | None = cmd.args.get("seat")
    players = room.meta["players"]
    if seat is not None and seat >= room.meta["seats"]:
        raise _err("not_found", f"no seat {seat} in this room")
    meta = room._next_meta()
    entry: dict[str, Any] | None = None
    freed: str | None = None
    if action == "kick" or action == "remove_bot":
        if seat is None or players[seat] is None:
            raise _err("bad_message", "name a taken seat")
        is_bot = str(players[seat]).startswith("bot:")
        if is_bot != (action == "remove_bot"):
            raise _err("bad_message", "that seat holds a bot" if is_bot else "that seat holds a person")
        freed = None if is_bot else players[seat]
        meta["players"][seat] = meta["names"][seat] = None
        meta["online"][seat] = False
        entry = {"v": meta["v"], "k": "free", "seat": seat}
    elif action == "add_bot":
        free = [i for i, p in enumerate(players) if p is None]
        target = seat if seat is not None else (free[0] if free else None)
        if target is None or target not in free:
            raise _err("seat_taken", "no such free seat")
        _seat_bot(meta, target)
        v = await seat_and_start(room, meta, [target], cmd.re)
        conn.push({"t": "host", "re": cmd.re, "room": room.id, "v": v})
        return v
    elif action == "start":
        free = [i for i, p in enumerate(players) if p is None]
        if not any(p is not None and not str(p).startswith("bot:") for p in players):
            raise _err("forbidden", "nobody is seated")
        for i in free:
            _seat_bot(meta, i)
        v = await seat_and_start(room, meta, free, cmd.re)
        conn.push({"t": "host", "re": cmd.re, "room": room.id, "v": v})
        return v
    elif action == "options":
        try:
            meta["options"] = room.game.parse_options(dict(cmd.args.get("options") or {})).model_dump()
        except ValidationError as err:
            raise _err("bad_message", f"bad options: {err.errors()[0]['msg']}") from None
    else:  # pragma: no cover - the message model admits only the actions above
        raise _err("bad_message", f"no action {action!r}")
    await room._commit(entry, meta)
    room.meta = meta
    if freed is not None:
        for viewer in room.viewers.values():
            if viewer.seat == seat:
                viewer.seat = None  # the removed player watches on
    room._broadcast()
    conn.push({"t": "host", "re": cmd.re, "room": room.id, "v": room.v})
    room.hub.room_changed(room)
    if freed is not None:
        await room._index_seat(freed, False)
    return room.v


def _seat_bot(meta: dict[str, Any], seat: int) -> None:
    used = {p for p in meta["players"] if isinstance(p, str)}
    n = next(i for i in range(1, 100) if f"bot:{i}" not in used)
    meta["players"][seat] = f"bot:{n}"
    meta["names"][seat] = f"Bot {n}"


async def seat_and_start(room: Room, meta: dict[str, Any], seats: list[int], re: int | None) -> int:
    """Commit seats given to bots (one version) and, when every seat is taken, the start (the next)."""
    starts = all(p is not None for p in meta["players"])
    entry: dict[str, Any] = {"v": meta["v"], "k": "join", "seat": seats[0] if seats else None,
                             "player": None, "name": None, "bots": seats}
    state = None
    if starts:
        state = room.game.setup(meta["seats"], meta["options"], meta["seed"])
        meta["v"] += 1
        meta["status"] = "playing"
        entry["start"] = True
        entry["v"] = meta["v"]
        clock.stamp(room, meta, state, None, "start")
    await room._commit(entry, meta)
    room.meta = {**meta, "v": meta["v"] - 1, "status": "waiting", "clock": None} if starts else meta
    room._broadcast()
    if starts:
        room.meta, room.state = meta, state
        room._broadcast()
    room.hub.room_changed(room)
    await room._after_commit()
    return room.v


# ---- each seat's rating -----------------------------------------------------------------------


async def seat_ratings(store: Any, meta: dict[str, Any]) -> list[int | None]:
    """Each seat's public rating in the room's game (None: a free seat or nobody rated yet); best effort."""
    players = [None if p is None else ratings.identity(str(p)) for p in meta["players"]]
    ids = sorted({p for p in players if p is not None})
    try:
        rows = await records_for(store).ratings_of(meta["game"], ids) if ids else {}
    except StoreUnavailable as err:
        log.info("room %s: ratings not read: %s", meta["room"], err)
        rows = {}
    return [ratings.shown(rows[p]) if p in rows else None for p in players]


async def note_ratings(room: Room, meta: dict[str, Any]) -> None:
    """Before a commit that seats or frees a player: the seats' ratings, stored in the meta (`ratings`)."""
    if meta["players"] != room.meta["players"] or "ratings" not in room.meta:
        meta["ratings"] = await seat_ratings(room.hub.store, meta)


# ---- timers: filling seats, closing rooms -----------------------------------------------------


def _humans(meta: dict[str, Any]) -> list[int]:
    return [i for i, p in enumerate(meta["players"]) if isinstance(p, str) and not p.startswith("bot:")]


def due(room: Room) -> list[float]:
    """The lobby's timed events of a room (ms since the epoch)."""
    meta = room.meta
    out: list[float] = []
    if meta.get("closed") or room.status == "finished":
        return out
    sc = clock.scale(room)
    if room.status == "waiting":
        if meta.get("fill_at"):
            out.append(float(meta["fill_at"]))
        after = _setting(room.hub, "close_waiting_after", 0)
        if after:
            out.append(float(meta.get("created", 0)) * 1000 + after * 1000 * sc)
    elif room.status == "playing":
        after = _setting(room.hub, "close_away_after", 0)
        if after and meta.get("away_since"):
            out.append(float(meta["away_since"]) + after * 1000 * sc)
    return out


def note_presence(room: Room, meta: dict[str, Any]) -> None:
    """Before every commit: record since when every human seat has been away (None while one is there)."""
    humans = _humans(meta)
    online = meta.get("online") or []
    away = bool(humans) and not any(i < len(online) and online[i] for i in humans)
    if not away:
        meta["away_since"] = None
    elif not meta.get("away_since"):
        meta["away_since"] = clock.now_ms()


async def tick(room: Room) -> bool:
    """Handle the room's lobby events that are due; True if the room changed so (the clock waits)."""
    meta = room.meta
    now = clock.now_ms()
    if meta.get("closed") or room.status == "finished":
        return True
    sc = clock.scale(room)
    if room.status == "waiting":
        if meta.get("fill_at") and now >= int(meta["fill_at"]):
            if _humans(meta):
                new = room._next_meta(fill_at=None)
                free = [i for i, p in enumerate(new["players"]) if p is None]
                for i in free:
                    _seat_bot(new, i)
                await seat_and_start(room, new, free, None)
                return True
            await close(room, "nobody_joined")
            return True
        after = _setting(room.hub, "close_waiting_after", 0)
        if after and now >= float(meta.get("created", 0)) * 1000 + after * 1000 * sc:
            await close(room, "nobody_joined")
            return True
    elif room.status == "playing":
        after = _setting(room.hub, "close_away_after", 0)
        if after and meta.get("away_since") and now >= float(meta["away_since"]) + after * 1000 * sc:
            await close(room, "abandoned")
            return True
    return False


async def close(room: Room, reason: str) -> None:
    """Close a room nobody uses: one version with status finished; it leaves the lobby and expires."""
    meta = room._next_meta(status="finished", closed=reason, clock=None)
    await room._commit(None, meta)
    room.meta = meta
    room._broadcast()
    for viewer in list(room.viewers.values()):
        viewer.conn.push({"t": "closed", "room": room.id, "reason": reason})
    room.hub.room_changed(room)
    await room._after_commit()
    log.info("room %s closed: %s", room.id, reason)


# ---- the end of a game ------------------------------------------------------------------------


async def finished(room: Room) -> None:
    """A game ended (called once, by the node that stored the last move): history and ratings."""
    if room.state is None or room.meta.get("closed"):
        return
    result = room.game.result(room.state)
    if result is None:
        return
    meta = room.meta
    records = records_for(room.hub.store)
    players = [str(p) for p in meta["players"]]
    names = [str(n) for n in meta["names"]]
    try:
        await records.add_game(
            {"room": room.id, "game": meta["game"], "seats": meta["seats"], "players": list(meta["names"]),
             "result": result, "finished_at": clock.now_ms(), "_public": bool(meta["public"])},
            [p for p in players if not p.startswith("bot:")],
        )
        if _humans(meta):
            rows = await records.ratings(meta["game"])
            await records.save_ratings(meta["game"], ratings.rate_game(rows, players, names, result))
    except StoreUnavailable as err:
        log.warning("room %s: history/ratings not stored: %s", room.id, err)


async def history(hub: Hub, conn: Any, msg: m.HistoryRequest) -> None:
    games = []
    for rec in await records_for(hub.store).history(msg.game, msg.player, 4 * HISTORY_LIMIT):
        # an unlisted room's game is listed to its own players only
        if rec.get("_public", True) or conn.player in rec.get("_players", []):
            games.append({k: v for k, v in rec.items() if not k.startswith("_")})
    conn.push({"t": "history", "re": msg.id, "games": games[:HISTORY_LIMIT]})


async def leaderboard(hub: Hub, conn: Any, msg: m.RatingsRequest) -> None:
    if msg.game not in _games():
        raise _err("not_found", f"no game {msg.game!r}")
    rows = await records_for(hub.store).ratings(msg.game)
    players = [{"player": pid, "name": row["name"], "rating": ratings.shown(row), "games": int(row["games"])}
               for pid, row in rows.items()]
    players.sort(key=lambda r: (-r["rating"], r["player"]))
    conn.push({"t": "ratings", "re": msg.id, "game": msg.game, "players": players[:100]})


# ---- replays ----------------------------------------------------------------------------------


async def _meta(hub: Hub, room_id: str) -> dict[str, Any]:
    local = hub.rooms.get(room_id)
    meta = local.meta if local is not None else await hub.store.get_meta(room_id)
    if meta is None:
        raise _err("not_found", f"no room {room_id!r}")
    return meta


class _Cursor:
    """A replay's engine state after the log entries up to index `i` (stepping forward reuses it)."""

    def __init__(self, meta: dict[str, Any], entries: list[dict[str, Any]]) -> None:
        self.meta, self.entries = meta, entries
        self.game = get_game(meta["game"])
        # seats a join or a freeing names in the log (a move's seat does not: a bot seated at creation moves too)
        touched = {e.get("seat") for e in entries if e["k"] in ("join", "free")} | {
            s for e in entries for s in e.get("bots") or []
        }
        #: bots seated at the creation are in the meta from v0 (no log entry seats them)
        self.names: list[str | None] = [
            meta["names"][i] if str(meta["players"][i]).startswith("bot:") and i not in touched else None
            for i in range(meta["seats"])
        ]
        self.state: dict[str, Any] | None = None
        self.i = 0
        self.v = 0

    def advance(self, v: int) -> None:
        while self.i < len(self.entries) and self.entries[self.i]["v"] <= v:
            entry = self.entries[self.i]
            if entry["k"] == "join":
                if entry.get("seat") is not None and entry.get("name") is not None:
                    self.names[entry["seat"]] = entry["name"]
                for seat in entry.get("bots") or []:
                    self.names[seat] = self.meta["names"][seat]
                if entry.get("start"):
                    self.state = self.game.setup(self.meta["seats"], self.meta["options"], self.meta["seed"])
            elif entry["k"] == "free":
                self.names[entry["seat"]] = None
            elif entry["k"] == "move":
                assert self.state is not None, "a move before the start in the log"
                self.state = self.game.apply(self.state, entry["seat"], entry["move"])
            self.i += 1
        self.v = v

    def view(self) -> dict[str, Any]:
        meta = self.meta
        seats = [{"name": n, "taken": n is not None, "connected": False} for n in self.names]
        base = {"game": meta["game"], "room": meta["room"], "you": None, "seats": seats}
        if self.state is None:
            return {**base, "status": "waiting", "public": {"status": "waiting", "seats": seats},
                    "private": None, "prompt": None, "result": None}
        view = self.game.view(self.state, None)
        result = self.game.result(self.state)
        return {**base, "status": "finished" if result is not None else "playing", "public": view["public"],
                "private": None, "prompt": None, "result": result}


def replay_view(meta: dict[str, Any], entries: list[dict[str, Any]], v: int) -> dict[str, Any]:
    """The spectator's view of a finished room at version `v`, rebuilt from the seed and the log (pure)."""
    cursor = _Cursor(meta, entries)
    cursor.advance(v)
    return cursor.view()


#: the last replays asked for, by room: stepping forward continues from there (finished rooms never change)
_cursors: OrderedDict[str, _Cursor] = OrderedDict()
CURSORS_KEPT = 32


async def replay(hub: Hub, conn: Any, msg: m.ReplayRequest) -> None:
    meta = await _meta(hub, msg.room)
    if meta["status"] != "finished":
        raise _err("forbidden", "a running game cannot be replayed")
    if not meta["public"] and conn.player not in meta["players"]:
        raise _err("forbidden", "the replay of an unlisted room is for its players")
    last = int(meta["v"])
    v = msg.v if msg.v is not None else 0
    if v > last:
        raise _err("not_found", f"the room's last version is {last}")
    cursor = _cursors.pop(msg.room, None)
    if cursor is None or cursor.v > v or cursor.meta.get("v") != meta["v"]:
        entries = await hub.store.full_log(msg.room)  # type: ignore[attr-defined]
        entries.sort(key=lambda e: e["v"])
        if any(e["k"] == "move" for e in entries) and not any(e.get("start") for e in entries):
            raise _err("not_found", "the whole log of this game was not kept")
        cursor = _Cursor(meta, entries)
    cursor.advance(v)
    _cursors[msg.room] = cursor
    while len(_cursors) > CURSORS_KEPT:
        _cursors.popitem(last=False)
    conn.push({"t": "replay", "re": msg.id, "room": msg.room, "v": v, "last": last, "seed": int(meta["seed"]),
               "state": cursor.view(), "options": meta["options"], "seats": meta["seats"]})


# ---- rematch ----------------------------------------------------------------------------------


async def rematch(hub: Hub, conn: Any, msg: m.Rematch) -> None:
    meta = await _meta(hub, msg.room)
    if meta["status"] != "finished":
        raise _err("forbidden", "the game is not over")
    if conn.player not in meta["players"]:
        raise _err("forbidden", "only the game's players open its rematch")
    bots = sum(1 for p in meta["players"] if str(p).startswith("bot:"))
    create = m.Create(game=meta["game"], seats=meta["seats"], options=meta["options"], public=False, bots=bots,
                      turn_seconds=meta.get("turn_seconds"), max_expiries=meta.get("max_expiries"))
    token = CREATOR.set(conn.player)
    try:
        new = await hub._create(create)
    finally:
        CREATOR.reset(token)
    kept = await records_for(hub.store).set_rematch(msg.room, new, hub.settings.finished_ttl)
    if kept != new:  # another player asked first: that room is the rematch; drop ours
        dropped = hub.rooms.pop(new, None)
        if dropped is not None:
            await dropped.stop()
            await hub.cluster.release(new, dropped.fence)
        await hub.store.delete_room(new)
        hub._lobby_changed()
    opened = hub.rooms.get(kept)
    new_meta = opened.meta if opened is not None else await hub.store.get_meta(kept)
    invite = (new_meta or {}).get("invite")
    conn.push({"t": "rematch", "re": msg.id, "room": msg.room, "new": kept, "invite": invite})
    local = hub.rooms.get(msg.room)
    if local is not None and kept == new:
        for viewer in list(local.viewers.values()):
            if viewer.conn is not conn:  # the invite only to the finished game's players, not to spectators
                secret = invite if viewer.seat is not None else None
                viewer.conn.push({"t": "rematch", "room": msg.room, "new": kept, "invite": secret})
