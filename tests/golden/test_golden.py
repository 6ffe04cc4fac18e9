"""Replays the golden playthroughs and compares them line by line (regenerate with `make golden`)."""

from __future__ import annotations

import pytest

from tests.golden.regen import CASES, UNDO_CASES, lines, path_for


@pytest.mark.parametrize(("game", "seats", "seed", "options"), CASES, ids=[f"{c[0]}-{c[1]}p-{c[2]}" for c in CASES])
def test_a_seeded_game_replays_exactly_as_recorded(game: str, seats: int, seed: int, options: dict) -> None:
    path = path_for(game, seats, seed)
    assert path.exists(), f"missing {path}: run `make golden`"
    expected = path.read_text(encoding="utf-8").splitlines()
    actual = list(lines(game, seats, seed, options))
    assert len(actual) == len(expected)
    for i, (a, e) in enumerate(zip(actual, expected, strict=True)):
        assert a == e, f"{path.name} differs at step {i}"


@pytest.mark.parametrize(
    ("game", "seats", "seed", "options"), UNDO_CASES, ids=[f"{c[0]}-{c[1]}p-{c[2]}-undo" for c in UNDO_CASES]
)
def test_a_seeded_game_with_undos_replays_exactly_as_recorded(game: str, seats: int, seed: int, options: dict) -> None:
    path = path_for(game, seats, seed, undo=True)
    assert path.exists(), f"missing {path}: run `make golden`"
    expected = path.read_text(encoding="utf-8").splitlines()
    actual = list(lines(game, seats, seed, options, undo=True))
    assert sum('"undo":{"seat":' in line for line in actual) >= 3, "the playthrough takes too few undos"
    assert len(actual) == len(expected)
    for i, (a, e) in enumerate(zip(actual, expected, strict=True)):
        assert a == e, f"{path.name} differs at step {i}"
