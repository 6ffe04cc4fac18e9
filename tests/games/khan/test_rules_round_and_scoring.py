"""The round (start bonuses, new offers, the end after 5 rounds), final scoring, ties, and what each view shows."""

from __future__ import annotations

from typing import Any

from server.games.khan import data as D
from server.games.khan.engine import GAME

from .helpers import ZERO, build, finish, next_round, own, strings, through_start

BLANK: dict[str, Any] = {**ZERO, "posts": [], "completed": [], "seals": {}, "goals": [], "caravan": None}


def scored(seats: int = 3, characters: list[str] | None = None, **players: dict[str, Any]) -> dict[str, Any]:
    chars = characters or ["filippo", "mailin", "abha", "mongke"][:seats]
    over = {s: dict(BLANK) for s in range(seats)}
    for k, v in players.items():
        over[int(k[1:])].update(v)
    state = build(seats, characters=chars, players=over)
    return finish(state)["result"]  # type: ignore[no-any-return]


# ---- the round -------------------------------------------------------------------------------------------


def test_improved_seals_pay_their_bonus_at_every_round_start_and_basic_ones_nothing() -> None:
    state = build(3, players={0: {**ZERO, "seals": {"tailor": "improved", "farmer": "basic"}}})
    state = next_round(state)
    p = state["players"][0]
    for k, n in D.SEAL["tailor"]["bonus"].items():
        if k not in ("coins", "camels"):
            assert p[k] == n


def test_the_offer_tiles_are_replaced_by_the_next_of_each_pile_and_the_next_ones_are_visible() -> None:
    state = build(3)
    nxt = [p[0] for p in state["offer_piles"]]
    view = GAME.view(state, None)["public"]
    assert [t["id"] for t in view["next_offers"]] == nxt
    state = next_round(state)
    assert state["offers"] == nxt and [len(p) for p in state["offer_piles"]] == [3, 3, 3]


def test_the_game_ends_after_five_rounds_when_the_offer_piles_are_used_up() -> None:
    state = build(3)
    for r in range(2, 6):
        state = through_start(next_round(state))
        assert state["round"] == r
    assert [len(p) for p in state["offer_piles"]] == [0, 0, 0]
    state = next_round(state)
    assert GAME.result(state) is not None and GAME.active_seats(state) == []


def test_black_dice_return_to_the_board_at_the_end_of_the_round() -> None:
    state = build(4, players={0: {**ZERO, "camels": 3}})
    state = GAME.apply(state, 0, {"a": "black"})
    assert len(state["black_pool"]) == 5
    state = next_round(state)
    assert len(state["black_pool"]) == 6 and all(k == "own" for p in state["players"] for k, _ in p["dice"])


# ---- final scoring ----------------------------------------------------------------------------------------


def test_improved_seals_shown_on_ones_goal_card_score_their_vp_and_basic_ones_nothing() -> None:
    goal = "goal-0"  # farmer 4, spicer 5, lion, tower
    r = scored(p0={"goals": [goal], "seals": {"farmer": "improved", "spicer": "basic", "jeweler": "improved"}})
    assert r["breakdown"][0]["goal_seals"] == next(i["vp"] for i in D.GOALS[goal]["icons"] if i.get("seal") == "farmer")


def test_different_shields_of_cities_with_ones_posts_score_on_the_shield_track() -> None:
    posts = ["karakorum", "balkh", "xian", "fuzhou"]  # lion, lion, dragon, wave: 3 different
    r = scored(p0={"posts": posts})
    assert r["breakdown"][0]["shield_count"] == 3
    assert r["breakdown"][0]["shields"] == D.SHIELD_TRACK[3]


def test_each_shield_of_ones_goal_card_reached_adds_one_shield() -> None:
    r = scored(p0={"posts": ["karakorum", "tabriz", "xian"], "goals": ["goal-0"]})  # lion and tower on the card
    assert r["breakdown"][0]["shield_count"] == 3 + 2


def test_de_wu_scores_one_free_shield() -> None:
    r = scored(characters=["dewu", "abha", "mongke"], p0={"posts": ["karakorum"]})
    assert r["breakdown"][0]["shield_count"] == 2


def test_the_shield_track_pays_at_most_43_vp_from_13_shields_on() -> None:
    cities = [c for c in D.CITIES]
    r = scored(characters=["dewu", "abha", "mongke"], p0={"posts": cities, "goals": ["goal-13"]})
    assert r["breakdown"][0]["shield_count"] >= 13 and r["breakdown"][0]["shields"] == 43
    assert D.SHIELD_TRACK[13] == 43


def test_every_two_goods_including_jade_score_1_vp_and_camels_are_no_goods() -> None:
    r = scored(p0={"pepper": 1, "silk": 1, "gold": 1, "jade": 2, "camels": 9})
    assert r["breakdown"][0]["goods"] == 2


def test_every_10_coins_score_1_vp() -> None:
    assert scored(p0={"coins": 29})["breakdown"][0]["coins"] == 2


def test_most_completed_contracts_score_8_and_second_most_4() -> None:
    r = scored(4, p0={"completed": ["c"] * 5}, p1={"completed": ["c"] * 3}, p2={"completed": ["c"] * 3})
    assert [b["contracts"] for b in r["breakdown"]] == [8, 4, 4, 0]


def test_a_tie_for_most_contracts_gives_8_to_each_and_no_second_place() -> None:
    r = scored(4, p0={"completed": ["c"] * 4}, p1={"completed": ["c"] * 4}, p2={"completed": ["c"] * 2})
    assert [b["contracts"] for b in r["breakdown"]] == [8, 8, 0, 0]


