"""Signals of turn-based games (wire contract v1.2): an e-mail, a webhook POST and web push when it is a player's turn.

Owns: the `notify` request (an account's e-mail address, webhook, delay and the webhook's signing secret, kept in
the records database), the checks of those addresses (an e-mail's shape; a webhook's scheme and every address its
host resolves to), the timers of the turns that began in the rooms this node runs, the once-per-turn claim, what a
signal says, and sending it (SMTP through `aiosmtplib`; the webhook over a connection of its own; web push as RFC 8291
`aes128gcm` encrypted by `http_ece`, with a VAPID token (RFC 8292) signed by `py_vapid`, POSTed like a webhook).
Must not: touch rooms (it reads a room's meta, which the room's turn clock shows it: `server.rooms.clock`), or put
anything in a signal that the room's public view does not already say to everybody: no hand, no prompt or its
options, no token, no invite. The addresses and the secret are the account's: never logged, never in a metric.

A turn is `ROOM:SEAT:V`, the version at which the seat's turn began (`RoomMeta.turns`). When a version of a
turn-based room run here gives a seat a new turn, a timer starts for the seat's player: the player's delay after
the turn began. A move (or the turn passing otherwise, or the game ending) cancels it. When it fires, the node
claims the turn in the records database (`claim_signal`: a unique key, so one node alone sends it however many
nodes ran the room meanwhile), then sends the e-mail and the webhook, once each; a failure is logged and counted
(`mp_signals_total`), never retried. A room that moves to another node (a takeover, a restart) keeps its turns:
the new node starts their timers from the turn's start.

Webhooks are refused (at `notify`, and again at each send, so a name that resolved to a public address then and
to a private one now, DNS rebinding, is refused too) when their host resolves to a loopback, private, link-local,
multicast, reserved or otherwise non-global address, unless the operator allows it (`webhook_allow_private`, for
tests); the connection goes to the very address that was checked. They are https unless `webhook_allow_http`.
A POST carries `X-Marcopolo-Signature: sha256=HEX`, the HMAC-SHA256 of its body under the account's secret; it
must be answered within 5 s; a redirect is not followed (a failure); only the status line of the answer is read.

Web push (only with the operator's VAPID key, `vapid_private_key`): each browser's subscription (its push service's
endpoint and keys, at most `PUSH_KEPT` per account) gets the webhook's JSON, encrypted for that browser alone, with
`Authorization: vapid t=JWT,k=KEY` (the JWT's `aud` the endpoint's origin, `sub` the operator's `vapid_subject`). An
endpoint is checked as a webhook is, at `notify` and again at each send. A push service that answers 404 or 410
says the subscription is gone: it is dropped.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import contextlib
import hashlib
import hmac
import ipaddress
import json
import logging
import re
import secrets
import socket
import ssl
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email.message import EmailMessage
from email.utils import formatdate, make_msgid
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit

import aiosmtplib
import http_ece
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from py_vapid import Vapid02, VapidException

from protocol import messages as m
from server.config import Settings
from server.metrics import Metrics
from server.rooms.clock import runs_out
from server.rooms.core import Room, RoomError
from server.rooms.meta import RoomMeta
from server.store.base import StoreUnavailable
from server.store.records import NotifyPrefs, PushSub, Records

log = logging.getLogger("marcopolo.signals")

#: seconds a webhook gets, from resolving its host to the status line of its answer
WEBHOOK_TIMEOUT = 5.0
#: seconds an e-mail gets, from connecting to the SMTP server to its acceptance
EMAIL_TIMEOUT = 15.0
#: seconds resolving a webhook's host may take when `notify` checks it
RESOLVE_TIMEOUT = 5.0
#: the most bytes of a webhook's answer read (its status line); the rest is never read
ANSWER_MAX = 8192
#: a new account's delay before its signals (minutes)
DEFAULT_DELAY_MINUTES = 15
#: turns this node decided (sent, or nothing to send) remembered, so later versions of a turn do not read again
DONE_KEPT = 10_000
#: claims older than this are forgotten (a turn still waiting after 60 days may get one more signal)
CLAIMS_KEPT = 60 * 86400
PRUNE_EVERY = 3600.0
#: host names resolved at once by `notify` checks (a client cannot make the node flood its resolver)
RESOLVING = 8
USER_AGENT = "marcopolo-signals/1"
#: web push subscriptions kept per account (one per browser; past it the oldest goes)
PUSH_KEPT = 10
#: seconds a push service keeps a turn's message for a browser that is offline (`TTL`)
PUSH_TTL = 86400
#: seconds a VAPID token is valid (RFC 8292: at most a day)
VAPID_EXPIRY = 12 * 3600
#: seconds encrypting and signing one push may take (run off the event loop)
PUSH_CRYPTO_TIMEOUT = 5.0
#: an e-mail address: ASCII local part and a domain of dotted labels (what the server sends to)
_EMAIL = re.compile(
    r"^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]{1,64}@"
    r"(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$"
)

Address = ipaddress.IPv4Address | ipaddress.IPv6Address
Resolver = Callable[[str, int], Awaitable[list[str]]]


class SignalRefused(Exception):
    """A webhook leads to an address the server does not send to; `why` names its kind (`loopback`, ...)."""

    def __init__(self, message: str, why: str) -> None:
        super().__init__(message)
        self.why = why


# ---- checks -----------------------------------------------------------------------------------


def address_refused(ip: Address) -> str | None:
    """Why the server does not send to `ip` (None: a global unicast address). IPv4 addresses inside IPv6 ones
    (mapped, 6to4, Teredo, NAT64) are judged as the IPv4 address they lead to."""
    inner: list[Address] = []
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            inner.append(ip.ipv4_mapped)
        if ip.sixtofour is not None:
            inner.append(ip.sixtofour)
        if ip.teredo is not None:
            inner.extend(ip.teredo)
        if ip in ipaddress.ip_network("64:ff9b::/96") or ip in ipaddress.ip_network("64:ff9b:1::/48"):
            inner.append(ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF))
    for a in [*inner, ip]:  # the IPv4 address it leads to first: its kind is the one that tells
        for why, bad in (
            ("loopback", a.is_loopback),
            ("unspecified", a.is_unspecified),
            ("link-local", a.is_link_local),
            ("multicast", a.is_multicast),
            ("private", a.is_private),
            ("reserved", a.is_reserved),
            ("non-global", not a.is_global),
        ):
            if bad:
                return why
    return None


def check_email(addr: str) -> str:
    """The address as kept, or ValueError."""
    if not _EMAIL.match(addr) or ".." in addr or addr.startswith(".") or "@." in addr or ".@" in addr:
        raise ValueError("email: not an e-mail address (name@example.org)")
    return addr


@dataclass(frozen=True, slots=True)
class Target:
    """A webhook's parts: where to connect and what to ask for."""

    scheme: str
    host: str
    port: int
    path: str

    @property
    def host_header(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        default = 443 if self.scheme == "https" else 80
        return host if self.port == default else f"{host}:{self.port}"


def parse_webhook(url: str, allow_http: bool, what: str = "webhook") -> Target:
    """A webhook's parts (or a push endpoint's, `what`), or ValueError: https (http only if allowed), a host, no
    user:password, no fragment."""
    if any(ch.isspace() or not ch.isprintable() for ch in url) or not url.isascii():
        raise ValueError(f"{what}: ASCII without spaces or control characters (percent-encode the rest)")
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        raise ValueError(f"{what}: not a URL") from None
    scheme = parts.scheme.lower()
    if scheme != "https" and not (scheme == "http" and allow_http):
        raise ValueError(f"{what}: must be an https:// URL" + (" (or http://)" if allow_http else ""))
    if not parts.hostname:
        raise ValueError(f"{what}: no host")
    if parts.username is not None or parts.password is not None:
        raise ValueError(f"{what}: no user or password in the URL (the signature authenticates the server)")
    if parts.fragment:
        raise ValueError(f"{what}: no #fragment")
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return Target(scheme, parts.hostname.lower(), port or (443 if scheme == "https" else 80), path)


async def system_resolve(host: str, port: int) -> list[str]:
    """The addresses `host` resolves to (the system's resolver)."""
    infos = await asyncio.get_running_loop().getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return [str(info[4][0]) for info in infos]


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def unb64url(text: str) -> bytes:
    """base64url with or without padding, or ValueError."""
    try:
        return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError):
        raise ValueError("not base64url") from None


