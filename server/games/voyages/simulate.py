"""Simulation: plays many seeded Voyages games with bots and prints figures for docs/games/voyages.md.

Usage: python -m server.games.voyages.simulate [--games 300] [--seats 2 3 4] [--expert]
    [--lineup random|beginner|draft] [--versus N]
Prints per seat count: (1) all-greedy games with random characters (`--lineup beginner`: the rulebook's first
game, Raschid, Matteo, Berke, Mercator clockwise from the start player; `--lineup draft`: the expert character
draft): rounds and moves per game, mean final score and Travel actions per player, mean final score by seat and
by character, win rates by seat, by place in turn order (0 = the start player, drawn from the seed) and by
character, rule firings; (2) one greedy seat against random bots (the greedy seat rotates): the greedy bot's win
rate and both mean scores; (3) all-random games (`--versus` games of each, default `--games`).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter, defaultdict
from typing import Any

from server.games.dice import simulate as common
from server.games.voyages.bots import GreedyBot
from server.games.voyages.data import CHARACTERS
from server.games.voyages.engine import GAME

LINEUPS = ("random", "beginner", "draft")


def lineup_options(lineup: str, seats: int, seed: int, expert: bool) -> dict[str, Any]:
    """The room options of game `seed` for a line-up: random characters, the beginner set, or the draft."""
    opts: dict[str, Any] = {"expert": expert}
    if lineup == "random":
        opts["characters"] = common.random_characters(CHARACTERS, seats, seed)
    elif lineup == "draft":
        opts["character_draft"] = True
    return opts


def run_greedy(seats: int, games: int, expert: bool, lineup: str = "random") -> list[str]:
    t0 = time.perf_counter()
    moves, rounds = [], []
    by_seat: list[list[int]] = [[] for _ in range(seats)]
    by_char: dict[str, list[int]] = defaultdict(list)
    wins_seat = Counter[int]()
    wins_place = Counter[int]()
    wins_char = Counter[str]()
    games_char = Counter[str]()
    fired = Counter[str]()
    for seed in range(games):
        opts = lineup_options(lineup, seats, seed, expert)
        g = common.play(GAME, GreedyBot, seats, seed, ["greedy"] * seats, opts)
        moves.append(g["moves"])
        rounds.append(g["rounds"])
        fired.update(g["stats"])
        for s, c in enumerate(g["characters"]):
            score = g["result"]["scores"][s]
            by_seat[s].append(score)
            by_char[c].append(score)
            games_char[c] += 1
        for w in g["result"]["winners"]:
            wins_seat[w] += 1
            wins_place[(w - g["first"]) % seats] += 1
            wins_char[g["characters"][w]] += 1
    secs = time.perf_counter() - t0
    scores = [x for seat in by_seat for x in seat]
    return [
        f"## {seats} seats, {games} games, all greedy, {lineup} characters{' (expert)' if expert else ''} "
        f"({secs:.1f} s)",
        f"- rounds per game: {statistics.mean(rounds):.1f}; moves per game: mean {statistics.mean(moves):.0f}, "
        f"max {max(moves)}",
        f"- mean final score {statistics.mean(scores):.1f}; Travel actions per player per game "
        f"{fired['space_travel'] / (games * seats):.2f}",
        "- mean final score by seat: "
        + ", ".join(f"seat {s}: {statistics.mean(by_seat[s]):.1f}" for s in range(seats)),
        "- win rate by seat (ties count for each winner): "
        + ", ".join(f"seat {s}: {100 * wins_seat[s] / games:.1f}%" for s in range(seats)),
        "- win rate by place in turn order (0 = start player of round 1): "
        + ", ".join(f"place {i}: {100 * wins_place[i] / games:.1f}%" for i in range(seats)),
        "- by character (games, mean score, win rate): "
        + ", ".join(
            f"{c} {games_char[c]} / {statistics.mean(by_char[c]):.1f} / {100 * wins_char[c] / games_char[c]:.0f}%"
            for c in sorted(by_char)
        ),
        "- rule firings per game: " + ", ".join(f"{k} {v / games:.2f}" for k, v in sorted(fired.items())),
    ]


def run_versus(seats: int, games: int) -> list[str]:
    wins = 0
    greedy_scores: list[int] = []
    random_scores: list[int] = []
    for seed in range(games):
        me = seed % seats
        kinds = ["random"] * seats
        kinds[me] = "greedy"
        g = common.play(GAME, GreedyBot, seats, 10_000 + seed, kinds)
        scores = g["result"]["scores"]
        greedy_scores.append(scores[me])
        random_scores.extend(scores[s] for s in range(seats) if s != me)
        wins += me in g["result"]["winners"]
    return [
        f"- greedy vs {seats - 1} random (beginner set-up, greedy seat rotating, {games} games): greedy wins "
        f"{100 * wins / games:.1f}%, mean score greedy {statistics.mean(greedy_scores):.1f}, "
        f"random {statistics.mean(random_scores):.1f}"
    ]


def run_random(seats: int, games: int) -> list[str]:
    scores, moves = [], []
    for seed in range(games):
        g = common.play(GAME, GreedyBot, seats, 20_000 + seed, ["random"] * seats)
        scores.extend(g["result"]["scores"])
        moves.append(g["moves"])
    return [
        f"- all random ({games} games): mean score {statistics.mean(scores):.1f}, moves per game mean "
        f"{statistics.mean(moves):.0f}, max {max(moves)}"
    ]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--seats", type=int, nargs="+", default=[2, 3, 4])
    ap.add_argument("--expert", action="store_true", help="expert set-up for the all-greedy games")
    ap.add_argument("--lineup", choices=LINEUPS, default="random", help="characters of the all-greedy games")
    ap.add_argument("--versus", type=int, default=None, help="games of greedy vs random and of all random")
    args = ap.parse_args(argv)
    versus = args.games if args.versus is None else args.versus
    for seats in args.seats:
        lines = run_greedy(seats, args.games, args.expert, args.lineup)
        if versus:
            lines += run_versus(seats, versus)
            lines += run_random(seats, versus)
        print("\n".join(lines), flush=True)
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
