"""Turn-based play in the terminal client (wire contract v1.2), against an in-process server: `create … --turn-based`
shows the room's rule in words, the lobby marks turn-based rooms, `games` lists the player's games from `my_games`
with its turn first and the deadline as relative time, shown by itself at start when it is the player's turn,
`open N` enters one; the bell rings once when it becomes the player's move in the room on screen (not on redraws,
not after `bell off`); the quick match counts down to the bots and its host's `start` begins at once (another
player's is refused: the server's host rule); a seat whose time ran out is marked late, and a game ended by its
clock says whose time ran out. Clocks run scaled (`clock_scale`): an hour of a room's clock lasts 1.8 s."""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput
from rich.console import Console

from clients.cli.__main__ import parse_args
from clients.cli.interactive import Interactive
from clients.cli.public import clock_line, clock_text
from clients.cli.render import seat_name, to_text
from clients.cli.session import write_token
from clients.cli.turns import (
    countdown_text,
    deadline_words,
    duration_words,
    games_table,
    parse_turn,
    relative_words,
    rule_text,
    timeout_sentence,
    urgent_first,
)
from clients.client import Client
from server.config import Settings
from server.net.app import App
from tests.cli.conftest import until
from tests.cli.test_accounts import said
from tests.cli.test_play import cancel_all, found
from tests.cli.test_players import Typist

#: an hour of a room's clock lasts 1.8 s
SCALE = 0.0005
DAY = 86400


@pytest.fixture
async def fast() -> AsyncIterator[App]:
    """A node whose clocks run 2000 times faster (server bots move at once, quick matches fill no seats)."""
    node = App(Settings(port=0, allow_client_seed=True, clock_scale=SCALE, bot_delay=0.01, quick_fill_bots_after=0))
    await node.start()
    try:
        yield node
    finally:
        await node.stop()


def argv(url: str, tmp_path: Path, name: str, *extra: str) -> list[str]:
    return ["--url", url, "--name", name, "--token-file", str(tmp_path / f"token-{name}"), *extra]


def ws(app: App) -> str:
    return f"ws://127.0.0.1:{app.port}/ws"


async def player(url: str, name: str, token_file: Path | None = None) -> Client:
    """A client that said hello; with `token_file` its token is saved there, so a CLI started later is that player."""
    c = Client(url)
    await c.connect()
    await c.hello(name)
    if token_file is not None:
        assert c.token is not None
        write_token(token_file, c.token)
    return c


def my_move(c: Client, room: str) -> bool:
    view = c.view(room)
    return bool(view.get("you") is not None and (view.get("prompt") or {}).get("options"))


async def move_until_not_mine(c: Client, room: str) -> None:
    """Play the first option until it is no longer this client's move (a turn has several small moves)."""
    while my_move(c, room):
        v = c.views[room].v
        await c.move(room, c.view(room)["prompt"]["options"][0])
        await c.wait_for(room, lambda s, v=v: c.views[room].v > v)


def last_screen(text: str, start: str) -> str:
    """The last screen drawn: the text from the last `start` on."""
    assert start in text, start
    return text[text.rindex(start) :]


def game_rows(text: str) -> list[list[str]]:
    """The rows of the last "My games" table in `text`: [number, room, game, turn, deadline, players, mode]."""
    part = text[text.rindex("My games") :]
    rows = []
    for line in part.splitlines()[1:]:
        cells = [c.strip() for c in line.split("│")]
        if len(cells) == 7 and cells[0].isdigit():
            rows.append(cells)
        elif rows:
            break
    return rows


# ---- without a server ----------------------------------------------------------------------------------


def test_a_turns_time_reads_as_days_or_with_a_unit_and_is_said_back_in_words() -> None:
    assert parse_turn(None) == parse_turn("") == 3 * DAY
    assert parse_turn("3") == parse_turn("3d") == 3 * DAY
    assert parse_turn("0.5") == parse_turn("12h") == 12 * 3600
    assert parse_turn("90m") == 5400 and parse_turn("600s") == 600 and parse_turn("14") == 14 * DAY
    for bad in ("15", "5s", "soon", "-1", "3 days"):
        with pytest.raises(ValueError):
            parse_turn(bad)
    assert duration_words(3 * DAY) == "3 days" and duration_words(DAY) == "1 day"
    assert duration_words(3600) == "1 hour" and duration_words(36 * 3600) == "36 hours"
    assert duration_words(5400) == "90 minutes" and duration_words(45) == "45 seconds"
    assert relative_words(2 * DAY + 23 * 3600) == "in 2 days" and relative_words(DAY) == "in 1 day"
    assert relative_words(5 * 3600 + 59) == "in 5 hours" and relative_words(61) == "in 1 minute"
    assert relative_words(41.2) == "in 42 seconds" and relative_words(0) == relative_words(-5) == "late"
    assert clock_text(2 * DAY + 3725) == "2d 1:02:05" and clock_text(3725) == "1:02:05"


