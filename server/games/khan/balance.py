"""Turn-order and character balance of all-greedy Marco Polo II games (issue 33), with the rows kept.

Usage: python -m server.games.khan.balance [--games 300] [--seats 2 3 4] [--setup draft random]
       [--rows FILE] [--from-rows FILE] [--bot MODULE]
Plays `--games` seeded all-greedy games per seat count and set-up (`draft`: the rules' character draft, the
player last in turn order picks first; `random`: characters dealt at random from the seed, the engine's
`characters` option, our stand-in for a set-up without a draft) and prints the win rate by place in turn order
(place 0 = the first player of round 1, drawn from the seed, so places rotate over the seats), by seat, and per
character (games, drafted out of offered, wins). Game i uses seed i. `--rows` appends one JSON line per game;
`--from-rows` prints the tables of rows already played. `--bot` names the module whose `GreedyBot` plays
(default `server.games.khan.bots`), so an older bot kept beside it can be measured with the same seeds.
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

from server.games.dice import simulate as common
from server.games.khan.data import CHARACTERS
from server.games.khan.engine import GAME


def play(seats: int, seed: int, setup: str, bot_module: str = "server.games.khan.bots") -> dict[str, Any]:
    """One seeded all-greedy game; its row."""
    greedy = importlib.import_module(bot_module).GreedyBot
    opts: dict[str, Any] = {}
    if setup == "random":
        opts["characters"] = common.random_characters(CHARACTERS, seats, seed)
    state = GAME.setup(seats, opts, seed)
    offer = list(state["draft"]["offer"]) if state.get("draft") else []
    first = state[GAME.FIRST]
    bots = [greedy(seed * 31 + s) for s in range(seats)]
    firsts: list[int] = []
    moves = 0
    while GAME.result(state) is None:
        if state.get("phase") == "play" and (not firsts or len(firsts) < state["round"]):
            firsts.append(state["first"])
        seat = GAME.active_seats(state)[0]
        prompt = GAME.prompt(state, seat)
        assert prompt is not None
        state = GAME.apply(state, seat, bots[seat].choose(prompt, GAME.view(state, seat)))
        moves += 1
    result = GAME.result(state)
    assert result is not None
    return {
        "game": "khan",
        "bot": bot_module,
        "seats": seats,
        "setup": setup,
        "seed": seed,
        "first": first,
        "round_firsts": firsts,
        "offer": offer,
        "characters": [p["character"] for p in state["players"]],
        "scores": result["scores"],
        "winners": result["winners"],
        "moves": moves,
    }


def table(rows: list[dict[str, Any]]) -> list[str]:
    """The report of rows of one seat count and set-up."""
    seats = rows[0]["seats"]
    n = len(rows)
    wins_place = Counter[int]()
    wins_seat = Counter[int]()
    score_place: list[list[int]] = [[] for _ in range(seats)]
    games_c, wins_c, offered_c = Counter[str](), Counter[str](), Counter[str]()
    score_c: dict[str, list[int]] = defaultdict(list)
    place_c: dict[str, list[int]] = defaultdict(list)
    for r in rows:
        for s, c in enumerate(r["characters"]):
            place = (s - r["first"]) % seats
            games_c[c] += 1
            score_c[c].append(r["scores"][s])
            score_place[place].append(r["scores"][s])
            place_c[c].append(place)
        offered_c.update(r["offer"])
        for w in r["winners"]:
            wins_place[(w - r["first"]) % seats] += 1
            wins_seat[w] += 1
            wins_c[r["characters"][w]] += 1
    out = [
        f"### {seats} seats, {rows[0]['setup']}, {n} games",
        "| place in turn order | " + " | ".join(str(i) for i in range(seats)) + " |",
        "|---" * (seats + 1) + "|",
        "| win rate | " + " | ".join(f"{100 * wins_place[i] / n:.1f}%" for i in range(seats)) + " |",
        "| mean score | " + " | ".join(f"{statistics.mean(score_place[i]):.1f}" for i in range(seats)) + " |",
        "| win rate by seat | " + " | ".join(f"{100 * wins_seat[i] / n:.1f}%" for i in range(seats)) + " |",
        "",
        "| character | games | drafted / offered | mean place | mean score | win rate |",
        "|---|---|---|---|---|---|",
    ]
    for c in sorted(set(games_c) | set(offered_c)):
        g = games_c[c]
        drafted = f"{g} / {offered_c[c]}" if offered_c[c] else "-"
        if g:
            out.append(
                f"| {c} | {g} | {drafted} | {statistics.mean(place_c[c]):.2f} | {statistics.mean(score_c[c]):.1f} "
                f"| {100 * wins_c[c] / g:.1f}% |"
            )
        else:
            out.append(f"| {c} | 0 | {drafted} | - | - | - |")
    out.append(f"- moves per game: mean {statistics.mean(r['moves'] for r in rows):.0f}")
    return out


def report(rows: list[dict[str, Any]]) -> list[str]:
    groups: dict[tuple[int, str], list[dict[str, Any]]] = defaultdict(list)
    for r in rows:
        groups[(r["seats"], r["setup"])].append(r)
    out: list[str] = []
    for key in sorted(groups):
        out += table(groups[key]) + [""]
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--seats", type=int, nargs="+", default=[2, 3, 4])
    ap.add_argument("--setup", nargs="+", choices=("draft", "random"), default=["draft", "random"])
    ap.add_argument("--first-seed", type=int, default=0)
    ap.add_argument("--bot", default="server.games.khan.bots")
    ap.add_argument("--rows", help="append one JSON line per game to this file")
    ap.add_argument("--from-rows", help="only print the tables of these rows")
    args = ap.parse_args(argv)
    if args.from_rows:
        with open(args.from_rows, encoding="utf-8") as f:
            rows = [json.loads(line) for line in f if line.strip()]
        print("\n".join(report(rows)))
        return 0
    all_rows: list[dict[str, Any]] = []
    for seats in args.seats:
        for setup in args.setup:
            t0 = time.perf_counter()
            rows = [play(seats, seed, setup, args.bot) for seed in range(args.first_seed, args.first_seed + args.games)]
            if args.rows:
                with open(args.rows, "a", encoding="utf-8") as f:
                    f.writelines(json.dumps(r, sort_keys=True) + "\n" for r in rows)
            all_rows += rows
            print("\n".join(table(rows)), f"({time.perf_counter() - t0:.0f} s)", "", sep="\n", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
