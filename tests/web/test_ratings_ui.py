"""Leaderboards, player pages and guest marks in the browser client (wire contract v1.2), in Chromium at 1280×800
and at phone size 390×844.

The records database is a SQLite file seeded before the server starts with 60 rated accounts in the Expedition
(some with fewer than 5 rated games: provisional), so the leaderboard has three pages of 25; two more accounts
then play a real rated game over the Python client and one of them signs in in the browser, its own place
(61 or 62) off the first page. The leaderboard pages with Previous and Next, says the viewer's place above the
table and jumps to its page, marks provisional ratings in words; a row's name opens the player's page with its
ratings (place, provisional) and its game with the rating after it, linked to the replay; the account page links
to the player's own page. A guest is marked "guest" in the lobby's room list, in the lobby chat, in the finished
games, in a replay's seats and in a finished room's result; an account is not. Every page is looked at on the
phone for sideways scrolling. Screenshots go to tests/artifacts/ratings-*.png.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import secrets
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from clients.client import Client
from server.rooms.names import account_key
from server.store.records import Account
from server.store.records_sql import SqlRecords
from tests.net.conftest import play_to_end
from tests.web.conftest import CHROMIUM, run_async, running_server

from .pages import BrowserSeat
from .test_accounts_ui import Visitor

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="Chromium is not installed at /usr/bin/chromium")

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
SIZES = [pytest.param(DESKTOP, id="desktop"), pytest.param(PHONE, id="phone")]
PASSWORD = "correct horse 42"
SEEDED = 60
PAGE = 25
#: the longest name an account may have (32 characters): the table must wrap it on a phone, not overflow
LONG_NAME = "Marco_Polo_of_Venice_and_Beyond1"
#: many accounts from one address, fast bots, no bot filling of quick matches, and room for the Python players' moves
FLAGS = tuple("--signups-per-addr 1000 --bot-delay 0.02 --quick-fill-bots-after 0 --rate 1000 --burst 2000".split())
OVERFLOW_JS = "() => document.documentElement.scrollWidth - window.innerWidth"
TEXTS_JS = "els => els.map(e => e.textContent)"
RANKS_JS = "els => els.map(e => Number(e.dataset.rank))"


def size_id(size: dict[str, int]) -> str:
    return "phone" if size["width"] < 500 else "desktop"


def unique(prefix: str) -> str:
    return f"{prefix}{secrets.token_hex(3)}"


async def _seed(url: str) -> None:
    """60 accounts rated in the Expedition, each above a newcomer (mu - 3 sigma from 25.5 down to 19.6); every
    third one has played fewer than 5 rated games (provisional)."""
    records = SqlRecords(url)
    await records.migrate()
    rows: dict[str, dict[str, Any]] = {}
    now = int(time.time())
    for i in range(SEEDED):
        name = LONG_NAME if i == 3 else f"Seeded{i + 1:02d}"
        player = f"pseed{i:04d}{secrets.token_hex(4)}"
        await records.create_account(Account(player, name, account_key(name), None, now))
        games = 2 if i % 3 == 1 else 5 + i % 7
        rows[player] = {"mu": 35.0 - i * 0.1, "sigma": 3.0, "games": games, "name": name}
    await records.put_ratings("expedition", rows)
    await records.close()


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    with tempfile.TemporaryDirectory(prefix="ratings-ui-") as tmp:
        url = f"sqlite:///{Path(tmp) / 'records.db'}"
        run_async(lambda: _seed(url))
        with running_server("--records", url, *FLAGS) as base:
            yield base


def ws(base: str) -> str:
    return base.replace("http://", "ws://") + "/ws"


async def _play(url: str, first: tuple[str, bool], second: tuple[str, bool], seed: int) -> dict[str, Any]:
    """Two players (name, account?) play a whole seeded 2-seat Expedition; its room and their ids."""
    a, b = Client(url), Client(url)
    for c, (name, account) in zip((a, b), (first, second), strict=True):
        await c.connect()
        if account:
            await c.sign_up(name, PASSWORD, device="test script")
        else:
            await c.hello(name)
    room = await a.create_room("expedition", 2, options={"seed": seed})
    await a.join(room)
    await b.join(room)
    await a.wait_for(room, lambda s: s["status"] == "playing")
    await b.wait_for(room, lambda s: s["status"] == "playing")
    await play_to_end(room, [a, b], random.Random(seed))
    players = (a.player, b.player)
    for _ in range(200):  # the game is archived (and rated) in the background
        if any(g["room"] == room for g in await a.history()):
            break
        await asyncio.sleep(0.05)
    await a.close()
    await b.close()
    return {"room": room, "players": players}


@pytest.fixture(scope="module")
def rated(server: str) -> dict[str, Any]:
    """Two accounts that played one rated game (both provisional now, below the 60 seeded accounts)."""
    ann, bob = unique("Ann"), unique("Bob")
    played = run_async(lambda: _play(ws(server), (ann, True), (bob, True), 5))
    return {
        "ann": ann,
        "bob": bob,
        "room": played["room"],
        "ids": dict(zip((ann, bob), played["players"], strict=True)),
    }


def signed_in(browser: Any, server: str, size: dict[str, int], name: str) -> Visitor:
    v = Visitor(browser, server, size)
    v.fill_sign_in(name, PASSWORD)
    v.page.wait_for_selector(f"text=Hello, {name}")
    return v


def shot(page: Any, artifacts: Path, name: str, size: dict[str, int], full: bool = True) -> None:
    page.screenshot(path=str(artifacts / f"ratings-{name}-{size_id(size)}.png"), full_page=full)


#: the element's box in page coordinates, read in one step (a redraw cannot come between the rect and the scroll)
PAGE_BOX_JS = """e => {
  const r = e.getBoundingClientRect();
  return {x: r.left + window.scrollX, y: r.top + window.scrollY, width: r.width, height: r.height};
}"""


def element_shot(locator: Any, artifacts: Path, name: str, size: dict[str, int]) -> None:
    """A screenshot of one element, clipped from the whole page where the element is now: the lobby redraws its
    list on every push from the shared test server, so an element screenshot (which waits for the element to stay
    put) can find it replaced again and again; a clip of the full page at its current box, in page coordinates,
    cannot (nor can it fall outside the viewport)."""
    path = str(artifacts / f"ratings-{name}-{size_id(size)}.png")
    for attempt in range(5):
        box = None
        with contextlib.suppress(Exception):  # replaced while it was read: the next try finds the new one
            box = locator.first.evaluate(PAGE_BOX_JS, timeout=2000)
        if box is not None and box["width"] > 0 and box["height"] > 0:
            locator.page.screenshot(path=path, clip=box, full_page=True)
            return
        if attempt == 4:
            raise AssertionError(f"{name}: the element has no box to screenshot")


def no_sideways_scroll(page: Any) -> None:
    assert page.evaluate(OVERFLOW_JS) <= 0, "the page scrolls sideways"


@pytest.mark.parametrize("size", SIZES)
def test_the_leaderboard_pages_shows_the_viewers_place_off_the_page_and_marks_provisional_ratings(
    browser: Any, server: str, artifacts: Path, rated: dict[str, Any], size: dict[str, int]
) -> None:
    ann = signed_in(browser, server, size, rated["ann"])
    page = ann.page
    try:
        page.goto(f"{server}/#/ratings/expedition")
        page.wait_for_selector("[data-testid='leaderboard'] tbody tr")
        ranks = page.eval_on_selector_all("[data-testid='leaderboard'] tbody tr", RANKS_JS)
        assert ranks == list(range(1, PAGE + 1))
        assert (page.text_content("[data-testid='leaderboard'] tbody tr:first-child .place") or "").strip() == "1"
        # the viewer's own place, above the table, although its row is on page 3
        mine = page.text_content("[data-testid='my-place']") or ""
        me_rank = int(mine.split("Place ")[1].split(":")[0])
        assert me_rank > 2 * PAGE, mine
        assert "after 1 rated game" in mine
        assert page.locator(".my-place [data-testid='provisional-tag']").count() == 1  # one rated game: provisional
        assert page.locator("[data-testid='leaderboard'] tr.mine").count() == 0
        # provisional ratings say so in words, with the reason in the title
        tags = page.locator("[data-testid='leaderboard'] [data-testid='provisional-tag']")
        assert tags.count() >= 5
        assert {
            t.strip() for t in page.eval_on_selector_all("[data-testid='leaderboard'] .provisional-tag", TEXTS_JS)
        } == {"provisional"}
        assert "Fewer than 5 rated games" in (tags.first.get_attribute("title") or "")
        assert page.locator("[data-testid='leaderboard'] tr[data-rank='1'] .provisional-tag").count() == 0
        assert page.is_disabled("[data-testid='ratings-prev']") and page.is_enabled("[data-testid='ratings-next']")
        assert (page.text_content("[data-testid='ratings-places']") or "").strip() == f"Places 1–{PAGE}"
        shot(page, artifacts, "page1", size)
        no_sideways_scroll(page)

        # Next and Previous
        page.click("[data-testid='ratings-next']")
        page.wait_for_selector(f"[data-testid='leaderboard'] tbody tr[data-rank='{PAGE + 1}']")
        ranks = page.eval_on_selector_all("[data-testid='leaderboard'] tbody tr", RANKS_JS)
        assert ranks == list(range(PAGE + 1, 2 * PAGE + 1))
        assert "page=2" in page.url
        assert page.is_enabled("[data-testid='ratings-prev']")
        assert page.locator("[data-testid='my-place-link']").count() == 1  # still another page
        page.click("[data-testid='ratings-next-bottom']")
        page.wait_for_selector(f"[data-testid='leaderboard'] tbody tr[data-rank='{2 * PAGE + 1}']")
        page.click("[data-testid='ratings-prev']")
        page.wait_for_selector(f"[data-testid='leaderboard'] tbody tr[data-rank='{PAGE + 1}']")
        page.click("[data-testid='ratings-prev']")
        page.wait_for_selector("[data-testid='leaderboard'] tbody tr[data-rank='1']")
        assert page.is_disabled("[data-testid='ratings-prev']")

        # the way to the viewer's own page of the leaderboard: its row there, highlighted, the last page
        page.click("[data-testid='my-place-link']")
        row = page.locator(f"[data-testid='leaderboard'] tr.mine[data-player='{rated['ids'][rated['ann']]}']")
        row.wait_for()
        assert row.get_attribute("data-rank") == str(me_rank)
        assert "(you)" in (row.text_content() or "")
        assert page.locator("[data-testid='my-place-link']").count() == 0
        assert page.is_disabled("[data-testid='ratings-next']")  # 62 rows: page 3 is the last
        total = page.locator("[data-testid='leaderboard'] tbody tr").count()
        assert total == SEEDED + 2 - 2 * PAGE
        shot(page, artifacts, "own-page", size)
        no_sideways_scroll(page)

        # the longest name wraps inside its cell on a phone
        page.goto(f"{server}/#/ratings/expedition")
        page.wait_for_selector(f"[data-testid='leaderboard'] a:text('{LONG_NAME}')")
        no_sideways_scroll(page)
        assert not ann.errors, ann.errors
    finally:
        ann.close()


@pytest.mark.parametrize("size", SIZES)
def test_a_leaderboard_row_opens_the_players_page_with_its_ratings_and_games(
    browser: Any, server: str, artifacts: Path, rated: dict[str, Any], size: dict[str, int]
) -> None:
    ann = signed_in(browser, server, size, rated["ann"])
    page = ann.page
    bob, room = rated["bob"], rated["room"]
    bob_id = rated["ids"][bob]
    try:
        page.goto(f"{server}/#/ratings/expedition?page=3")
        page.wait_for_selector(f"[data-testid='leaderboard'] tr[data-player='{bob_id}']")
        page.click(f"[data-testid='leaderboard'] tr[data-player='{bob_id}'] a.player-link")
        page.wait_for_selector(f"[data-testid='player-page'][data-player='{bob_id}']")
        assert (page.text_content("[data-testid='player-name']") or "").strip() == bob
        assert page.get_attribute("[data-testid='player-page']", "data-kind") == "account"
        assert "Has an account" in (page.text_content("[data-testid='player-kind']") or "")
        # its rating in the game, with its place and the provisional mark
        rating_row = page.locator("[data-testid='player-ratings'] tr[data-game='expedition']")
        text = rating_row.text_content() or ""
        assert "Marco Polo" in text or "Expedition" in text, text
        assert rating_row.locator("[data-testid='provisional-tag']").count() == 1
        place = rating_row.locator("a").text_content() or ""
        assert int(place.strip().lstrip("#")) > 2 * PAGE
        # its game: the two accounts (no guest mark), the rating after it, the replay
        game = page.locator(f"[data-testid='player-games'] li[data-room='{room}']")
        game.wait_for()
        assert "Rating after this game:" in (game.text_content() or "")
        assert game.locator("[data-testid='guest-tag']").count() == 0
        assert game.locator(f"a.player-link[data-player='{rated['ids'][rated['ann']]}']").count() == 1
        shot(page, artifacts, "player", size)
        no_sideways_scroll(page)
        # the place links to the leaderboard's page that holds it
        rating_row.locator("a").click()
        page.wait_for_selector(f"[data-testid='leaderboard'] tr[data-player='{bob_id}']")
        # the game's replay, from the player page
        page.go_back()
        page.wait_for_selector(f"[data-testid='player-games'] li[data-room='{room}']")
        page.click(f"[data-testid='player-games'] li[data-room='{room}'] a.button")
        page.wait_for_selector(f"section.replay[data-room='{room}']")
        assert page.locator("section.replay ol.seats [data-testid='guest-tag']").count() == 0
        # the account page links to the player's own page
        page.click("[data-testid='account-button']")
        page.click("[data-testid='my-player-page']")
        page.wait_for_selector(f"[data-testid='player-page'][data-player='{rated['ids'][rated['ann']]}']")
        assert (page.text_content("[data-testid='player-name']") or "").strip() == rated["ann"]
        assert "(you)" in (page.text_content("#player-title") or "")
        no_sideways_scroll(page)
        assert not ann.errors, ann.errors
    finally:
        ann.close()


@pytest.mark.parametrize("size", SIZES)
def test_a_guest_is_marked_in_the_room_list_the_chat_the_finished_games_the_replay_and_the_result(
    browser: Any, server: str, artifacts: Path, size: dict[str, int]
) -> None:
    url = ws(server)
    gus, acc = unique("Gus"), unique("Acc")

    async def waiting_room_and_chat() -> str:
        g, a = Client(url), Client(url)
        await g.connect()
        await g.hello(gus)
        await a.connect()
        await a.sign_up(acc, PASSWORD, device="test script")
        room = await g.create_room("expedition", 3)
        await g.join(room)
        await a.join(room)
        await g.chat(f"hello from {gus}")
        await a.chat(f"hello from {acc}")
        await g.close()
        await a.close()
        return room

    waiting = run_async(waiting_room_and_chat)
    finished = run_async(lambda: _play(url, (unique("Gia"), False), (unique("Abe"), True), 8))["room"]
    cy = BrowserSeat(browser, server, unique("Cy"), viewport=size)
    page = cy.page
    try:
        # the lobby's list of rooms: the guest's seat says "guest", the account's does not
        row = page.locator(f"li.room-row[data-room='{waiting}'] .players")
        row.wait_for()
        tag = row.locator("[data-seat='0'] [data-testid='guest-tag']")
        assert (tag.text_content() or "").strip() == "guest"
        assert tag.get_attribute("title") == "Playing without an account"
        assert row.locator("[data-seat='1'] [data-testid='guest-tag']").count() == 0
        assert "seat 3 free" in (row.text_content() or "")
        # the lobby chat: the guest's line is marked, the account's is not
        chat = page.locator("[data-testid='lobby-chat']")
        chat.locator(f"li:has-text('hello from {acc}')").wait_for()
        assert chat.locator(f"li:has-text('hello from {gus}') [data-testid='guest-tag']").count() == 1
        assert chat.locator(f"li:has-text('hello from {acc}') [data-testid='guest-tag']").count() == 0
        element_shot(page.locator(f"li.room-row[data-room='{waiting}']"), artifacts, "guest-lobby-row", size)
        element_shot(chat, artifacts, "guest-chat", size)
        no_sideways_scroll(page)

        # the finished games: the guest (seat 0) marked, the account (seat 1) not
        page.goto(f"{server}/#/history")
        hist = page.locator(f".history-list li[data-room='{finished}']")
        hist.wait_for()
        assert hist.locator("[data-seat='0'] [data-testid='guest-tag']").count() == 1
        assert hist.locator("[data-seat='1'] [data-testid='guest-tag']").count() == 0
        shot(page, artifacts, "guest-history", size, full=False)
        no_sideways_scroll(page)
        # its replay's seats (once taken: at version 0 nobody sits yet)
        hist.locator("a.button").click()
        page.wait_for_selector(f"section.replay[data-room='{finished}']")
        page.click("[data-testid='replay-last']")
        page.wait_for_selector(f"section.replay[data-room='{finished}'][data-status='finished']")
        seats = page.locator("section.replay ol.seats")
        assert seats.locator("li[data-seat='0'] [data-testid='guest-tag']").count() == 1
        assert seats.locator("li[data-seat='1'] [data-testid='guest-tag']").count() == 0
        # the finished room's result
        page.goto(f"{server}/#/room/{finished}")
        result = page.locator("[data-testid='result']")
        result.wait_for()
        assert result.locator("li[data-seat='0'] [data-testid='guest-tag']").count() == 1
        assert result.locator("li[data-seat='1'] [data-testid='guest-tag']").count() == 0
        result.scroll_into_view_if_needed()
        shot(page, artifacts, "guest-result", size, full=False)
        no_sideways_scroll(page)
        # a guest's own page says so; an id no account holds is an unknown player
        me = page.evaluate("window.marcopolo.player")
        page.goto(f"{server}/#/player/{me}")
        page.wait_for_selector(f"[data-testid='player-page'][data-player='{me}'][data-kind='guest']")
        assert (page.text_content("[data-testid='player-name']") or "").strip() == cy.name
        assert "guest" in (page.text_content("[data-testid='player-kind']") or "")
        page.goto(f"{server}/#/player/p0000000000000000")
        page.wait_for_selector("[data-testid='player-page'][data-player='p0000000000000000'][data-kind='unknown']")
        assert (page.text_content("[data-testid='player-name']") or "").strip() == "Unknown player"
        assert page.locator("[data-testid='player-no-ratings']").count() == 1
        assert page.locator("[data-testid='player-no-games']").count() == 1
        shot(page, artifacts, "unknown-player", size, full=False)
        assert not cy.errors, cy.errors
    finally:
        cy.close()