def test_the_rule_the_late_seats_and_a_timeout_read_in_words() -> None:
    turn = {"mode": "turn_based", "turn_seconds": 3 * DAY, "on_expiry": "wait"}
    assert rule_text({"turn": turn}) == "Turn-based: 3 days a move; a late player is waited for"
    assert rule_text({"turn": {**turn, "turn_seconds": 3600, "on_expiry": "end"}}) == (
        "Turn-based: 1 hour a move; the game ends when a player's time runs out"
    )
    assert rule_text({"turn": {**turn, "on_expiry": "bot"}}) == (
        "Turn-based: 3 days a move; a late player's bot moves for them"
    )
    assert rule_text({}) is None  # a live room
    view: dict[str, Any] = {
        "you": 0,
        "status": "playing",
        "seats": [{"name": "ann"}, {"name": "bob"}],
        "clock": {"seats": [1], "deadline": 1_000, "late": [1]},
    }
    assert seat_name(view, 1, guest=True) == "bob (late)" and seat_name(view, 0, guest=True) == "ann (you)"
    line = clock_line(view, now_ms=5_000)
    assert line is not None and line.plain == "Clock: time ran out for bob: late, the game waits for them"
    both = {**view, "clock": {"seats": [0, 1], "deadline": 65_000, "late": [1]}}  # a phase where both move
    line = clock_line(both, now_ms=5_000)
    assert line is not None and line.plain.startswith("Clock: 1:00 left for ann (you), bob")
    assert "; late: bob (the game waits for them)" in line.plain
    assert timeout_sentence("time ran out for Bob") == "The game ended: time ran out for Bob"
    assert timeout_sentence(None) == "The game ended: a player's time ran out."
    assert countdown_text(41.3, exact=True) == "Bots fill the empty seats in 42 s"
    assert countdown_text(-3, exact=False) == "Bots fill the empty seats in 0 s at the latest"


def test_my_games_puts_the_players_turn_first_with_relative_deadlines() -> None:
    now = 1_000_000_000_000
    rows = [
        {"room": "rA", "game": "classic", "status": "waiting", "seat": 0, "your_turn": False, "deadline": None,
         "mode": "live", "players": ["ann", None], "late": False},
        {"room": "rB", "game": "expedition", "status": "playing", "seat": 1, "your_turn": True,
         "deadline": now + (2 * DAY + 3600) * 1000, "mode": "turn_based", "players": ["bob", "ann"], "late": False},
        {"room": "rC", "game": "expedition", "status": "playing", "seat": 0, "your_turn": True,
         "deadline": now - 5000, "mode": "turn_based", "players": ["ann", "bob"], "late": True},
    ]  # fmt: skip
    ordered = urgent_first(rows)
    assert [r["room"] for r in ordered] == ["rB", "rC", "rA"]
    assert deadline_words(ordered[0], now) == "in 2 days" and deadline_words(ordered[1], now) == "late"
    table = game_rows(to_text(games_table(ordered, now), width=120))
    assert [r[:2] for r in table] == [["1", "rB"], ["2", "rC"], ["3", "rA"]]
    assert table[0][3:] == ["your turn", "in 2 days", "bob, ann (you)", "turn-based"]
    assert table[1][3:5] == ["your turn", "late"]
    assert table[2][3:] == ["waiting for players", "", "ann (you), ·", "live"]
    assert "You hold no seat" in to_text(games_table([]))


def test_the_command_line_takes_turn_based_on_expiry_and_no_bell() -> None:
    args = parse_args(["--create", "--turn-based", "--on-expiry", "end", "--no-bell"])
    assert args.turn_seconds == 3 * DAY and args.on_expiry == "end" and args.no_bell
    assert parse_args(["--create", "--turn-based", "12h"]).turn_seconds == 12 * 3600
    for bad in (["--create", "--on-expiry", "bot"], ["--create", "--turn-based", "15"], ["--quick", "--turn-based"]):
        with pytest.raises(SystemExit):
            parse_args(bad)


def test_the_bell_is_written_once_and_not_when_turned_off() -> None:
    out = Console(file=__import__("io").StringIO(), force_terminal=False)

    class NoSession:
        rooms: dict[str, bool] = {}

    ui = Interactive(NoSession(), out, asyncio.Queue())  # type: ignore[arg-type]
    ui._ring()
    ui.bell = False
    ui._ring()
    assert out.file.getvalue() == "\a"  # type: ignore[attr-defined]


