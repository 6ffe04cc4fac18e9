"""The browser negotiates permessage-deflate with the server on its own (no client code asks for it): Chromium
offers it, the server accepts it with its window, and a server started with `--compression none` does not. The
frames the server sends uncompressed on a compressed connection (`welcome`, `created`: server/net/deflate.py)
and the compressed ones in between all reach the page."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import urllib.request
from typing import Any

import msgpack
import pytest

from .conftest import CHROMIUM, ROOT, _free_port

OPEN = """(url) => new Promise((ok, bad) => {
    const ws = new WebSocket(url);
    ws.onopen = () => { ok(ws.extensions); ws.close(); };
    ws.onerror = () => bad(new Error("the WebSocket did not open"));
})"""

#: sends the frames given (lists of bytes) one by one, each after the answers to the one before; resolves with
#: every frame received (lists of bytes)
TALK = """([url, frames, want]) => new Promise((ok, bad) => {
    const ws = new WebSocket(url);
    ws.binaryType = "arraybuffer";
    const got = [];
    ws.onopen = () => { for (const f of frames) ws.send(new Uint8Array(f)); };
    ws.onmessage = (e) => {
        got.push(Array.from(new Uint8Array(e.data)));
        if (got.length >= want) { ok(got); ws.close(); }
    };
    ws.onerror = () => bad(new Error("the WebSocket failed"));
    ws.onclose = (e) => { if (got.length < want) bad(new Error(`closed ${e.code} after ${got.length}`)); };
})"""


def _extensions(browser: Any, *flags: str) -> str:
    return str(_in_page(browser, OPEN, None, *flags))


def _in_page(browser: Any, script: str, arg: Any, *flags: str) -> Any:
    port = _free_port()
    cmd = [sys.executable, "-m", "server", "--port", str(port), "--store", "memory", "--log-level", "WARNING", *flags]
    proc = subprocess.Popen(cmd, cwd=ROOT, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        deadline = time.monotonic() + 15
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1) as r:
                    if r.status == 200:
                        break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("the server did not start") from None
                time.sleep(0.1)
        page = browser.new_page()
        try:
            page.goto(f"http://127.0.0.1:{port}/healthz")
            url = f"ws://127.0.0.1:{port}/ws"
            return page.evaluate(script, url if arg is None else [url, *arg])
        finally:
            page.close()
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def test_chromium_negotiates_permessage_deflate_unless_the_server_is_told_not_to(browser: Any) -> None:
    if not CHROMIUM.exists():
        pytest.skip("no Chromium at /usr/bin/chromium")
    negotiated = _extensions(browser)
    assert negotiated.startswith("permessage-deflate"), negotiated
    assert "server_max_window_bits=12" in negotiated and "client_max_window_bits=12" in negotiated
    assert _extensions(browser, "--compression", "none") == ""


def test_chromium_takes_compressed_and_uncompressed_frames_on_one_connection(browser: Any) -> None:
    if not CHROMIUM.exists():
        pytest.skip("no Chromium at /usr/bin/chromium")
    frames = [
        {"t": "hello", "id": 1, "name": "carla"},  # welcome: uncompressed
        {"t": "list_rooms", "id": 2},  # rooms: compressed
        {"t": "create", "id": 3, "game": "expedition", "seats": 2},  # created: uncompressed
        {"t": "list_rooms", "id": 4},  # rooms: compressed, after an uncompressed frame
    ]
    got = _in_page(browser, TALK, [[list(msgpack.packb(f)) for f in frames], 4])
    answers = [msgpack.unpackb(bytes(b)) for b in got]
    assert [(m["t"], m.get("re")) for m in answers] == [("welcome", 1), ("rooms", 2), ("created", 3), ("rooms", 4)]
    assert any(r["room"] == answers[2]["room"] for r in answers[3]["rooms"])
