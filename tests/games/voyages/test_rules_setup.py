"""Set-up (rulebook board and player set-up), the 2- and 3-player rules and the expert variant."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from server.games.voyages import data as D
from server.games.voyages.engine import GAME

from .helpers import CITY, moves, play


def test_the_start_player_is_drawn_from_the_seed_so_no_seat_number_always_starts() -> None:
    starts = [GAME.setup(4, None, seed)["start_player"] for seed in range(40)]
    assert set(starts) == {0, 1, 2, 3}
    assert starts == [GAME.setup(4, None, seed)["start_player"] for seed in range(40)]  # same seed, same start


def test_each_player_starts_with_2_camels_and_7_8_9_10_coins_clockwise_from_the_start_player() -> None:
    starts = set()
    for seed in range(12):
        state = GAME.setup(4, None, seed)
        start = state["start_player"]
        starts.add(start)
        assert [state["players"][(start + i) % 4]["coins"] for i in range(4)] == [7, 8, 9, 10]
        assert all(p["camels"] == 2 and p["vp"] == 0 for p in state["players"])
        assert all(p["pepper"] == p["silk"] == p["gold"] == 0 for p in state["players"])
    assert len(starts) > 1


def test_round_one_opens_with_the_drawn_start_player_to_move() -> None:
    state = next(s for s in (GAME.setup(3, None, seed) for seed in range(20)) if s["start_player"] == 2)
    while state["phase"] == "start":
        seat = GAME.active_seats(state)[0]
        state = play(state, seat, moves(state, seat)[0])
    assert state["phase"] == "play" and GAME.active_seats(state) == [2]
    assert GAME.view(state, None)["public"]["start_player"] == 2


def test_each_player_gets_one_starting_contract_and_two_goal_cards() -> None:
    state = GAME.setup(3, {"characters": ["berke", "carpini", "wilhelm"]}, 5)
    starters = [p["contracts"] for p in state["players"]]
    assert all(len(c) == 1 and c[0] in D.STARTERS for c in starters)
    assert len({c[0] for c in starters}) == 3
    assert all(len(p["goals"]) == 2 for p in state["players"])
    assert len(state["boxed"]["contracts"]) == 3


def test_six_contracts_are_laid_out_and_four_piles_of_six_and_a_special_pile_of_eight_wait() -> None:
    state = GAME.setup(2, {"characters": ["berke", "carpini"]}, 1)
    assert len(state["display"]) == 6
    assert [len(p) for p in state["piles"]] == [6, 6, 6, 6]
    assert len(state["special"]) == 8
    everything = state["display"] + [c for p in state["piles"] for c in p] + state["special"]
    assert sorted(everything) == sorted(D.NON_STARTERS)


def test_seven_outpost_bonuses_and_nine_city_cards_are_dealt_and_the_rest_stay_in_the_box() -> None:
    state = GAME.setup(2, None, 1)
    assert sorted(int(k) for k in state["outposts"]) == sorted(D.LARGE_CITIES)
    assert len(state["boxed"]["outposts"]) == 3
    assert len(state["city_cards"]) == 9 and len(state["boxed"]["city_cards"]) == 22
    assert sorted(state["city_cards"] + state["boxed"]["city_cards"]) == sorted(D.CITY_CARDS)


def test_every_figure_starts_in_venezia() -> None:
    state = GAME.setup(4, None, 1)
    assert all(p["figures"] == [D.VENEZIA] and p["posts"] == [] for p in state["players"])


def test_the_beginner_game_gives_raschid_matteo_berke_and_mercator_clockwise_from_the_start_player() -> None:
    raschid_seats = set()
    for seed in range(12):
        state = GAME.setup(4, None, seed)
        start = state["start_player"]
        chars = [state["players"][(start + i) % 4]["character"] for i in range(4)]
        assert chars == ["raschid", "matteo", "berke", "mercator"]
        raschid_seats.add(start)
    assert len(raschid_seats) > 1  # Raschid goes with the start, not with the first seat to join


def test_the_beginner_game_puts_each_city_bonus_on_its_lettered_city() -> None:
    state = GAME.setup(3, None, 1)
    assert state["city_bonus"] == {str(m["beginner_city"]): i for i, m in D.MARKERS.items()}
    assert state["city_bonus"][str(CITY["Anxi"])] == 0  # 5 coins
    assert D.MARKERS[state["city_bonus"][str(CITY["Kochi"])]]["reward"] == {"vp": 3}


def test_the_expert_variant_shuffles_the_city_bonuses_over_the_small_cities() -> None:
    layouts = {tuple(sorted(GAME.setup(3, {"random_city_bonuses": True}, s)["city_bonus"].items())) for s in range(8)}
    assert len(layouts) > 1
    for layout in layouts:
        assert sorted(int(c) for c, _ in layout) == sorted(D.SMALL_CITIES)
        assert sorted(m for _, m in layout) == sorted(D.MARKERS)


def test_black_dice_number_the_players_plus_one() -> None:
    for seats in (2, 3, 4):
        assert GAME.setup(seats, None, 1)["black_pool"] == seats + 1


def test_with_three_players_a_neutral_die_showing_1_holds_the_first_khan_slot() -> None:
    state = GAME.setup(3, None, 1)
    assert state["khan"] == [{"seat": None, "dice": [["neutral", 1]]}]
    assert state["spaces"]["coins"] == []


def test_with_two_players_two_neutral_dice_hold_two_khan_slots_and_one_takes_5_coins() -> None:
    state = GAME.setup(2, None, 1)
    assert len(state["khan"]) == 2 and all(pl["seat"] is None for pl in state["khan"])
    assert state["spaces"]["coins"] == [{"seat": None, "dice": [["neutral", 1]]}]


def test_the_expert_draft_reveals_players_plus_one_characters_and_the_start_players_right_picks_first() -> None:
    state = next(
        s for s in (GAME.setup(3, {"character_draft": True}, seed) for seed in range(20)) if s["start_player"] == 1
    )
    assert state["phase"] == "draft"
    assert len(state["draft"]["offer"]) == 4
    assert GAME.active_seats(state) == [0]  # seat 0 sits to the right of seat 1, the start player
    first = moves(state, 0)[0]
    state = play(state, 0, first)
    assert state["players"][0]["character"] == first["character"]
    assert GAME.active_seats(state) == [2] and len(moves(state, 2)) == 3
    state = play(state, 2, moves(state, 2)[0])
    assert GAME.active_seats(state) == [1] and len(moves(state, 1)) == 2  # the start player picks last
    state = play(state, 1, moves(state, 1)[0])
    assert state["phase"] != "draft" and all(p["character"] for p in state["players"])


def test_the_expert_goal_draft_deals_four_goal_cards_and_each_player_keeps_two_secretly() -> None:
    state = GAME.setup(2, {"goal_draft": True}, 4)
    assert state["phase"] == "goals" and GAME.active_seats(state) == [0, 1]
    offer = state["players"][0]["goal_offer"]
    assert len(offer) == 4 and len(moves(state, 0)) == 6
    assert GAME.view(state, 1)["public"]["players"][0]["goal_cards"] == 4
    state = play(state, 0, {"a": "goals", "keep": offer[:2]})
    assert state["players"][0]["goals"] == offer[:2]
    assert state["players"][0]["goals_discarded"] == offer[2:]
    assert GAME.active_seats(state) == [1]


def test_the_expert_option_turns_on_all_three_distributions() -> None:
    state = GAME.setup(4, {"expert": True}, 9)
    assert state["phase"] == "draft" and len(state["draft"]["offer"]) == 5
    assert all(len(p["goal_offer"]) == 4 for p in state["players"])


def test_kubilai_khan_can_be_drafted_and_starts_in_beijing_at_once() -> None:
    state = GAME.setup(2, {"characters": ["kubilai", "berke"]}, 1)
    assert state["players"][0]["figures"] == [D.BEIJING]


def test_options_reject_unknown_or_repeated_characters_and_the_wrong_count() -> None:
    with pytest.raises(ValidationError):
        GAME.parse_options({"characters": ["nobody", "berke"]})
    with pytest.raises(ValidationError):
        GAME.parse_options({"characters": ["berke", "berke"]})
    with pytest.raises(ValueError):
        GAME.setup(3, {"characters": ["berke", "matteo"]}, 1)
