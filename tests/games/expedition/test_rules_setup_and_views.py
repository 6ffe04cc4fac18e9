"""Seed 000, section 5 (set-up) and decisions.md A / games-research A5 (what each viewer may see)."""

from __future__ import annotations

import pytest

from server.games.base import State
from server.games.expedition.data import ALL_CARDS, COLOURS, TRACK
from server.games.expedition.engine import GAME

from .helpers import DRAW_DECK, PASS, build, draw_slot, mv, play, strings


@pytest.mark.parametrize("seats", [3, 4, 5])
def test_setup_deals_five_cards_each_five_face_up_and_the_rest_as_the_deck(seats: int) -> None:
    state = GAME.setup(seats, None, 42)
    assert [len(h) for h in state["hands"]] == [5] * seats
    assert len(state["display"]) == 5 and None not in state["display"]
    assert len(state["deck"]) == 55 - 5 * seats - 5
    assert state["discard"] == []
    everything = [c for h in state["hands"] for c in h] + state["display"] + state["deck"]
    assert sorted(everything) == sorted(ALL_CARDS)


def test_the_cards_are_55_eleven_per_colour_of_eight_goods_and_three_leaders() -> None:
    assert len(ALL_CARDS) == len(set(ALL_CARDS)) == 55
    for colour in COLOURS:
        mine = [c for c in ALL_CARDS if c.startswith(colour + "-")]
        assert len(mine) == 11
        assert sum("-leader-" in c for c in mine) == 3
        for goods in ("oil", "spice", "silk", "fruit"):
            assert sum(f"-{goods}-" in c for c in mine) == 2


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_every_player_starts_with_one_3_chest(seats: int) -> None:
    state = GAME.setup(seats, None, 3)
    assert state["gold"] == [[0, 0, 1]] * seats
    assert [p["chests"] for p in GAME.view(state, None)["public"]["players"]] == [1] * seats


@pytest.mark.parametrize("seats", [3, 4, 5])
def test_figures_start_on_hormus_and_the_following_spaces_in_turn_order_from_the_start_player(seats: int) -> None:
    state = GAME.setup(seats, None, 9)
    first = state["turn"]
    assert [(f["seat"], f["pos"]) for f in state["figs"]] == [((first + i) % seats, i) for i in range(seats)]
    assert TRACK[0].name == "Hormus"
    assert GAME.active_seats(state) == [first] and state["phase"] == "move"


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_the_start_player_is_drawn_from_the_rooms_seed_and_is_not_always_seat_0(seats: int) -> None:
    # seed 000 §5: "the youngest player starts"; the server knows no ages, so the room's seed draws the start
    starts = [GAME.setup(seats, None, seed)["turn"] for seed in range(60)]
    assert set(starts) == set(range(seats))
    for seed in range(10):
        state = GAME.setup(seats, None, seed)
        assert state["turn"] == starts[seed] and GAME.active_seats(state) == [starts[seed]]
        # the start player's figure stands on Hormus
        assert state["figs"][0] == {"seat": starts[seed], "pos": 0}


def test_with_two_players_the_figures_are_placed_alternately_from_the_start_player() -> None:
    seed = next(s for s in range(50) if GAME.setup(2, None, s)["turn"] == 1)
    state = GAME.setup(2, None, seed)
    assert [(f["seat"], f["pos"]) for f in state["figs"]] == [(1, 0), (0, 1), (1, 2), (0, 3)]


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_setup_puts_the_tracks_chests_on_the_board_and_none_on_a_starting_space(seats: int) -> None:
    state = GAME.setup(seats, None, 9)
    assert state["chests"] == [s.chest for s in TRACK]
    assert sum(1 for c in state["chests"] if c) > 0 and set(state["chests"]) <= {0, 1, 2}
    for f in state["figs"]:
        assert state["chests"][f["pos"]] == 0


def test_the_same_seed_deals_the_same_game_and_another_seed_another() -> None:
    assert GAME.setup(3, None, 7) == GAME.setup(3, None, 7)
    assert GAME.setup(3, None, 7)["hands"] != GAME.setup(3, None, 8)["hands"]


# ---- hidden information -------------------------------------------------------------------------------


def _assert_hands_hidden(state: State) -> None:
    seats = state["seats"]
    for viewer in [*range(seats), None]:
        seen = strings(GAME.view(state, viewer))
        for other in range(seats):
            if other != viewer:
                assert not seen & set(state["hands"][other]), (viewer, other)


@pytest.mark.parametrize("seats", [2, 3, 5])
def test_another_seats_view_never_contains_my_hands_card_ids(seats: int) -> None:
    state = GAME.setup(seats, None, 13)
    _assert_hands_hidden(state)
    for _ in range(seats):  # a round of deck draws from the start player
        state = play(state, state["turn"], PASS, DRAW_DECK)
        _assert_hands_hidden(state)
    for seat in range(seats):
        assert set(state["hands"][seat]) <= strings(GAME.view(state, seat)["private"])


def test_spectators_see_no_hand_only_hand_sizes() -> None:
    state = GAME.setup(4, None, 13)
    view = GAME.view(state, None)
    assert view["private"] is None
    assert [p["hand"] for p in view["public"]["players"]] == [5, 5, 5, 5]
    assert not strings(view) & {c for h in state["hands"] for c in h}


