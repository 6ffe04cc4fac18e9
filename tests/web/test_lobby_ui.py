"""The public-lobby parts of the browser client in Chromium: Play now, invite links, the turn clock's countdown,
chat as plain text, the replay viewer, the ratings page and the rematch.

The server runs with `--clock-scale 0.05` (a 60 s clock runs out in 3 s, a 10 s clock in half a second) and
fast server bots, so a game whose only person never moves is played to its end by the clock and the bots.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from clients.client import Client
from tests.web.conftest import CHROMIUM, run_async, running_server

from .pages import BrowserSeat

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="Chromium is not installed at /usr/bin/chromium")

SCALE = 0.05
re_bot = re.compile(r"^Bot \d+$")


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    """A server with fast clocks and bots (and no bot filling for quick matches, so two people meet)."""
    flags = ("--clock-scale", str(SCALE), "--bot-delay", "0.02", "--quick-fill-bots-after", "0")
    with running_server(*flags) as base:
        yield base


def ws(base: str) -> str:
    return base.replace("http://", "ws://") + "/ws"


def create_in_form(
    seat: BrowserSeat,
    *,
    game: str = "expedition",
    seats: int = 2,
    bots: int = 0,
    public: bool = True,
    turn_seconds: int | None = None,
    seed: int | None = None,
) -> str:
    """Create a room through the lobby's form; returns the room id the page lands in."""
    page = seat.page
    page.select_option("#game", game)
    page.select_option("#seats", str(seats))
    page.select_option("#bots", str(bots))
    if not public:
        page.uncheck("#public")
    if turn_seconds is not None:
        page.fill("#turn-seconds", str(turn_seconds))
    if seed is not None:
        page.click("summary[data-key='advanced']")
        page.fill("#seed", str(seed))
    page.click("button[data-key='create']")
    page.wait_for_selector("section.room[data-you='0']")
    seat.room_id = seat.room()["room"]
    return seat.room_id


def test_play_now_in_two_browsers_seats_both_in_one_room_and_the_game_starts(
    browser: Any, server: str, artifacts: Path
) -> None:
    ann, bob = BrowserSeat(browser, server, "Ann"), BrowserSeat(browser, server, "Bob")
    try:
        ann.page.select_option("select[data-key='quick-seats-voyages']", "2")
        ann.page.click("[data-testid='quick-voyages']")
        ann.page.wait_for_selector("section.room[data-you='0'][data-status='waiting']")
        room = ann.room()["room"]
        ann.page.screenshot(path=str(artifacts / "lobby-quick-waiting.png"))
        bob.page.select_option("select[data-key='quick-seats-voyages']", "2")
        bob.page.click("[data-testid='quick-voyages']")
        bob.page.wait_for_selector(f"section.room[data-room='{room}'][data-you='1']")
        for p in (ann, bob):
            p.room_id = room
            p.page.wait_for_selector(f"section.room[data-room='{room}'][data-status='playing']")
        # the room of a quick match has a clock: the countdown is drawn for the seat(s) to move
        ann.page.wait_for_selector("[data-testid='clock'] .clock-left[data-deadline]")
        deadline = ann.view()["clock"]["deadline"]
        shown = int(ann.page.get_attribute("[data-testid='clock'] .clock-left", "data-left") or "-1")
        assert 0 <= shown <= 120 and deadline > 0
        ann.page.screenshot(path=str(artifacts / "lobby-quick-playing.png"))
        assert not ann.errors and not bob.errors
    finally:
        ann.close()
        bob.close()


def test_an_invite_link_opened_in_a_fresh_browser_takes_the_free_seat_of_an_unlisted_room(
    browser: Any, server: str, artifacts: Path
) -> None:
    ann = BrowserSeat(browser, server, "Ann")
    cy_ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        ann.ctx.grant_permissions(["clipboard-read", "clipboard-write"], origin=server)
        room = create_in_form(ann, game="expedition", seats=2, public=False)
        link = ann.page.input_value("#invite-link")
        prefix = f"{server}/#/room/{room}?invite="
        assert link.startswith(prefix) and len(link) > len(prefix) + 10
        ann.page.click("[data-testid='invite-copy']")
        ann.page.wait_for_selector(".invite .copied")
        assert ann.page.evaluate("navigator.clipboard.readText()") == link
        ann.page.screenshot(path=str(artifacts / "lobby-invite.png"))
        # the room is not listed: another browser finds it only through the link
        cy = cy_ctx.new_page()
        cy.set_default_timeout(15000)
        cy.goto(link)
        cy.wait_for_selector("[data-testid='invited']")
        cy.fill("#name", "Cy")
        cy.click("button:has-text('Enter')")
        cy.wait_for_selector(f"section.room[data-room='{room}'][data-you=''] [data-testid='take-seat']")
        cy.screenshot(path=str(artifacts / "lobby-invite-take-seat.png"))
        cy.click("[data-testid='take-seat']")
        cy.wait_for_selector(f"section.room[data-room='{room}'][data-you='1'][data-status='playing']")
        ann.page.wait_for_selector(f"section.room[data-room='{room}'][data-status='playing']")
        assert "Cy" in (ann.page.text_content("ol.seats") or "")

        # without the invite the same room refuses a stranger
        async def stranger() -> str:
            async with Client(ws(server)) as c:
                await c.hello("Dan")
                try:
                    await c.join(room, spectate=True)
                except Exception as err:  # noqa: BLE001 - the refusal is what is checked
                    return str(getattr(err, "code", err))
                return "joined"

        assert run_async(stranger) == "forbidden"
    finally:
        ann.close()
        cy_ctx.close()


