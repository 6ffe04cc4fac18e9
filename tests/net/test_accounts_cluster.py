"""Accounts on two nodes sharing one Redis (live state) and one PostgreSQL (records): failed sign-ins counted on
one node hold on the other, a sign-out everywhere stops the account's tokens on every node, and a passkey
ceremony begun on one node finishes on the other."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any

import pytest

from clients.client import Client, ServerError
from server.config import Settings
from server.net.app import App
from server.store import RedisStore

from .soft_authenticator import SoftAuthenticator, b64url
from .test_accounts import PASSWORD, _get
from .test_cluster import prefix  # noqa: F401 - the fixture
from .test_redis import REDIS_URL, _redis_up

pytestmark = pytest.mark.skipif(not _redis_up(), reason="no Redis answers on 127.0.0.1:6379")


@pytest.fixture
async def nodes(prefix: str, pg_url: str) -> AsyncIterator[tuple[App, App]]:  # noqa: F811
    apps = []
    for name in ("node-a", "node-b"):
        settings = Settings(
            port=0, node_id=name, rate=1000.0, burst=2000, lease_ms=1000, store=REDIS_URL, records=pg_url,
            password_memory_kib=1024, password_time_cost=1,
        )  # fmt: skip
        app = App(settings, store=RedisStore(REDIS_URL, prefix=prefix))
        await app.start()
        apps.append(app)
    yield apps[0], apps[1]
    for app in apps:
        await app.stop()


async def _conn(app: App) -> Client:
    c = Client(f"ws://127.0.0.1:{app.port}/ws")
    await c.connect()
    return c


async def _code(c: Client, t: str, **fields: Any) -> str:
    try:
        await c.request(t, **fields)
    except ServerError as err:
        return err.code
    return "ok"


async def test_failed_sign_ins_on_one_node_hold_on_the_other(nodes: tuple[App, App]) -> None:
    a, b = nodes
    c = await _conn(a)
    await c.request("sign_up", name="Quinn", password=PASSWORD)
    guesser = await _conn(a)
    for i in range(a.hub.settings.auth_fails_per_name):
        assert await _code(guesser, "sign_in", name="Quinn", password=f"guess number {i}") == "bad_credentials"
    other = await _conn(b)
    assert await _code(other, "sign_in", name="QUINN", password=PASSWORD) == "rate_limited"
    for x in (c, guesser, other):
        await x.close()


async def test_sign_out_everywhere_on_one_node_stops_tokens_used_on_the_other(nodes: tuple[App, App]) -> None:
    a, b = nodes
    first = await _conn(a)
    made = await first.request("sign_up", name="Rhea", password=PASSWORD)
    await first.close()
    second = await _conn(b)
    await second.request("sign_in", name="Rhea", password=PASSWORD)
    assert await _code(second, "sign_out", everywhere=True) == "ok"
    again = await _conn(a)
    got = await again.request("hello", name="Rhea Guest", token=made["token"])
    assert got["account"] is False and got["player"] != made["player"]
    await again.close()


async def test_a_passkey_ceremony_begun_on_one_node_finishes_on_the_other(nodes: tuple[App, App]) -> None:
    a, b = nodes
    key = SoftAuthenticator()
    c = await _conn(a)
    made = await c.request("sign_up", name="Sana", password=PASSWORD)
    bearer = {"Authorization": f"Bearer {made['token']}"}
    _, opts = await asyncio.to_thread(_get, a.port, "/auth/passkey/register/options", bearer)
    created = b64url(json.dumps(key.create(opts["options"], f"http://localhost:{b.port}")).encode())
    headers = {**bearer, "X-Ceremony": opts["ceremony"], "X-Credential": created}
    status, done = await asyncio.to_thread(_get, b.port, "/auth/passkey/register", headers)
    assert status == 200 and done["ok"], done
    _, opts = await asyncio.to_thread(_get, b.port, "/auth/passkey/login/options")
    asserted = b64url(json.dumps(key.get(opts["options"], f"http://localhost:{a.port}")).encode())
    status, who = await asyncio.to_thread(
        _get, a.port, "/auth/passkey/login", {"X-Ceremony": opts["ceremony"], "X-Credential": asserted}
    )
    assert status == 200 and who["player"] == made["player"]
    await c.close()
