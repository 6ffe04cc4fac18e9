"""The 8 characters of the base game (rulebook supplement), including Mercator's three player-count tiles."""

from __future__ import annotations

from typing import Any

from server.games.base import State
from server.games.voyages import data as D
from server.games.voyages.engine import GAME

from .helpers import CITY, END, build, card_space, die, finish, moves, own, place, play, res


def next_round(state: State) -> State:
    """End the current round now (seat 0 has done its main action; nobody has a die left)."""
    state["turn"] = 0
    state["turn_info"] = {"main": True, "black": False, "posts": []}
    state["pending"] = []
    for p in state["players"]:
        p["dice"] = []
    return play(state, 0, END)


def step(to: int, fig: int = 0) -> dict[str, Any]:
    return {"a": "step", "fig": fig, "to": to}


# ---- Raschid ad-Din Sinan ----------------------------------------------------------------


def test_raschid_does_not_roll_and_gets_no_compensation() -> None:
    state = GAME.setup(2, {"characters": ["raschid", "berke"]}, 3)
    assert state["players"][0]["dice"] == own(0, 0, 0, 0, 0)
    assert all(item["seat"] != 0 for item in state["pending"])


def test_raschid_chooses_each_die_value_when_placing_it() -> None:
    state = build(2, characters=["raschid", "berke"])
    state = play(state, 0, {"a": "space", "space": "camels"})
    assert [m for m in moves(state, 0) if m["a"] == "die"] == [die(v) for v in range(1, 7)]
    state = play(state, 0, die(6), {"a": "column", "n": 6})
    assert state["spaces"]["camels"] == [{"seat": 0, "dice": own(6)}]
    assert state["players"][0]["dice"] == own(0, 0, 0, 0)


def test_raschid_still_pays_for_an_occupied_space() -> None:
    state = build(2, characters=["raschid", "berke"], players={0: {"coins": 10}})
    state["spaces"]["pepper"] = [{"seat": 1, "dice": own(2)}]
    state = place(state, 0, "pepper", 4)
    assert state["players"][0]["coins"] == 10 - 4


# ---- Matteo Polo ---------------------------------------------------------------------------


def test_matteo_gets_the_white_die_and_the_top_special_contract_every_round_from_round_1() -> None:
    state = GAME.setup(2, {"characters": ["matteo", "berke"]}, 3)
    p = state["players"][0]
    assert sum(1 for d in p["dice"] if d[0] == "white") == 1 and len(p["dice"]) == 6
    assert len(p["contracts"]) == 2
    state = build(2, characters=["matteo", "berke"])
    top = state["special"][0]
    state = next_round(state)
    assert top in state["players"][0]["contracts"]
    assert sum(1 for d in state["players"][0]["dice"] if d[0] == "white") == 1


def test_the_white_die_is_colourless_and_may_repeat_a_space() -> None:
    state = build(2, characters=["matteo", "berke"], players={0: {"dice": [*own(2, 2), ["white", 5]]}})
    state["spaces"]["camels"] = [{"seat": 0, "dice": own(1)}]
    state = play(state, 0, {"a": "space", "space": "camels"})
    assert [m for m in moves(state, 0) if m["a"] == "die"] == [die(5, "white")]


# ---- Mercator ex Tabriz -----------------------------------------------------------------------


def test_mercator_gets_one_of_the_good_another_player_takes_at_the_bazaar() -> None:
    state = build(4, characters=["berke", "mercator", "carpini", "wilhelm"], players={0: {"dice": own(4, 4, 4, 1)}})
    before = res(state, 1)
    state = place(state, 0, "silk", 4, 4)
    state = play(state, 0, {"a": "column", "n": 4})
    assert res(state, 1)["silk"] == before["silk"] + 1
    state["turn_info"]["main"] = False
    state = place(state, 0, "camels", 1)
    assert res(state, 1)["camels"] == before["camels"] + 1


def test_mercator_gets_nothing_from_his_own_bazaar_actions() -> None:
    state = build(4, characters=["mercator", "berke", "carpini", "wilhelm"])
    state = place(state, 0, "pepper", 3)
    state = play(state, 0, {"a": "column", "n": 3})
    assert state["players"][0]["pepper"] == 2


