"""Seed 000, 6.2-6.3 and the house rules: passing, drawing, the reshuffle, illegal moves, the stalemate."""

from __future__ import annotations

from typing import Any

import pytest

from server.games.base import IllegalMove, State, pack
from server.games.expedition.data import ALL_CARDS
from server.games.expedition.engine import GAME, STALL_ROUNDS

from .helpers import DRAW_DECK, PASS, STOP, build, draw_slot, mv, play, strings


def test_seat_0_starts_and_turns_go_round_the_table() -> None:
    state = build(4)
    assert GAME.active_seats(state) == [0]
    for seat in (0, 1, 2, 3):
        assert GAME.active_seats(state) == [seat]
        state = play(state, seat, PASS, DRAW_DECK)
    assert GAME.active_seats(state) == [0]


def test_a_player_may_pass_and_then_draws_a_card() -> None:
    state = build(3, figs=[3, 0, 1], hands=[["blue-oil-1"], [], []])
    assert PASS in GAME.legal_moves(state, 0) and STOP not in GAME.legal_moves(state, 0)
    state = play(state, 0, PASS)
    assert state["phase"] == "draw" and state["figs"][0]["pos"] == 3
    assert all(m["a"] == "draw" for m in GAME.legal_moves(state, 0))
    state = play(state, 0, DRAW_DECK)
    assert len(state["hands"][0]) == 2 and state["turn"] == 1


def test_after_moving_the_player_stops_and_then_draws_a_card() -> None:
    state = build(3, figs=[3, 0, 1], hands=[["blue-oil-1", "blue-oil-2"], [], []])
    state = play(state, 0, mv(0, "blue-oil-1"))
    assert STOP in GAME.legal_moves(state, 0) and PASS not in GAME.legal_moves(state, 0)
    state = play(state, 0, STOP, draw_slot(0))
    assert len(state["hands"][0]) == 2 and state["turn"] == 1


def test_drawing_a_face_up_card_refills_its_slot_from_the_deck() -> None:
    display = ["red-oil-1", "red-oil-2", "red-spice-1", "red-spice-2", "red-silk-1"]
    deck = ["green-oil-1", "green-oil-2", "green-spice-1"]
    state = build(3, hands=[[], [], []], display=display, deck=deck, phase="draw")
    state = play(state, 0, draw_slot(2))
    assert state["hands"][0] == ["red-spice-1"]
    assert state["display"] == ["red-oil-1", "red-oil-2", "green-oil-1", "red-spice-2", "red-silk-1"]
    assert state["deck"] == ["green-oil-2", "green-spice-1"]


def test_drawing_from_the_deck_takes_its_top_card() -> None:
    display = ["red-oil-1", "red-oil-2", "red-spice-1", "red-spice-2", "red-silk-1"]
    deck = ["green-oil-1", "green-oil-2", "green-spice-1"]
    state = build(3, hands=[[], [], []], display=display, deck=deck, phase="draw")
    state = play(state, 0, DRAW_DECK)
    assert state["hands"][0] == ["green-oil-1"]
    assert state["display"] == display and state["deck"] == ["green-oil-2", "green-spice-1"]


def test_the_discard_pile_is_shuffled_into_a_new_deck_when_the_deck_runs_out() -> None:
    display = ["red-oil-1", "red-oil-2", "red-spice-1", "red-spice-2", "red-silk-1"]
    discard = ["green-oil-1", "green-oil-2", "green-spice-1", "blue-leader-1"]
    state = build(3, hands=[[], [], []], display=display, deck=[], discard=discard, phase="draw")
    assert DRAW_DECK in GAME.legal_moves(state, 0)
    after = play(state, 0, DRAW_DECK)
    assert after["discard"] == []
    assert len(after["hands"][0]) == 1 and after["hands"][0][0] in discard
    assert sorted(after["deck"] + after["hands"][0]) == sorted(discard)
    # a face-up card taken with the deck empty is refilled from the reshuffled pile too
    after = play(state, 0, draw_slot(4))
    assert after["hands"][0] == ["red-silk-1"] and after["display"][4] in discard
    assert after["discard"] == [] and len(after["deck"]) == 3


