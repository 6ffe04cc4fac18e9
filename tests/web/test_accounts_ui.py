"""Accounts in the browser client (wire contract v1.2), in Chromium at 1280×800 and at phone size 390×844.

Sign up, sign out and sign in again with the password; the error of a wrong password, an unknown name, a taken
name, a name the server refuses and a short password, each in its own words by the form; a reload keeps the
account signed in; the account's devices (two after a sign-in from a second browser), signing one out, signing
out everywhere; a new password and the deletion of the account; guests still play as before, their seats marked
"guest" in words, and a guest who signs up keeps its seat. Every page is looked at on the phone for sideways
scrolling. Screenshots go to tests/artifacts/accounts-*.png.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from clients.client import Client
from tests.web.conftest import CHROMIUM, run_async, running_server

from .pages import BrowserSeat

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="Chromium is not installed at /usr/bin/chromium")

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
SIZES = [pytest.param(DESKTOP, id="desktop"), pytest.param(PHONE, id="phone")]
PASSWORD = "correct horse 42"
#: failed sign-ins of one name before `rate_limited` (the server's default is 10)
FAILS_PER_NAME = 4
OVERFLOW_JS = "() => document.documentElement.scrollWidth - window.innerWidth"
STORED_JS = "() => [localStorage.getItem('marcopolo.account'), localStorage.getItem('marcopolo.token')]"
DEVICES_JS = "n => document.querySelectorAll(\"[data-testid='devices'] li\").length === n"
TEXTS_JS = "els => els.map(e => e.textContent)"
ROOM_JS = "() => { const r = document.querySelector('section.room'); return r && {...r.dataset}; }"
DROP_ERROR_JS = "() => document.querySelector(\"[data-testid='auth-error']\")?.remove()"


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    """A server that lets one address make many accounts and fail many sign-ins (every test is 127.0.0.1), and
    pauses a name after a few failures."""
    flags = ("--signups-per-addr", "1000", "--auth-fails-per-addr", "1000")
    with running_server(*flags, "--auth-fails-per-name", str(FAILS_PER_NAME)) as base:
        yield base


def unique(prefix: str) -> str:
    """A fresh account name (accounts outlive a test on the module's server)."""
    return f"{prefix}{secrets.token_hex(3)}"


def size_id(size: dict[str, int]) -> str:
    return "phone" if size["width"] < 500 else "desktop"


class Visitor:
    """One browser context (its own localStorage) on the welcome screen, not named yet."""

    def __init__(self, browser: Any, base: str, size: dict[str, int], path: str = "/") -> None:
        self.base, self.size = base, size
        self.ctx = browser.new_context(viewport=size)
        self.page = self.ctx.new_page()
        self.page.set_default_timeout(15000)
        self.errors: list[str] = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.goto(base + path)
        self.page.wait_for_selector(".welcome-card")

    def close(self) -> None:
        self.ctx.close()

    def mode(self, mode: str) -> None:
        self.page.click(f"[data-testid='mode-{mode}']")
        self.page.wait_for_selector(f"[data-testid='mode-{mode}'][aria-pressed='true']")

    def fill_sign_up(self, name: str, password: str = PASSWORD, repeat: str | None = None) -> None:
        self.mode("sign_up")
        self.page.fill("#up-name", name)
        self.page.fill("#up-password", password)
        self.page.fill("#up-password2", password if repeat is None else repeat)
        self.page.click("[data-testid='sign_up-submit']")

    def fill_sign_in(self, name: str, password: str = PASSWORD) -> None:
        if self.page.locator("[data-testid='mode-sign_in']").count():
            self.mode("sign_in")
        self.page.fill("#in-name", name)
        self.page.fill("#in-password", password)
        self.page.click("[data-testid='sign_in-submit']")

    def signed_in(self, name: str) -> None:
        """The lobby greets the account, and the header's control carries its name."""
        self.page.wait_for_selector(f"text=Hello, {name}")
        self.page.wait_for_selector(f"[data-testid='account-button']:has-text('{name}')")
        self.page.wait_for_selector("[data-testid='me-account']")
        assert self.stored() == [name, self.stored()[1]] and self.stored()[1]

    def sign_up(self, name: str) -> None:
        self.fill_sign_up(name)
        self.signed_in(name)

    def sign_in(self, name: str, password: str = PASSWORD) -> None:
        self.fill_sign_in(name, password)
        self.signed_in(name)

    def error(self, testid: str = "auth-error") -> str:
        return str(self.page.text_content(f"[data-testid='{testid}']", timeout=15000) or "").strip()

    def stored(self) -> list[str | None]:
        return list(self.page.evaluate(STORED_JS))

    def open_account(self) -> None:
        self.page.click("[data-testid='account-button']")
        self.page.wait_for_selector("[data-testid='account-page']")

    def notices(self) -> str:
        """The notices and the welcome card's line (where a sign-out that ends on the card is said)."""
        return " | ".join(self.page.eval_on_selector_all(".notice, [data-testid='farewell']", TEXTS_JS))

    def use_this_tab(self) -> None:
        """Take the player back from the newer connection that replaced this one (close 4001)."""
        self.page.click(".notice button:has-text('use this tab')")
        self.page.wait_for_selector("#net[data-state='open']")

    def shot(self, artifacts: Path, name: str) -> None:
        self.page.screenshot(path=str(artifacts / f"accounts-{name}-{size_id(self.size)}.png"), full_page=True)

    def no_sideways_scroll(self) -> None:
        assert self.page.evaluate(OVERFLOW_JS) <= 0, "the page scrolls sideways"


def make_account(base: str, name: str, password: str = PASSWORD) -> None:
    """An account made over the Python client (its connection is closed at once)."""

    async def go() -> None:
        async with Client(base.replace("http://", "ws://") + "/ws") as c:
            await c.sign_up(name, password, device="test script")

    run_async(go)


@pytest.mark.parametrize("size", SIZES)
def test_sign_up_reload_sign_out_and_sign_in_again_with_the_password(
    browser: Any, server: str, artifacts: Path, size: dict[str, int]
) -> None:
    name = unique("Marta")
    v = Visitor(browser, server, size)
    try:
        # the welcome card: playing as a guest is chosen first, the account's ways one click away
        assert v.page.get_attribute("[data-testid='mode-guest']", "aria-pressed") == "true"
        assert v.page.is_visible("#name")
        v.shot(artifacts, "welcome")
        v.no_sideways_scroll()
        v.mode("sign_up")
        # labels and autocomplete for password managers
        assert v.page.get_attribute("#up-password", "autocomplete") == "new-password"
        assert v.page.get_attribute("#up-password2", "autocomplete") == "new-password"
        assert v.page.get_attribute("#up-name", "autocomplete") == "username"
        assert v.page.get_attribute("#up-password", "type") == "password"
        for field in ("up-name", "up-password", "up-password2"):
            assert v.page.locator(f"label[for='{field}']").count() == 1
        v.shot(artifacts, "sign-up")
        v.no_sideways_scroll()
        v.sign_up(name)
        assert "created" in v.notices()
        v.shot(artifacts, "signed-up-lobby")
        v.no_sideways_scroll()

        # a reload keeps the account: the same token resumes it, the header and lobby say so at once
        token = v.stored()[1]
        v.page.reload()
        v.signed_in(name)
        assert v.stored() == [name, token]
        assert v.page.locator("[data-key='rename']").count() == 0  # an account's name is its own

        v.open_account()
        assert v.page.text_content("[data-testid='signed-in-as']").strip().endswith(name)
        v.page.wait_for_function(DEVICES_JS, arg=1)
        assert v.page.locator("[data-testid='devices'] li.current").count() == 1
        v.shot(artifacts, "account-page")
        v.no_sideways_scroll()

        # sign out: the token is dropped and the browser is a visitor again (it never played as a guest)
        v.page.click("[data-testid='sign-out']")
        v.page.wait_for_selector(".welcome-card")
        assert v.stored() == [None, None]
        assert "signed out" in v.notices()
        assert v.page.is_visible("[data-testid='farewell']")  # said in the card, which no notice covers
        assert v.page.get_attribute("[data-testid='mode-guest']", "aria-pressed") == "true"
        v.shot(artifacts, "signed-out")

        # sign in again: a wrong password first
        v.mode("sign_in")
        assert v.page.get_attribute("#in-password", "autocomplete") == "current-password"
        assert v.page.get_attribute("#in-name", "autocomplete") == "username"
        v.fill_sign_in(name, "not the password")
        assert v.error() == "Wrong name or password."
        assert v.stored() == [None, None]
        v.shot(artifacts, "wrong-password")
        v.no_sideways_scroll()
        v.fill_sign_in(name, PASSWORD)
        v.signed_in(name)
        assert v.stored()[1] != token  # a new token for this sign-in
        assert not v.errors, v.errors
    finally:
        v.close()


@pytest.mark.parametrize("size", SIZES)
def test_each_refusal_is_said_in_its_own_words_by_the_form(
    browser: Any, server: str, artifacts: Path, size: dict[str, int]
) -> None:
    taken = unique("Taken")
    make_account(server, taken)
    v = Visitor(browser, server, size)
    try:
        # caught before sending: a short password, two passwords that differ
        v.fill_sign_up(unique("Nina"), "short", "short")
        assert v.error() == "A password needs at least 8 characters."
        v.fill_sign_up(unique("Nina"), PASSWORD, PASSWORD + "!")
        assert v.error() == "The two passwords differ."
        # the server's answers: a taken name (also in other letters' case), a refused name
        v.fill_sign_up(taken.upper())
        assert v.error().startswith("An account already has that name")
        v.shot(artifacts, "name-taken")
        v.no_sideways_scroll()
        v.fill_sign_up("admin")
        assert v.error().startswith("The server refuses that name")
        # an unknown name reads as a wrong password
        v.fill_sign_in(unique("Nobody"), PASSWORD)
        assert v.error() == "Wrong name or password."
        # failures of one name pause it, even for the right password
        for _ in range(FAILS_PER_NAME):
            v.page.evaluate(DROP_ERROR_JS)  # (the last answer's error line)
            v.fill_sign_in(taken, "not the password")
            assert v.error() == "Wrong name or password."
        v.fill_sign_in(taken, PASSWORD)
        v.page.wait_for_selector("[data-testid='auth-error']:has-text('Too many failed attempts')")
        v.shot(artifacts, "rate-limited")
        # a guest may not play under an account's name: the name form says why
        v.mode("guest")
        v.page.fill("#name", taken)
        v.page.click("button:has-text('Enter')")
        v.page.wait_for_selector("[data-testid='name-error']")
        assert v.error("name-error").startswith("An account holds that name")
        v.shot(artifacts, "guest-name-taken")
        v.no_sideways_scroll()
        # and another name plays as a guest at once
        guest = unique("Gus")
        v.page.fill("#name", guest)
        v.page.click("button:has-text('Enter')")
        v.page.wait_for_selector(f"text=Hello, {guest}")
        assert v.page.text_content("[data-testid='account-button']").strip() == "Sign in"
        assert not v.errors, v.errors
    finally:
        v.close()


@pytest.mark.parametrize("size", SIZES)
def test_the_devices_list_shows_a_second_browser_and_signs_it_out(
    browser: Any, server: str, artifacts: Path, size: dict[str, int]
) -> None:
    name = unique("Dora")
    a, b = Visitor(browser, server, size), Visitor(browser, server, size)
    try:
        a.sign_up(name)
        b.sign_in(name)
        # one live connection per player: the second device's sign-in replaced the first's socket
        a.page.wait_for_selector("#net[data-state='replaced']")
        assert "another device" in a.notices()
        a.use_this_tab()
        b.page.wait_for_selector("#net[data-state='replaced']")
        a.open_account()
        a.page.wait_for_function(DEVICES_JS, arg=2)
        rows = a.page.locator("[data-testid='devices'] li")
        assert rows.count() == 2
        assert a.page.locator("[data-testid='devices'] li.current").count() == 1
        assert a.page.locator("[data-testid='device-sign-out']").count() == 1  # only the other one
        labels = a.page.eval_on_selector_all("[data-testid='devices'] .device-name", TEXTS_JS)
        assert all(0 < len(x) <= 32 for x in labels) and "Chrome" in labels[0], labels
        a.shot(artifacts, "two-devices")
        a.no_sideways_scroll()

        # sign the other device out: the list shrinks, and that browser is no longer the account
        a.page.click("[data-testid='device-sign-out']")
        a.page.wait_for_function(DEVICES_JS, arg=1)
        assert "device is signed out" in a.notices()
        b.page.reload()
        b.page.wait_for_selector(".welcome-card")
        assert "signed out" in b.notices()
        assert b.stored() == [None, None]

        # sign out everywhere, from the second browser signed in again: the first one's token stops too
        b.sign_in(name)
        a.page.wait_for_selector("#net[data-state='replaced']")
        b.open_account()
        b.page.wait_for_function(DEVICES_JS, arg=2)
        b.page.click("[data-testid='sign-out-everywhere']")
        b.page.wait_for_selector(".welcome-card")
        assert "every device" in b.notices()
        a.page.click(".notice button:has-text('use this tab')")
        a.page.wait_for_selector(".welcome-card")
        assert a.stored() == [None, None]
        assert "signed out" in a.notices()
        assert not a.errors and not b.errors, a.errors + b.errors
    finally:
        a.close()
        b.close()


@pytest.mark.parametrize("size", SIZES)
def test_a_new_password_and_deleting_the_account(
    browser: Any, server: str, artifacts: Path, size: dict[str, int]
) -> None:
    name = unique("Pia")
    v = Visitor(browser, server, size)
    try:
        v.sign_up(name)
        v.open_account()
        assert v.page.get_attribute("#pw-current", "autocomplete") == "current-password"
        assert v.page.get_attribute("#pw-new", "autocomplete") == "new-password"
        v.page.fill("#pw-current", "not the password")
        v.page.fill("#pw-new", "a new password")
        v.page.fill("#pw-new2", "a new password")
        v.page.click("[data-testid='password-submit']")
        assert v.error("password-error") == "That is not your password."
        v.page.fill("#pw-current", PASSWORD)
        v.page.click("[data-testid='password-submit']")
        v.page.wait_for_function("() => document.querySelector('#pw-current').value === ''")
        assert "Password changed" in v.notices()
        assert v.page.locator("[data-testid='password-error']").count() == 0

        # deletion asks for the password, and a wrong one deletes nothing
        v.page.click("[data-testid='delete-open']")
        assert v.page.get_attribute("#delete-password", "autocomplete") == "current-password"
        v.page.fill("#delete-password", PASSWORD)  # the old one
        v.page.click("[data-testid='delete-submit']")
        assert v.error("delete-error") == "That is not your password."
        v.shot(artifacts, "delete")
        v.no_sideways_scroll()
        v.page.fill("#delete-password", "a new password")
        v.page.click("[data-testid='delete-submit']")
        v.page.wait_for_selector(".welcome-card")
        assert "deleted" in v.notices()
        assert v.stored() == [None, None]
        v.fill_sign_in(name, "a new password")
        assert v.error() == "Wrong name or password."
        assert not v.errors, v.errors
    finally:
        v.close()


def take_a_turn(seats: list[Any]) -> None:
    """The seat whose turn it is makes its first option from the list of every choice."""
    for _ in range(100):
        for s in seats:
            r = s.page.evaluate(ROOM_JS)
            if r and r["myturn"] == "true" and r["pending"] == "false":
                v = int(r["v"])
                if s.page.get_attribute(".all-choices", "open") is None:
                    s.page.click("summary[data-key='all-choices']")
                s.page.locator(".all-choices li button").first.click()
                s.page.wait_for_function(
                    "v => { const r = document.querySelector('section.room'); return r && +r.dataset.v > v; }", arg=v
                )
                return
        seats[0].page.wait_for_timeout(100)
    raise AssertionError("nobody's turn came")


@pytest.mark.parametrize("size", SIZES)
def test_guests_play_as_before_their_seats_say_guest_and_a_guest_who_signs_up_keeps_the_seat(
    browser: Any, server: str, artifacts: Path, size: dict[str, int]
) -> None:
    ann = BrowserSeat(browser, server, unique("Ann"), viewport=size)
    cy = Visitor(browser, server, size)
    try:
        # a guest: named with one click, the header offers the account one click away
        assert ann.page.text_content("[data-testid='account-button']").strip() == "Sign in"
        ann.page.wait_for_selector("[data-testid='me-guest']")
        ann.page.select_option("#game", "expedition")
        ann.page.select_option("#seats", "2")
        ann.page.select_option("#bots", "0")
        ann.page.click("button[data-key='create']")
        ann.page.wait_for_selector("section.room[data-you='0']")
        room = ann.room()["room"]
        ann.room_id = room

        # a visitor who opens the room's link is told to choose a name first (or to sign in), and signs in
        cy_name = unique("Cy")
        make_account(server, cy_name)
        cy.close()
        cy = Visitor(browser, server, size, f"/#/room/{room}")
        assert cy.page.is_visible("[data-testid='invited']")
        cy.fill_sign_in(cy_name)
        cy.page.wait_for_selector(f"section.room[data-room='{room}'] [data-testid='take-seat']")
        assert cy.stored()[0] == cy_name
        cy.page.click("[data-testid='take-seat']")
        cy.page.wait_for_selector(f"section.room[data-room='{room}'][data-you='1']")
        for p in (ann.page, cy.page):
            p.wait_for_selector(f"section.room[data-room='{room}'][data-status='playing']")
            # the guest's seat says so in words; the account's does not
            p.wait_for_selector(".seats li[data-seat='0'] [data-testid='guest-tag']")
            assert p.text_content(".seats li[data-seat='0'] .guest-tag").strip() == "guest"
            assert p.locator(".seats li[data-seat='1'] [data-testid='guest-tag']").count() == 0
        take_a_turn([ann, cy])
        take_a_turn([ann, cy])
        ann.page.screenshot(path=str(artifacts / f"accounts-room-guest-{size_id(size)}.png"), full_page=False)
        cy.shot(artifacts, "room-account")
        assert ann.page.evaluate(OVERFLOW_JS) <= 0 and cy.page.evaluate(OVERFLOW_JS) <= 0

        # the guest signs up from the room's header: the account takes over the guest's seat
        ann.page.click("[data-testid='account-button']")
        ann.page.click("[data-testid='mode-sign_up']")
        assert ann.page.input_value("#up-name") == ann.name  # the guest's name, offered
        assert ann.page.is_visible("[data-testid='keep-guest']")  # and playing on as a guest, one click
        ann.page.fill("#up-password", PASSWORD)
        ann.page.fill("#up-password2", PASSWORD)
        ann.page.screenshot(path=str(artifacts / f"accounts-guest-sign-up-{size_id(size)}.png"), full_page=True)
        ann.page.click("[data-testid='sign_up-submit']")
        ann.page.wait_for_selector(f"[data-testid='account-button']:has-text('{ann.name}')")
        ann.page.wait_for_selector(f".mine a[data-key='mine-{room}']")
        ann.page.click(f".mine a[data-key='mine-{room}']")
        ann.page.wait_for_selector(f"section.room[data-room='{room}'][data-you='0'][data-status='playing']")
        take_a_turn([ann, cy])
        assert not ann.errors and not cy.errors, ann.errors + cy.errors
    finally:
        ann.close()
        cy.close()
