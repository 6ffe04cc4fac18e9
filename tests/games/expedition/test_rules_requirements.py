"""Seed 000, 6.1: which cards pay each of the five requirement kinds (driven through legal_moves/apply)."""

from __future__ import annotations

import pytest

from server.games.base import IllegalMove, State, pack
from server.games.expedition.data import KANTSHOU, TRACK
from server.games.expedition.engine import GAME

from .helpers import build, mv, pay_options, play, space


def facing(pos: int, hand: list[str]) -> State:
    """Seat 0's only figure stands just before `pos`; the other two figures are far behind."""
    assert pos - 1 >= 2
    return build(3, figs=[pos - 1, 0, 1], hands=[hand, [], []])


def offered(state: State) -> set[tuple[str, ...]]:
    return {tuple(p) for p in pay_options(state, 0, 0)}


def test_a_goods_space_takes_that_many_goods_of_one_type_in_any_colours() -> None:
    pos = space("goods", 2)
    state = facing(pos, ["blue-oil-1", "red-oil-1", "green-spice-1", "purple-silk-1"])
    assert offered(state) == {("blue-oil-1", "red-oil-1")}
    after = play(state, 0, mv(0, "blue-oil-1", "red-oil-1"))
    assert after["figs"][0]["pos"] == pos
    assert after["hands"][0] == ["green-spice-1", "purple-silk-1"]


def test_a_goods_space_refuses_caravan_leaders_and_mixed_goods_types() -> None:
    pos = space("goods", 2)
    hand = ["blue-leader-1", "red-leader-1", "green-spice-1", "purple-silk-1", "red-oil-1"]
    state = facing(pos, hand)
    assert offered(state) == set()
    for pay in (("blue-leader-1", "red-leader-1"), ("green-spice-1", "purple-silk-1"), ("red-oil-1", "red-leader-1")):
        with pytest.raises(IllegalMove):
            GAME.apply(state, 0, mv(0, *pay))


def test_a_leader_space_takes_only_caravan_leaders_of_any_colours() -> None:
    pos = space("leaders", 2)
    hand = ["blue-leader-1", "red-leader-1", "red-oil-1", "red-oil-2", "blue-spice-1"]
    state = facing(pos, hand)
    assert offered(state) == {("blue-leader-1", "red-leader-1")}
    with pytest.raises(IllegalMove):
        GAME.apply(state, 0, mv(0, "red-oil-1", "red-oil-2"))
    with pytest.raises(IllegalMove):
        GAME.apply(state, 0, mv(0, "blue-leader-1", "red-oil-1"))


def test_a_leader_space_refuses_goods_even_when_there_are_many() -> None:
    pos = space("leaders", 1, start=3)
    state = facing(pos, ["blue-oil-1", "blue-oil-2", "red-spice-1", "green-silk-1", "yellow-fruit-1"])
    assert offered(state) == set()


def test_a_colour_space_takes_cards_of_one_colour_leaders_included() -> None:
    pos = space("colour", 3)
    hand = ["red-leader-1", "red-oil-1", "red-silk-1", "blue-oil-1", "blue-oil-2", "green-fruit-1"]
    state = facing(pos, hand)
    assert offered(state) == {("red-leader-1", "red-oil-1", "red-silk-1")}
    after = play(state, 0, mv(0, "red-leader-1", "red-oil-1", "red-silk-1"))
    assert after["figs"][0]["pos"] == pos


def test_a_colour_space_refuses_cards_of_mixed_colours() -> None:
    pos = space("colour", 3)
    state = facing(pos, ["red-leader-1", "red-oil-1", "blue-oil-1", "blue-oil-2", "green-oil-1"])
    assert offered(state) == set()
    with pytest.raises(IllegalMove):
        GAME.apply(state, 0, mv(0, "red-oil-1", "blue-oil-1", "green-oil-1"))


def test_five_colours_takes_one_card_of_each_colour_of_any_type() -> None:
    pos = space("five_colours")
    hand = ["blue-leader-1", "yellow-oil-1", "red-spice-1", "green-silk-1", "purple-fruit-1", "purple-leader-1"]
    state = facing(pos, hand)
    assert offered(state) == {
        ("blue-leader-1", "green-silk-1", "purple-fruit-1", "red-spice-1", "yellow-oil-1"),
        ("blue-leader-1", "green-silk-1", "purple-leader-1", "red-spice-1", "yellow-oil-1"),
    }


def test_five_colours_needs_all_five_colours() -> None:
    pos = space("five_colours")
    hand = ["blue-leader-1", "yellow-oil-1", "red-spice-1", "green-silk-1", "green-fruit-1", "red-leader-1"]
    state = facing(pos, hand)
    assert offered(state) == set()
    with pytest.raises(IllegalMove):
        GAME.apply(state, 0, mv(0, "blue-leader-1", "yellow-oil-1", "red-spice-1", "green-silk-1", "green-fruit-1"))


def test_four_goods_takes_one_card_of_each_goods_type_in_any_colours() -> None:
    assert TRACK[KANTSHOU].req == {"kind": "four_goods"}
    hand = ["blue-oil-1", "red-spice-1", "green-silk-1", "yellow-fruit-1", "purple-leader-1"]
    state = facing(KANTSHOU, hand)
    assert offered(state) == {("blue-oil-1", "green-silk-1", "red-spice-1", "yellow-fruit-1")}


