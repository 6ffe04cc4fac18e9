"""The terminal client in five languages: every catalogue (clients/cli/locale/<lang>.po) translates every
message marked in the code, with the same placeholders; `--lang` switches the menus and notices."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from clients.cli import i18n
from clients.cli.__main__ import run
from clients.cli.locale.make_catalogues import messages
from clients.cli.render import view_text
from tests.cli.conftest import Screen, until
from tests.cli.test_play import cancel_all

PLACEHOLDER = re.compile(r"\{(\w+)\}")


def test_the_code_marks_the_menus_the_notices_and_every_error_code() -> None:
    marked = set(messages())
    assert len(marked) >= 30
    assert set(i18n.ERRORS.values()) <= marked


@pytest.mark.parametrize("code", ["hu", "fi", "it", "es"])
def test_every_catalogue_translates_every_marked_message_with_its_placeholders(code: str) -> None:
    with (i18n.LOCALE / f"{code}.po").open("rb") as f:
        cat = read_po(f, locale=code)
    marked = messages()
    for msg in marked:
        entry = cat.get(msg)
        assert entry is not None, f"{code}: missing {msg!r}"
        assert entry.string, f"{code}: untranslated {msg!r}"
        assert set(PLACEHOLDER.findall(str(entry.string))) == set(PLACEHOLDER.findall(msg)), (code, msg)
    assert not [m.id for m in cat if m.id and m.id not in set(marked)], "messages no longer in the code"


def test_a_message_and_an_error_code_read_in_the_chosen_language() -> None:
    try:
        i18n.set_language("fi")
        assert i18n._("It is not your turn.") == "Ei ole sinun vuorosi."
        assert i18n.error_sentence("illegal_move", "x") == "Tämä ei ole nyt yksi vaihtoehdoistasi."
        assert i18n.error_sentence("what", "odd") == "Palvelin sanoi: odd"
        with pytest.raises(ValueError):
            i18n.set_language("xx")
    finally:
        i18n.set_language("en")
    assert i18n._("It is not your turn.") == "It is not your turn."


async def test_lang_switches_the_lobby_menu(url: str, screen: Callable[[], Screen], tmp_path: Path) -> None:
    s = screen()
    lines: asyncio.Queue[str | None] = asyncio.Queue()
    argv = ["--url", url, "--name", "eva", "--token-file", str(tmp_path / "t"), "--lang", "es"]
    task = asyncio.create_task(run(argv, console=s.console, lines=lines))
    try:
        await until(lambda: "1) crear una sala" in s.text, what="the Spanish menu")
        lines.put_nowait("x")
        await until(lambda: "Orden desconocida 'x'." in s.text, what="a Spanish notice")
        lines.put_nowait("5")
        assert await asyncio.wait_for(task, 10) == 0
    finally:
        i18n.set_language("en")
        await cancel_all(task)


# ---- the boards' section titles and table headings, the classic hazard cards ----------------------------------

#: section titles and table headings of the boards, in English, as the terminal prints them
TITLES = {
    "expedition": ["Track", "Players", "Face-up cards:", "Recent events"],
    "classic": ["Route map", "Ransom spaces:", "Players", "Recent events", "stopping point"],
    "voyages": ["Map: locations", "Action spaces", "Bazaar by column", "Contract display", "Players", "Your board"],
    "khan": ["Map: locations", "Action spaces", "Offer tiles on the books", "Players", "Your board", "Recent events"],
}


@pytest.mark.parametrize("game", sorted(TITLES))
def test_the_boards_section_titles_and_headings_follow_the_language(game: str) -> None:
    from tests.cli.test_game_words import first_turn

    view = first_turn(game)
    try:
        i18n.set_language("en")
        english = view_text(view, width=200)
        for title in TITLES[game]:
            assert title in english, title
        for code in ("hu", "fi", "it", "es"):
            i18n.set_language(code)
            text = view_text(view, width=200)
            lines = [line.strip() for line in text.splitlines()]
            left = [t for t in TITLES[game] if any(line.startswith(t) for line in lines)]
            assert left == [], (code, left)
    finally:
        i18n.set_language("en")


def test_a_terminal_section_title_and_heading_change_when_the_language_changes() -> None:
    from tests.cli.test_game_words import first_turn

    view = first_turn("khan")
    try:
        i18n.set_language("hu")
        text = view_text(view, width=200)
        assert "Akciómezők" in text and "Játékosok" in text and "Térkép: helyszínek" in text
        assert "Action spaces" not in text
        i18n.set_language("es")
        text = view_text(view, width=200)
        assert "Casillas de acción" in text and "Sucesos recientes" in text
    finally:
        i18n.set_language("en")
    assert "Action spaces" in view_text(view, width=200)


def test_the_classic_hazard_cards_read_in_every_language_and_as_the_game_data_in_english() -> None:
    from clients.cli.games.classic import hazard_words
    from server.games.classic.data import HAZARDS

    events = [{"ev": "hazard", "card": card, **h} for card, h in HAZARDS.items()]
    assert len(events) == 20
    try:
        assert [hazard_words(ev) for ev in events] == [(ev["name"], ev["text"]) for ev in events]
        for code in ("hu", "fi", "it", "es"):
            i18n.set_language(code)
            for ev in events:
                name, text = hazard_words(ev)
                assert name != ev["name"] and text != ev["text"], (code, ev["card"])
                assert "w." not in name + text and "{" not in text, (code, ev["card"])
        i18n.set_language("fi")
        assert hazard_words(events[0]) == ("Tulli kaupungin portilla", "Maksa 30 besanttia pankille.")
        unknown = {"card": "x", "name": "N", "text": "T", "effect": {"kind": "new"}}
        assert hazard_words(unknown) == ("N", "T")
    finally:
        i18n.set_language("en")


@pytest.mark.parametrize("game", ["voyages", "khan"])
def test_the_players_tables_resource_headings_follow_the_language(game: str) -> None:
    """The dice-placement games share one players' table: its resource columns are translated there too."""
    from tests.cli.test_game_words import first_turn

    view = first_turn(game)
    resources = ("coins", "pepper", "silk") + (("jade",) if game == "khan" else ())
    try:
        for code in ("hu", "fi", "it", "es"):
            i18n.set_language(code)
            lines = view_text(view, width=240).splitlines()
            heading = next(line for line in lines if i18n._("posts (left)") in line)
            assert i18n._("coins") != "coins"
            for res in resources:
                assert i18n._(res) in heading, (code, res, heading)
    finally:
        i18n.set_language("en")
