"""A Redis Cluster's own failover: the primary serving a room's slot is SIGKILLed mid-game.

Every process is real and on free loopback ports: a cluster of six `redis-server` (three primaries, a replica each;
append-only with fsync always, `cluster-node-timeout` 1 s, `cluster-require-full-coverage no`) and two
`python -m server` nodes on `redis+cluster://...` with `--wait-replicas 1`, so a move is acknowledged only once the
primary's replica has it. A player on each node plays; the primary of the room's slot is SIGKILLed; the cluster
promotes its replica and the nodes follow it (MOVED, a refreshed slot map, sharded pub/sub subscribed again). The
killed server comes back as a replica of the new primary (as a replaced machine would), so WAIT can be satisfied
again. Meanwhile moves are refused with the retryable `unavailable` (or settled); at the end the log on the new
primary is audited against every `ok`. Every game is played so.

Not in the default run (each game about 20 s): `make cluster-faults` runs them CLUSTER_FAULT_RUNS times in a row.
"""

from __future__ import annotations

import asyncio
import os
import secrets
import time

import pytest

from server.games import all_games

from .cluster_procs import REDIS_CLI, REDIS_SERVER, LocalRedisCluster, command
from .procs import NodeProc, Player, _wait, audit
from .test_faults import play_through

pytestmark = [
    pytest.mark.cluster_faults,
    pytest.mark.skipif(REDIS_SERVER is None or REDIS_CLI is None, reason="redis-server and redis-cli are needed"),
    pytest.mark.skipif(
        not os.environ.get("MP_CLUSTER_FAULTS"), reason="long: `make cluster-faults` (MP_CLUSTER_FAULTS=1) runs it"
    ),
]


@pytest.mark.parametrize("game", sorted(all_games()))
async def test_a_primary_killed_mid_game_fails_over_and_no_acknowledged_move_is_lost(game: str) -> None:
    cluster = LocalRedisCluster(fsync="always")
    prefix = f"mpk:{secrets.token_hex(4)}:"
    nodes = [NodeProc(f"node-{n}", cluster.url, prefix, extra=["--wait-replicas", "1"]) for n in "ab"]
    players: list[Player] = []
    timing: dict[str, float] = {}
    try:
        cluster.start()
        for node in nodes:
            node.start(wait=False)
        _wait(lambda: all(n.health()[0] == 200 for n in nodes), 30, "the nodes were not healthy")
        urls = [n.url for n in nodes]
        ann, bob = Player("ann", urls, node=0), Player("bob", urls, node=1)
        players = [ann, bob]
        for p in players:
            await p.connect()
        assert ann.client is not None
        room = await ann.client.create(game, 2, {"seed": 501})
        await ann.join(room, None)
        await bob.join(room, None)
        primary = cluster.owner_of(f"{prefix}room:{{{room}}}:meta")
        replica = cluster.replica_of(primary)
        assert replica is not None, "the room's primary has no replica"

        async def fail_over() -> None:
            primary.kill()
            killed = time.monotonic()
            deadline = killed + 30
            while replica.role() != "master" and time.monotonic() < deadline:
                await asyncio.sleep(0.1)
            assert replica.role() == "master", "the cluster did not promote the replica"
            timing["promoted"] = time.monotonic() - killed
            # the killed machine comes back (its nodes.conf and data): a replica of the new primary, so WAIT 1
            # can succeed again
            primary.start()
            while cluster.replicas_online(replica) < 1 and time.monotonic() < deadline:
                await asyncio.sleep(0.1)
            assert cluster.replicas_online(replica) >= 1, "the killed primary did not come back as a replica"
            timing["replica_back"] = time.monotonic() - killed

        try:
            await play_through(room, players, fail_over, before=10, after=10, seed=12)
            figures = await audit(cluster.url, prefix, room, players)
        except BaseException:
            for node in nodes:  # what each node saw, for a failure on a loaded machine
                print(f"--- {node.name}\n{node.log()[-4000:]}")
            print(f"timing {timing}\n{cluster.logs()}")
            raise
        assert "cluster_state:ok" in command(replica.port, "CLUSTER", "INFO")
        assert figures["acks"] >= 20
        refused = {code: n for p in players for code, n in p.errors.items()}
        print(f"cluster failover ({game}): {timing}; {figures}; refusals {refused}")
    finally:
        for p in players:
            await p.close()
        for node in nodes:
            node.stop()
        cluster.stop()
