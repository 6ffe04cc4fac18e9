"""The dice games end a turn by themselves when "end" is all a seat could do (`_settle`).

`_only_end` answers that without listing the spaces (the largest part of the old check); these tests hold it
to the full option list at every point of seeded greedy and random games where the check runs.
"""

from __future__ import annotations

import random

import pytest

from server.games import get_game
from server.games.search import greedy_for

END = [{"a": "end"}]


@pytest.mark.parametrize("game_id", ["khan", "voyages"])
def test_only_end_agrees_with_the_whole_option_list(game_id: str) -> None:
    game = get_game(game_id)
    answers = {True: 0, False: 0}
    for seed in range(4):
        rng = random.Random(seed)
        state = game.setup(2 + seed % 3, None, seed)
        bots = [greedy_for(game_id, seed * 10 + s) for s in range(state["seats"])]
        for _ in range(600):
            if game.result(state) is not None:
                break
            if state["phase"] not in ("over", "draft", "setup", "goals", "start"):
                for seat in range(state["seats"]):
                    only = game._only_end(state, seat)  # type: ignore[attr-defined]
                    assert only == (game._turn_options(state, seat) == END)  # type: ignore[attr-defined]
                    answers[only] += 1
            seat = game.active_seats(state)[0]
            prompt = game.prompt(state, seat)
            assert prompt is not None
            if seed % 2:
                move = rng.choice(prompt["options"])
            else:
                move = bots[seat].choose(prompt, game.view(state, seat))
            state = game.apply(state, seat, move)
    assert answers[True] > 20 and answers[False] > 100
