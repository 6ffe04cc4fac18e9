"""Undo within a turn (v1.2) in Debian's Chromium, for every game whose engine offers it (`offers_undo`; the others
are skipped): a player makes choices in the page (the prompt bar's list of every choice) against a random
opponent (a Python client) until the prompt offers Undo, then takes the turn back with the Undo button (and, on a
desktop, a second time with the `u` key, which a text field keeps for itself, after an undo sent from a view a
version behind was refused `stale` and the page synced). Every undo is sent with `v`. After each undo the prompt
and the board are those of the turn's start, the button is gone and the log says "NAME took back their move.". The
button is in view without scrolling, on a phone too (the prompt bar is a bottom sheet there). The rooms are
seeded and the choices drawn from a seeded random generator, so no test depends on one exact position: they
play until an undo is offered.
"""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

import msgpack
import pytest

from server.games import all_games
from tests.web.conftest import CHROMIUM, Bot

from .pages import BrowserSeat, as_json

pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(), reason="Chromium is not installed at /usr/bin/chromium (apt-get install -y chromium)"
)

GAMES = ("expedition", "classic", "voyages", "khan")
SIZES = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}
SEEDS = {"expedition": 11, "classic": 12, "voyages": 13, "khan": 14}
#: at most this many of the player's own moves before an undo must have been offered
MOVES = 150
#: what an undo may change besides the turn: the log, the clock, presence
SKIP_SEAT = {"connected", "clock"}

ENTRY_JS = """room => {
  const e = window.marcopolo.store.get(room);
  const r = document.querySelector('section.room');
  return e && { v: e.v, view: e.view, pending: window.marcopolo.pending.has(room), shown: r ? +r.dataset.v : -1,
                stale: window.marcopolo.stale };
}"""
#: the Undo button's box, and whether it is what a tap at its centre reaches (nothing covers it)
UNDO_BOX_JS = """() => {
  const b = document.querySelector("[data-testid='undo']");
  if (!b) return null;
  const r = b.getBoundingClientRect();
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return { top: r.top, bottom: r.bottom, left: r.left, right: r.right, height: window.innerHeight,
           width: window.innerWidth, reached: !!hit && b.contains(hit) };
}"""


def comparable(view: dict[str, Any]) -> dict[str, Any]:
    """A view without what an undo may change (the public log, the clock, presence)."""
    out = {k: v for k, v in view.items() if k != "clock"}
    if isinstance(out.get("public"), dict):
        out["public"] = {k: v for k, v in out["public"].items() if k != "log"}
    out["seats"] = [{k: v for k, v in s.items() if k not in SKIP_SEAT} for s in out.get("seats") or []]
    if isinstance(out.get("prompt"), dict):
        out["prompt"] = {k: v for k, v in out["prompt"].items() if k != "undo"}
    return out


class Player(BrowserSeat):
    """The page that plays and takes its turn back; `undos` are the `undo` requests it sent."""

    timeout_ms = 30000

    def __init__(self, browser: Any, base: str, name: str, viewport: dict[str, int]) -> None:
        super().__init__(browser, base, name, viewport)
        self.undos: list[dict[str, Any]] = []

        def on_ws(ws: Any) -> None:
            def frame(payload: Any) -> None:
                msg = msgpack.unpackb(payload) if isinstance(payload, bytes | bytearray) else None
                if isinstance(msg, dict) and msg.get("t") == "undo":
                    self.undos.append(msg)

            ws.on("framesent", frame)

        self.page.on("websocket", on_ws)
        self.page.reload()  # the socket again, now watched (the name is kept)
        self.page.wait_for_selector(f"text=Hello, {name}")

    def entry(self) -> dict[str, Any]:
        data: dict[str, Any] | None = self.page.evaluate(ENTRY_JS, self.room_id)
        assert data is not None, "the room is not in the page's store"
        return data

    def create(self, game: str, seed: int) -> str:
        page = self.page
        page.select_option("#game", game)
        page.select_option("#seats", "2")
        page.click("summary:has-text('Test servers')")
        page.fill("#seed", str(seed))
        page.click("button:has-text('Create and sit down')")
        page.wait_for_selector(f"section.room.game-{game}[data-you='0']")
        self.room_id = self.room()["room"]
        return self.room_id

    def my_turn(self, deadline: float) -> dict[str, Any]:
        """Wait until the page shows this player's prompt (rendered, nothing in flight); the store's entry."""
        while time.monotonic() < deadline:
            e = self.entry()
            assert e["view"].get("result") is None, "the game ended before an undo was offered"
            if e["view"].get("prompt") and not e["pending"] and e["shown"] == e["v"]:
                return e
            time.sleep(0.05)
        raise AssertionError("no prompt for the player in time")

    def choose(self, move: dict[str, Any]) -> None:
        """Make `move` with its button in the bar's list of every choice (opened once; it stays open)."""
        page = self.page
        if not page.locator("details.all-choices[open]").count():
            page.click("summary[data-key='all-choices']")
        page.click(f".all-choices [data-move='{as_json(move)}']")

    def wait_changed(self, v: int) -> dict[str, Any]:
        """Wait for a version after `v`, rendered, with nothing in flight; the store's entry."""
        self.page.wait_for_function(
            """([room, v]) => {
                 const e = window.marcopolo.store.get(room);
                 const r = document.querySelector('section.room');
                 return e && e.v > v && !window.marcopolo.pending.has(room) && r && +r.dataset.v === e.v;
               }""",
            arg=[self.room_id, v],
        )
        return self.entry()

    def play_until_undo(self, rng: random.Random) -> tuple[dict[str, Any], dict[str, Any]]:
        """Random choices until the prompt offers Undo; (the view where the turn began, the entry now)."""
        deadline = time.monotonic() + 240
        start: dict[str, Any] | None = None
        for _ in range(MOVES):
            e = self.my_turn(deadline)
            prompt = e["view"]["prompt"]
            if prompt.get("undo"):
                assert start is not None, "undo offered before any choice of this turn"
                return start, e
            assert not self.page.locator("[data-testid='undo']").count(), "an Undo button the prompt does not offer"
            before = e["view"]
            self.choose(rng.choice(prompt["options"]))
            after = self.wait_changed(e["v"])
            moved = after["stale"] == e["stale"] and after["v"] == e["v"] + 1  # nobody else acted in between
            start = before if moved and (after["view"].get("prompt") or {}).get("undo") else None
        raise AssertionError(f"no undo offered in {MOVES} moves")

    def log_lines(self) -> list[str]:
        return list(self.page.eval_on_selector_all(".log .events li", "els => els.map(e => e.textContent)"))

    def undo_in_view(self) -> dict[str, Any]:
        box: dict[str, Any] | None = self.page.evaluate(UNDO_BOX_JS)
        assert box is not None, "no Undo button"
        return box


