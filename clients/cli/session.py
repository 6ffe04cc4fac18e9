"""One player's session for the terminal client: a `clients.client.Client` plus what outlives a socket.

Owns: the token file (read before `hello`, written after `welcome`, so a restarted client resumes the
same player, a guest or an account), a sign-up or sign-in on the first connection (v1.2 accounts: the password
asked for only when the saved token does not resume that account already, sent once, never kept), signing
out (the token file is removed), re-joining the rooms listed in `welcome.rooms` and the rooms this session
joined itself, a new password and deleting the account (then, as after a sign-out, the token file goes),
reconnecting with backoff when the connection drops (not after a ban, v1.2: `Banned` says why and until when), the
invites of unlisted rooms (kept across connections), the players this player blocks (v1.2, as last told by the
server), and one event queue fed by the client (`("update", room)`, `("lobby", None)`, `("chat", room)`,
`("push", message)` for pushes such as `closed` and `chat_deleted`, `("closed", client)`) that the interactive loop
and the bot read.
Must not: render or decide moves; game rules stay on the server.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

from clients.cli.account import CHANGE_PASSWORD, DELETE_ACCOUNT, RESUME, SIGN_UP, Credentials
from clients.client import Client, ServerError

Event = tuple[str, Any]

#: close code the server uses when the same player connects again elsewhere
REPLACED = 4001
#: close code after a sign-out of this device or the deletion of the account (v1.2): its token resumes nothing
SIGNED_OUT = 4002
#: close code of a banned party's connections (v1.2); the close's reason says until when and why
BANNED = 4003

#: errors that mean "the connection is gone or never came up": worth a reconnect
CONNECTION_ERRORS: tuple[type[BaseException], ...] = (OSError, ConnectionClosed, InvalidHandshake, TimeoutError)


#: errors of the whole-log request that leave the log to the views
LOG_ERRORS: tuple[type[BaseException], ...] = (ServerError, *CONNECTION_ERRORS)


class SessionLost(Exception):
    """Every attempt to (re)connect failed; not an OSError, so retry loops do not catch it."""


class Banned(SessionLost):
    """(v1.2) An administrator banned this player or its address: the server closed the connection (4003) or
    refused `hello` (`banned`); `message` is the server's, which says until when and why. Never reconnected."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class AuthError(ServerError):
    """An account's error (v1.2) answered to `request` (`sign_up`, `sign_in`, or `resume`: a saved token that no
    longer resumes its account); never retried."""

    def __init__(self, request: str, code: str, message: str) -> None:
        super().__init__(code, message)
        self.request = request


def default_token_file(name: str) -> Path:
    """`~/.marcopolo/token-<name>`, the name made safe for a file name."""
    safe = re.sub(r"[^A-Za-z0-9._-]", "_", name) or "player"
    return Path.home() / ".marcopolo" / f"token-{safe}"


def read_token(path: Path) -> str | None:
    """The token saved in `path`, or None when there is none yet."""
    try:
        token = path.read_text(encoding="utf-8").strip()
    except FileNotFoundError:
        return None
    return token or None


def forget_token(path: Path) -> None:
    """Remove the saved token (after a sign-out: it resumes nobody)."""
    path.unlink(missing_ok=True)


def write_token(path: Path, token: str) -> None:
    """Save the token, readable by the owner only."""
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(token + "\n")


def room_url(url: str, room: str | None) -> str:
    """`url` naming `room` (`/ws?room=ID`): a proxy that routes by room sends the socket to the node of the room."""
    if not room:
        return url
    parts = urlsplit(url)
    query = [(k, v) for k, v in parse_qsl(parts.query) if k != "room"] + [("room", room)]
    return urlunsplit(parts._replace(query=urlencode(query)))