def test_the_display_is_topped_up_to_five_cards_once_cards_are_available_again() -> None:
    # every card was in hands or face up when two face-up cards were taken: their slots stayed empty
    display: list[str | None] = ["red-oil-1", None, "red-spice-1", None, "red-silk-1"]
    mine = ["blue-oil-1", "blue-spice-1"]
    rest = [c for c in ALL_CARDS if c not in mine and c not in display]
    state = build(3, figs=[2, 0, 1], hands=[mine, rest[:25], rest[25:]], display=display, deck=[], discard=[])
    state = play(state, 0, mv(0, "blue-oil-1", "blue-spice-1"), STOP)
    # the two paid cards form the new deck and fill the two empty slots before seat 0 chooses its card
    assert state["phase"] == "draw"
    assert None not in state["display"]
    assert sorted(c for c in state["display"] if c.startswith("blue-")) == ["blue-oil-1", "blue-spice-1"]
    assert state["deck"] == [] and state["discard"] == []


def test_there_is_no_hand_limit() -> None:
    big = list(ALL_CARDS[:30])
    state = build(3, hands=[big, [], []], phase="draw")
    state = play(state, 0, DRAW_DECK)
    assert len(state["hands"][0]) == 31


# ---- illegal moves ------------------------------------------------------------------------------------


def test_a_wrong_payment_is_refused_and_leaves_the_state_unchanged() -> None:
    # space 3 wants two cards of one colour
    state = build(3, figs=[2, 0, 1], hands=[["blue-oil-1", "red-oil-1", "red-spice-1"], [], []])
    before = pack(state)
    with pytest.raises(IllegalMove) as err:
        GAME.apply(state, 0, mv(0, "blue-oil-1", "red-oil-1"))
    assert err.value.code == "illegal_move"
    assert pack(state) == before


def test_paying_with_a_card_not_in_hand_is_refused() -> None:
    state = build(3, figs=[2, 0, 1], hands=[["red-oil-1"], ["red-spice-1"], []])
    before = pack(state)
    with pytest.raises(IllegalMove):
        GAME.apply(state, 0, mv(0, "red-oil-1", "red-spice-1"))
    assert pack(state) == before


def test_moving_out_of_turn_is_refused() -> None:
    state = build(3, figs=[2, 0, 5], hands=[[], [], ["green-oil-1"]])
    before = pack(state)
    with pytest.raises(IllegalMove) as err:
        GAME.apply(state, 2, mv(2, "green-oil-1"))
    assert err.value.code == "not_your_turn"
    with pytest.raises(IllegalMove):
        GAME.apply(state, 1, PASS)
    assert GAME.legal_moves(state, 1) == [] and GAME.prompt(state, 1) is None
    assert pack(state) == before


def test_moving_in_the_draw_phase_is_refused() -> None:
    state = build(3, figs=[2, 0, 1], hands=[["red-oil-1", "red-spice-1"], [], []])
    state = play(state, 0, PASS)
    before = pack(state)
    for bad in (mv(0, "red-oil-1", "red-spice-1"), PASS, STOP, {"a": "lighten", "fig": 0}):
        with pytest.raises(IllegalMove):
            GAME.apply(state, 0, bad)
    assert pack(state) == before


def test_drawing_in_the_move_phase_is_refused() -> None:
    state = build(3)
    before = pack(state)
    with pytest.raises(IllegalMove):
        GAME.apply(state, 0, DRAW_DECK)
    assert pack(state) == before


def test_moving_another_players_figure_is_refused() -> None:
    state = build(3, figs=[0, 2, 1], hands=[["blue-oil-1", "blue-oil-2"], [], []])
    with pytest.raises(IllegalMove):
        GAME.apply(state, 0, mv(1, "blue-oil-1", "blue-oil-2"))


# ---- no card left to draw, the stalemate (house rules) --------------------------------------------------

#: turns in a row nobody can move, with no card left to draw, that end the game (STALL_ROUNDS whole rounds)
STUCK_TURNS_3 = 3 * STALL_ROUNDS


