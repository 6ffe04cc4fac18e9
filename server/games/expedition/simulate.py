"""Simulation: plays many seeded games with bots and prints figures for docs/games/expedition.md.

Usage: python -m server.games.expedition.simulate [--games 1000] [--seats 2 3 4 5] [--bot random|greedy]
Prints per seat count: turns per game and per player, moves per game, win rate by seat, mean gold by
seat, how many games the stalemate house rule ended, how often each rule fired (per game), and whether every
space was entered in some game.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from typing import Any

from server.games.bots import RandomBot
from server.games.expedition.bots import GreedyBot
from server.games.expedition.data import DAIDU
from server.games.expedition.engine import GAME

BOTS: dict[str, Any] = {"random": RandomBot, "greedy": GreedyBot}


def play(seats: int, seed: int, bot_name: str, options: dict[str, Any] | None = None) -> dict[str, Any]:
    """One seeded game; returns its figures."""
    state = GAME.setup(seats, options, seed)
    bots = [BOTS[bot_name](seed * 31 + s) for s in range(seats)]
    moves = 0
    reached: set[int] = {f["pos"] for f in state["figs"]}
    while GAME.result(state) is None:
        seat = GAME.active_seats(state)[0]
        prompt = GAME.prompt(state, seat)
        assert prompt is not None
        state = GAME.apply(state, seat, bots[seat].choose(prompt))
        moves += 1
        reached.update(f["pos"] for f in state["figs"])
    result = GAME.result(state)
    assert result is not None
    return {"turns": state["turns"], "moves": moves, "result": result, "stats": state["stats"], "reached": reached}


def run(seats: int, games: int, bot_name: str) -> str:
    t0 = time.perf_counter()
    turns, moves = [], []
    wins = Counter[int]()
    gold: list[list[int]] = [[] for _ in range(seats)]
    fired = Counter[str]()
    reached: set[int] = set()
    stalemates = early = 0
    for seed in range(games):
        g = play(seats, seed, bot_name)
        if g["stats"].get("stalemate"):
            stalemates += 1
            early += not g["stats"].get("kantshou_trigger")
        turns.append(g["turns"])
        moves.append(g["moves"])
        for w in g["result"]["winners"]:
            wins[w] += 1
        for s in range(seats):
            gold[s].append(g["result"]["scores"][s])
        fired.update(g["stats"])
        reached |= g["reached"]
    secs = time.perf_counter() - t0
    per_player = [t / seats for t in turns]
    q = statistics.quantiles(per_player, n=20)
    lines = [
        f"## {seats} seats, {games} games, {bot_name} bot ({secs:.1f} s)",
        f"- turns per player: mean {statistics.mean(per_player):.1f}, median {statistics.median(per_player):.1f}, "
        f"p5 {q[0]:.1f}, p95 {q[-1]:.1f}; moves per game: mean {statistics.mean(moves):.0f}, max {max(moves)}",
        "- win rate by seat (ties count for each winner): "
        + ", ".join(f"seat {s}: {100 * wins[s] / games:.1f}%" for s in range(seats)),
        "- mean gold by seat: " + ", ".join(f"seat {s}: {statistics.mean(gold[s]):.1f}" for s in range(seats)),
        f"- stalemate endings: {stalemates} of {games} games ({100 * stalemates / games:.1f}%), "
        f"{early} of them before Kantshou",
        "- rule firings per game: " + ", ".join(f"{k} {v / games:.2f}" for k, v in sorted(fired.items())),
        f"- spaces ever occupied: {len(reached)} of {DAIDU + 1}"
        + ("" if len(reached) == DAIDU + 1 else f" (never: {sorted(set(range(DAIDU + 1)) - reached)})"),
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--seats", type=int, nargs="+", default=[2, 3, 4, 5])
    ap.add_argument("--bot", choices=sorted(BOTS), nargs="+", default=["random", "greedy"])
    args = ap.parse_args(argv)
    for bot in args.bot:
        for seats in args.seats:
            print(run(seats, args.games, bot), flush=True)
            print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
