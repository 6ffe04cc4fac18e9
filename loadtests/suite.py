"""`python -m loadtests.suite` (`make bench`): the standard set of bench runs, written as a table into
docs/benchmarks.md between the markers `<!-- bench:begin -->` and `<!-- bench:end -->` (the rest of the file
is left as it is; without the markers the section is appended).

Each run is one `python -m loadtests.bench ...` subprocess (the baseline, then the real server, under the
same load), its figures kept as JSON in `loadtests/results/bench-<UTC time>/`. The set:

1. Expedition, 4 seats, 250 rooms, closed loop, memory store; the same on a fresh SQLite file (the server's
   default store), and on Redis (when Redis answers).
2. Every game, 4 seats, closed loop, a smaller room count (`--game-rooms`, default 50), memory store.
3. Open loop: 500 rooms x 4 seats, each seat thinking 1 s after its prompt.
4. Idle: 10,000 connections (fewer when the open-files limit does not allow it; the soft limit is raised to
   the hard one first).
5. When `python -m server --help` lists `--workers` and Redis answers: the closed Redis run and the open run
   on Redis with `--workers 2` (the workers share rooms through Redis), and the open run on Redis with one
   process to compare with.

`--quick` shrinks every count and duration (a smoke run); `--no-write` prints the section without writing it.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from loadtests.bench import DEFAULT_REDIS, GAMES, ROOT, raise_nofile

BEGIN = "<!-- bench:begin -->"
END = "<!-- bench:end -->"
DOC = ROOT / "docs" / "benchmarks.md"
RESULTS = ROOT / "loadtests" / "results"


def redis_answers(url: str) -> bool:
    import redis

    try:
        r = redis.Redis.from_url(url, socket_timeout=1.0, socket_connect_timeout=1.0)
        ok = bool(r.ping())
        r.close()
        return ok
    except Exception:  # noqa: BLE001
        return False


def server_has_workers() -> bool:
    out = subprocess.run(
        [sys.executable, "-m", "server", "--help"], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    return "--workers" in out.stdout


def plan(a: argparse.Namespace) -> tuple[list[tuple[str, list[str]]], list[str]]:
    """The runs (name, bench arguments) and notes on what was left out or shrunk."""
    notes: list[str] = []
    secs = str(a.seconds)
    rooms, game_rooms, open_rooms, idle = a.rooms, a.game_rooms, a.open_rooms, a.connections
    if a.quick:
        secs, rooms, game_rooms, open_rooms, idle = "3", 10, 4, 20, 300
    soft, hard = raise_nofile()
    if idle + 1000 > soft:
        notes.append(f"idle connections cut from {idle} to {max(100, soft - 1000)}: the open-files limit is {soft}")
        idle = max(100, soft - 1000)
    clients = ["--clients", str(a.clients)]
    runs: list[tuple[str, list[str]]] = []
    base = ["--mode", "closed", "--game", "expedition", "--seats", "4", "--rooms", str(rooms), "--seconds", secs]
    runs.append(("expedition-closed-memory", [*base, "--store", "memory", *clients]))
    # the server's default store right after, under the same load (a fresh file, removed after the run)
    sqlite_file = Path(tempfile.gettempdir()) / f"marcopolo-bench-{os.getpid()}.db"
    runs.append(("expedition-closed-sqlite", [*base, "--store", f"sqlite:///{sqlite_file}", *clients]))
    redis = redis_answers(a.redis)
    if redis:
        runs.append(("expedition-closed-redis", [*base, "--store", a.redis, *clients]))
    else:
        notes.append(f"no Redis answered at {a.redis}: the Redis runs are missing")
    for game in GAMES:
        game_args = ["--mode", "closed", "--game", game, "--seats", "4", "--rooms", str(game_rooms)]
        runs.append((f"{game}-closed-memory-{game_rooms}", [*game_args, "--seconds", secs, *clients]))
    open_args = ["--mode", "open", "--think", "1.0", "--game", "expedition", "--seats", "4", "--rooms", str(open_rooms)]
    runs.append(("expedition-open-memory", [*open_args, "--seconds", secs, *clients]))
    runs.append(("idle-memory", ["--mode", "idle", "--connections", str(idle), "--seconds", "5", *clients]))
    if not server_has_workers():
        notes.append("`python -m server --help` lists no --workers: the --workers 2 runs are missing")
    elif redis:  # the workers share rooms through Redis: compare with one process on Redis
        workers = ["--store", a.redis, "--workers", "2", *clients]
        runs.append(("expedition-closed-redis-workers2", [*base, *workers]))
        runs.append(("expedition-open-redis", [*open_args, "--seconds", secs, "--store", a.redis, *clients]))
        runs.append(("expedition-open-redis-workers2", [*open_args, "--seconds", secs, *workers]))
    return runs, notes


def _compare(base: dict[str, Any] | None, other: dict[str, Any] | None, what: str) -> str | None:
    """A note comparing the real server's moves/s of two runs (None when either is missing)."""
    if not base or not other:
        return None
    one = next(r for r in base["reports"] if r["label"] == "real")["moves_per_s"]
    two = next(r for r in other["reports"] if r["label"] == "real")["moves_per_s"]
    if not one:
        return None
    return f"closed loop, real server, {what}: {two:,.1f} moves/s against {one:,.1f}: {two / one * 100:.0f}%"


