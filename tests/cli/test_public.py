"""The terminal client in public lobbies: `quick`, invite links (printed and accepted), the turn clock's countdown,
chat as plain text, and stepping through the replay of a finished game; against an in-process server."""

from __future__ import annotations

import asyncio
import random
import re
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest

from clients.cli.__main__ import run
from clients.cli.public import clock_line, clock_text, invite_link, parse_link, web_base
from clients.client import Client, ServerError
from server.config import Settings
from server.net.app import App
from tests.cli.conftest import Screen, until
from tests.cli.test_play import cancel_all, finish, found

SCALE = 0.05  # a 60 s clock runs out in 3 s


@pytest.fixture
async def app() -> AsyncIterator[App]:
    """A node with fast clocks and server bots (and no bot filling of quick-match rooms)."""
    node = App(Settings(port=0, allow_client_seed=True, clock_scale=SCALE, bot_delay=0.01, quick_fill_bots_after=0))
    await node.start()
    try:
        yield node
    finally:
        await node.stop()


def argv(url: str, tmp_path: Path, name: str, *extra: str) -> list[str]:
    return ["--url", url, "--name", name, "--token-file", str(tmp_path / f"token-{name}"), *extra]


# ---- links and the clock, without a server --------------------------------------------------------


def test_a_room_link_is_the_browsers_address_and_reads_back_with_its_invite() -> None:
    assert web_base("ws://127.0.0.1:8765/ws") == "http://127.0.0.1:8765/"
    assert web_base("wss://games.example/mp/ws") == "https://games.example/mp/"
    link = invite_link("ws://127.0.0.1:8765/ws", "r1a2b3", "Sx-_9")
    assert link == "http://127.0.0.1:8765/#/room/r1a2b3?invite=Sx-_9"
    assert parse_link(link) == ("r1a2b3", "Sx-_9")
    assert parse_link("http://h/#/room/r9") == ("r9", None)
    assert parse_link("#/room/r9?invite=k") == ("r9", "k")
    assert parse_link(" r77 ") == ("r77", None)
    with pytest.raises(ValueError):
        parse_link("http://h/#/history")


def test_the_clock_line_names_the_seats_and_the_time_left() -> None:
    view = {"you": 0, "seats": [{"name": "ann"}, {"name": "bob"}], "clock": {"seats": [0], "deadline": 100_000}}
    line = clock_line(view, now_ms=100_000 - 61_500)
    assert line is not None and line.plain.startswith("Clock: 1:02 left for ann (you)")
    assert clock_line({**view, "result": {"scores": [1, 2]}}) is None
    assert clock_line({"you": None, "seats": []}) is None
    assert clock_text(3725) == "1:02:05" and clock_text(-4) == "0:00"


# ---- against a server ---------------------------------------------------------------------------


async def test_quick_from_two_terminals_seats_both_in_one_room_and_the_game_starts(
    url: str, screen: Callable[[], Screen], tmp_path: Path
) -> None:
    a, b = screen(), screen()
    a_lines: asyncio.Queue[str | None] = asyncio.Queue()
    b_lines: asyncio.Queue[str | None] = asyncio.Queue()
    ann = asyncio.create_task(run(argv(url, tmp_path, "ann"), console=a.console, lines=a_lines))
    bob = asyncio.create_task(run(argv(url, tmp_path, "bob"), console=b.console, lines=b_lines))
    try:
        await until(lambda: "quick GAME SEATS" in a.text and "quick GAME SEATS" in b.text, what="the menus")
        # 0: no bots asked for (the quick match's default is 60 s, 3 s at this clock scale: bob might come later)
        a_lines.put_nowait("quick classic 2 0")
        await until(lambda: "Quick match: seat 1 in room" in a.text, what="ann's quick match")
        room = found(r"Quick match: seat 1 in room (\S+)\.", a.text)
        b_lines.put_nowait("quick classic 2 0")
        await until(lambda: f"Quick match: seat 2 in room {room}." in b.text, what="bob in ann's room")
        await until(lambda: re.search(rf"room {room}\s+playing", a.text) is not None, what="the game starting")
        # a quick-match room has a clock; the room screen shows it
        await until(lambda: "Clock: " in b.text, what="the countdown")
        a_lines.put_nowait("q")
        b_lines.put_nowait("q")
        assert await finish(ann, bob, timeout=10) == [0, 0]
    finally:
        await cancel_all(ann, bob)