def test_with_two_players_there_is_no_second_place_for_contracts() -> None:
    r = scored(2, p0={"completed": ["c"] * 4}, p1={"completed": ["c"] * 2})
    assert [b["contracts"] for b in r["breakdown"]] == [8, 0]


def test_no_completed_contract_scores_nothing_for_contracts() -> None:
    r = scored(3, p0={"completed": ["c"]})
    assert [b["contracts"] for b in r["breakdown"]] == [8, 0, 0]
    r = scored(3)
    assert [b["contracts"] for b in r["breakdown"]] == [0, 0, 0]


def test_victory_points_won_during_the_game_count_and_may_be_negative() -> None:
    r = scored(p0={"vp": 17}, p1={"vp": -3})
    assert r["breakdown"][0]["in_game"] == 17 and r["scores"][1] == -3


def test_a_tie_goes_to_most_camels_and_then_is_shared() -> None:
    r = scored(p0={"vp": 10, "camels": 2}, p1={"vp": 10, "camels": 5}, p2={"vp": 3})
    assert r["winners"] == [1] and r["tiebreak"] == [2, 5, 0]
    r = scored(p0={"vp": 10, "camels": 5}, p1={"vp": 10, "camels": 5})
    assert r["winners"] == [0, 1]


# ---- hidden information ---------------------------------------------------------------------------------


def test_goal_cards_are_seen_only_by_their_owner_until_the_final_scoring() -> None:
    state = GAME.setup(3, {"characters": ["dewu", "abha", "filippo"]}, 2)
    offer = list(state["players"][0]["goal_offer"])
    assert {g["id"] for g in GAME.view(state, 0)["private"]["goal_offer"]} == set(offer)
    for viewer in (1, 2, None):
        assert not strings(GAME.view(state, viewer)) & set(offer)
    state = GAME.apply(state, 0, {"a": "goal", "keep": offer[0]})
    assert [g["id"] for g in GAME.view(state, 0)["private"]["goals"]] == [offer[0]]
    assert not strings(GAME.view(state, 1)) & set(offer)
    assert GAME.view(state, 1)["public"]["players"][0]["goal_cards"] == 1


def test_kept_goal_cards_are_public_after_the_final_scoring_and_rejected_ones_never() -> None:
    state = build(3)
    kept = state["players"][0]["goals"][0]
    rejected = state["players"][0]["goals_rejected"]
    state = finish(state)
    public = GAME.view(state, 1)["public"]["players"][0]
    assert [g["id"] for g in public["goals"]] == [kept]
    assert not strings(GAME.view(state, 1)) & set(rejected)


def test_face_down_piles_and_boxed_components_are_never_in_a_view() -> None:
    state = build(4)
    hidden = set(GAME.hidden_tokens(state))
    assert set(state["pile"]) <= hidden and set(state["deck"]) <= hidden
    assert set(state["boxed"]["markers"]) <= hidden and set(state["boxed"]["offers"]) <= hidden
    assert {t for p in state["offer_piles"] for t in p[1:]} <= hidden
    for viewer in (0, 1, None):
        assert not strings(GAME.view(state, viewer)) & hidden


def test_completed_contracts_show_as_a_count_and_dice_and_resources_are_public() -> None:
    state = build(3, players={0: {"completed": ["contract-5", "contract-7"], "dice": own(2, 6)}})
    pub = GAME.view(state, None)["public"]["players"][0]
    assert pub["completed"] == 2 and pub["dice"] == own(2, 6)
    assert "contract-5" not in strings(GAME.view(state, 1)["public"]["players"][0])


def test_a_contract_discarded_under_the_pile_is_no_longer_hidden() -> None:
    state = build(3)
    cid = state["pile"][0]
    assert cid in GAME.hidden_tokens(state)
    state["seen"].append(cid)
    assert cid not in GAME.hidden_tokens(state)


def test_a_later_round_opens_with_the_new_first_player_and_turns_go_clockwise_from_there() -> None:
    state = build(3, next_first=2)
    state = through_start(next_round(state))
    assert state["round"] == 2 and state["first"] == 2
    assert GAME.active_seats(state) == [2]
    assert GAME.view(state, None)["public"]["first"] == 2
    state["players"][2]["dice"] = own(3)
    state = GAME.apply(state, 2, {"a": "bag", "kind": "own", "value": 3, "take": "coins"})
    if GAME.active_seats(state) == [2]:  # it may still buy a black die: it ends its turn itself
        state = GAME.apply(state, 2, {"a": "end"})
    assert GAME.active_seats(state) == [0]  # clockwise after seat 2


def test_the_round_start_returns_dice_lays_new_offers_and_cards_pays_bonuses_then_rolls_in_turn_order() -> None:
    state = build(
        3,
        characters=["mailin", "dewu", "abha"],
        next_first=1,
        players={0: {**ZERO, "posts": ["kashgar"]}},
    )
    offers = [p[0] for p in state["offer_piles"]]
    area = state["deck"][:2]
    state = next_round(state)
    assert state["phase"] == "start" and state["round"] == 2
    assert state["offers"] == offers and state["area"] == area  # (2) new offer tiles, (4) new action-area cards
    assert len(state["black_pool"]) == 5  # (1) black dice back on the board
    events = [e["ev"] for e in state["log"]]
    rolls = [e["seat"] for e in state["log"] if e["ev"] == "roll"]
    assert events.index("round") < events.index("roll") and rolls == [1, 2, 0]  # (5) rolls from the first player
    mine = [it["kind"] for it in state["pending"] if it["seat"] == 0]
    assert mine[0] == "mailin"  # (3) the bonuses (here Kashgar's, which Mailin may double) come before the roll
    assert all(k in ("mailin", "comp", "marker") for k in mine)
    p = state["players"][0]
    assert len(p["dice"]) == 5
