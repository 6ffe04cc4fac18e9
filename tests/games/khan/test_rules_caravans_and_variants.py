"""The Caravans expansion (seed 004, decisions.md D) and the Black Dice variant (rulebook)."""

from __future__ import annotations

from typing import Any

from server.games.khan import data as D
from server.games.khan.engine import GAME

from .helpers import STOP, ZERO, build, finish, kinds, moves, own, place, play, res, step

CARAVANS = {"caravans": True}


def caravan_state(**player: Any) -> dict[str, Any]:
    over = {**ZERO, "pepper": 2, "silk": 1, "gold": 1, "figures": ["karakorum"], "dice": own(3, 5), **player}
    state = build(3, characters=["filippo", "dewu", "abha"], options=CARAVANS, players={0: over})
    if over.get("caravan"):
        state["caravan_routes"].remove(over["caravan"]["route"])
    return state


def test_without_the_option_there_are_no_caravan_routes_and_no_caravan_moves() -> None:
    state = build(3, players={0: {**ZERO, "pepper": 2, "figures": ["karakorum"]}})
    assert state["caravan_routes"] == [] and "caravan" not in kinds(state, 0)


def test_a_caravan_is_claimed_in_a_city_bearing_one_shield_of_a_route_and_starts_at_a_city_of_the_other() -> None:
    state = caravan_state()
    lion_routes = [r for r, t in D.CARAVAN_ROUTES.items() if "lion" in t["shields"]]
    claims = [m for m in moves(state, 0) if m["a"] == "caravan"]
    assert sorted({m["route"] for m in claims}) == sorted(lion_routes)
    route = lion_routes[0]
    other = next(s for s in D.CARAVAN_ROUTES[route]["shields"] if s != "lion")
    starts = sorted(m["start"] for m in claims if m["route"] == route)
    assert starts == sorted(c for c in D.CITIES if D.SHIELD_OF[c] == other)


def test_a_claimed_caravan_carries_one_or_two_goods_from_the_inventory() -> None:
    state = caravan_state()
    claim = next(m for m in moves(state, 0) if m["a"] == "caravan")
    state = play(state, 0, claim)
    assert moves(state, 0) == [{"a": "load", "good": g} for g in ("pepper", "silk", "gold")]
    state = play(state, 0, {"a": "load", "good": "gold"})
    assert STOP in moves(state, 0)
    state = play(state, 0, {"a": "load", "good": "pepper"})
    p = state["players"][0]
    assert p["caravan"] == {"route": claim["route"], "at": claim["start"], "goods": ["gold", "pepper"], "met": False}
    assert (p["pepper"], p["gold"]) == (1, 0)
    assert claim["route"] not in state["caravan_routes"]
    assert "caravan" not in kinds(state, 0)  # one active caravan at a time


def test_no_caravan_can_be_claimed_without_goods_or_away_from_a_matching_shield() -> None:
    assert "caravan" not in kinds(caravan_state(pepper=0, silk=0, gold=0), 0)
    assert "caravan" not in kinds(caravan_state(figures=["o_gobi"]), 0)


def test_each_books_action_moves_the_caravan_up_to_1_2_or_3_locations_without_route_costs() -> None:
    for space, n, d in (("book1", 1, 3), ("book2", 2, 3), ("book3a", 3, 5)):
        state = caravan_state(
            caravan={"route": "route-0", "at": "dunhuang", "goods": ["silk"], "met": False}, dice=own(d)
        )
        state = place(state, 0, space, d)
        state = play(state, 0, {"a": "offer", "i": 0})
        assert state["pending"][0] == {"seat": 0, "kind": "caravan_move", "left": n}
        before = res(state, 0)
        state = play(state, 0, {"a": "haul", "to": "turfan"})
        assert res(state, 0) == before and state["players"][0]["caravan"]["at"] == "turfan"


