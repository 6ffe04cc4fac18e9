"""What players feel, in Debian's Chromium, for every game: a whole game played by two pages (a desktop of
1440×900 and a phone of 390×844) through the prompt bar's option buttons.

At every step: the prompt bar's status line is inside the mover's viewport, no id (`contract-12`, `offer-1`,
`city-card-3`, …) is in any visible text, and the phone page never scrolls sideways. Screenshots of the start,
the middle and the end at both sizes go to tests/artifacts/. The log holds the whole game (the server's view
keeps its last events only). Also: the language picker changes the visible text; error codes read as
sentences; the rules panel and the house-components badge; moves carry `v` and a stale one resyncs.
"""

from __future__ import annotations

import contextlib
import random
import re
import time
from typing import Any

import msgpack
import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from clients.client import Client
from server.games.classic.bots import GreedyBot as ClassicBot
from server.games.expedition.bots import GreedyBot as ExpeditionBot
from server.games.khan.bots import GreedyBot as KhanBot
from server.games.voyages.bots import GreedyBot as VoyagesBot
from tests.web.conftest import CHROMIUM, run_async

from .pages import BrowserSeat, as_json

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="Chromium is not installed at /usr/bin/chromium")

DESKTOP = {"width": 1440, "height": 900}
PHONE = {"width": 390, "height": 844}
ID_RE = re.compile(r"\b(?:contract-\d+|starter-\d+|offer-\d|city-card-\d+|goal-\d+|outpost-\d+|marker-\d+|route-\d+)")
BOTS: dict[str, Any] = {"expedition": ExpeditionBot, "classic": ClassicBot, "voyages": VoyagesBot, "khan": KhanBot}
OPTIONS: dict[str, dict[str, Any]] = {"classic": {"max_rounds": 12}}
HOUSE = {"expedition": True, "classic": True, "voyages": False, "khan": True}

BAR_JS = """() => {
  const s = document.querySelector('.prompt-bar .status');
  if (!s) return null;
  const r = s.getBoundingClientRect();
  return {top: r.top, bottom: r.bottom, left: r.left, right: r.right, h: innerHeight, w: innerWidth};
}"""
OVERFLOW_JS = "() => document.documentElement.scrollWidth - window.innerWidth"
TEXT_JS = "() => document.body.innerText"


def make_room(server: str, game: str, seed: int) -> str:
    """A public 2-seat room created by a client that does not sit down."""

    async def create() -> str:
        async with Client(server.replace("http://", "ws://") + "/ws") as host:
            await host.hello("Host")
            return await host.create(game, 2, {"seed": seed, **OPTIONS.get(game, {})})

    return run_async(create)


def join(p: BrowserSeat, room: str) -> None:
    p.page.click(f".room-row[data-room='{room}'] button:has-text('Join')")
    p.wait_room(room)
    p.room_id = room


def bar_in_view(p: BrowserSeat) -> None:
    box = p.page.evaluate(BAR_JS)
    assert box is not None, "no prompt bar"
    assert box["top"] >= 0 and box["bottom"] <= box["h"], f"the prompt bar's status is outside the viewport: {box}"
    assert box["left"] >= 0 and box["right"] <= box["w"], box


def no_ids(p: BrowserSeat) -> None:
    found = ID_RE.findall(p.page.evaluate(TEXT_JS))
    assert not found, f"ids in the visible text: {sorted(set(found))}"


def click_option(p: BrowserSeat, move: dict[str, Any]) -> None:
    """Click the option in the prompt bar's list of every choice (opened once: it stays open)."""
    page = p.page
    if not page.locator(".prompt-bar details.all-choices[open]").count():
        page.click(".prompt-bar .all-choices summary")
    page.click(f".prompt-bar .all-choices [data-move='{as_json(move)}']")


