"""Time banks and the clock's own moves (wire contract v1.2, issue 29) over real sockets, clocks scaled.

A room created with `time_bank_seconds` gives each person's seat a bank: past the per-move deadline the bank runs
down, and only once it is empty does the expiry rule apply (a turn-based room's `on_expiry`, a live room's move
by the clock); a move after the deadline pays the overrun from the bank; in a phase where several seats move at
once each one runs out at its own deadline plus bank; the banks survive a restart on the same store. A move the
clock makes for a late seat is marked as the clock's: in the view's `clock_moves` (with the public log events it
added), in its stored log entry (`by`), and in a finished game's replay, which the fairness check still accepts."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import pytest

from clients.client import Client, ServerError
from clients.replay_check import check, fetch
from server.net.app import App
from server.store import MemoryStore

from .conftest import start_app

HOUR = 3600
#: an hour of a room's clock lasts 0.36 s
SCALE = 0.0001
#: slack for timers and scheduling (s)
SLACK = 0.08


def _now() -> float:
    return time.time() * 1000


class Node:
    """An app on a memory store that outlives it (so a test can restart the app), and its clients."""

    def __init__(self, **settings: Any) -> None:
        self.store = MemoryStore(trim_log=False)
        self.settings = {"clock_scale": SCALE, "close_away_after": 600, "close_empty_after": 0, "bot_delay": 0.0,
                         **settings}  # fmt: skip
        self.app: App | None = None
        self.clients: list[Client] = []

    async def start(self) -> App:
        self.app = await start_app(self.store, **self.settings)
        return self.app

    async def restart(self) -> App:
        assert self.app is not None
        real_close = self.store.close

        async def keep_open() -> None:
            return None

        self.store.close = keep_open  # type: ignore[method-assign]
        try:
            await self.app.stop()
        finally:
            self.store.close = real_close  # type: ignore[method-assign]
        return await self.start()

    async def client(self, name: str, token: str | None = None) -> Client:
        assert self.app is not None
        c = Client(f"ws://127.0.0.1:{self.app.port}/ws")
        await c.connect()
        self.clients.append(c)
        await c.hello(name, token)
        return c

    async def close(self) -> None:
        for c in self.clients:
            await c.close()
        if self.app is not None:
            await self.app.stop()


@pytest.fixture
async def node() -> AsyncIterator[Callable[..., Awaitable[Node]]]:
    made: list[Node] = []

    async def make(**settings: Any) -> Node:
        n = Node(**settings)
        await n.start()
        made.append(n)
        return n

    yield make
    for n in made:
        await n.close()


async def _room(n: Node, game: str = "expedition", **create: Any) -> tuple[str, list[Client]]:
    """Ann and Bob seated in a new 2-seat room that started."""
    ann, bob = await n.client("Ann"), await n.client("Bob")
    room = await ann.create_room(game, 2, options={"seed": 5}, **create)
    await ann.join(room)
    await bob.join(room)
    for c in (ann, bob):
        await c.wait_for(room, lambda s: s["status"] == "playing" and "clock" in s)
    return room, [ann, bob]


def _mover(room: str, cs: list[Client]) -> Client:
    return next(c for c in cs if (c.view(room).get("prompt") or {}).get("options"))


async def _code(coro: Awaitable[Any]) -> str:
    try:
        await coro
    except ServerError as err:
        return err.code
    return "ok"


async def test_a_seat_with_a_bank_outlives_its_deadline_and_is_late_once_the_bank_is_spent(
    node: Callable[..., Awaitable[Node]],
) -> None:
    n = await node()
    room, (ann, bob) = await _room(n, mode="turn_based", turn_seconds=HOUR, on_expiry="wait",
                                   time_bank_seconds=2 * HOUR)  # fmt: skip
    view = ann.view(room)
    rule = {"mode": "turn_based", "turn_seconds": HOUR, "on_expiry": "wait", "time_bank_seconds": 2 * HOUR}
    assert view["turn"] == rule
    clock = view["clock"]
    bank = 2 * HOUR * 1000 * SCALE  # 720 ms
    assert clock["bank"] == [bank, bank] and clock == bob.view(room)["clock"]
    (seat,) = clock["seats"]
    v0 = ann.views[room].v
    # past the per-move deadline, the bank runs: the seat is not late, nothing was played or marked
    await asyncio.sleep(max(0.0, (clock["deadline"] - _now()) / 1000) + 0.25)
    assert ann.views[room].v == v0 and "late" not in ann.view(room)["clock"]
    # once deadline + bank passed, the seat is late and its bank is empty
    await ann.wait_for(room, lambda s: seat in (s.get("clock") or {}).get("late", []), timeout=5)
    assert _now() >= clock["deadline"] + bank - 30
    assert ann.view(room)["clock"]["bank"][seat] == 0 and ann.view(room)["clock"]["bank"][1 - seat] == bank
    assert "clock_moves" not in ann.view(room)  # waiting plays nothing for the seat


async def test_a_move_after_the_deadline_pays_the_overrun_and_the_banks_survive_a_restart(
    node: Callable[..., Awaitable[Node]],
) -> None:
    n = await node()
    room, players = await _room(n, mode="turn_based", turn_seconds=HOUR, on_expiry="bot", time_bank_seconds=4 * HOUR)
    bank = 4 * HOUR * 1000 * SCALE  # 1440 ms
    first = _mover(room, players)
    seat = first.view(room)["you"]
    deadline = first.view(room)["clock"]["deadline"]
    await asyncio.sleep(max(0.0, (deadline - _now()) / 1000) + 0.4)  # 0.4 s (1.1 scaled hours) into the bank
    sent = _now()
    await first.move(room, first.view(room)["prompt"]["options"][0])
    acked = _now()
    clock = first.view(room)["clock"]
    assert seat not in clock["seats"] or clock["deadline"] > deadline  # its own deadline is new, if it moves again
    left = clock["bank"][seat]
    assert bank - (acked - deadline) - 5 <= left <= bank - (sent - deadline) + 5, (left, sent - deadline)
    assert clock["bank"][1 - seat] == bank
    assert "clock_moves" not in first.view(room)  # the player's own move
    # the node restarts: the stored banks and deadline go on
    tokens = [(p.player, p.token) for p in players]
    before = first.view(room)["clock"]
    await n.restart()
    back = [await n.client(name, token) for name, token in zip(("Ann", "Bob"), [t for _p, t in tokens], strict=True)]
    for c in back:
        await c.join(room)
    assert back[0].view(room)["clock"] == before
    # nobody moves: the clock plays the seat to move, no sooner than its deadline plus its bank
    late = before["seats"][0]
    ends = before["deadline"] + before["bank"][late]
    await back[0].wait_for(room, lambda s: bool(s.get("clock_moves")), timeout=10)
    assert _now() >= ends - 30
    moved = back[0].view(room)["clock_moves"][0]
    assert moved["seat"] == late and moved["by"] == "expired" and moved["v"] <= back[0].views[room].v
    # the clock's move is in the stored log as the clock's; the player's own move is not marked
    entries = await n.store.full_log(room)
    marked = [e for e in entries if e["k"] == "move" and e.get("by")]
    assert marked and marked[0]["v"] == moved["v"] and marked[0]["by"] == "expired" and marked[0]["seat"] == late
    assert not any(e.get("by") for e in entries if e["k"] == "move" and e["v"] < moved["v"])
    # the clock's bank for that seat is spent; the clock runs on with the per-move deadline only
    clock = back[0].view(room).get("clock")
    if clock is not None and late in clock["seats"]:
        assert clock["bank"][late] == 0


async def test_in_a_phase_where_both_seats_move_each_runs_out_at_its_own_deadline_plus_bank(
    node: Callable[..., Awaitable[Node]],
) -> None:
    n = await node()
    room, players = await _room(n, "khan", mode="turn_based", turn_seconds=HOUR, on_expiry="wait",
                                time_bank_seconds=4 * HOUR)  # fmt: skip
    bank = 4 * HOUR * 1000 * SCALE  # 1440 ms
    # the characters are chosen one at a time (seat 1, then seat 0); the second chooser spends 0.6 s of its bank
    spender = None
    for step in range(4):
        clock = players[0].view(room)["clock"]
        if len(clock["seats"]) > 1:
            break
        mover = _mover(room, players)
        if step == 1:
            await asyncio.sleep(max(0.0, (clock["deadline"] - _now()) / 1000) + 0.6)
            spender = mover.view(room)["you"]
        v = players[0].views[room].v
        await mover.move(room, mover.view(room)["prompt"]["options"][0])
        for p in players:
            await p.wait_for(room, lambda s, v=v, p=p: p.views[room].v > v)
    clock = players[0].view(room)["clock"]
    assert sorted(clock["seats"]) == [0, 1], clock
    assert spender is not None
    other = 1 - spender
    spent = clock["bank"][spender]
    assert spent < bank - 500 and clock["bank"][other] == bank, clock
    deadline = clock["deadline"]
    # past the deadline, nobody is late: both banks run
    await asyncio.sleep(max(0.0, (deadline - _now()) / 1000) + 0.15)
    assert "late" not in players[0].view(room)["clock"]
    # the seat with less bank left is late first, at its own time; the other seat still has time
    await players[0].wait_for(room, lambda s: spender in s["clock"].get("late", []), timeout=5)
    at = _now()
    assert at >= deadline + spent - 30
    assert other not in players[0].view(room)["clock"].get("late", [])
    assert at < deadline + bank, "the other seat's bank runs longer"
    await players[0].wait_for(room, lambda s: other in s["clock"].get("late", []), timeout=5)
    assert _now() >= deadline + bank - 30
    assert players[0].view(room)["clock"]["bank"] == [0, 0]


async def test_a_live_clock_plays_a_seat_after_its_bank_and_marks_its_moves_as_the_clocks(
    node: Callable[..., Awaitable[Node]],
) -> None:
    """A live room (10 s a move, 30 s of bank; scaled: 20 ms and 60 ms) where nobody moves: the first expiry comes
    after deadline plus bank, the bank spent; every clock move is in `clock_moves` with the log events
    it added, in the stored log with `by`, and in the finished game's replay, which is still a fair game."""
    n = await node(clock_scale=0.002)
    room, (ann, bob) = await _room(n, turn_seconds=10, time_bank_seconds=30, max_expiries=100)
    clock = ann.view(room)["clock"]
    assert clock["bank"] == [60, 60]
    (seat,) = clock["seats"]
    await ann.wait_for(room, lambda s: bool(s.get("clock_moves")), timeout=5)
    assert _now() >= clock["deadline"] + 60 - 15
    first = ann.view(room)["clock_moves"][0]
    assert first["seat"] == seat and first["by"] == "expired"
    await ann.wait_for(room, lambda s: s["result"] is not None, timeout=60)
    view = ann.view(room)
    moves = view["clock_moves"]
    # (after 100 expiries in a row the clock's bot plays the seat: `auto`)
    assert len(moves) == 16 and {m["by"] for m in moves} <= {"expired", "auto"}
    assert all(m["n_from"] <= m["n_to"] for m in moves if "n_from" in m)
    assert [m["v"] for m in moves] == sorted(m["v"] for m in moves)
    # every line the view's log shows for such a move lies in its range, and those are the clock's
    numbers = {ev["n"] for ev in view["public"]["log"]}
    spans = [range(m["n_from"], m["n_to"] + 1) for m in moves if "n_from" in m]
    assert any(numbers & set(s) for s in spans)
    # the stored log: each move the clock made carries `by`; nobody else moved
    entries = [e for e in await n.store.full_log(room) if e["k"] == "move"]
    assert entries and all(e.get("by") in ("expired", "auto") for e in entries)
    assert {e["by"] for e in entries} == {"expired", "auto"}
    assert {e["v"] for e in entries[-len(moves) :]} == {m["v"] for m in moves}
    # the replay: the same marks at the last version; the fairness check re-runs the game from its seed
    assert n.app is not None
    last = await ann.replay(room, ann.views[room].v)
    assert last["state"]["clock_moves"] == moves
    got = await fetch(f"ws://127.0.0.1:{n.app.port}/ws", room)
    verdict = check(got["game"], got["seats"], got["options"], got["seed"], got["views"])
    assert verdict.fair, verdict.why


