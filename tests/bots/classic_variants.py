"""Measurements, not bots: the classic search bot with one part changed, played through the arena's loop.

    nice -n 19 python -m tests.bots.classic_variants VARIANT --game classic --games 40 --playouts 32 \
        --jobs 1 --no-write --rows ROWS

(every argument after VARIANT goes to `server.games.arena`; rows and tables are those of an arena run).

- `unkeyed`: the sampled worlds without keyed dice (`state["dice"]` removed, so the playouts draw from one
  stream, `state["rng"]`, as a real game does): what the keyed dice add.
- `oracle`: each world is the real state (every hand, stack order and Golden Table as they are) with freshly
  keyed dice, so the search cheats on the cards but not on the spins and fights to come: an upper bound of
  what better sampling could give. It breaks the search's rule of reading the state only through
  `sample_state` and the seat's view; the server never uses either variant (nothing imports this file).
"""

from __future__ import annotations

import sys
from collections.abc import Callable

from server.games import arena
from server.games.base import Game, Rng, State, clone
from server.games.search import Budget, SearchBot


def _unkeyed(real: Callable[[State, int, Rng], State]) -> Callable[[State, int, Rng], State]:
    def sample_state(state: State, seat: int, rng: Rng) -> State:
        world = real(state, seat, rng)
        del world["dice"]
        return world

    return sample_state


def _oracle(real: Callable[[State, int, Rng], State]) -> Callable[[State, int, Rng], State]:
    def sample_state(state: State, seat: int, rng: Rng) -> State:
        world = clone(state)
        world["dice"] = real(state, seat, rng)["dice"]  # a fresh key; the cards stay as they are
        return world

    return sample_state


VARIANTS = {"unkeyed": _unkeyed, "oracle": _oracle}


def bot_class(variant: str) -> type[SearchBot]:
    """A SearchBot whose game samples its worlds the variant's way."""
    wrap = VARIANTS[variant]

    class VariantBot(SearchBot):
        name = f"search-{variant}"

        def __init__(self, game_id: str, seed: int = 0, budget: Budget | None = None) -> None:
            super().__init__(game_id, seed, budget)
            game: Game = type(self.game)()  # a private instance: the shared game keeps its own sampler
            game.sample_state = wrap(game.sample_state)  # type: ignore[method-assign,assignment]
            self.game = game

    return VariantBot


def main(argv: list[str]) -> None:
    arena.SearchBot = bot_class(argv[0])  # type: ignore[attr-defined]
    arena.main(argv[1:])


if __name__ == "__main__":
    main(sys.argv[1:])
