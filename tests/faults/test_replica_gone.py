"""`--wait-replicas 1` and the only replica gone: every request answered at once, reads served, play resumes.

Real processes: a Redis primary (append-only), its one replica and three Sentinels (the topology of
`test_sentinel.py`), one `python -m server` node on `redis+sentinel://` with `--wait-replicas 1`. Mid-game the
replica is SIGKILLed. The move in flight then can be stored on the primary without a replica confirming it: it
is never answered `ok` (its connection is closed, 1012, and the player resyncs). Every later move is refused
`unavailable` within a second (the node refuses writes until the replicas confirm again), the other seat's
`sync` is served past the lease, `/healthz` answers 503 with the reason. The replica comes back: moves are
acknowledged again, and the audit finds every `ok` stored once, and no refused move applied.
"""

from __future__ import annotations

import asyncio
import json
import random
import secrets
import time
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed

from clients.client import ServerError

from .procs import LOST, REDIS_SERVER, Ack, NodeProc, Player, _wait, audit
from .test_sentinel import topology

pytestmark = pytest.mark.skipif(REDIS_SERVER is None, reason="redis-server is not installed")


async def _move_once(room: str, players: list[Player], rng: random.Random) -> tuple[str, float]:
    """The seat to move sends one move; its outcome (`ok`, an error code, `closed`) and how long it took."""
    for _ in range(200):
        for p in players:
            c = p.client
            assert c is not None
            if c.closed.is_set():
                await p.connect()
                await p.join(room, p.seat)
                c = p.client
                assert c is not None
            rv = c.views.get(room)
            prompt = rv.state.get("prompt") if rv is not None else None
            if not prompt:
                continue
            move, made_at = rng.choice(prompt["options"]), rv.v
            started = time.monotonic()
            try:
                answer = await c.request("move", timeout=10, room=room, move=move, v=made_at)
            except ServerError as err:
                p.count(err.code)
                if err.code in ("unavailable", "stale"):
                    p.refused.append(Ack(made_at, p.seat, move))
                return err.code, time.monotonic() - started
            except (*LOST, ConnectionClosed):
                p.unknown.append(Ack(made_at, p.seat, move))
                return "closed", time.monotonic() - started
            p.acks.append(Ack(int(answer["v"]), p.seat, move))
            return "ok", time.monotonic() - started
        await asyncio.sleep(0.05)
    raise AssertionError("nobody had a prompt")


async def test_the_only_replica_gone_refuses_moves_at_once_serves_reads_and_play_resumes() -> None:
    with topology() as t:
        prefix = f"mpr:{secrets.token_hex(4)}:"
        node = NodeProc("node-r", t.url, prefix, extra=["--wait-replicas", "1"])
        players: list[Player] = []
        try:
            node.start()
            ann, bob = Player("ann", [node.url]), Player("bob", [node.url])
            players = [ann, bob]
            for p in players:
                await p.connect()
            assert ann.client is not None and bob.client is not None
            room = await ann.client.create("expedition", 2, {"seed": 77})
            await ann.join(room, None)
            await bob.join(room, None)
            rng = random.Random(5)
            for _ in range(6):
                outcome, _took = await _move_once(room, players, rng)
                assert outcome == "ok", outcome

            primary, replica = t.ports
            t.servers[replica].kill()
            outcomes: list[tuple[str, float]] = [await _move_once(room, players, rng) for _ in range(8)]
            print(f"replica gone: {[(o, round(s, 3)) for o, s in outcomes]}")
            assert all(o in ("unavailable", "closed") for o, _ in outcomes), outcomes
            assert sum(o == "closed" for o, _ in outcomes) <= 1, outcomes
            # the first may wait for WAIT's own timeout (1 s); the rest are refused without writing
            assert outcomes[0][1] < 2.0 and all(s < 1.0 for _o, s in outcomes[1:]), outcomes

            await asyncio.sleep(2.5)  # past the lease: the node still holds the room (renewals need no replica)
            for p in players:
                c = p.client
                assert c is not None
                started = time.monotonic()
                snap: dict[str, Any] = await c.request("sync", timeout=5, room=room)
                assert time.monotonic() - started < 1.0 and snap["v"] == c.views[room].v
            status, body = node.health()
            assert status == 503 and json.loads(body)["status"] == "store_refusing_writes", (status, body)

            t.server(replica, primary).start()
            _wait(lambda: t.replicas_online(primary) == 1, 20, "the replica did not come back")
            oks = 0
            deadline = time.monotonic() + 30
            while oks < 6 and time.monotonic() < deadline:
                outcome, _took = await _move_once(room, players, rng)
                oks += outcome == "ok"
                if outcome == "unavailable":
                    await asyncio.sleep(0.1)
            assert oks >= 6, "play did not resume once the replica was back"
            _wait(lambda: node.health()[0] == 200, 15, "the node stayed unhealthy")
            figures = await audit(t.url, prefix, room, players)
            print(f"audit: {figures}")
        except BaseException:
            print(f"--- node\n{node.log()[-4000:]}")
            raise
        finally:
            for p in players:
                await p.close()
            node.stop()
