"""Seed 001 "Taistelu merirosvoja & ryöväreitä vastaan" and decisions.md B: fights, ransom, loot, protection."""

from __future__ import annotations

from typing import Any

from server.games.base import State
from server.games.classic.data import EMPTY_LOOT, RANSOM_MONEY
from server.games.classic.engine import GAME

from .helpers import DECLINE, FIGHT, PAY_MONEY, build, events, play, ransom, rig, rig_fight, spin


def robbers(dice: tuple[int, int], **kw: Any) -> State:
    """Seat 0 on Kashan (land) spins the robbers' sector; the fight rolls `dice` (player, robbers)."""
    kw.setdefault("pawns", ["kashan", "venice", "venice"])
    state = build(3, **kw)
    return play(rig(state, "robbers", route="land", dice=dice), 0, spin("land"))


def test_land_spins_fight_robbers_and_sea_spins_fight_pirates() -> None:
    state = robbers((6, 1))
    assert events(state, "fight")[-1]["space"] == "robbers"
    state = build(3, pawns=["candia", "venice", "venice"], routes=["sea", None, None])
    state = play(rig(state, "pirates", route="sea", dice=(6, 1)), 0, spin("sea"))
    assert events(state, "fight")[-1]["space"] == "pirates"


def test_the_robbers_win_only_when_their_small_die_is_strictly_higher() -> None:
    tie = robbers((3, 3))
    assert events(tie, "fight")[-1]["player"] == 3 and tie["phase"] == "spin"  # a tie is the player's win
    assert tie["money"][0] == 240 + EMPTY_LOOT
    lost = robbers((3, 4))
    assert lost["phase"] == "ransom" and lost["turn"] == 0


def test_a_lost_fight_costs_50_bezants_or_one_goods_card_of_the_losers_choice() -> None:
    state = robbers((1, 2), hands=[["violet-80-1", "violet-80-2", "green-30-1"], [], []])
    # one option per card type: the two violet 80s are one choice
    assert GAME.legal_moves(state, 0) == [PAY_MONEY, ransom("green-30-1"), ransom("violet-80-1")]
    paid = play(state, 0, PAY_MONEY)
    assert paid["money"][0] == 240 - RANSOM_MONEY and paid["turn"] == 1
    paid = play(state, 0, ransom("green-30-1"))
    assert paid["money"][0] == 240 and paid["hands"][0] == ["violet-80-1", "violet-80-2"]


def test_the_ransom_goes_onto_the_ransom_space_of_the_wheel_and_is_public() -> None:
    state = robbers((1, 2), hands=[["green-30-1"], [], []])
    state = play(state, 0, ransom("green-30-1"))
    public = GAME.view(state, 2)["public"]
    assert public["ransom"]["robbers"] == {"money": 0, "cards": ["green-30-1"]}
    assert public["ransom"]["pirates"] == {"money": 0, "cards": []}
    state = build(3, pawns=["candia", "venice", "venice"], routes=["sea", None, None])
    state = play(rig(state, "pirates", route="sea", dice=(2, 5)), 0, spin("sea"), PAY_MONEY)
    assert state["ransom"]["pirates"] == {"money": RANSOM_MONEY, "cards": []}


def test_a_loser_with_less_than_50_bezants_pays_with_a_card() -> None:
    state = robbers((1, 6), money=[40, 240, 240], hands=[["yellow-50-1"], [], []])
    assert GAME.legal_moves(state, 0) == [ransom("yellow-50-1")]


def test_a_loser_with_neither_50_bezants_nor_a_card_pays_all_his_money() -> None:
    state = robbers((1, 6), money=[40, 240, 240])
    assert state["money"][0] == 0 and state["ransom"]["robbers"]["money"] == 40
    assert state["turn"] == 1


def test_the_winner_takes_everything_on_the_ransom_space() -> None:
    loot = {"robbers": {"money": 100, "cards": ["green-30-1"]}, "pirates": {"money": 50, "cards": []}}
    state = robbers((4, 4), ransom=loot, hands=[[], [], []])
    assert state["money"][0] == 340 and state["hands"][0] == ["green-30-1"]
    assert state["ransom"]["robbers"] == {"money": 0, "cards": []}
    assert state["ransom"]["pirates"] == {"money": 50, "cards": []}  # the other space is untouched


def test_the_winner_takes_30_from_the_bank_when_the_ransom_space_is_empty() -> None:
    state = robbers((6, 2))
    assert state["money"][0] == 240 + 30
    assert events(state, "fight")[-1]["loot"] == {"money": 30, "cards": [], "bank": True}


def test_the_golden_table_lets_its_holder_decline_the_fight() -> None:
    state = build(3, pawns=["taiyuan", "venice", "venice"], missions={0: "lhasa"})
    state = play(rig(state, "robbers", route="land"), 0, spin("land"))
    assert state["phase"] == "fight" and GAME.legal_moves(state, 0) == [FIGHT, DECLINE]
    state = play(state, 0, DECLINE)
    assert state["money"][0] == 240 and state["turn"] == 1 and state["pawns"][0] == "taiyuan"


def test_a_protected_player_loses_nothing_and_may_fight_again_until_winning() -> None:
    state = build(3, pawns=["taiyuan", "venice", "venice"], missions={0: "lhasa"}, hands=[["green-30-1"], [], []])
    state = play(rig(state, "robbers", route="land"), 0, spin("land"))
    state = play(rig_fight(state, (1, 6)), 0, FIGHT)
    assert state["phase"] == "fight" and state["money"][0] == 240 and state["hands"][0] == ["green-30-1"]
    state = play(rig_fight(state, (2, 5)), 0, FIGHT)
    assert state["phase"] == "fight" and state["ransom"]["robbers"] == {"money": 0, "cards": []}
    state = play(rig_fight(state, (5, 5)), 0, FIGHT)
    assert state["money"][0] == 270 and state["turn"] == 1


def test_the_protection_ends_on_reaching_the_mission_city() -> None:
    state = build(3, pawns=["lhasa", "venice", "venice"], missions={0: "lhasa"}, secret=[True, False, False])
    state = play(rig(state, "robbers", route="land", dice=(1, 2)), 0, spin("land"))
    assert state["phase"] == "ransom"  # fought at once, and lost
