"""The 7 characters of the rulebook supplement, each ability and its examples."""

from __future__ import annotations

from typing import Any

from server.games.khan import data as D
from server.games.khan.engine import GAME, ISABELLA_PAIR, ISABELLA_ROLL

from .helpers import END, STOP, ZERO, build, delta, kinds, moves, next_round, own, place, play, res, spaces, step

RICH: dict[str, Any] = {**ZERO, "coins": 40, "camels": 20, "jade": 5}


# ---- Möngke Khan ---------------------------------------------------------------------------------------


def test_mongke_passes_oases_without_spending_movement_and_may_stop_on_one() -> None:
    state = build(3, characters=["mongke", "dewu", "abha"], players={0: {**RICH, "dice": own(2), "figures": ["xian"]}})
    state["outposts"] = {c: None for c in state["outposts"]}
    state = place(state, 0, "travel1", 2)
    state = play(state, 0, step("o_qinling"))
    assert STOP in moves(state, 0) and {"a": "step", "fig": 0, "to": "fuzhou"} in moves(state, 0)
    state = play(state, 0, step("fuzhou"))
    assert not [m for m in moves(state, 0) if m.get("to") in D.CITIES]  # the one location is used up
    assert {"a": "step", "fig": 0, "to": "o_yunnan"} in moves(state, 0)


def test_mongke_scores_3_vp_and_2_coins_or_1_camel_per_different_oasis_of_a_movement_as_in_the_example() -> None:
    state = build(
        3, characters=["mongke", "dewu", "abha"], players={0: {**RICH, "dice": own(2, 2), "figures": ["xian"]}}
    )
    state["outposts"] = {c: None for c in state["outposts"]}
    state["markers"] = {c: "marker-4" for c in state["markers"]}
    before = res(state, 0)
    state = place(state, 0, "travel3", 2, 2)
    state = play(state, 0, step("o_qinling"), step("fuzhou"), step("o_yunnan"), step("jaipur"), STOP)
    assert moves(state, 0) == [{"a": "oases", "coins": k} for k in range(3)]
    state = play(state, 0, {"a": "oases", "coins": 1})
    marker = D.MARKERS["marker-4"]["reward"] if "fuzhou" in state["players"][0]["posts"] else {}
    assert delta(before, res(state, 0)) == {"coins": -8 + 2, "camels": -4 + 1, "vp": 6, **marker}
    assert state["players"][0]["posts"] == ["jaipur"]


def test_mongke_gets_each_oasis_once_per_movement() -> None:
    state = build(3, characters=["mongke", "dewu", "abha"], players={0: {**RICH, "dice": own(2, 2)}})
    state = place(state, 0, "travel3", 2, 2)
    state = play(state, 0, step("o_gobi"), step("beijing"), step("o_gobi"), step("xian"), STOP)
    assert state["pending"][0] == {"seat": 0, "kind": "mongke", "n": 1}
    assert state["players"][0]["vp"] == 3


# ---- De Wu -------------------------------------------------------------------------------------------


def test_de_wu_takes_a_guild_seal_with_one_die_as_in_the_example() -> None:
    state = build(3, characters=["dewu", "abha", "filippo"], players={0: {**RICH, "dice": own(3)}})
    state["spaces"]["seals"] = [{"seat": 1, "dice": own(5, 5)}]
    state = place(state, 0, "seals", 3)
    assert state["players"][0]["coins"] == 37
    assert moves(state, 0) == [{"a": "seal", "seal": t} for t in ("farmer", "spicer", "tailor")]
    state = play(state, 0, {"a": "seal", "seal": "tailor"})
    assert state["players"][0]["jade"] == 5 + 2


def test_de_wu_gets_1_jade_more_whenever_he_improves_a_seal() -> None:
    state = build(3, characters=["dewu", "abha", "filippo"], players={0: {**ZERO, "pepper": 2, "silk": 1}})
    state["players"][0]["seals"] = {"spicer": "basic"}
    state = play(state, 0, {"a": "improve", "seal": "spicer"})
    assert res(state, 0) == {**ZERO, **D.SEAL["spicer"]["bonus"], "jade": 1}


