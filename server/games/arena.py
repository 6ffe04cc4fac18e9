"""Arena: the search bot against the greedy bot (or any two levels), every game at 2 seats, seats swapped, seeded.

Owns: playing bot-only games and printing (and writing to docs/bots.md) a table of mean scores, win rates
and decision times. Must not: run in `make test` (it takes minutes; `make arena`).

Usage: python -m server.games.arena [--games N] [--playouts P | --seconds S] [--jobs J] [--game ID ...]
       [--pair A:B] [--seats N]
Game k of a game seats the search bot at seat k % 2 (seats swapped every other game) and uses seed k.
A "win" is the search bot among the winners and the greedy bot not; a tie (both winners) counts half.
`--pair A:B` pits level A (one seat) against level B (every other seat) instead: levels random (easy),
greedy (normal) and search (hard); `--seats N` plays N seats, A at seat k % N. A row keeps the fields of
the default pair: `search` is A's score, `greedy` the best of B's, `win` A's; its `pair` names the levels
(rows without one are search:greedy). Only the default pair writes docs/bots.md and the games' docs.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import re
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from server.games import all_games, get_game
from server.games.bots import RandomBot
from server.games.search import Budget, SearchBot, greedy_for

DOC = Path(__file__).resolve().parents[2] / "docs" / "bots.md"
BEGIN = "<!-- arena:begin -->"
END = "<!-- arena:end -->"
PAIR = "search:greedy"
LEVELS = {"easy": "random", "normal": "greedy", "hard": "search"}


def parse_pair(text: str) -> str:
    """`A:B` with level names or easy/normal/hard, as "random|greedy|search:random|greedy|search"."""
    a, b = (LEVELS.get(x, x) for x in text.partition(":")[::2])
    if not {a, b} <= set(LEVELS.values()):
        raise argparse.ArgumentTypeError(f"want A:B of random, greedy, search (or easy, normal, hard), not {text!r}")
    return f"{a}:{b}"


def names(rows: list[dict[str, Any]]) -> tuple[str, str]:
    """The two levels of the rows' pair (search, greedy for rows written before pairs)."""
    a, _, b = (rows[0].get("pair", PAIR) if rows else PAIR).partition(":")
    return a, b


def level_bot(level: str, game_id: str, seed: int, budget: Budget) -> Any:
    """A bot of a level: the search bot (`choose_state`), else one with `choose(prompt, view)`."""
    if level == "search":
        return SearchBot(game_id, seed, budget)
    return greedy_for(game_id, seed) if level == "greedy" else RandomBot(seed)


def choose(bot: Any, game: Any, state: dict[str, Any], seat: int, prompt: dict[str, Any]) -> Any:
    """The bot's move: the search bot reads the state, the others the prompt and the seat's view."""
    if isinstance(bot, SearchBot):
        return bot.choose_state(state, seat)
    return bot.choose(prompt, game.view(state, seat))


def play(game_id: str, k: int, budget: Budget, seats: int = 2, pair: str = PAIR) -> dict[str, Any]:
    """One game; the pair's first level (search) sits at seat k % seats, its second (greedy) elsewhere."""
    game = get_game(game_id)
    state = game.setup(seats, None, k)
    me = k % seats
    # the start player (drawn from the seed in every game but Expedition, where seat 0 starts)
    starter = state.get("first", state.get("start_player", 0))
    first, _, second = pair.partition(":")
    search = level_bot(first, game_id, 1000 + k, budget)
    greedy = [level_bot(second, game_id, 2000 + 10 * k + s, budget) for s in range(seats)]
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
            move = choose(search, game, state, seat, prompt)
            if len(prompt["options"]) > 1:
                times.append(time.perf_counter() - t0)
                playouts += getattr(search, "last_playouts", 0)
        else:
            move = choose(greedy[seat], game, state, seat, prompt)
        state = game.apply(state, seat, move)
        moves += 1
    result = game.result(state)
    assert result is not None
    winners = result["winners"]
    others = [s for s in range(seats) if s != me]
    players = state.get("players")
    chars = [p.get("character") for p in players] if isinstance(players, list) else [None] * seats
    return {
        "starts": starter == me,
        "character": chars[me],
        "greedy_character": chars[others[0]],
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
        "pair": pair,
        "seats": seats,
    }


def _run(args: tuple[str, int, Budget, int, str]) -> dict[str, Any]:
    return play(*args)


