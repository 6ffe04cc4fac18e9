"""Moderation in the browser client (wire contract v1.2) and the administrators' page `#/admin`, in Chromium at
1280×800 and at phone size 390×844.

Players: the menu on another player's chat line blocks its sender (the line goes at once, the next one never
comes), the account page lists the players blocked with Unblock (a guest's too), the menu reports a line with a
reason; the room's host mutes a seat ("muted" in words for every viewer, the muted player's send refused in words),
a line with a denied word is refused in words. Administrators: the token is asked for (a wrong one again), the
reports with their chat context are resolved, a chat line is deleted (gone from a viewer's page), a player banned
by name sees the ban's words (also after a reload, without knocking again and again), the ban is lifted, a room
is closed with a reason ("Closed by a moderator: …" on a viewer's page), and the audit log lists every action.
Screenshots go to tests/artifacts/moderation-*.png.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import CHROMIUM, running_server

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="Chromium is not installed at /usr/bin/chromium")

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
SIZES = [pytest.param(DESKTOP, id="desktop"), pytest.param(PHONE, id="phone")]
TOKEN = "admin-" + secrets.token_hex(12)
PASSWORD = "correct horse 42"
DENIED = "knave"
OVERFLOW_JS = "() => document.documentElement.scrollWidth - window.innerWidth"
TEXTS_JS = "els => els.map(e => e.textContent)"
ROOM_CHAT = "[data-testid='room-chat']"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server with the admin API on, a denied word, no chat limits (every test is 127.0.0.1) and nothing kept
    after it stops (a ban must not outlive the test run). The word comes in a file: `--chat-deny WORD` is refused
    by the server's flag parsing (a tuple setting without the comma splitting of `--trusted-proxies`)."""
    deny = tmp_path_factory.mktemp("moderation") / "deny.txt"
    deny.write_text(f"# denied words\n{DENIED}\n", encoding="utf-8")
    flags = ["--store", "memory", "--admin-token", TOKEN, "--chat-deny-file", str(deny)]
    flags += ["--chat-lines", "0", "--chat-lines-per-addr", "0", "--signups-per-addr", "1000"]
    with running_server(*flags) as base:
        yield base


def unique(prefix: str) -> str:
    return f"{prefix}{secrets.token_hex(3)}"


def size_id(size: dict[str, int]) -> str:
    return "phone" if size["width"] < 500 else "desktop"


class Person:
    """One browser context (own localStorage) at a size: a guest named on the first screen, or an account."""

    def __init__(self, browser: Any, base: str, size: dict[str, int], name: str, *, account: bool = False) -> None:
        self.base, self.size, self.name = base, size, name
        self.ctx = browser.new_context(viewport=size)
        self.page = self.ctx.new_page()
        self.page.set_default_timeout(15000)
        self.errors: list[str] = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.sockets = 0
        self.page.on("websocket", lambda ws: self._socket())
        self.page.goto(base + "/")
        self.page.wait_for_selector(".welcome-card")
        if account:
            self.page.click("[data-testid='mode-sign_up']")
            self.page.fill("#up-name", name)
            self.page.fill("#up-password", PASSWORD)
            self.page.fill("#up-password2", PASSWORD)
            self.page.click("[data-testid='sign_up-submit']")
        else:
            self.page.fill("#name", name)
            self.page.click("button:has-text('Enter')")
        self.page.wait_for_selector(f"text=Hello, {name}")

    def _socket(self) -> None:
        self.sockets += 1

    def close(self) -> None:
        self.ctx.close()

    def create_room(self, seats: int = 2) -> str:
        page = self.page
        page.select_option("#game", "expedition")
        page.select_option("#seats", str(seats))
        page.click("button[data-key='create']")
        page.wait_for_selector("section.room[data-you='0']")
        return str(page.get_attribute("section.room", "data-room"))

    def open_room(self, room: str, *, sit: bool) -> None:
        self.page.goto(f"{self.base}/#/room/{room}")
        self.page.wait_for_selector(f"section.room[data-room='{room}']")
        if sit:
            self.page.click("[data-testid='take-seat']")
            self.page.wait_for_selector(f"section.room[data-room='{room}'][data-you='1']")

    def say(self, text: str) -> None:
        self.page.fill(f"{ROOM_CHAT} .chat-input", text)
        self.page.click(f"{ROOM_CHAT} button[type='submit']")

    def said(self, text: str) -> None:
        """Wait until the room's chat shows a line with exactly this text."""
        self.page.wait_for_selector(f"{ROOM_CHAT} .chat-text:text-is('{text}')")

    def lines(self) -> list[str]:
        return list(self.page.eval_on_selector_all(f"{ROOM_CHAT} .chat-text", TEXTS_JS))

    def line_menu(self, text: str) -> Any:
        """The chat line with this text, its menu opened."""
        line = self.page.locator(f"{ROOM_CHAT} li", has=self.page.locator(f".chat-text:text-is('{text}')"))
        line.locator("[data-testid='chat-more']").click()
        line.locator("[data-testid='chat-block']").wait_for()
        return line

    def notices(self) -> str:
        return " | ".join(self.page.eval_on_selector_all(".notice", TEXTS_JS))

    def shot(self, artifacts: Path, name: str, *, full: bool = True) -> None:
        self.page.screenshot(path=str(artifacts / f"moderation-{name}-{size_id(self.size)}.png"), full_page=full)

    def no_sideways_scroll(self) -> None:
        assert self.page.evaluate(OVERFLOW_JS) <= 0, "the page scrolls sideways"


