"""The leaderboard in pages, a player's page, guests marked wherever a name is shown, and the account's own
commands (a new password, deleting the account) in the terminal client (wire contract v1.2), against an
in-process server: the leaderboard's rows are written into the records store (25 players), the player pages come
from real games between accounts and a guest, the passwords go through the lobby's hidden questions and the
one-shot `--change-password` / `--delete-account`."""

from __future__ import annotations

import asyncio
import io
import random
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from prompt_toolkit.data_structures import Size
from prompt_toolkit.history import InMemoryHistory
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output.vt100 import Vt100_Output

from clients.cli import account
from clients.cli.__main__ import run
from clients.cli.account import NEW_PASSWORD_ENV, PASSWORD_ENV
from clients.cli.i18n import _
from clients.cli.prompt import PromptLines
from clients.cli.public import chat_lines, history_table, player_table, ratings_table
from clients.cli.render import render_lobby, seats_table, to_text, view_text
from clients.cli.session import read_token
from clients.client import Client, ServerError
from server.config import Settings
from server.net.app import App
from tests.cli.conftest import Screen, until
from tests.cli.test_accounts import CHEAP, PASSWORD, argv, cli, said
from tests.cli.test_play import cancel_all, finish

NEW_PASSWORD = "  Ox9 new-harbour Lantern  "  # spaces kept, inside and at both ends


@pytest.fixture
async def app() -> AsyncIterator[App]:
    """A server node with cheap password hashes (overrides the conftest's)."""
    node = App(Settings(port=0, allow_client_seed=True, rate=1000.0, burst=2000, **CHEAP))  # two games played fast
    await node.start()
    try:
        yield node
    finally:
        await node.stop()


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """~ is the test's folder, and no password is set in the environment."""
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv(PASSWORD_ENV, raising=False)
    monkeypatch.delenv(NEW_PASSWORD_ENV, raising=False)
    return tmp_path


class Typist:
    """One interactive CLI as a task: `type` lines, `wait` for text shown after the last line typed."""

    def __init__(self, args: list[str]) -> None:
        self.screen = Screen()
        self.lines: asyncio.Queue[str | None] = asyncio.Queue()
        self.task = asyncio.create_task(run(args, console=self.screen.console, lines=self.lines))
        self.mark = 0

    @property
    def text(self) -> str:
        return self.screen.text

    @property
    def since(self) -> str:
        """What was shown since the last line typed."""
        return self.text[self.mark :]

    def type(self, *lines: str) -> None:
        self.mark = len(self.text)
        for line in lines:
            self.lines.put_nowait(line)

    async def wait(self, sentence: str, what: str | None = None) -> str:
        """Wait until `sentence` is shown after the last line typed (wrapped lines joined); that text."""
        await until(lambda: said(sentence, self.since), what=what or repr(sentence))
        return self.since

    async def quit(self, line: str = "q") -> int:
        self.lines.put_nowait(line)
        return (await finish(self.task, timeout=10))[0]


def rows(text: str, cells: int) -> list[list[str]]:
    """The rows of the tables in `text` that have `cells` cells and a number (or #number) in the first or second."""
    out = []
    for line in text.splitlines():
        parts = [c.strip() for c in line.split("│")]
        if len(parts) == cells and (parts[0].isdigit() or parts[1].startswith("#")):
            out.append(parts)
    return out


def last_screen(text: str, title: str) -> str:
    """The text from the last `title` on."""
    assert title in text, title
    return text[text.rindex(title) :]


async def account_client(url: str, name: str, password: str = PASSWORD) -> Client:
    c = Client(url)
    await c.connect()
    await c.sign_up(name, password)
    return c


async def guest_client(url: str, name: str) -> Client:
    c = Client(url)
    await c.connect()
    await c.hello(name)
    return c


async def play_game(first: Client, second: Client, seed: int) -> str:
    """`first` creates a public 2-seat Expedition, both join and play random options to the end; the room."""
    rng = random.Random(seed)
    room = await first.create("expedition", 2, {"seed": seed})
    await first.join(room)
    await second.join(room)
    while True:
        for c in (first, second):
            await c.wait_for(room, lambda s: True)
        if all(c.view(room).get("result") is not None for c in (first, second)):
            return room
        moved = False
        for c in (first, second):
            view = c.view(room)
            if view.get("prompt"):
                try:
                    await c.move(room, rng.choice(view["prompt"]["options"]))
                except ServerError as err:  # one version behind, or faster than the rate limit
                    assert err.code in ("stale", "not_your_turn", "rate_limited")
                    await asyncio.sleep(0.2 if err.code == "rate_limited" else 0.01)
                moved = True
        if not moved:
            await asyncio.sleep(0.01)


