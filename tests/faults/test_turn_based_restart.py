"""A turn-based game over (scaled) days with real processes: one `python -m server` node on a SQLite file, its clock
scaled so that an hour of the room's clock lasts 0.36 s. Two players make some moves and go away; the node is
SIGKILLed and, two (scaled) days later, started again on the same file; the late seat is marked late (its time bank
spent, the other seat's bank as it was stored), nothing was played for it, the room was not closed although its
players were away longer than `close_away_after`; both players come back with their tokens, `my_games` says whose
turn it is, and they play the game to its end. The stored log is audited against every `ok`."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

from .procs import NodeProc, Player, audit

HOUR = 3600
SCALE = 0.0001


async def test_a_turn_based_game_outlives_days_away_and_a_crash(tmp_path: Path) -> None:
    url = f"sqlite://{tmp_path}/data/marcopolo.db"
    extra = ["--clock-scale", str(SCALE), "--close-away-after", "600", "--close-empty-after", "0"]
    node = NodeProc("solo", url, "mp:", extra=extra)
    again = NodeProc("solo-again", url, "mp:", extra=extra)
    again.port = node.port
    node.start()
    players: list[Player] = []
    try:
        ann, bob = Player("ann", [node.url]), Player("bob", [node.url])
        players = [ann, bob]
        for p in players:
            await p.connect()
        assert ann.client is not None
        room = await ann.client.create_room("expedition", 2, options={"seed": 77}, mode="turn_based",
                                            turn_seconds=HOUR, on_expiry="wait",
                                            time_bank_seconds=6 * HOUR)  # fmt: skip
        for p in players:
            await p.join(room, None)
        def four_moves() -> bool:
            return sum(len(p.acks) for p in players) >= 4

        await asyncio.gather(*(p.play(room, random.Random(i), four_moves) for i, p in enumerate(players)))
        assert ann.client is not None
        banks = ann.client.views[room].state["clock"]["bank"]
        for p in players:
            await p.close()
        node.kill()  # a crash while both are away
        await asyncio.sleep(12 * HOUR * SCALE)
        again.start()
        await asyncio.sleep(36 * HOUR * SCALE)  # two days away in all
        for p in players:
            await p.connect()
            await p.join(room, None)
        assert ann.client is not None and bob.client is not None
        view = ann.client.views[room].state
        assert view["status"] == "playing" and "closed" not in view
        assert view["turn"] == {"mode": "turn_based", "turn_seconds": HOUR, "on_expiry": "wait",
                                "time_bank_seconds": 6 * HOUR}  # fmt: skip
        late = view["clock"].get("late")
        assert late and len(late) == 1, view["clock"]
        assert view["clock"]["bank"][late[0]] == 0 and view["clock"]["bank"][1 - late[0]] == banks[1 - late[0]]
        mine = {r["room"]: r for r in (await ann.client.request("my_games"))["rooms"]}
        assert mine[room]["late"] is (ann.seat in late) and mine[room]["your_turn"] is (ann.seat in late)
        await asyncio.gather(*(p.play(room, random.Random(10 + i), lambda: False) for i, p in enumerate(players)))
        assert ann.client.views[room].state.get("result"), "the game did not end"
        figures = await audit(url, "mp:", room, players)
        assert figures["acks"] > 4
    finally:
        for p in players:
            await p.close()
        node.stop()
        again.stop()
