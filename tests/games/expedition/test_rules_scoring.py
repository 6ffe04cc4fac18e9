"""Seed 000, sections 7-8 and decisions.md A: the Kantshou scoring, stragglers, Daidu, the winner."""

from __future__ import annotations

from server.games.base import State
from server.games.expedition.data import DAIDU, KANTSHOU, TRACK
from server.games.expedition.engine import GAME

from .helpers import DRAW_DECK, STOP, build, draw_slot, gold, kinds, lighten, mv, play

FOUR_GOODS = ["blue-oil-1", "red-spice-1", "green-silk-1", "yellow-fruit-1"]
OILS = ["purple-oil-1", "purple-oil-2"]


def before_kantshou() -> State:
    """Four players; seat 1 (on 15) is about to reach Kantshou; seats 0 and 2 stand on 14 and 11, seat 3 on 8."""
    return build(4, figs=[14, 15, 11, 8], hands=[[], FOUR_GOODS + OILS, [], []], turn=1)


def straggler(hand: list[str], pos: int = 10, g: list[int] | None = None) -> State:
    """After the Kantshou scoring: seats 0-2 share Kantshou, seat 3 (to move) lags behind on `pos`."""
    return build(
        4,
        figs=[KANTSHOU, KANTSHOU, KANTSHOU, pos],
        hands=[[], [], [], hand],
        gold=[[0, 0, 3], [0, 1, 2], [1, 0, 1], g or [1, 0, 1]],
        chests=dict.fromkeys(range(1, KANTSHOU), 0),
        kantshou="scored",
        turn=3,
    )


# ---- Kantshou -----------------------------------------------------------------------------------------


def test_the_first_figure_to_reach_kantshou_ends_its_movement_there() -> None:
    state = play(before_kantshou(), 1, mv(1, *FOUR_GOODS))
    assert state["figs"][1]["pos"] == KANTSHOU
    assert state["phase"] == "draw"
    # the two oils would pay the next space, but the turn's movement is over
    assert kinds(state, 1) == ["draw"]
    assert [gold(state, s) for s in range(4)] == [3, 3, 3, 3]  # the scoring waits for the draw


def test_the_kantshou_trigger_still_draws_its_card() -> None:
    state = play(before_kantshou(), 1, mv(1, *FOUR_GOODS))
    top = state["deck"][0]
    state = play(state, 1, DRAW_DECK)
    assert state["hands"][1] == sorted([*OILS, top])


def test_kantshou_scoring_pays_each_figure_on_a_numbered_space_its_number() -> None:
    state = play(before_kantshou(), 1, mv(1, *FOUR_GOODS), DRAW_DECK)
    assert [TRACK[p].score for p in range(11, 17)] == [1, 2, 3, 4, 5, 6]
    # trigger on Kantshou 6, seat 0 on 14 gets 4, seat 2 on 11 gets 1, seat 3 on 8 nothing
    assert [gold(state, s) for s in range(4)] == [3 + 4, 3 + 6, 3 + 1, 3]
    assert state["kantshou"] == "scored"


def test_kantshou_scoring_pays_5_3_and_2_on_the_other_numbered_spaces() -> None:
    # five players; seat 0 on 14 skips the occupied 15 and reaches Kantshou
    state = build(5, figs=[14, 15, 13, 12, 11], hands=[FOUR_GOODS, [], [], [], []])
    state = play(state, 0, mv(0, *FOUR_GOODS), DRAW_DECK)
    assert [gold(state, s) for s in range(5)] == [3 + 6, 3 + 5, 3 + 3, 3 + 2, 3 + 1]


def test_payouts_come_as_the_largest_chests_first() -> None:
    state = build(5, figs=[14, 15, 13, 12, 11], hands=[FOUR_GOODS, [], [], [], []])
    state = play(state, 0, mv(0, *FOUR_GOODS), DRAW_DECK)
    # each had one 3-chest; +6 = 3+3, +5 = 3+2, +3 = 3, +2 = 2, +1 = 1
    assert state["gold"] == [[0, 0, 3], [0, 1, 2], [0, 0, 2], [0, 1, 1], [1, 0, 1]]


