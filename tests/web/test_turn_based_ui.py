"""Turn-based play in the browser (wire contract v1.2), in Chromium at 1280×800 and at phone size 390×844.

The create form's "Turn-based (over days)" with a turn of 3 days and its expiry rule; the lobby's "turn-based" tag
and the room's rule in words; the turn signals when it becomes a player's move (the tab's title gets "● Your
move — ", the favicon a badge drawn into a data: URL, and, while the tab is hidden and notifications were enabled
by a click, a system notification: `window.Notification` is wrapped by a recording subclass), all cleared when
the tab is shown again or the player moves; "My games" with the player's turn first, its deadline in words, and
opening by itself on a reload when a turn-based game waits; a game ended by the `end` rule ("The game ended: time
ran out for Cy.", on a server whose clocks run 2000 times faster). No page scrolls sideways on the phone.
Screenshots: tests/artifacts/turn-*.png.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from clients.client import Client
from tests.web.conftest import CHROMIUM, run_async, running_server

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="Chromium is not installed at /usr/bin/chromium")

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
SIZES = [pytest.param(DESKTOP, id="desktop"), pytest.param(PHONE, id="phone")]
PLAIN = "Marco Polo"
YOUR_MOVE = "● Your move — Marco Polo"
#: a clock 2000 times faster: a turn of an hour runs out in 1.8 s
FAST = 0.0005
OVERFLOW_JS = "() => document.documentElement.scrollWidth - window.innerWidth"
#: the header's controls whose words are cut (their text wider than their box), and the header's own overflow
HEADER_JS = """() => {
  const top = document.querySelector('header.top');
  // (words hidden but for screen readers, 1 px wide, are not cut: the phone's brand name and "My games")
  const cut = [...top.querySelectorAll('a, button, select, span')].filter(e => e.offsetParent !== null
    && !e.matches('.sr, .brand-name') && e.clientWidth > 1 && e.scrollWidth > e.clientWidth + 1)
    .map(e => e.className || e.tagName);
  return { cut, over: top.scrollWidth - top.clientWidth };
}"""
ICON_JS = "() => document.querySelector(\"link[rel~='icon']\").getAttribute('href')"
NOTES_JS = "() => window.__notes"
ROOM_JS = "() => { const r = document.querySelector('section.room'); return r && {...r.dataset}; }"
#: the page's Notification, wrapped: every notification made is recorded (headless Chromium shows none)
RECORD_NOTIFICATIONS = """
(() => {
  window.__notes = [];
  const Real = window.Notification;
  if (!Real) return;
  class Recording extends Real {
    constructor(title, options) {
      window.__notes.push({ title, body: options && options.body, tag: options && options.tag });
      super(title, options);
    }
    static get permission() { return Real.permission; }
    static requestPermission(cb) { return Real.requestPermission(cb); }
  }
  window.Notification = Recording;
})();
"""
#: the tab hidden (true) or shown again (false), as the browser says it: `visibilityState` and the event
VISIBILITY_JS = """hidden => {
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => hidden ? 'hidden' : 'visible' });
  Object.defineProperty(document, 'hidden', { configurable: true, get: () => hidden });
  document.dispatchEvent(new Event('visibilitychange'));
}"""


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    with running_server("--bot-delay", "0.02") as base:
        yield base


@pytest.fixture(scope="module")
def fast_server() -> Iterator[str]:
    """Clocks 2000 times faster: a turn-based room's hour runs out in 1.8 s."""
    with running_server("--clock-scale", str(FAST), "--bot-delay", "0.02", "--close-empty-after", "0") as base:
        yield base


def ws(base: str) -> str:
    return base.replace("http://", "ws://") + "/ws"


def size_id(size: dict[str, int]) -> str:
    return "phone" if size["width"] < 500 else "desktop"


