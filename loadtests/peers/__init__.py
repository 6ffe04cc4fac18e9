"""`python -m loadtests.peers` (`make peers`): this project next to Colyseus and boardgame.io, in one run.

The peers play one small hidden-hand card game (`game.mjs`: 4 seats, 3-card hands, play a card and draw one,
120 moves a game), each with its own state sync and per-player filtering: Colyseus 0.18 (`colyseus_server.mjs`,
@colyseus/schema binary patches, the hands behind a `StateView`) and boardgame.io 0.50 (`bgio_server.mjs`,
socket.io, `playerView`; with and without `deltaState`, its RFC 6902 patches). Their load drivers
(`driver.mjs`) use each framework's own client library (`@colyseus/sdk`, `boardgame.io/client`) in one Node
process, closed loop like `loadtests/bench.py`. This project runs its own bench (`loadtests/bench.py`, the real
server only, `--no-sync`) on every game with the same shape, with permessage-deflate and without it, and the
baseline (`loadtests/baseline.py`, the wire contract with a trivial game) once.

Every server is a subprocess on a free loopback port, started and stopped by its PID; Node packages come from
`loadtests/peers/package-lock.json` (`npm ci` when `node_modules` is missing or older than the lock). Each peer
also gets an audit: one room, a few moves, and what every seat received of the other seats' secrets.

Figures per row: moves/s (moves whose update reached every seat within the window; this project: acknowledged
moves), server CPU per move (utime + stime of the server process over the window, from /proc), bytes per move
(what every seat's TCP socket read over the window, over the moves: WebSocket frames with their headers and
whatever else the stack sends, pings, socket.io framing, the matchmaking's HTTP), latency from sending a move
to the mover's own update (this project: its `ok`, which follows the mover's patch) and to the last seat's.

The table goes into docs/benchmarks.md between its markers (BEGIN and END, each on a line of its own); the JSON of
the run into `loadtests/results/peers-<UTC time>.json`.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import json
import math
import os
import platform
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from loadtests.bench import GAMES, ROOT, tree_cpu_s, tree_rss_kib

HERE = Path(__file__).resolve().parent
DOC = ROOT / "docs" / "benchmarks.md"
RESULTS = ROOT / "loadtests" / "results"
BEGIN = "<!-- peers:begin -->"
END = "<!-- peers:end -->"
#: the packages whose installed versions the table records
PACKAGES = (
    "@colyseus/core",
    "@colyseus/schema",
    "@colyseus/ws-transport",
    "@colyseus/sdk",
    "boardgame.io",
    "socket.io",
    "socket.io-client",
    "ws",
)


@dataclass(frozen=True)
class Peer:
    name: str
    title: str
    server: tuple[str, ...]  # the server script and its arguments
    driver: str  # the driver's --kind


PEERS = {
    "colyseus": Peer(
        "colyseus",
        "Colyseus (@colyseus/schema binary patches, StateView), patches on its 50 ms clock",
        ("colyseus_server.mjs",),
        "colyseus",
    ),
    "colyseus-now": Peer(
        "colyseus-now",
        "Colyseus, each move's patch sent at once (broadcastPatch)",
        ("colyseus_server.mjs", "--patch-rate", "now"),
        "colyseus",
    ),
    "bgio": Peer("bgio", "boardgame.io (socket.io, playerView)", ("bgio_server.mjs",), "bgio"),
    "bgio-delta": Peer(
        "bgio-delta", "boardgame.io with deltaState (RFC 6902 patches)", ("bgio_server.mjs", "--delta"), "bgio"
    ),
}


# ---- Node and its packages -------------------------------------------------------------------


def node_missing() -> str | None:
    """Why the peers cannot run here (no node or npm, or a node older than 20), or None."""
    node, npm = shutil.which("node"), shutil.which("npm")
    if not node or not npm:
        return "node and npm (Node 20+) are needed for the peer servers"
    try:
        out = subprocess.run([node, "--version"], capture_output=True, text=True, timeout=30).stdout.strip()
        major = int(out.lstrip("v").split(".")[0])
    except (OSError, ValueError, subprocess.SubprocessError):
        return "node --version did not answer"
    if major < 20:
        return f"Node {out} is too old (20+)"
    return None


def ensure_packages(quiet: bool = False) -> None:
    """`npm ci` in loadtests/peers when node_modules is missing or older than the lock file."""
    lock, stamp = HERE / "package-lock.json", HERE / "node_modules" / ".package-lock.json"
    if stamp.exists() and stamp.stat().st_mtime >= lock.stat().st_mtime:
        return
    if not quiet:
        print("installing the peers' npm packages (npm ci)", flush=True)
    subprocess.run(
        ["npm", "ci", "--no-audit", "--no-fund", "--ignore-scripts", "--loglevel", "error"],
        cwd=HERE,
        check=True,
        stdout=subprocess.DEVNULL if quiet else None,
    )
    stamp.touch()


def versions() -> dict[str, str]:
    out = {"node": subprocess.run(["node", "--version"], capture_output=True, text=True).stdout.strip()}
    for name in PACKAGES:
        with contextlib.suppress(OSError, ValueError, KeyError):
            out[name] = json.loads((HERE / "node_modules" / name / "package.json").read_text())["version"]
    return out


# ---- a peer server and its driver ------------------------------------------------------------


class NodeServer:
    """A peer server: `node SCRIPT --port 0 ...`, ready once it prints `listening PORT`; stopped by its PID."""

    def __init__(self, args: tuple[str, ...]) -> None:
        self.args = args
        self.proc: subprocess.Popen[str] | None = None
        self.port = 0
        self.log: IO[str] = tempfile.NamedTemporaryFile(  # noqa: SIM115 (kept open while the server runs)
            "w+", prefix="mppeer-", suffix=".log", delete=False
        )

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 60.0) -> None:
        env = {**os.environ, "NODE_ENV": "production"}  # boardgame.io logs every move otherwise
        script, *rest = self.args
        self.proc = subprocess.Popen(
            ["node", str(HERE / script), "--port", "0", *rest],
            cwd=HERE,
            env=env,
            stdout=subprocess.PIPE,
            stderr=self.log,
            text=True,
        )
        assert self.proc.stdout is not None
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            line = self.proc.stdout.readline()
            if not line:
                break
            if line.startswith("listening "):
                self.port = int(line.split()[1])
                return
        self.stop()
        raise RuntimeError(f"{script} did not start; see {self.log.name}")

    def stop(self) -> None:
        proc = self.proc
        if proc is not None and proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        if proc is not None and proc.stdout is not None:
            proc.stdout.close()
        self.log.close()

    def problems(self) -> str:
        text = Path(self.log.name).read_text(errors="replace").strip()
        return text[-400:]


@contextlib.contextmanager
def node_server(args: tuple[str, ...]) -> Iterator[NodeServer]:
    server = NodeServer(args)
    server.start()
    try:
        yield server
    finally:
        server.stop()


def run_driver(
    kind: str, server: NodeServer, *, rooms: int, seats: int, seconds: float, audit: bool = False
) -> dict[str, Any]:
    args = ["node", str(HERE / "driver.mjs"), "--kind", kind, "--url", server.url, "--rooms", str(rooms)]
    args += ["--seats", str(seats), "--seconds", str(seconds), "--server-pid", str(server.pid)]
    args += ["--clk-tck", str(os.sysconf("SC_CLK_TCK"))]
    if audit:
        args.append("--audit")
    proc = subprocess.run(args, cwd=HERE, capture_output=True, text=True, timeout=seconds + 300)
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("{")]
    if proc.returncode != 0 or not lines:
        raise RuntimeError(f"the {kind} driver failed (exit {proc.returncode}): {proc.stderr.strip()[-600:]}")
    result: dict[str, Any] = json.loads(lines[-1])
    return result


def run_peer(peer: Peer, *, rooms: int, seats: int, seconds: float, audit: bool = True) -> dict[str, Any]:
    """Audit (one room) and load (`rooms` x `seats`, `seconds`), each against a fresh server of its own."""
    out: dict[str, Any] = {"name": peer.name, "title": peer.title}
    if audit:
        with node_server(peer.server) as server:
            out["audit"] = run_driver(peer.driver, server, rooms=1, seats=seats, seconds=5, audit=True)["audit"]
    with node_server(peer.server) as server:
        rss0 = tree_rss_kib(server.pid)
        cpu0 = tree_cpu_s(server.pid)
        out.update(run_driver(peer.driver, server, rooms=rooms, seats=seats, seconds=seconds))
        out["server_rss_start_mib"] = rss0 / 1024
        out["server_cpu_total_s"] = tree_cpu_s(server.pid) - cpu0
        problems = server.problems()
    if problems:
        out["server_log"] = problems
    return out


# ---- this project, through loadtests/bench.py ------------------------------------------------


def run_project(
    game: str,
    *,
    rooms: int,
    seats: int,
    seconds: float,
    compression: str,
    only: str = "real",
    think: float = 0.0,
    idle: int = 0,
) -> dict[str, Any]:
    """One `python -m loadtests.bench` run (closed loop, or open with `think`; memory store, no in-game syncs)."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.json"
        mode = ["--mode", "open", "--think", str(think)] if think else ["--mode", "closed"]
        args = [*mode, "--game", game, "--seats", str(seats), "--rooms", str(rooms)]
        args += ["--seconds", str(seconds), "--store", "memory", "--only", only, "--no-sync"]
        if idle:
            args = ["--mode", "idle", "--connections", str(idle), "--seconds", "3", "--only", only]
        args += ["--compression", compression, "--json", str(path)]
        proc = subprocess.run(
            [sys.executable, "-m", "loadtests.bench", *args], cwd=ROOT, capture_output=True, text=True
        )
        if proc.returncode != 0 or not path.exists():
            raise RuntimeError(f"loadtests.bench {' '.join(args)} failed: {proc.stdout[-400:]} {proc.stderr[-400:]}")
        data = json.loads(path.read_text())
    report: dict[str, Any] = data["reports"][0]
    report["command"] = "python -m loadtests.bench " + " ".join(a for a in args if not a.endswith("bench.json"))
    report["command"] = report["command"].replace(" --json", "")
    return report


