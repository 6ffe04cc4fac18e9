"""A Python client of the wire contract, shared by the CLI, bots, load tests and network tests.

Owns: one WebSocket connection, request ids and waiting for their answers (`re`), applying snapshots and
patches to a per-room view (checking `base` against the version held, re-syncing on a gap), and keeping
the raw frames received (tests check them for leaks).
Must not: know any game's rules; moves come from the view's `prompt`.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

import msgpack
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from protocol.patch import PatchError, apply_patch_builtin


class ServerError(Exception):
    """The server answered a request with an `error` message."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


@dataclass
class RoomView:
    """The latest view of one room, kept current from snapshot + patches."""

    room: str
    v: int = -1
    state: dict[str, Any] = field(default_factory=dict)
    patches: int = 0
    changed: asyncio.Event = field(default_factory=asyncio.Event)


class Client:
    """Connect, `hello`, then `request(...)`; views update in the background."""

    def __init__(
        self, url: str, *, keep_frames: bool = False, compression: Literal["deflate"] | None = "deflate"
    ) -> None:
        self.url = url
        #: permessage-deflate is offered to the server (it uses it when it allows it); None: not offered
        self.compression = compression
        self.ws: ClientConnection | None = None
        self.player: str | None = None
        self.token: str | None = None
        self.views: dict[str, RoomView] = {}
        self.lobby: list[dict[str, Any]] = []
        self.invites: dict[str, str] = {}  # room -> invite secret of a private room (from `created`)
        self.lobby_changed = asyncio.Event()
        self.frames: list[bytes] | None = [] if keep_frames else None
        self.pushes: deque[dict[str, Any]] = deque(maxlen=1000)  # recent pushes without `re`
        self.on_update: Callable[[str], None] | None = None
        self._ids = itertools.count(1)
        self._waiting: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self._reader: asyncio.Task[None] | None = None
        self.closed = asyncio.Event()
        self.close_code: int | None = None
        #: v1.1: chat lines pushed to this connection (room and lobby), oldest first
        self.chats: list[dict[str, Any]] = []
        self.chat_changed = asyncio.Event()
        #: v1.2: whether the last `welcome` was an account's (False: a guest), and the name it shows
        self.account: bool = False
        self.name: str | None = None
        #: the reason of the server's close frame (v1.2: a ban's 4003 says until when and why)
        self.close_reason: str | None = None
        #: v1.2: chat lines received in all (`chats` also loses lines a moderator deleted)
        self.chat_count = 0
        #: v1.2: called with every push that answers no request (`closed`, `chat_deleted`, `rematch`, …)
        self.on_push: Callable[[dict[str, Any]], None] | None = None

    async def connect(self) -> None:
        self.ws = await connect(self.url, max_size=2**22, compression=self.compression)
        self._reader = asyncio.create_task(self._read())

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self._reader is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await self._reader

    async def __aenter__(self) -> Client:
        await self.connect()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # ---- requests ---------------------------------------------------------------------------

    async def send_raw(self, data: bytes | str) -> None:
        assert self.ws is not None
        await self.ws.send(data)

    async def request(self, t: str, timeout: float = 10.0, **fields: Any) -> dict[str, Any]:
        """Send `{t, id, **fields}` and return the answer carrying `re` (raises ServerError)."""
        assert self.ws is not None
        rid = next(self._ids)
        fut: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._waiting[rid] = fut
        try:
            await self.ws.send(msgpack.packb({"t": t, "id": rid, **fields}, use_bin_type=True))
            answer = await asyncio.wait_for(fut, timeout)
        finally:
            self._waiting.pop(rid, None)
            if fut.done() and not fut.cancelled():
                fut.exception()  # retrieved: a closed connection's error is raised here or not at all
        if answer["t"] == "error":
            raise ServerError(answer["code"], answer["message"])
        return answer

    async def hello(self, name: str, token: str | None = None) -> dict[str, Any]:
        fields: dict[str, Any] = {"name": name}
        if token:
            fields["token"] = token
        answer = await self.request("hello", **fields)
        self.player, self.token = answer["player"], answer["token"]
        self._welcomed(answer)
        return answer

    # ---- v1.2: accounts ---------------------------------------------------------------------

    def _welcomed(self, answer: dict[str, Any]) -> None:
        self.account = bool(answer.get("account"))
        self.name = answer.get("name")

    async def sign_up(self, name: str, password: str, device: str | None = None) -> dict[str, Any]:
        """Make an account (after a guest `hello`, that guest becomes it); returns `welcome`, keeps player/token."""
        return await self._sign("sign_up", name, password, device)

    async def sign_in(self, name: str, password: str, device: str | None = None) -> dict[str, Any]:
        """Sign in to an account with a new token for this device; returns `welcome`, keeps player/token."""
        return await self._sign("sign_in", name, password, device)

    async def _sign(self, t: str, name: str, password: str, device: str | None) -> dict[str, Any]:
        fields: dict[str, Any] = {"name": name, "password": password}
        if device:
            fields["device"] = device
        answer = await self.request(t, **fields)
        self.player, self.token = answer["player"], answer["token"]
        self._welcomed(answer)
        return answer

    async def sign_out(self, everywhere: bool = False, device: str | None = None) -> None:
        """Stop this connection's token (`everywhere`: every token of the account); the server then closes the
        connection (4002). With `device` (an id of `devices()`), only that other device is signed out."""
        fields: dict[str, Any] = {}
        if everywhere:
            fields["everywhere"] = True
        if device is not None:
            fields["device"] = device
        await self.request("sign_out", **fields)
        if device is None:
            self.token = None

    async def devices(self) -> list[dict[str, Any]]:
        """The devices the account is signed in on, newest first: `{id, device, created, current}`."""
        return list((await self.request("devices"))["devices"])

    async def change_password(self, old: str, new: str) -> None:
        """A new password; every other device of the account is signed out."""
        await self.request("change_password", password=old, new_password=new)

    async def delete_account(self, password: str) -> None:
        """Delete the account; the server then closes the connection (4002) and every token stops."""
        await self.request("delete_account", password=password)
        self.token = None

    async def create(self, game: str, seats: int, options: dict[str, Any] | None = None, public: bool = True) -> str:
        fields: dict[str, Any] = {"game": game, "seats": seats, "public": public}
        if options:
            fields["options"] = options
        answer = await self.request("create", **fields)
        if answer.get("invite"):
            self.invites[answer["room"]] = answer["invite"]
        return str(answer["room"])

    async def create_room(self, game: str, seats: int, **fields: Any) -> str:
        """v1.1 `create` with any of its fields (`options`, `public`, `bots`, `turn_seconds`, `fill_bots_after`,
        `max_expiries`); fields that are None are left out."""
        sent = {k: v for k, v in fields.items() if v is not None}
        answer = await self.request("create", game=game, seats=seats, **sent)
        if answer.get("invite"):
            self.invites[answer["room"]] = answer["invite"]
        return str(answer["room"])

    # ---- v1.1: public lobbies ---------------------------------------------------------------

    async def quick_match(
        self, game: str, seats: int, options: dict[str, Any] | None = None, **fields: Any
    ) -> tuple[str, int | None]:
        """A seat in the fullest fitting waiting public room (or a new one); returns (room, seat) once the
        room's snapshot is held."""
        sent = {k: v for k, v in fields.items() if v is not None}
        if options:
            sent["options"] = options
        answer = await self.request("quick_match", game=game, seats=seats, **sent)
        room = str(answer["room"])
        await self.wait_for(room, lambda s: True)
        return room, answer["seat"]

    async def chat(self, text: str, room: str | None = None) -> None:
        fields: dict[str, Any] = {"text": text}
        if room is not None:
            fields["room"] = room
        await self.request("chat", **fields)

    async def chat_log(self, room: str | None = None) -> list[dict[str, Any]]:
        fields: dict[str, Any] = {} if room is None else {"room": room}
        return list((await self.request("chat_log", **fields))["messages"])

    async def wait_chat(self, cond: Callable[[dict[str, Any]], bool], timeout: float = 10.0) -> dict[str, Any]:
        """Wait for a pushed chat line satisfying `cond` (also one already received)."""

        async def waiter() -> dict[str, Any]:
            while True:
                for line in self.chats:
                    if cond(line):
                        return line
                self.chat_changed.clear()
                await self.chat_changed.wait()

        return await asyncio.wait_for(waiter(), timeout)

    async def history(self, game: str | None = None, player: str | None = None) -> list[dict[str, Any]]:
        fields: dict[str, Any] = {k: v for k, v in (("game", game), ("player", player)) if v is not None}
        return list((await self.request("history", **fields))["games"])

    async def replay(self, room: str, v: int | None = None) -> dict[str, Any]:
        fields: dict[str, Any] = {"room": room}
        if v is not None:
            fields["v"] = v
        return await self.request("replay", **fields)

    async def game_log(self, room: str) -> list[dict[str, Any]]:
        """The whole public log of a room this connection views (seated or watching), oldest first."""
        return list((await self.request("game_log", room=room))["events"])

    async def autoplay(self, room: str, level: str | None) -> int:
        """Hand this connection's seat to a server bot of `level` (None: take it back); returns the v."""
        return int((await self.request("autoplay", room=room, level=level))["v"])

    async def ratings(self, game: str) -> list[dict[str, Any]]:
        return list((await self.request("ratings", game=game))["players"])

    async def ratings_page(self, game: str, offset: int | None = None, limit: int | None = None) -> dict[str, Any]:
        """(v1.2) One page of a game's leaderboard: the whole answer, `{game, players, offset, me?}`; each row has
        `rank` and `provisional`, `me` is the asking player's own row wherever it stands."""
        fields: dict[str, Any] = {k: v for k, v in (("offset", offset), ("limit", limit)) if v is not None}
        return await self.request("ratings", game=game, **fields)

    async def player_page(self, player: str) -> dict[str, Any]:
        """(v1.2) A player's page: `{player, name, account, ratings: [{game, rating, games, rank, provisional}],
        games: [history records, each with the player's `rating` after it when the game rated it]}`."""
        return await self.request("player", player=player)

    # ---- v1.2: moderation ---------------------------------------------------------------------

    async def block(self, player: str, name: str | None = None) -> None:
        """Receive no chat line of `player` any more (rooms and lobby); it cannot join a room this player hosts."""
        fields: dict[str, Any] = {"player": player}
        if name:
            fields["name"] = name
        await self.request("block", **fields)

    async def unblock(self, player: str) -> None:
        await self.request("unblock", player=player)

    async def blocks(self) -> list[dict[str, Any]]:
        """The players this player blocks, newest first: `{player, name}`."""
        return list((await self.request("blocks"))["players"])

    async def report(self, player: str, reason: str, room: str | None = None) -> None:
        """Report `player` to the moderators, with the context of `room` (None: the lobby)."""
        fields: dict[str, Any] = {"player": player, "reason": reason}
        if room is not None:
            fields["room"] = room
        await self.request("report", **fields)

    # ---- v1.2: turn-based play ---------------------------------------------------------------

    async def my_games(self) -> list[dict[str, Any]]:
        """(v1.2) Every unfinished room where this player holds a seat, the most urgent first: `{room, game, status,
        seat, your_turn, deadline, mode, players, late}` (`deadline` in ms since the epoch, or None)."""
        return list((await self.request("my_games"))["rooms"])

    async def notify(self, **fields: Any) -> dict[str, Any]:
        """(v1.2) The account's turn signals, changed by `fields` (`email`, `webhook`, `delay_minutes`, `new_secret`,
        `push`, `push_remove`; none: only read): the server's `notify` answer."""
        return await self.request("notify", **fields)

    async def rematch(self, room: str) -> str:
        answer = await self.request("rematch", room=room)
        if answer.get("invite"):
            self.invites[answer["new"]] = answer["invite"]
        return str(answer["new"])

    async def host(self, room: str, action: str, seat: int | None = None, options: dict[str, Any] | None = None) -> int:
        """A host control before the start (`kick`, `add_bot`, `remove_bot`, `options`, `start`); returns the v."""
        fields: dict[str, Any] = {"room": room, "action": action}
        if seat is not None:
            fields["seat"] = seat
        if options is not None:
            fields["options"] = options
        return int((await self.request("host", **fields))["v"])

    async def join(
        self, room: str, seat: int | None = None, spectate: bool = False, invite: str | None = None
    ) -> int | None:
        fields: dict[str, Any] = {"room": room}
        invite = invite or self.invites.get(room)
        if invite:
            fields["invite"] = invite
        if seat is not None:
            fields["seat"] = seat
        if spectate:
            fields["spectate"] = True
        rv = self.views.setdefault(room, RoomView(room))
        rv.v = -1  # wait for the snapshot that follows `joined`, not an older view
        answer = await self.request("join", **fields)
        seat_out: int | None = answer["seat"]
        await self.wait_for(room, lambda s: True)
        return seat_out

    async def move(self, room: str, move: dict[str, Any], v: int | None = None) -> int:
        """Send a move made against version `v` (default: the version of the view held); returns `ok.v`.

        A move answered `stale` or `unavailable` was not applied, so sending it again is safe: with `v` it can
        never apply twice.
        """
        if v is None:
            held = self.views.get(room)
            v = held.v if held is not None and held.v >= 0 else None
        fields: dict[str, Any] = {"room": room, "move": move}
        if v is not None:
            fields["v"] = v
        return int((await self.request("move", **fields))["v"])

    async def undo(self, room: str, v: int | None = None) -> int:
        """v1.2: take back the decisions of the seat's current turn (while its prompt offers `undo`); returns
        `ok.v`. Made against version `v` (default: the version of the view held), so it never applies twice."""
        if v is None:
            held = self.views.get(room)
            v = held.v if held is not None and held.v >= 0 else None
        fields: dict[str, Any] = {"room": room}
        if v is not None:
            fields["v"] = v
        return int((await self.request("undo", **fields))["v"])

    async def sync(self, room: str) -> dict[str, Any]:
        return await self.request("sync", room=room)

    # ---- views ------------------------------------------------------------------------------

    def view(self, room: str) -> dict[str, Any]:
        return self.views[room].state

    async def wait_for(self, room: str, cond: Callable[[dict[str, Any]], bool], timeout: float = 10.0) -> None:
        """Wait until the room's view exists and satisfies `cond`."""
        rv = self.views.setdefault(room, RoomView(room))

        async def waiter() -> None:
            while True:
                if rv.v >= 0 and cond(rv.state):
                    return
                rv.changed.clear()
                await rv.changed.wait()

        await asyncio.wait_for(waiter(), timeout)

    async def _read(self) -> None:
        assert self.ws is not None
        try:
            async for frame in self.ws:
                assert isinstance(frame, bytes)
                if self.frames is not None:
                    self.frames.append(frame)
                msg = msgpack.unpackb(frame, raw=False)
                try:
                    await self._handle(msg)
                except ConnectionClosed:
                    raise
                except Exception:  # a frame we cannot use must not kill the reader
                    logging.getLogger("marcopolo.client").exception("bad frame from the server")
        except ConnectionClosed as exc:
            self.close_code = exc.rcvd.code if exc.rcvd else None
            self.close_reason = exc.rcvd.reason if exc.rcvd else None
        finally:
            if self.ws is not None and self.close_code is None and self.ws.close_code is not None:
                self.close_code = self.ws.close_code
            self.closed.set()
            for fut in self._waiting.values():
                if not fut.done():
                    fut.set_exception(ConnectionError("connection closed"))

    async def _handle(self, msg: dict[str, Any]) -> None:
        t = msg.get("t")
        if t == "snapshot":
            rv = self.views.setdefault(msg["room"], RoomView(msg["room"]))
            rv.v, rv.state = msg["v"], msg["state"]
            self._updated(rv)
        elif t == "patch":
            rv = self.views.setdefault(msg["room"], RoomView(msg["room"]))
            if rv.v == -2:
                pass  # a sync is on its way; its snapshot resets the version
            elif rv.v != msg["base"]:
                await self._resync(rv)
            else:
                try:
                    rv.state = apply_patch_builtin(rv.state, msg["ops"])  # a copy: views handed out stay as they were
                except PatchError:
                    await self._resync(rv)
                    return
                rv.v = msg["v"]
                rv.patches += 1
                self._updated(rv)
        elif t == "rematch" and msg.get("invite"):
            self.invites[msg["new"]] = msg["invite"]
        elif t == "lobby":
            self.lobby = msg["rooms"]
            self.lobby_changed.set()
        elif t == "rooms":
            self.lobby = msg["rooms"]
            self.lobby_changed.set()
        elif t == "chat":
            self.chats.append(msg)
            self.chat_count += 1
            self.chat_changed.set()
        elif t == "chat_deleted":  # v1.2: a moderator deleted the line; it is dropped
            gone = [c for c in self.chats if c.get("line") == msg.get("line") and c.get("room") == msg.get("room")]
            for line in gone:
                self.chats.remove(line)
            self.chat_changed.set()
        re = msg.get("re")
        if re is not None and re in self._waiting:
            fut = self._waiting[re]
            if not fut.done():
                fut.set_result(msg)
        elif t not in ("snapshot", "patch"):
            self.pushes.append(msg)
            if self.on_push is not None:
                self.on_push(msg)

    async def _resync(self, rv: RoomView) -> None:
        """A gap or a patch that does not apply: ask once for a fresh snapshot."""
        rv.v = -2
        assert self.ws is not None
        await self.ws.send(msgpack.packb({"t": "sync", "room": rv.room}, use_bin_type=True))

    def _updated(self, rv: RoomView) -> None:
        rv.changed.set()
        if self.on_update is not None:
            self.on_update(rv.room)