def test_the_input_line_says_your_move() -> None:
    from clients.cli.prompt import PromptLines

    with create_pipe_input() as pipe:
        lines = PromptLines(input=pipe, output=DummyOutput())
        assert lines.message() == "> "
        lines.set_status(lambda: "Your move")
        assert lines.message() == "Your move > "
        lines.set_hidden(True)
        assert lines.message() == "*> "


# ---- against a server ---------------------------------------------------------------------------


async def test_create_turn_based_shows_the_rule_and_the_lobby_marks_the_room(url: str, tmp_path: Path) -> None:
    ann = Typist(argv(url, tmp_path, "ann"))
    bob = Typist(argv(url, tmp_path, "bob"))
    try:
        await ann.wait("quick GAME SEATS", "ann's lobby")
        await bob.wait("quick GAME SEATS", "bob's lobby")
        ann.type("create expedition 2 --turn-based 3 --on-expiry wait")
        await ann.wait("Turn-based: 3 days a move; a late player is waited for", "the rule on the room screen")
        room = found(r"Created room (\S+)\.", ann.text)
        await until(lambda: re.search(rf"{room}\s*│ expedition \(turn-based\)", bob.text) is not None, what="the mark")
        async with Client(url) as cy:  # the server made it a turn-based room with that rule
            await cy.hello("cy")
            listed = next(r for r in (await cy.request("list_rooms"))["rooms"] if r["room"] == room)
            assert listed["mode"] == "turn_based"
            await cy.join(room, spectate=True)
            assert cy.view(room)["turn"] == {"mode": "turn_based", "turn_seconds": 3 * DAY, "on_expiry": "wait"}
        ann.type("l", "create classic 2 --turn-based 12h --on-expiry bat")
        await ann.wait("--on-expiry is wait, bot or end.")
        ann.type("create classic 2 --on-expiry end")
        await ann.wait("--on-expiry goes with --turn-based.")
        assert await ann.quit() == 0
        # the command line: 12 hours a move, the game ends on a timeout
        cli = Typist(argv(url, tmp_path, "dee", "--create", "--seats", "2", "--turn-based", "12h", "--on-expiry",
                          "end"))  # fmt: skip
        await until(lambda: said("Turn-based: 12 hours a move; the game ends when a player's time runs out", cli.text))
        assert await cli.quit() == 0
        assert await bob.quit() == 0
    finally:
        await cancel_all(ann.task, bob.task)


