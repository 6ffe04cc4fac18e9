"""Time banks and the clock's own moves in the terminal client (wire contract v1.2, issue 29): the clock line shows
each bank (spent once the deadline has passed), the room's rule names the bank, `create … --bank TIME` and
`--time-bank TIME` ask for one, and a log line the turn clock's move added reads "(the clock played for NAME)" in
the recent events and in the whole game's log. Clocks run scaled (`clock_scale`): an hour lasts 1.8 s."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from clients.cli.__main__ import parse_args
from clients.cli.games.common import LogRenderer
from clients.cli.public import clock_line, merge_log
from clients.cli.render import to_text
from clients.cli.turns import parse_bank, rule_text
from clients.client import Client
from server.net.app import App
from tests.cli.conftest import until
from tests.cli.test_accounts import said
from tests.cli.test_play import cancel_all, found
from tests.cli.test_players import Typist
from tests.cli.test_turn_based import argv, fast, last_screen, player, ws  # noqa: F401 - `fast` is a fixture

DAY = 86400


# ---- without a server ----------------------------------------------------------------------------------


def test_the_clock_line_shows_the_banks_and_spends_the_bank_of_a_seat_past_its_deadline() -> None:
    view: dict[str, Any] = {
        "you": 0,
        "status": "playing",
        "seats": [{"name": "ann"}, {"name": "bob"}],
        "clock": {"seats": [0], "deadline": 100_000, "bank": [60_000, 30_000]},
    }
    line = clock_line(view, now_ms=40_000)
    assert line is not None and line.plain.endswith("; time bank: ann (you) 1:00")
    line = clock_line(view, now_ms=115_500)  # 15.5 s past the deadline: 0:45 of the bank left
    assert line is not None and line.plain.startswith("Clock: 0:00 left for ann (you)")
    assert line.plain.endswith("; time bank: ann (you) 0:45")
    watcher = {**view, "you": 1}  # the other seat's own bank is shown as it is (not to move: not spent)
    line = clock_line(watcher, now_ms=115_500)
    assert line is not None and line.plain.endswith("; time bank: ann 0:45, bob (you) 0:30")
    plain = {**view, "clock": {"seats": [0], "deadline": 100_000}}  # a room without banks
    line = clock_line(plain, now_ms=40_000)
    assert line is not None and "time bank" not in line.plain


def test_the_rule_names_the_bank_and_the_bank_reads_as_a_turns_time() -> None:
    turn = {"mode": "turn_based", "turn_seconds": 3 * DAY, "on_expiry": "wait", "time_bank_seconds": DAY}
    assert rule_text({"turn": turn}) == (
        "Turn-based: 3 days a move; a late player is waited for. Each player also has a time bank of 1 day."
    )
    assert parse_bank("1") == parse_bank("1d") == DAY and parse_bank("12h") == 12 * 3600 and parse_bank("0") == 0
    assert parse_bank("14") == 14 * DAY and parse_bank("90m", live=True) == 5400
    for bad, live in (("15", False), ("2d", True), ("soon", False), ("-1", False)):
        with pytest.raises(ValueError):
            parse_bank(bad, live=live)
    args = parse_args(["--create", "--turn-based", "--time-bank", "12h"])
    assert args.time_bank == 12 * 3600
    assert parse_args(["--create", "--turn-seconds", "60", "--time-bank", "5m"]).time_bank == 300
    for bad_args in (["--create", "--time-bank", "1"], ["--quick", "--time-bank", "1"],
                     ["--create", "--turn-seconds", "60", "--time-bank", "2d"]):  # fmt: skip
        with pytest.raises(SystemExit):
            parse_args(bad_args)


def test_a_log_line_the_clock_made_is_marked_with_the_seat_it_played_for() -> None:
    view: dict[str, Any] = {
        "game": "nosuchgame",
        "you": 0,
        "seats": [{"name": "ann"}, {"name": "bob"}],
        "public": {"log": [{"n": 7, "ev": "a"}, {"n": 8, "ev": "b"}, {"n": 9, "ev": "c"}]},
        "clock_moves": [
            {"seat": 1, "by": "expired", "v": 12, "n_from": 8, "n_to": 8},
            {"seat": 0, "by": "auto", "v": 13},
        ],
    }
    text = to_text(LogRenderer().log(view), width=200)
    lines = [x.strip() for x in text.splitlines()]
    assert lines[2].endswith("(the clock played for bob)")
    assert "clock" not in lines[1] and "clock" not in lines[3]
    known: dict[int, str] = {}
    merge_log(known, view, view["public"]["log"])
    assert known[8].endswith(" (the clock played for bob)") and "clock" not in known[7] + known[9]


# ---- against a server ---------------------------------------------------------------------------


async def test_create_with_a_bank_shows_it_in_the_rule_and_the_clock_line(url: str, tmp_path: Path) -> None:
    ann = Typist(argv(url, tmp_path, "ann"))
    try:
        await ann.wait("quick GAME SEATS", "ann's lobby")
        ann.type("create expedition 2 --turn-based 3 --bank 2 --on-expiry wait")
        await ann.wait("Each player also has a time bank of 2 days.", "the rule on the room screen")
        room = found(r"Created room (\S+)\.", ann.text)
        async with Client(url) as bob:
            await bob.hello("bob")
            await bob.join(room)
            await bob.wait_for(room, lambda s: s["status"] == "playing")
            assert bob.view(room)["turn"]["time_bank_seconds"] == 2 * DAY
            assert bob.view(room)["clock"]["bank"] == [2 * DAY * 1000] * 2
            await until(lambda: "time bank: " in ann.text, what="the banks on the clock line")
            assert re.search(r"time bank: (ann \(you\)|bob) 2d 0:00:00", last_screen(ann.text, "expedition  room"))
        ann.type("l", "create classic 2 --bank 1")
        await ann.wait("--bank goes with --turn-based.")
        ann.type("create classic 2 --turn-based 3 --bank 15")
        await ann.wait("A time bank is at most 14 days")
        assert await ann.quit() == 0
    finally:
        await cancel_all(ann.task)


async def test_a_move_the_clock_made_is_marked_in_the_log(fast: App, tmp_path: Path) -> None:  # noqa: F811
    url = ws(fast)
    # an hour a move (1.8 s here), half an hour of bank each (0.9 s); a late seat's bot moves for it
    ann = Typist(argv(url, tmp_path, "ann", "--create", "--seats", "2", "--turn-based", "1h", "--on-expiry", "bot",
                      "--time-bank", "0.5h", "--room-seed", "3"))  # fmt: skip
    bob = await player(url, "bob")
    try:
        await until(lambda: "Invite link" in ann.text, what="ann's room")
        room = found(r"Created room (\S+)\.", ann.text)
        await bob.join(room)
        await bob.wait_for(room, lambda s: s["status"] == "playing")
        assert bob.view(room)["turn"]["time_bank_seconds"] == 1800
        await bob.wait_for(room, lambda s: bool(s.get("clock_moves")), timeout=20)
        moved = bob.view(room)["clock_moves"][0]
        name = ["ann", "bob"][moved["seat"]]
        await until(lambda: f"(the clock played for {name})" in ann.text, what="the marked line")
        screen = last_screen(ann.text, "expedition  room")
        assert said(f"(the clock played for {name})", screen)
        # the whole game's log marks it too
        ann.type("log")
        await ann.wait("The whole game:", "the whole log")
        assert f"(the clock played for {name})" in ann.since
        ann.type("")  # back to the room
        await ann.wait("Invite link")
        assert await ann.quit() == 0
    finally:
        await cancel_all(ann.task)
        await bob.close()
