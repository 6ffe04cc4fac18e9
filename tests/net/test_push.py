# ruff: noqa: F811 - `records` is the fixture imported from tests/store/test_records_sql
"""Web push of turn-based games (wire contract v1.2, `server.node.signals`), against a push service of the test's own:
an HTTP server on loopback that checks what a real one checks (the VAPID token: signed by the server's key, `aud`
the endpoint's origin, not expired) and decrypts every message with the subscription's private key, as the browser
would (RFC 8291 aes128gcm, `http_ece`). Each player's browser gets one push per turn, after the delay it chose,
carrying the webhook's payload and nothing private (checked in the decrypted bytes against every seat's private view
and prompt); push endpoints on loopback or private addresses are refused by default, when set and again when sent; a
subscription the push service answers 410 (or 404) is dropped. Without a VAPID key a server sends no push and says so.
"""

from __future__ import annotations

import asyncio
import base64
import json
import os
import time
import urllib.error
import urllib.request
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import http_ece
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from py_vapid import jwt as vapid_jwt

from clients.client import Client, ServerError
from server.config import Settings
from server.net.app import App
from server.node.signals import check_push_keys, load_vapid, push_topic, vapid_public_key
from server.store.records import Account, PushSub, Records

from ..store.test_records_sql import records  # noqa: F401 - the fixture: SQLite, PostgreSQL, memory
from .conftest import start_app
from .test_signals import (
    CHEAP,
    PASSWORD,
    PAYLOAD_KEYS,
    SCALE,
    _code,
    _mover,
    _name,
    _secret_strings,
    _settled,
    _turn,
    _turn_based_room,
    _until,
)

SUBJECT = "mailto:ops@example.org"


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Browser:
    """What a browser keeps of its push subscription: a P-256 key pair and a 16-byte auth secret."""

    def __init__(self, endpoint: str) -> None:
        self.endpoint = endpoint
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)

    @property
    def subscription(self) -> dict[str, Any]:
        point = self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return {"endpoint": self.endpoint, "keys": {"p256dh": b64(point), "auth": b64(self.auth)}}

    def decrypt(self, body: bytes) -> bytes:
        out: bytes = http_ece.decrypt(body, private_key=self.key, auth_secret=self.auth, version="aes128gcm")
        return out


class PushService:
    """A push service on loopback: keeps each request (path, headers, body) and answers `status` (201)."""

    def __init__(self, status: int = 201) -> None:
        self.requests: list[tuple[str, dict[str, str], bytes]] = []
        self.status = status
        self.server: asyncio.Server | None = None
        self.port = 0

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        head = await reader.readuntil(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        method, path = lines[0].split(" ")[:2]
        assert method == "POST"
        headers = {k.strip().lower(): v.strip() for k, _, v in (ln.partition(":") for ln in lines[1:] if ln)}
        body = await reader.readexactly(int(headers.get("content-length", "0")))
        self.requests.append((path, headers, body))
        writer.write(f"HTTP/1.1 {self.status} X\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".encode())
        await writer.drain()
        writer.close()

    async def start(self) -> int:
        self.server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        self.port = int(self.server.sockets[0].getsockname()[1])
        return self.port

    async def stop(self) -> None:
        if self.server is not None:
            self.server.close()

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def to(self, path: str) -> list[tuple[str, dict[str, str], bytes]]:
        return [r for r in self.requests if r[0] == path]


def vapid_file(tmp_path: Path) -> Path:
    """A VAPID private key as `openssl ecparam -name prime256v1 -genkey -noout` writes it (SEC 1 PEM)."""
    key = ec.generate_private_key(ec.SECP256R1())
    path = tmp_path / "vapid.pem"
    path.write_bytes(
        key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.TraditionalOpenSSL,
                          serialization.NoEncryption())  # fmt: skip
    )
    return path


def check_vapid(headers: dict[str, str], server_key: str, audience: str) -> dict[str, Any]:
    """What a push service checks of `Authorization: vapid t=JWT,k=KEY` (RFC 8292): the key is the server's, the JWT
    is signed by it (ES256), its `aud` is the endpoint's origin and it expires within a day. Its claims."""
    scheme, _, params = headers["authorization"].partition(" ")
    assert scheme == "vapid"
    parts = dict(p.split("=", 1) for p in params.split(","))
    assert parts["k"] == server_key
    head = json.loads(unb64(parts["t"].split(".")[0]))
    assert head == {"typ": "JWT", "alg": "ES256"}
    claims: dict[str, Any] = vapid_jwt.decode(parts["t"], parts["k"])  # raises InvalidSignature when forged
    assert claims["aud"] == audience and claims["sub"] == SUBJECT
    assert time.time() < claims["exp"] <= time.time() + 86400
    return claims


