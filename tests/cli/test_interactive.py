"""Interactive mode against an in-process server, typing lines into the client's input queue."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable
from pathlib import Path

from clients.cli.__main__ import run
from clients.client import Client
from tests.cli.conftest import Screen, until
from tests.cli.test_play import cancel_all, finish, found


def ui_argv(url: str, tmp_path: Path, name: str) -> list[str]:
    """Command line of an interactive client called `name`."""
    return ["--url", url, "--name", name, "--token-file", str(tmp_path / f"token-{name}")]


async def test_a_player_creates_a_room_from_the_menu_and_moves_by_typing_a_number(
    url: str, screen: Callable[[], Screen], tmp_path: Path
) -> None:
    ann_screen, cy_screen = screen(), screen()
    ann_lines: asyncio.Queue[str | None] = asyncio.Queue()
    cy_lines: asyncio.Queue[str | None] = asyncio.Queue()
    ann = asyncio.create_task(run(ui_argv(url, tmp_path, "ann"), console=ann_screen.console, lines=ann_lines))
    cy = asyncio.create_task(run(ui_argv(url, tmp_path, "cy"), console=cy_screen.console, lines=cy_lines))
    try:
        async with Client(url) as bob:
            await until(lambda: "1) create a room" in ann_screen.text, what="the lobby menu")
            for line in ("1", "expedition", "2", ""):  # create: which game, how many seats, no server bot
                ann_lines.put_nowait(line)
            await until(lambda: "Seated at seat 1 in room" in ann_screen.text, what="ann's seat")
            room = found(r"Seated at seat 1 in room (\S+)\.", ann_screen.text)
            assert "Waiting for the seats to fill" in ann_screen.text
            # cy's lobby updates live and lists the room as number 1
            await until(lambda: room in cy_screen.text, what="the room in cy's lobby")

            await bob.hello("bob")
            await bob.join(room)  # the game starts; the room's seed draws the start player
            await bob.wait_for(room, lambda s: s.get("status") == "playing")
            while bob.view(room).get("prompt"):  # bob starts: he passes and draws from the deck
                await bob.move(room, bob.view(room)["prompt"]["options"][-1])
                await bob.sync(room)
            await until(lambda: re.search(r"^\s+1\) ", ann_screen.text, re.MULTILINE), what="numbered options")
            assert re.search(r"Turn \d+: ann \(you\) to play", ann_screen.text)
            assert "Your hand (10 cards)" in ann_screen.text  # two players hold 10 cards each
            v_before = bob.views[room].v
            ann_lines.put_nowait("1")
            await until(lambda: "You chose: " in ann_screen.text, what="ann's move")
            await bob.wait_for(room, lambda s: bob.views[room].v > v_before)

            cy_lines.put_nowait("3")  # spectate …
            cy_lines.put_nowait("1")  # … room number 1
            await until(lambda: f"Watching room {room}." in cy_screen.text, what="cy watching")
            assert "you: spectator" in cy_screen.text
            assert "Your hand" not in cy_screen.text

            ann_lines.put_nowait("99")
            await until(lambda: "Choose an option from 1 to" in ann_screen.text, what="a refused number")
            ann_lines.put_nowait("l")
            await until(lambda: f"Left room {room}." in ann_screen.text, what="ann back in the lobby")
            ann_lines.put_nowait("5")
            cy_lines.put_nowait("q")
            assert await finish(ann, cy, timeout=5) == [0, 0]
    finally:
        await cancel_all(ann, cy)


async def test_a_restarted_interactive_client_opens_its_seat_again(
    url: str, screen: Callable[[], Screen], tmp_path: Path
) -> None:
    first, second = screen(), screen()
    lines: asyncio.Queue[str | None] = asyncio.Queue()
    for line in ("1", "expedition", "2", "0"):  # create: game, seats, no server bot
        lines.put_nowait(line)
    ui = asyncio.create_task(run(ui_argv(url, tmp_path, "ann"), console=first.console, lines=lines))
    await until(lambda: "Seated at seat 1" in first.text, what="ann's seat")
    room = found(r"Seated at seat 1 in room (\S+)\.", first.text)
    lines.put_nowait(None)  # end of input quits
    assert await finish(ui, timeout=5) == [0]

    lines = asyncio.Queue()
    ui = asyncio.create_task(run(ui_argv(url, tmp_path, "ann"), console=second.console, lines=lines))
    try:
        await until(lambda: f"re-joined room {room} at seat 1" in second.text, what="the re-join")
        await until(lambda: f"room {room}  waiting  you: seat 1 (ann)" in second.text, what="the room screen")
        assert found(r"player (p\w+)", second.text) == found(r"player (p\w+)", first.text)
        lines.put_nowait("q")
        assert await finish(ui, timeout=5) == [0]
    finally:
        await cancel_all(ui)
