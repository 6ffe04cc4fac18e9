"""Accounts in the terminal client (wire contract v1.2): reading a password, what sign-up and sign-in send, the
account's errors as sentences (also those of a new password and of deleting the account), and the table of the
devices an account is signed in on.

Owns: the password's two sources, a hidden prompt_toolkit prompt on a terminal (typed twice for a new account)
or the environment variable `MARCOPOLO_PASSWORD` for scripts; `Credentials`, which hands the password to the
session once and then forgets it; what the account's list of devices calls this one.
Must not: print, log or store a password anywhere (the token file holds the token only), or put it in a prompt's
history.
"""

from __future__ import annotations

import os
import re
import socket
import sys
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

from clients.cli.i18n import N_, _, error_sentence

#: the environment variable a script sets to the password (read instead of asking)
PASSWORD_ENV = "MARCOPOLO_PASSWORD"
#: the environment variable a script sets to the new password of `--change-password`
NEW_PASSWORD_ENV = "MARCOPOLO_NEW_PASSWORD"

SIGN_UP = "sign_up"
SIGN_IN = "sign_in"
CHANGE_PASSWORD = "change_password"
DELETE_ACCOUNT = "delete_account"
#: the request named by an error of a saved token that no longer resumes its account (a `hello`)
RESUME = "resume"


class PasswordMissing(Exception):
    """No password could be read (none in the environment, no terminal, the two typed differ, or cancelled)."""


def default_device() -> str:
    """What the account's list of devices calls this client: `terminal on HOST` (at most 32 characters)."""
    host = re.sub(r"[\x00-\x1f\x7f]", "", socket.gethostname()).strip() or "?"
    return f"terminal on {host}"[:32].rstrip()


async def ask_hidden(message: str, *, input: Any = None, output: Any = None) -> str:
    """One line typed at a prompt_toolkit prompt that shows `*` for each character (never the text), kept in
    no history. Ctrl-C or Ctrl-D: `PasswordMissing`."""
    from prompt_toolkit import PromptSession
    from prompt_toolkit.history import DummyHistory

    session: PromptSession[str] = PromptSession(history=DummyHistory(), input=input, output=output)
    try:
        return await session.prompt_async(message, is_password=True)
    except (EOFError, KeyboardInterrupt):
        raise PasswordMissing(_("Cancelled: no password was given.")) from None


async def read_password(
    *,
    confirm: bool,
    env: Mapping[str, str] | None = None,
    ask: Callable[[str], Awaitable[str]] | None = None,
    terminal: bool | None = None,
    variable: str = PASSWORD_ENV,
    question: str | None = None,
    again: str | None = None,
) -> str:
    """A password: the environment variable `variable` (`MARCOPOLO_PASSWORD`) when set, else asked on the terminal
    with `question` (hidden; a second time with `again` when `confirm`)."""
    given = (os.environ if env is None else env).get(variable)
    if given:
        return given
    if ask is None:
        if not (sys.stdin.isatty() if terminal is None else terminal):
            raise PasswordMissing(
                _("No password: type it on a terminal, or set {var} for a script.").format(var=variable)
            )
        ask = ask_hidden
    password = await ask(question or _("Password: "))
    if not password:
        raise PasswordMissing(_("Cancelled: no password was given."))
    if confirm and await ask(again or _("The same password again: ")) != password:
        raise PasswordMissing(_("The two passwords differ; nothing was sent."))
    return password


@dataclass
class Credentials:
    """A sign-up or sign-in the session makes on its first connection; the password is asked for when it is
    needed (not when the saved token resumes the account already) and forgotten once the server answered."""

    mode: str  # SIGN_UP or SIGN_IN
    ask: Callable[[], Awaitable[str]]
    device: str | None = None
    _password: str | None = field(default=None, repr=False)

    async def password(self) -> str:
        if self._password is None:
            self._password = await self.ask()
        return self._password

    def forget(self) -> None:
        self._password = None


#: the account's errors as sentences (the server's codes, read in the context of the request that got them)
BAD_CREDENTIALS = N_("No account has that name and password: check both and try again.")
NAME_TAKEN = N_(
    "An account holds that name (or one that reads the same): choose another name, or sign in with --sign-in "
    "if it is yours."
)
TOKEN_STOPPED = N_(
    "The saved sign-in has stopped (signed out here or on another device, the password changed, or the account "
    "deleted): sign in again with --sign-in, or play as a guest under another --name."
)
TOO_MANY_FAILED = N_("Too many failed sign-ins for this name or from this address: wait a few minutes, then try again.")
TOO_MANY_ACCOUNTS = N_("Too many accounts were made from this address: try again later.")
PASSWORD_SHORT = N_("That password is too short: this server asks for at least {n} characters.")
NAME_REFUSED = N_("The server refused that name ({why}): choose another.")
ALREADY_ACCOUNT = N_("This client is signed in to an account already: sign out first (--sign-out) to make another.")
GUESTS_CANNOT = N_("Only an account can do that, and you play as a guest: start with --sign-up or --sign-in.")
NO_SUCH_DEVICE = N_("The account has no such device (any more): type devices to see the list.")
WRONG_PASSWORD = N_("That is not the account's password: nothing was changed.")
#: what deleting an account does, and how to confirm it
DELETE_CONFIRM = N_(
    'Its ratings go, its finished games stay under "deleted player" and its name stays taken for a while. '
    "Type the account's name, {name}, to delete it (anything else cancels):"
)


def account_sentence(request: str, code: str, message: str) -> str:
    """An error answered to `request` (sign_up, sign_in, resume, sign_out, devices, change_password,
    delete_account, …) as a sentence."""
    if code == "bad_credentials":
        return _(WRONG_PASSWORD if request in (CHANGE_PASSWORD, DELETE_ACCOUNT) else BAD_CREDENTIALS)
    if code == "name_taken":
        return _(TOKEN_STOPPED if request == RESUME else NAME_TAKEN)
    if code == "rate_limited" and request in (SIGN_IN, SIGN_UP, CHANGE_PASSWORD, DELETE_ACCOUNT):
        too_many = TOO_MANY_ACCOUNTS if request == SIGN_UP and "account" in message else TOO_MANY_FAILED
        return _(too_many)
    if code == "bad_message" and request in (SIGN_UP, CHANGE_PASSWORD):
        if message.startswith("password"):
            least = re.search(r"(\d+)", message)
            return _(PASSWORD_SHORT).format(n=least[1] if least else 8)
        if message.startswith("name") and request == SIGN_UP:
            return _(NAME_REFUSED).format(why=message.partition(": ")[2] or message)
    if code == "forbidden":
        return _(ALREADY_ACCOUNT if request == SIGN_UP else GUESTS_CANNOT)
    if code == "not_found" and request == "sign_out":
        return _(NO_SUCH_DEVICE)
    return error_sentence(code, message)


def devices_table(devices: Sequence[dict[str, Any]]) -> RenderableType:
    """The devices the account is signed in on, numbered as `sign out N` takes them (newest first)."""
    if not devices:
        return Text(_("The account is signed in on no device."), style="dim")
    table = Table(title=_("Signed in on"), title_justify="left", show_edge=False, pad_edge=False)
    table.add_column("#", justify="right")
    table.add_column(_("device"))
    table.add_column(_("since"))
    table.add_column("")
    for i, d in enumerate(devices, 1):
        created = d.get("created")
        since = time.strftime("%Y-%m-%d %H:%M", time.localtime(int(created))) if created else "?"
        here = _("(this device)") if d.get("current") else ""
        table.add_row(str(i), Text(str(d.get("device"))), since, here, style="bold" if d.get("current") else None)
    return table
