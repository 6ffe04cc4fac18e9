"""HAProxy (deploy/haproxy/haproxy.cfg) in front of three real nodes on one Redis; the room's node is killed.

Real processes on loopback, each on a free port and stopped by its PID: a `redis-server` of the test's own,
three `python -m server` nodes and Debian's `haproxy` with the deploy configuration (its `bind` and
`server` lines pointed at the test's ports). The players reach the nodes only through the proxy. Mid-game
the node that holds the room's lease is killed with SIGKILL (or stopped with SIGTERM); the players reconnect
through the proxy with their tokens, the room comes back on another node from Redis, the game is played to
the end, and every move acknowledged before or after the crash is in the stored log and in the final state.

The failover time (the signal to the first patch from the new owner) is printed; docs/benchmarks.md has figures.
"""

from __future__ import annotations

import asyncio
import random
import re
import signal
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from clients.client import Client, RoomView, ServerError
from server.games import get_game
from server.rooms.replay import restore
from server.store import RedisStore

from .conftest import DEPLOY, Processes, free_port, tool, wait_http_ok, wait_port

GAME = get_game("expedition")
SEED = 4242
FAILOVER_BOUND = 30.0  # seconds, generous: a room moves once its lease (2 s) lapses (see docs/benchmarks.md)
Acked = list[tuple[int, int, dict[str, Any]]]


def local_haproxy_cfg(front: int, stats: int, nodes: list[tuple[str, int]]) -> str:
    """deploy/haproxy/haproxy.cfg with its listeners and servers on loopback (no Docker DNS resolvers)."""
    text = (DEPLOY / "haproxy" / "haproxy.cfg").read_text()
    out: list[str] = []
    skipping = False
    servers_done = False
    backends = 0
    for line in text.splitlines():
        stripped = line.strip()
        if line and not line[0].isspace():
            skipping = stripped.startswith("resolvers ")  # compose's DNS: not here
            servers_done = False  # each backend lists the nodes (`rooms` tracks those of `nodes`)
        if skipping:
            continue
        if stripped == "bind :8080":
            line = f"    bind 127.0.0.1:{front}"
        elif stripped == "bind :8404":
            line = f"    bind 127.0.0.1:{stats}"
        elif stripped.startswith("default-server "):
            line = line.replace(" resolvers docker", "")
        elif stripped.startswith("server "):
            if servers_done:
                continue
            servers_done = True
            backends += 1
            # the first server line's options (e.g. `track nodes/node1`) for every node, its name in them replaced
            first, rest = stripped.split()[1], stripped.split()[3:]
            out += [
                " ".join([f"    server {name} 127.0.0.1:{port}", *(w.replace(first, name) for w in rest)]).rstrip()
                for name, port in nodes
            ]
            continue
        out.append(line)
    cfg = "\n".join(out) + "\n"
    assert f"bind 127.0.0.1:{front}" in cfg and f"bind 127.0.0.1:{stats}" in cfg, "deploy config's binds moved"
    assert backends and "resolvers" not in cfg, "deploy config's servers moved"
    return cfg


def test_the_deploy_haproxy_config_is_the_one_the_failover_test_runs() -> None:
    cfg = local_haproxy_cfg(18080, 18404, [("node1", 1), ("node2", 2), ("node3", 3)])
    assert "timeout tunnel" in cfg and "option httpchk GET /healthz" in cfg and "option redispatch" in cfg
    servers = [("node1", "1"), ("node2", "2"), ("node3", "3")]
    # the leastconn backend, then the one routing by room (which tracks the first one's health checks)
    assert re.findall(r"server (node\d) 127\.0\.0\.1:(\d)", cfg) == servers * 2
    assert re.findall(r"server (node\d) 127\.0\.0\.1:\d track nodes/(node\d)", cfg) == [(n, n) for n, _ in servers]


