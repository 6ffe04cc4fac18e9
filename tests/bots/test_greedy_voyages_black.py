"""The Voyages greedy bot buys a black die with camels its contracts do not need, and only then."""

from __future__ import annotations

from server.games.voyages.bots import BLACK_DIE_SCORE, GreedyBot, _Context
from tests.util import greedy_decisions


def test_greedy_buys_black_dice_only_with_spare_camels() -> None:
    bought = offered = 0
    for prompt, view, move in greedy_decisions("voyages", GreedyBot, 4):
        if {"a": "black"} in prompt["options"]:
            offered += 1
            ctx = _Context(view)
            spare = ctx.me["camels"] - ctx.need["camels"] - 3
            assert ctx.score({"a": "black"}) == (BLACK_DIE_SCORE if spare >= 0 else -20)
            if move == {"a": "black"}:
                bought += 1
                assert spare >= 0  # the camels the contracts still lack stay
    assert offered > bought > 0
