"""The terminal's screen laid out for its size (`clients.cli.screen`, `Interactive.screen`): at 80x24 the room's page
always shows whose turn it is, the clock, your resources and the numbered options (in pages when they do not fit), in
every language; the whole view is a page flipped to and back; a character draft names every character with its
ability."""

from __future__ import annotations

import asyncio
import io
import re
import time
from types import SimpleNamespace
from typing import Any

import pytest
from rich.cells import cell_len
from rich.console import Console

from clients.cli import i18n
from clients.cli.games.board import DiceRenderer
from clients.cli.i18n import _, w
from clients.cli.interactive import BOARD_PAGE_HELP, MOVES_HELP, Interactive
from clients.cli.render import option_labels, renderer_for, to_text
from clients.cli.screen import Drawer, fitting, fitting_before, paged
from tests.cli.test_game_words import LANGS, first_turn
from tests.cli.test_no_ids import document

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
GAMES = ("expedition", "classic", "voyages", "khan")


def plain(screen: str) -> list[str]:
    return [ANSI.sub("", line) for line in screen.split("\n")]


def with_clock(view: dict[str, Any]) -> dict[str, Any]:
    return {**view, "clock": {"seats": [view["you"]], "deadline": int(time.time() * 1000) + 95_000}}


def ui_for(view: dict[str, Any], *, width: int = 80, height: int = 24) -> Interactive:
    """An interactive client on a terminal of that size showing `view` (no server: a session that only holds it)."""
    session = SimpleNamespace(
        view=lambda room: view,
        client=SimpleNamespace(lobby=[], chats=[], pushes=[]),
        rooms={str(view["room"]): False},
        events=asyncio.Queue(),
    )
    console = Console(file=io.StringIO(), width=width, height=height, force_terminal=True, color_system="standard")
    ui = Interactive(session, console, asyncio.Queue())  # type: ignore[arg-type]
    ui.room = str(view["room"])
    return ui


# ---- the character draft ----------------------------------------------------------------------------------------


def draft_view(game: str) -> dict[str, Any]:
    """The view of the seat choosing a character in a 3-seat game's draft (Voyages: the draft option)."""
    from server.games.khan.engine import GAME as KHAN
    from server.games.voyages.engine import GAME as VOYAGES

    eng = KHAN if game == "khan" else VOYAGES
    state = eng.setup(3, {} if game == "khan" else {"character_draft": True}, 7)
    seat = eng.active_seats(state)[0]
    return document(game, eng, state, seat, 3)


@pytest.mark.parametrize("game", ["khan", "voyages"])
def test_the_character_draft_names_every_character_with_its_ability_in_every_language(game: str) -> None:
    view = draft_view(game)
    prefix = "kh" if game == "khan" else "vo"
    offer = view["public"]["draft"]["offer"]
    board = view["public"]["board" if game == "khan" else "track"]
    assert len(offer) == 4 and all(board["characters"][c]["ability"] for c in offer)  # the view holds them too
    r = renderer_for(game)
    assert isinstance(r, DiceRenderer)
    try:
        seen: set[str] = set()
        for code in LANGS:
            i18n.set_language(code)
            labels = option_labels(view)
            asking = to_text(r.asking(view), width=400)
            assert len(labels) == len(offer)
            for cid, label in zip(offer, labels, strict=True):
                ability = w(f"w.{prefix}.ability.{cid}")
                assert ability != f"w.{prefix}.ability.{cid}" and ability in label, (code, label)
                assert label.startswith(w("w.opt.character", name=r.board(view["public"]).character(cid)))
                assert ability in asking, (code, asking)  # the offer, as the board and a waiting player see it
                seen.add(ability)
        assert len(seen) == len(offer) * len(LANGS)  # translated: a different text in every language
    finally:
        i18n.set_language("en")


def test_the_draft_on_the_small_screen_lists_the_abilities_once_in_the_options() -> None:
    view = with_clock(draft_view("khan"))
    text = "\n".join(plain(ui_for(view).screen(80, 23)))
    for cid in view["public"]["draft"]["offer"]:
        start = w(f"w.kh.ability.{cid}")[:30]
        assert text.count(start) == 1, (cid, text)  # in its option (the offer itself is on the board page)


