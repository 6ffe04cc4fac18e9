"""`python -m loadtests.page_weight`: the browser client's bytes on the wire, first visit and second visit.

Starts a server of its own (`--store memory`, the built client in `clients/web/dist/` or `--web-root`) and opens
its page twice in one Chromium context (Debian's, through Playwright): the first visit with an empty cache, the
second one (a new tab, a plain navigation, not a reload) with the cache the first one left. Every HTTP response
is counted through the DevTools protocol: `encodedDataLength` is what came over the socket (status line, headers
and the body as sent, compressed or not); a response served from the browser's cache counts 0. The WebSocket is
not counted (it is the game, not the page).

Also asks for every file that `index.html` links with plain HTTP requests, without and with
`Accept-Encoding: br, gzip`, and prints the bodies' sizes (what a client without a cache downloads).
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]


@dataclass
class Visit:
    """One page load: each response's URL, status, bytes on the wire and whether the cache answered."""

    responses: list[dict[str, Any]] = field(default_factory=list)

    @property
    def wire_bytes(self) -> int:
        return sum(int(r["bytes"]) for r in self.responses)

    @property
    def requests(self) -> int:
        """Responses that went over the network (not answered by the browser's cache)."""
        return sum(1 for r in self.responses if not r["cached"])


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def running_server(web_root: str | None) -> Iterator[str]:
    """A server process on a free port (memory store); yields its base URL."""
    port = _free_port()
    cmd = [sys.executable, "-m", "server", "--port", str(port), "--store", "memory", "--log-level", "WARNING"]
    if web_root:
        cmd += ["--web-root", web_root]
    proc = subprocess.Popen(cmd, cwd=ROOT, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 15
        while True:
            try:
                with urllib.request.urlopen(f"{base}/healthz", timeout=1) as r:
                    if r.status == 200:
                        break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("the server did not start") from None
                time.sleep(0.1)
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def _visit(context: Any, url: str) -> Visit:
    """Open `url` in a new tab of `context` and count every response until the network is quiet."""
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    seen: dict[str, dict[str, Any]] = {}
    #: the status and headers as they came over the socket (responseReceived shows a revalidated 304 as its 200)
    raw: dict[str, dict[str, Any]] = {}

    def received(e: dict[str, Any]) -> None:
        r = e["response"]
        cached = bool(r.get("fromDiskCache") or r.get("fromMemoryCache") or r.get("fromServiceWorker"))
        seen[e["requestId"]] = {"url": r["url"], "status": r["status"], "cached": cached, "bytes": 0,
                                "headers": r.get("headers") or {}}  # fmt: skip

    def extra(e: dict[str, Any]) -> None:
        raw[e["requestId"]] = {"status": e["statusCode"], "headers": e.get("headers") or {}}

    def served_from_cache(e: dict[str, Any]) -> None:
        if e["requestId"] in seen:
            seen[e["requestId"]]["cached"] = True

    def finished(e: dict[str, Any]) -> None:
        if e["requestId"] in seen:
            seen[e["requestId"]]["bytes"] = int(e["encodedDataLength"])

    cdp.on("Network.responseReceivedExtraInfo", extra)
    cdp.on("Network.responseReceived", received)
    cdp.on("Network.requestServedFromCache", served_from_cache)
    cdp.on("Network.loadingFinished", finished)
    page.goto(url, wait_until="networkidle")
    page.wait_for_timeout(300)
    visit = Visit()
    for request_id, r in seen.items():
        if r["url"].startswith("data:"):
            continue
        wire = raw.get(request_id)
        if wire is not None:
            r["status"] = wire["status"]
        headers = {k.lower(): v for k, v in (wire or r)["headers"].items()}
        r["encoding"] = headers.get("content-encoding", "")
        del r["headers"]
        if r["cached"]:
            r["bytes"] = 0
        visit.responses.append(r)
    page.close()
    return visit


def browser_visits(base: str) -> tuple[Visit, Visit]:
    """A first and a second visit of `base`/ in one browser context (one HTTP cache)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            context = browser.new_context()
            first = _visit(context, base + "/")
            second = _visit(context, base + "/")
            context.close()
        finally:
            browser.close()
    return first, second


def linked_files(index_html: str) -> list[str]:
    """The same-site files `index.html` links (`href`/`src` that are relative paths), in order."""
    out: list[str] = []
    for m in re.finditer(r'\b(?:href|src)="([^"#:]+)"', index_html):
        if m.group(1) not in out:
            out.append(m.group(1))
    return out


def http_sizes(base: str) -> list[dict[str, Any]]:
    """Each linked file's body size as sent without and with `Accept-Encoding: br, gzip` (and which it got)."""
    host, port = base.removeprefix("http://").split(":")

    def get(path: str, accept: str | None) -> tuple[int, bytes, dict[str, str]]:
        conn = http.client.HTTPConnection(host, int(port), timeout=10)
        try:
            conn.request("GET", path, headers={"Accept-Encoding": accept} if accept else {})
            r = conn.getresponse()
            return r.status, r.read(), {k.lower(): v for k, v in r.getheaders()}
        finally:
            conn.close()

    _, index, _ = get("/", None)
    rows = []
    for path in ["/", *("/" + p for p in linked_files(index.decode()))]:
        status, plain, _ = get(path, None)
        _, gzipped, _ = get(path, "gzip")
        _, packed, headers = get(path, "br, gzip")
        rows.append({"path": path, "status": status, "identity": len(plain), "gzip": len(gzipped),
                     "compressed": len(packed),
                     "encoding": headers.get("content-encoding", "identity"),
                     "cache_control": headers.get("cache-control", "")})  # fmt: skip
    return rows


def report(first: Visit, second: Visit, rows: list[dict[str, Any]]) -> str:
    lines = ["| visit | requests over the network | bytes on the wire |", "| --- | ---: | ---: |"]
    lines.append(f"| first (empty cache) | {first.requests} | {first.wire_bytes:,} |")
    lines.append(f"| second (warm cache) | {second.requests} | {second.wire_bytes:,} |")
    lines += ["", "| visit | URL | status | encoding | from cache | bytes on the wire |",
              "| --- | --- | ---: | --- | --- | ---: |"]  # fmt: skip
    for name, visit in (("first", first), ("second", second)):
        for r in visit.responses:
            path = "/" + r["url"].split("/", 3)[3]
            enc = r["encoding"] or "identity"
            lines.append(f"| {name} | `{path}` | {r['status']} | {enc} | {'yes' if r['cached'] else 'no'} | "
                         f"{r['bytes']:,} |")  # fmt: skip
    lines += ["", "| file | body, identity | body, `Accept-Encoding: gzip` | body, `Accept-Encoding: br, gzip` | "
              "encoding | Cache-Control |", "| --- | ---: | ---: | ---: | --- | --- |"]  # fmt: skip
    for row in rows:
        lines.append(f"| `{row['path']}` | {row['identity']:,} | {row['gzip']:,} | {row['compressed']:,} | "
                     f"{row['encoding']} | {row['cache_control']} |")  # fmt: skip
    total = {k: sum(int(r[k]) for r in rows) for k in ("identity", "gzip", "compressed")}
    lines.append(f"| all | {total['identity']:,} | {total['gzip']:,} | {total['compressed']:,} | | |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else None)
    parser.add_argument("--web-root", help="the built client's folder (default: clients/web/dist)")
    parser.add_argument("--url", help="measure a server that is already running at this base URL")
    parser.add_argument("--json", action="store_true", help="print JSON instead of Markdown tables")
    args = parser.parse_args(argv)
    with contextlib.ExitStack() as stack:
        base = args.url.rstrip("/") if args.url else stack.enter_context(running_server(args.web_root))
        first, second = browser_visits(base)
        rows = http_sizes(base)
    if args.json:
        out = {"first": first.responses, "second": second.responses, "files": rows,
               "first_bytes": first.wire_bytes, "second_bytes": second.wire_bytes}  # fmt: skip
        print(json.dumps(out, indent=1))
    else:
        print(report(first, second, rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