class Player:
    """One browser context (its own localStorage) whose notifications are granted and recorded, named as a guest."""

    def __init__(self, browser: Any, base: str, name: str, size: dict[str, int]) -> None:
        self.base, self.name, self.size = base, name, size
        self.ctx = browser.new_context(viewport=size)
        self.ctx.grant_permissions(["notifications"], origin=base)
        self.ctx.add_init_script(RECORD_NOTIFICATIONS)
        self.page = self.ctx.new_page()
        self.page.set_default_timeout(15000)
        self.errors: list[str] = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.goto(base + "/")
        self.page.fill("#name", name)
        self.page.click("button:has-text('Enter')")
        self.page.wait_for_selector(f"text=Hello, {name}")

    def close(self) -> None:
        self.ctx.close()

    def room(self) -> dict[str, str]:
        data: dict[str, str] | None = self.page.evaluate(ROOM_JS)
        assert data is not None, "not on a room page"
        return data

    def title(self) -> str:
        return str(self.page.evaluate("() => document.title"))

    def wait_title(self, title: str) -> None:
        self.page.wait_for_function("t => document.title === t", arg=title)

    def icon(self) -> str:
        return str(self.page.evaluate(ICON_JS))

    def wait_icon(self, badged: bool) -> None:
        js = "() => document.querySelector(\"link[rel~='icon']\").getAttribute('href')"
        if badged:
            self.page.wait_for_function(f"() => ({js})().startsWith('data:image/png')")
        else:
            self.page.wait_for_function(f"() => ({js})() === 'favicon.svg'")

    def hidden(self, hidden: bool) -> None:
        self.page.evaluate(VISIBILITY_JS, hidden)

    def notes(self) -> list[dict[str, Any]]:
        return list(self.page.evaluate(NOTES_JS) or [])

    def no_sideways_scroll(self) -> None:
        assert self.page.evaluate(OVERFLOW_JS) <= 0, f"{self.name}: the page scrolls sideways"

    def shot(self, artifacts: Path, name: str, full: bool = True) -> None:
        """A screenshot; a room on the phone as the screen shows it (its prompt bar is a sheet at the bottom)."""
        self.page.screenshot(path=str(artifacts / f"turn-{name}-{size_id(self.size)}.png"), full_page=full)

    def options(self) -> list[dict[str, Any]]:
        raw = self.page.eval_on_selector_all(".all-choices [data-move]", "els => els.map(e => e.dataset.move)")
        return [json.loads(m) for m in raw]

    def move_once(self) -> None:
        """One option of the prompt (ending the turn where it can: pass, stop), clicked in the list of choices."""
        page = self.page
        page.wait_for_selector("section.room[data-myturn='true'][data-pending='false']")
        options = self.options()
        assert options, "no option to click"
        pick = next((o for o in options if o.get("act") in ("pass", "stop")), options[0])
        if not page.locator(".prompt-bar details.all-choices[open]").count():
            page.click(".prompt-bar .all-choices summary")
        page.click(f".prompt-bar .all-choices [data-move='{json.dumps(pick, separators=(',', ':'))}']")

    def finish_turn(self) -> None:
        """Move until the room waits for another player."""
        for _ in range(12):
            self.page.wait_for_function(
                "() => { const r = document.querySelector('section.room'); return r && r.dataset.pending === 'false'; }"
            )
            if self.room()["myturn"] != "true":
                return
            self.move_once()
            self.page.wait_for_timeout(150)
        raise AssertionError("the turn did not end")


def create_turn_based(p: Player, *, days: int, rule: str, seed: int, artifacts: Path) -> str:
    """Create a 2-seat Expedition room through the lobby's form, turn-based; returns the room id."""
    page = p.page
    page.select_option("#game", "expedition")
    page.select_option("#seats", "2")
    page.check("#pace-turn")
    page.wait_for_selector("#turn-days")
    assert page.locator("#turn-seconds").count() == 0  # the live clock's seconds are for live rooms
    assert page.eval_on_selector_all("#turn-days option", "els => els.map(e => e.textContent)") == [
        "1 day",
        "3 days",
        "7 days",
        "14 days",
    ]
    page.select_option("#turn-days", str(days))
    page.select_option("#on-expiry", rule)
    page.click("summary[data-key='advanced']")
    page.fill("#seed", str(seed))
    page.locator("form.create").screenshot(path=str(artifacts / f"turn-create-{size_id(p.size)}.png"))
    p.no_sideways_scroll()
    page.click("button[data-key='create']")
    page.wait_for_selector("section.room[data-you='0']")
    return p.room()["room"]


def cy_opens_a_turn_based_room(base: str, seconds: int, rule: str, seed: int) -> str:
    """A Python client, Cy, creates a public 2-seat turn-based room, sits at seat 0 and goes away."""

    async def go() -> str:
        async with Client(ws(base)) as cy:
            await cy.hello("Cy")
            room = await cy.create_room(
                "expedition", 2, options={"seed": seed}, mode="turn_based", turn_seconds=seconds, on_expiry=rule
            )
            assert await cy.join(room) == 0
            return room

    return run_async(go)