def test_a_public_room_link_shows_take_a_seat_to_a_new_browser(browser: Any, server: str) -> None:
    ann = BrowserSeat(browser, server, "Ann")
    eve = BrowserSeat(browser, server, "Eve")
    try:
        room = create_in_form(ann, game="classic", seats=2, public=True)
        link = ann.page.input_value("#invite-link")
        assert link == f"{server}/#/room/{room}"
        eve.page.goto(link)
        eve.page.click("[data-testid='take-seat']")
        eve.page.wait_for_selector(f"section.room[data-room='{room}'][data-you='1'][data-status='playing']")
    finally:
        ann.close()
        eve.close()


def test_the_countdown_runs_out_and_the_server_plays_the_late_seat(browser: Any, server: str, artifacts: Path) -> None:
    ann = BrowserSeat(browser, server, "Ann")
    try:
        create_in_form(ann, game="expedition", seats=2, bots=1, turn_seconds=60, seed=3)  # 60 s x 0.05 = 3 s
        page = ann.page
        page.wait_for_selector("section.room[data-myturn='true']", timeout=20000)
        page.wait_for_selector("[data-testid='clock'].yours .clock-left[data-deadline]")
        first = int(page.get_attribute(".clock-left", "data-left") or "-1")
        assert 1 <= first <= 3
        page.screenshot(path=str(artifacts / "lobby-clock.png"))
        before = ann.view()
        v0 = ann.v()
        # Ann never clicks: the clock runs out and the server plays her seat (her bot's move), then the bot's seat
        page.wait_for_function("v => +document.querySelector('section.room').dataset.v > v", arg=v0, timeout=15000)
        page.wait_for_function(
            "n => (window.marcopolo.store.get(document.querySelector('section.room').dataset.room).view.public.log"
            " || []).some(e => e.n > n)",
            arg=max([e["n"] for e in before["public"]["log"]] or [0]),
            timeout=15000,
        )
        after = ann.view()
        assert after["public"] != before["public"], "no move was played for the late seat"
        assert not ann.errors
    finally:
        ann.close()


def test_chat_shows_a_script_line_as_text_in_the_room_and_the_lobby(browser: Any, server: str, artifacts: Path) -> None:
    ann, bob = BrowserSeat(browser, server, "Ann"), BrowserSeat(browser, server, "Bob")
    evil = '<script>window.__x=1</script><img src=x onerror="window.__x=2">'
    try:
        # the lobby's chat
        ann.page.fill("[data-testid='lobby-chat'] .chat-input", evil)
        ann.page.click("[data-testid='lobby-chat'] button[type='submit']")
        bob.page.wait_for_selector("[data-testid='lobby-chat'] .chat-text")
        assert bob.page.text_content("[data-testid='lobby-chat'] .chat-text") == evil
        # a room's chat, seen by the other seat
        room = create_in_form(ann, game="expedition", seats=2)
        bob.page.goto(f"{server}/#/room/{room}")
        bob.page.click("[data-testid='take-seat']")
        bob.room_id = room
        bob.page.wait_for_selector(f"section.room[data-room='{room}'][data-you='1']")
        bob.page.fill("[data-testid='room-chat'] .chat-input", evil)
        bob.page.click("[data-testid='room-chat'] button[type='submit']")
        for p in (ann, bob):  # each page shows the line when the server's chat message reaches it
            p.page.wait_for_selector("[data-testid='room-chat'] .chat-text")
            texts = p.page.eval_on_selector_all(
                "[data-testid='room-chat'] .chat-text", "els => els.map(e => e.textContent)"
            )
            assert texts == [evil]
            assert p.page.locator("[data-testid='room-chat'] script, [data-testid='room-chat'] img").count() == 0
            assert p.page.evaluate("window.__x") is None
        ann.page.locator("[data-testid='room-chat']").screenshot(path=str(artifacts / "lobby-chat.png"))
    finally:
        ann.close()
        bob.close()