# ---- Abha Basu ---------------------------------------------------------------------------------------


def test_abha_receives_2_coins_at_every_round_start() -> None:
    state = build(3, characters=["abha", "dewu", "filippo"], players={0: {**ZERO}})
    state = next_round(state)
    comp = sum(it["amount"] for it in state["pending"] if it["seat"] == 0 and it["kind"] == "comp")
    assert state["players"][0]["coins"] == 2 and comp >= 0


def test_abha_receives_1_jade_per_completed_contract_and_1_vp_per_jade_received() -> None:
    cid = "contract-0"
    state = build(
        3, characters=["abha", "dewu", "filippo"], players={0: {**ZERO, "pepper": 2, "silk": 1, "contracts": [cid]}}
    )
    state = play(state, 0, {"a": "fulfil", "contract": cid})
    reward = D.CONTRACTS[cid]["reward"]
    assert res(state, 0) == {**ZERO, **reward, "jade": 1, "vp": reward["vp"] + 1}
    state = play(state, 0, {"a": "bag", "kind": "own", "value": 3, "take": "jade"})
    assert state["players"][0]["jade"] == 2 and state["players"][0]["vp"] == reward["vp"] + 2


# ---- Mailin and Tian Chin -----------------------------------------------------------------------------


def test_mailin_may_split_a_movement_between_her_two_figures_and_each_posts_where_it_ends() -> None:
    state = build(
        3,
        characters=["mailin", "dewu", "abha"],
        players={0: {**RICH, "dice": own(2, 2), "figures": ["beijing", "beijing"]}},
    )
    state["outposts"] = {c: None for c in state["outposts"]}
    state["contract_spaces"] = {c: [None, None] for c in D.CONTRACT_CITIES}
    state = place(state, 0, "travel3", 2, 2)
    assert {"a": "step", "fig": 1, "to": "karakorum"} in moves(state, 0)
    state = play(state, 0, step("karakorum", 1), step("o_gobi", 0))
    assert state["players"][0]["figures"] == ["o_gobi", "karakorum"]
    assert state["players"][0]["posts"] == ["karakorum"]


def test_mailin_places_only_one_post_when_a_card_or_reward_moves_her_figures_and_chooses_its_city() -> None:
    state = build(
        3,
        characters=["mailin", "dewu", "abha"],
        players={0: {**RICH, "dice": own(6), "figures": ["beijing", "beijing"]}},
    )
    state["outposts"] = {c: None for c in state["outposts"]}
    state["contract_spaces"] = {c: [None, None] for c in D.CONTRACT_CITIES}
    state["area"] = ["city-card-21", state["area"][1]]
    state = place(state, 0, "slot-6", 6)
    state = play(state, 0, step("karakorum", 1), step("o_gobi", 0), step("xian", 0))
    assert state["players"][0]["figures"] == ["xian", "karakorum"]
    assert moves(state, 0) == [{"a": "post", "city": "xian"}, {"a": "post", "city": "karakorum"}]
    assert GAME.prompt(state, 0)["text"].startswith("This move places one trading post")
    chosen = play(state, 0, {"a": "post", "city": "karakorum"})
    assert chosen["players"][0]["posts"] == ["karakorum"]  # the second figure's city, not the first's
    assert play(state, 0, {"a": "post", "city": "xian"})["players"][0]["posts"] == ["xian"]


def test_mailin_chooses_one_round_bonus_to_receive_twice() -> None:
    state = build(3, characters=["mailin", "dewu", "abha"], players={0: {**ZERO, "posts": ["kashgar", "hormuz"]}})
    state["markers"]["kashgar"] = "marker-3"
    state = next_round(state)
    assert state["pending"][0] == {"seat": 0, "kind": "mailin", "sources": ["marker:kashgar", "special:hormuz"]}
    gold = state["players"][0]["gold"]
    state = play(state, 0, {"a": "double", "source": "marker:kashgar"})
    assert state["players"][0]["gold"] == gold + D.MARKERS["marker-3"]["reward"]["gold"]


# ---- Filippo Vitello -----------------------------------------------------------------------------------


