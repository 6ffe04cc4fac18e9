"""`python -m loadtests.run_locust` (`make loadtest`): locust headless against a server of its own, CSVs kept.

Starts `python -m server` on a free port (memory store unless `--store`, no per-address limits, a generous
rate limit: every user connects from loopback), runs

    locust -f loadtests/locustfile.py --headless -u USERS -r RATE -t TIME --host ws://127.0.0.1:PORT/ws \\
        --csv loadtests/results/locust-<UTC time>/locust --game GAME --think THINK ...

stops the server and prints where the CSVs are. `--host ws://...` targets a running server instead. Locust's
exit code is the command's (1 when any request failed). Extra arguments after `--` go to locust as they are.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import sys
from pathlib import Path

from loadtests.bench import ROOT, ServerProcess, clean_redis, raise_nofile

RESULTS = ROOT / "loadtests" / "results"


async def amain(a: argparse.Namespace, extra: list[str]) -> int:
    raise_nofile()
    out = Path(a.csv) if a.csv else RESULTS / f"locust-{dt.datetime.now(dt.UTC).strftime('%Y%m%dT%H%M%S')}"
    out.mkdir(parents=True, exist_ok=True)
    server = None
    host = a.host
    if host is None:
        server = ServerProcess("real", a.store, a.workers)
        await server.start()
        host = server.url
    locust = Path(sys.executable).with_name("locust")
    cmd = [str(locust) if locust.exists() else "locust", "-f", str(ROOT / "loadtests" / "locustfile.py")]
    cmd += ["--headless", "-u", str(a.users), "-r", str(a.rate), "-t", a.time, "--host", host]
    cmd += ["--csv", str(out / "locust"), "--only-summary"]
    cmd += ["--game", a.game, "--think", str(a.think), "--seats", str(a.seats)]
    cmd += ["--request-timeout", str(a.request_timeout), "--storm-every", str(a.storm_every), *extra]
    print("$ " + " ".join(cmd), flush=True)
    try:
        proc = await asyncio.create_subprocess_exec(*cmd, cwd=ROOT)
        code = await proc.wait()
    finally:
        if server is not None:
            await server.stop()
            if a.store.startswith("redis"):
                await clean_redis(a.store, server.prefix)
            count, sample = server.log_problems()
            if count:
                print(f"server log: {count} warning/error lines in {server.log.name}, e.g. {sample[:3]}")
            else:
                Path(server.log.name).unlink(missing_ok=True)
    print(f"CSVs in {out}/ (locust_stats.csv, locust_failures.csv, locust_stats_history.csv)")
    return code


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    extra: list[str] = []
    if "--" in argv:
        i = argv.index("--")
        argv, extra = argv[:i], argv[i + 1 :]
    ap = argparse.ArgumentParser(prog="python -m loadtests.run_locust", description=__doc__.split("\n\n")[0])
    ap.add_argument("--users", type=int, default=200, help="locust users (default 200)")
    ap.add_argument("--rate", type=float, default=20, help="users started per second (default 20)")
    ap.add_argument("--time", default="5m", help="run time, locust syntax (default 5m)")
    ap.add_argument("--game", default="mix", help="game id, mix (default) or a weighted mix g:w,g:w")
    ap.add_argument("--seats", type=int, default=3, help="seats per room (default 3)")
    ap.add_argument("--think", type=float, default=0.5, help="seconds a player thinks after its prompt (default 0.5)")
    ap.add_argument("--request-timeout", type=float, default=10.0, help="seconds to an answer (default 10)")
    ap.add_argument("--storm-every", type=float, default=20.0, help="seconds between reconnect storms (default 20)")
    ap.add_argument("--store", default="memory", help="the server's store (default memory)")
    ap.add_argument("--workers", help="passed to the server as --workers (left out when not given)")
    ap.add_argument("--host", help="a running server's ws:// URL instead of one of our own")
    ap.add_argument("--csv", help="folder for the CSVs (default loadtests/results/locust-<time>)")
    return asyncio.run(amain(ap.parse_args(argv), extra))


if __name__ == "__main__":
    sys.exit(main())
