"""The no-card-to-draw and stalemate house rules by seeded simulation (fixed seeds, so the figures never change).

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


@pytest.mark.parametrize("bot", ["random", "greedy"])
def test_seeded_five_seat_games_that_run_out_of_cards_go_on_and_end_at_daidu(bot: str) -> None:
    games = [play(5, seed, bot) for seed in range(60)]
    assert sum(g["stats"].get("stalemate", 0) for g in games) == 0
    # some of them ran out of cards to draw: a card was drawn from the left neighbour's hand instead
    assert sum(1 for g in games if g["stats"].get("take_from_hand")) >= 3
    assert all(g["reached"] >= {29} for g in games)