def stuck(hands: list[list[str]] | None = None, **fields: Any) -> State:
    """No card anywhere to draw, and nobody can ever move with the two cards in play: no lightening (the spaces
    ahead of the two trailing figures hold chests; seat 1 leads); seat 1 sits on a section-2 scoring space."""
    chests = dict.fromkeys(range(17, 29), 0)
    chests.update({21: 2, 17: 1})
    return build(
        3,
        figs=[20, 24, 16],
        hands=hands or [["blue-oil-1"], ["red-leader-1"], []],
        display=[None] * 5,
        deck=[],
        discard=[],
        chests=chests,
        kantshou="scored",
        **fields,
    )


def pass_turns(state: State, n: int) -> State:
    """`n` turns in turn order in which the player to move passes."""
    for _ in range(n):
        state = play(state, state["turn"], PASS)
    return state


def test_with_no_card_left_to_draw_the_player_draws_a_card_from_the_left_neighbours_hand() -> None:
    state = play(stuck(), 0, PASS)
    assert state["turn"] == 1 and state["phase"] == "move"
    assert state["hands"][0] == ["blue-oil-1", "red-leader-1"]  # seat 1's only card
    assert state["hands"][1] == []
    assert state["log"][-1]["ev"] == "take"
    assert (state["log"][-1]["seat"], state["log"][-1]["from_seat"]) == (0, 1)


def test_the_card_is_drawn_at_random_from_the_neighbours_hand() -> None:
    hand = ["red-leader-1", "red-leader-2", "red-leader-3", "green-leader-1"]
    taken = set()
    for seed in range(12):
        state = play(stuck([["blue-oil-1"], list(hand), []], seed=seed), 0, PASS)
        (card,) = set(state["hands"][0]) - {"blue-oil-1"}
        assert sorted([*state["hands"][1], card]) == sorted(hand)
        taken.add(card)
    assert len(taken) > 1  # not always the same card: the seeded RNG draws it


def test_a_left_neighbour_without_cards_is_passed_over_for_the_next_player_holding_one() -> None:
    state = play(stuck(turn=1), 1, PASS)  # seat 1's left neighbour, seat 2, holds no card
    assert state["hands"][1] == ["blue-oil-1", "red-leader-1"] and state["hands"][0] == []
    assert state["log"][-1]["from_seat"] == 0 and state["turn"] == 2


def test_a_card_drawn_from_a_hand_is_named_to_nobody_but_the_two_players_concerned() -> None:
    state = stuck(hands=[["blue-oil-1"], ["purple-spice-2"], []], seen=[])
    state = play(state, 0, PASS)
    assert "purple-spice-2" in state["hands"][0]
    assert GAME.secret_tokens(state, 0) == ["blue-oil-1", "purple-spice-2"]
    assert "purple-spice-2" not in strings(GAME.view(state, None))
    assert "purple-spice-2" not in strings(GAME.view(state, 2))
    assert "purple-spice-2" in strings(GAME.view(state, 0)["private"])


def test_the_players_hand_sizes_show_who_lost_and_who_gained_the_card() -> None:
    state = play(stuck(), 0, PASS)
    assert [p["hand"] for p in GAME.view(state, None)["public"]["players"]] == [2, 0, 0]


def test_a_whole_round_without_movement_and_without_cards_to_draw_no_longer_ends_the_game() -> None:
    state = pass_turns(stuck(), 3)
    assert GAME.result(state) is None and state["turn"] == 0


def test_stall_rounds_whole_rounds_without_movement_and_without_cards_to_draw_end_the_game() -> None:
    assert STALL_ROUNDS == 10
    state = pass_turns(stuck(), STUCK_TURNS_3 - 1)
    assert GAME.result(state) is None
    state = pass_turns(state, 1)
    result = GAME.result(state)
    assert result is not None
    # section-2 scoring: seat 1's figure on 24 (the second scoring space) scores 2
    assert result["scores"] == [3, 5, 3]
    assert result["winners"] == [1]
    assert GAME.active_seats(state) == [] and GAME.prompt(state, 0) is None
    assert state["log"][-2]["ev"] == "stalemate"