@pytest.fixture
async def push() -> AsyncIterator[PushService]:
    service = PushService()
    await service.start()
    yield service
    await service.stop()


@pytest.fixture
async def node(tmp_path: Path) -> AsyncIterator[Callable[..., Awaitable[App]]]:
    apps: list[App] = []

    async def make(vapid: bool = True, **settings: Any) -> App:
        base: dict[str, Any] = {"clock_scale": SCALE, "close_away_after": 600, "bot_delay": 0.0, **CHEAP}
        if vapid:
            base |= {"vapid_private_key": vapid_file(tmp_path), "vapid_subject": SUBJECT}
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


def _get(url: str) -> tuple[int, dict[str, Any]]:
    try:
        with urllib.request.urlopen(url, timeout=5) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read())


# ---- the records ------------------------------------------------------------------------------------


async def test_push_subscriptions_in_the_records(records: Records) -> None:
    assert await records.push_subs("pa") == []
    for i in range(4):
        await records.add_push_sub(PushSub("pa", f"https://push.example.org/{i}", "k" * 87, "a" * 22, 100 + i), 3)
    assert [s.endpoint for s in await records.push_subs("pa")] == [f"https://push.example.org/{i}" for i in (1, 2, 3)]
    # the same endpoint again: renewed (new keys), the newest now
    await records.add_push_sub(PushSub("pa", "https://push.example.org/1", "n" * 87, "b" * 22, 200), 3)
    subs = await records.push_subs("pa")
    assert [s.endpoint[-1] for s in subs] == ["2", "3", "1"] and subs[-1].p256dh == "n" * 87
    assert await records.drop_push_sub("pa", "https://push.example.org/2") == 1
    assert await records.drop_push_sub("pa", "https://push.example.org/2") == 0
    await records.add_push_sub(PushSub("pb", "https://push.example.org/b", "k" * 87, "a" * 22, 300), 3)
    assert await records.drop_push_sub("pa", None) == 2
    assert await records.push_subs("pa") == [] and len(await records.push_subs("pb")) == 1
    # a deleted account's subscriptions go with it
    await records.create_account(Account("pb", "Bo", "bo", None, 1))
    await records.delete_account("pb", 400, 500)
    assert await records.push_subs("pb") == []


# ---- checks and settings ----------------------------------------------------------------------------


def test_a_subscriptions_keys_are_checked_and_the_vapid_key_is_read_from_its_file(tmp_path: Path) -> None:
    good = Browser("https://push.example.org/x").subscription["keys"]
    check_push_keys(good["p256dh"], good["auth"])
    for p256dh, auth in ((good["p256dh"][:-4] + "AAAA", good["auth"]), ("A" + good["p256dh"][1:], good["auth"]),
                         (good["p256dh"], good["auth"][:-3]), ("%%%", good["auth"])):  # fmt: skip
        with pytest.raises(ValueError):
            check_push_keys(p256dh, auth)
    path = vapid_file(tmp_path)
    key = serialization.load_pem_private_key(path.read_bytes(), None)
    assert isinstance(key, ec.EllipticCurvePrivateKey)
    raw = key.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    assert vapid_public_key(load_vapid(path)) == b64(raw)
    (tmp_path / "rsa.pem").write_text("-----BEGIN PRIVATE KEY-----\nnot a key\n-----END PRIVATE KEY-----\n")
    for bad in (tmp_path / "missing.pem", tmp_path / "rsa.pem"):
        with pytest.raises(ValueError, match="vapid_private_key"):
            load_vapid(bad)
    with pytest.raises(ValueError, match="vapid_subject"):
        App(Settings(port=0, store="memory", records="memory", vapid_private_key=path))
    assert len(push_topic("r1", 0)) <= 32 and push_topic("r1", 0) != push_topic("r1", 1)


async def test_without_a_vapid_key_the_server_sends_no_push_and_says_so(
    node: Callable[..., Awaitable[App]], clients: Callable[..., Awaitable[Client]]
) -> None:
    app = await node(vapid=False)
    ann = await clients(app, "Ann")
    got = await ann.request("notify")
    assert got["push_key"] is None and got["push"] == [] and got["channels"] == ["webhook"]
    sub = Browser("https://push.example.org/ann").subscription
    with pytest.raises(ServerError) as err:
        await ann.request("notify", push=sub)
    assert err.value.code == "forbidden" and "no web push" in err.value.message
    assert await asyncio.to_thread(_get, f"http://127.0.0.1:{app.port}/push/key") == (
        404, {"error": "not_found", "message": "this server sends no web push"}
    )  # fmt: skip


