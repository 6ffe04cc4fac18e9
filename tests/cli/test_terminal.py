"""The terminal client on a real terminal: the screen redrawn in place, completion of option numbers, server bots
seated with `--bots N`, seats numbered from 1."""

from __future__ import annotations

import asyncio
import io
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from prompt_toolkit.completion import CompleteEvent
from prompt_toolkit.document import Document
from rich.console import Console

from clients.cli.__main__ import run
from clients.cli.interactive import Interactive
from clients.cli.prompt import ChoiceCompleter
from server.config import Settings
from server.net.app import App
from tests.cli.conftest import Screen
from tests.cli.test_play import bot_argv, finish, found


@pytest.fixture
async def app() -> AsyncIterator[App]:
    """The test server, its bots moving at once (the default half-second pause would make a whole game slow)."""
    node = App(Settings(port=0, allow_client_seed=True, bot_delay=0.0))
    await node.start()
    try:
        yield node
    finally:
        await node.stop()


VIEW: dict[str, Any] = {
    "game": "othello",
    "room": "rX",
    "status": "playing",
    "you": 1,
    "seats": [{"name": "ann", "taken": True, "connected": True}, {"name": "bob", "taken": True, "connected": True}],
    "public": {},
    "private": None,
    "prompt": {"text": "Your move.", "options": [{"a": "pass"}, {"a": "play", "at": 3}]},
    "result": None,
}


def fake_session(view: dict[str, Any]) -> Any:
    return SimpleNamespace(view=lambda room: view, client=SimpleNamespace(lobby=[]), rooms={"rX": False})


def test_a_terminal_screen_is_redrawn_in_place_not_printed_below_the_last() -> None:
    buf = io.StringIO()
    console = Console(file=buf, width=100, height=40, force_terminal=True, color_system=None)
    ui = Interactive(fake_session(VIEW), console, asyncio.Queue())
    ui.room = "rX"
    ui.show()
    first = buf.getvalue()
    ui.show()
    out = buf.getvalue()
    assert first.startswith("\x1b[H") and first.endswith("\x1b[J")  # home, the screen, erase the rest
    assert out.count("\x1b[H") == 2
    assert "\x1b[2J" not in out  # never a clear-and-reprint
    screen = out.split("\x1b[H")[2]
    assert "seat 2 (bob)" in screen and "1) " in screen and "2) " in screen  # seats from 1, options numbered


def test_a_captured_console_still_gets_every_screen_printed() -> None:
    s = Screen()
    ui = Interactive(fake_session(VIEW), s.console, asyncio.Queue())
    ui.room = "rX"
    ui.show()
    ui.show()
    assert "\x1b[H" not in s.text
    assert s.text.count("Your move.") == 2


def test_completion_offers_the_option_numbers_with_their_words_and_the_commands() -> None:
    completer = ChoiceCompleter(lambda: ["pass", "play at 3"] + [f"option {i}" for i in range(3, 13)])

    def complete(text: str) -> list[tuple[str, str]]:
        got = completer.get_completions(Document(text), CompleteEvent(completion_requested=True))
        return [(c.text, c.display_meta_text) for c in got]

    assert complete("")[:2] == [("1", "pass"), ("2", "play at 3")]
    assert [t for t, _ in complete("1")] == ["1", "10", "11", "12"]
    assert complete("sy") == [("sync", "")]
    assert complete("le") == [("leave", "")]


async def test_bots_n_seats_server_bots_and_the_game_is_played_to_the_end(
    url: str, screen: Callable[[], Screen], tmp_path: Path
) -> None:
    me = screen()
    task = asyncio.create_task(
        run(
            bot_argv(
                url,
                tmp_path,
                "solo",
                "--create",
                "--game",
                "expedition",
                "--seats",
                "3",
                "--bots",
                "2",
                "--seed",
                "4",
                "--quiet",
            ),
            console=me.console,
        )
    )
    (code,) = await finish(task, timeout=120)
    assert code == 0, me.text
    room = found(r"created room (\S+) \(expedition, 3 seats, 2 server bots\)", me.text)
    assert f"solo in room {room} at seat 1" in me.text  # the creator sits in the first seat, bots in the last
    assert "result: " in me.text


async def test_bot_hard_hands_the_seat_to_the_servers_search_bot_and_follows_the_game(
    url: str, screen: Callable[[], Screen], tmp_path: Path
) -> None:
    me = screen()
    argv = bot_argv(url, tmp_path, "deep", "--create", "--game", "expedition", "--seats", "2", "--bots", "1")
    task = asyncio.create_task(run([*argv, "--bot", "hard", "--bot-think", "0.05"], console=me.console))
    (code,) = await finish(task, timeout=120)
    assert code == 0, me.text
    assert "the server's search bot plays this seat" in me.text
    assert "result: " in me.text


async def test_bots_must_leave_a_seat_for_the_creator(url: str, screen: Callable[[], Screen], tmp_path: Path) -> None:
    me = screen()
    with pytest.raises(SystemExit) as exit_:
        await run(bot_argv(url, tmp_path, "solo", "--create", "--seats", "2", "--bots", "2"), console=me.console)
    assert exit_.value.code == 2
