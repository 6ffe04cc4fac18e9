"""The checks every game's undo tests share (issue 30): the views an undo must give back, a refused undo, and
that no view shows another seat's secrets, the hidden pool or the savepoint. Each test module binds them to its
game with `functools.partial`."""

from __future__ import annotations

from typing import Any

import pytest

from server.games.base import Game, IllegalMove, State, pack
from tests.util import strings


def views(game: Game, state: State) -> list[Any]:
    """Every viewer's view (spectator first) without the public log, and each seat's prompt."""
    out: list[Any] = []
    for viewer in [None, *range(state["seats"])]:
        view = game.view(state, viewer)
        public = {k: v for k, v in view["public"].items() if k != "log"}
        out.append((public, view["private"], None if viewer is None else game.prompt(state, viewer)))
    return out


def keeps_secrets(game: Game, state: State) -> None:
    """No viewer sees another seat's secret tokens, the hidden ones, or the savepoint."""
    hidden = set(game.hidden_tokens(state))
    for viewer in [None, *range(state["seats"])]:
        view = game.view(state, viewer)
        assert "undo" not in view["public"] and (view["private"] is None or "undo" not in view["private"])
        seen = strings(view)
        assert not hidden & seen
        for seat in range(state["seats"]):
            if seat != viewer:
                assert not set(game.secret_tokens(state, seat)) & seen, (viewer, seat)


def refused(game: Game, state: State, seat: int) -> None:
    """`seat` may not undo here: not offered, and `undo` raises `illegal_move` without touching the state."""
    assert not game.may_undo(state, seat)
    prompt = game.prompt(state, seat)
    assert prompt is None or "undo" not in prompt
    before = pack(state)
    with pytest.raises(IllegalMove) as err:
        game.undo(state, seat)
    assert err.value.code == "illegal_move"
    assert pack(state) == before
