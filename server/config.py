"""Server settings: one pydantic-settings model, filled from flags, `MARCOPOLO_*` environment variables and defaults.

Precedence, highest first: a command-line flag, then the environment variable, then the default. Every field
is all three: `lease_ms` is `--lease-ms`, `MARCOPOLO_LEASE_MS` and `Settings(lease_ms=...)`. To add a setting,
add a field here with a `description` (it becomes the flag's help): `server.__main__` builds its flags from
the fields, so the flag and the variable come with no other change.

Code and tests build `Settings(port=0, ...)` directly; keyword arguments beat the environment too.
Also here: the log set-up (`setup_logging`), plain text lines or one JSON object per line for log collectors.
"""

from __future__ import annotations

import json
import logging
import os
import socket
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import Field, SecretStr, field_validator, model_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from protocol import MAX_DEPTH, MAX_FRAME

ENV_PREFIX = "MARCOPOLO_"
#: the store a node uses when none is named: a SQLite file, so a restarted node resumes every game
DEFAULT_STORE = "sqlite:///./data/marcopolo.db"
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")


def _default_node_id(data: dict[str, Any]) -> str:
    """HOST-PORT: a node restarted on the same host and port takes its rooms back at once."""
    return f"{socket.gethostname()}-{data.get('port', 8765)}".replace(":", "-")


