"""Undo within a turn (DESIGN.md 3c, docs/games/classic.md "Undo"): the spin opens every turn and is never taken
back; the decisions after it (where the move ends, selling, the first gifts, a discard) may be, back to the last
reveal, until a card is bought or drawn blind, the dice are rolled, or the turn ends."""

from __future__ import annotations

import functools

from server.games.base import Rng, State
from server.games.classic.bots import GreedyBot
from server.games.classic.engine import GAME
from server.games.search import Budget, SearchBot
from tests.games import undo_checks

from .helpers import (
    BUY,
    DECLINE,
    DONE,
    FIGHT,
    at_post,
    build,
    discard,
    force,
    gift,
    moving,
    play,
    rig,
    rig_fight,
    sell,
    spin,
    to,
)
from .test_rules_hazards import drawing

HAND = ["green-30-1", "violet-80-1", "yellow-50-1"]
YELLOW = ["yellow-50-2", "yellow-80-1", "yellow-30-1"]


views = functools.partial(undo_checks.views, GAME)
keeps_secrets = functools.partial(undo_checks.keeps_secrets, GAME)
refused = functools.partial(undo_checks.refused, GAME)


def spun() -> State:
    """Seat 0 on Kashan has spun a 2 on the land wheel and chooses where its move ends (Yazd and Baghdad are
    trading posts); seat 1 holds a secret card and a Golden Table."""
    state = build(3, pawns=["kashan", "venice", "venice"], hands=[HAND, ["turquoise-80-1"], []], missions={1: "lhasa"})
    state["stacks"]["yellow"] = YELLOW + [c for c in state["stacks"]["yellow"] if c not in YELLOW]
    state = play(rig(state, 2, route="land"), 0, spin("land"))
    assert state["phase"] == "move" and {"yazd", "baghdad"} <= {m["to"] for m in GAME.legal_moves(state, 0)}
    return state


def test_the_spin_opens_the_turn_and_is_never_taken_back() -> None:
    refused(build(3), 0)  # nothing decided yet
    state = spun()
    refused(state, 0)


def test_the_moves_end_the_sales_and_the_step_to_buying_are_taken_back_to_just_after_the_spin() -> None:
    start = spun()
    state = play(start, 0, to("yazd"))
    assert state["phase"] == "sell" and GAME.prompt(state, 0)["undo"] is True  # type: ignore[index]
    state = play(state, 0, sell("violet-80-1"), sell("green-30-1"), DONE)
    assert state["phase"] == "buy" and state["money"][0] == 240 + 110 and GAME.may_undo(state, 0)
    for other in (1, 2):
        refused(state, other)
    log = list(state["log"])
    back = GAME.undo(state, 0)
    assert views(back) == views(start)
    assert back["log"][:-1] == log and back["log"][-1] == {"ev": "undo", "seat": 0, "n": log[-1]["n"] + 1}
    assert back["rng"] == start["rng"] and back["spin"] == start["spin"] and back["phase"] == "move"
    refused(back, 0)  # back at the spin's result: that much stands
    keeps_secrets(back)
    # the cards sold were shown face up (the log still names them): nobody's secret any more
    assert {"violet-80-1", "green-30-1"}.isdisjoint(GAME.secret_tokens(back, 0))
    again = play(back, 0, to("baghdad"))
    assert again["pawns"][0] == "baghdad" and again["trade"]["post"] == "baghdad"


def test_a_card_bought_ends_the_right_though_the_rng_is_untouched() -> None:
    state = play(spun(), 0, to("yazd"), DONE)
    assert state["phase"] == "buy" and GAME.may_undo(state, 0)
    after = play(state, 0, BUY)
    assert after["hands"][0] == sorted([*HAND, "yellow-50-2"]) and after["rng"] == state["rng"]
    assert after["turn"] == 0 and after["phase"] == "buy"
    refused(after, 0)


def test_after_a_hazard_card_the_discard_it_asks_for_may_be_taken_back_to_just_after_the_draw() -> None:
    drawn = drawing("yellow", "lose_card", hand=["green-30-1", "turquoise-80-1"])
    assert drawn["phase"] == "discard"
    refused(drawn, 0)
    state = play(drawn, 0, discard("green-30-1"))
    assert state["phase"] == "buy" and GAME.may_undo(state, 0)
    assert views(GAME.undo(state, 0)) == views(drawn)


