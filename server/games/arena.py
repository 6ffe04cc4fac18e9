"""Arena: the search bot against the greedy bot, every game at 2 seats, seats swapped, seeded.

Owns: playing bot-only games and printing (and writing to docs/bots.md) a table of mean scores, win rates
and decision times. Must not: run in `make test` (it takes minutes; `make arena`).

Usage: python -m server.games.arena [--games N] [--playouts P | --seconds S] [--jobs J] [--game ID ...]
Game k of a game seats the search bot at seat k % 2 (seats swapped every other game) and uses seed k.
A "win" is the search bot among the winners and the greedy bot not; a tie (both winners) counts half.
"""

from __future__ import annotations

import argparse
import multiprocessing
import re
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from server.games import all_games, get_game
from server.games.search import Budget, SearchBot, greedy_for

DOC = Path(__file__).resolve().parents[2] / "docs" / "bots.md"
BEGIN = "<!-- arena:begin -->"
END = "<!-- arena:end -->"


def play(game_id: str, k: int, budget: Budget, seats: int = 2) -> dict[str, Any]:
    """One game; the search bot sits at seat k % seats, greedy bots elsewhere."""
    game = get_game(game_id)
    state = game.setup(seats, None, k)
    me = k % seats
    search = SearchBot(game_id, 1000 + k, budget)
    greedy = [greedy_for(game_id, 2000 + 10 * k + s) for s in range(seats)]
    times: list[float] = []
    playouts = 0
    moves = 0
    while game.result(state) is None:
        active = game.active_seats(state)
        seat = active[0]
        prompt = game.prompt(state, seat)
        assert prompt is not None
        if seat == me:
            t0 = time.perf_counter()
            move = search.choose_state(state, seat)
            if len(prompt["options"]) > 1:
                times.append(time.perf_counter() - t0)
                playouts += search.last_playouts
        else:
            move = greedy[seat].choose(prompt, game.view(state, seat))
        state = game.apply(state, seat, move)
        moves += 1
    result = game.result(state)
    assert result is not None
    winners = result["winners"]
    others = [s for s in range(seats) if s != me]
    return {
        "game": game_id,
        "k": k,
        "seat": me,
        "search": result["scores"][me],
        "greedy": max(result["scores"][s] for s in others),
        "win": 1.0 if me in winners and not any(s in winners for s in others) else (0.5 if me in winners else 0.0),
        "decisions": len(times),
        "think": sum(times),
        "max_think": max(times, default=0.0),
        "playouts": playouts,
    }


def _run(args: tuple[str, int, Budget]) -> dict[str, Any]:
    return play(*args)


def table(rows: list[dict[str, Any]], budget: Budget) -> str:
    """The markdown table of the arena figures, one line per game."""
    lines = [
        "| game | games | search mean | greedy mean | search win rate | search as seat 0 / 1 | "
        "mean decision (ms) | max decision (ms) | playouts per decision |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for gid in sorted({r["game"] for r in rows}):
        rs = [r for r in rows if r["game"] == gid]
        n = len(rs)
        dec = sum(r["decisions"] for r in rs)
        by_seat = []
        for s in (0, 1):
            sr = [r["win"] for r in rs if r["seat"] == s]
            by_seat.append(f"{100 * statistics.fmean(sr):.0f}%" if sr else "-")
        lines.append(
            f"| {gid} | {n} | {statistics.fmean(r['search'] for r in rs):.1f} | "
            f"{statistics.fmean(r['greedy'] for r in rs):.1f} | {100 * statistics.fmean(r['win'] for r in rs):.0f}% | "
            f"{' / '.join(by_seat)} | {1000 * sum(r['think'] for r in rs) / max(1, dec):.0f} | "
            f"{1000 * max(r['max_think'] for r in rs):.0f} | {sum(r['playouts'] for r in rs) / max(1, dec):.1f} |"
        )
    horizon = budget.horizon or "the game's `HORIZON` (see above)"
    if budget.playouts is not None:
        what = f"{budget.playouts} playouts per decision"
        if budget.seconds is not None:
            what += f" or {budget.seconds} s, whichever came first"
    else:
        what = f"{budget.seconds} s per decision"
    lines.append("")
    lines.append(
        f"Budget: {what}; {budget.candidates} root candidates; playouts cut off after {horizon} moves. "
        "Decision times count only decisions with more than one option."
    )
    return "\n".join(lines)


def write_doc(text: str) -> None:
    """Replace the arena section of docs/bots.md (between the markers) with `text`."""
    doc = DOC.read_text() if DOC.exists() else f"# Bots\n\n{BEGIN}\n{END}\n"
    block = f"{BEGIN}\n{text}\n{END}"
    if BEGIN in doc:
        doc = re.sub(re.escape(BEGIN) + ".*?" + re.escape(END), lambda _m: block, doc, flags=re.S)
    else:
        doc += "\n" + block + "\n"
    DOC.write_text(doc)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=20, help="games per game id (seats alternate)")
    ap.add_argument("--playouts", type=int, default=None, help="playouts per decision")
    ap.add_argument("--seconds", type=float, default=None, help="seconds per decision")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--game", action="append", default=None)
    ap.add_argument("--minutes", type=float, default=None, help="stop after this many minutes (finished games count)")
    ap.add_argument("--no-write", action="store_true", help="print only; leave docs/bots.md alone")
    a = ap.parse_args(argv)
    if a.playouts is None and a.seconds is None:
        a.playouts = 64
    budget = Budget(seconds=a.seconds, playouts=a.playouts)
    games = a.game or sorted(all_games())
    work = [(gid, k, budget) for gid in games for k in range(a.games)]
    t0 = time.time()
    rows: list[dict[str, Any]] = []
    deadline = None if a.minutes is None else t0 + 60 * a.minutes
    # games are interleaved across game ids so that a run stopped at its deadline still covers every game
    work.sort(key=lambda w: (w[1], w[0]))
    pool = multiprocessing.Pool(a.jobs)
    try:
        pending = pool.imap_unordered(_run, work, chunksize=1)
        for _ in work:
            timeout = None if deadline is None else max(0.0, deadline - time.time())
            try:
                row = pending.next(timeout)
            except multiprocessing.TimeoutError:
                print("deadline reached: the games still running are left out", file=sys.stderr)
                break
            rows.append(row)
            print(
                f"{row['game']} #{row['k']} search(seat {row['seat']}) {row['search']} : greedy {row['greedy']}",
                file=sys.stderr,
                flush=True,
            )
    finally:
        pool.terminate()
    text = table(rows, budget)
    text += (
        f"\nWall time {time.time() - t0:.0f} s with {a.jobs} worker process(es); {len(rows)} of {len(work)} "
        "games planned finished."
    )
    print(text)
    if not a.no_write:
        write_doc(text)


if __name__ == "__main__":
    main()