# ---- the room's page at 80x24 -------------------------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("code", LANGS)
def test_the_room_page_always_shows_the_turn_the_clock_your_resources_and_the_options(game: str, code: str) -> None:
    view = with_clock(first_turn(game))
    try:
        i18n.set_language(code)
        ui = ui_for(view)
        lines = plain(ui.screen(80, 23))
        text = "\n".join(lines)
        assert len(lines) <= 23 and all(cell_len(line) <= 80 for line in lines), text
        r = renderer_for(game)
        turn, mine = r.turn_block(view), r.yours(view)
        assert turn is not None and mine is not None
        assert to_text(turn, width=80).splitlines()[0].strip() in text  # whose turn
        assert any(line.startswith(_("Clock:")) and _("(you)") in line for line in lines)  # the clock
        yours = to_text(mine, width=80).splitlines()[0].strip()
        assert yours and yours in text  # the viewer's resources
        assert "   1) " in text or "  1) " in text  # numbered options
        assert _("Your move") in text
        assert _(MOVES_HELP)[:30] in text.replace("\n", " ")
        assert lines[0].startswith(game) and f"{_('room')} r1" in lines[0]
    finally:
        i18n.set_language("en")


def test_a_long_option_list_turns_its_pages_and_skips_no_option() -> None:
    view = with_clock(first_turn("khan"))
    view["prompt"] = {**view["prompt"], "options": view["prompt"]["options"] * 4}  # many options
    total = len(view["prompt"]["options"])
    ui = ui_for(view)
    seen: list[int] = []
    for turn in range(total):
        lines = plain(ui.screen(80, 23))
        assert len(lines) <= 23
        numbers = [int(m.group(1)) for line in lines if (m := re.match(r"\s+(\d+)\) ", line))]
        assert numbers == list(range(numbers[0], numbers[-1] + 1))
        seen += numbers
        if numbers[-1] == total:
            break
        assert any(f"Options {numbers[0]}–{numbers[-1]} of {total}" in line for line in lines)
        ui.notice = "a notice that takes a line" if turn % 2 else ""  # the rows change between the pages
        ui.show()
        ui._turn_page(1)
    assert seen == list(range(1, total + 1))
    first_of_last = seen[-1] - len(numbers) + 1
    ui._turn_page(-1)
    lines = plain(ui.screen(80, 23))
    back = [int(m.group(1)) for line in lines if (m := re.match(r"\s+(\d+)\) ", line))]
    assert back[-1] == first_of_last - 1  # the page before


def test_the_board_is_a_page_flipped_to_and_back_in_pages() -> None:
    view = with_clock(first_turn("voyages"))
    ui = ui_for(view)
    moves = "\n".join(plain(ui.screen(80, 23)))
    assert "Map: locations" not in moves
    asyncio.run(ui.on_key("board"))
    first = plain(ui.screen(80, 23))
    assert len(first) <= 23 and _(BOARD_PAGE_HELP) in first[-1]
    page = next(line for line in first if line.startswith("Page 1 of "))
    pages = int(page.split()[3].rstrip(":"))
    assert pages > 3
    seen = set(first)
    for _n in range(pages - 1):
        ui._turn_page(1)
        seen |= set(plain(ui.screen(80, 23)))
    whole = to_text(renderer_for("voyages").render(view), width=80).splitlines()
    assert {line.rstrip() for line in whole} - {line.rstrip() for line in seen} == set()  # every line of the board
    assert asyncio.run(ui.on_line("b")) and "Map: locations" not in "\n".join(plain(ui.screen(80, 23)))
    assert asyncio.run(ui.on_line("board"))
    assert asyncio.run(ui.on_line("")) and ui.page_of == "moves"  # Enter on the board: back


def test_drawn_in_place_without_prompt_toolkit_the_screen_fits_the_terminal() -> None:
    view = with_clock(first_turn("classic"))
    ui = ui_for(view, width=80, height=24)
    ui.show()
    out = ui.console.file.getvalue()  # type: ignore[attr-defined]
    frame = out.split("\x1b[H")[-1]
    assert frame.endswith("\x1b[J") and frame.count("\n") == 23  # 23 rows; the 24th for the line typed
    assert all(cell_len(line) <= 80 for line in plain(frame.replace("\x1b[K", "")))


def test_paging_helpers() -> None:
    assert fitting([2, 2, 2, 5], 0, 5) == [0, 1]
    assert fitting([2, 2, 2, 5], 3, 2) == [3]  # one option at least, even taller than the page
    assert fitting_before([2, 2, 2, 5], 3, 5) == 1
    assert fitting_before([2, 2, 2, 5], 1, 5) == 0
    draw = Drawer(60, None)
    lines, page, pages = paged(draw, [str(i) for i in range(10)], 5, 2, ["pinned"])
    assert (page, pages) == (2, 4) and lines == ["3", "4", "5", "Page 2 of 4: PgDn and PgUp turn the pages", "pinned"]
    assert paged(Drawer(20, None), [str(i) for i in range(10)], 5, 1, [])[0][-1] == "Page 1 of 3: PgDn a…"
    assert paged(draw, ["a"], 5, 3, ["p"]) == (["a", "p"], 1, 1)
