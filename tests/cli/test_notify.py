"""The terminal client's `notify` (wire contract v1.2): an account sets its turn signals, e-mail, webhook, delay and
a new webhook secret, and sees them as the server keeps them (the table under the lobby); a guest is told only an
account can; a command it cannot read says how to write one. Against an in-process server that has an SMTP server
set (nothing is sent: no game is played) and takes webhooks on loopback."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from clients.cli.__main__ import run
from clients.cli.account import PASSWORD_ENV
from clients.cli.turns import parse_delay, parse_notify
from clients.client import Client
from server.config import Settings
from server.net.app import App
from tests.cli.conftest import Screen, until
from tests.cli.test_accounts import CHEAP, PASSWORD, argv, said
from tests.cli.test_play import cancel_all


@pytest.fixture
async def app() -> AsyncIterator[App]:
    node = App(Settings(port=0, allow_client_seed=True, smtp_host="127.0.0.1", smtp_port=9, smtp_tls="none",
                        smtp_from="games@example.org", webhook_allow_private=True, **CHEAP))  # fmt: skip
    await node.start()
    try:
        yield node
    finally:
        await node.stop()


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv(PASSWORD_ENV, raising=False)
    return tmp_path


def test_a_notify_command_reads_as_the_requests_fields() -> None:
    assert parse_notify("") == {}
    assert parse_notify(" email Ann@Example.org  delay 2h ") == {"email": "Ann@Example.org", "delay_minutes": 120}
    assert parse_notify("webhook off email off secret push off") == {
        "webhook": "", "email": "", "new_secret": True, "push": ""
    }  # fmt: skip
    assert [parse_delay(x) for x in ("0", "30", "90m", "1d", "14d")] == [0, 30, 90, 1440, 20160]
    for bad in ("15d", "-1", "soon", "2w"):
        with pytest.raises(ValueError, match="14 days"):
            parse_delay(bad)
    for bad in ("email", "delay", "loud", "push on"):
        with pytest.raises(ValueError, match="notify \\[email"):
            parse_notify(bad)


async def test_an_account_sets_its_turn_signals_in_the_terminal(
    app: App, url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(PASSWORD_ENV, PASSWORD)
    s = Screen()
    lines: asyncio.Queue[str | None] = asyncio.Queue()
    task = asyncio.create_task(run(argv(url, tmp_path / "tok", "jo", "--sign-up"), console=s.console, lines=lines))
    try:
        await until(lambda: "Account jo" in s.text, what="the account's lobby")
        assert said("notify: your turn signals", s.text)  # the help line of an account
        lines.put_nowait("notify")
        await until(lambda: "Turn signals" in s.text, what="the signals table")
        assert "15 minutes" in s.text.split("Turn signals")[-1]  # the server's default delay
        lines.put_nowait("notify email Jo@Example.org webhook https://127.0.0.1:9/hook delay 2h")
        await until(lambda: "Saved: your turn signals." in s.text, what="saved")
        shown = s.text.split("Turn signals")[-1]
        assert "Jo@Example.org" in shown and "https://127.0.0.1:9/hook" in shown and "2 hours" in shown
        lines.put_nowait("notify delay never")
        await until(lambda: said("A delay is 0 to 14 days", s.text), what="the delay refused")
        lines.put_nowait("notify webhook http://127.0.0.1:9/hook")  # https only: the server's sentence
        await until(lambda: "must be an https:// URL" in s.text, what="the webhook refused")
        lines.put_nowait("5")
        assert await asyncio.wait_for(task, 10) == 0
    finally:
        await cancel_all(task)
    async with Client(url) as c:  # the server keeps them
        await c.request("sign_in", name="jo", password=PASSWORD)
        got = await c.notify()
        kept = (got["email"], got["webhook"], got["delay_minutes"])
        assert kept == ("Jo@Example.org", "https://127.0.0.1:9/hook", 120)


async def test_a_guest_is_told_that_only_an_account_has_turn_signals(app: App, url: str, tmp_path: Path) -> None:
    s = Screen()
    lines: asyncio.Queue[str | None] = asyncio.Queue()
    task = asyncio.create_task(run(argv(url, tmp_path / "tok", "gus"), console=s.console, lines=lines))
    try:
        await until(lambda: "guest gus" in s.text, what="the guest's lobby")
        lines.put_nowait("notify email gus@example.org")
        await until(lambda: said("Only an account can do that", s.text), what="refused")
        lines.put_nowait("5")
        assert await asyncio.wait_for(task, 10) == 0
    finally:
        await cancel_all(task)