class Settings(BaseSettings):
    """Everything a node is told at start-up; frozen once built."""

    model_config = SettingsConfigDict(env_prefix=ENV_PREFIX, frozen=True, extra="forbid", validate_default=True)

    host: str = Field(
        "127.0.0.1",
        description="address to listen on; 0.0.0.0 (all interfaces) to host players on a LAN or a VPS",
    )
    port: int = Field(8765, ge=0, le=65535, description="TCP port of the WebSocket (/ws) and HTTP routes")
    store: str = Field(
        DEFAULT_STORE,
        description="sqlite:///path/to.db (default: ./data/marcopolo.db, the folder is created), memory (nothing "
        "survives a restart), redis://host:port/db, redis+sentinel://h:p,h:p/service[/db] or "
        "redis+cluster://h:p[,h:p...] (a Redis Cluster)",
    )
    records: str | None = Field(
        None,
        description="the records database (ratings, finished games and their replays, chat): "
        "postgresql://user:password@host:port/db for several nodes, sqlite:///path/to.db, or memory; default: a "
        "SQLite store's own file, a Redis store's ./data/records.db (one machine only), memory for memory",
    )
    relay_timeout: float = Field(
        5.0, gt=0, le=120, description="seconds a request forwarded to the node running its room waits for the "
        "answer; then this node answers it itself: unavailable, or for a move (its outcome unknown) it closes the "
        "connection (1012) so the client resyncs; a late answer is dropped",
    )
    records_timeout: float = Field(
        5.0, gt=0, le=60, description="seconds a records operation may take before it answers unavailable "
        "(the records database is then left alone for 2 s: every records request answers unavailable at once)",
    )
    prefix: str = Field("mp:", description="key prefix in the store; nodes on one Redis and prefix form a cluster")
    node_id: str = Field(
        default_factory=_default_node_id,
        min_length=1,
        description="unique per node; default HOST-PORT, so a node restarted on the same port takes its rooms "
        "back at once",
    )
    #: frames over this size are answered with `too_large`; over `hard_frame_limit` the socket closes (1009)
    max_frame: int = Field(MAX_FRAME, gt=0, description="bytes per client frame (larger ones get too_large)")
    hard_frame_limit: int = Field(
        4 * MAX_FRAME, gt=0, description="bytes at which the socket closes (default 4 x max-frame)"
    )
    max_depth: int = Field(MAX_DEPTH, gt=0, description="nesting depth allowed in a client frame")
    #: token bucket per connection: `rate` frames per second, bursts up to `burst`
    rate: float = Field(40.0, gt=0, description="frames per second per connection")
    burst: int = Field(80, gt=0, description="burst of frames per connection over the rate")
    #: a connection that keeps flooding after this many refused frames is closed (1008)
    flood_close_after: int = Field(200, gt=0, description="refused frames after which a flooding socket closes")
    #: frames queued for a slow reader before its connection is closed (1013)
    out_queue: int = Field(2000, gt=0, description="frames queued for a slow reader before it is dropped")
    #: bytes queued for a slow reader before the same happens
    out_bytes: int = Field(4 * 1024 * 1024, gt=0, description="bytes queued for a slow reader before it is dropped")
    close_timeout: float = Field(
        5.0, gt=0, description="seconds a closing connection gets to drain and close before it is aborted"
    )
    hello_timeout: float = Field(10.0, ge=0, description="seconds to say hello before the socket closes (0: none)")
    ping_interval: float = Field(20.0, ge=0, description="seconds between keepalive pings (0: off)")
    ping_timeout: float = Field(20.0, gt=0, description="seconds to answer a ping before the socket closes (1011)")
    compression: Literal["deflate", "none"] = Field(
        "deflate",
        description="WebSocket permessage-deflate (RFC 7692): deflate (accepted from every client that offers it, "
        "as browsers do: a move's frames for all seats take about a sixth of the bytes, for some CPU per frame and "
        "about 25 KiB more memory per connection) or none",
    )
    deflate_window_bits: int = Field(
        12, ge=9, le=15, description="permessage-deflate: the LZ77 window, in bits, of both directions (9..15)"
    )
    deflate_mem_level: int = Field(
        2,
        ge=1,
        le=9,
        description="permessage-deflate: zlib's memLevel of the server's compressor (1..9; 2 packs this server's "
        "frames as small as 5 does, faster and in less memory)",
    )
    max_conns_per_addr: int = Field(
        64, ge=0, description="open connections per client address (0: no limit); more get HTTP 429"
    )
    trusted_proxies: Annotated[tuple[str, ...], NoDecode] = Field(
        (), description="proxies (IPs or CIDR networks) whose X-Forwarded-For names the client; comma-separated"
    )
    creates_per_minute: int = Field(20, ge=0, description="rooms one player or address may create per minute (0: any)")
    waiting_rooms_per_player: int = Field(
        5, ge=0, description="rooms one player may have waiting for players at once (0: any)"
    )
    name_max: int = Field(32, gt=0, le=32, description="longest display name in characters (at most 32)")
    lobby_max: int = Field(100, gt=0, description="rooms in a lobby push and the most a list_rooms page holds")
    hello_auth: Literal["none", "secret", "hmac"] = Field(
        "none",
        description="who may say hello: none (anyone), secret (auth equals MARCOPOLO_HELLO_SECRET) or hmac "
        "(auth is EXPIRY.HEXSIG, HMAC-SHA256 of EXPIRY.NAME under the secret)",
    )
    hello_secret: str = Field("", description="the shared secret for hello_auth (set it in the environment)")
    #: honour a client-chosen `seed` room option (tests only: a known seed reveals every deck)
    allow_client_seed: bool = Field(
        False, description="TESTS ONLY: honour a client-chosen `seed` room option (a known seed reveals every deck)"
    )
    # accounts (docs/security.md)
    password_min: int = Field(8, ge=1, le=256, description="shortest password an account may choose")
    password_memory_kib: int = Field(
        19456, ge=1024, description="argon2id memory cost of a password hash in KiB (OWASP's minimum: 19456)"
    )
    password_time_cost: int = Field(2, ge=1, description="argon2id passes over that memory")
    auth_window: int = Field(900, gt=0, description="seconds over which failed sign-ins are counted")
    auth_fails_per_name: int = Field(10, gt=0, description="failed sign-ins of one name in the window before a pause")
    auth_fails_per_addr: int = Field(50, gt=0, description="failed sign-ins from one address in the window")
    signups_per_addr: int = Field(10, gt=0, description="accounts one address may create in the auth window")
    name_free_days: int = Field(30, ge=0, description="days a deleted account's name stays unusable by others")
    passkey_rp_id: str = Field(
        "", description="WebAuthn relying party id (the site's domain); empty: the host name the browser asked for"
    )
    passkey_origins: Annotated[tuple[str, ...], NoDecode] = Field(
        (), description="origins passkey ceremonies may come from, comma-separated; empty: http(s)://HOST asked for"
    )
    finished_ttl: int = Field(7 * 24 * 3600, gt=0, description="seconds finished rooms stay readable")
    session_ttl: int = Field(30 * 24 * 3600, gt=0, description="seconds a player's token stays valid unused")
    #: a snapshot is written every this many versions (and at the end); recovery replays the rest
    snapshot_every: int = Field(32, gt=0, description="versions between two stored snapshots of a room")
    #: a room's lease (several nodes on one Redis): a node that stops renewing loses its rooms after this;
    #: leases are renewed every third of it, in one round trip for all rooms
    lease_ms: int = Field(2000, gt=0, description="room lease in ms: a dead node's rooms move on after this")
    #: how often a node looks for rooms its connections watch whose node went away (seconds)
    check_every: float = Field(
        0.25, gt=0, description="seconds between a node's checks for watched rooms whose node went away"
    )
    #: after a takeover, seats stay shown as connected this long (seconds) so their players can re-attach
    presence_grace: float = Field(
        5.0, ge=0, description="seconds seats stay shown connected after a takeover, for their players to re-attach"
    )
    wait_replicas: int = Field(
        0,
        ge=0,
        description="Redis: acknowledge a write only once this many replicas have it (WAIT after each write batch)",
    )
    #: keep every log entry when a snapshot is written (replays, audits, the fault tests' checks)
    keep_log: bool = Field(
        True, description="keep every log entry at snapshots (the default: replays of finished games need it)"
    )
    #: seconds a server-seated bot waits before its move (so people can follow the game)
    bot_delay: float = Field(0.5, ge=0, description="seconds a server-seated bot waits before moving")
    #: seconds a search ("hard") bot may think per decision; a room's `bot_think_ms` option overrides it
    bot_think: float = Field(
        0.5, gt=0, le=10, description="seconds a search bot thinks per decision (room option bot_think_ms)"
    )
    #: v1.1 public lobbies (server.rooms.clock, server.rooms.timers, server.node.lobby)
    clock_scale: float = Field(
        1.0, gt=0, description="TESTS ONLY: multiply every turn clock and lobby timer (below 1 they run fast)"
    )
    quick_fill_bots_after: int = Field(
        60, ge=0, description="seconds after which a room opened by quick_match fills with bots (0: never)"
    )
    turn_based_games: int = Field(
        50, ge=0, description="unfinished turn-based games one player may hold seats in (0: any)"
    )
    # v1.2: signals of turn-based games, by e-mail and webhook (server.node.signals, docs/security.md)
    public_url: str = Field(
        "", description="the server's address as players reach it (https://games.example.org): signals link to "
        "ROOM as PUBLIC-URL/#/room/ROOM; empty: signals carry no link"
    )
    smtp_host: str = Field("", description="SMTP server that sends players' turn e-mails; empty: no e-mail")
    smtp_port: int = Field(587, ge=1, le=65535, description="port of the SMTP server")
    smtp_tls: Literal["starttls", "tls", "none"] = Field(
        "starttls", description="starttls (upgrade the connection), tls (TLS from the start) or none (a relay on "
        "this host only)"
    )
    smtp_user: str = Field("", description="SMTP user name (empty: no authentication)")
    smtp_password: SecretStr = Field(
        SecretStr(""), description="SMTP password (set it in the environment, MARCOPOLO_SMTP_PASSWORD; never logged)"
    )
    smtp_from: str = Field("", description="the From address of turn e-mails (needed with smtp-host)")
    webhooks: bool = Field(True, description="players may have their turns POSTed to a webhook of theirs")
    webhook_allow_http: bool = Field(
        False, description="accept http:// webhooks (default: https only; the signature is then readable on the way)"
    )
    webhook_allow_private: bool = Field(
        False, description="TESTS ONLY: accept webhooks on private, loopback, link-local and reserved addresses "
        "(by default refused, so players cannot make the server reach its own network)"
    )
    vapid_private_key: Path | None = Field(
        None, description="web push (v1.2): a file holding the server's VAPID private key (an EC P-256 key in PEM, as "
        "`vapid --gen` or `openssl ecparam -name prime256v1 -genkey -noout` writes it); unset: no web push"
    )
    vapid_subject: str = Field(
        "", description="web push: the contact push services see in every VAPID token, mailto:ops@example.org or an "
        "https:// page (needed with vapid-private-key)"
    )
    signals_pending: int = Field(
        10_000, ge=1, description="turn signals a node keeps waiting for their players' delays at once (more: dropped)"
    )
    chat_lines: int = Field(5, ge=0, description="chat lines one connection may send per chat-window (0: any)")
    chat_window: float = Field(10.0, gt=0, description="seconds of the chat rate limit's window")
    # moderation (server.node.moderation, docs/security.md)
    chat_lines_per_addr: int = Field(
        15, ge=0, description="chat lines one client address may send per chat-window on all nodes together (0: any)"
    )
    chat_deny: Annotated[tuple[str, ...], NoDecode] = Field(
        (), description="words a chat line may not hold (compared folded like names), comma-separated"
    )
    chat_deny_file: Path | None = Field(None, description="a file of denied words, one per line (# comments)")
    reports_per_hour: int = Field(20, ge=1, description="reports one player may file per hour")
    admin_token: str = Field(
        "", description="bearer token of the /admin/ HTTP API (set it in the environment; empty: the API is off)"
    )
    close_waiting_after: int = Field(3600, ge=0, description="seconds after which a waiting room closes (0: never)")
    close_empty_after: int = Field(
        600, ge=0, description="seconds after which a waiting room nobody sits in closes (0: never)"
    )
    lobby_away_after: int = Field(
        600, ge=0, description="seconds after which a live game whose players are all away leaves the lobby (0: never)"
    )
    close_away_after: int = Field(
        24 * 3600, ge=0, description="seconds all players of a game may be away before it closes (0: never)"
    )
    #: folder of the browser client, served at /
    workers: str = Field(
        "1",
        pattern=r"^(auto|[1-9][0-9]{0,2})$",
        description="processes serving one port (SO_REUSEPORT), sharing rooms through the Redis store as nodes "
        "do; auto = one per core. More than 1 needs a redis://, redis+sentinel:// or redis+cluster:// store and a "
        "fixed --port",
    )
    reuse_port: bool = Field(False, description="listen with SO_REUSEPORT (set for each worker of --workers)")
    web_root: str | None = Field(None, description="folder of the browser client (default clients/web/dist)")
    log_level: str = Field("INFO", description="DEBUG, INFO, WARNING, ERROR or CRITICAL")
    log_format: Literal["text", "json"] = Field(
        "text", description="text lines, or json: one JSON object per line for log collectors"
    )

    @model_validator(mode="before")
    @classmethod
    def _frame_limit_follows_max_frame(cls, data: Any) -> Any:
        """A `max_frame` set without `hard_frame_limit` moves the hard limit with it."""
        if isinstance(data, dict) and "max_frame" in data and data.get("hard_frame_limit") is None:
            data = dict(data)
            try:
                mf = int(data["max_frame"])
            except (TypeError, ValueError):
                return data  # the field validator reports it
            data["hard_frame_limit"] = max(4 * mf, mf + 1024)
        return data

    @model_validator(mode="after")
    def _hard_limit_above_max_frame(self) -> Settings:
        if self.hard_frame_limit <= self.max_frame:
            raise ValueError("hard_frame_limit must be above max_frame")
        return self

    @field_validator("trusted_proxies", "passkey_origins", "chat_deny", mode="before")
    @classmethod
    def _split_proxies(cls, value: Any) -> Any:
        if isinstance(value, str):
            return tuple(p.strip() for p in value.split(",") if p.strip())
        if isinstance(value, list):
            return tuple(value)
        return value

    @field_validator("log_level", mode="before")
    @classmethod
    def _known_level(cls, value: Any) -> Any:
        if isinstance(value, str):
            value = value.upper()
            if value not in LOG_LEVELS:
                raise ValueError(f"log level must be one of {', '.join(LOG_LEVELS)}")
        return value

    @property
    def worker_count(self) -> int:
        """How many processes `--workers` asks for."""
        return (os.cpu_count() or 1) if self.workers == "auto" else int(self.workers)

    @property
    def store_kind(self) -> str:
        """The store's scheme: `memory`, `redis`, ... (what /healthz reports)."""
        return self.store.split(":", 1)[0] if ":" in self.store else self.store


