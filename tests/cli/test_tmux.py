"""The terminal client as a person sees it: the real program in an 80x24 tmux pane against a test server, a game of
every game played against a server bot by typing option numbers, the screen read with `tmux capture-pane` at every
step. Each captured screen must hold whose turn it is, the room's turn clock, your resources and the numbered options
(and fit the pane: 24 rows, no line wider than 80); PgDn turns the options' page, F2 flips to the board and back, and a
pane resized to 100x30 and back is drawn anew, the same as before.

Needs tmux (CI installs it, .ci/run); skipped where it is missing, except under CI."""

from __future__ import annotations

import asyncio
import os
import random
import re
import shlex
import shutil
import sys
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from clients.client import Client
from server.config import Settings
from server.net.app import App

ROOT = Path(__file__).resolve().parents[2]
WIDTH, HEIGHT = 80, 24

if shutil.which("tmux") is None:
    if os.environ.get("CI"):
        pytest.fail("tmux is missing (apt-get install tmux; .ci/run installs it)", pytrace=False)
    pytest.skip("tmux is not installed", allow_module_level=True)


@pytest.fixture
async def app() -> AsyncIterator[App]:
    """The test server, its bots moving at once."""
    node = App(Settings(port=0, allow_client_seed=True, bot_delay=0.0))
    await node.start()
    try:
        yield node
    finally:
        await node.stop()


#: what the screen says after a number typed: the move made, or why not
AFTER_MOVE = ("You chose: ", "That option is out of date", "Choose an option from", "There is nothing for you to do")


#: each game: its room options (a short classic game: 10 rounds), whose-turn line and your-resources line (as the
#: English screen says them)
@dataclass
class Game:
    options: dict[str, str]
    turn: str
    yours: str


GAMES: dict[str, Game] = {
    "expedition": Game({}, r"^Turn \d+: .* to play, ", r"^Your hand \(\d+ cards\):"),
    "classic": Game({"max_rounds": "10"}, r"^Round \d+ of 10: .* to ", r"^Your money: \d+ bezants\."),
    "voyages": Game({"character_draft": "true"}, r"^Round \d of 5\. ", r"^ann \(you\) · .*\d+ coins?, "),
    "khan": Game({}, r"^Round \d of 5\. ", r"^ann \(you\) · .*\d+ coins?, "),
}
OPTION = re.compile(r"^\s+(\d+)\) ")
CLOCK = re.compile(r"^Clock: (\d+:\d\d) left for .*ann \(you\)")


