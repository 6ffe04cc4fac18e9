"""Routing by room (deploy/haproxy/haproxy.cfg, docs/scale.md "Routing by room"): real HAProxy, Redis and nodes.

Real processes on loopback, each on a free port and stopped by its PID: a `redis-server` of the test's own, three
`python -m server` nodes, and two `haproxy` processes with the deploy configuration (its `bind` and `server` lines
pointed at the test's ports): one as it is (a socket at `/ws?room=ID` goes to the node the room id hashes to), one
with its `use_backend rooms` line deleted (plain leastconn). The same games (a lobby socket creates each room, then
two players and two spectators connect at `/ws?room=ID`, join and play to the end) go through each proxy; the
nodes' `mp_relay_frames_total` and `mp_messages_out_total` say how many of the frames sent to clients crossed Redis.
With routing, the room follows its sockets to their node and almost none do; without, a large share does.

Then, with routing, the node running a game (and holding every socket of it) is killed mid-game: the sockets
reconnect through the proxy with their tokens, the room comes back on another node from Redis, the game is played
to the end, and every acknowledged move is in the stored log and in the final state. The code that plays and
counts is `loadtests.route_bench` (`make route-bench`), which prints the same figures.
"""

from __future__ import annotations

import asyncio
import random
import signal
import time
from pathlib import Path

import pytest

from clients.cli.session import room_url
from clients.client import Client
from loadtests.route_bench import (
    Table,
    close_table,
    connect,
    counts,
    line,
    open_table,
    play,
    proxy_cfg,
    run,
    served_by,
    start_cluster,
)
from server.games import get_game
from server.net.app import url_room
from server.rooms.replay import restore
from server.store import RedisStore

from .conftest import Processes
from .test_haproxy_failover import _back_in_room, _owner, _stored_moves

GAME = get_game("expedition")
FAILOVER_BOUND = 30.0  # seconds, generous (a room moves once its lease, 2 s, lapsed)


def test_the_plain_config_is_the_deploy_config_without_its_routing_line() -> None:
    nodes = [("node1", 1), ("node2", 2)]
    routing, plain = proxy_cfg(1, 2, nodes, routing=True), proxy_cfg(1, 2, nodes, routing=False)
    assert "use_backend rooms if { path /ws } { urlp(room) -m found }" in routing
    assert [x for x in routing.splitlines() if "use_backend rooms" not in x] == plain.splitlines()
    assert "balance url_param room" in routing and "hash-type consistent" in routing


