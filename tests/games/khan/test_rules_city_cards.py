"""City cards: the 6 by cities need a post there, the 2 of the action area need none and change every round;
each is used once a round; the die value sets how often or how much (all 25 house cards)."""

from __future__ import annotations

from typing import Any

import pytest

from server.games.khan import data as D
from server.games.khan.engine import SLOTS

from .helpers import STOP, ZERO, build, delta, moves, next_round, own, place, play, res, spaces, step, through_start

AREA = SLOTS[6]  # the first card of the action area: no post needed


def card_state(card: str, d: int, **player: Any) -> dict[str, Any]:
    state = build(3, characters=["filippo", "dewu", "abha"], players={0: {**ZERO, "dice": own(d), **player}})
    state["area"] = [card, state["area"][1]]
    return state


def use(card: str, d: int, *follow: dict[str, Any], **player: Any) -> dict[str, int]:
    """Resources gained (or paid) by using `card` with a die of `d`, answering its choices with `follow`."""
    state = card_state(card, d, **player)
    before = res(state, 0)
    state = place(state, 0, AREA, d)
    state = play(state, 0, *follow)
    assert not state["pending"], state["pending"]
    return delta(before, res(state, 0))


def times(n: int, way: int = 0) -> dict[str, Any]:
    return {"a": "times", "way": way, "n": n}


SIMPLE: list[tuple[str, int, dict[str, Any], list[dict[str, Any]], dict[str, int]]] = [
    ("city-card-0", 3, {"completed": ["contract-1"] * 4}, [], {"vp": 3}),
    ("city-card-0", 5, {"completed": ["contract-1"] * 2}, [], {"vp": 2}),
    ("city-card-1", 5, {"posts": ["xian", "dunhuang"]}, [], {"vp": 2}),
    ("city-card-2", 3, {"posts": ["xian", "dunhuang", "turfan", "kashgar"]}, [], {"coins": 6}),
    ("city-card-5", 3, {"camels": 5, "coins": 3}, [times(3, 0)], {"camels": -3, "coins": 9}),
    ("city-card-5", 3, {"camels": 5, "coins": 3}, [times(2, 1)], {"camels": 2, "coins": -2}),
    ("city-card-6", 2, {"coins": 1}, [times(2, 0)], {"vp": -2, "coins": 6}),
    ("city-card-6", 2, {"coins": 7}, [times(2, 1)], {"vp": 2, "coins": -6}),
    ("city-card-7", 4, {}, [], {"coins": 8}),
    ("city-card-10", 3, {"coins": 10}, [times(3)], {"coins": -6, "pepper": 3}),
    ("city-card-11", 4, {"pepper": 2}, [times(2)], {"pepper": -2, "silk": 2}),
    ("city-card-12", 4, {"silk": 1}, [], {"silk": -1, "gold": 1}),
    ("city-card-13", 2, {"pepper": 5}, [times(2)], {"pepper": -2, "vp": 4}),
    ("city-card-14", 3, {"silk": 3}, [times(3)], {"silk": -3, "vp": 9}),
    ("city-card-15", 6, {"gold": 2}, [times(2)], {"gold": -2, "vp": 8}),
    ("city-card-16", 2, {"jade": 4}, [times(1)], {"jade": -1, "vp": 3}),
    ("city-card-17", 2, {"coins": 6}, [times(2)], {"coins": -6, "silk": 2}),
    ("city-card-18", 3, {"camels": 4}, [times(2)], {"camels": -4, "gold": 2}),
    ("city-card-19", 5, {}, [], {"camels": 5}),
    ("city-card-20", 6, {}, [], {"pepper": 4}),
    ("city-card-20", 1, {}, [], {"pepper": 1}),
    ("city-card-23", 6, {}, [], {"jade": 2}),
    ("city-card-23", 2, {}, [], {"coins": 3}),
    ("city-card-24", 3, {"pepper": 2, "silk": 3}, [times(2)], {"pepper": -2, "silk": -2, "vp": 8}),
]


