"""Seed 000, 6.1 and decisions.md A: moving, skipping, chests on the track, lightening the load, change."""

from __future__ import annotations

import pytest

from server.games.base import IllegalMove, State, pack
from server.games.expedition.data import DAIDU, KANTSHOU, TRACK
from server.games.expedition.engine import GAME

from .helpers import DRAW_DECK, PASS, STOP, build, gold, kinds, lighten, mv, play


def req(pos: int) -> dict[str, object] | None:
    return TRACK[pos].req


def section2(figs: list[int], hand: list[str], g: list[int] | None = None, seats: int = 3) -> State:
    """After Kantshou: the leader (seat 1) took every chest up to its space; seat 0 is to move."""
    hands: list[list[str]] = [hand] + [[] for _ in range(seats - 1)]
    golds = [[0, 0, 1] for _ in range(seats)]
    if g is not None:
        golds[0] = g
    return build(
        seats,
        figs=figs,
        hands=hands,
        gold=golds,
        chests=dict.fromkeys(range(KANTSHOU + 1, DAIDU), 0),
        kantshou="scored",
    )


# ---- moving -------------------------------------------------------------------------------------------


def test_a_player_may_move_several_spaces_in_one_turn_paying_each_space() -> None:
    assert (req(4), req(5), req(6)) == (
        {"kind": "goods", "n": 1},
        {"kind": "goods", "n": 2},
        {"kind": "leaders", "n": 2},
    )
    hand = ["blue-oil-1", "red-spice-1", "green-spice-1", "blue-leader-1", "red-leader-1", "yellow-silk-1"]
    state = build(3, figs=[3, 0, 1], hands=[hand, [], []])
    state = play(state, 0, mv(0, "blue-oil-1"))
    assert state["figs"][0]["pos"] == 4
    assert "pass" not in kinds(state, 0) and "stop" in kinds(state, 0)
    state = play(state, 0, mv(0, "green-spice-1", "red-spice-1"), mv(0, "blue-leader-1", "red-leader-1"))
    assert state["figs"][0]["pos"] == 6
    assert state["hands"][0] == ["yellow-silk-1"]
    paid = ["blue-oil-1", "red-spice-1", "green-spice-1", "blue-leader-1", "red-leader-1"]
    assert sorted(state["discard"]) == sorted(paid)
    # the next space wants 2 cards of one colour: nothing left pays it, so only stopping remains
    assert GAME.legal_moves(state, 0) == [STOP]
    state = play(state, 0, STOP)
    assert state["phase"] == "draw"


def test_a_figure_skips_spaces_occupied_by_other_figures() -> None:
    # straight after set-up: seat 0 on Hormus, seats 1 and 2 on spaces 1 and 2
    state = build(3, hands=[["blue-oil-1", "blue-spice-1"], [], []])
    assert [f["pos"] for f in state["figs"]] == [0, 1, 2]
    assert req(3) == {"kind": "colour", "n": 2}
    state = play(state, 0, mv(0, "blue-oil-1", "blue-spice-1"))
    assert state["figs"][0]["pos"] == 3
    ev = state["log"][-1]
    assert (ev["from"], ev["to"]) == (0, 3)


def test_a_skipped_space_need_not_be_paid() -> None:
    # space 1 (one goods card) and 2 (one leader) are occupied; only space 3 is paid
    state = build(3, hands=[["blue-oil-1", "blue-spice-1"], [], []])
    assert all(len(p["pay"]) == 2 for p in GAME.legal_moves(state, 0) if p["a"] == "move")


def test_the_first_figure_to_enter_a_chest_space_takes_its_chest() -> None:
    assert TRACK[5].chest == 1
    state = build(3, figs=[4, 3, 0], hands=[["red-spice-1", "green-spice-1"], [], []])
    state = play(state, 0, mv(0, "green-spice-1", "red-spice-1"))
    assert state["chests"][5] == 0
    assert state["gold"][0] == [1, 0, 1]
    assert state["log"][-1]["chest"] == 1