async def connect(url: str, name: str, token: str | None = None, deadline: float | None = None) -> Client:
    """A client through a proxy that said hello (retried while the proxy has no node for it)."""
    deadline = deadline if deadline is not None else time.monotonic() + 30
    last: Exception | None = None
    while time.monotonic() < deadline:
        c = Client(url)
        try:
            await c.connect()
            await c.hello(name, token)
            return c
        except (OSError, ConnectionError, TimeoutError, ServerError) as err:
            last = err
            await c.close()
            await asyncio.sleep(0.1)
    raise AssertionError(f"could not connect through the proxy: {last}")


async def _back_in_room(c: Client, room: str, deadline: float, spectate: bool = False) -> None:
    """(Re)join until a snapshot of the room arrives: the room may still be moving between nodes."""
    rv = c.views.setdefault(room, RoomView(room))
    rv.v = -1
    while time.monotonic() < deadline:
        try:
            await c.request("join", timeout=2.0, room=room, **({"spectate": True} if spectate else {}))
        except ServerError as err:
            assert err.code == "unavailable", err  # moving between nodes: retry
        except TimeoutError:
            pass  # forwarded to the dead node: retried (its node also re-joins it once the room moved)
        try:
            await c.wait_for(room, lambda s: True, timeout=1.0)
            return
        except TimeoutError:
            continue
    raise AssertionError("the room did not come back")


class PatchClock:
    """When the first patch of a room reached any client after the crash (a snapshot is not a patch)."""

    def __init__(self, room: str) -> None:
        self.room = room
        self.first: float | None = None
        self.moves: list[tuple[float, int]] = []

    def attach(self, c: Client) -> None:
        base = c.views[self.room].patches if self.room in c.views else 0

        def seen(room: str) -> None:
            rv = c.views[room]
            if room == self.room and rv.patches > base and self.first is None:
                self.first = time.monotonic()

        c.on_update = seen


async def _recover(c: Client, url: str, room: str, name: str, deadline: float, patches: PatchClock) -> Client:
    """A client after the crash: a fresh snapshot on its connection, or a reconnect with its token."""
    patches.attach(c)
    while time.monotonic() < deadline:
        if c.closed.is_set():
            old_player, token = c.player, c.token
            await c.close()
            c = await connect(url, name, token, deadline)
            patches.attach(c)
            assert c.player == old_player, "the token did not give the same player back"
            await _back_in_room(c, room, deadline)
            return c
        try:
            await c.wait_for(room, lambda s: True, timeout=0.25)  # the snapshot its node pushes on re-join
            return c
        except TimeoutError:
            continue
    raise AssertionError(f"{name} did not get the room back")


async def _play(
    players: list[Client],
    room: str,
    rng: random.Random,
    acked: Acked,
    stop: Callable[[], bool],
    clock: PatchClock | None = None,
    timeouts: list[float] | None = None,
) -> None:
    """Random legal moves until `stop()` or the end; every acknowledged move goes into `acked`."""
    timeouts = [] if timeouts is None else timeouts
    for _ in range(5000):
        views = [p.view(room) for p in players]
        if stop() or any(v.get("result") for v in views):
            return
        mover = next((p for p, v in zip(players, views, strict=True) if v.get("prompt")), None)
        if mover is None or len({p.views[room].v for p in players}) > 1:
            await asyncio.sleep(0.005)
            continue
        view = mover.view(room)
        move = rng.choice(view["prompt"]["options"])
        try:
            # made against the version held: a retry can never apply twice
            answer = await mover.request("move", timeout=5.0, room=room, move=move, v=mover.views[room].v)
            v = int(answer["v"])
        except ServerError as err:
            assert err.code in ("not_your_turn", "illegal_move", "stale"), err  # a stale prompt
            await asyncio.sleep(0.005)
            continue
        except TimeoutError:
            timeouts.append(time.monotonic())  # outcome unknown: the stored log says (checked at the end)
            continue
        acked.append((v, view["you"], move))
        if clock is not None:
            clock.moves.append((time.monotonic(), v))
    raise AssertionError("the game did not end")


