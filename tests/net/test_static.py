"""The browser client's files over HTTP (server/net/static.py): cache headers by name, strong ETags and 304, the
build's gzip and brotli copies chosen by Accept-Encoding, HEAD, and no file outside the web root.

A web root of the test's own (the shape `clients/web/build.mjs` writes: `index.html`, `sw.js`, `assets/NAME-HASH.EXT`
with `.gz` and `.br` copies); requests are written byte by byte on a raw socket, so paths reach the server as sent.
"""

from __future__ import annotations

import asyncio
import gzip
import os
from collections.abc import AsyncIterator
from pathlib import Path

import brotli
import pytest

from server.net.app import App
from server.net.static import IMMUTABLE, StaticFiles, accepted_encodings, choose_encoding, etag_matches

from .conftest import start_app

JS = b"(()=>{" + b"console.log('a game of Marco Polo');" * 200 + b"})();\n"
CSS = b"body{margin:0}" + b".board{display:grid}" * 100
INDEX = b'<!doctype html><link rel="stylesheet" href="assets/app-ABCDEF23.css"><script src="assets/app-QWERTY45.js">'
SW = b"self.addEventListener('push',e=>{});" * 20


def _write(root: Path, rel: str, body: bytes, copies: bool = True) -> None:
    f = root / rel
    f.parent.mkdir(parents=True, exist_ok=True)
    f.write_bytes(body)
    if copies:
        f.with_name(f.name + ".gz").write_bytes(gzip.compress(body, 9, mtime=0))
        f.with_name(f.name + ".br").write_bytes(brotli.compress(body))


@pytest.fixture
def web_root(tmp_path: Path) -> Path:
    root = tmp_path / "web"
    _write(root, "index.html", INDEX * 5)
    _write(root, "sw.js", SW)
    _write(root, "favicon.svg", b"<svg/>", copies=False)
    _write(root, "assets/app-QWERTY45.js", JS)
    _write(root, "assets/app-QWERTY45.js.map", b'{"version":3,"mappings":""}' * 50)
    _write(root, "assets/app-ABCDEF23.css", CSS)
    (tmp_path / "secret.txt").write_text("not served")
    (root / ".env").write_text("TOKEN=x")
    return root


@pytest.fixture
async def app(web_root: Path) -> AsyncIterator[App]:
    app = await start_app(web_root=str(web_root))
    yield app
    await app.stop()


Answer = tuple[int, dict[str, str], bytes]


async def _http(app: App, path: str, method: str = "GET", **headers: str) -> Answer:
    """One request as written (`path` as is); the status, the headers (lower-case names) and the body to EOF."""
    reader, writer = await asyncio.open_connection("127.0.0.1", app.port)
    lines = [f"{method} {path} HTTP/1.1", "Host: localhost"]
    lines += [f"{k.replace('_', '-')}: {v}" for k, v in headers.items()]
    writer.write(("\r\n".join(lines) + "\r\n\r\n").encode())
    await writer.drain()
    raw = await asyncio.wait_for(reader.read(-1), 10)  # the node closes the connection after its answer
    writer.close()
    head, _, body = raw.partition(b"\r\n\r\n")
    status_line, *fields = head.decode("latin-1").split("\r\n")
    out: dict[str, str] = {}
    for f in fields:
        k, _, v = f.partition(":")
        out[k.strip().lower()] = v.strip()
    return int(status_line.split()[1]), out, body


async def test_the_page_and_the_worker_are_revalidated_and_assets_are_kept_a_year(app: App) -> None:
    for path in ("/", "/index.html", "/sw.js", "/favicon.svg", "/assets/app-QWERTY45.js.map"):
        status, h, _ = await _http(app, path)
        assert status == 200 and h["cache-control"] == "no-cache", path
        assert h["etag"].startswith('"') and h["etag"].endswith('"'), path
    for path in ("/assets/app-QWERTY45.js", "/assets/app-ABCDEF23.css"):
        status, h, _ = await _http(app, path)
        assert status == 200 and h["cache-control"] == IMMUTABLE == "public, max-age=31536000, immutable"


