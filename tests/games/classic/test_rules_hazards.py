"""Seed 001 "Hasardikortit" and decisions.md B: a hazard card drawn is shown, resolved, then put at the bottom.

The 20 hazard cards are house data (cards.json); these tests find the cards by their effect.
"""

from __future__ import annotations

from server.games.base import State
from server.games.classic.data import HAZARDS, STACK_CARDS
from server.games.classic.engine import GAME

from .helpers import BUY, DONE, at_post, build, discard, events, play, rig, spin, strings

POST_OF = {"violet": "tabriz", "green": "baghdad", "yellow": "yazd", "turquoise": "aleppo"}


def hazard(colour: str, kind: str) -> str:
    """The first hazard card of `colour` with effect `kind`."""
    return next(c for c in STACK_CARDS[colour] if c in HAZARDS and HAZARDS[c]["effect"]["kind"] == kind)


def drawing(colour: str, kind: str, *, money: int = 240, hand: list[str] | None = None, seats: int = 3) -> State:
    """Seat 0 buys at a post of `colour` whose stack starts with the hazard card of `kind`."""
    card = hazard(colour, kind)
    rest = [c for c in STACK_CARDS[colour] if c != card and c not in (hand or [])]
    hands = [list(hand or [])] + [[] for _ in range(seats - 1)]
    state = build(seats, hands=hands, money=[money] + [240] * (seats - 1), stacks={colour: [card, *rest]})
    state = at_post(state, 0, POST_OF[colour], phase="buy")
    return play(state, 0, BUY)


def test_there_are_five_hazard_cards_per_colour_mixing_good_and_bad_events() -> None:
    for colour in POST_OF:
        assert sum(1 for c in STACK_CARDS[colour] if c in HAZARDS) == 5
    assert {h["effect"]["kind"] for h in HAZARDS.values()} == {
        "toll", "windfall", "lose_turn", "extra_turn", "free_card", "lose_card", "tribute"
    }


def test_a_hazard_card_drawn_counts_as_a_purchase_is_shown_to_all_and_goes_to_the_bottom() -> None:
    state = drawing("yellow", "windfall")
    card = hazard("yellow", "windfall")
    assert state["trade"]["bought"] == 1 and state["money"][0] == 240 - 20 + 40
    assert state["stacks"]["yellow"][-1] == card and card not in state["hands"][0]
    shown = events(state, "hazard")[-1]
    assert shown["card"] == card and shown["effect"] == {"kind": "windfall", "amount": 40}
    assert card in strings(GAME.view(state, 2)["public"])


def test_a_toll_card_pays_the_bank_and_never_more_than_the_player_has() -> None:
    state = drawing("yellow", "toll")
    assert state["money"][0] == 240 - 20 - 40
    state = drawing("yellow", "toll", money=35)
    assert state["money"][0] == 0 and events(state, "hazard")[-1]["paid"] == 15


def test_a_tribute_card_feeds_the_ransom_space_it_names() -> None:
    state = drawing("green", "tribute")
    assert state["money"][0] == 240 - 20 - 30 and state["ransom"]["robbers"]["money"] == 30
    state = drawing("turquoise", "tribute", money=30)
    assert state["money"][0] == 0 and state["ransom"]["pirates"]["money"] == 10


def test_a_lost_turn_card_makes_the_player_miss_the_next_turn_only() -> None:
    state = drawing("violet", "lose_turn", seats=2)
    state = play(state, 0, DONE)
    assert state["turn"] == 1 and state["skip"][0] == 1
    state = play(rig(state, 1, route="land"), 1, spin("land"))  # seat 1 goes from Venice to Ragusa
    assert events(state, "miss_turn")[-1]["seat"] == 0
    assert state["turn"] == 1 and state["skip"][0] == 0 and state["round"] == 2


def test_an_extra_turn_card_gives_another_turn_straight_after_this_one() -> None:
    state = drawing("green", "extra_turn")
    state = play(state, 0, DONE)
    assert state["turn"] == 0 and state["phase"] == "spin" and state["turns"] == 1


def test_a_free_card_card_gives_the_next_card_of_the_stack_without_counting_as_a_purchase() -> None:
    state = drawing("violet", "free_card")
    assert len(state["hands"][0]) == 1 and state["hands"][0][0].startswith("violet-")
    assert state["money"][0] == 220 and state["trade"]["bought"] == 1
    assert events(state, "buy")[-1]["free"] is True


def test_a_lost_card_card_takes_one_goods_card_of_the_players_choice_to_the_bottom_of_its_stack() -> None:
    state = drawing("yellow", "lose_card", hand=["green-30-1", "turquoise-80-1"])
    assert state["phase"] == "discard"
    assert GAME.legal_moves(state, 0) == [discard("green-30-1"), discard("turquoise-80-1")]
    state = play(state, 0, discard("green-30-1"))
    assert state["hands"][0] == ["turquoise-80-1"] and state["stacks"]["green"][-1] == "green-30-1"
    assert state["phase"] == "buy"  # the visit goes on: two more purchases are possible


def test_a_lost_card_card_does_nothing_to_an_empty_hand() -> None:
    state = drawing("yellow", "lose_card")
    assert state["phase"] == "buy" and state["hands"][0] == []


GOOD = {"windfall", "extra_turn", "free_card"}
BAD = {"toll", "lose_turn", "lose_card", "tribute"}


def test_every_colours_five_hazard_cards_mix_good_and_bad_events() -> None:
    assert GOOD | BAD == {h["effect"]["kind"] for h in HAZARDS.values()}
    for colour in POST_OF:
        kinds = [HAZARDS[c]["effect"]["kind"] for c in STACK_CARDS[colour] if c in HAZARDS]
        good = sum(k in GOOD for k in kinds)
        bad = sum(k in BAD for k in kinds)
        assert good + bad == 5 and good >= 2 and bad >= 2, (colour, kinds)
