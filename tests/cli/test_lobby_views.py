"""The terminal client shows the other players' ratings (seats, the lobby list, the room) and, in a game it
opens under way, the whole log from the server's `game_log`; against an in-process server where needed."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable
from pathlib import Path

from clients.cli.__main__ import run
from clients.cli.public import ratings_line
from clients.cli.render import render_lobby, seats_table, to_text
from tests.cli.conftest import Screen, until
from tests.cli.test_play import cancel_all, finish, found
from tests.net.test_lobby_views import game_under_way


def _argv(url: str, tmp_path: Path, name: str, *extra: str) -> list[str]:
    return ["--url", url, "--name", name, "--token-file", str(tmp_path / f"token-{name}"), *extra]


SEATS = [
    {"name": "ann", "taken": True, "connected": True, "rating": 1250},
    {"name": "bob", "taken": True, "connected": False, "rating": None},
    {"name": None, "taken": False, "connected": False, "rating": None},
]


def test_the_seats_and_the_room_show_each_rated_players_rating() -> None:
    view = {"game": "expedition", "you": 1, "status": "waiting", "seats": SEATS}
    text = to_text(seats_table(view))
    assert "rating" in text and re.search(r"ann\W+yes\W+1250", text), text
    line = ratings_line({**view, "status": "playing"})
    assert line is not None and line.plain == "Ratings: ann 1250"
    # nobody rated (or a server without ratings): no column, no line
    bare = [{k: v for k, v in s.items() if k != "rating"} for s in SEATS]
    assert "rating" not in to_text(seats_table({**view, "seats": bare}))
    assert ratings_line({**view, "seats": bare}) is None


def test_the_lobby_lists_each_players_rating_beside_the_name() -> None:
    rooms = [
        {
            "room": "r1",
            "game": "expedition",
            "seats": 3,
            "players": ["ann", "bob", None],
            "status": "waiting",
            "public": True,
            "ratings": [1250, -40, None],
        },
        {"room": "r2", "game": "classic", "seats": 2, "players": ["cy", None], "status": "waiting", "public": True},
    ]
    text = to_text(render_lobby(rooms), width=140)
    assert "ann (1250), bob (-40), ·" in text and "cy, ·" in text, text


async def test_a_terminal_that_watches_a_game_under_way_shows_its_whole_log(
    url: str, screen: Callable[[], Screen], tmp_path: Path
) -> None:
    room, a, b = await game_under_way(url, ("ann", "bob"), 12, moves=60)
    events = await a.game_log(room)
    kept = a.view(room)["public"]["log"]
    assert len(events) > len(kept) + 10  # the view keeps the last few only
    s = screen()
    lines: asyncio.Queue[str | None] = asyncio.Queue()
    cli = asyncio.create_task(run(_argv(url, tmp_path, "cy", "--spectate", room), console=s.console, lines=lines))
    try:
        await until(lambda: f"Watching room {room}." in s.text, what="cy watching")
        mark = len(s.text)
        lines.put_nowait("log")
        await until(lambda: "The whole game: " in s.text[mark:], what="the whole log")
        page = s.text[mark:]
        numbers = [int(n) for n in re.findall(r"^\s+(\d+)\. ", page, re.MULTILINE)]
        assert int(found(r"The whole game: (\d+) events", page)) == len(events)
        assert sorted(numbers) == [ev["n"] for ev in events] and min(numbers) == 1
        lines.put_nowait("")
        lines.put_nowait("q")
        assert await finish(cli, timeout=10) == [0]
    finally:
        await cancel_all(cli)
        await a.close()
        await b.close()
