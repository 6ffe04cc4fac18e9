"""The in-process move bench plays real moves through the hub and measures them."""

from __future__ import annotations

import pytest

from loadtests import move_bench


@pytest.mark.parametrize("game", move_bench.GAMES)
async def test_the_bench_plays_real_moves_that_every_seat_is_sent(game: str) -> None:
    out = await move_bench.run(game, rooms=2, seats=2, moves=40, repeat=1, profile=None)
    assert out["game"] == game and out["us_per_move"] > 0
    hub = out["hub"]
    played = [room for room in hub.rooms.values() if room.v > 3]  # joined, started, and moved on
    assert played, "no room got past its start"
    for room in played:
        assert all(viewer.v == room.v for viewer in room.viewers.values())  # every seat was sent every version