@pytest.mark.timeout(600)  # a whole game in two pages; slow on a loaded machine
@pytest.mark.parametrize("game", ["expedition", "classic", "voyages", "khan"])
def test_a_whole_game_keeps_the_prompt_bar_in_view_shows_no_ids_and_fits_a_phone(
    browser: Any, server: str, artifacts: Any, game: str
) -> None:
    desk = BrowserSeat(browser, server, "Ann", viewport=DESKTOP)
    phone = BrowserSeat(browser, server, "Bob", viewport=PHONE)
    try:
        room = make_room(server, game, 31)
        for p in (desk, phone):
            p.page.wait_for_selector(f".room-row[data-room='{room}']")
            join(p, room)
        for p in (desk, phone):
            p.page.wait_for_selector("section.room[data-status='playing']")
        bots = {0: BOTS[game](1), 1: BOTS[game](2)}
        rng = random.Random(3)
        steps = 0
        shots = {"start": False, "middle": False}
        start = time.monotonic()
        while True:
            assert time.monotonic() - start < 450, f"the {game} game did not finish in time ({steps} moves)"
            rooms = [(p, p.room()) for p in (desk, phone)]
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
            if not shots["start"]:
                for p, size in ((desk, "desktop"), (phone, "phone")):
                    p.page.screenshot(path=str(artifacts / f"{game}-start-{size}.png"))
                shots["start"] = True
            if not shots["middle"] and steps == 60:
                for p, size in ((desk, "desktop"), (phone, "phone")):
                    p.page.screenshot(path=str(artifacts / f"{game}-middle-{size}.png"))
                shots["middle"] = True
            bar_in_view(mover)
            no_ids(mover)
            if mover is phone:
                assert phone.page.evaluate(OVERFLOW_JS) <= 0, "the phone page scrolls sideways"
            options = view["prompt"]["options"]
            move = bots[view["you"]].choose(view["prompt"], view)
            if rng.random() < 0.05:
                move = rng.choice(options)
            v = mover.v()
            click_option(mover, move)
            mover.wait_version_above(v)
            steps += 1
        for p, size in ((desk, "desktop"), (phone, "phone")):
            p.page.wait_for_selector("[data-testid='result']")
            no_ids(p)
            bar_in_view(p)
            p.page.screenshot(path=str(artifacts / f"{game}-end-{size}.png"), full_page=True)
            assert not p.errors, p.errors
            assert not p.notices(), p.notices()
        assert phone.page.evaluate(OVERFLOW_JS) <= 0
        # the whole log: every event from the first, though the view keeps only the last few
        numbers = desk.page.eval_on_selector_all(".log .events li", "els => els.map(e => e.value)")
        served = [ev["n"] for ev in desk.view()["public"].get("log", [])]
        assert numbers == list(range(max(served), 0, -1)), (numbers[:5], numbers[-5:])
        assert len(numbers) > len(served) or steps < 20, (len(numbers), len(served))
        # the house-components badge where the data is a reconstruction
        assert desk.page.locator(".house-badge").count() == (1 if HOUSE[game] else 0)
        if HOUSE[game]:
            desk.page.click(".house-badge")
            assert "reconstruction" in desk.page.inner_text(".house-note")
        desk.page.click("[data-testid='rules'] summary")
        assert desk.page.locator("[data-testid='rules'] dt").count() >= 3
        print(f"{game}: {steps} moves by the prompt bar; {len(numbers)} log events shown, {len(served)} served")
    finally:
        desk.close()
        phone.close()


def test_the_language_picker_changes_the_visible_text_and_is_kept(browser: Any, server: str) -> None:
    p = BrowserSeat(browser, server, "Eva")
    try:
        page = p.page
        english = page.inner_text("main")
        assert "Open rooms" in english and "New room" in english
        page.select_option("#lang-select", "fi")
        page.wait_for_selector("text=Avoimet huoneet")
        finnish = page.inner_text("main")
        assert "Uusi huone" in finnish and "New room" not in finnish
        assert page.evaluate("() => document.documentElement.lang") == "fi"
        for code, words in (("hu", "Nyitott szobák"), ("it", "Stanze aperte"), ("es", "Salas abiertas")):
            page.select_option("#lang-select", code)
            page.wait_for_selector(f"text={words}")
        page.reload()
        page.wait_for_selector("text=Salas abiertas")  # the choice survives a reload
        page.select_option("#lang-select", "en")
        page.wait_for_selector("text=Open rooms")
    finally:
        p.close()


def test_a_refused_move_reads_as_a_sentence_and_the_rules_name_the_characters(browser: Any, server: str) -> None:
    p = BrowserSeat(browser, server, "Fay")
    q = BrowserSeat(browser, server, "Gus")
    try:
        room = make_room(server, "khan", 8)
        for s in (p, q):
            s.page.wait_for_selector(f".room-row[data-room='{room}']")
            join(s, room)
        p.page.wait_for_selector("section.room[data-status='playing']")
        mover = next(s for s in (p, q) if s.page.locator("section.room[data-myturn='true']").count() or s is q)
        mover.page.wait_for_selector("section.room[data-myturn='true']")
        mover.page.evaluate("room => window.marcopolo.move(room, {a: 'no such move'})", room)
        mover.page.wait_for_selector(".notice.error")
        notice = mover.notices()[0]
        assert "That is not one of your choices now." in notice
        assert "illegal_move" not in notice
        mover.page.click("[data-testid='rules'] summary")
        names = [c["name"] for c in mover.view()["public"]["board"]["characters"].values()]
        terms = mover.page.eval_on_selector_all("[data-testid='rules'] dt", "els => els.map(e => e.textContent)")
        assert set(names) <= set(terms)
        no_ids(mover)
    finally:
        p.close()
        q.close()


