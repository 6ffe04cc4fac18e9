"""Travel: tier and route costs, trading posts, city bonuses, outpost bonuses, Beijing, the 8th and 9th posts."""

from __future__ import annotations

from server.games.voyages import data as D

from .helpers import CITY, STOP, build, moves, own, place, play, res

VENEZIA, MOSCOW, ANXI, ALEXANDRIA, ADANA = 0, CITY["Moscow"], CITY["Anxi"], CITY["Alexandria"], CITY["Adana"]
KARACHI, ORMUZ, XIAN, SUMATRA = CITY["Karachi"], CITY["Ormuz"], CITY["Xian"], CITY["Sumatra"]


def none() -> dict[str, None]:
    """No outpost bonus left on any large city."""
    return {str(c): None for c in D.LARGE_CITIES}


def step(to: int, fig: int = 0) -> dict[str, int | str]:
    return {"a": "step", "fig": fig, "to": to}


def test_travel_takes_two_dice_and_pays_the_tier_cost_of_the_steps_taken() -> None:
    state = build(3, players={0: {"dice": own(4, 4, 1), "coins": 30}}, outposts=none())
    state = place(state, 0, "travel", 4, 4)
    state = play(state, 0, step(1), step(MOSCOW))
    assert state["players"][0]["coins"] == 30 - 7
    state = play(state, 0, STOP)
    assert state["players"][0]["posts"] == [MOSCOW]


def test_the_tier_costs_are_3_7_12_12_18_18() -> None:
    path = [1, MOSCOW, 1, VENEZIA, 1, MOSCOW]
    for n in range(1, 7):
        state = build(3, players={0: {"dice": own(6, 6, 1), "coins": 50}}, outposts=none())
        state = place(state, 0, "travel", 6, 6)
        for to in path[:n]:
            state = play(state, 0, step(to))
        if n < 6:
            state = play(state, 0, STOP)
        assert state["players"][0]["coins"] == 50 - D.TIER_COST[n] == 50 - [3, 7, 12, 12, 18, 18][n - 1]


def test_route_costs_are_paid_on_top_for_every_route_travelled() -> None:
    state = build(3, players={0: {"dice": own(3, 3, 1), "coins": 30, "camels": 10}}, outposts=none())
    state = place(state, 0, "travel", 3, 3)
    state = play(state, 0, step(ALEXANDRIA), step(22), step(ADANA))  # the last route costs 2 camels
    assert state["players"][0]["coins"] == 30 - 12 + 3  # Adana's bonus: 1 camel + 3 coins
    assert state["players"][0]["camels"] == 10 - 2 + 1


def test_a_route_the_player_cannot_pay_is_not_offered() -> None:
    state = build(3, players={0: {"dice": own(3, 3, 1), "coins": 30, "camels": 2}})
    state = place(state, 0, "travel", 3, 3)
    assert step(9) not in moves(state, 0)  # Venezia - oasis costs 3 camels
    assert step(1) in moves(state, 0) and step(ALEXANDRIA) in moves(state, 0)


def test_travel_needs_at_least_one_step_and_at_most_the_lowest_die() -> None:
    state = build(3, players={0: {"dice": own(1, 5, 5), "coins": 30}}, outposts=none())
    state = place(state, 0, "travel", 5, 1)
    assert STOP not in moves(state, 0)
    state = play(state, 0, step(ALEXANDRIA))
    assert state["pending"] == [] and state["players"][0]["posts"] == [ALEXANDRIA]


def test_travel_is_not_offered_without_the_coins_for_one_step() -> None:
    state = build(3, players={0: {"coins": 2}})
    assert {"a": "space", "space": "travel"} not in moves(state, 0)


def test_ending_in_a_small_city_places_a_post_and_pays_its_bonus_at_once() -> None:
    state = build(3, players={0: {"dice": own(4, 4, 1), "coins": 30, "figures": [MOSCOW], "camels": 3}})
    before = res(state, 0)
    state = place(state, 0, "travel", 4, 4)
    state = play(state, 0, step(ANXI))  # no further step is payable: the move ends by itself
    assert state["players"][0]["posts"] == [ANXI]
    assert res(state, 0)["coins"] == before["coins"] - 3 + 5 and res(state, 0)["camels"] == 0


def test_the_first_post_in_a_large_city_takes_its_outpost_bonus_and_the_second_does_not() -> None:
    state = build(3, players={0: {"dice": own(2, 2, 1), "coins": 10}, 1: {"dice": own(2, 2), "coins": 10}})
    state["outposts"][str(ALEXANDRIA)] = "outpost-9"  # 5 coins
    state = place(state, 0, "travel", 2, 2)
    state = play(state, 0, step(ALEXANDRIA), STOP)
    assert state["players"][0]["coins"] == 10 - 3 + 5 and state["outposts"][str(ALEXANDRIA)] is None
    state = play(state, 0, {"a": "end"})
    state = place(state, 1, "travel", 2, 2)
    state = play(state, 1, step(ALEXANDRIA), STOP)
    assert state["players"][1]["coins"] == 10 - 2 - 3 and state["players"][1]["posts"] == [ALEXANDRIA]