def check_undone(p: Player, start: dict[str, Any], before: dict[str, Any], undos: int) -> None:
    """After an undo: the turn's first view again (but for the log), no Undo, the log line (`undos` of them)."""
    after = p.wait_changed(before["v"])
    assert after["v"] == before["v"] + 1
    assert comparable(after["view"]) == comparable(start), "the view is not the turn's start"
    assert not after["view"]["prompt"].get("undo"), "undo offered again at the turn's start"
    assert not p.page.locator("[data-testid='undo']").count()
    log = after["view"]["public"]["log"]
    assert log[-1]["ev"] == "undo" and log[-1]["seat"] == after["view"]["you"]
    said = [line for line in p.log_lines() if line == f"{p.name} took back their move."]
    assert len(said) == undos, p.log_lines()[:5]
    assert not p.notices(), p.notices()


@pytest.mark.timeout(600)
@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("gid", GAMES)
def test_a_player_takes_back_a_turn_with_the_undo_button(
    browser: Any, server: str, artifacts: Path, gid: str, size: str
) -> None:
    if not all_games()[gid].offers_undo:
        pytest.skip(f"the {gid} engine does not offer undo (offers_undo is False)")
    name = f"{'Ann' if size == 'desktop' else 'Pia'}{gid[:2].title()}"
    p = Player(browser, server, name, viewport=SIZES[size])
    bot: Bot | None = None
    try:
        room = p.create(gid, SEEDS[gid])
        bot = Bot(server.replace("http://", "ws://") + "/ws", room, name="Otto", seed=5).start()
        assert bot.joined.wait(15)
        p.page.wait_for_selector("section.room[data-status='playing']")
        rng = random.Random(SEEDS[gid])

        start, offered = p.play_until_undo(rng)
        button = p.page.locator("[data-testid='undo']")
        assert button.is_visible() and button.is_enabled()
        assert "U" in (button.get_attribute("title") or "") and button.get_attribute("aria-keyshortcuts")
        # in view where it is, without scrolling: the sheet at the bottom of a phone, the column on a desktop
        p.page.evaluate("() => window.scrollTo(0, 0)")
        box = p.undo_in_view()
        assert 0 <= box["top"] and box["bottom"] <= box["height"] and box["right"] <= box["width"], box
        assert box["reached"], "something covers the Undo button"
        p.page.screenshot(path=str(artifacts / f"undo-{gid}-{size}-offered.png"))
        button.click()
        check_undone(p, start, offered, 1)
        p.page.screenshot(path=str(artifacts / f"undo-{gid}-{size}-undone.png"))
        p.page.locator(".log").scroll_into_view_if_needed()
        p.page.locator(".log").screenshot(path=str(artifacts / f"undo-{gid}-{size}-log.png"))

        assert [m["v"] for m in p.undos] == [offered["v"]]  # with the version of the view held, like a move
        if size == "desktop":
            # stale: the page believes it is a version behind; the server refuses, the page syncs, Undo is back
            start, offered = p.play_until_undo(rng)
            stale = offered["stale"]
            p.page.evaluate("room => { window.marcopolo.store.get(room).v -= 1; }", room)
            p.page.click("[data-testid='undo']")
            p.page.wait_for_function("n => window.marcopolo.stale === n + 1", arg=stale)
            p.page.wait_for_function(
                "v => +document.querySelector('section.room').dataset.v === v && !window.marcopolo.pending.size",
                arg=offered["v"],
            )
            assert comparable(p.entry()["view"]) == comparable(offered["view"]) and p.entry()["view"]["prompt"]["undo"]
            assert p.page.locator("[data-testid='undo']").is_enabled()
            assert p.undos[-1]["v"] == offered["v"] - 1
            # the key: not while typing in a text field, then on the page
            field = p.page.locator(".chat-input").first
            field.click()
            p.page.keyboard.press("u")
            time.sleep(0.3)
            assert p.entry()["v"] == offered["v"] and field.input_value() == "u"
            field.fill("")
            p.page.locator("section.room h1").click()  # the focus leaves the field
            p.page.keyboard.press("u")
            check_undone(p, start, offered, 2)
            assert p.undos[-1]["v"] == offered["v"] and len(p.undos) == 3
        assert not p.errors, p.errors
        assert bot.error is None, bot.error
    finally:
        if bot is not None:
            bot.stop()
        p.close()