def test_a_caravan_uses_a_sea_route_only_with_the_matching_seal() -> None:
    seal = next(e["seal"] for e in D.EDGES if {e["a"], e["b"]} == {"fuzhou", "pagan"})
    for seals, ok in (({}, False), ({seal: "basic"}, True)):
        state = caravan_state(
            caravan={"route": "route-0", "at": "fuzhou", "goods": ["silk"], "met": False}, seals=seals
        )
        state = place(state, 0, "book1", 3)
        state = play(state, 0, {"a": "offer", "i": 0})
        assert ({"a": "haul", "to": "pagan"} in moves(state, 0)) == ok


def test_a_caravan_meeting_the_figure_is_delivered_good_by_good_doubled_upgraded_or_sold() -> None:
    state = caravan_state(
        caravan={"route": "route-0", "at": "xian", "goods": ["pepper", "silk"], "met": True}, figures=["xian"]
    )
    assert {"a": "deliver"} in moves(state, 0)
    before = res(state, 0)
    state = play(state, 0, {"a": "deliver"})
    assert moves(state, 0) == [{"a": "cargo", "how": h} for h in ("double", "upgrade", "vp")]
    state = play(state, 0, {"a": "cargo", "how": "upgrade"}, {"a": "cargo", "how": "vp"})
    after = res(state, 0)
    assert after["silk"] == before["silk"] + 1 and after["vp"] == before["vp"] + 4
    assert state["players"][0]["caravan"] is None and "route-0" not in state["caravan_routes"]
    assert "caravan" in kinds(state, 0)  # a new one may be claimed at once


def test_a_caravan_claimed_where_a_figure_already_stands_is_delivered_only_after_one_of_them_moves() -> None:
    # Mailin's figures on Karakorum (lion) and Dunhuang (sun): the lion-sun route may start under her second figure
    state = build(
        3,
        characters=["mailin", "dewu", "abha"],
        options=CARAVANS,
        players={
            0: {
                **ZERO,
                "gold": 2,
                "coins": 10,
                "camels": 5,
                "figures": ["karakorum", "dunhuang"],
                "posts": ["dunhuang"],
            }
        },
    )
    state = play(state, 0, {"a": "caravan", "route": "route-0", "start": "dunhuang"})
    state = play(state, 0, {"a": "load", "good": "gold"}, {"a": "load", "good": "gold"})
    assert state["players"][0]["caravan"]["at"] == "dunhuang"
    assert "deliver" not in kinds(state, 0)  # no 4 gold or 12 VP at once
    state = place(state, 0, "travel1", 3)
    state = play(state, 0, {"a": "step", "fig": 1, "to": "o_mongol"})
    assert "deliver" not in kinds(state, 0)
    state["turn_info"]["main"] = False  # a second movement (as from a contract's move) brings a figure back
    state = place(state, 0, "travel3", 3, 3)
    state = play(state, 0, {"a": "step", "fig": 1, "to": "dunhuang"}, STOP)
    assert state["players"][0]["caravan"]["met"] is True
    assert "deliver" in kinds(state, 0)


def mailin_caravan_under_her_second_figure() -> dict[str, Any]:
    """Mailin's figures on Karakorum (lion) and Dunhuang (sun); the lion-sun caravan claimed at Dunhuang with
    2 gold, under her second figure."""
    state = build(
        3,
        characters=["mailin", "dewu", "abha"],
        options=CARAVANS,
        players={
            0: {
                **ZERO,
                "gold": 2,
                "coins": 10,
                "camels": 5,
                "figures": ["karakorum", "dunhuang"],
                "posts": ["dunhuang"],
            }
        },
    )
    state = play(state, 0, {"a": "caravan", "route": "route-0", "start": "dunhuang"})
    return play(state, 0, {"a": "load", "good": "gold"}, {"a": "load", "good": "gold"})


def test_a_figure_passing_through_the_caravans_city_does_not_meet_it() -> None:
    # seed 004: the caravan completes when it "finaliza su movimiento en el mismo lugar que tu meeple"; passing
    # through is no meeting, even though her second figure stands there
    state = mailin_caravan_under_her_second_figure()
    state = place(state, 0, "travel3", 3, 3)
    state = play(state, 0, step("o_mongol"), step("dunhuang"), step("turfan"))
    assert state["players"][0]["figures"] == ["turfan", "dunhuang"]
    assert state["players"][0]["caravan"]["met"] is False
    assert "deliver" not in kinds(state, 0)


