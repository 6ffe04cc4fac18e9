"""The browser client's files at `/` (`App._http` sends every other GET and HEAD here), as the build wrote them.

Owns: which file a path names (never one outside the folder, a dotfile, or a compressed copy asked for by its own
name), its Content-Type, how long a browser may keep it, strong ETags and `304 Not Modified`, and the choice of the
build's precompressed copy (`FILE.br`, `FILE.gz`) by `Accept-Encoding`. It compresses nothing and knows nothing of
the client's code: `clients/web/build.mjs` names the files (`assets/NAME-HASH.EXT` changes name when its content
does) and writes the copies.

- `assets/` (but its source maps): `Cache-Control: public, max-age=31536000, immutable`: a browser keeps the file
  for a year and never asks again, since a new build links files of new names.
- everything else (`index.html`, `sw.js`, whose address is the service worker's identity, `favicon.svg`, the source
  maps): `no-cache`: kept, but asked again each time with `If-None-Match`, answered `304` while it is unchanged.

Files are read once and kept in memory (the client's build is a few files) until their size, time or inode change.
"""

from __future__ import annotations

import base64
import hashlib
import logging
import mimetypes
import zlib
from dataclasses import dataclass
from http import HTTPStatus
from pathlib import Path

from websockets.datastructures import Headers
from websockets.http11 import Response

log = logging.getLogger("marcopolo.static")

#: a file of `assets/` has a content-hashed name: browsers keep it for a year without asking again
IMMUTABLE = "public, max-age=31536000, immutable"
#: any other file: browsers keep it but ask each time (`If-None-Match`, answered 304 while unchanged)
REVALIDATE = "no-cache"
#: the folder of the web root whose files have content-hashed names
ASSETS = "assets/"
#: the build's compressed copies, by the `Content-Encoding` they are sent with, in the order preferred at equal q
ENCODINGS = {"br": ".br", "gzip": ".gz"}
#: files larger than this are read for each request instead of kept in memory
MAX_KEPT = 16 * 1024 * 1024
#: Content-Type by suffix (not the platform's mime.types, which differ between machines)
TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
    ".map": "application/json; charset=utf-8",
    ".json": "application/json; charset=utf-8",
    ".webmanifest": "application/manifest+json",
    ".txt": "text/plain; charset=utf-8",
    ".png": "image/png",
    ".ico": "image/x-icon",
    ".webp": "image/webp",
    ".woff2": "font/woff2",
}


def content_type(name: str) -> str:
    suffix = Path(name).suffix.lower()
    if suffix in TYPES:
        return TYPES[suffix]
    ctype = mimetypes.guess_type(name)[0] or "application/octet-stream"
    return ctype + "; charset=utf-8" if ctype.startswith("text/") else ctype


def cache_control(rel: str) -> str:
    """The Cache-Control of the file at `rel` (relative to the web root, forward slashes)."""
    return IMMUTABLE if rel.startswith(ASSETS) and not rel.endswith(".map") else REVALIDATE


def accepted_encodings(header: str) -> dict[str, float]:
    """`Accept-Encoding` as {coding: q} (codings lower-cased; a q that does not parse counts as 0)."""
    out: dict[str, float] = {}
    for item in header.split(","):
        name, *params = (p.strip() for p in item.split(";"))
        if not name:
            continue
        q = 1.0
        for param in params:
            key, _, value = param.partition("=")
            if key.strip().lower() == "q":
                try:
                    q = min(max(float(value), 0.0), 1.0)
                except ValueError:
                    q = 0.0
        out[name.lower()] = q
    return out


def choose_encoding(header: str | None, available: list[str]) -> str | None:
    """The coding of `available` to send for this `Accept-Encoding` (None: the file as it is).

    The highest q wins, `ENCODINGS`' order breaks ties; `*` stands for codings not named; q=0 refuses. Without the
    header, the file as it is (RFC 9110 allows any coding then, but a client that names none may decode none).
    """
    if not header:
        return None
    accepted = accepted_encodings(header)
    best: tuple[float, str] | None = None
    for coding in ENCODINGS:
        if coding not in available:
            continue
        named = [accepted[n] for n in ((coding, "x-gzip") if coding == "gzip" else (coding,)) if n in accepted]
        q = max(named) if named else accepted.get("*", 0.0)
        if q > 0 and (best is None or q > best[0]):
            best = (q, coding)
    if best is None or accepted.get("identity", 0.0) > best[0]:  # (only when named, and preferred)
        return None
    return best[1]


def etag_matches(header: str, etag: str) -> bool:
    """Whether `If-None-Match` names `etag` (weak comparison, as RFC 9110 says for this header; `*` is any)."""
    if header.strip() == "*":
        return True
    return any(tag.strip().removeprefix("W/") == etag for tag in header.split(","))


def _etag(body: bytes) -> str:
    return '"' + base64.urlsafe_b64encode(hashlib.sha256(body).digest()[:15]).decode() + '"'


@dataclass(frozen=True)
class Representation:
    """One way to send a file: its bytes as sent, their strong ETag, the Content-Encoding (None: as it is)."""

    body: bytes
    etag: str
    encoding: str | None