def test_the_chest_supply_never_runs_out_payouts_beyond_the_boxs_12_chests_of_a_value_are_still_made() -> None:
    # the players already hold all 12 of the box's 3-chests (and all its 2s): the scoring still pays in 3s
    golds = [[0, 3, 4], [0, 3, 3], [0, 3, 3], [0, 3, 2], [0, 0, 0]]
    state = build(5, figs=[14, 15, 13, 12, 11], hands=[FOUR_GOODS, [], [], [], []], gold=golds)
    assert sum(g[2] for g in state["gold"]) == 12 and sum(g[1] for g in state["gold"]) == 12
    state = play(state, 0, mv(0, *FOUR_GOODS), DRAW_DECK)
    assert state["gold"] == [[0, 3, 6], [0, 4, 4], [0, 3, 4], [0, 4, 2], [1, 0, 0]]
    assert sum(g[2] for g in state["gold"]) == 16 and sum(g[1] for g in state["gold"]) == 14


def test_after_the_scoring_every_scored_figure_moves_onto_kantshou_and_they_share_it() -> None:
    state = play(before_kantshou(), 1, mv(1, *FOUR_GOODS), DRAW_DECK)
    assert [f["pos"] for f in state["figs"]] == [KANTSHOU, KANTSHOU, KANTSHOU, 8]
    view = GAME.view(state, None)["public"]
    assert [f["pos"] for f in view["figures"]] == [KANTSHOU, KANTSHOU, KANTSHOU, 8]


def test_play_resumes_with_the_left_neighbour_of_the_kantshou_trigger() -> None:
    state = play(before_kantshou(), 1, mv(1, *FOUR_GOODS), draw_slot(0))
    assert state["turn"] == 2 and state["phase"] == "move"
    assert GAME.active_seats(state) == [2]


def test_figures_sharing_kantshou_move_on_to_the_next_free_space() -> None:
    # seats 0 and 1 share Kantshou; seat 2 stands on 17, so seat 0 goes on to 18 (one leader)
    assert TRACK[18].req == {"kind": "leaders", "n": 1}
    state = build(3, figs=[KANTSHOU, KANTSHOU, 17], hands=[["blue-leader-1"], [], []], kantshou="scored")
    state = play(state, 0, mv(0, "blue-leader-1"))
    assert state["figs"][0]["pos"] == 18 and state["figs"][1]["pos"] == KANTSHOU


def test_a_straggler_pays_a_numbered_space_normally_and_then_catches_up_onto_kantshou_for_free() -> None:
    assert TRACK[11].req == {"kind": "goods", "n": 2}
    state = straggler(["blue-spice-1", "red-spice-1", "green-silk-1"])
    assert [m["pay"] for m in GAME.legal_moves(state, 3) if m["a"] == "move"] == [["blue-spice-1", "red-spice-1"]]
    state = play(state, 3, mv(3, "blue-spice-1", "red-spice-1"))
    assert state["figs"][3]["pos"] == KANTSHOU
    assert state["hands"][3] == ["green-silk-1"]  # Kantshou's four goods were not asked for
    assert state["log"][-1]["caught_up"] is True


def test_a_straggler_scores_nothing_for_section_1() -> None:
    state = play(straggler(["blue-spice-1", "red-spice-1"]), 3, mv(3, "blue-spice-1", "red-spice-1"), STOP)
    assert state["gold"][3] == [1, 0, 1]
    state = play(state, 3, DRAW_DECK)
    assert state["gold"][3] == [1, 0, 1] and state["turn"] == 0


def test_a_straggler_may_keep_moving_from_kantshou_in_the_same_turn() -> None:
    assert TRACK[17].req == {"kind": "goods", "n": 2}
    hand = ["blue-spice-1", "red-spice-1", "blue-oil-1", "red-oil-1"]
    state = play(straggler(hand), 3, mv(3, "blue-spice-1", "red-spice-1"))
    assert state["phase"] == "move"
    state = play(state, 3, mv(3, "blue-oil-1", "red-oil-1"))
    assert state["figs"][3]["pos"] == 17 and state["gold"][3] == [2, 0, 1]  # plus space 17's 1-chest


def test_a_straggler_before_the_numbered_spaces_moves_normally() -> None:
    assert TRACK[10].req == {"kind": "colour", "n": 3}
    blues = ["blue-leader-1", "blue-oil-1", "blue-spice-1"]
    state = play(straggler(blues, pos=9), 3, mv(3, *blues))
    assert state["figs"][3]["pos"] == 10


def test_a_straggler_that_lightens_onto_a_numbered_space_also_catches_up() -> None:
    state = play(straggler([]), 3, lighten(3))
    assert state["figs"][3]["pos"] == KANTSHOU and state["gold"][3] == [0, 0, 1]


# ---- Daidu and the end --------------------------------------------------------------------------------


