"""The interactive terminal client on a real terminal: a prompt_toolkit full-screen application.

Owns: the terminal's screen (the client's screen drawn above the input line at the terminal's size, drawn again when
the terminal is resized), reading lines (history kept in ~/.marcopolo/history, completion of the commands and of the
current prompt's option numbers, each shown with its words), the keys that turn pages (F2: the board, PgDn and PgUp:
the next and previous page), a hidden mode for a password asked in the lobby (`*` for each character, no completion,
the line kept in no history), the bell, and the line's prompt saying "Your move" when it is the player's move in the
room on screen. Must not: act on a line or a key, or compose the screen; the lines go to the same queue as
`stdin_lines` fills, the keys to the caller's `set_keys`, and the screen comes from its `set_screen`.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from prompt_toolkit.application import Application
from prompt_toolkit.buffer import Buffer
from prompt_toolkit.completion import CompleteEvent, Completer, Completion, DynamicCompleter
from prompt_toolkit.document import Document
from prompt_toolkit.filters import Condition
from prompt_toolkit.formatted_text import ANSI, StyleAndTextTuples, to_formatted_text
from prompt_toolkit.history import FileHistory, History, InMemoryHistory
from prompt_toolkit.input import Input
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.layout import Float, FloatContainer, HSplit, Layout, VSplit, Window
from prompt_toolkit.layout.controls import BufferControl, FormattedTextControl
from prompt_toolkit.layout.menus import CompletionsMenu
from prompt_toolkit.layout.processors import ConditionalProcessor, PasswordProcessor
from prompt_toolkit.output import Output

#: the words of the lobby and room commands, offered by completion
COMMANDS = (
    "create",
    "join",
    "spectate",
    "refresh",
    "quit",
    "sync",
    "leave",
    "quick",
    "open",
    "history",
    "replay",
    "ratings",
    "say",
    "take",
    "rematch",
    "log",
    "devices",
    "sign out",
    "sign out everywhere",
    "password",
    "delete account",
    "player",
    "me",
    "next",
    "prev",
    "games",
    "start",
    "bell on",
    "bell off",
    "undo",
    "board",
)


#: seconds after a resize when the whole terminal is drawn again
REPAINT_AFTER_RESIZE = 0.25


class ChoiceCompleter(Completer):
    """Completes command words and, in a room, the prompt's option numbers with their words as meta."""

    def __init__(self, choices: Callable[[], list[str]]) -> None:
        self.choices = choices

    def get_completions(self, document: Document, complete_event: CompleteEvent) -> Iterator[Completion]:
        word = document.text_before_cursor.strip().lower()
        for i, label in enumerate(self.choices(), 1):
            if str(i).startswith(word):
                yield Completion(str(i), start_position=-len(word), display_meta=label)
        if word and not word.isdigit():
            for cmd in COMMANDS:
                if cmd.startswith(word):
                    yield Completion(cmd, start_position=-len(word))


def default_history() -> History:
    """The input history file (in memory when the folder cannot be made)."""
    folder = Path.home() / ".marcopolo"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        return FileHistory(str(folder / "history"))
    except OSError:
        return InMemoryHistory()


class KeptUnlessHidden(History):
    """A history that keeps no line typed while `hidden()` is true (a password), and the others in `inner`."""

    def __init__(self, inner: History, hidden: Callable[[], bool]) -> None:
        super().__init__()
        self.inner = inner
        self.hidden = hidden

    def load_history_strings(self) -> Iterable[str]:
        return self.inner.load_history_strings()

    def append_string(self, string: str) -> None:
        if not self.hidden():
            super().append_string(string)

    def store_string(self, string: str) -> None:
        if not self.hidden():
            self.inner.store_string(string)


