"""Accounts over real sockets (wire contract v1.2): sign-up, sign-in on several devices, resuming a token,
sign-out of one device or everywhere, a guest turning into an account, names that read the same, the limits on
failed sign-ins, and what must never leak (passwords, tokens). On in-memory records, a SQLite file and a real
PostgreSQL (a database of this run's own, tests/conftest.py)."""

from __future__ import annotations

import asyncio
import json
import logging
import statistics
import time
import urllib.error
import urllib.request
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from clients.client import Client, ServerError
from server.net.app import App
from server.store.sqlite import SqliteStore

from .conftest import start_app
from .soft_authenticator import SoftAuthenticator, b64url

PASSWORD = "correct horse battery"
#: cheap hashes for tests (the server's defaults are OWASP's: 19 MiB, two passes)
CHEAP = {"password_memory_kib": 1024, "password_time_cost": 1}


@pytest.fixture(params=["memory", "sqlite", "postgresql"])
async def app(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[App]:
    records = {"memory": "memory", "sqlite": f"sqlite:///{tmp_path}/records.db"}.get(request.param)
    if records is None:
        records = request.getfixturevalue("pg_url")
    app = await start_app(records=records, **CHEAP)
    yield app
    await app.stop()


@pytest.fixture
async def connect(app: App) -> AsyncIterator[Callable[..., Awaitable[Client]]]:
    clients: list[Client] = []

    async def make(keep_frames: bool = False) -> Client:
        c = Client(f"ws://127.0.0.1:{app.port}/ws", keep_frames=keep_frames)
        await c.connect()
        clients.append(c)
        return c

    yield make
    for c in clients:
        await c.close()


async def _code(coro: Awaitable[Any]) -> str:
    try:
        await coro
    except ServerError as err:
        return err.code
    return "ok"


async def _closed(c: Client, timeout: float = 5.0) -> int | None:
    await asyncio.wait_for(c.closed.wait(), timeout)
    return c.close_code


async def test_sign_up_owns_the_name_however_it_is_written(connect: Callable[..., Awaitable[Client]]) -> None:
    a = await connect()
    got = await a.request("sign_up", name="Alice", password=PASSWORD)
    assert got["t"] == "welcome" and got["account"] is True and got["name"] == "Alice" and got["rooms"] == []
    # case, a space, Cyrillic А, full width, the digit 1 for l
    for other in ("ALICE", "alice", "A lice", "Аlice", "ＡＬＩＣＥ", "A1ice"):
        c = await connect()
        assert await _code(c.request("sign_up", name=other, password=PASSWORD)) == "name_taken", other
        assert await _code(c.request("hello", name=other)) == "name_taken", other  # nor as a guest
    guest = await connect()
    welcome = await guest.request("hello", name="Bob")
    assert welcome["account"] is False and welcome["name"] == "Bob"
    short = await connect()
    assert await _code(short.request("sign_up", name="Carol", password="short")) == "bad_message"


async def test_an_account_signs_in_on_a_second_device_and_its_token_resumes_it(
    connect: Callable[..., Awaitable[Client]],
) -> None:
    first = await connect()
    made = await first.request("sign_up", name="Dora", password=PASSWORD)
    second = await connect()
    got = await second.request("sign_in", name="DORA", password=PASSWORD)
    assert got["player"] == made["player"] and got["token"] != made["token"] and got["name"] == "Dora"
    assert await _closed(first) == 4001  # one connection per player: the newer replaces it
    again = await connect()
    resumed = await again.request("hello", name="Someone Else", token=made["token"])
    assert resumed["player"] == made["player"] and resumed["account"] is True and resumed["name"] == "Dora"


async def test_bad_credentials_do_not_tell_an_unknown_name_from_a_wrong_password(
    connect: Callable[..., Awaitable[Client]],
) -> None:
    c = await connect()
    await c.request("sign_up", name="Erin", password=PASSWORD)
    d = await connect()
    assert await _code(d.request("sign_in", name="Erin", password="wrong password")) == "bad_credentials"
    assert await _code(d.request("sign_in", name="Nobody", password=PASSWORD)) == "bad_credentials"
    unknown: list[float] = []
    wrong: list[float] = []
    for i in range(8):  # interleaved, so a slow moment of the machine hits both
        for name, times in (("Nobody", unknown), ("Erin", wrong)):
            t0 = time.perf_counter()
            assert await _code(d.request("sign_in", name=f"{name}", password=f"nope {i}")) == "bad_credentials"
            times.append(time.perf_counter() - t0)
    ratio = statistics.median(unknown) / statistics.median(wrong)
    print(f"median unknown {statistics.median(unknown) * 1000:.1f} ms, wrong {statistics.median(wrong) * 1000:.1f} ms")
    assert 0.5 < ratio < 2.0, (unknown, wrong)  # both verify one argon2id hash (a decoy for an unknown name)


async def test_sign_out_stops_the_token_and_everywhere_stops_every_token(
    connect: Callable[..., Awaitable[Client]],
) -> None:
    a = await connect()
    made = await a.request("sign_up", name="Finn", password=PASSWORD)
    b = await connect()
    phone = await b.request("sign_in", name="Finn", password=PASSWORD)
    c = await connect()
    laptop = await c.request("sign_in", name="Finn", password=PASSWORD)
    assert await _code(c.request("sign_out")) == "ok"
    assert await _closed(c) == 4002
    d = await connect()
    stale = await d.request("hello", name="Finn Again", token=laptop["token"])  # signed out: a new guest
    assert stale["player"] != made["player"] and stale["account"] is False
    e = await connect()
    ok = await e.request("hello", name="x", token=phone["token"])  # the phone's token still works
    assert ok["player"] == made["player"]
    assert await _code(e.request("sign_out", everywhere=True)) == "ok"
    for token in (made["token"], phone["token"]):
        f = await connect()
        got = await f.request("hello", name="Finn Guest", token=token)
        assert got["player"] != made["player"] and got["account"] is False
    g = await connect()
    back = await g.request("sign_in", name="finn", password=PASSWORD)  # the password still signs in
    assert back["player"] == made["player"]
    h = await connect()
    await h.request("hello", name="Gus")
    assert await _code(h.request("sign_out")) == "forbidden"  # a guest has nothing to sign out of


async def test_a_guest_becomes_an_account_and_keeps_its_seat(connect: Callable[..., Awaitable[Client]]) -> None:
    guest = await connect()
    hello = await guest.request("hello", name="Hana")
    room = await guest.create("expedition", 2)
    await guest.join(room)
    made = await guest.request("sign_up", name="Hana", password=PASSWORD)
    assert made["player"] == hello["player"] and made["account"] is True
    assert [r["room"] for r in made["rooms"]] == [room]
    other = await connect()
    old = await other.request("hello", name="Hana's Old Tab", token=hello["token"])
    assert old["player"] != hello["player"]  # the guest's token no longer resumes the account
    assert await _code(guest.request("sign_up", name="Hana Two", password=PASSWORD)) == "forbidden"


async def test_failed_sign_ins_are_limited_per_name_and_counted(
    app: App, connect: Callable[..., Awaitable[Client]]
) -> None:
    c = await connect()
    await c.request("sign_up", name="Ivan", password=PASSWORD)
    d = await connect()
    limit = app.hub.settings.auth_fails_per_name
    for i in range(limit):
        assert await _code(d.request("sign_in", name="Ivan", password=f"guess {i}")) == "bad_credentials"
    # the right password waits too: the pause is per name, whoever asks
    assert await _code(d.request("sign_in", name="ivan", password=PASSWORD)) == "rate_limited"
    text = app.hub.metrics.render().decode()
    assert 'mp_auth_failures_total{reason="wrong_password"} 10.0' in text
    assert 'mp_auth_failures_total{reason="limited"} 1.0' in text
    e = await connect()  # another name is not held up (its own count; the address has room left)
    assert await _code(e.request("sign_in", name="Nobody", password=PASSWORD)) == "bad_credentials"


async def test_credentials_reach_no_log_line_metric_or_other_players_frame(
    app: App, connect: Callable[..., Awaitable[Client]], caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    watcher = await connect(keep_frames=True)
    await watcher.request("hello", name="Watcher")
    await watcher.request("watch_lobby")
    a = await connect()
    made = await a.request("sign_up", name="Jade", password="hunter2 secret pass")
    room = await a.create("expedition", 2)
    await a.join(room)
    await watcher.join(room, seat=None)
    b = await connect()
    await _code(b.request("sign_in", name="Jade", password="a wrong secret pass"))
    again = await b.request("sign_in", name="Jade", password="hunter2 secret pass")
    secrets = [b"hunter2 secret pass", b"a wrong secret pass", made["token"].encode(), again["token"].encode()]
    assert watcher.frames is not None
    for frame in watcher.frames:
        assert not any(s in frame for s in secrets)
    text = (caplog.text + app.hub.metrics.render().decode()).encode()
    assert not any(s in text for s in secrets)


async def test_an_account_outlives_a_restart_on_sqlite(tmp_path: Path) -> None:
    path = tmp_path / "mp.db"
    app = await start_app(store=SqliteStore(path, takeover=True), records="", **CHEAP)
    try:
        c = Client(f"ws://127.0.0.1:{app.port}/ws")
        await c.connect()
        made = await c.request("sign_up", name="Kira", password=PASSWORD)
        await c.close()
    finally:
        await app.stop()
    app = await start_app(store=SqliteStore(path, takeover=True), records="", **CHEAP)
    try:
        c = Client(f"ws://127.0.0.1:{app.port}/ws")
        await c.connect()
        got = await c.request("hello", name="k", token=made["token"])
        assert got["player"] == made["player"] and got["account"] is True
        d = Client(f"ws://127.0.0.1:{app.port}/ws")
        await d.connect()
        assert (await d.request("sign_in", name="KIRA", password=PASSWORD))["player"] == made["player"]
        await c.close()
        await d.close()
    finally:
        await app.stop()


async def test_devices_are_listed_and_one_is_signed_out_from_another(connect: Callable[..., Awaitable[Client]]) -> None:
    a = await connect()
    made = await a.request("sign_up", name="Lena", password=PASSWORD, device="laptop")
    b = await connect()
    phone = await b.request("sign_in", name="Lena", password=PASSWORD, device="phone")
    listed = {d["device"]: d for d in (await b.request("devices"))["devices"]}  # newest first; one second here
    assert {name: d["current"] for name, d in listed.items()} == {"phone": True, "laptop": False}
    assert all(len(d["id"]) == 16 and d["id"] not in (made["token"], phone["token"]) for d in listed.values())
    assert await _code(b.request("sign_out", device=listed["laptop"]["id"])) == "ok"
    assert not b.closed.is_set()  # this device stays signed in
    assert [d["device"] for d in (await b.request("devices"))["devices"]] == ["phone"]
    assert await _code(b.request("sign_out", device="0" * 16)) == "not_found"
    c = await connect()
    assert (await c.request("hello", name="x", token=made["token"]))["account"] is False  # the laptop's token died
    d = await connect()
    await d.request("hello", name="Guest Mo")
    assert await _code(d.request("devices")) == "forbidden"


async def test_a_new_password_signs_out_every_other_device(connect: Callable[..., Awaitable[Client]]) -> None:
    a = await connect()
    made = await a.request("sign_up", name="Mira", password=PASSWORD)
    b = await connect()
    await b.request("sign_in", name="Mira", password=PASSWORD)
    c = await connect()
    await c.request("hello", name="m", token=made["token"])  # device one again, on a third connection
    assert await _code(c.request("change_password", password="not it at all", new_password="new secret!")) == (
        "bad_credentials"
    )
    assert await _code(c.request("change_password", password=PASSWORD, new_password="short")) == "bad_message"
    assert await _code(c.request("change_password", password=PASSWORD, new_password="a new secret")) == "ok"
    assert [d["current"] for d in (await c.request("devices"))["devices"]] == [True]
    e = await connect()
    assert await _code(e.request("sign_in", name="Mira", password=PASSWORD)) == "bad_credentials"
    assert (await e.request("sign_in", name="Mira", password="a new secret"))["player"] == made["player"]


async def test_a_deleted_account_frees_its_name_later_and_its_games_stay(
    app: App, connect: Callable[..., Awaitable[Client]]
) -> None:
    a = await connect()
    made = await a.request("sign_up", name="Nora", password=PASSWORD)
    assert await _code(a.request("delete_account", password="wrong password!")) == "bad_credentials"
    assert await _code(a.request("delete_account", password=PASSWORD)) == "ok"
    assert await _closed(a) == 4002
    b = await connect()
    assert (await b.request("hello", name="n", token=made["token"]))["account"] is False
    c = await connect()
    assert await _code(c.request("sign_in", name="Nora", password=PASSWORD)) == "bad_credentials"
    # the name waits `name_free_days` (30 by default) before anybody may take it
    assert await _code(c.request("sign_up", name="Nora", password=PASSWORD)) == "name_taken"


def _get(port: int, path: str, headers: dict[str, str] | None = None) -> tuple[int, dict[str, Any]]:
    """A GET to the node's HTTP side as a browser's fetch would send it (host `localhost`)."""
    req = urllib.request.Request(f"http://localhost:{port}{path}", headers=headers or {})
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read())


def _credential(cred: dict[str, Any]) -> str:
    return b64url(json.dumps(cred).encode())


async def test_a_passkey_is_registered_by_an_account_and_signs_it_in_on_another_device(
    app: App, connect: Callable[..., Awaitable[Client]]
) -> None:
    port, origin, key = app.port, f"http://localhost:{app.port}", SoftAuthenticator()
    a = await connect()
    made = await a.request("sign_up", name="Olga", password=PASSWORD)
    bearer = {"Authorization": f"Bearer {made['token']}"}
    status, body = await asyncio.to_thread(_get, port, "/auth/passkey/register/options")
    assert status == 401 and body["error"] == "forbidden"  # an account registers passkeys, nobody else
    status, body = await asyncio.to_thread(_get, port, "/auth/passkey/register/options", bearer)
    assert status == 200 and body["options"]["rp"]["id"] == "localhost"
    assert body["options"]["authenticatorSelection"]["residentKey"] == "required"
    created = key.create(body["options"], origin)
    headers = {**bearer, "X-Ceremony": body["ceremony"], "X-Credential": _credential(created)}
    status, done = await asyncio.to_thread(_get, port, "/auth/passkey/register", headers)
    assert status == 200 and done["ok"] is True, done
    status, again = await asyncio.to_thread(_get, port, "/auth/passkey/register", headers)
    assert status == 400  # a ceremony is used once

    status, body = await asyncio.to_thread(_get, port, "/auth/passkey/login/options")
    assert status == 200
    asserted = key.get(body["options"], origin)
    headers = {"X-Ceremony": body["ceremony"], "X-Credential": _credential(asserted), "X-Device": "phone"}
    status, who = await asyncio.to_thread(_get, port, "/auth/passkey/login", headers)
    assert status == 200 and who["player"] == made["player"] and who["name"] == "Olga" and who["token"]
    b = await connect()
    resumed = await b.request("hello", name="o", token=who["token"])
    assert resumed["player"] == made["player"] and resumed["account"] is True
    assert "phone" in [d["device"] for d in (await b.request("devices"))["devices"]]


async def test_a_passkey_answer_for_another_origin_or_challenge_is_refused(
    app: App, connect: Callable[..., Awaitable[Client]]
) -> None:
    port, origin, key = app.port, f"http://localhost:{app.port}", SoftAuthenticator()
    a = await connect()
    made = await a.request("sign_up", name="Pia", password=PASSWORD)
    bearer = {"Authorization": f"Bearer {made['token']}"}
    _, body = await asyncio.to_thread(_get, port, "/auth/passkey/register/options", bearer)
    created = _credential(key.create(body["options"], origin))
    headers = {**bearer, "X-Ceremony": body["ceremony"], "X-Credential": created}
    assert (await asyncio.to_thread(_get, port, "/auth/passkey/register", headers))[0] == 200
    _, body = await asyncio.to_thread(_get, port, "/auth/passkey/login/options")
    phished = key.get(body["options"], "https://evil.example")
    headers = {"X-Ceremony": body["ceremony"], "X-Credential": _credential(phished)}
    status, refused = await asyncio.to_thread(_get, port, "/auth/passkey/login", headers)
    assert status == 400 and refused["error"] == "bad_credentials"
    _, first = await asyncio.to_thread(_get, port, "/auth/passkey/login/options")
    _, second = await asyncio.to_thread(_get, port, "/auth/passkey/login/options")
    wrong = key.get(first["options"], origin)  # signed for the first challenge, sent with the second ceremony
    headers = {"X-Ceremony": second["ceremony"], "X-Credential": _credential(wrong)}
    assert (await asyncio.to_thread(_get, port, "/auth/passkey/login", headers))[0] == 400
    headers = {"X-Ceremony": "nope", "X-Credential": "!!!"}
    assert (await asyncio.to_thread(_get, port, "/auth/passkey/login", headers))[0] == 400
