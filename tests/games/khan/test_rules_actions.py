"""The main actions (books, Khan's favor, guild seals, contracts, special cities) and the placement rules:
dice counts, minimum values, the occupancy fee of blue spaces, one use of brown spaces, the colour rule."""

from __future__ import annotations

import pytest

from server.games.base import IllegalMove
from server.games.khan import data as D
from server.games.khan.engine import GAME

from .helpers import DONE, END, ZERO, build, delta, die, kinds, moves, own, place, play, res, spaces

OFFERS = ["offer-1-0", "offer-2-0", "offer-3-0"]


# ---- books ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(("space", "minimum"), [("book1", 1), ("book2", 3), ("book3a", 5), ("book3b", 5)])
def test_book_one_takes_any_die_book_two_a_3_or_more_and_book_three_a_5_or_more(space: str, minimum: int) -> None:
    for value in range(1, 7):
        state = build(3, players={0: {"dice": own(value, value)}})
        assert (space in spaces(state, 0)) == (value >= minimum)


def test_a_book_offers_the_four_offers_of_its_tile_and_the_bottom_two_cost_1_and_2_jade() -> None:
    state = build(3, offers=OFFERS, players={0: {**ZERO, "dice": own(5), "jade": 1}})
    state = place(state, 0, "book3a", 5)
    assert moves(state, 0) == [{"a": "offer", "i": i} for i in range(3)]
    before = res(state, 0)
    state = play(state, 0, {"a": "offer", "i": 2})
    gain = D.OFFER_TILES["offer-3-0"]["offers"][2]["gain"]
    assert delta(before, res(state, 0)) == {**gain, "jade": -1}


def test_the_two_spaces_of_the_third_book_are_separate_so_one_colour_may_use_each() -> None:
    state = build(3, offers=OFFERS, players={0: {"dice": own(5, 6, 6)}})
    state = place(state, 0, "book3a", 5)
    state = play(state, 0, {"a": "offer", "i": 0}, END)
    state["turn"] = 0
    state["turn_info"]["main"] = False
    assert "book3b" in spaces(state, 0) and "book3a" not in spaces(state, 0)


def test_an_occupied_blue_space_costs_coins_equal_to_the_lowest_die_placed() -> None:
    state = build(3, players={0: {"coins": 10, "dice": own(4, 6)}})
    state["spaces"]["book2"] = [{"seat": 1, "dice": own(6)}]
    state = place(state, 0, "book2", 4)
    assert state["players"][0]["coins"] == 6
    assert state["spaces"]["book2"][-1] == {"seat": 0, "dice": own(4)}


def test_jade_pays_for_coins_a_player_lacks() -> None:
    state = build(3, players={0: {**ZERO, "coins": 1, "jade": 3, "dice": own(3)}})
    state["spaces"]["book1"] = [{"seat": 1, "dice": own(6)}]
    state = place(state, 0, "book1", 3)
    assert (state["players"][0]["coins"], state["players"][0]["jade"]) == (0, 1)


def test_jade_may_replace_camels_at_the_players_choice_while_camels_are_in_stock() -> None:
    cid = "contract-3"  # 2 silk + 1 camel
    state = build(3, players={0: {**ZERO, "silk": 2, "camels": 4, "jade": 2, "contracts": [cid]}})
    assert [m for m in moves(state, 0) if m["a"] == "fulfil"] == [
        {"a": "fulfil", "contract": cid},
        {"a": "fulfil", "contract": cid, "jade": {"coins": 0, "camels": 1}},
    ]
    kept = play(state, 0, {"a": "fulfil", "contract": cid, "jade": {"coins": 0, "camels": 1}})
    assert (kept["players"][0]["camels"], kept["players"][0]["jade"]) == (4 + 0, 1)  # camels kept for the tie-break
    plain = play(state, 0, {"a": "fulfil", "contract": cid})
    assert (plain["players"][0]["camels"], plain["players"][0]["jade"]) == (3, 2)


