"""The settings page (`#/settings`, v1.2) in Chromium at 1280×800 and at phone size 390×844: an account sets its
turn signals, e-mail, webhook and delay, the page shows the webhook's secret, and after a reload the values are
the server's; a refused webhook says why by the form; web push, offered because the server has a VAPID key, cannot
work in headless Chromium and the page says so in plain words (nothing is registered before the click); a server
without a VAPID key (or SMTP server) leaves those fields out; a guest sees that the server's signals are for
accounts, and this browser's own signals (title and icon, sound) are kept in localStorage. The service worker
(`sw.js`) shows a pushed turn as a notification in the language it was registered with (a push delivered through
the DevTools protocol). Screenshots go to tests/artifacts/settings-*.png.
"""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from tests.web.conftest import CHROMIUM, running_server

from .test_accounts_ui import DESKTOP, PHONE, SIZES, Visitor, size_id, unique

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="Chromium is not installed at /usr/bin/chromium")

OVERFLOW_JS = "() => document.documentElement.scrollWidth - window.innerWidth"
REGISTERED_JS = "async () => (await navigator.serviceWorker.getRegistrations()).length"


@pytest.fixture(scope="module")
def vapid_key(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("vapid") / "vapid.pem"
    key = ec.generate_private_key(ec.SECP256R1())
    path.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                       serialization.NoEncryption()))  # fmt: skip
    return path


@pytest.fixture(scope="module")
def server(vapid_key: Path) -> Iterator[str]:
    """A server that sends e-mail (an SMTP server that is never reached: no game is played), webhooks (loopback
    allowed, so a webhook needs no DNS here) and web push (a VAPID key)."""
    flags = ("--signups-per-addr", "1000", "--smtp-host", "127.0.0.1", "--smtp-port", "9", "--smtp-tls", "none",
             "--smtp-from", "games@example.org", "--webhook-allow-private", "--vapid-private-key", str(vapid_key),
             "--vapid-subject", "mailto:ops@example.org")  # fmt: skip
    with running_server(*flags) as base:
        yield base


@pytest.fixture(scope="module")
def plain_server() -> Iterator[str]:
    """A server with no SMTP server and no VAPID key: webhooks only."""
    with running_server("--signups-per-addr", "1000") as base:
        yield base


class Player(Visitor):
    def shot(self, artifacts: Path, name: str) -> None:
        """A full-page screenshot, the notices dismissed first (they float over the page)."""
        for close in self.page.locator(".notice button.link").all():
            close.click()
        self.page.screenshot(path=str(artifacts / f"settings-{name}-{size_id(self.size)}.png"), full_page=True)

    def open_settings(self) -> None:
        """By the header's gear, as a player would."""
        self.page.click("[data-testid='settings-link']")
        self.page.wait_for_selector("[data-testid='settings-page']")

    def no_sideways_scroll(self) -> None:
        assert self.page.evaluate(OVERFLOW_JS) <= 0, "the page scrolls sideways"


