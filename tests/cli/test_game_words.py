"""The terminal's game words in five languages: option labels, the prompt's question and the board's names
come from the catalogues the browser uses (clients/words/), so `--lang` changes them too."""

from __future__ import annotations

import importlib
import re
from typing import Any

import pytest

from clients.cli import i18n
from clients.cli.render import option_labels, renderer_for, view_text
from tests.cli.test_no_ids import document

KEY = re.compile(r"\bw\.[a-z]+\.[A-Za-z0-9_.]+")
LANGS = ("en", "hu", "fi", "it", "es")


def first_turn(game: str) -> dict[str, Any]:
    """The view of the first seat with a prompt, a few greedy-bot moves into a 2-seat game."""
    eng = importlib.import_module(f"server.games.{game}.engine").GAME
    bot = importlib.import_module(f"server.games.{game}.bots").GreedyBot(3)
    state = eng.setup(2, {}, 5)
    for _ in range(6):
        seat = eng.active_seats(state)[0]
        state = eng.apply(state, seat, bot.choose(eng.prompt(state, seat), eng.view(state, seat)))
    seat = eng.active_seats(state)[0]
    return document(game, eng, state, seat, 2)


@pytest.mark.parametrize("game", ["expedition", "classic", "voyages", "khan"])
def test_labels_prompt_and_board_change_with_the_language_and_show_no_key(game: str) -> None:
    view = first_turn(game)
    said: dict[str, tuple[list[str], str, str]] = {}
    try:
        for code in LANGS:
            i18n.set_language(code)
            labels = option_labels(view)
            asked = renderer_for(game).prompt_text(view) or ""
            text = view_text(view, width=200)
            for words in [*labels, asked, text]:
                assert not KEY.search(words), (code, words)
            assert asked and asked in text
            said[code] = (labels, asked, text)
    finally:
        i18n.set_language("en")
    assert len({tuple(labels) for labels, _, _ in said.values()}) == 5
    assert len({asked for _, asked, _ in said.values()}) == 5


def test_spanish_names_come_from_the_spanish_rule_text() -> None:
    view = first_turn("khan")
    try:
        i18n.set_language("es")
        text = view_text(view, width=200)
        assert "El favor del Khan" in text and "Bolsa del dinero" in text and "Sellos de gremio" in text
        i18n.set_language("hu")
        assert "A kán kegye" in view_text(view, width=200)
    finally:
        i18n.set_language("en")
