"""Turn-based rooms over real sockets (wire contract v1.2): clocks up to 14 days, players away for (scaled) days
without the room closing, the host's rule on expiry (wait and mark the seat late, the seat's bot moves, or the
game ends naming the late seat), `my_games` sorted by urgency, and the limit of turn-based seats per player.
Clocks run scaled (`clock_scale`): an hour of the room's clock lasts a fraction of a second."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import pytest

from clients.client import Client, ServerError
from server.net.app import App

from .conftest import play_to_end, start_app

HOUR = 3600
#: an hour of a room's clock lasts 0.36 s
SCALE = 0.0001


@pytest.fixture
async def node() -> AsyncIterator[Callable[..., Awaitable[App]]]:
    apps: list[App] = []

    async def make(**settings: Any) -> App:
        base = {"clock_scale": SCALE, "close_away_after": 600, "close_empty_after": 0, "bot_delay": 0.0}
        app = await start_app(**{**base, **settings})
        apps.append(app)
        return app

    yield make
    for app in apps:
        await app.stop()


@pytest.fixture
async def clients() -> AsyncIterator[Callable[..., Awaitable[Client]]]:
    made: list[Client] = []

    async def make(app: App, name: str, token: str | None = None) -> Client:
        c = Client(f"ws://127.0.0.1:{app.port}/ws")
        await c.connect()
        made.append(c)
        await c.hello(name, token)
        return c

    yield make
    for c in made:
        await c.close()


async def _code(coro: Awaitable[Any]) -> str:
    try:
        await coro
    except ServerError as err:
        return err.code
    return "ok"


async def _turn_based(host: Client, other: Client, on_expiry: str, seconds: int = HOUR) -> str:
    room = await host.create_room("expedition", 2, options={"seed": 5}, mode="turn_based", turn_seconds=seconds,
                                  on_expiry=on_expiry)  # fmt: skip
    await host.join(room)
    await other.join(room)
    for c in (host, other):
        await c.wait_for(room, lambda s: s["status"] == "playing")
    return room


def _mover(room: str, *cs: Client) -> Client:
    return next(c for c in cs if c.view(room).get("prompt") and c.view(room)["prompt"].get("options"))


async def test_a_turn_based_game_waits_for_a_late_player_for_days_and_resumes(
    node: Callable[..., Awaitable[App]], clients: Callable[..., Awaitable[Client]]
) -> None:
    app = await node()
    ann = await clients(app, "Ann")
    bob = await clients(app, "Bob")
    room = await _turn_based(ann, bob, "wait")
    view = ann.view(room)
    assert view["turn"] == {"mode": "turn_based", "turn_seconds": HOUR, "on_expiry": "wait"}
    listed = next(r for r in (await ann.request("list_rooms"))["rooms"] if r["room"] == room)
    assert listed["mode"] == "turn_based"
    first = _mover(room, ann, bob)
    await first.move(room, first.view(room)["prompt"]["options"][0])
    late = _mover(room, ann, bob)
    late_seat = late.view(room)["you"]
    tokens = {"Ann": ann.token, "Bob": bob.token}
    v_before = late.view(room)  # the version when both went away
    for c in (ann, bob):
        await c.close()
    # both away for 48 (scaled) hours: the clock ran out 48 times over; away players never close the room
    await asyncio.sleep(48 * HOUR * SCALE)
    ann2 = await clients(app, "Ann", tokens["Ann"])
    bob2 = await clients(app, "Bob", tokens["Bob"])
    for c in (ann2, bob2):
        await c.join(room)
    now = ann2.view(room)
    assert now["status"] == "playing" and "closed" not in now
    assert now["clock"]["late"] == [late_seat]
    # nothing was played for the late seat: only the version that marked it late came after
    assert now["public"] == v_before["public"]
    mover = _mover(room, ann2, bob2)
    assert mover.view(room)["you"] == late_seat
    await mover.move(room, mover.view(room)["prompt"]["options"][0])
    await ann2.wait_for(room, lambda s: "late" not in (s.get("clock") or {}))
    played = await play_to_end(room, [ann2, bob2], random.Random(1))
    assert played and ann2.view(room)["result"] is not None


async def test_on_expiry_bot_moves_for_the_late_seat(
    node: Callable[..., Awaitable[App]], clients: Callable[..., Awaitable[Client]]
) -> None:
    app = await node()
    ann = await clients(app, "Ann")
    bob = await clients(app, "Bob")
    room = await _turn_based(ann, bob, "bot")
    v0 = ann.views[room].v
    await ann.wait_for(room, lambda s: True)
    await asyncio.sleep(3 * HOUR * SCALE)
    await ann.sync(room)
    assert ann.views[room].v > v0  # the seats' bots moved when their time ran out
    assert ann.view(room)["status"] in ("playing", "finished") and "closed" not in ann.view(room)


async def test_on_expiry_end_closes_the_game_naming_the_late_seat(
    node: Callable[..., Awaitable[App]], clients: Callable[..., Awaitable[Client]]
) -> None:
    app = await node()
    ann = await clients(app, "Ann")
    bob = await clients(app, "Bob")
    room = await _turn_based(ann, bob, "end")
    late = _mover(room, ann, bob)
    await ann.wait_for(room, lambda s: s["status"] == "finished", timeout=10)
    view = ann.view(room)
    assert view["closed"] == "timeout" and view["result"] is None
    assert view["closed_message"] == f"time ran out for {'Ann' if late is ann else 'Bob'}"
    closed = next(p for p in ann.pushes if p.get("t") == "closed")
    assert closed["reason"] == "timeout"


async def test_my_games_lists_the_players_rooms_most_urgent_first(
    node: Callable[..., Awaitable[App]], clients: Callable[..., Awaitable[Client]]
) -> None:
    app = await node()
    ann = await clients(app, "Ann")
    bob = await clients(app, "Bob")
    slow = await _turn_based(ann, bob, "wait", seconds=14 * 86400)
    fast = await _turn_based(ann, bob, "wait", seconds=2 * HOUR)
    live = await ann.create("classic", 2)
    await ann.join(live)  # waiting for a second player
    got = (await ann.request("my_games"))["rooms"]
    assert {r["room"] for r in got} == {slow, fast, live}
    by_room = {r["room"]: r for r in got}
    assert by_room[live]["status"] == "waiting" and by_room[live]["your_turn"] is False
    assert by_room[live]["mode"] == "live" and by_room[slow]["mode"] == "turn_based"
    for room in (slow, fast):
        mine = ann.view(room)["you"]
        assert by_room[room]["seat"] == mine and by_room[room]["players"] == ["Ann", "Bob"]
        assert by_room[room]["your_turn"] is bool(ann.view(room).get("prompt") and ann.view(room)["prompt"]["options"])
    # the order: rooms where it is Ann's turn first, by deadline; then the others
    keys = [(not r["your_turn"], r["deadline"] if r["deadline"] is not None else float("inf")) for r in got]
    assert keys == sorted(keys)
    # Bob sees the other side of the same rooms
    theirs = {r["room"]: r for r in (await bob.request("my_games"))["rooms"]}
    assert set(theirs) == {slow, fast}
    for room in (slow, fast):
        assert theirs[room]["your_turn"] != by_room[room]["your_turn"]


async def test_clock_bounds_and_the_limit_of_turn_based_seats(
    node: Callable[..., Awaitable[App]], clients: Callable[..., Awaitable[Client]]
) -> None:
    app = await node(turn_based_games=2)
    ann = await clients(app, "Ann")
    assert await _code(ann.create_room("expedition", 2, turn_seconds=2 * 86400)) == "bad_message"  # live: a day
    assert await _code(ann.create_room("expedition", 2, on_expiry="bot")) == "bad_message"  # turn-based only
    long = await ann.create_room("expedition", 2, mode="turn_based", turn_seconds=14 * 86400)
    assert await _code(ann.create_room("expedition", 2, mode="turn_based", turn_seconds=14 * 86400 + 1)) == (
        "bad_message"
    )
    rooms = [long, await ann.create_room("expedition", 2, mode="turn_based"), await ann.create_room("classic", 2,
             mode="turn_based")]  # fmt: skip
    await ann.join(rooms[0])
    await ann.join(rooms[1])
    assert await _code(ann.join(rooms[2])) == "rate_limited"
    assert await _code(ann.join(rooms[2], spectate=True)) == "ok"  # watching is not a seat
    await ann.join(rooms[0])  # re-attaching to a held seat is not a new one
    view = ann.view(rooms[1])
    assert view["turn"]["turn_seconds"] == 3 * 86400 and view["turn"]["on_expiry"] == "wait"  # the defaults