async def _stored_moves(store: RedisStore, room: str) -> dict[int, dict[str, Any]]:
    """The room's move entries in the stored log, by version (the nodes keep the whole log: --keep-log)."""
    entries = await store.full_log(room)
    assert entries and entries[0]["v"] == 1, "the log was trimmed"
    return {e["v"]: e for e in sorted(entries, key=lambda e: e["v"]) if e["k"] == "move"}


async def _owner(redis_url: str, room: str) -> str | None:
    """The node holding the room's lease."""
    store = RedisStore(redis_url, prefix="mp:")
    try:
        return await store.lease_holder(room)
    finally:
        await store.close()


def _start_cluster(processes: Processes, tmp_path: Path) -> tuple[str, str, dict[str, int]]:
    redis_server = tool("redis-server", "Debian package redis-server")
    haproxy = tool("haproxy", "Debian package haproxy")
    rport = free_port()
    proc = processes.start(
        "redis",
        [redis_server, "--port", str(rport), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
         "--dir", str(tmp_path)],
    )
    wait_port(rport, proc=proc)
    redis_url = f"redis://127.0.0.1:{rport}/0"
    nodes = {f"node{i}": free_port() for i in (1, 2, 3)}
    for name, port in nodes.items():
        processes.start(
            name,
            [sys.executable, "-m", "server", "--port", str(port), "--store", redis_url, "--node-id", name,
             "--allow-client-seed", "--rate", "1000", "--burst", "2000", "--bot-delay", "0",
             # snapshots as usual, but the log is kept whole, so the test can compare every move with it
             "--keep-log", "--log-format", "json"],
        )
    for port in nodes.values():
        wait_http_ok(f"http://127.0.0.1:{port}/healthz")
    front, stats = free_port(), free_port()
    cfg = tmp_path / "haproxy.cfg"
    cfg.write_text(local_haproxy_cfg(front, stats, list(nodes.items())))
    processes.start("haproxy", [haproxy, "-db", "-f", str(cfg)])
    wait_http_ok(f"http://127.0.0.1:{front}/healthz")
    return f"ws://127.0.0.1:{front}/ws", redis_url, nodes


