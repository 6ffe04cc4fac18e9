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
    #: frames queued for a slow reader before its connection is closed (1013)
    out_queue: int = 2000
    #: honour a client-chosen `seed` room option (tests only: a known seed reveals every deck)
    allow_client_seed: bool = False
    finished_ttl: int = 7 * 24 * 3600
    session_ttl: int = 30 * 24 * 3600
    #: a snapshot is written every this many versions (and at the end); recovery replays the rest
    snapshot_every: int = 32
    #: a room's lease (several nodes on one Redis): a node that stops renewing loses its rooms after this;
    #: leases are renewed every third of it, in one round trip for all rooms
    lease_ms: int = 2000
    #: how often a node looks for rooms its connections watch whose node went away (seconds)
    check_every: float = 0.25
    #: after a takeover, seats stay shown as connected this long (seconds) so their players can re-attach
    presence_grace: float = 5.0
    #: keep every log entry when a snapshot is written (replays, audits, the fault tests' checks)
    keep_log: bool = True
    #: seconds a server-seated bot waits before its move (so people can follow the game)
    bot_delay: float = 0.5
    #: v1.1: every turn clock and lobby timer length is multiplied by this (tests only: below 1 they run fast)
    clock_scale: float = 1.0
    #: v1.1: a room opened by `quick_match` fills its empty seats with bots after this many seconds (0: never)
    quick_fill_bots_after: int = 60
    #: v1.1: a waiting room is closed this many seconds after its creation (0: never)
    close_waiting_after: int = 3600
    #: v1.1: a game whose human seats have all been away this many seconds is closed (0: never)
    close_away_after: int = 24 * 3600
    #: folder of the browser client, served at /
    web_root: str | None = None
