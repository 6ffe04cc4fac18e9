"""`python -m server`: run one game-server node.

Every setting of `server.config.Settings` is a flag (`--lease-ms`) and an environment variable
(`MARCOPOLO_LEASE_MS`); a flag given on the command line wins over the variable, which wins over the default.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import signal
import subprocess
import sys
import time
import types
import typing
from typing import Any

from pydantic import ValidationError

from server.config import ENV_PREFIX, Settings, setup_logging

log = logging.getLogger("marcopolo.main")


def _flag_type(annotation: Any) -> tuple[Any, list[Any] | None]:
    """The argparse `type` and `choices` for a field's annotation (`str | None` -> str)."""
    origin = typing.get_origin(annotation)
    if origin is typing.Literal:
        choices = list(typing.get_args(annotation))
        return type(choices[0]), choices
    if origin in (typing.Union, types.UnionType):
        inner = [a for a in typing.get_args(annotation) if a is not type(None)]
        return _flag_type(inner[0]) if len(inner) == 1 else (str, None)
    if annotation in (int, float, str, bool):
        return annotation, None
    return str, None


def build_parser() -> argparse.ArgumentParser:
    """One flag per settings field. Flags left out stay out of the namespace (so the environment applies)."""
    ap = argparse.ArgumentParser(
        prog="marcopolo-server",
        description="Marco Polo game server node. Each flag can also be set by the environment variable named "
        f"after it ({ENV_PREFIX}HOST for --host, ...); a flag given here wins.",
        argument_default=argparse.SUPPRESS,
    )
    for name, info in Settings.model_fields.items():
        flag = "--" + name.replace("_", "-")
        kind, choices = _flag_type(info.annotation)
        default = "HOST-PORT" if name == "node_id" else info.default
        help_text = f"{info.description or name} (env {ENV_PREFIX}{name.upper()}; default: {default})"
        if kind is bool:
            ap.add_argument(flag, dest=name, action=argparse.BooleanOptionalAction, help=help_text)
        else:
            ap.add_argument(flag, dest=name, type=kind, choices=choices, metavar=None, help=help_text)
    return ap


def parse(argv: list[str] | None = None) -> Settings:
    """Settings from flags (highest), `MARCOPOLO_*` variables, then defaults; exits with a message if invalid."""
    ap = build_parser()
    given = vars(ap.parse_args(argv))
    try:
        return Settings(**given)
    except ValidationError as err:
        ap.error("; ".join(_describe(e) for e in err.errors() if e["type"] != "default_factory_not_called"))


def _describe(error: Any) -> str:
    """`--port / MARCOPOLO_PORT: Input should be a valid integer, ...`"""
    loc = [str(p) for p in error["loc"]]
    if loc and loc[0] in Settings.model_fields:
        where = f"--{loc[0].replace('_', '-')} / {ENV_PREFIX}{loc[0].upper()}"
    else:
        where = "/".join(loc) or "settings"
    return f"{where}: {error['msg']}"


def _worker_argv(argv: list[str], node_id: str) -> list[str]:
    """The command line of one worker: the parent's flags, one process, SO_REUSEPORT, its own node id."""
    out: list[str] = []
    skip = False
    for arg in argv:
        if skip:
            skip = False
            continue
        name = arg.split("=", 1)[0]
        if name in ("--workers", "--node-id"):
            skip = "=" not in arg
            continue
        out.append(arg)
    return [sys.executable, "-m", "server", *out, "--workers", "1", "--reuse-port", "--node-id", node_id]


def run_workers(settings: Settings, argv: list[str]) -> int:
    """Supervise `--workers N` processes on one port: each is a node of one cluster (leases and relays
    through Redis), with node id `<node-id>-w<i>` so a worker restarted after a crash takes its rooms back.
    SIGTERM/SIGINT are passed on to every worker (each hands its rooms over, see server.net.app); a worker that
    dies is started again, at most once per second."""
    n = settings.worker_count
    if settings.store_kind not in ("redis", "redis+sentinel", "redis+cluster", "rediss"):
        log.error("--workers %d needs a redis:// store: the workers share rooms through it", n)
        return 2
    if settings.port == 0:
        log.error("--workers needs a fixed --port (every worker listens on it)")
        return 2
    ids = [f"{settings.node_id}-w{i + 1}" for i in range(n)]
    procs: dict[str, subprocess.Popen[bytes]] = {}
    started: dict[str, float] = {}
    stopping = False

    def stop(signum: int, _frame: Any) -> None:
        nonlocal stopping
        stopping = True
        for proc in procs.values():
            with contextlib.suppress(ProcessLookupError):
                proc.send_signal(signum)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    log.info("starting %d workers on %s:%d: %s", n, settings.host, settings.port, ", ".join(ids))
    while not stopping:
        for wid in ids:
            proc = procs.get(wid)
            if proc is not None and proc.poll() is None:
                continue
            if proc is not None:
                log.warning("worker %s exited with %s; starting it again", wid, proc.returncode)
            if time.monotonic() - started.get(wid, -10.0) < 1.0:
                continue
            procs[wid] = subprocess.Popen(_worker_argv(argv, wid))
            started[wid] = time.monotonic()
        time.sleep(0.2)
    for proc in procs.values():
        try:
            proc.wait(timeout=settings.close_timeout + 10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    return 0


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    settings = parse(args)
    setup_logging(settings)
    if settings.worker_count > 1:
        return run_workers(settings, args)
    log.info(
        "starting node %s on %s:%d (store %s)",
        settings.node_id,
        settings.host,
        settings.port,
        settings.store_kind,
        # never the secrets (and not the urls, which may hold a password)
        extra={"settings": settings.model_dump(exclude={"store", "records", "hello_secret", "admin_token",
                                                        "smtp_password"})},  # fmt: skip
    )
    from server.net.app import run
    from server.store import StoreLocked

    try:
        with contextlib.suppress(KeyboardInterrupt):
            asyncio.run(run(settings))
    except StoreLocked as err:
        log.error("not starting: %s", err)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
