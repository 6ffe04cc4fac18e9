"""The Voyages of Marco Polo in Debian's Chromium: a whole 2-seat game played with the mouse on the board.

Every move goes through the UI: the action spaces and city cards, the dice in the tray (and the value picker
and bonus-action menu), the bazaar columns, the contracts, the map's locations, the goods on the player's
board, and the room's choice buttons for what has no gesture. The test reads the page (its options and
the view it holds) only to decide which gesture to make; a greedy heuristic with some randomness decides.
"""

from __future__ import annotations

import random
import time
from typing import Any

import pytest

from server.games.voyages.bots import GreedyBot
from tests.web.conftest import CHROMIUM

from .pages import BrowserSeat, as_json

pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(), reason="Chromium is not installed at /usr/bin/chromium (apt-get install -y chromium)"
)

SEED = 4242


class Seat(BrowserSeat):
    """A browser seat with this game's gestures."""

    timeout_ms = 10000

    # ---- gestures ----------------------------------------------------------------------------

    def click_then(self, selector: str, move: dict[str, Any], v: int) -> None:
        """Click a board element; when it stands for several options, pick `move` in the chooser."""
        self.page.click(selector)
        self.page.wait_for_function(
            "v => +document.querySelector('section.room').dataset.v > v || !!document.querySelector('.vy-chooser')",
            arg=v,
        )
        if self.v() == v and self.page.locator(".vy-chooser").count():
            self.page.click(f".vy-chooser [data-move='{as_json(move)}']")

    def gesture(self, move: dict[str, Any], rng: random.Random) -> str:
        """Make `move` through the UI; returns how (board, or a button for what has no gesture)."""
        a = move["a"]
        v = self.v()
        page = self.page
        if a == "space":
            page.click(f"svg .vy-space.target[data-space='{move['space']}']")
        elif a == "die":
            naming = page.locator(".vy-tray button.vy-die[data-kind='own'][data-value='0']")
            if move["kind"] == "own" and naming.count():  # Raschid: open the value picker, name the value
                if not page.locator(".vy-faces").count():
                    naming.first.click()
                page.click(f".vy-faces button[data-face='{move['value']}']")
            else:
                page.click(f".vy-tray button.vy-die[data-kind='{move['kind']}'][data-value='{move['value']}']")
        elif a == "bag" and rng.random() < 0.5:  # the money bag on the board, then the die
            page.click("svg .vy-space.target[data-space='bag']")
            page.click(f".vy-tray button.vy-die[data-kind='{move['kind']}'][data-value='{move['value']}']")
        elif a in ("bag", "reroll", "adjust"):  # the die, then its bonus-action menu
            page.click(f".vy-tray button.vy-die[data-kind='{move['kind']}'][data-value='{move['value']}']")
            page.click(f".vy-menu [data-move='{as_json(move)}']")
        elif a == "black":
            page.click("svg .target[data-black]")
        elif a in ("fulfil", "keep"):
            cid = move["contract"] if a == "fulfil" else move["discard"]
            page.click(f".vy-player.me button[data-contract='{cid}']")
        elif a == "column":
            page.click(f"svg .cell.target[data-column='{move['n']}']")
        elif a == "good":
            page.click(f".vy-tray button[data-good='{move['good']}']")
        elif a == "goods":
            for g in move["goods"]:
                page.click(f".vy-tray button[data-good='{g}']")
        elif a == "take":
            self.click_then(f"svg .contract.target[data-contract='{move['contract']}']", move, v)
        elif a in ("step", "relocate", "city"):
            node = move["to"] if a == "step" else move["from"] if a == "relocate" else move["city"]
            self.click_then(f"svg .node.target[data-node='{node}']", move, v)
        else:
            page.click(f".choices [data-move='{as_json(move)}']")
            return "button"
        return "board"


def choose(view: dict[str, Any], bot: GreedyBot, rng: random.Random) -> dict[str, Any]:
    """The greedy bot's choice, nudged to travel (so the map fills) and now and then a bonus action."""
    options: list[dict[str, Any]] = view["prompt"]["options"]
    travel = {"a": "space", "space": "travel"}
    if travel in options and rng.random() < 0.7:
        return travel
    extra = [o for o in options if o["a"] in ("bag", "reroll", "adjust", "black")]
    if extra and rng.random() < 0.06:
        return rng.choice(extra)
    return bot.choose(view["prompt"], view)


def create_room(p: Seat, seats: int, seed: int) -> str:
    """Choose The Voyages of Marco Polo in the lobby's form (beginner set-up, a seed) and sit down."""
    p.page.select_option("#game", "voyages")
    p.page.select_option("#seats", str(seats))
    assert not p.page.locator("#opt-expert").is_checked()
    p.page.click("summary:has-text('Test servers')")
    p.page.fill("#seed", str(seed))
    p.page.click("button:has-text('Create and sit down')")
    p.page.wait_for_selector("section.room.game-voyages[data-you='0']")
    p.room_id = p.room()["room"]
    return p.room_id


def join(p: Seat, room: str) -> None:
    p.page.click(f".room-row[data-room='{room}'] button:has-text('Join')")
    p.page.wait_for_selector(f"section.room[data-room='{room}']")
    p.room_id = room


