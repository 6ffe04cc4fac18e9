"""Travel: the three Travel spaces, route costs and sea routes, trading posts and what placing one gives
(city bonus, outpost bonus, contracts, special cities, the 9th-11th post VP), and the next first player."""

from __future__ import annotations

from typing import Any

from server.games.khan import data as D
from server.games.khan.engine import GAME

from .helpers import (
    DECLINE,
    END,
    SKIP,
    STOP,
    ZERO,
    build,
    delta,
    kinds,
    moves,
    next_round,
    own,
    place,
    play,
    res,
    spaces,
    step,
    through_start,
)


def route(a: str, b: str) -> dict[str, int]:
    """The cost of the route a-b (only what is due), from the house map."""
    _, c, k, j, _seal = next(x for x in D.ADJACENT[a] if x[0] == b)
    return {r: n for r, n in (("coins", c), ("camels", k), ("jade", j)) if n}


def neg(cost: dict[str, int]) -> dict[str, int]:
    return {k: -v for k, v in cost.items()}


def add(*costs: dict[str, int]) -> dict[str, int]:
    out: dict[str, int] = {}
    for c in costs:
        for k, v in c.items():
            out[k] = out.get(k, 0) + v
    return {k: v for k, v in out.items() if v}


RICH: dict[str, Any] = {**ZERO, "coins": 40, "camels": 20, "jade": 5}
TRAVELLERS = ["filippo", "dewu", "abha"]


def traveller(**over: Any) -> dict[str, Any]:
    return build(3, characters=TRAVELLERS, players={0: {**RICH, **over}})


def test_the_lower_travel_space_takes_1_die_moves_1_location_and_costs_2_coins_more() -> None:
    state = traveller(dice=own(1))
    before = res(state, 0)
    state = place(state, 0, "travel1", 1)
    assert sorted(m["to"] for m in moves(state, 0) if "jade" not in m) == ["karakorum", "o_gobi"]
    state = play(state, 0, step("karakorum"))
    assert state["players"][0]["figures"] == ["karakorum"]
    gained = D.OUTPOSTS[state["outposts"]["karakorum"]]["reward"] if state["outposts"].get("karakorum") else {}
    assert delta(before, res(state, 0)) == add({"coins": -2}, neg(route("beijing", "karakorum")), gained)


def test_the_lowest_die_caps_the_locations_moved_and_the_space_caps_the_die() -> None:
    state = traveller(dice=own(2, 6))
    state = place(state, 0, "travel3", 6, 2)
    assert state["pending"][0]["max"] == 2
    state = traveller(dice=own(6, 6, 6))
    state = place(state, 0, "travel6", 6, 6, 6)
    assert state["pending"][0]["max"] == 6
    state = traveller(dice=own(6, 6))
    state = place(state, 0, "travel3", 6, 6)
    assert state["pending"][0]["max"] == 3


def test_travel_moves_at_least_one_location_and_may_stop_early() -> None:
    state = traveller(dice=own(5, 5, 5))
    state = place(state, 0, "travel6", 5, 5, 5)
    assert STOP not in moves(state, 0)
    state = play(state, 0, step("o_gobi"))
    assert STOP in moves(state, 0)
    state = play(state, 0, step("xian"), STOP)
    assert state["players"][0]["figures"] == ["xian"] and state["players"][0]["posts"] == ["xian"]


def test_every_route_taken_is_paid_each_time_and_figures_may_go_back_and_forth() -> None:
    state = traveller(dice=own(3, 3))
    before = res(state, 0)
    state = place(state, 0, "travel3", 3, 3)
    state = play(state, 0, step("karakorum"), step("beijing"), step("karakorum"))
    leg = route("beijing", "karakorum")
    paid = delta(before, res(state, 0))
    outpost = state["log"][-1].get("tile") if state["log"][-1]["ev"] == "outpost" else None
    extra = D.OUTPOSTS[outpost]["reward"] if outpost else {}
    assert paid == add(neg(leg), neg(leg), neg(leg), extra)
    assert state["players"][0]["posts"] == ["karakorum"]


