"""A lobby of live games (v1.2): a public game whose people have all gone away is shown as away and leaves the list
after `lobby_away_after` (minutes, not a day), without closing; a waiting room nobody sits in closes after
`close_empty_after`; a waiting room's view says when bots fill its empty seats (`fill_at`, for a countdown), and
the room's host (the player whose quick match opened it) can start it at once with bots. Timers run scaled."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import pytest

from clients.client import Client
from server.net.app import App

from .conftest import start_app

SCALE = 0.001  # a minute lasts 0.06 s


@pytest.fixture
async def node() -> AsyncIterator[Callable[..., Awaitable[App]]]:
    apps: list[App] = []

    async def make(**settings: Any) -> App:
        app = await start_app(**{"clock_scale": SCALE, **settings})
        apps.append(app)
        return app

    yield make
    for app in apps:
        await app.stop()


@pytest.fixture
async def clients() -> AsyncIterator[Callable[..., Awaitable[Client]]]:
    made: list[Client] = []

    async def make(app: App, name: str) -> Client:
        c = Client(f"ws://127.0.0.1:{app.port}/ws")
        await c.connect()
        made.append(c)
        await c.hello(name)
        return c

    yield make
    for c in made:
        await c.close()


async def _listed(c: Client) -> dict[str, dict[str, Any]]:
    return {r["room"]: r for r in (await c.request("list_rooms"))["rooms"]}


async def _until(check: Callable[[], Awaitable[bool]], timeout: float = 10.0) -> None:
    stop = time.monotonic() + timeout
    while not await check():
        assert time.monotonic() < stop, "timed out"
        await asyncio.sleep(0.05)


async def test_a_game_whose_people_are_all_away_is_shown_away_then_leaves_the_lobby(
    node: Callable[..., Awaitable[App]], clients: Callable[..., Awaitable[Client]]
) -> None:
    # away for 10 (scaled) minutes: off the list; closed only after a day (close_away_after)
    app = await node(lobby_away_after=600, close_away_after=86400)
    ann, bob = await clients(app, "Ann"), await clients(app, "Bob")
    watcher = await clients(app, "Watcher")
    await watcher.request("watch_lobby")
    room = await ann.create("expedition", 2)
    await ann.join(room)
    await bob.join(room)
    await ann.wait_for(room, lambda s: s["status"] == "playing")
    listed = (await _listed(watcher))[room]
    assert "away" not in listed
    t0 = time.monotonic()
    await ann.close()
    await bob.close()
    await _until(lambda: _away(watcher, room))
    # the lobby push drops it once the time passed, although nothing in the room changed meanwhile

    async def gone() -> bool:
        return room not in {r["room"] for r in watcher.lobby}

    await _until(gone)
    assert time.monotonic() - t0 >= 600 * SCALE * 0.9
    assert room not in await _listed(watcher)
    await watcher.join(room, spectate=True)  # watching it stays possible
    assert watcher.view(room)["status"] == "playing" and "closed" not in watcher.view(room)  # not closed


async def _away(c: Client, room: str) -> bool:
    got = (await _listed(c)).get(room)
    return bool(got and got.get("away") is True)


async def test_an_empty_waiting_room_closes_after_minutes_and_one_with_a_player_stays(
    node: Callable[..., Awaitable[App]], clients: Callable[..., Awaitable[Client]]
) -> None:
    app = await node(close_empty_after=300, close_waiting_after=3600)
    ann = await clients(app, "Ann")
    empty = await ann.create("expedition", 3)
    kept = await ann.create("classic", 3)
    await ann.join(kept)

    async def closed() -> bool:
        return empty not in await _listed(ann)

    await _until(closed)
    listed = await _listed(ann)
    assert kept in listed and listed[kept]["status"] == "waiting"
    await ann.join(empty, spectate=True)
    assert ann.view(empty)["closed"] == "nobody_joined"


async def test_play_now_shows_when_bots_come_and_its_host_can_start_at_once(
    node: Callable[..., Awaitable[App]], clients: Callable[..., Awaitable[Client]]
) -> None:
    app = await node(clock_scale=1.0)
    ann = await clients(app, "Ann")
    before = time.time() * 1000
    await ann.quick_match("expedition", 3, fill_bots_after=60)
    room = next(iter(ann.views))
    view = ann.view(room)
    assert view["status"] == "waiting"
    assert before + 55_000 <= view["fill_at"] <= time.time() * 1000 + 60_000  # a countdown of about a minute
    await ann.host(room, "start")  # "start now with bots"
    await ann.wait_for(room, lambda s: s["status"] == "playing")
    assert "fill_at" not in ann.view(room)
    assert [s["name"] for s in ann.view(room)["seats"]] == ["Ann", "Bot 1", "Bot 2"]  # two bots came at once
