"""A node whose PostgreSQL records database is SIGKILLed and restarted: games go on, nothing is lost or doubled.

Real processes: a PostgreSQL of the test's own (`initdb` in a temp dir, `postgres` on a free loopback port, see
`PgProc`) and one `python -m server` node keeping its rooms in a SQLite file and its records (ratings, the
archive of finished games, chat) in that PostgreSQL, every records operation bounded by `--records-timeout 1`.

ann plays a game against a server bot to its end: the leaderboard and the history show it. Then PostgreSQL is
SIGKILLed (the postmaster and its backends at once). ann plays a second bot game to its end and no move is held
up by the records (every move's round trip under MOVE_BOUND: the archive and rating update of the game's end
are written in the background); `ratings`, `history`, `chat_log` (a room's and the lobby's) and a room's `chat`
answer `unavailable` (not `internal`, not a timeout); the finished room's replay (from the room store), a new
room's create and its joins all still work. PostgreSQL is started again on the same data directory and port:
the background archive of the second game lands by itself (its retry backoff) within RECOVER_BOUND, and the
records then hold both games exactly once: the history lists exactly the two rooms, ann and the bot have 2
rated games each, the `records_games` table has two rows. The node's `/healthz` answers 200 all along (a
records database that is down does not make a node unhealthy), and its log has no fault (`internal`).
"""

from __future__ import annotations

import asyncio
import random
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from clients.client import Client, ServerError

from .procs import CHEAP, PG_BINDIR, NodeProc, PgProc, Player, _sign_up

pytestmark = [
    pytest.mark.skipif(PG_BINDIR is None, reason="no PostgreSQL server (initdb) installed"),
    pytest.mark.faults,
]

#: no move may take this long while the records database is down (seconds): the node never waits on it
MOVE_BOUND = 1.5
#: a records request answers `unavailable` within this (one --records-timeout, plus slack for a loaded machine;
#: the lobby waits for the first attempt of this node's own background writes only, never for their retries)
UNAVAILABLE_BOUND = 2.5
#: the records database is back: the background archive retries (backoff 0.5 s doubling) land within this
RECOVER_BOUND = 40.0


class HealthWatch(threading.Thread):
    """Polls the node's /healthz every 0.2 s until stopped; keeps every answer that is not 200."""

    def __init__(self, node: NodeProc) -> None:
        super().__init__(daemon=True)
        self.node = node
        self.halt = threading.Event()
        self.polls = 0
        self.bad: list[tuple[float, int, str]] = []

    def run(self) -> None:
        started = time.monotonic()
        while not self.halt.wait(0.2):
            status, body = self.node.health()
            self.polls += 1
            if status != 200:
                self.bad.append((round(time.monotonic() - started, 2), status, body[:200]))


def _time_moves(c: Client, moves: list[float]) -> None:
    """Record the round trip of every `move` request this client makes."""
    request = c.request

    async def timed(t: str, timeout: float = 10.0, **fields: Any) -> dict[str, Any]:
        started = time.monotonic()
        try:
            return await request(t, timeout=timeout, **fields)
        finally:
            if t == "move":
                moves.append(time.monotonic() - started)

    c.request = timed  # type: ignore[method-assign]


async def _ask(c: Client, t: str, **fields: Any) -> tuple[str, float, dict[str, Any]]:
    """One request: its outcome (`ok`, an error code, or `timeout`), its round trip and its answer."""
    started = time.monotonic()
    try:
        answer = await c.request(t, timeout=8, **fields)
        outcome = "ok"
    except ServerError as err:
        answer, outcome = {"message": str(err)}, err.code
    except TimeoutError:
        answer, outcome = {}, "timeout"
    return outcome, time.monotonic() - started, answer


async def _bot_game(p: Player, seed: int, rng: random.Random) -> str:
    """A 2-seat game against a server bot, played by `p` to its end."""
    assert p.client is not None
    answer = await p.client.request("create", game="expedition", seats=2, public=True, options={"seed": seed}, bots=1)
    room = str(answer["room"])
    await p.join(room, None)
    await p.play(room, rng, lambda: False)
    assert p.client.views[room].state.get("result"), f"the bot game {room} did not end"
    return room


async def _records(c: Client) -> dict[str, Any] | None:
    """The leaderboard (games by player) and the history (rooms) as a client reads them; None: unavailable."""
    try:
        board = await c.request("ratings", timeout=8, game="expedition")
        history = await c.request("history", timeout=8, game="expedition")
    except ServerError as err:
        assert err.code == "unavailable", f"a records read answered {err.code}: {err}"
        return None
    return {
        "board": {row["player"]: row["games"] for row in board["players"]},
        "history": sorted(g["room"] for g in history["games"]),
    }


async def _wait_records(
    c: Client, want: dict[str, Any], bound: float
) -> tuple[dict[str, Any] | None, float, list[tuple[bool, float]]]:
    """Poll the records until they are `want` (at most `bound` seconds): the last read, how long it took, and
    each read's (answered, round trip)."""
    started = time.monotonic()
    got: dict[str, Any] | None = None
    reads: list[tuple[bool, float]] = []
    while time.monotonic() - started < bound:
        sent = time.monotonic()
        got = await _records(c)
        reads.append((got is not None, time.monotonic() - sent))
        if got == want:
            break
        await asyncio.sleep(0.5)
    return got, time.monotonic() - started, reads