def project_row(name: str, title: str, game: str, r: dict[str, Any]) -> dict[str, Any]:
    """A bench report in the peers' terms."""
    return {
        "name": name,
        "title": title,
        "game": game,
        "moves_per_s": r["moves_per_s"],
        "server_cpu_us_per_move": r.get("server_cpu_us_per_move"),
        "wire_bytes_per_move": r.get("wire_bytes_per_move"),
        "payload_bytes_per_move": r.get("payload_bytes_per_move"),
        "own_ms": r["ack_ms"],
        "last_ms": r["fanout_ms"],
        "server_rss_mib": r.get("rss_end_mib"),
        "driver_cpu": r.get("client_cpu"),
        "errors": r["errors"],
        "rooms_finished": r.get("rooms_finished"),
        "moves": r["moves"],
        "server_cpu": r.get("server_cpu"),  # of one core, over the window
        "machine_cpu": r.get("machine_cpu"),  # the whole machine, in cores, over the window
        "command": r.get("command"),
    }


# ---- the table -------------------------------------------------------------------------------


def _f(x: Any, digits: int = 0) -> str:
    try:
        v = float(x)
    except (TypeError, ValueError):
        return "-"
    if math.isnan(v):
        return "-"
    return f"{v:,.{digits}f}"


def _errors(e: dict[str, int]) -> str:
    return ", ".join(f"{k} {v}" for k, v in sorted(e.items())) or "0"


