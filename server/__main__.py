"""`python -m server`: run one game-server node."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import socket
import sys

from server.config import Settings


def parse(argv: list[str] | None = None) -> tuple[Settings, str]:
    ap = argparse.ArgumentParser(prog="marcopolo-server", description="Marco Polo game server node")
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, default=8765)
    ap.add_argument("--store", default="memory", help="memory (default) or redis://host:port/db")
    ap.add_argument("--prefix", default="mp:", help="key prefix in Redis")
    ap.add_argument(
        "--node-id",
        default=None,
        help="unique per node; default HOST-PORT, so a node restarted on the same port takes its rooms back at once",
    )
    ap.add_argument("--max-frame", type=int, default=64 * 1024, help="bytes per client frame")
    ap.add_argument("--rate", type=float, default=40.0, help="frames per second per connection")
    ap.add_argument("--burst", type=int, default=80)
    ap.add_argument("--finished-ttl", type=int, default=7 * 24 * 3600, help="seconds finished rooms stay readable")
    ap.add_argument("--bot-delay", type=float, default=0.5, help="seconds a server-seated bot waits before moving")
    ap.add_argument("--web-root", default=None, help="folder of the browser client (default clients/web/dist)")
    ap.add_argument(
        "--allow-client-seed",
        action="store_true",
        help="TESTS ONLY: honour a client-chosen `seed` room option (a known seed reveals every deck)",
    )
    d = Settings()
    lim = ap.add_argument_group("limits (docs/security.md)")
    lim.add_argument("--out-queue", type=int, default=d.out_queue, help="frames queued for a slow reader before 1013")
    lim.add_argument("--out-bytes", type=int, default=d.out_bytes, help="bytes queued for a slow reader before 1013")
    lim.add_argument("--close-timeout", type=float, default=d.close_timeout, help="seconds a close may take")
    lim.add_argument("--hello-timeout", type=float, default=d.hello_timeout, help="seconds to say hello (0: none)")
    lim.add_argument("--ping-interval", type=float, default=d.ping_interval, help="seconds between pings (0: off)")
    lim.add_argument("--ping-timeout", type=float, default=d.ping_timeout, help="seconds to answer a ping")
    lim.add_argument(
        "--max-conns-per-addr", type=int, default=d.max_conns_per_addr, help="connections per client address (0: any)"
    )
    lim.add_argument(
        "--trusted-proxy",
        action="append",
        default=[],
        metavar="ADDR_OR_CIDR",
        help="a proxy whose X-Forwarded-For names the client (repeatable; default: none)",
    )
    lim.add_argument(
        "--creates-per-minute", type=int, default=d.creates_per_minute, help="rooms per player and per address (0: any)"
    )
    lim.add_argument(
        "--waiting-rooms-per-player", type=int, default=d.waiting_rooms_per_player, help="0: no limit"
    )
    lim.add_argument("--name-max", type=int, default=d.name_max, help="longest display name (at most 32)")
    lim.add_argument("--lobby-max", type=int, default=d.lobby_max, help="rooms in one lobby push or page")
    lim.add_argument(
        "--hello-auth",
        choices=("none", "secret", "hmac"),
        default=d.hello_auth,
        help="closed server: hello needs `auth` (the secret is read from $MARCOPOLO_HELLO_SECRET)",
    )
    ap.add_argument("--log-level", default="INFO")
    a = ap.parse_args(argv)
    settings = Settings(
        host=a.host,
        port=a.port,
        store=a.store,
        prefix=a.prefix,
        node_id=a.node_id or f"{socket.gethostname()}-{a.port}".replace(":", "-"),
        max_frame=a.max_frame,
        hard_frame_limit=max(4 * a.max_frame, a.max_frame + 1024),
        rate=a.rate,
        burst=a.burst,
        finished_ttl=a.finished_ttl,
        allow_client_seed=a.allow_client_seed,
        bot_delay=a.bot_delay,
        web_root=a.web_root,
        out_queue=a.out_queue,
        out_bytes=a.out_bytes,
        close_timeout=a.close_timeout,
        hello_timeout=a.hello_timeout,
        ping_interval=a.ping_interval,
        ping_timeout=a.ping_timeout,
        max_conns_per_addr=a.max_conns_per_addr,
        trusted_proxies=tuple(a.trusted_proxy),
        creates_per_minute=a.creates_per_minute,
        waiting_rooms_per_player=a.waiting_rooms_per_player,
        name_max=min(a.name_max, 32),
        lobby_max=a.lobby_max,
        hello_auth=a.hello_auth,
        hello_secret=os.environ.get("MARCOPOLO_HELLO_SECRET", ""),
    )
    return settings, a.log_level.upper()


def main(argv: list[str] | None = None) -> int:
    settings, level = parse(argv)
    logging.basicConfig(level=level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    if level != "DEBUG":  # one line per HTTP request and socket is noise below DEBUG
        logging.getLogger("websockets").setLevel(logging.WARNING)
    from server.app import run

    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(run(settings))
    return 0


if __name__ == "__main__":
    sys.exit(main())
