"""The browser client in Debian's Chromium: lobby, seats across reloads, and whole games played by clicking.

Every move here is made through the UI (the board's spaces, the hand, the face-up cards, the draw pile,
the choice buttons); the test only reads the page to decide which gesture to make.
"""

from __future__ import annotations

import json
import random
import time
from collections import Counter
from typing import Any

import pytest

from clients.client import Client
from tests.web.conftest import CHROMIUM, Bot, run_async

from .pages import BrowserSeat

pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(), reason="Chromium is not installed at /usr/bin/chromium (apt-get install -y chromium)"
)


class Player(BrowserSeat):
    """A browser seat with this game's gestures."""

    # ---- reading the page ------------------------------------------------------------------

    def hand(self) -> list[str]:
        return list(self.page.eval_on_selector_all(".hand [data-card]", "els => els.map(e => e.dataset.card)"))

    def pressed(self) -> list[str]:
        """The hand's cards selected to pay with."""
        sel = ".hand .cards button[aria-pressed='true']"
        return list(self.page.eval_on_selector_all(sel, "els => els.map(e => e.dataset.card)"))

    # ---- gestures ----------------------------------------------------------------------------

    def click_choice(self, move: dict[str, Any]) -> None:
        """Click the button of an option the board has no gesture for (pass, stop, lighten, cancel)."""
        self.page.click(choice_selector(move))

    def pay_and_move(self, move: dict[str, Any], rng: random.Random) -> None:
        """Click the figure's target space, select exactly the paying cards, then confirm."""
        if self.page.locator(".fig-choice").count():  # two figures of this player may move
            self.page.click(f".fig-button[data-fig='{move['fig']}']")
        self.page.click(f"svg .space[data-target-figs~='{move['fig']}']")
        want = Counter(c.rsplit("-", 1)[0] for c in move["pay"])
        for card in self.pressed():  # a preselection that is not this option: take those cards back
            t = card.rsplit("-", 1)[0]
            if want[t] > 0:
                want[t] -= 1
            else:
                self.page.click(f".hand .cards button[data-card='{card}']")
        for t, n in want.items():
            for _ in range(n):
                self.page.click(f".hand .cards button[data-type='{t}'][aria-pressed='false']")
        if rng.random() < 0.5:
            self.page.click("#confirm-move")
        else:
            self.page.click(f"svg .space[data-target-figs~='{move['fig']}']")

    def play_one(self, rng: random.Random) -> dict[str, Any]:
        """Make one move through the UI; returns the option it stands for."""
        opts = self.options()
        kinds = Counter(o["a"] for o in opts)
        if kinds["draw"]:
            move = rng.choice([o for o in opts if o["a"] == "draw"])
            if move["from"] == "deck":
                self.page.click("#draw-pile")
            else:
                self.page.click(f".market button[data-slot='{move['slot']}']")
        elif kinds["pick"]:
            move = rng.choice([o for o in opts if o["a"] == "pick"])
            self.page.click(f".hand .cards button[data-type='{move['card'].rsplit('-', 1)[0]}']")
        elif kinds["move"] and rng.random() < 0.85:
            move = rng.choice([o for o in opts if o["a"] == "move"])
            self.pay_and_move(move, rng)
        elif kinds["choose"] and rng.random() < 0.85:
            move = rng.choice([o for o in opts if o["a"] == "choose"])
            self.page.click(f"svg .space[data-target-figs~='{move['fig']}']")
        elif kinds["lighten"] and rng.random() < 0.5:
            move = rng.choice([o for o in opts if o["a"] == "lighten"])
            self.click_choice(move)
        else:
            move = next(o for o in opts if o["a"] in ("pass", "stop", "cancel"))
            self.click_choice(move)
        return move


def choice_selector(move: dict[str, Any]) -> str:
    """The choice button of one option (its `data-move` is the option as JSON.stringify writes it)."""
    return f".choices [data-move='{json.dumps(move, separators=(',', ':'))}']"


def create_room_in_ui(p: Player, seats: int, seed: int) -> str:
    """Fill the lobby's form (with the test-server seed) and create; the creator sits down at once."""
    p.page.select_option("#game", "expedition")  # the form lists every game with a renderer
    p.page.select_option("#seats", str(seats))
    p.page.click("summary:has-text('Test servers')")
    p.page.fill("#seed", str(seed))
    p.page.click("button:has-text('Create and sit down')")
    p.page.wait_for_selector("section.room[data-you='0']")
    return p.room()["room"]


def join_in_lobby(p: Player, room: str) -> None:
    p.page.click(f".room-row[data-room='{room}'] button:has-text('Join')")
    p.wait_room(room)