def test_the_dice_of_a_fight_end_the_right_though_the_turn_goes_on() -> None:
    state = build(3, pawns=["taiyuan", "venice", "venice"], missions={0: "lhasa"}, hands=[["green-30-1"], [], []])
    state = play(rig(state, "robbers", route="land"), 0, spin("land"))
    assert state["phase"] == "fight"
    refused(state, 0)
    state = play(rig_fight(state, (1, 6)), 0, FIGHT)
    assert state["phase"] == "fight" and state["turn"] == 0  # lost, protected: the same turn goes on
    refused(state, 0)
    state = play(state, 0, DECLINE)
    assert state["turn"] == 1
    refused(state, 0)


def test_a_forced_sale_draws_blind_and_ends_the_turn_and_the_right() -> None:
    state = build(3, pawns=["kashan", "yazd", "venice"], hands=[HAND, ["turquoise-80-1"], []])
    state = play(rig(state, 2, route="land"), 0, spin("land"), to("yazd"), DONE)
    assert GAME.may_undo(state, 0) and {"a": "force", "seat": 1} in GAME.legal_moves(state, 0)
    after = play(state, 0, force(1))
    assert after["turn"] == 1
    refused(after, 0)
    refused(after, 1)


def test_the_first_two_gifts_to_the_khan_are_taken_back_and_the_third_draws_a_golden_table() -> None:
    hand = ["green-80-1", "turquoise-80-1", "violet-80-1", "yellow-80-1", "yellow-80-2"]
    start = moving(value=1, pawns=["ganzhou", "venice", "venice"], hands=[hand, [], []])
    state = play(start, 0, to("khanbaliq"), gift("yellow-80-1"), gift("violet-80-1"))
    assert state["phase"] == "gift" and GAME.may_undo(state, 0)
    assert views(GAME.undo(state, 0)) == views(start)
    after = play(state, 0, gift("yellow-80-2"))
    assert after["table"][0] is not None and after["turn"] == 1
    refused(after, 0)


def test_the_end_of_the_turn_ends_the_right_even_when_the_same_seat_moves_next() -> None:
    state = at_post(build(3, hands=[HAND, [], []], extra=True), 0, "yazd")
    state = play(state, 0, sell("green-30-1"), DONE)
    assert GAME.may_undo(state, 0)
    state = play(state, 0, DONE)
    assert state["turn"] == 0 and state["phase"] == "spin" and state["turns"] == 1  # the extra turn
    refused(state, 0)


def test_another_seats_turn_ends_the_right_and_its_own_undo_goes_back_only_to_its_last_reveal() -> None:
    state = play(spun(), 0, to("yazd"), DONE, DONE)
    assert state["turn"] == 1
    refused(state, 0)
    state["pawns"][1] = "kashan"  # seat 1 is on its way too (a hand-made position, before its turn)
    state = play(rig(state, 2, route="land"), 1, spin("land"))
    refused(state, 0)
    refused(state, 1)
    seat1_spun = state
    state = play(state, 1, to("yazd"))
    assert GAME.may_undo(state, 1)
    refused(state, 0)
    back = GAME.undo(state, 1)
    assert views(back) == views(seat1_spun)
    assert back["pawns"][0] == "yazd"  # seat 0's turn stands


def test_a_sample_carries_no_savepoint_for_any_seat() -> None:
    state = play(spun(), 0, to("yazd"), sell("violet-80-1"))
    assert GAME.may_undo(state, 0)
    for seat in range(state["seats"]):
        sample = GAME.sample_state(state, seat, Rng(3))
        assert "undo" not in sample  # the savepoint holds the turn start's real hidden parts
        assert not GAME.may_undo(sample, 0)
        assert GAME.view(sample, seat) == GAME.view(state, seat)


def test_the_bots_never_undo_and_play_on_from_a_state_with_a_savepoint() -> None:
    state = play(spun(), 0, to("yazd"))
    prompt = GAME.prompt(state, 0)
    assert prompt is not None and prompt["undo"] is True
    assert GreedyBot(1).choose(prompt, GAME.view(state, 0)) in prompt["options"]
    move = SearchBot("classic", 1, Budget(seconds=None, playouts=6)).choose_state(state, 0)
    assert move in prompt["options"]