async def test_an_unlisted_rooms_link_is_printed_and_a_second_terminal_joins_by_it(
    url: str, screen: Callable[[], Screen], tmp_path: Path
) -> None:
    a, b = screen(), screen()
    a_lines: asyncio.Queue[str | None] = asyncio.Queue()
    b_lines: asyncio.Queue[str | None] = asyncio.Queue()
    ann = asyncio.create_task(
        run(argv(url, tmp_path, "ann", "--create", "--private", "--seats", "2"), console=a.console, lines=a_lines)
    )
    bob: asyncio.Task[int] | None = None
    try:
        await until(lambda: "Invite link: " in a.text, what="the invite link")
        link = found(r"Invite link: (\S+)", a.text)
        room, invite = parse_link(link)
        assert invite and link.startswith(url.replace("ws://", "http://").removesuffix("ws") + "#/room/")
        async with Client(url) as stranger:  # the room id alone does not open it
            await stranger.hello("cy")
            with pytest.raises(ServerError) as refused:
                await stranger.join(room, spectate=True)
            assert refused.value.code == "forbidden"
        bob = asyncio.create_task(run(argv(url, tmp_path, "bob", "--join", link), console=b.console, lines=b_lines))
        await until(lambda: f"Seated at seat 2 in room {room}." in b.text, what="bob seated by the link")
        await until(lambda: re.search(rf"room {room}\s+playing", a.text) is not None, what="the game starting")
        a_lines.put_nowait("q")
        b_lines.put_nowait("q")
        assert await finish(ann, bob, timeout=10) == [0, 0]
    finally:
        await cancel_all(ann, *([bob] if bob else []))


async def test_open_takes_a_free_seat_by_link_and_t_takes_one_after_watching(
    url: str, screen: Callable[[], Screen], tmp_path: Path
) -> None:
    s = screen()
    lines: asyncio.Queue[str | None] = asyncio.Queue()
    async with Client(url) as host:
        await host.hello("host")
        room = await host.create("expedition", 3)
        await host.join(room)
        cli = asyncio.create_task(run(argv(url, tmp_path, "eve"), console=s.console, lines=lines))
        try:
            await until(lambda: "quick GAME SEATS" in s.text, what="the menu")
            lines.put_nowait("3 1")  # spectate room number 1 …
            await until(lambda: f"Watching room {room}." in s.text, what="eve watching")
            await until(lambda: "A seat is free: t takes it." in s.text, what="the free-seat hint")
            lines.put_nowait("t")
            await until(lambda: f"Seated at seat 2 in room {room}." in s.text, what="eve seated")
            lines.put_nowait("l")
            await until(lambda: f"Left room {room}." in s.text, what="eve back in the lobby")
            lines.put_nowait(f"open {invite_link(url, room)}")
            await until(lambda: s.text.count(f"Seated at seat 2 in room {room}.") == 2, what="eve seated by open")
            lines.put_nowait("q")
            assert await finish(cli, timeout=10) == [0]
        finally:
            await cancel_all(cli)


