"""`python -m tests.faults.chaos`: seeded fault schedules against three nodes and a Redis of their own.

Each schedule starts a fresh redis-server (append-only, fsync always) and three `python -m server` nodes,
creates one 2-seat room of every game on a random node, seats players on random nodes and has them play
random options of their prompts (resending some moves on purpose, with the version they were made at,
which must be refused as `stale`), while a schedule drawn from the seed SIGKILLs and SIGTERMs nodes
(restarting them), SIGSTOPs one until its leases lapse, stalls Redis with DEBUG SLEEP and kills and
restarts Redis. At the end every node runs again and every room is audited (`procs.audit`): each
acknowledged move present at its version exactly once, versions rising without a doubled version, final
views equal to a replay of the log, and no client ever saw a version go down.

    python -m tests.faults.chaos --schedules 100 --seed 1
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import secrets
import signal
import sys
import time
from typing import Any

from .procs import NodeProc, Player, RedisProc, audit

GAMES = ("expedition", "classic", "voyages", "khan")


def draw_schedule(rng: random.Random, nodes: int) -> list[tuple[float, str, int, float]]:
    """(at seconds, fault, node, length) events: two to four of them over about eight seconds."""
    kinds = ["kill", "term", "stop", "stall", "redis_restart"]
    events = []
    at = 1.0
    for _ in range(rng.randint(2, 4)):
        at += rng.uniform(0.5, 2.5)
        kind = rng.choice(kinds)
        length = {"kill": rng.uniform(0.5, 2), "term": rng.uniform(0.2, 1.5), "stop": rng.uniform(2.5, 4.5),
                  "stall": rng.uniform(1, 3), "redis_restart": rng.uniform(1, 4)}[kind]  # fmt: skip
        events.append((round(at, 2), kind, rng.randrange(nodes), round(length, 2)))
    return events


async def run_fault(kind: str, node: NodeProc, redis: RedisProc, length: float) -> None:
    if kind == "kill":
        node.kill()
        await asyncio.sleep(length)
        node.start(wait=False)
    elif kind == "term":
        with contextlib.suppress(AssertionError):
            await node.terminate()
        await asyncio.sleep(length)
        node.start(wait=False)
    elif kind == "stop":
        node.signal(signal.SIGSTOP)
        await asyncio.sleep(length)
        node.signal(signal.SIGCONT)
    elif kind == "stall":
        redis.stall(length)
        await asyncio.sleep(length)
    elif kind == "redis_restart":
        redis.kill()
        await asyncio.sleep(length)
        redis.start()


async def schedule(seed: int, verbose: bool = False) -> dict[str, Any]:
    rng = random.Random(seed)
    redis = RedisProc()
    redis.start()
    prefix = f"mpc:{secrets.token_hex(4)}:"
    nodes = [NodeProc(f"node-{chr(97 + i)}", redis.url, prefix) for i in range(3)]
    players: list[Player] = []
    rooms: dict[str, list[Player]] = {}
    events = draw_schedule(rng, len(nodes))
    try:
        for n in nodes:
            n.start(wait=False)
        for n in nodes:
            deadline = time.monotonic() + 30
            while n.health()[0] != 200 and time.monotonic() < deadline:
                await asyncio.sleep(0.1)
        urls = [n.url for n in nodes]
        for game in GAMES:
            seated = [Player(f"{game}-{i}", urls, node=rng.randrange(3)) for i in range(2)]
            for p in seated:
                await p.connect()
            assert seated[0].client is not None
            room = await seated[0].client.create(game, 2, {"seed": rng.randrange(2**31)})
            for p in seated:
                await p.join(room, None)
            rooms[room] = seated
            players.extend(seated)
        stop = asyncio.Event()
        tasks = [
            asyncio.create_task(p.play(room, random.Random(rng.random()), stop.is_set, resend=0.1))
            for room, seated in rooms.items()
            for p in seated
        ]
        t0 = time.monotonic()
        for at, kind, which, length in events:
            await asyncio.sleep(max(0.0, t0 + at - time.monotonic()))
            if verbose:
                print(f"  {time.monotonic() - t0:5.2f}s {kind} {nodes[which].name} {length}s", flush=True)
            await run_fault(kind, nodes[which], redis, length)
        for n in nodes:  # everything runs again for the end of the schedule
            if n.proc is None or n.proc.poll() is not None:
                n.start(wait=False)
            else:
                n.signal(signal.SIGCONT)
        await asyncio.sleep(4)
        stop.set()
        for t in tasks:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(t, 20)
        failures = [t.exception() for t in tasks if t.done() and t.exception() is not None]
        if failures:
            raise failures[0]  # type: ignore[misc]
        acks = 0
        for room, seated in rooms.items():
            figures = await audit(redis.url, prefix, room, seated)
            acks += figures["acks"]
        resent = sum(p.resent for p in players)
        return {"seed": seed, "events": events, "acks": acks, "resent": resent,
                "errors": _merge(p.errors for p in players)}  # fmt: skip
    except BaseException:
        if verbose:
            for n in nodes:
                print(f"--- {n.name}\n{n.log()[-4000:]}")
        raise
    finally:
        for p in players:
            await p.close()
        for n in nodes:
            n.stop()
        redis.stop()


def _merge(counts: Any) -> dict[str, int]:
    out: dict[str, int] = {}
    for c in counts:
        for k, v in c.items():
            out[k] = out.get(k, 0) + v
    return out


async def main_async(schedules: int, seed: int, verbose: bool) -> int:
    passed = 0
    total_acks = total_resent = 0
    started = time.monotonic()
    for i in range(schedules):
        s = seed + i
        try:
            result = await schedule(s, verbose)
        except Exception as err:  # noqa: BLE001 - a failed audit is the finding: report it and stop
            print(f"schedule {s}: FAILED: {type(err).__name__}: {err}", flush=True)
            print(f"{passed} of {i + 1} schedules passed before the failure", flush=True)
            return 1
        passed += 1
        total_acks += result["acks"]
        total_resent += result["resent"]
        kinds = ",".join(e[1] for e in result["events"])
        print(f"schedule {s}: ok  {result['acks']} acknowledged moves, {result['resent']} resent (none applied), "
              f"faults {kinds}, errors {result['errors']}", flush=True)  # fmt: skip
    minutes = (time.monotonic() - started) / 60
    print(f"{passed} of {schedules} schedules in a row: 0 acknowledged moves lost, 0 applied twice; "
          f"{total_acks} acknowledged moves, {total_resent} deliberate resends, {minutes:.1f} min")  # fmt: skip
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="chaos", description=__doc__.split("\n\n")[0])
    ap.add_argument("--schedules", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("-v", "--verbose", action="store_true")
    a = ap.parse_args(argv)
    return asyncio.run(main_async(a.schedules, a.seed, a.verbose))


if __name__ == "__main__":
    sys.exit(main())
