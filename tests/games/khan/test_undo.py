"""Undo within a turn (docs/games/khan.md, "Undo"): what a seat may take back, and what ends that right."""

from __future__ import annotations

import functools
from typing import Any

import pytest

from server.games.base import IllegalMove, Rng
from server.games.khan.engine import GAME
from tests.games import undo_checks

from .helpers import DECLINE, END, STOP, ZERO, build, die, own, place, play, res, step, strings

RICH: dict[str, Any] = {**ZERO, "coins": 40, "camels": 20, "jade": 5}
BAG: dict[str, Any] = {"a": "bag", "kind": "own", "value": 3, "take": "coins"}


seen_by_all = functools.partial(undo_checks.views, GAME)
assert_no_leak = functools.partial(undo_checks.keeps_secrets, GAME)
assert_undo_refused = functools.partial(undo_checks.refused, GAME)


def test_bonus_actions_a_route_and_its_outpost_are_taken_back_whole() -> None:
    # Filippo (seat 1) keeps a copy of every outpost tile taken: no decision of his, so no end of the right
    start = build(3, characters=["dewu", "filippo", "abha"], players={0: {**RICH, "dice": own(1, 3, 3, 3, 3)}})
    assert_undo_refused(start, 0)  # nothing done yet
    state = play(start, 0, BAG)
    assert GAME.may_undo(state, 0) and GAME.prompt(state, 0)["undo"] is True  # type: ignore[index]
    state = play(state, 0, {"a": "adjust", "kind": "own", "value": 1, "by": 1})  # the 1 becomes a 2
    state = place(state, 0, "travel3", 3, 3)
    state = play(state, 0, step("o_gobi"), step("xian"), STOP)
    assert state["players"][0]["posts"] == ["xian"] and state["outposts"]["xian"] is None
    assert state["players"][1]["tiles"] == ["outpost-8"]
    assert state["next_first"] == 0
    assert GAME.may_undo(state, 0) and GAME.prompt(state, 0)["undo"] is True  # type: ignore[index]
    for other in (1, 2):
        assert not GAME.may_undo(state, other)
        with pytest.raises(IllegalMove):
            GAME.undo(state, other)

    back = GAME.undo(state, 0)
    assert seen_by_all(back) == seen_by_all(start)
    assert back["log"][-1] == {"ev": "undo", "seat": 0, "n": state["seq"] + 1}
    assert back["log"][:-1] == state["log"][len(state["log"]) - len(back["log"]) + 1 :]
    assert "undo" not in back and not GAME.may_undo(back, 0)
    assert back["players"][1]["tiles"] == [] and back["next_first"] is None
    assert_no_leak(back)
    again = play(back, 0, {"a": "space", "space": "khan"}, die(3))  # and the turn is played again
    assert res(again, 0)["coins"] == RICH["coins"] + 4


def test_contracts_taken_from_the_board_and_one_put_under_the_pile_are_taken_back() -> None:
    start = build(
        3, players={0: {"posts": ["karakorum"], "contracts": ["starter-0", "contract-40"], "dice": own(1, 3)}}
    )
    shown = list(start["contract_spaces"]["karakorum"])
    state = place(start, 0, "contracts", 1)
    state = play(state, 0, {"a": "take", "contract": shown[0], "discard": "starter-0"})
    state = play(state, 0, {"a": "take", "contract": shown[1], "discard": "contract-40"})
    assert state["pile"][-1] == "contract-40" and "starter-0" in state["boxed"]["starters"]
    assert state["contract_spaces"]["karakorum"] == [None, None]  # refilled only when the turn ends
    assert GAME.may_undo(state, 0)
    assert seen_by_all(GAME.undo(state, 0)) == seen_by_all(start)
    # the refill from the face-down pile comes with the end of the turn, which ends the right anyway
    state = play(state, 0, END)
    assert state["contract_spaces"]["karakorum"] == start["pile"][:2]
    assert_undo_refused(state, 0)


def test_a_contract_city_reached_by_a_route_may_be_declined_and_taken_back() -> None:
    start = build(3, players={0: {**RICH, "dice": own(1, 3)}})
    state = place(start, 0, "travel1", 1)
    state = play(state, 0, step("karakorum"), DECLINE)
    assert state["players"][0]["posts"] == ["karakorum"]
    assert seen_by_all(GAME.undo(state, 0)) == seen_by_all(start)


