"""Seeded random games with every character at 2, 3 and 4 seats, with the Caravans expansion and the Black
Dice variant, and greedy games.

The conformance suite plays the default options only (draft, no expansion); these games give every character
and option the same checks: bounded prompts, no foreign secret or hidden token in any view, a result at the
end, well inside the move bound.
"""

from __future__ import annotations

from typing import Any

import pytest

from server.games.base import MAX_OPTIONS
from server.games.khan import data as D
from server.games.khan.bots import GreedyBot
from server.games.khan.engine import GAME
from tests.conformance.test_engines import MOVE_BOUND, playthrough

from .helpers import strings

CHARS = sorted(D.CHARACTERS)


def _check_game(seats: int, seed: int, options: dict[str, Any]) -> None:
    steps = 0
    for state, seat, prompt, _move in playthrough(GAME, seats, seed, options):
        hidden = set(GAME.hidden_tokens(state))
        for viewer in [*range(seats), None]:
            seen = strings(GAME.view(state, viewer))
            assert not seen & hidden
            for other in range(seats):
                if other != viewer:
                    assert not seen & set(GAME.secret_tokens(state, other))
        if seat is None:
            assert GAME.result(state) is not None
            break
        assert prompt is not None and 0 < len(prompt["options"]) <= MAX_OPTIONS
        steps += 1
    assert steps < MOVE_BOUND // 10


@pytest.mark.parametrize("seats", [2, 3, 4])
@pytest.mark.parametrize("char", CHARS)
def test_random_games_with_every_character_end_with_a_result(char: str, seats: int) -> None:
    others = [c for c in CHARS if c != char]
    i = CHARS.index(char)
    lineup = [char, *(others[(i + k) % len(others)] for k in range(seats - 1))]
    _check_game(seats, 100 + i * 7 + seats, {"characters": lineup, "caravans": i % 2 == 0})


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_random_games_with_the_caravans_and_the_black_dice_variant_end_with_a_result(seats: int) -> None:
    for seed in (1, 2):
        _check_game(seats, seed, {"caravans": True, "black_dice_variant": True})


def test_greedy_games_with_caravans_end_with_a_result_and_use_the_expansion() -> None:
    claimed = 0
    for seed in range(3):
        state = GAME.setup(4, {"caravans": True, "characters": CHARS[seed : seed + 4]}, seed)
        bots = [GreedyBot(seed * 10 + s) for s in range(4)]
        for _ in range(MOVE_BOUND):
            if GAME.result(state) is not None:
                break
            seat = GAME.active_seats(state)[0]
            prompt = GAME.prompt(state, seat)
            assert prompt is not None
            state = GAME.apply(state, seat, bots[seat].choose(prompt, GAME.view(state, seat)))
        assert GAME.result(state) is not None
        claimed += state["stats"].get("caravan_claim", 0)
    assert claimed > 0
