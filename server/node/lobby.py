"""The lobby-wide requests of wire contract v1.1 (DESIGN.md section 3b): quick match, lobby chat, chat logs,
history, replays, the leaderboard and rematches.

Owns: the handlers the node (`server.node.hub`) calls for these requests, each answering on the connection.
Room requests (a room's chat, host controls, autoplay) are room extensions (`server.rooms`), not here.
Must not: decide rules, touch sockets, or change a room other than through `Room.submit` and the node's
public methods (`room_for`, `create_room`, `lobby_changed`, `meta_of`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections import OrderedDict
from typing import Any, Protocol

from pydantic import ValidationError

from protocol import messages as m
from server.config import Settings
from server.games import all_games, get_game
from server.rooms import ratings
from server.rooms.chat import chat_line, check_chat
from server.rooms.clock import runs_out
from server.rooms.core import Room, RoomError
from server.rooms.meta import RoomMeta
from server.rooms.replay import ReplayCursor
from server.store.base import Store, StoreUnavailable, match_kind
from server.store.records import Records

log = logging.getLogger("marcopolo.lobby")

HISTORY_LIMIT = 50


def new_room_id() -> str:
    """A new room's id (random: its existence tells nothing else)."""
    return "r" + secrets.token_hex(5)
LEADERBOARD_LIMIT = 100


class Node(Protocol):
    """What the lobby needs of the node (`server.node.hub.Hub`)."""

    settings: Settings
    store: Store
    records: Records
    cluster: Any
    rooms: dict[str, Room]
    watchers: Any
    match_pending: dict[str, asyncio.Event]
    moderation: Any

    async def room_for(self, room_id: str) -> Any: ...

    async def create_room(
        self, msg: m.Create, conn: Any = None, host: str | None = None, room_id: str | None = None
    ) -> str: ...

    async def meta_of(self, room_id: str) -> RoomMeta | None: ...

    def lobby_changed(self, local: bool = False) -> None: ...

    async def forget_seat(self, player: str, room_id: str) -> None: ...


async def _meta(hub: Node, room_id: str) -> RoomMeta:
    meta = await hub.meta_of(room_id)
    if meta is None:
        raise RoomError("not_found", f"no room {room_id!r}")
    return meta


# ---- quick match ------------------------------------------------------------------------------


async def quick_match(hub: Node, conn: Any, msg: m.QuickMatch) -> None:
    """A seat in the fullest waiting public room of the kind (game, seats, options), claimed by the store's
    atomic step on its quick-match index (no lock, no scan); when there is none, the same step puts a new room's id
    in the index with this player's claim in it, and the room is created: players asking meanwhile, on any node,
    are given seats in it, so two lone players land in one room."""
    game = get_game(msg.game) if msg.game in all_games() else None
    if game is None:
        raise RoomError("not_found", f"no game {msg.game!r}")
    try:
        wanted = game.parse_options(dict(msg.options or {})).model_dump()
    except ValidationError as err:
        raise RoomError("bad_message", f"bad options: {err.errors()[0]['msg']}") from None
    kind = match_kind(msg.game, msg.seats, wanted)
    for tries in range(MATCH_TRIES):
        new = new_room_id() if tries < MATCH_TRIES - 1 else None
        got = await hub.store.match_claim(kind, conn.player, new, msg.seats, time.time())
        if got is None:
            break
        room_id, is_new = got
        if is_new:
            hub.match_pending[room_id] = made = asyncio.Event()
            try:
                await _new_match(hub, conn, msg, room_id)
            except BaseException:
                with contextlib.suppress(StoreUnavailable):
                    await hub.store.match_release(kind, room_id, conn.player)
                raise
            finally:
                made.set()
                hub.match_pending.pop(room_id, None)
            return
        if await _join_claimed(hub, conn, msg, kind, wanted, room_id):
            return
    await _new_match(hub, conn, msg, new_room_id())


#: rooms quick match tries (each claimed in the index, then joined) before it opens a new one
MATCH_TRIES = 8
#: how long a seat claimed in a room another request is creating waits for that room to exist (s)
NEW_ROOM_WAIT = 3.0


