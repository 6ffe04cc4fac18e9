"""Accounts in the terminal client (wire contract v1.2) against an in-process server: sign up, the next start
resumes the account with the saved token (no password), sign in with the password on another device, a wrong
password, a name an account holds, devices and signing one out, signing out (the token stops), and the password
never shown, logged or stored. The password comes from MARCOPOLO_PASSWORD (how a script gives it) or, on a
terminal, from a hidden prompt_toolkit prompt (driven here through a pipe)."""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import AsyncIterator, Iterable
from pathlib import Path

import pytest
from prompt_toolkit.data_structures import Size
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output.vt100 import Vt100_Output

from clients.cli import account
from clients.cli.__main__ import run
from clients.cli.account import PASSWORD_ENV, PasswordMissing, ask_hidden, read_password
from clients.cli.i18n import _, set_language
from clients.cli.session import read_token
from clients.client import Client, ServerError
from server.config import Settings
from server.net.app import App
from tests.cli.conftest import Screen, until
from tests.cli.test_play import cancel_all, found

PASSWORD = "Zq7-wombat-Pelican-42"
#: cheap hashes for tests (the server's defaults are OWASP's: 19 MiB, two passes)
CHEAP = {"password_memory_kib": 1024, "password_time_cost": 1}


@pytest.fixture
async def app() -> AsyncIterator[App]:
    """A server node with cheap password hashes (overrides the conftest's)."""
    node = App(Settings(port=0, allow_client_seed=True, **CHEAP))
    await node.start()
    try:
        yield node
    finally:
        await node.stop()


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """~ is the test's folder (so everything the CLI stores can be searched), and no password is set."""
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv(PASSWORD_ENV, raising=False)
    return tmp_path


def argv(url: str, token_file: Path, name: str, *extra: str) -> list[str]:
    return ["--url", url, "--name", name, "--token-file", str(token_file), *extra]


async def cli(args: list[str], typed: Iterable[str] = ("q",), timeout: float = 30.0) -> tuple[int, str]:
    """Run the CLI with these lines typed (default: q, quit); its exit status and everything shown."""
    s = Screen()
    lines: asyncio.Queue[str | None] = asyncio.Queue()
    for line in typed:
        lines.put_nowait(line)
    task = asyncio.create_task(run(args, console=s.console, lines=lines))
    try:
        return await asyncio.wait_for(task, timeout), s.text
    finally:
        await cancel_all(task)


def said(sentence: str, text: str) -> bool:
    """Whether the console showed `sentence` (the console wraps long lines)."""
    return " ".join(sentence.split()) in " ".join(text.split())


def device_rows(text: str) -> dict[str, tuple[int, bool]]:
    """The devices table's rows: device -> (its number, whether it is this device)."""
    rows = {}
    for line in text.splitlines():
        cells = [c.strip() for c in line.split("│")]
        if len(cells) == 4 and cells[0].isdigit():
            rows[cells[1]] = (int(cells[0]), cells[3] == "(this device)")
    return rows


def stored_files(root: Path) -> dict[Path, bytes]:
    return {p: p.read_bytes() for p in root.rglob("*") if p.is_file()}


