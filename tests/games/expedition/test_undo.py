"""Undo within a turn (DESIGN.md 3c, docs/games/expedition.md "Undo"): the move phase's decisions and the stop
or pass may be taken back until the draw; a draw, a card turned or a shuffle, and the next seat's turn end it."""

from __future__ import annotations

import functools

from server.games.base import Rng, State
from server.games.expedition.bots import GreedyBot
from server.games.expedition.data import ALL_CARDS, DAIDU, KANTSHOU, TRACK
from server.games.expedition.engine import GAME
from server.games.search import Budget, SearchBot
from tests.games import undo_checks

from .helpers import CANCEL, DRAW_DECK, PASS, STOP, build, choose, draw_slot, lighten, mv, pick, play
from .test_rules_pick import five_colours_ahead

MINE = ["blue-oil-1", "red-oil-1", "green-silk-1", "green-fruit-1", "yellow-leader-1"]
THEIRS = [["purple-oil-1", "purple-spice-1", "red-leader-1"], ["yellow-oil-1", "yellow-spice-1"]]


views = functools.partial(undo_checks.views, GAME)
keeps_secrets = functools.partial(undo_checks.keeps_secrets, GAME)
refused = functools.partial(undo_checks.refused, GAME)


def turn_start() -> State:
    """Seat 0's figure on 4 can pay 5 (two goods of a kind, a 1-chest), lighten onto 6 (seat 1's figure stands
    on 8) and pay 7 (two cards of a colour, a 1-chest)."""
    assert [TRACK[p].req for p in (5, 6, 7)] == [
        {"kind": "goods", "n": 2},
        {"kind": "leaders", "n": 2},
        {"kind": "colour", "n": 2},
    ]
    return build(3, figs=[4, 8, 1], hands=[MINE, *THEIRS])


def test_a_turn_of_payments_lightening_and_the_stop_is_taken_back_whole() -> None:
    start = turn_start()
    state = play(start, 0, mv(0, "blue-oil-1", "red-oil-1"))
    assert GAME.prompt(state, 0)["undo"] is True  # type: ignore[index]
    state = play(state, 0, lighten(0), mv(0, "green-fruit-1", "green-silk-1"), STOP)
    assert state["figs"][0]["pos"] == 7 and state["gold"][0] == [1, 0, 1] and state["phase"] == "draw"
    assert GAME.may_undo(state, 0) and GAME.prompt(state, 0)["undo"] is True  # type: ignore[index]
    for other in (1, 2):
        refused(state, other)
    log = list(state["log"])
    back = GAME.undo(state, 0)
    assert views(back) == views(start)
    assert back["log"][:-1] == log and back["log"][-1] == {"ev": "undo", "seat": 0, "n": log[-1]["n"] + 1}
    assert back["hands"] == start["hands"] and back["deck"] == start["deck"] and back["rng"] == start["rng"]
    assert "undo" not in back and not GAME.may_undo(back, 0)  # the turn's start: nothing to take back
    keeps_secrets(back)
    # the cards paid were shown face up (the log still names them): they are nobody's secret any more
    assert {"blue-oil-1", "red-oil-1", "green-silk-1", "green-fruit-1"}.isdisjoint(GAME.secret_tokens(back, 0))
    # and the turn is played again from its start, differently
    again = play(back, 0, PASS, DRAW_DECK)
    assert again["turn"] == 1 and again["figs"][0]["pos"] == 4


def test_nothing_is_offered_before_the_turns_first_decision() -> None:
    refused(turn_start(), 0)


def test_a_pass_alone_may_be_taken_back_before_the_draw() -> None:
    start = turn_start()
    state = play(start, 0, PASS)
    assert state["phase"] == "draw" and GAME.may_undo(state, 0)
    assert views(GAME.undo(state, 0)) == views(start)


def test_a_card_by_card_payment_its_cancel_and_a_payment_in_picks_are_taken_back() -> None:
    start = five_colours_ahead()
    state = play(start, 0, choose(0), pick("blue-oil-1"))
    assert GAME.may_undo(state, 0)
    assert views(GAME.undo(state, 0)) == views(start)  # the half-made payment, the picking view gone
    state = play(state, 0, pick("red-leader-1"), CANCEL)
    assert views(GAME.undo(state, 0)) == views(start)
    state = play(state, 0, choose(0), *(pick(c) for c in ("blue-oil-1", "red-oil-1", "green-oil-1")))
    state = play(state, 0, pick("yellow-oil-1"), pick("purple-oil-2"))  # the last pick makes the move
    assert state["figs"][0]["pos"] == 9 and GAME.may_undo(state, 0)
    back = GAME.undo(state, 0)
    assert views(back) == views(start) and back["hands"] == start["hands"]
    keeps_secrets(back)


def test_a_payment_naming_other_copies_in_another_order_keeps_the_right_too() -> None:
    hand = ["blue-oil-1", "blue-oil-2", "red-oil-1", "red-oil-2"]
    start = build(3, figs=[4, 8, 1], hands=[hand, *THEIRS])
    listed = [m["pay"] for m in GAME.legal_moves(start, 0) if m["a"] == "move"]
    assert ["blue-oil-2", "red-oil-2"] not in listed  # accepted as a set of hand cards, not as an option
    state = GAME.apply(start, 0, {"a": "move", "fig": 0, "pay": ["red-oil-2", "blue-oil-2"]})
    assert state["hands"][0] == ["blue-oil-1", "red-oil-1"] and GAME.may_undo(state, 0)
    assert views(GAME.undo(state, 0)) == views(start)


