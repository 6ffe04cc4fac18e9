"""`python -m loadtests.records_bench`: a game's end, a leaderboard page and a player's history against the
records database (`server.store.records_sql`) with 10 and with 100,000 rated players.

For each backend (a SQLite file in a temporary directory; a PostgreSQL database of the bench's own, made on
the server at `--pg` and dropped at the end, also after an error) and each player count N: a fresh database,
N rating rows of Expedition put in batches of `BATCH`, then `--ends` game ends one after the other, as a room
ends one (`finish_game`: the archive row with a replay of `REPLAY_ENTRIES` small entries, the players, and the
rating rows of the four rated players read, rated by the real `server.rooms.ratings.rate_game`, and written),
each with 2 players drawn from the N and 2 new ones; then `--calls` leaderboard pages (`leaderboard(game,
100)`) and `--calls` histories (`history(None, player, 50)` of players who just played). It prints the median
and p95 wall ms per game end, the process CPU ms per game end (`time.process_time`: on SQLite the whole
database work, which runs in this process's threads; on PostgreSQL only the client's side), the SQL statements
per game end, the medians of the two reads, and the ratio of the largest N's figures to the smallest N's.

Afterwards it checks what it wrote: the archive holds one game per end, the ratings N + 2 per end rows, every
player that played has `games` = its seeded count + the games it played here, and the leaderboard's page is
min(100, rows) rows, best first. A failed check is printed and makes the exit status 1.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import math
import os
import platform
import random
import secrets
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import AsyncIterator, Callable
from typing import Any

import sqlalchemy as sa
from sqlalchemy import event

from server.rooms.ratings import rate_game
from server.store.records import score_of
from server.store.records_sql import SqlRecords, games_table, ratings_table

GAME = "expedition"
SEATS = 4
DRAWN = 2  # players of each game end drawn from the N seeded ones; the others are new
BATCH = 5_000
REPLAY_ENTRIES = 200
PAGE = 100
HISTORY = 50
PG_SERVER = os.environ.get("MARCOPOLO_TEST_PG", "postgresql://postgres@127.0.0.1:5432/postgres")
#: bounds of the command line (everything the bench does is a bounded loop over these)
MAX_PLAYERS = 2_000_000
MAX_ENDS = 100_000
MAX_CALLS = 10_000


def seeded_id(i: int) -> str:
    return f"p{i:07d}"


def seeded_row(i: int) -> dict[str, Any]:
    """The i-th seeded rating row: spread like a live leaderboard, `games` known from i alone."""
    rng = random.Random(i)
    return {
        "mu": rng.gauss(25.0, 4.0),
        "sigma": rng.uniform(1.5, 25.0 / 3),
        "games": 1 + i % 40,
        "name": f"Player {i}",
    }


def replay_of(k: int, players: list[str], names: list[str]) -> dict[str, Any]:
    """A small replay like a room's: its meta and `REPLAY_ENTRIES` log entries."""
    meta = {"game": GAME, "seats": SEATS, "players": players, "names": names, "seed": k, "public": True}
    entries = [
        {"v": i + 1, "seat": i % SEATS, "move": {"kind": "pick", "option": i % 5}, "t": 1_790_000_000_000 + 1500 * i}
        for i in range(REPLAY_ENTRIES)
    ]
    return {"meta": meta, "entries": entries}


def nearest_rank(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q * len(ordered)) - 1)]


@contextlib.asynccontextmanager
async def database(backend: str, tmp: str, pg_server: str) -> AsyncIterator[str]:
    """The url of a fresh records database of `backend`: a file under `tmp`, or a PostgreSQL database dropped
    when the block ends (whatever happened in it)."""
    if backend == "sqlite":
        yield f"sqlite:///{tmp}/records-{secrets.token_hex(4)}.db"
        return
    import asyncpg

    name = f"mp_records_bench_{os.getpid()}_{secrets.token_hex(3)}"
    admin = await asyncpg.connect(pg_server, timeout=10)
    try:
        await admin.execute(f'CREATE DATABASE "{name}"')
        try:
            yield f"{pg_server.rsplit('/', 1)[0]}/{name}"
        finally:
            await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await admin.close()


async def seed(records: SqlRecords, players: int) -> None:
    for start in range(0, players, BATCH):
        rows = {seeded_id(i): seeded_row(i) for i in range(start, min(players, start + BATCH))}
        await records.put_ratings(GAME, rows, replace=True)