def test_jade_may_pay_a_fee_a_route_or_a_black_die_at_the_players_choice() -> None:
    state = build(3, characters=["filippo", "dewu", "abha"], players={0: {**ZERO, "coins": 9, "camels": 9, "jade": 9}})
    state["players"][0]["dice"] = own(3, 3)
    state["spaces"]["travel1"] = [{"seat": 1, "dice": own(6)}]
    assert {"a": "black", "jade": {"coins": 0, "camels": 3}} in moves(state, 0)
    state = play(state, 0, {"a": "space", "space": "travel1"})
    fee_and_coins = 3 + 2
    assert {"a": "die", "kind": "own", "value": 3, "jade": {"coins": fee_and_coins, "camels": 0}} in moves(state, 0)
    state = play(state, 0, {"a": "die", "kind": "own", "value": 3, "jade": {"coins": 2, "camels": 0}})
    assert (state["players"][0]["coins"], state["players"][0]["jade"]) == (9 - 3, 9 - 2)
    cost = next(e for e in D.EDGES if {e["a"], e["b"]} == {"beijing", "karakorum"})
    steps = [m for m in moves(state, 0) if m.get("to") == "karakorum"]
    assert len(steps) == (cost.get("coins", 0) + 1) * (cost.get("camels", 0) + 1)  # every split of the route cost


def test_an_occupied_blue_space_is_closed_to_a_player_who_cannot_pay_the_fee() -> None:
    state = build(3, players={0: {**ZERO, "dice": own(3)}})
    state["spaces"]["book1"] = [{"seat": 1, "dice": own(6)}]
    assert "book1" not in spaces(state, 0)


def test_each_colour_uses_an_action_space_once_a_round_but_black_dice_may_return() -> None:
    state = build(3, players={0: {"coins": 20, "dice": [*own(4, 4), ["black", 2]]}})
    state["spaces"]["book1"] = [{"seat": 0, "dice": own(1)}]
    state = play(state, 0, {"a": "space", "space": "book1"})
    assert [m for m in moves(state, 0) if m["a"] == "die"] == [die(2, "black")]


def test_black_dice_may_join_dice_of_the_players_colour_in_one_placement() -> None:
    state = build(3, players={0: {"dice": [*own(4, 5), ["black", 6]]}})
    state = place(state, 0, "travel6", 4, 5, ("black", 6))
    assert state["spaces"]["travel6"][0]["dice"] == [["own", 4], ["own", 5], ["black", 6]]


def test_dice_are_offered_only_when_the_placement_can_still_be_completed() -> None:
    state = build(3, players={0: {"dice": own(1, 2, 5)}})
    state = play(state, 0, {"a": "space", "space": "seals"})
    assert [m for m in moves(state, 0) if m["a"] == "die"] == [die(1), die(2), die(5)]
    state = play(state, 0, die(5))
    assert {"a": "cancel"} in moves(state, 0)
    state = play(state, 0, {"a": "cancel"})
    assert state["players"][0]["dice"] == own(1, 2, 5) and not state["spaces"]["seals"]


def test_a_move_that_is_not_offered_is_refused() -> None:
    state = build(3, players={0: {"dice": own(2)}})
    with pytest.raises(IllegalMove):
        GAME.apply(state, 0, {"a": "space", "space": "book2"})


# ---- Khan's favor ------------------------------------------------------------------------------------


def test_the_khans_favor_gives_4_coins_and_2_camels_and_costs_no_fee() -> None:
    state = build(4, players={0: {"dice": own(2, 5)}})
    before = res(state, 0)
    state = place(state, 0, "khan", 2)
    assert delta(before, res(state, 0)) == {"coins": 4, "camels": 2}


def test_the_khans_favor_fills_left_to_right_each_die_at_least_the_previous_one() -> None:
    state = build(4, players={0: {"dice": own(2, 3, 5)}})
    state["khan"] = [{"seat": 1, "dice": own(3)}]
    state = play(state, 0, {"a": "space", "space": "khan"})
    assert [m for m in moves(state, 0) if m["a"] == "die"] == [die(3), die(5)]


