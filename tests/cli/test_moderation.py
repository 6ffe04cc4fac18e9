"""Moderation in the terminal client (wire contract v1.2), against an in-process server: `block` hides a player's
chat lines (those on screen too) and `blocked` lists the block, `unblock` shows them again; `report` files a report
with the room (or none in the lobby); the room's host mutes a seat by number or name (the seat shows it, the muted
player's chat is refused with a sentence), the word filter's refusal reads as a sentence; a moderator deleting a
chat line drops it from the screen, closing a room shows the moderator's message (also to a viewer who comes
later); a ban ends the client with the server's message and no reconnecting, and a ban also refuses its next
start."""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from clients.cli.__main__ import run
from clients.cli.i18n import error_sentence
from clients.cli.render import seat_name, seats_table, to_text
from clients.client import Client, ServerError
from server.config import Settings
from server.net.app import App
from tests.cli.conftest import Screen, until
from tests.cli.test_accounts import cli, said
from tests.cli.test_play import cancel_all, finish, found
from tests.cli.test_players import Typist


@pytest.fixture
async def app() -> AsyncIterator[App]:
    """A node without chat limits (every test client shares one address) and with one denied word."""
    node = App(Settings(port=0, allow_client_seed=True, chat_lines=0, chat_lines_per_addr=0, chat_deny=("knave",)))
    await node.start()
    try:
        yield node
    finally:
        await node.stop()


def argv(url: str, tmp_path: Path, name: str, *extra: str) -> list[str]:
    return ["--url", url, "--name", name, "--token-file", str(tmp_path / f"token-{name}"), *extra]


async def guest(url: str, name: str) -> Client:
    c = Client(url)
    await c.connect()
    await c.hello(name)
    return c


def last_screen(text: str, start: str) -> str:
    """The last screen drawn: the text from the last `start` (the screen's first line) on."""
    assert start in text, start
    return text[text.rindex(start) :]


def player_of(text: str) -> str:
    """The player id the CLI printed when it said hello."""
    return found(r"welcome \S+: player (\S+) ", text)


# ---- without a server ----------------------------------------------------------------------------------


def test_a_muted_seat_is_marked_beside_its_name_and_the_moderation_errors_read_as_sentences() -> None:
    view: dict[str, Any] = {
        "you": 0,
        "status": "waiting",
        "seats": [
            {"name": "ann", "taken": True, "connected": True, "guest": True},
            {"name": "bob", "taken": True, "connected": True, "guest": False, "muted": True},
        ],
    }
    assert seat_name(view, 1, guest=True) == "bob (muted)"
    assert seat_name(view, 0, guest=True) == "ann (guest) (you)"
    assert seat_name(view, 1) == "bob"  # in sentences (the log, the clock) no mark
    table = to_text(seats_table(view))
    assert "bob (muted)" in table and "ann (guest) (you)" in table and table.count("(muted)") == 1
    banned = error_sentence("banned", "banned until 2030-01-01 00:00 UTC: cheating")
    assert banned == "You are banned from this server. The server said: banned until 2030-01-01 00:00 UTC: cheating"
    assert "muted your chat" in error_sentence("muted", "the room's host muted your chat")
    assert "does not allow" in error_sentence("filtered", "x")


# ---- against a server ----------------------------------------------------------------------------------


async def test_block_hides_a_players_lines_blocked_lists_it_and_unblock_shows_them_again(
    app: App, url: str, tmp_path: Path
) -> None:
    ann = Typist(argv(url, tmp_path, "ann"))
    bob = await guest(url, "bob")
    cat = await guest(url, "cat")
    try:
        await ann.wait("quick GAME SEATS", "the lobby")
        assert said("block NAME: hide a player's chat", ann.text)  # the help lists the commands
        await bob.chat("hello from bob")
        await until(lambda: "bob (guest): hello from bob" in ann.text, what="bob's line on ann's screen")
        ann.type("block nobody-here")
        await ann.wait("Nobody called nobody-here is in the chat or the seats here.")
        ann.type("say hi all")
        await until(lambda: "ann (guest): hi all" in ann.text, what="ann's own line")
        ann.type("block ann")
        await ann.wait("That is you.")

        ann.type("block bob")
        shown = await ann.wait("Blocked bob: you will see none of their chat lines.")
        assert "hello from bob" not in shown  # the line on screen is gone with the block
        assert "ann (guest): hi all" in shown
        # the server keeps the block: bob's new lines never reach ann, cat's do
        assert await app.hub.records.block_list(player_of(ann.text)) == [(bob.player, "bob")]
        await bob.chat("bob while blocked")
        await cat.chat("cat after the block")
        await until(lambda: "cat (guest): cat after the block" in ann.text, what="cat's line")
        assert "bob while blocked" not in ann.text

        ann.type("blocked")
        await ann.wait("You block: bob")

        ann.type("unblock bob")
        shown = await ann.wait("Unblocked bob: their chat lines show again.")
        assert "bob (guest): hello from bob" in shown and "bob (guest): bob while blocked" in shown
        await bob.chat("bob after the unblock")
        await until(lambda: "bob (guest): bob after the unblock" in ann.text, what="bob heard again")
        assert await app.hub.records.block_list(player_of(ann.text)) == []
        ann.type("blocked")
        await ann.wait("You block nobody.")
        ann.type("unblock bob")
        await ann.wait("You do not block anybody called bob.")
        assert await ann.quit() == 0
    finally:
        await cancel_all(ann.task)
        await bob.close()
        await cat.close()


