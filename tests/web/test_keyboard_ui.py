"""Keyboard play: few key presses a decision, the focus on the new question, the prompt bar first, in Chromium.

Views of a seeded game (tests/web/states.py) are drawn by a signed-in page whose `move` only records what would
be sent. For each game and a few one-decision steps (a card to draw, a wheel to spin, an action space, "End your
turn", "Done trading", "Pass"), the keys are counted the fewest way there is (Tab, Shift+Tab or the arrow keys from
where the new question put the focus) to the control of the wanted option, plus Enter: at most 6 (one Expedition
turn used to take 29 Tabs). After a move, the next question's first option has the focus (it used to fall back to
the top of the page), unless the chat's line is being typed. From the top of the room, Tab reaches the prompt bar
before anything on the board. In Expedition, Enter on a space whose figure has several ways to pay puts the focus on
the first card that can pay, and the cards that pay put it on Move.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.web.conftest import CHROMIUM

from .pages import BrowserSeat
from .states import SHOW_JS, seeded_views

pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(), reason="Chromium is not installed at /usr/bin/chromium (apt-get install -y chromium)"
)

MAX_KEYS = 6
KEYS = ["Tab", "Shift+Tab", "ArrowRight", "ArrowLeft", "ArrowDown", "ArrowUp"]
#: game -> [(the step's option kinds, the wanted control: a selector and which match, the wanted option's kind)]
CASES: dict[str, list[tuple[set[str], tuple[str, int], str]]] = {
    "expedition": [
        ({"draw"}, ("#draw-pile", 0), "draw"),
        ({"move", "pass"}, (".prompt-bar button.end-turn", 0), "pass"),
    ],
    "classic": [
        ({"spin"}, ("[data-board] .wheel.target", 1), "spin"),
        ({"buy", "done"}, (".prompt-bar button.end-turn", 0), "done"),
    ],
    "voyages": [
        ({"bag", "space"}, ("[data-board] .vy-space.target", 2), "space"),
        ({"bag", "end"}, (".prompt-bar button.end-turn", 0), "end"),
    ],
    "khan": [
        ({"adjust", "bag", "black", "reroll", "space"}, ("[data-board] .kh-space.target", 2), "space"),
        ({"bag", "end", "reroll"}, (".prompt-bar button.end-turn", 0), "end"),
    ],
}

STUB_JS = """() => {
  window.sentMoves = [];
  window.marcopolo.move = (room, move) => { window.sentMoves.push(move); };
}"""
#: draw `view` as a new question (another view first, so the page sees the question change); whether the wanted
#: control is there (after the redraws the store's changes asked for)
RESET_JS = """async ([other, view, v, sel, nth]) => {
  const app = window.marcopolo;
  app.store.snapshot({ room: other.room, v, state: other });
  app.draw();
  app.store.snapshot({ room: view.room, v: v + 1, state: view });
  app.draw();
  await new Promise((done) => setTimeout(done, 20));
  return Boolean(document.querySelectorAll(sel)[nth]);
}"""
#: draw a view as the room's version v
DRAW_JS = """([view, v]) => {
  window.marcopolo.store.snapshot({ room: view.room, v, state: view });
  window.marcopolo.draw();
}"""
#: where the focus is: in the prompt bar, on the board, or elsewhere
WHERE_JS = """() => {
  const el = document.activeElement;
  return el.closest(".prompt-bar") ? "bar" : el.closest("[data-board]") ? "board" : `other: ${el.tagName}`;
}"""
AT_JS = """([sel, nth]) => {
  const el = document.activeElement;
  return { wanted: el === document.querySelectorAll(sel)[nth], key: el && (el.getAttribute("data-key") || el.tagName) };
}"""


def first_view(game: str, kinds: set[str]) -> tuple[dict[str, Any], dict[str, Any]]:
    """The first view of the seeded game whose options are of exactly these kinds, and the game's last view."""
    every = [view for _, view in seeded_views(game, room="keys")]
    found = next(v for v in every if v["prompt"] and {o["a"] for o in v["prompt"]["options"]} == kinds)
    return found, every[-1]


class Keys:
    """Draws a question afresh (a new version each time) and presses keys on the page."""

    def __init__(self, seat: BrowserSeat, other: dict[str, Any], view: dict[str, Any], wanted: tuple[str, int]):
        self.page, self.other, self.view, self.wanted = seat.page, other, view, wanted
        self.v = 10

    def reset(self) -> None:
        self.v += 2
        assert self.page.evaluate(RESET_JS, [self.other, self.view, self.v, *self.wanted]), f"no {self.wanted}"

    def at_wanted(self) -> bool:
        return bool(self.page.evaluate(AT_JS, list(self.wanted))["wanted"])

    def fewest(self) -> tuple[int, str]:
        """The fewest presses of one key (any of KEYS) from the new question's focus to the wanted control."""
        best: tuple[int, str] | None = None
        for key in KEYS:
            self.reset()
            for presses in range(MAX_KEYS):
                if self.at_wanted():
                    if best is None or presses < best[0]:
                        best = (presses, key)
                    break
                self.page.keyboard.press(key)
        assert best is not None, f"{self.wanted} is more than {MAX_KEYS - 1} presses of any one key away"
        return best


