"""Replays the golden wire traces (tests/golden/wire.py) and compares every frame, in order."""

from __future__ import annotations

import pytest

from tests.golden import wire


@pytest.mark.parametrize("game", wire.GAMES)
def test_a_scripted_session_sends_exactly_the_recorded_frames(game: str) -> None:
    path = wire.path_for(game)
    assert path.exists(), f"missing {path}: run `make golden`"
    expected = path.read_text(encoding="utf-8").splitlines()
    actual = wire.record(game)
    assert len(actual) > 100
    for i, (a, e) in enumerate(zip(actual, expected, strict=False)):
        assert a == e, f"{path.name} differs at frame {i + 1}"
    assert len(actual) == len(expected)
