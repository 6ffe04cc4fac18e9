"""Seed 001 "Kaupankäynti" and decisions.md B: selling, buying from the stock, the forced blind sale."""

from __future__ import annotations

from server.games.classic.data import BUY_PRICE, FORCED_SALE_PRICE, NODES
from server.games.classic.engine import GAME

from .helpers import BUY, DONE, at_post, build, events, force, kinds, pass_turn, play, rig, sell, spin, strings, to

YELLOW = ["yellow-50-1", "yellow-80-1", "yellow-30-1", "yellow-50-2"]


def test_trading_happens_only_at_trading_posts() -> None:
    state = build(3, pawns=["kashan", "venice", "venice"], hands=[["green-30-1"], [], []])
    state = play(rig(state, 1, route="land"), 0, spin("land"), to("sultaniya"))
    assert NODES["sultaniya"].type == "city"
    assert state["turn"] == 1 and state["trade"] is None and state["hands"][0] == ["green-30-1"]


def test_arriving_at_a_trading_post_gives_no_free_card() -> None:
    state = build(3, pawns=["kashan", "venice", "venice"], hands=[[], [], []])
    stack = list(state["stacks"]["yellow"])
    state = play(rig(state, 1, route="land"), 0, spin("land"), to("yazd"))
    assert state["phase"] == "buy" and state["turn"] == 0
    assert state["hands"][0] == [] and state["stacks"]["yellow"] == stack and state["money"][0] == 240


def test_trading_happens_only_on_the_turn_a_pawn_arrives() -> None:
    state = build(3, pawns=["yazd", "venice", "venice"], hands=[["green-30-1"], [], []])
    assert kinds(state, 0) == ["spin"]


def test_cards_sell_one_at_a_time_at_face_value_to_the_bottom_of_their_stack() -> None:
    state = at_post(build(3, hands=[["violet-80-1", "violet-80-2", "green-30-1"], [], []]), 0, "yazd")
    assert GAME.legal_moves(state, 0) == [sell("green-30-1"), sell("violet-80-1"), DONE]
    state = play(state, 0, sell("violet-80-1"))
    assert state["money"][0] == 320 and state["stacks"]["violet"][-1] == "violet-80-1"
    assert events(state, "sell")[-1] == {"ev": "sell", "seat": 0, "card": "violet-80-1", "value": 80, "n": 1}
    state = play(state, 0, sell("violet-80-2"), sell("green-30-1"))
    assert state["money"][0] == 430 and state["hands"][0] == []
    assert state["stacks"]["green"][-1] == "green-30-1"
    assert state["phase"] == "buy"  # nothing left to sell


def test_buying_follows_selling_and_never_the_other_way_round() -> None:
    state = at_post(build(3, hands=[["green-30-1"], [], []], stacks={"yellow": YELLOW}), 0, "yazd")
    state = play(state, 0, DONE)
    assert state["phase"] == "buy" and kinds(state, 0) == ["buy", "done"]
    state = play(state, 0, BUY)
    assert "sell" not in kinds(state, 0)


def test_buying_takes_the_top_card_of_the_posts_colour_for_20() -> None:
    state = at_post(build(3, hands=[[], [], []], stacks={"yellow": YELLOW}), 0, "yazd", phase="buy")
    state = play(state, 0, BUY)
    assert state["hands"][0] == ["yellow-50-1"] and state["money"][0] == 240 - BUY_PRICE
    assert state["stacks"]["yellow"] == YELLOW[1:]
    assert events(state, "buy")[-1] == {"ev": "buy", "seat": 0, "colour": "yellow", "free": False, "n": 1}


def test_at_most_three_cards_are_bought_per_visit() -> None:
    state = at_post(build(3, hands=[[], [], []], stacks={"yellow": YELLOW}), 0, "yazd", phase="buy")
    state = play(state, 0, BUY, BUY)
    assert BUY in GAME.legal_moves(state, 0)
    state = play(state, 0, BUY)
    assert state["hands"][0] == sorted(YELLOW[:3]) and state["turn"] == 1  # the third purchase ends the visit


def test_buying_is_optional_and_needs_20_bezants() -> None:
    state = at_post(build(3, hands=[[], [], []], money=[19, 240, 240]), 0, "yazd", phase="buy")
    state["phase"] = "sell"
    state["hands"][0] = ["green-30-1"]
    assert kinds(state, 0) == ["sell", "done"]
    after = play(state, 0, DONE)
    assert after["turn"] == 1  # nothing to buy with 19 bezants: the visit ends
    state = at_post(build(3, hands=[[], [], []], stacks={"yellow": YELLOW}), 0, "yazd", phase="buy")
    after = play(state, 0, DONE)
    assert after["hands"][0] == [] and after["money"][0] == 240 and after["turn"] == 1


def test_a_player_arriving_at_an_occupied_post_may_force_one_player_there_to_sell_a_blind_card_for_30() -> None:
    state = build(3, pawns=["yazd", "yazd", "yazd"], hands=[[], ["violet-80-1"], ["green-30-1"]])
    state = at_post(state, 0, "yazd", phase="buy")
    assert GAME.legal_moves(state, 0) == [BUY, force(1), force(2), DONE]
    state = play(state, 0, force(1))
    assert state["hands"][0] == ["violet-80-1"] and state["hands"][1] == []
    assert state["money"] == [240 - FORCED_SALE_PRICE, 240 + FORCED_SALE_PRICE, 240]
    assert state["turn"] == 1  # one card only, and no purchase from the stock after it


