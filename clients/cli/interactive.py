"""The terminal client's interactive mode: a lobby menu and a room screen, redrawn on every update.

Owns: one event loop over a single queue (lines typed, room updates, lobby pushes, chat lines, clock
ticks, a dropped connection), the lobby screen (rooms numbered; create, join, spectate, refresh, quit;
quick match, open a link, finished games, the leaderboard in pages (`ratings GAME [page N]`, `next`, `prev`) and a
player's page (`player N|NAME`, `me`), chat), the room screen (the view drawn by `render`,
the prompt's options numbered so a move is one number + Enter; the turn clock, the room's link, chat;
`s` sync, `l` leave, `q` quit, `t` take a seat, `r` rematch, `u` undo: take back the choices of this turn while
the prompt offers it, v1.2), the replay screen (first, back, forward,
last, go to a version), the account's commands (`devices` lists where it is signed in, `sign out` [everywhere
| N] signs this device, every device or device N out, `password` sets a new one, `delete account` deletes it; a
password is asked with the input hidden), moderation (v1.2: `block NAME`, `unblock NAME`, `blocked`, `report NAME
REASON` in the lobby and in a room, a name read from the chat lines held (their `from`) or the room's seats; `mute` /
`unmute SEAT|NAME` for the room's host; blocked players' lines hidden, lines a moderator deleted dropped, a room a
moderator closed said so, the errors `muted`, `filtered` and `banned` as sentences), turn-based play (v1.2: `create GAME
SEATS --turn-based [DAYS] [--on-expiry wait|bot|end] [--bank TIME]`, the room's rule, time banks and late seats in
words, the clock's moves marked in the log, `games` lists the
player's games from `my_games`, its turn first, `open N` enters one, shown by itself at start when it is the player's
turn somewhere; a game ended by a timeout said so), the turn signal (the terminal bell once when it becomes the
player's move in the room on screen, `bell on|off`; "Your move" on the screen and the input line), the quick match's
countdown to the bots and `start` (the host starts now with bots), what a terminal shows at its size (`screen`: a
room's page of moves, always with whose turn it is, the clock, your resources and the numbered options, in pages with
`n`/`p` or PgDn/PgUp; the board page flipped to with F2 or `b` and back; every other long screen in pages), and
reading stdin on a daemon thread so the event loop never blocks (a thread that never returns cannot hold up the exit,
unlike one in the default executor).
Must not: know any game's rules or draw a view itself; all drawing is in `render` (and the laying out in `screen`).
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
import threading
import time
from typing import Any

from rich.console import Console, Group, RenderableType
from rich.text import Text

from clients.cli import public
from clients.cli.account import (
    CHANGE_PASSWORD,
    DELETE_ACCOUNT,
    DELETE_CONFIRM,
    GUESTS_CANNOT,
    account_sentence,
    devices_table,
)
from clients.cli.i18n import N_, _, error_sentence
from clients.cli.render import (
    known_games,
    option_label,
    prompt_parts,
    render_lobby,
    render_prompt,
    render_view,
    renderer_for,
    seats_table,
)
from clients.cli.screen import Block, Drawer, paged, room_page
from clients.cli.session import CONNECTION_ERRORS, AuthError, Session, SessionLost
from clients.cli.turns import (
    NOTIFY_HELP,
    ON_EXPIRY,
    countdown_text,
    games_table,
    parse_bank,
    parse_notify,
    parse_turn,
    rule_text,
    signals_table,
    timeout_sentence,
    urgent_first,
)
from clients.client import ServerError

LOBBY_MENU = N_("1) create a room   2) join a room   3) spectate a room   4) refresh   5) quit")
LOBBY_MORE = N_(
    "quick GAME SEATS: play now   open LINK: open a room's link   history: finished games   "
    "replay N: watch one again   ratings GAME   say TEXT: chat"
)
ROOM_HELP = N_("number: make that move   s: sync   l: leave (to the lobby)   q: quit")
ROOM_MORE = N_(
    "log: the whole game   say TEXT: chat   t: take a free seat   r: rematch (at the end)   replay: watch it again"
)
LOG_HELP = N_("log N: older page   Enter: back to the room")
ACCOUNT_HELP = N_(
    "Account {name}   devices: where you are signed in   sign out: this device   sign out everywhere   "
    "sign out N: device N"
)
ACCOUNT_MORE = N_("password: set a new password   delete account: delete the account for good")
BOARD_HELP = N_(
    "next, prev: the next or previous page   ratings GAME page N   player N or player NAME: that player's page   "
    "me: your page"
)
GUEST_HELP = N_("Playing as the guest {name}: start with --sign-up to keep your name and ratings, or --sign-in.")
MODERATION_HELP = N_(
    "block NAME: hide a player's chat   unblock NAME   blocked: whom you block   report NAME REASON: tell the "
    "moderators"
)
HOST_HELP = N_("mute SEAT or NAME, unmute SEAT or NAME: the room's host silences or frees a seat's chat")
MODERATOR_CLOSED = N_("Closed by a moderator: {message}")
TURN_HELP = N_(
    "games: my games   open N: play game N of that list   create GAME SEATS --turn-based [DAYS] "
    "[--on-expiry wait|bot|end] [--bank TIME]   bell on|off: the bell on your move"
)
ROOM_TURN_HELP = N_("start: start now, bots in the empty seats (the host)   games: my games   bell on|off")
CREATE_USAGE = "create GAME SEATS [--turn-based [DAYS]] [--on-expiry wait|bot|end] [--bank TIME] [--bots N] [--private]"
#: the help line of the room's page on a terminal (the board page has every command)
MOVES_HELP = N_("number: move   n, p: more options   b or F2: the board, all commands   q: quit")
#: the line under the board page on a terminal
BOARD_PAGE_HELP = N_("b, F2 or Enter: back to your options   n, p, PgDn, PgUp: turn the pages")
REPLAY_HELP = N_("f: first   b: back   n or Enter: forward   e: last   g N: go to version N   l: lobby   q: quit")
#: the clock of a room made by `quick` (as in the browser): strangers cannot hold a game up for long
QUICK_TURN_SECONDS = 120
#: seconds after which server bots fill the empty seats of a room made by `quick` (the server's default too): the
#: client asks for it, so it knows when the bots come (the view does not say)
QUICK_FILL_SECONDS = 60
#: the terminal's bell
BELL = "\a"
#: at most one `my_games` request per this many seconds while the list is on screen and the games change
GAMES_REFRESH = 1.0
#: rows on one page of the leaderboard
BOARD_SIZE = 10
#: questions whose answer is a password: typed hidden, kept in no history, never shown
HIDDEN_QUESTIONS = frozenset({"password_old", "password_new", "password_again", "delete_password"})
#: the questions of `password` and `delete account`
ACCOUNT_QUESTIONS = HIDDEN_QUESTIONS | {"delete_confirm"}


def echo_stdin(on: bool) -> None:
    """Turn the terminal's echo of stdin on or off (a password typed where prompt_toolkit does not read)."""
    try:
        import termios
    except ImportError:  # not a POSIX terminal
        return
    fd = sys.stdin.fileno()
    try:
        attrs = termios.tcgetattr(fd)
    except (termios.error, OSError):
        return
    attrs[3] = attrs[3] | termios.ECHO if on else attrs[3] & ~termios.ECHO
    termios.tcsetattr(fd, termios.TCSANOW, attrs)


def folded(text: str) -> str:
    """Text compared loosely: runs of whitespace as one space, case folded."""
    return " ".join(text.split()).casefold()