def test_mercator_with_four_players_gets_nothing_from_the_khan_favor_or_5_coins() -> None:
    state = build(4, characters=["berke", "mercator", "carpini", "wilhelm"])
    before = res(state, 1)
    state = place(state, 0, "khan", 3)
    state = play(state, 0, {"a": "good", "good": "gold"})
    assert res(state, 1) == before


def test_mercator_with_three_players_also_gets_a_camel_when_another_player_takes_the_khan_favor() -> None:
    state = build(3, characters=["berke", "mercator", "carpini"])
    before = res(state, 1)
    state = place(state, 0, "khan", 3)
    state = play(state, 0, {"a": "good", "good": "gold"})
    assert res(state, 1)["camels"] == before["camels"] + 1
    state = build(3, characters=["berke", "mercator", "carpini"])
    state = place(state, 0, "coins", 3)
    assert res(state, 1) == before


def test_mercator_with_two_players_also_gets_2_coins_when_the_other_takes_5_coins() -> None:
    state = build(2, characters=["berke", "mercator"])
    before = res(state, 1)
    state = place(state, 0, "coins", 3)
    assert res(state, 1)["coins"] == before["coins"] + 2
    state = build(2, characters=["berke", "mercator"])
    state = place(state, 0, "khan", 3)
    state = play(state, 0, {"a": "good", "good": "pepper"})
    assert res(state, 1)["camels"] == before["camels"] + 1


# ---- Kubilai Khan ----------------------------------------------------------------------------


def test_kubilai_starts_in_beijing_with_a_post_on_its_10_vp_space() -> None:
    state = GAME.setup(3, {"characters": ["berke", "kubilai", "carpini"]}, 2)
    p = state["players"][1]
    assert p["figures"] == [D.BEIJING] and p["posts"] == [D.BEIJING] and p["posts_left"] == 8
    assert state["beijing"] == [1]
    state = finish(build(3, characters=["berke", "kubilai", "carpini"]))
    assert state["result"]["breakdown"][1]["beijing"] == 10


# ---- Berke Khan -----------------------------------------------------------------------------


def test_berke_never_pays_for_an_occupied_space() -> None:
    state = build(3, characters=["berke", "carpini", "wilhelm"], players={0: {"coins": 0, "dice": own(6, 6, 6)}})
    state["spaces"]["silk"] = [{"seat": 1, "dice": own(1, 1)}]
    state = place(state, 0, "silk", 6, 6)
    assert state["players"][0]["coins"] == 0


def test_berke_cannot_use_an_occupied_city_card() -> None:
    moscow = CITY["Moscow"]
    state = build(3, characters=["berke", "carpini", "wilhelm"], players={0: {"posts": [moscow]}})
    state["city_cards"][0] = "city-card-0"
    state["card_used"][0] = {"seat": 1, "dice": own(2)}
    assert {"a": "space", "space": "card-0"} not in moves(state, 0)


# ---- Niccolo and Marco Polo -------------------------------------------------------------------


def test_niccolo_has_a_second_figure_and_may_split_the_movement_between_them() -> None:
    alexandria = CITY["Alexandria"]
    state = build(
        3,
        characters=["niccolo", "berke", "carpini"],
        players={0: {"dice": own(2, 2, 1), "coins": 20}},
        outposts={str(c): None for c in D.LARGE_CITIES},
    )
    assert state["players"][0]["figures"] == [D.VENEZIA, D.VENEZIA]
    state = place(state, 0, "travel", 2, 2)
    state = play(state, 0, step(alexandria, 0), step(1, 1))
    assert state["players"][0]["figures"] == [alexandria, 1]
    assert state["players"][0]["coins"] == 20 - 7  # one tier cost for the 2 steps together
    assert state["players"][0]["posts"] == [alexandria]


def test_both_of_niccolos_figures_place_posts_where_they_end() -> None:
    alexandria, moscow = CITY["Alexandria"], CITY["Moscow"]
    state = build(
        3,
        characters=["niccolo", "berke", "carpini"],
        players={0: {"dice": own(2, 2, 1), "coins": 20, "figures": [D.VENEZIA, 1]}},
        outposts={str(c): None for c in D.LARGE_CITIES},
    )
    state = place(state, 0, "travel", 2, 2)
    state = play(state, 0, step(alexandria, 0), step(moscow, 1))
    assert sorted(state["players"][0]["posts"]) == sorted([alexandria, moscow])


