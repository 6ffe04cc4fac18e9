"""Two real nodes on Redis (a redis-server of the test's own) sharing a real PostgreSQL records database (a
database of this run's own, see tests/conftest.py): records outlive the node that wrote them.

Games of two accounts (v1.2: only accounts are rated) against server bots are played at the same time on both
nodes, so both nodes' game ends update the one rating row of the bots close together: every one of them is
counted (tests/store/test_records_sql.py makes the ends truly concurrent, where a read-modify-write without a
lock loses some). Then each node in turn is SIGKILLed: through the other one, the leaderboard, the history, a
room's chat, the lobby's chat and the replays of every finished game are all still there; the killed node is
started again and serves them too.
"""

from __future__ import annotations

import asyncio
import random
import secrets
from typing import Any

import pytest

from .procs import CHEAP, REDIS_SERVER, NodeProc, Player, RedisProc, _sign_up

pytestmark = [pytest.mark.skipif(REDIS_SERVER is None, reason="redis-server is not installed"), pytest.mark.faults]

PAIRS = 2  # rounds of two games ending together (one on each node)



async def _bot_game(p: Player, seed: int) -> str:
    assert p.client is not None
    answer = await p.client.request("create", game="expedition", seats=2, public=True, options={"seed": seed}, bots=1)
    room = str(answer["room"])
    await p.join(room, None)
    return room


async def _records(p: Player, rooms: list[str], chat_room: str) -> dict[str, Any]:
    """What a client reads of the records (through whichever node it is connected to)."""
    assert p.client is not None
    c = p.client
    board = await c.request("ratings", game="expedition")
    history = await c.request("history", game="expedition")
    said = await c.request("chat_log", room=chat_room)
    lobby = await c.request("chat_log")
    replays = {room: (await c.request("replay", room=room, v=10))["state"]["public"] for room in rooms}
    return {
        "board": {row["player"]: row["games"] for row in board["players"]},
        "history": sorted(g["room"] for g in history["games"]),
        "chat": [line["text"] for line in said["messages"]],
        "lobby": [line["text"] for line in lobby["messages"]],
        "replays": replays,
    }


async def test_records_on_postgresql_outlive_either_node_and_concurrent_game_ends_all_count(pg_url: str) -> None:
    redis = RedisProc()
    redis.start()
    prefix = f"mp{secrets.token_hex(3)}:"
    extra = ["--records", pg_url, *CHEAP]
    nodes = [NodeProc(f"rec-{i}", redis.url, prefix, extra=extra) for i in range(2)]
    players: list[Player] = []
    try:
        for node in nodes:
            node.start()
        urls = [n.url for n in nodes]
        ann, bob = Player("ann", urls), Player("bob", urls)
        players = [ann, bob]
        await _sign_up(ann, 0)  # accounts, each signed up on its own node (the accounts are in the shared records)
        await _sign_up(bob, 1)
        rooms: list[str] = []
        for pair in range(PAIRS):  # ann's game on node 0, bob's on node 1, played at once to their ends
            mine = [await _bot_game(p, 400 + 10 * pair + i) for i, p in enumerate(players)]
            await asyncio.gather(
                *(p.play(r, random.Random(pair), lambda: False) for p, r in zip(players, mine, strict=True))
            )
            for p, r in zip(players, mine, strict=True):
                assert p.client is not None and p.client.views[r].state.get("result"), f"{r} did not end"
            rooms += mine
        assert ann.client is not None and bob.client is not None
        await ann.client.request("chat", room=rooms[0], text="well played")
        await bob.client.request("chat", text="hello lobby")
        want = {
            "board": {ann.client.player: PAIRS, bob.client.player: PAIRS, "bot": 2 * PAIRS},
            "history": sorted(rooms),
            "chat": ["well played"],
            "lobby": ["hello lobby"],
        }
        first: dict[str, Any] = {}
        for _ in range(50):  # the archive is written just after each game's last move
            first = await _records(ann, rooms, rooms[0])
            if first["board"] == want["board"] and first["history"] == want["history"]:
                break
            await asyncio.sleep(0.1)
        assert {k: first[k] for k in want} == want, "a concurrent game end was lost"
        for dead in (0, 1):
            nodes[dead].kill()
            survivor = Player(f"reader{dead}", [nodes[1 - dead].url])
            players.append(survivor)
            await survivor.connect(0)
            got = await _records(survivor, rooms, rooms[0])
            assert {k: got[k] for k in want} == want, f"records lost with node {dead} killed"
            assert got["replays"] == first["replays"]
            nodes[dead].start()
            again = Player(f"again{dead}", [nodes[dead].url])
            players.append(again)
            await again.connect(0)
            back = await _records(again, rooms, rooms[0])
            assert {k: back[k] for k in want} == want and back["replays"] == first["replays"]
    finally:
        for p in players:
            await p.close()
        for node in nodes:
            node.stop()
        redis.stop()
