"""The main actions: take 5 coins, the Grand Bazaar, the Khan's favor, contracts; placement rules and fees."""

from __future__ import annotations

import pytest

from server.games.base import IllegalMove
from server.games.voyages.engine import GAME

from .helpers import DONE, END, STOP, build, die, kinds, moves, own, place, play, res

BAZAAR_TABLE = {
    "camels": [{"camels": n} for n in range(1, 7)],
    "pepper": [
        {"pepper": 1},
        {"pepper": 2},
        {"pepper": 2, "coins": 1},
        {"pepper": 3},
        {"pepper": 3, "coins": 2},
        {"pepper": 4},
    ],
    "silk": [
        {"silk": 1},
        {"silk": 2},
        {"silk": 2, "camels": 1},
        {"silk": 3},
        {"silk": 3, "camels": 1, "coins": 1},
        {"silk": 4},
    ],
    "gold": [{"gold": 1}, {"gold": 2}, {"gold": 2, "camels": 2}, {"gold": 3}, {"gold": 3}, {"gold": 4}],
}
DICE = {"camels": 1, "pepper": 1, "silk": 2, "gold": 3}


def _bazaar(space: str, value: int) -> dict[str, int]:
    state = build(3, players={0: {"dice": own(*[value] * 5)}})
    before = res(state, 0)
    state = place(state, 0, space, *[value] * DICE[space])
    if value > 1:
        assert moves(state, 0) == [{"a": "column", "n": n} for n in range(1, value + 1)]
        state = play(state, 0, {"a": "column", "n": value})
    if space == "gold" and value == 5:  # the free move: decline it here (tested in test_rules_travel)
        assert STOP in moves(state, 0)
        state = play(state, 0, STOP)
    after = res(state, 0)
    return {k: after[k] - before[k] for k in after if after[k] != before[k]}


@pytest.mark.parametrize("value", range(1, 7))
def test_the_camel_row_of_the_bazaar_gives_as_many_camels_as_the_die(value: int) -> None:
    assert _bazaar("camels", value) == BAZAAR_TABLE["camels"][value - 1]


@pytest.mark.parametrize("value", range(1, 7))
def test_the_pepper_row_of_the_bazaar_gives_1_2_2_plus_1_coin_3_3_plus_2_coins_4(value: int) -> None:
    assert _bazaar("pepper", value) == BAZAAR_TABLE["pepper"][value - 1]


@pytest.mark.parametrize("value", range(1, 7))
def test_the_silk_row_of_the_bazaar_takes_2_dice_and_gives_its_column(value: int) -> None:
    assert _bazaar("silk", value) == BAZAAR_TABLE["silk"][value - 1]


@pytest.mark.parametrize("value", range(1, 7))
def test_the_gold_row_of_the_bazaar_takes_3_dice_and_a_3_gives_2_gold_and_2_camels(value: int) -> None:
    assert _bazaar("gold", value) == BAZAAR_TABLE["gold"][value - 1]


def test_the_gold_row_with_a_5_also_gives_a_free_move() -> None:
    state = build(3, players={0: {"dice": own(5, 5, 5, 1, 1)}})
    state = place(state, 0, "gold", 5, 5, 5)
    state = play(state, 0, {"a": "column", "n": 5})
    assert state["pending"][0]["kind"] == "travel" and state["pending"][0]["mode"] == "free"


def test_the_lowest_die_sets_the_bazaar_column_and_a_lower_column_may_be_taken() -> None:
    state = build(3, players={0: {"dice": own(6, 2, 5, 5, 5)}})
    state = place(state, 0, "silk", 6, 2)
    assert moves(state, 0) == [{"a": "column", "n": 1}, {"a": "column", "n": 2}]
    state = play(state, 0, {"a": "column", "n": 1})
    assert state["players"][0]["silk"] == 1


def test_take_5_coins_gives_5_coins_whatever_the_die() -> None:
    state = build(3, players={0: {"dice": own(1, 1, 1, 1, 1), "coins": 0}})
    state = place(state, 0, "coins", 1)
    assert state["players"][0]["coins"] == 5


def test_an_occupied_blue_space_costs_as_many_coins_as_the_lowest_die_placed() -> None:
    state = build(3, players={1: {"dice": own(4, 4, 6, 6, 6), "coins": 10}})
    state["spaces"]["travel"] = [{"seat": 0, "dice": own(1, 1)}]
    state["spaces"]["silk"] = [{"seat": 2, "dice": own(6, 6)}]
    state["turn"] = 1
    state = place(state, 1, "silk", 6, 4)
    assert state["players"][1]["coins"] == 10 - 4
    assert state["spaces"]["silk"][-1] == {"seat": 1, "dice": own(6, 4)}