def check_push_keys(p256dh: str, auth: str) -> None:
    """A subscription's keys, or ValueError: `p256dh` a point of P-256 (65 bytes, uncompressed), `auth` 16 bytes."""
    try:
        point = unb64url(p256dh)
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
    except ValueError:
        raise ValueError("push: keys.p256dh is not a P-256 public key (base64url)") from None
    if len(point) != 65 or point[0] != 4:
        raise ValueError("push: keys.p256dh is not an uncompressed P-256 point")
    try:
        secret = unb64url(auth)
    except ValueError:
        secret = b""
    if len(secret) != 16:
        raise ValueError("push: keys.auth is not a 16-byte secret (base64url)")


def load_vapid(path: str | Path) -> Vapid02:
    """The operator's VAPID key from its PEM file (PKCS#8 or SEC 1), or ValueError saying why not."""
    try:
        key = serialization.load_pem_private_key(Path(path).read_bytes(), password=None)
    except OSError as err:
        raise ValueError(f"vapid_private_key: {path} cannot be read ({err.strerror})") from None
    except (ValueError, TypeError):
        raise ValueError(f"vapid_private_key: {path} holds no unencrypted PEM private key") from None
    if not isinstance(key, ec.EllipticCurvePrivateKey) or not isinstance(key.curve, ec.SECP256R1):
        raise ValueError(f"vapid_private_key: {path} is not an EC P-256 (prime256v1) key")
    return Vapid02(key)


