"""Marco Polo II in Debian's Chromium: a whole 2-seat game played with the mouse on the board.

Every move goes through the UI: the action spaces and city cards on the action board, the dice in the tray,
the map's locations (moves, extra posts, relocations, bonus cities), the contracts in the contract cities and
on the player's board, the offers of a book, and the room's choice buttons for what has no gesture (the
draft, goal cards, bonus actions, round-start choices). The test reads the page (its options and the view it
holds) only to decide which gesture to make; the greedy bot with some randomness decides.
"""

from __future__ import annotations

import random
import time
from typing import Any

import pytest

from server.games.khan.bots import GreedyBot
from tests.web.conftest import CHROMIUM

from .pages import BrowserSeat, as_json

pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(), reason="Chromium is not installed at /usr/bin/chromium (apt-get install -y chromium)"
)

SEED = 4243


class Seat(BrowserSeat):
    """A browser seat with this game's gestures."""

    timeout_ms = 10000

    def click_then(self, selector: str, move: dict[str, Any], v: int) -> None:
        """Click a board element; when it stands for several options, pick `move` in the chooser."""
        self.page.click(selector)
        self.page.wait_for_function(
            "v => +document.querySelector('section.room').dataset.v > v || !!document.querySelector('.kh-chooser')",
            arg=v,
        )
        if self.v() == v and self.page.locator(".kh-chooser").count():
            self.page.click(f".kh-chooser [data-move='{as_json(move)}']")

    def gesture(self, move: dict[str, Any]) -> str:
        """Make `move` through the UI; returns how (board, or a button for what has no gesture)."""
        a = move["a"]
        v = self.v()
        page = self.page
        if a == "space":
            page.click(f"svg .kh-space.target[data-space='{move['space']}']")
        elif a == "die":
            page.click(
                f".kh-tray button.kh-die.target[data-kind='{move['kind']}'][data-value='{move['value']}'] >> nth=0"
            )
        elif a in ("step", "haul", "post", "city", "marker", "relocate", "caravan"):
            key = {"step": "to", "haul": "to", "relocate": "from", "caravan": "start"}.get(a, "city")
            self.click_then(f"svg .node.target[data-node='{move[key]}']", move, v)
        elif a == "take":
            self.click_then(f".kh-cities button.kh-contract.target[data-contract='{move['contract']}']", move, v)
        elif a == "fulfil":
            page.click(f".kh-player.me button.kh-contract[data-contract='{move['contract']}']")
        elif a == "offer":
            page.click(f".kh-offers button[data-offer='{move['i']}']")
        else:
            button = f".choices [data-move='{as_json(move)}']"
            if page.locator(f"details.bonus-choices:not([open]) {button}").count():
                page.click("details.bonus-choices > summary")  # the bonus actions are folded under their heading
            page.click(button)
            return "button"
        return "board"


def choose(view: dict[str, Any], bot: GreedyBot, rng: random.Random) -> dict[str, Any]:
    """The greedy bot's choice, now and then a bonus action instead."""
    options: list[dict[str, Any]] = view["prompt"]["options"]
    extra = [o for o in options if o["a"] in ("bag", "reroll", "adjust")]
    if extra and rng.random() < 0.04:
        return rng.choice(extra)
    return bot.choose(view["prompt"], view)


def create_room(p: Seat, seats: int, seed: int) -> str:
    p.page.select_option("#game", "khan")
    p.page.select_option("#seats", str(seats))
    p.page.click("summary:has-text('Test servers')")
    p.page.fill("#seed", str(seed))
    p.page.click("button:has-text('Create and sit down')")
    p.page.wait_for_selector("section.room.game-khan[data-you='0']")
    p.room_id = p.room()["room"]
    return p.room_id


def join(p: Seat, room: str) -> None:
    p.page.click(f".room-row[data-room='{room}'] button:has-text('Join')")
    p.page.wait_for_selector(f"section.room[data-room='{room}']")
    p.room_id = room


