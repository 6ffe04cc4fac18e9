"""`python -m loadtests.copy_bench`: what the per-move state copy costs, per game (`clone` vs `successor`).

Each game is played 60 random moves in from a fixed seed (4 seats), then both copies of that state are timed
in this process. Prints microseconds per copy and their ratio; the ratio is what to compare across machines.
"""

from __future__ import annotations

import argparse
import random
import timeit

from server.games import all_games
from server.games.base import State, clone, successor


def mid_game(game_id: str, moves: int, seed: int) -> State:
    game = all_games()[game_id]
    rng = random.Random(seed)
    state = game.setup(4, None, seed)
    for _ in range(moves):
        active = game.active_seats(state)
        if not active or game.result(state) is not None:
            break
        state = game.apply(state, active[0], rng.choice(game.legal_moves(state, active[0])))
    return state


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--moves", type=int, default=60, help="random moves played before timing (default 60)")
    ap.add_argument("--number", type=int, default=3000, help="copies timed per function (default 3000)")
    ap.add_argument("--seed", type=int, default=5)
    a = ap.parse_args(argv)
    print(f"{'game':<11} {'clone us':>9} {'successor us':>13} {'ratio':>6}")
    for game_id in sorted(all_games()):
        state = mid_game(game_id, a.moves, a.seed)
        full = min(timeit.repeat(lambda s=state: clone(s), number=a.number, repeat=3)) / a.number * 1e6
        shared = min(timeit.repeat(lambda s=state: successor(s), number=a.number, repeat=3)) / a.number * 1e6
        print(f"{game_id:<11} {full:>9.1f} {shared:>13.1f} {shared / full:>6.2f}")


if __name__ == "__main__":
    main()