def vapid_public_key(vapid: Vapid02) -> str:
    """The VAPID public key as browsers take it (`applicationServerKey`): base64url of the uncompressed point."""
    raw = vapid.public_key.public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    return b64url(raw)


def push_request(vapid: Vapid02, subject: str, sub: PushSub, body: bytes, topic: str) -> tuple[bytes, dict[str, str]]:
    """A push message for one subscription: `body` encrypted for that browser (RFC 8291 aes128gcm: a new ephemeral
    key and salt each time) and the headers (VAPID authorization for the endpoint's origin, TTL, Topic)."""
    target = parse_webhook(sub.endpoint, True, "push")
    audience = f"{target.scheme}://{target.host_header}"  # the endpoint's origin
    ephemeral = ec.generate_private_key(ec.SECP256R1())
    sealed = http_ece.encrypt(body, salt=secrets.token_bytes(16), private_key=ephemeral, dh=unb64url(sub.p256dh),
                              auth_secret=unb64url(sub.auth), version="aes128gcm")  # fmt: skip
    claims = {"aud": audience, "exp": int(time.time()) + VAPID_EXPIRY, "sub": subject}
    headers = {
        **vapid.sign(claims),
        "TTL": str(PUSH_TTL),
        "Urgency": "normal",
        "Content-Encoding": "aes128gcm",
        "Topic": topic,
    }
    return sealed, headers


def push_topic(room: str, seat: int) -> str:
    """A push message's `Topic` (at most 32 base64url characters): one per room and seat, so a push service
    replaces an older turn of that seat not yet delivered with the newer one."""
    return b64url(hashlib.sha256(f"{room}:{seat}".encode()).digest()[:24])


def sign(secret: str, body: bytes) -> str:
    """The value of `X-Marcopolo-Signature` for `body`."""
    return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


def new_secret() -> str:
    """A webhook's signing secret: 192 random bits, URL-safe."""
    return secrets.token_urlsafe(24)


# ---- what a signal says ---------------------------------------------------------------------------


def turn_key(room: str, seat: int, v: int) -> str:
    return f"{room}:{seat}:{v}"