def test_a_game_the_clock_finishes_can_be_replayed_step_by_step_and_rematched(
    browser: Any, server: str, artifacts: Path
) -> None:
    ann = BrowserSeat(browser, server, "Ann")
    ann.timeout_ms = 60000
    try:
        # a 10 s clock at scale 0.05: Ann's seat is played by the clock, then by a bot, to the end
        room = create_in_form(ann, game="expedition", seats=2, bots=1, turn_seconds=10, seed=11)
        page = ann.page
        page.wait_for_selector("section.room[data-status='finished'] [data-testid='result']", timeout=90000)
        final = ann.view()
        # (v1.2) the log lines of the moves the clock made for Ann say so; Bot 1's own lines do not
        assert final["clock_moves"] and {m["seat"] for m in final["clock_moves"]} == {0}
        marks = page.locator("section.room .log [data-testid='clock-mark']")
        assert marks.count() >= 1 and set(marks.all_text_contents()) == {" (the clock played for Ann)"}
        page.wait_for_selector("[data-testid='rematch']")
        page.screenshot(path=str(artifacts / "lobby-finished.png"))
        # the history lists it; its replay steps through every version
        page.goto(f"{server}/#/history")
        page.wait_for_selector(f".history-list [data-room='{room}']")
        page.screenshot(path=str(artifacts / "lobby-history.png"))
        page.click(f"[data-key='replay-{room}']")
        page.wait_for_selector(f"section.replay[data-room='{room}'][data-v='0']")
        last = int(page.get_attribute("section.replay", "data-last") or "0")
        assert last > 10
        assert page.is_disabled("[data-testid='replay-first']") and page.is_disabled("[data-testid='replay-back']")

        def at() -> int:
            return int(page.get_attribute("section.replay", "data-v") or "-1")

        def wait_at(v: int) -> None:
            page.wait_for_selector(f"section.replay[data-v='{v}']")

        page.click("[data-testid='replay-forward']")
        wait_at(1)
        page.click("[data-testid='replay-forward']")
        wait_at(2)
        page.click("[data-testid='replay-back']")
        wait_at(1)
        page.click("[data-testid='replay-last']")
        wait_at(last)
        assert page.is_disabled("[data-testid='replay-forward']")
        shown = page.evaluate("r => window.marcopolo.replays.get(r).state", room)
        assert shown["result"] == final["result"] and shown["public"] == final["public"]
        assert shown["private"] is None and shown["prompt"] is None
        # the seats as the room showed them: the server bot seated at the creation keeps its name
        assert [x["name"] for x in shown["seats"]] == [x["name"] for x in final["seats"]] == ["Ann", "Bot 1"]
        assert (page.text_content("section.replay ol.seats") or "").count("Bot 1") == 1
        assert page.locator("[data-testid='replay-result']").count() == 1
        # (v1.2) the replay marks the clock's moves as the room did, rebuilt from the stored log
        assert shown["clock_moves"] == final["clock_moves"]
        marks = page.locator("section.replay .log [data-testid='clock-mark']")
        assert marks.count() >= 1 and set(marks.all_text_contents()) == {" (the clock played for Ann)"}
        page.screenshot(path=str(artifacts / "lobby-replay-last.png"))
        # the log's own picture (a re-render may replace its node meanwhile: the page's region of it, then)
        box = page.locator("section.replay .log").bounding_box()
        if box is not None:
            page.screenshot(path=str(artifacts / "lobby-replay-log.png"), clip=box, full_page=True)
        page.click("[data-testid='replay-first']")
        wait_at(0)
        middle = last // 2
        # the slider: a range input dragged to the middle (its value set and `input` fired, as a drag does)
        page.eval_on_selector(
            "#replay-slider",
            "(el, v) => { el.value = String(v); el.dispatchEvent(new Event('input', {bubbles: true})); }",
            middle,
        )
        wait_at(middle)
        assert at() == middle and page.get_attribute("section.replay", "data-status") in ("playing", "finished")
        assert (page.text_content("[data-testid='replay-at']") or "").startswith(f"version {middle} of {last}")
        page.screenshot(path=str(artifacts / "lobby-replay-middle.png"))
        # the ratings page: Ann is a guest whose seat the clock played, so the game rated nobody (v1.2)
        page.goto(f"{server}/#/ratings/expedition")
        page.wait_for_selector("[data-testid='leaderboard'], .ratings-empty")
        rows = page.eval_on_selector_all(
            "[data-testid='leaderboard'] tbody tr", "els => els.map(e => e.dataset.player)"
        )
        assert ann.page.evaluate("window.marcopolo.player") not in rows
        assert page.locator("[data-testid='leaderboard'] tr.mine").count() == 0
        page.screenshot(path=str(artifacts / "lobby-ratings.png"))
        # back in the finished room: Rematch opens a new unlisted room with the same bot and seats Ann
        page.goto(f"{server}/#/room/{room}")
        page.click("[data-testid='rematch']")
        page.wait_for_function(
            "r => { const s = document.querySelector('section.room');"
            " return s && s.dataset.room !== r && s.dataset.you === '0'; }",
            arg=room,
        )
        new = ann.room()["room"]
        assert new != room
        page.wait_for_selector(f"section.room[data-room='{new}'][data-status='playing']")
        assert not ann.errors
    finally:
        ann.close()