async def test_report_files_a_report_with_the_room_and_without_one_in_the_lobby(
    app: App, url: str, tmp_path: Path
) -> None:
    bob = await guest(url, "bob")
    room = await bob.create("expedition", 2)
    await bob.join(room)
    ann = Typist(argv(url, tmp_path, "ann", "--join", room))
    try:
        await ann.wait(f"Seated at seat 2 in room {room}.", "ann seated")
        await bob.chat("something rude", room=room)
        await until(lambda: "bob (guest): something rude" in ann.text, what="bob's line in the room")
        ann.type("report bob")
        await ann.wait("Name the player and say why: report NAME REASON")
        ann.type("report bob insults in the chat")
        await ann.wait("Reported bob to the moderators.")
        reports = await app.hub.records.reports()
        assert [(r.reporter, r.player, r.room, r.reason) for r in reports] == [
            (player_of(ann.text), bob.player, room, "insults in the chat")
        ]
        assert [x["text"] for x in reports[0].context["chat"]] == ["something rude"]

        ann.type("l")
        await ann.wait(f"Left room {room}.")
        await bob.chat("spam in the lobby")
        await until(lambda: "bob (guest): spam in the lobby" in ann.text, what="bob's lobby line")
        ann.type("report bob spam in the lobby")
        await ann.wait("Reported bob to the moderators.")
        reports = await app.hub.records.reports()
        assert [(r.player, r.room, r.reason) for r in reports] == [
            (bob.player, None, "spam in the lobby"),
            (bob.player, room, "insults in the chat"),
        ]
        ann.type("report nobody-here spam")
        await ann.wait("Nobody called nobody-here is in the chat or the seats here.")
        assert len(await app.hub.records.reports()) == 2
        assert await ann.quit() == 0
    finally:
        await cancel_all(ann.task)
        await bob.close()


async def test_the_host_mutes_a_seat_the_seat_shows_it_and_the_muted_players_chat_is_refused(
    app: App, url: str, tmp_path: Path
) -> None:
    ann = Typist(argv(url, tmp_path, "ann", "--create", "--seats", "2"))
    bob: Typist | None = None
    try:
        await ann.wait("Seated at seat 1 in room", "ann's room")
        room = found(r"Seated at seat 1 in room (\S+)\.", ann.text)
        assert said("mute SEAT or NAME, unmute SEAT or NAME", ann.text)
        bob = Typist(argv(url, tmp_path, "bob", "--join", room))
        await bob.wait(f"Seated at seat 2 in room {room}.", "bob seated")
        await until(lambda: re.search(r"expedition\s+room \S+\s+playing", ann.text) is not None, what="the start")

        bob.type("mute 1")
        await bob.wait("Only the room's host can mute or unmute a seat.")
        ann.type("mute 1")
        await ann.wait("Choose a seat another person holds (not a server bot, not your own).")
        ann.type("mute 7")
        await ann.wait("Choose a seat from 1 to 2.")
        ann.type("mute bob")
        await ann.wait("Muted bob: their chat in this room is refused.")
        await until(lambda: "bob (guest) (muted)" in ann.text, what="the muted mark on the host's screen")
        await until(lambda: "bob (guest) (muted) (you)" in bob.text, what="the muted mark on bob's screen")

        bob.type("say let me speak")
        await bob.wait("The room's host muted your chat in this room: your line was not sent.")
        bob.type("say you knave")  # the word filter (this node denies "knave")
        await bob.wait("That line holds a word this server does not allow: it was not sent.")

        ann.type("unmute 2")
        shown = await ann.wait("Unmuted bob.")
        assert "(muted)" not in last_screen(shown, "expedition  room")
        bob.type("say thanks")
        await until(lambda: "bob (guest): thanks" in ann.text, what="bob heard again")
        assert "let me speak" not in ann.text and "knave" not in ann.text
        assert await ann.quit() == 0
        assert await bob.quit() == 0
    finally:
        await cancel_all(ann.task, *([bob.task] if bob else []))