def payload(meta: RoomMeta, seat: int, v: int, public_url: str, now_ms: int, scale: float = 1.0) -> dict[str, Any]:
    """What a signal says: the turn, the game and room, the seat's name, its deadline (and `out_at`: the deadline
    plus the seat's time bank), the link. Only what every viewer of the room sees already (its id, game, names,
    clock)."""
    clock = meta.clock or {}
    deadline = int(clock["deadline"]) if clock and seat in clock.get("seats", []) else None
    out_at = runs_out(meta, scale).get(seat) if deadline is not None else None
    url = f"{public_url.rstrip('/')}/#/room/{quote(meta.room, safe='')}" if public_url else None
    return {
        "event": "your_turn",
        "id": turn_key(meta.room, seat, v),
        "game": meta.game,
        "room": meta.room,
        "seat": seat,
        "name": meta.names[seat] if seat < len(meta.names) else None,
        "deadline": deadline,
        "out_at": out_at,
        "url": url,
        "at": now_ms,
    }


def email_message(sender: str, to: str, data: dict[str, Any]) -> EmailMessage:
    """The turn's e-mail (plain text) from `data`, a signal's payload."""
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = to
    msg["Subject"] = f"Your turn in {data['game']} ({data['room']})"
    msg["Date"] = formatdate(localtime=False)
    msg["Message-ID"] = make_msgid(domain=sender.rpartition("@")[2].strip("<> ") or None)
    msg["Auto-Submitted"] = "auto-generated"
    msg["X-Marcopolo-Turn"] = str(data["id"])
    lines = [f"Hello {data['name']},", "", f"it is your turn in {data['game']} (room {data['room']})."]
    if data["deadline"] is not None:
        when = datetime.fromtimestamp(data["deadline"] / 1000, UTC).strftime("%Y-%m-%d %H:%M UTC")
        if data.get("out_at") is not None and data["out_at"] != data["deadline"]:
            until = datetime.fromtimestamp(data["out_at"] / 1000, UTC).strftime("%Y-%m-%d %H:%M UTC")
            lines.append(f"Your move is due at {when}; your time bank lasts until {until}.")
        else:
            lines.append(f"Your time runs out at {when}.")
    if data["url"]:
        lines += ["", f"Open the game: {data['url']}"]
    lines += ["", "You asked this server for these e-mails; a notify with an empty email ends them."]
    msg.set_content("\n".join(lines) + "\n")
    return msg


# ---- the notifier ------------------------------------------------------------------------------------


@dataclass(eq=False, slots=True)
class _Pending:
    room: str
    seat: int
    v: int
    #: when the turn began (ms epoch)
    started: int
    player: str
    task: asyncio.Task[None] | None = field(default=None, repr=False)
    #: claimed: it goes out whatever happens to the turn now
    sending: bool = False

    @property
    def key(self) -> str:
        return turn_key(self.room, self.seat, self.v)