class Session:
    """Connect, say hello with the saved token, re-join held rooms; `reconnect()` does it all again."""

    def __init__(
        self,
        url: str,
        name: str,
        token_file: Path,
        *,
        attempts: int = 5,
        backoff: float = 0.25,
        say: Callable[[str], None] | None = None,
        credentials: Credentials | None = None,
    ) -> None:
        self.url = url
        self.name = name
        self.token_file = token_file
        self.attempts = attempts
        self.backoff = backoff
        self.say = say or (lambda _msg: None)
        #: a sign-up or sign-in to make on the first connection (then None: the saved token resumes the account)
        self.credentials = credentials
        #: re-join the held rooms on every connection (False for a one-shot command such as --sign-out)
        self.rejoin = True
        self.client: Client | None = None
        self.player: str | None = None
        self.welcome: dict[str, Any] = {}
        #: rooms this session is in: room id -> True when only watching
        self.rooms: dict[str, bool] = {}
        #: seat held per room, from `welcome` and `joined`
        self.seats: dict[str, int | None] = {}
        self.watching_lobby = False
        #: invites of unlisted rooms (created here, from a pasted link, from a rematch): room -> secret
        self.invites: dict[str, str] = {}
        self.events: asyncio.Queue[Event] = asyncio.Queue()
        #: v1.2: the players this player blocks, as last told by the server: player id -> the name kept with it
        self.blocked: dict[str, str | None] = {}
        self._tasks: list[asyncio.Task[None]] = []
        self._closing = False

    # ---- lifecycle ------------------------------------------------------------------------

    @property
    def c(self) -> Client:
        """The current client (raises if the session is not open)."""
        if self.client is None:
            raise ConnectionError("not connected")
        return self.client

    async def open(self) -> dict[str, Any]:
        """Connect (retrying with backoff), hello, save the token and re-join rooms; returns `welcome`."""
        return await self._with_retries(first=True)

    async def reconnect(self) -> dict[str, Any]:
        """Drop the current connection and open a new one as the same player.

        A connection the server closed because the same player connected elsewhere (code 4001) is not
        taken back: two clients sharing a token would otherwise push each other out forever.
        """
        code = self.client.close_code if self.client is not None else None
        reason = self.client.close_reason if self.client is not None else None
        await self._drop()
        if code == REPLACED:
            raise SessionLost("this player connected from somewhere else; leaving the seat to that connection")
        if code == SIGNED_OUT:
            raise SessionLost("this device was signed out of the account (or the account deleted)")
        if code == BANNED:
            raise Banned(reason or "banned")
        self.say("connection lost; reconnecting…")
        return await self._with_retries(first=False)

    async def close(self) -> None:
        """Close the connection and stop the helper tasks."""
        self._closing = True
        await self._drop()

    async def __aenter__(self) -> Session:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def _with_retries(self, first: bool) -> dict[str, Any]:
        last: BaseException | None = None
        for attempt in range(self.attempts):
            if attempt:
                await asyncio.sleep(self.backoff * 2 ** (attempt - 1))
                self.say(f"reconnecting (attempt {attempt + 1} of {self.attempts})…")
            try:
                return await self._open_once()
            except InvalidURI:
                raise
            except ServerError as err:
                if err.code == "banned":  # hello, sign_in or sign_up refused: the message says until when
                    await self._drop()
                    raise Banned(err.message) from None
                if isinstance(err, AuthError) or err.code not in ("unavailable", "rate_limited"):
                    await self._drop()
                    raise
                last = err
            except CONNECTION_ERRORS as err:
                last = err
            await self._drop()
        verb = "connect to" if first else "reconnect to"
        raise SessionLost(f"could not {verb} {self.url}: {last}") from last

    async def _open_once(self) -> dict[str, Any]:
        token = read_token(self.token_file)
        if self.credentials is not None and not token:
            # asked before connecting: the server waits only `hello_timeout` for a connection's first message
            await self.credentials.password()
        # a reconnection names the room played (else watched) last, for a proxy routing by room (docs/scale.md)
        playing = [room for room, watching in self.rooms.items() if not watching] or list(self.rooms)
        client = Client(room_url(self.url, playing[-1] if playing else None))
        self.client = client
        await client.connect()
        if self.credentials is not None:
            welcome = await self._sign(client, token, self.credentials)
            self.credentials.forget()
            self.credentials = None  # every later connection resumes the account with its token
        else:
            try:
                welcome = await client.hello(self.name, token)
            except ServerError as err:
                if err.code == "name_taken":
                    raise AuthError(RESUME if token else "hello", err.code, err.message) from None
                raise
            if token and welcome["token"] != token:
                self.say("the saved token resumes nobody any more: playing as a new guest")
        self.welcome = welcome
        self.player = welcome["player"]
        write_token(self.token_file, welcome["token"])
        client.on_update = lambda room: self.events.put_nowait(("update", room))
        client.on_push = lambda msg: self.events.put_nowait(("push", msg))
        client.invites.update(self.invites)
        self._tasks = [
            asyncio.create_task(self._watch_closed(client)),
            asyncio.create_task(self._watch_lobby(client)),
            asyncio.create_task(self._watch_chat(client)),
        ]
        for held in (welcome.get("rooms") or []) if self.rejoin else []:
            self.rooms.setdefault(held["room"], False)
            self.seats[held["room"]] = held.get("seat")
        for room, spectate in list(self.rooms.items()):
            try:
                seat = await client.join(room, spectate=spectate)
            except ServerError as err:
                if err.code in ("unavailable", "rate_limited"):
                    raise
                self.say(f"could not re-join room {room}: {err}")
                self.rooms.pop(room, None)
                continue
            self.seats[room] = seat
            self.say(f"re-joined room {room} " + ("as a spectator" if seat is None else f"at seat {seat + 1}"))
            await self._whole_log(client, room)
        if self.watching_lobby:
            await client.request("watch_lobby")
            self.events.put_nowait(("lobby", None))
        return welcome

    async def _sign(self, client: Client, token: str | None, creds: Credentials) -> dict[str, Any]:
        """Sign up or in on a new connection. A saved token is tried first: when it resumes that account already,
        no password is needed; a guest's carries its games into a new account (`sign_up` after `hello`)."""
        if token:
            try:
                welcome = await client.hello(self.name, token)
            except ServerError as err:
                if err.code != "name_taken":  # name_taken: the token resumes nobody and the name is an account's
                    raise
            else:
                if welcome.get("account") and str(welcome.get("name", "")).casefold() == self.name.casefold():
                    self.say(f"signed in to the account {welcome.get('name')} already (the saved token)")
                    return welcome
        call = client.sign_up if creds.mode == SIGN_UP else client.sign_in
        try:
            return await call(self.name, await creds.password(), creds.device)
        except ServerError as err:
            if err.code in ("unavailable", "internal"):
                raise
            raise AuthError(creds.mode, err.code, err.message) from None

    @property
    def account(self) -> bool:
        """Whether this session is an account's (False: a guest's)."""
        return bool(self.welcome.get("account"))

    async def sign_out(self, *, everywhere: bool = False) -> None:
        """Sign this device (or every device) out of the account: the token file is removed and the server
        closes the connection (4002), which is not reconnected."""
        self._closing = True
        try:
            await self.c.sign_out(everywhere=everywhere)
        except ServerError as err:
            self._closing = False
            raise AuthError("sign_out", err.code, err.message) from None
        except BaseException:
            self._closing = False
            raise
        forget_token(self.token_file)

    async def change_password(self, old: str, new: str) -> None:
        """A new password for the account; the server signs every other device out, this one stays."""
        try:
            await self.c.change_password(old, new)
        except ServerError as err:
            raise AuthError(CHANGE_PASSWORD, err.code, err.message) from None

    async def delete_account(self, password: str) -> None:
        """Delete the account: the token file is removed and the server closes the connection (4002), which is not
        reconnected (every token of the account stops)."""
        self._closing = True
        try:
            await self.c.delete_account(password)
        except ServerError as err:
            self._closing = False
            raise AuthError(DELETE_ACCOUNT, err.code, err.message) from None
        except BaseException:
            self._closing = False
            raise
        forget_token(self.token_file)

    async def _drop(self) -> None:
        tasks, self._tasks = self._tasks, []
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        client, self.client = self.client, None
        if client is not None:
            self.invites.update(client.invites)  # invites pushed with a rematch outlive the connection
            client.on_update = None
            client.on_push = None
            with contextlib.suppress(*CONNECTION_ERRORS):
                await client.close()

    async def _watch_closed(self, client: Client) -> None:
        await client.closed.wait()
        if not self._closing and client is self.client:
            self.events.put_nowait(("closed", client))

    async def _watch_lobby(self, client: Client) -> None:
        while True:
            await client.lobby_changed.wait()
            client.lobby_changed.clear()
            self.events.put_nowait(("lobby", None))

    async def _watch_chat(self, client: Client) -> None:
        seen = 0  # lines received (the list also loses the lines a moderator deletes: counted, not indexed)
        while True:
            await client.chat_changed.wait()
            client.chat_changed.clear()
            fresh = min(client.chat_count - seen, len(client.chats))
            for line in client.chats[len(client.chats) - fresh :] if fresh > 0 else []:
                self.events.put_nowait(("chat", line.get("room")))
            seen = client.chat_count

    # ---- requests that the session remembers ----------------------------------------------

    def keep_invite(self, room: str, invite: str | None) -> None:
        """Remember an unlisted room's invite (for this connection and every later one)."""
        if invite:
            self.invites[room] = invite
            if self.client is not None:
                self.client.invites[room] = invite

    def invite_of(self, room: str) -> str | None:
        """The invite held for a room (None for a listed room, or one this session was not invited to)."""
        client_invites = self.client.invites if self.client is not None else {}
        return self.invites.get(room) or client_invites.get(room)

    async def join(self, room: str, *, spectate: bool = False) -> int | None:
        """Join (or watch) a room; it is re-joined after every reconnect."""
        seat = await self.c.join(room, spectate=spectate)
        self.rooms[room] = spectate and seat is None
        self.seats[room] = seat
        await self._whole_log(self.c, room)
        return seat

    async def _whole_log(self, client: Client, room: str) -> None:
        """Ask for the game's whole public log (a view holds only its last events): an event ("game_log",
        (room, events)) for the screen. A server without `game_log` leaves the log to the views."""
        try:
            events = await client.game_log(room)
        except LOG_ERRORS:
            return
        if events:
            self.events.put_nowait(("game_log", (room, events)))

    async def leave(self, room: str) -> None:
        """Leave a room (after the start the seat stays yours and shows as disconnected)."""
        self.rooms.pop(room, None)
        self.seats.pop(room, None)
        await self.c.request("leave", room=room)
        self.c.views.pop(room, None)

    async def create(
        self,
        game: str,
        seats: int,
        options: dict[str, Any] | None = None,
        bots: int | list[str] = 0,
        *,
        public: bool = True,
        turn_seconds: int | None = None,
        mode: str | None = None,
        on_expiry: str | None = None,
        time_bank_seconds: int | None = None,
    ) -> str:
        """Create a room (the creator still has to join it); server bots take the last seats: `bots` is
        their count (greedy bots) or one level per bot seat (`["hard", "normal"]`). v1.2: `mode="turn_based"` with
        `turn_seconds` up to 14 days and `on_expiry` (`wait`, `bot`, `end`) makes a room played over days;
        `time_bank_seconds` gives each player a time bank beside the clock."""
        if not bots and turn_seconds is None and public and mode is None and not time_bank_seconds:
            return await self.c.create(game, seats, options)
        fields: dict[str, Any] = {"game": game, "seats": seats, "public": public}
        if bots:
            fields["bots"] = bots
        if options:
            fields["options"] = options
        if turn_seconds is not None:
            fields["turn_seconds"] = turn_seconds
        if mode is not None:
            fields["mode"] = mode
        if on_expiry is not None:
            fields["on_expiry"] = on_expiry
        if time_bank_seconds:
            fields["time_bank_seconds"] = time_bank_seconds
        answer = await self.c.request("create", **fields)
        self.keep_invite(str(answer["room"]), answer.get("invite"))
        return str(answer["room"])

    async def quick_match(
        self, game: str, seats: int, *, turn_seconds: int | None = None, fill_bots_after: int | None = None
    ) -> tuple[str, int | None]:
        """A seat in the fullest fitting waiting public room of `game` (or a new one, whose empty seats server bots
        take after `fill_bots_after` seconds); re-joined on reconnect."""
        room, seat = await self.c.quick_match(game, seats, turn_seconds=turn_seconds, fill_bots_after=fill_bots_after)
        self.rooms[room] = False
        self.seats[room] = seat
        return room, seat

    async def rematch(self, room: str) -> str:
        """Open (or find) the rematch of a finished room; returns the new room (its invite is kept)."""
        new = await self.c.rematch(room)
        self.keep_invite(new, self.c.invites.get(new))
        return new

    async def watch_lobby(self) -> list[dict[str, Any]]:
        """Ask for the room list and live `lobby` pushes (again after every reconnect)."""
        self.watching_lobby = True
        answer = await self.c.request("watch_lobby")
        rooms: list[dict[str, Any]] = answer["rooms"]
        return rooms

    # ---- moderation (v1.2) ------------------------------------------------------------------

    async def block(self, player: str, name: str | None) -> None:
        """Block a player: the server sends none of its chat lines any more, and it cannot join a room this
        player hosts."""
        await self.c.block(player, name)
        self.blocked[player] = name

    async def unblock(self, player: str) -> None:
        await self.c.unblock(player)
        self.blocked.pop(player, None)

    async def blocks(self) -> list[dict[str, Any]]:
        """The players this player blocks, newest first (`{player, name}`); kept in `blocked`."""
        players = await self.c.blocks()
        self.blocked = {str(p["player"]): p.get("name") for p in players}
        return players

    async def report(self, player: str, reason: str, room: str | None = None) -> None:
        """Report a player to the moderators, with the context of `room` (None: the lobby)."""
        await self.c.report(player, reason, room)

    def view(self, room: str) -> dict[str, Any] | None:
        """The current view of a room, if this connection holds one."""
        if self.client is None:
            return None
        rv = self.client.views.get(room)
        return rv.state if rv is not None and rv.v >= 0 else None

    def version(self, room: str) -> int:
        """The version of the room's view held (-1 when none)."""
        if self.client is None:
            return -1
        rv = self.client.views.get(room)
        return rv.v if rv is not None else -1