async def test_a_moderator_deleting_a_line_drops_it_and_closing_the_room_shows_the_message(
    app: App, url: str, tmp_path: Path
) -> None:
    bob = await guest(url, "bob")
    room = await bob.create("expedition", 2)
    await bob.join(room)
    ann = Typist(argv(url, tmp_path, "ann", "--join", room))
    try:
        await ann.wait(f"Seated at seat 2 in room {room}.", "ann seated")
        start = "expedition  room " + room
        await bob.chat("a line to delete", room=room)
        await bob.chat("a line to keep", room=room)
        line = await bob.wait_chat(lambda x: x["text"] == "a line to delete")
        await until(lambda: "a line to keep" in last_screen(ann.text, start), what="both lines on ann's screen")
        assert "a line to delete" in last_screen(ann.text, start)
        assert await app.hub.moderation.delete_chat(room, line["line"]) is not None
        await until(lambda: "a line to delete" not in last_screen(ann.text, start), what="the deleted line gone")
        assert "bob (guest): a line to keep" in last_screen(ann.text, start)

        assert await app.hub.moderation.close_room(room, "closed for abuse")
        await until(lambda: "Closed by a moderator: closed for abuse" in ann.text, what="the moderator's close")
        await until(lambda: "The game is over." in last_screen(ann.text, start), what="no options in a closed room")
        closed = last_screen(ann.text, start)
        assert "Closed by a moderator: closed for abuse" in closed and not re.search(r"^\s+\d+\) ", closed, re.M)
        ann.type("1")
        await ann.wait("There is nothing for you to do right now.")
        assert await ann.quit() == 0

        # a viewer who comes later reads it in the view
        code, text = await cli(argv(url, tmp_path, "cy", "--spectate", room))
        assert code == 0 and "Closed by a moderator: closed for abuse" in text
    finally:
        await cancel_all(ann.task)
        await bob.close()


async def test_a_bot_stops_when_a_moderator_closes_its_room(app: App, url: str, tmp_path: Path) -> None:
    bob = await guest(url, "bob")
    room = await bob.create("expedition", 2)
    await bob.join(room)  # bob never moves: the game cannot end by itself
    s = Screen()
    lines: asyncio.Queue[str | None] = asyncio.Queue()
    task = asyncio.create_task(run(argv(url, tmp_path, "ann", "--bot", "random", "--join", room), console=s.console,
                                   lines=lines))  # fmt: skip
    try:
        await bob.wait_for(room, lambda v: v["status"] == "playing")
        assert await app.hub.moderation.close_room(room, "closed for abuse")
        assert await finish(task, timeout=10) == [0]
        assert f"ann in room {room} at seat 2" in s.text
    finally:
        await cancel_all(task)
        await bob.close()


async def test_a_ban_ends_the_client_with_the_servers_message_and_refuses_its_next_start(
    app: App, url: str, tmp_path: Path
) -> None:
    ann = Typist(argv(url, tmp_path, "ann"))
    try:
        await ann.wait("quick GAME SEATS", "the lobby")
        pid = player_of(ann.text)
        until_ts = int(time.time()) + 3600
        ban = await app.hub.moderation.ban("player", pid, "cheating", until_ts, "admin")
        assert await finish(ann.task, timeout=10) == [1]  # no reconnecting: the client stops by itself
        sentence = "You are banned from this server. The server said: banned until "
        assert said(sentence, ann.text) and said("UTC: cheating", ann.text)
        assert "reconnecting" not in ann.text and "connection lost" not in ann.text
        # its next start: `hello` with its token is refused, said once, no retries
        code, text = await cli(argv(url, tmp_path, "ann"), typed=())
        assert code == 1 and said(sentence, text) and "reconnecting" not in text
        # a permanent ban says so
        await app.hub.moderation.lift(ban.id)
        await app.hub.moderation.ban("player", pid, "cheating", None, "admin")
        code, text = await cli(argv(url, tmp_path, "ann"), typed=())
        assert code == 1 and said("The server said: banned permanently: cheating", text)
    finally:
        await cancel_all(ann.task)


async def test_the_client_helpers_cover_the_moderation_requests(app: App, url: str) -> None:
    ann, bob = await guest(url, "ann"), await guest(url, "bob")
    try:
        await ann.block(str(bob.player), "bob")
        assert await ann.blocks() == [{"player": bob.player, "name": "bob"}]
        await ann.unblock(str(bob.player))
        assert await ann.blocks() == []
        await ann.report(str(bob.player), "rude")
        assert [(r.player, r.room, r.reason) for r in await app.hub.records.reports()] == [(bob.player, None, "rude")]
        with pytest.raises(ServerError) as err:
            await ann.report(str(ann.player), "me")
        assert err.value.code == "bad_message"
    finally:
        await ann.close()
        await bob.close()