def test_the_other_players_page_offers_to_join_the_rematch_a_player_opened(browser: Any, server: str) -> None:
    ann = BrowserSeat(browser, server, "Ann")
    ann.timeout_ms = 60000
    try:
        room = create_in_form(ann, game="expedition", seats=2, turn_seconds=10, seed=12)

        async def otto_sits_down_and_waits_then_opens_the_rematch() -> tuple[str, str | None]:
            async with Client(ws(server)) as otto:
                await otto.hello("Otto")
                await otto.join(room)
                # neither player moves: the 10 s clock (0.5 s here) and then the bots play both seats to the end
                await otto.wait_for(room, lambda v: v.get("result") is not None, timeout=90)
                new = await otto.rematch(room)
                return new, otto.invites.get(new)

        new, invite = run_async(otto_sits_down_and_waits_then_opens_the_rematch)
        assert invite  # the rematch is unlisted: its invite went to the players
        page = ann.page
        page.wait_for_selector("[data-testid='rematch-join']")
        assert page.locator("[data-testid='rematch']").count() == 0
        page.click("[data-testid='rematch-join']")
        page.wait_for_selector(f"section.room[data-room='{new}'][data-you='0']")
        assert invite in page.input_value("#invite-link")
        assert not ann.errors
    finally:
        ann.close()


def test_the_lobby_and_a_waiting_room_fit_a_phone_without_sideways_scrolling(
    browser: Any, server: str, artifacts: Path
) -> None:
    phone = BrowserSeat(browser, server, "Pia", viewport={"width": 390, "height": 844})
    try:
        page = phone.page
        width = "document.documentElement.scrollWidth"
        assert page.evaluate(width) <= 390
        page.screenshot(path=str(artifacts / "lobby-phone.png"), full_page=True)
        page.click("[data-testid='quick-khan']")
        page.wait_for_selector("section.room [data-testid='invite']")
        assert page.evaluate(width) <= 390
        page.screenshot(path=str(artifacts / "lobby-phone-room.png"), full_page=True)
    finally:
        phone.close()


def test_the_host_removes_a_player_adds_and_removes_a_bot_and_starts_early(
    browser: Any, server: str, artifacts: Path
) -> None:
    ann, bob = BrowserSeat(browser, server, "Ann"), BrowserSeat(browser, server, "Bob")
    try:
        room = create_in_form(ann, game="expedition", seats=3)
        page = ann.page
        page.wait_for_selector("[data-testid='host']")
        bob.page.goto(f"{server}/#/room/{room}")
        bob.page.click("[data-testid='take-seat']")
        bob.page.wait_for_selector(f"section.room[data-room='{room}'][data-you='1']")
        assert bob.page.locator("[data-testid='host']").count() == 0  # only the room's opener has the controls
        page.click("[data-key='host-kick-1']")
        bob.page.wait_for_selector(f"section.room[data-room='{room}'][data-you=''] [data-testid='take-seat']")
        page.click("[data-key='host-add_bot-1']")
        page.wait_for_selector("ol.seats li[data-seat='1']:has-text('Bot')")
        page.screenshot(path=str(artifacts / "lobby-host.png"))
        page.click("[data-key='host-remove_bot-1']")
        page.wait_for_selector("ol.seats li[data-seat='1'].free")
        page.click("[data-testid='host-start']")
        page.wait_for_selector(f"section.room[data-room='{room}'][data-status='playing']")
        seats = ann.page.evaluate("r => window.marcopolo.store.get(r).view.seats.map(s => s.name)", room)
        assert seats[0] == "Ann" and all(re_bot.match(n) for n in seats[1:]), seats
        assert not ann.errors and not bob.errors
    finally:
        ann.close()
        bob.close()