@pytest.mark.timeout(240)
async def test_routing_by_room_keeps_most_frames_off_redis(
    processes: Processes, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cluster = start_cluster(processes, tmp_path)
    routed = await run(cluster, "routing", rooms=4, players=2, spectators=2, seed=7)
    plain = await run(cluster, "leastconn", rooms=4, players=2, spectators=2, seed=7)
    with capsys.disabled():
        print(f"\n{line(routed)}\n{line(plain)}")
    for r in (routed, plain):
        assert r["frames"] > 4 * 4 * 100, r  # four games played to the end, four sockets each
        assert r["relayed"] <= r["relayed_out"], r  # a frame is received only once published
    # with routing every socket of a room is on one node, and the room runs there: at least 90% of frames stay local
    assert routed["rooms_on_one_node"] == routed["rooms"], routed
    assert routed["share"] <= 0.10, routed
    # without, sockets spread over the nodes: the room goes where most are, the others' frames cross Redis (19.5-48%
    # of them in the runs so far, as the four rooms' sixteen sockets happen to fall on the three nodes)
    assert plain["share"] >= 0.15, plain
    assert plain["relayed"] >= 5 * max(routed["relayed"], 1), (routed, plain)


async def _recover(c: Client, url: str, room: str, name: str, spectate: bool, deadline: float) -> Client:
    """A socket after the crash: a fresh snapshot on it, or a reconnect at `url` with its token and a re-join."""
    while time.monotonic() < deadline:
        if c.closed.is_set():
            player, token = c.player, c.token
            await c.close()
            c = await connect(url, name, token, deadline)
            assert c.player == player, "the token did not give the same player back"
            await _back_in_room(c, room, deadline, spectate)
            return c
        try:
            await c.wait_for(room, lambda s: True, timeout=0.25)  # the snapshot its node pushes on re-join
            return c
        except TimeoutError:
            continue
    raise AssertionError(f"{name} did not get the room back")


@pytest.mark.timeout(180)
async def test_with_routing_a_killed_nodes_game_finishes_with_every_acknowledged_move(
    processes: Processes, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cluster = start_cluster(processes, tmp_path)
    url = cluster.proxies["routing"]
    deadline = time.monotonic() + 120
    seed = 4243
    table = await open_table(url, 0, seed, players=2, spectators=2, deadline=deadline)
    tables = [table]
    store = RedisStore(cluster.redis_url, prefix="mp:", trim_log=False)
    try:
        room = table.room
        rng = random.Random(seed)
        await play(table, rng, deadline, max_moves=20)
        assert len(table.acked) == 20, "the game ended before the crash"
        # the room followed its sockets: they and the room share one node
        for _ in range(100):
            owner = await _owner(cluster.redis_url, room)
            if owner is not None and {served_by(c) for c in table.players + table.spectators} == {owner}:
                break
            await asyncio.sleep(0.1)
        socks = table.players + table.spectators
        assert {served_by(c) for c in socks} == {owner}, (owner, [served_by(c) for c in socks])
        v_kill = table.acked[-1][0]

        # the crash, between two moves: every move so far was acknowledged; every socket of the room was on that node
        for c in socks:
            c.views[room].v = -1  # wait for the new owner's snapshot, not the old view
        t_kill = time.monotonic()
        processes.send(owner, signal.SIGKILL)
        alive = [n for n in cluster.nodes if n != owner]
        before = counts(cluster, alive)
        names = [f"p0x{k}" for k in range(len(socks))]
        back = await asyncio.gather(
            *(
                _recover(c, f"{url}?room={room}", room, name, k >= len(table.players), t_kill + FAILOVER_BOUND)
                for k, (c, name) in enumerate(zip(socks, names, strict=True))
            )
        )
        t_back = time.monotonic()
        after_crash = Table(room, list(back[: len(table.players)]), list(back[len(table.players) :]), table.acked)
        tables.append(after_crash)
        assert all(new is not old for new, old in zip(back, socks, strict=True)), "a socket was not on the dead node"
        new_owner = await _owner(cluster.redis_url, room)
        assert new_owner in alive, new_owner
        landed = [served_by(c) for c in back]

        stored = await _stored_moves(store, room)
        assert [v for v in stored if v <= v_kill] == [v for v, _s, _m in table.acked]

        await play(after_crash, rng, deadline)
        for c in back:
            await c.wait_for(room, lambda s: s["result"] is not None)
        after = counts(cluster, alive)
        frames, relayed = after["frames"] - before["frames"], after["relay_in"] - before["relay_in"]

        # every acknowledged move is in the stored log, and its replay is the final state everybody holds
        stored = await _stored_moves(store, room)
        acked = after_crash.acked
        for v, seat, move in acked:
            assert (stored[v]["seat"], stored[v]["move"]) == (seat, move)
        assert len(acked) <= len(stored) <= len(acked) + after_crash.timeouts + table.timeouts
        assert [v for v, _s, _m in acked] == sorted({v for v, _s, _m in acked})
        state = GAME.setup(2, {}, seed)
        for entry in stored.values():
            state = GAME.apply(state, entry["seat"], entry["move"])
        assert GAME.result(state) is not None
        final = await store.load(room)
        assert final is not None and final.meta["status"] == "finished"
        _meta, stored_state, _ = restore(final.meta, final.snap_v, final.snapshot, final.log)
        assert stored_state == state
        for seat, c in enumerate(after_crash.players):
            assert c.view(room)["public"] == GAME.view(state, seat)["public"]
            assert c.view(room)["private"] == GAME.view(state, seat)["private"]
        # the sockets reconnected to the room's next node on the hash ring, which took the room: together again
        # (measured: all four on one node and no frame over Redis; a split would still leave the room with most)
        assert relayed <= 0.25 * frames, (landed, new_owner, relayed, frames)
        with capsys.disabled():
            print(
                f"\nrouting, {owner} killed after 20 moves: the 4 sockets reconnected to {', '.join(landed)}; the room "
                f"runs on {new_owner} ({t_back - t_kill:.2f} s after the kill); the game finished with {len(acked)} "
                f"acknowledged moves, all stored; after the crash {int(relayed)} of {int(frames)} frames crossed Redis"
            )
    finally:
        await store.close()
        for t in tables:
            await close_table(t)


def test_the_terminal_client_names_its_room_in_the_address() -> None:
    assert room_url("ws://h:1/ws", "r1") == "ws://h:1/ws?room=r1"
    assert room_url("wss://h/ws?x=1&room=old", "r2") == "wss://h/ws?x=1&room=r2"
    assert room_url("ws://h/ws", None) == "ws://h/ws"


def test_the_node_reads_the_room_a_socket_names_and_nothing_else() -> None:
    assert url_room("/ws?room=r1") == "r1"
    assert url_room("/ws?x=1&room=r2&room=r3") == "r2"
    assert url_room("/ws") is None and url_room("/ws?room=") is None and url_room("/ws?rooms=r1") is None
    assert url_room("/ws?room=" + "r" * 65) is None  # longer than any room id: names none