def play_until(players: list[Player], rng: random.Random, done: Any, limit: float) -> int:
    """Let whichever page has the turn make one UI move at a time until `done()`; returns moves made."""
    made = 0
    deadline = time.monotonic() + limit
    while not done():
        assert time.monotonic() < deadline, "the game did not progress in time"
        for p in players:
            r = p.room()
            if r["status"] == "finished" or r["myturn"] != "true" or r["pending"] == "true":
                continue
            v = int(r["v"])
            stale = p.page.evaluate("() => window.marcopolo.stale")
            p.play_one(rng)
            # the move makes a new version, or (chosen in a view that had fallen behind) is answered `stale`
            p.page.wait_for_function(
                "([v, n]) => +document.querySelector('section.room').dataset.v > v || window.marcopolo.stale > n",
                arg=[v, stale],
            )
            made += 1
            break
        else:
            time.sleep(0.02)
    return made


def ws_url(base: str) -> str:
    return base.replace("http://", "ws://") + "/ws"


def test_a_name_being_typed_survives_a_redraw_and_no_socket_opens_before_it(browser: Any, server: str) -> None:
    """The name form keeps what is typed when the page redraws (as a connection's change of state redraws
    it), and a page without a name holds no socket: an unnamed one was closed by the hello deadline every
    10 s and each reconnection redrew the form, wiping a name half typed on a slow phone."""
    ctx = browser.new_context()
    page = ctx.new_page()
    sockets: list[Any] = []
    page.on("websocket", lambda ws: sockets.append(ws))
    try:
        page.goto(server + "/")
        page.fill("#name", "Zoë")
        page.evaluate("() => { window.oldName = document.querySelector('#name'); dispatchEvent(new Event('resize')); }")
        page.wait_for_function("() => document.querySelector('#name') !== window.oldName")  # redrawn
        assert page.input_value("#name") == "Zoë"
        assert sockets == []
        page.click("button:has-text('Enter')")
        page.wait_for_selector("text=Hello, Zoë")
        assert len(sockets) == 1
    finally:
        ctx.close()


def test_lobby_lists_a_room_created_elsewhere_without_a_reload(browser: Any, server: str) -> None:
    cat = Player(browser, server, "Cat")
    try:

        async def create_and_join() -> str:
            async with Client(ws_url(server)) as c:
                await c.hello("Dee")
                room = await c.create("expedition", 3)
                await c.join(room)
                return room

        room = run_async(create_and_join)
        row = cat.page.locator(f".room-row[data-room='{room}']")
        row.wait_for()
        assert "Dee" in row.inner_text()
        assert row.get_attribute("data-status") == "waiting"
        assert cat.page.locator(f".room-row[data-room='{room}'] button:has-text('Join')").is_visible()
        assert not cat.errors
    finally:
        cat.close()


def test_a_reload_and_a_new_tab_keep_the_seat(browser: Any, server: str) -> None:
    ann, bob = Player(browser, server, "Ann"), Player(browser, server, "Bob")
    try:
        room = create_room_in_ui(ann, 2, seed=11)
        join_in_lobby(bob, room)
        ann.page.wait_for_selector("section.room[data-status='playing']")
        play_until([ann, bob], random.Random(1), lambda: ann.v() >= 8, limit=30)

        hand, v = bob.hand(), bob.v()
        bob.page.reload()
        bob.page.wait_for_selector(f"section.room[data-room='{room}'][data-you='1']")
        assert bob.hand() == hand
        assert bob.v() >= v

        # a new tab of the same browser (same localStorage) opened on the lobby: the seat is listed and kept
        ann.page.close()
        ann.page = ann.ctx.new_page()
        ann.page.goto(server + "/")
        ann.page.click(f".mine a:has-text('{room}')")
        ann.page.wait_for_selector(f"section.room[data-room='{room}'][data-you='0']")
        bob.page.wait_for_selector("section.room .seat[data-seat='0'].online")
        play_until([ann, bob], random.Random(2), lambda: ann.v() >= 16, limit=30)

        # a gap in Bob's versions (as if a patch were lost): he asks for a snapshot and plays on; the gap shows
        # either as the next patch (its base is not his version) or as his next move (answered `stale`)
        bob.page.evaluate("room => { window.marcopolo.store.get(room).v -= 1; }", room)
        play_until([ann, bob], random.Random(3), lambda: ann.v() >= 22, limit=30)
        bob.page.wait_for_function("v => +document.querySelector('section.room').dataset.v === v", arg=ann.v())
        assert bob.page.evaluate("() => window.marcopolo.store.resyncs + window.marcopolo.stale") == 1
        assert not ann.errors and not bob.errors
        assert not ann.notices() and not bob.notices()
    finally:
        ann.close()
        bob.close()


