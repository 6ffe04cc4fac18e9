"""Server settings: one frozen dataclass filled from the command line (see `server.__main__`)."""

from __future__ import annotations

from dataclasses import dataclass

from protocol import MAX_DEPTH, MAX_FRAME


@dataclass(frozen=True)
class Settings:
    host: str = "127.0.0.1"
    port: int = 8765
    store: str = "memory"
    prefix: str = "mp:"
    node_id: str = "node-1"
    #: frames over this size are answered with `too_large`; over `hard_frame_limit` the socket closes (1009)
    max_frame: int = MAX_FRAME
    hard_frame_limit: int = 4 * MAX_FRAME
    max_depth: int = MAX_DEPTH
    #: token bucket per connection: `rate` frames per second, bursts up to `burst`
    rate: float = 40.0
    burst: int = 80
    #: a connection that keeps flooding after this many refused frames is closed (1008)
    flood_close_after: int = 200
    #: frames queued for a slow reader before its connection is closed (1013) and its queue dropped
    out_queue: int = 2000
    #: bytes queued for a slow reader before the same happens
    out_bytes: int = 4 * 1024 * 1024
    #: seconds a closing connection gets to drain and finish the close handshake before it is aborted
    close_timeout: float = 5.0
    #: a connection that has not said `hello` this many seconds after opening is closed (1008)
    hello_timeout: float = 10.0
    #: keepalive: a ping every `ping_interval` seconds; no pong within `ping_timeout` closes (1011)
    ping_interval: float = 20.0
    ping_timeout: float = 20.0
    #: open WebSocket connections per client address (0: no limit); more are refused with HTTP 429
    max_conns_per_addr: int = 64
    #: proxies (IP addresses or CIDR networks) whose X-Forwarded-For header names the client address;
    #: from any other peer the header is ignored
    trusted_proxies: tuple[str, ...] = ()
    #: rooms one player, and one client address, may create per minute (0: no limit)
    creates_per_minute: int = 20
    #: rooms created by one player that may be waiting for players at once (0: no limit)
    waiting_rooms_per_player: int = 5
    #: longest display name in characters (the wire contract's bound is 32)
    name_max: int = 32
    #: rooms in a lobby push and the most a `list_rooms` page may hold
    lobby_max: int = 100
    #: who may say `hello`: "none" (anyone), "secret" (`auth` equals `hello_secret`) or "hmac"
    #: (`auth` is "EXPIRY.HEXSIG", HMAC-SHA256 of "EXPIRY.NAME" under `hello_secret`, EXPIRY in Unix seconds)
    hello_auth: str = "none"
    hello_secret: str = ""
    #: honour a client-chosen `seed` room option (tests only: a known seed reveals every deck)
    allow_client_seed: bool = False
    finished_ttl: int = 7 * 24 * 3600
    session_ttl: int = 30 * 24 * 3600
    #: a snapshot is written every this many versions (and at the end); recovery replays the rest
    snapshot_every: int = 32
    #: a room's lease (several nodes on one Redis): a node that stops renewing loses its rooms after this
    lease_ms: int = 5000
    #: seconds a server-seated bot waits before its move (so people can follow the game)
    bot_delay: float = 0.5
    #: folder of the browser client, served at /
    web_root: str | None = None