class Pane:
    """A tmux server of the test's own (its own socket) with one 80x24 pane running a command."""

    def __init__(self, tmp: Path) -> None:
        self.socket = f"mp-cli-test-{os.getpid()}-{id(self)}"
        self.tmp = tmp

    async def tmux(self, *args: str) -> str:
        proc = await asyncio.create_subprocess_exec(
            "tmux",
            "-L",
            self.socket,
            "-f",
            "/dev/null",
            *args,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        out, err = await proc.communicate()
        if proc.returncode:
            raise AssertionError(f"tmux {' '.join(args)}: {err.decode()}")
        return out.decode()

    async def start(self, argv: list[str]) -> None:
        env = f"HOME={shlex.quote(str(self.tmp))} LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=xterm-256color"
        command = f"env {env} {shlex.join(argv)}; echo EXITED $?; sleep 60"
        await self.tmux("new-session", "-d", "-s", "g", "-x", str(WIDTH), "-y", str(HEIGHT), "-c", str(ROOT), command)

    async def screen(self) -> list[str]:
        """The pane's rows as a person reads them."""
        text = await self.tmux("capture-pane", "-p", "-t", "g")
        return text.rstrip("\n").split("\n")

    async def keys(self, *keys: str) -> None:
        await self.tmux("send-keys", "-t", "g", *keys)

    async def type(self, line: str) -> None:
        await self.tmux("send-keys", "-t", "g", "-l", line)
        await self.keys("Enter")

    async def wait(self, cond: Callable[[list[str]], bool], what: str, timeout: float = 20.0) -> list[str]:
        """The screen once `cond` holds for it and it stays the same (the clock's seconds aside) for a moment."""
        deadline = time.monotonic() + timeout
        last: list[str] | None = None
        while True:
            rows = await self.screen()
            if cond(rows) and last is not None and masked(rows) == masked(last):
                return rows
            last = rows if cond(rows) else None
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out waiting for {what}:\n" + "\n".join(rows))
            await asyncio.sleep(0.06)

    async def close(self) -> None:
        try:
            await self.tmux("kill-server")
        except AssertionError:
            pass


def masked(rows: list[str]) -> list[str]:
    """The screen with the clock's running numbers blanked (it is redrawn every second)."""
    return [re.sub(r"\d+:\d\d(:\d\d)?", "#", row) if row.startswith("Clock:") else row for row in rows]


def my_move(rows: list[str]) -> bool:
    return bool(rows) and rows[-1].startswith("Your move >")


def over(rows: list[str]) -> bool:
    return any("The game is over." in row for row in rows)


def options_on(rows: list[str]) -> list[int]:
    return [int(m.group(1)) for row in rows if (m := OPTION.match(row))]


def check(rows: list[str], game: Game) -> None:
    """A screen of the player's move: the pane's size, whose turn, the clock, your resources, the options."""
    text = "\n".join(rows)
    assert len(rows) == HEIGHT and all(len(row) <= WIDTH for row in rows), text
    assert any(re.search(game.turn, row) for row in rows), f"no turn line:\n{text}"
    assert any(CLOCK.match(row) for row in rows), f"no clock:\n{text}"
    assert any(re.search(game.yours, row) for row in rows), f"no resources:\n{text}"
    numbers = options_on(rows)
    assert numbers and numbers == list(range(numbers[0], numbers[-1] + 1)), f"no numbered options:\n{text}"
    assert any(row.startswith("Your move ") for row in rows[:-1]), text  # the question says so too
    assert rows[-1].startswith("Your move >"), text


async def flip_board_and_back(pane: Pane, before: list[str]) -> None:
    await pane.keys("F2")
    board = await pane.wait(lambda rows: any(r.startswith("b, F2 or Enter: back") for r in rows), "the board page")
    assert any(re.match(r"Page 1 of \d+: PgDn and PgUp", r) for r in board), "\n".join(board)
    await pane.keys("NPage")
    await pane.wait(lambda rows: any(r.startswith("Page 2 of ") for r in rows), "the board's second page")
    await pane.keys("F2")
    back = await pane.wait(lambda rows: bool(options_on(rows)), "the options again")
    assert masked(back) == masked(before)


async def resize_and_back(pane: Pane, before: list[str]) -> None:
    await pane.tmux("resize-window", "-t", "g", "-x", "100", "-y", "30")
    await asyncio.sleep(0.4)  # the client draws the whole terminal again a moment after a resize
    wide = await pane.wait(lambda rows: len(rows) == 30 and my_move(rows), "the screen at 100x30")
    assert all(len(row) <= 100 for row in wide) and any(len(row) > 80 for row in wide), "\n".join(wide)
    assert options_on(wide) and any(CLOCK.match(row) for row in wide)
    await pane.tmux("resize-window", "-t", "g", "-x", str(WIDTH), "-y", str(HEIGHT))
    await asyncio.sleep(0.4)
    back = await pane.wait(lambda rows: len(rows) == HEIGHT and my_move(rows), "the screen at 80x24 again")
    diff = [(a, b) for a, b in zip(masked(before), masked(back), strict=True) if a != b]
    assert not diff, "\n".join(before) + "\n----\n" + "\n".join(back)  # drawn anew: nothing garbled


async def next_options(pane: Pane, rows: list[str]) -> list[str]:
    """PgDn: the options' next page, from the option after the last shown."""
    last = options_on(rows)[-1]
    await pane.keys("NPage")
    return await pane.wait(lambda rows: bool(options_on(rows)) and options_on(rows)[0] == last + 1, "page 2")


async def move(pane: Pane, rows: list[str], choice: int, version: Callable[[], int]) -> None:
    """Type an option's number and Enter; back once the screen has changed and says the move was made (the room's
    version moved on) or why not."""
    before, v = masked(rows), version()
    await pane.type(str(choice))

    def moved(rows: list[str]) -> bool:
        if masked(rows) == before or not any(r.startswith(AFTER_MOVE) for r in rows):
            return False
        return version() > v or not any(r.startswith("You chose: ") for r in rows)

    await pane.wait(moved, f"the move {choice}")


async def play(url: str, tmp: Path, name: str, game: Game, *, seed: int) -> dict[str, int]:
    pane = Pane(tmp)
    argv = [sys.executable, "-m", "clients.cli", "--url", url, "--name", "ann", "--lang", "en", "--no-bell"]
    argv += ["--token-file", str(tmp / f"token-{name}"), "--create", "--game", name, "--seats", "2", "--bots", "1"]
    argv += ["--turn-seconds", "900", "--room-seed", str(seed)]
    for key, value in game.options.items():
        argv += ["--option", f"{key}={value}"]
    rng = random.Random(seed)
    seen = {"steps": 0, "paged": 0, "board": 0, "resized": 0, "draft": 0}
    watcher = Client(url)
    try:
        await pane.start(argv)
        rows = await pane.wait(lambda rows: any(re.match(r"\S+  room r\w+ ", r) for r in rows), "the room")
        room = next(m.group(1) for r in rows if (m := re.match(r"\S+  room (r\w+) ", r)))
        await watcher.connect()
        await watcher.hello("watcher")
        await watcher.join(room, spectate=True)  # the room's version: a move typed has been made
        while True:
            rows = await pane.wait(lambda rows: my_move(rows) or over(rows), "the player's move or the end", 60)
            if over(rows):
                break
            check(rows, game)
            if any(r.startswith("Choose your character.") or "Your move Choose your character." in r for r in rows):
                abilities = [r for r in rows if OPTION.match(r) and re.search(r"\) Play .+: \S", r)]
                assert abilities, "\n".join(rows)  # each character with its ability
                seen["draft"] += 1
            if not seen["board"] and seen["steps"] >= 2:
                await flip_board_and_back(pane, rows)
                seen["board"] += 1
            if not seen["resized"] and seen["steps"] >= 3:
                await resize_and_back(pane, rows)
                seen["resized"] += 1
            more = next((r for r in rows if r.startswith("Options ")), None)
            if more is not None and not seen["paged"]:
                rows = await next_options(pane, rows)
                check(rows, game)
                seen["paged"] += 1
            await move(pane, rows, rng.choice(options_on(rows)), lambda: watcher.views[room].v)
            seen["steps"] += 1
        text = "\n".join(rows)
        print(f"the last screen of {name}:\n{text}")  # shown with -s
        assert "Final result" in text and re.search(r"Winners?: ", text), text
        assert len(rows) == HEIGHT and all(len(row) <= WIDTH for row in rows)
        await pane.type("q")
        await pane.wait(lambda rows: any(r.startswith("EXITED 0") for r in rows), "the client's exit")
        return seen
    finally:
        await watcher.close()
        await pane.close()


@pytest.mark.parametrize("name", list(GAMES))
async def test_a_whole_game_in_an_80x24_pane_always_shows_the_turn_the_clock_and_the_options(
    name: str, url: str, tmp_path: Path
) -> None:
    started = time.monotonic()
    seen = await play(url, tmp_path, name, GAMES[name], seed=3)
    assert seen["steps"] >= 10 and seen["board"] == 1 and seen["resized"] == 1 and seen["paged"] == 1
    if name in ("voyages", "khan"):
        assert seen["draft"] == 1  # the character draft, its abilities on screen
    print(f"{name}: {seen} in {time.monotonic() - started:.1f} s")