# ---- the leaderboard -----------------------------------------------------------------------------------------


async def test_the_leaderboard_turns_pages_marks_provisional_ratings_and_shows_the_players_own_row(
    app: App, url: str, tmp_path: Path
) -> None:
    zed = await account_client(url, "zed")
    token, player = zed.token, zed.player
    await zed.close()
    assert token is not None and player is not None
    (tmp_path / "token-zed").write_text(token + "\n")
    # 24 riders ranked 1..24 by mu - 3 sigma (every third one has played fewer than 5 rated games), zed between the
    # 22nd and the 23rd: zed is 23rd of 25
    board = {
        f"prider{i:02d}": {"mu": 100.0 - i, "sigma": 1.0, "games": 2 if i % 3 == 0 else 12, "name": f"rider{i:02d}"}
        for i in range(1, 25)
    }
    board[player] = {"mu": 77.5, "sigma": 1.0, "games": 3, "name": "zed"}
    await app.records.put_ratings("expedition", board)

    ui = Typist(argv(url, tmp_path / "token-zed", "zed"))
    try:
        await until(lambda: "Account zed" in ui.text, what="zed's lobby")
        ui.type("ratings expedition")
        page = last_screen(await ui.wait("Ratings: expedition, page 1"), "Ratings: expedition, page 1")
        shown = rows(page, 5)
        assert [int(r[0]) for r in shown] == [*range(1, 11), 23], page  # zed's own row under the page
        assert shown[0] == ["1", "rider01", "9600", "12", ""]
        assert shown[2] == ["3", "rider03", "9400", "2", "provisional"]  # fewer than 5 rated games, in words
        assert shown[-1] == ["23", "zed (you)", "7450", "3", "provisional"]
        assert [r[4] for r in shown[:10]] == ["provisional" if i % 3 == 0 else "" for i in range(1, 11)]
        assert said("provisional: fewer than 5 rated games so far", page)
        assert "next, prev: the next or previous page" in page

        ui.type("next")
        page = last_screen(await ui.wait("Ratings: expedition, page 2"), "Ratings: expedition, page 2")
        assert [int(r[0]) for r in rows(page, 5)] == [*range(11, 21), 23]
        ui.type("next")
        page = last_screen(await ui.wait("Ratings: expedition, page 3"), "Ratings: expedition, page 3")
        shown = rows(page, 5)
        assert [int(r[0]) for r in shown] == [21, 22, 23, 24, 25]  # zed on the page: no row under it
        assert shown[2][1] == "zed (you)"
        ui.type("next")
        page = await ui.wait("The leaderboard of expedition has no page 4.")
        assert "Ratings: expedition, page 3" in page  # the last page stays
        ui.type("prev")
        page = last_screen(await ui.wait("Ratings: expedition, page 2"), "Ratings: expedition, page 2")
        assert [int(r[0]) for r in rows(page, 5)][:3] == [11, 12, 13]
        ui.type("ratings expedition page 3")
        await ui.wait("Ratings: expedition, page 3")
        ui.type("ratings page 1")
        page = last_screen(await ui.wait("Ratings: expedition, page 1"), "Ratings: expedition, page 1")
        assert rows(page, 5)[0][1] == "rider01"
        ui.type("prev")
        await ui.wait("This is the first page of the leaderboard.")
        ui.type("player 24")  # rank 24 is on page 3, not on the page shown
        await ui.wait("There is no #24 on the leaderboard shown")
        ui.type("player 23")  # zed's own row, under the page
        page = await ui.wait("Player zed (account) (you)")
        assert rows(page, 5)[0][:4] == ["expedition", "#23", "7450", "3"] and rows(page, 5)[0][4] == "provisional"
        assert await ui.quit() == 0
    finally:
        await cancel_all(ui.task)


def test_the_leaderboard_drawn_alone_counts_places_without_rank_and_says_when_a_page_is_empty() -> None:
    old = [
        {"player": "pa", "name": "ann", "rating": 1200, "games": 9},
        {"player": "bot", "name": "Bot", "rating": 900, "games": 40},
    ]
    text = to_text(ratings_table("expedition", old, you="pa", offset=10, page=2))
    assert [r[:2] for r in rows(text, 5)] == [["11", "ann (you)"], ["12", "Bot (server bot)"]]
    assert "provisional" not in text
    assert "No rated game of expedition yet." in to_text(ratings_table("expedition", []))
    assert "The leaderboard of expedition has no page 3." in to_text(ratings_table("expedition", [], page=3))


