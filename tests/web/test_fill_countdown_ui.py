"""The countdown of a waiting room whose empty seats bots fill (`fill_at`) in Chromium, on a desktop and a phone:
"Play now" opens a room with a two-minute fill time, the room says in words how many seconds are left and
counts down, and its opener's "Start now with bots" starts the game at once with a bot in the empty seat.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import CHROMIUM, running_server

from .pages import BrowserSeat

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="Chromium is not installed at /usr/bin/chromium")

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
SIZES = [pytest.param(DESKTOP, id="desktop"), pytest.param(PHONE, id="phone")]
re_bot = re.compile(r"^Bot \d+$")
re_left = re.compile(r"Bots fill the empty seats in (\d+) s")


@pytest.fixture
def server() -> Iterator[str]:
    """A fresh server per test (so each quick match opens its own room), whose quick matches fill in 120 s."""
    with running_server("--bot-delay", "0.02", "--quick-fill-bots-after", "120") as base:
        yield base


def seconds_left(seat: BrowserSeat) -> int:
    text = seat.page.inner_text("[data-testid='fill-left']")
    m = re_left.fullmatch(text.strip())
    assert m, text
    return int(m.group(1))


@pytest.mark.parametrize("size", SIZES)
def test_play_now_counts_down_to_the_bots_and_the_opener_starts_at_once(
    browser: Any, server: str, artifacts: Path, size: dict[str, int]
) -> None:
    kind = "phone" if size["width"] < 500 else "desktop"
    ann = BrowserSeat(browser, server, "Ann", viewport=size)
    try:
        page = ann.page
        page.click("[data-testid='quick-expedition']")
        page.wait_for_selector("section.room[data-status='waiting']")
        ann.room_id = ann.room()["room"]
        fill_at = ann.view()["fill_at"]
        assert isinstance(fill_at, int)

        first = seconds_left(ann)
        assert 100 <= first <= 120, first
        # it goes down, one second at a time, without anything new from the server
        v = ann.v()
        page.wait_for_function(
            "n => { const e = document.querySelector('[data-testid=fill-left]'); return e && +e.dataset.left < n; }",
            arg=first,
        )
        later = seconds_left(ann)
        assert 100 <= later < first
        assert ann.v() == v
        # a timer in words, with a polite live region that is still silent (it speaks at 30, 10 and 0 s)
        assert page.get_attribute("[data-testid='fill'] .fill-line", "role") == "timer"
        assert page.get_attribute("#announce-fill", "aria-live") == "polite"
        assert page.inner_text("#announce-fill") == ""

        # the quick match opened the room: its opener sees one start button, beside the countdown
        start = page.locator("[data-testid='host-start']")
        assert start.count() == 1
        assert start.inner_text() == "Start now with bots"
        assert page.locator("[data-testid='fill'] [data-testid='host-start']").count() == 1
        start.scroll_into_view_if_needed()
        page.screenshot(path=str(artifacts / f"fill-countdown-{kind}.png"), full_page=False)

        start.click()
        page.wait_for_selector("section.room:not([data-status='waiting'])")
        assert page.locator("[data-testid='fill']").count() == 0
        seats = ann.view()["seats"]
        assert seats[0]["name"] == "Ann"
        assert all(re_bot.match(s["name"] or "") for s in seats[1:]), seats
        assert ann.errors == []
    finally:
        ann.close()