def test_a_player_who_cannot_pay_the_fee_cannot_use_the_occupied_space() -> None:
    state = build(3, players={0: {"dice": own(5, 5, 5, 5, 5), "coins": 4}})
    state["spaces"]["pepper"] = [{"seat": 1, "dice": own(1)}]
    assert {"a": "space", "space": "pepper"} not in moves(state, 0)
    state["players"][0]["coins"] = 5
    assert {"a": "space", "space": "pepper"} in moves(state, 0)


def test_each_player_colour_uses_a_space_once_per_round_but_black_dice_may_repeat_it() -> None:
    state = build(3, players={0: {"dice": own(2, 2, 2, 2) + [["black", 4]], "coins": 20}})
    state = place(state, 0, "camels", 2)
    state = play(state, 0, {"a": "column", "n": 2}, END)
    state["turn"] = 0
    state["turn_info"] = {"main": False, "black": False, "posts": []}
    state = play(state, 0, {"a": "space", "space": "camels"})
    assert moves(state, 0) == [die(4, "black"), {"a": "cancel"}]
    state = play(state, 0, die(4, "black"))
    assert state["players"][0]["coins"] == 20 - 4


def test_choosing_a_space_can_be_cancelled_before_the_last_die() -> None:
    state = build(3)
    state = play(state, 0, {"a": "space", "space": "silk"}, die(3), {"a": "cancel"})
    assert state["players"][0]["dice"] == own(3, 3, 3, 3, 3) and state["spaces"]["silk"] == []


def test_a_turn_has_exactly_one_main_action_and_ends_only_after_it() -> None:
    state = build(3)
    assert END not in moves(state, 0)
    state = place(state, 0, "coins", 3)
    assert "space" not in kinds(state, 0) and END in moves(state, 0)
    state = play(state, 0, END)
    assert GAME.active_seats(state) == [1]


def test_the_khan_favor_gives_2_camels_and_1_good_of_choice() -> None:
    state = build(4)
    before = res(state, 0)
    state = place(state, 0, "khan", 3)
    assert moves(state, 0) == [{"a": "good", "good": g} for g in ("pepper", "silk", "gold")]
    state = play(state, 0, {"a": "good", "good": "silk"})
    assert res(state, 0)["camels"] == before["camels"] + 2 and res(state, 0)["silk"] == 1


def test_the_khan_favor_needs_a_die_at_least_as_high_as_the_previous_one() -> None:
    state = build(4, players={0: {"dice": own(2, 4, 5)}})
    state["khan"] = [{"seat": 1, "dice": own(4)}]
    state = play(state, 0, {"a": "space", "space": "khan"})
    assert moves(state, 0) == [die(4), die(5), {"a": "cancel"}]
    state = build(4, players={0: {"dice": own(2, 3)}})
    state["khan"] = [{"seat": 1, "dice": own(4)}]
    assert {"a": "space", "space": "khan"} not in moves(state, 0)


def test_the_khan_favor_has_four_slots_per_round() -> None:
    state = build(4, players={0: {"dice": own(6)}})
    state["khan"] = [{"seat": s, "dice": [["black", 1]]} for s in (1, 2, 3, 1)]
    assert {"a": "space", "space": "khan"} not in moves(state, 0)


def test_the_khan_favor_takes_each_colour_once_per_round() -> None:
    state = build(4, players={0: {"dice": own(6, 6) + [["black", 6]]}})
    state["khan"] = [{"seat": 0, "dice": own(2)}]
    state = play(state, 0, {"a": "space", "space": "khan"})
    assert moves(state, 0) == [die(6, "black"), {"a": "cancel"}]


def test_the_khan_favor_never_costs_a_fee() -> None:
    state = build(3, players={0: {"coins": 0}})
    state = place(state, 0, "khan", 3)
    assert state["players"][0]["coins"] == 0


DISPLAY = [f"contract-{i}" for i in (0, 1, 2, 3, 4, 5)]


def test_contracts_come_from_the_slots_numbered_up_to_the_die() -> None:
    state = build(3, display=list(DISPLAY), players={0: {"dice": own(2, 6, 6, 6, 6)}})
    state = place(state, 0, "contracts", 2)
    taken = {m["contract"] for m in moves(state, 0) if m["a"] == "take"}
    assert taken == {"contract-0", "contract-1"}


def test_a_die_of_1_takes_only_the_first_contract() -> None:
    state = build(3, display=list(DISPLAY), players={0: {"dice": own(1, 6)}})
    state = place(state, 0, "contracts", 1)
    assert moves(state, 0) == [{"a": "take", "contract": "contract-0"}]
    state = play(state, 0, {"a": "take", "contract": "contract-0"})
    assert state["players"][0]["contracts"] == ["contract-0"] and state["pending"] == []


def test_up_to_two_contracts_are_taken_and_the_rest_slide_left() -> None:
    state = build(3, display=list(DISPLAY), players={0: {"dice": own(4, 6)}})
    state = place(state, 0, "contracts", 4)
    state = play(state, 0, {"a": "take", "contract": "contract-1"}, {"a": "take", "contract": "contract-3"})
    assert state["players"][0]["contracts"] == ["contract-1", "contract-3"]
    assert state["display"] == ["contract-0", "contract-2", "contract-4", "contract-5"]
    assert state["pending"] == []