def table(rows: list[dict[str, Any]]) -> list[str]:
    out = [
        "| server | game | moves/s | server CPU µs per move | bytes per move, all seats (socket) | move → own update"
        " p50 ms | move → last seat p50 / p99 ms | server RSS MiB | load CPU | errors |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        own, last = r["own_ms"], r["last_ms"]
        out.append(
            f"| {r['title']} | {r['game']} | {_f(r['moves_per_s'])} | **{_f(r['server_cpu_us_per_move'])}** |"
            f" **{_f(r['wire_bytes_per_move'])}** | {_f(own.get('50'), 1)} |"
            f" {_f(last.get('50'), 1)} / {_f(last.get('99'), 1)} | {_f(r.get('server_rss_mib'), 1)} |"
            f" {_f((r.get('driver_cpu') or 0) * 100)}% | {_errors(r.get('errors') or {})} |"
        )
    return out


def section(result: dict[str, Any]) -> str:
    a = result["args"]
    rows = result["rows"]
    v = result["versions"]
    lines = [
        BEGIN,
        "## Peers: figures (generated by `make peers`)",
        "",
        f"Written by `python -m loadtests.peers` on {result['started']} UTC, commit `{result['commit']}`;"
        f" {os.cpu_count()} cores, Python {platform.python_version()}, Node {v.get('node', '?')}, load average"
        f" {result['load']} at the start. {a['rooms']} rooms x {a['seats']} seats, closed loop, {a['seconds']:g} s"
        " windows, memory stores, one server at a time on this machine with its load driver beside it. Versions: "
        + ", ".join(f"{k} {val}" for k, val in v.items() if k != "node")
        + ".",
        "",
        *table(rows),
        "",
        "- Bytes: everything the seats' TCP sockets read in the window, over the moves (frames with their headers,"
        " pings, socket.io framing, the matchmaking's HTTP); with permessage-deflate, the compressed bytes."
        " This project's rows without in-game `sync` (`--no-sync`), like the peers.",
        "- Own update: this project's is the `ok` (the mover's patch comes just before it); the peers' the"
        " mover's own state update.",
        "- The peers' game is a 3-card hidden-hand game (120 moves a game); this project's rows are its real games.",
    ]
    comp = [r for r in rows if r["name"].startswith("project-expedition")]
    if len(comp) == 2:
        off = next(r for r in comp if r["name"].endswith("-none"))
        on = next(r for r in comp if r["name"].endswith("-deflate"))
        lines.append(
            f"- permessage-deflate on Expedition: {_f(off['wire_bytes_per_move'])} -> {_f(on['wire_bytes_per_move'])}"
            f" bytes per move, {_f(off['server_cpu_us_per_move'])} -> {_f(on['server_cpu_us_per_move'])} µs of"
            " server CPU per move (same run)."
        )
    op = result.get("open")
    if op:
        fo = op["last_ms"]
        lines.append(
            f"- Open loop, this project on Expedition, {a['open_rooms']} rooms x {a['seats']} seats, 1 s think"
            f" ({op['title'].split(', ')[1]}): move -> last seat p50 / p99 / p99.9 {_f(fo.get('50'), 2)} /"
            f" {_f(fo.get('99'), 2)} / {_f(fo.get('99.9'), 2)} ms, {_f(op['moves_per_s'])} moves/s,"
            f" {_f(op['server_cpu_us_per_move'])} µs of server CPU and {_f(op['wire_bytes_per_move'])} bytes per move;"
            f" the server used {_f((op.get('server_cpu') or 0) * 100)}% of a core and the whole machine"
            f" {_f(op.get('machine_cpu'), 2)} of its {os.cpu_count()} cores."
        )
    idle = result.get("idle") or {}
    if len(idle) == 2:
        off, on = idle["none"], idle["deflate"]
        lines.append(
            f"- Memory per idle connection (this project, {off['connections']:,} connections after `hello`):"
            f" {_f(off.get('rss_per_connection_kib'), 1)} KiB without compression,"
            f" {_f(on.get('rss_per_connection_kib'), 1)} KiB with permessage-deflate negotiated (zlib's state for"
            " each direction lives as long as the connection)."
        )
    lines += targets(result)
    for r in rows:
        if "audit" in r:
            found = "; ".join(r["audit"]) or "no other seat's hand, no deck order, no random state"
            lines.append(f"- Hidden information, {r['title']}: {found}.")
    for n in result.get("notes", []):
        lines.append(f"- {n}")
    lines += ["", "Commands:", "", "```sh", *result["commands"], "```", END]
    return "\n".join(lines)


def targets(result: dict[str, Any]) -> list[str]:
    """Issue 34's targets, read off this run: met or missed, with the figures."""
    by = {r["name"]: r for r in result["rows"]}
    ours, peer = by.get("project-expedition-deflate"), by.get("colyseus")
    out: list[str] = []
    if ours and peer:
        us, them = ours["server_cpu_us_per_move"], peer["server_cpu_us_per_move"]
        verdict = "met" if us <= them else f"**missed** ({us / them:.1f}x)"
        out.append(
            f"- Target, CPU: this project on Expedition (permessage-deflate) {_f(us)} µs per move against Colyseus's"
            f" {_f(them)} on its hidden-hand game: {verdict}."
        )
    if ours:
        b = ours["wire_bytes_per_move"]
        out.append(
            f"- Target, bytes: {_f(b)} per move for all seats (at most 600): {'met' if b <= 600 else '**missed**'}."
        )
    op = result.get("open")
    if op:
        p99 = op["last_ms"].get("99")
        ok = p99 is not None and p99 < 20
        out.append(
            f"- Target, open loop p99 move -> last patch {_f(p99, 2)} ms (under 20): {'met' if ok else '**missed**'}."
        )
    return out


def write_doc(text: str, doc: Path = DOC) -> None:
    """Replace the section between the markers (each on a line of its own), or append it."""
    old = doc.read_text() if doc.exists() else "# Benchmarks\n"
    found = re.search(f"^{re.escape(BEGIN)}$.*?^{re.escape(END)}$", old, flags=re.M | re.S)
    if found:
        doc.write_text(old[: found.start()] + text + old[found.end() :])
    else:
        doc.write_text(old.rstrip("\n") + "\n\n" + text + "\n")


def _git(*args: str) -> str:
    try:
        return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "?"


# ---- the run ---------------------------------------------------------------------------------


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(prog="python -m loadtests.peers", description=__doc__.split("\n\n")[0])
    ap.add_argument("--rooms", type=int, default=250, help="rooms of every run (default 250)")
    ap.add_argument("--seats", type=int, default=4, help="seats per room (default 4)")
    ap.add_argument("--seconds", type=float, default=20.0, help="the measured window of every run (default 20)")
    ap.add_argument("--peers", default=",".join(PEERS), help=f"comma-separated, of {', '.join(PEERS)} (default all)")
    ap.add_argument("--games", default="all", help="this project's games: all (default), none, or ids")
    ap.add_argument(
        "--compression",
        default="both",
        choices=("both", "deflate", "none"),
        help="this project's runs: with permessage-deflate, without, or both for Expedition (default) and"
        " with it for the other games",
    )
    ap.add_argument("--no-baseline", action="store_true", help="leave out the baseline (loadtests/baseline.py)")
    ap.add_argument(
        "--open-rooms",
        type=int,
        default=500,
        help="rooms of the open-loop run (Expedition, 1 s think, permessage-deflate; default 500, 0: none)",
    )
    ap.add_argument(
        "--idle",
        type=int,
        default=2000,
        help="idle connections for the memory per connection with and without permessage-deflate (0: none)",
    )
    ap.add_argument("--quick", action="store_true", help="a smoke run: 4 rooms, 2 s windows")
    ap.add_argument("--no-write", action="store_true", help="print the section, do not write it")
    ap.add_argument("--doc", default=str(DOC), help="the markdown file to write (default docs/benchmarks.md)")
    ap.add_argument("--results", default=str(RESULTS), help="where the JSON goes (default loadtests/results)")
    a = ap.parse_args(argv)
    if a.quick:
        a.rooms, a.seconds, a.open_rooms, a.idle = 4, 2.0, min(a.open_rooms, 8), min(a.idle, 50)
    unknown = set(filter(None, a.peers.split(","))) - set(PEERS)
    if unknown:
        ap.error(f"unknown peers: {', '.join(sorted(unknown))}")
    return a


def plan_project(a: argparse.Namespace) -> list[tuple[str, str, str, str, str]]:
    """(row name, title, game, compression, bench --only) for this project's runs."""
    games = [] if a.games == "none" else list(GAMES) if a.games == "all" else a.games.split(",")
    runs: list[tuple[str, str, str, str, str]] = []
    if not a.no_baseline:
        # (the baseline plays its own trivial game whatever --game says)
        runs.append(("baseline", "the wire contract with a trivial game (baseline)", "expedition", "none", "baseline"))
    for game in games:
        modes = ["none", "deflate"] if a.compression == "both" and game == "expedition" else []
        if not modes:
            modes = ["deflate"] if a.compression in ("both", "deflate") else ["none"]
        for mode in modes:
            title = "this project" + (", permessage-deflate" if mode == "deflate" else ", no compression")
            runs.append((f"project-{game}-{mode}", title, game, mode, "real"))
    return runs


def main(argv: list[str] | None = None) -> int:
    a = parse(argv)
    started = dt.datetime.now(dt.UTC)
    result: dict[str, Any] = {
        "args": vars(a),
        "started": started.strftime("%Y-%m-%d %H:%M"),
        "commit": _git("rev-parse", "--short", "HEAD")
        + (" (with uncommitted changes)" if _git("status", "--porcelain", "--untracked-files=no") else ""),
        "load": " ".join(f"{x:.2f}" for x in os.getloadavg()),
        "rows": [],
        "commands": [],
        "notes": [],
        "versions": {},
    }
    peers = [PEERS[p] for p in filter(None, a.peers.split(","))]
    failed = 0
    if peers:
        why = node_missing()
        if why:
            result["notes"].append(f"the peers did not run: {why}")
            print(why, file=sys.stderr)
            peers = []
        else:
            ensure_packages()
            result["versions"] = versions()
    for name, title, game, mode, only in plan_project(a):
        print(f"### {name}", flush=True)
        try:
            r = run_project(game, rooms=a.rooms, seats=a.seats, seconds=a.seconds, compression=mode, only=only)
        except RuntimeError as err:
            failed += 1
            result["notes"].append(f"{name} failed: {err}")
            print(err, file=sys.stderr)
            continue
        row = project_row(name, title, "counter (a 1-3 step race)" if only == "baseline" else game, r)
        result["rows"].append(row)
        result["commands"].append(r["command"])
        print(json.dumps({k: row[k] for k in ("moves_per_s", "server_cpu_us_per_move", "wire_bytes_per_move")}))
    if a.open_rooms and a.games != "none":
        print("### project-expedition-open", flush=True)
        mode = "none" if a.compression == "none" else "deflate"
        try:
            r = run_project(
                "expedition", rooms=a.open_rooms, seats=a.seats, seconds=a.seconds, compression=mode, think=1.0
            )
            result["open"] = project_row("project-expedition-open", f"open loop, {mode}", "expedition", r)
            result["commands"].append(r["command"])
        except RuntimeError as err:
            failed += 1
            result["notes"].append(f"the open-loop run failed: {err}")
    if a.idle and a.games != "none":
        for mode in ("none", "deflate"):
            print(f"### idle-{mode}", flush=True)
            try:
                r = run_project("expedition", rooms=0, seats=a.seats, seconds=0, compression=mode, idle=a.idle)
                result.setdefault("idle", {})[mode] = r
                result["commands"].append(r["command"])
            except RuntimeError as err:
                failed += 1
                result["notes"].append(f"the idle run ({mode}) failed: {err}")
    for peer in peers:
        print(f"### {peer.name}", flush=True)
        try:
            r = run_peer(peer, rooms=a.rooms, seats=a.seats, seconds=a.seconds)
        except (RuntimeError, subprocess.SubprocessError, OSError) as err:
            failed += 1
            result["notes"].append(f"{peer.name} failed: {err}")
            print(err, file=sys.stderr)
            continue
        r["game"] = "3-card hidden hand"
        result["rows"].append(r)
        result["commands"].append(
            f"node loadtests/peers/{' '.join(peer.server)} --port P  # then: node loadtests/peers/driver.mjs"
            f" --kind {peer.driver} --rooms {a.rooms} --seats {a.seats} --seconds {a.seconds:g}"
        )
        print(json.dumps({k: r.get(k) for k in ("moves_per_s", "server_cpu_us_per_move", "wire_bytes_per_move")}))
    text = section(result)
    print("\n" + text)
    out_dir = Path(a.results)
    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / f"peers-{started.strftime('%Y%m%dT%H%M%S')}.json"
    path.write_text(json.dumps(result, indent=2, default=str) + "\n")
    if not a.no_write:
        write_doc(text, Path(a.doc))
        print(f"\nwritten to {a.doc}; the figures as JSON in {path}")
    return 1 if failed else 0