async def bench_one(
    backend: str,
    players: int,
    ends: int,
    *,
    calls: int = 50,
    seed_value: int = 1,
    tmp: str | None = None,
    pg_server: str = PG_SERVER,
) -> dict[str, Any]:
    """One fresh database of `backend` with `players` rated players: its figures and its checks."""
    if not 2 <= players <= MAX_PLAYERS or not 1 <= ends <= MAX_ENDS or not 1 <= calls <= MAX_CALLS:
        raise ValueError(f"players 2..{MAX_PLAYERS}, ends 1..{MAX_ENDS}, calls 1..{MAX_CALLS}")
    rng = random.Random(seed_value * 1_000_003 + players)
    with tempfile.TemporaryDirectory(prefix="records-bench-", dir=tmp) as tmpdir:
        async with database(backend, tmpdir, pg_server) as url:
            records = SqlRecords(url, timeout=60.0)  # the load's batches; a game end takes milliseconds
            statements = 0

            def count(*_args: Any) -> None:
                nonlocal statements
                statements += 1

            event.listen(records.engine.sync_engine, "before_cursor_execute", count)
            try:
                await records.migrate()
                t0 = time.perf_counter()
                await seed(records, players)
                load_s = time.perf_counter() - t0
                return await _measure(records, backend, players, ends, calls, rng, load_s, lambda: statements)
            finally:
                await records.close()


async def _measure(
    records: SqlRecords,
    backend: str,
    players: int,
    ends: int,
    calls: int,
    rng: random.Random,
    load_s: float,
    statements: Callable[[], int],
) -> dict[str, Any]:
    wall: list[float] = []
    cpu: list[float] = []
    played: Counter[str] = Counter()
    drawn_ever: list[str] = []
    before = statements()
    for k in range(ends):
        seats = [seeded_id(i) for i in rng.sample(range(players), DRAWN)]
        seats += [f"n{k:06d}-{j}" for j in range(SEATS - DRAWN)]
        rng.shuffle(seats)
        names = [f"Name {p}" for p in seats]
        scores = [rng.randint(20, 120) for _ in seats]
        result = {"winners": [scores.index(max(scores))], "scores": scores}
        record = {"room": f"bench{k:06d}", "game": GAME, "seats": SEATS, "players": names, "result": result,
                  "finished_at": 1_790_000_000_000 + k, "_public": True}  # fmt: skip
        replay = replay_of(k, seats, names)

        def rate(
            rows: dict[str, dict[str, Any]], seats: list[str] = seats, names: list[str] = names, result: Any = result
        ) -> dict[str, dict[str, Any]]:
            return rate_game(rows, seats, names, result)

        c0, t0 = time.process_time(), time.perf_counter()
        done = await records.finish_game(record, seats, rated=sorted(seats), rate=rate, replay=replay)
        wall.append((time.perf_counter() - t0) * 1000)
        cpu.append((time.process_time() - c0) * 1000)
        if not done:
            raise RuntimeError(f"game end {k} was not stored (archived already?)")
        played.update(seats)
        drawn_ever.extend(p for p in seats if p.startswith("p"))
    per_end = (statements() - before) / ends

    board_ms: list[float] = []
    board: list[tuple[str, dict[str, Any]]] = []
    for _ in range(calls):
        t0 = time.perf_counter()
        board = await records.leaderboard(GAME, PAGE)
        board_ms.append((time.perf_counter() - t0) * 1000)
    history_ms: list[float] = []
    history_len: list[int] = []
    for i in range(calls):
        who = drawn_ever[i % len(drawn_ever)]
        t0 = time.perf_counter()
        got = await records.history(None, who, HISTORY)
        history_ms.append((time.perf_counter() - t0) * 1000)
        history_len.append(len(got))

    async with records.engine.connect() as conn:  # the checks (not timed): these counts read whole tables
        rated_rows = (await conn.execute(sa.select(sa.func.count()).select_from(ratings_table))).scalar_one()
        games = (await conn.execute(sa.select(sa.func.count()).select_from(games_table))).scalar_one()
    after = await records.ratings_of(GAME, sorted(played))
    problems: list[str] = []
    if games != ends:
        problems.append(f"{games} archived games, expected {ends}")
    if rated_rows != players + (SEATS - DRAWN) * ends:
        problems.append(f"{rated_rows} rating rows, expected {players + (SEATS - DRAWN) * ends}")
    for p, n in sorted(played.items()):
        seeded = seeded_row(int(p[1:]))["games"] if p.startswith("p") else 0
        got_games = after.get(p, {}).get("games")
        if got_games != seeded + n:
            problems.append(f"{p}: games {got_games}, expected {seeded} + {n}")
            break
    best_first = [score_of(row) for _, row in board]
    if len(board) != min(PAGE, rated_rows) or best_first != sorted(best_first, reverse=True):
        problems.append(f"leaderboard: {len(board)} rows, best first: {best_first == sorted(best_first, reverse=True)}")
    if min(history_len) < 1:
        problems.append("a player who played has no history")

    return {
        "backend": backend,
        "players": players,
        "ends": ends,
        "load_s": load_s,
        "end_ms_median": statistics.median(wall),
        "end_ms_p95": nearest_rank(wall, 0.95),
        "end_ms_max": max(wall),
        "cpu_ms_per_end": sum(cpu) / ends,
        "statements_per_end": per_end,
        "leaderboard_ms_median": statistics.median(board_ms),
        "history_ms_median": statistics.median(history_ms),
        "history_rows_mean": sum(history_len) / len(history_len),
        "calls": calls,
        "rating_rows": rated_rows,
        "archived": games,
        "played": dict(played),
        "after": after,
        "board": [(p, score_of(row)) for p, row in board],
        "problems": problems,
    }


