"""The bot pool: levels by name, fast levels in place, and a greedy move when the search pool fails."""

from __future__ import annotations

import concurrent.futures
from concurrent.futures.process import BrokenProcessPool
from typing import Any

import pytest

from server.games import get_game
from server.games.search import greedy_for
from server.rooms import botpool


@pytest.mark.parametrize("level", ["random", "easy", "greedy", "normal", None])
async def test_fast_levels_answer_a_legal_move_in_place(level: str | None) -> None:
    game = get_game("voyages")
    state = game.setup(2, None, 4)
    seat = game.active_seats(state)[0]
    move = await botpool.choose("voyages", level, state, seat, 9)
    assert move in game.legal_moves(state, seat)


async def test_an_unknown_level_is_refused() -> None:
    game = get_game("expedition")
    with pytest.raises(ValueError):
        await botpool.choose("expedition", "grandmaster", game.setup(2, None, 1), 0, 1)


async def test_a_broken_search_pool_falls_back_to_the_greedy_move(monkeypatch: pytest.MonkeyPatch) -> None:
    class Broken(concurrent.futures.Executor):
        def submit(self, *args: Any, **kwargs: Any) -> Any:
            raise BrokenProcessPool("worker died")

    monkeypatch.setattr(botpool, "_get_pool", lambda: Broken())
    game = get_game("expedition")
    state = game.setup(2, None, 3)
    move = await botpool.choose("expedition", "hard", state, 0, 8)
    expected = greedy_for("expedition", 8).choose(game.prompt(state, 0), game.view(state, 0))
    assert move == expected
