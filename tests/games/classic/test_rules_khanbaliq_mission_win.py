"""Seed 001 "Kaanbalikiin saapuminen", the mission and "Paluu Venetsiaan & pelin voittaminen", decisions.md B."""

from __future__ import annotations

import pytest

from server.games.base import State
from server.games.classic.data import SECRET_VALUE, TABLE_VALUE, TARGETS
from server.games.classic.engine import GAME

from .helpers import at_post, build, dests, events, gift, moving, play, rig, spin, strings, to

GIFTS = ["green-80-1", "turquoise-80-1", "violet-80-1"]


def test_a_pawn_without_three_80_cards_can_neither_enter_nor_pass_khanbaliq() -> None:
    state = moving(value=2, pawns=["ganzhou", "venice", "venice"], hands=[["green-80-1", "violet-80-1"], [], []])
    assert "khanbaliq" not in dests(state, 0)
    assert not {"yangzhou", "taiyuan", "dengzhou"} & set(dests(state, 0))
    assert dests(state, 0) == ["dunhuang", "lop", "turfan"]


def test_a_pawn_bringing_three_80_cards_stops_at_khanbaliq() -> None:
    state = moving(value=3, pawns=["ganzhou", "venice", "venice"], hands=[GIFTS, [], []])
    assert "khanbaliq" in dests(state, 0)
    assert not {"yangzhou", "taiyuan", "dengzhou", "quinsai", "chengdu"} & set(dests(state, 0))


def test_the_three_80_cards_are_given_as_gifts_to_the_bottom_of_their_stacks_for_a_golden_table() -> None:
    state = moving(value=1, pawns=["ganzhou", "venice", "venice"], hands=[[*GIFTS, "yellow-50-1"], [], []])
    state = play(state, 0, to("khanbaliq"))
    assert state["hands"][0] == ["yellow-50-1"] and state["money"][0] == 240  # a Golden Table is not cashed
    for card in GIFTS:
        assert state["stacks"][card.split("-")[0]][-1] == card
    assert state["table"][0] is not None and len(state["tables"]) == 3
    assert events(state, "gifts")[-1]["cards"] == GIFTS
    assert state["turn"] == 1


def test_a_player_with_more_than_three_80_cards_chooses_the_gifts() -> None:
    hand = [*GIFTS, "yellow-80-1", "yellow-80-2"]
    state = moving(value=1, pawns=["ganzhou", "venice", "venice"], hands=[hand, [], []])
    state = play(state, 0, to("khanbaliq"))
    assert state["phase"] == "gift"
    assert GAME.legal_moves(state, 0) == [gift(c) for c in [*GIFTS, "yellow-80-1"]]
    state = play(state, 0, gift("yellow-80-1"), gift("violet-80-1"))
    assert state["phase"] == "gift" and state["table"][0] is None
    state = play(state, 0, gift("yellow-80-2"))
    assert state["hands"][0] == ["green-80-1", "turquoise-80-1"] and state["table"][0] is not None


def test_the_golden_table_names_a_mission_city_only_its_holder_sees() -> None:
    state = moving(value=1, pawns=["ganzhou", "venice", "venice"], hands=[GIFTS, [], []])
    state = play(state, 0, to("khanbaliq"))
    table = state["table"][0]
    mine = GAME.view(state, 0)["private"]
    assert mine["table"] == table and mine["mission"] in {"manila", "kyoto", "mandalay", "lhasa"}
    assert {"ev": "golden_table", "table": table, "mission": mine["mission"]} in mine["notices"]
    public = GAME.view(state, 1)["public"]
    assert public["players"][0]["table"] is True and public["players"][0]["mission"] is None
    for viewer in (1, 2, None):
        assert table not in strings(GAME.view(state, viewer))


def test_a_golden_table_holder_passes_khanbaliq_freely() -> None:
    state = moving(value=2, pawns=["ganzhou", "venice", "venice"], missions={0: "kyoto"})
    assert {"yangzhou", "taiyuan", "dengzhou"} <= set(dests(state, 0))
    assert "khanbaliq" not in dests(state, 0)  # not a forced stop any more


def test_reaching_the_mission_city_reveals_it_and_gives_the_secret_of_the_east() -> None:
    state = build(3, pawns=["ryukyu", "venice", "venice"], routes=["sea", None, None], missions={0: "manila"})
    state = play(rig(state, 3, route="sea"), 0, spin("sea"))
    assert "manila" in dests(state, 0)  # two steps of three: the own mission city stops the move
    state = play(state, 0, to("manila"))
    assert state["secret"][0] is True and state["secrets"] == 3 and state["money"][0] == 240
    public = GAME.view(state, 2)["public"]
    assert public["players"][0]["mission"] == "manila" and public["players"][0]["secret"] is True
    assert events(state, "mission")[-1]["table"] == "table-manila"


