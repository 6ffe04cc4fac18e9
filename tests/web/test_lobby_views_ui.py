"""What the browser shows of a room to everybody in Chromium: the options the host changes in a waiting room,
the other players' ratings in the lobby and the room, and the whole log for a browser that opens a game
already under way.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.net.conftest import play_to_end
from tests.net.test_lobby_views import game_under_way
from tests.web.conftest import CHROMIUM, run_async, running_server

from .pages import BrowserSeat
from .test_lobby_ui import create_in_form, ws

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="Chromium is not installed at /usr/bin/chromium")


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    flags = ("--bot-delay", "0.02", "--quick-fill-bots-after", "0", "--rate", "1000", "--burst", "2000")
    with running_server(*flags) as base:
        yield base


def test_the_host_changes_an_option_and_a_second_browser_sees_it(browser: Any, server: str, artifacts: Path) -> None:
    ann, bob = BrowserSeat(browser, server, "Ann"), BrowserSeat(browser, server, "Bob")
    try:
        room = create_in_form(ann, game="expedition", seats=3)
        bob.page.goto(f"{server}/#/room/{room}")
        bob.page.click("[data-testid='take-seat']")
        bob.page.wait_for_selector(f"section.room[data-room='{room}'][data-you='1']")
        bob.room_id = room
        label = ann.page.text_content("label[for='host-opt-open_gold']") or ""
        assert "Gold" in label
        assert "none" in (bob.page.text_content("[data-testid='room-options']") or "")
        assert bob.page.locator("[data-testid='host-options']").count() == 0  # the host's form only
        ann.page.check("#host-opt-open_gold")
        ann.page.click("[data-testid='host-options-apply']")
        bob.page.wait_for_selector(f"[data-testid='room-options']:has-text('{label.strip()}')")
        assert bob.view()["options"]["open_gold"] is True and bob.view()["options"]["move_both"] is False
        assert ann.page.is_checked("#host-opt-open_gold")
        ann.page.screenshot(path=str(artifacts / "lobby-host-options.png"))
        # taken off again: the other browser follows
        ann.page.uncheck("#host-opt-open_gold")
        ann.page.click("[data-testid='host-options-apply']")
        bob.page.wait_for_selector("[data-testid='room-options']:has-text('none')")
        # the game starts with the options the room has then
        ann.page.check("#host-opt-open_gold")
        ann.page.click("[data-testid='host-options-apply']")
        bob.page.wait_for_selector(f"[data-testid='room-options']:has-text('{label.strip()}')")
        ann.page.click("[data-testid='host-start']")
        bob.page.wait_for_selector(f"section.room[data-room='{room}'][data-status='playing']")
        assert bob.view()["options"]["open_gold"] is True
        assert not ann.errors and not bob.errors
    finally:
        ann.close()
        bob.close()


def test_other_players_ratings_show_in_the_lobby_and_in_the_room(browser: Any, server: str, artifacts: Path) -> None:
    url = ws(server)

    async def rated_pair() -> tuple[str, dict[str, int]]:
        first, a, b = await game_under_way(url, ("Rita", "Sam"), 6, accounts=True)  # only accounts are rated
        await play_to_end(first, [a, b], random.Random(6))
        rows: list[dict[str, Any]] = []
        for _ in range(100):
            rows = await a.ratings("expedition")
            if {r["player"] for r in rows} >= {a.player, b.player}:
                break
            await asyncio.sleep(0.05)
        rating = {r["name"]: r["rating"] for r in rows if r["player"] in (a.player, b.player)}
        room = await a.create_room("expedition", 3)
        await a.join(room)
        await b.join(room)
        await a.close()
        await b.close()
        return room, rating

    room, rating = run_async(rated_pair)
    assert set(rating) == {"Rita", "Sam"}
    cy = BrowserSeat(browser, server, "Cy")
    try:
        row = cy.page.locator(f"li.room-row[data-room='{room}'] .players")
        row.wait_for()
        text = row.text_content() or ""
        assert f"Rita (rating {rating['Rita']})" in text and f"Sam (rating {rating['Sam']})" in text, text
        cy.page.click(f"[data-key='watch-{room}']")
        cy.page.wait_for_selector(f"section.room[data-room='{room}']")
        for seat, name in ((0, "Rita"), (1, "Sam")):
            badge = cy.page.text_content(f"ol.seats li[data-seat='{seat}'] .rating-badge") or ""
            assert badge == f"rating {rating[name]}", badge
        assert cy.page.locator("ol.seats li[data-seat='2'] .rating-badge").count() == 0  # a free seat
        cy.page.screenshot(path=str(artifacts / "lobby-room-ratings.png"))
        assert not cy.errors
    finally:
        cy.close()


def test_a_browser_that_opens_a_game_under_way_shows_the_whole_log(browser: Any, server: str, artifacts: Path) -> None:
    url = ws(server)

    async def long_game() -> tuple[str, int]:
        room, a, b = await game_under_way(url, ("Una", "Vic"), 9, moves=60)
        events = await a.game_log(room)
        shown = a.view(room)["public"]["log"]
        assert len(events) > len(shown)  # the view alone holds the last few
        await a.close()
        await b.close()
        return room, len(events)

    room, total = run_async(long_game)
    wes = BrowserSeat(browser, server, "Wes")
    try:
        wes.page.goto(f"{server}/#/room/{room}")
        wes.page.wait_for_selector(f"section.room[data-room='{room}'][data-status='playing']")
        wes.page.wait_for_selector(f".log .count:has-text('({total})')")
        assert wes.page.locator(".log ol.events li").count() == total
        assert wes.page.get_attribute(".log ol.events li:last-child", "value") == "1"  # from the first event
        wes.page.screenshot(path=str(artifacts / "room-whole-log.png"))
        assert not wes.errors
    finally:
        wes.close()
