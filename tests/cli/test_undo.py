"""Undo within a turn (v1.2) in the terminal client: the prompt's `u` line while the prompt offers it, the log's
`undo` event said "NAME took back their move" by every game's renderer in every language, and an interactive
player who types `u` mid-turn and gets the turn's start back (each game whose engine offers undo; the others are
skipped). The rooms are seeded and the choices drawn from a seeded random generator: the test plays until an undo
is offered instead of depending on one position."""

from __future__ import annotations

import asyncio
import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from clients.cli import i18n, public
from clients.cli.__main__ import run
from clients.cli.render import render_prompt, renderer_for, to_text
from clients.client import Client
from server.games import all_games
from server.net.app import App
from tests.cli.conftest import Screen, until
from tests.cli.test_interactive import ui_argv
from tests.cli.test_play import cancel_all

GAMES = ("expedition", "classic", "voyages", "khan")
LANGS = ("en", "hu", "fi", "it", "es")
KEY = re.compile(r"\bw\.[a-z]+\.[A-Za-z0-9_.]+")
UNDO_LINE = "u or undo: take back what you chose this turn"


def a_view(game: str, log: list[dict[str, Any]], prompt: dict[str, Any] | None = None) -> dict[str, Any]:
    """A started 2-seat view of `game` (from its engine) with `log` as its public log."""
    engine = all_games()[game]
    state = engine.setup(2, {}, 7)
    view = engine.view(state, 0)
    view.update(game=game, room="r1", status="playing", you=0, prompt=prompt)
    view["seats"] = [{"name": "ann", "taken": True}, {"name": "bob", "taken": True}]
    view["public"] = {**view["public"], "log": log}
    return view


@pytest.mark.parametrize("game", GAMES)
def test_every_renderer_says_an_undo_in_every_language_in_the_panel_and_the_whole_log(game: str) -> None:
    view = a_view(game, [{"ev": "undo", "seat": 1, "n": 3}])
    renderer = renderer_for(game)
    said: set[str] = set()
    try:
        for code in LANGS:
            i18n.set_language(code)
            line = renderer.log_line(view, view["public"]["log"][0])
            assert "bob" in line and not KEY.search(line) and not line.startswith("{"), (code, line)
            known: dict[int, str] = {}
            public.gather_log(known, view)
            assert known == {3: line}
            assert line in to_text(renderer.render(view), width=200)  # the recent events panel
            said.add(line)
    finally:
        i18n.set_language("en")
    assert len(said) == len(LANGS)
    assert renderer.log_line(view, view["public"]["log"][0]) == "bob took back their move"
    own = {"ev": "undo", "seat": 0, "n": 4}
    assert renderer.log_line(view, own) == "ann (you) took back their move"


def test_the_prompt_offers_u_only_while_it_offers_undo_and_only_to_the_seat() -> None:
    options = [{"a": "pass"}]
    with_undo = a_view("voyages", [], {"text": "Your move.", "options": options, "undo": True})
    text = to_text(render_prompt(with_undo))
    assert "1) " in text and UNDO_LINE in text
    assert UNDO_LINE not in to_text(render_prompt(a_view("voyages", [], {"text": "Your move.", "options": options})))
    watching = {**with_undo, "you": None}
    assert UNDO_LINE not in to_text(render_prompt(watching))
    try:
        i18n.set_language("fi")
        assert "u tai undo" in to_text(render_prompt(with_undo))
    finally:
        i18n.set_language("en")


async def settled(app: App, room: str, s: Screen, quiet: float = 0.25, timeout: float = 20.0) -> None:
    """Wait until the room's version and the player's screen have both stood still for `quiet` seconds."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    last = (app.hub.rooms[room].v, len(s.text))
    still_since = loop.time()
    while loop.time() - still_since < quiet:
        if loop.time() > deadline:
            raise AssertionError("the room and the screen did not settle")
        await asyncio.sleep(0.02)
        now = (app.hub.rooms[room].v, len(s.text))
        if now != last:
            last, still_since = now, loop.time()


def above(room: Any, v: int) -> Callable[[], bool]:
    """Whether the server's room is past version `v` (for `until`)."""
    return lambda: bool(room.v > v)


