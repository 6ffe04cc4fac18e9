"""Bot levels in the terminal client, and the search bots' think time (server setting and room option)."""

from __future__ import annotations

from typing import Any

import pytest

from clients.cli.__main__ import parse_args, room_options
from clients.cli.bot import RandomBot
from clients.client import Client, ServerError
from server.games import get_game
from server.games.search import greedy_for
from server.rooms import botpool
from server.rooms.bots import Bots
from tests.net.conftest import start_app

# ---- the CLI's --bot and --bots ------------------------------------------------------------------


@pytest.mark.parametrize("name", ["random", "easy", "greedy", "normal", "search", "hard"])
def test_cli_bot_takes_every_level(name: str) -> None:
    assert parse_args(["--bot", name, "--create"]).bot == name


def test_cli_bots_takes_a_count_or_one_level_per_bot_seat(capsys: pytest.CaptureFixture[str]) -> None:
    assert parse_args(["--create", "--seats", "3", "--bots", "2"]).bots == 2
    assert parse_args(["--create", "--seats", "3", "--bots", "hard,normal"]).bots == ["hard", "normal"]
    assert parse_args(["--create", "--seats", "2", "--bots", "search"]).bots == ["search"]
    with pytest.raises(SystemExit):
        parse_args(["--create", "--seats", "2", "--bots", "hard,hard"])  # no seat left for the player
    with pytest.raises(SystemExit):
        parse_args(["--create", "--seats", "3", "--bots", "grandmaster"])
    capsys.readouterr()


def test_cli_bot_think_is_a_room_option() -> None:
    assert room_options(parse_args(["--create", "--bots", "hard", "--seats", "2", "--bot-think", "1.5"])) == {
        "bot_think_ms": 1500
    }
    assert "bot_think_ms" not in room_options(parse_args(["--create"]))
    with pytest.raises(SystemExit):
        parse_args(["--create", "--bot-think", "0"])


@pytest.mark.parametrize("game_id", ["classic", "expedition", "khan", "voyages"])
def test_cli_greedy_bot_plays_the_games_greedy_choice_from_its_view(game_id: str) -> None:
    game = get_game(game_id)
    state = game.setup(2, None, 5)
    moved = 0
    for _ in range(60):  # walk into the game until a prompt with a real choice
        seat = game.active_seats(state)[0]
        prompt = game.prompt(state, seat)
        assert prompt is not None
        view: dict[str, Any] = {"game": game_id, **game.view(state, seat), "prompt": prompt}
        if len(prompt["options"]) > 1 and moved >= 10:
            break
        state = game.apply(state, seat, prompt["options"][0])
        moved += 1
    bot = RandomBot(None, "r1", seed=7, level="normal")  # type: ignore[arg-type]
    twin = RandomBot(None, "r1", seed=7, level="greedy")  # type: ignore[arg-type]
    move = bot.choose(view, prompt["options"])
    assert move in prompt["options"]
    assert twin.choose(view, prompt["options"]) == move  # seeded
    # the same policy the server's greedy bots use, with the seed the client bot drew
    import random

    expected = greedy_for(game_id, random.Random(7).getrandbits(63)).choose(prompt, view)
    assert move == expected


def test_cli_bot_takes_the_search_level_and_never_chooses_itself() -> None:
    bot = RandomBot(None, "r1", level="hard")  # type: ignore[arg-type]
    assert bot.level == "search"  # played by the server (`autoplay`): tests/cli/test_terminal.py
    with pytest.raises(ValueError):
        RandomBot(None, "r1", level="grandmaster")  # type: ignore[arg-type]


# ---- think time ----------------------------------------------------------------------------------


async def test_search_bots_think_the_rooms_time_else_the_servers_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[tuple[str, float | None]] = []

    async def spy(game_id: str, level: str | None, state: Any, seat: int, seed: int, seconds: Any = None) -> Any:
        asked.append((str(level), seconds))
        return botpool.choose_now(game_id, "greedy", state, seat, seed)

    monkeypatch.setattr(botpool, "choose", spy)
    app = await start_app(bot_delay=0.0, bot_think=0.3)
    try:
        async with Client(f"ws://127.0.0.1:{app.port}/ws") as ann:
            await ann.hello("ann")
            with pytest.raises(ServerError) as err:
                await ann.request("create", game="expedition", seats=2, options={"bot_think_ms": 0}, bots=["hard"])
            assert err.value.code == "bad_message"
            with pytest.raises(ServerError) as err:
                await ann.request("create", game="expedition", seats=2, options={"bot_think_ms": 20_000}, bots=["hard"])
            assert err.value.code == "bad_message"
            for options, want in (({"seed": 4, "bot_think_ms": 1250}, 1.25), ({"seed": 4}, 0.3)):
                asked.clear()
                room = (await ann.request("create", game="expedition", seats=2, options=options, bots=["hard"]))["room"]
                held = app.hub.rooms[room]
                assert held.extension(Bots).think_seconds(held) == want
                # the think time is no game option: the game's options stay as they were
                assert "bot_think_ms" not in app.hub.rooms[room].meta.options
                await ann.join(room)
                await ann.wait_for(room, lambda s: s["status"] == "playing")
                for _ in range(40):  # play until the bot has had a turn
                    if asked:
                        break
                    view = ann.view(room)
                    if view["prompt"] and view["prompt"]["options"]:
                        try:
                            await ann.move(room, view["prompt"]["options"][-1])
                        except ServerError:
                            pass
                    await ann.wait_for(room, lambda s: True, timeout=2)
                # (the first room's bot may still be finishing a decision of its own meanwhile)
                assert asked and asked[-1] == ("search", want), asked
    finally:
        await app.stop()
