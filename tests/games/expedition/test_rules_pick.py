"""The card-by-card payment path: used when one figure has more than PAY_LIST_LIMIT distinct paying sets."""

from __future__ import annotations

import pytest

from server.games.base import IllegalMove, State, pack
from server.games.expedition import engine
from server.games.expedition.data import TRACK
from server.games.expedition.engine import GAME

from .helpers import CANCEL, PASS, build, choose, kinds, mv, pick, play, strings

# three card types in each of four colours and two in purple: 3**4 * 2 = 162 ways to pay five colours
BIG_HAND = [
    f"{colour}-{kind}-1" for colour in ("blue", "yellow", "red", "green") for kind in ("oil", "spice", "leader")
] + ["purple-oil-1", "purple-oil-2", "purple-spice-1"]


def five_colours_ahead() -> State:
    assert TRACK[9].req == {"kind": "five_colours"}
    return build(3, figs=[8, 0, 1], hands=[BIG_HAND, [], []])


def test_a_figure_with_too_many_paying_sets_is_offered_card_by_card_picking() -> None:
    assert 162 > engine.PAY_LIST_LIMIT
    state = five_colours_ahead()
    moves = GAME.legal_moves(state, 0)
    assert choose(0) in moves
    assert not [m for m in moves if m["a"] == "move"]
    assert PASS in moves


def test_picking_offers_each_card_type_once_and_only_cards_that_can_still_complete_the_payment() -> None:
    state = play(five_colours_ahead(), 0, choose(0))
    assert kinds(state, 0) == ["pick", "cancel"]
    offered = [m["card"] for m in GAME.legal_moves(state, 0) if m["a"] == "pick"]
    assert "purple-oil-2" not in offered and "purple-oil-1" in offered  # two copies, one offer
    assert len(offered) == 14
    state = play(state, 0, pick("blue-oil-1"))
    offered = [m["card"] for m in GAME.legal_moves(state, 0) if m["a"] == "pick"]
    assert not [c for c in offered if c.startswith("blue-")]  # blue is paid for
    with pytest.raises(IllegalMove):
        GAME.apply(state, 0, pick("blue-spice-1"))


def test_picking_card_by_card_completes_the_move() -> None:
    state = play(five_colours_ahead(), 0, choose(0))
    chosen = ["green-leader-1", "blue-oil-1", "purple-spice-1", "yellow-spice-1", "red-oil-1"]
    for card in chosen[:-1]:
        state = play(state, 0, pick(card))
        assert state["figs"][0]["pos"] == 8 and card in state["hands"][0]  # nothing paid yet
    state = play(state, 0, pick(chosen[-1]))
    assert state["figs"][0]["pos"] == 9
    assert sorted(state["discard"]) == sorted(chosen)
    assert sorted(state["hands"][0]) == sorted(set(BIG_HAND) - set(chosen))
    assert state["gold"][0] == [0, 1, 1]  # space 9's 2-chest
    assert kinds(state, 0)[-1] == "stop" and state["pick"] is None


def test_cancel_returns_to_the_normal_prompt_with_the_hand_untouched() -> None:
    start = five_colours_ahead()
    state = play(start, 0, choose(0), pick("blue-oil-1"), pick("red-leader-1"), CANCEL)
    assert state["pick"] is None
    assert state["hands"] == start["hands"] and state["figs"] == start["figs"]
    prompt = GAME.prompt(state, 0)
    assert prompt is not None and prompt.pop("undo") is True  # the picks and the cancel may still be taken back
    assert prompt == GAME.prompt(start, 0)


def test_the_picking_shows_only_in_the_pickers_own_view() -> None:
    state = play(five_colours_ahead(), 0, choose(0), pick("blue-oil-1"))
    assert GAME.view(state, 0)["private"]["picking"] == {"fig": 0, "cards": ["blue-oil-1"]}
    for viewer in (1, 2, None):
        assert "blue-oil-1" not in strings(GAME.view(state, viewer))


def test_a_lower_list_limit_sends_even_a_small_choice_through_picking(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(engine, "PAY_LIST_LIMIT", 1)
    assert TRACK[5].req == {"kind": "goods", "n": 2}
    hand = ["blue-oil-1", "red-spice-1", "red-spice-2", "green-spice-1"]
    state = build(3, figs=[4, 0, 1], hands=[hand, [], []])
    before = pack(state)
    assert choose(0) in GAME.legal_moves(state, 0)
    # the whole payment is still a set of hand cards meeting the requirement, so it is accepted too
    whole = GAME.apply(state, 0, mv(0, "red-spice-2", "red-spice-1"))
    assert whole["figs"][0]["pos"] == 5 and whole["hands"][0] == ["blue-oil-1", "green-spice-1"]
    assert pack(state) == before
    state = play(state, 0, choose(0))
    offered = [m["card"] for m in GAME.legal_moves(state, 0) if m["a"] == "pick"]
    assert offered == ["green-spice-1", "red-spice-1"]  # a lone oil can never pay two of a kind
    state = play(state, 0, pick("red-spice-1"))
    offered = [m["card"] for m in GAME.legal_moves(state, 0) if m["a"] == "pick"]
    assert offered == ["green-spice-1", "red-spice-2"]
    state = play(state, 0, pick("red-spice-2"))
    assert state["figs"][0]["pos"] == 5 and state["hands"][0] == ["blue-oil-1", "green-spice-1"]
    assert state["gold"][0] == [1, 0, 1]


def test_a_single_paying_set_is_listed_whole_instead_of_picked() -> None:
    state = build(3, figs=[4, 0, 1], hands=[["red-spice-1", "green-spice-1"], [], []])
    assert GAME.legal_moves(state, 0)[0] == mv(0, "green-spice-1", "red-spice-1")
    assert choose(0) not in GAME.legal_moves(state, 0)