def wilson(wins: float, n: int, z: float = 1.96) -> str:
    """The Wilson score interval of a win rate, as "lo-hi%" (ties count half a win)."""
    if n == 0:
        return "-"
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return f"{100 * max(0.0, centre - half):.0f}-{100 * min(1.0, centre + half):.0f}%"


def table(rows: list[dict[str, Any]], budget: Budget) -> str:
    """The markdown table of the arena figures, one line per game."""
    a, b = names(rows)
    seats = sorted({r["seat"] for r in rows}) or [0, 1]
    best = "best " if len(seats) > 2 else ""
    lines = [
        f"| game | games | {a} mean | {best}{b} mean | {a} win rate (95% interval) | "
        f"{a} as seat {' / '.join(map(str, seats))} | mean decision (ms) | max decision (ms) | playouts per decision |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for gid in sorted({r["game"] for r in rows}):
        rs = [r for r in rows if r["game"] == gid]
        n = len(rs)
        dec = sum(r["decisions"] for r in rs)
        by_seat = []
        for s in seats:
            sr = [r["win"] for r in rs if r["seat"] == s]
            by_seat.append(f"{100 * statistics.fmean(sr):.0f}%" if sr else "-")
        lines.append(
            f"| {gid} | {n} | {statistics.fmean(r['search'] for r in rs):.1f} | "
            f"{statistics.fmean(r['greedy'] for r in rs):.1f} | {100 * statistics.fmean(r['win'] for r in rs):.0f}% "
            f"({wilson(sum(r['win'] for r in rs), n)}) | "
            f"{' / '.join(by_seat)} | {1000 * sum(r['think'] for r in rs) / max(1, dec):.0f} | "
            f"{1000 * max(r['max_think'] for r in rs):.0f} | {sum(r['playouts'] for r in rs) / max(1, dec):.1f} |"
        )
    horizon = budget.horizon or "the game's `HORIZON` (see above)"
    if budget.playouts is not None:
        what = f"{budget.playouts} playouts per decision (unless `--game-playouts` set a game's own)"
        if budget.seconds is not None:
            what += f" or {budget.seconds} s, whichever came first"
    else:
        what = f"{budget.seconds} s per decision"
    lines.append("")
    if "search" not in (a, b):
        lines.append(f"Decision times ({a} only) count only decisions with more than one option.")
        return "\n".join(lines)
    lines.append(
        f"Budget: {what}; {budget.candidates} root candidates; playouts cut off after {horizon} moves. "
        "Decision times count only decisions with more than one option."
    )
    return "\n".join(lines)


def seat_table(rows: list[dict[str, Any]], gid: str) -> str:
    """Per game: the search bot's win rate by seat, by place in turn order and by character."""
    rs = [r for r in rows if r["game"] == gid]
    if not rs:
        return ""
    a, b = names(rs)

    def rate(sel: list[dict[str, Any]]) -> str:
        if not sel:
            return "-"
        return f"{100 * statistics.fmean(r['win'] for r in sel):.0f}% ({len(sel)})"

    seats = rs[0].get("seats", 2)
    lines = [
        f"{a.capitalize()} bot against {b} bot{'s' if seats > 2 else ''}, {seats} seats, {len(rs)} games "
        f"(win rate of the {a} bot, games in brackets):",
        "",
        "| split | win rate |",
        "|---|---|",
        *(f"| {a} at seat {s} | {rate([r for r in rs if r['seat'] == s])} |" for s in range(seats)),
        f"| {a} starts | {rate([r for r in rs if r['starts']])} |",
        f"| {b} starts | {rate([r for r in rs if not r['starts']])} |",
    ]
    chars = sorted({r["character"] for r in rs if r.get("character")})
    for c in chars:
        lines.append(f"| {a} plays {c} | {rate([r for r in rs if r['character'] == c])} |")
    for c in sorted({r["greedy_character"] for r in rs if r.get("greedy_character")}):
        lines.append(f"| {b} plays {c} | {rate([r for r in rs if r['greedy_character'] == c])} |")
    return "\n".join(lines)


def write_game_docs(rows: list[dict[str, Any]], note: str) -> None:
    """Replace the arena block of every measured game's doc (docs/games/<game>.md, between the markers)."""
    for gid in sorted({r["game"] for r in rows}):
        path = DOC.parent / "games" / f"{gid}.md"
        if path.exists():
            replace_block(path, seat_table(rows, gid) + "\n\n" + note)


def replace_block(path: Path, text: str) -> None:
    """Replace the text between the arena markers of `path` (appended at the end when missing)."""
    doc = path.read_text()
    block = f"{BEGIN}\n{text}\n{END}"
    if BEGIN in doc:
        doc = re.sub(re.escape(BEGIN) + ".*?" + re.escape(END), lambda _m: block, doc, flags=re.S)
    else:
        doc += "\n" + block + "\n"
    path.write_text(doc)


def write_doc(text: str) -> None:
    """Replace the arena section of docs/bots.md (between the markers) with `text`."""
    if not DOC.exists():
        DOC.write_text("# Bots\n")
    replace_block(DOC, text)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=20, help="games per game id (seats alternate)")
    ap.add_argument("--playouts", type=int, default=None, help="playouts per decision")
    ap.add_argument("--seconds", type=float, default=None, help="seconds per decision")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--game", action="append", default=None)
    ap.add_argument("--minutes", type=float, default=None, help="stop after this many minutes (finished games count)")
    ap.add_argument("--no-write", action="store_true", help="print only; leave docs/bots.md alone")
    ap.add_argument(
        "--game-playouts",
        action="append",
        default=[],
        metavar="ID=P",
        help="playouts per decision for one game (overrides --playouts there)",
    )
    ap.add_argument("--rows", default=None, help="also append every game's row to this JSON-lines file")
    ap.add_argument("--resume", action="store_true", help="skip the games (game, k) already in the --rows file")
    ap.add_argument("--from-rows", default=None, help="no games: build the tables from a --rows file")
    ap.add_argument(
        "--pair",
        type=parse_pair,
        default=PAIR,
        metavar="A:B",
        help="level A at one seat against level B elsewhere (random|easy, greedy|normal, search|hard); "
        "only the default search:greedy writes the docs",
    )
    ap.add_argument("--seats", type=int, default=2, help="seats per game (A sits at seat k %% seats)")
    a = ap.parse_args(argv)
    if a.playouts is None and a.seconds is None:
        a.playouts = 64
    budget = Budget(seconds=a.seconds, playouts=a.playouts)
    command = "python -m server.games.arena " + " ".join(argv if argv is not None else sys.argv[1:])
    if a.from_rows:
        saved = [json.loads(line) for line in Path(a.from_rows).read_text().splitlines() if line.strip()]
        # the tables name the command that played the games, and how long it ran
        command = saved[0].get("command", command) if saved else command
        wall = max((r.get("elapsed", 0.0) for r in saved), default=0.0)
        publish(saved, budget, a, command, wall=wall, planned=saved[0].get("planned") if saved else None)
        return
    games = a.game or sorted(all_games())
    per_game = {}
    for item in a.game_playouts:
        gid, _, n = item.partition("=")
        per_game[gid] = Budget(seconds=a.seconds, playouts=int(n))
    work = [(gid, k, per_game.get(gid, budget), a.seats, a.pair) for gid in games for k in range(a.games)]
    if a.resume and a.rows and Path(a.rows).exists():
        lines = [line for line in Path(a.rows).read_text().splitlines() if line.strip()]
        done = {(r["game"], r["k"]) for r in map(json.loads, lines)}
        work = [w for w in work if (w[0], w[1]) not in done]
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
            row.update(command=command, elapsed=time.time() - t0, planned=len(work))
            if a.rows:
                with open(a.rows, "a") as fh:
                    fh.write(json.dumps(row) + "\n")
            first, _, second = a.pair.partition(":")
            print(
                f"{row['game']} #{row['k']} {first}(seat {row['seat']}) {row['search']} : {second} {row['greedy']}",
                file=sys.stderr,
                flush=True,
            )
    finally:
        pool.terminate()
    publish(rows, budget, a, command, wall=time.time() - t0, planned=len(work))


def publish(
    rows: list[dict[str, Any]],
    budget: Budget,
    a: argparse.Namespace,
    command: str,
    wall: float | None,
    planned: int | None,
) -> None:
    """Print the tables and (unless --no-write) write them into docs/bots.md and the games' docs."""
    text = table(rows, budget)
    if wall is not None:
        text += (
            f"\nWall time {wall:.0f} s with {a.jobs} worker process(es); {len(rows)} of {planned} games planned "
            "finished."
        )
    text += f"\nCommand: `{command}`."
    print(text)
    for gid in sorted({r["game"] for r in rows}):
        print("\n" + gid + "\n" + seat_table(rows, gid))
    if not a.no_write and ":".join(names(rows)) == PAIR:
        write_doc(text)
        write_game_docs(rows, f"Measured with `{command}` (`server/games/arena.py`; the table in docs/bots.md).")


if __name__ == "__main__":
    main()