async def test_records_postgresql_killed_and_restarted_holds_no_move_up_and_loses_no_game(tmp_path: Path) -> None:
    pg = PgProc()
    node: NodeProc | None = None
    watch: HealthWatch | None = None
    players: list[Player] = []
    try:
        pg.init()
        pg.start()
        await pg.create_database()
        node = NodeProc(
            "pgdown", f"sqlite://{tmp_path}/rooms.db", "mp:",
            extra=["--records", pg.url, "--records-timeout", "1", *CHEAP],
        )  # fmt: skip
        node.start()
        ann, bob = Player("ann", [node.url]), Player("bob", [node.url])
        players = [ann, bob]
        await _sign_up(ann)  # accounts (v1.2: only accounts are rated), signed up while PostgreSQL is up
        await _sign_up(bob)
        assert ann.client is not None and bob.client is not None
        me = ann.client.player

        # ---- the records database is up: a finished game is in the records
        first = await _bot_game(ann, 501, random.Random(1))
        got, took, _ = await _wait_records(ann.client, {"board": {me: 1, "bot": 1}, "history": [first]}, 10)
        assert got == {"board": {me: 1, "bot": 1}, "history": [first]}, f"the first game's records: {got}"
        assert node.health()[0] == 200

        # ---- PostgreSQL is SIGKILLed: games go on, records requests answer unavailable
        assert not ann.errors, f"the first game: {ann.errors}"
        watch = HealthWatch(node)
        watch.start()
        pg.kill()
        down_at = time.monotonic()
        moves: list[float] = []
        _time_moves(ann.client, moves)
        second = await _bot_game(ann, 502, random.Random(2))
        assert ann.reconnects == 0, "ann lost her connection"
        assert len(moves) >= 3, f"only {len(moves)} moves were made"
        assert not ann.errors, f"moves were refused or timed out while the records were down: {ann.errors}"
        assert max(moves) < MOVE_BOUND, f"a move took {max(moves):.2f} s with the records database down"
        asked = {
            "ratings": await _ask(ann.client, "ratings", game="expedition"),
            "history": await _ask(ann.client, "history", game="expedition"),
            "chat_log room": await _ask(ann.client, "chat_log", room=second),
            "chat_log lobby": await _ask(ann.client, "chat_log"),
            "room chat": await _ask(ann.client, "chat", room=second, text="good game"),
        }
        for what, (outcome, secs, answer) in asked.items():
            assert outcome == "unavailable", f"{what} with the records down answered {outcome}: {answer}"
            assert secs < UNAVAILABLE_BOUND, f"{what} took {secs:.2f} s to answer unavailable"
        # the finished room's replay comes from the room store, not from the records
        outcome, secs, answer = await _ask(ann.client, "replay", room=second, v=1)
        assert outcome == "ok", f"the replay of a finished room answered {outcome}: {answer}"
        # a new room: create and joins (the seats' ratings are not read: shown as none, at once)
        started = time.monotonic()
        fresh = await ann.client.create("expedition", 2, {"seed": 503})
        await ann.join(fresh, None)
        await bob.join(fresh, None)
        seating = time.monotonic() - started
        assert seating < 3 * MOVE_BOUND, f"create and two joins took {seating:.2f} s with the records down"
        assert sorted(s for s in (ann.seat, bob.seat)) == [0, 1]
        assert not ann.errors and not bob.errors, (ann.errors, bob.errors)

        # ---- PostgreSQL again, on the same data directory and port: the second game lands exactly once
        down_for = time.monotonic() - down_at
        pg.start()
        want = {"board": {me: 2, "bot": 2}, "history": sorted([first, second])}
        got, recovered, reads = await _wait_records(ann.client, want, RECOVER_BOUND)
        assert got == want, f"{RECOVER_BOUND} s after PostgreSQL came back the records are {got}, not {want}"
        outcome, _, answer = await _ask(ann.client, "chat", room=second, text="good game")
        assert outcome == "ok", f"a room chat with the records back answered {outcome}: {answer}"
        outcome, _, answer = await _ask(ann.client, "chat_log", room=second)
        assert outcome == "ok" and [x["text"] for x in answer["messages"]] == ["good game"], answer
        import asyncpg

        conn = await asyncpg.connect(pg.url, timeout=5)
        try:
            rooms = sorted(r["room"] for r in await conn.fetch("SELECT room FROM records_games"))
            seated = await conn.fetch("SELECT player, game_id FROM records_game_players")
        finally:
            await conn.close()
        assert rooms == sorted([first, second]), f"the archive holds {rooms}"
        assert len(seated) == 2 and {r["player"] for r in seated} == {me}, seated
        await asyncio.sleep(0.5)  # a last health poll or two with everything back
        watch.halt.set()
        watch.join(5)
        assert watch.polls >= 5, f"/healthz was polled only {watch.polls} times"
        assert not watch.bad, f"/healthz was not 200 with the records database down: {watch.bad[:5]}"
        log = node.log()
        assert "fault handling" not in log and "Traceback" not in log, log[-3000:]
        retries = log.count("history/ratings not stored yet")
        assert retries >= 1, "the archive of the second game never had to wait for the database"
        print(
            f"moves: {len(moves)}, slowest {max(moves) * 1000:.0f} ms; unavailable answers in "
            + ", ".join(f"{k} {v[1] * 1000:.0f} ms" for k, v in asked.items())
            + f"; create+joins {seating * 1000:.0f} ms; PostgreSQL down {down_for:.1f} s; records complete "
            f"{recovered:.1f} s after the restart ({retries} archive retries); first records {took:.1f} s; "
            f"healthz polls {watch.polls}; reads after the restart (answered, s): "
            + ", ".join(f"{'ok' if ok else 'unavailable'} {secs:.2f}" for ok, secs in reads)
        )
    finally:
        if watch is not None:
            watch.halt.set()
            watch.join(5)
        for p in players:
            await p.close()
        if node is not None:
            node.stop()
        pg.stop()