@pytest.mark.parametrize("seats", [2, 4])
def test_the_decks_cards_never_appear_in_any_view(seats: int) -> None:
    state = GAME.setup(seats, None, 21)
    for step in range(2 * seats):
        seat = state["turn"]
        state = play(state, seat, PASS, DRAW_DECK if step % 2 else draw_slot(step % 5))
        for viewer in [*range(seats), None]:
            view = GAME.view(state, viewer)
            assert not strings(view) & set(state["deck"])
            assert view["public"]["deck"] == len(state["deck"])


def test_chest_values_are_private_while_chest_counts_are_public() -> None:
    state = build(3, gold=[[2, 0, 1], [0, 2, 0], [0, 0, 0]])
    public = GAME.view(state, None)["public"]
    assert [p["chests"] for p in public["players"]] == [3, 2, 0]
    assert all("gold" not in p and "chest_values" not in p for p in public["players"])
    mine = GAME.view(state, 0)["private"]
    assert mine["gold"] == 5 and mine["chest_values"] == {"1": 2, "2": 0, "3": 1}
    assert GAME.view(state, 1)["private"]["gold"] == 4
    assert GAME.view(state, 1)["private"]["chest_values"] == {"1": 0, "2": 2, "3": 0}
    assert GAME.view(state, 1)["public"] == public


def test_open_gold_makes_chest_values_public() -> None:
    state = build(3, gold=[[2, 0, 1], [0, 2, 0], [0, 0, 0]], options={"open_gold": True})
    public = GAME.view(state, None)["public"]
    assert [p["gold"] for p in public["players"]] == [5, 4, 0]
    assert public["players"][0]["chest_values"] == {"1": 2, "2": 0, "3": 1}
    assert [p["chests"] for p in public["players"]] == [3, 2, 0]


def test_a_card_drawn_from_the_deck_is_not_revealed_in_the_public_log() -> None:
    state = build(3, hands=[[], [], []], phase="draw")
    top = state["deck"][0]
    state = play(state, 0, DRAW_DECK)
    assert state["hands"][0] == [top]
    ev = GAME.view(state, None)["public"]["log"][-1]
    assert ev["ev"] == "draw" and ev["slot"] is None and "card" not in ev
    for viewer in (1, 2, None):
        assert top not in strings(GAME.view(state, viewer))
    assert top in strings(GAME.view(state, 0)["private"])


def test_a_card_drawn_from_the_display_is_shown_in_the_public_log() -> None:
    state = build(3, hands=[[], [], []], phase="draw")
    card = state["display"][3]
    state = play(state, 0, draw_slot(3))
    ev = GAME.view(state, 2)["public"]["log"][-1]
    assert (ev["ev"], ev["seat"], ev["slot"], ev["card"]) == ("draw", 0, 3, card)


def test_the_display_the_discard_pile_and_played_cards_are_public() -> None:
    state = build(3, figs=[2, 0, 1], hands=[["blue-oil-1", "blue-spice-1"], [], []])
    state = play(state, 0, mv(0, "blue-oil-1", "blue-spice-1"))
    public = GAME.view(state, None)["public"]
    assert public["discard"] == ["blue-oil-1", "blue-spice-1"]
    assert public["display"] == state["display"]
    assert public["log"][-1]["paid"] == ["blue-oil-1", "blue-spice-1"]


def test_views_never_contain_the_rng_state() -> None:
    state = GAME.setup(3, None, 1)
    for viewer in (0, None):
        assert "rng" not in GAME.view(state, viewer)["public"]


def test_the_track_has_30_positions_with_hormus_0_kantshou_16_and_daidu_29() -> None:
    assert [s.pos for s in TRACK] == list(range(30))
    assert (TRACK[0].name, TRACK[16].name, TRACK[29].name) == ("Hormus", "Kantshou", "Daidu")
    assert TRACK[0].req is None and all(s.req is not None for s in TRACK[1:])
    assert TRACK[16].req == {"kind": "four_goods"} and TRACK[29].req == {"kind": "goods", "n": 4}
    assert [s.score for s in TRACK[11:17]] == [1, 2, 3, 4, 5, 6]
    assert [s.score for s in TRACK[23:30]] == [1, 2, 3, 4, 5, 6, 7]
    assert all(s.score is None for s in TRACK if s.pos not in range(11, 17) and s.pos not in range(23, 30))
    assert {s.req["kind"] for s in TRACK[1:]} == {"goods", "four_goods", "leaders", "colour", "five_colours"}


def test_chests_of_1_and_2_lie_on_about_a_third_of_positions_3_to_28_more_2s_further_on() -> None:
    chests = {s.pos: s.chest for s in TRACK if s.chest}
    assert set(chests.values()) == {1, 2}
    assert all(3 <= p <= 28 for p in chests)
    assert 26 / 4 <= len(chests) <= 26 / 2  # about a third of the 26 spaces 3..28
    assert all(p >= 5 for p in chests)  # never on a starting space (five figures start on 0..4)
    assert not any(TRACK[p].score for p in chests)  # never on a scoring space
    first, second = [v for p, v in chests.items() if p < 16], [v for p, v in chests.items() if p > 16]
    assert first and second and sum(second) / len(second) > sum(first) / len(first)
