"""Whole games over real sockets: patches, snapshots, spectators, hidden hands, reconnection."""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable
from typing import Any

import msgpack
import pytest

from clients.client import Client
from server.games import get_game
from server.games.base import State
from tests.util import strings

from .conftest import Played, play_to_end

Connect = Callable[..., Awaitable[Client]]
GAME = get_game("expedition")


async def _room_with(
    connect: Connect, seats: int, seed: int, keep_frames: bool = False
) -> tuple[str, list[Client], Client]:
    players = [await connect(f"player{i}", keep_frames=keep_frames) for i in range(seats)]
    spectator = await connect("watcher", keep_frames=keep_frames)
    room = await players[0].create("expedition", seats, {"seed": seed})
    await spectator.join(room, spectate=True)
    for i, p in enumerate(players):
        assert await p.join(room) == i
    await players[-1].wait_for(room, lambda s: s["status"] == "playing")
    return room, players, spectator


def _states_by_version(seats: int, seed: int, start_v: int, played: Played) -> list[tuple[int, State]]:
    """(version, engine state) from the start on, rebuilt locally from the seed and acknowledged moves."""
    state = GAME.setup(seats, {}, seed)
    out = [(start_v, state)]
    for v, seat, move in sorted(played, key=lambda x: x[0]):
        state = GAME.apply(state, seat, move)
        out.append((v, state))
    return out


def _state_at(states: list[tuple[int, State]], v: int) -> State | None:
    found = None
    for sv, state in states:
        if sv <= v:
            found = state
    return found


@pytest.mark.parametrize("seats", [2, 3, 5])
async def test_a_whole_game_ends_with_every_patched_view_equal_to_a_fresh_sync(connect: Connect, seats: int) -> None:
    room, players, spectator = await _room_with(connect, seats, seed=100 + seats)
    await play_to_end(room, players, random.Random(seats))
    everyone = [*players, spectator]
    for c in everyone:
        await c.wait_for(room, lambda s: s["result"] is not None)
    for c in everyone:
        patched = c.view(room)
        snap = await c.sync(room)
        assert snap["v"] == c.views[room].v
        assert snap["state"] == patched
        assert c.views[room].patches > 50  # the game really went through patches
    results = {repr(c.view(room)["result"]) for c in everyone}
    assert len(results) == 1
    result = players[0].view(room)["result"]
    assert len(result["scores"]) == seats and result["winners"]
    assert spectator.view(room)["private"] is None and spectator.view(room)["prompt"] is None


async def test_every_viewer_receives_every_version_in_order(connect: Connect) -> None:
    room, players, spectator = await _room_with(connect, 3, seed=9, keep_frames=True)
    await play_to_end(room, players, random.Random(9))
    for c in [*players, spectator]:
        await c.wait_for(room, lambda s: s["result"] is not None)
        assert c.frames is not None
        msgs = [msgpack.unpackb(f) for f in c.frames]
        versions = [m["v"] for m in msgs if m["t"] == "patch" and m["room"] == room]
        snaps = [m for m in msgs if m["t"] == "snapshot"]
        assert snaps, "a joiner gets a snapshot"
        start = snaps[0]["v"]
        assert versions == list(range(start + 1, start + 1 + len(versions)))
        patches = [m for m in msgs if m["t"] == "patch"]
        assert all(p["v"] == p["base"] + 1 for p in patches)


