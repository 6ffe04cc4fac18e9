"""Hostile and careless clients over real sockets: every request answered, timeouts, limits, names, invites."""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from typing import Any

import msgpack
import pytest
from websockets.asyncio.client import connect as ws_connect
from websockets.exceptions import InvalidStatus

from clients.client import Client, ServerError
from server.net.app import App, client_address, parse_proxies
from server.node.hub import hello_token

from .conftest import start_app
from .rawws import RawWS

Connect = Callable[..., Awaitable[Client]]


async def _client(app: App, name: str | None = "x", **kw: Any) -> Client:
    c = Client(f"ws://127.0.0.1:{app.port}/ws", **kw)
    await c.connect()
    if name is not None:
        await c.hello(name)
    return c


async def _closed_code(c: Client, timeout: float = 5.0) -> int | None:
    await asyncio.wait_for(c.closed.wait(), timeout)
    return c.close_code


# ---- every request answered --------------------------------------------------------------------


async def test_every_request_in_a_burst_over_the_rate_limit_is_answered_once_with_its_id() -> None:
    app = await start_app(rate=5.0, burst=10, flood_close_after=10_000)
    try:
        async with ws_connect(f"ws://127.0.0.1:{app.port}/ws") as ws:
            await ws.send(msgpack.packb({"t": "hello", "id": 0, "name": "fast"}))
            ids = list(range(1, 121))
            for i in ids:  # all at once, far above 5 frames a second
                await ws.send(msgpack.packb({"t": "ping", "id": i}))
            answers: Counter[int] = Counter()
            codes: Counter[str] = Counter()
            while sum(answers.values()) < len(ids) + 1:
                msg = msgpack.unpackb(await asyncio.wait_for(ws.recv(), 5))
                assert "re" in msg, msg
                answers[msg["re"]] += 1
                codes[msg["t"] if msg["t"] != "error" else msg["code"]] += 1
        assert all(answers[i] == 1 for i in [0, *ids]), "every id answered exactly once"
        assert codes["rate_limited"] > 50 and codes["pong"] >= 9
    finally:
        await app.stop()


async def test_a_rate_limited_request_is_refused_before_it_is_decoded_but_still_carries_its_id() -> None:
    app = await start_app(rate=0.001, burst=1, flood_close_after=10_000)
    try:
        c = await _client(app)  # the hello takes the one token
        with pytest.raises(ServerError) as err:
            await c.request("create", game="no-such-game", seats=99)  # would be bad_message if decoded
        assert err.value.code == "rate_limited"
        await c.close()
    finally:
        await app.stop()


# ---- timeouts ----------------------------------------------------------------------------------


async def test_a_connection_that_never_says_hello_is_closed_after_the_hello_timeout() -> None:
    app = await start_app(hello_timeout=0.3)
    try:
        c = await _client(app, name=None)
        t0 = time.monotonic()
        assert await _closed_code(c) == 1008
        assert time.monotonic() - t0 < 3
        assert not app.hub.conns
    finally:
        await app.stop()


async def test_a_connection_that_said_hello_outlives_the_hello_timeout() -> None:
    app = await start_app(hello_timeout=0.2)
    try:
        c = await _client(app)
        await asyncio.sleep(0.5)
        assert (await c.request("ping"))["t"] == "pong"
        await c.close()
    finally:
        await app.stop()


async def test_a_peer_that_never_answers_pings_is_closed_and_its_socket_really_goes() -> None:
    app = await start_app(ping_interval=0.2, ping_timeout=0.3, close_timeout=0.5)
    try:
        raw = await asyncio.to_thread(RawWS, app.port)
        raw.send({"t": "hello", "id": 1, "name": "mute"})
        assert (await asyncio.to_thread(raw.recv))["t"] == "welcome"
        took = await asyncio.to_thread(raw.wait_gone, 5.0)
        assert took < 3
        for _ in range(50):
            if not app.hub.conns:
                break
            await asyncio.sleep(0.05)
        assert not app.hub.conns
        raw.close()
    finally:
        await app.stop()


# ---- slow readers ------------------------------------------------------------------------------


