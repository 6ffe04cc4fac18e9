"""The 31 city cards (one case each), and the rules of city-card spaces (own post, once per round)."""

from __future__ import annotations

from typing import Any

import pytest

from server.games.voyages.engine import GAME

from .helpers import CITY, build, card_space, moves, own, place, play, res

MOSCOW, ANXI, ORMUZ, KOCHI = CITY["Moscow"], CITY["Anxi"], CITY["Ormuz"], CITY["Kochi"]
START = {"coins": 10, "camels": 10, "pepper": 5, "silk": 5, "gold": 5, "vp": 5}


def times(n: int, way: int = 0) -> dict[str, Any]:
    return {"a": "times", "n": n, "way": way}


CASES = [
    pytest.param("city-card-0", 4, {}, [], {"coins": 8}, id="card 0 gives 2 coins per pip"),
    pytest.param("city-card-1", 6, {}, [], {"gold": 3}, id="card 1 gives 3 gold for a 6"),
    pytest.param("city-card-1", 5, {}, [], {"gold": 1}, id="card 1 gives 1 gold below a 6"),
    pytest.param(
        "city-card-2",
        2,
        {"posts": [MOSCOW, ANXI, ORMUZ]},
        [],
        {"vp": 2},
        id="card 2 gives 1 VP per post on the board up to the die",
    ),
    pytest.param("city-card-3", 3, {}, [times(2)], {"gold": -4, "vp": 8}, id="card 3 trades 2 gold for 4 VP"),
    pytest.param(
        "city-card-4",
        2,
        {},
        [times(2)],
        {"camels": -2, "pepper": -2, "coins": 4, "vp": 4},
        id="card 4 trades a camel and a pepper for 2 coins and 2 VP",
    ),
    pytest.param("city-card-5", 2, {}, [times(2)], {"silk": -4, "vp": 6}, id="card 5 trades 2 silk for 3 VP"),
    pytest.param(
        "city-card-6",
        3,
        {},
        [times(3)],
        {"camels": -9, "pepper": 3, "silk": 3, "gold": 3},
        id="card 6 trades 3 camels for one of each good",
    ),
    pytest.param(
        "city-card-7",
        1,
        {},
        [],
        {"camels": -1, "silk": -1, "coins": 8},
        id="card 7 trades a camel and a silk for 8 coins",
    ),
    pytest.param(
        "city-card-8",
        2,
        {},
        [times(1)],
        {"camels": -1, "gold": -1, "coins": 9},
        id="card 8 trades a camel and a gold for 9 coins",
    ),
    pytest.param(
        "city-card-9",
        2,
        {},
        [times(2)],
        {"camels": -2, "silk": -2, "coins": 8, "vp": 4},
        id="card 9 trades a camel and a silk for 4 coins and 2 VP",
    ),
    pytest.param(
        "city-card-10",
        3,
        {},
        [times(3)],
        {"camels": -6, "silk": -3, "vp": 12},
        id="card 10 trades 2 camels and a silk for 4 VP",
    ),
    pytest.param(
        "city-card-11",
        2,
        {},
        [times(2)],
        {"camels": -2, "pepper": -2, "coins": 14},
        id="card 11 trades a camel and a pepper for 7 coins",
    ),
    pytest.param(
        "city-card-12",
        3,
        {},
        [{"a": "trade", "get": "pepper"}, {"a": "trade", "get": "gold"}, {"a": "stop"}],
        {"coins": -4, "pepper": 1, "gold": 1},
        id="card 12 buys a good of choice for 2 coins each time",
    ),
    pytest.param(
        "city-card-13",
        1,
        {"figures": [MOSCOW]},
        [{"a": "step", "fig": 0, "to": ANXI}],
        {"camels": -5, "coins": 5},
        id="card 13 moves a step for 2 camels plus the route cost",
    ),
    pytest.param(
        "city-card-14",
        2,
        {},
        [times(2)],
        {"camels": -4, "coins": 4, "vp": 2},
        id="card 14 trades 2 camels for 2 coins and 1 VP",
    ),
    pytest.param(
        "city-card-15",
        2,
        {"completed": ["contract-0", "contract-1", "contract-2"]},
        [],
        {"vp": 2},
        id="card 15 gives 1 VP per completed contract up to the die",
    ),
    pytest.param(
        "city-card-16", 3, {}, [times(2, 0)], {"camels": -2, "coins": 6}, id="card 16 trades camels for 3 coins each"
    ),
    pytest.param(
        "city-card-16", 3, {}, [times(3, 1)], {"coins": -3, "camels": 3}, id="card 16 or buys camels for 1 coin each"
    ),
    pytest.param("city-card-17", 4, {}, [times(4)], {"camels": -4, "vp": 4}, id="card 17 trades a camel for 1 VP"),
    pytest.param("city-card-18", 1, {}, [], {"pepper": 1}, id="card 18 gives 1 pepper for a 1"),
    pytest.param("city-card-18", 2, {}, [], {"pepper": 3}, id="card 18 gives 3 pepper from a 2"),
    pytest.param("city-card-19", 2, {}, [times(2, 1)], {"coins": -6, "vp": 2}, id="card 19 buys VP for 3 coins"),
    pytest.param("city-card-19", 2, {}, [times(1, 0)], {"vp": -1, "coins": 3}, id="card 19 or sells VP for 3 coins"),
    pytest.param(
        "city-card-20",
        1,
        {},
        [],
        {"camels": -1, "gold": -1, "coins": 6, "vp": 2},
        id="card 20 trades a camel and a gold for 6 coins and 2 VP",
    ),
    pytest.param(
        "city-card-21",
        2,
        {},
        [times(2)],
        {"camels": -2, "gold": -2, "vp": 8},
        id="card 21 trades a camel and a gold for 4 VP",
    ),
    pytest.param(
        "city-card-22",
        5,
        {"posts": [MOSCOW, ANXI]},
        [],
        {"coins": 4},
        id="card 22 gives 2 coins per post on the board up to the die",
    ),
    pytest.param(
        "city-card-23",
        5,
        {"posts": [MOSCOW, ANXI, ORMUZ]},
        [{"a": "city", "city": ANXI}, {"a": "city", "city": ORMUZ}],
        {"coins": 5, "camels": 3},
        id="card 23 gives two different small-city bonuses from a 5",
    ),
    pytest.param(
        "city-card-23",
        4,
        {"posts": [MOSCOW, ANXI, ORMUZ]},
        [{"a": "city", "city": ANXI}],
        {"coins": 5},
        id="card 23 gives one small-city bonus from a 4",
    ),
    pytest.param(
        "city-card-24",
        3,
        {"completed": ["contract-0", "contract-1"]},
        [],
        {"coins": 4},
        id="card 24 gives 2 coins per completed contract up to the die",
    ),
    pytest.param(
        "city-card-25",
        2,
        {"posts": [MOSCOW, ANXI, KOCHI]},
        [{"a": "city", "city": ANXI}, {"a": "city", "city": KOCHI}],
        {"coins": 3, "vp": 3},
        id="card 25 buys small-city bonuses for 1 coin each",
    ),
    pytest.param("city-card-26", 3, {}, [], {"silk": 1}, id="card 26 gives 1 silk up to a 3"),
    pytest.param("city-card-26", 4, {}, [], {"silk": 3}, id="card 26 gives 3 silk from a 4"),
    pytest.param(
        "city-card-27",
        3,
        {},
        [{"a": "trade", "give": "pepper"}, {"a": "trade", "give": "pepper"}, {"a": "stop"}],
        {"pepper": -2, "camels": 4},
        id="card 27 trades goods for 2 camels each",
    ),
    pytest.param(
        "city-card-27",
        2,
        {},
        [{"a": "trade", "get": "silk"}, {"a": "trade", "get": "gold"}],
        {"camels": -4, "silk": 1, "gold": 1},
        id="card 27 or buys goods for 2 camels each",
    ),
    pytest.param("city-card-28", 2, {}, [times(2)], {"pepper": -4, "vp": 4}, id="card 28 trades 2 pepper for 2 VP"),
    pytest.param(
        "city-card-29",
        3,
        {},
        [times(3)],
        {"camels": -9, "pepper": -3, "vp": 12},
        id="card 29 trades 3 camels and a pepper for 4 VP",
    ),
    pytest.param(
        "city-card-30",
        1,
        {"figures": [MOSCOW]},
        [{"a": "step", "fig": 0, "to": 1, "goods": ["pepper", "silk"]}],
        {"pepper": -1, "silk": -1},
        id="card 30 moves a step for 2 different goods",
    ),
]