async def run(
    backends: list[str], counts: list[int], ends: int, *, calls: int = 50, seed_value: int = 1,
    pg_server: str = PG_SERVER, tmp: str | None = None, say: Any = None,
) -> list[dict[str, Any]]:  # fmt: skip
    """Every (backend, N) in turn, each on a fresh database."""
    out = []
    for backend in backends:
        for n in counts:
            if say:
                say(f"{backend}: {n:,} players, {ends} game ends ...")
            out.append(
                await bench_one(backend, n, ends, calls=calls, seed_value=seed_value, tmp=tmp, pg_server=pg_server)
            )
    return out


COLUMNS = (
    "| backend | rated players | load s | game end median / p95 (max) ms | process CPU ms per end | statements "
    "per end | leaderboard(100) median ms | history(50) median ms (games read) | checks |"
)


def table(results: list[dict[str, Any]]) -> list[str]:
    lines = [COLUMNS, "|" + "---|" * (COLUMNS.count("|") - 1)]
    for r in results:
        lines.append(
            f"| {r['backend']} | {r['players']:,} | {r['load_s']:.1f} | {r['end_ms_median']:.2f} / "
            f"{r['end_ms_p95']:.2f} ({r['end_ms_max']:.1f}) | {r['cpu_ms_per_end']:.2f} | "
            f"{r['statements_per_end']:.0f} | {r['leaderboard_ms_median']:.2f} | "
            f"{r['history_ms_median']:.2f} ({r['history_rows_mean']:.1f}) | "
            f"{'ok' if not r['problems'] else '; '.join(r['problems'])} |"
        )
    return lines


def ratios(results: list[dict[str, Any]]) -> list[str]:
    """Per backend: the largest N's figures over the smallest N's."""
    lines = []
    for backend in dict.fromkeys(r["backend"] for r in results):
        mine = sorted((r for r in results if r["backend"] == backend), key=lambda r: r["players"])
        if len(mine) < 2:
            continue
        lo, hi = mine[0], mine[-1]
        figs = [
            ("game end median", "end_ms_median"),
            ("p95", "end_ms_p95"),
            ("CPU per end", "cpu_ms_per_end"),
            ("leaderboard", "leaderboard_ms_median"),
            ("history", "history_ms_median"),
        ]
        parts = ", ".join(f"{label} {hi[key] / lo[key]:.2f}x" for label, key in figs)
        lines.append(f"{backend}, {hi['players']:,} / {lo['players']:,} players: {parts}")
    return lines


def _about(backends: list[str]) -> str:
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    import sqlite3

    parts = [
        f"{os.cpu_count()} cores",
        f"Python {platform.python_version()}",
        f"load average {load} at the start",
    ]
    if "sqlite" in backends:
        parts.append(f"SQLite {sqlite3.sqlite_version} (WAL, synchronous=FULL)")
    return ", ".join(parts)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--backend", choices=["sqlite", "postgresql", "both"], default="both")
    ap.add_argument("--players", default="10,100000", help="rated players per run, comma-separated")
    ap.add_argument("--ends", type=int, default=200, help="game ends timed per run (default 200)")
    ap.add_argument("--calls", type=int, default=50, help="leaderboard pages and histories timed (default 50)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--pg", default=PG_SERVER, help="a PostgreSQL server's url (its database is only connected to)")
    args = ap.parse_args(argv)
    counts = [int(x.replace("_", "")) for x in args.players.split(",") if x.strip()]
    backends = ["sqlite", "postgresql"] if args.backend == "both" else [args.backend]
    print(_about(backends), flush=True)
    results = asyncio.run(
        run(backends, counts, args.ends, calls=args.calls, seed_value=args.seed, pg_server=args.pg,
            say=lambda s: print(s, file=sys.stderr, flush=True))
    )  # fmt: skip
    print(f"{args.ends} game ends per run (4 players: 2 of the N, 2 new), {args.calls} leaderboard pages and histories")
    print()
    print("\n".join(table(results)))
    print()
    print("\n".join(ratios(results)))
    return 1 if any(r["problems"] for r in results) else 0


if __name__ == "__main__":
    raise SystemExit(main())