async def test_a_spectator_that_never_reads_is_closed_with_1013_and_its_queue_freed_at_once() -> None:
    app = await start_app(out_queue=10_000, out_bytes=64 * 1024, close_timeout=0.5, creates_per_minute=0)
    try:
        players = [await _client(app, f"p{i}") for i in range(2)]
        room = await players[0].create("expedition", 2, {"seed": 5})
        for p in players:
            await p.join(room)
        raw = await asyncio.to_thread(RawWS, app.port, rcvbuf=2048)
        raw.send({"t": "hello", "id": 1, "name": "sleepy"})
        raw.send({"t": "join", "id": 2, "room": room, "spectate": True})
        for _ in range(100):
            if any(c.name == "sleepy" for c in app.hub.conns):
                break
            await asyncio.sleep(0.02)
        slow = next(c for c in app.hub.conns if c.name == "sleepy")
        # flood the spectator with snapshots it never reads
        for _ in range(20_000):  # the kernel's socket buffers take a few MB before the outbox fills
            if slow.closed:
                break
            await app.hub.rooms[room].submit("sync", slow)
        assert slow.closed and slow.close_code == 1013
        assert slow.queued == (0, 0), "the backlog is dropped when the reader is cut off"
        took = await asyncio.to_thread(raw.wait_gone, 5.0)
        assert took < 3
        assert (await players[0].request("ping"))["t"] == "pong"  # the others go on
        raw.close()
        for p in players:
            await p.close()
    finally:
        await app.stop()


async def test_a_lobby_watcher_that_never_reads_holds_one_coalesced_lobby_not_a_backlog() -> None:
    app = await start_app(creates_per_minute=0, waiting_rooms_per_player=0)
    try:
        raw = await asyncio.to_thread(RawWS, app.port, rcvbuf=2048)
        raw.send({"t": "hello", "id": 1, "name": "idle"})
        raw.send({"t": "watch_lobby", "id": 2})
        for _ in range(100):
            if app.hub.watchers:
                break
            await asyncio.sleep(0.02)
        watcher = next(iter(app.hub.watchers))
        c = await _client(app, "maker")
        for _ in range(150):
            await c.create("expedition", 3)
            await asyncio.sleep(0.003)
        await asyncio.sleep(0.2)
        frames, size = watcher.queued
        assert not watcher.closed
        assert frames <= 3, f"{frames} frames queued"  # the coalesced lobby, plus what was in flight
        assert size < 64 * 1024
        raw.close()
        await c.close()
    finally:
        await app.stop()


# ---- connections per address and trusted proxies ---------------------------------------------


async def test_connections_over_the_per_address_limit_are_refused_with_429() -> None:
    app = await start_app(max_conns_per_addr=3)
    try:
        clients = [await _client(app, name=None) for _ in range(3)]
        with pytest.raises(InvalidStatus) as err:
            await _client(app, name=None)
        assert err.value.response.status_code == 429
        await clients[0].close()
        for _ in range(50):
            if sum(len(s) for s in app.by_addr.values()) < 3:
                break
            await asyncio.sleep(0.02)
        clients[0] = await _client(app, name=None)  # a freed place is taken again
        for c in clients:
            await c.close()
    finally:
        await app.stop()


async def test_x_forwarded_for_counts_only_from_a_trusted_proxy() -> None:
    for trusted, admitted in (((), False), (("127.0.0.0/8",), True)):
        app = await start_app(max_conns_per_addr=1, trusted_proxies=trusted)
        try:
            url = f"ws://127.0.0.1:{app.port}/ws"
            a = await ws_connect(url, additional_headers={"X-Forwarded-For": "203.0.113.5"})
            if admitted:
                b = await ws_connect(url, additional_headers={"X-Forwarded-For": "203.0.113.6"})
                await b.close()
            else:
                with pytest.raises(InvalidStatus):
                    await ws_connect(url, additional_headers={"X-Forwarded-For": "203.0.113.6"})
            await a.close()
        finally:
            await app.stop()