class Admin:
    """The admin page in its own browser context."""

    def __init__(self, browser: Any, base: str, size: dict[str, int]) -> None:
        self.size = size
        self.ctx = browser.new_context(viewport=size)
        self.page = self.ctx.new_page()
        self.page.set_default_timeout(15000)
        self.errors: list[str] = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.goto(base + "/#/admin")
        self.page.wait_for_selector("[data-testid='admin-token-form']")

    def close(self) -> None:
        self.ctx.close()

    def sign_in(self, token: str) -> None:
        self.page.fill("#admin-token", token)
        self.page.click("[data-testid='admin-open']")

    def tab(self, name: str) -> None:
        self.page.click(f"[data-testid='admin-tab-{name}']")
        self.page.wait_for_selector(f"[data-testid='admin'][data-tab='{name}'][aria-busy='false']")

    def note(self) -> str:
        return str(self.page.text_content("[data-testid='admin-note']") or "").strip()

    def report(self, reason: str) -> Any:
        reason_of = self.page.locator(f"[data-testid='report-reason']:text-is('{reason}')")
        return self.page.locator("[data-testid='report']", has=reason_of)

    def shot(self, artifacts: Path, name: str) -> None:
        self.page.screenshot(path=str(artifacts / f"moderation-admin-{name}-{size_id(self.size)}.png"), full_page=True)

    def no_sideways_scroll(self) -> None:
        assert self.page.evaluate(OVERFLOW_JS) <= 0, "the page scrolls sideways"


