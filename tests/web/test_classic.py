"""The classic Marco Polo game in the browser (Debian's Chromium): a whole 2-seat game played with the mouse.

The room is created with a seed and a short round limit (`max_rounds`, a room option the lobby form does not
offer) by a Python client that does not sit down; both players join from the lobby. Every move goes through
the page: the compass wheels, the map's stopping points, the hand's cards and the stack where the board has a
gesture, the choice buttons otherwise. The test only reads the page to decide which gesture to make.
"""

from __future__ import annotations

import json
import random
import time
from collections import Counter
from typing import Any

import pytest

from clients.client import Client
from tests.web.conftest import CHROMIUM, run_async

from .pages import BrowserSeat

pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(), reason="Chromium is not installed at /usr/bin/chromium (apt-get install -y chromium)"
)

SEED = 607  # a seed whose drawn start player is seat 0 (Ann), who plays the first turn by keyboard
MAX_ROUNDS = 20


class Player(BrowserSeat):
    """A browser seat with this game's gestures."""

    def join_from_lobby(self, room: str) -> None:
        self.page.click(f".room-row[data-room='{room}'] button:has-text('Join')")
        self.page.wait_for_selector(f"section.room[data-room='{room}']")

    # ---- gestures ----------------------------------------------------------------------------

    def click_choice(self, move: dict[str, Any]) -> None:
        """The button of an option the board has no gesture for (done, fight, decline, pay 50, force)."""
        self.page.click(f".choices [data-move='{json.dumps(move, separators=(',', ':'))}']")

    def click_card(self, card: str) -> None:
        """A hand card of the option's type (copies are interchangeable; the option names the lowest id)."""
        self.page.click(f".hand button.mp-card[data-type='{card.rsplit('-', 1)[0]}']")

    def play_one(self, rng: random.Random, used: Counter[str]) -> dict[str, Any]:
        """Make one move through the page; returns the option it stands for and counts the gesture used."""
        opts = self.options()
        kinds = Counter(o["a"] for o in opts)
        pick = rng.choice
        if kinds["spin"]:
            move = pick([o for o in opts if o["a"] == "spin"])
            if rng.random() < 0.75:
                self.page.click(f"svg .wheel.target[data-route='{move['route']}']")
                used["wheel"] += 1
            else:
                self.page.click(f".route-choice[data-route='{move['route']}']")
                used["route button"] += 1
        elif kinds["move"]:
            move = pick([o for o in opts if o["a"] == "move"])
            if rng.random() < 0.8:
                self.page.click(f"svg .node.target[data-node='{move['to']}']")
                used["map"] += 1
            else:
                self.page.click(f".dest[data-to='{move['to']}']")
                used["destination button"] += 1
        elif kinds["sell"] and rng.random() < 0.35:
            move = pick([o for o in opts if o["a"] == "sell"])
            self.click_card(move["card"])
            used["sell card"] += 1
        elif kinds["buy"] and rng.random() < 0.8:
            move = {"a": "buy"}
            self.page.click("#buy-pile")
            used["stack"] += 1
        elif kinds["gift"] or kinds["discard"]:
            move = pick([o for o in opts if o["a"] in ("gift", "discard")])
            self.click_card(move["card"])
            used[f"{move['a']} card"] += 1
        elif kinds["ransom"]:
            cards = [o for o in opts if o["a"] == "ransom" and "card" in o]
            if cards and (rng.random() < 0.5 or {"a": "ransom", "pay": "money"} not in opts):
                move = pick(cards)
                self.click_card(move["card"])
                used["ransom card"] += 1
            else:
                move = {"a": "ransom", "pay": "money"}
                self.click_choice(move)
                used["button"] += 1
        elif kinds["fight"]:
            move = {"a": "fight"} if rng.random() < 0.7 else {"a": "decline"}
            self.click_choice(move)
            used["button"] += 1
        elif kinds["force"] and rng.random() < 0.5:
            move = pick([o for o in opts if o["a"] == "force"])
            self.click_choice(move)
            used["button"] += 1
        else:
            move = {"a": "done"}
            assert move in opts, opts
            self.click_choice(move)
            used["button"] += 1
        return move


