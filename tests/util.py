"""Small helpers shared by the test suites."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any


def strings(doc: Any) -> set[str]:
    """Every string anywhere in a view (keys and values): what a hidden-information check searches."""
    out: set[str] = set()
    stack = [doc]
    while stack:
        x = stack.pop()
        if isinstance(x, str):
            out.add(x)
        elif isinstance(x, dict):
            stack.extend(x.keys())
            stack.extend(x.values())
        elif isinstance(x, list):
            stack.extend(x)
    return out


def greedy_decisions(game_id: str, bot_class: Any, games: int) -> Iterator[tuple[dict[str, Any], dict[str, Any], Any]]:
    """(prompt, view, chosen move) of every decision of `games` seeded 2-seat games between two `bot_class` bots."""
    from server.games import get_game  # noqa: PLC0415 - tests that do not play need not load the engines

    game = get_game(game_id)
    for k in range(games):
        state = game.setup(2, None, k)
        bots = [bot_class(10 * k + s) for s in range(2)]
        while game.result(state) is None:
            seat = game.active_seats(state)[0]
            prompt = game.prompt(state, seat)
            assert prompt is not None
            view = game.view(state, seat)
            move = bots[seat].choose(prompt, view)
            yield prompt, view, move
            state = game.apply(state, seat, move)