async def test_the_countdown_shows_and_the_server_plays_for_a_terminal_that_never_moves(
    url: str, screen: Callable[[], Screen], tmp_path: Path
) -> None:
    s = screen()
    lines: asyncio.Queue[str | None] = asyncio.Queue()
    extra = ("--create", "--seats", "2", "--bots", "1", "--turn-seconds", "60", "--room-seed", "3")
    cli = asyncio.create_task(run(argv(url, tmp_path, "ann", *extra), console=s.console, lines=lines))
    try:
        await until(lambda: re.search(r"Clock: 0:0[0-3] left for ann \(you\)", s.text) is not None, what="the clock")
        room = found(r"Seated at seat 1 in room (\S+)\.", s.text)
        async with Client(url) as watcher:
            await watcher.hello("watcher")
            await watcher.join(room, spectate=True)
            first = watcher.views[room].v
            deadline = watcher.view(room)["clock"]["deadline"]
            # ann types nothing: the clock runs out, the server plays her seat (and the bot its own): new versions
            await watcher.wait_for(room, lambda v: watcher.views[room].v >= first + 2, timeout=20)
            await watcher.wait_for(room, lambda v: (v.get("clock") or {}).get("deadline", deadline) != deadline, 20)
        await until(lambda: len(re.findall(r"Clock: \d:\d\d left for ann \(you\)", s.text)) >= 2, what="a new clock")
        assert "You chose" not in s.text
        lines.put_nowait("q")
        assert await finish(cli, timeout=10) == [0]
    finally:
        await cancel_all(cli)


async def test_chat_lines_are_plain_text_in_the_terminal(
    url: str, screen: Callable[[], Screen], tmp_path: Path
) -> None:
    a, b = screen(), screen()
    a_lines: asyncio.Queue[str | None] = asyncio.Queue()
    b_lines: asyncio.Queue[str | None] = asyncio.Queue()
    ann = asyncio.create_task(run(argv(url, tmp_path, "ann"), console=a.console, lines=a_lines))
    bob = asyncio.create_task(run(argv(url, tmp_path, "bob"), console=b.console, lines=b_lines))
    try:
        await until(lambda: "quick GAME SEATS" in a.text and "quick GAME SEATS" in b.text, what="the menus")
        a_lines.put_nowait("say [bold red]hi[/] <script>x</script>")
        # ann plays as a guest: her name is marked (v1.2)
        line = "ann (guest): [bold red]hi[/] <script>x</script>"
        await until(lambda: line in b.text, what="the lobby line, verbatim")
        a_lines.put_nowait("q")
        b_lines.put_nowait("q")
        assert await finish(ann, bob, timeout=10) == [0, 0]
    finally:
        await cancel_all(ann, bob)


async def play_to_the_end(url: str, seed: int = 5) -> tuple[str, dict[str, object], str]:
    """Two Python clients play a 2-seat Expedition with random options; returns (room, final view, ann's token)."""
    rng = random.Random(seed)
    async with Client(url) as p1, Client(url) as p2:
        await p1.hello("ann")
        await p2.hello("bob")
        room = await p1.create("expedition", 2, {"seed": seed})
        await p1.join(room)
        await p2.join(room)
        while True:
            for c in (p1, p2):
                await c.wait_for(room, lambda s: True)
            if p1.view(room).get("result") is not None and p2.view(room).get("result") is not None:
                assert p1.token is not None
                return room, p1.view(room), p1.token
            moved = False
            for c in (p1, p2):
                view = c.view(room)
                if view.get("prompt"):
                    try:
                        await c.move(room, rng.choice(view["prompt"]["options"]))
                    except ServerError as err:  # a view one version behind, or too fast for the rate limit
                        assert err.code in ("stale", "not_your_turn", "rate_limited")
                        await asyncio.sleep(0.2 if err.code == "rate_limited" else 0.01)
                    moved = True
            if not moved:
                await asyncio.sleep(0.01)