@pytest.mark.parametrize(("card", "d", "player", "follow", "gain"), SIMPLE, ids=[f"{c[0]}-die{c[1]}" for c in SIMPLE])
def test_each_city_card_gives_what_its_die_value_allows(
    card: str, d: int, player: dict[str, Any], follow: list[dict[str, Any]], gain: dict[str, int]
) -> None:
    assert use(card, d, *follow, **player) == gain


def test_a_trade_card_is_used_at_most_as_often_as_the_die_and_the_goods_allow() -> None:
    state = card_state("city-card-11", 5, pepper=3)
    state = place(state, 0, AREA, 5)
    assert moves(state, 0) == [times(n) for n in (1, 2, 3)]


def test_a_card_that_cannot_be_used_even_once_is_not_offered() -> None:
    state = card_state("city-card-15", 6)
    assert AREA not in spaces(state, 0)


def test_the_city_bonus_card_takes_different_bonuses_of_ones_bonus_cities_as_often_as_the_die_allows() -> None:
    state = card_state("city-card-3", 4, posts=["kashgar", "hormuz", "xian"])
    state["markers"]["kashgar"] = "marker-3"
    before = res(state, 0)
    state = place(state, 0, AREA, 4)
    assert moves(state, 0) == [{"a": "city", "city": "kashgar"}, {"a": "city", "city": "hormuz"}]
    state = play(state, 0, {"a": "city", "city": "hormuz"})
    assert moves(state, 0) == [{"a": "city", "city": "kashgar"}, STOP]
    state = play(state, 0, {"a": "city", "city": "kashgar"})
    gained = dict(D.SPECIAL["hormuz"]["bonus"])
    for k, n in D.MARKERS["marker-3"]["reward"].items():
        gained[k] = gained.get(k, 0) + n
    assert delta(before, res(state, 0)) == gained
    assert not state["pending"]


def test_the_seal_card_is_a_one_die_guild_seal_action_for_1_camel() -> None:
    gain = use("city-card-8", 4, {"a": "seal", "seal": "jeweler"}, camels=1)
    assert gain == {"camels": -1, "jade": 3}
    state = card_state("city-card-8", 4, camels=0)
    assert AREA not in spaces(state, 0)


def test_the_move_card_moves_up_to_its_locations_paying_routes_with_one_post_at_the_end() -> None:
    state = card_state("city-card-21", 4, coins=10, camels=5)
    state["outposts"] = {c: None for c in state["outposts"]}
    state = place(state, 0, AREA, 4)
    assert state["pending"][0]["max"] == D.CITY_CARDS["city-card-21"]["steps_by_die"][3]
    state = play(state, 0, step("o_gobi"), step("xian"))
    assert state["players"][0]["posts"] == ["xian"] and not state["pending"]


def test_the_contract_card_takes_a_contract_from_a_city_with_ones_post_and_1_coin_per_pip() -> None:
    state = card_state("city-card-22", 2, posts=["karakorum"])
    shown = list(state["contract_spaces"]["karakorum"])
    state = place(state, 0, AREA, 2)
    assert state["players"][0]["coins"] == 2
    assert moves(state, 0) == [*({"a": "take", "contract": c} for c in shown), {"a": "decline"}]
    state = play(state, 0, {"a": "take", "contract": shown[0]})
    assert state["players"][0]["contracts"] == [shown[0]]


def test_a_city_card_by_a_city_needs_ones_post_in_that_city() -> None:
    state = card_state("city-card-7", 3)
    state["city_cards"][1] = "city-card-7"
    assert SLOTS[1] not in spaces(state, 0)
    state["players"][0]["posts"] = [D.CARD_SLOT_CITIES[1]]
    assert SLOTS[1] in spaces(state, 0)


