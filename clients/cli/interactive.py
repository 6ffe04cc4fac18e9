"""The terminal client's interactive mode: a lobby menu and a room screen, redrawn on every update.

Owns: one event loop over a single queue (lines typed, room updates, lobby pushes, a dropped
connection), the lobby screen (rooms numbered; create, join, spectate, refresh, quit), the room
screen (the view drawn by `render`, the prompt's options numbered so a move is one number + Enter;
`s` sync, `l` leave, `q` quit), and reading stdin on a daemon thread so the event loop never blocks
(a thread that never returns cannot hold up the exit, unlike one in the default executor).
Must not: know any game's rules or draw a view itself; all drawing is in `render`.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
import threading
from typing import Any

from rich.console import Console
from rich.text import Text

from clients.cli.i18n import N_, _, error_sentence
from clients.cli.render import (
    known_games,
    option_label,
    render_lobby,
    render_prompt,
    render_view,
)
from clients.cli.session import CONNECTION_ERRORS, Session, SessionLost
from clients.client import ServerError

LOBBY_MENU = N_("1) create a room   2) join a room   3) spectate a room   4) refresh   5) quit")
ROOM_HELP = N_("number: make that move   s: sync   l: leave (to the lobby)   q: quit")


def stdin_lines() -> asyncio.Queue[str | None]:
    """Lines typed on stdin, read by a daemon thread; None at end of input."""
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue[str | None] = asyncio.Queue()

    def reader() -> None:
        while True:
            line = sys.stdin.readline()
            try:
                loop.call_soon_threadsafe(queue.put_nowait, line if line else None)
            except RuntimeError:  # the loop is closed: the program is exiting
                return
            if not line:
                return

    threading.Thread(target=reader, name="cli-stdin", daemon=True).start()
    return queue


class Interactive:
    """The menu-driven client; `run()` returns the exit status."""

    def __init__(
        self, session: Session, console: Console, lines: asyncio.Queue[str | None], prompt: Any = None
    ) -> None:
        self.session = session
        self.console = console
        self.lines = lines
        #: the prompt_toolkit input (clients.cli.prompt.PromptLines) on a real terminal, else None
        self.prompt = prompt
        if prompt is not None:
            prompt.set_choices(self.choice_labels)
        self.room: str | None = None
        #: the lobby as numbered on screen (numbers must not shift under the user's fingers)
        self.listed: list[dict[str, Any]] = []
        #: a follow-up question waiting for its answer: (what, data)
        self.pending: tuple[str, Any] | None = None
        self.notice: str = ""

    # ---- main loop ------------------------------------------------------------------------

    async def run(
        self,
        *,
        create: tuple[str, int, dict[str, Any], int] | None = None,
        join: str | None = None,
        spectate: str | None = None,
    ) -> int:
        """Show the lobby (or the room asked for, or a re-joined seat) and follow the user's commands."""
        forward = asyncio.create_task(self._forward_lines())
        in_place = self.console.is_terminal
        if in_place:
            self.console.set_alt_screen(True)  # the screen is redrawn in place, the shell's screen kept
        try:
            await self.session.watch_lobby()
            if self.session.rooms:
                self.room = next(iter(self.session.rooms))
            if create is not None:
                game, seats, options, bots = create
                await self._create_and_join(game, seats, options, bots)
            elif join:
                await self._enter(join, spectate=False)
            elif spectate:
                await self._enter(spectate, spectate=True)
            self.show()
            dirty = False
            while True:
                kind, arg = await self.session.events.get()
                if kind == "line":
                    if arg is None or not await self.on_line(str(arg).strip()):
                        return 0
                    dirty = True
                elif kind == "update":
                    dirty = dirty or arg == self.room
                elif kind == "lobby":
                    dirty = dirty or self.room is None
                elif kind == "closed" and arg is self.session.client:  # skip stale events of replaced clients
                    await self.session.reconnect()
                    dirty = True
                if dirty and self.session.events.empty():  # coalesce a burst of updates into one redraw
                    self.show()
                    dirty = False
        finally:
            if in_place:
                self.console.set_alt_screen(False)
            forward.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await forward

    async def _forward_lines(self) -> None:
        while True:
            line = await self.lines.get()
            self.session.events.put_nowait(("line", line))
            if line is None:
                return

    # ---- drawing --------------------------------------------------------------------------

    def choice_labels(self) -> list[str]:
        """The current prompt's options in words, numbered from 1 (for completion)."""
        view = self.session.view(self.room) if self.room else None
        options = ((view or {}).get("prompt") or {}).get("options") or []
        return [option_label(view or {}, o) for o in options]

    def show(self) -> None:
        """Redraw the current screen: the room's view and options, or the lobby and its menu.

        On a terminal the screen is drawn in place (cursor home, each line cleared, the rest erased), not
        printed below the last one; elsewhere (a pipe, a test's console) it is printed.
        """
        if not self.console.is_terminal:
            self.console.clear()
            self._print_screen()
            return
        with self.console.capture() as cap:
            self._print_screen()
        screen = cap.get()

        def paint() -> None:
            out = self.console.file
            out.write("\x1b[H" + screen.replace("\n", "\x1b[K\n") + "\x1b[J")
            out.flush()

        if self.prompt is not None:
            self.prompt.draw(paint)
        else:
            paint()

    def _print_screen(self) -> None:
        view = self.session.view(self.room) if self.room else None
        if self.room and view is not None:
            self.console.print(render_view(view))
            self.console.print(render_prompt(view))
            self.console.print(Text(_(ROOM_HELP), style="dim"))
        else:
            self.room = None
            client = self.session.client
            self.listed = list(client.lobby) if client is not None else []
            held = [r for r, watching in self.session.rooms.items() if not watching]
            self.console.print(render_lobby(self.listed, held))
            self.console.print(Text(_(LOBBY_MENU), style="bold"))
        if self.pending is not None:
            self.console.print(Text(self._question(), style="bold yellow"))
        if self.notice:
            self.console.print(Text(self.notice, style="yellow"))
            self.notice = ""

    def _question(self) -> str:
        assert self.pending is not None
        what, data = self.pending
        if what == "game":
            games = ", ".join(known_games()) or "expedition"
            return _("Which game? ({games}) [expedition]:").format(games=games)
        if what == "seats":
            return _("How many seats for {game}? [3]:").format(game=data)
        if what == "bots":
            return _("How many of the {n} seats for server bots? [0]:").format(n=data[1])
        if what == "spectate":
            return _("Number of the room to watch (Enter to cancel):")
        return _("Number of the room to join (Enter to cancel):")

    # ---- commands -------------------------------------------------------------------------

    async def on_line(self, line: str) -> bool:
        """Handle one typed line; False means quit."""
        try:
            if self.pending is not None:
                await self._answer(line)
                return True
            if self.room is not None:
                return await self._room_command(line)
            return await self._lobby_command(line)
        except ServerError as err:
            self.notice = error_sentence(err.code, err.message)
        except SessionLost:
            raise
        except CONNECTION_ERRORS:
            await self.session.reconnect()
            self.notice = _("Reconnected; please try again.")
        return True

    async def _lobby_command(self, line: str) -> bool:
        word, _sep, rest = line.partition(" ")
        word = word.lower()
        if word in ("1", "c", "create"):
            self.pending = ("game", None)
        elif word in ("2", "j", "join"):
            self.pending = ("join", None)
            if rest.strip():
                await self._answer(rest.strip())
        elif word in ("3", "w", "watch", "spectate"):
            self.pending = ("spectate", None)
            if rest.strip():
                await self._answer(rest.strip())
        elif word in ("4", "r", "refresh", ""):
            await self.session.c.request("list_rooms")
        elif word in ("5", "q", "quit", "exit"):
            return False
        else:
            self.notice = _("Unknown command {line}.").format(line=repr(line)) + " " + _(LOBBY_MENU)
        return True

    async def _answer(self, line: str) -> None:
        assert self.pending is not None
        what, data = self.pending
        self.pending = None
        if what == "game":
            self.pending = ("seats", line or "expedition")
            return
        if what == "seats":
            try:
                seats = int(line) if line else 3
            except ValueError:
                self.notice = _("{line} is not a number of seats.").format(line=repr(line))
                return
            self.pending = ("bots", (str(data), seats))
            return
        if what == "bots":
            game, seats = data
            try:
                bots = int(line) if line else 0
                if not 0 <= bots < seats:
                    raise ValueError(bots)
            except ValueError:
                self.notice = _("{line} is not a number of bots from 0 to {n}.").format(line=repr(line), n=seats - 1)
                return
            await self._create_and_join(game, seats, {}, bots)
            return
        if not line:
            return
        try:
            index = int(line) - 1
            if index < 0:
                raise IndexError(index)
            room = self.listed[index]["room"]
        except (ValueError, IndexError):
            self.notice = _("There is no room {line} in the list.").format(line=repr(line))
            return
        await self._enter(str(room), spectate=what == "spectate")

    async def _create_and_join(self, game: str, seats: int, options: dict[str, Any], bots: int | list[str] = 0) -> None:
        room = await self.session.create(game, seats, options, bots=bots)
        self.notice = _("Created room {room}.").format(room=room)
        await self._enter(room, spectate=False)

    async def _enter(self, room: str, *, spectate: bool) -> None:
        seat = await self.session.join(room, spectate=spectate)
        self.room = room
        self.notice = (self.notice + " " if self.notice else "") + (
            _("Watching room {room}.").format(room=room)
            if seat is None
            else _("Seated at seat {n} in room {room}.").format(n=seat + 1, room=room)
        )

    async def _room_command(self, line: str) -> bool:
        assert self.room is not None
        word = line.lower()
        if word in ("q", "quit", "exit"):
            return False
        if word in ("s", "sync"):
            await self.session.c.sync(self.room)
            return True
        if word in ("l", "leave"):
            room, self.room = self.room, None
            await self.session.leave(room)
            await self.session.c.request("list_rooms")
            self.notice = _("Left room {room}.").format(room=room)
            return True
        view = self.session.view(self.room) or {}
        options = (view.get("prompt") or {}).get("options") or []
        try:
            n = int(word)
        except ValueError:
            self.notice = _("Unknown command {line}.").format(line=repr(line)) + " " + _(ROOM_HELP)
            return True
        if not options:
            self.notice = _("There is nothing for you to do right now.")
        elif not 1 <= n <= len(options):
            self.notice = _("Choose an option from 1 to {n}.").format(n=len(options))
        else:
            move = options[n - 1]
            try:
                await self.session.c.move(self.room, move)
            except ServerError as err:
                if err.code in ("not_your_turn", "illegal_move", "stale"):
                    self.notice = _("That option is out of date ({why}); here is the current view.").format(
                        why=error_sentence(err.code, err.message)
                    )
                else:
                    raise
            else:
                self.notice = _("You chose: {label}").format(label=option_label(view, move))
        return True