def test_the_khans_favor_has_four_slots_and_takes_each_colour_once() -> None:
    state = build(4, players={0: {"dice": [*own(6), ["black", 6]]}})
    state["khan"] = [{"seat": 1, "dice": own(1)}, {"seat": 0, "dice": own(2)}]
    state = play(state, 0, {"a": "space", "space": "khan"})
    assert [m for m in moves(state, 0) if m["a"] == "die"] == [die(6, "black")]
    state["pending"] = []
    state["khan"].extend([{"seat": 2, "dice": own(3)}, {"seat": 3, "dice": own(4)}])
    assert "khan" not in spaces(state, 0)


# ---- guild seals ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("low", "seals"),
    [(1, ["farmer"]), (2, ["farmer", "spicer"]), (3, ["farmer", "spicer", "tailor"]), (4, list(D.SEALS))],
)
def test_the_lower_of_two_dice_decides_which_guild_seals_may_be_taken(low: int, seals: list[str]) -> None:
    state = build(3, players={0: {"dice": own(low, 6)}})
    state = place(state, 0, "seals", low, 6)
    assert moves(state, 0) == [{"a": "seal", "seal": t} for t in seals]


@pytest.mark.parametrize(("seal", "jade"), [("farmer", 0), ("spicer", 1), ("tailor", 2), ("jeweler", 3)])
def test_a_guild_seal_comes_basic_side_up_with_0_1_2_or_3_jade(seal: str, jade: int) -> None:
    state = build(3, characters=["filippo", "dewu", "mailin"], players={0: {"dice": own(6, 6)}})
    before = res(state, 0)
    state = place(state, 0, "seals", 6, 6)
    state = play(state, 0, {"a": "seal", "seal": seal})
    assert state["players"][0]["seals"] == {seal: "basic"}
    assert delta(before, res(state, 0)) == ({"jade": jade} if jade else {})


def test_a_player_holds_at_most_one_guild_seal_of_each_kind() -> None:
    state = build(3, players={0: {"dice": own(2, 2), "seals": {"farmer": "basic", "spicer": "improved"}}})
    assert "seals" not in spaces(state, 0)


def test_improving_a_guild_seal_pays_its_cost_and_gives_its_bonus_at_once() -> None:
    state = build(3, players={0: {**ZERO, "pepper": 2, "silk": 1, "seals": {"spicer": "basic"}}})
    assert {"a": "improve", "seal": "spicer"} in moves(state, 0)
    state = play(state, 0, {"a": "improve", "seal": "spicer"})
    assert state["players"][0]["seals"] == {"spicer": "improved"}
    assert D.SEAL["spicer"]["improve"] == {"pepper": 2, "silk": 1}
    assert res(state, 0) == {**ZERO, **D.SEAL["spicer"]["bonus"]}


def test_a_guild_seal_cannot_be_improved_without_its_full_cost() -> None:
    state = build(3, players={0: {**ZERO, "pepper": 2, "seals": {"spicer": "basic"}}})
    assert "improve" not in kinds(state, 0)


# ---- contracts ------------------------------------------------------------------------------------


def _contract_state(posts: list[str], active: list[str] | None = None) -> dict:  # type: ignore[type-arg]
    spaces_ = {c: [f"contract-{2 * i}", f"contract-{2 * i + 1}"] for i, c in enumerate(D.CONTRACT_CITIES)}
    return build(
        3,
        characters=["filippo", "dewu", "mailin"],
        contract_spaces=spaces_,
        players={0: {"posts": posts, "contracts": active or [], "dice": own(1, 3)}},
    )


def test_the_contracts_action_needs_a_trading_post_in_a_contract_city() -> None:
    assert "contracts" not in spaces(_contract_state(["kashgar"]), 0)
    assert "contracts" in spaces(_contract_state(["kashgar", "delhi"]), 0)