@pytest.mark.parametrize("size", SIZES)
def test_a_turn_based_room_signals_each_move_and_my_games_puts_your_turn_first(
    browser: Any, server: str, artifacts: Path, size: dict[str, int]
) -> None:
    tag = size_id(size)
    ann = Player(browser, server, f"Ann{tag[0]}", size)
    bob = Player(browser, server, f"Bob{tag[0]}", size)
    try:
        page = ann.page
        assert ann.title() == PLAIN
        # My games from the header: nothing yet; the turn signals' settings, the notifications enabled by a click
        page.click("[data-testid='games-link']")
        page.wait_for_selector("[data-testid='my-games-empty']")
        assert page.text_content("[data-testid='games-summary']") == "No game is waiting for your move."
        page.click("[data-testid='notify-enable']")
        page.wait_for_selector("[data-testid='notify-on']")
        assert page.evaluate("() => localStorage.getItem('marcopolo.notify')") == "on"
        assert not page.is_checked("#signal-sound")  # the beep is off until chosen
        page.check("#signal-sound")
        page.wait_for_function("() => localStorage.getItem('marcopolo.sound') === 'on'")
        assert page.evaluate("() => window.marcopolo.signals.beeps") == 1  # a beep says what it sounds like
        ann.shot(artifacts, "games-empty")
        ann.no_sideways_scroll()

        # the create form: turn-based, 3 days a move, a late player is waited for
        page.click("a.back")
        page.wait_for_selector("form.create")
        room = create_turn_based(ann, days=3, rule="wait", seed=3, artifacts=artifacts)
        info = page.text_content("[data-testid='turn-info']") or ""
        assert "Turn-based: 3 days a move; a late player is waited for." in info
        assert ann.title() == PLAIN and ann.icon() == "favicon.svg"

        # the lobby lists it with its tag, in words
        row = bob.page.locator(f".room-row[data-room='{room}']")
        row.locator("[data-testid='turn-based-tag']").wait_for()
        assert row.locator("[data-testid='turn-based-tag']").text_content() == "turn-based"
        bob.shot(artifacts, "lobby")
        bob.no_sideways_scroll()

        # Ann's tab is in the background when Bob sits down: her move starts (seed 3: seat 0 begins) and she is
        # told by the title, the favicon's badge and a system notification
        ann.hidden(True)
        bob.page.click(f".room-row[data-room='{room}'] button:has-text('Join')")
        bob.page.wait_for_selector(f"section.room[data-room='{room}'][data-you='1'][data-status='playing']")
        page.wait_for_selector("section.room[data-myturn='true']")
        ann.wait_title(YOUR_MOVE)
        ann.wait_icon(badged=True)
        page.wait_for_function("() => window.__notes.length === 1")
        note = ann.notes()[0]
        assert note["title"] == "Your move" and note["body"] == "It is your move in Marco Polo Expedition."
        assert note["tag"] == f"marcopolo-{room}"
        assert page.evaluate("() => window.marcopolo.signals.notified") == 1
        assert page.evaluate("() => window.marcopolo.signals.beeps") == 2  # and one more for her move
        assert bob.title() == PLAIN and bob.room()["myturn"] == "false"
        assert bob.page.evaluate("() => window.__notes.length") == 0
        # back on the tab: everything clears
        ann.hidden(False)
        ann.wait_title(PLAIN)
        ann.wait_icon(badged=False)
        page.wait_for_selector("[data-testid='clock'].yours")
        clock = page.text_content("[data-testid='clock'] .clock-left") or ""
        assert clock.startswith("2 days 23:") or clock.startswith("3 days 0:"), clock
        ann.shot(artifacts, "room", full=tag == "desktop")
        ann.no_sideways_scroll()

        # Ann plays her turn; then it is Bob's move: his title and favicon say so, and clear at his first click
        ann.finish_turn()
        bob.page.wait_for_selector("section.room[data-myturn='true']")
        bob.wait_title(YOUR_MOVE)
        bob.wait_icon(badged=True)
        assert bob.notes() == []  # his tab is shown: no system notification
        bob.shot(artifacts, "your-move", full=tag == "desktop")
        bob.move_once()
        bob.wait_title(PLAIN)
        bob.wait_icon(badged=False)
        bob.finish_turn()
        # Ann's move again, with her tab in front: the title says so until she moves
        page.wait_for_selector("section.room[data-myturn='true']")
        ann.wait_title(YOUR_MOVE)
        ann.move_once()
        ann.wait_title(PLAIN)
        ann.finish_turn()
        bob.page.wait_for_selector("section.room[data-myturn='true']")
        bob.finish_turn()
        page.wait_for_selector("section.room[data-myturn='true']")
        assert len(ann.notes()) == 1  # her tab was shown all along since

        # a second turn-based room, where Cy (gone away) has the first move
        other = cy_opens_a_turn_based_room(server, 86400, "bot", seed=3)
        page.click("a.back")
        # the lobby's greeting says where the player's move waits, and links to My games
        page.wait_for_selector("[data-testid='me-games']:has-text('It is your move in 1 game')")
        assert page.get_attribute("[data-testid='me-games']", "href") == "#/games"
        page.click(f".room-row[data-room='{other}'] button:has-text('Join')")
        page.wait_for_selector(f"section.room[data-room='{other}'][data-you='1'][data-status='playing']")
        assert "1 day a move; when a player's time runs out, the seat's bot moves for them." in (
            page.text_content("[data-testid='turn-info']") or ""
        )

        # My games: the room where it is Ann's move first, in words and bold, with its deadline; then Cy's
        page.click("[data-testid='games-link']")
        page.wait_for_selector("[data-testid='my-games'] li.my-game >> nth=1")
        rows = page.locator("[data-testid='my-games'] li.my-game")
        assert rows.count() == 2
        assert rows.nth(0).get_attribute("data-room") == room
        assert rows.nth(0).get_attribute("data-your-turn") == "true"
        assert (rows.nth(0).locator("[data-testid='your-turn']").text_content() or "").strip() == "▶ Your turn"
        weight = rows.nth(0).locator("[data-testid='your-turn']").evaluate("e => getComputedStyle(e).fontWeight")
        assert int(weight) >= 700
        assert rows.nth(0).locator("[data-testid='due']").text_content() in ("Due in 3 days", "Due in 2 days")
        assert "turn-based" in (rows.nth(0).text_content() or "")
        assert f"Ann{tag[0]} (you)" in (rows.nth(0).locator(".my-game-players").text_content() or "")
        assert rows.nth(1).get_attribute("data-room") == other
        assert rows.nth(1).get_attribute("data-your-turn") == "false"
        assert "Waiting for Cy" in (rows.nth(1).text_content() or "")
        assert page.text_content("[data-testid='games-summary']") == "It is your move in 1 game"
        assert page.text_content("[data-testid='games-link'] .turn-count") == "1"
        ann.shot(artifacts, "my-games")
        ann.no_sideways_scroll()
        # the header keeps every word whole in every language (the phone shows icons for the brand and the link)
        for code in ("en", "hu", "fi", "it", "es"):
            page.select_option("#lang-select", code)
            page.wait_for_function("code => document.documentElement.lang === code", arg=code)
            header = page.evaluate(HEADER_JS)
            assert header == {"cut": [], "over": 0}, (code, header)
        # in another language: still one column, nothing cut off
        page.select_option("#lang-select", "hu")
        page.wait_for_selector("[data-testid='your-turn']:has-text('Te lépsz')")
        assert page.text_content("[data-testid='games-summary']") == "1 játékban te lépsz"
        assert "Határidő: 3 nap múlva" in (rows.nth(0).text_content() or "") or "Határidő: 2 nap múlva" in (
            rows.nth(0).text_content() or ""
        )
        ann.shot(artifacts, "my-games-hu")
        ann.no_sideways_scroll()
        page.select_option("#lang-select", "en")
        page.wait_for_selector("[data-testid='your-turn']:has-text('Your turn')")
        # the link goes into the room
        rows.nth(0).locator(f"a[data-key='my-game-{room}']").click()
        page.wait_for_selector(f"section.room[data-room='{room}'][data-myturn='true']")

        # a reload at the lobby opens My games by itself: a turn-based game waits for Ann's move
        page.goto(f"{server}/#/")
        page.reload()
        page.wait_for_selector("[data-testid='my-games']")
        assert page.evaluate("() => location.hash") == "#/games"
        assert page.locator("[data-testid='my-games'] li.my-game").first.get_attribute("data-room") == room
        # Bob, whose move it is nowhere, stays in the lobby after a reload
        bob.page.goto(f"{server}/#/")
        bob.page.reload()
        bob.page.wait_for_selector(f"text=Hello, Bob{tag[0]}")
        bob.page.wait_for_timeout(500)
        assert bob.page.evaluate("() => location.hash") == "#/"
        assert not ann.errors and not bob.errors
    finally:
        ann.close()
        bob.close()