def test_a_turn_can_be_played_with_the_keyboard_alone(browser: Any, server: str) -> None:
    ann, bob = Player(browser, server, "Ann"), Player(browser, server, "Bob")
    try:
        room = create_room_in_ui(ann, 2, seed=3)  # seed 3: Ann (seat 0) is the drawn start player
        join_in_lobby(bob, room)
        ann.page.wait_for_selector("section.room[data-myturn='true']")
        page = ann.page

        def tab_to(selector: str, limit: int = 80) -> None:
            for _ in range(limit):
                page.keyboard.press("Tab")
                if page.evaluate("s => document.activeElement && document.activeElement.matches(s)", selector):
                    return
            raise AssertionError(f"{selector} is not reachable with Tab")

        move = next(o for o in ann.options() if o["a"] == "move")
        v = ann.v()
        tab_to(f".space[data-target-figs~='{move['fig']}']")
        page.keyboard.press("Enter")
        want = Counter(c.rsplit("-", 1)[0] for c in move["pay"])
        for card in ann.pressed():
            t = card.rsplit("-", 1)[0]
            if want[t]:
                want[t] -= 1
            else:
                tab_to(f".hand .cards button[data-card='{card}']")
                page.keyboard.press("Space")
        for t, n in want.items():
            for _ in range(n):
                tab_to(f".hand .cards button[data-type='{t}'][aria-pressed='false']")
                page.keyboard.press("Space")
        tab_to("#confirm-move")
        page.keyboard.press("Enter")
        ann.wait_version_above(v)

        stop = next(o for o in ann.options() if o["a"] in ("stop", "pass"))
        v = ann.v()
        tab_to(choice_selector(stop))
        page.keyboard.press("Enter")
        ann.wait_version_above(v)
        v = ann.v()
        tab_to("#draw-pile")
        page.keyboard.press("Enter")
        ann.wait_version_above(v)
        assert ann.room()["myturn"] == "false"
        assert not ann.errors and not ann.notices()
    finally:
        ann.close()
        bob.close()


@pytest.mark.timeout(600)  # a whole game in two pages; slow on a loaded machine
def test_two_pages_and_a_bot_play_a_whole_game_through_the_ui(browser: Any, server: str, artifacts: Any) -> None:
    ann, bob = Player(browser, server, "Ann"), Player(browser, server, "Bob")
    bot: Bot | None = None
    try:
        room = create_room_in_ui(ann, 3, seed=2024)
        join_in_lobby(bob, room)
        bot = Bot(ws_url(server), room, seed=7).start()
        assert bot.joined.wait(10)
        assert bot.seat == 2
        ann.page.wait_for_selector("section.room[data-status='playing']")
        bob.page.wait_for_selector("section.room[data-status='playing']")
        rng = random.Random(3)

        def ann_may_move() -> bool:
            r = ann.room()
            return int(r["v"]) >= 60 and r["myturn"] == "true" and any(o["a"] == "move" for o in ann.options())

        made = play_until([ann, bob], rng, ann_may_move, limit=60)
        # mid-game, Ann to move: a screenshot of the board with her choices highlighted
        ann.page.wait_for_selector("svg .space.target")
        ann.page.screenshot(path=str(artifacts / "expedition-board.png"), full_page=True)
        # Bob reloads: his seat and hand come back
        hand = bob.hand()
        bob.page.reload()
        bob.page.wait_for_selector(f"section.room[data-room='{room}'][data-you='1']")
        assert bob.hand() == hand

        def over() -> bool:
            assert bot is not None and bot.error is None, bot.error if bot else None
            return ann.room()["status"] == "finished" and bob.room()["status"] == "finished"

        made += play_until([ann, bob], rng, over, limit=450)  # a guard, not a speed target: a loaded machine is slow
        assert made > 30  # most moves of the game went through the browser
        bot.stop()
        assert bot.error is None
        assert bot.result is not None

        for p in (ann, bob):
            p.page.wait_for_selector("[data-testid='result']")
            scores = [
                int(p.page.inner_text(f"[data-testid='result'] li[data-seat='{s}'] .score")) for s in range(3)
            ]
            assert scores == bot.result["scores"]
            assert p.page.locator(".log .events li").count() > 0
            assert not p.errors, p.errors
            assert not p.notices(), p.notices()
        ann.page.screenshot(path=str(artifacts / "expedition-final.png"), full_page=True)
    finally:
        if bot is not None:
            bot.stop()
        ann.close()
        bob.close()


def test_the_board_fits_a_phone_screen(browser: Any, server: str, artifacts: Any) -> None:
    async def make_room() -> str:
        """Two players start a game and go away: their seats stay taken, the phone watches."""
        async with Client(ws_url(server)) as eve, Client(ws_url(server)) as fay:
            await eve.hello("Eve")
            await fay.hello("Fay")
            room = await eve.create("expedition", 2, {"seed": 99})
            await eve.join(room)
            await fay.join(room)
            return room

    room = run_async(make_room)
    phone = Player(browser, server, "Gil", viewport={"width": 390, "height": 844})
    try:
        phone.page.click(f".room-row[data-room='{room}'] button:has-text('Watch')")
        phone.page.wait_for_selector(f"section.room[data-room='{room}'] svg.track[data-cols='5']")
        overflow = phone.page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 0
        assert (phone.page.locator("svg.track title").first.text_content() or "").startswith("The route from Hormus")
        phone.page.screenshot(path=str(artifacts / "expedition-phone.png"), full_page=True)
        assert not phone.errors
    finally:
        phone.close()