# ---- a player's page -----------------------------------------------------------------------------------------


async def test_a_players_page_shows_the_ratings_with_rank_and_the_recent_games_with_guests_marked(
    url: str, tmp_path: Path
) -> None:
    ann, bob = await account_client(url, "ann"), await account_client(url, "bob")
    gus = await guest_client(url, "gus")
    try:
        rated = await play_game(ann, bob, seed=5)  # two accounts: both rated
        unrated = await play_game(ann, gus, seed=6)  # a guest at the table: nobody rated
        ann_token, bob_id = ann.token, bob.player
    finally:
        for c in (ann, bob, gus):
            await c.close()
    assert ann_token is not None
    (tmp_path / "token-ann").write_text(ann_token + "\n")
    async with Client(url) as look:
        await look.hello("looker")
        board = await look.ratings_page("expedition")
        bob_page = await look.player_page(str(bob_id))
    by_name = {r["name"]: r for r in board["players"]}
    assert set(by_name) == {"ann", "bob"}
    today = time.strftime("%Y-%m-%d")

    ui = Typist(argv(url, tmp_path / "token-ann", "ann"))
    try:
        await until(lambda: "Account ann" in ui.text, what="ann's lobby")
        ui.type("player bob")
        await ui.wait("There is no 'bob' on the leaderboard shown")  # no leaderboard shown yet
        ui.type("ratings expedition")
        await ui.wait("Ratings: expedition, page 1")
        ui.type("player BOB")  # a name on the page, compared folded
        page = last_screen(await ui.wait("Player bob (account)"), "Player bob (account)")
        assert "(you)" not in page.splitlines()[0]
        bob_row = by_name["bob"]
        assert rows(page, 5)[0] == ["expedition", f"#{bob_row['rank']}", str(bob_row["rating"]), "1", "provisional"]
        [game] = rows(page, 6)
        number, game_id, players, _winner, finished, after = game
        assert (number, game_id, players) == ("1", "expedition", "ann, bob")
        assert finished.startswith(today)
        assert after == str(bob_row["rating"]) == str(bob_page["games"][0]["rating"])  # the rating after the game

        ui.type("me")
        page = last_screen(await ui.wait("Player ann (account) (you)"), "Player ann (account) (you)")
        newer, older = rows(page, 6)
        assert newer[2] == "ann, gus (guest)" and newer[5] == ""  # a guest at the table: not rated
        assert older[2] == "ann, bob" and older[5] == str(by_name["ann"]["rating"])
        assert rows(page, 5)[0][:2] == ["expedition", f"#{by_name['ann']['rank']}"]

        ui.type("ratings expedition")
        await ui.wait("Ratings: expedition, page 1")
        ui.type("player #1")
        best = min(board["players"], key=lambda r: r["rank"])["name"]
        await ui.wait(f"Player {best} (account)")

        ui.type("history")
        page = last_screen(await ui.wait("Finished games"), "Finished games")
        listed = {r[1]: r[3] for r in rows(page, 6)}
        assert listed[unrated] == "ann, gus (guest)" and listed[rated] == "ann, bob"
        assert await ui.quit() == 0
    finally:
        await cancel_all(ui.task)


def test_a_guests_page_a_bots_page_and_an_unknown_player_read_as_such() -> None:
    guest: dict[str, Any] = {"player": "pg", "name": "gus", "account": False, "ratings": [], "games": []}
    text = to_text(player_table(guest))
    assert "Player gus (guest)" in text and "No rating yet." in text and "No finished game to show." in text
    bot: dict[str, Any] = {"player": "bot", "name": "Bot", "account": False, "ratings": [], "games": []}
    assert "Player Bot (server bot)" in to_text(player_table(bot))
    nobody: dict[str, Any] = {"player": "p0", "name": None, "account": False, "ratings": [], "games": []}
    assert "Player (no name known) (guest)" in to_text(player_table(nobody))


# ---- guests marked -------------------------------------------------------------------------------------------