async def test_content_types_and_lengths_are_those_of_the_bytes_sent(app: App, web_root: Path) -> None:
    want = {
        "/": ("text/html; charset=utf-8", "index.html"),
        "/sw.js": ("text/javascript; charset=utf-8", "sw.js"),
        "/favicon.svg": ("image/svg+xml", "favicon.svg"),
        "/assets/app-ABCDEF23.css": ("text/css; charset=utf-8", "assets/app-ABCDEF23.css"),
        "/assets/app-QWERTY45.js.map": ("application/json; charset=utf-8", "assets/app-QWERTY45.js.map"),
    }
    for path, (ctype, rel) in want.items():
        status, h, body = await _http(app, path)
        assert status == 200 and h["content-type"] == ctype, path
        assert body == (web_root / rel).read_bytes() and h["content-length"] == str(len(body)), path
        assert "content-encoding" not in h and h["x-content-type-options"] == "nosniff"


async def test_an_unchanged_file_is_answered_304_on_its_etag_and_a_changed_one_in_full(
    app: App, web_root: Path
) -> None:
    for path in ("/", "/sw.js", "/assets/app-QWERTY45.js"):
        for enc in ("identity", "gzip", "br"):
            _, first, body = await _http(app, path, Accept_Encoding=enc)
            status, h, again = await _http(app, path, Accept_Encoding=enc, If_None_Match=first["etag"])
            assert status == 304 and again == b"" and "content-length" not in h, (path, enc)
            assert h["etag"] == first["etag"] and h["cache-control"] == first["cache-control"]
            assert h["vary"] == "Accept-Encoding"
            # a list, a weak tag and `*` match too (RFC 9110: If-None-Match compares weakly)
            for header in (f'"x", {first["etag"]}', "W/" + first["etag"], "*"):
                assert (await _http(app, path, Accept_Encoding=enc, If_None_Match=header))[0] == 304
    # another representation's tag is not this one's
    _, plain, _ = await _http(app, "/sw.js")
    status, h, body = await _http(app, "/sw.js", Accept_Encoding="br", If_None_Match=plain["etag"])
    assert status == 200 and h["content-encoding"] == "br" and brotli.decompress(body) == SW
    # a new sw.js (same name: the worker's address) gets a new tag: the old one is answered in full
    _, before, _ = await _http(app, "/sw.js")
    _write(web_root, "sw.js", SW + b"// v2\n")
    status, h, body = await _http(app, "/sw.js", If_None_Match=before["etag"])
    assert status == 200 and body == SW + b"// v2\n" and h["etag"] != before["etag"]


async def test_gzip_and_brotli_copies_are_sent_by_accept_encoding_and_decode_to_the_file(
    app: App, web_root: Path
) -> None:
    for path, rel in (("/", "index.html"), ("/sw.js", "sw.js"), ("/assets/app-QWERTY45.js", "assets/app-QWERTY45.js")):
        original = (web_root / rel).read_bytes()
        tags = set()
        for accept, enc in (("gzip, deflate, br, zstd", "br"), ("gzip, deflate", "gzip"), ("br;q=0.5, gzip", "gzip"),
                            ("x-gzip", "gzip"), ("*", "br"), ("br;q=0, *;q=0.1", "gzip"), ("deflate", None),
                            ("", None), ("identity", None), ("gzip;q=0, br;q=0", None)):  # fmt: skip
            status, h, body = await _http(app, path, Accept_Encoding=accept)
            assert status == 200 and h["vary"] == "Accept-Encoding", (path, accept)
            assert h.get("content-encoding") == enc, (path, accept)
            assert h["content-length"] == str(len(body))
            decoded = {"br": brotli.decompress, "gzip": gzip.decompress, None: bytes}[enc](body)
            assert decoded == original, (path, accept)
            tags.add((enc, h["etag"]))
            if enc is not None:
                assert len(body) < len(original)
        assert len({t for _, t in tags}) == len(tags) == 3, "one strong tag per representation"
    # no Accept-Encoding at all: the file as it is
    status, h, body = await _http(app, "/assets/app-ABCDEF23.css")
    assert status == 200 and "content-encoding" not in h and body == CSS


async def test_a_file_without_copies_does_not_vary(app: App) -> None:
    status, h, body = await _http(app, "/favicon.svg", Accept_Encoding="br, gzip")
    assert status == 200 and body == b"<svg/>" and "vary" not in h and "content-encoding" not in h