async def test_push_endpoints_on_private_addresses_are_refused_and_subscriptions_kept_per_browser(
    node: Callable[..., Awaitable[App]], clients: Callable[..., Awaitable[Client]]
) -> None:
    app = await node()  # a VAPID key; push endpoints on private addresses refused (the default)
    status, body = await asyncio.to_thread(_get, f"http://127.0.0.1:{app.port}/push/key")
    assert status == 200 and body == {"key": app.hub.signals.push_key}
    guest = await clients(app, "Gus", account=False)
    assert await _code(guest.request("notify", push=Browser("https://push.example.org/g").subscription)) == "forbidden"
    ann = await clients(app, "Ann")
    first = await ann.request("notify")
    assert first["push"] == [] and first["push_key"] == body["key"] and "push" in first["channels"]

    async def fake(host: str, port: int) -> list[str]:
        return {"push.example.org": ["93.184.215.14"], "inside.example.org": ["10.0.0.5"]}[host]

    app.hub.signals.resolve = fake
    for url in ("https://127.0.0.1/push/1", "https://10.0.0.5/push/1", "https://[::1]/push/1",
                "https://169.254.169.254/push/1", "https://inside.example.org/push/1"):  # fmt: skip
        with pytest.raises(ServerError) as err:
            await ann.request("notify", push=Browser(url).subscription)
        assert err.value.code == "bad_message" and "does not send there" in err.value.message, url
    assert await _code(ann.request("notify", push=Browser("http://push.example.org/p").subscription)) == "bad_message"
    bad_keys = Browser("https://push.example.org/bad").subscription
    bad_keys["keys"]["p256dh"] = "A" + bad_keys["keys"]["p256dh"][1:]  # not an uncompressed point
    assert await _code(ann.request("notify", push=bad_keys)) == "bad_message"
    # one subscription per browser: a phone and a laptop
    phone, laptop = Browser("https://push.example.org/phone"), Browser("https://push.example.org/laptop")
    assert (await ann.request("notify", push=phone.subscription))["push"] == [phone.endpoint]
    got = await ann.request("notify", push=laptop.subscription, delay_minutes=5)
    assert got["push"] == [phone.endpoint, laptop.endpoint] and got["delay_minutes"] == 5
    got = await ann.request("notify", push_remove=phone.endpoint)
    assert got["push"] == [laptop.endpoint]
    assert (await ann.request("notify", push=""))["push"] == []
    # nobody else reads them
    bob = await clients(app, "Bob")
    assert (await bob.request("notify"))["push"] == []


# ---- pushes over a push service on loopback -------------------------------------------------------


