"""Undo within a turn (docs/games/voyages.md, "Undo"): what a seat may take back, and what ends that right."""

from __future__ import annotations

import functools
from typing import Any

import pytest

from server.games.base import IllegalMove, Rng
from server.games.voyages.engine import GAME
from tests.games import undo_checks

from .helpers import CITY, END, STOP, build, die, own, place, play, res, strings

DISPLAY = [f"contract-{i}" for i in (0, 2, 3, 4, 5, 6)]
BAG: dict[str, Any] = {"a": "bag", "kind": "own", "value": 3}
UNDO_EVENT = {"ev": "undo", "seat": 0}


seen_by_all = functools.partial(undo_checks.views, GAME)
assert_no_leak = functools.partial(undo_checks.keeps_secrets, GAME)
assert_undo_refused = functools.partial(undo_checks.refused, GAME)


def test_a_turn_of_bonus_actions_and_contracts_is_taken_back_whole() -> None:
    start = build(3, players={0: {"dice": own(1, 3, 4, 4, 6), "coins": 4, "camels": 5}})
    display = start["display"]  # the real one (seen by all), so that the hidden pool is the real one too
    assert_undo_refused(start, 0)  # nothing done yet
    state = play(start, 0, BAG)  # money bag: +3 coins
    assert GAME.may_undo(state, 0) and GAME.prompt(state, 0)["undo"] is True  # type: ignore[index]
    state = play(state, 0, {"a": "adjust", "kind": "own", "value": 1, "by": 1})  # 2 camels: the 1 becomes 2
    state = play(state, 0, {"a": "space", "space": "contracts"}, die(6))  # the face-up display
    state = play(state, 0, {"a": "take", "contract": display[5], "bonus": "coins"})
    state = play(state, 0, {"a": "take", "contract": display[0]})
    assert state["players"][0]["contracts"] == [display[5], display[0]]
    state = play(state, 0, {"a": "bag", "kind": "own", "value": 4})  # a bonus action after the main one
    assert GAME.may_undo(state, 0) and GAME.prompt(state, 0)["undo"] is True  # type: ignore[index]
    for other in (1, 2):
        assert not GAME.may_undo(state, other)
        with pytest.raises(IllegalMove):
            GAME.undo(state, other)

    back = GAME.undo(state, 0)
    assert seen_by_all(back) == seen_by_all(start)
    assert back["log"][-1] == {**UNDO_EVENT, "n": state["seq"] + 1}
    assert back["log"][:-1] == state["log"][len(state["log"]) - len(back["log"]) + 1 :]
    assert back["seq"] == state["seq"] + 1
    assert "undo" not in back and not GAME.may_undo(back, 0)
    assert_no_leak(back)
    # and the turn is played again from its start
    again = play(back, 0, {"a": "space", "space": "coins"}, die(6))
    assert again["players"][0]["coins"] == start["players"][0]["coins"] + 5


def test_what_mercator_received_from_the_bazaar_is_taken_back_with_the_turn() -> None:
    start = build(4, characters=["berke", "mercator", "carpini", "wilhelm"], players={0: {"dice": own(4, 4, 4, 1)}})
    state = place(start, 0, "silk", 4, 4)
    state = play(state, 0, {"a": "column", "n": 4})  # Mercator (seat 1) gets a silk: no decision of his
    assert res(state, 1)["silk"] == res(start, 1)["silk"] + 1
    assert GAME.may_undo(state, 0) and not GAME.may_undo(state, 1)
    back = GAME.undo(state, 0)
    assert seen_by_all(back) == seen_by_all(start)
    assert res(back, 1) == res(start, 1)


def test_a_route_with_its_posts_bonuses_and_outpost_is_taken_back() -> None:
    moscow, alexandria = CITY["Moscow"], CITY["Alexandria"]
    start = build(3, players={0: {"dice": own(4, 4, 1), "coins": 30}})
    state = place(start, 0, "travel", 4, 4)
    state = play(state, 0, {"a": "step", "fig": 0, "to": 1}, {"a": "step", "fig": 0, "to": moscow})
    state = play(state, 0, STOP)
    assert moscow in state["players"][0]["posts"]
    assert GAME.may_undo(state, 0)
    back = GAME.undo(state, 0)
    assert seen_by_all(back) == seen_by_all(start)
    assert back["players"][0]["posts"] == [] and back["players"][0]["figures"] == [0]
    assert back["last_traveller"] is None
    # a large city's outpost bonus is face up: taking it reveals nothing
    state = place(start, 0, "travel", 4, 4)
    state = play(state, 0, {"a": "step", "fig": 0, "to": alexandria})
    state = play(state, 0, STOP)
    if state["pending"]:  # an outpost bonus that asks for a choice
        state = play(state, 0, GAME.legal_moves(state, 0)[0])
    assert start["outposts"][str(alexandria)] is not None and state["outposts"][str(alexandria)] is None
    assert GAME.may_undo(state, 0)
    assert seen_by_all(GAME.undo(state, 0)) == seen_by_all(start)


def test_a_cancelled_choice_and_a_later_undo_go_back_to_the_turn_start() -> None:
    start = build(3)
    state = play(start, 0, {"a": "space", "space": "coins"}, {"a": "cancel"}, BAG)
    back = GAME.undo(state, 0)
    assert seen_by_all(back) == seen_by_all(start)


