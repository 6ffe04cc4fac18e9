"""Every request with an `id` gets exactly one answer (or its connection is closed) through real faults.

Real processes: a redis-server of the test's own and two `python -m server` nodes. The room runs on node a;
watchers on node b send `sync`, `game_log`, `join` (as spectators), `leave`, `chat_log` and lobby requests
(`list_rooms`), node b relaying the room's to node a, in a loop while two players play, during each fault: Redis
restarted, Redis stalled past the store's timeout, the owner paused (SIGSTOP) past its lease. A request still
unanswered after the relay deadline (5 s) plus a margin, on a connection still open, is a broken promise; the test
counts them and wants none. The stored log is then audited against every `ok` as in `test_faults.py`.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import signal
import time
from collections import Counter
from typing import Any

import pytest

from clients.client import Client, ServerError

from .procs import LOST, REDIS_SERVER, RedisProc
from .test_faults import cluster, seated, survive

pytestmark = [pytest.mark.skipif(REDIS_SERVER is None, reason="redis-server is not installed"), pytest.mark.faults]

#: the relay deadline (`--relay-timeout`, 5 s) and room for a loaded machine
ANSWER_WITHIN = 9.0


class Watcher:
    """A viewer on node b asking the room (on node a) things in a loop; counts outcomes."""

    def __init__(self, name: str, url: str, room: str, seed: int) -> None:
        self.name, self.url, self.room = name, url, room
        self.rng = random.Random(seed)
        self.outcomes: Counter[str] = Counter()
        self.unanswered: list[tuple[str, float]] = []
        self.client: Client | None = None
        self.token: str | None = None

    async def _connect(self) -> Client | None:
        c = Client(self.url)
        try:
            await asyncio.wait_for(c.connect(), 2)
            answer = await c.request("hello", timeout=ANSWER_WITHIN, name=self.name,
                                     **({"token": self.token} if self.token else {}))  # fmt: skip
            self.token = answer["token"]
            return c
        except (*LOST, ServerError):
            with contextlib.suppress(Exception):
                await asyncio.wait_for(c.close(), 1)
            return None

    async def ask(self, c: Client, t: str, **fields: Any) -> None:
        started = time.monotonic()
        try:
            await c.request(t, timeout=ANSWER_WITHIN, **fields)
            self.outcomes[f"{t}:ok"] += 1
        except ServerError as err:
            self.outcomes[f"{t}:{err.code}"] += 1
        except TimeoutError:
            if c.closed.is_set():
                self.outcomes[f"{t}:closed"] += 1
            else:
                self.unanswered.append((t, time.monotonic() - started))
        except LOST:
            self.outcomes[f"{t}:closed"] += 1

    async def run(self, stop: asyncio.Event) -> None:
        joined = False
        deadline = time.monotonic() + 240
        while not stop.is_set() and time.monotonic() < deadline:
            c = self.client
            if c is None or c.closed.is_set():
                self.client = c = await self._connect()
                joined = False
                if c is None:
                    await asyncio.sleep(0.25)
                    continue
            if not joined:
                await self.ask(c, "join", room=self.room, spectate=True)
                joined = self.room in c.views
                continue
            kind = self.rng.choice(["sync", "sync", "game_log", "list_rooms", "chat_log", "leave"])
            if kind == "leave":
                await self.ask(c, "leave", room=self.room)
                joined = False
            elif kind == "list_rooms":
                await self.ask(c, "list_rooms")
            else:
                await self.ask(c, kind, room=self.room)
            await asyncio.sleep(self.rng.uniform(0.02, 0.1))
        if self.client is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.client.close(), 2)


@pytest.mark.parametrize("fault", ["redis_restart", "redis_stall", "owner_paused"])
async def test_relayed_requests_are_all_answered_through_a_fault(fault: str) -> None:
    redis = RedisProc()
    redis.start()
    try:
        async with cluster(redis, 2) as c:
            room, players, eve = await seated(c, 310)
            watchers = [Watcher(f"w{i}", c.nodes[1].url, room, seed=i) for i in range(3)]
            stop = asyncio.Event()
            tasks = [asyncio.create_task(w.run(stop)) for w in watchers]

            async def run_fault() -> None:
                if fault == "redis_restart":
                    redis.kill()
                    await asyncio.sleep(3)
                    redis.start()
                elif fault == "redis_stall":
                    redis.stall(3)
                    await asyncio.sleep(3.5)
                else:
                    c.nodes[0].signal(signal.SIGSTOP)
                    await asyncio.sleep(6)
                    c.nodes[0].signal(signal.SIGCONT)
                    await asyncio.sleep(1)

            try:
                figures = await survive(c, room, players, eve, run_fault)
            finally:
                stop.set()
                await asyncio.wait_for(asyncio.gather(*tasks, return_exceptions=True), 60)
            outcomes = sum((w.outcomes for w in watchers), Counter())
            unanswered = [u for w in watchers for u in w.unanswered]
            print(f"\n{fault}: {figures}; relayed requests {dict(sorted(outcomes.items()))}; "
                  f"unanswered {unanswered}")  # fmt: skip
            if unanswered:
                print(c.logs())
            assert not unanswered, f"requests with an id left unanswered on an open connection: {unanswered}"
            assert sum(outcomes.values()) >= 30, outcomes
    finally:
        redis.stop()