def test_the_client_address_is_the_rightmost_untrusted_hop() -> None:
    proxies = parse_proxies(["10.0.0.0/8", "192.0.2.1"])
    assert client_address("10.1.1.1", "198.51.100.7, 192.0.2.1", proxies) == "198.51.100.7"
    assert client_address("10.1.1.1", "6.6.6.6, 198.51.100.7", proxies) == "198.51.100.7"  # spoofed left part
    assert client_address("198.51.100.9", "1.2.3.4", proxies) == "198.51.100.9"  # peer not trusted
    assert client_address("10.1.1.1", "junk, 198.51.100.7", proxies) == "198.51.100.7"
    assert client_address("10.1.1.1", "198.51.100.7, junk", proxies) == "10.1.1.1"
    assert client_address("10.1.1.1", None, proxies) == "10.1.1.1"
    assert client_address("10.1.1.1", "1.2.3.4", []) == "10.1.1.1"


# ---- rooms per player --------------------------------------------------------------------------


async def test_room_creation_is_limited_per_minute_per_player_and_per_address() -> None:
    app = await start_app(creates_per_minute=3, waiting_rooms_per_player=0)
    try:
        c = await _client(app, "maker")
        for _ in range(3):
            await c.create("expedition", 3)
        with pytest.raises(ServerError) as err:
            await c.create("expedition", 3)
        assert err.value.code == "rate_limited"
        other = await _client(app, "newname")  # a fresh player from the same address
        with pytest.raises(ServerError) as err:
            await other.create("expedition", 3)
        assert err.value.code == "rate_limited"
        assert len(app.hub.rooms) == 3
        await c.close()
        await other.close()
    finally:
        await app.stop()


async def test_a_player_may_have_only_so_many_rooms_waiting() -> None:
    app = await start_app(creates_per_minute=0, waiting_rooms_per_player=2)
    try:
        c = await _client(app, "maker")
        friend = await _client(app, "friend")
        first = await c.create("expedition", 2, {"seed": 1})
        await c.create("expedition", 2)
        with pytest.raises(ServerError) as err:
            await c.create("expedition", 2)
        assert err.value.code == "rate_limited"
        await c.join(first)
        await friend.join(first)  # the first room starts: one waiting room left
        await c.create("expedition", 2)
        await c.close()
        await friend.close()
    finally:
        await app.stop()


# ---- names -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name",
    ["Bot 1", "bot", "BOT 3", "Ｂｏｔ 1", "Server", "system", "the admin", "Al\u202eice", "Bo\u200bb", "x" * 21],
)
async def test_names_that_impersonate_hide_or_run_long_are_refused(name: str) -> None:
    app = await start_app(name_max=20)
    try:
        c = await _client(app, name=None)
        with pytest.raises(ServerError) as err:
            await c.hello(name)
        assert err.value.code == "bad_message"
        await c.close()
    finally:
        await app.stop()


@pytest.mark.parametrize("name", ["Botond", "Robot Rita", "Ábel", "李雷", "x" * 20])
async def test_ordinary_names_pass(name: str) -> None:
    app = await start_app(name_max=20)
    try:
        c = await _client(app, name=name)
        await c.close()
    finally:
        await app.stop()


async def test_two_players_with_one_name_in_a_room_are_told_apart() -> None:
    app = await start_app()
    try:
        a = await _client(app, "Alice")
        b = await _client(app, "alice")
        c = await _client(app, "ALICE")
        room = await a.create("expedition", 3, {"seed": 2})
        for p in (a, b, c):
            await p.join(room)
        await a.wait_for(room, lambda s: s["status"] == "playing")
        names = [s["name"] for s in a.view(room)["seats"]]
        assert names == ["Alice", "alice (2)", "ALICE (3)"]
        assert app.hub.rooms[room].meta.names == names
    finally:
        await app.stop()


# ---- private rooms -----------------------------------------------------------------------------


