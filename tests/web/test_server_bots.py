"""The lobby form seats server bots: the game starts as soon as the creator sits down, and the bot plays."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest

from .conftest import CHROMIUM
from .test_browser import Player

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="Chromium is not installed at /usr/bin/chromium")


def _room_with_one_bot(player: Player) -> Any:
    """Create a 2-seat Expedition room with one server bot from the lobby form; its page once the game runs."""
    page = player.page
    page.select_option("#game", "expedition")
    page.select_option("#seats", "2")
    page.select_option("#bots", "1")
    page.click("button:has-text('Create and sit down')")
    page.wait_for_selector("section.room[data-you='0'][data-status='playing']")
    return page


def test_a_room_created_with_a_server_bot_starts_at_once_and_the_bot_moves(browser: Any, server: str) -> None:
    ann = Player(browser, server, "Solo")
    try:
        page = _room_with_one_bot(ann)
        assert page.locator("text=Bot 1").count() > 0
        rng = random.Random(5)
        deadline = time.monotonic() + 60
        # play until the bot has had the turn and handed it back
        bot_moved = False
        while not bot_moved:
            assert time.monotonic() < deadline, "the bot never moved"
            r = ann.room()
            if r["myturn"] == "true" and r["pending"] != "true":
                v = int(r["v"])
                ann.play_one(rng)
                ann.wait_version_above(v)
                if ann.room()["myturn"] != "true":
                    page.wait_for_selector("section.room[data-myturn='true']", timeout=30000)
                    bot_moved = True
            else:
                time.sleep(0.05)
        assert not ann.errors
    finally:
        ann.close()


def test_a_player_hands_its_seat_to_the_bot_takes_it_back_and_hands_it_over_again(
    browser: Any, server: str, artifacts: Any
) -> None:
    ann = Player(browser, server, "Hand")
    try:
        page = _room_with_one_bot(ann)
        page.click("[data-testid=autoplay-start]")
        page.wait_for_selector("[data-testid=autoplay-0]")  # everyone sees that a bot plays this seat
        page.wait_for_selector("[data-testid=autoplay-stop]")
        page.screenshot(path=str(artifacts / "autoplay-on.png"), full_page=True)
        page.click("[data-testid=autoplay-stop]")
        page.wait_for_selector("[data-testid=autoplay-0]", state="detached")
        page.click("[data-testid=autoplay-start]")
        page.wait_for_selector("[data-testid=autoplay-0]")
        v = int(ann.room()["v"])
        deadline = time.monotonic() + 60
        while int(ann.room()["v"]) < v + 8:  # the bots play both seats: the game goes on without a click
            assert time.monotonic() < deadline, "the bot did not play the seat"
            time.sleep(0.1)
        page.screenshot(path=str(artifacts / "autoplay-playing.png"), full_page=True)
        assert not ann.errors
    finally:
        ann.close()
