"""The result's `breakdown`: every seat's gold by where it came from, adding up to its score, told only at the end.

Seeded games of 2 to 5 seats are played to their end by the greedy bots; before the end no view holds a breakdown
or another seat's gold (without `open_gold`), at the end every view holds every seat's chests.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from server.games.bots import bot_for
from server.games.expedition.data import START_CHEST_VALUE
from server.games.expedition.engine import GAME

SOURCES = ("start", "chests", "kantshou", "final", "lighten")


def play(seats: int, seed: int, options: dict[str, Any] | None = None) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The finished state and every view seen on the way (every seat's and a spectator's, before each move)."""
    state = GAME.setup(seats, options or {}, seed)
    bot = bot_for("expedition", seed)
    views: list[dict[str, Any]] = []
    for _ in range(20_000):
        if GAME.result(state) is not None:
            break
        views.extend(GAME.view(state, s) for s in [None, *range(seats)])
        seat = GAME.active_seats(state)[0]
        prompt = GAME.prompt(state, seat)
        assert prompt is not None
        state = GAME.apply(state, seat, bot.choose(prompt, GAME.view(state, seat)))
    assert GAME.result(state) is not None
    return state, views


@pytest.mark.parametrize(("seats", "seed"), [(2, 1), (3, 2), (4, 3), (5, 4)])
def test_the_breakdown_adds_up_to_every_seats_gold(seats: int, seed: int) -> None:
    state, _ = play(seats, seed)
    result = GAME.result(state)
    assert result is not None
    breakdown = result["breakdown"]
    assert len(breakdown) == seats
    for s, part in enumerate(breakdown):
        assert part["gold"] == result["scores"][s]
        assert part["start"] == START_CHEST_VALUE
        assert sum(part[k] for k in SOURCES) == part["gold"], part
        assert part["lighten"] <= 0 <= min(part["chests"], part["kantshou"], part["final"])
        chests = part["chest_values"]
        assert chests["1"] + 2 * chests["2"] + 3 * chests["3"] == part["gold"]
        assert part["figures"] == sorted(f["pos"] for f in state["figs"] if f["seat"] == s)
        assert max(part["figures"]) == result["tiebreak"][s]


def test_the_sources_match_the_logged_scorings() -> None:
    """Each scoring's payments and each chest the log names are counted for the seat they went to."""
    seats = 3
    state = GAME.setup(seats, {}, 11)
    bot = bot_for("expedition", 11)
    logged = {s: {"chests": 0, "kantshou": 0, "final": 0, "lighten": 0} for s in range(seats)}
    seen = 0
    while GAME.result(state) is None:
        seat = GAME.active_seats(state)[0]
        prompt = GAME.prompt(state, seat)
        assert prompt is not None
        state = GAME.apply(state, seat, bot.choose(prompt, GAME.view(state, seat)))
        for ev in state["log"]:
            if ev["n"] <= seen:
                continue
            seen = ev["n"]
            if ev["ev"] in ("move", "lighten") and ev.get("chest"):
                logged[ev["seat"]]["chests"] += ev["chest"]
            if ev["ev"] == "lighten":
                logged[ev["seat"]]["lighten"] -= 1
            if ev["ev"] in ("kantshou_scoring", "final_scoring"):
                key = "final" if ev["ev"] == "final_scoring" else "kantshou"
                for p in ev["paid"]:
                    logged[p["seat"]][key] += p["gold"]
    result = GAME.result(state)
    assert result is not None
    for s in range(seats):
        assert {k: result["breakdown"][s][k] for k in logged[s]} == logged[s]


@pytest.mark.parametrize("seats", [2, 4])
def test_nothing_of_it_is_told_before_the_end_and_every_seats_chests_after(seats: int) -> None:
    state, views = play(seats, 20 + seats)
    for view in views:
        assert "breakdown" not in json.dumps(view) and "earned" not in json.dumps(view)
        for p in view["public"]["players"]:
            assert "gold" not in p and "chest_values" not in p
    result = GAME.result(state)
    assert result is not None
    for viewer in [None, *range(seats)]:
        end = GAME.view(state, viewer)
        for s, p in enumerate(end["public"]["players"]):
            assert p["gold"] == result["scores"][s]
            assert p["chest_values"] == result["breakdown"][s]["chest_values"]


def test_a_state_from_before_the_count_still_ends_with_the_chests_held() -> None:
    """A game saved before `earned` existed: the breakdown keeps what the state knows, no sources."""
    state = GAME.setup(2, {}, 5)
    del state["earned"]
    bot = bot_for("expedition", 5)
    while GAME.result(state) is None:
        seat = GAME.active_seats(state)[0]
        prompt = GAME.prompt(state, seat)
        assert prompt is not None
        state = GAME.apply(state, seat, bot.choose(prompt, GAME.view(state, seat)))
    result = GAME.result(state)
    assert result is not None
    for s, part in enumerate(result["breakdown"]):
        assert part["gold"] == result["scores"][s]
        assert not set(SOURCES) & set(part)