async def test_head_sends_the_get_headers_without_the_body(app: App) -> None:
    for path, accept in (("/", "br"), ("/assets/app-QWERTY45.js", "gzip"), ("/sw.js", ""), ("/missing.js", "")):
        get_status, get_h, get_body = await _http(app, path, Accept_Encoding=accept)
        status, h, body = await _http(app, path, "HEAD", Accept_Encoding=accept)
        assert status == get_status and body == b"", path
        drop = {"date"}
        assert {k: v for k, v in h.items() if k not in drop} == {k: v for k, v in get_h.items() if k not in drop}
        assert h["content-length"] == str(len(get_body))
    status, h, body = await _http(app, "/healthz", "HEAD")
    assert status == 200 and body == b"" and int(h["content-length"]) > 0
    assert (await _http(app, "/", "POST"))[0] == 405


@pytest.mark.parametrize(
    "path",
    [
        "/../secret.txt",
        "/assets/../../secret.txt",
        "/./index.html",
        "/..%2fsecret.txt",
        "/%2e%2e/secret.txt",
        "/.env",
        "/assets/",
        "/assets",
        "//etc/passwd",
        "/assets//app-QWERTY45.js",
        "/index.html.br",
        "/assets/app-QWERTY45.js.gz",
        "/..\\secret.txt",
        "/nothing-here.js",
    ],
)
async def test_nothing_outside_the_web_root_nor_hidden_nor_a_copy_by_name_is_served(app: App, path: str) -> None:
    status, h, body = await _http(app, path)
    assert status == 404 and body == b"not found\n" and h["content-type"].startswith("text/plain")
    assert h["cache-control"] == "no-store"


async def test_a_symbolic_link_out_of_the_web_root_is_refused(app: App, web_root: Path) -> None:
    os.symlink(web_root.parent / "secret.txt", web_root / "assets" / "link.txt")
    assert (await _http(app, "/assets/link.txt"))[0] == 404


async def test_a_stale_or_larger_copy_is_not_sent(app: App, web_root: Path, caplog: pytest.LogCaptureFixture) -> None:
    (web_root / "sw.js.gz").write_bytes(gzip.compress(b"an older build", mtime=0))
    (web_root / "sw.js.br").write_bytes(brotli.compress(b"an older build"))
    status, h, body = await _http(app, "/sw.js", Accept_Encoding="br, gzip")
    assert status == 200 and body == SW and "content-encoding" not in h
    assert "not sw.js compressed" in caplog.text
    (web_root / "favicon.svg.gz").write_bytes(b"x" * 100)  # larger than the file: never worth sending
    status, h, body = await _http(app, "/favicon.svg", Accept_Encoding="gzip")
    assert status == 200 and body == b"<svg/>" and "content-encoding" not in h


def test_accept_encoding_parsing_and_choice() -> None:
    assert accepted_encodings("gzip;q=0.8, BR , identity;q=0, x;q=oops") == {
        "gzip": 0.8, "br": 1.0, "identity": 0.0, "x": 0.0}  # fmt: skip
    both = ["br", "gzip"]
    assert choose_encoding(None, both) is None
    assert choose_encoding("gzip, br", both) == "br"
    assert choose_encoding("gzip;q=1, br;q=0.9", both) == "gzip"
    assert choose_encoding("br", ["gzip"]) is None
    assert choose_encoding("gzip;q=0.5, identity", both) is None
    assert choose_encoding("*;q=0", both) is None


def test_if_none_match_compares_weakly() -> None:
    assert etag_matches('"a"', '"a"') and etag_matches('W/"a"', '"a"') and etag_matches(' "b" ,"a"', '"a"')
    assert etag_matches("*", '"a"') and not etag_matches('"ab"', '"a"') and not etag_matches('"b"', '"a"')


def test_a_file_is_read_again_only_when_it_changes(web_root: Path) -> None:
    files = StaticFiles(web_root)
    rel, target = files.resolve("/sw.js") or ("", web_root)
    first = files.load(rel, target)
    assert files.load(rel, target) is first
    _write(web_root, "sw.js", SW + b";")
    second = files.load(rel, target)
    assert second is not first and second.representations[None].body == SW + b";"
    assert brotli.decompress(second.representations["br"].body) == SW + b";"