def _f(x: Any, digits: int = 1) -> str:
    if x is None:
        return "-"
    try:
        v = float(x)
    except (TypeError, ValueError):
        return str(x)
    if v != v:  # NaN
        return "-"
    return f"{v:,.{digits}f}"


def _tri(ms: dict[str, Any]) -> str:
    return " / ".join(_f(ms[q], 2) for q in ("50", "99", "99.9"))


def _errors(e: dict[str, int]) -> str:
    return ", ".join(f"{k} {v}" for k, v in e.items()) or "0"


def table(results: list[tuple[str, str, dict[str, Any]]]) -> list[str]:
    """Markdown rows for the play runs and the idle runs."""
    play = [r for r in results if r[2]["reports"] and r[2]["reports"][0]["mode"] != "idle"]
    idle = [r for r in results if r[2]["reports"] and r[2]["reports"][0]["mode"] == "idle"]
    out: list[str] = []
    if play:
        out += [
            "| run | server | moves/s | server CPU µs/move | server CPU | move->ok p50 / p99 / p99.9 ms |"
            " move->last patch p50 / p99 / p99.9 ms | patch / snapshot B (median) | errors | server RSS MiB |"
            " load CPU |",
            "|---|---|---|---|---|---|---|---|---|---|---|",
        ]
        for name, _, data in play:
            for r in data["reports"]:
                ratio = r["patch_to_snapshot"]
                cells = [
                    name,
                    r["label"],
                    _f(r["moves_per_s"]),
                    _f(r.get("server_cpu_us_per_move"), 0),
                    f"{_f(r.get('server_cpu', 0) * 100, 0)}%",
                    _tri(r["ack_ms"]),
                    _tri(r["fanout_ms"]),
                    f"{_f(r['patch_median_bytes'], 0)} / {_f(r['snapshot_median_bytes'], 0)} ({_f(ratio * 100)}%)",
                    _errors(r["errors"]),
                    _f(r.get("rss_end_mib")),
                    f"{_f(r['client_cpu'] * 100, 0)}%",
                ]
                out.append("| " + " | ".join(cells) + " |")
            rat = data.get("ratios")
            if rat:
                cells = [
                    name,
                    "**real / baseline**",
                    f"{_f(rat['moves_per_s'], 2)}x",
                    f"**{_f(rat['cpu_per_move'], 2)}x**",
                    "",
                    " / ".join(f"{_f(rat[f'ack_p{q}'], 2)}x" for q in ("50", "99", "99.9")),
                    " / ".join(f"{_f(rat[f'fanout_p{q}'], 2)}x" for q in ("50", "99", "99.9")),
                    "",
                    "",
                    f"{_f(rat['rss_end'], 2)}x",
                    "",
                ]
                out.append("| " + " | ".join(cells) + " |")
        out.append("")
    if idle:
        out += [
            "| run | server | connections | RSS before / with them MiB | KiB per idle connection |"
            " server CPU µs per connection opened (connect + hello) | errors |",
            "|---|---|---|---|---|---|---|",
        ]
        for name, _, data in idle:
            for r in data["reports"]:
                out.append(
                    f"| {name} | {r['label']} | {r['connections']:,} | {_f(r.get('rss_base_mib'))} /"
                    f" {_f(r.get('rss_end_mib'))} | {_f(r.get('rss_per_connection_kib'))} |"
                    f" {_f(r.get('setup_cpu_us_per_connection'), 0)} | {_errors(r['errors'])} |"
                )
            rat = data.get("ratios")
            if rat:
                setup = _f(rat.get("setup_cpu_per_connection"), 2)
                out.append(f"| {name} | **real / baseline** | | | {_f(rat['rss_per_connection'], 2)}x | {setup}x | |")
        out.append("")
    return out


def _git(*args: str) -> str:
    try:
        return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "?"


