"""Classic: the greedy bot trades while short of the total, and the search scores playouts by turns left."""

from __future__ import annotations

from typing import Any

import pytest

from server.games.base import clone
from server.games.classic import bots as B
from server.games.classic.data import NODES, POST, TABLES, city_of_table
from server.games.classic.engine import GAME
from server.games.search import Budget, SearchBot


def _home_stretch(money: int) -> dict[str, Any]:
    """Seat 0 back from its mission at Kaesong, with one card of each winning colour and `money`."""
    state = GAME.setup(2, None, 1)
    state["table"][0] = TABLES[0]
    state["secret"][0] = True
    state["hands"][0] = sorted(["turquoise-30-1", "yellow-30-1", "green-30-1"])
    state["money"][0] = money
    state["pawns"][0] = "kaesong"
    state["routes"][0] = "sea"
    state["turn"] = 0
    return state


def test_greedy_heads_for_a_post_while_short_of_the_total_and_home_once_ready() -> None:
    bot = B.GreedyBot(0)
    short = _home_stretch(100)
    goal, _ = bot._goal(GAME.view(short, 0))
    assert goal and all(NODES[p].type == POST for p in goal)
    # a winning colour held twice is no post to buy at: its cards would spoil the colours
    short["hands"][0] = sorted(["turquoise-30-1", "turquoise-30-2", "yellow-30-1", "green-30-1"])
    goal, _ = bot._goal(GAME.view(short, 0))
    assert all(NODES[p].colour != "turquoise" for p in goal)
    ready = _home_stretch(900)
    goal, _ = bot._goal(GAME.view(ready, 0))
    assert goal == frozenset({"venice"})


def test_turns_left_falls_with_progress_and_is_zero_for_the_winner() -> None:
    state = GAME.setup(2, None, 2)
    state["turn"] = 1
    start = B.turns_left(state, 0)
    gifts = clone(state)
    gifts["hands"][0] = ["violet-80-1", "green-80-1"]
    assert B.turns_left(gifts, 0) < start  # two of the Khan's gifts in hand
    table = clone(state)
    table["table"][0] = TABLES[0]
    table["pawns"][0] = "khanbaliq"
    assert B.turns_left(table, 0) < B.turns_left(gifts, 0)  # the Golden Table beats any hand of gifts
    poor, rich = _home_stretch(100), _home_stretch(400)
    assert B.turns_left(rich, 0) < B.turns_left(poor, 0)
    poor["pawns"][0] = city_of_table(TABLES[0])
    near = _home_stretch(100)
    near["pawns"][0] = "constantinople"
    assert B.turns_left(near, 0) < B.turns_left(poor, 0)  # the same hand nearer Venice
    won = _home_stretch(900)
    won["result"] = {"winners": [0], "scores": [1000, 500], "reason": "venice"}
    assert B.turns_left(won, 0) == 0.0
    assert B.turns_left(won, 1) > 0


def test_the_search_rewards_a_classic_playout_by_the_seats_own_expected_finishing_round() -> None:
    bot = SearchBot("classic", 1, Budget(seconds=None, playouts=4))
    won = _home_stretch(900)
    won["round"] = 30
    won["result"] = {"winners": [0], "scores": [1000, 500], "reason": "venice"}
    # the winner: the round it won in; the loser: that round plus the turns it still needed (no win bonus)
    assert B.WIN_BONUS == 0.0 and B.OWN_REWARD
    assert bot._reward(won, 0) == -B.TURN * B.clock(won)
    assert bot._reward(won, 1) == -B.TURN * (B.clock(won) + B.turns_left(won, 1))
    # the seat's own figure: the other seat's progress does not change it (a margin would)
    playing = _home_stretch(300)
    ahead = clone(playing)
    ahead["table"][1] = TABLES[1]
    ahead["pawns"][1] = "khanbaliq"
    assert B.turns_left(ahead, 1) < B.turns_left(playing, 1)
    assert bot._reward(ahead, 0) == bot._reward(playing, 0)
    bot._own = False
    assert bot._reward(ahead, 0) < bot._reward(playing, 0)


def test_a_turn_that_gains_nothing_costs_the_seat_one_turn_and_the_others_nothing() -> None:
    mine = _home_stretch(300)
    mine["first"], mine["round"] = 0, 5
    after = clone(mine)
    after["turn"] = 1  # seat 0's turn ended where it began
    assert B.clock(after) == B.clock(mine) + 0.5
    assert B.evaluate(after)[0] == pytest.approx(B.evaluate(mine)[0] - B.TURN)
    assert B.evaluate(after)[1] == pytest.approx(B.evaluate(mine)[1])