async def test_games_lists_your_turn_first_shows_itself_at_start_and_open_n_enters(url: str, tmp_path: Path) -> None:
    token = tmp_path / "token-ann"
    ann = await player(url, "ann", token)
    bob = await player(url, "bob")
    rooms = []
    for first, second in ((ann, bob), (bob, ann)):
        room = await ann.create_room("expedition", 2, options={"seed": 4}, mode="turn_based")
        await first.join(room)
        await second.join(room)
        for c in (ann, bob):
            await c.wait_for(room, lambda s: s["status"] == "playing")
        rooms.append(room)
    # one room where it is ann's move, one where it is bob's
    mine, theirs = rooms
    if not my_move(ann, mine):
        await move_until_not_mine(bob, mine)
    if my_move(ann, theirs):
        await move_until_not_mine(ann, theirs)
    assert my_move(ann, mine) and not my_move(ann, theirs)
    waiting = await ann.create("classic", 2)
    await ann.join(waiting)
    await ann.close()
    cli = Typist(["--url", url, "--name", "ann", "--token-file", str(token)])
    try:
        # it is ann's turn somewhere: "My games" is shown at start, her turn first
        await until(lambda: "My games" in cli.text and "open N plays it" in cli.text, what="my games at start")
        await until(lambda: len(game_rows(cli.text)) == 3, what="three games")
        screen = last_screen(cli.text, "My games")
        rows = game_rows(screen)
        assert [r[1] for r in rows][0] == mine and set(r[1] for r in rows) == {mine, theirs, waiting}
        by_room = {r[1]: r for r in rows}
        assert by_room[mine][3:5] == ["your turn", "in 2 days"] and by_room[mine][6] == "turn-based"
        assert by_room[theirs][3:5] == ["their turn", ""]  # the clock runs for bob, not for her
        assert by_room[waiting][3:] == ["waiting for players", "", "ann (you), ·", "live"]
        # the lobby's room list (above) marks the turn-based rooms
        lobby = last_screen(cli.text, "Lobby")
        assert re.search(rf"{mine}.*│ expedition \(turn-based\) │", lobby) is not None
        assert re.search(rf"{waiting}.*│ classic +│", lobby) is not None
        # bob moves where it was his turn: the list on screen follows, with a notice (no bell: not on screen)
        mark = len(cli.text)
        await move_until_not_mine(bob, theirs)
        await until(lambda: said(f"It is your move in room {theirs}", cli.text[mark:]), what="the notice")
        await until(
            lambda: [r[3] for r in game_rows(cli.text)] == ["your turn", "your turn", "waiting for players"],
            what="the list refreshed",
        )
        assert "\a" not in cli.text
        rows = game_rows(cli.text)
        assert {rows[0][1], rows[1][1]} == {mine, theirs} and rows[0][4] == rows[1][4] == "in 2 days"
        number = next(r[0] for r in rows if r[1] == mine)
        cli.type(f"open {number}")
        await cli.wait(f"Seated at seat 1 in room {mine}.", "the room opened by its number")
        room_screen = cli.since
        assert said("Turn-based: 3 days a move; a late player is waited for", room_screen)
        assert "Your move" in room_screen
        # back to the list, and the other room
        cli.type("games")
        await cli.wait("My games")
        number = next(r[0] for r in game_rows(cli.since) if r[1] == theirs)
        cli.type(f"open {number}")
        await cli.wait(f"Seated at seat 2 in room {theirs}.", "the other room")
        assert "Your move" in last_screen(cli.text, "Turn-based:")
        cli.type("open 9")  # in a room too
        await cli.wait("There is no game 9 in your list (games shows it).")
        cli.type(f"open {next(r[0] for r in game_rows(cli.text) if r[1] == mine)}")
        await cli.wait(f"Seated at seat 1 in room {mine}.", "back in the first room")
        assert await cli.quit() == 0
    finally:
        await cancel_all(cli.task)
        await bob.close()


async def test_the_bell_rings_once_when_it_becomes_your_move_and_not_after_bell_off(fast: App, tmp_path: Path) -> None:
    url = ws(fast)
    ann = Typist(argv(url, tmp_path, "ann", "--create", "--seats", "2", "--room-seed", "7"))
    bob: Client | None = None
    try:
        await until(lambda: "Invite link" in ann.text, what="ann's room")
        room = found(r"Created room (\S+)\.", ann.text)
        assert "\a" not in ann.text
        bob = await player(url, "bob")
        await bob.join(room)
        await bob.wait_for(room, lambda s: s["status"] == "playing")
        await move_until_not_mine(bob, room)  # when bob begins, he plays his turn: then it becomes ann's move
        header = "expedition  room"

        def screen() -> str:
            return last_screen(ann.text, header)

        def bells() -> int:
            return ann.text.count("\a")

        await until(lambda: bells() == 1 and "Your move" in screen(), what="the first bell")
        ann.type("s")  # redrawn: no second bell while it stays her move
        await asyncio.sleep(0.3)
        await until(lambda: "Your move" in screen())
        assert bells() == 1

        async def play_my_turn() -> None:
            """Ann types 1 until her turn is over (bob has a move), then bob plays his turn, and ann waits for her
            next move. Bob waits for her turn to end: so each of her turns is seen, not skipped by a quick bob."""
            while not my_move(bob, room):
                if "Your move" not in screen():
                    await asyncio.sleep(0.02)
                    continue
                before = len(ann.text)
                ann.type("1")
                await until(
                    lambda before=before: "You chose" in ann.text[before:] or "nothing for you" in ann.text[before:],
                    what="ann's move",
                )
            await move_until_not_mine(bob, room)
            await until(lambda: "Your move" in screen(), what="ann's move again")

        await play_my_turn()
        assert bells() == 2  # one more turn, one more bell (her small moves in between rang nothing)
        ann.type("bell off")
        await ann.wait("The bell is off.")
        await play_my_turn()
        assert bells() == 2
        ann.type("bell on")
        await ann.wait("The bell rings when it becomes your move.")
        await play_my_turn()
        assert bells() == 3
        assert await ann.quit() == 0
    finally:
        await cancel_all(ann.task)
        if bob is not None:
            await bob.close()