def make_room(server: str) -> str:
    """A public 2-seat room with a seed and a short round limit, created by a client that does not sit down."""

    async def create() -> str:
        async with Client(server.replace("http://", "ws://") + "/ws") as host:
            await host.hello("Host")
            return await host.create("classic", 2, {"seed": SEED, "max_rounds": MAX_ROUNDS})

    return run_async(create)


def server_result(server: str, room: str) -> dict[str, Any]:
    """The result as the server states it, read by a spectator."""

    async def watch() -> dict[str, Any]:
        async with Client(server.replace("http://", "ws://") + "/ws") as c:
            await c.hello("Referee")
            await c.join(room, spectate=True)
            result: dict[str, Any] = c.view(room)["result"]
            return result

    return run_async(watch)


def keyboard_turn(p: Player) -> None:
    """The first turn with the keyboard alone: Tab to a compass wheel, Enter; then a map point if asked."""
    page = p.page

    def tab_to(selector: str, limit: int = 120) -> None:
        for _ in range(limit):
            page.keyboard.press("Tab")
            if page.evaluate("s => document.activeElement && document.activeElement.matches(s)", selector):
                return
        raise AssertionError(f"{selector} is not reachable with Tab")

    v = p.v()
    tab_to("svg .wheel.target")
    page.keyboard.press("Enter")
    p.wait_version_above(v)
    if any(o["a"] == "move" for o in p.options()):
        v = p.v()
        tab_to("svg .node.target")
        page.keyboard.press("Enter")
        p.wait_version_above(v)


@pytest.mark.timeout(600)  # a whole game in two pages; slow on a loaded machine
def test_two_pages_play_a_whole_classic_game_with_the_mouse(browser: Any, server: str, artifacts: Any) -> None:
    started = time.monotonic()
    ann, bob = Player(browser, server, "Ann"), Player(browser, server, "Bob")
    try:
        # the lobby's create form offers the game (the renderer registers it)
        assert ann.page.locator("#game option[value='classic']").count() == 1
        room = make_room(server)
        ann.join_from_lobby(room)
        bob.join_from_lobby(room)
        for p in (ann, bob):
            p.page.wait_for_selector("section.room[data-status='playing'] svg.route-map")
        assert ann.room()["you"] == "0" and bob.room()["you"] == "1"
        map_title = ann.page.locator("svg.route-map title").first.text_content() or ""
        assert map_title.startswith("Route map from Venice")
        assert ann.page.locator("svg .node[data-node]").count() == 64
        assert ann.page.locator("svg .route.land").count() > 0 and ann.page.locator("svg .route.sea").count() > 0
        assert ann.page.locator("svg .ransom").count() == 2
        assert ann.page.locator("svg .pawn").count() == 2

        keyboard_turn(ann)

        rng = random.Random(SEED)
        used: Counter[str] = Counter()
        shot = False
        made = 0
        deadline = time.monotonic() + 100
        while not (ann.room()["status"] == "finished" and bob.room()["status"] == "finished"):
            assert time.monotonic() < deadline, "the game did not end in time"
            for p in (ann, bob):
                r = p.room()
                if r["status"] == "finished" or r["myturn"] != "true" or r["pending"] == "true":
                    continue
                opts = p.options()
                holds = ann.page.locator(".hand .mp-card").count() > 0 or made >= 80
                if not shot and p is ann and made >= 30 and holds and sum(o["a"] == "move" for o in opts) >= 2:
                    # mid-game, Ann chooses where her move ends: the map with her choices ringed
                    ann.page.screenshot(path=str(artifacts / "classic-map.png"), full_page=True)
                    shot = True
                v = int(r["v"])
                p.play_one(rng, used)
                p.wait_version_above(v)
                made += 1
                break
            else:
                time.sleep(0.02)

        assert made > 30
        assert used["wheel"] and used["map"] and used["stack"], used
        assert sum(n for g, n in used.items() if g.endswith(" card")) >= 2, used  # cards clicked in the hand
        assert shot, f"Ann never had two places to choose from after move 30 ({made} moves)"
        expected = server_result(server, room)
        assert expected["reason"] == "round_limit"
        texts = []
        for p in (ann, bob):
            p.page.wait_for_selector("[data-testid='result']")
            scores = [int(p.page.inner_text(f"[data-testid='result'] li[data-seat='{s}'] .score")) for s in (0, 1)]
            assert scores == expected["scores"]
            texts.append(p.page.inner_text("[data-testid='result']"))
            assert "round limit" in p.page.inner_text("[data-testid='result'] .tiebreak")
            assert p.page.locator(".log .events li").count() > 0
            assert not p.errors, p.errors
            assert not p.notices(), p.notices()
        assert texts[0].replace(" (you)", "") == texts[1].replace(" (you)", "")
        ann.page.screenshot(path=str(artifacts / "classic-final.png"), full_page=True)
        assert time.monotonic() - started < 120
    finally:
        ann.close()
        bob.close()