def test_ending_in_an_oasis_or_venezia_places_no_post() -> None:
    state = build(3, players={0: {"dice": own(2, 2, 1), "coins": 20, "figures": [1]}})
    state = place(state, 0, "travel", 2, 2)
    state = play(state, 0, step(VENEZIA), STOP)
    assert state["players"][0]["posts"] == [] and state["players"][0]["placed"] == 0
    state = build(3, players={0: {"dice": own(2, 2, 1), "coins": 20}})
    state = place(state, 0, "travel", 2, 2)
    state = play(state, 0, step(1), STOP)
    assert state["players"][0]["posts"] == []


def test_a_player_never_has_two_posts_in_one_city() -> None:
    state = build(
        3, players={0: {"dice": own(2, 2, 1), "coins": 20, "posts": [ALEXANDRIA], "placed": 1, "posts_left": 8}}
    )
    state = place(state, 0, "travel", 2, 2)
    state = play(state, 0, step(ALEXANDRIA), STOP)
    assert state["players"][0]["posts"] == [ALEXANDRIA] and state["players"][0]["posts_left"] == 8


def test_moving_back_and_forth_is_allowed() -> None:
    state = build(3, players={0: {"dice": own(3, 3, 1), "coins": 20}}, outposts=none())
    state = place(state, 0, "travel", 3, 3)
    state = play(state, 0, step(ALEXANDRIA), step(VENEZIA), step(ALEXANDRIA))
    assert state["players"][0]["figures"] == [ALEXANDRIA] and state["players"][0]["coins"] == 20 - 12


def test_beijing_posts_take_the_10_7_4_1_spaces_in_arrival_order() -> None:
    state = build(3, players={0: {"dice": own(2, 2, 1), "coins": 20, "figures": [XIAN]}}, beijing=[2, 1])
    state = place(state, 0, "travel", 2, 2)
    state = play(state, 0, step(D.BEIJING), STOP)
    assert state["beijing"] == [2, 1, 0]
    assert state["players"][0]["posts"] == [D.BEIJING]


def test_the_8th_post_scores_5_and_the_9th_post_scores_10() -> None:
    state = build(
        3,
        players={
            0: {
                "dice": own(2, 2, 2, 2, 1),
                "coins": 30,
                "placed": 7,
                "posts_left": 2,
                "posts": [2, 3, 4, 10, 12, 13, 14],
            }
        },
        outposts=none(),
    )
    state = place(state, 0, "travel", 2, 2)
    state = play(state, 0, step(ALEXANDRIA), STOP)
    assert state["players"][0]["vp"] == 5
    state["turn_info"]["main"] = False
    state["spaces"]["travel"] = []
    state = place(state, 0, "travel", 2, 2)
    state = play(state, 0, step(22), step(ADANA))  # the lowest die allows 2 steps: the move ends there
    assert state["players"][0]["vp"] == 5 + 10 and state["players"][0]["posts_left"] == 0


def test_with_no_post_left_an_existing_post_is_moved_to_the_new_city() -> None:
    posts = [2, 3, 4, 10, 12, 13, 14, 18, D.BEIJING]
    state = build(
        3,
        players={0: {"dice": own(2, 2, 1), "coins": 30, "placed": 9, "posts_left": 0, "posts": list(posts), "vp": 15}},
        outposts=none(),
    )
    state = place(state, 0, "travel", 2, 2)
    state = play(state, 0, step(ALEXANDRIA), STOP)
    options = moves(state, 0)
    assert {"a": "relocate", "from": D.BEIJING} not in options
    assert options == [{"a": "relocate", "from": c} for c in posts if c != D.BEIJING]
    state = play(state, 0, {"a": "relocate", "from": 18})
    assert sorted(state["players"][0]["posts"]) == sorted([*posts[:7], D.BEIJING, ALEXANDRIA])
    assert state["players"][0]["vp"] == 15


def test_the_travel_action_makes_the_traveller_the_last_traveller() -> None:
    state = build(3, players={0: {"dice": own(2, 2, 1), "coins": 20}})
    state = place(state, 0, "travel", 2, 2)
    assert state["last_traveller"] == 0


def test_a_free_move_costs_no_tier_but_its_route_cost_and_places_a_post() -> None:
    state = build(3, players={0: {"coins": 0, "camels": 3, "figures": [ORMUZ]}}, outposts=none())
    state["pending"] = [{"seat": 0, "kind": "travel", "mode": "free", "max": 1, "steps": 0, "moved": [], "entered": []}]
    assert {"a": "step", "fig": 0, "to": KARACHI} in moves(state, 0) and STOP in moves(state, 0)
    state = play(state, 0, step(KARACHI))
    assert state["players"][0]["camels"] == 0 and state["players"][0]["coins"] == 0
    assert state["players"][0]["posts"] == [KARACHI] and state["last_traveller"] is None


def test_a_free_move_that_cannot_be_paid_is_lost() -> None:
    state = build(3, players={0: {"coins": 0, "camels": 0, "figures": [SUMATRA], "dice": own(5, 5, 5, 1)}})
    state = place(state, 0, "gold", 5, 5, 5)
    state = play(state, 0, {"a": "column", "n": 5})
    assert state["pending"] == [] and state["players"][0]["figures"] == [SUMATRA]
    assert state["players"][0]["gold"] == 3