async def test_a_finished_game_is_stepped_first_back_forward_last_in_the_terminal(
    url: str, screen: Callable[[], Screen], tmp_path: Path
) -> None:
    room, final, _token = await play_to_the_end(url)
    s = screen()
    lines: asyncio.Queue[str | None] = asyncio.Queue()
    cli = asyncio.create_task(run(argv(url, tmp_path, "cy", "--replay", room), console=s.console, lines=lines))

    try:
        await until(lambda: re.search(rf"Replay {room}\s+version 0 of \d+", s.text) is not None, what="version 0")
        last = int(found(rf"Replay {room}\s+version 0 of (\d+)", s.text))
        assert last > 20
        for line, v in (("n", 1), ("", 2), ("b", 1), ("e", last), ("f", 0), ("g 7", 7), ("9", 9)):
            mark = len(s.text)
            lines.put_nowait(line)
            await until(lambda v=v, mark=mark: re.search(rf"version {v} of {last}", s.text[mark:]) is not None,
                        what=f"version {v} after {line!r}")
            if v == last:
                assert "Final result" in s.text[mark:] and "Winner" in s.text[mark:]
        lines.put_nowait("l")
        lines.put_nowait("history")
        await until(lambda: "Finished games" in s.text and room in s.text.split("Finished games")[-1], what="history")
        mark = len(s.text)
        lines.put_nowait("replay 1")
        again = rf"Replay {room}\s+version 0 of {last}"
        await until(lambda: re.search(again, s.text[mark:]) is not None, what="replay 1")
        lines.put_nowait("l")
        lines.put_nowait("ratings expedition")
        # v1.2: only games whose every person is an account are rated; these players were guests
        await until(lambda: "No rated game of expedition yet." in s.text, what="the (empty) leaderboard")
        assert final.get("result")
        lines.put_nowait("q")
        assert await finish(cli, timeout=10) == [0]
    finally:
        await cancel_all(cli)


async def test_r_at_the_end_of_a_game_opens_the_rematch_and_seats_the_player(
    url: str, screen: Callable[[], Screen], tmp_path: Path
) -> None:
    room, _final, token = await play_to_the_end(url, seed=8)
    (tmp_path / "token-ann").write_text(token + "\n", encoding="utf-8")  # the CLI is ann, who played it
    s = screen()
    lines: asyncio.Queue[str | None] = asyncio.Queue()
    cli = asyncio.create_task(run(argv(url, tmp_path, "ann", "--spectate", room), console=s.console, lines=lines))
    try:
        await until(lambda: "The game is over." in s.text, what="the finished room")
        assert "Invite link: " not in s.text.split("The game is over.")[-1]
        seated = re.compile(r"Seated at seat \d in room (\S+)\.")
        lines.put_nowait("r")
        await until(lambda: any(r != room for r in seated.findall(s.text)), what="the rematch")
        new = seated.findall(s.text)[-1]
        await until(lambda: "Invite link: " in s.text, what="the rematch's link")
        link = found(r"Invite link: (\S+)", s.text)
        assert parse_link(link)[0] == new and parse_link(link)[1]  # the rematch is unlisted: its link has the invite
        lines.put_nowait("q")
        assert await finish(cli, timeout=10) == [0]
    finally:
        await cancel_all(cli)


async def test_log_shows_every_event_of_the_game_not_only_the_views_last_few(
    url: str, screen: Callable[[], Screen], tmp_path: Path
) -> None:
    s = screen()
    lines: asyncio.Queue[str | None] = asyncio.Queue()
    # a 10 s clock at scale 0.05: ann's seat is played by the clock, then by a bot, to the end
    extra = ("--create", "--seats", "2", "--bots", "1", "--turn-seconds", "10", "--room-seed", "4")
    cli = asyncio.create_task(run(argv(url, tmp_path, "ann", *extra), console=s.console, lines=lines))
    try:
        await until(lambda: "The game is over." in s.text, 90, what="the end of the game")
        room = found(r"Seated at seat 1 in room (\S+)\.", s.text)
        async with Client(url) as watcher:
            await watcher.hello("watcher")
            await watcher.join(room, spectate=True)
            kept = watcher.view(room)["public"]["log"]
        newest = max(ev["n"] for ev in kept)
        assert newest > len(kept) + 10  # the view keeps the last few events only
        mark = len(s.text)
        lines.put_nowait("log")
        await until(lambda: "The whole game: " in s.text[mark:], what="the whole log")
        page = s.text[mark:]
        total = int(found(r"The whole game: (\d+) events", page))
        numbers = [int(n) for n in re.findall(r"^\s+(\d+)\. ", page, re.MULTILINE)]
        assert numbers[0] == newest and total == len(numbers) == len(set(numbers))
        assert sorted(numbers) == list(range(min(numbers), newest + 1)) and min(numbers) <= 1
        lines.put_nowait("")
        lines.put_nowait("q")
        assert await finish(cli, timeout=10) == [0]
    finally:
        await cancel_all(cli)