@pytest.mark.parametrize("size", SIZES)
def test_an_account_sets_e_mail_webhook_and_delay_and_a_reload_keeps_them(
    browser: Any, server: str, artifacts: Path, size: dict[str, int]
) -> None:
    p = Player(browser, server, size)
    try:
        name = unique("set")
        p.sign_up(name)
        assert p.page.evaluate(REGISTERED_JS) == 0
        p.open_settings()
        p.page.wait_for_selector("[data-testid='server-signals']")
        assert p.page.input_value("#notify-email") == "" and p.page.input_value("#notify-webhook") == ""
        assert p.page.input_value("#notify-delay") == "15"  # the server's default
        secret = p.page.text_content("[data-testid='webhook-secret']") or ""
        assert len(secret) >= 32
        # a webhook the server refuses: its reason by the form, nothing kept
        p.page.fill("#notify-webhook", "http://127.0.0.1:9/hook")
        p.page.click("[data-testid='settings-save']")
        error = p.page.text_content("[data-testid='settings-error']") or ""
        assert "The server refused it" in error and "https://" in error
        # e-mail, webhook and delay
        p.page.fill("#notify-email", f"{name}@example.org")
        p.page.fill("#notify-webhook", "https://127.0.0.1:9/hook")
        p.page.select_option("#notify-delay", "60")
        p.page.click("[data-testid='settings-save']")
        p.page.wait_for_selector("[data-testid='settings-saved']:has-text('Saved.')")
        assert p.page.locator("[data-testid='settings-error']").count() == 0
        # web push is offered (the server has a VAPID key) but headless Chromium cannot: the page says so
        p.page.wait_for_selector("[data-testid='push-on']:not([disabled])")
        assert p.page.evaluate(REGISTERED_JS) == 0, "a service worker registered before the click"
        p.page.click("[data-testid='push-on']")
        state = p.page.wait_for_selector("[data-testid='push-state'][data-state='denied'], "
                                         "[data-testid='push-state'][data-state='failed']", timeout=20000)  # fmt: skip
        first = state.get_attribute("data-state")
        said = {"denied": "This browser blocks notifications from this site: allow them in the site's settings",
                "failed": "Web push could not be turned on in this browser."}[str(first)]  # fmt: skip
        assert said in (state.text_content() or "")
        p.no_sideways_scroll()
        p.shot(artifacts, "saved")
        # a reload: the values are the server's
        p.page.reload()
        p.page.wait_for_selector("[data-testid='server-signals']")
        assert p.page.input_value("#notify-email") == f"{name}@example.org"
        assert p.page.input_value("#notify-webhook") == "https://127.0.0.1:9/hook"
        assert p.page.input_value("#notify-delay") == "60"
        assert p.page.text_content("[data-testid='webhook-secret']") == secret
        if first == "denied":  # the browser keeps blocking: said at once, without a button that cannot work
            state = p.page.wait_for_selector("[data-testid='push-state'][data-state='denied']")
            assert (state.text_content() or "").startswith("This browser blocks notifications from this site")
            assert p.page.locator("[data-testid='push-on']").count() == 0
        # a new secret replaces it
        p.page.click("[data-testid='new-secret']")
        p.page.wait_for_function(
            "s => document.querySelector(\"[data-testid='webhook-secret']\").textContent !== s", arg=secret
        )
        # removing the e-mail address
        p.page.fill("#notify-email", "")
        p.page.click("[data-testid='settings-save']")
        p.page.wait_for_selector("[data-testid='settings-saved']:has-text('Saved.')")
        p.page.reload()
        p.page.wait_for_selector("[data-testid='server-signals']")
        assert p.page.input_value("#notify-email") == ""
        assert p.page.input_value("#notify-webhook") == "https://127.0.0.1:9/hook"
        p.no_sideways_scroll()
        p.shot(artifacts, "reloaded")
        assert not p.errors, p.errors
    finally:
        p.close()


def test_with_notifications_allowed_web_push_still_fails_in_headless_chromium_and_says_so(
    browser: Any, server: str, artifacts: Path
) -> None:
    """With the notification permission granted the browser goes on to its push service, which headless Chromium
    does not have: the page says that web push could not be turned on, with the browser's reason."""
    p = Player(browser, server, PHONE)
    try:
        p.ctx.grant_permissions(["notifications"])
        p.sign_up(unique("psh"))
        p.open_settings()
        p.page.wait_for_selector("[data-testid='push-on']:not([disabled])")
        p.page.click("[data-testid='push-on']")
        said = (p.page.text_content("[data-testid='push-error']", timeout=20000) or "").strip()
        assert said.startswith("Web push could not be turned on in this browser"), said
        assert p.page.get_attribute("[data-testid='push-state']", "data-state") == "failed"
        p.shot(artifacts, "push-failed")
        assert not p.errors, p.errors
    finally:
        p.close()