def endgame(figs: list[int], golds: list[list[int]] | None = None, hand: list[str] | None = None) -> State:
    seats = len(figs)
    return build(
        seats,
        figs=figs,
        hands=[hand or ["blue-oil-1", "blue-oil-2", "red-oil-1", "red-oil-2"]] + [[] for _ in range(seats - 1)],
        gold=golds or [[0, 0, 1] for _ in range(seats)],
        chests=dict.fromkeys(range(1, DAIDU), 0),
        kantshou="scored",
    )


def test_reaching_daidu_ends_the_game_at_once() -> None:
    assert TRACK[DAIDU].req == {"kind": "goods", "n": 4}
    state = endgame([28, 16, 16])
    state = play(state, 0, mv(0, "blue-oil-1", "blue-oil-2", "red-oil-1", "red-oil-2"))
    assert state["figs"][0]["pos"] == DAIDU
    assert GAME.result(state) is not None
    assert state["hands"][0] == []  # no card drawn
    assert GAME.active_seats(state) == []
    assert all(GAME.prompt(state, s) is None for s in range(3))
    assert GAME.view(state, 0)["public"]["status"] == "over"


def test_daidu_accepts_four_goods_of_one_type_only() -> None:
    state = endgame([28, 16, 16], hand=["blue-oil-1", "blue-oil-2", "red-oil-1", "red-spice-1", "red-leader-1"])
    assert [m for m in GAME.legal_moves(state, 0) if m["a"] == "move"] == []


def test_the_final_scoring_pays_each_figure_on_a_section_2_numbered_space_its_number() -> None:
    assert [TRACK[p].score for p in range(23, 30)] == [1, 2, 3, 4, 5, 6, 7]
    state = play(endgame([28, 27, 25, 23, 16]), 0, mv(0, "blue-oil-1", "blue-oil-2", "red-oil-1", "red-oil-2"))
    assert GAME.result(state)["scores"] == [3 + 7, 3 + 5, 3 + 3, 3 + 1, 3]  # type: ignore[index]
    # seat 0 on 27 skips the occupied 28 into Daidu
    state = play(endgame([27, 28, 26, 24, 20]), 0, mv(0, "blue-oil-1", "blue-oil-2", "red-oil-1", "red-oil-2"))
    assert GAME.result(state)["scores"] == [3 + 7, 3 + 6, 3 + 4, 3 + 2, 3]  # type: ignore[index]


def test_figures_outside_the_section_2_numbered_spaces_score_nothing_at_the_end() -> None:
    state = play(endgame([28, 22, 16, 9]), 0, mv(0, "blue-oil-1", "blue-oil-2", "red-oil-1", "red-oil-2"))
    assert GAME.result(state)["scores"][1:] == [3, 3, 3]  # type: ignore[index]


def test_the_player_with_the_most_gold_wins() -> None:
    # seat 1 is far behind but rich
    state = endgame([28, 16, 23], golds=[[0, 0, 1], [0, 0, 5], [0, 0, 1]])
    state = play(state, 0, mv(0, "blue-oil-1", "blue-oil-2", "red-oil-1", "red-oil-2"))
    result = GAME.result(state)
    assert result is not None
    assert result["scores"] == [10, 15, 4]
    assert result["winners"] == [1]
    assert result["ranking"] == [1, 0, 2]


def test_a_gold_tie_goes_to_the_player_whose_figure_reached_or_is_nearest_daidu() -> None:
    # seat 0 reaches Daidu: 3 + 7 = 10; seat 1 on 27 with 5 + 5 = 10; seat 2 on 28 with 4 + 6 = 10
    state = endgame([28, 27, 26], golds=[[0, 0, 1], [0, 1, 1], [1, 0, 0]])
    state = play(state, 0, mv(0, "blue-oil-1", "blue-oil-2", "red-oil-1", "red-oil-2"))
    result = GAME.result(state)
    assert result is not None
    assert result["scores"] == [10, 10, 5]
    assert result["winners"] == [0]
    # a tie between two players who did not arrive goes to the figure on 27 rather than the one on 25
    state = endgame([25, 27, 28], golds=[[0, 0, 2], [1, 0, 1], [0, 0, 0]])
    state["hands"] = [[], [], ["blue-oil-1", "blue-oil-2", "red-oil-1", "red-oil-2"]]
    state["turn"] = 2
    state = play(state, 2, mv(2, "blue-oil-1", "blue-oil-2", "red-oil-1", "red-oil-2"))
    result = GAME.result(state)
    assert result is not None
    assert result["scores"] == [6 + 3, 4 + 5, 0 + 7]
    assert result["winners"] == [1]
    assert result["ranking"] == [1, 0, 2]
