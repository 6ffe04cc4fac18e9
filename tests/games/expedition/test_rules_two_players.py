"""Seed 000, section 9 and decisions.md A: two figures each, one figure per turn, the `move_both` variant."""

from __future__ import annotations

from server.games.base import State
from server.games.expedition.data import DAIDU, KANTSHOU, TRACK
from server.games.expedition.engine import GAME, STALL_ROUNDS

from .helpers import DRAW_DECK, PASS, STOP, build, gold, kinds, lighten, mv, play

FOUR_GOODS = ["blue-oil-1", "red-spice-1", "green-silk-1", "yellow-fruit-1"]


def early(move_both: bool) -> State:
    """Seat 0 owns figures 0 (on 3) and 2 (on 6); seat 1 owns figures 1 (on 0) and 3 (on 1)."""
    assert TRACK[4].req == {"kind": "goods", "n": 1} and TRACK[7].req == {"kind": "colour", "n": 2}
    return build(
        2,
        figs=[3, 0, 6, 1],
        hands=[["blue-oil-1", "red-oil-1", "red-spice-1"], []],
        options={"move_both": move_both},
    )


def test_two_players_get_two_figures_each_placed_alternately_and_ten_cards() -> None:
    state = GAME.setup(2, None, 5)
    first = state["turn"]
    other = 1 - first
    assert [(f["seat"], f["pos"]) for f in state["figs"]] == [(first, 0), (other, 1), (first, 2), (other, 3)]
    assert [len(h) for h in state["hands"]] == [10, 10]
    assert len(state["display"]) == 5 and len(state["deck"]) == 55 - 20 - 5
    assert state["gold"] == [[0, 0, 1], [0, 0, 1]]
    view = GAME.view(state, None)["public"]
    assert [f["seat"] for f in view["figures"]] == [first, other, first, other]
    assert len({f["colour"] for f in view["figures"]}) == 4


def test_a_player_with_two_figures_chooses_which_one_to_move_from_one_shared_hand() -> None:
    state = early(move_both=False)
    moves = GAME.legal_moves(state, 0)
    assert mv(0, "blue-oil-1") in moves  # figure 0 onto space 4
    assert mv(2, "red-oil-1", "red-spice-1") in moves  # figure 2 onto space 7 with the same hand
    assert not [m for m in moves if m.get("fig") in (1, 3)]
    state = play(state, 0, mv(2, "red-oil-1", "red-spice-1"))
    assert state["figs"][2]["pos"] == 7


def test_two_players_move_only_one_figure_per_turn() -> None:
    state = play(early(move_both=False), 0, mv(0, "blue-oil-1"))
    assert [m for m in GAME.legal_moves(state, 0) if m.get("fig") == 2] == []
    assert GAME.legal_moves(state, 0) == [STOP]


def test_move_both_lets_a_player_move_both_figures_in_one_turn() -> None:
    state = play(early(move_both=True), 0, mv(0, "blue-oil-1"))
    assert mv(2, "red-oil-1", "red-spice-1") in GAME.legal_moves(state, 0)
    state = play(state, 0, mv(2, "red-oil-1", "red-spice-1"), STOP, DRAW_DECK)
    assert [f["pos"] for f in state["figs"]] == [4, 0, 7, 1]
    assert state["turn"] == 1


def test_move_both_still_allows_lightening_the_load_only_once_per_turn() -> None:
    state = build(
        2,
        figs=[22, 28, 20, KANTSHOU],
        hands=[[], []],
        gold=[[2, 0, 1], [0, 0, 1]],
        chests=dict.fromkeys(range(KANTSHOU + 1, DAIDU), 0),
        kantshou="scored",
        options={"move_both": True},
    )
    assert lighten(0) in GAME.legal_moves(state, 0) and lighten(2) in GAME.legal_moves(state, 0)
    state = play(state, 0, lighten(0))
    assert lighten(2) not in GAME.legal_moves(state, 0)
    assert kinds(state, 0) == ["stop"]