# ---- logs -----------------------------------------------------------------------------------------

#: attributes every LogRecord has; anything else on a record came from `extra=` and goes into the JSON line
_RECORD_FIELDS = frozenset(vars(logging.makeLogRecord({}))) | {"message", "asctime"}


class JsonFormatter(logging.Formatter):
    """One JSON object per line: ts (UTC, ISO 8601), level, logger, node, msg, `extra=` fields, exc."""

    def __init__(self, node: str) -> None:
        super().__init__()
        self.node = node

    def format(self, record: logging.LogRecord) -> str:
        ts = datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")
        out: dict[str, Any] = {
            "ts": ts,
            "level": record.levelname,
            "logger": record.name,
            "node": self.node,
            "msg": record.getMessage(),
        }
        for key, value in vars(record).items():
            if key not in _RECORD_FIELDS and key not in out:
                out[key] = value
        if record.exc_info:
            out["exc"] = self.formatException(record.exc_info)
        if record.stack_info:
            out["stack"] = self.formatStack(record.stack_info)
        return json.dumps(out, default=str, ensure_ascii=False)


TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


def setup_logging(settings: Settings, stream: Any = None) -> logging.Handler:
    """Send the root logger's records to stderr (or `stream`) as text or JSON lines; returns the handler."""
    handler = logging.StreamHandler(stream if stream is not None else sys.stderr)
    if settings.log_format == "json":
        handler.setFormatter(JsonFormatter(settings.node_id))
    else:
        handler.setFormatter(logging.Formatter(TEXT_FORMAT))
    logging.basicConfig(level=settings.log_level, handlers=[handler], force=True)
    # one line per HTTP request and socket is noise below DEBUG
    logging.getLogger("websockets").setLevel(logging.WARNING if settings.log_level != "DEBUG" else logging.DEBUG)
    return handler