class PromptLines:
    """The terminal's full screen (prompt_toolkit): the screen the client draws, and under it the input line, whose
    lines go to `queue`; None at end of input (Ctrl-D on an empty line, or Ctrl-C).

    The screen is asked for at the terminal's size (`set_screen(fn)`: `fn(width, height)` gives ANSI text of at most
    `height` lines) whenever it is redrawn: after `refresh()` and after the terminal is resized, so a resized terminal
    is laid out anew. F2, PgDn and PgUp are passed to `set_keys(fn)` as `board`, `next` and `prev`.
    `set_hidden(True)` turns the line into a password field (shown as `*`, no completion, kept in no history) until
    `set_hidden(False)`. `input` and `output` are prompt_toolkit's (default: the terminal)."""

    def __init__(
        self,
        choices: Callable[[], list[str]] | None = None,
        history: History | None = None,
        *,
        input: Input | None = None,
        output: Output | None = None,
    ) -> None:
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self._choices: Callable[[], list[str]] = choices or (lambda: [])
        #: what the line says before its `>` ("Your move" when it is the player's move in the room on screen)
        self._status: Callable[[], str] = lambda: ""
        #: the screen above the input line: (width, height) -> ANSI text
        self._screen: Callable[[int, int], str] | None = None
        #: where F2, PgDn and PgUp go (`board`, `next`, `prev`)
        self._keys: Callable[[str], None] | None = None
        #: the screen as last drawn: ((width, height, generation), its fragments)
        self._drawn: tuple[tuple[int, int, int], StyleAndTextTuples] | None = None
        self._generation = 0
        #: a whole new drawing of the terminal soon after a resize (None: none waiting)
        self._repaint: asyncio.TimerHandle | None = None
        self.hidden = False
        completer = ChoiceCompleter(lambda: self._choices())
        self.history = KeptUnlessHidden(history or default_history(), lambda: self.hidden)
        self.buffer = Buffer(
            history=self.history,
            completer=DynamicCompleter(lambda: None if self.hidden else completer),
            complete_while_typing=False,
            multiline=False,
            accept_handler=self._accept,
        )
        line = Window(
            BufferControl(
                self.buffer,
                input_processors=[ConditionalProcessor(PasswordProcessor(), Condition(lambda: self.hidden))],
            ),
            height=1,
        )
        body = HSplit(
            [
                Window(FormattedTextControl(self._screen_text), wrap_lines=False),
                VSplit([Window(FormattedTextControl(self.message), dont_extend_width=True, height=1), line], height=1),
            ]
        )
        menu = Float(xcursor=True, ycursor=True, content=CompletionsMenu(max_height=12, scroll_offset=1))
        self.app: Application[None] = Application(
            layout=Layout(FloatContainer(body, floats=[menu]), focused_element=line),
            key_bindings=self._bindings(),
            full_screen=True,
            enable_page_navigation_bindings=False,
            input=input,
            output=output,
        )
        self.task: asyncio.Task[None] | None = None

    def _bindings(self) -> KeyBindings:
        kb = KeyBindings()

        def key(name: str) -> Callable[[KeyPressEvent], None]:
            def handler(event: KeyPressEvent) -> None:
                if self._keys is not None:
                    self._keys(name)

            return handler

        kb.add("f2")(key("board"))
        kb.add("pagedown")(key("next"))
        kb.add("pageup")(key("prev"))

        @kb.add("c-d", filter=Condition(lambda: not self.buffer.text))
        @kb.add("c-c")
        def _end(event: KeyPressEvent) -> None:
            self.queue.put_nowait(None)
            event.app.exit()

        return kb

    def _accept(self, buffer: Buffer) -> bool:
        self.queue.put_nowait(buffer.text)
        return False  # the line is emptied for the next one

    def set_choices(self, choices: Callable[[], list[str]]) -> None:
        self._choices = choices

    def set_status(self, status: Callable[[], str]) -> None:
        """What the line says before its `>` (read at every redraw of the line)."""
        self._status = status

    def set_screen(self, screen: Callable[[int, int], str]) -> None:
        """What is drawn above the input line: `screen(width, height)` gives ANSI text of at most `height` lines."""
        self._screen = screen
        self.refresh()

    def set_keys(self, keys: Callable[[str], None]) -> None:
        """Where F2 (`board`), PgDn (`next`) and PgUp (`prev`) go."""
        self._keys = keys

    def refresh(self) -> None:
        """Draw the screen anew (what it shows has changed)."""
        self._generation += 1
        if self.active:
            self.app.invalidate()

    def _screen_text(self) -> StyleAndTextTuples:
        """The screen at the terminal's size now, drawn again only when it changed or the terminal was resized."""
        if self._screen is None:
            return []
        size = self.app.output.get_size()
        key = (max(1, size.columns), max(1, size.rows - 1), self._generation)
        if self._drawn is not None and self._drawn[0][:2] != key[:2]:
            self._repaint_soon()
        if self._drawn is None or self._drawn[0] != key:
            self._drawn = (key, to_formatted_text(ANSI(self._screen(key[0], key[1]))))
        return self._drawn[1]

    def _repaint_soon(self) -> None:
        """After a resize, the whole terminal drawn again a moment later: a terminal (tmux) may apply the new size
        to what it shows after the first drawing at that size, so only a drawing from scratch is sure to be whole."""
        if self._repaint is not None:
            self._repaint.cancel()

        def repaint() -> None:
            self._repaint = None
            if self.active:  # from the top-left corner, every cell (erased and drawn in one write: no flicker)
                self.app.output.cursor_goto(0, 0)
                self.app.renderer.reset(leave_alternate_screen=False)
                self.app.invalidate()

        self._repaint = asyncio.get_running_loop().call_later(REPAINT_AFTER_RESIZE, repaint)

    def message(self) -> str:
        """The input line's prompt: `*> ` for a password, else the status (if any) and `> `."""
        if self.hidden:
            return "*> "
        status = self._status()
        return f"{status} > " if status else "> "

    def set_hidden(self, hidden: bool) -> None:
        """Hide the line being typed (a password) or show it again; the prompt is redrawn at once."""
        self.hidden = hidden
        if self.active:
            self.app.invalidate()

    def start(self) -> asyncio.Queue[str | None]:
        self.task = asyncio.get_running_loop().create_task(self._run())
        return self.queue

    async def _run(self) -> None:
        try:
            await self.app.run_async(set_exception_handler=False)
        except (EOFError, KeyboardInterrupt):
            self.queue.put_nowait(None)

    async def stop(self) -> None:
        """Leave the full screen (the terminal is as it was before)."""
        if self.active:
            self.app.exit()
        if self.task is not None:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.task

    @property
    def active(self) -> bool:
        return self.task is not None and not self.task.done() and self.app.is_running

    def bell(self) -> None:
        """The terminal's bell, once."""
        self.app.output.bell()


def labels(items: Iterable[str]) -> list[str]:
    """Completion meta texts, cut to one short line each."""
    return [s if len(s) <= 60 else s[:59] + "…" for s in items]