@pytest.mark.timeout(600)  # a whole game in two pages; slow on a loaded machine
def test_two_pages_play_a_whole_voyages_game_with_the_mouse(browser: Any, server: str, artifacts: Any) -> None:
    ann, bob = Seat(browser, server, "Ann"), Seat(browser, server, "Bob")
    try:
        room = create_room(ann, 2, SEED)
        join(bob, room)
        for p in (ann, bob):
            p.page.wait_for_selector("section.room[data-status='playing'] svg.vy-map")
        assert ann.page.locator("svg.vy-map .node").count() == 25
        assert ann.page.locator("svg.vy-map .route").count() == 30
        assert ann.page.locator("svg.vy-map .city-card").count() == 9
        rng = random.Random(SEED)
        bots = {0: GreedyBot(1), 1: GreedyBot(2)}
        hows: dict[str, int] = {"board": 0, "button": 0}
        verbs: set[str] = set()
        shot = False
        start = time.monotonic()
        while True:
            assert time.monotonic() - start < 450, "the game did not finish in time"  # a guard against a stuck game
            rooms = [(p, p.room()) for p in (ann, bob)]
            if all(r["status"] == "finished" for _, r in rooms):
                break
            mover = next((p for p, r in rooms if r["myturn"] == "true" and r["pending"] != "true"), None)
            if mover is None:
                time.sleep(0.02)
                continue
            view = mover.view()
            if not view.get("prompt"):
                time.sleep(0.02)
                continue
            assert mover.options() == view["prompt"]["options"]  # the page lists exactly the prompt
            if not shot and view["public"]["round"] >= 3 and any(pl["posts"] for pl in view["public"]["players"]):
                if mover.page.locator("svg .target").count():
                    mover.page.screenshot(path=str(artifacts / "voyages-board.png"), full_page=True)
                    shot = True
            move = choose(view, bots[view["you"]], rng)
            v = mover.v()
            hows[mover.gesture(move, rng)] += 1
            verbs.add(move["a"])
            mover.wait_version_above(v)

        print(f"moves by gesture: {hows}; kinds of move: {sorted(verbs)}")  # shown with -s
        assert shot, "no mid-game screenshot was taken"
        assert hows["board"] > 3 * hows["button"], hows  # most moves are gestures on the board
        for verb in ("space", "die", "column", "take", "step", "good", "fulfil", "bag", "end"):
            assert verb in verbs, (verb, verbs)
        results = []
        for p in (ann, bob):
            p.page.wait_for_selector("[data-testid='result']")
            scores = [int(p.page.inner_text(f"[data-testid='result'] li[data-seat='{s}'] .score")) for s in (0, 1)]
            result = p.view()["result"]
            assert scores == result["scores"]
            results.append((scores, p.page.inner_text("[data-testid='result'] .winners")))
            assert p.page.locator(".vy-breakdown tbody tr").count() == 2
            assert not p.errors, p.errors
            assert not p.notices(), p.notices()
        assert results[0] == results[1]
        # after the final scoring everybody's goal cards are public
        assert ann.page.locator(".vy-player:not(.me) .vy-goals li").count() == 2
        ann.page.screenshot(path=str(artifacts / "voyages-final.png"), full_page=True)
    finally:
        ann.close()
        bob.close()


def test_goal_cards_show_only_on_their_owners_page_and_the_board_fits_a_phone(
    browser: Any, server: str, artifacts: Any
) -> None:
    ann = Seat(browser, server, "Cat")
    bob = Seat(browser, server, "Dan", viewport={"width": 390, "height": 844})
    try:
        room = create_room(ann, 2, 11)  # seed: seat 0 (Raschid) drawn to start, no compensation
        join(bob, room)
        bob.page.wait_for_selector("section.room[data-status='playing'] svg.vy-map.portrait")
        ann.page.wait_for_selector("section.room[data-status='playing'] svg.vy-map.landscape")
        mine = [g["id"] for g in ann.view()["private"]["goals"]]
        theirs = [g["id"] for g in bob.view()["private"]["goals"]]
        assert ann.page.locator(".vy-player.me .vy-goals li").count() == 2
        assert bob.page.locator(".vy-player.me .vy-goals li").count() == 2
        assert not ann.page.locator(".vy-player:not(.me) .vy-goals").count()
        for gid in theirs:
            assert not ann.page.locator(f"[data-goal='{gid}']").count()
        for gid in mine:
            assert not bob.page.locator(f"[data-goal='{gid}']").count()

        # the first turn with the keyboard alone: Tab to an action space, Enter, Tab to the value, Enter
        page = ann.page

        def tab_to(selector: str, limit: int = 120) -> None:
            for _ in range(limit):
                page.keyboard.press("Tab")
                if page.evaluate("s => document.activeElement && document.activeElement.matches(s)", selector):
                    return
            raise AssertionError(f"{selector} is not reachable with Tab")

        v = ann.v()
        tab_to(".vy-space.target[data-space='khan']")
        page.keyboard.press("Enter")
        ann.wait_version_above(v)
        v = ann.v()
        tab_to(".vy-tray button.vy-die")
        page.keyboard.press("Enter")  # Raschid names the value: the picker opens
        tab_to(".vy-faces button[data-face='3']")
        page.keyboard.press("Enter")
        ann.wait_version_above(v)
        v = ann.v()
        tab_to(".vy-tray button[data-good='silk']")
        page.keyboard.press("Space")
        ann.wait_version_above(v)
        assert ann.view()["public"]["players"][0]["silk"] == 1

        # the phone: no horizontal scrolling, the map turned upright, text alternatives on the SVG
        overflow = bob.page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 0
        assert (bob.page.locator("svg.vy-map > title").text_content() or "").startswith("The map")
        assert bob.page.locator("svg.vy-map .node[aria-label]").count() >= 20
        bob.page.screenshot(path=str(artifacts / "voyages-phone.png"), full_page=True)
        assert not ann.errors and not bob.errors
    finally:
        ann.close()
        bob.close()