def test_a_city_card_move_split_between_niccolos_figures_places_one_post_of_his_choice() -> None:
    # rulebook supplement, city cards: "When using a City card to move more than once with the same action, you
    # may only place a trading post in the small or large city where you end your movement" (one post, as
    # Marco Polo II's "you can still place only 1 trading post during that movement"; docs/games/voyages.md)
    alexandria, moscow, karachi = CITY["Alexandria"], CITY["Moscow"], CITY["Karachi"]
    state = build(
        3,
        characters=["niccolo", "berke", "carpini"],
        players={0: {"dice": own(2, 2, 1), "coins": 20, "camels": 20, "figures": [D.VENEZIA, 1], "posts": [karachi]}},
        outposts={str(c): None for c in D.LARGE_CITIES},
    )
    state = place(state, 0, card_space(state, "city-card-13", "Karachi"), 2)
    state = play(state, 0, step(alexandria, 0), step(moscow, 1))
    assert state["players"][0]["figures"] == [alexandria, moscow]
    assert state["players"][0]["posts"] == [karachi]
    assert moves(state, 0) == [{"a": "post", "city": alexandria}, {"a": "post", "city": moscow}]
    state = play(state, 0, {"a": "post", "city": moscow})
    assert state["players"][0]["posts"] == [karachi, moscow] and not state["pending"]


def test_niccolo_gets_a_camel_every_round() -> None:
    state = build(3, characters=["niccolo", "berke", "carpini"])
    camels = state["players"][0]["camels"]
    state = next_round(state)
    assert state["players"][0]["camels"] == camels + 1  # (a compensation, if any, is still to be chosen)


# ---- Wilhelm von Rubruk -------------------------------------------------------------------------


def test_wilhelm_has_11_posts_and_places_one_in_every_city_he_moves_through() -> None:
    alexandria, adana = CITY["Alexandria"], CITY["Adana"]
    state = build(
        3, characters=["wilhelm", "berke", "carpini"], players={0: {"dice": own(4, 4, 1), "coins": 30, "camels": 5}}
    )
    assert state["players"][0]["posts_left"] == 11
    state["outposts"][str(alexandria)] = "outpost-9"  # 5 coins
    state = place(state, 0, "travel", 4, 4)
    state = play(state, 0, step(alexandria), step(22))
    assert state["players"][0]["posts"] == [] and state["players"][0]["coins"] == 30 - 7  # bonuses after the move
    state = play(state, 0, step(adana), {"a": "stop"})
    assert state["players"][0]["posts"] == [alexandria, adana]
    assert state["players"][0]["coins"] == 30 - 12 + 5 + 3  # outpost bonus and Adana's bonus after the move


def test_wilhelm_scores_10_more_if_all_11_posts_are_placed() -> None:
    state = build(3, characters=["wilhelm", "berke", "carpini"], players={0: {"posts_left": 0, "placed": 11}})
    state = finish(state)
    assert state["result"]["breakdown"][0]["all_posts"] == 10
    state = finish(build(3, characters=["wilhelm", "berke", "carpini"], players={0: {"posts_left": 1}}))
    assert state["result"]["breakdown"][0]["all_posts"] == 0


# ---- Johannes Carpini ---------------------------------------------------------------------------


def test_carpini_may_move_from_an_oasis_to_any_other_oasis_as_one_step() -> None:
    state = build(3, characters=["carpini", "berke", "wilhelm"], players={0: {"dice": own(2, 2, 1), "coins": 20}})
    state = place(state, 0, "travel", 2, 2)
    state = play(state, 0, step(1))
    oases = {m["to"] for m in moves(state, 0) if m["a"] == "step"} & set(D.OASES)
    assert oases == set(D.OASES) - {1}
    state = play(state, 0, step(15))
    assert state["players"][0]["figures"] == [15] and state["players"][0]["coins"] == 20 - 7


def test_carpini_gets_3_coins_every_round() -> None:
    state = build(3, characters=["carpini", "berke", "wilhelm"])
    coins = state["players"][0]["coins"]
    state = next_round(state)
    assert state["players"][0]["coins"] == coins + 3  # (a compensation, if any, is still to be chosen)
