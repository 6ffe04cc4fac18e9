"""Measurement of the Voyages bots (issue 33): per character win rate and mean VP, travel, goal cards, Beijing.

Usage: python -m server.games.voyages.measure [--games 200] [--seats 2 4] [--lineup beginner random draft]
    [--first 0] [--bot server.games.voyages.bots | path/to/bots.py] [--versus path/to/old_bots.py]
    [--rows FILE.jsonl]
All-greedy games (seeds first .. first+games-1; the start player is drawn from the seed, so the characters
rotate over the places in turn order). With `--versus`, seat `seed % seats` plays `--bot` and the others the
`--versus` bot (both seeded alike), and the figures are split by bot. Prints one table per (seats, line-up):
per character games, wins (ties count for each winner), mean VP, Travel actions, goal cards completed, Beijing
posts, per player per game; `--rows` appends one JSON row per game (scores, characters, travels, goals,
Beijing, the score breakdown without zeros) for the data folder.
Must not: change any engine or bot; it reads the final state (which a bot never sees).
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import json
import statistics
import sys
import time
from collections import defaultdict
from typing import Any

from server.games.voyages import data as D
from server.games.voyages.engine import GAME
from server.games.voyages.simulate import LINEUPS, lineup_options


def load_bot(spec: str) -> Any:
    """A GreedyBot class from a module name or a file path (e.g. an older bots.py kept for comparison)."""
    if spec.endswith(".py"):
        mod_spec = importlib.util.spec_from_file_location(f"voyages_bot_{abs(hash(spec))}", spec)
        assert mod_spec is not None and mod_spec.loader is not None
        mod = importlib.util.module_from_spec(mod_spec)
        mod_spec.loader.exec_module(mod)
    else:
        mod = importlib.import_module(spec)
    return mod.GreedyBot


def play(bots: list[Any], seats: int, seed: int, options: dict[str, Any]) -> dict[str, Any]:
    """One seeded game, a bot instance per seat; the per-seat figures of issue 33."""
    state = GAME.setup(seats, options, seed)
    first = state["start_player"]
    travels = [0] * seats
    seq = state["seq"]
    moves = 0
    t0 = time.perf_counter()
    while GAME.result(state) is None:
        seat = GAME.active_seats(state)[0]
        prompt = GAME.prompt(state, seat)
        assert prompt is not None
        move = bots[seat].choose(prompt, GAME.view(state, seat))
        state = GAME.apply(state, seat, move)
        moves += 1
        for ev in state["log"]:
            if ev["n"] > seq and ev.get("ev") == "place" and ev.get("space") == "travel":
                travels[ev["seat"]] += 1
        seq = state["seq"]
    result = GAME.result(state)
    assert result is not None
    goals = [sum(all(c in p["posts"] for c in D.GOALS[g]["cities"]) for g in p["goals"]) for p in state["players"]]
    return {
        "seed": seed,
        "seats": seats,
        "first": first,
        "moves": moves,
        "secs": round(time.perf_counter() - t0, 3),
        "characters": [p["character"] for p in state["players"]],
        "scores": result["scores"],
        "winners": result["winners"],
        "travels": travels,
        "goals": goals,
        "beijing": [s in state["beijing"] for s in range(seats)],
        "posts": [len(p["posts"]) for p in state["players"]],
        "breakdown": result["breakdown"],
    }


def compact(row: dict[str, Any]) -> dict[str, Any]:
    """A row as stored: the breakdown without its zero entries (`total` is the score), no timing."""
    out = {k: v for k, v in row.items() if k != "secs"}
    out["breakdown"] = [{k: v for k, v in b.items() if v and k != "total"} for b in row["breakdown"]]
    return out


def table(rows: list[dict[str, Any]], key: str = "characters") -> list[str]:
    """Per character (or per bot): games, win rate, mean VP, Travel actions, goal cards, Beijing share."""
    acc: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    for r in rows:
        for s, name in enumerate(r[key]):
            for who in (name, "all"):
                a = acc[who]
                a["win"].append(1.0 if s in r["winners"] else 0.0)
                a["vp"].append(r["scores"][s])
                a["travel"].append(r["travels"][s])
                a["goals"].append(r["goals"][s])
                a["beijing"].append(1.0 if r["beijing"][s] else 0.0)
                a["goal_vp"].append(r["breakdown"][s].get("goal_cards", 0))
    head = key[:-1] if key.endswith("s") else key
    out = [
        f"| {head} | games | win % | mean VP | travel | goal cards | goal VP | Beijing % |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for name in sorted(acc, key=lambda n: (n == "all", n)):
        a = acc[name]
        out.append(
            f"| {name} | {len(a['win'])} | {100 * statistics.mean(a['win']):.1f} | {statistics.mean(a['vp']):.1f} | "
            f"{statistics.mean(a['travel']):.2f} | {statistics.mean(a['goals']):.2f} | "
            f"{statistics.mean(a['goal_vp']):.1f} | {100 * statistics.mean(a['beijing']):.0f} |"
        )
    return out


def by_place(rows: list[dict[str, Any]]) -> str:
    """Win rate by place in the first round's turn order (place 1: the start player; a shared win counts a part)."""
    seats = rows[0]["seats"]
    wins = [0.0] * seats
    for r in rows:
        for w in r["winners"]:
            wins[(w - r["first"]) % seats] += 1 / len(r["winners"])
    return "by place in turn order (1 = start player): " + " / ".join(f"{100 * w / len(rows):.1f}%" for w in wins)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--first", type=int, default=0, help="first seed")
    ap.add_argument("--seats", type=int, nargs="+", default=[2, 4])
    ap.add_argument("--lineup", choices=LINEUPS, nargs="+", default=["beginner", "random", "draft"])
    ap.add_argument("--bot", default="server.games.voyages.bots")
    ap.add_argument("--versus", default=None, help="the other seats' bot (module or bots.py path)")
    ap.add_argument("--rows", default=None, help="append one JSON row per game to this file")
    args = ap.parse_args(argv)
    bot = load_bot(args.bot)
    other = load_bot(args.versus) if args.versus else bot
    for seats in args.seats:
        for lineup in args.lineup:
            rows = []
            t0 = time.perf_counter()
            for seed in range(args.first, args.first + args.games):
                me = seed % seats
                bots = [(bot if (s == me or not args.versus) else other)(seed * 31 + s) for s in range(seats)]
                r = play(bots, seats, seed, lineup_options(lineup, seats, seed, False))
                r["lineup"] = lineup
                r["bots"] = ["new" if (s == me or not args.versus) else "old" for s in range(seats)]
                rows.append(r)
                if args.rows:
                    with open(args.rows, "a") as f:
                        f.write(json.dumps(compact(r), sort_keys=True, separators=(",", ":")) + "\n")
            secs = time.perf_counter() - t0
            decisions = sum(r["moves"] for r in rows)
            print(
                f"## {seats} seats, {lineup}, {len(rows)} games (seeds {args.first}-{args.first + args.games - 1}), "
                f"{secs:.0f} s, {1000 * secs / max(1, decisions):.2f} ms a move"
            )
            print("\n".join(table(rows, "bots" if args.versus else "characters")))
            print(by_place(rows))
            if args.versus:
                print("\n".join(table(rows, "characters")))
            print(flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
