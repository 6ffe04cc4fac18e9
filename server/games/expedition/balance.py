"""The start player's edge in all-greedy Expedition games (issue 33), with the rows kept.

Usage: python -m server.games.expedition.balance [--games 300] [--seats 2] [--rows FILE] [--from-rows FILE]
       [--bot MODULE]
Plays `--games` seeded all-greedy games per seat count and prints the win rate, mean gold, board chests
collected (gold from the chests lying on the track), Kantshou and Daidu scoring and lightening spent, by place in
turn order (place 0 = the start player, drawn from the seed, so places rotate over the seats). Game i uses seed
i. `--rows` appends one JSON line per game; `--from-rows` prints the tables of rows already played; `--bot`
names the module whose `GreedyBot` plays (default `server.games.expedition.bots`).
Owns: measuring. Must not: change the engine or the bot.
"""

from __future__ import annotations

import argparse
import importlib
import json
import statistics
import sys
import time
from collections import Counter, defaultdict
from typing import Any

from server.games.expedition.engine import GAME


def _gold(g: list[int]) -> int:
    return g[0] + 2 * g[1] + 3 * g[2]


def play(seats: int, seed: int, bot_module: str = "server.games.expedition.bots") -> dict[str, Any]:
    """One seeded all-greedy game; its row (per seat: board chests, lightening paid, scoring gold)."""
    greedy = importlib.import_module(bot_module).GreedyBot
    state = GAME.setup(seats, None, seed)
    first = state["turn"]
    bots = [greedy(seed * 31 + s) for s in range(seats)]
    chests = [0] * seats
    lighten = [0] * seats
    scoring = [0] * seats
    moves = 0
    while GAME.result(state) is None:
        seat = GAME.active_seats(state)[0]
        prompt = GAME.prompt(state, seat)
        assert prompt is not None
        before = state
        move = bots[seat].choose(prompt, GAME.view(state, seat))
        state = GAME.apply(state, seat, move)
        moves += 1
        for s in range(seats):
            d = _gold(state["gold"][s]) - _gold(before["gold"][s])
            if s == seat and move["a"] == "lighten":
                lighten[s] -= d
                continue
            took = sum(
                before["chests"][p]
                for p in range(len(state["chests"]))
                if before["chests"][p]
                and not state["chests"][p]
                and any(f["pos"] == p and f["seat"] == s for f in state["figs"])
            )
            chests[s] += took
            scoring[s] += d - took
    result = GAME.result(state)
    assert result is not None
    return {
        "game": "expedition",
        "bot": bot_module,
        "seats": seats,
        "seed": seed,
        "first": first,
        "scores": result["scores"],
        "winners": result["winners"],
        "chests": chests,
        "lighten": lighten,
        "scoring": scoring,
        "turns": state["turns"],
        "moves": moves,
    }


def table(rows: list[dict[str, Any]]) -> list[str]:
    seats = rows[0]["seats"]
    n = len(rows)
    wins = Counter[int]()
    per: dict[str, list[list[int]]] = defaultdict(lambda: [[] for _ in range(seats)])
    for r in rows:
        for s in range(seats):
            place = (s - r["first"]) % seats
            for k in ("scores", "chests", "scoring", "lighten"):
                per[k][place].append(r[k][s])
        for w in r["winners"]:
            wins[(w - r["first"]) % seats] += 1

    def row(label: str, k: str) -> str:
        return f"| {label} | " + " | ".join(f"{statistics.mean(per[k][i]):.1f}" for i in range(seats)) + " |"

    return [
        f"### {seats} seats, {n} games, bot {rows[0]['bot']}",
        "| place in turn order | " + " | ".join(str(i) for i in range(seats)) + " |",
        "|---" * (seats + 1) + "|",
        "| win rate (ties count for each winner) | "
        + " | ".join(f"{100 * wins[i] / n:.1f}%" for i in range(seats))
        + " |",
        row("mean gold", "scores"),
        row("gold from board chests", "chests"),
        row("gold from Kantshou and Daidu", "scoring"),
        row("gold paid to lighten", "lighten"),
        f"- turns per player: mean {statistics.mean(r['turns'] / seats for r in rows):.1f}",
    ]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--seats", type=int, nargs="+", default=[2])
    ap.add_argument("--first-seed", type=int, default=0)
    ap.add_argument("--bot", default="server.games.expedition.bots")
    ap.add_argument("--rows", help="append one JSON line per game to this file")
    ap.add_argument("--from-rows", help="only print the tables of these rows")
    args = ap.parse_args(argv)
    if args.from_rows:
        with open(args.from_rows, encoding="utf-8") as f:
            rows = [json.loads(line) for line in f if line.strip()]
        groups: dict[tuple[int, str], list[dict[str, Any]]] = defaultdict(list)
        for r in rows:
            groups[(r["seats"], r["bot"])].append(r)
        for key in sorted(groups):
            print("\n".join(table(groups[key])), "", sep="\n")
        return 0
    for seats in args.seats:
        t0 = time.perf_counter()
        rows = [play(seats, seed, args.bot) for seed in range(args.first_seed, args.first_seed + args.games)]
        if args.rows:
            with open(args.rows, "a", encoding="utf-8") as f:
                f.writelines(json.dumps(r, sort_keys=True) + "\n" for r in rows)
        print("\n".join(table(rows)), f"({time.perf_counter() - t0:.0f} s)", "", sep="\n", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
