"""The Voyages greedy bot values a trip in VP: what the posts bring, less the steps it can pay (issue 33)."""

from __future__ import annotations

from typing import Any

from server.games.voyages import data as D
from server.games.voyages.bots import _Context
from server.games.voyages.engine import GAME
from tests.games.voyages.helpers import CITY, build, own


def context(**player: Any) -> _Context:
    state = build(4, characters=["berke", "matteo", "carpini", "wilhelm"], players={0: player})
    return _Context(GAME.view(state, 0))


def test_a_goal_city_and_beijing_are_worth_more_than_a_plain_city_and_a_posted_city_nothing() -> None:
    ctx = context(dice=own(3, 3, 3, 3, 3))
    goal = ctx.priv["goals"][0]
    city = goal["cities"][0]
    plain = context(dice=own(3, 3, 3, 3, 3), posts=[])
    plain.priv["goals"] = []
    assert ctx.post_value(city) > plain.post_value(city)
    assert ctx.post_value(D.BEIJING) >= ctx.pub["track"]["beijing_vp"][0]
    assert context(posts=[CITY["Moscow"]]).post_value(CITY["Moscow"]) == 0
    assert ctx.post_value(D.VENEZIA) == 0


def test_the_travel_space_counts_only_the_steps_the_bot_can_pay() -> None:
    # 3 coins pay one step (tier cost 3) and no more; with none left after that, there is no trip at all
    poor = context(dice=own(6, 6, 6, 6, 6), coins=3, camels=0)
    rich = context(dice=own(6, 6, 6, 6, 6), coins=30, camels=10)
    assert rich.travel_value() > poor.travel_value() >= 0
    assert context(dice=own(6, 6, 6, 6, 6), coins=2, camels=0).travel_value() == 0
    one_step = max(poor.end_value(n) - 0.45 * 3 for n, c, k in poor.routes[D.VENEZIA] if c == 0 and k == 0)
    assert poor.best_trip(D.VENEZIA, 6, "action", 0, 3, 0) == one_step