def test_jade_pays_for_the_coins_and_camels_of_a_route_a_player_lacks() -> None:
    assert route("beijing", "karakorum") == {"coins": 1} and route("beijing", "o_gobi") == {"coins": 1, "camels": 1}
    state = build(3, characters=TRAVELLERS, players={0: {**ZERO, "coins": 2, "jade": 1, "dice": own(1)}})
    state = place(state, 0, "travel1", 1)
    assert [m["to"] for m in moves(state, 0)] == ["karakorum"]  # the oasis would need a second jade
    state = play(state, 0, step("karakorum"))
    p = state["players"][0]
    assert (p["coins"], p["jade"]) == (0, 0)


def test_a_sea_route_needs_the_matching_guild_seal_basic_or_improved() -> None:
    seal = next(e["seal"] for e in D.EDGES if {e["a"], e["b"]} == {"fuzhou", "pagan"})
    for seals, ok in (({}, False), ({seal: "basic"}, True), ({seal: "improved"}, True), ({"farmer": "basic"}, False)):
        state = traveller(dice=own(2), figures=["fuzhou"], seals=seals)
        state = place(state, 0, "travel1", 2)
        assert ({"a": "step", "fig": 0, "to": "pagan"} in moves(state, 0)) == ok


def test_six_sea_routes_are_opened_by_the_spicers_tailors_and_jewelers_seals_two_each() -> None:
    sea = sorted(e["seal"] for e in D.EDGES if e["seal"])
    assert sea == ["jeweler", "jeweler", "spicer", "spicer", "tailor", "tailor"]


def test_a_post_goes_only_where_the_movement_ends_never_in_beijing_or_an_oasis() -> None:
    state = traveller(dice=own(3, 3))
    state = place(state, 0, "travel3", 3, 3)
    state = play(state, 0, step("o_gobi"), step("xian"), step("o_gobi"))
    assert state["players"][0]["posts"] == [] and state["players"][0]["posts_left"] == 11
    state = traveller(dice=own(3, 3), posts=["karakorum"], figures=["karakorum"], posts_left=10)
    state = place(state, 0, "travel3", 3, 3)
    state = play(state, 0, step("beijing"), STOP)
    assert state["players"][0]["posts"] == ["karakorum"]


def test_no_second_post_goes_into_a_city_that_already_has_ones_post() -> None:
    state = traveller(dice=own(3, 3), posts=["xian"], posts_left=10)
    state = place(state, 0, "travel3", 3, 3)
    state = play(state, 0, step("o_gobi"), step("xian"), STOP)
    assert state["players"][0]["posts"] == ["xian"] and state["players"][0]["posts_left"] == 10


def test_the_upper_travel_space_places_one_more_post_in_a_city_moved_through_with_its_benefits() -> None:
    state = traveller(dice=own(4, 4, 4))
    state["markers"]["dunhuang"] = "marker-0"
    state = place(state, 0, "travel6", 4, 4, 4)
    state = play(state, 0, step("o_gobi"), step("xian"), step("dunhuang"), step("turfan"))
    assert moves(state, 0) == [{"a": "post", "city": "xian"}, {"a": "post", "city": "dunhuang"}, SKIP]
    coins = state["players"][0]["coins"]
    state = play(state, 0, {"a": "post", "city": "dunhuang"})
    p = state["players"][0]
    assert sorted(p["posts"]) == ["dunhuang", "turfan"]
    assert p["coins"] == coins + D.MARKERS["marker-0"]["reward"]["coins"]


def test_the_middle_travel_space_places_no_extra_post() -> None:
    state = traveller(dice=own(4, 4))
    state = place(state, 0, "travel3", 4, 4)
    state = play(state, 0, step("o_gobi"), step("xian"), step("dunhuang"))
    assert state["players"][0]["posts"] == ["dunhuang"] and "post" not in kinds(state, 0)


