"""Server-seated bots with levels: a search bot thinks in the process pool while other rooms play on."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator

import pytest

from clients.client import Client, ServerError
from protocol import messages as m
from server.rooms import botpool
from tests.net.conftest import start_app

THINK = 1.5


@pytest.fixture
async def slow_search() -> AsyncIterator[None]:
    botpool.configure(seconds=THINK)
    yield
    botpool.configure(seconds=botpool.DEFAULT_SECONDS)
    botpool.shutdown()


def test_create_takes_a_bot_count_or_one_level_per_bot_seat() -> None:
    assert m.Create(id=1, game="voyages", seats=3, bots=2).bots == 2
    assert m.Create(id=1, game="voyages", seats=3, bots=["hard", "random"]).bots == ["hard", "random"]
    with pytest.raises(ValueError):
        m.Create(id=1, game="voyages", seats=3, bots=["grandmaster"])
    assert [botpool.level_name(x) for x in ("easy", "normal", "hard", "search")] == [
        "random",
        "greedy",
        "search",
        "search",
    ]


async def test_other_rooms_keep_moving_while_a_search_bot_thinks(slow_search: None) -> None:
    app = await start_app(bot_delay=0.0)
    try:
        async with (
            Client(f"ws://127.0.0.1:{app.port}/ws") as ann,
            Client(f"ws://127.0.0.1:{app.port}/ws") as bob,
            Client(f"ws://127.0.0.1:{app.port}/ws") as cid,
        ):
            for c, name in ((ann, "ann"), (bob, "bob"), (cid, "cid")):
                await c.hello(name)
            bot_room = (await ann.request("create", game="expedition", seats=2, options={"seed": 3}, bots=["hard"]))[
                "room"
            ]
            await ann.join(bot_room)
            await ann.wait_for(bot_room, lambda s: s["status"] == "playing")
            assert [s["name"] for s in ann.view(bot_room)["seats"]] == ["ann", "Bot 1 (search)"]
            busy = await bob.create("expedition", 2, {"seed": 6})
            await bob.join(busy)
            await cid.join(busy)
            await bob.wait_for(busy, lambda s: s["status"] == "playing")
            # seed 3: ann (seat 0) starts; she ends her turn and the search bot thinks for THINK seconds
            await ann.move(bot_room, {"a": "pass"})
            await ann.move(bot_room, {"a": "draw", "from": "deck"})
            thinking_since = time.monotonic()
            latencies = []
            players = {0: bob, 1: cid}
            while time.monotonic() - thinking_since < THINK * 0.8:
                await bob.wait_for(busy, lambda s: s["public"].get("turn") is not None)
                turn = bob.view(busy)["public"]["turn"]
                c = players[turn]
                await c.wait_for(busy, lambda s: s["prompt"] is not None)
                option = c.view(busy)["prompt"]["options"][-1]
                t0 = time.monotonic()
                try:
                    await c.move(busy, option)
                except ServerError as err:  # pragma: no cover - a prompt a patch had not yet replaced
                    assert err.code in ("not_your_turn", "illegal_move")
                    continue
                latencies.append(time.monotonic() - t0)
            assert ann.view(bot_room)["public"]["turn"] == 1, "the bot was still thinking"
            assert len(latencies) >= 10 and max(latencies) < 0.5, latencies
            # and the bot does move, in time
            await ann.wait_for(bot_room, lambda s: s["public"]["turn"] == 0, timeout=THINK + 30)
    finally:
        await app.stop()
