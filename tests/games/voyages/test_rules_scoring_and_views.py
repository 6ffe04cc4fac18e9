"""Final scoring (every item, the camel tie-break) and hidden information in the views."""

from __future__ import annotations

from server.games.voyages import data as D
from server.games.voyages.engine import GAME

from .helpers import CITY, build, finish, strings

MOSCOW, XIAN, ORMUZ, ANXI, ALEXANDRIA = CITY["Moscow"], CITY["Xian"], CITY["Ormuz"], CITY["Anxi"], CITY["Alexandria"]
ZERO = {"coins": 0, "camels": 0, "pepper": 0, "silk": 0, "gold": 0, "vp": 0, "goals": [], "posts": []}


def scored(**players: dict) -> dict:  # type: ignore[type-arg]
    state = build(3, players={int(k[1:]): {**ZERO, **v} for k, v in players.items()}, beijing=[])
    for s in range(3):
        if f"p{s}" not in players:
            state["players"][s].update(ZERO)
    return finish(state)["result"]  # type: ignore[no-any-return]


def test_victory_points_won_during_the_game_count() -> None:
    assert scored(p0={"vp": 17})["breakdown"][0]["in_game"] == 17


def test_a_goal_card_scores_its_value_only_with_posts_in_both_cities() -> None:
    r = scored(p0={"goals": ["goal-0", "goal-1"], "posts": [MOSCOW, XIAN]})
    assert r["breakdown"][0]["goal_cards"] == 4  # goal-0 Moscow + Xian; goal-1 needs Ormuz too


def test_distinct_goal_cities_reached_score_1_3_6_10() -> None:
    goals = ["goal-0", "goal-12"]  # Moscow, Xian, Alexandria, Anxi
    for posts, vp in (
        ([], 0),
        ([MOSCOW], 1),
        ([MOSCOW, ANXI], 3),
        ([MOSCOW, ANXI, XIAN], 6),
        ([MOSCOW, ANXI, XIAN, ALEXANDRIA], 10),
    ):
        assert scored(p0={"goals": goals, "posts": posts})["breakdown"][0]["goal_cities"] == vp


def test_a_city_on_both_goal_cards_counts_once() -> None:
    r = scored(p0={"goals": ["goal-0", "goal-1"], "posts": [MOSCOW, XIAN, ORMUZ]})  # Moscow on both cards
    assert r["breakdown"][0]["goal_cities"] == 6 and r["breakdown"][0]["goal_cards"] == 9


def test_every_10_coins_score_1_vp() -> None:
    assert scored(p0={"coins": 29})["breakdown"][0]["coins"] == 2


def test_beijing_posts_score_10_7_4_1_in_arrival_order() -> None:
    state = build(4, players={s: {**ZERO, "posts": [D.BEIJING]} for s in range(4)}, beijing=[2, 0, 3, 1])
    r = finish(state)["result"]
    assert [b["beijing"] for b in r["breakdown"]] == [7, 1, 10, 4]


def test_goods_left_score_1_vp_per_2_only_with_a_post_in_beijing() -> None:
    state = build(
        3,
        players={
            0: {**ZERO, "posts": [D.BEIJING], "pepper": 3, "silk": 2, "gold": 2, "camels": 9},
            1: {**ZERO, "pepper": 5, "gold": 5},
            2: dict(ZERO),
        },
        beijing=[0],
    )
    r = finish(state)["result"]
    assert r["breakdown"][0]["goods"] == 3 and r["breakdown"][1]["goods"] == 0


def test_the_most_completed_contracts_score_7_for_every_player_tied_at_the_top() -> None:
    r = scored(
        p0={"completed": ["contract-0", "contract-1"]},
        p1={"completed": ["contract-2", "contract-3"]},
        p2={"completed": ["contract-4"]},
    )
    assert [b["most_contracts"] for b in r["breakdown"]] == [7, 7, 0]


def test_nobody_scores_the_7_when_no_contract_was_completed() -> None:
    r = scored(p0={}, p1={}, p2={})
    assert [b["most_contracts"] for b in r["breakdown"]] == [0, 0, 0]


def test_the_highest_score_wins_and_a_tie_goes_to_the_most_camels() -> None:
    r = scored(p0={"vp": 20, "camels": 1}, p1={"vp": 20, "camels": 4}, p2={"vp": 30})
    assert r["winners"] == [2]
    r = scored(p0={"vp": 20, "camels": 1}, p1={"vp": 20, "camels": 4}, p2={"vp": 3})
    assert r["winners"] == [1] and r["ranking"][:2] == [1, 0] and r["tiebreak"][:2] == [1, 4]


def test_players_still_tied_on_camels_share_the_win() -> None:
    r = scored(p0={"vp": 20, "camels": 4}, p1={"vp": 20, "camels": 4}, p2={"vp": 3})
    assert r["winners"] == [0, 1]


def test_the_score_is_the_sum_of_all_items() -> None:
    r = scored(p0={"vp": 5, "coins": 30, "goals": ["goal-0"], "posts": [MOSCOW, XIAN]})
    b = r["breakdown"][0]
    assert r["scores"][0] == b["total"] == 5 + 3 + 4 + 3


# ---- hidden information ---------------------------------------------------------------------------


def test_goal_cards_are_private_until_the_final_scoring() -> None:
    state = GAME.setup(3, None, 4)
    mine = state["players"][0]["goals"]
    assert {g["id"] for g in GAME.view(state, 0)["private"]["goals"]} == set(mine)
    for viewer in (1, 2, None):
        assert not set(mine) & strings(GAME.view(state, viewer))
    assert GAME.view(state, 1)["public"]["players"][0]["goal_cards"] == 2
    state = finish(state)
    assert {g["id"] for g in GAME.view(state, None)["public"]["players"][0]["goals"]} == set(mine)


def test_discarded_expert_goal_cards_stay_private_even_after_the_game() -> None:
    state = GAME.setup(2, {"goal_draft": True}, 4)
    offer = state["players"][0]["goal_offer"]
    state = GAME.apply(state, 0, {"a": "goals", "keep": offer[:2]})
    state = GAME.apply(state, 1, GAME.legal_moves(state, 1)[0])
    state = finish(state)
    assert not set(offer[2:]) & strings(GAME.view(state, 1))
    assert {g["id"] for g in GAME.view(state, 0)["private"]["goals_discarded"]} == set(offer[2:])


def test_contract_piles_the_special_pile_and_boxed_components_are_never_sent() -> None:
    state = GAME.setup(4, {"expert": True}, 8)
    hidden = set(GAME.hidden_tokens(state))
    assert len(hidden) == 24 + 8 + 2 + 22 + 3 + 2  # piles, special, starters, city cards, outposts, goal deck
    for viewer in (0, 1, 2, 3, None):
        assert not hidden & strings(GAME.view(state, viewer))
    assert GAME.view(state, None)["public"]["piles"] == [6, 6, 6, 6]


def test_completed_contracts_are_public_as_a_count_only() -> None:
    state = build(3)
    done = state["piles"][-1][:2]
    del state["piles"][-1][:2]
    state["players"][0]["completed"] = list(done)
    public = GAME.view(state, 1)["public"]["players"][0]
    assert public["completed"] == 2
    assert not set(done) & strings(GAME.view(state, 1))


def test_the_public_view_is_the_same_for_every_viewer() -> None:
    state = GAME.setup(3, {"expert": True}, 2)
    publics = {str(GAME.view(state, v)["public"]) for v in (0, 1, 2, None)}
    assert len(publics) == 1
