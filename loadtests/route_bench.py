"""`python -m loadtests.route_bench` (`make route-bench`): the frames that cross Redis with and without routing by room.

Real processes on loopback, each on a free port and stopped by its PID at the end: a `redis-server` of the bench's
own, `--nodes` server nodes on it, and two `haproxy` processes in front of them with deploy/haproxy/haproxy.cfg (its
`bind` and `server` lines pointed at the bench's ports): one as it is (routing by room: a socket at `/ws?room=ID`
goes to the node the room id hashes to), one with its `use_backend rooms` line deleted (plain `leastconn`).

Through each proxy in turn, `--rooms` games are played at once: a lobby socket (no room in its URL) creates each
room, as a player does before anyone knows the room's id; then `--players` seated sockets and `--spectators`
spectating ones connect at `/ws?room=ID`, join, and the players make random legal moves until the game ends. Both
runs send the very same URLs; only the proxy differs. Over each run the nodes' /metrics give the frames sent to
clients (`mp_messages_out_total`, every type) and those of them that crossed Redis (`mp_relay_frames_total`,
`direction="in"`: a room's frame received from its node and written to a socket on another one), and the rooms
handed to the node holding most of their sockets (`mp_room_handovers_total`).

Prints both runs and the exact command; tests/deploy/test_haproxy_routing.py runs the same code and asserts on it.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import re
import shlex
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from clients.client import Client, ServerError
from tests.deploy.conftest import Processes, free_port, tool, wait_http_ok, wait_port
from tests.deploy.test_haproxy_failover import connect, local_haproxy_cfg

GAME = "expedition"
#: the line of deploy/haproxy/haproxy.cfg that turns routing by room on
ROUTING_LINE = "use_backend rooms"


def proxy_cfg(front: int, stats: int, nodes: list[tuple[str, int]], routing: bool) -> str:
    """The deploy configuration on loopback; without `routing`, its `use_backend rooms` line deleted (leastconn)."""
    cfg = local_haproxy_cfg(front, stats, nodes)
    assert ROUTING_LINE in cfg, "deploy/haproxy/haproxy.cfg no longer routes by room"
    if not routing:
        cfg = "\n".join(line for line in cfg.splitlines() if ROUTING_LINE not in line) + "\n"
    return cfg


@dataclass
class Cluster:
    redis_url: str
    #: node name -> its port
    nodes: dict[str, int]
    #: "routing" / "leastconn" -> the proxy's WebSocket URL
    proxies: dict[str, str] = field(default_factory=dict)


def start_cluster(procs: Processes, tmp: Path, n_nodes: int = 3) -> Cluster:
    """Redis, `n_nodes` nodes and the two proxies (every process started through `procs`, so stopped by PID)."""
    redis_server = tool("redis-server", "Debian package redis-server")
    haproxy = tool("haproxy", "Debian package haproxy")
    rport = free_port()
    proc = procs.start(
        "redis",
        [redis_server, "--port", str(rport), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
         "--dir", str(tmp)],
    )  # fmt: skip
    wait_port(rport, proc=proc)
    redis_url = f"redis://127.0.0.1:{rport}/0"
    nodes = {f"node{i}": free_port() for i in range(1, n_nodes + 1)}
    for name, port in nodes.items():
        procs.start(
            name,
            [sys.executable, "-m", "server", "--port", str(port), "--store", redis_url, "--node-id", name,
             "--allow-client-seed", "--rate", "1000", "--burst", "2000", "--bot-delay", "0",
             # every room and socket comes from one address; the log kept whole, so a test can compare every move
             "--creates-per-minute", "0", "--max-conns-per-addr", "0", "--keep-log", "--log-format", "json"],
        )  # fmt: skip
    for port in nodes.values():
        wait_http_ok(f"http://127.0.0.1:{port}/healthz")
    cluster = Cluster(redis_url, nodes)
    for mode in ("routing", "leastconn"):
        front, stats = free_port(), free_port()
        cfg = tmp / f"haproxy-{mode}.cfg"
        cfg.write_text(proxy_cfg(front, stats, list(nodes.items()), routing=mode == "routing"))
        procs.start(f"haproxy-{mode}", [haproxy, "-db", "-f", str(cfg)])
        wait_http_ok(f"http://127.0.0.1:{front}/healthz")
        cluster.proxies[mode] = f"ws://127.0.0.1:{front}/ws"
    return cluster


_SAMPLE = re.compile(r'^(mp_messages_out_total|mp_relay_frames_total|mp_room_handovers_total)(\{[^}]*\})? (\S+)$')


def node_counts(port: int) -> dict[str, float]:
    """One node's frames out (all types), frames relayed in and out over Redis, and rooms handed over."""
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as resp:
        text = resp.read().decode()
    out = {"frames": 0.0, "relay_in": 0.0, "relay_out": 0.0, "handovers": 0.0}
    for line in text.splitlines():
        m = _SAMPLE.match(line)
        if m is None:
            continue
        name, labels, value = m.group(1), m.group(2) or "", float(m.group(3))
        if name == "mp_messages_out_total":
            out["frames"] += value
        elif name == "mp_room_handovers_total":
            out["handovers"] += value
        elif 'direction="in"' in labels:
            out["relay_in"] += value
        elif 'direction="out"' in labels:
            out["relay_out"] += value
    return out


