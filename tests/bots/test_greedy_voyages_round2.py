"""The Voyages greedy bot, second round of issue 33: Raschid names his die against the fee of an occupied space
(the bot before named 6 everywhere and paid 6 coins for one good or a contract), and the "other city bonus"
marker is worth the best other marker (the bot before counted it at 2 VP a round, so only Kubilai, who starts
next to it, went to Xian). Both tests fail on the bot before (commit 7dde49a)."""

from __future__ import annotations

from typing import Any

from server.games.voyages.bots import GreedyBot, _Context, worth
from server.games.voyages.engine import GAME
from tests.games.voyages.helpers import CITY, build, play

TAKEN = [{"seat": 1, "dice": [["own", 3]]}]


def raschid_pick(space: str, **fields: Any) -> int:
    """The value Raschid (seat 0) names for his first die on `space`, which seat 1 already occupies."""
    spaces = {**build(4)["spaces"], space: TAKEN}
    players = {0: {"coins": 20, "camels": 3}}
    state = build(4, characters=["raschid", "matteo", "berke", "mercator"], spaces=spaces, players=players, **fields)
    state = play(state, 0, {"a": "space", "space": space})
    prompt = GAME.prompt(state, 0)
    assert prompt is not None and {o["value"] for o in prompt["options"] if o["a"] == "die"} == set(range(1, 7))
    move = GreedyBot(1).choose(prompt, GAME.view(state, 0))
    assert move["a"] == "die"
    return int(move["value"])


def test_raschid_names_a_low_die_on_an_occupied_space() -> None:
    # 4 pepper for a 6-coin fee: 3 pepper and 2 coins back for 5 is better (the bot before named 6)
    assert raschid_pick("pepper") == 5
    # seed 1's display has two of its best contracts (20 + VP - goods missing: 23, 23, 23, 22, 20, 21) first:
    # naming 2 reaches them for a 2-coin fee
    display = GAME.setup(4, {}, 1)["display"]
    ctx = _Context(GAME.view(build(4, characters=["raschid", "matteo", "berke", "mercator"], display=display), 0))
    takes = [ctx.take_score(c) for c in ctx.pub["display"]]
    assert takes[0] == takes[1] == max(takes)
    assert raschid_pick("contracts", display=display) == 2


def test_the_other_city_bonus_marker_is_worth_the_best_other_marker() -> None:
    state = build(4, characters=["matteo", "carpini", "niccolo", "wilhelm"])
    view = GAME.view(state, 0)
    view["private"]["goals"] = []  # no goal card weighs on the cities
    ctx = _Context(view)
    markers = view["public"]["track"]["city_bonus_markers"]
    best = max(worth(r) for r in markers.values() if "other_city_bonus" not in r)
    other = next(m for m, r in markers.items() if "other_city_bonus" in r)
    assert ctx.marker_worth(other) == best == 3.0
    # beginner layout: Xian (next to Beijing) has the other-city-bonus marker, Kochi the 3 VP one
    assert view["public"]["city_bonus"][str(CITY["Xian"])] == int(other)
    assert ctx.post_value(CITY["Xian"]) == ctx.post_value(CITY["Kochi"])  # the bot before: 10 against 15
