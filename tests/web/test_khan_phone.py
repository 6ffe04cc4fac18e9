"""Marco Polo II on a 390×844 phone, and the game words in every language, in Debian's Chromium.

The phone page shows one big panel at a time under tabs (action board, map, contracts, player boards) below
your dice; a prompt opens the tab it needs. A game is played by a desktop page and a phone page through
the board's gestures; the phone page must stay short (a bound on its height) and never scroll sideways.
Switching the language changes the game words on the board, in the options and in the prompt, and the rules
panel's texts.
"""

from __future__ import annotations

import re
import time
from typing import Any

import pytest

from tests.web.conftest import CHROMIUM

from .test_khan import Seat as KhanSeat
from .test_khan import create_room, join

pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(), reason="Chromium is not installed at /usr/bin/chromium (apt-get install -y chromium)"
)

PHONE = {"width": 390, "height": 844}


class Seat(KhanSeat):
    """Marco Polo II's gestures with room for a loaded machine (the sign-in and each step may be slow)."""

    timeout_ms = 30000


#: the phone page's height mid-game, the room's invite, chat, rules and log panels included (about 2,300 px, up to
#: about 2,750 px on your turn with the prompt sheet open;
#: it was about 4,200 px with every panel stacked)
MAX_PHONE_HEIGHT = 2800
#: which tab holds the gesture of an option (dice, offers and buttons are always in view)
TAB = {
    "space": "actions",
    "step": "map",
    "haul": "map",
    "post": "map",
    "city": "map",
    "marker": "map",
    "relocate": "map",
    "caravan": "map",
    "take": "contracts",
    "fulfil": "players",
}


def play(pages: list[Seat], phone: Seat, moves: int, check: Any = None) -> int:
    """Both pages make the first option of their prompt through the board, `moves` moves in all."""
    made = 0
    deadline = time.monotonic() + 300
    while made < moves and time.monotonic() < deadline:
        moved = False
        for p in pages:
            r = p.room()
            view = p.view()
            if r["myturn"] != "true" or r["pending"] == "true" or not view.get("prompt"):
                continue
            option = view["prompt"]["options"][0]
            tab = TAB.get(option["a"])
            if p is phone and tab:
                selected = p.page.get_attribute(f".kh-tab[data-tab='{tab}']", "aria-selected")
                if check:
                    check(option, tab, selected)
                if selected != "true":
                    p.page.click(f".kh-tab[data-tab='{tab}']")
            v = p.v()
            p.gesture(option)
            p.wait_version_above(v)
            made += 1
            moved = True
        if not moved:
            time.sleep(0.1)
    return made


@pytest.mark.timeout(600)
def test_the_phone_page_is_short_with_tabs_that_follow_the_prompt(browser: Any, server: str, artifacts: Any) -> None:
    ann = Seat(browser, server, "Cat")
    bob = Seat(browser, server, "Dan", viewport=PHONE)
    try:
        room = create_room(ann, 2, 77)
        join(bob, room)
        for p in (ann, bob):
            p.page.wait_for_selector("section.room[data-status='playing'] svg.kh-map", state="attached")
        assert bob.page.locator(".kh-tabs [role='tab']").count() == 4
        assert not ann.page.locator(".kh-tabs").count()  # a desktop shows every panel
        opened: list[tuple[str, str, str | None]] = []
        made = play([ann, bob], bob, 40, check=lambda o, tab, sel: opened.append((o["a"], tab, sel)))
        assert made == 40
        # the prompt opened the tab its first option needs, every time
        assert opened and all(sel == "true" for _, _, sel in opened), opened
        # exactly one panel is shown, and the page stays short and never scrolls sideways
        assert bob.page.locator(".kh-tabpanel:not([hidden])").count() == 1
        height, overflow = bob.page.evaluate(
            "() => [document.documentElement.scrollHeight, document.documentElement.scrollWidth - window.innerWidth]"
        )
        assert overflow <= 0
        assert height <= MAX_PHONE_HEIGHT, height
        bob.page.click(".kh-tab[data-tab='map']")
        assert bob.page.locator("#kh-panel-map svg.kh-map").is_visible()
        assert not bob.page.locator("#kh-panel-actions").is_visible()
        bob.page.click(".kh-tab[data-tab='actions']")
        bob.page.screenshot(path=str(artifacts / "khan-phone-tabs.png"), full_page=True)
        assert not ann.errors and not bob.errors
    finally:
        ann.close()
        bob.close()


def board_words(page: Any) -> dict[str, str]:
    return page.evaluate(
        """() => ({
          space: document.querySelector(".kh-space[data-space='khan'] .box-title").textContent,
          map: document.querySelector("svg.kh-map > title").textContent,
          beijing: document.querySelector("svg.kh-map .node[data-node='beijing']").getAttribute("aria-label"),
          options: [...document.querySelectorAll(".all-choices [data-move]")].map((e) => e.textContent).join(" | "),
          status: (document.querySelector(".prompt-bar") || document.body).textContent,
          rulesTitle: document.querySelector("[data-testid='rules'] h3").textContent,
          rules: document.querySelector("[data-testid='rules']").textContent,
        })"""
    )


@pytest.mark.timeout(600)
def test_switching_the_language_changes_the_game_words_on_the_board_and_in_the_options(
    browser: Any, server: str
) -> None:
    ann = Seat(browser, server, "Eve")
    bob = Seat(browser, server, "Fay")
    try:
        room = create_room(ann, 2, 91)
        join(bob, room)
        for p in (ann, bob):
            p.page.wait_for_selector("section.room[data-status='playing'] svg.kh-map", state="attached")
        play([ann, bob], bob, 6)
        deadline = time.monotonic() + 30  # the other page's patch may still be on its way
        while not any(p.room()["myturn"] == "true" for p in (ann, bob)) and time.monotonic() < deadline:
            time.sleep(0.1)
        mover = next(p for p in (ann, bob) if p.room()["myturn"] == "true")
        page = mover.page
        page.wait_for_selector(".all-choices [data-move]", state="attached")
        en = board_words(page)
        assert en["space"] == "Khan's favor" and en["map"].startswith("The map")
        assert en["rulesTitle"] == "A turn" and "Guild seals" in en["rules"]
        seen = {"en": en}
        for code, favor, city, turn in (
            ("es", "El favor del Khan", "Beijing", "Un turno"),
            ("hu", "A kán kegye", "Peking", "Egy kör"),
            ("it", "Favore del Khan", "Pechino", "Un turno"),
            ("fi", "Kaanin suosio", "Peking", "Vuoro"),
        ):
            mover.set_language(code)
            words = board_words(page)
            assert words["space"] == favor, (code, words["space"])
            assert words["beijing"].startswith(city), (code, words["beijing"])
            assert words["rulesTitle"] == turn, (code, words["rulesTitle"])  # the rules panel follows too
            for part in ("map", "options", "status", "rules"):
                assert words[part] != en[part], (code, part)
                assert not re.search(r"\bw\.[a-z]+\.", words[part]), (code, part, words[part])  # no key shown
            seen[code] = words
        # every language says the options differently
        assert len({w["options"] for w in seen.values()}) == 5
        mover.set_language("en")
        assert board_words(page)["space"] == "Khan's favor"
        assert not ann.errors and not bob.errors
    finally:
        ann.close()
        bob.close()