def counts(cluster: Cluster, nodes: list[str] | None = None) -> dict[str, float]:
    """`node_counts` summed over the live nodes (`nodes`; default all)."""
    total = {"frames": 0.0, "relay_in": 0.0, "relay_out": 0.0, "handovers": 0.0}
    for name in nodes or list(cluster.nodes):
        for k, v in node_counts(cluster.nodes[name]).items():
            total[k] += v
    return total


def served_by(c: Client) -> str:
    """The node the proxy sent this socket to (HAProxy's X-Served-By header on the handshake's answer)."""
    assert c.ws is not None and c.ws.response is not None
    return str(c.ws.response.headers.get("X-Served-By", "?"))


async def retrying(what: Any, deadline: float) -> Any:
    """Await `what()` again while it is answered `unavailable` (a room being handed to another node)."""
    while True:
        try:
            return await what()
        except ServerError as err:
            if err.code != "unavailable" or time.monotonic() > deadline:
                raise
            await asyncio.sleep(0.05)


@dataclass
class Table:
    """The sockets of one room: the seated ones first, then the spectators."""

    room: str
    players: list[Client]
    spectators: list[Client]
    acked: list[tuple[int, int, dict[str, Any]]] = field(default_factory=list)
    timeouts: int = 0


async def open_table(url: str, i: int, seed: int, players: int, spectators: int, deadline: float) -> Table:
    """A room created from a lobby socket, then joined by its players and spectators at `url?room=ID`."""
    lobby = await connect(url, f"host{i}", deadline=deadline)
    try:
        room = await lobby.create(GAME, players, {"seed": seed})
    finally:
        await lobby.close()
    socks: list[Client] = []
    try:
        for k in range(players + spectators):
            socks.append(await connect(f"{url}?room={room}", f"p{i}x{k}", deadline=deadline))
        table = Table(room, socks[:players], socks[players:])
        for c in table.players:
            await retrying(lambda c=c: c.join(room), deadline)
        for c in table.spectators:
            await retrying(lambda c=c: c.join(room, spectate=True), deadline)
        left = max(1.0, deadline - time.monotonic())
        await table.players[0].wait_for(room, lambda s: s["status"] == "playing", timeout=left)
    except BaseException:
        for c in socks:
            await c.close()
        raise
    return table


async def play(table: Table, rng: random.Random, deadline: float, max_moves: int | None = None) -> None:
    """Random legal moves until the game ends (or `max_moves` were acknowledged); `table.acked` gets each `ok`."""
    room, players = table.room, table.players
    while time.monotonic() < deadline:
        views = [p.view(room) for p in players]
        if any(v.get("result") for v in views) or (max_moves is not None and len(table.acked) >= max_moves):
            return
        mover = next((p for p, v in zip(players, views, strict=True) if v.get("prompt")), None)
        if mover is None or len({p.views[room].v for p in players}) > 1:
            await asyncio.sleep(0.005)
            continue
        view = mover.view(room)
        move = rng.choice(view["prompt"]["options"])
        try:
            answer = await mover.request("move", timeout=5.0, room=room, move=move, v=mover.views[room].v)
        except ServerError as err:
            # a stale prompt; `unavailable`: the room was being handed over, nothing applied (made against `v`)
            assert err.code in ("not_your_turn", "illegal_move", "stale", "unavailable"), err
            await asyncio.sleep(0.005)
            continue
        except TimeoutError:
            table.timeouts += 1  # outcome unknown: the stored log says
            continue
        table.acked.append((int(answer["v"]), view["you"], move))
    raise AssertionError(f"room {room}: the game did not end in time")