def comparable(view: dict[str, Any]) -> dict[str, Any]:
    """A game view without its public log (what an undo keeps as it is)."""
    return {**view, "public": {k: v for k, v in view["public"].items() if k != "log"}}


@pytest.mark.parametrize("game", GAMES)
async def test_a_player_types_u_mid_turn_and_the_turn_starts_again(
    game: str, app: App, url: str, screen: Callable[[], Screen], tmp_path: Path
) -> None:
    engine = all_games()[game]
    if not engine.offers_undo:
        pytest.skip(f"the {game} engine does not offer undo (offers_undo is False)")
    ann_screen = screen()
    lines: asyncio.Queue[str | None] = asyncio.Queue()
    rng = random.Random(21)
    ui: asyncio.Task[int] | None = None
    async with Client(url) as bob:
        try:
            await bob.hello("bob")
            room = await bob.create_room(game, 2, options={"seed": 31})
            ui = asyncio.create_task(
                run([*ui_argv(url, tmp_path, "ann"), "--join", room], console=ann_screen.console, lines=lines)
            )
            await until(lambda: f"Seated at seat 1 in room {room}." in ann_screen.text, what="ann's seat")
            await bob.join(room)
            r = app.hub.rooms[room]
            await until(lambda: r.status == "playing", what="the start")
            # `u` with nothing to take back says so
            await settled(app, room, ann_screen)
            lines.put_nowait("u")
            await until(lambda: "There is nothing of this turn to take back now." in ann_screen.text, what="a refusal")
            start: tuple[dict[str, Any], list[Any]] | None = None
            for _ in range(300):
                await settled(app, room, ann_screen)
                assert r.state is not None and engine.result(r.state) is None, "the game ended without an undo"
                theirs = r.prompt_for(r.state, 1)
                if theirs:
                    await bob.move(room, rng.choice(theirs["options"]), v=r.v)
                    continue
                mine = r.prompt_for(r.state, 0)
                assert mine, "nobody to move"
                if mine.get("undo"):
                    break
                before, v = (engine.view(r.state, 0), mine["options"]), r.v
                n = mine["options"].index(rng.choice(mine["options"])) + 1
                lines.put_nowait(str(n))
                await until(above(r, v), what="ann's move")
                after = r.prompt_for(r.state, 0) if r.v == v + 1 else None
                start = before if after and after.get("undo") else None
            else:
                raise AssertionError("no undo offered in 300 moves")
            assert start is not None
            # the screen offers it, under the numbered options
            tail = ann_screen.text[ann_screen.text.rindex("Your move") :]
            assert UNDO_LINE in tail and re.search(r"^\s+1\) ", tail, re.MULTILINE)
            v = r.v
            mark = len(ann_screen.text)
            lines.put_nowait("undo" if game in ("classic", "khan") else "u")
            await until(lambda: "You took back what you chose this turn." in ann_screen.text[mark:], what="undone")
            assert r.v == v + 1
            assert comparable(engine.view(r.state, 0)) == comparable(start[0]), "the view is not the turn's start"
            again = r.prompt_for(r.state, 0)
            assert again is not None and again["options"] == start[1] and not again.get("undo")
            await settled(app, room, ann_screen)
            shown = ann_screen.text[mark:]
            assert "ann (you) took back their move" in shown  # the recent events panel
            assert UNDO_LINE not in shown[shown.rindex("Your move") :]
            lines.put_nowait("log")
            whole = re.compile(r"\d+\. ann \(you\) took back their move")
            await until(lambda: whole.search(ann_screen.text[mark:]), what="the whole log")
            lines.put_nowait("")
            lines.put_nowait("q")
            assert await asyncio.wait_for(ui, 10) == 0
        finally:
            if ui is not None:
                await cancel_all(ui)