async def test_guests_are_marked_in_the_room_list_the_seats_and_the_chat(url: str, tmp_path: Path) -> None:
    ann, gus = await account_client(url, "ann"), await guest_client(url, "gus")
    ui = Typist(argv(url, tmp_path / "token-vic", "vic"))
    try:
        room = await ann.create("expedition", 3)
        await ann.join(room)
        await gus.join(room)
        await until(lambda: "ann, gus (guest), ·" in ui.text, what="the room listed with the guest marked")
        row = next(line for line in ui.text.splitlines()[::-1] if room in line)
        assert "ann (guest)" not in row  # an account: no mark
        await ann.chat("hello from an account")
        await gus.chat("hello from a guest")
        await until(lambda: "gus (guest): hello from a guest" in ui.text, what="the guest's line")
        assert "ann: hello from an account" in ui.text
        ui.type("3", "1")  # watch room 1
        seats = last_screen(await ui.wait(f"Watching room {room}."), "Seats")
        names = [r[1] for r in rows(seats, 3)]
        assert names[:2] == ["ann", "gus (guest)"], seats
        assert await ui.quit() == 0
    finally:
        await cancel_all(ui.task)
        for c in (ann, gus):
            await c.close()


def test_the_marks_follow_the_guest_field_and_records_without_it_show_none() -> None:
    rooms = [{"room": "r1", "game": "expedition", "seats": 3, "players": ["ann", "gus", "Bot 1"], "status": "playing",
              "public": True, "guests": [False, True, None], "ratings": [1200, None, 900]}]  # fmt: skip
    assert "ann (1200), gus (guest), Bot 1 (900)" in to_text(render_lobby(rooms), width=160)
    old = [{**rooms[0], "guests": None}]
    assert "(guest)" not in to_text(render_lobby(old), width=160)

    record = {"room": "r1", "game": "expedition", "seats": 2, "players": ["ann", "gus"], "finished_at": 0,
              "result": {"scores": [3, 1], "winners": [0]}}  # fmt: skip
    assert "ann, gus (guest)" in to_text(history_table([{**record, "guests": [False, True]}]), width=160)
    assert "(guest)" not in to_text(history_table([record]), width=160)  # archived before v1.2

    chat = [{"room": None, "from": "p1", "name": "gus", "text": "hi", "at": 0, "guest": True},
            {"room": None, "from": "p2", "name": "ann", "text": "yo", "at": 0, "guest": False},
            {"room": None, "from": "p3", "name": "old", "text": "hey", "at": 0}]  # fmt: skip
    text = to_text(chat_lines(chat) or "")
    assert "gus (guest): hi" in text and "ann: yo" in text and "old: hey" in text

    seats = [{"name": "ann", "taken": True, "connected": True, "guest": False},
             {"name": "gus", "taken": True, "connected": True, "guest": True},
             {"name": None, "taken": False, "connected": False}]  # fmt: skip
    text = to_text(seats_table({"game": "expedition", "you": 1, "status": "waiting", "seats": seats}))
    assert "gus (guest) (you)" in text and "ann (guest)" not in text


@pytest.mark.parametrize("game", ["expedition", "classic", "voyages", "khan"])
def test_each_games_players_table_marks_a_guest(game: str) -> None:
    from tests.cli.test_game_words import first_turn

    view = first_turn(game)
    assert "(guest)" not in view_text(view, width=200)  # no `guest` in the seats: no mark
    view["seats"][1]["guest"] = True
    view["seats"][0]["guest"] = False
    text = view_text(view, width=200)
    name = view["seats"][1]["name"]
    assert f"{name} (guest)" in text and text.count("(guest)") == 1, text


# ---- a new password ------------------------------------------------------------------------------------------