@pytest.mark.parametrize(
    "move",
    [
        {"a": "reroll", "kind": "own", "value": 3},
        {"a": "black"},
    ],
    ids=["reroll", "black_die"],
)
def test_a_die_rolled_ends_the_right_and_the_next_decision_starts_from_it(move: dict[str, Any]) -> None:
    start = build(3, players={0: {"camels": 6}})
    state = play(start, 0, BAG, move)
    assert state["rng"] != start["rng"]
    assert_undo_refused(state, 0)
    rolled = state
    # what follows in the same turn may be taken back, to the state right after the roll (not before it)
    state = play(state, 0, {"a": "space", "space": "coins"}, die(3))
    assert GAME.may_undo(state, 0)
    back = GAME.undo(state, 0)
    assert seen_by_all(back) == seen_by_all(rolled)
    assert back["rng"] == rolled["rng"] and back["players"][0]["dice"] == rolled["players"][0]["dice"]


def test_a_contract_drawn_from_the_special_pile_ends_the_right() -> None:
    # contract-1 rewards 6 VP and the top contract of the face-down special pile (no die rolled)
    start = build(
        3,
        players={0: {"contracts": ["contract-1"], "camels": 3, "pepper": 1, "silk": 1, "gold": 1}},
    )
    state = play(start, 0, BAG)
    assert GAME.may_undo(state, 0)
    top = state["special"][0]
    state = play(state, 0, {"a": "fulfil", "contract": "contract-1"})
    assert state["rng"] == start["rng"]  # the pile was shuffled at set-up: the RNG alone cannot tell
    assert top in state["players"][0]["contracts"] and state["special"][0] != top
    assert_undo_refused(state, 0)
    assert_no_leak(state)


def test_a_contract_put_under_the_special_pile_reveals_nothing() -> None:
    start = build(
        3, display=list(DISPLAY), players={0: {"dice": own(3, 6), "contracts": ["contract-40", "contract-41"]}}
    )
    state = place(start, 0, "contracts", 3)
    state = play(state, 0, {"a": "take", "contract": "contract-0", "discard": "contract-41"})
    assert state["special"][-1] == "contract-41"
    assert GAME.may_undo(state, 0)
    assert seen_by_all(GAME.undo(state, 0)) == seen_by_all(start)


def test_the_right_ends_with_the_turn_and_another_seat_never_takes_it_back() -> None:
    start = build(3)
    state = play(start, 0, BAG, {"a": "space", "space": "coins"}, die(3))
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
    start = build(3, players={0: {"dice": own(3)}})
    state = place(start, 0, "coins", 3)  # the last die: nothing but "end" is left, so the turn ends
    assert state["turn"] == 1
    assert_undo_refused(state, 0)


def test_a_seat_that_moves_again_because_the_others_are_out_of_dice_starts_a_new_turn() -> None:
    start = build(3, players={0: {"dice": own(3, 3, 3)}, 1: {"dice": []}, 2: {"dice": []}})
    state = play(start, 0, {"a": "space", "space": "coins"}, die(3))
    assert GAME.may_undo(state, 0)
    state = play(state, 0, END)
    assert state["turn"] == 0 and state["round"] == 1  # seat 0 again: a new turn
    assert_undo_refused(state, 0)
    turn_start = state
    state = play(state, 0, BAG)
    back = GAME.undo(state, 0)
    assert seen_by_all(back) == seen_by_all(turn_start)  # back to the new turn's start, not across "end"
    assert back["players"][0]["coins"] == start["players"][0]["coins"] + 5


def test_the_draft_the_goal_choice_and_round_start_choices_are_never_taken_back() -> None:
    state = GAME.setup(3, {"expert": True}, 1)  # a seed with a round-start choice
    phases = set()
    while state["phase"] in ("draft", "goals", "start"):
        phases.add(state["phase"])
        seat = GAME.active_seats(state)[-1]
        state = play(state, seat, GAME.legal_moves(state, seat)[-1])
        for s in range(3):
            assert_undo_refused(state, s)
    assert phases == {"draft", "goals", "start"} and state["phase"] == "play"


def test_the_hidden_parts_stay_hidden_and_samples_carry_no_savepoint() -> None:
    start = build(3, options={"goal_draft": True}, seed=5)
    for p in start["players"]:  # the expert goal choice made: 2 kept, 2 discarded (private for ever)
        p["goals"], p["goals_discarded"], p["goal_offer"] = p["goal_offer"][:2], p["goal_offer"][2:], []
    state = play(start, 0, BAG, {"a": "space", "space": "coins"}, die(3))
    assert "undo" in state
    assert_no_leak(state)
    for seat in range(3):
        sample = GAME.sample_state(state, seat, Rng(7))
        assert "undo" not in sample
        assert GAME.view(sample, seat) == GAME.view(state, seat)
    back = GAME.undo(state, 0)
    assert_no_leak(back)
    for viewer in (None, 1, 2):
        shown = strings(GAME.view(back, viewer))
        assert not shown & set(GAME.secret_tokens(back, 0))