@dataclass(frozen=True)
class StaticFile:
    stamp: tuple[tuple[int, int, int] | None, ...]
    content_type: str
    cache_control: str
    #: by Content-Encoding; None is the file as it is
    representations: dict[str | None, Representation]


def _stamp(files: list[Path]) -> tuple[tuple[int, int, int] | None, ...]:
    """Each file's (mtime, size, inode), None for a missing one: a kept file is read again when this changes."""
    out: list[tuple[int, int, int] | None] = []
    for f in files:
        try:
            st = f.stat()
        except OSError:
            out.append(None)
        else:
            out.append((st.st_mtime_ns, st.st_size, st.st_ino))
    return tuple(out)


def _decoded(coding: str, data: bytes) -> bytes | None:
    """A compressed copy decompressed, to check it against its file (None: no decoder for `coding` here)."""
    if coding == "gzip":
        return zlib.decompress(data, 16 + zlib.MAX_WBITS)
    try:
        import brotli
    except ImportError:  # (not a dependency of the server: a copy it cannot decode is taken as built)
        return None
    return bytes(brotli.decompress(data))


class StaticFiles:
    """The files of `root` (the client's build, `clients/web/dist/`) as HTTP responses."""

    def __init__(self, root: Path) -> None:
        self.root = root.resolve()
        self._kept: dict[str, StaticFile] = {}

    def resolve(self, path: str) -> tuple[str, Path] | None:
        """The file a request path names, as (relative path, file), or None when it names none that is served.

        Refused: any segment that is empty or starts with a dot (`..`, dotfiles), backslashes and NULs, a
        compressed copy named as such (it is only sent by `Accept-Encoding`), anything that resolves (symbolic
        links included) outside the root, and anything that is not a regular file.
        """
        rel = "index.html" if path in ("", "/") else path.removeprefix("/")
        parts = rel.split("/")
        if any(not p or p.startswith(".") for p in parts) or "\\" in rel or "\x00" in rel:
            return None
        if rel.endswith(tuple(ENCODINGS.values())):
            return None
        target = (self.root / rel).resolve()
        if not target.is_relative_to(self.root) or not target.is_file():
            return None
        return rel, target

    def load(self, rel: str, target: Path) -> StaticFile:
        """The file at `rel` with its compressed copies, from memory while unchanged on disk."""
        copies = {coding: target.with_name(target.name + suffix) for coding, suffix in ENCODINGS.items()}
        stamp = _stamp([target, *copies.values()])
        kept = self._kept.get(rel)
        if kept is not None and kept.stamp == stamp:
            return kept
        body = target.read_bytes()
        reps: dict[str | None, Representation] = {None: Representation(body, _etag(body), None)}
        for (coding, copy), st in zip(copies.items(), stamp[1:], strict=True):
            if st is None or st[1] >= len(body):
                continue
            try:
                data = copy.read_bytes()
                decoded = _decoded(coding, data)
            except Exception as exc:  # OSError, zlib.error, brotli.error (a plain Exception)
                log.warning("web root: %s is unreadable (%s); sending %s uncompressed", copy, exc, rel)
                continue
            if decoded is not None and decoded != body:
                log.warning("web root: %s is not %s compressed (an older build?); not sent", copy, rel)
                continue
            reps[coding] = Representation(data, _etag(data), coding)
        file = StaticFile(stamp, content_type(rel), cache_control(rel), reps)
        if len(body) <= MAX_KEPT:
            self._kept[rel] = file
        else:
            self._kept.pop(rel, None)
        return file

    def respond(self, path: str, headers: Headers) -> Response:
        """The response to a GET of `path` (HEAD: the same, its body left out by the caller)."""
        found = self.resolve(path)
        if found is None:
            return _plain(404, b"not found\n")
        try:
            file = self.load(*found)
        except OSError:  # removed between the two looks (a build pruning an older one's files)
            return _plain(404, b"not found\n")
        coding = choose_encoding(", ".join(headers.get_all("Accept-Encoding")) or None,
                                 [c for c in file.representations if c is not None])  # fmt: skip
        rep = file.representations[coding]
        out = Headers()
        out["Cache-Control"] = file.cache_control
        out["ETag"] = rep.etag
        if len(file.representations) > 1:
            out["Vary"] = "Accept-Encoding"
        out["X-Content-Type-Options"] = "nosniff"
        match = ", ".join(headers.get_all("If-None-Match"))
        if match and etag_matches(match, rep.etag):
            return Response(304, HTTPStatus(304).phrase, out, b"")
        out["Content-Type"] = file.content_type
        if rep.encoding is not None:
            out["Content-Encoding"] = rep.encoding
        out["Content-Length"] = str(len(rep.body))
        return Response(200, HTTPStatus(200).phrase, out, rep.body)


def _plain(status: int, body: bytes) -> Response:
    headers = Headers()
    headers["Content-Type"] = "text/plain; charset=utf-8"
    headers["Content-Length"] = str(len(body))
    headers["Cache-Control"] = "no-store"  # (a bundle another node of a rolling update has: not to be remembered)
    return Response(status, HTTPStatus(status).phrase, headers, body)
