"""A spectator is told so, and a provisional rating beside a seat says so, in Debian's Chromium.

Views of a seeded Expedition game (tests/web/states.py) are drawn by a signed-in page: a spectator's view mid-game
and at the end shows the "You are watching" banner above the seats; a seat's view does not. A seat whose rating
the page's leaderboard rows mark provisional (fewer than 5 rated games: the server shows it at 0 or above) carries
the word "provisional" beside its rating badge; an established rating does not.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.conftest import CHROMIUM

from .pages import BrowserSeat
from .states import SHOW_JS, seeded_views

pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(), reason="Chromium is not installed at /usr/bin/chromium (apt-get install -y chromium)"
)

BANNER = "[data-testid='watching']"


def views() -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    """A seat's view mid-game, a spectator's of the same moment, and a spectator's of the end."""
    every = [view for _, view in seeded_views("expedition", room="watch")]
    seated = every[40]
    watching = {**seated, "you": None, "private": None, "prompt": None}
    return seated, watching, every[-1]


def test_a_spectator_sees_that_it_is_watching_and_a_player_does_not(browser: Any, server: str) -> None:
    seated, watching, end = views()
    assert end["you"] is None and end["result"] is not None
    seat = BrowserSeat(browser, server, "Zed")
    try:
        page = seat.page
        page.evaluate(SHOW_JS, ["watch", 1, watching])
        page.wait_for_selector(BANNER)
        assert page.inner_text(BANNER).startswith("You are watching.")
        assert "no seat in this game" in page.inner_text(BANNER)
        # above the seats, where the page begins
        assert page.evaluate(
            "sel => document.querySelector(sel).compareDocumentPosition(document.querySelector('.seats')) & 4", BANNER
        )
        page.evaluate(SHOW_JS, ["watch", 2, seated])
        page.wait_for_selector("section.room[data-you='0'], section.room[data-you]:not([data-you=''])")
        assert page.locator(BANNER).count() == 0
        page.evaluate(SHOW_JS, ["watch", 3, end])
        page.wait_for_selector(BANNER)
        assert "had no seat" in page.inner_text(BANNER)
        assert not seat.errors
    finally:
        seat.close()


def test_a_provisional_rating_beside_a_seat_is_marked_in_words(browser: Any, server: str) -> None:
    seated, _, _ = views()
    rated = {**seated, "seats": [dict(s) for s in seated["seats"]]}
    for s, rating in zip(rated["seats"], [0, 1520, None, 0], strict=True):
        s["rating"] = rating
    rows = [
        {"player": "p-ann", "name": "Ann", "rating": 0, "games": 1, "rank": 3, "provisional": True},
        {"player": "p-bob", "name": "Bob", "rating": 1520, "games": 40, "rank": 1, "provisional": False},
        {"player": "p-dee", "name": "Dee", "rating": 0, "games": 12, "rank": 2, "provisional": False},
    ]
    seat = BrowserSeat(browser, server, "Zed")
    try:
        page = seat.page
        page.evaluate("rows => window.marcopolo.ratings.set('expedition', { players: rows, me: null })", rows)
        page.evaluate(SHOW_JS, ["rated", 1, rated])
        page.wait_for_selector(".seats .rating-badge")
        tags = page.evaluate(
            """() => [...document.querySelectorAll('.seats li.seat')].map((li) => [
                 li.querySelector('.rating-badge')?.textContent ?? null,
                 li.querySelector('.provisional-tag')?.textContent ?? null])"""
        )
        assert tags == [
            ["rating 0", "provisional"],  # one rated game: still settling
            ["rating 1520", None],
            [None, None],  # not rated yet
            ["rating 0", None],  # an established rating of 0 is a rating like any
        ], tags
        assert not seat.errors
    finally:
        seat.close()