@pytest.mark.parametrize("size", SIZES)
def test_a_late_player_ends_the_game_under_the_end_rule_and_the_room_says_so(
    browser: Any, fast_server: str, artifacts: Path, size: dict[str, int]
) -> None:
    tag = size_id(size)
    dee = Player(browser, fast_server, f"Dee{tag[0]}", size)
    try:
        page = dee.page
        room = cy_opens_a_turn_based_room(fast_server, 3600, "end", seed=3)
        page.goto(f"{fast_server}/#/room/{room}")
        page.wait_for_selector("[data-testid='turn-info']")
        assert "Turn-based: 1 hour a move; when a player's time runs out, the game ends." in (
            page.text_content("[data-testid='turn-info']") or ""
        )
        page.click("[data-testid='take-seat']")
        # Cy (seat 0) has the first move and is away: 1.8 s later the game ends, naming him
        page.wait_for_selector("[data-testid='closed-note']", timeout=20000)
        assert page.text_content("[data-testid='closed-note']") == "The game ended: time ran out for Cy."
        assert page.text_content(".prompt-bar .status") == "The game ended: time ran out for Cy."
        assert dee.room()["status"] == "finished"
        assert dee.title() == PLAIN
        assert page.locator(".notice").count() == 0  # said in the room itself, not in a notice as well
        dee.shot(artifacts, "ended", full=tag == "desktop")
        dee.no_sideways_scroll()
        # it is no longer among Dee's games
        page.click("[data-testid='games-link']")
        page.wait_for_selector("[data-testid='my-games-empty']")
        assert not dee.errors
    finally:
        dee.close()