@pytest.mark.timeout(300)
@pytest.mark.parametrize("game", list(CASES))
def test_a_one_decision_step_takes_at_most_six_keys_and_the_next_question_gets_the_focus(
    browser: Any, server: str, game: str
) -> None:
    seat = BrowserSeat(browser, server, "Kay")
    try:
        page = seat.page
        for kinds, wanted, kind in CASES[game]:
            view, end = first_view(game, kinds)
            page.evaluate(SHOW_JS, [view["room"], 1, end])  # the room page (its first draw focuses <main>)
            page.evaluate(STUB_JS)
            at = Keys(seat, end, view, wanted)
            keys, key = at.fewest()
            # once more, the fewest way, then Enter: the wanted option is what the page sends
            at.reset()
            for _ in range(keys):
                page.keyboard.press(key)
            assert at.at_wanted()
            page.keyboard.press("Enter")
            sent = page.evaluate("() => window.sentMoves")
            if not sent and page.locator(".kh-chooser button, .vy-chooser button").count():
                page.keyboard.press("Enter")  # a control that stands for several options: its short list
                keys += 1
                sent = page.evaluate("() => window.sentMoves")
            assert sent and sent[-1]["a"] == kind and sent[-1] in view["prompt"]["options"], sent
            assert keys + 1 <= MAX_KEYS, f"{game} {sorted(kinds)}: {keys + 1} keys"
            page.evaluate("() => { window.sentMoves = []; }")
        assert not seat.errors
    finally:
        seat.close()


@pytest.mark.parametrize("game", list(CASES))
def test_after_a_move_the_next_question_has_the_focus_and_the_prompt_bar_comes_first(
    browser: Any, server: str, game: str
) -> None:
    every = [view for _, view in seeded_views(game, room="next")]
    asking = [v for v in every if v["prompt"]]
    seat = BrowserSeat(browser, server, "Kay")
    try:
        page = seat.page
        page.evaluate(SHOW_JS, ["next", 1, every[-1]])
        page.evaluate(STUB_JS)
        # ten questions in a row: each one's first option has the focus (not <main>, not the top of the page)
        for v, view in enumerate(asking[:10], start=2):
            page.evaluate(DRAW_JS, [view, v])
            at = page.evaluate(WHERE_JS)
            assert at in ("bar", "board"), f"{game}: question {v} left the focus on {at}"
        # a page played with the mouse is not scrolled by a new question (the focus still moves)
        page.click("section.room h1")
        page.evaluate("() => window.scrollTo(0, 0)")
        page.evaluate(DRAW_JS, [asking[12], 30])
        assert page.evaluate("() => window.scrollY") == 0
        assert page.evaluate(WHERE_JS) in ("bar", "board")
        # typing in the chat keeps the focus there when a new question comes
        page.fill(".chat input[type='text'], .chat input:not([type])", "hello")
        page.focus(".chat input[type='text'], .chat input:not([type])")
        page.evaluate(DRAW_JS, [asking[10], 40])
        assert page.evaluate("() => document.activeElement.tagName") == "INPUT"
        # from the room's first link, Tab reaches the prompt bar before any control of the board
        page.evaluate(DRAW_JS, [asking[11], 41])
        page.focus("section.room a.back")
        for _ in range(30):
            page.keyboard.press("Tab")
            where = page.evaluate(WHERE_JS)
            if where in ("bar", "board"):
                break
        assert where == "bar", f"{game}: the board came first in the Tab order"
        assert not seat.errors, json.dumps(seat.errors)
    finally:
        seat.close()


def test_expedition_after_picking_a_board_space_the_focus_is_on_the_first_card_to_pay_with(
    browser: Any, server: str
) -> None:
    """Enter on a highlighted space whose figure has several ways to pay chooses that figure: the question is now
    which cards pay, so the focus goes to the first card of the hand that can pay (not left on the space, not the
    top of the page); Enter on the cards that pay puts it on Move, and Enter there sends one of the prompt's moves."""
    every = [view for _, view in seeded_views("expedition", room="space")]

    def ways(view: dict[str, Any]) -> dict[int, int]:
        count: dict[int, int] = {}
        for o in view["prompt"]["options"] if view["prompt"] else []:
            if o["a"] == "move":
                count[o["fig"]] = count.get(o["fig"], 0) + 1
        return count

    view = next(v for v in every if ways(v) and min(ways(v).values()) > 1 and len(ways(v)) == 1)
    seat = BrowserSeat(browser, server, "Kay")
    try:
        page = seat.page
        page.evaluate(SHOW_JS, ["space", 1, every[-1]])
        page.evaluate(STUB_JS)
        page.evaluate(DRAW_JS, [view, 2])
        at = page.evaluate(
            "() => ({ where: document.activeElement.closest('[data-board]') ? 'board' : 'other',"
            " target: document.activeElement.classList.contains('target') })"
        )
        assert at == {"where": "board", "target": True}, at  # the new question's first option: the space
        page.keyboard.press("Enter")
        focus = page.evaluate(
            "() => { const el = document.activeElement; return { tag: el.tagName, cls: el.getAttribute('class') || '',"
            " card: el.dataset.card || null, first: el === document.querySelector('.hand button.card.usable') }; }"
        )
        assert focus["card"] and "usable" in focus["cls"] and focus["first"], focus
        assert not page.evaluate("() => window.sentMoves")  # nothing sent yet: the cards are still to choose
        # Enter on a card, Tab to the next card that can pay, …: once they pay, the focus is on Move
        for _ in range(6):
            page.keyboard.press("Enter")
            if page.evaluate("() => document.activeElement.id") == "confirm-move":
                break
            for _ in range(12):
                page.keyboard.press("Tab")
                if page.evaluate(
                    "() => document.activeElement.matches('.hand button.card.usable[aria-pressed=\"false\"]')"
                ):
                    break
        assert page.evaluate("() => document.activeElement.id") == "confirm-move"
        page.keyboard.press("Enter")
        sent = page.evaluate("() => window.sentMoves")
        assert len(sent) == 1 and sent[0] in view["prompt"]["options"], sent
        assert not seat.errors
    finally:
        seat.close()