def test_one_contract_may_be_enough() -> None:
    state = build(3, display=list(DISPLAY), players={0: {"dice": own(4, 6)}})
    state = place(state, 0, "contracts", 4)
    assert DONE not in moves(state, 0)
    state = play(state, 0, {"a": "take", "contract": "contract-2"}, DONE)
    assert state["players"][0]["contracts"] == ["contract-2"]


def test_contract_slot_5_gives_1_coin_or_camel_and_slot_6_gives_2() -> None:
    state = build(3, display=list(DISPLAY), players={0: {"dice": own(6, 6), "coins": 0, "camels": 0}})
    state = place(state, 0, "contracts", 6)
    assert {"a": "take", "contract": "contract-4", "bonus": "coins"} in moves(state, 0)
    assert {"a": "take", "contract": "contract-0"} in moves(state, 0)
    state = play(state, 0, {"a": "take", "contract": "contract-4", "bonus": "coins"})
    state = play(state, 0, {"a": "take", "contract": "contract-5", "bonus": "camels"})
    assert state["players"][0]["coins"] == 1 and state["players"][0]["camels"] == 2


def test_with_two_active_contracts_an_old_one_goes_to_the_bottom_of_the_special_pile() -> None:
    state = build(
        3, display=list(DISPLAY), players={0: {"dice": own(3, 6), "contracts": ["contract-40", "contract-41"]}}
    )
    special = list(state["special"])
    state = place(state, 0, "contracts", 3)
    assert all("discard" in m for m in moves(state, 0) if m["a"] == "take")
    state = play(state, 0, {"a": "take", "contract": "contract-0", "discard": "contract-41"})
    assert state["players"][0]["contracts"] == ["contract-40", "contract-0"]
    assert state["special"] == [*special, "contract-41"]
    # the second contract may replace only the old one, never the one just taken
    assert {m.get("discard") for m in moves(state, 0) if m["a"] == "take"} == {"contract-40"}


def test_an_empty_display_makes_the_contracts_space_unavailable_when_the_special_pile_is_empty() -> None:
    state = build(3, display=[], special=[])
    assert {"a": "space", "space": "contracts"} not in moves(state, 0)


def test_an_illegal_die_raises_and_changes_nothing() -> None:
    state = build(3)
    state = play(state, 0, {"a": "space", "space": "coins"})
    with pytest.raises(IllegalMove):
        GAME.apply(state, 0, die(5))


def test_with_two_players_take_5_coins_is_always_occupied_and_costs_the_die_value() -> None:
    state = build(2, players={0: {"dice": own(4, 4), "coins": 10}})
    state["spaces"]["coins"] = [{"seat": None, "dice": [["neutral", 1]]}]
    state = place(state, 0, "coins", 4)
    assert state["players"][0]["coins"] == 10 - 4 + 5


def test_with_three_players_the_khan_favor_has_three_free_slots() -> None:
    state = build(3, players={0: {"dice": own(1, 1)}, 1: {"dice": own(1)}, 2: {"dice": own(1)}})
    state["khan"] = [{"seat": None, "dice": [["neutral", 1]]}]
    for seat in (0, 1, 2):
        assert {"a": "space", "space": "khan"} in moves(state, seat) or GAME.active_seats(state) != [seat]
        state = place(state, seat, "khan", 1)
        state = play(state, seat, {"a": "good", "good": "gold"})
        if GAME.active_seats(state) == [seat]:
            state = play(state, seat, END)
    assert len(state["khan"]) == 4
    assert {"a": "space", "space": "khan"} not in moves(state, 0)


def test_own_dice_and_a_black_die_may_fill_a_two_dice_space_together_and_the_lowest_sets_the_yield() -> None:
    state = build(3, players={0: {"dice": [*own(5, 6), ["black", 2]]}})
    state = play(state, 0, {"a": "space", "space": "silk"})
    assert die(2, "black") in moves(state, 0) and die(5) in moves(state, 0)
    state = play(state, 0, die(5), die(2, "black"))
    assert state["spaces"]["silk"] == [{"seat": 0, "dice": [["own", 5], ["black", 2]]}]
    assert moves(state, 0) == [{"a": "column", "n": 1}, {"a": "column", "n": 2}]  # the black 2 is the lowest
    assert state["players"][0]["dice"] == own(6)


def test_a_contract_display_holding_a_single_contract_gives_that_one_and_ends_the_action() -> None:
    state = build(3, display=["contract-7"], players={0: {"dice": own(6, 1)}})
    state = place(state, 0, "contracts", 6)
    assert moves(state, 0) == [{"a": "take", "contract": "contract-7"}]
    state = play(state, 0, {"a": "take", "contract": "contract-7"})
    assert state["pending"] == [] and state["display"] == []
    assert state["players"][0]["contracts"] == ["contract-7"]