def test_another_players_mission_city_is_an_ordinary_stop() -> None:
    state = moving(value=2, pawns=["ryukyu", "venice", "venice"], routes=["sea", None, None], missions={0: "kyoto"})
    assert "manila" in dests(state, 0)
    state = moving(value=1, pawns=["ryukyu", "venice", "venice"], routes=["sea", None, None], missions={0: "kyoto"})
    assert "manila" not in dests(state, 0)


def test_a_pawn_ending_on_another_players_mission_city_gets_no_reveal_and_no_secret() -> None:
    # seat 0 holds Kyoto's Golden Table, seat 1 Manila's; seat 0 stops in Manila
    state = moving(
        value=1, pawns=["formosa", "venice", "venice"], routes=["sea", None, None], missions={0: "kyoto", 1: "manila"}
    )
    state = play(state, 0, to("manila"))
    assert state["pawns"][0] == "manila" and state["turn"] == 1
    assert state["secret"] == [False, False, False] and state["secrets"] == 4
    assert events(state, "mission") == []
    public = GAME.view(state, None)["public"]
    assert [p["mission"] for p in public["players"]] == [None, None, None]
    assert not any(p["secret"] for p in public["players"])
    for viewer in (1, 2, None):
        assert "table-kyoto" not in strings(GAME.view(state, viewer))
    assert GAME.view(state, 0)["private"]["total"] == 240 + 240


def test_a_winning_hand_may_hold_two_cards_of_one_required_colour() -> None:
    hand = winner_hand(["yellow-80-1"])
    assert sum(c.startswith("yellow-") for c in hand) == 2
    result = GAME.result(arriving(3, 5000, hand))
    assert result is not None and result["winners"] == [0]


def winner_hand(extra: list[str] | None = None) -> list[str]:
    return ["turquoise-30-1", "yellow-30-1", "green-30-1", *(extra or [])]


def arriving(seats: int, money: int, hand: list[str], *, done: bool = True) -> State:
    """Seat 0 is one land step from Venice with its mission done (or not)."""
    hands = [hand] + [[] for _ in range(seats - 1)]
    state = moving(
        seats, value=1, pawns=["ragusa"] + ["venice"] * (seats - 1), hands=hands,
        money=[money] + [240] * (seats - 1), missions={0: "kyoto"}, secret=[done] + [False] * (seats - 1),
    )
    return play(state, 0, to("venice"))


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_the_first_player_to_reach_venice_after_the_mission_with_the_total_and_the_colours_wins(seats: int) -> None:
    target = TARGETS[seats]
    assert target == {2: 1000, 3: 800, 4: 600}[seats]
    money = target - TABLE_VALUE - SECRET_VALUE - 90
    state = arriving(seats, money, winner_hand())
    result = GAME.result(state)
    assert result is not None and result["winners"] == [0] and result["reason"] == "venice"
    assert result["scores"][0] == target
    assert GAME.active_seats(state) == [] and GAME.prompt(state, 0) is None


def test_the_golden_table_and_the_secret_count_240_each_but_one_bezant_short_does_not_win() -> None:
    state = arriving(3, 800 - 480 - 90 - 1, winner_hand())
    assert GAME.result(state) is None and state["turn"] == 1
    assert GAME.view(state, 0)["private"]["total"] == 799


def test_reaching_venice_rich_but_without_the_mission_done_does_not_win() -> None:
    state = arriving(3, 5000, winner_hand(), done=False)
    assert GAME.result(state) is None


@pytest.mark.parametrize(
    "hand",
    [
        ["yellow-30-1", "green-30-1"],  # no turquoise
        ["turquoise-30-1", "turquoise-30-2", "turquoise-50-1", "yellow-30-1", "green-30-1"],  # three turquoise
    ],
)
def test_a_winner_needs_one_or_two_cards_each_of_turquoise_yellow_and_green(hand: list[str]) -> None:
    assert GAME.result(arriving(3, 5000, hand)) is None


def test_violet_cards_and_money_are_unlimited_for_the_win() -> None:
    hand = winner_hand(["violet-80-1", "violet-80-2", "violet-80-3", "violet-50-1"])
    state = arriving(3, 5000, hand)
    assert GAME.result(state) is not None


def test_the_colour_condition_is_no_hand_limit() -> None:
    hand = ["turquoise-30-1", "turquoise-30-2", "turquoise-50-1"]
    state = at_post(build(3, hands=[hand, [], []]), 0, "aleppo", phase="buy")
    assert {"a": "buy"} in GAME.legal_moves(state, 0)
