"""What the two dice-placement simulations share: one seeded bot game, and the seeded random line-up.

Owns: `play` (a whole game of one engine with a bot kind per seat, returning its figures) and
`random_characters`. The per-game reports stay in `server/games/voyages/simulate.py` and
`server/games/khan/simulate.py`.
Must not: print; change any engine or bot.
"""

from __future__ import annotations

from typing import Any

from server.games.base import Rng
from server.games.bots import RandomBot
from server.games.dice.core import DiceGame


def random_characters(characters: dict[str, Any], seats: int, seed: int) -> list[str]:
    """The characters of game `seed`: a seeded draw of `seats` of them."""
    pool = sorted(characters)
    Rng(seed ^ 0xC0FFEE).shuffle(pool)
    return pool[:seats]


def play(
    game: DiceGame, greedy: Any, seats: int, seed: int, kinds: list[str], options: dict[str, Any] | None = None
) -> dict[str, Any]:
    """One seeded game with the given bot kind ("greedy" or "random") per seat; returns its figures, with the
    seat that started round 1 under `first`."""
    state = game.setup(seats, options, seed)
    first = state[game.FIRST]
    bots: list[Any] = [(greedy if kind == "greedy" else RandomBot)(seed * 31 + s) for s, kind in enumerate(kinds)]
    moves = 0
    while game.result(state) is None:
        seat = game.active_seats(state)[0]
        prompt = game.prompt(state, seat)
        assert prompt is not None
        bot = bots[seat]
        move = bot.choose(prompt, game.view(state, seat)) if isinstance(bot, greedy) else bot.choose(prompt)
        state = game.apply(state, seat, move)
        moves += 1
    result = game.result(state)
    assert result is not None
    return {
        "moves": moves,
        "rounds": state["round"],
        "result": result,
        "stats": state["stats"],
        "characters": [p["character"] for p in state["players"]],
        "first": first,
    }