async def test_time_bank_bounds(node: Callable[..., Awaitable[Node]]) -> None:
    n = await node()
    ann = await n.client("Ann")
    day = 86400
    assert await _code(ann.create_room("expedition", 2, time_bank_seconds=60)) == "bad_message"  # no clock
    assert await _code(ann.create_room("expedition", 2, turn_seconds=60, time_bank_seconds=day + 1)) == "bad_message"
    assert await _code(ann.create_room("expedition", 2, mode="turn_based", time_bank_seconds=14 * day + 1)) == (
        "bad_message"
    )
    assert await _code(ann.create_room("expedition", 2, mode="turn_based", time_bank_seconds=-1)) == "bad_message"
    assert await _code(ann.create_room("expedition", 2, turn_seconds=60, time_bank_seconds="60")) == "bad_message"
    ok = [await ann.create_room("expedition", 2, turn_seconds=60, time_bank_seconds=day),
          await ann.create_room("expedition", 2, mode="turn_based", time_bank_seconds=14 * day),
          await ann.create_room("expedition", 2, mode="turn_based", time_bank_seconds=0)]  # fmt: skip
    for room in ok:
        await ann.join(room, spectate=True)
    assert ann.view(ok[1])["turn"]["time_bank_seconds"] == 14 * day
    assert "time_bank_seconds" not in ann.view(ok[2])["turn"]  # 0: no bank