def test_the_forced_sale_draws_a_random_card_from_the_sellers_hand() -> None:
    seen = set()
    for seed in range(1, 40):
        state = build(2, pawns=["yazd", "yazd"], hands=[[], ["violet-80-1", "green-30-1"]], seed=seed)
        state = play(at_post(state, 0, "yazd", phase="buy"), 0, force(1))
        seen.update(state["hands"][0])
    assert seen == {"violet-80-1", "green-30-1"}


def test_forcing_a_sale_needs_another_pawn_with_cards_on_the_post_and_30_bezants() -> None:
    state = at_post(build(3, pawns=["yazd", "tabriz", "yazd"], hands=[[], ["violet-80-1"], []]), 0, "yazd", "buy")
    assert kinds(state, 0) == ["buy", "done"]  # seat 1 is elsewhere, seat 2 has no card
    state = build(3, pawns=["yazd", "yazd", "venice"], hands=[[], ["violet-80-1"], []], money=[29, 240, 240])
    state = at_post(state, 0, "yazd", phase="buy")
    assert kinds(state, 0) == ["buy", "done"]


def test_buying_from_the_stock_and_forcing_a_sale_exclude_each_other() -> None:
    state = build(3, pawns=["yazd", "yazd", "venice"], hands=[[], ["violet-80-1"], []], stacks={"yellow": YELLOW})
    state = play(at_post(state, 0, "yazd", phase="buy"), 0, BUY)
    assert force(1) not in GAME.legal_moves(state, 0)


def test_buyer_and_seller_of_a_forced_sale_learn_the_card_and_the_others_only_that_a_card_changed_hands() -> None:
    # seed 001: the card is drawn "tekstipuoli myyjään päin", its face towards the seller
    state = build(3, pawns=["yazd", "yazd", "venice"], hands=[[], ["violet-80-1"], []])
    state = play(at_post(state, 0, "yazd", phase="buy"), 0, force(1))
    buyer = GAME.view(state, 0)
    assert buyer["private"]["hand"] == ["violet-80-1"]
    assert {"ev": "forced_sale", "card": "violet-80-1", "from": 1} in buyer["private"]["notices"]
    seller = GAME.view(state, 1)
    assert {"ev": "forced_sale", "card": "violet-80-1", "to": 0} in seller["private"]["notices"]
    assert events(state, "forced_sale")[-1] == {"ev": "forced_sale", "buyer": 0, "seller": 1, "price": 30, "n": 1}
    for viewer in (2, None):
        assert "violet-80-1" not in strings(GAME.view(state, viewer))
    assert "violet-80-1" not in strings(GAME.view(state, 1)["public"])
    assert GAME.view(state, 2)["public"]["players"][0]["hand"] == 1
    # the seller knows the card now, so it is no longer the buyer's secret alone; it still is the others'
    assert "violet-80-1" not in GAME.secret_tokens(state, 0)


def test_the_sellers_notice_of_a_forced_sale_stays_until_the_seller_has_had_a_turn_to_see_it() -> None:
    # seat 1 sells; its own turn comes straight after the buyer's, and the notice must still be there
    state = build(3, pawns=["yazd", "yazd", "venice"], hands=[[], ["violet-80-1"], []])
    state = play(at_post(state, 0, "yazd", phase="buy"), 0, force(1))
    note = {"ev": "forced_sale", "card": "violet-80-1", "to": 0}
    assert state["turn"] == 1 and note in GAME.view(state, 1)["private"]["notices"]
    state = pass_turn(state, 1)
    assert note in GAME.view(state, 1)["private"]["notices"]  # seen during the turn, kept until the next
    state = pass_turn(pass_turn(state, 2), 0)
    assert state["turn"] == 1 and note not in GAME.view(state, 1)["private"]["notices"]


def test_the_notice_of_a_card_just_bought_survives_into_the_buyers_next_turn() -> None:
    state = build(3, pawns=["yazd", "venice", "venice"], hands=[[], [], []], stacks={"yellow": YELLOW})
    state = play(at_post(state, 0, "yazd", phase="buy"), 0, BUY, DONE)
    note = {"ev": "buy", "card": "yellow-50-1"}
    assert note in GAME.view(state, 0)["private"]["notices"]
    state = pass_turn(pass_turn(state, 1), 2)
    assert state["turn"] == 0 and note in GAME.view(state, 0)["private"]["notices"]
    state = pass_turn(pass_turn(pass_turn(state, 0), 1), 2)
    assert state["turn"] == 0 and note not in GAME.view(state, 0)["private"]["notices"]


def test_the_forced_sale_draws_every_card_of_the_sellers_hand_about_equally_often() -> None:
    hand = ["violet-80-1", "green-50-1", "yellow-30-1", "turquoise-80-1", "violet-30-1"]
    counts = dict.fromkeys(hand, 0)
    games = 500
    for seed in range(games):
        state = build(2, pawns=["yazd", "yazd"], hands=[[], hand], seed=seed)
        state = play(at_post(state, 0, "yazd", phase="buy"), 0, force(1))
        (card,) = state["hands"][0]
        counts[card] += 1
    expected = games / len(hand)
    chi2 = sum((n - expected) ** 2 / expected for n in counts.values())
    assert all(0.7 * expected <= n <= 1.3 * expected for n in counts.values()), counts
    assert chi2 < 13.28, (chi2, counts)  # the 1% point of chi-squared with 4 degrees of freedom