def test_the_kantshou_trigger_ends_the_whole_turn_even_with_move_both() -> None:
    state = build(
        2,
        figs=[15, 14, 3, 0],
        hands=[[*FOUR_GOODS, "purple-oil-1"], []],
        options={"move_both": True},
    )
    state = play(state, 0, mv(0, *FOUR_GOODS))
    # figure 2 could still pay space 4 with the purple oil, but the turn goes straight to the draw
    assert kinds(state, 0) == ["draw"]
    state = play(state, 0, DRAW_DECK)
    assert state["turn"] == 1
    assert [gold(state, s) for s in (0, 1)] == [3 + 6, 3 + 4]
    assert [f["pos"] for f in state["figs"]] == [KANTSHOU, KANTSHOU, 3, 0]


def test_both_figures_of_a_player_score_for_that_player() -> None:
    # Kantshou: seat 0's figure 0 triggers (6) while its figure 2 stands on 12 (2)
    state = build(2, figs=[15, 0, 12, 1], hands=[FOUR_GOODS, []])
    state = play(state, 0, mv(0, *FOUR_GOODS), DRAW_DECK)
    assert gold(state, 0) == 3 + 6 + 2
    # Daidu: figure 0 arrives (7) while figure 2 stands on 27 (5)
    oils = ["blue-oil-1", "blue-oil-2", "red-oil-1", "red-oil-2"]
    state = build(2, figs=[28, 16, 27, 16], hands=[oils, []], kantshou="scored", chests=dict.fromkeys(range(29), 0))
    state = play(state, 0, mv(0, *oils))
    result = GAME.result(state)
    assert result is not None and result["scores"] == [3 + 7 + 5, 3]


def test_with_two_figures_each_a_gold_tie_goes_to_the_player_whose_best_figure_is_nearest_daidu() -> None:
    # the game ends by the stalemate house rule: no card anywhere, nobody can move
    state = build(
        2,
        figs=[27, 26, 17, 25],
        hands=[[], []],
        display=[None] * 5,
        deck=[],
        discard=[],
        gold=[[0, 1, 1], [0, 0, 1]],
        chests=dict.fromkeys(range(29), 0) | {18: 1},  # a chest on 18: figure 2 on 17 cannot lighten
        kantshou="scored",
    )
    for _ in range(STALL_ROUNDS):
        state = play(state, 0, PASS)
        state = play(state, 1, PASS)
    result = GAME.result(state)
    assert result is not None
    # seat 0: 5 + 5 (figure on 27); seat 1: 3 + 4 + 3 (figures on 26 and 25, further on together)
    assert result["scores"] == [10, 10]
    assert result["winners"] == [0]
    assert result["tiebreak"] == [27, 26]


def test_a_players_own_second_figure_is_skipped_like_any_other() -> None:
    # seat 0's figure 0 stands on 3 and its own figure 2 on 4: figure 0's next space is 5, paid as such
    state = build(2, figs=[3, 0, 4, 1], hands=[["blue-oil-1", "red-oil-1", "red-spice-1"], []])
    assert GAME.next_free(state, 0) == 5
    assert TRACK[5].req == {"kind": "goods", "n": 2}
    state = play(state, 0, mv(0, "blue-oil-1", "red-oil-1"))
    assert [f["pos"] for f in state["figs"]] == [5, 0, 4, 1]
    assert state["stats"].get("skip") == 1


def test_a_player_with_two_figures_draws_one_card_per_turn_even_after_moving_both() -> None:
    state = play(early(move_both=True), 0, mv(0, "blue-oil-1"), mv(2, "red-oil-1", "red-spice-1"), STOP)
    assert state["phase"] == "draw" and state["hands"][0] == []
    state = play(state, 0, DRAW_DECK)
    assert len(state["hands"][0]) == 1 and state["turn"] == 1 and state["phase"] == "move"


def test_move_both_lets_a_player_alternate_between_the_figures_within_a_turn() -> None:
    # figure 0 (3 -> 4), figure 2 (6 -> 7), then figure 0 again (4 -> 5): any order, any number of steps each
    hand = ["blue-oil-1", "red-oil-1", "red-spice-1", "green-spice-1", "yellow-spice-1"]
    state = build(2, figs=[3, 0, 6, 1], hands=[hand, []], options={"move_both": True})
    assert TRACK[5].req == {"kind": "goods", "n": 2}
    state = play(state, 0, mv(0, "blue-oil-1"), mv(2, "red-oil-1", "red-spice-1"))
    state = play(state, 0, mv(0, "green-spice-1", "yellow-spice-1"), STOP, DRAW_DECK)
    assert [f["pos"] for f in state["figs"]] == [5, 0, 7, 1]