@pytest.mark.parametrize("size", SIZES)
def test_block_unblock_report_and_the_hosts_mute_in_a_room(
    browser: Any, server: str, artifacts: Path, size: dict[str, int]
) -> None:
    ann, bob = Person(browser, server, size, unique("Ann")), Person(browser, server, size, unique("Bob"))
    admin = None
    try:
        room = ann.create_room()
        bob.open_room(room, sit=True)
        # one move, so that the game's public log (which a report keeps) has something in it
        ann.page.wait_for_selector("section.room[data-status='playing']")
        mover = ann if ann.page.get_attribute("section.room", "data-myturn") == "true" else bob
        mover.page.wait_for_selector("section.room[data-myturn='true']")
        v = int(mover.page.get_attribute("section.room", "data-v") or 0)
        mover.page.click(".prompt-bar .choices button.choice")
        mover.page.wait_for_function("v => +document.querySelector('section.room').dataset.v > v", arg=v)
        bob.say("hello from bob")
        ann.said("hello from bob")
        # only another player's lines have the menu
        assert bob.page.locator(f"{ROOM_CHAT} [data-testid='chat-more']").count() == 0
        line = ann.line_menu("hello from bob")
        assert line.locator("[data-testid='chat-report']").is_visible()
        ann.shot(artifacts, "chat-menu", full=False)

        # block: the line goes at once, and the next one never comes
        line.locator("[data-testid='chat-block']").click()
        ann.page.wait_for_selector(f"{ROOM_CHAT} .chat-text:text-is('hello from bob')", state="detached")
        assert "You blocked" in ann.notices()
        bob.say("second line")
        bob.said("second line")
        ann.say("ann is still here")  # sent after Bob's line reached every viewer: Ann's comes after it
        ann.said("ann is still here")
        assert ann.lines() == ["ann is still here"]

        # the account page lists the players blocked (a guest's too), with Unblock; the lines come back
        ann.page.click("[data-key='back']")  # the lobby says how many players Ann blocks, with a link to the list
        ann.page.click("[data-testid='me-blocks']")
        ann.page.wait_for_selector(f"[data-testid='blocks'] li:has-text('{bob.name}')")
        ann.shot(artifacts, "blocked-list")
        ann.no_sideways_scroll()
        ann.page.click("[data-testid='blocks'] [data-testid='unblock']")
        ann.page.wait_for_selector("[data-testid='blocks-empty']")
        ann.page.goto(f"{server}/#/room/{room}")
        ann.said("hello from bob")
        ann.said("second line")  # kept while blocked: the chat log brings it
        bob.say("third line")
        ann.said("third line")

        # report from the menu: a reason is asked for, then the report is sent with the room
        line = ann.line_menu("third line")
        line.locator("[data-testid='chat-report']").click()
        ann.page.click("[data-testid='report-send']")
        assert "Say why" in str(ann.page.text_content("[data-testid='report-error']"))
        reason = f"rude in chat {secrets.token_hex(2)}"
        ann.page.fill("[data-testid='report-reason']", reason)
        ann.shot(artifacts, "report-form", full=False)
        ann.page.click("[data-testid='report-send']")
        ann.page.wait_for_selector("[data-testid='report-form']", state="detached")
        assert "report about" in ann.notices()

        # the host mutes Bob's seat: "muted" in words, for Bob and for Ann; Bob's line is refused in words
        ann.page.click("[data-testid='host-mute-1']")
        bob.page.wait_for_selector("ol.seats li[data-seat='1'] [data-testid='muted-tag']:text-is('muted')")
        ann.page.wait_for_selector("ol.seats li[data-seat='1'] [data-testid='muted-tag']")
        bob.page.wait_for_selector("[data-testid='chat-muted']")
        bob.say("can anyone hear me")
        error = str(bob.page.text_content("[data-testid='chat-error']", timeout=15000))
        assert "muted your chat" in error, error
        assert bob.page.input_value(f"{ROOM_CHAT} .chat-input") == "can anyone hear me"  # kept typed
        bob.shot(artifacts, "muted")
        bob.no_sideways_scroll()
        ann.shot(artifacts, "host-muted")
        ann.page.click("[data-testid='host-unmute-1']")
        bob.page.wait_for_selector("ol.seats li[data-seat='1'] [data-testid='muted-tag']", state="detached")
        bob.say("can anyone hear me")
        ann.said("can anyone hear me")
        assert bob.page.locator("[data-testid='chat-error']").count() == 0

        # a line with a word the server does not allow is refused in words
        bob.say(f"you {DENIED}")
        error = str(bob.page.text_content("[data-testid='chat-error']", timeout=15000))
        assert "does not allow" in error, error

        # the report reaches the admin page, with its chat context
        admin = Admin(browser, server, size)
        admin.sign_in(TOKEN)
        card = admin.report(reason)
        card.wait_for()
        assert bob.name in str(card.locator("[data-testid='report-player']").text_content())
        context = card.locator("[data-testid='report-chat'] .chat-text").all_text_contents()
        assert "hello from bob" in context and "third line" in context, context
        card.locator(".admin-log summary").click()  # the game's public log, kept with the report
        assert card.locator(".admin-log li").count() >= 1
        card.screenshot(path=str(artifacts / f"moderation-admin-report-{size_id(size)}.png"))
        admin.no_sideways_scroll()
        assert not ann.errors and not bob.errors and not admin.errors
    finally:
        ann.close()
        bob.close()
        if admin is not None:
            admin.close()


