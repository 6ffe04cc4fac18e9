"""`autoplay` (a wire addition): a seated player hands its seat to a server bot and takes it back by moving."""

from __future__ import annotations

import asyncio
from typing import Any

import msgpack
import pytest

from clients.client import Client, ServerError

from .conftest import start_app


async def _two_seat_game(c: Client, game: str = "expedition", hello: bool = True) -> str:
    if hello:
        await c.hello("ann")
    room = (await c.request("create", game=game, seats=2, options={"seed": 5}, bots=1))["room"]
    await c.join(room)
    await c.wait_for(room, lambda s: s["status"] == "playing")
    return str(room)


async def test_a_seat_handed_to_a_server_bot_is_played_to_the_end_and_shows_its_level() -> None:
    app = await start_app(bot_delay=0.0)
    try:
        async with Client(f"ws://127.0.0.1:{app.port}/ws") as ann:
            room = await _two_seat_game(ann)
            answer = await ann.request("autoplay", room=room, level="normal")
            assert answer["t"] == "autoplay" and answer["v"] == ann.views[room].v
            view = ann.view(room)
            assert view["seats"][view["you"]]["autoplay"] == "greedy"
            assert "autoplay" not in view["seats"][1 - view["you"]]  # the room's own bot seat
            await ann.wait_for(room, lambda s: s["result"] is not None, timeout=60)
            assert ann.view(room)["status"] == "finished"
    finally:
        await app.stop()


async def test_a_move_of_the_player_takes_the_seat_back() -> None:
    app = await start_app(bot_delay=0.5)  # the player's move below comes well before a bot's
    try:
        async with Client(f"ws://127.0.0.1:{app.port}/ws") as ann:
            room = await _two_seat_game(ann)
            await ann.wait_for(room, lambda s: bool(s["prompt"]), timeout=10)
            await ann.request("autoplay", room=room, level="hard")
            me = ann.view(room)["you"]
            assert ann.view(room)["seats"][me]["autoplay"] == "search"
            await ann.move(room, ann.view(room)["prompt"]["options"][0])
            assert "autoplay" not in ann.view(room)["seats"][me]
            await ann.wait_for(room, lambda s: bool(s["prompt"]), timeout=20)  # the bot did not take it again
            # and handing it over, then back with level None, changes nothing else
            await ann.request("autoplay", room=room, level="easy")
            assert ann.view(room)["seats"][me]["autoplay"] == "random"
            v = (await ann.request("autoplay", room=room, level=None))["v"]
            assert "autoplay" not in ann.view(room)["seats"][me] and ann.views[room].v == v
    finally:
        await app.stop()


async def test_autoplay_is_refused_to_spectators_before_the_start_and_for_unknown_levels() -> None:
    app = await start_app(bot_delay=30.0)
    try:
        async with Client(f"ws://127.0.0.1:{app.port}/ws") as ann, Client(f"ws://127.0.0.1:{app.port}/ws") as bob:
            await ann.hello("ann")
            waiting = (await ann.request("create", game="expedition", seats=3, options={"seed": 5}))["room"]
            await ann.join(waiting)
            with pytest.raises(ServerError) as err:
                await ann.request("autoplay", room=waiting, level="normal")
            assert err.value.code == "forbidden"
            room = await _two_seat_game(ann, hello=False)
            with pytest.raises(ServerError) as err:
                await ann.request("autoplay", room=room, level="grandmaster")
            assert err.value.code == "bad_message"
            await bob.hello("bob")
            await bob.join(room, spectate=True)
            with pytest.raises(ServerError) as err:
                await bob.request("autoplay", room=room, level="normal")
            assert err.value.code == "forbidden"
            assert all("autoplay" not in s for s in ann.view(room)["seats"])
    finally:
        await app.stop()


def _strings(x: Any) -> set[str]:
    if isinstance(x, str):
        return {x}
    if isinstance(x, dict):
        return set().union(*(_strings(v) for v in x.values())) if x else set()
    if isinstance(x, list):
        return set().union(*(_strings(v) for v in x)) if x else set()
    return set()


async def test_a_spectator_sees_the_autoplay_level_but_never_a_secret_of_the_seat_the_bot_plays() -> None:
    app = await start_app(bot_delay=0.2)
    try:
        url = f"ws://127.0.0.1:{app.port}/ws"
        async with Client(url) as ann, Client(url, keep_frames=True) as bob:
            room = await _two_seat_game(ann)
            await bob.hello("bob")
            await bob.join(room, spectate=True)
            actor = app.hub.rooms[room]
            secrets_at: dict[int, set[str]] = {}
            await ann.request("autoplay", room=room, level="normal")
            for _ in range(2000):  # the bots play both seats: every version's secrets, read as it is current
                state = actor.state
                if state is not None and actor.v not in secrets_at:
                    found = set(actor.game.hidden_tokens(state))
                    for seat in range(2):
                        found |= set(actor.game.secret_tokens(state, seat))
                    secrets_at[actor.v] = found
                if len(secrets_at) >= 30 or actor.status == "finished":
                    break
                await asyncio.sleep(0.01)
            assert any(s.get("autoplay") == "greedy" for s in bob.view(room)["seats"])
            checked = 0
            for frame in bob.frames or []:
                msg = msgpack.unpackb(frame)
                if msg.get("t") in ("snapshot", "patch") and msg.get("v") in secrets_at:
                    leaked = _strings(msg) & secrets_at[msg["v"]]
                    assert not leaked, f"v{msg['v']}: {sorted(leaked)}"
                    checked += 1
            assert checked >= 20
    finally:
        await app.stop()
