"""The stalemate house rule by seeded simulation (fixed seeds, so the figures never change between runs).

The 1,000-game figures are in docs/games/expedition.md; these runs are small enough for the default tests.
"""

from __future__ import annotations

import pytest

from server.games.expedition.simulate import play


@pytest.mark.parametrize("seats", [2, 3])
@pytest.mark.parametrize("bot", ["random", "greedy"])
def test_no_seeded_game_at_two_or_three_seats_ends_in_a_stalemate(seats: int, bot: str) -> None:
    games = [play(seats, seed, bot) for seed in range(20)]
    assert all(g["result"]["winners"] for g in games)
    assert sum(g["stats"].get("stalemate", 0) for g in games) == 0
    # and every game reaches Kantshou and Daidu's end the normal way
    assert all(g["stats"].get("kantshou_trigger") == 1 for g in games)