def test_a_server_without_smtp_or_vapid_leaves_those_out_and_a_guest_keeps_the_browser_signals(
    browser: Any, plain_server: str, artifacts: Path
) -> None:
    p = Player(browser, plain_server, DESKTOP)
    try:
        p.sign_up(unique("pln"))
        p.open_settings()
        p.page.wait_for_selector("[data-testid='server-signals']")
        assert p.page.locator("#notify-email").count() == 0  # no SMTP server
        assert p.page.locator("#notify-webhook").count() == 1
        assert p.page.locator("[data-testid='push']").count() == 0  # no VAPID key: no web push offered
    finally:
        p.close()
    guest = Player(browser, plain_server, PHONE)
    try:
        guest.page.fill("#name", f"Gus{secrets.token_hex(2)}")
        guest.page.click("button:has-text('Enter')")
        guest.page.wait_for_selector("[data-testid='settings-link']")
        guest.open_settings()
        guest.page.wait_for_selector("[data-testid='settings-guest']")
        assert "for accounts" in (guest.page.text_content("[data-testid='settings-guest']") or "")
        assert guest.page.is_checked("#signal-marks") and not guest.page.is_checked("#signal-sound")
        guest.page.uncheck("#signal-marks")
        guest.page.check("#signal-sound")
        guest.page.reload()
        guest.page.wait_for_selector("[data-testid='settings-guest']")
        assert not guest.page.is_checked("#signal-marks") and guest.page.is_checked("#signal-sound")
        assert guest.page.evaluate("() => localStorage.getItem('marcopolo.marks')") == "off"
        guest.no_sideways_scroll()
        guest.shot(artifacts, "guest")
        assert not guest.errors, guest.errors
    finally:
        guest.close()


def test_the_service_worker_shows_a_pushed_turn_in_its_language(browser: Any, server: str) -> None:
    """A push delivered to the registered worker through the DevTools protocol (what the browser does with a
    decrypted message): one notification, in Hungarian, naming the game, tagged by the room."""
    ctx = browser.new_context()
    try:
        ctx.grant_permissions(["notifications"])
        page = ctx.new_page()
        page.goto(server + "/")
        cdp = ctx.new_cdp_session(page)
        regs: list[dict[str, Any]] = []
        cdp.on("ServiceWorker.workerRegistrationUpdated", lambda e: regs.extend(e["registrations"]))
        cdp.send("ServiceWorker.enable")
        page.evaluate("async () => { await navigator.serviceWorker.register('sw.js?lang=hu'); "
                      "await navigator.serviceWorker.ready; }")  # fmt: skip
        deadline = time.monotonic() + 10
        while not [r for r in regs if not r.get("isDeleted")] and time.monotonic() < deadline:
            page.wait_for_timeout(50)
        reg = next(r for r in regs if not r.get("isDeleted"))
        turn = {"event": "your_turn", "id": "r1a2b3:1:7", "game": "khan", "room": "r1a2b3", "seat": 1, "name": "Ann",
                "deadline": None, "url": None, "at": 1}  # fmt: skip
        cdp.send("ServiceWorker.deliverPushMessage",
                 {"origin": server, "registrationId": reg["registrationId"], "data": json.dumps(turn)})  # fmt: skip
        # (an async predicate's Promise counts as truthy for wait_for_function: poll from here instead)
        shown: object = 0
        for _ in range(100):  # at most 10 s
            shown = page.evaluate(
                "async () => { const r = await navigator.serviceWorker.getRegistration(); const n = await "
                "r.getNotifications(); return n.length && n.map(x => [x.title, x.body, x.tag, x.data.room]); }"
            )
            if shown:
                break
            page.wait_for_timeout(100)
        assert shown == [["Te lépsz", "Te lépsz itt: Marco Polo II: In the Service of the Khan.", "marcopolo-r1a2b3",
                          "r1a2b3"]]  # fmt: skip
    finally:
        ctx.close()