def test_the_contracts_action_takes_one_or_two_contracts_from_cities_with_posts_then_3_coins() -> None:
    state = _contract_state(["karakorum", "chengdu"])
    coins = state["players"][0]["coins"]
    state = place(state, 0, "contracts", 1)
    assert moves(state, 0) == [{"a": "take", "contract": f"contract-{i}"} for i in range(4)]
    state = play(state, 0, {"a": "take", "contract": "contract-2"})
    assert DONE in moves(state, 0)
    state = play(state, 0, {"a": "take", "contract": "contract-3"})
    p = state["players"][0]
    assert p["contracts"] == ["contract-2", "contract-3"] and p["coins"] == coins + 3
    assert state["contract_spaces"]["chengdu"] == [None, None]


def test_with_both_contract_spaces_full_an_old_contract_is_discarded_starters_to_the_box() -> None:
    state = _contract_state(["karakorum"], ["starter-0", "contract-40"])
    state = place(state, 0, "contracts", 1)
    assert moves(state, 0) == [
        {"a": "take", "contract": c, "discard": d}
        for c in ("contract-0", "contract-1")
        for d in ("starter-0", "contract-40")
    ]
    state = play(state, 0, {"a": "take", "contract": "contract-0", "discard": "starter-0"})
    assert "starter-0" in state["boxed"]["starters"]
    # a contract taken this turn may not be discarded for the second one
    assert moves(state, 0) == [{"a": "take", "contract": "contract-1", "discard": "contract-40"}, DONE]
    state = play(state, 0, {"a": "take", "contract": "contract-1", "discard": "contract-40"})
    assert state["pile"][-1] == "contract-40"
    assert state["players"][0]["contracts"] == ["contract-0", "contract-1"]


def test_empty_contract_spaces_are_refilled_from_the_pile_at_the_end_of_the_turn() -> None:
    state = _contract_state(["karakorum"])
    top = state["pile"][:2]
    state = place(state, 0, "contracts", 1)
    state = play(state, 0, {"a": "take", "contract": "contract-0"}, {"a": "take", "contract": "contract-1"})
    assert state["contract_spaces"]["karakorum"] == [None, None]
    state = play(state, 0, END)
    assert state["contract_spaces"]["karakorum"] == top


def test_completing_a_contract_pays_its_goods_and_gives_its_reward() -> None:
    cid = "contract-0"
    assert D.CONTRACTS[cid]["cost"] == {"pepper": 2, "silk": 1}
    state = build(3, players={0: {**ZERO, "pepper": 2, "silk": 1, "contracts": [cid]}})
    state = play(state, 0, {"a": "fulfil", "contract": cid})
    p = state["players"][0]
    assert res(state, 0) == {**ZERO, **D.CONTRACTS[cid]["reward"]}
    assert p["contracts"] == [] and p["completed"] == [cid]


def test_camels_of_a_contract_may_be_paid_with_jade() -> None:
    cid = "contract-3"
    assert D.CONTRACTS[cid]["cost"] == {"silk": 2, "camels": 1}
    state = build(3, players={0: {**ZERO, "silk": 2, "jade": 1, "contracts": [cid]}})
    state = play(state, 0, {"a": "fulfil", "contract": cid})
    assert res(state, 0) == {**ZERO, **D.CONTRACTS[cid]["reward"]}


def test_a_contract_cannot_be_completed_without_its_goods() -> None:
    state = build(3, players={0: {**ZERO, "pepper": 1, "silk": 1, "jade": 5, "contracts": ["contract-0"]}})
    assert "fulfil" not in kinds(state, 0)


def test_contracts_are_completed_only_on_ones_own_turn() -> None:
    state = build(3, players={1: {**ZERO, "pepper": 2, "silk": 1, "contracts": ["contract-0"]}})
    with pytest.raises(IllegalMove):
        GAME.apply(state, 1, {"a": "fulfil", "contract": "contract-0"})


# ---- special cities ----------------------------------------------------------------------------------


