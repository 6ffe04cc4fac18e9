"""Bonus actions (contracts, money bag, reroll, adjust, black die) and the round: start, turn order, end."""

from __future__ import annotations

from server.games.voyages import data as D
from server.games.voyages.engine import GAME

from .helpers import CITY, END, build, kinds, moves, own, place, play, res


def test_fulfilling_a_contract_pays_its_cost_and_gives_its_reward_and_files_it_face_down() -> None:
    # contract-3: 2 camels + 1 pepper + 2 silk -> 3 coins + 4 VP
    state = build(3, players={0: {"contracts": ["contract-3"], "camels": 2, "pepper": 1, "silk": 2, "coins": 0}})
    assert {"a": "fulfil", "contract": "contract-3"} in moves(state, 0)
    state = play(state, 0, {"a": "fulfil", "contract": "contract-3"})
    assert res(state, 0) == {"coins": 3, "camels": 0, "pepper": 0, "silk": 0, "gold": 0, "vp": 4}
    assert state["players"][0]["contracts"] == [] and state["players"][0]["completed"] == ["contract-3"]
    public = GAME.view(state, 1)["public"]["players"][0]
    assert public["completed"] == 1


def test_a_contract_is_not_offered_without_all_of_its_cost() -> None:
    state = build(3, players={0: {"contracts": ["contract-3"], "camels": 2, "pepper": 1, "silk": 1}})
    assert "fulfil" not in kinds(state, 0)


def test_contracts_may_be_fulfilled_before_and_after_the_main_action() -> None:
    state = build(3, players={0: {"contracts": ["contract-41", "contract-43"], "camels": 5, "gold": 1, "silk": 2}})
    state = play(state, 0, {"a": "fulfil", "contract": "contract-41"})
    state = place(state, 0, "coins", 3)
    state = play(state, 0, {"a": "fulfil", "contract": "contract-43"})
    assert len(state["players"][0]["completed"]) == 2


def test_a_contract_reward_from_the_special_pile_takes_its_top_contract() -> None:
    # contract-30: 2 camels + 2 pepper + 1 gold -> 1 contract from the special pile + 4 VP
    state = build(3, players={0: {"contracts": ["contract-30"], "camels": 2, "pepper": 2, "gold": 1}})
    top = state["special"][0]
    state = play(state, 0, {"a": "fulfil", "contract": "contract-30"})
    assert state["players"][0]["contracts"] == [top] and state["players"][0]["vp"] == 4


def test_a_special_contract_with_both_spaces_full_replaces_an_old_one_or_is_declined() -> None:
    alexandria = CITY["Alexandria"]
    state = build(3, players={0: {"contracts": ["contract-31", "contract-32"], "dice": own(2, 2, 2), "coins": 10}})
    state["outposts"][str(alexandria)] = "outpost-3"  # 1 contract from the special pile
    top = state["special"][0]
    state = place(state, 0, "travel", 2, 2)
    state = play(state, 0, {"a": "step", "fig": 0, "to": alexandria}, {"a": "stop"})
    assert moves(state, 0) == [
        {"a": "keep", "discard": "contract-31"},
        {"a": "keep", "discard": "contract-32"},
        {"a": "decline"},
    ]
    assert GAME.view(state, 1)["public"]["pending"][0]["contract"]["id"] == top  # drawn face up
    declined = play(state, 0, {"a": "decline"})
    assert declined["special"][-1] == top and declined["players"][0]["contracts"] == ["contract-31", "contract-32"]
    kept = play(state, 0, {"a": "keep", "discard": "contract-31"})
    assert kept["players"][0]["contracts"] == ["contract-32", top] and kept["special"][-1] == "contract-31"


def test_the_money_bag_gives_3_coins_for_any_die_at_no_cost_and_is_not_the_main_action() -> None:
    state = build(3, players={0: {"dice": own(6, 2), "coins": 0}})
    state["bag"] = [{"seat": 1, "dice": own(4)}]
    state = play(state, 0, {"a": "bag", "kind": "own", "value": 6})
    assert state["players"][0]["coins"] == 3 and "space" in kinds(state, 0) and END not in moves(state, 0)


def test_the_last_die_may_go_into_the_money_bag_and_then_the_turn_may_end() -> None:
    state = build(3, players={0: {"dice": own(2), "coins": 0}})
    state = play(state, 0, {"a": "bag", "kind": "own", "value": 2})
    assert GAME.active_seats(state) == [1]  # nothing left to do: the turn ended by itself


