"""The Voyages greedy bot and its goal cards (issue 33, 2026-12-05): a trip's end counts what it gains on the goal
plan (the goal cities still reachable, less the way there), only where a trip goes and never whether to travel;
in the last round the first city of a goal card no longer counts half the card, and the Contracts space is worth
taking only with a contract that can still be fulfilled (the bot before took 2 contracts a player in the last
round and ended with 1.5-1.7 unfulfilled)."""

from __future__ import annotations

from typing import Any

import pytest

from server.games.voyages import data as D
from server.games.voyages.bots import _Context
from server.games.voyages.engine import GAME
from tests.games.voyages.helpers import CITY, build, own

MOSCOW_KASHGAR = "goal-2"  # Moscow (2 steps from Venezia) and Kashgar, 7 VP


def context(players: dict[str, Any] | None = None, **fields: Any) -> _Context:
    me = {"goals": [MOSCOW_KASHGAR], "coins": 20, "camels": 6, "dice": own(4, 4, 4, 4, 4), **(players or {})}
    state = build(4, characters=["matteo", "carpini", "niccolo", "wilhelm"], players={0: me}, **fields)
    return _Context(GAME.view(state, 0))


def test_the_goal_plan_rewards_ending_nearer_the_missing_goal_city_and_only_where_a_trip_goes() -> None:
    ctx = context({"posts": [CITY["Moscow"]], "figures": [CITY["Moscow"]]})
    assert D.GOALS[MOSCOW_KASHGAR]["cities"] == [CITY["Moscow"], CITY["Kashgar"]]
    # Kashgar completes the card: 7 VP and the second goal city's set VP (3 - 1), counted in its post; nothing is
    # left to plan after it
    assert ctx.post_value(CITY["Kashgar"]) >= 7 + 2
    assert ctx.plan_gain(CITY["Kashgar"]) == 0
    assert ctx.plan_gain(CITY["Lan-Zhou"]) > 0  # next to Kashgar: the rest of the way is shorter
    assert ctx.plan_gain(D.VENEZIA) == 0  # going back gains nothing (and loses nothing)
    ctx.use_plan = False  # as when the Travel space is scored
    assert ctx.plan_gain(CITY["Kashgar"]) == 0


def test_the_first_goal_city_counts_half_its_card_except_in_the_last_round() -> None:
    early = context(round=4).post_value(CITY["Moscow"])
    last = context(round=5).post_value(CITY["Moscow"])
    assert early - last == pytest.approx(0.5 * D.GOALS[MOSCOW_KASHGAR]["vp"])


def test_the_last_round_takes_only_contracts_that_can_still_be_fulfilled() -> None:
    display = GAME.setup(4, {}, 1)["display"]
    poor = {"pepper": 0, "silk": 0, "gold": 0, "camels": 0}
    rich = {"pepper": 9, "silk": 9, "gold": 9, "camels": 9}
    assert context(poor, round=4, display=display).base_space_score("contracts") == 60
    assert context(rich, round=5, display=display).base_space_score("contracts") == 60
    costs = [c["cost"] for c in context(poor, round=5, display=display).pub["display"]]
    assert min(sum(cost.values()) for cost in costs) > 1  # with nothing in hand, each lacks 2 goods or more
    assert context(poor, round=5, display=display).base_space_score("contracts") == 8
