"""Laying a screen out for the terminal's size: what the interactive client draws on a real terminal.

Owns: drawing renderables at a width into lines (ANSI, one string per line), the room's page (always: the header,
whose turn, the clock and the viewer's resources at the top, the prompt's question and numbered options, the notice
and a help line at the bottom; what is left in between for the choices being made now, the result, the recent events
and the chat; options in pages when they do not fit), and paging a long screen (the board, the lobby, a replay, the
whole log) with its pinned bottom lines. Must not: read the session or decide what a screen holds: the caller passes
the parts (`clients.cli.interactive`).
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass, field

from rich.console import Console, RenderableType
from rich.table import Table
from rich.text import Text

from clients.cli.i18n import N_, _

#: the line under a page of options when they do not all fit
OPTIONS_PAGE = N_("Options {first}–{last} of {n}: n or PgDn for more, p or PgUp back")
#: the line under a page of a long screen
SCREEN_PAGE = N_("Page {page} of {pages}: PgDn and PgUp turn the pages")
#: the fewest rows the options get before the top lines are cut (a terminal too small for everything)
MIN_OPTION_ROWS = 4


class Drawer:
    """Draws renderables at a width into lines of ANSI text (as rich prints them on a terminal)."""

    def __init__(self, width: int, color_system: str | None = "standard") -> None:
        self.width = max(10, width)
        self.color_system = color_system

    def lines(self, renderable: RenderableType | None, *, cut: bool = False) -> list[str]:
        """The renderable's lines at this width (none for None; `cut`: a long line is cut with `…`, not wrapped)."""
        if renderable is None:
            return []
        console = Console(
            file=io.StringIO(),
            width=self.width,
            height=1000,
            force_terminal=True,
            color_system=self.color_system,  # type: ignore[arg-type]
            legacy_windows=False,
            emoji=False,
            highlight=False,
        )
        with console.capture() as cap:
            if cut:
                console.print(renderable, no_wrap=True, overflow="ellipsis")
            else:
                console.print(renderable)
        text = cap.get()
        if text.endswith("\n"):
            text = text[:-1]
        return text.split("\n")

    def option(self, number: int, label: str, digits: int) -> list[str]:
        """An option numbered as in the prompt, its words wrapped under themselves."""
        grid = Table.grid(padding=(0, 1))
        grid.add_column(justify="right", no_wrap=True, width=digits + 3)
        grid.add_column(ratio=1)
        grid.add_row(Text(f"{number})", style="cyan"), Text(label))
        return self.lines(grid)


@dataclass
class Block:
    """Lines between the top and the options: shown from the top (`keep="top"`) or, as many as fit, the newest at the
    bottom under the block's first line, its heading (`keep="bottom"`)."""

    lines: list[str]
    keep: str = "top"

    def cut(self, rows: int) -> list[str]:
        if rows <= 0 or not self.lines:
            return []
        if len(self.lines) <= rows:
            return self.lines
        if self.keep == "bottom" and rows >= 2:
            return [self.lines[0], *self.lines[len(self.lines) - rows + 1 :]]
        return self.lines[:rows] if rows >= 2 else []


@dataclass
class RoomPage:
    """The room's page as laid out: its lines, the options shown (by index), and where the next and the previous
    page of options start (None: there is none)."""

    lines: list[str]
    shown: list[int] = field(default_factory=list)
    next_first: int | None = None
    prev_first: int | None = None


def fitting(heights: Sequence[int], first: int, rows: int) -> list[int]:
    """The options (by index) from `first` on that fit in `rows` lines (one at least)."""
    shown: list[int] = []
    used = 0
    for i in range(first, len(heights)):
        if shown and used + heights[i] > rows:
            break
        shown.append(i)
        used += heights[i]
    return shown


def fitting_before(heights: Sequence[int], first: int, rows: int) -> int:
    """Where the page before the one starting at `first` starts: as many options before it as fit in `rows`."""
    used = 0
    start = first
    while start > 0 and (start == first or used + heights[start - 1] <= rows):
        used += heights[start - 1]
        start -= 1
    return start


def room_page(
    draw: Drawer,
    height: int,
    *,
    top: Sequence[RenderableType | None],
    yours: RenderableType | None,
    middle: Sequence[Block],
    question: RenderableType,
    labels: Sequence[str],
    after: Sequence[RenderableType | None],
    bottom: Sequence[RenderableType | None],
    first: int = 0,
) -> RoomPage:
    """The room's page at `height` rows: `top` and `yours` (the viewer's resources, cut first when rows are short),
    then as much of the `middle` blocks as is left, the `question` with the options (`labels`, numbered from 1; when
    they do not all fit, those from index `first` on that do, and a line saying which), the lines `after` the options
    (undo, a free seat, a rematch) and the `bottom` (a question asked, the notice, the help line)."""
    height = max(3, height)
    head = [line for part in top for line in draw.lines(part)]
    mine = draw.lines(yours)
    asked = draw.lines(question)
    tail = [line for part in after for line in draw.lines(part)]
    foot = [line for part in bottom for line in draw.lines(part)]
    digits = len(str(len(labels))) if labels else 1
    options = [draw.option(i, label, digits) for i, label in enumerate(labels, 1)]
    heights = [len(o) for o in options]
    needed = min(sum(heights), MIN_OPTION_ROWS) if options else 0
    # a terminal too small for everything: the viewer's resources go first, then the top's last lines
    spare = height - len(asked) - len(tail) - len(foot) - needed
    if len(head) + len(mine) > spare:
        mine = mine[: max(0, spare - len(head))]
        head = head[: max(1, spare - len(mine))]
    rows = height - len(head) - len(mine) - len(asked) - len(tail) - len(foot)
    shown: list[int] = list(range(len(options)))
    next_first: int | None = None
    prev_first: int | None = None
    body: list[str] = []
    if sum(heights) <= rows:
        body = [line for o in options for line in o]
        free = rows - len(body)
    else:
        first = max(0, min(first, len(options) - 1))
        shown = fitting(heights, first, max(1, rows - 1))
        next_first = shown[-1] + 1 if shown[-1] + 1 < len(options) else None
        prev_first = fitting_before(heights, first, max(1, rows - 1)) if first > 0 else None
        body = [line for i in shown for line in options[i]][: max(0, rows - 1)]
        words = _(OPTIONS_PAGE).format(first=shown[0] + 1, last=shown[-1] + 1, n=len(options))
        body += draw.lines(Text(words, style="dim"), cut=True)[:1]
        free = 0
    between: list[str] = []
    for block in middle:
        between += block.cut(free - len(between))
    lines = head + mine + between + asked + body + tail + foot
    return RoomPage(lines[:height], shown, next_first, prev_first)


def paged(draw: Drawer, lines: list[str], height: int, page: int, pinned: list[str]) -> tuple[list[str], int, int]:
    """A long screen's page `page` (from 1) at `height` rows, the `pinned` lines (a question asked, the notice, the
    board's own footer) always under it, and a line naming the page when there are several: (lines, page, pages)."""
    height = max(2, height)
    rows = max(1, height - len(pinned))
    if len(lines) <= rows:
        return (lines + pinned)[:height], 1, 1
    size = max(1, rows - 1)
    pages = (len(lines) + size - 1) // size
    page = max(1, min(page, pages))
    shown = lines[(page - 1) * size : page * size]
    words = _(SCREEN_PAGE).format(page=page, pages=pages)
    footer = draw.lines(Text(words, style="dim"), cut=True)[:1]
    return (shown + footer + pinned)[:height], page, pages
