"""Simulation: plays many seeded Marco Polo II games with bots and prints figures for docs/games/khan.md.

Usage: python -m server.games.khan.simulate [--games 1000] [--seats 4] [--caravans] [--random-characters] [--jobs N]
Prints per seat count: (1) all-greedy games with the character draft (the seat to the first player's right picks
first, the first player last; --random-characters deals them at random instead): moves per game, mean final
score and win rate by seat and by place in turn order (0 = the first player of round 1, drawn from the seed),
win rates by character (the balance target of decisions.md D: no character above 40% at 4 seats), mean score
parts, rule firings; (2) one greedy seat against random bots; (3) all-random games. Game i uses seed i, so the
figures do not depend on --jobs.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter, defaultdict
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from server.games.dice import simulate as common
from server.games.khan.bots import GreedyBot
from server.games.khan.data import CHARACTERS
from server.games.khan.engine import GAME

BALANCE_LIMIT = 0.40


def _greedy_game(args: tuple[int, int, bool, bool]) -> dict[str, Any]:
    seats, seed, caravans, draft = args
    opts: dict[str, Any] = {"caravans": caravans}
    if not draft:
        opts["characters"] = common.random_characters(CHARACTERS, seats, seed)
    return common.play(GAME, GreedyBot, seats, seed, ["greedy"] * seats, opts)


def _versus_game(args: tuple[int, int]) -> dict[str, Any]:
    seats, seed = args
    kinds = ["random"] * seats
    kinds[seed % seats] = "greedy"
    g = common.play(GAME, GreedyBot, seats, 10_000 + seed, kinds)
    g["me"] = seed % seats
    return g


def _random_game(args: tuple[int, int]) -> dict[str, Any]:
    seats, seed = args
    return common.play(GAME, GreedyBot, seats, 20_000 + seed, ["random"] * seats)


def _map(fn: Any, jobs: int, work: list[Any]) -> list[dict[str, Any]]:
    if jobs <= 1:
        return [fn(w) for w in work]
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        return list(pool.map(fn, work, chunksize=8))


def run_greedy(seats: int, games: int, caravans: bool, jobs: int, draft: bool = True) -> tuple[list[str], float]:
    """Figures of all-greedy games, and the highest character win rate."""
    t0 = time.perf_counter()
    results = _map(_greedy_game, jobs, [(seats, seed, caravans, draft) for seed in range(games)])
    moves: list[int] = []
    by_seat: list[list[int]] = [[] for _ in range(seats)]
    by_place: list[list[int]] = [[] for _ in range(seats)]
    wins_place = Counter[int]()
    by_char: dict[str, list[int]] = defaultdict(list)
    wins_seat = Counter[int]()
    wins_char = Counter[str]()
    games_char = Counter[str]()
    parts: dict[str, list[int]] = defaultdict(list)
    fired = Counter[str]()
    for g in results:
        moves.append(g["moves"])
        fired.update(g["stats"])
        for s, c in enumerate(g["characters"]):
            score = g["result"]["scores"][s]
            by_seat[s].append(score)
            by_place[(s - g["first"]) % seats].append(score)
            by_char[c].append(score)
            games_char[c] += 1
            for k, v in g["result"]["breakdown"][s].items():
                parts[k].append(v)
        for w in g["result"]["winners"]:
            wins_seat[w] += 1
            wins_place[(w - g["first"]) % seats] += 1
            wins_char[g["characters"][w]] += 1
    secs = time.perf_counter() - t0
    rates = {c: wins_char[c] / games_char[c] for c in games_char}
    worst = max(rates.values())
    lines = [
        f"## {seats} seats, {games} games, all greedy, {'character draft' if draft else 'random characters'}"
        f"{' (caravans)' if caravans else ''} ({secs:.0f} s)",
        f"- moves per game: mean {statistics.mean(moves):.0f}, max {max(moves)}",
        "- mean final score by seat: "
        + ", ".join(f"seat {s}: {statistics.mean(by_seat[s]):.1f}" for s in range(seats)),
        "- win rate by seat (ties count for each winner): "
        + ", ".join(f"seat {s}: {100 * wins_seat[s] / games:.1f}%" for s in range(seats)),
        "- mean final score by place in turn order (0 = first player of round 1): "
        + ", ".join(f"place {i}: {statistics.mean(by_place[i]):.1f}" for i in range(seats)),
        "- win rate by place in turn order: "
        + ", ".join(f"place {i}: {100 * wins_place[i] / games:.1f}%" for i in range(seats)),
        "- by character (games / mean score / win rate):",
        *(
            f"  - {c}: {games_char[c]} / {statistics.mean(by_char[c]):.1f} / {100 * rates[c]:.1f}%"
            for c in sorted(by_char)
        ),
        (
            f"- highest character win rate {100 * worst:.1f}% (limit {100 * BALANCE_LIMIT:.0f}% at 4 seats): "
            + ("OK" if worst <= BALANCE_LIMIT else "ABOVE THE LIMIT")
            if seats == 4
            else f"- highest character win rate {100 * worst:.1f}% (fair share {100 / seats:.0f}%; the 40% "
            "limit of decisions.md D is for 4 seats)"
        ),
        "- mean score parts: " + ", ".join(f"{k} {statistics.mean(v):.1f}" for k, v in parts.items()),
        "- rule firings per game: " + ", ".join(f"{k} {v / games:.2f}" for k, v in sorted(fired.items())),
    ]
    return lines, worst


def run_versus(seats: int, games: int, jobs: int) -> list[str]:
    results = _map(_versus_game, jobs, [(seats, seed) for seed in range(games)])
    wins = 0
    mine: list[int] = []
    others: list[int] = []
    for g in results:
        me = g["me"]
        scores = g["result"]["scores"]
        mine.append(scores[me])
        others.extend(scores[s] for s in range(seats) if s != me)
        wins += me in g["result"]["winners"]
    return [
        f"- greedy vs {seats - 1} random (draft, greedy seat rotating, {games} games): greedy wins "
        f"{100 * wins / games:.1f}%, mean score greedy {statistics.mean(mine):.1f}, "
        f"random {statistics.mean(others):.1f}"
    ]


def run_random(seats: int, games: int, jobs: int) -> list[str]:
    t0 = time.perf_counter()
    results = _map(_random_game, jobs, [(seats, seed) for seed in range(games)])
    secs = time.perf_counter() - t0
    scores = [s for g in results for s in g["result"]["scores"]]
    moves = [g["moves"] for g in results]
    return [
        f"- all random ({games} games, {secs:.1f} s): mean score {statistics.mean(scores):.1f}, moves per game "
        f"mean {statistics.mean(moves):.0f}, max {max(moves)}"
    ]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--seats", type=int, nargs="+", default=[4])
    ap.add_argument("--caravans", action="store_true", help="play the all-greedy games with the Caravans expansion")
    ap.add_argument(
        "--random-characters", action="store_true", help="deal the characters at random instead of the draft"
    )
    ap.add_argument("--jobs", type=int, default=1, help="worker processes")
    ap.add_argument("--versus", type=int, default=200, help="games of greedy vs random and of all random")
    args = ap.parse_args(argv)
    ok = True
    for seats in args.seats:
        lines, worst = run_greedy(seats, args.games, args.caravans, args.jobs, not args.random_characters)
        if seats == 4:
            ok = ok and worst <= BALANCE_LIMIT
        if args.versus:
            lines += run_versus(seats, args.versus, args.jobs)
            lines += run_random(seats, args.versus, args.jobs)
        print("\n".join(lines), flush=True)
        print()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