async def _join_claimed(hub: Node, conn: Any, msg: m.QuickMatch, kind: str, wanted: Any, room_id: str) -> bool:
    """Join the seat the index gave; False (the seat handed back) when the room no longer fits or fills meanwhile."""
    pending = hub.match_pending.get(room_id)
    if pending is not None:  # a room another request here is creating
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(pending.wait(), NEW_ROOM_WAIT)
    meta = await hub.meta_of(room_id)
    waited = 0.0
    while meta is None and waited < NEW_ROOM_WAIT:  # a room another node is creating
        await asyncio.sleep(0.05)
        waited += 0.05
        meta = await hub.meta_of(room_id)
    fits = meta is not None and meta.public and meta.status == "waiting" and meta.game == msg.game \
        and meta.seats == msg.seats and meta.options == wanted and not meta.closed \
        and None in meta.players and conn.player not in meta.players  # fmt: skip
    if fits:
        try:
            room = await hub.room_for(room_id)
            await room.submit("join", conn, msg.id)
            return True
        except RoomError as err:
            if err.code not in ("room_full", "seat_taken", "unavailable", "not_found"):
                raise
    with contextlib.suppress(StoreUnavailable):
        await hub.store.match_release(kind, room_id, conn.player)
    return False


async def _new_match(hub: Node, conn: Any, msg: m.QuickMatch, room_id: str) -> None:
    fill = msg.fill_bots_after
    if fill is None:
        fill = hub.settings.quick_fill_bots_after or None
    create = m.Create(
        game=msg.game, seats=msg.seats, options=msg.options, public=True,
        turn_seconds=msg.turn_seconds, fill_bots_after=fill,
    )  # fmt: skip
    room_id = await hub.create_room(create, host=conn.player, room_id=room_id)
    room = await hub.room_for(room_id)
    await room.submit("join", conn, msg.id)


# ---- chat -------------------------------------------------------------------------------------


async def lobby_chat(hub: Node, conn: Any, msg: m.ChatSend) -> None:
    hub.moderation.check_words(msg.text)
    text = check_chat(hub.settings, conn, msg.text)
    await hub.moderation.check_chat_limits(conn)
    line = chat_line(None, conn, text)
    await hub.records.add_chat(None, line)
    conn.push({"t": "ok", "re": msg.id})
    if hub.cluster.clustered:
        hub.cluster.broadcast({"op": "chat", "msg": line})
    else:
        lobby_chat_local(hub, line)


def lobby_chat_local(hub: Node, line: dict[str, Any]) -> None:
    for watcher in list(hub.watchers):
        watcher.push(line)


async def chat_log(hub: Node, conn: Any, msg: m.ChatLog) -> None:
    if msg.room is not None:
        meta = await _meta(hub, msg.room)
        if not meta.public and conn.player not in meta.players:
            local = hub.rooms.get(msg.room)
            if local is None or conn.id not in local.viewers:
                raise RoomError("forbidden", "the chat of an unlisted room is for its viewers")
    lines = await hub.records.chat(msg.room)
    blocked = getattr(conn, "blocked", None) or set()
    conn.push({"t": "chat_log", "re": msg.id, "room": msg.room,
               "messages": [{k: v for k, v in x.items() if k != "t"} for x in lines
                            if x.get("from") not in blocked]})  # fmt: skip


# ---- history and ratings ----------------------------------------------------------------------


async def history(hub: Node, conn: Any, msg: m.HistoryRequest) -> None:
    games = []
    await hub.records.settled()  # a game this node just ended is listed
    for rec in await hub.records.history(msg.game, msg.player, 4 * HISTORY_LIMIT):
        # an unlisted room's game is listed to its own players only
        if rec.get("_public", True) or conn.player in rec.get("_players", []):
            games.append({k: v for k, v in rec.items() if not k.startswith("_")})
    conn.push({"t": "history", "re": msg.id, "games": games[:HISTORY_LIMIT]})


def _rated(pid: str, row: dict[str, Any], rank: int) -> dict[str, Any]:
    return {"player": pid, "name": row["name"], "rating": ratings.shown(row), "games": int(row["games"]),
            "rank": rank, "provisional": ratings.provisional(row)}  # fmt: skip


