"""Passkeys in the browser client (docs/protocol.md, "Passkeys"), in Chromium at 1280×800 and at phone size 390×844.

Right after a sign-up the lobby offers a passkey, and takes one there too.
Chromium's virtual authenticator (Chrome DevTools Protocol, `WebAuthn.*`) stands in for the device: sign up with a
password, add a passkey on the account page, sign out, then sign in with the passkey alone (no password typed) and
be the account again. A second browser whose authenticator holds no passkey of this server's accounts, and one
whose authenticator holds none at all, are told in words that the passkey did not work, and stay on the sign-in
form. WebAuthn runs only on https and on localhost, so the page is opened at http://localhost:PORT. Every page is
looked at on the phone for sideways scrolling. Screenshots go to tests/artifacts/passkeys-*.png.
"""

from __future__ import annotations

import base64
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
PASSWORD = "correct horse 42"
OVERFLOW_JS = "() => document.documentElement.scrollWidth - window.innerWidth"
STORED_JS = "() => [localStorage.getItem('marcopolo.account'), localStorage.getItem('marcopolo.token')]"
AUTHENTICATOR = {
    "protocol": "ctap2",
    "transport": "internal",
    "hasResidentKey": True,
    "hasUserVerification": True,
    "isUserVerified": True,
    "automaticPresenceSimulation": True,
}


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    """A server that lets one address make many accounts and fail many sign-ins; its URL at localhost (WebAuthn
    needs a secure origin, and http://localhost is one)."""
    with running_server("--signups-per-addr", "1000", "--auth-fails-per-addr", "1000") as base:
        yield base.replace("127.0.0.1", "localhost")


def unique(prefix: str) -> str:
    return f"{prefix}{secrets.token_hex(3)}"


def size_id(size: dict[str, int]) -> str:
    return "phone" if size["width"] < 500 else "desktop"


def stray_key() -> str:
    """A P-256 private key (PKCS#8, base64) for a passkey that no account of the server knows."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    key = ec.generate_private_key(ec.SECP256R1())
    der = key.private_bytes(serialization.Encoding.DER, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    return base64.b64encode(der).decode()


class Visitor:
    """One browser context (its own localStorage) with a virtual authenticator, on the welcome screen."""

    def __init__(self, browser: Any, base: str, size: dict[str, int]) -> None:
        self.base, self.size = base, size
        self.ctx = browser.new_context(viewport=size)
        self.page = self.ctx.new_page()
        self.page.set_default_timeout(20000)
        self.errors: list[str] = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.cdp = self.ctx.new_cdp_session(self.page)
        self.cdp.send("WebAuthn.enable")
        added = self.cdp.send("WebAuthn.addVirtualAuthenticator", {"options": AUTHENTICATOR})
        self.authenticator = str(added["authenticatorId"])
        self.page.goto(base + "/")
        self.page.wait_for_selector(".welcome-card")

    def close(self) -> None:
        self.ctx.close()

    def credentials(self) -> list[dict[str, Any]]:
        answer = self.cdp.send("WebAuthn.getCredentials", {"authenticatorId": self.authenticator})
        return list(answer["credentials"])

    def mode(self, mode: str) -> None:
        self.page.click(f"[data-testid='mode-{mode}']")
        self.page.wait_for_selector(f"[data-testid='mode-{mode}'][aria-pressed='true']")

    def signed_in(self, name: str) -> None:
        """The lobby greets the account, and the header's control carries its name."""
        self.page.wait_for_selector(f"text=Hello, {name}")
        self.page.wait_for_selector(f"[data-testid='account-button']:has-text('{name}')")
        self.page.wait_for_selector("[data-testid='me-account']")
        self.page.wait_for_selector("#net[data-state='open']")
        account, token = self.stored()
        assert account == name and token

    def stored(self) -> list[str | None]:
        return list(self.page.evaluate(STORED_JS))

    def open_account(self) -> None:
        self.page.click("[data-testid='account-button']")
        self.page.wait_for_selector("[data-testid='account-page']")

    def shot(self, artifacts: Path, name: str) -> None:
        self.page.screenshot(path=str(artifacts / f"passkeys-{name}-{size_id(self.size)}.png"), full_page=True)

    def no_sideways_scroll(self) -> None:
        assert self.page.evaluate(OVERFLOW_JS) <= 0, "the page scrolls sideways"