async def test_password_typed_in_the_lobby_is_asked_hidden_and_signs_the_other_devices_out(
    url: str, tmp_path: Path
) -> None:
    pia = await account_client(url, "pia")
    token = pia.token
    await pia.close()
    assert token is not None
    token_file = tmp_path / "token-pia"
    token_file.write_text(token + "\n")
    tablet = Client(url)
    await tablet.connect()
    await tablet.sign_in("pia", PASSWORD, device="tablet")
    await tablet.close()

    ui = Typist(argv(url, token_file, "pia"))
    try:
        await until(lambda: "password: set a new password" in ui.text, what="the account's commands")
        ui.type("password")
        await ui.wait("Your current password (hidden; Enter cancels):")
        ui.type("")
        await ui.wait("Cancelled: no password was given.")
        ui.type("password", "not-the-password", NEW_PASSWORD)
        await ui.wait("The same new password again:")
        ui.type(NEW_PASSWORD)
        await ui.wait(_(account.WRONG_PASSWORD))
        ui.type("password", PASSWORD, NEW_PASSWORD, NEW_PASSWORD + "x")
        await ui.wait("The two passwords differ; nothing was sent.")
        ui.type("password", PASSWORD, NEW_PASSWORD, NEW_PASSWORD)
        await ui.wait("Password changed. Every other device of the account is signed out; this one stays.")
        ui.type("devices")
        listed = await ui.wait("Signed in on")
        assert "tablet" not in listed and "(this device)" in listed
        assert await ui.quit() == 0
        assert PASSWORD not in ui.text and NEW_PASSWORD.strip() not in ui.text and "not-the-password" not in ui.text
    finally:
        await cancel_all(ui.task)

    async with Client(url) as c:
        with pytest.raises(ServerError) as err:
            await c.sign_in("pia", PASSWORD)  # the old password no longer signs in
        assert err.value.code == "bad_credentials"
    async with Client(url) as c:
        await c.sign_in("pia", NEW_PASSWORD)  # the new one does, spaces and all
        assert c.account
    async with Client(url) as c:
        assert tablet.token is not None
        assert (await c.hello("someone", tablet.token))["account"] is False  # the other device was signed out
    code, text = await cli(argv(url, token_file, "pia"))  # this device stays signed in
    assert code == 0 and "Signed in to the account pia." in text


async def test_a_guest_typing_password_or_delete_account_is_told_only_an_account_can(url: str, tmp_path: Path) -> None:
    ui = Typist(argv(url, tmp_path / "token-gil", "gil"))
    try:
        await until(lambda: "Playing as the guest gil" in ui.text, what="the guest's lobby")
        for line in ("password", "delete account"):
            ui.type(line)
            await ui.wait(_(account.GUESTS_CANNOT))
        assert await ui.quit() == 0
    finally:
        await cancel_all(ui.task)
    assert "Your current password" not in ui.text and "Deleting the account" not in ui.text