def again(state: dict[str, Any]) -> dict[str, Any]:
    """Seat 0 to move again with one black 1 (its colour may have used the space already), no main action yet."""
    state["turn"] = 0
    state["turn_info"] = {"main": False, "black": False, "fresh": [], "posts": []}
    state["players"][0]["dice"] = [["black", 1]]
    return state


def quiet(state: dict[str, Any]) -> dict[str, Any]:
    """No outpost tile, no contract on the board, and only coin markers: posts give nothing but their VP."""
    state["outposts"] = {c: None for c in state["outposts"]}
    state["contract_spaces"] = {c: [None, None] for c in D.CONTRACT_CITIES}
    state["markers"] = {c: "marker-0" for c in state["markers"]}
    return state


def test_the_9th_and_10th_posts_score_5_vp_and_the_11th_10_vp() -> None:
    cities = ["karakorum", "xian", "fuzhou", "jaipur", "dunhuang", "turfan", "kashgar", "samarkand"]
    state = quiet(traveller(posts=cities, posts_left=3, placed=8, figures=["lhasa"]))
    gained = []
    for dest in ("delhi", "multan", "kabul"):
        state = place(again(state), 0, "travel1", ("black", 1))
        vp = state["players"][0]["vp"]
        state = play(state, 0, step(dest))
        gained.append(state["players"][0]["vp"] - vp)
    assert gained == [5, 5, 10]
    assert state["players"][0]["posts_left"] == 0 and len(state["players"][0]["posts"]) == 11


def test_a_player_out_of_posts_moves_one_of_them_to_the_new_city_without_post_vp() -> None:
    cities = [
        "karakorum",
        "xian",
        "fuzhou",
        "jaipur",
        "dunhuang",
        "turfan",
        "kashgar",
        "samarkand",
        "bukhara",
        "balkh",
        "herat",
    ]
    state = quiet(traveller(dice=own(1), posts=cities, posts_left=0, placed=11, figures=["lhasa"]))
    state = place(state, 0, "travel1", 1)
    state = play(state, 0, step("delhi"))
    assert state["pending"][0]["kind"] == "relocate"
    assert moves(state, 0) == [{"a": "relocate", "from": c} for c in cities]
    vp = state["players"][0]["vp"]
    state = play(state, 0, {"a": "relocate", "from": "kashgar"})
    p = state["players"][0]
    assert "kashgar" not in p["posts"] and "delhi" in p["posts"] and len(p["posts"]) == 11
    assert p["vp"] == vp


def test_a_city_bonus_marker_pays_when_the_post_is_placed_and_at_every_later_round_start() -> None:
    state = quiet(traveller(dice=own(1), figures=["karakorum"], posts=["karakorum"], posts_left=10))
    state["markers"]["dunhuang"] = "marker-3"
    reward = D.MARKERS["marker-3"]["reward"]
    state = place(state, 0, "travel1", 1)
    before = res(state, 0)
    state = play(state, 0, step("o_mongol"))
    assert "dunhuang" not in state["players"][0]["posts"]
    state = place(again(state), 0, "travel1", ("black", 1))
    before = res(state, 0)
    state = play(state, 0, step("dunhuang"))
    assert delta(before, res(state, 0)) == add(neg(route("o_mongol", "dunhuang")), reward)
    state = next_round(state)
    assert state["round"] == 2
    p = state["players"][0]
    # the round start paid it again (compensation aside)
    assert any(ev.get("ev") == "round" for ev in state["log"])
    assert p["gold"] == 2 * reward.get("gold", 0)


def test_the_other_marker_takes_the_bonus_of_another_marker_on_the_board() -> None:
    state = quiet(traveller(dice=own(1), figures=["o_mongol"], posts=[], posts_left=11))
    state["markers"]["dunhuang"] = "marker-6"
    state["markers"]["kashgar"] = "marker-3"
    state = place(state, 0, "travel1", 1)
    state = play(state, 0, step("dunhuang"))
    assert state["pending"][0]["kind"] == "marker"
    assert {"a": "marker", "city": "dunhuang"} not in moves(state, 0)
    gold = state["players"][0]["gold"]
    state = play(state, 0, {"a": "marker", "city": "kashgar"})
    assert state["players"][0]["gold"] == gold + D.MARKERS["marker-3"]["reward"]["gold"]