async def test_quick_match_counts_down_to_the_bots_and_its_host_starts_at_once(url: str, tmp_path: Path) -> None:
    ann = Typist(argv(url, tmp_path, "ann"))
    bob = Typist(argv(url, tmp_path, "bob"))
    try:
        await ann.wait("quick GAME SEATS", "ann's lobby")
        await bob.wait("quick GAME SEATS", "bob's lobby")
        ann.type("quick expedition 3 600")
        text = await ann.wait("Quick match: seat 1 in room")
        room = found(r"Quick match: seat 1 in room (\S+)\.", text)
        left = int(found(r"Bots fill the empty seats in (\d+) s\n", ann.text))
        assert 590 <= left <= 600
        bob.type("quick expedition 3")
        await bob.wait(f"Quick match: seat 2 in room {room}.")
        # the room's view carries its fill deadline (`fill_at`): Bob, who joined Ann's room, sees the same one
        assert said("Bots fill the empty seats in", bob.since) and "at the latest" not in bob.since
        joined_left = int(found(r"Bots fill the empty seats in (\d+) s\n", bob.since))
        assert joined_left <= left and joined_left >= 560
        # the server lets only the room's host (who opened it) start it now
        bob.type("start")
        await bob.wait("Only the room's host (the player who opened it) can start it now")
        ann.type("start")
        await ann.wait("Started now: server bots took the empty seats.")
        await until(lambda: re.search(rf"room {room}\s+playing", ann.text) is not None, what="the game under way")
        assert "Bots fill" not in last_screen(ann.text, f"room {room}  playing")
        ann.type("start")
        await ann.wait("The game has started already.")
        assert await ann.quit() == 0 and await bob.quit() == 0
    finally:
        await cancel_all(ann.task, bob.task)


async def test_a_quick_match_room_fills_with_bots_when_its_countdown_ends(fast: App, tmp_path: Path) -> None:
    ann = Typist(argv(ws(fast), tmp_path, "ann", "--quick", "--game", "expedition", "--seats", "2",
                      "--fill-bots-after", "3600"))  # fmt: skip  # 3600 s: 1.8 s here
    try:
        await until(lambda: "Bots fill the empty seats in" in ann.text, what="the countdown")
        room = found(r"Quick match: seat 1 in room (\S+)\.", ann.text)
        await until(lambda: re.search(rf"room {room}\s+playing", ann.text) is not None, what="the bots' start")
        assert await ann.quit() == 0
    finally:
        await cancel_all(ann.task)


async def test_a_late_seat_is_marked_and_a_timeout_ends_the_game_in_words(fast: App, tmp_path: Path) -> None:
    url = ws(fast)
    # wait: the seat whose time ran out is marked late; the game goes on waiting
    ann = Typist(argv(url, tmp_path, "ann", "--create", "--seats", "2", "--turn-based", "1h", "--room-seed", "3"))
    bob = await player(url, "bob")
    try:
        await until(lambda: "Invite link" in ann.text, what="ann's room")
        room = found(r"Created room (\S+)\.", ann.text)
        await bob.join(room)
        await bob.wait_for(room, lambda s: s["status"] == "playing")
        late = "bob" if my_move(bob, room) else "ann"
        await bob.wait_for(room, lambda s: bool((s.get("clock") or {}).get("late")), timeout=20)
        await until(lambda: f"{late} (guest) (late)" in ann.text, what="the late mark in the players' table")
        screen = last_screen(ann.text, "expedition  room")
        assert said(f"Clock: time ran out for {late}", screen) and "late, the game waits for them" in screen
        assert "The game ended" not in screen
        if late == "ann":  # her move still: she plays, and the mark goes
            assert "Your move" in screen
            ann.type("1")
            await until(lambda: "(late)" not in last_screen(ann.text, "expedition  room"), what="the mark gone")
        else:
            assert "Your move" not in screen
        assert await ann.quit() == 0
    finally:
        await cancel_all(ann.task)
        await bob.close()
    # end: the game ends naming the player whose time ran out
    cy = Typist(argv(url, tmp_path, "cy", "--create", "--seats", "2", "--turn-based", "1h", "--on-expiry", "end"))
    dee = await player(url, "dee")
    try:
        await until(lambda: "Invite link" in cy.text, what="cy's room")
        room = found(r"Created room (\S+)\.", cy.text)
        await dee.join(room)
        await dee.wait_for(room, lambda s: s["status"] == "playing")
        name = "dee" if my_move(dee, room) else "cy"
        started = time.monotonic()
        await until(lambda: f"The game ended: time ran out for {name}" in cy.text, timeout=20, what="the timeout")
        assert time.monotonic() - started < 15
        assert dee.view(room)["closed"] == "timeout"
        assert "The game is over." in last_screen(cy.text, "expedition  room")
        assert await cy.quit() == 0
    finally:
        await cancel_all(cy.task)
        await dee.close()