def test_a_special_city_action_needs_a_post_there_and_gives_its_reward_for_any_die() -> None:
    state = build(3, players={0: {**ZERO, "dice": own(1, 6)}})
    assert "hormuz" not in spaces(state, 0)
    state["players"][0]["posts"] = ["hormuz"]
    state = place(state, 0, "hormuz", 1)
    assert res(state, 0) == {**ZERO, **D.SPECIAL["hormuz"]["reward"]}


@pytest.mark.parametrize(("value", "times"), [(1, 1), (3, 1), (4, 2), (6, 2)])
def test_an_improved_matching_seal_adds_its_bonus_once_with_1_to_3_and_twice_with_4_to_6(
    value: int, times: int
) -> None:
    seal = D.SPECIAL["baghdad"]["seal"]
    state = build(3, players={0: {**ZERO, "dice": own(value), "posts": ["baghdad"], "seals": {seal: "improved"}}})
    state = place(state, 0, "baghdad", value)
    expected = dict(D.SPECIAL["baghdad"]["reward"])
    for k, n in D.SEAL[seal]["bonus"].items():
        expected[k] = expected.get(k, 0) + n * times
    assert res(state, 0) == {**ZERO, **expected}


def test_a_basic_seal_adds_nothing_at_a_special_city() -> None:
    seal = D.SPECIAL["balkh"]["seal"]
    state = build(3, players={0: {**ZERO, "dice": own(6), "posts": ["balkh"], "seals": {seal: "basic"}}})
    state = place(state, 0, "balkh", 6)
    assert res(state, 0) == {**ZERO, **D.SPECIAL["balkh"]["reward"]}


def test_a_special_city_has_two_single_die_spaces_and_each_colour_only_once() -> None:
    state = build(3, players={0: {"dice": [*own(2), ["black", 3]], "posts": ["hormuz"]}})
    state["special"]["hormuz"] = [{"seat": 0, "dice": own(5)}]
    state = play(state, 0, {"a": "space", "space": "hormuz"})
    assert [m for m in moves(state, 0) if m["a"] == "die"] == [die(3, "black")]
    state["pending"] = []
    state["special"]["hormuz"].append({"seat": 1, "dice": own(1)})
    assert "hormuz" not in spaces(state, 0)


# ---- money bag, dice bonus actions --------------------------------------------------------------------


@pytest.mark.parametrize(("take", "gain"), [("coins", {"coins": 3}), ("camels", {"camels": 2}), ("jade", {"jade": 1})])
def test_the_money_bag_takes_any_die_for_3_coins_2_camels_or_1_jade(take: str, gain: dict[str, int]) -> None:
    state = build(3, characters=["filippo", "dewu", "mailin"], players={0: {"dice": own(1, 6)}})
    state["bag"] = [{"seat": 1, "dice": own(4)}]
    before = res(state, 0)
    state = play(state, 0, {"a": "bag", "kind": "own", "value": 6, "take": take})
    assert delta(before, res(state, 0)) == gain
    assert state["players"][0]["dice"] == own(1)
    assert not state["turn_info"]["main"] and "end" not in kinds(state, 0)


def test_the_money_bag_may_take_the_last_die_and_then_the_turn_ends_without_a_main_action() -> None:
    state = build(3, players={0: {**ZERO, "dice": own(6)}})
    state = play(state, 0, {"a": "bag", "kind": "own", "value": 6, "take": "coins"})
    assert state["turn"] == 1


def test_a_reroll_costs_1_camel_and_a_change_by_one_costs_2_camels_but_never_turns_6_into_1() -> None:
    state = build(3, players={0: {**ZERO, "camels": 3, "dice": own(6)}})
    assert {"a": "adjust", "kind": "own", "value": 6, "by": -1} in moves(state, 0)
    assert {"a": "adjust", "kind": "own", "value": 6, "by": 1} not in moves(state, 0)
    state = play(state, 0, {"a": "adjust", "kind": "own", "value": 6, "by": -1})
    assert state["players"][0]["dice"] == own(5) and state["players"][0]["camels"] == 1
    state = play(state, 0, {"a": "reroll", "kind": "own", "value": 5})
    assert state["players"][0]["camels"] == 0 and len(state["players"][0]["dice"]) == 1


