# ruff: noqa: F811 - `records` is the fixture imported from tests/store/test_records_sql
"""Signals of turn-based games (wire contract v1.2, `server.node.signals`), with real local receivers: an SMTP server
(`aiosmtpd`) and an HTTP server on loopback. Each player gets one e-mail and one webhook per turn, after the delay
it chose, signed with its secret, carrying nothing private (checked in the raw bytes against every seat's private
view and prompt); none when it moved before its delay; once per turn across a restart; webhooks to private,
loopback and link-local addresses are refused by default, when set and again when sent (DNS rebinding). The
signal settings are kept in the records database (memory, SQLite, PostgreSQL). Clocks run scaled (`clock_scale`):
a minute of delay lasts 30 ms."""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import ipaddress
import json
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from email import message_from_bytes
from email.policy import default as default_policy
from pathlib import Path
from typing import Any

import pytest
from aiosmtpd.smtp import SMTP, Envelope, Session

from clients.client import Client, ServerError
from server.config import Settings
from server.net.app import App
from server.node.signals import address_refused, check_email, parse_webhook, system_resolve
from server.store import RedisStore
from server.store.records import Account, NotifyPrefs, Records

from ..store.test_records_sql import records  # noqa: F401 - the fixture: SQLite, PostgreSQL, memory
from .conftest import start_app
from .test_cluster import prefix  # noqa: F401 - the fixture
from .test_redis import REDIS_URL, _redis_up

#: a minute of a player's delay lasts 30 ms; a day of the room's clock 43 s
SCALE = 0.0005
CHEAP: dict[str, Any] = {"password_memory_kib": 1024, "password_time_cost": 1}
PASSWORD = "correct horse battery"
PAYLOAD_KEYS = {"event", "id", "game", "room", "seat", "name", "deadline", "out_at", "url", "at"}


# ---- local receivers ------------------------------------------------------------------------------


class MailSink:
    """An SMTP server on loopback (aiosmtpd, in the test's event loop) keeping every message's raw bytes."""

    def __init__(self) -> None:
        self.messages: list[tuple[list[str], bytes]] = []
        self.server: asyncio.Server | None = None

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:  # noqa: N802
        content = envelope.content
        assert isinstance(content, bytes)
        self.messages.append((list(envelope.rcpt_tos), content))
        return "250 OK"

    async def start(self) -> int:
        loop = asyncio.get_running_loop()
        self.server = await loop.create_server(lambda: SMTP(self, hostname="sink.test"), "127.0.0.1", 0)
        return int(self.server.sockets[0].getsockname()[1])

    async def stop(self) -> None:
        if self.server is not None:
            self.server.close()

    def turns(self, key: str) -> list[bytes]:
        return [raw for _to, raw in self.messages if f"X-Marcopolo-Turn: {key}".encode() in raw]