@pytest.mark.timeout(600)  # a whole game in two pages; slow on a loaded machine
def test_two_pages_play_a_whole_khan_game_with_the_mouse(browser: Any, server: str, artifacts: Any) -> None:
    ann, bob = Seat(browser, server, "Ann"), Seat(browser, server, "Bob")
    try:
        room = create_room(ann, 2, SEED)
        join(bob, room)
        for p in (ann, bob):
            p.page.wait_for_selector("section.room[data-status='playing'] svg.kh-map", state="attached")
        view = ann.view()
        board = view["public"]["board"]
        assert ann.page.locator("svg.kh-map .node").count() == len(board["nodes"])
        assert ann.page.locator("svg.kh-map .route").count() == len(board["edges"])
        assert ann.page.locator("svg.kh-actions .kh-space").count() == 23  # 20 action spaces, bag, black dice
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
            pub = view["public"]
            if not shot and pub["round"] >= 3 and any(pl["posts"] for pl in pub["players"]):
                if mover.page.locator("svg .target").count():
                    mover.page.screenshot(path=str(artifacts / "khan-board.png"), full_page=True)
                    shot = True
            move = choose(view, bots[view["you"]], rng)
            v = mover.v()
            hows[mover.gesture(move)] += 1
            verbs.add(move["a"])
            mover.wait_version_above(v)

        print(f"moves by gesture: {hows}; kinds of move: {sorted(verbs)}")  # shown with -s
        assert shot, "no mid-game screenshot was taken"
        assert hows["board"] > hows["button"], hows  # most moves are gestures on the board
        for verb in ("character", "goal", "space", "die", "step", "offer", "end"):
            assert verb in verbs, (verb, verbs)
        results = []
        for p in (ann, bob):
            p.page.wait_for_selector("[data-testid='result']")
            scores = [int(p.page.inner_text(f"[data-testid='result'] li[data-seat='{s}'] .score")) for s in (0, 1)]
            assert scores == p.view()["result"]["scores"]
            results.append((scores, p.page.inner_text("[data-testid='result'] .winners")))
            assert p.page.locator(".kh-breakdown tbody tr").count() == 2
            assert not p.errors, p.errors
            assert not p.notices(), p.notices()
        assert results[0] == results[1]
        # after the final scoring everybody's goal cards are public
        assert ann.page.locator(".kh-player:not(.me) .kh-goals li").count() == 1
        ann.page.screenshot(path=str(artifacts / "khan-final.png"), full_page=True)
    finally:
        ann.close()
        bob.close()


def test_goal_cards_are_private_keyboard_works_and_the_board_fits_a_phone(
    browser: Any, server: str, artifacts: Any
) -> None:
    ann = Seat(browser, server, "Cat")
    bob = Seat(browser, server, "Dan", viewport={"width": 390, "height": 844})
    try:
        room = create_room(ann, 2, 77)
        join(bob, room)
        for p in (ann, bob):
            p.page.wait_for_selector("section.room[data-status='playing'] svg.kh-map", state="attached")
        # the draft and the goal cards with the room's buttons, until the first turn
        while ann.view()["public"]["phase"] != "play":
            for p in (ann, bob):
                r = p.room()
                view = p.view()
                if r["myturn"] == "true" and r["pending"] != "true" and view.get("prompt"):
                    v = p.v()
                    p.gesture(view["prompt"]["options"][0])
                    p.wait_version_above(v)
        mine = [g["id"] for g in ann.view()["private"]["goals"]]
        theirs = [g["id"] for g in bob.view()["private"]["goals"]]
        assert ann.page.locator(".kh-player.me .kh-goals li").count() == 1
        assert not ann.page.locator(".kh-player:not(.me) .kh-goals").count()
        for gid in theirs:
            assert not ann.page.locator(f"[data-goal='{gid}']").count()
        for gid in mine:
            assert not bob.page.locator(f"[data-goal='{gid}']").count()

        page = ann.page

        def tab_to(selector: str, limit: int = 200) -> None:
            for _ in range(limit):
                page.keyboard.press("Tab")
                if page.evaluate("s => document.activeElement && document.activeElement.matches(s)", selector):
                    return
            raise AssertionError(f"{selector} is not reachable with Tab")

        ann.page.wait_for_function("() => document.querySelector('section.room').dataset.myturn === 'true'")
        v = ann.v()
        tab_to(".kh-space.target[data-space='khan']")
        page.keyboard.press("Enter")
        ann.wait_version_above(v)
        v = ann.v()
        tab_to(".kh-tray button.kh-die.target")
        page.keyboard.press("Enter")
        ann.wait_version_above(v)
        assert ann.view()["public"]["khan"][-1]["seat"] == 0

        overflow = bob.page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 0
        assert (bob.page.locator("svg.kh-map > title").text_content() or "").startswith("The map")
        assert bob.page.locator("svg.kh-map .node[aria-label]").count() >= 25
        bob.page.screenshot(path=str(artifacts / "khan-phone.png"), full_page=True)
        assert not ann.errors and not bob.errors
    finally:
        ann.close()
        bob.close()
