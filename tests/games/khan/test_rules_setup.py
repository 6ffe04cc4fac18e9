"""Set-up (rulebook "Setup" and "Player Setup"), the draft, goal cards, and the 2- and 3-player rules."""

from __future__ import annotations

from collections import Counter

import pytest

from server.games.khan import data as D
from server.games.khan.engine import GAME

from .helpers import moves, play


def test_every_player_starts_in_beijing_with_3_camels_8_coins_11_posts_and_one_starting_contract() -> None:
    state = GAME.setup(4, {"characters": ["dewu", "abha", "filippo", "isabella"]}, 5)
    starters = set()
    for p in state["players"]:
        assert p["figures"] == [D.BEIJING]
        assert (p["coins"], p["camels"], p["posts_left"], p["posts"]) == (8, 3, 11, [])
        assert len(p["contracts"]) == 1 and p["contracts"][0] in D.STARTERS
        starters.add(p["contracts"][0])
        assert p["jade"] == p["pepper"] == p["silk"] == p["gold"] == p["vp"] == 0
    assert len(starters) == 4
    assert sorted(state["boxed"]["starters"] + sorted(starters)) == sorted(D.STARTERS)


def test_mailin_and_tian_chin_start_with_3_more_coins_and_a_second_figure_in_beijing() -> None:
    state = GAME.setup(2, {"characters": ["mailin", "dewu"]}, 5)
    p = state["players"][0]
    assert p["figures"] == [D.BEIJING, D.BEIJING] and p["coins"] == 11


def test_six_of_the_seven_city_bonus_markers_lie_on_the_marker_cities_and_one_is_boxed() -> None:
    state = GAME.setup(3, None, 9)
    assert sorted(state["markers"]) == sorted(D.MARKER_CITIES)
    assert sorted([*state["markers"].values(), *state["boxed"]["markers"]]) == sorted(D.MARKERS)
    assert len(state["boxed"]["markers"]) == 1


def test_outpost_tiles_lie_one_on_each_outpost_city_and_the_rest_are_boxed() -> None:
    state = GAME.setup(3, None, 9)
    assert sorted(state["outposts"]) == sorted(D.OUTPOST_CITIES)
    assert all(t is not None for t in state["outposts"].values())
    assert sorted([*state["outposts"].values(), *state["boxed"]["outposts"]]) == sorted(D.OUTPOSTS)


def test_each_contract_city_shows_two_contracts_and_the_rest_form_the_face_down_pile() -> None:
    state = GAME.setup(4, None, 9)
    assert sorted(state["contract_spaces"]) == sorted(D.CONTRACT_CITIES)
    shown = [c for row in state["contract_spaces"].values() for c in row]
    assert len(shown) == 10 and all(c in D.RED_CONTRACTS for c in shown)
    assert sorted(shown + state["pile"]) == sorted(D.RED_CONTRACTS)


def test_six_city_cards_lie_by_their_cities_two_in_the_action_area_and_the_rest_face_down() -> None:
    state = GAME.setup(4, None, 9)
    assert len(state["city_cards"]) == 6 and len(state["area"]) == 2 and len(state["deck"]) == 17
    assert sorted(state["city_cards"] + state["area"] + state["deck"]) == sorted(D.CITY_CARDS)


def test_one_offer_tile_of_each_pile_is_boxed_and_the_top_tile_of_each_lies_on_its_book() -> None:
    state = GAME.setup(4, None, 9)
    assert [D.OFFER_TILES[t]["pile"] for t in state["offers"]] == [1, 2, 3]
    assert [len(p) for p in state["offer_piles"]] == [4, 4, 4]
    assert len(state["boxed"]["offers"]) == 3
    for n in range(3):
        assert sorted([state["offers"][n], state["boxed"]["offers"][n], *state["offer_piles"][n]]) == sorted(
            D.OFFER_PILES[n]
        )


@pytest.mark.parametrize(("seats", "black"), [(2, 4), (3, 5), (4, 6)])
def test_the_board_holds_six_black_dice_five_with_3_players_and_four_with_2(seats: int, black: int) -> None:
    state = GAME.setup(seats, {"characters": ["dewu", "abha", "filippo", "isabella"][:seats]}, 3)
    assert len(state["black_pool"]) == black


def test_the_first_player_is_drawn_from_the_seed_so_no_seat_number_always_starts() -> None:
    firsts = [GAME.setup(4, None, seed)["first"] for seed in range(40)]
    assert set(firsts) == {0, 1, 2, 3}
    assert firsts == [GAME.setup(4, None, seed)["first"] for seed in range(40)]  # same seed, same first player