def test_filippo_keeps_an_outpost_tile_after_another_player_receives_its_bonus() -> None:
    state = build(
        3, characters=["dewu", "filippo", "abha"], players={0: {**RICH, "dice": own(1), "figures": ["o_gobi"]}}
    )
    state["outposts"]["xian"] = "outpost-0"
    state = place(state, 0, "travel1", 1)
    state = play(state, 0, step("xian"))
    assert state["players"][0]["gold"] == 2
    assert state["players"][1]["tiles"] == ["outpost-0"]


def test_filippo_keeps_his_own_outpost_tiles_and_uses_one_as_a_bonus_action() -> None:
    state = build(
        3, characters=["filippo", "dewu", "abha"], players={0: {**RICH, "dice": own(1, 2), "figures": ["o_gobi"]}}
    )
    state["outposts"]["xian"] = "outpost-0"
    state = place(state, 0, "travel1", 1)
    state = play(state, 0, step("xian"))
    assert state["players"][0]["gold"] == 2 and state["players"][0]["tiles"] == ["outpost-0"]
    assert {"a": "tile", "tile": "outpost-0"} in moves(state, 0)
    state = play(state, 0, {"a": "tile", "tile": "outpost-0"})
    assert state["players"][0]["gold"] == 4 and state["players"][0]["tiles"] == []


def test_without_filippo_a_taken_outpost_tile_leaves_the_game() -> None:
    state = build(
        3, characters=["dewu", "abha", "mongke"], players={0: {**RICH, "dice": own(1), "figures": ["o_gobi"]}}
    )
    state["outposts"]["xian"] = "outpost-0"
    state = place(state, 0, "travel1", 1)
    state = play(state, 0, step("xian"))
    assert all(p["tiles"] == [] for p in state["players"]) and state["outposts"]["xian"] is None


# ---- Isabella Donati -----------------------------------------------------------------------------------


def test_isabellas_ability_text_in_every_view_says_what_the_engine_pays_for_each_die() -> None:
    def words(reward: dict[str, int]) -> str:
        ((k, n),) = reward.items()
        unit = {"coins": "coin", "camels": "camel", "vp": "VP"}.get(k, k)
        return f"{n} {unit if n == 1 or k == 'vp' else unit + 's'}"

    state = build(3, characters=["isabella", "dewu", "abha"])
    for viewer in (None, 0, 1, 2):
        text = GAME.view(state, viewer)["public"]["board"]["characters"]["isabella"]["ability"]
        for a, b in ((1, 6), (2, 5), (3, 4)):
            assert ISABELLA_ROLL[a] == ISABELLA_ROLL[b] and ISABELLA_PAIR[a] == ISABELLA_PAIR[b]
            assert f"{a} or {b} = {words(ISABELLA_ROLL[a])}" in text
            assert f"{words(ISABELLA_PAIR[a])} ({a}s, {b}s)" in text


def _rolled(state: dict[str, Any]) -> list[int]:
    return [v for _, v in state["players"][0]["dice"]]


def test_isabella_gets_a_bonus_for_every_die_rolled_at_the_round_start() -> None:
    for seed in range(30):
        state = build(2, characters=["isabella", "dewu"], seed=seed, players={0: {**ZERO}})
        state = next_round(state)
        values = _rolled(state)
        item = next((it for it in state["pending"] if it["seat"] == 0 and it["kind"] == "isabella"), None)
        if item is not None:
            state = play(state, 0, {"a": "singles"})
        comp = next((it for it in state["pending"] if it["seat"] == 0 and it["kind"] == "comp"), None)
        if comp is not None:
            state = play(state, 0, {"a": "comp", "coins": 0})
            values_comp = comp["amount"]
        else:
            values_comp = 0
        expected = {**ZERO}
        for v in values:
            for k, n in {
                1: {"coins": 1},
                6: {"coins": 1},
                2: {"vp": 1},
                5: {"vp": 1},
                3: {"camels": 1},
                4: {"camels": 1},
            }[v].items():
                expected[k] += n
        expected["camels"] += values_comp
        assert res(state, 0) == expected


