"""Undo within a turn (DESIGN.md section 3c), checked for every registered game over seeded random games with
random undos.

The properties: an undo is offered only to the seat whose turn it is, only when every step since that turn
began was that seat's own and none of them revealed anything hidden (the RNG was not drawn from, the hidden
pool did not change, no new secret reached the mover); taking it back gives every viewer the view it had where
the turn began, except the public log (which records the undo); and an undo is itself deterministic, so a game
with undos replays from its log.
"""

from __future__ import annotations

from typing import Any

import pytest

from server.games import all_games
from server.games.base import Game, IllegalMove, Rng, State, pack, unpack
from server.games.bots import RandomBot
from server.rooms.replay import replayed

GAMES = all_games()
CASES = [(gid, n) for gid, g in sorted(GAMES.items()) for n in range(g.min_seats, g.max_seats + 1)]
IDS = [f"{gid}-{n}" for gid, n in CASES]
MOVE_BOUND = 20_000


def views(game: Game, state: State, seats: int) -> list[Any]:
    """Every viewer's view (spectator first), without the public log, plus each seat's prompt."""
    out: list[Any] = []
    for seat in [None, *range(seats)]:
        view = game.view(state, seat)
        public = {k: v for k, v in view["public"].items() if k != "log"}
        out.append((public, view["private"], game.prompt(state, seat) if seat is not None else None))
    return out


def random_game_with_undos(game: Game, seats: int, seed: int) -> tuple[list[dict[str, Any]], int]:
    """Play one random game, taking turns back at random where offered; check the properties at every step.

    Returns the log entries (as a room stores them) and the number of undos taken."""
    rng = Rng(seed ^ 0xD0)
    bot = RandomBot(seed ^ 0x5EED)
    state = game.setup(seats, None, seed)
    entries: list[dict[str, Any]] = [{"v": 1, "k": "join", "start": True}]
    #: the states since the current turn began, with who made each step: [(state, seat that moved from it)]
    turn: list[tuple[State, int]] = []
    undos = 0
    for _ in range(MOVE_BOUND):
        if game.result(state) is not None:
            break
        active = game.active_seats(state)
        seat = active[rng.below(len(active))]
        for other in range(seats):
            if other != seat and other not in active:
                assert not game.may_undo(state, other), "an undo offered to a seat that may not move"
        prompt = game.prompt(state, seat)
        assert prompt is not None
        if prompt.get("undo"):
            assert game.may_undo(state, seat)
            assert turn and all(mover == seat for _s, mover in turn), "undo offered after another seat acted"
            start = turn[0][0]
            assert start["rng"] == state["rng"], "undo offered after the RNG was drawn from"
            assert sorted(game.hidden_tokens(start)) == sorted(game.hidden_tokens(state)), "the hidden pool changed"
            assert set(game.secret_tokens(state, seat)) <= set(game.secret_tokens(start, seat)), (
                "undo offered after a hidden card reached the mover"
            )
            if rng.below(3) == 0:
                before_log = list(state["log"])
                back = game.undo(state, seat)
                assert unpack(pack(back)) == back
                assert views(game, back, seats) == views(game, start, seats), "undo did not restore the turn's views"
                kept = back["log"][:-1]  # the log as it was (less its oldest events beyond the game's `log_keep`)
                assert kept == before_log[len(before_log) - len(kept) :] and back["log"][-1]["ev"] == "undo"
                assert back["log"][-1]["seat"] == seat
                entries.append({"v": len(entries) + 1, "k": "undo", "seat": seat})
                state = back
                turn = []
                undos += 1
                continue
        else:
            assert not game.may_undo(state, seat)
        move = bot.choose(prompt)
        after = game.apply(state, seat, move)
        entries.append({"v": len(entries) + 1, "k": "move", "seat": seat, "move": move})
        if game.may_undo(after, seat):
            if not turn or turn[-1][1] != seat or not game.may_undo(state, seat):
                turn = [(state, seat)]  # this step began the turn
            else:
                turn.append((state, seat))
        else:
            turn = []
        for other in range(seats):
            if other != seat:
                assert not game.may_undo(after, other), "another seat's undo survived a move"
        state = after
    else:
        pytest.fail("the game did not end within the bound")
    assert game.prompt(state, 0) is None or not game.prompt(state, 0).get("undo")  # type: ignore[union-attr]
    return entries, undos


@pytest.mark.parametrize(("gid", "seats"), CASES, ids=IDS)
def test_random_undos_restore_the_turn_and_replay(gid: str, seats: int) -> None:
    game = GAMES[gid]
    total = 0
    for seed in range(3):
        entries, undos = random_game_with_undos(game, seats, 7000 + seed)
        total += undos
        # recovery and replays: the log with its undos gives the same final state as the play did
        meta = {"seats": seats, "options": None, "seed": 7000 + seed}
        states = list(replayed(game, meta, None, entries))
        again, _ = random_game_with_undos(game, seats, 7000 + seed)
        assert again == entries, "undos are not deterministic"
        assert game.result(states[-1]) is not None
    if getattr(game, "offers_undo", False):
        assert total > 0, f"{gid} offers undo but none was taken in three random games"


@pytest.mark.parametrize("gid", sorted(GAMES))
def test_undo_is_refused_where_not_offered(gid: str) -> None:
    game = GAMES[gid]
    state = game.setup(game.min_seats, None, 99)
    for seat in range(game.min_seats):
        assert not game.may_undo(state, seat)  # nothing done yet
        with pytest.raises(IllegalMove):
            game.undo(state, seat)