async def test_change_password_on_the_command_line(url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    token_file = tmp_path / "token-rex"
    monkeypatch.setenv(PASSWORD_ENV, PASSWORD)
    assert (await cli(argv(url, token_file, "rex", "--sign-up")))[0] == 0

    monkeypatch.setenv(NEW_PASSWORD_ENV, "short")
    code, text = await cli(argv(url, token_file, "rex", "--change-password"))
    assert code == 1 and said("That password is too short: this server asks for at least 8 characters.", text)
    monkeypatch.setenv(PASSWORD_ENV, "wrong-password")
    monkeypatch.setenv(NEW_PASSWORD_ENV, NEW_PASSWORD)
    code, text = await cli(argv(url, token_file, "rex", "--change-password"))
    assert code == 1 and said(_(account.WRONG_PASSWORD), text)
    monkeypatch.delenv(PASSWORD_ENV)
    code, text = await cli(argv(url, token_file, "rex", "--change-password"))  # no terminal, no variable
    assert code == 2 and said(f"No password: type it on a terminal, or set {PASSWORD_ENV} for a script.", text)

    monkeypatch.setenv(PASSWORD_ENV, PASSWORD)
    code, text = await cli(argv(url, token_file, "rex", "--change-password"))
    assert code == 0, text
    assert said("Password changed. Every other device of the account is signed out; this one stays.", text)
    assert PASSWORD not in text and NEW_PASSWORD.strip() not in text
    async with Client(url) as c:
        with pytest.raises(ServerError):
            await c.sign_in("rex", PASSWORD)
    async with Client(url) as c:
        await c.sign_in("rex", NEW_PASSWORD)

    code, text = await cli(argv(url, tmp_path / "token-guest", "tom", "--change-password"))
    assert code == 1 and said(_(account.GUESTS_CANNOT), text)


def test_the_one_shot_account_options_do_not_mix() -> None:
    from clients.cli.__main__ import parse_args

    for bad in (
        ["--change-password", "--devices"],
        ["--delete-account", "--sign-out"],
        ["--change-password", "--create"],
        ["--delete-account", "--bot", "random"],
    ):
        with pytest.raises(SystemExit):
            parse_args(bad)
    assert parse_args(["--sign-in", "--change-password"]).change_password


# ---- deleting the account ------------------------------------------------------------------------------------


async def test_delete_account_typed_in_the_lobby_asks_the_password_and_the_name_then_signs_out(
    url: str, tmp_path: Path
) -> None:
    uma = await account_client(url, "uma")
    token = uma.token
    await uma.close()
    assert token is not None
    token_file = tmp_path / "token-uma"
    token_file.write_text(token + "\n")

    ui = Typist(argv(url, token_file, "uma"))
    try:
        await until(lambda: "Account uma" in ui.text, what="uma's lobby")
        ui.type("delete account")
        await ui.wait("Deleting the account uma cannot be undone. Its password (hidden; Enter cancels):")
        ui.type("wrong-password")
        await ui.wait("Type the account's name, uma, to delete it (anything else cancels):")
        ui.type("uma")
        await ui.wait(_(account.WRONG_PASSWORD))
        ui.type("delete account", PASSWORD, "not uma")
        await ui.wait("Nothing was deleted.")
        ui.type("delete account", PASSWORD, " UMA ")  # the name, read loosely
        code = (await finish(ui.task, timeout=10))[0]
    finally:
        await cancel_all(ui.task)
    assert code == 0
    assert ui.text.rstrip().endswith("The account uma is deleted and this client is signed out.")
    assert PASSWORD not in ui.text and "wrong-password" not in ui.text
    assert not token_file.exists()
    async with Client(url) as c:
        with pytest.raises(ServerError) as err:
            await c.sign_in("uma", PASSWORD)
        assert err.value.code == "bad_credentials"
    async with Client(url) as c:
        assert (await c.hello("someone", token))["account"] is False  # the token resumes nobody


async def test_delete_account_on_the_command_line(url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    token_file = tmp_path / "token-val"
    monkeypatch.setenv(PASSWORD_ENV, PASSWORD)
    assert (await cli(argv(url, token_file, "val", "--sign-up")))[0] == 0

    code, text = await cli(argv(url, token_file, "val", "--delete-account"), typed=("someone else",))
    assert code == 2 and "Nothing was deleted." in text
    assert said("Type the account's name, val, to delete it", text)
    monkeypatch.setenv(PASSWORD_ENV, "wrong-password")
    code, text = await cli(argv(url, token_file, "val", "--delete-account"), typed=("val",))
    assert code == 1 and said(_(account.WRONG_PASSWORD), text)
    assert read_token(token_file) is not None

    monkeypatch.setenv(PASSWORD_ENV, PASSWORD)
    code, text = await cli(argv(url, token_file, "val", "--delete-account"), typed=("val",))
    assert code == 0, text
    assert "The account val is deleted and this client is signed out." in text
    assert not token_file.exists()
    async with Client(url) as c:
        with pytest.raises(ServerError):
            await c.sign_in("val", PASSWORD)


# ---- the hidden line on a terminal ---------------------------------------------------------------------------


async def test_the_terminal_prompt_hides_a_password_and_keeps_it_out_of_the_history() -> None:
    out = io.StringIO()
    output = Vt100_Output(out, lambda: Size(rows=24, columns=80), term="xterm")
    history = InMemoryHistory()
    with create_pipe_input() as pipe:
        prompt = PromptLines(history=history, input=pipe, output=output)
        lines = prompt.start()
        try:
            pipe.send_text("password\r")
            assert await asyncio.wait_for(lines.get(), 5) == "password"
            prompt.set_hidden(True)
            pipe.send_text(PASSWORD)  # the full screen shows the line being typed as stars (then Enter empties it)
            await until(lambda: "*" * 5 in out.getvalue(), timeout=5, what="the stars")
            pipe.send_text("\r")
            assert await asyncio.wait_for(lines.get(), 5) == PASSWORD
            prompt.set_hidden(False)
            pipe.send_text("devices")
            await until(lambda: "devices" in out.getvalue(), timeout=5, what="the line typed")
            pipe.send_text("\r")
            assert await asyncio.wait_for(lines.get(), 5) == "devices"
        finally:
            if prompt.task is not None:
                prompt.task.cancel()
                await asyncio.gather(prompt.task, return_exceptions=True)
    assert list(history.load_history_strings()) == ["devices", "password"]  # kept (newest first): no password
    assert prompt.history.get_strings() == ["password", "devices"]  # Up and Down in this session: no password
    assert PASSWORD not in out.getvalue() and all(p not in out.getvalue() for p in PASSWORD.split("-"))
    assert "*" * 5 in out.getvalue() and "devices" in out.getvalue()