def test_a_figure_ending_its_movement_on_the_caravans_city_meets_it() -> None:
    state = mailin_caravan_under_her_second_figure()
    state = place(state, 0, "travel3", 3, 3)
    state = play(state, 0, step("o_mongol"), step("dunhuang"), STOP)
    assert state["players"][0]["figures"] == ["dunhuang", "dunhuang"]
    assert state["players"][0]["caravan"]["met"] is True
    assert "deliver" in kinds(state, 0)


def test_a_delivered_good_doubles_or_sells_for_2_4_or_6_vp_and_gold_cannot_be_upgraded() -> None:
    state = caravan_state(caravan={"route": "route-0", "at": "karakorum", "goods": ["gold"], "met": True})
    state = play(state, 0, {"a": "deliver"})
    assert moves(state, 0) == [{"a": "cargo", "how": "double"}, {"a": "cargo", "how": "vp"}]
    gold = state["players"][0]["gold"]
    state = play(state, 0, {"a": "cargo", "how": "double"})
    assert state["players"][0]["gold"] == gold + 2


def test_goods_still_on_a_caravan_at_the_end_score_half_1_2_or_3_vp() -> None:
    state = caravan_state(caravan={"route": "route-0", "at": "turfan", "goods": ["gold", "pepper"], "met": False})
    state = finish(state)
    assert state["result"]["breakdown"][0]["caravan"] == 3 + 1


def test_caravans_are_public_on_the_board() -> None:
    state = caravan_state(caravan={"route": "route-0", "at": "turfan", "goods": ["gold"], "met": False})
    view = GAME.view(state, 1)["public"]
    assert view["players"][0]["caravan"] == {"route": "route-0", "at": "turfan", "goods": ["gold"], "met": False}
    assert [r["id"] for r in view["caravan_routes"]] == state["caravan_routes"]
    assert "route-0" not in state["caravan_routes"]


# ---- the Black Dice variant -------------------------------------------------------------------------------


def test_with_the_black_dice_variant_the_black_dice_are_rolled_at_the_round_start() -> None:
    state = GAME.setup(3, {"characters": ["dewu", "abha", "filippo"], "black_dice_variant": True}, 3)
    for s in range(3):
        state = play(state, s, moves(state, s)[0])
    assert len(state["black_pool"]) == 5 and all(1 <= v <= 6 for v in state["black_pool"])


def test_with_the_black_dice_variant_a_taken_black_die_keeps_its_value() -> None:
    state = build(
        3, options={"black_dice_variant": True}, black_pool=[2, 5, 5, 6, 1], players={0: {**ZERO, "camels": 3}}
    )
    assert [m for m in moves(state, 0) if m["a"] == "black"] == [{"a": "black", "value": v} for v in (1, 2, 5, 6)]
    state = play(state, 0, {"a": "black", "value": 5})
    assert ["black", 5] in state["players"][0]["dice"] and sorted(state["black_pool"]) == [1, 2, 5, 6]


def test_with_the_black_dice_variant_a_contract_black_die_is_chosen_from_the_board() -> None:
    cid = "contract-11"
    state = build(
        3,
        options={"black_dice_variant": True},
        black_pool=[3, 4],
        players={0: {**ZERO, "pepper": 2, "gold": 1, "contracts": [cid]}},
    )
    state = play(state, 0, {"a": "fulfil", "contract": cid})
    assert moves(state, 0) == [{"a": "black", "value": 3}, {"a": "black", "value": 4}]


def test_with_the_black_dice_variant_isabella_gets_the_bonus_of_the_value_she_takes() -> None:
    state = build(
        2,
        characters=["isabella", "dewu"],
        options={"black_dice_variant": True},
        black_pool=[2, 6],
        players={0: {**ZERO, "camels": 3}},
    )
    state = play(state, 0, {"a": "black", "value": 2})
    assert state["players"][0]["vp"] == 1