async def test_sign_up_keeps_the_guests_seat_and_the_next_start_resumes_the_account_without_a_password(
    url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    token_file = tmp_path / "token-ann"
    code, guest = await cli(argv(url, token_file, "ann", "--create", "--seats", "3"))
    assert code == 0
    room = found(r"Seated at seat 1 in room (\S+)\.", guest)
    player = found(r"player (p\w+)", guest)

    monkeypatch.setenv(PASSWORD_ENV, PASSWORD)
    code, signed_up = await cli(argv(url, token_file, "ann", "--sign-up"))
    assert code == 0, signed_up
    assert "Signed in to the account ann." in signed_up
    assert found(r"player (p\w+)", signed_up) == player  # the guest became the account: same player, same seat
    assert f"re-joined room {room} at seat 1" in signed_up
    account_token = read_token(token_file)
    assert account_token is not None

    monkeypatch.delenv(PASSWORD_ENV)  # the next start needs no password: the saved token resumes the account
    code, again = await cli(argv(url, token_file, "ann"))
    assert code == 0, again
    assert "Signed in to the account ann." in again
    assert found(r"player (p\w+)", again) == player
    assert f"re-joined room {room} at seat 1" in again
    assert read_token(token_file) == account_token

    # --sign-up again with the account's own token: it is that account already, no password is asked for
    code, twice = await cli(argv(url, token_file, "ann", "--sign-up"))
    assert code == 0, twice
    assert "signed in to the account ann already" in twice


async def test_sign_in_with_the_password_on_another_device_and_list_the_devices(
    url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(PASSWORD_ENV, PASSWORD)
    code, first = await cli(argv(url, tmp_path / "desk", "bea", "--sign-up", "--device", "desk"))
    assert code == 0, first
    code, second = await cli(argv(url, tmp_path / "laptop", "bea", "--sign-in", "--device", "laptop"))
    assert code == 0, second
    assert "Signed in to the account bea." in second
    assert found(r"player (p\w+)", second) == found(r"player (p\w+)", first)
    assert read_token(tmp_path / "laptop") not in (None, read_token(tmp_path / "desk"))  # a token per device

    code, listed = await cli(argv(url, tmp_path / "laptop", "bea", "--devices"))
    assert code == 0, listed
    assert "Signed in on" in listed
    rows = device_rows(listed)
    assert {name: here for name, (_n, here) in rows.items()} == {"desk": False, "laptop": True}, listed
    assert sorted(n for n, _here in rows.values()) == [1, 2]


async def test_a_wrong_password_shows_bad_credentials_and_keeps_the_token_file(
    url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(PASSWORD_ENV, PASSWORD)
    assert (await cli(argv(url, tmp_path / "one", "cal", "--sign-up")))[0] == 0
    monkeypatch.setenv(PASSWORD_ENV, "not-the-password")
    code, text = await cli(argv(url, tmp_path / "two", "cal", "--sign-in"))
    assert code == 1
    assert said(_(account.BAD_CREDENTIALS), text)
    assert not (tmp_path / "two").exists()
    # an unknown name reads the same (the server does not tell the two apart)
    code, text = await cli(argv(url, tmp_path / "three", "nobody", "--sign-in"))
    assert code == 1 and said(_(account.BAD_CREDENTIALS), text)


async def test_each_account_error_reads_as_its_own_sentence(
    url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(PASSWORD_ENV, "short")
    code, text = await cli(argv(url, tmp_path / "t1", "dan", "--sign-up"))
    assert code == 1 and said("That password is too short: this server asks for at least 8 characters.", text)

    monkeypatch.setenv(PASSWORD_ENV, PASSWORD)
    assert (await cli(argv(url, tmp_path / "t2", "dan", "--sign-up")))[0] == 0
    code, text = await cli(argv(url, tmp_path / "t3", "DAN", "--sign-up"))  # the same name, folded
    assert code == 1 and said(_(account.NAME_TAKEN), text)
    monkeypatch.delenv(PASSWORD_ENV)
    code, text = await cli(argv(url, tmp_path / "t4", "dan"))  # a guest may not use an account's name
    assert code == 1 and said(_(account.NAME_TAKEN), text)

    code, text = await cli(argv(url, tmp_path / "t5", "eve", "--devices"))  # a guest has no devices
    assert code == 1 and said(_(account.GUESTS_CANNOT), text)
    code, text = await cli(argv(url, tmp_path / "t5", "eve", "--sign-out"))
    assert code == 0 and said("This client plays as a guest: there is no account to sign out of.", text)
    s = Screen()
    lines: asyncio.Queue[str | None] = asyncio.Queue()
    task = asyncio.create_task(run(argv(url, tmp_path / "t6", "eve"), console=s.console, lines=lines))
    try:
        await until(lambda: "Playing as the guest eve: start with --sign-up" in s.text, what="the guest's lobby")
        lines.put_nowait("sign out")
        await until(lambda: said(_(account.GUESTS_CANNOT), s.text), what="the guest's sign out refused")
        lines.put_nowait("devices")
        await until(lambda: s.text.count("Only an account can do that") == 2, what="the guest's devices refused")
        lines.put_nowait("q")
        assert await asyncio.wait_for(task, 10) == 0
    finally:
        await cancel_all(task)

    code, text = await cli(argv(url, tmp_path / "t7", "fay", "--sign-in"))  # no password and no terminal
    assert code == 2 and said(f"No password: type it on a terminal, or set {PASSWORD_ENV} for a script.", text)

    monkeypatch.setenv(PASSWORD_ENV, "wrong-password")
    for _attempt in range(10):  # the server's limit of failed sign-ins per name
        assert (await cli(argv(url, tmp_path / "t8", "dan", "--sign-in")))[0] == 1
    monkeypatch.setenv(PASSWORD_ENV, PASSWORD)
    code, text = await cli(argv(url, tmp_path / "t8", "dan", "--sign-in"))  # even the right one, for a while
    assert code == 1 and said(_(account.TOO_MANY_FAILED), text)


async def test_the_account_errors_read_in_another_language(
    url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(PASSWORD_ENV, "bad-password")
    try:
        code, text = await cli(argv(url, tmp_path / "t", "gus", "--sign-in", "--lang", "es"))
    finally:
        set_language("en")
    assert code == 1
    assert said("Ninguna cuenta tiene ese nombre y esa contraseña: revisa ambos y vuelve a intentarlo.", text)


async def test_sign_out_stops_the_token_and_the_next_start_says_so(
    url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    token_file = tmp_path / "token-hal"
    monkeypatch.setenv(PASSWORD_ENV, PASSWORD)
    assert (await cli(argv(url, token_file, "hal", "--sign-up")))[0] == 0
    monkeypatch.delenv(PASSWORD_ENV)
    token = read_token(token_file)
    assert token is not None

    code, text = await cli(argv(url, token_file, "hal", "--sign-out"))
    assert code == 0, text
    assert "Signed out of hal." in text
    assert not token_file.exists()
    code, text = await cli(argv(url, token_file, "hal", "--sign-out"))  # nothing left to sign out
    assert code == 0 and "Not signed in: there is no saved token in" in text

    token_file.write_text(token + "\n")  # the old token, put back, resumes nobody
    code, text = await cli(argv(url, token_file, "hal"))
    assert code == 1
    assert said(_(account.TOKEN_STOPPED), text)
    async with Client(url) as c:
        with pytest.raises(ServerError) as err:
            await c.hello("hal", token)
        assert err.value.code == "name_taken"  # the token is no account's any more, and the name is
        welcome = await c.hello("someone", token)
        assert welcome["account"] is False and welcome["token"] != token
    # --sign-in with that stopped token saved: the password signs in again on the same start
    monkeypatch.setenv(PASSWORD_ENV, PASSWORD)
    code, text = await cli(argv(url, token_file, "hal", "--sign-in"))
    assert code == 0 and "Signed in to the account hal." in text
    assert read_token(token_file) not in (None, token)


async def test_sign_out_typed_in_the_lobby_quits_and_the_token_stops(
    url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    token_file = tmp_path / "token-ida"
    monkeypatch.setenv(PASSWORD_ENV, PASSWORD)
    assert (await cli(argv(url, token_file, "ida", "--sign-up")))[0] == 0
    token = read_token(token_file)
    code, text = await cli(argv(url, token_file, "ida"), typed=("sign out",))
    assert code == 0, text
    assert text.rstrip().endswith("Signed out of ida.")
    assert not token_file.exists()
    async with Client(url) as c:
        welcome = await c.hello("other", token)
        assert welcome["account"] is False  # a new guest: the token resumed nobody


async def test_devices_typed_in_the_lobby_and_sign_out_n_signs_that_device_out(
    app: App, url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(PASSWORD_ENV, PASSWORD)
    assert (await cli(argv(url, tmp_path / "phone", "jo", "--sign-up", "--device", "phone")))[0] == 0
    monkeypatch.delenv(PASSWORD_ENV)
    async with Client(url) as tablet:
        await tablet.sign_in("jo", PASSWORD, device="tablet")
        s = Screen()
        lines: asyncio.Queue[str | None] = asyncio.Queue()
        task = asyncio.create_task(run(argv(url, tmp_path / "phone", "jo"), console=s.console, lines=lines))
        try:
            await until(lambda: "Account jo" in s.text, what="the account's lobby")
            lines.put_nowait("devices")
            await until(lambda: "Signed in on" in s.text, what="the devices")
            rows = device_rows(s.text.split("Signed in on")[-1])
            assert {name: here for name, (_n, here) in rows.items()} == {"tablet": False, "phone": True}
            lines.put_nowait(f"sign out {rows['tablet'][0]}")
            await until(lambda: "Signed the device tablet out of the account." in s.text, what="the sign-out")
            after = s.text.split("Signed the device tablet")[0].split("Signed in on")[-1]
            assert device_rows(after) == {"phone": (1, True)}  # the list again, without the tablet
            lines.put_nowait("sign out 7")
            await until(lambda: "Type devices first, then sign out N" in s.text, what="no device 7")
            lines.put_nowait("5")
            assert await asyncio.wait_for(task, 10) == 0
        finally:
            await cancel_all(task)
    assert tablet.token is not None
    async with Client(url) as c:
        assert (await c.hello("tablet-guest", tablet.token))["account"] is False  # the tablet's token stopped


async def test_the_password_is_never_shown_logged_or_stored(
    url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    token_file = tmp_path / ".marcopolo" / "token-kim"
    shown: list[str] = []
    monkeypatch.setenv(PASSWORD_ENV, PASSWORD)
    for args, typed in (
        (["--sign-up"], ("devices", "say hello", "5")),
        ([], ("5",)),
        (["--sign-in"], ("5",)),
        (["--devices"], ()),
        (["--sign-out"], ()),
        (["--sign-in", "--bot", "random"], ()),  # nothing to play: exits at once
    ):
        code, text = await cli(argv(url, token_file, "kim", *args), typed)
        assert code in (0, 2), text
        shown.append(text)
    monkeypatch.setenv(PASSWORD_ENV, PASSWORD + "x")  # a wrong one is not shown either
    code, text = await cli(argv(url, tmp_path / "other", "kim", "--sign-in"))
    assert code == 1
    shown.append(text)
    whole = "\n".join(shown)
    assert "Signed in to the account kim." in whole and "Signed out of kim." in whole
    assert PASSWORD not in whole
    assert PASSWORD not in caplog.text
    files = stored_files(tmp_path)
    assert token_file in files
    for path, data in files.items():
        assert PASSWORD.encode() not in data, path
    assert read_token(token_file) is not None and len(files[token_file].strip()) == 32  # the token only


async def test_the_password_is_asked_for_before_connecting_and_not_at_all_when_the_token_resumes_the_account(
    url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import clients.cli.__main__ as main

    said_first: list[str] = []
    connect = Client.connect

    async def connecting(self: Client) -> None:
        said_first.append("connect")
        await connect(self)

    async def typed(*, confirm: bool) -> str:
        said_first.append(f"asked (confirm={confirm})")
        return PASSWORD

    monkeypatch.setattr(Client, "connect", connecting)
    monkeypatch.setattr(main, "read_password", typed)
    token_file = tmp_path / "token-max"
    assert (await cli(argv(url, token_file, "max", "--sign-up")))[0] == 0
    assert said_first == ["asked (confirm=True)", "connect"]  # no connection waits for the typing
    said_first.clear()
    assert (await cli(argv(url, token_file, "max", "--sign-in")))[0] == 0
    assert said_first == ["connect"]  # the saved token resumes the account: no password needed
    said_first.clear()
    assert (await cli(argv(url, tmp_path / "elsewhere", "max", "--sign-in")))[0] == 0
    assert said_first == ["asked (confirm=False)", "connect"]


async def test_the_hidden_prompt_shows_stars_never_the_password() -> None:
    out = io.StringIO()
    output = Vt100_Output(out, lambda: Size(rows=24, columns=80), term="xterm")
    with create_pipe_input() as pipe:
        pipe.send_text(PASSWORD + "\r" + PASSWORD + "\r")

        async def ask(message: str) -> str:
            return await ask_hidden(message, input=pipe, output=output)

        assert await read_password(confirm=True, env={}, ask=ask) == PASSWORD
    assert "Password: " in out.getvalue() and "The same password again: " in out.getvalue()
    assert "*" * 5 in out.getvalue()
    assert PASSWORD not in out.getvalue()
    assert all(part not in out.getvalue() for part in PASSWORD.split("-"))


async def test_two_different_passwords_or_none_send_nothing() -> None:
    typed = iter(["first-password", "second-password"])

    async def ask(_message: str) -> str:
        return next(typed)

    with pytest.raises(PasswordMissing, match="The two passwords differ"):
        await read_password(confirm=True, env={}, ask=ask)
    with pytest.raises(PasswordMissing, match=PASSWORD_ENV):
        await read_password(confirm=False, env={}, terminal=False)
    assert await read_password(confirm=True, env={PASSWORD_ENV: "from-the-env"}) == "from-the-env"
    with create_pipe_input() as pipe:
        pipe.send_text("\x03")  # Ctrl-C at the prompt

        async def cancelled(message: str) -> str:
            return await ask_hidden(message, input=pipe, output=Vt100_Output(io.StringIO(), lambda: Size(24, 80)))

        with pytest.raises(PasswordMissing, match="Cancelled"):
            await read_password(confirm=False, env={}, ask=cancelled)


def test_the_sign_up_sign_in_and_sign_out_options_do_not_mix() -> None:
    from clients.cli.__main__ import parse_args

    for bad in (
        ["--sign-up", "--sign-in"],
        ["--sign-in", "--sign-out"],
        ["--everywhere"],
        ["--sign-out", "--create"],
        ["--devices", "--bot", "random"],
    ):
        with pytest.raises(SystemExit):
            parse_args(bad)
    args = parse_args(["--sign-out", "--everywhere"])
    assert args.sign_out and args.everywhere
    assert len(account.default_device()) <= 32


async def test_the_client_helpers_cover_the_account_requests(url: str) -> None:
    async with Client(url) as c, Client(url) as other, Client(url) as third:
        welcome = await c.sign_up("lou", PASSWORD, device="cli test")
        assert c.account and c.name == "lou" and c.token == welcome["token"] and c.player == welcome["player"]
        assert [(d["device"], d["current"]) for d in await c.devices()] == [("cli test", True)]
        await other.sign_in("lou", PASSWORD)
        assert other.player == c.player and other.token != c.token
        first = [d for d in await other.devices() if not d["current"]]
        assert [d["device"] for d in first] == ["cli test"]
        await other.sign_out(device=first[0]["id"])  # that device's token stops; this connection stays
        assert other.token is not None and [d["current"] for d in await other.devices()] == [True]
        await other.change_password(PASSWORD, PASSWORD + "!")
        with pytest.raises(ServerError) as err:
            await third.sign_in("lou", PASSWORD)
        assert err.value.code == "bad_credentials"
        await third.sign_in("lou", PASSWORD + "!")
        await third.sign_out(everywhere=True)
        assert third.token is None
        await asyncio.wait_for(third.closed.wait(), 5)
        assert third.close_code == 4002
    async with Client(url) as last:
        await last.sign_in("lou", PASSWORD + "!")
        await last.delete_account(PASSWORD + "!")
        assert last.token is None
        await asyncio.wait_for(last.closed.wait(), 5)
        assert last.close_code == 4002