@pytest.mark.parametrize("size", SIZES)
def test_the_admin_page_resolves_bans_lifts_closes_deletes_and_audits(
    browser: Any, server: str, artifacts: Path, size: dict[str, int]
) -> None:
    eve = Person(browser, server, size, unique("Eve"))
    finn = Person(browser, server, size, unique("Finn"))
    dana = Person(browser, server, size, unique("Dana"), account=True)
    admin = Admin(browser, server, size)
    try:
        # a room where Eve says something, Finn watching; Finn reports her line
        room = eve.create_room()
        finn.open_room(room, sit=False)
        eve.say("a line to delete")
        finn.said("a line to delete")
        reason = f"offensive {secrets.token_hex(2)}"
        line = finn.line_menu("a line to delete")
        line.locator("[data-testid='chat-report']").click()
        finn.page.fill("[data-testid='report-reason']", reason)
        finn.page.click("[data-testid='report-send']")
        finn.page.wait_for_selector("[data-testid='report-form']", state="detached")

        # a wrong token is refused and asked for again; the right one opens the reports
        admin.shot(artifacts, "token")
        admin.no_sideways_scroll()
        admin.sign_in("not-the-token")
        admin.page.wait_for_selector("[data-testid='admin-refused']")
        assert admin.page.is_visible("#admin-token")
        assert admin.page.evaluate("() => sessionStorage.getItem('marcopolo.adminToken')") is None
        admin.sign_in(TOKEN)
        card = admin.report(reason)
        card.wait_for()
        assert admin.page.evaluate("() => sessionStorage.getItem('marcopolo.adminToken')") == TOKEN
        assert admin.page.evaluate("() => localStorage.getItem('marcopolo.adminToken')") is None
        assert eve.name in str(card.locator("[data-testid='report-player']").text_content())
        assert "a line to delete" in card.locator("[data-testid='report-chat'] .chat-text").all_text_contents()
        admin.shot(artifacts, "reports")
        admin.no_sideways_scroll()

        # delete the reported line: it disappears from the viewer's page
        card.locator("[data-testid='delete-line']").first.click()
        finn.page.wait_for_selector(f"{ROOM_CHAT} .chat-text:text-is('a line to delete')", state="detached")
        eve.page.wait_for_selector(f"{ROOM_CHAT} .chat-text:text-is('a line to delete')", state="detached")
        assert "deleted" in admin.note()

        # resolve the report with a note: it leaves the open reports, and shows resolved among all
        card.locator("[data-testid='resolve-note']").fill("warned the player")
        card.locator("[data-testid='resolve']").click()
        admin.page.wait_for_selector("[data-testid='admin-note']:has-text('resolved')")
        card.wait_for(state="detached")
        admin.page.click("[data-key='toggle-all']")
        card = admin.report(reason)
        card.wait_for()
        assert "warned the player" in str(card.text_content())

        # ban Dana by name: her open page shows the ban's words (until when, why)
        admin.tab("bans")
        admin.page.select_option("#ban-kind", "name")
        admin.page.fill("#ban-value", dana.name)
        admin.page.fill("#ban-reason", "spamming the lobby")
        admin.page.fill("#ban-minutes", "60")
        admin.page.click("[data-testid='ban-add']")
        admin.page.wait_for_selector("[data-testid='admin-note']:has-text('added')")
        message = str(dana.page.text_content("[data-testid='banned-message']", timeout=15000))
        assert "banned until" in message and "spamming the lobby" in message and "UTC" in message, message
        dana.shot(artifacts, "banned")
        dana.no_sideways_scroll()
        admin.page.wait_for_selector("[data-testid='ban']:has-text('spamming the lobby')")
        admin.shot(artifacts, "bans")
        admin.no_sideways_scroll()
        # a reload while banned shows the words again, and the page does not knock again and again
        dana.page.reload()
        dana.page.wait_for_selector("[data-testid='banned-message']:has-text('spamming the lobby')")
        sockets = dana.sockets
        dana.page.wait_for_timeout(2500)
        assert dana.sockets == sockets
        # signing in to the banned account from another browser is refused with the same words, by the form
        other = browser.new_context(viewport=size)
        try:
            page = other.new_page()
            page.goto(server + "/")
            page.click("[data-testid='mode-sign_in']")
            page.fill("#in-name", dana.name)
            page.fill("#in-password", PASSWORD)
            page.click("[data-testid='sign_in-submit']")
            refusal = str(page.text_content("[data-testid='auth-error']", timeout=15000))
            assert "banned until" in refusal and "spamming the lobby" in refusal, refusal
        finally:
            other.close()

        # the players page shows her account and the ban
        admin.tab("players")
        admin.page.select_option("#players-by", "name")
        admin.page.fill("#players-query", dana.name)
        admin.page.click("[data-testid='players-go']")
        admin.page.wait_for_selector("[data-testid='player-card'] [data-testid='player-banned']")
        admin.shot(artifacts, "player")
        admin.no_sideways_scroll()

        # lift it (from the bans list); Dana tries again and is back in the lobby
        admin.tab("bans")
        admin.page.locator("[data-testid='ban']", has_text="spamming the lobby").locator("[data-testid='lift']").click()
        admin.page.wait_for_selector("[data-testid='admin-note']:has-text('lifted')")
        admin.page.wait_for_selector("[data-testid='ban']:has-text('spamming the lobby')", state="detached")
        dana.page.click("[data-testid='banned-retry']")
        dana.page.wait_for_selector(f"text=Hello, {dana.name}")

        # close the room with a reason: its viewers read it
        admin.tab("rooms")
        row = admin.page.locator(f"[data-testid='admin-room'][data-room='{room}']")
        row.wait_for()
        admin.shot(artifacts, "rooms")
        admin.no_sideways_scroll()
        row.locator("[data-testid='close-room']").click()
        assert "reason" in admin.note()  # a reason is needed
        row.locator("[data-testid='close-reason']").fill("closed for the test")
        row.locator("[data-testid='close-room']").click()
        admin.page.wait_for_selector("[data-testid='admin-note']:has-text('closed')")
        for p in (finn, eve):
            note = p.page.locator("[data-testid='closed-note']")
            note.wait_for()
            assert note.text_content() == "Closed by a moderator: closed for the test"
        finn.shot(artifacts, "closed")
        finn.no_sideways_scroll()

        # the audit log lists every action
        admin.tab("audit")
        actions = admin.page.eval_on_selector_all("[data-testid='audit'] li", "els => els.map(e => e.dataset.action)")
        for action in ("delete_chat", "resolve_report", "ban", "lift_ban", "close_room"):
            assert action in actions, actions
        admin.shot(artifacts, "audit")
        admin.no_sideways_scroll()

        # in another language the page reads (and still fits a phone)
        admin.page.select_option("#lang-select", "hu")
        admin.page.wait_for_function("() => document.documentElement.lang === 'hu'")
        admin.tab("bans")
        admin.page.click("[data-key='toggle-all']")
        admin.page.wait_for_selector("[data-testid='ban'] h3:has-text('kitiltás')")
        assert admin.page.text_content("[data-testid='admin-tab-audit']") == "Műveletnapló"
        admin.shot(artifacts, "bans-hu")
        admin.no_sideways_scroll()

        # forgetting the token asks for it again
        admin.page.click("[data-testid='admin-forget']")
        admin.page.wait_for_selector("[data-testid='admin-token-form']")
        assert admin.page.evaluate("() => sessionStorage.getItem('marcopolo.adminToken')") is None
        for who in (eve, finn, dana, admin):
            assert not who.errors, who.errors
    finally:
        for who in (eve, finn, dana, admin):
            who.close()