async def close_table(table: Table) -> None:
    for c in table.players + table.spectators:
        await c.close()


async def run(
    cluster: Cluster, mode: str, rooms: int, players: int, spectators: int, seed: int, timeout: float = 300.0
) -> dict[str, Any]:
    """Play `rooms` games at once through the proxy `mode`; the frames out and over Redis during the run."""
    url = cluster.proxies[mode]
    deadline = time.monotonic() + timeout
    before = counts(cluster)
    t0 = time.monotonic()
    opened = await asyncio.gather(
        *(open_table(url, i, seed + i, players, spectators, deadline) for i in range(rooms)), return_exceptions=True
    )
    tables = [t for t in opened if isinstance(t, Table)]
    failed = [t for t in opened if not isinstance(t, Table)]
    if failed:
        for t in tables:
            await close_table(t)
        raise failed[0]
    try:
        await asyncio.gather(*(play(t, random.Random(seed + i), deadline) for i, t in enumerate(tables)))
        for t in tables:  # every socket saw the end
            for c in t.players + t.spectators:
                left = max(1.0, deadline - time.monotonic())
                await c.wait_for(t.room, lambda s: s["result"] is not None, timeout=left)
        took = time.monotonic() - t0
        # where each room's sockets ended up, and whether they share a node
        together = sum(len({served_by(c) for c in t.players + t.spectators}) == 1 for t in tables)
    finally:
        for t in tables:
            await close_table(t)
    await asyncio.sleep(0.3)  # the last relayed frames are counted
    after = counts(cluster)
    delta = {k: after[k] - before[k] for k in after}
    moves = sum(len(t.acked) for t in tables)
    return {
        "mode": mode, "rooms": rooms, "sockets_per_room": players + spectators, "moves": moves,
        "frames": int(delta["frames"]), "relayed": int(delta["relay_in"]), "relayed_out": int(delta["relay_out"]),
        "share": delta["relay_in"] / delta["frames"] if delta["frames"] else 0.0,
        "handovers": int(delta["handovers"]), "rooms_on_one_node": together, "seconds": round(took, 1),
    }  # fmt: skip


def line(r: dict[str, Any]) -> str:
    return (
        f"{r['mode']:>9}: {r['rooms']} rooms x {r['sockets_per_room']} sockets, {r['moves']} moves, "
        f"{r['frames']} frames to clients, {r['relayed']} crossed Redis ({100 * r['share']:.1f}%); "
        f"{r['handovers']} rooms handed over; {r['rooms_on_one_node']}/{r['rooms']} rooms with every socket on one "
        f"node; {r['seconds']} s"
    )


def parse(argv: list[str] | None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(prog="python -m loadtests.route_bench", description=__doc__.split("\n\n")[0])
    ap.add_argument("--rooms", type=int, default=12, help="games played at once through each proxy")
    ap.add_argument("--players", type=int, default=2, help="seated sockets per room (expedition: 2 to 4)")
    ap.add_argument("--spectators", type=int, default=2, help="spectating sockets per room")
    ap.add_argument("--nodes", type=int, default=3, help="server nodes behind the proxies")
    ap.add_argument("--seed", type=int, default=31)
    return ap.parse_args(argv)


async def main_async(a: argparse.Namespace) -> list[dict[str, Any]]:
    with tempfile.TemporaryDirectory(prefix="route-bench-") as tmp:
        procs = Processes(Path(tmp))
        try:
            cluster = start_cluster(procs, Path(tmp), a.nodes)
            results = []
            for mode in ("routing", "leastconn"):
                results.append(await run(cluster, mode, a.rooms, a.players, a.spectators, a.seed))
                print(line(results[-1]), flush=True)
            return results
        finally:
            procs.stop_all()


def main(argv: list[str] | None = None) -> int:
    a = parse(argv)
    asyncio.run(main_async(a))
    print("command: python -m loadtests.route_bench " + " ".join(shlex.quote(x) for x in (argv or sys.argv[1:])))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
