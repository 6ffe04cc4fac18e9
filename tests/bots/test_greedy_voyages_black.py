"""The Voyages greedy bot buys a black die with camels its contracts do not need, and only then."""

from __future__ import annotations

from server.games import get_game
from server.games.voyages.bots import BLACK_DIE_SCORE, GreedyBot, _Context


def test_greedy_buys_black_dice_only_with_spare_camels() -> None:
    game = get_game("voyages")
    bought = offered = 0
    for k in range(4):
        state = game.setup(2, None, k)
        bots = [GreedyBot(10 * k + s) for s in range(2)]
        while game.result(state) is None:
            seat = game.active_seats(state)[0]
            prompt = game.prompt(state, seat)
            assert prompt is not None
            view = game.view(state, seat)
            move = bots[seat].choose(prompt, view)
            if {"a": "black"} in prompt["options"]:
                offered += 1
                ctx = _Context(view)
                spare = ctx.me["camels"] - ctx.need["camels"] - 3
                assert ctx.score({"a": "black"}) == (BLACK_DIE_SCORE if spare >= 0 else -20)
                if move == {"a": "black"}:
                    bought += 1
                    assert spare >= 0  # the camels the contracts still lack stay
            state = game.apply(state, seat, move)
    assert offered > bought > 0