async def leaderboard(hub: Node, conn: Any, msg: m.RatingsRequest) -> None:
    if msg.game not in all_games():
        raise RoomError("not_found", f"no game {msg.game!r}")
    await hub.records.settled()
    offset, limit = msg.offset or 0, min(msg.limit or LEADERBOARD_LIMIT, LEADERBOARD_LIMIT)
    rows = await hub.records.leaderboard(msg.game, limit, offset)  # one page, read through an index
    players = [_rated(pid, row, offset + i + 1) for i, (pid, row) in enumerate(rows)]
    answer: dict[str, Any] = {"t": "ratings", "re": msg.id, "game": msg.game, "players": players, "offset": offset}
    mine = await hub.records.rank_of(msg.game, conn.player) if conn.player else None
    if mine is not None:
        answer["me"] = _rated(conn.player, mine[1], mine[0])
    conn.push(answer)


async def player_page(hub: Node, conn: Any, msg: m.PlayerRequest) -> None:
    """A player's page: its name, its rating and rank in each game, its recent games with the rating after each
    (only the public ones, unless the asker played in them too)."""
    await hub.records.settled()
    account = await hub.records.account(msg.player)
    rows = await hub.records.ratings_by_player(msg.player)
    rated = []
    for game in sorted(rows):
        got = await hub.records.rank_of(game, msg.player)
        if got is not None:
            rated.append({"game": game, "rating": ratings.shown(got[1]), "games": int(got[1]["games"]),
                          "rank": got[0], "provisional": ratings.provisional(got[1])})  # fmt: skip
    left = {game: int(row["games"]) for game, row in rows.items()}  # rated games counted back from the newest
    games = []
    for rec in await hub.records.history(None, msg.player, 4 * HISTORY_LIMIT):
        score = rec.get("_score")
        shown = None
        if score is not None:
            number = left.get(str(rec["game"]), 0)
            left[str(rec["game"])] = number - 1
            value = round(float(score) * 100)
            shown = max(0, value) if number < ratings.PROVISIONAL_GAMES else value  # provisional then
        if rec.get("_public", True) or conn.player in rec.get("_players", []):
            out = {k: v for k, v in rec.items() if not k.startswith("_")}
            if shown is not None:
                out["rating"] = shown
            games.append(out)
    name = account.name if account is not None else next(
        (row["name"] for row in rows.values() if row.get("name")), None
    )
    conn.push({"t": "player", "re": msg.id, "player": msg.player, "name": name, "account": account is not None,
               "ratings": rated, "games": games[:HISTORY_LIMIT]})  # fmt: skip


# ---- replays ----------------------------------------------------------------------------------

#: the last replays asked for, by room: stepping forward continues from there (finished rooms never change)
_cursors: OrderedDict[str, ReplayCursor] = OrderedDict()
CURSORS_KEPT = 32


async def replay(hub: Node, conn: Any, msg: m.ReplayRequest) -> None:
    meta = await hub.meta_of(msg.room)
    archived: list[dict[str, Any]] | None = None
    if meta is None:  # the live room expired: the archive of the finished game has what a replay needs
        await hub.records.settled()
        found = await hub.records.archived(msg.room)
        if found is None:
            raise RoomError("not_found", f"no room {msg.room!r}")
        meta, archived = RoomMeta.from_dict(found["meta"]), list(found["entries"])
    if meta.status != "finished":
        raise RoomError("forbidden", "a running game cannot be replayed")
    if not meta.public and conn.player not in meta.players:
        raise RoomError("forbidden", "the replay of an unlisted room is for its players")
    last = int(meta.v)
    v = msg.v if msg.v is not None else 0
    if v > last:
        raise RoomError("not_found", f"the room's last version is {last}")
    cursor = _cursors.pop(msg.room, None)
    if cursor is None or cursor.v > v or cursor.meta.get("v") != meta.v:
        entries = archived if archived is not None else await hub.store.full_log(msg.room)  # type: ignore[attr-defined]
        entries.sort(key=lambda e: e["v"])
        if any(e["k"] == "move" for e in entries) and not any(e.get("start") for e in entries):
            raise RoomError("not_found", "the whole log of this game was not kept")
        cursor = ReplayCursor(meta.to_dict(), entries)
    cursor.advance(v)
    _cursors[msg.room] = cursor
    while len(_cursors) > CURSORS_KEPT:
        _cursors.popitem(last=False)
    conn.push({"t": "replay", "re": msg.id, "room": msg.room, "v": v, "last": last, "seed": int(meta.seed),
               "state": cursor.view(), "options": meta.options, "seats": meta.seats})  # fmt: skip