def section(results: list[tuple[str, str, dict[str, Any]]], notes: list[str], started: str, load: str) -> str:
    commit = _git("rev-parse", "--short", "HEAD")
    dirty = " (with uncommitted changes)" if _git("status", "--porcelain", "--untracked-files=no") else ""
    lines = [
        BEGIN,
        "## Standard set: figures (generated by `make bench`)",
        "",
        f"Written by `python -m loadtests.suite` on {started} UTC, commit `{commit}`{dirty};"
        f" {os.cpu_count()} cores, Python {platform.python_version()}, load average {load} at the start."
        " Each run is the baseline (`loadtests/baseline.py`) and then the real server under the same load, in one"
        " command; ratios are real / baseline. CPU is that of every process of each server, from /proc.",
        "",
        "Commands:",
        "",
        "```sh",
        *[cmd for _, cmd, _ in results],
        "```",
        "",
        *table(results),
    ]
    if notes:
        lines += [f"- {n}" for n in notes] + [""]
    lines.append(END)
    return "\n".join(lines)


def write_doc(text: str, doc: Path = DOC) -> None:
    old = doc.read_text() if doc.exists() else "# Benchmarks\n"
    if BEGIN in old and END in old:
        head, rest = old.split(BEGIN, 1)
        _, tail = rest.split(END, 1)
        doc.write_text(head + text + tail)
    else:
        doc.write_text(old.rstrip("\n") + "\n\n" + text + "\n")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m loadtests.suite", description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=20.0, help="window of every play run (default 20)")
    ap.add_argument("--rooms", type=int, default=250, help="rooms of the Expedition runs (default 250)")
    ap.add_argument("--game-rooms", type=int, default=50, help="rooms of the per-game runs (default 50)")
    ap.add_argument("--open-rooms", type=int, default=500, help="rooms of the open-loop run (default 500)")
    ap.add_argument("--connections", type=int, default=10_000, help="idle connections (default 10000)")
    ap.add_argument("--clients", type=int, default=1, help="load processes per run (default 1)")
    ap.add_argument("--redis", default=DEFAULT_REDIS, help=f"Redis for the Redis run (default {DEFAULT_REDIS})")
    ap.add_argument("--quick", action="store_true", help="tiny counts and 3 s windows: a smoke run")
    ap.add_argument("--only", help="comma-separated run names (default: all)")
    ap.add_argument("--doc", default=str(DOC), help="the markdown file to write (default docs/benchmarks.md)")
    ap.add_argument(
        "--results", default=str(RESULTS), help="folder for the JSON of each run (default loadtests/results)"
    )
    ap.add_argument("--no-write", action="store_true", help="print the section, do not write it")
    a = ap.parse_args(argv)
    started = dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M")
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    runs, notes = plan(a)
    if a.only:
        wanted = set(a.only.split(","))
        runs = [r for r in runs if r[0] in wanted]
    out_dir = Path(a.results) / f"bench-{dt.datetime.now(dt.UTC).strftime('%Y%m%dT%H%M%S')}"
    out_dir.mkdir(parents=True, exist_ok=True)
    results: list[tuple[str, str, dict[str, Any]]] = []
    failed = 0
    for name, args in runs:
        path = out_dir / f"{name}.json"
        cmd = "python -m loadtests.bench " + " ".join(args)
        print(f"\n### {name}: {cmd}", flush=True)
        t0 = time.monotonic()
        proc = subprocess.run([sys.executable, "-m", "loadtests.bench", *args, "--json", str(path)], cwd=ROOT)
        if proc.returncode != 0 or not path.exists():
            failed += 1
            notes.append(f"{name} failed (exit {proc.returncode})")
            continue
        results.append((name, cmd, json.loads(path.read_text())))
        print(f"({time.monotonic() - t0:.0f} s)", flush=True)
        for arg in args:  # a SQLite run's file (and its -wal, -shm, .lock) goes
            if arg.startswith("sqlite:///"):
                for tail in ("", "-wal", "-shm", ".lock"):
                    Path(arg[len("sqlite://") :] + tail).unlink(missing_ok=True)
    by_name = {name: data for name, _, data in results}
    for base, other, what in (
        ("expedition-closed-memory", "expedition-closed-sqlite", "the SQLite store against the memory store"),
        ("expedition-closed-redis", "expedition-closed-redis-workers2", "on Redis, --workers 2 against one process"),
    ):
        note = _compare(by_name.get(base), by_name.get(other), what)
        if note:
            notes.append(note)
    text = section(results, notes, started, load)
    print("\n" + text)
    if not a.no_write:
        write_doc(text, Path(a.doc))
        print(f"\nwritten to {a.doc}; the figures as JSON in {out_dir}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