def test_a_city_card_is_used_once_a_round_by_one_player_only() -> None:
    state = card_state("city-card-7", 3)
    state = place(state, 0, AREA, 3)
    assert state["slots_used"][6] == {"seat": 0, "dice": own(3)}
    state["turn"] = 1
    state["turn_info"] = {"main": False, "black": False, "fresh": [], "posts": []}
    assert AREA not in spaces(state, 1)


def test_the_two_action_area_cards_are_replaced_from_the_deck_every_round_and_the_others_stay() -> None:
    state = build(3)
    by_cities = list(state["city_cards"])
    top = state["deck"][:2]
    state = through_start(next_round(state))
    assert state["area"] == top and state["city_cards"] == by_cities
    assert state["slots_used"] == [None] * 8


def test_lhasa_has_two_city_cards_and_kashgar_has_a_card_and_a_bonus_marker() -> None:
    assert D.CARD_SLOT_CITIES.count("lhasa") == 2
    assert "kashgar" in D.CARD_SLOT_CITIES and "kashgar" in D.MARKER_CITIES


def test_every_city_card_kind_of_the_rulebook_supplement_is_in_the_house_deck() -> None:
    kinds = {(c["kind"], c.get("counts")) for c in D.CITY_CARDS.values()}
    assert {
        ("count", "contracts"),
        ("count", "posts"),
        ("city_bonus", None),
        ("per_pip", None),
        ("seal", None),
    } <= kinds
    assert any(
        c["kind"] == "either" and [w["cost"] for w in c["ways"]] == [{"camels": 1}, {"coins": 1}]
        for c in D.CITY_CARDS.values()
    )
    assert any(c["kind"] == "either" and {"vp": 1} in [w["cost"] for w in c["ways"]] for c in D.CITY_CARDS.values())
    assert len(D.CITY_CARDS) == 25


def test_jade_may_replace_the_coins_of_a_city_card_trade_at_the_players_choice() -> None:
    # rulebook: "Whenever you need to pay coins and/or camels, you can pay some or all of the cost with jade"
    state = card_state("city-card-17", 2, coins=6, jade=2)  # 3 coins for 1 silk
    state = place(state, 0, AREA, 2)
    one, two = {"coins": 1, "camels": 0}, {"coins": 2, "camels": 0}
    assert moves(state, 0) == [
        times(1),
        {**times(1), "jade": one},
        {**times(1), "jade": two},
        times(2),
        {**times(2), "jade": one},
        {**times(2), "jade": two},
    ]
    before = res(state, 0)
    state = play(state, 0, {**times(2), "jade": two})
    assert delta(before, res(state, 0)) == {"coins": -4, "jade": -2, "silk": 2}


def test_a_trade_card_usable_once_still_asks_whether_jade_pays() -> None:
    state = card_state("city-card-18", 1, camels=2, jade=1)  # 2 camels for 1 gold, once
    state = place(state, 0, AREA, 1)
    assert moves(state, 0) == [times(1), {**times(1), "jade": {"coins": 0, "camels": 1}}]
    state = play(state, 0, {**times(1), "jade": {"coins": 0, "camels": 1}})
    assert (state["players"][0]["camels"], state["players"][0]["jade"], state["players"][0]["gold"]) == (1, 0, 1)


def test_jade_may_replace_the_camel_of_the_seal_card_at_the_players_choice() -> None:
    state = card_state("city-card-8", 4, camels=1, jade=1)
    state = place(state, 0, AREA, 4)
    jeweler = {"a": "seal", "seal": "jeweler"}
    assert jeweler in moves(state, 0) and {**jeweler, "jade": {"coins": 0, "camels": 1}} in moves(state, 0)
    before = res(state, 0)
    state = play(state, 0, {**jeweler, "jade": {"coins": 0, "camels": 1}})
    assert delta(before, res(state, 0)) == {"jade": -1 + 3}
    assert state["players"][0]["seals"] == {"jeweler": "basic"}
