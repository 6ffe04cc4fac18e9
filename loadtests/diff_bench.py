"""`python -m loadtests.diff_bench`: what a view diff costs and how big it is, per game, in this process.

Seeded random 4-seat games; for every move, the shared part of the view (`public`, `result`, seats) and the
mover's own part (`you`, `private`, `prompt`) before and after it are diffed with `protocol.patch`'s diff, as
a room does for its first viewer. Prints microseconds per move (best of `--repeat` passes over the same pairs)
and the median packed bytes of the mover's operations. `--against FILE` loads another version of
`protocol/patch.py` (e.g. `git show REV:protocol/patch.py > /tmp/patch_rev.py`) and runs it on the same
pairs in the same run, alternating, so the ratio is what to compare across machines.
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import time
from collections.abc import Callable
from typing import Any

import msgpack

from protocol.patch import make_patch_builtin
from server.games import Game, all_games

Pair = tuple[dict[str, Any], dict[str, Any], dict[str, Any], dict[str, Any]]
Diff = Callable[..., list[dict[str, Any]]]


#: the seats part of a 4-seat room's view (every seat taken and connected)
SEATS = [{"name": f"p{i}", "taken": True, "connected": True, "rating": None} for i in range(4)]


def shared_part(game: Game, state: Any) -> dict[str, Any]:
    """The part of a view every viewer shares that comes from the game (a room adds constant keys)."""
    return {"seats": SEATS, "public": game.public_view(state), "result": game.result(state)}


def own_part(game: Game, state: Any, seat: int) -> dict[str, Any]:
    """What only `seat` sees, as a room builds it."""
    return {"you": seat, "private": game.private_view(state, seat), "prompt": game.prompt(state, seat)}


def view_pairs(game_id: str, games: int, seed: int) -> list[Pair]:
    """(shared before, shared after, own before, own after) for every move of `games` random games."""
    game = all_games()[game_id]
    out: list[Pair] = []
    for g in range(games):
        rng = random.Random(seed + g)
        state = game.setup(4, None, seed + g)
        for _ in range(400):
            active = game.active_seats(state)
            if not active or game.result(state) is not None:
                break
            seat = active[0]
            after = game.apply(state, seat, rng.choice(game.legal_moves(state, seat)))
            out.append(
                (
                    shared_part(game, state),
                    shared_part(game, after),
                    own_part(game, state, seat),
                    own_part(game, after, seat),
                )
            )
            state = after
    return out


def _load(path: str) -> Diff:
    spec = importlib.util.spec_from_file_location("patch_against", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    fn: Diff = module.make_patch_builtin
    return fn


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=8, help="random games per game id (default 8)")
    ap.add_argument("--repeat", type=int, default=5, help="timed passes, the best one counts (default 5)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--against", metavar="FILE", help="another protocol/patch.py to compare with in this run")
    a = ap.parse_args(argv)
    diffs: dict[str, Diff] = {"this": make_patch_builtin}
    if a.against:
        diffs["against"] = _load(a.against)
    head = f"{'game':<11} {'moves':>6}" + "".join(f" {n + ' us':>11} {n + ' B':>9}" for n in diffs)
    print(head + ("  ratio us / B" if a.against else ""))
    for game_id in sorted(all_games()):
        pairs = view_pairs(game_id, a.games, a.seed)
        best = dict.fromkeys(diffs, float("inf"))
        for _ in range(a.repeat):
            for name, diff in diffs.items():
                t0 = time.perf_counter()
                for s0, s1, o0, o1 in pairs:
                    diff(s0, s1, copy=False)
                    diff(o0, o1, copy=False)
                best[name] = min(best[name], (time.perf_counter() - t0) / len(pairs) * 1e6)
        size = {}
        for name, diff in diffs.items():
            sizes = sorted(len(msgpack.packb(diff(s0, s1) + diff(o0, o1))) for s0, s1, o0, o1 in pairs)
            size[name] = sizes[len(sizes) // 2]
        line = f"{game_id:<11} {len(pairs):>6}" + "".join(f" {best[n]:>11.1f} {size[n]:>9}" for n in diffs)
        if a.against:
            line += f"  {best['this'] / best['against']:.2f} / {size['this'] / size['against']:.2f}"
        print(line)


if __name__ == "__main__":
    main()