@pytest.mark.parametrize("size", SIZES)
def test_a_late_player_is_waited_for_and_my_games_says_late_until_the_move(
    browser: Any, fast_server: str, artifacts: Path, size: dict[str, int]
) -> None:
    tag = size_id(size)
    eve = Player(browser, fast_server, f"Eve{tag[0]}", size)
    url = ws(fast_server)

    async def create() -> str:
        async with Client(url) as host:
            await host.hello("Host")
            return await host.create_room(
                "expedition", 2, options={"seed": 3}, mode="turn_based", turn_seconds=3600, on_expiry="wait"
            )

    async def cy_sits_down(room: str) -> None:
        async with Client(url) as cy:
            await cy.hello("Cy")
            assert await cy.join(room) == 1

    try:
        page = eve.page
        room = run_async(create)
        page.goto(f"{fast_server}/#/room/{room}")
        page.click("[data-testid='take-seat']")
        page.wait_for_selector(f"section.room[data-room='{room}'][data-you='0']")
        run_async(lambda: cy_sits_down(room))
        # Eve (seat 0, seed 3) has the first move and makes none: 1.8 s later her seat is marked late, and the
        # game waits for her
        page.wait_for_selector("[data-testid='clock-late']", timeout=20000)
        assert f"Eve{tag[0]}: the time is up; the game waits for their move." in (
            page.text_content("[data-testid='clock-late']") or ""
        )
        assert eve.room()["myturn"] == "true" and eve.room()["status"] == "playing"
        eve.shot(artifacts, "late-room", full=tag == "desktop")
        page.click("[data-testid='games-link']")
        row = page.locator(f"li.my-game[data-room='{room}']")
        row.locator("[data-testid='late']").wait_for()
        assert row.locator("[data-testid='late']").text_content() == "late"
        assert (row.locator("[data-testid='your-turn']").text_content() or "").strip() == "▶ Your turn"
        eve.shot(artifacts, "late")
        eve.no_sideways_scroll()
        # her move clears the mark (and starts Cy's clock)
        row.locator(f"a[data-key='my-game-{room}']").click()
        eve.finish_turn()
        page.wait_for_function(
            "r => !(window.marcopolo.store.get(r).view.clock?.late || []).includes(0)", arg=room, timeout=20000
        )
        assert not eve.errors
    finally:
        eve.close()