# ---- my games (v1.2) ----------------------------------------------------------------------------

#: the most rooms `my_games` lists (a player's seats in unfinished rooms, from the store's per-player index)
MY_GAMES_MAX = 200


async def my_games(hub: Node, conn: Any, msg: m.MyGamesRequest) -> None:
    """Every unfinished room where the player holds a seat, read from the store (shared by all nodes): whose turn,
    the deadline (and `out_at`, the deadline plus the seat's time bank), the mode; the player's turn first, then
    the seat that runs out of time first, then the newest."""
    player = conn.player
    rows: list[dict[str, Any]] = []
    for room_id in (await hub.store.player_rooms(player))[:MY_GAMES_MAX]:
        meta = await hub.meta_of(room_id)
        if meta is None or meta.status == "finished" or player not in meta.players:
            await hub.forget_seat(player, room_id)
            continue
        seat = meta.players.index(player)
        clock = meta.clock or {}
        deadline = int(clock["deadline"]) if clock and seat in clock.get("seats", []) else None
        # v1.2 addition: when the seat is out of time, its bank included (the deadline when it has no bank)
        out_at = runs_out(meta, float(hub.settings.clock_scale)).get(seat) if deadline is not None else None
        late = meta.per_seat(meta.late, False)[seat]
        row: dict[str, Any] = {"room": room_id, "game": meta.game, "status": meta.status, "seat": seat,
                               "your_turn": seat in (meta.to_move or []), "deadline": deadline, "out_at": out_at,
                               "mode": meta.mode or "live", "players": list(meta.names), "late": late,
                               "_created": float(meta.created or 0)}  # fmt: skip
        rows.append(row)
    far = float("inf")
    rows.sort(key=lambda r: (not r["your_turn"], r["out_at"] if r["out_at"] is not None else far, -r["_created"]))
    for r in rows:
        del r["_created"]
    conn.push({"t": "my_games", "re": msg.id, "rooms": rows})


# ---- rematch ----------------------------------------------------------------------------------


async def rematch(hub: Node, conn: Any, msg: m.Rematch) -> None:
    meta = await _meta(hub, msg.room)
    if meta.status != "finished":
        raise RoomError("forbidden", "the game is not over")
    if conn.player not in meta.players:
        raise RoomError("forbidden", "only the game's players open its rematch")
    bots = sum(1 for p in meta.players if str(p).startswith("bot:"))
    turn_based = meta.mode == "turn_based"
    create = m.Create(game=meta.game, seats=meta.seats, options=meta.options, public=False, bots=bots,
                      turn_seconds=meta.turn_seconds, max_expiries=meta.max_expiries,
                      mode="turn_based" if turn_based else None,
                      on_expiry=meta.on_expiry if turn_based else None,
                      time_bank_seconds=meta.time_bank_seconds)  # type: ignore[arg-type]  # fmt: skip
    new = await hub.create_room(create, host=conn.player)
    kept = await hub.records.set_rematch(msg.room, new)
    if kept != new:  # another player asked first: that room is the rematch; drop ours
        dropped = hub.rooms.pop(new, None)
        if dropped is not None:
            await dropped.stop()
            await hub.cluster.release(new, dropped.fence)
        await hub.store.delete_room(new)
        hub.lobby_changed()
    new_meta = await hub.meta_of(kept)
    invite = new_meta.invite if new_meta is not None else None
    conn.push({"t": "rematch", "re": msg.id, "room": msg.room, "new": kept, "invite": invite})
    local = hub.rooms.get(msg.room)
    if local is not None and kept == new:
        for viewer in list(local.viewers.values()):
            if viewer.conn is not conn:  # the invite only to the finished game's players, not to spectators
                secret = invite if viewer.seat is not None else None
                viewer.conn.push({"t": "rematch", "room": msg.room, "new": kept, "invite": secret})
