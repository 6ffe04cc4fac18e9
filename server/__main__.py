"""`python -m server`: run one game-server node."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
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
    ap.add_argument("--lease-ms", type=int, default=2000, help="room lease on Redis (failover time), ms")
    ap.add_argument("--presence-grace", type=float, default=5.0, help="seconds seats stay connected after a takeover")
    ap.add_argument(
        "--keep-log", action="store_true", default=True, help="keep every log entry at snapshots (the default)"
    )
    ap.add_argument(
        "--trim-log", dest="keep_log", action="store_false",
        help="drop log entries at snapshots (no replays of finished games)",
    )
    ap.add_argument("--quick-fill-bots-after", type=int, default=60, help="quick-match rooms get bots after (s)")
    ap.add_argument("--close-waiting-after", type=int, default=3600, help="close waiting rooms after (s; 0 never)")
    ap.add_argument("--close-away-after", type=int, default=86400, help="close games all away for (s; 0 never)")
    ap.add_argument("--clock-scale", type=float, default=1.0, help="TESTS ONLY: multiply clocks and lobby timers")
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
        lease_ms=a.lease_ms,
        presence_grace=a.presence_grace,
        keep_log=a.keep_log,
        quick_fill_bots_after=a.quick_fill_bots_after,
        close_waiting_after=a.close_waiting_after,
        close_away_after=a.close_away_after,
        clock_scale=a.clock_scale,
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