@pytest.mark.parametrize("size", SIZES)
def test_add_a_passkey_sign_out_and_sign_in_with_the_passkey_alone(
    browser: Any, server: str, artifacts: Path, size: dict[str, int]
) -> None:
    name = unique("Pia")
    v = Visitor(browser, server, size)
    try:
        # the sign-in form offers the passkey first, the password form below it
        v.mode("sign_in")
        button = v.page.locator("[data-testid='passkey-sign-in']")
        assert button.is_visible() and button.inner_text().strip() == "Sign in with a passkey"
        above = v.page.evaluate(
            "() => document.querySelector(\"[data-testid='passkey-sign-in']\").getBoundingClientRect().bottom"
            " <= document.querySelector('#in-password').getBoundingClientRect().top"
        )
        assert above, "the passkey button comes before the password"
        v.shot(artifacts, "sign-in-form")
        v.no_sideways_scroll()

        # sign up with a password, then add a passkey on the account page
        v.mode("sign_up")
        v.page.fill("#up-name", name)
        v.page.fill("#up-password", PASSWORD)
        v.page.fill("#up-password2", PASSWORD)
        v.page.click("[data-testid='sign_up-submit']")
        v.signed_in(name)
        first_token = v.stored()[1]
        # the lobby offers a passkey right after the sign-up; not now (the account page has it too)
        v.page.wait_for_selector("[data-testid='passkey-offer']")
        v.shot(artifacts, "offer")
        v.no_sideways_scroll()
        v.page.click("[data-testid='passkey-offer-no']")
        v.page.wait_for_selector("[data-testid='passkey-offer']", state="detached")
        v.open_account()
        assert v.page.locator("[data-testid='passkey-added']").count() == 0
        v.page.click("[data-testid='passkey-add']")
        added = v.page.text_content("[data-testid='passkey-added']") or ""
        assert "Passkey added" in added
        assert v.page.locator("[data-testid='passkey-add-error']").count() == 0
        creds = v.credentials()
        assert len(creds) == 1 and creds[0]["isResidentCredential"] and creds[0]["rpId"] == "localhost"
        v.shot(artifacts, "added")
        v.no_sideways_scroll()

        # the same device again: the browser refuses a second passkey of the account, and says so
        v.page.click("[data-testid='passkey-add']")
        again = v.page.text_content("[data-testid='passkey-add-error']") or ""
        assert "already holds a passkey" in again, again
        assert len(v.credentials()) == 1

        # sign out: back to the welcome card, nothing of the account kept
        v.page.click("[data-testid='sign-out']")
        v.page.wait_for_selector(".welcome-card")
        assert v.stored() == [None, None]

        # sign in with the passkey: no name, no password typed
        v.mode("sign_in")
        v.page.click("[data-testid='passkey-sign-in']")
        v.signed_in(name)
        assert v.stored()[1] != first_token, "a passkey sign-in is a new device of the account"
        v.shot(artifacts, "signed-in")
        v.no_sideways_scroll()

        # the account page lists this device, signed in by the passkey
        v.open_account()
        v.page.wait_for_selector("[data-testid='devices'] li.current")
        v.page.wait_for_selector("[data-testid='passkeys-panel']")
        v.no_sideways_scroll()
        # a reload resumes the account by the passkey's token
        v.page.reload()
        v.page.wait_for_selector("[data-testid='account-page']")
        v.page.wait_for_selector("#net[data-state='open']")
        assert v.stored()[0] == name
        assert v.errors == [], v.errors
    finally:
        v.close()


@pytest.mark.parametrize("size", SIZES)
def test_a_passkey_the_server_does_not_know_and_no_passkey_at_all_are_said_in_words(
    browser: Any, server: str, artifacts: Path, size: dict[str, int]
) -> None:
    # a browser whose authenticator holds a passkey for this site that no account has
    stranger = Visitor(browser, server, size)
    try:
        stranger.cdp.send(
            "WebAuthn.addCredential",
            {
                "authenticatorId": stranger.authenticator,
                "credential": {
                    "credentialId": base64.b64encode(secrets.token_bytes(16)).decode(),
                    "isResidentCredential": True,
                    "rpId": "localhost",
                    "privateKey": stray_key(),
                    "userHandle": base64.b64encode(b"nobody").decode(),
                    "signCount": 0,
                },
            },
        )
        stranger.mode("sign_in")
        stranger.page.click("[data-testid='passkey-sign-in']")
        said = stranger.page.text_content("[data-testid='passkey-error']") or ""
        assert "does not open an account" in said, said
        assert stranger.stored()[0] is None
        # still on the sign-in form, the password way open, the button ready for another try
        assert stranger.page.locator("#in-password").is_visible()
        stranger.page.wait_for_selector("[data-testid='passkey-sign-in']:not([aria-busy])")
        stranger.shot(artifacts, "unknown")
        stranger.no_sideways_scroll()
        assert stranger.errors == [], stranger.errors
    finally:
        stranger.close()

    # a browser whose authenticator holds no passkey at all: the browser ends the ceremony, the form says so
    empty = Visitor(browser, server, size)
    try:
        empty.mode("sign_in")
        empty.page.click("[data-testid='passkey-sign-in']")
        said = empty.page.text_content("[data-testid='passkey-error']", timeout=90000) or ""
        assert "No passkey was used" in said, said
        assert empty.stored()[0] is None
        empty.shot(artifacts, "none")
        empty.no_sideways_scroll()
    finally:
        empty.close()


@pytest.mark.parametrize("size", SIZES)
def test_the_lobby_offers_a_passkey_right_after_the_sign_up(
    browser: Any, server: str, artifacts: Path, size: dict[str, int]
) -> None:
    name = unique("Ola")
    v = Visitor(browser, server, size)
    try:
        v.mode("sign_up")
        v.page.fill("#up-name", name)
        v.page.fill("#up-password", PASSWORD)
        v.page.fill("#up-password2", PASSWORD)
        v.page.click("[data-testid='sign_up-submit']")
        v.signed_in(name)
        v.page.click("[data-testid='passkey-offer-add']")
        v.page.wait_for_selector("[data-testid='passkey-offer']", state="detached")
        v.page.wait_for_selector(".notice:has-text('Passkey added')")
        assert len(v.credentials()) == 1
        v.shot(artifacts, "offer-taken")
        v.no_sideways_scroll()
        assert v.errors == [], v.errors
    finally:
        v.close()