async def test_hidden_hands_never_appear_in_another_viewers_raw_frames(connect: Connect) -> None:
    seats, seed = 3, 77
    room, players, spectator = await _room_with(connect, seats, seed=seed, keep_frames=True)
    start_v = players[0].views[room].v
    played = await play_to_end(room, players, random.Random(seed))
    for c in [*players, spectator]:
        await c.wait_for(room, lambda s: s["result"] is not None)
    states = _states_by_version(seats, seed, start_v, played)
    checked = 0
    for viewer_seat, c in [*enumerate(players), (None, spectator)]:
        assert c.frames is not None
        for frame in c.frames:
            msg = msgpack.unpackb(frame)
            if msg["t"] not in ("snapshot", "patch") or msg["v"] < start_v:
                continue
            state = _state_at(states, msg["v"])
            assert state is not None
            payload = msg["state"] if msg["t"] == "snapshot" else [op.get("value") for op in msg["ops"]]
            seen = strings(payload)
            forbidden = set(GAME.hidden_tokens(state))
            for other in range(seats):
                if other != viewer_seat:
                    forbidden |= set(GAME.secret_tokens(state, other))
            assert not (seen & forbidden), f"leak to seat {viewer_seat} at v{msg['v']}: {seen & forbidden}"
            checked += 1
    assert checked > 200
    # the spectator never received any hand at all
    assert spectator.frames is not None
    for frame in spectator.frames:
        msg = msgpack.unpackb(frame)
        if msg["t"] == "snapshot":
            assert msg["state"]["private"] is None


async def test_a_player_who_reconnects_with_the_token_gets_the_seat_back_mid_game(connect: Connect) -> None:
    room, players, spectator = await _room_with(connect, 3, seed=5)
    rng = random.Random(5)
    # play a few moves
    for _ in range(12):
        mover = next((p for p in players if p.view(room)["prompt"]), None)
        if mover is None:
            await spectator.wait_for(room, lambda s: True)
            continue
        await mover.move(room, rng.choice(mover.view(room)["prompt"]["options"]))
    leaver = players[1]
    token, player_id = leaver.token, leaver.player
    await leaver.close()
    await spectator.wait_for(room, lambda s: s["seats"][1]["connected"] is False)
    back = await connect()
    welcome = await back.hello("player1-again", token)
    assert welcome["player"] == player_id
    assert welcome["rooms"] == [{"room": room, "game": "expedition", "seat": 1}]
    assert await back.join(room) == 1
    await spectator.wait_for(room, lambda s: s["seats"][1]["connected"] is True)
    assert back.view(room)["private"]["hand"]  # the hand is back
    players[1] = back
    await play_to_end(room, players, rng)


async def test_a_newer_connection_of_the_same_player_replaces_the_older_one(connect: Connect) -> None:
    first = await connect("ann")
    second = await connect()
    await second.hello("ann", first.token)
    await first.closed.wait()
    assert first.close_code == 4001
    assert second.player == first.player


async def test_the_lobby_pushes_created_rooms_joins_and_the_start(connect: Connect) -> None:
    watcher = await connect("lobbyist")
    answer = await watcher.request("watch_lobby")
    assert answer["rooms"] == []
    a, b = await connect("a"), await connect("b")
    room = await a.create("expedition", 2)
    await _wait_lobby(watcher, lambda rooms: any(r["room"] == room for r in rooms))
    await a.join(room)
    await _wait_lobby(watcher, lambda rooms: any(r["room"] == room and r["players"][0] == "a" for r in rooms))
    await b.join(room)
    await _wait_lobby(watcher, lambda rooms: any(r["room"] == room and r["status"] == "playing" for r in rooms))
    private = await a.create("expedition", 2, public=False)
    listed = await watcher.request("list_rooms")
    assert [r["room"] for r in listed["rooms"]] == [room]
    assert private not in {r["room"] for r in watcher.lobby}
    only = await watcher.request("list_rooms", game="nope")
    assert only["rooms"] == []


async def _wait_lobby(c: Client, cond: Callable[[list[dict[str, Any]]], bool]) -> None:
    import asyncio

    for _ in range(200):
        if cond(c.lobby):
            return
        c.lobby_changed.clear()
        try:
            await asyncio.wait_for(c.lobby_changed.wait(), 0.05)
        except TimeoutError:
            pass
    raise AssertionError(f"lobby never matched: {c.lobby}")


async def test_leaving_before_the_start_frees_the_seat(connect: Connect) -> None:
    a, b = await connect("a"), await connect("b")
    room = await a.create("expedition", 3)
    await a.join(room)
    await b.join(room)
    await a.request("leave", room=room)
    await b.wait_for(room, lambda s: s["seats"][0]["taken"] is False)
    c = await connect("c")
    assert await c.join(room) == 0