def test_a_later_arrival_on_an_emptied_chest_space_gets_nothing() -> None:
    assert req(6) == {"kind": "leaders", "n": 2}
    spices_leaders = ["red-spice-1", "green-spice-1", "blue-leader-1", "red-leader-1"]
    hands = [spices_leaders, ["blue-oil-1", "red-oil-1", "red-oil-2"], []]
    state = build(3, figs=[4, 3, 0], hands=hands)
    pay_6 = mv(0, "blue-leader-1", "red-leader-1")
    state = play(state, 0, mv(0, "green-spice-1", "red-spice-1"), pay_6, STOP, DRAW_DECK)
    assert state["figs"][0]["pos"] == 6 and state["turn"] == 1
    state = play(state, 1, mv(1, "blue-oil-1"), mv(1, "red-oil-1", "red-oil-2"))
    assert state["figs"][1]["pos"] == 5
    assert state["gold"][1] == [0, 0, 1]
    assert "chest" not in state["log"][-1]


# ---- lightening the load ------------------------------------------------------------------------------


def test_lightening_the_load_costs_one_1_chest_and_no_cards() -> None:
    state = section2([22, 28, 16], ["blue-oil-1"], g=[1, 0, 1])
    assert lighten(0) in GAME.legal_moves(state, 0)
    after = play(state, 0, lighten(0))
    assert after["figs"][0]["pos"] == 23
    assert after["gold"][0] == [0, 0, 1]
    assert after["hands"][0] == ["blue-oil-1"] and after["discard"] == state["discard"]
    assert after["lightened"] is True


def test_lightening_the_load_is_allowed_only_once_per_turn() -> None:
    hand = ["blue-oil-1", "blue-oil-2", "red-oil-1"]
    state = play(section2([22, 28, 16], hand, g=[2, 0, 0]), 0, lighten(0))
    assert lighten(0) not in GAME.legal_moves(state, 0)
    with pytest.raises(IllegalMove):
        GAME.apply(state, 0, lighten(0))
    state = play(state, 0, mv(0, "blue-oil-1", "blue-oil-2", "red-oil-1"))  # cards still pay
    assert state["figs"][0]["pos"] == 24
    assert lighten(0) not in GAME.legal_moves(state, 0)
    # the next turn of the same player may lighten again
    state = play(state, 0, STOP, DRAW_DECK)
    state = play(state, 1, PASS, DRAW_DECK)
    state = play(state, 2, PASS, DRAW_DECK)
    assert state["turn"] == 0 and lighten(0) in GAME.legal_moves(state, 0)


def test_lightening_is_allowed_only_onto_a_space_behind_another_players_figure() -> None:
    # seat 1 leads on 27: space 26 lies behind it
    state = section2([25, 27, 16], [])
    assert play(state, 0, lighten(0))["figs"][0]["pos"] == 26
    # from 26 the next free space is 28, ahead of every other figure: no lightening
    state = section2([26, 27, 16], [])
    assert lighten(0) not in GAME.legal_moves(state, 0)
    # the leading figure can never lighten
    state = section2([20, 16, 16], [])
    assert lighten(0) not in GAME.legal_moves(state, 0)


def test_a_players_own_second_figure_does_not_allow_lightening() -> None:
    # two players: seat 0 owns figures 0 and 2, seat 1 owns figures 1 and 3
    state = section2([20, 16, 28, 16], [], seats=2)
    assert state["figs"][2]["seat"] == 0
    assert req(21) is not None and state["chests"][21] == 0
    assert lighten(0) not in GAME.legal_moves(state, 0)
    state["figs"][3]["pos"] = 27  # now a figure of the other player is ahead
    assert lighten(0) in GAME.legal_moves(state, 0)