@pytest.mark.parametrize(
    "move",
    [{"a": "reroll", "kind": "own", "value": 3}, {"a": "black"}],
    ids=["reroll", "black_die"],
)
def test_a_die_rolled_ends_the_right_and_the_next_decision_starts_from_it(move: dict[str, Any]) -> None:
    start = build(3, players={0: {**RICH}})
    state = play(start, 0, BAG, move)
    assert state["rng"] != start["rng"]
    assert_undo_refused(state, 0)
    rolled = state
    # what follows in the same turn may be taken back, to the state right after the roll (not before it)
    state = play(state, 0, {"a": "space", "space": "khan"}, die(3))
    assert GAME.may_undo(state, 0)
    back = GAME.undo(state, 0)
    assert seen_by_all(back) == seen_by_all(rolled)
    assert back["rng"] == rolled["rng"] and back["players"][0]["dice"] == rolled["players"][0]["dice"]


def test_a_black_die_of_the_variant_lies_face_up_so_taking_it_may_be_taken_back() -> None:
    start = build(
        3, options={"black_dice_variant": True}, black_pool=[2, 5, 5, 6, 1], players={0: {**ZERO, "camels": 3}}
    )
    state = play(start, 0, {"a": "black", "value": 5})
    assert ["black", 5] in state["players"][0]["dice"]
    assert GAME.may_undo(state, 0)
    back = GAME.undo(state, 0)
    assert seen_by_all(back) == seen_by_all(start) and sorted(back["black_pool"]) == [1, 2, 5, 5, 6]


def test_a_contract_drawn_from_the_pile_ends_the_right() -> None:
    # contract-19 rewards 5 VP and the top contract of the face-down pile (no die rolled)
    start = build(3, players={0: {**ZERO, "silk": 2, "jade": 1, "contracts": ["contract-19"]}})
    state = play(start, 0, BAG)
    assert GAME.may_undo(state, 0)
    top = state["pile"][0]
    state = play(state, 0, {"a": "fulfil", "contract": "contract-19"})
    assert state["rng"] == start["rng"]  # the pile was shuffled at set-up: the RNG alone cannot tell
    assert top in state["players"][0]["contracts"] and top not in state["pile"] and top in state["seen"]
    assert_undo_refused(state, 0)


def test_the_right_ends_with_the_turn_and_another_seat_never_takes_it_back() -> None:
    start = build(3)
    state = play(start, 0, BAG, {"a": "space", "space": "khan"}, die(3))
    assert GAME.may_undo(state, 0)
    state = play(state, 0, END)
    assert state["turn"] == 1
    assert_undo_refused(state, 0)
    assert_undo_refused(state, 1)  # seat 1 has decided nothing yet
    state = play(state, 1, BAG)
    assert GAME.may_undo(state, 1)
    assert_undo_refused(state, 0)
    back = GAME.undo(state, 1)
    assert back["log"][-1]["ev"] == "undo" and back["log"][-1]["seat"] == 1
    assert back["players"][0] == state["players"][0]  # seat 0's turn stays done


def test_a_turn_ending_by_itself_ends_the_right() -> None:
    start = build(3, players={0: {**ZERO, "dice": own(3)}})
    state = place(start, 0, "khan", 3)  # the last die, nothing to pay with: only "end" is left
    assert state["turn"] == 1
    assert_undo_refused(state, 0)


def test_a_seat_that_moves_again_because_the_others_are_out_of_dice_starts_a_new_turn() -> None:
    start = build(3, players={0: {"dice": own(3, 3, 3)}, 1: {"dice": []}, 2: {"dice": []}})
    state = play(start, 0, {"a": "space", "space": "khan"}, die(3))
    assert GAME.may_undo(state, 0)
    state = play(state, 0, END)
    assert state["turn"] == 0 and state["round"] == 1  # seat 0 again: a new turn
    assert_undo_refused(state, 0)
    turn_start = state
    state = play(state, 0, BAG)
    back = GAME.undo(state, 0)
    assert seen_by_all(back) == seen_by_all(turn_start)  # back to the new turn's start, not across "end"


def test_the_draft_the_goal_choice_and_round_start_choices_are_never_taken_back() -> None:
    state = GAME.setup(3, {}, 1)
    phases = set()
    while state["phase"] in ("draft", "goals", "start"):
        phases.add(state["phase"])
        seat = GAME.active_seats(state)[-1]
        state = play(state, seat, GAME.legal_moves(state, seat)[-1])
        for s in range(3):
            assert_undo_refused(state, s)
    assert phases == {"draft", "goals", "start"} and state["phase"] == "play"


def test_the_hidden_parts_stay_hidden_and_samples_carry_no_savepoint() -> None:
    start = build(3, seed=5)
    state = play(start, 0, BAG, {"a": "space", "space": "khan"}, die(3))
    assert "undo" in state
    assert_no_leak(state)
    for seat in range(3):
        sample = GAME.sample_state(state, seat, Rng(7))
        assert "undo" not in sample
        assert GAME.view(sample, seat) == GAME.view(state, seat)
    back = GAME.undo(state, 0)
    assert_no_leak(back)
    for viewer in (None, 1, 2):
        assert not strings(GAME.view(back, viewer)) & set(GAME.secret_tokens(back, 0))
