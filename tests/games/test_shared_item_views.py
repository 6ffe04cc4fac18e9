"""Card, tile and marker views are built once per id and shared by every view that shows them.

That sharing is what lets a diff skip them by identity; it is only safe while nothing changes a view once
built, so these tests also play bot games (the in-process readers of views) and check every cached view
against a fresh build from the game data afterwards.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgpack
import pytest

from server.games import get_game
from server.games.khan import data as KD
from server.games.khan.engine import Khan
from server.games.search import greedy_for
from server.games.voyages import data as VD
from server.games.voyages.engine import Voyages

Cached = list[tuple[Callable[..., Any], list[tuple[Any, ...]]]]

CACHED: dict[str, Cached] = {
    "khan": [
        (Khan._contract_view, [(c,) for c in KD.CONTRACTS]),
        (Khan._card_view, [(c,) for c in KD.CITY_CARDS]),
        (Khan._tile_view, [(t,) for t in KD.OFFER_TILES]),
        (Khan._reward_view, [("marker", m) for m in KD.MARKERS] + [("outpost", t) for t in KD.OUTPOSTS]),
    ],
    "voyages": [
        (Voyages._contract_view, [(c,) for c in VD.CONTRACTS]),
        (Voyages._card_view, [(c,) for c in VD.CITY_CARDS]),
        (Voyages._outpost_view, [(t,) for t in VD.OUTPOSTS]),
    ],
}


def _play(game_id: str, seed: int, moves: int) -> list[dict[str, Any]]:
    """The public views of a 3-seat greedy game's first `moves` versions (every seat's view read by its bot)."""
    game = get_game(game_id)
    state = game.setup(3, None, seed)
    bots = [greedy_for(game_id, seed + s) for s in range(3)]
    publics = []
    for _ in range(moves):
        active = game.active_seats(state)
        if not active or game.result(state) is not None:
            break
        seat = active[0]
        prompt = game.prompt(state, seat)
        assert prompt is not None
        move = bots[seat].choose(prompt, game.view(state, seat))
        state = game.apply(state, seat, move, prompt["options"])
        publics.append(game.public_view(state))
    return publics


@pytest.mark.parametrize("game_id", sorted(CACHED))
def test_cached_item_views_are_unchanged_after_bot_games(game_id: str) -> None:
    for seed in range(3):
        _play(game_id, seed, 400)
    for fn, args in CACHED[game_id]:
        for a in args:
            fresh = fn.__wrapped__(*a)  # type: ignore[attr-defined]
            assert msgpack.packb(fn(*a)) == msgpack.packb(fresh), (fn.__name__, a)


@pytest.mark.parametrize("game_id", sorted(CACHED))
def test_consecutive_views_share_the_item_views_they_both_show(game_id: str) -> None:
    publics = _play(game_id, 7, 30)
    shared = 0
    for before, after in zip(publics, publics[1:], strict=False):
        for x, y in zip(before["city_cards"], after["city_cards"], strict=True):
            if x["card"] == y["card"]:
                assert x["card"] is y["card"]
                shared += 1
    assert shared > 0