@pytest.mark.parametrize(("card", "value", "start", "choices", "delta"), CASES)
def test_each_city_card_does_what_it_says(
    card: str, value: int, start: dict[str, Any], choices: list[dict[str, Any]], delta: dict[str, int]
) -> None:
    player = {**START, "posts": [MOSCOW], "dice": own(value, 1, 1), **start}
    state = build(3, players={0: player})
    space = card_space(state, card)
    before = res(state, 0)
    state = place(state, 0, space, value)
    for m in choices:
        state = play(state, 0, m)
    assert state["pending"] == []
    after = res(state, 0)
    assert {k: after[k] - before[k] for k in after if after[k] != before[k]} == delta


def test_every_city_card_has_a_case() -> None:
    covered = {p.values[0] for p in CASES}
    assert covered == {f"city-card-{i}" for i in range(31)}


def test_repetitions_stop_at_the_die_value_and_at_what_the_player_can_pay() -> None:
    state = build(3, players={0: {**START, "gold": 3, "posts": [MOSCOW], "dice": own(6, 1)}})
    before = res(state, 0)
    state = place(state, 0, card_space(state, "city-card-3"), 6)
    assert state["pending"] == []  # one repetition is all the gold allows: no question asked
    assert res(state, 0)["gold"] == before["gold"] - 2 and res(state, 0)["vp"] == before["vp"] + 4


