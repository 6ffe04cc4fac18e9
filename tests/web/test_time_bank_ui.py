"""Time banks and the clock's own moves in the browser (wire contract v1.2, issue 29), in Chromium at 1280×800 and at
phone size 390×844.

The create form offers each player's time bank (a turn-based room's: none, 12 hours, 1, 3 or 7 days; a live room's
beside its seconds per move), the room's rule names it, and the countdown shows each bank next to the deadline:
the viewer's own and that of the seat to move, which runs down once the deadline has passed (on a server whose
clocks run 2000 times faster). When the seat's bank is spent too, the clock's bot moves for it and those log lines
read "(the clock played for Cy)". No page scrolls sideways on the phone. Screenshots: tests/artifacts/bank-*.png.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from clients.client import Client
from tests.web.conftest import CHROMIUM, run_async, running_server
from tests.web.test_turn_based_ui import SIZES, Player, size_id, ws

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="Chromium is not installed at /usr/bin/chromium")

#: a clock 2000 times faster: an hour runs out in 1.8 s
FAST = 0.0005
HOUR = 3600


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    with running_server("--bot-delay", "0.02") as base:
        yield base


@pytest.fixture(scope="module")
def fast_server() -> Iterator[str]:
    with running_server("--clock-scale", str(FAST), "--bot-delay", "0.02", "--close-empty-after", "0") as base:
        yield base


def shot(p: Player, artifacts: Path, name: str, full: bool = True) -> None:
    p.page.screenshot(path=str(artifacts / f"bank-{name}-{size_id(p.size)}.png"), full_page=full)


def options_of(p: Player, select: str) -> list[str]:
    return list(p.page.eval_on_selector_all(f"{select} option", "els => els.map(e => e.textContent)"))


@pytest.mark.parametrize("size", SIZES)
def test_the_create_form_offers_a_time_bank_and_the_room_shows_it_beside_the_clock(
    browser: Any, server: str, artifacts: Path, size: dict[str, int]
) -> None:
    tag = size_id(size)
    ann = Player(browser, server, f"Ann{tag[0]}", size)
    try:
        page = ann.page
        page.select_option("#game", "expedition")
        page.select_option("#seats", "2")
        # a live room: a bank beside the seconds per move
        assert options_of(ann, "#live-bank") == ["none", "1 minute", "2 minutes", "5 minutes", "10 minutes"]
        page.check("#pace-turn")
        page.wait_for_selector("#time-bank")
        assert page.locator("#live-bank").count() == 0
        assert options_of(ann, "#time-bank") == ["none", "12 hours", "1 day", "3 days", "7 days"]
        page.select_option("#turn-days", "3")
        page.select_option("#time-bank", str(86400))
        page.click("summary[data-key='advanced']")
        page.fill("#seed", "3")
        page.locator("form.create").screenshot(path=str(artifacts / f"bank-create-{tag}.png"))
        ann.no_sideways_scroll()
        page.click("button[data-key='create']")
        page.wait_for_selector("section.room[data-you='0']")
        room = ann.room()["room"]
        assert "Each player also has a time bank of 1 day." in (page.text_content("[data-testid='turn-info']") or "")

        async def bob_sits_down() -> dict[str, Any]:
            async with Client(ws(server)) as bob:
                await bob.hello("Bob")
                await bob.join(room)
                await bob.wait_for(room, lambda s: s["status"] == "playing")
                return bob.view(room)

        view = run_async(bob_sits_down)
        assert view["turn"]["time_bank_seconds"] == 86400 and view["clock"]["bank"] == [86400000, 86400000]
        # Ann (seat 0, seed 3) moves first: her deadline, then her bank, whole while the deadline is ahead
        page.wait_for_selector("[data-testid='clock'].yours [data-testid='clock-bank']")
        banks = page.locator("[data-testid='clock-bank']")
        assert banks.count() == 1  # hers: she is the seat to move (Bob's is not shown to her)
        assert banks.nth(0).text_content() == "Your time bank: 1 day 0:00:00"
        assert banks.nth(0).get_attribute("data-seat") == "0"
        shot(ann, artifacts, "room", full=tag == "desktop")
        ann.no_sideways_scroll()
        # in Hungarian too
        page.select_option("#lang-select", "hu")
        page.wait_for_function("() => document.documentElement.lang === 'hu'")
        assert (banks.nth(0).text_content() or "").startswith("Időtartalékod:")
        page.select_option("#lang-select", "en")
        assert not ann.errors
    finally:
        ann.close()


@pytest.mark.parametrize("size", SIZES)
def test_a_bank_runs_down_after_the_deadline_and_the_clocks_moves_are_marked_in_the_log(
    browser: Any, fast_server: str, artifacts: Path, size: dict[str, int]
) -> None:
    tag = size_id(size)
    dee = Player(browser, fast_server, f"Dee{tag[0]}", size)

    async def cy_opens_and_leaves() -> str:
        """Cy creates the room (an hour a move, two hours of bank each; the seat's bot moves when both ran out),
        sits at seat 0 and goes away."""
        async with Client(ws(fast_server)) as cy:
            await cy.hello("Cy")
            room = await cy.create_room("expedition", 2, options={"seed": 3}, mode="turn_based", turn_seconds=HOUR,
                                        on_expiry="bot", time_bank_seconds=2 * HOUR)  # fmt: skip
            assert await cy.join(room) == 0
            return room

    try:
        page = dee.page
        room = run_async(cy_opens_and_leaves)
        page.goto(f"{fast_server}/#/room/{room}")
        page.click("[data-testid='take-seat']")
        page.wait_for_selector(f"section.room[data-room='{room}'][data-you='1']")
        # Cy's clock runs (1.8 s), then his bank (3.6 s): both banks are shown, his named, Dee's own as hers
        page.wait_for_selector("[data-testid='clock-bank'][data-seat='0']")
        assert (page.text_content("[data-testid='clock-bank'][data-seat='0']") or "").startswith("Cy's time bank: 0:0")
        assert (page.text_content("[data-testid='clock-bank'][data-seat='1']") or "") == "Your time bank: 0:04"
        page.wait_for_selector("[data-testid='clock-bank'][data-seat='0'] .bank-left.spending", timeout=10000)
        left = int(page.get_attribute("[data-testid='clock-bank'][data-seat='0'] .bank-left", "data-left") or "-1")
        assert 0 <= left <= 4
        assert page.get_attribute("[data-testid='clock'] .clock-left", "data-left") == "0"
        shot(dee, artifacts, "spending", full=tag == "desktop")
        # his bank spent too: the clock's bot moves for him, and those lines of the log say so
        page.wait_for_selector("[data-testid='clock-mark']", timeout=20000)
        marks = page.locator("li.by-clock [data-testid='clock-mark']")
        assert marks.count() >= 1
        assert all(t == " (the clock played for Cy)" for t in marks.all_text_contents())
        # only his lines: none of them is a line of a seat the clock did not play
        assert page.locator(".log .events li:not(.by-clock) [data-testid='clock-mark']").count() == 0
        page.locator(".log").scroll_into_view_if_needed()
        shot(dee, artifacts, "log")
        dee.no_sideways_scroll()
        assert not dee.errors
    finally:
        dee.close()
