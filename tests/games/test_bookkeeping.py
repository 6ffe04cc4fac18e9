"""The bookkeeping every engine shares (`server/games/base.py`): rule counts and the bounded, numbered log."""

from __future__ import annotations

import pytest

from server.games import get_game

#: how many public events each game's log keeps (the dice-placement games keep more: a round logs more)
KEEP = {"expedition": 24, "classic": 24, "voyages": 30, "khan": 30}


@pytest.mark.parametrize("game_id", sorted(KEEP))
def test_the_log_numbers_every_event_and_keeps_only_the_games_last_events(game_id: str) -> None:
    game = get_game(game_id)
    state = game.setup(2, None, 7)
    start = state["seq"]
    for i in range(KEEP[game_id] + 10):
        game._log(state, {"ev": "probe", "i": i})
    probes = [e for e in state["log"] if e["ev"] == "probe"]
    assert len(state["log"]) == KEEP[game_id] == len(probes)
    assert [e["n"] for e in probes] == list(range(start + 11, start + KEEP[game_id] + 11))
    assert [e["i"] for e in probes] == list(range(10, KEEP[game_id] + 10))
    assert state["seq"] == start + KEEP[game_id] + 10


@pytest.mark.parametrize("game_id", sorted(KEEP))
def test_a_rule_firing_is_counted_in_the_states_stats(game_id: str) -> None:
    game = get_game(game_id)
    state = game.setup(2, None, 7)
    before = state["stats"].get("probe", 0)
    game._bump(state, "probe")
    game._bump(state, "probe")
    assert state["stats"]["probe"] == before + 2
