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
