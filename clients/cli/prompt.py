"""Typed input for the interactive terminal client: prompt_toolkit with history and completion.

Owns: reading lines on a real terminal (history kept in ~/.marcopolo/history, completion of the commands and
of the current prompt's option numbers, each shown with its words), a hidden mode for a password asked in the
lobby (`*` for each character, no completion, the line kept in no history), and drawing a screen while the input
line is shown (the screen is drawn above it; the line is kept), and the line's prompt saying "Your move" when it is the
player's move in the room on screen. Must not: act on a line; the lines go to the
same queue as `stdin_lines` fills.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from prompt_toolkit import PromptSession
from prompt_toolkit.application import run_in_terminal
from prompt_toolkit.completion import CompleteEvent, Completer, Completion, DynamicCompleter
from prompt_toolkit.document import Document
from prompt_toolkit.filters import Condition
from prompt_toolkit.history import FileHistory, History, InMemoryHistory
from prompt_toolkit.input import Input
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
)


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
    """Lines typed at a prompt_toolkit prompt, put in `queue`; None at end of input (Ctrl-D or Ctrl-C).

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
        self.hidden = False
        completer = ChoiceCompleter(lambda: self._choices())
        self.history = KeptUnlessHidden(history or default_history(), lambda: self.hidden)
        self.session: PromptSession[str] = PromptSession(
            history=self.history,
            completer=DynamicCompleter(lambda: None if self.hidden else completer),
            complete_while_typing=False,
            is_password=Condition(lambda: self.hidden),
            input=input,
            output=output,
        )
        self.task: asyncio.Task[None] | None = None

    def set_choices(self, choices: Callable[[], list[str]]) -> None:
        self._choices = choices

    def set_status(self, status: Callable[[], str]) -> None:
        """What the line says before its `>` (read at every redraw of the line)."""
        self._status = status

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
            self.session.app.invalidate()

    def start(self) -> asyncio.Queue[str | None]:
        self.task = asyncio.get_running_loop().create_task(self._read())
        return self.queue

    async def _read(self) -> None:
        while True:
            try:
                line = await self.session.prompt_async(self.message)
            except (EOFError, KeyboardInterrupt):
                self.queue.put_nowait(None)
                return
            self.queue.put_nowait(line)

    @property
    def active(self) -> bool:
        return self.task is not None and not self.task.done() and self.session.app.is_running

    def draw(self, paint: Callable[[], None]) -> None:
        """Run `paint` with the input line hidden, then show the line again below what was drawn."""
        if not self.active:
            paint()
            return
        with contextlib.suppress(RuntimeError):
            run_in_terminal(paint)  # scheduled on the running application; the line is drawn again after


def labels(items: Iterable[str]) -> list[str]:
    """Completion meta texts, cut to one short line each."""
    return [s if len(s) <= 60 else s[:59] + "…" for s in items]