def test_moves_carry_the_version_and_a_stale_move_resyncs_the_page(browser: Any, server: str) -> None:
    p = BrowserSeat(browser, server, "Hal")
    q = BrowserSeat(browser, server, "Ida")
    sent: list[dict[str, Any]] = []

    def on_ws(ws: Any) -> None:
        def frame(payload: Any) -> None:
            if isinstance(payload, bytes | bytearray):
                msg = msgpack.unpackb(payload)
                if isinstance(msg, dict) and msg.get("t") == "move":
                    sent.append(msg)

        ws.on("framesent", frame)

    p.page.on("websocket", on_ws)
    p.page.reload()
    try:
        room = make_room(server, "expedition", 9)
        for s in (p, q):
            s.page.wait_for_selector(f".room-row[data-room='{room}']")
            join(s, room)
        p.page.wait_for_selector("section.room[data-status='playing'][data-myturn='true']")
        v = p.v()
        options = p.view()["prompt"]["options"]
        # the page believes it is one version behind: the server answers `stale`, the page asks for a snapshot
        p.page.evaluate("room => { window.marcopolo.store.get(room).v -= 1; }", room)
        p.page.evaluate("([room, m]) => window.marcopolo.move(room, m)", [room, options[0]])
        p.page.wait_for_function("() => window.marcopolo.stale === 1")
        p.page.wait_for_function("v => +document.querySelector('section.room').dataset.v === v", arg=v)
        assert p.view()["prompt"]["options"] == options  # nothing was played; the fresh view is shown
        click_option(p, options[0])
        p.wait_version_above(v)
        assert sent and all(isinstance(m.get("v"), int) for m in sent), sent
        assert sent[-1]["v"] == v
    finally:
        p.close()
        q.close()


PAWN_JS = """() => {
  const box = document.querySelector('.map.scroll');
  const pawn = document.querySelector('.map.scroll .pawn.me');
  if (!box || !pawn) return null;
  const b = box.getBoundingClientRect(), p = pawn.getBoundingClientRect();
  const sheet = document.querySelector('.prompt-bar.sheet');
  const bottom = sheet ? sheet.getBoundingClientRect().top : innerHeight;
  return {centre: (p.left + p.right) / 2, left: b.left, right: b.right, scrolls: box.scrollWidth > box.clientWidth,
          top: p.top, bottom: p.bottom, visibleBottom: bottom};
}"""


IN_VIEW = "w.left <= w.centre && w.centre <= w.right && 0 <= w.top && w.bottom <= w.visibleBottom"


def test_the_classic_map_on_a_phone_follows_the_players_pawn(browser: Any, server: str, artifacts: Any) -> None:
    desk = BrowserSeat(browser, server, "Jon", viewport=DESKTOP)
    phone = BrowserSeat(browser, server, "Kim", viewport=PHONE)
    try:
        room = make_room(server, "classic", 44)
        for p in (desk, phone):
            p.page.wait_for_selector(f".room-row[data-room='{room}']")
            join(p, room)
        phone.page.wait_for_selector("section.room[data-status='playing'] .map.scroll .pawn.me")
        bots = {0: ClassicBot(1), 1: ClassicBot(2)}
        seen: set[str] = set()
        checked = 0
        start = time.monotonic()
        while checked < 6:
            assert time.monotonic() - start < 120, f"the pawn moved to only {len(seen)} places"
            rooms = [(p, p.room()) for p in (desk, phone)]
            if any(r["status"] == "finished" for _, r in rooms):
                break
            pawn = phone.view()["public"]["players"][int(phone.room()["you"])]["pawn"]
            if pawn not in seen:
                seen.add(pawn)
                with contextlib.suppress(PlaywrightTimeout):  # the scroll is set on a later frame
                    in_view = f"() => {{ const w = ({PAWN_JS})(); return w && {IN_VIEW}; }}"
                    phone.page.wait_for_function(in_view, timeout=3000)
                where = phone.page.evaluate(PAWN_JS)
                assert where is not None and where["scrolls"]
                assert where["left"] <= where["centre"] <= where["right"], (pawn, where)
                # and not under the prompt bar's sheet
                assert 0 <= where["top"] and where["bottom"] <= where["visibleBottom"], (pawn, where)
                checked += 1
            mover = next((p for p, r in rooms if r["myturn"] == "true" and r["pending"] != "true"), None)
            if mover is None:
                time.sleep(0.02)
                continue
            view = mover.view()
            if not view.get("prompt"):
                continue
            v = mover.v()
            click_option(mover, bots[view["you"]].choose(view["prompt"], view))
            mover.wait_version_above(v)
        assert checked >= 3, seen
        phone.page.screenshot(path=str(artifacts / "classic-phone-follows-pawn.png"))
    finally:
        desk.close()
        phone.close()