def test_figures_placed_ahead_at_setup_allow_lightening_behind_them() -> None:
    # two players from set-up: figures 0..3 on spaces 0..3; seat 0 moves figure 2 on to space 4
    hands = [["blue-oil-1"], []]
    state = build(2, hands=hands, gold=[[1, 0, 1], [0, 0, 1]])
    assert [(f["seat"], f["pos"]) for f in state["figs"]] == [(0, 0), (1, 1), (0, 2), (1, 3)]
    assert req(4) == {"kind": "goods", "n": 1} and TRACK[2].chest == 0
    state = play(state, 0, mv(2, "blue-oil-1"), STOP, DRAW_DECK)
    state = play(state, 1, PASS, DRAW_DECK)
    # figure 0's next free space is 2; no figure ever passed through it, but seat 1's figure 3 was
    # placed ahead of it at set-up, and that counts
    assert lighten(0) in GAME.legal_moves(state, 0)
    state = play(state, 0, lighten(0))
    assert state["figs"][0]["pos"] == 2 and state["gold"][0] == [0, 0, 1]


def test_lightening_never_enters_daidu() -> None:
    state = section2([27, 28, 16], [], g=[5, 0, 0])
    assert GAME.next_free(state, 0) == DAIDU
    assert lighten(0) not in GAME.legal_moves(state, 0)


def test_lightening_never_enters_a_space_holding_a_chest() -> None:
    state = section2([18, 28, 16], [])
    state["chests"][19] = 2
    assert lighten(0) not in GAME.legal_moves(state, 0)
    state["chests"][19] = 0  # once the chest is gone the space may be entered by lightening
    assert lighten(0) in GAME.legal_moves(state, 0)


def test_lightening_may_come_before_between_or_after_card_payments() -> None:
    assert [req(p) for p in (23, 24, 25)] == [
        {"kind": "colour", "n": 3},
        {"kind": "goods", "n": 3},
        {"kind": "four_goods"},
    ]
    red3 = ["red-oil-1", "red-spice-1", "red-leader-1"]
    oil3 = ["blue-oil-1", "blue-oil-2", "green-oil-1"]
    four = ["yellow-oil-1", "yellow-spice-1", "yellow-silk-1", "yellow-fruit-1"]
    hand = red3 + oil3 + four
    before = play(section2([22, 28, 16], hand), 0, lighten(0), mv(0, *oil3))
    between = play(section2([22, 28, 16], hand), 0, mv(0, *red3), lighten(0), mv(0, *four))
    after = play(section2([22, 28, 16], hand), 0, mv(0, *red3), mv(0, *oil3), lighten(0))
    assert before["figs"][0]["pos"] == 24
    assert between["figs"][0]["pos"] == 25
    assert after["figs"][0]["pos"] == 25
    for s in (before, between, after):
        assert s["lightened"] and gold(s, 0) == 2


def test_a_player_without_gold_cannot_lighten_the_load() -> None:
    state = section2([22, 28, 16], [], g=[0, 0, 0])
    assert lighten(0) not in GAME.legal_moves(state, 0)


# ---- making change ------------------------------------------------------------------------------------


def test_a_3_chest_is_changed_into_2_plus_1_when_a_1_chest_is_needed() -> None:
    state = play(section2([22, 28, 16], [], g=[0, 0, 1]), 0, lighten(0))
    assert state["gold"][0] == [0, 1, 0]


def test_a_2_chest_is_changed_into_1_plus_1_when_a_1_chest_is_needed() -> None:
    state = play(section2([22, 28, 16], [], g=[0, 1, 0]), 0, lighten(0))
    assert state["gold"][0] == [1, 0, 0]
    assert gold(state, 0) == 1


def test_a_1_chest_in_hand_is_paid_without_change() -> None:
    state = play(section2([22, 28, 16], [], g=[1, 1, 1]), 0, lighten(0))
    assert state["gold"][0] == [0, 1, 1]


def test_lightening_leaves_the_state_unchanged_when_refused() -> None:
    state = section2([26, 27, 16], [])
    before = pack(state)
    with pytest.raises(IllegalMove):
        GAME.apply(state, 0, lighten(0))
    assert pack(state) == before