async def test_each_player_gets_one_encrypted_push_per_turn_with_nothing_private(
    node: Callable[..., Awaitable[App]], clients: Callable[..., Awaitable[Client]], push: PushService
) -> None:
    app = await node(webhook_allow_private=True, webhook_allow_http=True, public_url="https://games.example.org")
    ann, bob = await clients(app, "Ann"), await clients(app, "Bob")
    browsers = {}
    for c in (ann, bob):
        browser = Browser(f"{push.origin}/push/{c.name}")
        browsers[_name(c)] = browser
        got = await c.request("notify", push=browser.subscription, delay_minutes=1)
        assert got["push"] == [browser.endpoint]
    server_key = app.hub.signals.push_key
    assert server_key is not None
    room = await _turn_based_room(app, ann, bob)
    turns: dict[str, str] = {}
    private: set[str] = set()
    for i in range(9):
        await _settled(app, room, ann, bob)
        for c in (ann, bob):
            private |= _secret_strings(c.view(room))
        mover = _mover(room, ann, bob)
        assert mover is not None
        key = _turn(app, room, mover.view(room)["you"])
        turns[key] = _name(mover)
        path = f"/push/{mover.name}"
        before = len(push.to(path))
        await _until(lambda p=path, n=before: len(push.to(p)) > n)  # type: ignore[misc]
        if i < 8:
            await mover.move(room, mover.view(room)["prompt"]["options"][0])
    await asyncio.sleep(0.3)  # nothing more comes for the turns that passed
    assert len(turns) >= 6 and {"Ann", "Bob"} == set(turns.values())
    assert private, "the game showed nothing private to check against"
    tokens = [ann.token or "", bob.token or ""]
    got: dict[str, list[str]] = {}
    for path, headers, body in push.requests:
        who = path.rsplit("/", 1)[1]
        check_vapid(headers, server_key, push.origin)
        assert headers["content-encoding"] == "aes128gcm" and headers["content-type"] == "application/octet-stream"
        assert int(headers["ttl"]) > 0 and len(headers["topic"]) <= 32
        plain = browsers[who].decrypt(body)  # only this browser's key opens it
        other = browsers["Bob" if who == "Ann" else "Ann"]
        with pytest.raises(Exception):  # noqa: B017 - http_ece raises bare exceptions on a wrong key
            other.decrypt(body)
        data = json.loads(plain)
        assert set(data) == PAYLOAD_KEYS and data["event"] == "your_turn" and data["name"] == who
        assert data["room"] == room and data["url"] == f"https://games.example.org/#/room/{room}"
        assert room.encode() not in body, "the message crossed the wire unencrypted"
        leaked = [s for s in private | set(tokens) if s and s.encode() in plain]
        assert not leaked, f"private data in a push: {leaked}"
        got.setdefault(data["id"], []).append(who)
    assert got == {key: [who] for key, who in turns.items()}, "not exactly one push per turn"
    metrics = app.hub.metrics.render().decode()
    assert f'mp_signals_total{{kind="push",outcome="sent"}} {float(len(turns))}' in metrics


async def test_a_subscription_the_push_service_answers_410_is_dropped(
    node: Callable[..., Awaitable[App]], clients: Callable[..., Awaitable[Client]]
) -> None:
    gone = PushService(status=410)
    await gone.start()
    try:
        app = await node(webhook_allow_private=True, webhook_allow_http=True)
        ann, bob = await clients(app, "Ann"), await clients(app, "Bob")
        for c in (ann, bob):
            await c.request("notify", push=Browser(f"{gone.origin}/push/{c.name}").subscription, delay_minutes=0)
        room = await _turn_based_room(app, ann, bob)
        await _settled(app, room, ann, bob)
        mover = _mover(room, ann, bob)
        assert mover is not None
        await _until(lambda: len(gone.requests) == 1)
        await _until(lambda: 'mp_signals_total{kind="push",outcome="gone"} 1.0' in app.hub.metrics.render().decode())
        for _ in range(100):
            if (await mover.request("notify"))["push"] == []:
                break
            await asyncio.sleep(0.01)
        assert (await mover.request("notify"))["push"] == [], "the gone subscription was kept"
        other = bob if mover is ann else ann
        assert (await other.request("notify"))["push"] == [f"{gone.origin}/push/{other.name}"]
        # the mover's next turns send it nothing
        await mover.move(room, mover.view(room)["prompt"]["options"][0])
        for _ in range(6):
            await _settled(app, room, ann, bob)
            now = _mover(room, ann, bob)
            assert now is not None
            if now is mover:
                break
            await now.move(room, now.view(room)["prompt"]["options"][0])
        await asyncio.sleep(0.3)
        assert [r[0] for r in gone.requests].count(f"/push/{mover.name}") == 1
    finally:
        await gone.stop()


async def test_a_push_endpoint_that_resolves_to_a_private_address_at_send_time_is_refused(
    node: Callable[..., Awaitable[App]], clients: Callable[..., Awaitable[Client]], push: PushService
) -> None:
    """DNS rebinding: the endpoint's name led to a public address when `notify` checked it, to loopback at the turn."""
    app = await node(webhook_allow_http=True)
    answers = {"rebind.example.org": ["93.184.215.14"]}

    async def resolve(host: str, port: int) -> list[str]:
        return answers[host]

    app.hub.signals.resolve = resolve
    ann, bob = await clients(app, "Ann"), await clients(app, "Bob")
    for c in (ann, bob):
        browser = Browser(f"http://rebind.example.org:{push.port}/push/{c.name}")
        await c.request("notify", push=browser.subscription, delay_minutes=0)
    answers["rebind.example.org"] = ["127.0.0.1"]  # now it leads to the server's own host
    await _turn_based_room(app, ann, bob)
    refused = 'mp_signals_total{kind="push",outcome="refused"} 1.0'
    await _until(lambda: refused in app.hub.metrics.render().decode())
    await asyncio.sleep(0.2)
    assert push.requests == []
