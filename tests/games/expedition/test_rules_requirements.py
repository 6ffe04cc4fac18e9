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