def test_the_exchange_cards_keep_one_direction_for_the_whole_action() -> None:
    state = build(3, players={0: {**START, "posts": [MOSCOW], "dice": own(3, 1)}})
    state = place(state, 0, card_space(state, "city-card-27"), 3)
    state = play(state, 0, {"a": "trade", "give": "gold"})
    assert all("give" in m for m in moves(state, 0) if m["a"] == "trade")


def test_a_city_card_needs_a_post_in_its_city() -> None:
    state = build(3, players={0: {**START, "posts": [], "dice": own(3)}})
    space = card_space(state, "city-card-0")
    assert {"a": "space", "space": space} not in moves(state, 0)


def test_a_city_card_is_used_once_per_round_by_one_player_only() -> None:
    state = build(3, players={0: {**START, "posts": [MOSCOW]}, 1: {**START, "posts": [MOSCOW], "character": "berke"}})
    space = card_space(state, "city-card-0")
    state = place(state, 0, space, 3)
    state = play(state, 0, {"a": "end"})
    assert GAME.active_seats(state) == [1]
    assert {"a": "space", "space": space} not in moves(state, 1)


def test_a_card_that_cannot_be_paid_even_once_is_not_offered() -> None:
    state = build(3, players={0: {**START, "gold": 1, "posts": [MOSCOW]}})
    space = card_space(state, "city-card-3")
    assert {"a": "space", "space": space} not in moves(state, 0)


def test_sumatra_holds_three_city_cards_on_three_spaces() -> None:
    state = build(3, players={0: {**START, "posts": [CITY["Sumatra"]]}})
    state["city_cards"][6:9] = ["city-card-0", "city-card-1", "city-card-2"]
    offered = [m["space"] for m in moves(state, 0) if m["a"] == "space" and m["space"].startswith("card")]
    assert offered == ["card-6", "card-7", "card-8"]
    assert GAME.view(state, None)["public"]["city_cards"][-1]["city"] == CITY["Sumatra"]


def test_the_move_card_paid_with_two_goods_needs_two_different_goods() -> None:
    space = "card-0"
    for goods, offered in (({"pepper": 4, "silk": 0, "gold": 0}, False), ({"pepper": 2, "silk": 1, "gold": 0}, True)):
        state = build(3, players={0: {**START, **goods, "posts": [MOSCOW], "figures": [MOSCOW], "dice": own(2)}})
        space = card_space(state, "city-card-30")
        assert ({"a": "space", "space": space} in moves(state, 0)) == offered
    state = place(state, 0, space, 2)
    assert {tuple(m["goods"]) for m in moves(state, 0) if m["a"] == "step"} == {("pepper", "silk")}


def test_a_city_card_move_of_several_steps_places_one_post_where_it_ends() -> None:
    karakorum = CITY["Karakorum"]
    state = build(3, players={0: {**START, "posts": [MOSCOW], "figures": [MOSCOW], "dice": own(3)}})
    state = place(state, 0, card_space(state, "city-card-13"), 3)
    state = play(state, 0, {"a": "step", "fig": 0, "to": ANXI}, {"a": "step", "fig": 0, "to": karakorum})
    state = play(state, 0, {"a": "stop"}) if state["pending"] else state
    p = state["players"][0]
    assert p["figures"] == [karakorum]
    assert p["posts"] == [MOSCOW, karakorum]  # none in Anxi, passed on the way
    assert p["camels"] == START["camels"] - (3 + 2) - (2 + 2)  # 2 camels a step plus each route's camels