def test_a_black_die_costs_3_camels_is_rolled_at_once_and_may_be_bought_once_a_turn() -> None:
    state = build(3, players={0: {**ZERO, "camels": 7, "dice": own(2)}})
    pool = len(state["black_pool"])
    state = play(state, 0, {"a": "black"})
    p = state["players"][0]
    assert p["camels"] == 4 and len(p["dice"]) == 2 and p["dice"][1][0] == "black"
    assert len(state["black_pool"]) == pool - 1
    assert "black" not in kinds(state, 0)


def test_no_black_die_can_be_bought_when_the_board_has_none_left() -> None:
    state = build(3, black_pool=[], players={0: {**ZERO, "camels": 7}})
    assert "black" not in kinds(state, 0)


def test_a_contract_reward_may_give_a_black_die_beyond_the_one_bought() -> None:
    cid = "contract-11"
    assert D.CONTRACTS[cid]["cost"] == {"pepper": 2, "gold": 1} and D.CONTRACTS[cid]["reward"]["black_die"] == 1
    state = build(3, players={0: {**ZERO, "camels": 3, "pepper": 2, "gold": 1, "contracts": [cid], "dice": own(1)}})
    state = play(state, 0, {"a": "black"}, {"a": "fulfil", "contract": cid})
    assert [k for k, _ in state["players"][0]["dice"]] == ["own", "black", "black"]


def test_jade_may_replace_camels_when_buying_a_black_die() -> None:
    state = build(3, players={0: {**ZERO, "camels": 1, "jade": 2}})
    state = play(state, 0, {"a": "black"})
    assert (state["players"][0]["camels"], state["players"][0]["jade"]) == (0, 0)


# ---- the turn ----------------------------------------------------------------------------------------


def test_a_turn_is_one_main_action_with_bonus_actions_before_and_after() -> None:
    state = build(3, players={0: {**ZERO, "camels": 3, "dice": own(3, 4)}})
    assert "end" not in kinds(state, 0)
    state = place(state, 0, "khan", 3)
    assert "space" not in kinds(state, 0) and "end" in kinds(state, 0)
    assert "bag" in kinds(state, 0) and "reroll" in kinds(state, 0)
    state = play(state, 0, END)
    assert state["turn"] == 1


def test_no_bonus_action_can_interrupt_a_main_action() -> None:
    state = build(3, offers=OFFERS, players={0: {**ZERO, "camels": 3, "dice": own(3, 4)}})
    state = place(state, 0, "book1", 3)
    assert kinds(state, 0) == ["offer"]


def test_players_without_dice_pass_and_the_round_ends_when_nobody_has_dice() -> None:
    state = build(3, players={0: {"dice": own(3)}, 1: {"dice": []}, 2: {**ZERO, "dice": own(2)}})
    state = place(state, 0, "khan", 3)
    state = play(state, 0, END)
    assert state["turn"] == 2
    state = play(state, 2, {"a": "bag", "kind": "own", "value": 2, "take": "coins"})
    assert state["round"] == 2


def test_the_four_seals_of_each_guild_are_enough_for_four_players_so_the_supply_never_refuses_one() -> None:
    # 16 seals, 4 of each guild; a player holds at most one of a guild, so with 4 players none runs out
    others = {s: {"seals": {t: "basic" for t in D.SEALS}} for s in (1, 2, 3)}
    state = build(4, characters=["filippo", "dewu", "abha", "mongke"], players={0: {"dice": own(4, 4)}, **others})
    state = place(state, 0, "seals", 4, 4)
    assert moves(state, 0) == [{"a": "seal", "seal": t} for t in D.SEALS]
    state = play(state, 0, {"a": "seal", "seal": "jeweler"})
    holders = [s for s, p in enumerate(state["players"]) if "jeweler" in p["seals"]]
    assert holders == [0, 1, 2, 3]  # all four jeweler's seals are out, and nobody needs a fifth