def test_isabella_may_take_a_doubles_bonus_for_a_pair_instead_of_its_two_single_bonuses() -> None:
    for seed in range(60):
        state = build(2, characters=["isabella", "dewu"], seed=seed, players={0: {**ZERO}})
        state = next_round(state)
        values = _rolled(state)
        pairs = sorted({v for v in values if values.count(v) >= 2 and v in (3, 4)})
        if not pairs:
            continue
        v = pairs[0]
        assert {"a": "pair", "value": v} in moves(state, 0)
        state = play(state, 0, {"a": "pair", "value": v})
        if state["pending"] and state["pending"][0]["kind"] == "isabella" and state["pending"][0]["seat"] == 0:
            state = play(state, 0, {"a": "singles"})
        comp = 0
        if state["pending"] and state["pending"][0]["kind"] == "comp" and state["pending"][0]["seat"] == 0:
            comp = state["pending"][0]["amount"]
            state = play(state, 0, {"a": "comp", "coins": comp})
        rest = list(values)
        rest.remove(v)
        rest.remove(v)
        p = state["players"][0]
        assert p["gold"] == 1
        assert p["camels"] == sum(1 for x in rest if x in (3, 4))
        return
    raise AssertionError("no seed rolled a pair of 3s or 4s")


def test_isabella_gets_the_bonus_of_a_rerolled_die_and_of_a_black_die() -> None:
    state = build(2, characters=["isabella", "dewu"], players={0: {**ZERO, "camels": 4, "dice": own(3)}})
    state = play(state, 0, {"a": "black"})
    black = state["players"][0]["dice"][-1][1]
    gained = {1: "coins", 6: "coins", 2: "vp", 5: "vp", 3: "camels", 4: "camels"}[black]
    assert res(state, 0)[gained] == (1 if gained != "camels" else 2)
    before = res(state, 0)
    state = play(state, 0, {"a": "reroll", "kind": "own", "value": 3})
    new = state["players"][0]["dice"][0][1]
    got = {1: "coins", 6: "coins", 2: "vp", 5: "vp", 3: "camels", 4: "camels"}[new]
    after = res(state, 0)
    assert after[got] - before[got] == (1 if got != "camels" else 0)


# ---- Gantulga Od ---------------------------------------------------------------------------------------


def test_gantulga_may_use_only_the_lower_travel_space() -> None:
    state = build(3, characters=["gantulga", "dewu", "abha"], players={0: {**RICH, "dice": own(6, 6, 6)}})
    assert "travel1" in spaces(state, 0)
    assert "travel3" not in spaces(state, 0) and "travel6" not in spaces(state, 0)


def test_gantulga_pays_no_coins_or_camels_for_routes_but_jade_as_in_the_example() -> None:
    state = build(
        3,
        characters=["gantulga", "dewu", "abha"],
        players={0: {**ZERO, "coins": 2, "jade": 1, "dice": own(1), "figures": ["pagan"]}},
    )
    state["outposts"]["kabul"] = None
    state = place(state, 0, "travel1", 1)
    state = play(state, 0, step("kabul"))
    assert res(state, 0) == {**ZERO}
    assert state["players"][0]["posts"] == ["kabul"]


def test_gantulga_pays_no_route_costs_on_moves_from_other_effects_either() -> None:
    state = build(
        3,
        characters=["gantulga", "dewu", "abha"],
        players={0: {**ZERO, "pepper": 1, "silk": 1, "camels": 1, "contracts": ["contract-9"]}},
    )
    assert D.CONTRACTS["contract-9"]["reward"]["move"] == 2
    state = play(state, 0, {"a": "fulfil", "contract": "contract-9"})
    assert state["pending"][0]["kind"] == "travel"
    state = play(state, 0, step("o_gobi"), step("xian"))
    assert state["players"][0]["coins"] == D.CONTRACTS["contract-9"]["reward"].get("coins", 0)


def test_every_character_is_known_and_can_be_dealt() -> None:
    assert sorted(D.CHARACTERS) == sorted(["mongke", "dewu", "abha", "mailin", "filippo", "isabella", "gantulga"])
    for c in D.CHARACTERS:
        state = GAME.setup(2, {"characters": [c, "dewu" if c != "dewu" else "abha"]}, 1)
        assert state["players"][0]["character"] == c
        assert kinds(state, 0) == ["goal"]
    assert END