def test_only_the_first_post_in_a_city_takes_its_outpost_bonus() -> None:
    state = build(3, characters=["dewu", "abha", "mongke"], players={0: {**RICH, "dice": own(1)}, 1: {**RICH}})
    state["outposts"]["xian"] = "outpost-0"
    state["players"][0]["figures"] = ["o_gobi"]
    before = res(state, 0)
    state = place(state, 0, "travel1", 1)
    state = play(state, 0, step("xian"))
    assert delta(before, res(state, 0)) == add({"coins": -2}, neg(route("o_gobi", "xian")), {"gold": 2})
    assert state["outposts"]["xian"] is None
    state = play(state, 0, END)
    state["players"][1]["figures"] = ["o_gobi"]
    state["players"][1]["dice"] = own(1)
    before = res(state, 1)
    state = place(state, 1, "travel1", 1)
    state = play(state, 1, step("xian"))
    fee = {"coins": -1}
    assert delta(before, res(state, 1)) == add({"coins": -2}, fee, neg(route("o_gobi", "xian")))


def test_arriving_in_a_contract_city_may_take_one_of_its_two_contracts() -> None:
    state = traveller(dice=own(1))
    state["outposts"] = {c: None for c in state["outposts"]}
    shown = list(state["contract_spaces"]["karakorum"])
    state = place(state, 0, "travel1", 1)
    state = play(state, 0, step("karakorum"))
    assert moves(state, 0) == [*({"a": "take", "contract": c} for c in shown), DECLINE]
    state = play(state, 0, {"a": "take", "contract": shown[1]})
    assert state["players"][0]["contracts"] == [shown[1]]
    assert state["contract_spaces"]["karakorum"] == [shown[0], None]
    top = state["pile"][0]
    state = play(state, 0, END)
    assert state["contract_spaces"]["karakorum"] == [shown[0], top]


def test_a_post_in_a_special_city_pays_its_bonus_now_and_every_round_and_opens_its_action() -> None:
    state = quiet(traveller(dice=own(1), figures=["o_dasht"]))
    bonus = D.SPECIAL["hormuz"]["bonus"]
    before = res(state, 0)
    state = place(state, 0, "travel1", 1)
    state = play(state, 0, step("hormuz"))
    assert delta(before, res(state, 0)) == add({"coins": -2}, neg(route("o_dasht", "hormuz")), bonus)
    state = play(state, 0, END)
    state = next_round(state)
    p = state["players"][0]
    assert all(p[k] >= v * 2 for k, v in bonus.items() if k != "coins")
    state = through_start(state)
    state["turn"] = 0
    state["turn_info"] = {"main": False, "black": False, "fresh": [], "posts": []}
    state["players"][0]["dice"] = own(2)
    assert {"a": "space", "space": "hormuz"} in moves(state, 0)


def test_the_next_first_player_is_who_used_a_travel_space_at_least_as_high_as_any_before() -> None:
    state = build(3, characters=TRAVELLERS, players={s: {**RICH, "dice": own(2, 2, 2)} for s in range(3)})
    state = place(state, 0, "travel3", 2, 2)
    state = play(state, 0, step("karakorum"), STOP)
    state["pending"] = []
    state = play(state, 0, END)
    assert state["next_first"] == 0
    state = place(state, 1, "travel1", 2)
    state = play(state, 1, step("karakorum"))
    state["pending"] = []
    state = play(state, 1, END)
    assert state["next_first"] == 0
    state = place(state, 2, "travel3", 2, 2)
    state = play(state, 2, step("karakorum"), STOP)
    state["pending"] = []
    state = play(state, 2, END)
    assert state["next_first"] == 2
    state = next_round(state)
    assert state["first"] == 2


