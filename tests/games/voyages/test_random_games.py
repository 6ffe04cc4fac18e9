"""Seeded random games with every character at 2, 3 and 4 seats, and with the expert set-up.

The conformance suite plays the default (beginner) set-up only; these games give every character and the
draft the same checks: bounded prompts, no foreign secret or hidden token in any view, a result at the end.
"""

from __future__ import annotations

from typing import Any

import pytest

from server.games.base import MAX_OPTIONS
from server.games.voyages import data as D
from server.games.voyages.engine import GAME
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
    assert steps < MOVE_BOUND


@pytest.mark.parametrize("seats", [2, 3, 4])
@pytest.mark.parametrize("char", CHARS)
def test_random_games_with_every_character_end_with_a_result(char: str, seats: int) -> None:
    others = [c for c in CHARS if c != char]
    i = CHARS.index(char)
    lineup = [char, *(others[(i + k) % len(others)] for k in range(seats - 1))]
    _check_game(seats, 100 + i * 7 + seats, {"characters": lineup})


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_random_expert_games_with_the_draft_end_with_a_result(seats: int) -> None:
    for seed in (1, 2):
        _check_game(seats, seed, {"expert": True})