async def test_a_private_room_needs_its_invite_to_join_or_watch() -> None:
    app = await start_app()
    try:
        host = await _client(app, "host", keep_frames=True)
        stranger = await _client(app, "stranger", keep_frames=True)
        guest = await _client(app, "guest", keep_frames=True)
        room = await host.create("expedition", 2, public=False)
        invite = host.invites[room]
        assert len(invite) >= 20 and room not in invite
        assert room not in [r["room"] for r in (await stranger.request("list_rooms"))["rooms"]]
        for how in ({}, {"spectate": True}, {"seat": 1}, {"invite": "wrong-secret"}, {"invite": room}):
            with pytest.raises(ServerError) as err:
                await stranger.request("join", room=room, **how)
            assert err.value.code == "forbidden"
            with pytest.raises(ServerError):
                await stranger.request("sync", room=room)
        assert await host.join(room) == 0  # the creator's client keeps the invite it got
        assert await guest.join(room, invite=invite) == 1
        await guest.wait_for(room, lambda s: s["status"] == "playing")
        # the invite never reaches anyone but the creator's `created` answer
        secret = invite.encode()
        assert not any(secret in f for f in guest.frames or [])
        assert not any(secret in f for f in stranger.frames or [])
        assert sum(secret in f for f in host.frames or []) == 1
        # a seated player comes back without the invite
        await guest.close()
        back = await _client(app, name=None)
        await back.hello("guest", guest.token)
        assert await back.join(room) == 1
        await back.close()
    finally:
        await app.stop()


# ---- closed servers ----------------------------------------------------------------------------

SECRET = "s3cret-for-tests-only-0123456789"


async def test_a_closed_server_with_a_shared_secret_refuses_hello_without_it_and_closes() -> None:
    app = await start_app(hello_auth="secret", hello_secret=SECRET)
    try:
        c = await _client(app, name=None)
        for auth in (None, "wrong", SECRET + "x"):
            fields = {"name": "eve"} | ({"auth": auth} if auth else {})
            if c.closed.is_set():
                c = await _client(app, name=None)
            with pytest.raises(ServerError) as err:
                await c.request("hello", **fields)
            assert err.value.code == "forbidden"
            assert await _closed_code(c) == 1008
        ok = await _client(app, name=None)
        assert (await ok.request("hello", name="alice", auth=SECRET))["t"] == "welcome"
        await ok.close()
    finally:
        await app.stop()


async def test_a_closed_server_with_hmac_tokens_admits_only_the_signed_name_before_expiry() -> None:
    app = await start_app(hello_auth="hmac", hello_secret=SECRET)
    try:
        later = int(time.time()) + 600
        cases = [
            ("alice", hello_token(SECRET, "alice", later), True),
            ("mallory", hello_token(SECRET, "alice", later), False),  # signed for another name
            ("alice", hello_token(SECRET, "alice", int(time.time()) - 1), False),  # expired
            ("alice", hello_token("another-secret-of-16+", "alice", later), False),
            ("alice", f"{later}.nothex", False),
        ]
        for name, auth, admitted in cases:
            c = await _client(app, name=None)
            if admitted:
                assert (await c.request("hello", name=name, auth=auth))["t"] == "welcome"
            else:
                with pytest.raises(ServerError) as err:
                    await c.request("hello", name=name, auth=auth)
                assert err.value.code == "forbidden"
            await c.close()
    finally:
        await app.stop()


async def test_a_closed_server_without_a_real_secret_does_not_start() -> None:
    with pytest.raises(ValueError):
        await start_app(hello_auth="secret", hello_secret="short")
    with pytest.raises(ValueError):
        await start_app(hello_auth="tokens", hello_secret=SECRET)


# ---- the lobby is paged ------------------------------------------------------------------------


async def test_the_lobby_is_paged_and_capped_with_a_total() -> None:
    app = await start_app(lobby_max=5, creates_per_minute=0, waiting_rooms_per_player=0)
    try:
        c = await _client(app, "maker")
        w = await _client(app, "watcher")
        made = [await c.create("expedition", 3) for _ in range(12)]
        page = await c.request("list_rooms")
        assert [r["room"] for r in page["rooms"]] == made[:5] and page["total"] == 12
        page = await c.request("list_rooms", offset=10, limit=50)
        assert [r["room"] for r in page["rooms"]] == made[10:] and page["total"] == 12
        page = await c.request("list_rooms", offset=3, limit=2)
        assert [r["room"] for r in page["rooms"]] == made[3:5]
        await w.request("watch_lobby")
        w.lobby_changed.clear()
        await c.create("expedition", 3)
        await asyncio.wait_for(w.lobby_changed.wait(), 5)
        push = next(p for p in reversed(w.pushes) if p["t"] == "lobby")
        assert len(push["rooms"]) == 5 and push["total"] == 13
    finally:
        await app.stop()
