"""The built client as the build wrote it and as a browser gets it (issue 32: page weight).

`clients/web/build.mjs` names the bundle and the stylesheet by their content (`assets/app-HASH.js`), links them
from `index.html` and writes gzip and brotli copies; the server keeps `assets/` in browsers for a year and has them
revalidate the rest. In Chromium the first visit comes compressed and the second one sends only `/` (answered 304).
"""

from __future__ import annotations

import gzip
import re
import urllib.request
from pathlib import Path

import brotli
import pytest

from loadtests.page_weight import browser_visits, linked_files
from server.net.static import IMMUTABLE
from tests.web.conftest import CHROMIUM, DIST

pytestmark = pytest.mark.skipif(not (DIST / "index.html").is_file(), reason="the client is not built: `make web`")


def _index() -> str:
    return (DIST / "index.html").read_text()


def test_index_links_the_bundle_and_stylesheet_by_hashed_names_that_exist() -> None:
    links = linked_files(_index())
    hashed = [ln for ln in links if ln.startswith("assets/")]
    assert sorted(Path(ln).suffix for ln in hashed) == [".css", ".js"], links
    for ln in hashed:
        assert re.fullmatch(r"assets/app-[A-Z0-9]{8}\.(js|css)", ln), ln
        assert (DIST / ln).is_file() and (DIST / (ln + ".map")).is_file()
    assert "favicon.svg" in links and (DIST / "favicon.svg").is_file()
    assert (DIST / "sw.js").is_file(), "the service worker keeps its address (push.js registers sw.js)"
    assert not (DIST / "app.js").exists(), "an earlier build's files are removed"
    built = {p.relative_to(DIST).as_posix() for p in DIST.rglob("*") if p.is_file() and p.suffix not in (".gz", ".br")}
    assert built == {"index.html", "sw.js", "favicon.svg", *hashed, *(h + ".map" for h in hashed)}


def test_every_compressed_copy_decodes_to_its_file_and_is_smaller() -> None:
    copies = sorted(p for p in DIST.rglob("*") if p.suffix in (".gz", ".br"))
    names = {p.relative_to(DIST).as_posix() for p in copies}
    for rel in ("index.html", "sw.js", *(ln for ln in linked_files(_index()) if ln.startswith("assets/"))):
        assert {rel + ".gz", rel + ".br"} <= names, rel
    for copy in copies:
        original = copy.with_suffix("").read_bytes()
        decode = brotli.decompress if copy.suffix == ".br" else gzip.decompress
        assert decode(copy.read_bytes()) == original, copy
        assert copy.stat().st_size < len(original)


def test_the_server_sends_the_built_files_compressed_with_their_cache_rules(server: str) -> None:
    def get(path: str, **headers: str) -> tuple[dict[str, str], bytes]:
        req = urllib.request.Request(server + path, headers=headers)
        with urllib.request.urlopen(req) as r:
            return {k.lower(): v for k, v in r.headers.items()}, r.read()

    for ln in linked_files(_index()):
        h, body = get("/" + ln, **{"Accept-Encoding": "gzip, deflate, br"})
        assert body == (DIST / (ln + ".br")).read_bytes() and h["content-encoding"] == "br", ln
        assert h["cache-control"] == (IMMUTABLE if ln.startswith("assets/") else "no-cache")
        assert h["vary"] == "Accept-Encoding"
    for path in ("/", "/sw.js"):
        h, body = get(path, **{"Accept-Encoding": "gzip"})
        assert h["cache-control"] == "no-cache" and h["etag"] and h["content-encoding"] == "gzip"
        assert gzip.decompress(body) == (DIST / (path.strip("/") or "index.html")).read_bytes()


@pytest.mark.skipif(not CHROMIUM.exists(), reason="Chromium is not installed at /usr/bin/chromium")
def test_a_second_visit_downloads_only_a_304_for_the_page(server: str) -> None:
    first, second = browser_visits(server)
    by_path = {"/" + r["url"].split("/", 3)[3]: r for r in first.responses}
    for ln in linked_files(_index()):
        if ln.startswith("assets/"):
            assert by_path["/" + ln]["encoding"] == "br" and by_path["/" + ln]["status"] == 200, ln
    assert first.wire_bytes < 0.4 * sum((DIST / ln).stat().st_size for ln in linked_files(_index()))
    sent = [r for r in second.responses if not r["cached"]]
    assert {("/" + r["url"].split("/", 3)[3], r["status"]) for r in sent} <= {("/", 304), ("/favicon.svg", 304)}
    assert any(r["url"].endswith("/") and r["status"] == 304 for r in sent), second.responses
    assert second.wire_bytes < 2000, second.responses
