"""The result's `breakdown`: what every seat's total is made of and every secret it kept, told only at the end.

Seeded games are played to their end by the greedy bots (a win in Venice, or the round limit); before the end no
view holds a breakdown, another seat's mission city or goods; at the end the parts add up to each score and the
mission city of every Golden Table is told.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from server.games.bots import bot_for
from server.games.classic.data import TARGETS, city_of_table
from server.games.classic.engine import GAME, colour_counts, colours_ok, hand_total


def play(seats: int, seed: int, max_rounds: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The finished state and every seat's and a spectator's view on the way."""
    state = GAME.setup(seats, {"max_rounds": max_rounds}, seed)
    bot = bot_for("classic", seed)
    views: list[dict[str, Any]] = []
    while GAME.result(state) is None:
        views.extend(GAME.view(state, s) for s in [None, *range(seats)])
        seat = GAME.active_seats(state)[0]
        prompt = GAME.prompt(state, seat)
        assert prompt is not None
        state = GAME.apply(state, seat, bot.choose(prompt, GAME.view(state, seat)))
    return state, views


@pytest.mark.parametrize(("seats", "seed", "max_rounds"), [(2, 1, 200), (3, 2, 200), (4, 3, 10), (4, 7, 200)])
def test_the_breakdown_adds_up_and_tells_every_secret(seats: int, seed: int, max_rounds: int) -> None:
    state, _ = play(seats, seed, max_rounds)
    result = GAME.result(state)
    assert result is not None
    assert result["target"] == TARGETS[seats]
    assert len(result["breakdown"]) == seats
    for s, part in enumerate(result["breakdown"]):
        hand = state["hands"][s]
        assert part["total"] == result["scores"][s] == part["money"] + part["goods"] + part["table"] + part["secret"]
        assert part["money"] == state["money"][s]
        assert part["goods"] == hand_total(hand)
        assert part["colours"] == colour_counts(hand)
        assert sum(part["colours"].values()) == len(hand)
        assert part["colours_ok"] == colours_ok(hand)
        table = state["table"][s]
        assert part["mission"] == (city_of_table(table) if table is not None else None)
        assert part["mission_done"] == state["secret"][s] == (part["secret"] > 0)
        assert (part["table"] > 0) == (table is not None)
        assert [2 if p["mission_done"] else 1 if p["table"] else 0 for p in result["breakdown"]] == result["progress"]
        assert not set(strings(part)) & set(hand)  # no card is named, only colours and values
    if result["reason"] == "venice":
        (winner,) = result["winners"]
        win = result["breakdown"][winner]
        assert win["venice"] and win["mission_done"] and win["colours_ok"] and win["total"] >= result["target"]


def strings(obj: Any) -> list[str]:
    return [x for x in json.dumps(obj).replace("{", " ").replace("}", " ").split('"') if x.strip(" :,[]")]


def test_nothing_of_it_is_told_before_the_end() -> None:
    seats = 3
    state, views = play(seats, 5, 30)
    for view in views:
        text = json.dumps(view)
        assert "breakdown" not in text and "colours_ok" not in text
        for p in view["public"]["players"]:
            assert p["mission"] is None or p["secret"]  # a mission city is public only once reached
    assert GAME.result(state) is not None


def test_both_ends_occur_in_the_seeds() -> None:
    """The cases above cover a win in Venice and the round limit."""
    reasons = set()
    for seats, seed, max_rounds in [(2, 1, 200), (3, 2, 200), (4, 3, 10), (4, 7, 200)]:
        result = GAME.result(play(seats, seed, max_rounds)[0])
        assert result is not None
        reasons.add(result["reason"])
    assert reasons == {"venice", "round_limit"}
