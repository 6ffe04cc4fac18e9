"""permessage-deflate (the `compression` setting): negotiated with clients that offer it, never with those that
do not, and the frames mean the same either way: a compressed and an uncompressed seat of one room hold the same
views, equal to a fresh `sync`, at every version."""

from __future__ import annotations

import asyncio
import random
from typing import Any, Literal

import msgpack
from websockets.asyncio.client import connect as ws_connect
from websockets.extensions.permessage_deflate import PerMessageDeflate

from clients.client import Client
from protocol import encode
from server.net.app import App
from server.net.deflate import PLAIN_TYPES, plain

from .conftest import play_to_end, start_app


def _deflate(c: Client) -> PerMessageDeflate | None:
    assert c.ws is not None
    found = [e for e in c.ws.protocol.extensions if isinstance(e, PerMessageDeflate)]
    return found[0] if found else None


async def _client(app: App, name: str, compression: Literal["deflate"] | None = "deflate") -> Client:
    c = Client(f"ws://127.0.0.1:{app.port}/ws", compression=compression)
    await c.connect()
    await c.hello(name)
    return c


async def test_deflate_is_negotiated_by_default_and_a_compressed_seat_sees_what_a_plain_one_sees() -> None:
    app = await start_app()
    clients: list[Client] = []
    try:
        squeezed = await _client(app, "squeezed")  # the Python client offers deflate by default
        plain = await _client(app, "plain", compression=None)
        clients = [squeezed, plain]
        ext = _deflate(squeezed)
        assert ext is not None and ext.local_max_window_bits == 12 and ext.remote_max_window_bits == 12
        assert _deflate(plain) is None
        room = await squeezed.create("expedition", 2, {"seed": 5})
        assert await squeezed.join(room) == 0
        assert await plain.join(room) == 1
        await plain.wait_for(room, lambda s: s["public"]["status"] == "playing")
        await play_to_end(room, clients, random.Random(5), max_moves=5000)
        for c in clients:
            await c.wait_for(room, lambda s: s["result"] is not None)
            snap = await c.sync(room)
            assert snap["v"] == c.views[room].v and snap["state"] == c.view(room)
            assert c.views[room].patches > 50
        assert squeezed.view(room)["public"] == plain.view(room)["public"]
        assert squeezed.view(room)["result"] == plain.view(room)["result"]
    finally:
        for c in clients:
            await c.close()
        await app.stop()


async def test_compression_none_never_negotiates_and_the_window_setting_is_used() -> None:
    off = await start_app(compression="none")
    small = await start_app(deflate_window_bits=10, deflate_mem_level=3)
    try:
        c = await _client(off, "a")
        assert _deflate(c) is None
        await c.close()
        c = await _client(small, "b")
        ext = _deflate(c)
        assert ext is not None and ext.local_max_window_bits == 10 and ext.remote_max_window_bits == 10
        await c.close()
        # a browser-like offer (client_max_window_bits without a value) is answered with the server's window
        async with ws_connect(f"ws://127.0.0.1:{small.port}/ws", compression="deflate") as ws:
            names = [type(e).__name__ for e in ws.protocol.extensions]
            assert names == ["PerMessageDeflate"]
    finally:
        await off.stop()
        await small.stop()


async def test_secrets_and_other_players_text_never_enter_the_compressor() -> None:
    """welcome (the token), created (an invite) and chat lines arrive without RSV1; views and answers with it."""
    app = await start_app()
    clients: list[Client] = []
    try:
        seen: list[tuple[str, bool]] = []  # (t, compressed) of every frame the first client receives
        a = Client(f"ws://127.0.0.1:{app.port}/ws")
        await a.connect()
        clients.append(a)
        ext = _deflate(a)
        assert ext is not None
        decode = ext.decode

        def watching(frame: Any, *, max_size: int | None = None) -> Any:
            out = decode(frame, max_size=max_size)
            seen.append((msgpack.unpackb(out.data)["t"], frame.rsv1))
            return out

        ext.decode = watching  # type: ignore[method-assign]
        await a.hello("alice")
        b = await _client(app, "bob")
        clients.append(b)
        room = await a.create_room("expedition", 2, public=False)
        assert await a.join(room) == 0
        await b.join(room, invite=a.invites[room])
        await a.wait_for(room, lambda s: s["public"]["status"] == "playing")
        await b.chat("my hand is red-fruit-2", room)
        await a.chat_log(room)
        for _ in range(50):
            if any(t == "chat" for t, _ in seen):
                break
            await asyncio.sleep(0.02)
        kinds = {t: compressed for t, compressed in seen}
        assert kinds["welcome"] is False and kinds["created"] is False
        assert kinds["chat"] is False and kinds["chat_log"] is False
        assert kinds["patch"] is True and kinds["snapshot"] is True and kinds["joined"] is True
        assert all(compressed is (t not in PLAIN_TYPES) for t, compressed in seen)
    finally:
        for c in clients:
            await c.close()
        await app.stop()


def test_plain_reads_the_type_of_a_frame_and_nothing_else() -> None:
    for t in PLAIN_TYPES:
        assert plain(encode({"t": t, "re": 1, "x": "y"}))
    for t in ("patch", "snapshot", "ok", "error", "chatter", "chat_logs", "welcomed"):
        assert not plain(encode({"t": t, "re": 1}))
    assert not plain(b"") and not plain(b"\x91\xa1t") and not plain(msgpack.packb({"x": "chat", "t": "chat"}))
    assert plain(memoryview(encode({"t": "chat"})))