def room_options(view: dict[str, Any] | None) -> list[Any]:
    """The options of a view's prompt; none in a room the server closed (v1.2 `closed`: a moderator, nobody joined,
    abandoned), whatever its view still holds."""
    if not view or (view.get("closed") and view.get("status") == "finished"):
        return []
    return list((view.get("prompt") or {}).get("options") or [])


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
        self,
        session: Session,
        console: Console,
        lines: asyncio.Queue[str | None],
        prompt: Any = None,
        *,
        stdin_tty: bool = False,
        bell: bool = True,
    ) -> None:
        self.session = session
        self.console = console
        self.lines = lines
        #: the prompt_toolkit input (clients.cli.prompt.PromptLines) on a real terminal, else None
        self.prompt = prompt
        #: the lines come from a terminal read without prompt_toolkit: a password is hidden by turning its echo off
        self.stdin_tty = stdin_tty
        #: whether the line being typed is hidden now (a password)
        self.hidden = False
        #: the prompt draws the whole terminal (clients.cli.prompt.PromptLines): it asks for the screen at its size
        self.full = prompt is not None and hasattr(prompt, "set_screen")
        if prompt is not None:
            prompt.set_choices(self.choice_labels)
            if hasattr(prompt, "set_status"):
                prompt.set_status(self.prompt_status)
        if self.full:
            prompt.set_screen(self.screen)
            prompt.set_keys(self.key)
        #: on a terminal, the room's page shown: "moves" (whose turn, the clock, your resources, the options) or
        #: "board" (the whole view and every command, in pages)
        self.page_of = "moves"
        #: the first option shown on the room's page (an index), and where the next and previous pages of options
        #: started at the last drawing (None: no such page)
        self.option_first = 0
        self._option_next: int | None = None
        self._option_prev: int | None = None
        #: the options the page was drawn for (a new prompt starts at its first option)
        self._options_key: Any = None
        #: the page of a long screen shown (the board, the lobby, a replay), how many, and which screen that was
        self.screen_page = 1
        self._screen_pages = 1
        self._paged: str | None = None
        #: on a terminal the notice stays on screen until the next line typed (redraws every second keep it)
        self.shown_notice = ""
        #: the terminal's size at the last drawing in place without prompt_toolkit (a change is redrawn)
        self._size: tuple[int, int] | None = None
        self.room: str | None = None
        #: the lobby as numbered on screen (numbers must not shift under the user's fingers)
        self.listed: list[dict[str, Any]] = []
        #: a follow-up question waiting for its answer: (what, data)
        self.pending: tuple[str, Any] | None = None
        self.notice: str = ""
        #: the replay being stepped through (the server's `replay` answer), or None
        self.replay: dict[str, Any] | None = None
        #: finished games as last listed (`history`), numbered on screen for `replay N`
        self.history: list[dict[str, Any]] | None = None
        #: the leaderboard page asked for last: the server's answer (game, players, offset, me) and its `page`
        self.board: dict[str, Any] | None = None
        #: rows on a page of the leaderboard
        self.board_size = BOARD_SIZE
        #: the player's page shown last (the server's `player` answer)
        self.player_page: dict[str, Any] | None = None
        #: what the lobby shows under the rooms: "history", "board", "player", "devices", "signals" or None
        self.panel: str | None = None
        #: the account's turn signals as the last `notify` answer said them
        self.signals: dict[str, Any] | None = None
        #: every log event seen per room (running number -> words): the whole game, not the view's last few
        self.logs: dict[str, dict[int, str]] = {}
        #: the page of the whole log on screen (1: the newest), or None for the room screen
        self.log_shown: int | None = None
        #: the account's devices as last listed (`devices`), numbered on screen for `sign out N`
        self.devices: list[dict[str, Any]] | None = None
        #: said once the screen is left (after a sign-out), or None
        self.farewell: str | None = None
        #: v1.2: players known by their chat lines (also of connections before this one): player id -> name
        self.speakers: dict[str, str] = {}
        #: ring the terminal's bell once when it becomes the player's move in the room on screen (`bell on|off`)
        self.bell = bell
        #: v1.2: the player's games as last listed (`games`, from `my_games`), numbered on screen for `open N`
        self.games: list[dict[str, Any]] | None = None
        #: per room held: whether it was the player's move at the last look (the bell rings on a change to True)
        self.my_move: dict[str, bool] = {}
        #: quick-match rooms waiting for bots: room -> (when the bots come, ms since the epoch; whether that is
        #: exact or only the latest they can come)
        self.fill_due: dict[str, tuple[float, bool]] = {}
        #: when `my_games` was asked last (monotonic), and the refresh of the list on screen waiting to be asked
        self._games_asked = 0.0
        self._games_timer: asyncio.TimerHandle | None = None

    # ---- main loop ------------------------------------------------------------------------

    async def run(
        self,
        *,
        create: tuple[Any, ...] | None = None,
        join: str | None = None,
        spectate: str | None = None,
        quick: tuple[Any, ...] | None = None,
        replay: str | None = None,
    ) -> int:
        """Show the lobby (or the room asked for, or a re-joined seat) and follow the user's commands."""
        forward = asyncio.create_task(self._forward_lines())
        ticker = asyncio.create_task(self._tick()) if self.console.is_terminal else None
        in_place = self.console.is_terminal
        if in_place and not self.full:
            self.console.set_alt_screen(True)  # the screen is redrawn in place, the shell's screen kept
        said = getattr(self.session, "say", None)
        if in_place and said is not None:
            self.session.say = self._said  # a line printed over the screen would garble it: a notice instead
        try:
            await self.session.watch_lobby()
            if self.session.rooms:
                self.room = next(iter(self.session.rooms))
            if create is not None:
                game, seats, options, bots, *more = create
                await self._create_and_join(game, seats, options, bots, **(more[0] if more else {}))
            elif join:
                await self._open_link(join, spectate=False)
            elif spectate:
                await self._open_link(spectate, spectate=True)
            elif quick is not None:
                await self._quick(*quick)
            elif replay:
                await self._replay_to(public.parse_link(replay)[0], 0)
            else:
                await self._games_at_start()
            for room in list(self.session.rooms):
                self._look(room, signal=False)
            self.show()
            dirty = False
            while True:
                kind, arg = await self.session.events.get()
                if kind == "line":
                    self.shown_notice = ""
                    if arg is None or not await self.on_line(self._typed(str(arg))):
                        return 0
                    dirty = True
                elif kind == "key":  # turning a page keeps the notice
                    await self.on_key(str(arg))
                    dirty = True
                elif kind == "update":
                    updated = self.session.view(str(arg))
                    if updated is not None:  # every version, also those a coalesced redraw skips
                        public.gather_log(self.logs.setdefault(str(arg), {}), updated)
                    dirty = self._look(str(arg)) or dirty or arg == self.room
                    if self.room is None and self.panel == "games" and self.replay is None:
                        self._games_soon()
                elif kind == "games":
                    self._games_timer = None
                    if self.room is None and self.panel == "games" and self.replay is None:
                        await self._load_games()
                        dirty = True
                elif kind == "game_log":
                    room, events = arg
                    shown = self.session.view(room)
                    if shown is not None:
                        public.merge_log(self.logs.setdefault(room, {}), shown, events)
                    dirty = dirty or room == self.room
                elif kind == "lobby":
                    dirty = dirty or (self.room is None and self.replay is None)
                elif kind == "chat":
                    dirty = dirty or (arg == self.room and self.replay is None)
                elif kind == "tick":
                    view = self.session.view(self.room) if self.room else None
                    timed = view and (view.get("clock") or self._countdown(view) is not None)
                    dirty = dirty or bool(timed and self.replay is None)
                    if not self.full and self._size is not None and tuple(self.console.size) != self._size:
                        dirty = True  # the terminal was resized: laid out anew
                elif kind == "push":
                    dirty = self._on_push(arg) or dirty
                elif kind == "closed" and arg is self.session.client:  # skip stale events of replaced clients
                    await self.session.reconnect()
                    dirty = True
                if dirty and self.session.events.empty():  # coalesce a burst of updates into one redraw
                    self.show()
                    dirty = False
        finally:
            self._set_hidden(False)
            if said is not None:
                self.session.say = said
            if self.full:
                await self.prompt.stop()
            elif in_place:
                self.console.set_alt_screen(False)
            forward.cancel()
            if self._games_timer is not None:
                self._games_timer.cancel()
            if ticker is not None:
                ticker.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await forward
            if ticker is not None:
                with contextlib.suppress(asyncio.CancelledError):
                    await ticker

    async def _tick(self) -> None:
        """Once a second on a terminal: the countdown of a running clock is redrawn."""
        while True:
            await asyncio.sleep(1.0)
            self.session.events.put_nowait(("tick", None))

    def _typed(self, raw: str) -> str:
        """A typed line as the commands read it (trimmed); a password's answer keeps its spaces."""
        if self.pending is not None and self.pending[0] in HIDDEN_QUESTIONS:
            return raw.rstrip("\r\n")
        return raw.strip()

    def _set_hidden(self, hidden: bool) -> None:
        """Hide the input (a password is asked) or show it again."""
        if hidden == self.hidden:
            return
        self.hidden = hidden
        if self.prompt is not None:
            self.prompt.set_hidden(hidden)
        elif self.stdin_tty:
            echo_stdin(not hidden)

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
        return [option_label(view or {}, o) for o in room_options(view)]

    def show(self) -> None:
        """Redraw the current screen: the room's view and options, or the lobby and its menu.

        On a terminal the screen is laid out for the terminal's size (`screen`): prompt_toolkit's full screen asks
        for it, else it is drawn in place (cursor home, each line cleared, the rest erased), not printed below the
        last one; elsewhere (a pipe, a test's console) the whole screen is printed.
        """
        if not self.console.is_terminal:
            self.console.clear()
            self._print_screen()
            return
        if self.notice:
            self.shown_notice, self.notice = self.notice, ""
        if self.full:
            self.prompt.refresh()
            return
        width, height = self.console.size
        self._size = (width, height)
        screen = self.screen(width, height - 1)  # the last row for the line typed
        out = self.console.file
        out.write("\x1b[H" + "".join(line + "\x1b[K\n" for line in screen.split("\n")) + "\x1b[J")
        out.flush()

    def key(self, name: str) -> None:
        """A key of the terminal's full screen (`board`: F2, `next`: PgDn, `prev`: PgUp), handled in the loop."""
        self.session.events.put_nowait(("key", name))

    async def on_key(self, name: str) -> None:
        if name == "board":
            self._flip_board()
        elif name in ("next", "prev"):
            self._turn_page(1 if name == "next" else -1)

    def _said(self, message: str) -> None:
        """What the session says (reconnecting, a re-joined room) as the notice on a terminal."""
        self.notice = message
        self.show()

    def _on_room_page(self) -> bool:
        """Whether the room's page of options is on screen (not the board, the whole log, a replay or the lobby)."""
        view = self.session.view(self.room) if self.room else None
        return self.replay is None and view is not None and self.log_shown is None and self.page_of == "moves"

    def _flip_board(self) -> None:
        """F2 or `b`: from the room's page to the board page and back."""
        view = self.session.view(self.room) if self.room else None
        if self.replay is not None or view is None:
            return
        self.log_shown = None
        self.page_of = "moves" if self.page_of == "board" else "board"
        self.screen_page = 1

    def _turn_page(self, step: int) -> None:
        """PgDn or `n` (step 1), PgUp or `p` (-1): the next or previous page of what is on screen (the options, the
        board, the whole log, the lobby, a replay)."""
        if self._on_room_page():
            turned = self._option_next if step > 0 else self._option_prev
            if turned is not None:
                self.option_first = turned
        elif self.room and self.log_shown is not None and self.replay is None:
            self.log_shown = max(1, self.log_shown + step)  # the next page is older
        else:
            self.screen_page = max(1, min(self._screen_pages, self.screen_page + step))

    # ---- the screen on a terminal, laid out for its size ----------------------------------

    def screen(self, width: int, height: int) -> str:
        """The screen at this size: ANSI text of at most `height` lines. A room shows its page of options (whose
        turn, the clock, your resources, the options in pages); every other screen (the board, the whole log, the
        lobby, a replay) is shown in pages, its question and notice under every page."""
        color = self.console.color_system if self.console.is_terminal else None
        draw = Drawer(width, color)
        view = self.session.view(self.room) if self.room else None
        if self._on_room_page() and view is not None:
            return "\n".join(self._room_page(draw, view, height))
        kind = "replay" if self.replay is not None else "log" if self.log_shown is not None and view else "board"
        kind = kind if view is not None or self.replay is not None else "lobby"
        if kind != self._paged:
            self._paged, self.screen_page = kind, 1
        parts = self._screen_parts(height)
        pinned = [line for part in self._pinned() for line in draw.lines(part)]
        if kind == "board":
            pinned += draw.lines(Text(_(BOARD_PAGE_HELP), style="dim"))
        lines, self.screen_page, self._screen_pages = paged(
            draw, draw.lines(Group(*parts)), height, self.screen_page, pinned
        )
        return "\n".join(lines)

    def _pinned(self) -> list[RenderableType]:
        """The question asked and the notice: under every page."""
        out: list[RenderableType] = []
        if self.pending is not None:
            out.append(Text(self._question(), style="bold yellow"))
        if self.shown_notice:
            out.append(Text(self.shown_notice, style="yellow"))
        return out

    def _room_page(self, draw: Drawer, view: dict[str, Any], height: int) -> list[str]:
        """The room's page: the header, whose turn, the clock and your resources always; the options in pages."""
        assert self.room is not None
        public.gather_log(self.logs.setdefault(self.room, {}), view)
        r = renderer_for(view.get("game"))
        top: list[RenderableType | None] = [r.header(view)]
        if view.get("closed") == "moderator":
            top.append(Text(_(MODERATOR_CLOSED).format(message=view.get("closed_message") or ""), style="bold red"))
        if view.get("closed") == "timeout":
            top.append(Text(timeout_sentence(view.get("closed_message")), style="bold red"))
        top.append(self._part(r.turn_block, view))
        rule = rule_text(view)
        top.append(Text(rule) if rule is not None else None)
        countdown = self._countdown(view)
        top.append(Text(countdown, style="bold") if countdown is not None else None)
        top.append(public.clock_line(view))
        url = getattr(self.session, "url", None)
        if view.get("status") == "waiting" and url:
            link = public.invite_link(url, self.room, self.session.invite_of(self.room))
            top.append(Text(_("Invite link: {link}").format(link=link)))
        middle: list[Block] = []
        if view.get("status") == "waiting":
            middle.append(Block(draw.lines(seats_table(view))))
        if view.get("result"):
            middle.append(Block(draw.lines(self._part(r.result, view))))
        middle.append(Block(draw.lines(self._part(r.now, view))))
        if view.get("status") != "waiting":
            middle.append(Block(draw.lines(self._part(r.recent, view)), keep="bottom"))
        middle.append(Block(draw.lines(public.chat_lines(self.chats(self.room))), keep="bottom"))
        question, labels, undo = prompt_parts(view)
        if self._is_my_move(view):
            question = Text.assemble((_("Your move"), "bold reverse"), " ", question)
        key = (self.room, tuple(labels))
        if key != self._options_key:
            self._options_key, self.option_first = key, 0
        after: list[RenderableType | None] = [undo]
        if view.get("you") is None and view.get("status") == "waiting":
            after.append(Text(_("A seat is free: t takes it."), style="bold"))
        if self._rematch_offer():
            after.append(Text(_("A rematch is open: r joins it."), style="bold"))
        bottom = [*self._pinned(), Text(_(MOVES_HELP), style="dim")]
        page = room_page(
            draw,
            height,
            top=top,
            yours=self._part(r.yours, view),
            middle=middle,
            question=question,
            labels=labels,
            after=after,
            bottom=bottom,
            first=self.option_first,
        )
        self.option_first = page.shown[0] if page.shown else 0
        self._option_next, self._option_prev = page.next_first, page.prev_first
        return page.lines

    @staticmethod
    def _part(make: Any, view: dict[str, Any]) -> RenderableType | None:
        """A part of the room's page from the game's renderer (None when the view lacks what it needs)."""
        try:
            return make(view)  # type: ignore[no-any-return]
        except (KeyError, IndexError, TypeError, ValueError, AttributeError):
            return None

    def chats(self, room: str | None) -> list[dict[str, Any]]:
        """The chat lines this connection holds for a room (None: the lobby), oldest first; none of a player blocked
        (lines received before the block, or on their way while it was made)."""
        lines = getattr(self.session.client, "chats", None) or []
        blocked = getattr(self.session, "blocked", None) or {}
        return [c for c in lines if c.get("room") == room and c.get("from") not in blocked]

    def _on_push(self, msg: Any) -> bool:
        """A push that answers no request (v1.2: `closed`, `chat_deleted`); whether the screen must be redrawn."""
        if not isinstance(msg, dict):
            return False
        t, room = msg.get("t"), msg.get("room")
        if t == "chat_deleted":  # the client dropped the line already
            return self.replay is None and room == self.room
        if t == "closed" and msg.get("reason") == "moderator":
            if room != self.room:  # on the room's screen its view says so
                self.notice = _("Room {room} was closed by a moderator: {message}").format(
                    room=room, message=msg.get("message") or ""
                )
            return self.replay is None
        if t == "closed" and msg.get("reason") == "timeout":  # v1.2: a turn-based game's time ran out
            if room != self.room:
                self.notice = _("Room {room}: {sentence}").format(
                    room=room, sentence=timeout_sentence(msg.get("message"))
                )
            return self.replay is None
        return False

    def _print_screen(self) -> None:
        """The whole screen printed (a pipe, a test's console), its question and notice last."""
        for part in self._screen_parts(None):
            self.console.print(part)
        if self.pending is not None:
            self.console.print(Text(self._question(), style="bold yellow"))
        if self.notice:
            self.console.print(Text(self.notice, style="yellow"))
            self.notice = ""

    def _screen_parts(self, height: int | None) -> list[RenderableType]:
        """What the whole screen shows, in order (without the question asked and the notice): a replay, the whole
        log (in pages of what fits `height`), the room's view with everything around it, or the lobby."""
        parts: list[RenderableType] = []
        view = self.session.view(self.room) if self.room else None
        if self.replay is not None:
            parts.append(public.render_replay(self.replay))
            parts.append(Text(_(REPLAY_HELP), style="dim"))
        elif self.room and view is not None and self.log_shown is not None:
            public.gather_log(self.logs.setdefault(self.room, {}), view)
            size = max(5, height - 4) if height is not None else None
            parts.append(public.log_page(self.logs[self.room], self.log_shown, size))
            parts.append(Text(_(LOG_HELP), style="dim"))
        elif self.room and view is not None:
            public.gather_log(self.logs.setdefault(self.room, {}), view)
            parts.append(render_view(view))
            if view.get("closed") == "moderator":
                closed = _(MODERATOR_CLOSED).format(message=view.get("closed_message") or "")
                parts.append(Text(closed, style="bold red"))
            if view.get("closed") == "timeout":
                parts.append(Text(timeout_sentence(view.get("closed_message")), style="bold red"))
            rule = rule_text(view)
            if rule is not None:
                parts.append(Text(rule))
            countdown = self._countdown(view)
            if countdown is not None:
                parts.append(Text(countdown, style="bold"))
            clock = public.clock_line(view)
            if clock is not None:
                parts.append(clock)
            rated = public.ratings_line(view) if view.get("status") != "waiting" else None  # waiting: in the seats
            if rated is not None:
                parts.append(rated)
            url = getattr(self.session, "url", None)
            if view.get("status") != "finished" and url:
                link = public.invite_link(url, self.room, self.session.invite_of(self.room))
                parts.append(Text(_("Invite link: {link}").format(link=link)))
            chat = public.chat_lines(self.chats(self.room))
            if chat is not None:
                parts.append(chat)
            if self._is_my_move(view):
                parts.append(Text(_("Your move"), style="bold reverse"))
            parts.append(render_prompt(view))
            if view.get("you") is None and view.get("status") == "waiting":
                parts.append(Text(_("A seat is free: t takes it."), style="bold"))
            rematch = self._rematch_offer()
            if rematch:
                parts.append(Text(_("A rematch is open: r joins it."), style="bold"))
            parts.append(Text(_(ROOM_HELP), style="dim"))
            parts.append(Text(_(ROOM_MORE), style="dim"))
            parts.append(Text(_(MODERATION_HELP), style="dim"))
            parts.append(Text(_(HOST_HELP), style="dim"))
            parts.append(Text(_(ROOM_TURN_HELP), style="dim"))
        else:
            self.room = None
            client = self.session.client
            self.listed = list(client.lobby) if client is not None else []
            held = [r for r, watching in self.session.rooms.items() if not watching]
            parts.append(render_lobby(self.listed, held))
            if self.panel == "history" and self.history is not None:
                parts.append(public.history_table(self.history))
            elif self.panel == "board" and self.board is not None:
                board = self.board
                parts.append(
                    public.ratings_table(
                        str(board.get("game")),
                        board.get("players") or [],
                        you=self.session.player,
                        offset=int(board.get("offset") or 0),
                        me=board.get("me"),
                        page=int(board.get("page") or 1),
                    )
                )
                parts.append(Text(_(BOARD_HELP), style="dim"))
            elif self.panel == "player" and self.player_page is not None:
                parts.append(public.player_table(self.player_page, you=self.session.player))
            elif self.panel == "devices" and self.devices is not None:
                parts.append(devices_table(self.devices))
            elif self.panel == "signals" and self.signals is not None:
                parts.append(signals_table(self.signals))
            elif self.panel == "games" and self.games is not None:
                parts.append(games_table(self.games))
                if self.games:
                    parts.append(Text(_("open N: play game N of this list"), style="dim"))
            chat = public.chat_lines(self.chats(None))
            if chat is not None:
                parts.append(chat)
            parts.append(Text(_(LOBBY_MENU), style="bold"))
            parts.append(Text(_(LOBBY_MORE), style="dim"))
            parts.append(Text(_(TURN_HELP), style="dim"))
            parts.append(Text(_(MODERATION_HELP), style="dim"))
            welcome = getattr(self.session, "welcome", None) or {}
            name = str(welcome.get("name") or getattr(self.session, "name", ""))
            account = _(ACCOUNT_HELP) if welcome.get("account") else _(GUEST_HELP)
            parts.append(Text(account.format(name=name), style="dim"))
            if welcome.get("account"):
                parts.append(Text(_(ACCOUNT_MORE), style="dim"))
                parts.append(Text(_(NOTIFY_HELP), style="dim"))
        return parts

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
        if what == "password_old":
            return _("Your current password (hidden; Enter cancels):")
        if what == "password_new":
            return _("The new password (hidden):")
        if what == "password_again":
            return _("The same new password again:")
        if what == "delete_password":
            return _("Deleting the account {name} cannot be undone. Its password (hidden; Enter cancels):").format(
                name=self._account_name()
            )
        if what == "delete_confirm":
            return _(DELETE_CONFIRM).format(name=self._account_name())
        return _("Number of the room to join (Enter to cancel):")

    # ---- commands -------------------------------------------------------------------------

    async def on_line(self, line: str) -> bool:
        """Handle one typed line; False means quit."""
        try:
            if self.pending is not None:
                if self.pending[0] in ACCOUNT_QUESTIONS:
                    return await self._account_answer(line)
                await self._answer(line)
                return True
            words = " ".join(line.lower().split())
            if words == "sign out" or words.startswith("sign out "):
                return await self._sign_out(words.removeprefix("sign out").strip())
            if words == "devices" and self.replay is None and self.room is None:
                await self._list_devices()
                return True
            if words in ("password", "delete account") and self.replay is None:
                self._ask_account("password_old" if words == "password" else "delete_password")
                return True
            if words in ("bell", "bell on", "bell off"):
                self.bell = words != "bell off" if words != "bell" else not self.bell
                self.notice = _("The bell rings when it becomes your move.") if self.bell else _("The bell is off.")
                return True
            if words in ("games", "my games") and self.replay is None:
                await self._show_games()
                return True
            if (words == "notify" or words.startswith("notify ")) and self.replay is None:
                await self._notify(line.strip()[len("notify") :])
                return True
            if self.replay is not None:
                return await self._replay_command(line)
            if line.lower().startswith("say "):
                text = line[4:].strip()
                if text:
                    await self.session.c.chat(text, room=self.room)
                return True
            if await self._moderation_command(line):
                return True
            if self.room is not None and self.log_shown is not None:
                word, _sep, rest = line.partition(" ")
                if word.lower() in ("n", "next", "p", "prev", "previous"):
                    self._turn_page(1 if word.lower() in ("n", "next") else -1)
                    return True
                self.log_shown = int(rest) if word == "log" and rest.strip().isdigit() else None
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
        finally:
            self._set_hidden(self.pending is not None and self.pending[0] in HIDDEN_QUESTIONS)
        return True

    # ---- turn-based play, the turn signal, quick match's bots (v1.2) ------------------------

    @staticmethod
    def _is_my_move(view: dict[str, Any] | None) -> bool:
        """Whether the viewer holds a seat of the room and its prompt has options now."""
        return view is not None and view.get("you") is not None and bool(room_options(view))

    def prompt_status(self) -> str:
        """What the input line says before the `>` (prompt_toolkit): "Your move" when it is, else nothing."""
        view = self.session.view(self.room) if self.room and self.replay is None else None
        return _("Your move") if self._is_my_move(view) else ""

    def _look(self, room: str, *, signal: bool = True) -> bool:
        """Note whether it is the player's move in `room`; when it has just become so (`signal`), ring the bell for
        the room on screen, or say so for a room held elsewhere. Whether the screen must be redrawn."""
        view = self.session.view(room)
        if view is None:
            return False
        now = self._is_my_move(view)
        before = self.my_move.get(room)
        self.my_move[room] = now
        if not signal or before is None or before or not now:
            return False
        if room == self.room and self.replay is None:
            self._ring()
            return False
        if self.session.rooms.get(room) is False:  # a seat held in a room not on screen
            self.notice = _("It is your move in room {room}: games lists your games.").format(room=room)
            return True
        return False

    def _ring(self) -> None:
        """The terminal's bell, once (not with `bell off` or `--no-bell`)."""
        if not self.bell:
            return
        if self.full:
            self.prompt.bell()
            return

        def ring() -> None:
            out = self.console.file
            out.write(BELL)
            out.flush()

        if self.prompt is not None:
            self.prompt.draw(ring)
        else:
            ring()

    def _countdown(self, view: dict[str, Any]) -> str | None:
        """The line counting down to the bots of a waiting quick-match room the player sits in, or None: from the
        view's `fill_at` when the server gives it, else from the `fill_bots_after` this client asked for."""
        if view.get("status") != "waiting" or view.get("you") is None:
            return None
        fill_at = view.get("fill_at")
        if isinstance(fill_at, int) and not isinstance(fill_at, bool):
            due, exact = float(fill_at), True
        elif str(view.get("room")) in self.fill_due:
            due, exact = self.fill_due[str(view.get("room"))]
        else:
            return None
        return countdown_text((due - time.time() * 1000) / 1000, exact=exact)

    async def _start(self) -> None:
        """`start`: the room's host starts the waiting game now, server bots in the empty seats (`host` `start`)."""
        assert self.room is not None
        view = self.session.view(self.room) or {}
        if view.get("status") != "waiting":
            self.notice = _("The game has started already.")
            return
        if view.get("you") is None:
            self.notice = _("Take a seat first (t): only the room's host can start it.")
            return
        try:
            await self.session.c.host(self.room, "start")
        except ServerError as err:
            if err.code != "forbidden":
                raise
            self.notice = _(
                "Only the room's host (the player who opened it) can start it now; the bots come when its time runs "
                "out."
            )
            return
        self.notice = _("Started now: server bots took the empty seats.")

    async def _games_at_start(self) -> None:
        """At start (no room asked for): when it is the player's turn in some game, "My games" is shown."""
        try:
            await self._load_games(quiet=True)
        except CONNECTION_ERRORS:
            return
        mine = [r for r in self.games or [] if r.get("your_turn")]
        if not mine:
            return
        self.room = None
        self.panel = "games"
        self.notice = (
            _("It is your move in one of your games: open N plays it.")
            if len(mine) == 1
            else _("It is your move in {n} of your games: open N plays one.").format(n=len(mine))
        )

    async def _load_games(self, *, quiet: bool = False) -> None:
        """Ask for the player's games (`my_games`), the player's turn first."""
        self._games_asked = time.monotonic()
        try:
            rows = await self.session.c.my_games()
        except ServerError as err:
            if not quiet:
                raise
            if err.code == "unknown_type":
                self.games = None
            return
        self.games = urgent_first(rows)

    async def _show_games(self) -> None:
        """`games`: the lobby with "My games" under its rooms (a room on screen stays held)."""
        await self._load_games()
        self.room = None
        self.log_shown = None
        self.panel = "games"

    def _games_soon(self) -> None:
        """Ask for the list on screen again soon (at most once a second) after one of the games changed."""
        if self._games_timer is not None:
            return
        delay = max(0.0, self._games_asked + GAMES_REFRESH - time.monotonic())
        loop = asyncio.get_running_loop()
        self._games_timer = loop.call_later(delay, self.session.events.put_nowait, ("games", None))

    async def _open_game(self, n: int) -> None:
        """`open N` after `games`: enter game N of that list (the seat held)."""
        if not self.games or not 1 <= n <= len(self.games):
            self.notice = _("There is no game {n} in your list (games shows it).").format(n=n)
            return
        await self._enter(str(self.games[n - 1]["room"]), spectate=False)

    async def _create_command(self, rest: str) -> None:
        """`create GAME SEATS [--turn-based [DAYS]] [--on-expiry wait|bot|end] [--bank TIME] [--bots N] [--private]`
        in one line (`--bank`, v1.2: each player's time bank, as a turn's time: `1` day, `12h`; 0 none)."""
        tokens = rest.split()
        positional: list[str] = []
        turn: int | None = None
        expiry: str | None = None
        bank: int | None = None
        bots = 0
        private = False
        usage = _("Usage: {usage}").format(usage=CREATE_USAGE)
        i = 0
        try:
            while i < len(tokens):
                tok = tokens[i]
                low = tok.lower()
                nxt = tokens[i + 1] if i + 1 < len(tokens) else None
                if low in ("--turn-based", "turn-based", "--turn"):
                    days = ""
                    if nxt is not None and (nxt[:1].isdigit() or nxt[:1] == "."):
                        days, i = nxt, i + 1
                    turn = parse_turn(days)
                elif low.startswith("--turn-based="):
                    turn = parse_turn(tok.partition("=")[2])
                elif low in ("--on-expiry", "on-expiry") or low.startswith("--on-expiry="):
                    value = low.partition("=")[2] if "=" in low else (nxt or "").lower()
                    if "=" not in low:
                        i += 1
                    if value not in ON_EXPIRY:
                        self.notice = _("--on-expiry is wait, bot or end.") + " " + usage
                        return
                    expiry = value
                elif low in ("--bank", "--time-bank") or low.startswith(("--bank=", "--time-bank=")):
                    value = tok.partition("=")[2] if "=" in low else (nxt or "")
                    if "=" not in low:
                        i += 1
                    bank = parse_bank(value)
                elif low == "--bots" and nxt is not None and nxt.isdigit():
                    bots, i = int(nxt), i + 1
                elif low == "--private":
                    private = True
                elif tok.startswith("-") or len(positional) >= 2:
                    self.notice = _("Unknown command {line}.").format(line=repr(tok)) + " " + usage
                    return
                else:
                    positional.append(tok)
                i += 1
        except ValueError as err:
            self.notice = str(err)
            return
        game = positional[0] if positional else "expedition"
        if len(positional) > 1 and not positional[1].isdigit():
            self.notice = _("{line} is not a number of seats.").format(line=repr(positional[1]))
            return
        seats = int(positional[1]) if len(positional) > 1 else 3
        if not 0 <= bots < seats:
            self.notice = _("{line} is not a number of bots from 0 to {n}.").format(line=repr(str(bots)), n=seats - 1)
            return
        if expiry is not None and turn is None:
            self.notice = _("--on-expiry goes with --turn-based.") + " " + usage
            return
        if bank and turn is None:
            self.notice = _("--bank goes with --turn-based.") + " " + usage
            return
        fields: dict[str, Any] = {"public": not private}
        if turn is not None:
            fields.update(turn_seconds=turn, mode="turn_based", on_expiry=expiry or "wait")
        if bank:
            fields["time_bank_seconds"] = bank
        await self._create_and_join(game, seats, {}, bots, **fields)

    # ---- moderation (v1.2) ------------------------------------------------------------------

    async def _moderation_command(self, line: str) -> bool:
        """`block NAME`, `unblock NAME`, `blocked`, `report NAME REASON…`, `mute SEAT|NAME`, `unmute SEAT|NAME`;
        False when the line is none of them."""
        word, _sep, rest = line.partition(" ")
        word, rest = word.lower(), " ".join(rest.split())
        if word == "blocked" and not rest:
            await self._list_blocked()
        elif word == "block":
            await self._block(rest)
        elif word == "unblock":
            await self._unblock(rest)
        elif word == "report":
            await self._report(rest)
        elif word in ("mute", "unmute"):
            await self._mute(word, rest)
        else:
            return False
        return True

    def _learn_speakers(self) -> None:
        """Remember who wrote the chat lines held (player id -> name)."""
        for c in getattr(self.session.client, "chats", None) or []:
            if c.get("from") and c.get("name"):
                self.speakers[str(c["from"])] = str(c["name"])

    @staticmethod
    def _bare(name: str) -> str:
        """A name as typed or shown, compared loosely: without the marks the screen adds ((guest), (you), (muted))."""
        text = folded(name)
        marks = {
            folded(m)
            for m in ("(guest)", "(you)", "(muted)", "(late)", _("(guest)"), _("(you)"), _("(muted)"), _("(late)"))
        }
        changed = True
        while changed:
            changed = False
            for mark in marks:
                if text.endswith(" " + mark):
                    text = text[: -len(mark) - 1].rstrip()
                    changed = True
        return text

    def _candidates(self, name: str, among: dict[str, str | None] | None = None) -> dict[str, str]:
        """The players called `name` (player id -> the name shown) among the chat's writers (or `among`)."""
        want = self._bare(name)
        if among is None:
            self._learn_speakers()
            among = dict(self.speakers)
        return {pid: str(shown) for pid, shown in among.items() if shown and self._bare(str(shown)) == want}

    async def _learn_from_log(self) -> None:
        """Ask for the chat log of the screen's room (or the lobby) and remember its writers."""
        try:
            log = await self.session.c.chat_log(self.room)
        except ServerError:
            return
        for c in log:
            if c.get("from") and c.get("name"):
                self.speakers[str(c["from"])] = str(c["name"])

    def _seated(self, name: str) -> bool:
        """Whether a seat of the room on screen shows that name."""
        view = self.session.view(self.room) if self.room else None
        seats = (view or {}).get("seats") or []
        return any(s.get("name") and self._bare(str(s["name"])) == self._bare(name) for s in seats)

    def _one_player(self, name: str, found: dict[str, str]) -> tuple[str, str] | None:
        """The one player `found` for `name` (id, name), else None with the reason in the notice."""
        others = {pid: shown for pid, shown in found.items() if pid != self.session.player}
        if not others and found:
            self.notice = _("That is you.")
        elif not others and self._seated(name):
            self.notice = _(
                "{name} holds a seat here but has written nothing in the chat, so this client cannot tell who that "
                "is (the server shows no player ids)."
            ).format(name=name)
        elif not others:
            self.notice = _("Nobody called {name} is in the chat or the seats here.").format(name=name)
        elif len(others) > 1:
            self.notice = _(
                "More than one player called {name} wrote in the chat: this client cannot tell which one you mean."
            ).format(name=name)
        else:
            return next(iter(others.items()))
        return None

    async def _find_player(self, name: str) -> tuple[str, str] | None:
        """A player by a name shown in the chat (or seated and known by a chat line of the room's log)."""
        found = self._candidates(name)
        if not [pid for pid in found if pid != self.session.player]:
            await self._learn_from_log()
            found = self._candidates(name)
        return self._one_player(name, found)

    async def _block(self, name: str) -> None:
        if not name:
            self.notice = _("Name the player: {usage}").format(usage="block NAME")
            return
        hit = await self._find_player(name)
        if hit is None:
            return
        pid, shown = hit
        await self.session.block(pid, shown)
        self.notice = _("Blocked {name}: you will see none of their chat lines.").format(name=shown)

    async def _unblock(self, name: str) -> None:
        if not name:
            self.notice = _("Name the player: {usage}").format(usage="unblock NAME")
            return
        await self.session.blocks()
        found = self._candidates(name, self.session.blocked) or {
            pid: shown for pid, shown in self._candidates(name).items() if pid in self.session.blocked
        }
        if not found:
            self.notice = _("You do not block anybody called {name}.").format(name=name)
            return
        hit = self._one_player(name, found)
        if hit is None:
            return
        pid, shown = hit
        await self.session.unblock(pid)
        await self._refresh_chat()
        self.notice = _("Unblocked {name}: their chat lines show again.").format(name=shown)

    async def _refresh_chat(self) -> None:
        """The chat of the screen's room (or the lobby) read again: the lines of a player just unblocked show."""
        client = self.session.client
        if client is None:
            return
        try:
            log = await client.chat_log(self.room)
        except ServerError:
            return
        room = self.room
        ids = {c.get("line") for c in log}
        last = max((int(c.get("at") or 0) for c in log), default=0)
        others = [c for c in client.chats if c.get("room") != room]
        # lines pushed while the log was read, not in it yet
        newer = [c for c in client.chats if c.get("room") == room and c.get("line") not in ids]
        newer = [c for c in newer if int(c.get("at") or 0) >= last]
        client.chats[:] = others + [{**c, "room": room} for c in log] + newer

    async def _list_blocked(self) -> None:
        players = await self.session.blocks()
        if not players:
            self.notice = _("You block nobody.")
            return
        names = ", ".join(str(p.get("name") or _("(no name known)")) for p in players)
        self.notice = _("You block: {names}").format(names=names)

    async def _report(self, rest: str) -> None:
        """`report NAME REASON…`: the longest run of first words that names a player, the rest the reason."""
        words = rest.split()
        if len(words) < 2:
            self.notice = _("Name the player and say why: {usage}").format(usage="report NAME REASON")
            return
        hit: tuple[str, str] | None = None
        for attempt in range(2):
            for k in range(len(words) - 1, 0, -1):
                found = self._candidates(" ".join(words[:k]))
                if [pid for pid in found if pid != self.session.player]:
                    hit = self._one_player(" ".join(words[:k]), found)
                    if hit is None:
                        return
                    reason = " ".join(words[k:])
                    break
            if hit is not None or attempt:
                break
            await self._learn_from_log()
        if hit is None:
            self._one_player(words[0], self._candidates(words[0]))
            return
        pid, shown = hit
        await self.session.report(pid, reason, self.room)
        self.notice = _("Reported {name} to the moderators.").format(name=shown)

    async def _mute(self, action: str, what: str) -> None:
        """`mute SEAT|NAME`, `unmute SEAT|NAME`: the room's host silences (or frees) a seat's chat in the room."""
        view = self.session.view(self.room) if self.room else None
        if self.room is None or view is None:
            self.notice = _("mute and unmute are for the host of the room on screen: open the room first.")
            return
        if not what:
            self.notice = _("Name the seat: {usage}").format(usage=f"{action} SEAT|NAME")
            return
        seats = view.get("seats") or []
        if what.isdigit():
            seat = int(what) - 1
            if not 0 <= seat < len(seats):
                self.notice = _("Choose a seat from 1 to {n}.").format(n=len(seats))
                return
        else:
            hits = [i for i, s in enumerate(seats) if s.get("name") and self._bare(str(s["name"])) == self._bare(what)]
            if not hits:
                self.notice = _("No seat of this room is called {name}.").format(name=what)
                return
            seat = hits[0]
        name = str(seats[seat].get("name") or _("seat {n}").format(n=seat + 1))
        try:
            await self.session.c.host(self.room, action, seat=seat)
        except ServerError as err:
            if err.code == "forbidden" and view.get("status") == "finished":
                self.notice = _("The game is over: there is no chat to mute any more.")
            elif err.code == "forbidden":
                self.notice = _("Only the room's host can mute or unmute a seat.")
            elif err.code == "bad_message":
                self.notice = _("Choose a seat another person holds (not a server bot, not your own).")
            else:
                raise
            return
        done = _("Muted {name}: their chat in this room is refused.") if action == "mute" else _("Unmuted {name}.")
        self.notice = done.format(name=name)

    # ---- the account (v1.2) ----------------------------------------------------------------

    async def _list_devices(self) -> None:
        try:
            self.devices = await self.session.c.devices()
            self.panel = "devices"
        except ServerError as err:
            self.notice = account_sentence("devices", err.code, err.message)

    async def _notify(self, rest: str) -> None:
        """`notify [email ADDRESS|off] [webhook URL|off] [delay MINUTES] [secret] [push off]`: show the account's
        turn signals, changed as asked (shown in the lobby)."""
        if not self.session.account:
            self.notice = _(GUESTS_CANNOT)
            return
        try:
            fields = parse_notify(rest)
        except ValueError as err:
            self.notice = str(err)
            return
        try:
            self.signals = await self.session.c.notify(**fields)
        except ServerError as err:
            if err.code not in ("bad_message", "forbidden"):
                raise
            # why the server refused an address (its shape, where it leads, no SMTP server) is in its message
            said = _("The server said: {message}").format(message=err.message)
            self.notice = error_sentence(err.code, err.message) + " " + said
            return
        self.room = None
        self.log_shown = None
        self.panel = "signals"
        if fields:
            self.notice = _("Saved: your turn signals.")

    def _account_name(self) -> str:
        return str(self.session.welcome.get("name") or self.session.name)

    def _ask_account(self, question: str) -> None:
        """Start `password` or `delete account`: a guest is told only an account can; an account is asked."""
        if not self.session.account:
            self.notice = _(GUESTS_CANNOT)
            return
        self.pending = (question, None)

    async def _account_answer(self, line: str) -> bool:
        """The answers of `password` (the current password, the new one twice) and `delete account` (its password,
        then its name to confirm). False: the account is deleted and the client signed out (quit)."""
        assert self.pending is not None
        what, data = self.pending
        self.pending = None
        if what in HIDDEN_QUESTIONS and not line:
            self.notice = _("Cancelled: no password was given.")
            return True
        if what == "password_old":
            self.pending = ("password_new", line)
        elif what == "password_new":
            self.pending = ("password_again", (data, line))
        elif what == "password_again":
            old, new = data
            if line != new:
                self.notice = _("The two passwords differ; nothing was sent.")
                return True
            try:
                await self.session.change_password(old, new)
            except AuthError as err:
                self.notice = account_sentence(CHANGE_PASSWORD, err.code, err.message)
                return True
            self.notice = _("Password changed. Every other device of the account is signed out; this one stays.")
            if self.panel == "devices":
                await self._list_devices()
        elif what == "delete_password":
            self.pending = ("delete_confirm", line)
        elif what == "delete_confirm":
            name = self._account_name()
            if folded(line) != folded(name):
                self.notice = _("Nothing was deleted.")
                return True
            try:
                await self.session.delete_account(str(data))
            except AuthError as err:
                self.notice = account_sentence(DELETE_ACCOUNT, err.code, err.message)
                return True
            self.farewell = _("The account {name} is deleted and this client is signed out.").format(name=name)
            return False
        return True

    async def _sign_out(self, what: str) -> bool:
        """`sign out` (this device; quits), `sign out everywhere` (every device; quits), `sign out N` (device N
        of the list `devices` showed; this device stays)."""
        if what.isdigit():
            if not self.devices or not 1 <= int(what) <= len(self.devices):
                self.notice = _("Type devices first, then sign out N with a number from that list.")
                return True
            device = self.devices[int(what) - 1]
            if not device.get("current"):
                try:
                    await self.session.c.sign_out(device=str(device["id"]))
                except ServerError as err:
                    self.notice = account_sentence("sign_out", err.code, err.message)
                else:
                    self.notice = _("Signed the device {device} out of the account.").format(
                        device=device.get("device")
                    )
                await self._list_devices()
                return True
            what = ""
        if what not in ("", "everywhere"):
            self.notice = _("Unknown command {line}.").format(line=repr("sign out " + what))
            return True
        name = str(self.session.welcome.get("name") or self.session.name)
        try:
            await self.session.sign_out(everywhere=what == "everywhere")
        except AuthError as err:
            self.notice = account_sentence(err.request, err.code, err.message)
            return True
        done = _("Signed every device out of the account {name}.") if what else _("Signed out of {name}.")
        self.farewell = done.format(name=name)
        return False

    async def _lobby_command(self, line: str) -> bool:
        word, _sep, rest = line.partition(" ")
        word = word.lower()
        if word in ("1", "c", "create"):
            if rest.strip():
                await self._create_command(rest)
            else:
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
        elif word in ("quick", "play", "p"):
            args = rest.split()
            try:
                seats = int(args[1]) if len(args) > 1 else 2
            except ValueError:
                self.notice = _("{line} is not a number of seats.").format(line=repr(args[1]))
                return True
            try:
                fill = int(args[2]) if len(args) > 2 else QUICK_FILL_SECONDS
                if not 0 <= fill <= 86400:
                    raise ValueError(fill)
            except ValueError:
                self.notice = _("{line} is not a number of seconds before the bots come (0 to 86400).").format(
                    line=repr(args[2])
                )
                return True
            await self._quick(args[0] if args else "expedition", seats, QUICK_TURN_SECONDS, fill or None)
        elif word in ("open", "link"):
            what = rest.strip()
            if what.isdigit() and self.games is not None:
                await self._open_game(int(what))
            elif what:
                await self._open_link(what, spectate=False)
        elif word in ("h", "history"):
            self.history = await self.session.c.history(rest.strip() or None)
            self.panel = "history"
        elif word == "replay":
            await self._replay_pick(rest.strip())
        elif word == "ratings":
            await self._ratings(rest)
        elif word in ("next", "prev", "previous"):
            if self.board is None:
                self.notice = _("Type ratings GAME first (next and prev then turn its pages).")
            elif word == "next":
                await self._board_page(str(self.board["game"]), int(self.board.get("page") or 1) + 1)
            elif int(self.board.get("page") or 1) <= 1:
                self.notice = _("This is the first page of the leaderboard.")
                self.panel = "board"
            else:
                await self._board_page(str(self.board["game"]), int(self.board.get("page") or 1) - 1)
        elif word in ("player", "me"):
            await self._player("me" if word == "me" else rest)
        else:
            self.notice = _("Unknown command {line}.").format(line=repr(line)) + " " + _(LOBBY_MENU)
        return True

    # ---- the leaderboard and players' pages (v1.2) -----------------------------------------

    async def _ratings(self, rest: str) -> None:
        """`ratings [GAME] [page N | N]`: that page of the game's leaderboard (default: the game shown last, or
        expedition; page 1)."""
        words = rest.split()
        page = 1
        if words and words[-1].isdigit():
            page = int(words.pop())
            if words and words[-1].lower() == "page":
                words.pop()
        game = words[0] if words else str(self.board["game"]) if self.board is not None else "expedition"
        await self._board_page(game, max(1, page))

    async def _board_page(self, game: str, page: int) -> None:
        size = self.board_size
        answer = await self.session.c.ratings_page(game, offset=(page - 1) * size, limit=size)
        self.panel = "board"
        if not answer.get("players") and page > 1 and self.board is not None and self.board.get("game") == game:
            self.notice = _("The leaderboard of {game} has no page {page}.").format(game=game, page=page)
            return  # the page shown stays
        self.board = {**answer, "page": page}

    def _board_rows(self) -> list[dict[str, Any]]:
        """The rows of the leaderboard page shown last, and the player's own row."""
        if self.board is None:
            return []
        rows = list(self.board.get("players") or [])
        me = self.board.get("me")
        return rows + [me] if isinstance(me, dict) else rows

    async def _player(self, what: str) -> None:
        """`player N` (the row ranked N on the leaderboard shown), `player NAME` (a name on it) or `me`: that
        player's page."""
        what = " ".join(what.split())
        if not what or what.lower() == "me":
            pid = self.session.player
        else:
            number = what.removeprefix("#")
            offset = int((self.board or {}).get("offset") or 0)
            rows = self._board_rows()
            if number.isdigit():
                hits = [r for i, r in enumerate(rows, offset + 1) if int(r.get("rank") or i) == int(number)]
            else:
                hits = [r for r in rows if folded(str(r.get("name"))) == folded(what)]
            if not hits:
                shown = f"#{number}" if number.isdigit() else repr(what)
                self.notice = _(
                    "There is no {what} on the leaderboard shown: type ratings GAME first (next and prev turn its "
                    "pages), then player N or player NAME."
                ).format(what=shown)
                return
            pid = str(hits[0].get("player"))
        if pid is None:
            return
        self.player_page = await self.session.c.player_page(pid)
        self.panel = "player"

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

    async def _create_and_join(
        self, game: str, seats: int, options: dict[str, Any], bots: int | list[str] = 0, **fields: Any
    ) -> None:
        room = await self.session.create(game, seats, options, bots=bots, **fields)
        self.notice = _("Created room {room}.").format(room=room)
        await self._enter(room, spectate=False)

    async def _enter(self, room: str, *, spectate: bool) -> None:
        seat = await self.session.join(room, spectate=spectate)
        self.room = room
        self.page_of = "moves"
        self._look(room, signal=False)
        self.notice = (self.notice + " " if self.notice else "") + (
            _("Watching room {room}.").format(room=room)
            if seat is None
            else _("Seated at seat {n} in room {room}.").format(n=seat + 1, room=room)
        )

    # ---- public lobbies: quick match, links, rematch, replays ------------------------------

    async def _quick(
        self, game: str, seats: int, turn_seconds: int | None = None, fill_bots_after: int | None = None
    ) -> None:
        asked = time.time() * 1000
        room, seat = await self.session.quick_match(
            game, seats, turn_seconds=turn_seconds, fill_bots_after=fill_bots_after
        )
        self.room = room
        self.history = self.board = None
        self.notice = _("Quick match: seat {n} in room {room}.").format(n=(seat or 0) + 1, room=room)
        view = self.session.view(room) or {}
        if fill_bots_after and view.get("status") == "waiting":
            # the view does not say when the bots come: counted from the quick match's answer. Alone in the room,
            # this quick match most likely opened it now; with others seated it is older, so the bots come sooner
            others = [i for i, s in enumerate(view.get("seats") or []) if s.get("taken") and i != view.get("you")]
            self.fill_due[room] = (asked + fill_bots_after * 1000, not others)
        self._look(room, signal=False)

    async def _open_link(self, link: str, *, spectate: bool) -> None:
        """Open a pasted link or room id: a free seat of a waiting room, else watch it."""
        try:
            room, invite = public.parse_link(link)
        except ValueError:
            self.notice = _("There is no room {line} in the list.").format(line=repr(link))
            return
        self.session.keep_invite(room, invite)
        if spectate:
            await self._enter(room, spectate=True)
            return
        try:
            await self._enter(room, spectate=False)
        except ServerError as err:
            if err.code != "room_full":
                raise
            await self._enter(room, spectate=True)

    def _rematch_offer(self) -> str | None:
        """The rematch room another player opened for the room on screen (from the `rematch` push)."""
        pushes = getattr(self.session.client, "pushes", None) or []
        if self.room is None:
            return None
        offers = [p for p in pushes if p.get("t") == "rematch" and p.get("room") == self.room]
        return str(offers[-1]["new"]) if offers else None

    async def _replay_pick(self, what: str) -> None:
        if what.isdigit() and self.history and 1 <= int(what) <= len(self.history):
            await self._replay_to(str(self.history[int(what) - 1]["room"]), 0)
        elif what:
            await self._replay_to(public.parse_link(what)[0], 0)
        else:
            self.notice = _("Type history first, then replay N.")

    async def _replay_to(self, room: str, v: int) -> None:
        last = self.replay["last"] if self.replay is not None and self.replay.get("room") == room else None
        if last is not None:
            v = max(0, min(int(last), v))
        self.replay = await self.session.c.replay(room, v)

    async def _replay_command(self, line: str) -> bool:
        assert self.replay is not None
        word, _sep, rest = line.lower().partition(" ")
        room, v, last = str(self.replay["room"]), int(self.replay["v"]), int(self.replay["last"])
        if word in ("q", "quit", "exit"):
            return False
        if word in ("l", "lobby", "leave"):
            self.replay = None
            return True
        target = {
            "f": 0,
            "first": 0,
            "b": v - 1,
            "back": v - 1,
            "": v + 1,
            "n": v + 1,
            "forward": v + 1,
            "e": last,
            "last": last,
        }.get(word)
        if target is None:
            number = rest if word in ("g", "go") else word
            try:
                target = int(number)
            except ValueError:
                self.notice = _("Unknown command {line}.").format(line=repr(line)) + " " + _(REPLAY_HELP)
                return True
        await self._replay_to(room, target)
        return True

    async def _undo(self) -> None:
        """`u` / `undo` (v1.2): take back the choices of this turn while the prompt offers it; sent with the version
        of the view held, so it never applies twice (`stale`: the view is synced and shown again)."""
        assert self.room is not None
        view = self.session.view(self.room) or {}
        if not (view.get("prompt") or {}).get("undo"):
            self.notice = _("There is nothing of this turn to take back now.")
            return
        try:
            await self.session.c.undo(self.room)
        except ServerError as err:
            if err.code not in ("illegal_move", "stale"):
                raise
            if err.code == "stale":
                await self.session.c.sync(self.room)
            self.notice = _("Your choices were not taken back ({why}); here is the current view.").format(
                why=error_sentence(err.code, err.message)
            )
        else:
            self.notice = _("You took back what you chose this turn.")

    async def _room_command(self, line: str) -> bool:
        assert self.room is not None
        word = line.lower()
        if word in ("q", "quit", "exit"):
            return False
        if word in ("b", "board") or (word == "" and self.page_of == "board"):
            self._flip_board()
            return True
        if word in ("n", "next", "p", "prev", "previous"):
            self._turn_page(1 if word in ("n", "next") else -1)
            return True
        if word in ("t", "take"):
            await self._enter(self.room, spectate=False)
            return True
        if word == "start":
            await self._start()
            return True
        verb, _sep, what = line.partition(" ")
        if verb.lower() == "open" and what.strip():  # another game of `games`, or a room's link
            if what.strip().isdigit() and self.games is not None:
                await self._open_game(int(what.strip()))
            else:
                await self._open_link(what.strip(), spectate=False)
            return True
        if word in ("r", "rematch"):
            offer = self._rematch_offer()
            new = offer or await self.session.rematch(self.room)
            await self._enter(new, spectate=False)
            return True
        if word == "replay":
            await self._replay_to(self.room, 0)
            return True
        if word in ("u", "undo"):
            await self._undo()
            return True
        if word == "log":
            self.log_shown = 1
            self.page_of = "moves"
            return True
        if word in ("s", "sync"):
            await self.session.c.sync(self.room)
            return True
        if word in ("l", "leave"):
            self.page_of = "moves"
            room, self.room = self.room, None
            await self.session.leave(room)
            await self.session.c.request("list_rooms")
            self.notice = _("Left room {room}.").format(room=room)
            return True
        view = self.session.view(self.room) or {}
        options = room_options(view)
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
            self.page_of = "moves"  # from the board page too: the move's outcome is on the room's page
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