def test_reaching_kantshou_may_be_taken_back_until_the_draw_and_the_scoring_waits() -> None:
    four_goods = ["blue-oil-1", "red-spice-1", "green-silk-1", "yellow-fruit-1"]
    start = build(4, figs=[14, 15, 11, 8], hands=[[], four_goods, [], []], turn=1)
    state = play(start, 1, mv(1, *four_goods))
    assert state["figs"][1]["pos"] == KANTSHOU and state["kantshou"] == "triggered" and state["phase"] == "draw"
    assert GAME.may_undo(state, 1)
    back = GAME.undo(state, 1)
    assert views(back) == views(start) and back["kantshou"] == "open" and back["trigger"] is None


def test_the_draw_ends_the_turn_and_the_right() -> None:
    state = play(turn_start(), 0, mv(0, "blue-oil-1", "red-oil-1"), STOP)
    for draw in (DRAW_DECK, draw_slot(2)):
        after = play(state, 0, draw)
        assert after["turn"] == 1 and after["rng"] == state["rng"]  # the deck was shuffled at set-up
        refused(after, 0)
        refused(after, 1)  # the next seat has decided nothing yet


def test_a_stop_that_turns_a_card_from_the_deck_onto_an_empty_slot_ends_the_right() -> None:
    display: list[str | None] = ["yellow-oil-1", None, "red-spice-1", "red-spice-2", "red-silk-1"]
    deck = ["green-oil-1", "green-oil-2"]
    rest = [c for c in ALL_CARDS if c not in MINE and c not in display and c not in deck]
    start = build(3, figs=[4, 8, 1], hands=[MINE, rest[:20], rest[20:]], display=display, deck=deck, discard=[])
    state = play(start, 0, mv(0, "blue-oil-1", "red-oil-1"))
    assert GAME.may_undo(state, 0)
    state = play(state, 0, STOP)
    assert state["display"][1] == "green-oil-1" and state["rng"] == start["rng"]  # a card turned, no RNG drawn
    assert state["turn"] == 0 and state["phase"] == "draw"
    refused(state, 0)


def test_a_stop_that_shuffles_the_discard_pile_into_a_new_deck_ends_the_right() -> None:
    display: list[str | None] = ["yellow-oil-1", None, "red-spice-1", None, "red-silk-1"]
    rest = [c for c in ALL_CARDS if c not in MINE and c not in display]
    start = build(3, figs=[4, 8, 1], hands=[MINE, rest[:25], rest[25:]], display=display, deck=[], discard=[])
    state = play(start, 0, mv(0, "blue-oil-1", "red-oil-1"))
    assert GAME.may_undo(state, 0)
    state = play(state, 0, STOP)
    assert state["stats"]["reshuffle"] == 1 and None not in state["display"]
    refused(state, 0)


def test_another_seats_turn_ends_the_right_and_its_own_undo_goes_back_only_to_its_turns_start() -> None:
    state = play(turn_start(), 0, mv(0, "blue-oil-1", "red-oil-1"), STOP, DRAW_DECK)
    seat1_start = state
    state = play(state, 1, PASS)
    refused(state, 0)
    assert GAME.may_undo(state, 1)
    back = GAME.undo(state, 1)
    assert views(back) == views(seat1_start)
    assert back["figs"][0]["pos"] == 5 and len(back["hands"][0]) == len(MINE) - 2 + 1  # seat 0's turn stands


def test_the_game_end_leaves_nothing_to_take_back() -> None:
    oils = ["blue-oil-1", "red-oil-1", "green-oil-1", "yellow-oil-1"]
    assert TRACK[DAIDU].req == {"kind": "goods", "n": 4}
    state = build(3, figs=[DAIDU - 1, KANTSHOU, KANTSHOU], hands=[oils, [], []], kantshou="scored")
    after = play(state, 0, mv(0, *oils))
    assert GAME.result(after) is not None and "undo" not in after
    refused(after, 0)


def test_a_sample_carries_no_savepoint_for_any_seat() -> None:
    state = play(turn_start(), 0, mv(0, "blue-oil-1", "red-oil-1"), lighten(0))
    assert GAME.may_undo(state, 0)
    for seat in range(state["seats"]):
        sample = GAME.sample_state(state, seat, Rng(3))
        assert "undo" not in sample  # the savepoint holds the turn start's real hidden parts
        assert not GAME.may_undo(sample, 0)
        assert GAME.view(sample, seat) == GAME.view(state, seat)


def test_the_bots_never_undo_and_play_on_from_a_state_with_a_savepoint() -> None:
    state = play(turn_start(), 0, mv(0, "blue-oil-1", "red-oil-1"))
    prompt = GAME.prompt(state, 0)
    assert prompt is not None and prompt["undo"] is True
    assert GreedyBot(1).choose(prompt, GAME.view(state, 0)) in prompt["options"]
    move = SearchBot("expedition", 1, Budget(seconds=None, playouts=6)).choose_state(state, 0)
    assert move in prompt["options"]