@pytest.mark.timeout(120)
@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM], ids=["crash", "graceful_stop"])
async def test_a_stopped_nodes_game_finishes_through_the_proxy_with_every_acknowledged_move(
    processes: Processes, tmp_path: Path, capsys: pytest.CaptureFixture[str], sig: signal.Signals
) -> None:
    """SIGKILL: the room moves once its lease lapses. SIGTERM: the node hands the lease back as it stops."""
    url, redis_url, nodes = _start_cluster(processes, tmp_path)
    clients: list[Client] = []
    try:
        deadline = time.monotonic() + 60
        ann = await connect(url, "ann", None, deadline)
        bob = await connect(url, "bob", None, deadline)
        clients += [ann, bob]
        room = await ann.create("expedition", 2, {"seed": SEED})
        assert await ann.join(room) == 0
        assert await bob.join(room) == 1
        await ann.wait_for(room, lambda s: s["status"] == "playing")
        owner = await _owner(redis_url, room)
        assert owner in nodes, owner

        rng = random.Random(SEED)
        acked: Acked = []
        await _play([ann, bob], room, rng, acked, stop=lambda: len(acked) >= 20)
        assert len(acked) == 20, "the game ended before the crash"
        v_kill = acked[-1][0]

        # the crash, between two moves (nothing in flight): every move so far was acknowledged
        for c in (ann, bob):
            c.views[room].v = -1  # wait for the new owner's snapshot, not the old view
        patches = PatchClock(room)
        t_kill = time.monotonic()
        processes.send(owner, sig)
        recover_deadline = t_kill + FAILOVER_BOUND
        old = (ann, bob)
        ann, bob = await asyncio.gather(
            _recover(ann, url, room, "ann", recover_deadline, patches),
            _recover(bob, url, room, "bob", recover_deadline, patches),
        )
        clients += [ann, bob]
        # ann created the room, so her socket was on its node: she came back through the proxy with her token
        assert ann is not old[0]
        pairs = zip(("ann", "bob"), (ann, bob), old, strict=True)
        reconnected = " and ".join(name for name, new, before in pairs if new is not before)
        t_back = time.monotonic()
        new_owner = await _owner(redis_url, room)
        assert new_owner in nodes and new_owner != owner, new_owner
        replay = GAME.setup(2, {}, SEED)
        for _v, seat, move in acked:
            replay = GAME.apply(replay, seat, move)
        for seat, c in enumerate((ann, bob)):
            assert c.views[room].v >= v_kill  # presence changes (a seat reconnected) are versions too
            assert c.view(room)["public"] == GAME.view(replay, seat)["public"]
            assert c.view(room)["private"] == GAME.view(replay, seat)["private"]

        # every move acknowledged by the dead node is in the stored log, at its version, and no other move
        store = RedisStore(redis_url, prefix="mp:", trim_log=False)
        try:
            stored = await _stored_moves(store, room)
            assert [v for v in stored if v <= v_kill] == [v for v, _s, _m in acked]
            for v, seat, move in acked:
                assert (stored[v]["seat"], stored[v]["move"]) == (seat, move)

            timeouts: list[float] = []
            await _play([ann, bob], room, rng, acked, stop=lambda: False, clock=patches, timeouts=timeouts)
            t_move = next(t for t, v in patches.moves if v > v_kill)
            assert patches.first is not None, "no patch came after the crash"
            failover = patches.first - t_kill
            assert failover < FAILOVER_BOUND
            for c in (ann, bob):
                await c.wait_for(room, lambda s: s["result"] is not None)

            # every acknowledged move is in the stored log; its replay is the final state the store and the
            # players hold (a move whose answer timed out may be stored without an ok: it is in the log too)
            stored = await _stored_moves(store, room)
            for v, seat, move in acked:
                assert (stored[v]["seat"], stored[v]["move"]) == (seat, move)
            assert len(acked) <= len(stored) <= len(acked) + len(timeouts)  # only a timed-out move lacks its ok
            state = GAME.setup(2, {}, SEED)
            for entry in stored.values():
                state = GAME.apply(state, entry["seat"], entry["move"])
            assert GAME.result(state) is not None
            final = await store.load(room)
            assert final is not None and final.meta["status"] == "finished"
            _meta, stored_state, _ = restore(final.meta, final.snap_v, final.snapshot, final.log)
            assert stored_state == state
            assert [v for v, _s, _m in acked] == sorted({v for v, _s, _m in acked})
            for seat, c in enumerate((ann, bob)):
                assert c.view(room)["public"] == GAME.view(state, seat)["public"]
                assert c.view(room)["private"] == GAME.view(state, seat)["private"]
        finally:
            await store.close()
        # a crash leaves no exit status of its own; a clean stop exits 0 once its rooms are handed over
        assert processes.procs[owner].wait(timeout=30) == (0 if sig == signal.SIGTERM else -signal.SIGKILL)
        with capsys.disabled():
            print(
                f"\nHAProxy failover: {owner} got {sig.name} after 20 moves; {reconnected} reconnected; room back on "
                f"{new_owner} (both players "
                f"re-attached) {t_back - t_kill:.2f} s after the kill; first patch from {new_owner} at "
                f"{failover:.2f} s; first move acknowledged at {t_move - t_kill:.2f} s; game finished with "
                f"{len(acked)} acknowledged moves, all in the stored log ({len(stored)} moves; "
                f"{len(timeouts)} answers timed out)"
            )
    finally:
        for c in clients:
            await c.close()