class HookSink:
    """An HTTP server on loopback that answers 204 to every POST and keeps each request's raw bytes."""

    def __init__(self, status: int = 204) -> None:
        self.requests: list[tuple[str, dict[str, str], bytes, bytes]] = []  # path, headers, body, raw
        self.status = status
        self.server: asyncio.Server | None = None

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        head = await reader.readuntil(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        path = lines[0].split(" ")[1]
        headers = {k.strip().lower(): v.strip() for k, _, v in (ln.partition(":") for ln in lines[1:] if ln)}
        body = await reader.readexactly(int(headers.get("content-length", "0")))
        self.requests.append((path, headers, body, head + body))
        writer.write(f"HTTP/1.1 {self.status} X\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello".encode())
        await writer.drain()
        writer.close()

    async def start(self) -> int:
        self.server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        return int(self.server.sockets[0].getsockname()[1])

    async def stop(self) -> None:
        if self.server is not None:
            self.server.close()

    def turns(self, key: str) -> list[tuple[str, dict[str, str], bytes, bytes]]:
        return [r for r in self.requests if json.loads(r[2]).get("id") == key]


@pytest.fixture
async def sinks() -> AsyncIterator[tuple[MailSink, HookSink, int, int]]:
    mail, hook = MailSink(), HookSink()
    mail_port, hook_port = await mail.start(), await hook.start()
    yield mail, hook, mail_port, hook_port
    await mail.stop()
    await hook.stop()


@pytest.fixture
async def node() -> AsyncIterator[Callable[..., Awaitable[App]]]:
    apps: list[App] = []

    async def make(**settings: Any) -> App:
        base = {"clock_scale": SCALE, "close_away_after": 600, "bot_delay": 0.0, **CHEAP}
        app = await start_app(**{**base, **settings})
        apps.append(app)
        return app

    yield make
    for app in apps:
        await app.stop()


@pytest.fixture
async def clients() -> AsyncIterator[Callable[..., Awaitable[Client]]]:
    made: list[Client] = []

    async def make(app: App, name: str, account: bool = True) -> Client:
        c = Client(f"ws://127.0.0.1:{app.port}/ws")
        await c.connect()
        made.append(c)
        await c.hello(name)
        if account:
            await c.request("sign_up", name=name, password=PASSWORD)
        return c

    yield make
    for c in made:
        await c.close()


def _signalling(mail_port: int, **more: Any) -> dict[str, Any]:
    return {"smtp_host": "127.0.0.1", "smtp_port": mail_port, "smtp_tls": "none", "smtp_from": "games@example.org",
            "public_url": "https://games.example.org", **more}  # fmt: skip


def _name(c: Client) -> str:
    assert c.name is not None
    return c.name


async def _code(coro: Awaitable[Any]) -> str:
    try:
        await coro
    except ServerError as err:
        return err.code
    return "ok"


async def _turn_based_room(app: App, a: Client, b: Client) -> str:
    room = await a.create_room("expedition", 2, options={"seed": 11}, mode="turn_based", turn_seconds=86400)
    await a.join(room)
    await b.join(room)
    for c in (a, b):
        await c.wait_for(room, lambda s: s["status"] == "playing")
    return room


async def _settled(app: App, room: str, *cs: Client) -> None:
    """Every client holds the room's newest version."""
    for _ in range(500):
        if all(c.views[room].v == app.hub.rooms[room].v for c in cs):
            return
        await asyncio.sleep(0.005)
    raise AssertionError("the clients did not catch up")


def _mover(room: str, *cs: Client) -> Client | None:
    return next((c for c in cs if (c.view(room).get("prompt") or {}).get("options")), None)


def _turn(app: App, room: str, seat: int) -> str:
    turns = app.hub.rooms[room].meta.turns
    assert turns is not None
    turn = turns[seat]
    assert turn is not None
    return f"{room}:{seat}:{turn[0]}"


async def _until(cond: Callable[[], bool], timeout: float = 5.0) -> None:
    end = time.monotonic() + timeout
    while not cond():
        assert time.monotonic() < end, "timed out"
        await asyncio.sleep(0.01)


def _strings(value: Any) -> set[str]:
    """Every string value in a JSON-like value (the keys name fields; the values are what a seat holds)."""
    out: set[str] = set()
    if isinstance(value, str):
        out.add(value)
    elif isinstance(value, dict):
        for v in value.values():
            out |= _strings(v)
    elif isinstance(value, list):
        for v in value:
            out |= _strings(v)
    return out


def _secret_strings(view: dict[str, Any]) -> set[str]:
    """What only this seat sees (its private view, its prompt's text and options), less what every viewer sees."""
    public = _strings({k: v for k, v in view.items() if k not in ("private", "prompt", "you")})
    mine = _strings(view.get("private")) | _strings(view.get("prompt"))
    return {s for s in mine - public if len(s) >= 4}


# ---- the records ------------------------------------------------------------------------------------


async def test_signal_settings_and_claims_in_the_records(records: Records) -> None:
    assert await records.notify_prefs("pa") is None
    first = NotifyPrefs("pa", "ann@example.org", None, 15, "s" * 32, 100)
    await records.set_notify_prefs(first)
    assert await records.notify_prefs("pa") == first
    second = NotifyPrefs("pa", None, "https://hooks.example.org/x", 0, "t" * 32, 101)
    await records.set_notify_prefs(second)
    assert await records.notify_prefs("pa") == second and await records.notify_prefs("pb") is None
    # a deleted account's settings go with it
    await records.create_account(Account("pa", "Ann", "ann", None, 1))
    await records.delete_account("pa", 200, 300)
    assert await records.notify_prefs("pa") is None
    # a turn is claimed once, whoever asks
    assert await records.claim_signal("r1:0:5", 1000)
    assert not await records.claim_signal("r1:0:5", 1001)
    assert await records.claim_signal("r1:1:5", 1002) and await records.claim_signal("r1:0:7", 5000)
    assert await records.prune_signals(2000) == 2
    assert await records.claim_signal("r1:0:5", 6000)  # forgotten once pruned
    assert not await records.claim_signal("r1:0:7", 6001)


# ---- checks ---------------------------------------------------------------------------------------


def test_addresses_the_server_does_not_send_to() -> None:
    refused = {"127.0.0.1": "loopback", "10.0.0.5": "private", "169.254.1.1": "link-local", "::1": "loopback",
               "0.0.0.0": "unspecified", "192.168.1.2": "private", "172.16.0.1": "private", "224.0.0.1": "multicast",
               "100.64.0.1": "non-global", "fe80::1": "link-local", "fc00::1": "private", "::ffff:127.0.0.1":
               "loopback", "2002:7f00:1::1": "loopback", "64:ff9b::a00:5": "private", "240.0.0.1": "private",
               "255.255.255.255": "private", "ff02::1": "multicast"}  # fmt: skip
    for addr, why in refused.items():
        assert address_refused(ipaddress.ip_address(addr)) == why, addr
    for addr in ("93.184.215.14", "8.8.8.8", "2606:4700:4700::1111"):
        assert address_refused(ipaddress.ip_address(addr)) is None, addr
    assert parse_webhook("https://Hooks.Example.org:8443/a/b?x=1", False).path == "/a/b?x=1"
    assert parse_webhook("https://[::1]/h", False).host_header == "[::1]"
    for bad in ("http://example.org/h", "ftp://example.org/", "https://u:p@example.org/", "https:///nohost",
                "https://example.org/#frag", "https://exa mple.org/", "https://example.org:99999/",
                "javascript:x"):  # fmt: skip
        with pytest.raises(ValueError):
            parse_webhook(bad, False)
    assert parse_webhook("http://example.org/h", True).port == 80
    assert check_email("ann.lee+games@mail.example.org")
    for bad in ("ann", "ann@localhost", "a b@example.org", "ann@example..org", "ann@-x.org",
                "ann@example.org\r\nBcc: x", ".ann@example.org", "ann@@example.org"):  # fmt: skip
        with pytest.raises(ValueError):
            check_email(bad)


# ---- the `notify` request -------------------------------------------------------------------------


async def test_notify_is_for_accounts_and_refuses_webhooks_to_private_addresses_by_default(
    node: Callable[..., Awaitable[App]], clients: Callable[..., Awaitable[Client]]
) -> None:
    app = await node()  # no SMTP server, webhooks on, private addresses refused
    guest = await clients(app, "Gus", account=False)
    assert await _code(guest.request("notify")) == "forbidden"
    ann = await clients(app, "Ann")
    first = await ann.request("notify")
    assert first["email"] is None and first["webhook"] is None and first["delay_minutes"] == 15
    assert len(first["secret"]) >= 32
    assert await _code(ann.request("notify", email="ann@example.org")) == "forbidden"  # this server sends no e-mail

    async def fake(host: str, port: int) -> list[str]:
        return {"hooks.example.org": ["93.184.215.14"], "inside.example.org": ["93.184.215.14", "10.0.0.5"]}[host]

    for url in ("https://127.0.0.1/hook", "https://10.0.0.5/hook", "https://169.254.1.1/hook", "https://[::1]/hook",
                "https://localhost/hook", "https://inside.example.org/hook",
                "https://[::ffff:10.0.0.5]/hook"):  # fmt: skip
        if "example" in url:
            app.hub.signals.resolve = fake
        else:  # the system's resolver: `localhost` is a name that resolves to loopback
            app.hub.signals.resolve = system_resolve
        with pytest.raises(ServerError) as err:
            await ann.request("notify", webhook=url)
        assert err.value.code == "bad_message" and "does not send there" in err.value.message, url
    assert await _code(ann.request("notify", webhook="http://hooks.example.org/hook")) == "bad_message"  # https only
    app.hub.signals.resolve = fake
    got = await ann.request("notify", webhook="https://hooks.example.org/hook", delay_minutes=5)
    assert got["webhook"] == "https://hooks.example.org/hook" and got["delay_minutes"] == 5
    assert got["secret"] == first["secret"]
    again = await ann.request("notify", new_secret=True)
    assert again["secret"] != first["secret"] and again["webhook"] == "https://hooks.example.org/hook"
    assert (await ann.request("notify"))["secret"] == again["secret"]
    gone = await ann.request("notify", webhook="")
    assert gone["webhook"] is None and gone["delay_minutes"] == 5
    assert await _code(ann.request("notify", delay_minutes=14 * 24 * 60 + 1)) == "bad_message"
    assert await _code(ann.request("notify", webhook="https://x.example.org/\r\nX: y")) == "bad_message"
    # the answer is the account's own: nobody else reads it
    bob = await clients(app, "Bob")
    assert (await bob.request("notify"))["secret"] != again["secret"]


async def test_with_private_addresses_allowed_a_loopback_webhook_is_accepted(
    node: Callable[..., Awaitable[App]], clients: Callable[..., Awaitable[Client]]
) -> None:
    app = await node(webhook_allow_private=True)
    ann = await clients(app, "Ann")
    got = await ann.request("notify", webhook="https://127.0.0.1:9/hook")
    assert got["webhook"] == "https://127.0.0.1:9/hook"
    assert await _code(ann.request("notify", webhook="http://127.0.0.1:9/hook")) == "bad_message"  # still https


# ---- signals over real receivers ------------------------------------------------------------------


async def test_each_player_gets_one_email_and_one_webhook_per_turn_and_nothing_private(
    node: Callable[..., Awaitable[App]],
    clients: Callable[..., Awaitable[Client]],
    sinks: tuple[MailSink, HookSink, int, int],
) -> None:
    mail, hook, mail_port, hook_port = sinks
    app = await node(**_signalling(mail_port, webhook_allow_private=True, webhook_allow_http=True))
    ann, bob = await clients(app, "Ann"), await clients(app, "Bob")
    secrets: dict[str, str] = {}
    for c in (ann, bob):
        got = await c.request("notify", email=f"{_name(c).lower()}@example.org",
                              webhook=f"http://127.0.0.1:{hook_port}/hook/{c.name}", delay_minutes=1)  # fmt: skip
        secrets[_name(c)] = got["secret"]
    room = await _turn_based_room(app, ann, bob)
    turns: dict[str, str] = {}  # turn key -> whose
    private: set[str] = set()
    for i in range(9):
        await _settled(app, room, ann, bob)
        for c in (ann, bob):
            private |= _secret_strings(c.view(room))
        mover = _mover(room, ann, bob)
        assert mover is not None
        key = _turn(app, room, mover.view(room)["you"])
        turns[key] = _name(mover)
        await _until(lambda k=key: len(mail.turns(k)) >= 1 and len(hook.turns(k)) >= 1)  # type: ignore[misc]
        if i < 8:
            await mover.move(room, mover.view(room)["prompt"]["options"][0])
    await asyncio.sleep(0.3)  # nothing more comes for the turns that passed
    assert len(turns) >= 6 and {"Ann", "Bob"} == set(turns.values())
    assert private, "the game showed nothing private to check against"
    tokens = [ann.token or "", bob.token or ""]
    for key, who in turns.items():
        mails, hooks = mail.turns(key), hook.turns(key)
        assert len(mails) == 1 and len(hooks) == 1, (key, len(mails), len(hooks))
        path, headers, body, raw_request = hooks[0]
        assert path == f"/hook/{who}"
        expected = "sha256=" + hmac.new(secrets[who].encode(), body, hashlib.sha256).hexdigest()
        assert hmac.compare_digest(headers["x-marcopolo-signature"], expected)
        data = json.loads(body)
        assert set(data) == PAYLOAD_KEYS and data["event"] == "your_turn" and data["name"] == who
        assert data["room"] == room and data["game"] == "expedition" and data["url"] == f"https://games.example.org/#/room/{room}"
        assert isinstance(data["deadline"], int) and data["deadline"] > data["at"] - 1000
        rcpt, raw_mail = next((to, raw) for to, raw in mail.messages if raw == mails[0])
        assert rcpt == [f"{who.lower()}@example.org"]
        text = message_from_bytes(raw_mail, policy=default_policy)
        body_text = text.get_body().get_content()  # type: ignore[union-attr]
        assert f"Hello {who}," in body_text and data["url"] in body_text
        for raw in (raw_request, raw_mail, body_text.encode()):
            leaked = [s for s in private | set(tokens) if s and s.encode() in raw]
            assert not leaked, f"private data in a signal: {leaked}"
    assert len(mail.messages) == len(hook.requests) == len(turns)
    metrics = app.hub.metrics.render().decode()
    assert f'mp_signals_total{{kind="email",outcome="sent"}} {float(len(turns))}' in metrics
    assert f'mp_signals_total{{kind="webhook",outcome="sent"}} {float(len(turns))}' in metrics


async def test_no_signal_when_the_player_moves_before_the_delay(
    node: Callable[..., Awaitable[App]],
    clients: Callable[..., Awaitable[Client]],
    sinks: tuple[MailSink, HookSink, int, int],
) -> None:
    mail, hook, mail_port, hook_port = sinks
    app = await node(**_signalling(mail_port, webhook_allow_private=True, webhook_allow_http=True))
    ann, bob = await clients(app, "Ann"), await clients(app, "Bob")
    for c in (ann, bob):  # an hour: 1.8 s here
        await c.request("notify", email=f"{_name(c).lower()}@example.org",
                        webhook=f"http://127.0.0.1:{hook_port}/hook/{c.name}", delay_minutes=60)  # fmt: skip
    room = await _turn_based_room(app, ann, bob)
    passed = []
    for _ in range(6):  # each player moves at once: every turn passes long before its delay
        await _settled(app, room, ann, bob)
        mover = _mover(room, ann, bob)
        assert mover is not None
        passed.append(_turn(app, room, mover.view(room)["you"]))
        await mover.move(room, mover.view(room)["prompt"]["options"][0])
    await _settled(app, room, ann, bob)
    mover = _mover(room, ann, bob)
    assert mover is not None
    waiting = _turn(app, room, mover.view(room)["you"])
    started = time.monotonic()
    await _until(lambda: len(mail.turns(waiting)) == 1 and len(hook.turns(waiting)) == 1, timeout=8)
    assert time.monotonic() - started > 1.0, "sent before the player's delay"
    await asyncio.sleep(0.3)
    assert [json.loads(r[2])["id"] for r in hook.requests] == [waiting]
    assert len(mail.messages) == 1 and all(not mail.turns(k) for k in passed)


async def test_a_webhook_that_resolves_to_a_private_address_at_send_time_is_refused(
    node: Callable[..., Awaitable[App]],
    clients: Callable[..., Awaitable[Client]],
    sinks: tuple[MailSink, HookSink, int, int],
) -> None:
    """DNS rebinding: the name led to a public address when `notify` checked it, to loopback when the turn came."""
    mail, hook, mail_port, hook_port = sinks
    app = await node(**_signalling(mail_port, webhook_allow_http=True))
    answers = {"rebind.example.org": ["93.184.215.14"]}

    async def resolve(host: str, port: int) -> list[str]:
        return answers[host]

    app.hub.signals.resolve = resolve
    ann, bob = await clients(app, "Ann"), await clients(app, "Bob")
    for c in (ann, bob):
        await c.request("notify", email=f"{_name(c).lower()}@example.org",
                        webhook=f"http://rebind.example.org:{hook_port}/hook", delay_minutes=1)  # fmt: skip
    answers["rebind.example.org"] = ["127.0.0.1"]  # now it leads to the server's own host
    room = await _turn_based_room(app, ann, bob)
    await _settled(app, room, ann, bob)
    mover = _mover(room, ann, bob)
    assert mover is not None
    key = _turn(app, room, mover.view(room)["you"])
    await _until(lambda: len(mail.turns(key)) == 1)
    await _until(lambda: 'mp_signals_total{kind="webhook",outcome="refused"} 1.0' in app.hub.metrics.render().decode())
    await asyncio.sleep(0.2)
    assert hook.requests == []


async def test_a_redirect_or_an_error_answer_is_a_failure_and_is_not_followed(
    node: Callable[..., Awaitable[App]], clients: Callable[..., Awaitable[Client]]
) -> None:
    hook = HookSink(status=302)
    port = await hook.start()
    try:
        app = await node(webhook_allow_private=True, webhook_allow_http=True)
        ann, bob = await clients(app, "Ann"), await clients(app, "Bob")
        for c in (ann, bob):
            await c.request("notify", webhook=f"http://127.0.0.1:{port}/hook", delay_minutes=0)
        room = await _turn_based_room(app, ann, bob)
        await _until(lambda: len(hook.requests) == 1)
        failed = 'mp_signals_total{kind="webhook",outcome="failed"} 1.0'
        await _until(lambda: failed in app.hub.metrics.render().decode())
        await asyncio.sleep(0.2)
        assert len(hook.requests) == 1 and room in app.hub.rooms
    finally:
        await hook.stop()


async def test_a_turn_is_signalled_once_across_a_restart(
    tmp_path: Path,
    clients: Callable[..., Awaitable[Client]],
    sinks: tuple[MailSink, HookSink, int, int],
) -> None:
    """The node that sent a turn's signals stops; the next one loads the room with the same turn: the claim in the
    records database (the SQLite file) keeps it from sending again."""
    mail, hook, mail_port, hook_port = sinks
    db = f"sqlite:///{tmp_path}/mp.db"  # the room store and, in the same file, the records
    settings = Settings(port=0, store=db, records=db, clock_scale=SCALE, close_away_after=600,
                        allow_client_seed=True, **CHEAP,
                        **_signalling(mail_port, webhook_allow_private=True, webhook_allow_http=True))  # fmt: skip
    first = App(settings)
    await first.start()
    try:
        ann, bob = await clients(first, "Ann"), await clients(first, "Bob")
        for c in (ann, bob):
            await c.request("notify", email=f"{_name(c).lower()}@example.org",
                            webhook=f"http://127.0.0.1:{hook_port}/hook", delay_minutes=1)  # fmt: skip
        room = await _turn_based_room(first, ann, bob)
        await _settled(first, room, ann, bob)
        mover = _mover(room, ann, bob)
        assert mover is not None
        key = _turn(first, room, mover.view(room)["you"])
        await _until(lambda: len(mail.turns(key)) == 1 and len(hook.turns(key)) == 1)
    finally:
        await first.stop()
    second = App(settings)
    await second.start()
    try:
        assert room in second.hub.rooms and _turn(second, room, int(key.split(":")[1])) == key
        await _until(lambda: 'mp_signals_total{kind="turn",outcome="duplicate"} 1.0' in
                     second.hub.metrics.render().decode())  # fmt: skip
        await asyncio.sleep(0.2)
        assert len(mail.messages) == 1 and len(hook.requests) == 1
    finally:
        await second.stop()


async def test_waiting_signals_are_bounded(
    node: Callable[..., Awaitable[App]],
    clients: Callable[..., Awaitable[Client]],
    sinks: tuple[MailSink, HookSink, int, int],
) -> None:
    """`signals_pending` bounds the timers a node keeps: past it a turn's signal is dropped and counted."""
    mail, hook, mail_port, hook_port = sinks
    app = await node(**_signalling(mail_port, webhook_allow_private=True, webhook_allow_http=True), signals_pending=1)
    ann, bob = await clients(app, "Ann"), await clients(app, "Bob")
    for c in (ann, bob):
        await c.request("notify", webhook=f"http://127.0.0.1:{hook_port}/hook", delay_minutes=600)
    await _turn_based_room(app, ann, bob)
    await _turn_based_room(app, ann, bob)
    dropped = 'mp_signals_total{kind="turn",outcome="dropped"} 1.0'
    await _until(lambda: dropped in app.hub.metrics.render().decode())
    assert 'mp_node_table_entries{table="signals_pending"} 1.0' in app.hub.metrics.render().decode()


def test_a_server_that_sends_e_mail_needs_a_from_address() -> None:
    with pytest.raises(ValueError, match="smtp_from"):
        App(Settings(port=0, store="memory", records="memory", smtp_host="127.0.0.1"))
    with pytest.raises(ValueError, match="public_url"):
        App(Settings(port=0, store="memory", records="memory", public_url="games.example.org"))


@pytest.mark.skipif(not _redis_up(), reason="no Redis answers on 127.0.0.1:6379")
async def test_two_nodes_signal_a_turn_once_when_the_room_moves_between_them(
    prefix: str,  # noqa: F811
    pg_url: str,
    sinks: tuple[MailSink, HookSink, int, int],
) -> None:
    """Two nodes on one Redis and one PostgreSQL: node A signals the turn, then stops; node B takes the room over
    with the same turn running, and finds it claimed: nothing is sent twice."""
    mail, hook, mail_port, hook_port = sinks
    apps: dict[str, App] = {}
    for name in ("node-a", "node-b"):
        settings = Settings(port=0, node_id=name, rate=1000.0, burst=2000, lease_ms=1000, store=REDIS_URL,
                            records=pg_url, allow_client_seed=True, clock_scale=SCALE, close_away_after=600, **CHEAP,
                            **_signalling(mail_port, webhook_allow_private=True, webhook_allow_http=True))  # fmt: skip
        apps[name] = App(settings, store=RedisStore(REDIS_URL, prefix=prefix))
        await apps[name].start()
    a, b = apps["node-a"], apps["node-b"]
    conns: list[Client] = []
    try:
        for app, name in ((a, "Ann"), (b, "Bob")):
            c = Client(f"ws://127.0.0.1:{app.port}/ws")
            await c.connect()
            conns.append(c)
            await c.hello(name)
            await c.request("sign_up", name=name, password=PASSWORD)
            await c.request("notify", email=f"{name.lower()}@example.org",
                            webhook=f"http://127.0.0.1:{hook_port}/hook", delay_minutes=1)  # fmt: skip
        ann, bob = conns
        room = await _turn_based_room(a, ann, bob)
        assert room in a.hub.rooms and room not in b.hub.rooms
        mover = _mover(room, ann, bob)
        assert mover is not None
        key = _turn(a, room, mover.view(room)["you"])
        await _until(lambda: len(mail.turns(key)) == 1 and len(hook.turns(key)) == 1)
        await a.stop()  # its lease handed back: Bob's node follows the room and takes it over
        await _until(lambda: room in b.hub.rooms, timeout=10)
        assert _turn(b, room, int(key.split(":")[1])) == key
        duplicate = 'mp_signals_total{kind="turn",outcome="duplicate"} 1.0'
        await _until(lambda: duplicate in b.hub.metrics.render().decode())
        await asyncio.sleep(0.2)
        assert len(mail.messages) == 1 and len(hook.requests) == 1
    finally:
        for c in conns:
            await c.close()
        for app in apps.values():
            await app.stop()


def test_the_smtp_password_is_never_shown() -> None:
    settings = Settings(port=0, smtp_password="hunter2-smtp-secret")
    assert settings.smtp_password.get_secret_value() == "hunter2-smtp-secret"
    assert "hunter2-smtp-secret" not in repr(settings) and "hunter2-smtp-secret" not in str(settings.model_dump())