async def test_my_games_and_the_turn_signal_name_when_the_seat_runs_out_bank_included(
    node: Callable[..., Awaitable[Node]],
) -> None:
    """`my_games.out_at` (v1.2 addition) is the deadline plus the seat's bank; without a bank it is the deadline;
    the seat that runs out first comes first among the rooms where it is the player's turn."""
    from server.node.signals import email_message, payload

    n = await node()
    room, players = await _room(n, mode="turn_based", turn_seconds=HOUR, on_expiry="wait", time_bank_seconds=HOUR)
    first = _mover(room, players)
    seat = first.view(room)["you"]
    clock = first.view(room)["clock"]
    (row,) = [r for r in await first.my_games() if r["room"] == room]
    assert row["your_turn"] and row["deadline"] == clock["deadline"]
    assert row["out_at"] == clock["deadline"] + clock["bank"][seat] == clock["deadline"] + HOUR * 1000 * SCALE
    other = next(c for c in players if c is not first)
    (theirs,) = [r for r in await other.my_games() if r["room"] == room]
    assert theirs["deadline"] is None and theirs["out_at"] is None  # no clock runs for the seat that waits
    # the signal's payload and its e-mail name both times
    assert n.app is not None
    meta = await n.app.hub.meta_of(room)
    assert meta is not None
    data = payload(meta, seat, first.views[room].v, "https://mp.example", int(_now()), SCALE)
    assert data["deadline"] == row["deadline"] and data["out_at"] == row["out_at"]
    text = email_message("mp@example.org", "a@example.org", data).get_content()
    assert "time bank lasts until" in text
    # a room without a bank: out_at is the deadline itself
    room2, players2 = await _room(n, mode="turn_based", turn_seconds=HOUR, on_expiry="wait")
    mover2 = _mover(room2, players2)
    (row2,) = [r for r in await mover2.my_games() if r["room"] == room2]
    assert row2["out_at"] == row2["deadline"] is not None
