"""Server-seated bots: a person plays a whole game against them; bad bot counts are refused."""

from __future__ import annotations

import asyncio
import random

import msgpack
import pytest

from clients.client import Client, ServerError

from .conftest import FlakyStore, start_app


@pytest.mark.parametrize("game", ["expedition", "classic", "voyages"])
async def test_a_person_plays_a_whole_game_against_server_bots(game: str) -> None:
    app = await start_app(bot_delay=0.0)
    try:
        async with Client(f"ws://127.0.0.1:{app.port}/ws", keep_frames=True) as ann:
            await ann.hello("ann")
            options = {"seed": 3, "max_rounds": 10} if game == "classic" else {"seed": 3}
            answer = await ann.request("create", game=game, seats=3, options=options, bots=2)
            room = answer["room"]
            assert await ann.join(room) == 0
            await ann.wait_for(room, lambda s: s["status"] == "playing")
            seats = ann.view(room)["seats"]
            assert [s["name"] for s in seats] == ["ann", "Bot 1", "Bot 2"]
            assert all(s["connected"] for s in seats)
            rng = random.Random(3)
            while ann.view(room)["result"] is None:
                await ann.wait_for(room, lambda s: s["prompt"] is not None or s["result"] is not None, timeout=30)
                prompt = ann.view(room)["prompt"]
                if prompt is not None and ann.view(room)["result"] is None:
                    try:
                        await ann.move(room, rng.choice(prompt["options"]))
                    except ServerError as err:  # a prompt made stale by a bot move in flight
                        assert err.code in ("not_your_turn", "illegal_move", "stale")
            assert ann.view(room)["status"] == "finished"
            versions = [m["v"] for m in map(msgpack.unpackb, ann.frames or []) if m["t"] == "patch"]
            assert versions == sorted(versions) and len(versions) > 50
    finally:
        await app.stop()


async def test_bots_must_leave_a_seat_for_people() -> None:
    app = await start_app()
    try:
        async with Client(f"ws://127.0.0.1:{app.port}/ws") as c:
            await c.hello("x")
            with pytest.raises(ServerError) as err:
                await c.request("create", game="expedition", seats=3, bots=3)
            assert err.value.code == "bad_message"
    finally:
        await app.stop()


async def test_a_bot_whose_move_met_a_store_outage_moves_once_the_store_is_back() -> None:
    store = FlakyStore()
    app = await start_app(store=store, bot_delay=0.5)
    try:
        async with Client(f"ws://127.0.0.1:{app.port}/ws") as ann:
            await ann.hello("ann")
            answer = await ann.request("create", game="expedition", seats=2, options={"seed": 3}, bots=1)
            room = answer["room"]
            await ann.join(room)
            await ann.wait_for(room, lambda s: s["status"] == "playing")
            await ann.wait_for(room, lambda s: bool(s["prompt"]), timeout=10)
            while ann.view(room)["prompt"]:  # play ann's turn to its end; the bot is next
                await ann.move(room, ann.view(room)["prompt"]["options"][-1])
            store.down = True  # before the bot's delay runs out
            v = ann.views[room].v
            await asyncio.sleep(1.5)  # the bot tried and was refused meanwhile
            assert ann.views[room].v == v
            store.down = False
            await ann.wait_for(room, lambda s: ann.views[room].v > v, timeout=10)
    finally:
        await app.stop()
