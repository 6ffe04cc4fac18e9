"""Moderation over real sockets (wire contract v1.2): blocks, reports with their context, the word filter, chat and
room-creation limits per address whatever the number of connections, the host's mute, bans that refuse `hello`,
`sign_in` and `sign_up` and close open connections at once, a moderator closing a room and deleting a chat line.
On in-memory records and a real PostgreSQL (a database of this run's own); the two-node cases are in
tests/net/test_moderation_cluster.py."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from clients.client import Client, ServerError
from server.net.app import App

from .conftest import start_app

PASSWORD = "correct horse battery"
CHEAP = {"password_memory_kib": 1024, "password_time_cost": 1}


@pytest.fixture(params=["memory", "postgresql"])
async def records(request: pytest.FixtureRequest) -> str:
    return "memory" if request.param == "memory" else str(request.getfixturevalue("pg_url"))


@pytest.fixture
async def node(records: str) -> AsyncIterator[Callable[..., Awaitable[App]]]:
    apps: list[App] = []

    async def make(**settings: Any) -> App:
        app = await start_app(records=records, **{**CHEAP, **settings})
        apps.append(app)
        return app

    yield make
    for app in apps:
        await app.stop()


@pytest.fixture
async def clients() -> AsyncIterator[Callable[..., Awaitable[Client]]]:
    made: list[Client] = []

    async def make(app: App, name: str | None = None, account: bool = False) -> Client:
        c = Client(f"ws://127.0.0.1:{app.port}/ws")
        await c.connect()
        made.append(c)
        if account and name is not None:
            await c.sign_up(name, PASSWORD)
        elif name is not None:
            await c.hello(name)
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


async def _pushes(c: Client, t: str, timeout: float = 5.0) -> dict[str, Any]:
    stop = time.monotonic() + timeout
    while time.monotonic() < stop:
        for msg in c.pushes:
            if msg.get("t") == t:
                return msg
        await asyncio.sleep(0.02)
    raise AssertionError(f"no {t!r} push")


async def test_a_blocked_players_lines_never_reach_the_blocker_and_it_cannot_join_the_blockers_room(
    node: Callable[..., Awaitable[App]], clients: Callable[..., Awaitable[Client]]
) -> None:
    app = await node()
    ann = await clients(app, "Ann", account=True)
    bob = await clients(app, "Bob")
    cat = await clients(app, "Cat")
    room = await cat.create("expedition", 3)
    for c in (ann, bob, cat):
        await c.join(room)
    await ann.request("block", player=bob.player, name="Bob")
    assert (await ann.request("blocks"))["players"] == [{"player": bob.player, "name": "Bob"}]
    await bob.chat("from bob, in the room", room=room)
    await bob.chat("from bob, in the lobby")
    await cat.chat("from cat", room=room)
    await ann.wait_chat(lambda x: x["text"] == "from cat")
    assert (await cat.wait_chat(lambda x: x["text"] == "from bob, in the room"))["from"] == bob.player
    assert [x["text"] for x in ann.chats] == ["from cat"]  # bob's lines were never sent
    assert [x["text"] for x in await ann.chat_log(room)] == ["from cat"]
    assert await ann.chat_log(None) == []
    assert [x["text"] for x in await cat.chat_log(None)] == ["from bob, in the lobby"]
    # a room ann hosts: bob may not join it, cat may
    mine = await ann.create("expedition", 2)
    assert await _code(bob.join(mine)) == "forbidden"
    # the block outlives the connection: ann signs in again on a new one
    again = await clients(app)
    await again.sign_in("Ann", PASSWORD)
    await bob.chat("still blocked")
    await cat.chat("cat again")
    await asyncio.sleep(0.3)
    assert await again.chat_log(None) == [] or all(x["from"] != bob.player for x in await again.chat_log(None))
    await again.request("unblock", player=bob.player)
    assert (await again.request("blocks"))["players"] == []
    await bob.chat("heard again")
    assert (await again.chat_log(None))[-1]["text"] == "heard again"
    assert await _code(again.request("block", player=again.player)) == "bad_message"


async def test_a_report_is_kept_with_the_rooms_recent_lines_and_public_log(
    node: Callable[..., Awaitable[App]], clients: Callable[..., Awaitable[Client]]
) -> None:
    app = await node()
    ann = await clients(app, "Ann")
    bob = await clients(app, "Bob")
    room = await ann.create("expedition", 2)
    await ann.join(room)
    await bob.join(room)
    await ann.wait_for(room, lambda s: s["status"] == "playing")
    for _ in range(4):  # a few moves: the public log has something in it
        mover = next((c for c in (ann, bob) if c.view(room).get("prompt")), None)
        if mover is None:
            await asyncio.sleep(0.05)
            continue
        await mover.move(room, mover.view(room)["prompt"]["options"][0])
        await asyncio.sleep(0.05)
    await bob.chat("something rude", room=room)
    await ann.wait_chat(lambda x: x["text"] == "something rude")
    await ann.request("report", player=bob.player, room=room, reason="insults in chat")
    await ann.request("report", player=bob.player, reason="rude in the lobby")
    reports = await app.hub.records.reports()
    assert [(r.reporter, r.player, r.room, r.reason) for r in reports] == [
        (ann.player, bob.player, None, "rude in the lobby"),
        (ann.player, bob.player, room, "insults in chat"),
    ]
    context = reports[1].context
    assert [x["text"] for x in context["chat"]] == ["something rude"]
    assert context["game"] == "expedition" and [p["name"] for p in context["players"]] == ["Ann", "Bob"]
    assert isinstance(context["log"], list) and context["log"]  # the game's public log
    # the context holds no seat's private part: the hands of the view are not in it
    assert "private" not in str(context) and "hand" not in str(context["log"])
    assert await _code(ann.request("report", player=ann.player, reason="me")) == "bad_message"
    assert await _code(ann.request("report", player=bob.player, reason="")) == "bad_message"
    assert await _code(ann.request("report", player=bob.player, room="nosuchroom", reason="x")) == "not_found"


async def test_one_address_cannot_flood_the_lobby_whatever_its_connections(
    node: Callable[..., Awaitable[App]], clients: Callable[..., Awaitable[Client]]
) -> None:
    app = await node(chat_lines=5, chat_lines_per_addr=15, chat_window=10.0)
    flood = [await clients(app, f"Flood {i}") for i in range(20)]
    watcher = await clients(app, "Watcher")
    codes = await asyncio.gather(*(_code(c.chat(f"line {i} {j}")) for i, c in enumerate(flood) for j in range(5)))
    assert codes.count("ok") == 15 and codes.count("rate_limited") == 85, codes
    assert len(await watcher.chat_log(None)) == 15


async def test_the_word_filter_refuses_a_line_however_the_word_is_written(
    node: Callable[..., Awaitable[App]], clients: Callable[..., Awaitable[Client]], tmp_path: Path
) -> None:
    deny = tmp_path / "deny.txt"
    deny.write_text("# words this server refuses\nscoundrel\n\n", encoding="utf-8")
    app = await node(chat_deny=("knave",), chat_deny_file=deny)
    c = await clients(app, "Ann")
    room = await c.create("expedition", 2)
    await c.join(room)
    for line in ("you KNAVE", "a KN\u0391VE", "SCOUNDREL!", "ѕcoundrel", "s c o u n d r e l", "scoundrels all"):
        assert await _code(c.chat(line)) == "filtered", line
        assert await _code(c.chat(line, room=room)) == "filtered", line
    for line in ("a knavery of ravens", "good game"):  # a short word only as a word of its own
        assert await _code(c.chat(line)) == "ok", line
    assert [x["text"] for x in await c.chat_log(None)] == ["a knavery of ravens", "good game"]


async def test_the_host_mutes_a_seat_in_a_running_game(
    node: Callable[..., Awaitable[App]], clients: Callable[..., Awaitable[Client]]
) -> None:
    app = await node()
    host = await clients(app, "Host")
    loud = await clients(app, "Loud")
    room = await host.create("expedition", 2)
    await host.join(room)
    await loud.join(room)
    await host.wait_for(room, lambda s: s["status"] == "playing")
    assert await _code(loud.host(room, "mute", seat=0)) == "forbidden"  # only the host
    await host.host(room, "mute", seat=1)
    await loud.wait_for(room, lambda s: s["seats"][1].get("muted") is True)
    assert await _code(loud.chat("let me speak", room=room)) == "muted"
    assert await _code(loud.chat("the lobby is not the room")) == "ok"
    assert await _code(host.host(room, "mute", seat=0)) == "bad_message"  # not yourself
    await host.host(room, "unmute", seat=1)
    await loud.wait_for(room, lambda s: "muted" not in s["seats"][1])
    assert await _code(loud.chat("thanks", room=room)) == "ok"


async def test_a_ban_refuses_hello_and_sign_in_and_closes_the_open_connection(
    node: Callable[..., Awaitable[App]], clients: Callable[..., Awaitable[Client]]
) -> None:
    app = await node()
    cheat = await clients(app, "Cheat", account=True)
    token = cheat.token
    other = await clients(app, "Other")
    until = int(time.time()) + 3600
    ban = await app.hub.moderation.ban("player", cheat.player, "cheating", until, "admin")
    await asyncio.wait_for(cheat.closed.wait(), 5)
    assert cheat.close_code == 4003
    assert not other.closed.is_set()  # nobody else
    again = await clients(app)
    with pytest.raises(ServerError) as err:
        await again.hello("Cheat", token)
    assert err.value.code == "banned" and "cheating" in err.value.message and "until" in err.value.message
    assert await _code(again.sign_in("Cheat", PASSWORD)) == "banned"
    await app.hub.moderation.lift(ban.id)
    back = await clients(app)
    assert (await back.sign_in("Cheat", PASSWORD))["player"] == cheat.player
    # an address ban (every test client is 127.0.0.1): new guests, sign-ins and sign-ups are refused
    await app.hub.moderation.ban("net", "127.0.0.0/8", "flooding", None, "admin")
    await asyncio.wait_for(back.closed.wait(), 5)
    assert back.close_code == 4003 and other.close_code == 4003
    late = await clients(app)
    with pytest.raises(ServerError) as err:
        await late.hello("Newcomer")
    assert err.value.code == "banned" and "permanently" in err.value.message
    assert await _code(late.sign_up("Newcomer", PASSWORD)) == "banned"


async def test_a_moderator_closes_a_room_and_deletes_a_chat_line(
    node: Callable[..., Awaitable[App]], clients: Callable[..., Awaitable[Client]]
) -> None:
    app = await node()
    ann = await clients(app, "Ann")
    bob = await clients(app, "Bob")
    room = await ann.create("expedition", 2)
    await ann.join(room)
    await bob.join(room)
    await bob.chat("a line to delete", room=room)
    line = await ann.wait_chat(lambda x: x["text"] == "a line to delete")
    assert isinstance(line["line"], str) and line["line"]
    gone = await app.hub.moderation.delete_chat(room, line["line"])
    assert gone is not None and gone["text"] == "a line to delete"
    deleted = await _pushes(ann, "chat_deleted")
    assert deleted == {"t": "chat_deleted", "room": room, "line": line["line"]}
    assert await ann.chat_log(room) == []
    assert await app.hub.moderation.delete_chat(room, line["line"]) is None
    assert await app.hub.moderation.close_room(room, "closed for abuse")
    closed = await _pushes(bob, "closed")
    assert closed["reason"] == "moderator" and closed["message"] == "closed for abuse"
    await ann.wait_for(room, lambda s: s["status"] == "finished" and s.get("closed") == "moderator")
    # a closed room offers no prompt and refuses moves (its game state was mid-game)
    assert all(c.view(room)["prompt"] is None for c in (ann, bob))
    assert await _code(ann.move(room, {"any": "move"})) == "illegal_move"
    late = await clients(app, "Late")  # a viewer who comes later reads the reason in the view
    await late.join(room, spectate=True)
    assert late.view(room)["closed_message"] == "closed for abuse"
    assert await _code(ann.chat("after the close", room=room)) in ("ok", "forbidden")