def test_the_draft_reveals_one_character_more_than_players_and_the_first_players_right_picks_first() -> None:
    state = next(s for s in (GAME.setup(3, None, seed) for seed in range(20)) if s["first"] == 1)
    assert state["phase"] == "draft"
    offer = state["draft"]["offer"]
    assert len(offer) == 4 and all(c in D.CHARACTERS for c in offer)
    order = []
    while state["phase"] == "draft":
        seat = GAME.active_seats(state)[0]
        order.append(seat)
        opts = moves(state, seat)
        assert opts == [{"a": "character", "character": c} for c in state["draft"]["offer"]]
        state = play(state, seat, opts[0])
    assert order == [0, 2, 1]  # counter-clockwise from the first player's right; the first player picks last
    chosen = [p["character"] for p in state["players"]]
    assert len(set(chosen)) == 3 and set(chosen) <= set(offer)


def test_each_player_keeps_one_of_three_goal_cards_all_choosing_at_once() -> None:
    state = GAME.setup(3, {"characters": ["dewu", "abha", "filippo"]}, 4)
    assert state["phase"] == "goals" and GAME.active_seats(state) == [0, 1, 2]
    offers = [list(p["goal_offer"]) for p in state["players"]]
    assert all(len(o) == 3 for o in offers)
    assert len({g for o in offers for g in o}) == 9
    state = play(state, 1, {"a": "goal", "keep": offers[1][2]})
    assert state["players"][1]["goals"] == [offers[1][2]]
    assert state["players"][1]["goals_rejected"] == offers[1][:2]
    assert GAME.active_seats(state) == [0, 2]


def test_three_players_find_a_neutral_1_on_the_first_khan_slot_every_round() -> None:
    state = GAME.setup(3, {"characters": ["dewu", "abha", "filippo"]}, 4)
    for s in range(3):
        state = play(state, s, moves(state, s)[0])
    assert state["khan"] == [{"seat": None, "dice": [["neutral", 1]]}]
    assert all(not v for v in state["special"].values()) and not state["spaces"]["book3b"]


def test_two_players_find_neutral_dice_on_two_khan_slots_each_special_city_and_the_lower_third_book() -> None:
    state = GAME.setup(2, {"characters": ["dewu", "abha"]}, 4)
    for s in range(2):
        state = play(state, s, moves(state, s)[0])
    assert state["khan"] == [{"seat": None, "dice": [["neutral", 1]]}] * 2
    assert all(v == [{"seat": None, "dice": [["neutral", 1]]}] for v in state["special"].values())
    assert state["spaces"]["book3b"] == [{"seat": None, "dice": [["neutral", 5]]}]


def test_everyone_rolls_five_dice_and_a_total_below_15_is_made_up_in_coins_and_camels() -> None:
    seen_comp = False
    for seed in range(40):
        state = GAME.setup(4, {"characters": ["dewu", "abha", "filippo", "mongke"]}, seed)
        for s in range(4):
            state = play(state, s, moves(state, s)[0])
        for s, p in enumerate(state["players"]):
            assert len(p["dice"]) == 5 and all(k == "own" and 1 <= v <= 6 for k, v in p["dice"])
            total = sum(v for _, v in p["dice"])
            comp = [it for it in state["pending"] if it["seat"] == s and it["kind"] == "comp"]
            assert bool(comp) == (total < 15)
            if comp:
                seen_comp = True
                assert moves(state, s) == [{"a": "comp", "coins": n} for n in range(15 - total + 1)]
                before = (p["coins"], p["camels"])
                state = play(state, s, {"a": "comp", "coins": 1})
                q = state["players"][s]
                assert (q["coins"], q["camels"]) == (before[0] + 1, before[1] + 15 - total - 1)
    assert seen_comp


def test_round_one_starts_with_the_drawn_first_player_and_the_start_phase_answers_all_at_once() -> None:
    opts = {"characters": ["dewu", "abha", "filippo"]}
    state = next(s for s in (GAME.setup(3, opts, seed) for seed in range(20)) if s["first"] == 2)
    for s in range(3):
        state = play(state, s, moves(state, s)[0])
    while state["phase"] == "start":
        seat = GAME.active_seats(state)[0]
        state = play(state, seat, moves(state, seat)[0])
    assert state["phase"] == "play" and state["turn"] == 2 and state["round"] == 1
    assert GAME.view(state, None)["public"]["first"] == 2


def test_the_characters_option_must_name_one_known_character_per_seat_once() -> None:
    with pytest.raises(ValueError):
        GAME.setup(2, {"characters": ["dewu"]}, 1)
    with pytest.raises(ValueError):
        GAME.parse_options({"characters": ["dewu", "dewu"]})
    with pytest.raises(ValueError):
        GAME.parse_options({"characters": ["marco"]})


def test_the_house_map_has_nine_shields_five_contract_cities_and_eight_action_cities() -> None:
    assert 25 <= len(D.NODES) <= 35
    assert len(set(D.SHIELD_OF.values())) == 9
    assert Counter(len([c for c in D.CITIES if D.SHIELD_OF[c] == s]) >= 2 for s in D.SHIELDS) == {True: 9}
    assert len(D.CONTRACT_CITIES) == 5
    assert len(set(D.CARD_SLOT_CITIES) | set(D.SPECIAL_CITIES)) == 8
