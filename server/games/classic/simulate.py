"""Simulation: plays many seeded games with bots and prints figures for docs/games/classic.md.

Usage: python -m server.games.classic.simulate [--games 1000] [--seats 2 3 4] [--bot random greedy]
Prints per seat count and bot: turns per game (median, p95, max) and rounds, how the games ended (a win in
Venice or the house round limit), win rate by seat, how far players got, how often each rule and hazard
fired (per game), the longest run of turns one player spent without moving, and which stopping points
no pawn ever stopped on.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from typing import Any

from server.games.bots import RandomBot
from server.games.classic.bots import GreedyBot
from server.games.classic.data import NODES
from server.games.classic.engine import GAME

BOTS: dict[str, Any] = {"random": RandomBot, "greedy": GreedyBot}


def play(seats: int, seed: int, bot_name: str, options: dict[str, Any] | None = None) -> dict[str, Any]:
    """One seeded game; returns its figures."""
    state = GAME.setup(seats, options, seed)
    first = state["first"]
    bots = [BOTS[bot_name](seed * 31 + s) for s in range(seats)]
    moves = 0
    visited: set[str] = set(state["pawns"])
    still = [0] * seats  # turns in a row without moving, per seat
    longest_still = 0
    start = list(state["pawns"])  # where each seat's current or last turn began
    while GAME.result(state) is None:
        seat = GAME.active_seats(state)[0]
        prompt = GAME.prompt(state, seat)
        assert prompt is not None, "an active seat without options: the game is stuck"
        if bot_name == "greedy":
            move = bots[seat].choose(prompt, GAME.view(state, seat))
        else:
            move = bots[seat].choose(prompt)
        turns_before = state["turns"]
        state = GAME.apply(state, seat, move)
        moves += 1
        visited.update(state["pawns"])
        if state["turns"] != turns_before:  # the seat's turn ended
            still[seat] = 0 if state["pawns"][seat] != start[seat] else still[seat] + 1
            longest_still = max(longest_still, still[seat])
            start = list(state["pawns"])
    result = GAME.result(state)
    assert result is not None
    return {
        "first": first,
        "turns": state["turns"],
        "rounds": min(state["round"], state["options"]["max_rounds"]),
        "moves": moves,
        "result": result,
        "stats": state["stats"],
        "visited": visited,
        "still": longest_still,
    }


def _pct(values: list[int], q: float) -> float:
    ordered = sorted(values)
    return float(ordered[min(len(ordered) - 1, int(q * len(ordered)))])


def run(seats: int, games: int, bot_name: str) -> str:
    t0 = time.perf_counter()
    turns, rounds, moves, still = [], [], [], []
    wins = Counter[int]()
    by_place = Counter[int]()  # wins by place in turn order (0: the start player, drawn from the seed)
    reasons = Counter[str]()
    progress = Counter[int]()
    fired = Counter[str]()
    visited: set[str] = set()
    for seed in range(games):
        g = play(seats, seed, bot_name)
        turns.append(g["turns"])
        rounds.append(g["rounds"])
        moves.append(g["moves"])
        still.append(g["still"])
        reasons[g["result"]["reason"]] += 1
        for w in g["result"]["winners"]:
            wins[w] += 1
            by_place[(w - g["first"]) % seats] += 1
        progress.update(g["result"]["progress"])
        fired.update(g["stats"])
        visited |= g["visited"]
    secs = time.perf_counter() - t0
    never = sorted(set(NODES) - visited)
    players = games * seats
    lines = [
        f"## {seats} seats, {games} games, {bot_name} bot ({secs:.1f} s)",
        f"- turns per game: median {statistics.median(turns):.0f}, p95 {_pct(turns, 0.95):.0f}, max {max(turns)}; "
        f"rounds: median {statistics.median(rounds):.0f}, p95 {_pct(rounds, 0.95):.0f}, max {max(rounds)}; "
        f"moves per game: mean {statistics.mean(moves):.0f}, max {max(moves)}",
        "- endings: " + ", ".join(f"{k} {100 * v / games:.1f}%" for k, v in sorted(reasons.items())),
        "- win rate by seat (shared wins count for each): "
        + ", ".join(f"seat {s}: {100 * wins[s] / games:.1f}%" for s in range(seats)),
        "- win rate by place in turn order (1: the start player): "
        + " / ".join(f"{100 * by_place[p] / games:.1f}%" for p in range(seats)),
        "- players at the end: "
        + f"no Golden Table {100 * progress[0] / players:.1f}%, on the mission {100 * progress[1] / players:.1f}%, "
        + f"mission done {100 * progress[2] / players:.1f}%",
        "- rule firings per game: " + ", ".join(f"{k} {v / games:.2f}" for k, v in sorted(fired.items())),
        f"- longest run of turns one player spent without moving: {max(still)} "
        f"(median over games {statistics.median(still):.0f})",
        f"- stopping points where some pawn stood: {len(visited)} of {len(NODES)}"
        + (f" (never: {', '.join(never)})" if never else ""),
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--seats", type=int, nargs="+", default=[2, 3, 4])
    ap.add_argument("--bot", choices=sorted(BOTS), nargs="+", default=["greedy", "random"])
    args = ap.parse_args(argv)
    for bot in args.bot:
        for seats in args.seats:
            print(run(seats, args.games, bot), flush=True)
            print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