def test_four_goods_needs_all_four_goods_types_and_refuses_leaders() -> None:
    hand = ["blue-oil-1", "blue-oil-2", "red-spice-1", "green-silk-1", "purple-leader-1", "red-leader-1"]
    state = facing(KANTSHOU, hand)
    assert offered(state) == set()
    with pytest.raises(IllegalMove):
        GAME.apply(state, 0, mv(0, "blue-oil-1", "red-spice-1", "green-silk-1", "purple-leader-1"))
    with pytest.raises(IllegalMove):
        GAME.apply(state, 0, mv(0, "blue-oil-1", "blue-oil-2", "red-spice-1", "green-silk-1"))


def test_only_minimal_paying_sets_are_offered() -> None:
    pos = space("goods", 2)
    hand = ["blue-oil-1", "blue-oil-2", "red-oil-1", "red-oil-2", "green-oil-1", "yellow-spice-1"]
    state = facing(pos, hand)
    sets = pay_options(state, 0, 0)
    assert sets and all(len(p) == 2 for p in sets)
    before = pack(state)
    with pytest.raises(IllegalMove):  # an over-payment is not a legal move
        GAME.apply(state, 0, mv(0, "blue-oil-1", "red-oil-1", "green-oil-1"))
    assert pack(state) == before


def test_copies_of_the_same_card_type_are_listed_once() -> None:
    pos = space("goods", 2)
    state = facing(pos, ["blue-oil-1", "blue-oil-2", "red-oil-1"])
    # blue+blue, blue+red; the second blue oil with the red oil is the same choice and is not repeated
    assert sorted(pay_options(state, 0, 0)) == [["blue-oil-1", "blue-oil-2"], ["blue-oil-1", "red-oil-1"]]



# ---- a payment is a set of cards from the hand: any order, any copy --------------------------------------


def test_a_payment_is_accepted_in_any_order_of_its_cards() -> None:
    pos = space("goods", 2)
    state = facing(pos, ["blue-oil-1", "red-oil-1", "green-leader-1"])
    after = play(state, 0, {"a": "move", "fig": 0, "pay": ["red-oil-1", "blue-oil-1"]})
    assert after["figs"][0]["pos"] == pos and after["hands"][0] == ["green-leader-1"]
    assert sorted(after["discard"]) == ["blue-oil-1", "red-oil-1"]


def test_a_payment_may_name_any_copy_of_a_duplicate_card_and_that_copy_is_paid() -> None:
    pos = space("goods", 2)
    state = facing(pos, ["blue-oil-1", "blue-oil-2", "red-oil-1"])
    after = play(state, 0, {"a": "move", "fig": 0, "pay": ["blue-oil-2", "red-oil-1"]})
    assert after["figs"][0]["pos"] == pos and after["hands"][0] == ["blue-oil-1"]
    assert sorted(after["discard"]) == ["blue-oil-2", "red-oil-1"]


def test_a_payment_the_prompt_would_pick_card_by_card_may_also_be_sent_whole() -> None:
    pos = space("five_colours")
    hand = [f"{c}-{k}-1" for c in ("blue", "yellow", "red", "green", "purple") for k in ("oil", "spice", "silk")]
    state = facing(pos, hand)
    assert [m["a"] for m in GAME.legal_moves(state, 0)][:1] == ["choose"]
    pay = ["purple-silk-1", "green-spice-1", "red-oil-1", "yellow-silk-1", "blue-spice-1"]
    after = play(state, 0, {"a": "move", "fig": 0, "pay": pay})
    assert after["figs"][0]["pos"] == pos and sorted(after["discard"]) == sorted(pay)


@pytest.mark.parametrize(
    "pay",
    [
        ["blue-oil-1", "blue-oil-1"],  # the same card twice
        ["blue-oil-1", "yellow-oil-1"],  # a card not in the hand
        ["blue-oil-1", "green-leader-1"],  # does not meet the requirement
        ["blue-oil-1", "red-oil-1", "blue-oil-2"],  # more cards than the space takes
        ["blue-oil-1"],
        "blue-oil-1",
        ["blue-oil-1", 3],
    ],
)
def test_a_payment_that_is_not_a_set_of_hand_cards_meeting_the_requirement_is_refused(pay: object) -> None:
    pos = space("goods", 2)
    state = facing(pos, ["blue-oil-1", "blue-oil-2", "red-oil-1", "green-leader-1"])
    before = pack(state)
    with pytest.raises(IllegalMove):
        GAME.apply(state, 0, {"a": "move", "fig": 0, "pay": pay})
    assert pack(state) == before


def test_picking_card_by_card_accepts_any_copy_of_an_offered_card_type() -> None:
    pos = space("five_colours")
    colours = ("blue", "yellow", "red", "green", "purple")
    hand = [f"{c}-{k}-{i}" for c in colours for k in ("oil", "spice", "silk") for i in (1, 2)]
    state = play(facing(pos, hand), 0, {"a": "choose", "fig": 0})
    assert {"a": "pick", "card": "blue-oil-1"} in GAME.legal_moves(state, 0)
    state = play(state, 0, {"a": "pick", "card": "blue-oil-2"})
    assert state["pick"]["cards"] == ["blue-oil-2"]