def test_the_classic_map_is_usable_on_a_phone_screen(browser: Any, server: str, artifacts: Any) -> None:
    room = make_room(server)

    async def sit_down() -> None:
        async with (
            Client(server.replace("http://", "ws://") + "/ws") as eve,
            Client(server.replace("http://", "ws://") + "/ws") as fay,
        ):
            await eve.hello("Eve")
            await fay.hello("Fay")
            await eve.join(room)
            await fay.join(room)

    run_async(sit_down)
    phone = Player(browser, server, "Gil", viewport={"width": 390, "height": 844})
    try:
        phone.page.click(f".room-row[data-room='{room}'] button:has-text('Watch')")
        phone.page.wait_for_selector(f"section.room[data-room='{room}'] .map.scroll svg.route-map")
        overflow = phone.page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 0  # the page does not scroll sideways; the map scrolls inside its box
        box = phone.page.evaluate(
            "() => { const b = document.querySelector('.map.scroll'); return [b.scrollWidth, b.clientWidth]; }"
        )
        assert box[0] > box[1]
        phone.page.screenshot(path=str(artifacts / "classic-phone.png"), full_page=True)
        assert not phone.errors
    finally:
        phone.close()


@pytest.mark.timeout(300)
def test_switching_the_language_changes_the_classic_board_headings_hints_and_map(browser: Any, server: str) -> None:
    ann, bob = Player(browser, server, "Ivy"), Player(browser, server, "Jon")
    try:
        room = make_room(server)
        ann.join_from_lobby(room)
        bob.join_from_lobby(room)
        page = ann.page
        page.wait_for_selector("section.room[data-status='playing'] svg.route-map")
        read = """() => ({
          board: document.querySelector(".classic").textContent,
          map: document.querySelector("svg.route-map title").textContent,
          rules: document.querySelector("[data-testid='rules'] h3").textContent,
        })"""
        en = page.evaluate(read)
        assert "Goods stacks" in en["board"] and "Players" in en["board"] and en["map"].startswith("Route map")
        for code, stacks, players, turn in (
            ("hu", "Árupaklik", "Játékosok", "Egy kör"),
            ("fi", "Tavarapakat", "Pelaajat", "Vuoro"),
            ("it", "Mazzi delle merci", "Giocatori", "Un turno"),
            ("es", "Mazos de mercancías", "Jugadores", "Un turno"),
        ):
            ann.set_language(code)
            said = page.evaluate(read)
            assert stacks in said["board"] and players in said["board"], code
            assert "Goods stacks" not in said["board"] and "Golden Tables left" not in said["board"], code
            assert said["map"] != en["map"] and said["rules"] == turn, code
            assert "w.cl." not in said["board"] + said["map"], code
        ann.set_language("en")
        assert page.evaluate(read)["board"] == en["board"]
        assert not ann.errors and not bob.errors
    finally:
        ann.close()
        bob.close()