class Signals:
    """The node's signals (one per node; the rooms' turn clocks call `turns_changed` and `room_gone`)."""

    def __init__(
        self, settings: Settings, records: Records, metrics: Metrics, room_of: Callable[[str], Room | None]
    ) -> None:
        self.settings = settings
        self.records = records
        self.metrics = metrics
        self._room_of = room_of
        self.scale = float(settings.clock_scale)
        #: how host names are resolved (tests put a resolver of their own here)
        self.resolve: Resolver = system_resolve
        #: the timers: room -> seat -> pending signal
        self._pending: dict[str, dict[int, _Pending]] = {}
        self._count = 0
        self._done: OrderedDict[str, None] = OrderedDict()
        self._resolving = asyncio.Semaphore(RESOLVING)
        self._pruned = 0.0
        self._closed = False
        self._tasks: set[asyncio.Task[Any]] = set()
        #: web push: the operator's VAPID key and its public half (None: no web push)
        self.vapid: Vapid02 | None = None
        self.push_key: str | None = None
        if settings.vapid_private_key is not None:
            if not settings.vapid_subject.startswith(("mailto:", "https://")):
                raise ValueError("web push (vapid_private_key) needs a vapid_subject: mailto:ADDRESS or https://PAGE")
            self.vapid = load_vapid(settings.vapid_private_key)
            self.push_key = vapid_public_key(self.vapid)
        metrics.table_sizes.append(lambda: {"signals_pending": self._count, "signals_done": len(self._done)})

    @property
    def enabled(self) -> bool:
        """The node sends anything at all (an SMTP server is set, webhooks are on, or a VAPID key is set)."""
        return bool(self.channels)

    @property
    def channels(self) -> list[str]:
        """What this node sends: `email`, `webhook`, `push` (the `notify` answer's `channels`)."""
        s = self.settings
        on = {"email": bool(s.smtp_host), "webhook": s.webhooks, "push": self.vapid is not None}
        return [k for k, v in on.items() if v]

    # ---- what the rooms tell ----------------------------------------------------------------

    def turns_changed(self, room: Room) -> None:
        """A version of a turn-based room run here: start the timers of turns that began, cancel those that ended.
        Runs in the room's actor, on every version: no I/O here."""
        meta = room.meta
        mine = self._pending.get(room.id)
        playing = meta.status == "playing" and meta.mode == "turn_based" and not room.stopped
        turns = meta.per_seat(meta.turns, None) if playing else [None] * meta.seats
        if mine:
            for seat, p in list(mine.items()):
                turn = turns[seat] if seat < len(turns) else None
                if turn is None or int(turn[0]) != p.v or meta.players[seat] != p.player:
                    self._cancel(p)
        if not playing or self._closed or not self.enabled:
            return
        for seat, turn in enumerate(turns):
            player = meta.players[seat] if seat < len(meta.players) else None
            if turn is None or not player or player.startswith("bot:"):
                continue
            v, started = int(turn[0]), int(turn[1])
            held = self._pending.get(room.id, {}).get(seat)
            if (held is not None and held.v == v) or turn_key(room.id, seat, v) in self._done:
                continue
            if self._count >= self.settings.signals_pending:
                self.metrics.signals.labels("turn", "dropped").inc()
                log.warning("room %s: turn signal of seat %d dropped: %d signals wait already", room.id, seat,
                            self._count)  # fmt: skip
                continue
            p = _Pending(room.id, seat, v, started, player)
            self._pending.setdefault(room.id, {})[seat] = p
            self._count += 1
            p.task = asyncio.get_running_loop().create_task(self._run(p), name=f"signal-{p.key}")

    def room_gone(self, room: Room) -> None:
        """The room stopped here (another node runs it now, or this one stops): its timers go; claims stay."""
        for p in list(self._pending.get(room.id, {}).values()):
            self._cancel(p)

    def _cancel(self, p: _Pending) -> None:
        if p.sending:
            return  # claimed: it is sent (the claim said this node sends it)
        self._forget(p)
        if p.task is not None and not p.task.done():
            p.task.cancel()

    def _forget(self, p: _Pending) -> None:
        mine = self._pending.get(p.room)
        if mine is not None and mine.get(p.seat) is p:
            del mine[p.seat]
            self._count -= 1
            if not mine:
                del self._pending[p.room]

    def _decided(self, key: str) -> None:
        self._done[key] = None
        while len(self._done) > DONE_KEPT:
            self._done.popitem(last=False)

    def _current(self, p: _Pending) -> RoomMeta | None:
        """The meta of the room if the turn is still on here (the room runs here, the seat is to move since the
        turn's version, held by the same player), else None."""
        room = self._room_of(p.room)
        if room is None or room.stopped or room.fenced:
            return None
        meta = room.meta
        if meta.status != "playing" or p.seat >= len(meta.players) or meta.players[p.seat] != p.player:
            return None
        turn = meta.per_seat(meta.turns, None)[p.seat]
        return meta if turn is not None and int(turn[0]) == p.v else None

    async def _run(self, p: _Pending) -> None:
        decided = False
        try:
            try:
                prefs = await self.records.notify_prefs(p.player)
                subs = await self._push_subs(p.player)
            except StoreUnavailable as err:
                log.warning("turn %s: the player's signal settings could not be read (%s); none sent", p.key, err)
                self.metrics.signals.labels("turn", "failed").inc()
                decided = True
                return
            if prefs is None or not self._targets(prefs, subs):
                decided = True
                return
            due = p.started / 1000 + prefs.delay_minutes * 60 * self.scale
            wait = due - time.time()
            if wait > 0:
                await asyncio.sleep(wait)
            if self._current(p) is None:
                return
            p.sending = True
            decided = True
            await self._deliver(p)
        except asyncio.CancelledError:
            raise
        except Exception:  # a fault here must not end in an unretrieved task error
            log.exception("turn %s: signal fault", p.key)
        finally:
            if decided:
                self._decided(p.key)
            self._forget(p)

    def _targets(self, prefs: NotifyPrefs, subs: list[PushSub]) -> list[str]:
        out = []
        if prefs.email and self.settings.smtp_host:
            out.append("email")
        if prefs.webhook and self.settings.webhooks:
            out.append("webhook")
        if subs and self.vapid is not None:
            out.append("push")
        return out

    async def _push_subs(self, player: str) -> list[PushSub]:
        """The account's web push subscriptions ([] when this node sends no web push: nothing is read)."""
        return await self.records.push_subs(player) if self.vapid is not None else []

    async def _deliver(self, p: _Pending) -> None:
        """Claim the turn, then send its e-mail, webhook and web pushes (settings read again: they may have changed)."""
        try:
            prefs = await self.records.notify_prefs(p.player)
            subs = await self._push_subs(p.player)
            if prefs is None or not self._targets(prefs, subs):
                return
            if not await self.records.claim_signal(p.key, int(time.time())):
                self.metrics.signals.labels("turn", "duplicate").inc()
                log.info("turn %s: signalled already (another node, or before a restart)", p.key)
                return
        except StoreUnavailable as err:
            log.warning("turn %s: not signalled: the records database is unavailable (%s)", p.key, err)
            self.metrics.signals.labels("turn", "failed").inc()
            return
        meta = self._current(p)
        if meta is None:
            return
        data = payload(meta, p.seat, p.v, self.settings.public_url, int(time.time() * 1000), self.scale)
        sends = []
        targets = self._targets(prefs, subs)
        body = json.dumps(data, separators=(",", ":"), sort_keys=True).encode()
        if "email" in targets and prefs.email:
            sends.append(self._send_email(p.key, prefs.email, data))
        if "webhook" in targets and prefs.webhook:
            sends.append(self._send_webhook(p.key, prefs.webhook, prefs.secret, body))
        if "push" in targets:
            topic = push_topic(p.room, p.seat)
            sends += [self._send_push(p.key, sub, body, topic) for sub in subs]
        await asyncio.gather(*sends)
        self._maybe_prune()

    def _maybe_prune(self) -> None:
        now = time.monotonic()
        if now - self._pruned < PRUNE_EVERY:
            return
        self._pruned = now

        async def prune() -> None:
            with contextlib.suppress(StoreUnavailable):
                await self.records.prune_signals(int(time.time()) - CLAIMS_KEPT)

        task = asyncio.get_running_loop().create_task(prune(), name="signals-prune")
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # ---- e-mail -----------------------------------------------------------------------------

    async def _send_email(self, key: str, to: str, data: dict[str, Any]) -> None:
        s = self.settings
        try:
            async with asyncio.timeout(EMAIL_TIMEOUT):
                await aiosmtplib.send(
                    email_message(s.smtp_from, to, data),
                    hostname=s.smtp_host,
                    port=s.smtp_port,
                    username=s.smtp_user or None,
                    password=s.smtp_password.get_secret_value() or None,
                    use_tls=s.smtp_tls == "tls",
                    start_tls=s.smtp_tls == "starttls",
                    timeout=EMAIL_TIMEOUT,
                )
        except (aiosmtplib.SMTPException, OSError, TimeoutError, ValueError) as err:
            self.metrics.signals.labels("email", "failed").inc()
            log.warning("turn %s: e-mail not sent: %s", key, type(err).__name__)
            return
        self.metrics.signals.labels("email", "sent").inc()

    # ---- webhooks ---------------------------------------------------------------------------

    async def addresses(self, host: str, port: int, what: str = "webhook") -> list[Address]:
        """Every address `host` resolves to, or SignalRefused when one of them is not to be reached (unless the
        operator allows private addresses). OSError when it does not resolve."""
        try:
            found: list[Address] = [ipaddress.ip_address(host)]
        except ValueError:
            found = []
            for a in await self.resolve(host, port):
                ip = ipaddress.ip_address(a)
                if ip not in found:
                    found.append(ip)
        if not found:
            raise OSError(f"{host} resolves to no address")
        if not self.settings.webhook_allow_private:
            for ip in found:
                why = address_refused(ip)
                if why is not None:
                    raise SignalRefused(f"{what}: {host} leads to a {why} address ({ip}); the server does not send "
                                        "there", why)  # fmt: skip
        return found

    async def check_webhook(self, url: str, what: str = "webhook") -> str:
        """A webhook (or a push endpoint, `what`) `notify` may keep, or ValueError / SignalRefused saying why not."""
        target = parse_webhook(url, self.settings.webhook_allow_http, what)
        async with self._resolving:
            try:
                async with asyncio.timeout(RESOLVE_TIMEOUT):
                    await self.addresses(target.host, target.port, what)
            except (OSError, TimeoutError):
                raise ValueError(f"{what}: {target.host} does not resolve") from None
        return url

    async def post(self, url: str, body: bytes, headers: dict[str, str], content_type: str = "application/json") -> int:
        """POST `body` to the webhook (or push endpoint), to an address checked now; the status of the answer (its
        status line only is read). Raises SignalRefused, OSError, ValueError, TimeoutError."""
        target = parse_webhook(url, self.settings.webhook_allow_http)
        ip = (await self.addresses(target.host, target.port))[0]
        tls = ssl.create_default_context() if target.scheme == "https" else None
        reader, writer = await asyncio.open_connection(
            str(ip), target.port, ssl=tls, server_hostname=target.host if tls else None, limit=ANSWER_MAX
        )
        try:
            head = [f"POST {target.path} HTTP/1.1", f"Host: {target.host_header}", f"User-Agent: {USER_AGENT}",
                    f"Content-Type: {content_type}", f"Content-Length: {len(body)}", "Connection: close"]  # fmt: skip
            head += [f"{k}: {v}" for k, v in headers.items()]
            writer.write(("\r\n".join(head) + "\r\n\r\n").encode("ascii") + body)
            await writer.drain()
            line = await reader.readline()  # at most ANSWER_MAX bytes (else ValueError)
            parts = line.split(b" ", 2)
            if len(parts) < 2 or not parts[0].startswith(b"HTTP/1.") or not parts[1].isdigit():
                raise ValueError("not an HTTP answer")
            return int(parts[1])
        finally:
            writer.close()
            with contextlib.suppress(Exception):
                async with asyncio.timeout(1.0):
                    await writer.wait_closed()

    async def _send_webhook(self, key: str, url: str, secret: str, body: bytes) -> None:
        headers = {"X-Marcopolo-Event": "your_turn", "X-Marcopolo-Signature": sign(secret, body)}
        try:
            async with asyncio.timeout(WEBHOOK_TIMEOUT):
                status = await self.post(url, body, headers)
        except SignalRefused as err:
            self.metrics.signals.labels("webhook", "refused").inc()
            log.warning("turn %s: webhook refused at send time: it leads to a %s address", key, err.why)
            return
        except (OSError, TimeoutError, ValueError, ssl.SSLError) as err:
            self.metrics.signals.labels("webhook", "failed").inc()
            log.warning("turn %s: webhook failed: %s", key, type(err).__name__)
            return
        if 200 <= status < 300:
            self.metrics.signals.labels("webhook", "sent").inc()
        else:  # 3xx too: a redirect is not followed
            self.metrics.signals.labels("webhook", "failed").inc()
            log.warning("turn %s: webhook answered %d", key, status)

    # ---- web push -------------------------------------------------------------------------------

    async def _send_push(self, key: str, sub: PushSub, body: bytes, topic: str) -> None:
        """One turn's push to one browser: encrypted for it, signed with the VAPID key, POSTed to its push service
        (checked as a webhook is, now). 404 or 410: the subscription is gone, and dropped."""
        assert self.vapid is not None
        try:
            parse_webhook(sub.endpoint, self.settings.webhook_allow_http, "push")
            async with asyncio.timeout(PUSH_CRYPTO_TIMEOUT):  # ECDH, HKDF, AES-GCM and ECDSA: off the event loop
                sealed, headers = await asyncio.to_thread(
                    push_request, self.vapid, self.settings.vapid_subject, sub, body, topic
                )
            async with asyncio.timeout(WEBHOOK_TIMEOUT):
                status = await self.post(sub.endpoint, sealed, headers, content_type="application/octet-stream")
        except SignalRefused as err:
            self.metrics.signals.labels("push", "refused").inc()
            log.warning("turn %s: push refused at send time: its endpoint leads to a %s address", key, err.why)
            return
        except (OSError, TimeoutError, ValueError, ssl.SSLError, VapidException, http_ece.ECEException) as err:
            self.metrics.signals.labels("push", "failed").inc()
            log.warning("turn %s: push failed: %s", key, type(err).__name__)
            return
        if 200 <= status < 300:
            self.metrics.signals.labels("push", "sent").inc()
        elif status in (404, 410):  # the browser unsubscribed, or the push service forgot it: never again
            self.metrics.signals.labels("push", "gone").inc()
            log.info("turn %s: push subscription gone (%d): dropped", key, status)
            with contextlib.suppress(StoreUnavailable):
                await self.records.drop_push_sub(sub.player, sub.endpoint)
        else:
            self.metrics.signals.labels("push", "failed").inc()
            log.warning("turn %s: push service answered %d", key, status)

    # ---- the `notify` request -----------------------------------------------------------------

    async def request(self, player: str, msg: m.NotifyRequest) -> dict[str, Any]:
        """Read or change the account's signals; the `notify` answer (without `re`)."""
        s = self.settings
        prefs = await self.records.notify_prefs(player)
        email = prefs.email if prefs else None
        webhook = prefs.webhook if prefs else None
        delay = prefs.delay_minutes if prefs else DEFAULT_DELAY_MINUTES
        secret = prefs.secret if prefs else new_secret()
        try:
            if msg.email:
                if not s.smtp_host:
                    raise RoomError("forbidden", "this server sends no e-mail (no SMTP server is set)")
                email = check_email(msg.email)
            elif msg.email == "":
                email = None
            if msg.webhook:
                if not s.webhooks:
                    raise RoomError("forbidden", "this server sends no webhooks")
                webhook = await self.check_webhook(msg.webhook)
            elif msg.webhook == "":
                webhook = None
        except (ValueError, SignalRefused) as err:
            raise RoomError("bad_message", str(err)) from None
        add: PushSub | None = None
        try:
            if isinstance(msg.push, m.PushSubscription):
                if self.vapid is None:
                    raise RoomError("forbidden", "this server sends no web push (no VAPID key is set)")
                endpoint = await self.check_webhook(msg.push.endpoint, "push")
                check_push_keys(msg.push.keys.p256dh, msg.push.keys.auth)
                add = PushSub(player, endpoint, msg.push.keys.p256dh, msg.push.keys.auth, int(time.time()))
        except (ValueError, SignalRefused) as err:
            raise RoomError("bad_message", str(err)) from None
        if msg.delay_minutes is not None:
            delay = msg.delay_minutes
        if msg.new_secret:
            secret = new_secret()
        new = NotifyPrefs(player, email, webhook, delay, secret, int(time.time()))
        if prefs is None or (new.email, new.webhook, new.delay_minutes, new.secret) != (
            prefs.email, prefs.webhook, prefs.delay_minutes, prefs.secret
        ):  # fmt: skip
            await self.records.set_notify_prefs(new)
        if msg.push == "":
            await self.records.drop_push_sub(player, None)
        elif msg.push_remove:
            await self.records.drop_push_sub(player, msg.push_remove)
        if add is not None:
            await self.records.add_push_sub(add, PUSH_KEPT)
        subs = await self.records.push_subs(player)
        return {"t": "notify", "email": email, "webhook": webhook, "delay_minutes": delay, "secret": secret,
                "push": [sub.endpoint for sub in subs], "push_key": self.push_key,
                "channels": self.channels}  # fmt: skip

    async def close(self) -> None:
        """Stop every timer (a claimed signal being sent gets a second to finish)."""
        self._closed = True
        sending = []
        for mine in list(self._pending.values()):
            for p in list(mine.values()):
                if p.sending and p.task is not None:
                    sending.append(p.task)
                else:
                    self._cancel(p)
        if sending:
            await asyncio.wait(sending, timeout=1.0)
        for task in [*sending, *self._tasks]:
            task.cancel()