def test_rerolling_a_die_costs_1_camel() -> None:
    state = build(3, players={0: {"dice": own(1), "camels": 1}})
    state = play(state, 0, {"a": "reroll", "kind": "own", "value": 1})
    assert state["players"][0]["camels"] == 0 and len(state["players"][0]["dice"]) == 1
    assert state["log"][-1]["ev"] == "reroll"


def test_adjusting_a_die_by_1_costs_2_camels_and_never_wraps_6_to_1() -> None:
    state = build(3, players={0: {"dice": own(1, 6), "camels": 4}})
    options = [m for m in moves(state, 0) if m["a"] == "adjust"]
    assert options == [
        {"a": "adjust", "kind": "own", "value": 1, "by": 1},
        {"a": "adjust", "kind": "own", "value": 6, "by": -1},
    ]
    state = play(state, 0, {"a": "adjust", "kind": "own", "value": 1, "by": 1})
    assert state["players"][0]["dice"] == own(2, 6) and state["players"][0]["camels"] == 2


def test_a_black_die_costs_3_camels_once_per_turn_and_is_rolled_at_once() -> None:
    state = build(3, players={0: {"camels": 6}})
    state = play(state, 0, {"a": "black"})
    p = state["players"][0]
    assert p["camels"] == 3 and sum(1 for d in p["dice"] if d[0] == "black") == 1
    assert state["black_pool"] == 3 and "black" not in kinds(state, 0)


def test_black_dice_run_out() -> None:
    state = build(3, players={0: {"camels": 6}}, black_pool=0)
    assert "black" not in kinds(state, 0)


def test_black_and_white_dice_may_be_rerolled_and_adjusted() -> None:
    state = build(3, players={0: {"dice": [["white", 3], ["black", 4]], "camels": 5}})
    assert {"a": "reroll", "kind": "white", "value": 3} in moves(state, 0)
    assert {"a": "adjust", "kind": "black", "value": 4, "by": -1} in moves(state, 0)


def test_turns_go_clockwise_and_skip_players_without_dice() -> None:
    state = build(4, players={1: {"dice": []}})
    state = place(state, 0, "coins", 3)
    state = play(state, 0, END)
    assert GAME.active_seats(state) == [2]


def test_a_new_round_starts_with_the_last_traveller_income_and_fresh_dice() -> None:
    state = build(
        3,
        players={
            0: {"dice": own(2, 2), "coins": 20, "posts": [CITY["Anxi"]], "placed": 1, "posts_left": 8},
            1: {"dice": []},
            2: {"dice": []},
        },
    )
    state = place(state, 0, "travel", 2, 2)
    state = play(state, 0, {"a": "step", "fig": 0, "to": 1})
    coins = state["players"][0]["coins"]
    state = play(state, 0, {"a": "stop"})  # out of dice: the turn and the round end by themselves
    assert state["round"] == 2 and state["start_player"] == 0
    assert state["players"][0]["coins"] == coins + 5  # Anxi's 5 coins
    assert state["spaces"]["travel"] == [] and state["black_pool"] == 4
    assert all(len(p["dice"]) >= 5 for p in state["players"])


def test_when_nobody_travelled_the_start_player_stays() -> None:
    state = build(3, players={1: {"dice": []}, 2: {"dice": own(1)}}, start_player=2)
    state["players"][0]["dice"] = own(1)
    state = place(state, 0, "coins", 1)
    state = place(state, 2, "coins", 1)
    state = play(state, 2, END)  # seat 2 could still reroll or adjust: it ends its turn itself
    assert state["round"] == 2 and state["start_player"] == 2


def test_at_round_end_leftover_contracts_go_under_the_special_pile_and_the_next_pile_is_laid_out() -> None:
    state = build(
        3, characters=["berke", "carpini", "wilhelm"], players={0: {"dice": own(1)}, 1: {"dice": []}, 2: {"dice": []}}
    )
    display, special, pile = list(state["display"]), list(state["special"]), list(state["piles"][0])
    state = place(state, 0, "coins", 1)
    assert state["round"] == 2
    assert state["special"][: len(special) + 6] == [*special, *display]
    assert state["display"] == pile and len(state["piles"]) == 3


