"""The terminal client end to end against an in-process server: bots play whole games, a player comes back.

Every CLI runs as an asyncio task through `clients.cli.__main__.run` (no subprocesses), with its token
file in tmp_path and its console captured in memory.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections.abc import Callable
from pathlib import Path

from clients.cli.__main__ import run
from server.net.app import App
from tests.cli.conftest import Screen, until


def bot_argv(url: str, tmp_path: Path, name: str, *extra: str) -> list[str]:
    """Command line of a random bot called `name` with its token file in tmp_path."""
    return ["--url", url, "--name", name, "--token-file", str(tmp_path / f"token-{name}"), "--bot", "random", *extra]


def found(pattern: str, text: str) -> str:
    """The first group of `pattern` in `text` (fails the test when absent)."""
    match = re.search(pattern, text, re.MULTILINE)
    assert match is not None, f"{pattern!r} not in:\n{text}"
    return match[1]


async def finish(*tasks: asyncio.Task[int], timeout: float = 60.0) -> list[int]:
    """Wait for the CLI tasks' exit codes; on a timeout or failure cancel them all so every connection closes."""
    try:
        return list(await asyncio.wait_for(asyncio.gather(*tasks), timeout))
    finally:
        await cancel_all(*tasks)


async def cancel_all(*tasks: asyncio.Task[int]) -> None:
    """Cancel whatever is still running and wait for it (the CLIs close their connections); never raises.

    On Python 3.11 `asyncio.wait_for` can swallow a cancellation that arrives as its inner wait completes
    (fixed in 3.12), so a task still running after a moment is cancelled again.
    """
    for task in tasks:
        task.cancel()
    for task in tasks:
        for _ in range(100):
            done, _pending = await asyncio.wait({task}, timeout=0.1)
            if done:
                break
            task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            if task.done():
                task.result()


async def test_three_random_bots_play_one_created_room_to_the_end(
    url: str, screen: Callable[[], Screen], tmp_path: Path
) -> None:
    screens = [screen() for _ in range(3)]
    creator = bot_argv(url, tmp_path, "ann", "--create", "--game", "expedition", "--seats", "3", "--seed", "1")
    ann = asyncio.create_task(run([*creator, "--room-seed", "11", "--quiet"], console=screens[0].console))
    await until(lambda: "created room" in screens[0].text, what="the room")
    room = found(r"created room (\S+)", screens[0].text)
    others = [
        asyncio.create_task(
            run(bot_argv(url, tmp_path, name, "--join", room, "--seed", str(i), "--quiet"), console=s.console)
        )
        for i, (name, s) in enumerate((("bob", screens[1]), ("cy", screens[2])), 2)
    ]
    assert await finish(ann, *others) == [0, 0, 0]
    results = [found(r"^result: (.*)$", s.text) for s in screens]
    assert all("Winner" in r for r in results)
    assert len({r.replace(" (you)", "") for r in results}) == 1  # everybody saw the same result
    for name, s in zip(("ann", "bob", "cy"), screens, strict=True):
        assert f"{name} in room {room} at seat" in s.text
        assert int(found(rf"^{name} made (\d+) moves", s.text)) > 10
        assert "Final result" in s.text


async def test_a_restarted_cli_with_the_same_token_file_is_the_same_player_back_in_its_seat(
    url: str, screen: Callable[[], Screen], tmp_path: Path
) -> None:
    first, second, other = screen(), screen(), screen()
    slow = bot_argv(url, tmp_path, "ann", "--create", "--seats", "2", "--room-seed", "3", "--delay", "0.02")
    ann = asyncio.create_task(run(slow, console=first.console))
    bob = again = None
    try:
        await until(lambda: "created room" in first.text, what="the room")
        room = found(r"created room (\S+)", first.text)
        bob = asyncio.create_task(run(bot_argv(url, tmp_path, "bob", "--join", room, "--quiet"), console=other.console))
        await until(lambda: first.text.count("\nann: ") >= 2, what="ann's first moves")
        ann.cancel()  # the program is killed mid-game
        with contextlib.suppress(asyncio.CancelledError):
            await ann
        token = (tmp_path / "token-ann").read_text()
        # the restarted client names no room: the rooms listed in `welcome` bring it back to its seat
        again = asyncio.create_task(run(bot_argv(url, tmp_path, "ann"), console=second.console))
        await until(lambda: "\nann: " in second.text or "result: " in second.text, what="ann playing again")
    finally:
        await cancel_all(*(t for t in (ann, bob, again) if t is not None))
    assert found(r"player (p\w+)", second.text) == found(r"player (p\w+)", first.text)
    assert (tmp_path / "token-ann").read_text() == token
    assert f"re-joined room {room} at seat 1" in second.text
    assert f"ann in room {room} at seat 1" in second.text


async def test_a_bot_whose_connection_drops_reconnects_and_plays_on(
    app: App, url: str, screen: Callable[[], Screen], tmp_path: Path
) -> None:
    mine, other = screen(), screen()
    ann = asyncio.create_task(
        run(bot_argv(url, tmp_path, "ann", "--create", "--seats", "2", "--delay", "0.005"), console=mine.console)
    )
    bob = None
    try:
        await until(lambda: "created room" in mine.text, what="the room")
        room = found(r"created room (\S+)", mine.text)
        bob = asyncio.create_task(run(bot_argv(url, tmp_path, "bob", "--join", room, "--quiet"), console=other.console))
        await until(lambda: mine.text.count("\nann: ") >= 3, what="ann's first moves")
        player = found(r"player (p\w+)", mine.text)
        app.hub.players[player].abort(1012, "service restart")  # the server drops ann's socket
        await until(lambda: f"re-joined room {room} at seat 1" in mine.text, what="the re-join")
        moves = mine.text.count("\nann: ")
        await until(lambda: mine.text.count("\nann: ") > moves or "result: " in mine.text, what="a move after it")
        assert player in app.hub.players  # the new connection is registered for the same player
    finally:
        await cancel_all(*(t for t in (ann, bob) if t is not None))
    assert "connection lost; reconnecting" in mine.text


async def test_a_bot_without_a_room_to_play_says_so(url: str, screen: Callable[[], Screen], tmp_path: Path) -> None:
    s = screen()
    assert await run(bot_argv(url, tmp_path, "zed"), console=s.console) == 2
    assert "nothing to play" in s.text


async def test_an_unreachable_server_is_reported_after_a_few_attempts(
    screen: Callable[[], Screen], tmp_path: Path
) -> None:
    s = screen()
    argv = ["--url", "ws://127.0.0.1:9/ws", "--name", "ann", "--token-file", str(tmp_path / "t"), "--bot", "random"]
    assert await run([*argv, "--reconnect-attempts", "2"], console=s.console) == 1
    assert "could not connect to ws://127.0.0.1:9/ws" in s.text
