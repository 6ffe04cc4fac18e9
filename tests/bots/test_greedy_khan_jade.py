"""The Marco Polo II greedy bot spends jade in place of coins or camels only when that gains."""

from __future__ import annotations

from typing import Any

from server.games import get_game
from server.games.khan.bots import VALUE, GreedyBot, _Context
from tests.util import greedy_decisions


def _jade_prompts(games: int) -> list[tuple[dict[str, Any], dict[str, Any], Any]]:
    """(prompt, view, chosen move) of every greedy decision whose options include a jade split."""
    return [
        (prompt, view, move)
        for prompt, view, move in greedy_decisions("khan", GreedyBot, games)
        if any(isinstance(o.get("jade"), dict) for o in prompt["options"])
    ]


def test_greedy_pays_with_jade_only_when_it_gains() -> None:
    seen = _jade_prompts(6)
    assert len(seen) >= 20, "the games offered jade splits"
    plain = split = 0
    for prompt, view, move in seen:
        ctx = _Context(view)
        if isinstance(move.get("jade"), dict):
            split += 1
            assert ctx.jade_cost(move) < 0, move
            base = {k: v for k, v in move.items() if k != "jade"}
            assert base in prompt["options"]
            # a split is taken only where it beats the plain move by what it keeps
            assert ctx.score(move) - ctx.jade_cost(move) > ctx.score(base)
        else:
            plain += 1
    assert plain > split  # jade is worth more than a coin or a camel: the plain move is the rule


def test_jade_cost_weighs_what_the_split_keeps() -> None:
    game = get_game("khan")
    state = game.setup(2, None, 1)
    seat = game.active_seats(state)[0]
    view = game.view(state, seat)
    me = view["public"]["players"][seat]
    me["coins"], me["camels"], me["jade"] = 20, 8, 3
    ctx = _Context(view)
    ctx.need["camels"] = 0
    ctx.need["jade"] = 0
    assert ctx.jade_cost({"a": "step"}) == 0
    # plenty of coins and camels: a jade for a coin loses what a jade is worth more than a coin
    assert ctx.jade_cost({"a": "step", "jade": {"coins": 1, "camels": 0}}) > 0
    assert ctx.jade_cost({"a": "step", "jade": {"coins": 0, "camels": 2}}) > 0
    # the last coins and camels the contracts lack are worth keeping
    me["coins"] = 2
    ctx.need["camels"] = 3
    assert ctx.jade_cost({"a": "step", "jade": {"coins": 1, "camels": 0}}) < 0
    assert ctx.jade_cost({"a": "step", "jade": {"coins": 0, "camels": 1}}) < 0
    assert VALUE["jade"] > VALUE["coins"]


def test_greedy_stays_deterministic_given_its_seed() -> None:
    game = get_game("khan")

    def play(seed: int) -> list[Any]:
        state = game.setup(2, None, 3)
        bots = [GreedyBot(seed + s) for s in range(2)]
        moves = []
        while game.result(state) is None:
            seat = game.active_seats(state)[0]
            prompt = game.prompt(state, seat)
            assert prompt is not None
            move = bots[seat].choose(prompt, game.view(state, seat))
            moves.append(move)
            state = game.apply(state, seat, move)
        return moves

    assert play(5) == play(5)