def test_a_total_below_15_is_compensated_with_coins_and_camels_of_choice() -> None:
    state = build(3)
    state["pending"] = [{"seat": 1, "kind": "comp", "amount": 4}]
    state["phase"] = "start"
    assert GAME.active_seats(state) == [1]
    assert moves(state, 1) == [{"a": "comp", "coins": n} for n in range(5)]
    before = res(state, 1)
    state = play(state, 1, {"a": "comp", "coins": 1})
    assert res(state, 1)["coins"] == before["coins"] + 1 and res(state, 1)["camels"] == before["camels"] + 3


def test_every_roll_below_15_gets_a_compensation_prompt_at_round_start() -> None:
    for seed in range(20):
        state = GAME.setup(3, {"characters": ["berke", "carpini", "wilhelm"]}, seed)
        for s, p in enumerate(state["players"]):
            total = sum(v for _, v in p["dice"])
            owed = [it["amount"] for it in state["pending"] if it["seat"] == s and it["kind"] == "comp"]
            assert owed == ([15 - total] if total < 15 else [])


def test_an_empty_contract_display_is_refilled_with_2_special_contracts_at_the_next_turn() -> None:
    state = build(3, display=[], players={0: {"dice": own(1, 1)}})
    top2 = state["special"][:2]
    state = place(state, 0, "coins", 1)
    state = play(state, 0, END)
    assert state["display"] == top2


def test_the_game_ends_after_round_5() -> None:
    state = build(3, players={0: {"dice": own(1)}, 1: {"dice": []}, 2: {"dice": []}}, round=5)
    state = place(state, 0, "coins", 1)
    assert GAME.result(state) is not None and GAME.active_seats(state) == []
    assert state["round"] == 5 and state["phase"] == "over"


def test_a_city_entered_by_a_bonus_move_before_the_main_action_opens_its_city_card_only_from_the_next_turn() -> None:
    # starting contract-42: 1 camel + 3 pepper -> 1 free move + 1 VP; Venezia -> Alexandria (a city-card city)
    alexandria = CITY["Alexandria"]
    state = build(3, players={0: {"contracts": ["contract-42"], "camels": 3, "pepper": 3}})
    slot = 4  # Alexandria's city card
    state["city_cards"][slot] = "city-card-2"  # a count card: always usable with a post
    state = play(state, 0, {"a": "fulfil", "contract": "contract-42"}, {"a": "step", "fig": 0, "to": alexandria})
    assert alexandria in state["players"][0]["posts"]
    assert {"a": "space", "space": f"card-{slot}"} not in moves(state, 0)
    state = place(state, 0, "coins", 3)
    state["players"][1]["dice"] = state["players"][2]["dice"] = []  # the others have passed
    state = play(state, 0, END)
    assert GAME.active_seats(state) == [0] and not state["turn_info"]["main"]  # seat 0's next turn
    assert {"a": "space", "space": f"card-{slot}"} in moves(state, 0)


def test_the_last_traveller_becomes_start_player_when_the_start_player_did_not_travel() -> None:
    state = build(3, players={0: {"dice": own(3)}, 1: {"dice": own(2, 2), "coins": 20}, 2: {"dice": []}})
    state = place(state, 0, "coins", 3)  # seat 0, the start player, is out of dice: its turn ends by itself
    state = place(state, 1, "travel", 2, 2)
    state = play(state, 1, {"a": "step", "fig": 0, "to": 1}, {"a": "stop"})  # the round ends: nobody has a die
    assert state["round"] == 2 and state["start_player"] == 1
    while state["phase"] == "start":
        seat = GAME.active_seats(state)[0]
        state = play(state, seat, moves(state, seat)[0])
    assert GAME.active_seats(state) == [1]


def test_xians_marker_takes_the_bonus_of_another_city_bonus_marker_of_choice() -> None:
    xian = CITY["Xian"]
    state = build(3, players={0: {"figures": [8], "dice": own(2, 2), "coins": 20}})
    assert D.MARKERS[state["city_bonus"][str(xian)]]["reward"] == {"other_city_bonus": 1}  # the beginner layout
    state = place(state, 0, "travel", 2, 2)
    state = play(state, 0, {"a": "step", "fig": 0, "to": xian}, {"a": "stop"})
    assert xian in state["players"][0]["posts"]
    options = moves(state, 0)
    assert options == [{"a": "bonus", "marker": m} for m in (0, 1, 2, 4, 5)]  # every marker but its own
    before = res(state, 0)
    state = play(state, 0, {"a": "bonus", "marker": 0})  # Anxi's 5 coins
    assert res(state, 0)["coins"] == before["coins"] + 5