def test_the_fourth_card_of_a_kind_drawn_from_a_neighbour_lets_a_stuck_leader_reach_daidu() -> None:
    # seat 0 waits on 28 with three oils; seat 1 (on 27, next free space Daidu) holds the fourth; seat 2 can
    # pay space 17 with any two of its spices
    oils = ["blue-oil-1", "blue-oil-2", "red-oil-1"]
    spices = ["blue-spice-1", "red-spice-1", "green-spice-1"]
    state = build(
        3,
        figs=[28, 27, 16],
        hands=[oils, ["red-oil-2"], spices],
        display=[None] * 5,
        deck=[],
        discard=[],
        chests=dict.fromkeys(range(17, 29), 0),
        kantshou="scored",
    )
    assert not GAME.can_move(state, 0)
    state = play(state, 0, PASS)
    assert state["hands"][0] == sorted([*oils, "red-oil-2"])
    state = play(state, 1, PASS)  # seat 1 takes one of seat 2's spices
    assert len(state["hands"][2]) == 2
    state = play(state, 2, mv(2, *state["hands"][2]), STOP, draw_slot(0))
    state = play(state, 0, mv(0, *oils, "red-oil-2"))
    result = GAME.result(state)
    assert result is not None and state["figs"][0]["pos"] == 29
    assert result["winners"] == [0] and result["scores"][0] == 3 + 7


def test_a_movement_resets_the_stalemate_count() -> None:
    state = stuck(idle=STUCK_TURNS_3 - 2, turn=2)
    state["hands"][2] = ["blue-oil-2", "red-oil-2"]  # seat 2 can pay space 17 (two goods of one type)
    state = play(state, 2, mv(2, "blue-oil-2", "red-oil-2"), STOP)
    # the paid cards went face up into the empty display, so seat 2 draws one of them
    assert state["phase"] == "draw" and state["turn"] == 2
    assert sorted(c for c in state["display"] if c) == ["blue-oil-2", "red-oil-2"]
    state = play(state, 2, draw_slot(0))
    assert GAME.result(state) is None and state["turn"] == 0 and state["idle"] == 0


def test_a_player_who_could_move_but_passed_keeps_the_turn_from_counting_towards_the_stalemate() -> None:
    state = stuck(idle=STUCK_TURNS_3 - 1)
    state["chests"][21] = 0  # now seat 0 could lighten the load onto 21 (seat 1's figure has passed it)
    assert GAME.can_move(state, 0) and {"a": "lighten", "fig": 0} in GAME.legal_moves(state, 0)
    state = pass_turns(state, 3)
    assert GAME.result(state) is None and state["idle"] == 2  # seat 0 chose to pass: the count restarted
    # once seat 0 cannot move either, STALL_ROUNDS whole rounds of stuck turns end the game
    state["chests"][21] = 2
    state = pass_turns(state, STUCK_TURNS_3 - 3)
    assert GAME.result(state) is None and state["idle"] == STUCK_TURNS_3 - 1
    assert GAME.result(pass_turns(state, 1)) is not None


def test_a_stalemate_before_kantshou_scores_the_section_1_spaces_as_kantshou_would() -> None:
    # figures on 12 (worth 2) and 14 (worth 4) and one on 5; with one leader and one oil in play nobody can
    # ever pay (13: two leaders, 15: three goods, 6: two leaders), chests block lightening, no card to draw
    state = build(
        3,
        figs=[12, 14, 5],
        hands=[["blue-leader-1"], ["red-oil-1"], []],
        display=[None] * 5,
        deck=[],
        discard=[],
        chests=dict.fromkeys(range(1, 29), 0) | {6: 1, 13: 1},
        kantshou="open",
    )
    assert not any(GAME.can_move(state, s) for s in range(3))
    state = pass_turns(state, STUCK_TURNS_3)
    result = GAME.result(state)
    assert result is not None
    assert result["scores"] == [3 + 2, 3 + 4, 3]
    assert result["winners"] == [1]
    assert [f["pos"] for f in state["figs"]] == [12, 14, 5]  # nobody is moved onto Kantshou
    assert result["tiebreak"] == [12, 14, 5]


def test_no_move_is_accepted_once_the_game_is_over() -> None:
    state = pass_turns(stuck(), STUCK_TURNS_3)
    with pytest.raises(IllegalMove) as err:
        GAME.apply(state, 0, PASS)
    assert err.value.code == "game_over"
