"""Every error code of the wire contract, provoked over a real socket and answered; nothing is lost."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

import msgpack
import pytest

from clients.client import Client, ServerError
from server.net.app import App

from .conftest import FlakyStore, start_app

Connect = Callable[..., Awaitable[Client]]


async def _raw(c: Client, data: bytes | str) -> dict:
    """Send raw bytes and return the next pushed message (an answer without `re`)."""
    before = len(c.pushes)
    await c.send_raw(data)
    for _ in range(200):
        if len(c.pushes) > before:
            return c.pushes[before]
        await asyncio.sleep(0.01)
    raise AssertionError("no answer")


async def _started_room(connect: Connect, seats: int = 2) -> tuple[str, list[Client]]:
    players = [await connect(f"p{i}") for i in range(seats)]
    room = await players[0].create("expedition", seats, {"seed": 3})
    for p in players:
        await p.join(room)
    await players[0].wait_for(room, lambda s: s["status"] == "playing")
    return room, players


async def test_garbage_bytes_are_a_bad_message_and_the_connection_stays(connect: Connect) -> None:
    c = await connect("x")
    answer = await _raw(c, b"\xc1\xff\x00garbage")
    assert answer["t"] == "error" and answer["code"] == "bad_message" and "re" not in answer
    assert (await c.request("ping"))["t"] == "pong"


async def test_a_text_frame_is_a_bad_message(connect: Connect) -> None:
    c = await connect("x")
    answer = await _raw(c, "hello")
    assert answer["code"] == "bad_message"


async def test_wrong_types_and_unknown_fields_are_bad_messages_with_re(connect: Connect) -> None:
    c = await connect("x")
    for fields in ({"room": 5}, {"room": "r1", "extra": 1}, {}):
        with pytest.raises(ServerError) as err:
            await c.request("sync", **fields)
        assert err.value.code == "bad_message"


async def test_an_unknown_type_is_answered(connect: Connect) -> None:
    c = await connect("x")
    with pytest.raises(ServerError) as err:
        await c.request("teleport")
    assert err.value.code == "unknown_type"


async def test_requests_before_hello_are_forbidden(connect: Connect) -> None:
    c = await connect()
    with pytest.raises(ServerError) as err:
        await c.request("list_rooms")
    assert err.value.code == "forbidden"
    await c.hello("late")
    assert (await c.request("list_rooms"))["rooms"] == []


async def test_unknown_rooms_and_games_are_not_found(connect: Connect) -> None:
    c = await connect("x")
    for t, fields in (("join", {"room": "nope"}), ("sync", {"room": "nope"}), ("move", {"room": "nope", "move": {}})):
        with pytest.raises(ServerError) as err:
            await c.request(t, **fields)
        assert err.value.code == "not_found"
    with pytest.raises(ServerError) as err:
        await c.create("chess", 2)
    assert err.value.code == "not_found"


async def test_bad_seat_counts_and_options_are_bad_messages(connect: Connect) -> None:
    c = await connect("x")
    with pytest.raises(ServerError) as err:
        await c.create("expedition", 7)
    assert err.value.code == "bad_message"
    with pytest.raises(ServerError) as err:
        await c.create("expedition", 3, {"no_such_option": True})
    assert err.value.code == "bad_message"


async def test_moving_in_a_room_you_are_not_in_or_as_a_spectator_is_forbidden(connect: Connect) -> None:
    room, players = await _started_room(connect)
    outsider = await connect("o")
    move = players[0].view(room)["prompt"]["options"][0]
    with pytest.raises(ServerError) as err:
        await outsider.move(room, move)
    assert err.value.code == "forbidden"
    await outsider.join(room, spectate=True)
    with pytest.raises(ServerError) as err:
        await outsider.move(room, move)
    assert err.value.code == "forbidden"
    with pytest.raises(ServerError) as err:
        await outsider.sync("elsewhere")
    assert err.value.code == "not_found"


async def test_moving_out_of_turn_and_illegal_moves_are_refused_and_change_nothing(connect: Connect) -> None:
    room, players = await _started_room(connect)
    v = players[0].views[room].v
    move = players[0].view(room)["prompt"]["options"][0]
    with pytest.raises(ServerError) as err:
        await players[1].move(room, move)
    assert err.value.code == "not_your_turn"
    for bad in ({"a": "teleport"}, {"a": "move", "fig": 0, "pay": ["gold-bar-1"]}, {}):
        with pytest.raises(ServerError) as err:
            await players[0].move(room, bad)
        assert err.value.code == "illegal_move"
    snap = await players[0].sync(room)
    assert snap["v"] == v
    assert await players[0].move(room, move) == v + 1


async def test_a_move_before_the_start_is_illegal(connect: Connect) -> None:
    a = await connect("a")
    room = await a.create("expedition", 2)
    await a.join(room)
    with pytest.raises(ServerError) as err:
        await a.move(room, {"a": "pass"})
    assert err.value.code == "illegal_move"


async def test_a_full_room_and_a_taken_seat_are_refused(connect: Connect) -> None:
    a, b, c = await connect("a"), await connect("b"), await connect("c")
    room = await a.create("expedition", 2)
    await a.join(room, seat=1)
    with pytest.raises(ServerError) as err:
        await b.join(room, seat=1)
    assert err.value.code == "seat_taken"
    await b.join(room)
    with pytest.raises(ServerError) as err:
        await c.join(room)
    assert err.value.code == "room_full"
    assert await c.join(room, spectate=True) is None


async def test_a_client_seed_is_refused_unless_the_server_allows_it() -> None:
    app = await start_app(allow_client_seed=False)
    try:
        async with Client(f"ws://127.0.0.1:{app.port}/ws") as c:
            await c.hello("x")
            with pytest.raises(ServerError) as err:
                await c.create("expedition", 2, {"seed": 1})
            assert err.value.code == "forbidden"
    finally:
        await app.stop()


async def test_an_oversized_frame_is_too_large_and_a_huge_one_closes_the_socket() -> None:
    app = await start_app(max_frame=1024, hard_frame_limit=8192)
    try:
        async with Client(f"ws://127.0.0.1:{app.port}/ws") as c:
            await c.hello("x")
            with pytest.raises(ServerError) as err:
                await c.request("list_rooms", game="g" * 2000)
            assert err.value.code == "too_large"
            assert (await c.request("ping"))["t"] == "pong"
            await c.send_raw(msgpack.packb({"t": "ping", "pad": "x" * 20000}))
            await asyncio.wait_for(c.closed.wait(), 5)
            assert c.close_code == 1009
    finally:
        await app.stop()


async def test_a_flood_is_rate_limited_then_closed() -> None:
    app = await start_app(rate=5.0, burst=5, flood_close_after=30)
    try:
        async with Client(f"ws://127.0.0.1:{app.port}/ws") as c:
            await c.hello("x")
            for _ in range(60):
                await c.send_raw(msgpack.packb({"t": "ping"}))
            await asyncio.wait_for(c.closed.wait(), 5)
            codes = [m.get("code") for m in c.pushes if m["t"] == "error"]
            assert "rate_limited" in codes
            assert c.close_code == 1008
    finally:
        await app.stop()


async def test_a_store_outage_answers_unavailable_and_loses_nothing() -> None:
    store = FlakyStore()
    app = await start_app(store=store)
    try:
        url = f"ws://127.0.0.1:{app.port}/ws"
        async with Client(url) as a, Client(url) as b:
            await a.hello("a")
            await b.hello("b")
            room = await a.create("expedition", 2, {"seed": 3})  # seed 3: seat 0 (a) is the drawn start player
            await a.join(room)
            await b.join(room)
            await a.wait_for(room, lambda s: s["status"] == "playing")
            v = a.views[room].v
            move = a.view(room)["prompt"]["options"][0]
            store.down = True
            with pytest.raises(ServerError) as err:
                await a.move(room, move)
            assert err.value.code == "unavailable"
            with pytest.raises(ServerError) as err:
                await a.move(room, move)
            assert err.value.code == "unavailable"
            store.down = False
            assert await a.move(room, move) == v + 1
            loaded = await store.load(room)
            assert loaded is not None and [e["v"] for e in loaded.log][-1] == v + 1
    finally:
        await app.stop()


async def test_a_stored_move_whose_reply_was_lost_is_answered_ok_and_a_resend_is_stale() -> None:
    store = FlakyStore()
    app = await start_app(store=store)
    try:
        url = f"ws://127.0.0.1:{app.port}/ws"
        async with Client(url) as a, Client(url) as b:
            await a.hello("a")
            await b.hello("b")
            room = await a.create("expedition", 2, {"seed": 3})  # seed 3: seat 0 (a) starts
            await a.join(room)
            await b.join(room)
            await a.wait_for(room, lambda s: s["prompt"] is not None)
            v = a.views[room].v
            move = a.view(room)["prompt"]["options"][0]
            store.lose_replies = True
            answer = await a.request("move", room=room, move=move, v=v)
            assert answer == {"t": "ok", "re": answer["re"], "v": v + 1}
            store.lose_replies = False
            with pytest.raises(ServerError) as err:
                await a.request("move", room=room, move=move, v=v)  # the same move sent again
            assert err.value.code == "stale"
            loaded = await store.load(room)
            assert loaded is not None and [e["v"] for e in loaded.log].count(v + 1) == 1
            assert [e["v"] for e in loaded.log][-1] == v + 1
            await b.wait_for(room, lambda s: b.views[room].v == v + 1)
    finally:
        await app.stop()


async def test_a_move_made_against_an_older_version_is_refused_as_stale_and_changes_nothing(
    app: App, connect: Connect
) -> None:
    a, b = await connect("a"), await connect("b")
    room = await a.create("expedition", 2, {"seed": 3})  # seed 3: seat 0 (a) starts
    await a.join(room)
    await b.join(room)
    await a.wait_for(room, lambda s: s["prompt"] is not None)
    v = a.views[room].v
    move = a.view(room)["prompt"]["options"][0]
    for made_at in (v - 1, v + 1):
        with pytest.raises(ServerError) as err:
            await a.request("move", room=room, move=move, v=made_at)
        assert err.value.code == "stale"
    assert a.views[room].v == v
    assert (await a.request("move", room=room, move=move, v=v))["v"] == v + 1


async def test_health_and_metrics_answer_over_http(app: App, connect: Connect) -> None:
    import urllib.request

    await connect("someone")
    loop = asyncio.get_running_loop()

    def get(path: str) -> tuple[int, str, str]:
        with urllib.request.urlopen(f"http://127.0.0.1:{app.port}{path}") as r:
            return r.status, r.headers["Content-Type"], r.read().decode()

    status, ctype, body = await loop.run_in_executor(None, get, "/healthz")
    assert status == 200 and ctype.startswith("application/json") and '"status": "ok"' in body
    status, ctype, body = await loop.run_in_executor(None, get, "/metrics")
    assert status == 200 and ctype.startswith("text/plain")
    for name in ("mp_connections", "mp_messages_in_total", "mp_move_latency_seconds", "mp_bytes_out_total"):
        assert name in body