def test_the_first_player_stays_when_nobody_travels() -> None:
    state = build(3, first=1)
    state = next_round(state)
    assert state["first"] == 1


def test_the_rulebook_example_route_from_xian_through_fuzhou_to_jaipur_costs_8_coins_and_4_camels() -> None:
    path = ["xian", "o_qinling", "fuzhou", "o_yunnan", "jaipur"]
    assert add(*(route(a, b) for a, b in zip(path, path[1:], strict=False))) == {"coins": 8, "camels": 4}


def test_the_travel_spaces_are_blue_and_an_occupied_one_costs_the_lowest_die() -> None:
    state = traveller(dice=own(3, 5))
    state["spaces"]["travel3"] = [{"seat": 1, "dice": own(6, 6)}]
    coins = state["players"][0]["coins"]
    state = place(state, 0, "travel3", 5, 3)
    assert state["players"][0]["coins"] == coins - 3
    assert GAME.legal_moves(state, 0)


def test_a_post_placed_by_a_bonus_move_before_the_main_action_opens_its_special_city_only_from_the_next_turn() -> None:
    # contract-9: 1 pepper + 1 silk + 1 camel -> 2 VP + move 2; from the Dasht oasis into Hormuz
    state = build(3, players={0: {"contracts": ["contract-9"], "figures": ["o_dasht"], "pepper": 1, "silk": 1}})
    state = play(state, 0, {"a": "fulfil", "contract": "contract-9"}, step("hormuz"), STOP)
    assert "hormuz" in state["players"][0]["posts"]
    assert "hormuz" not in spaces(state, 0)
    state = place(state, 0, "khan", 3)
    state["players"][1]["dice"] = state["players"][2]["dice"] = []  # the others have passed
    state = play(state, 0, END)
    assert GAME.active_seats(state) == [0] and not state["turn_info"]["main"]  # seat 0's next turn
    assert "hormuz" in spaces(state, 0)


def test_a_post_placed_by_a_bonus_move_before_the_main_action_opens_its_city_card_only_from_the_next_turn() -> None:
    state = build(3, players={0: {"contracts": ["contract-9"], "figures": ["o_gobi"], "pepper": 1, "silk": 1}})
    i = D.CARD_SLOT_CITIES.index("xian")
    slot = f"slot-{i}"
    state["city_cards"][i] = "city-card-0"  # always usable with a post in the city
    state = play(state, 0, {"a": "fulfil", "contract": "contract-9"}, step("xian"), STOP)
    assert "xian" in state["players"][0]["posts"]
    assert slot not in spaces(state, 0)
    state = place(state, 0, "khan", 3)
    state["players"][1]["dice"] = state["players"][2]["dice"] = []
    state = play(state, 0, END)
    assert GAME.active_seats(state) == [0] and slot in spaces(state, 0)


def test_one_player_may_use_each_of_the_three_travel_spaces_in_one_round() -> None:
    state = build(3, characters=TRAVELLERS, players={0: {**RICH, "dice": own(3, 3, 3, 3, 3, 3)}, 1: {"dice": []}})
    state["players"][2]["dice"] = []
    state["outposts"] = {c: None for c in state["outposts"]}
    state["contract_spaces"] = {c: [None, None] for c in D.CONTRACT_CITIES}
    for space, dice in (("travel1", 1), ("travel3", 2), ("travel6", 3)):
        assert space in spaces(state, 0)
        state = place(state, 0, space, *[3] * dice)
        state = play(state, 0, step("karakorum" if state["players"][0]["figures"] == ["beijing"] else "beijing"))
        while state["pending"]:
            opts = moves(state, 0)
            state = play(state, 0, STOP if STOP in opts else SKIP if SKIP in opts else opts[-1])
        assert [pl["seat"] for pl in state["spaces"][space]] == [0]
        if space != "travel6":
            state = play(state, 0, END)
            assert GAME.active_seats(state) == [0]  # the others have passed: seat 0 again
    assert state["next_first"] == 0 and state["travel_top"] == 2
