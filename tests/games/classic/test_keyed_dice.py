"""Keyed dice: in a sampled world (`sample_state`) every draw is a function of the turn player's own turn count.

Real games have no `dice` key and draw from the one stream `state["rng"]` (the golden games prove their draws
unchanged). In the search bot's worlds, two candidate moves of one seat must meet the same later spins of the
other seat, else a paired comparison of the two is spoiled by dice that moved with the candidate.
"""

from __future__ import annotations

from typing import Any

from server.games.base import Rng, State, clone
from server.games.classic.bots import GreedyBot
from server.games.classic.engine import GAME, Classic, dice_seed

SEATS = 2


def _spins(state: State, turns: int, moves: int = 600) -> dict[int, list[Any]]:
    """Play on with greedy bots; per seat, the first `turns` spins it made (hazard sectors as "hazard")."""
    bots = [GreedyBot(7 + s) for s in range(SEATS)]
    seen = state["seq"]
    spins: dict[int, list[Any]] = {s: [] for s in range(SEATS)}
    for _ in range(moves):
        if GAME.result(state) is not None or all(len(v) >= turns for v in spins.values()):
            break
        seat = GAME.active_seats(state)[0]
        prompt = GAME.prompt(state, seat)
        assert prompt is not None
        state = GAME.apply(state, seat, bots[seat].choose(prompt, GAME.view(state, seat)))
        for ev in state["log"]:
            if ev["n"] > seen and ev["ev"] == "spin":
                value = ev["value"]
                spins[ev["seat"]].append("hazard" if isinstance(value, str) else value)
        seen = state["seq"]
    return {s: v[:turns] for s, v in spins.items()}


def _decisions(seed: int) -> list[State]:
    """States of a real greedy game where the seat to move has more than one option, spread over the game."""
    state = GAME.setup(SEATS, None, seed)
    bots = [GreedyBot(seed + s) for s in range(SEATS)]
    found: list[State] = []
    while GAME.result(state) is None and len(found) < 6:
        seat = GAME.active_seats(state)[0]
        prompt = GAME.prompt(state, seat)
        assert prompt is not None
        if len(prompt["options"]) > 1 and state["turns"] % 7 == 0:
            found.append(state)
        state = GAME.apply(state, seat, bots[seat].choose(prompt, GAME.view(state, seat)))
    return found


def test_real_games_keep_one_stream_and_no_dice_key() -> None:
    state = GAME.setup(SEATS, None, 3)
    assert "dice" not in state
    bots = [GreedyBot(s) for s in range(SEATS)]
    for _ in range(80):
        seat = GAME.active_seats(state)[0]
        prompt = GAME.prompt(state, seat)
        assert prompt is not None
        state = GAME.apply(state, seat, bots[seat].choose(prompt, GAME.view(state, seat)))
    assert "dice" not in state


def test_a_keyed_draw_is_a_function_of_key_seat_turn_and_index() -> None:
    state = GAME.sample_state(GAME.setup(SEATS, None, 4), 0, Rng(1))
    dice = state["dice"]
    assert dice["turns"] == [0, 0] and dice["draw"] == 0
    seat = state["turn"]
    rng_before = state["rng"]
    first = Classic._roll(state, 8)
    second = Classic._roll(state, 8)
    assert state["rng"] == rng_before  # the shared stream is not touched
    assert dice["draw"] == 2
    assert first == Rng(dice_seed(dice["key"], seat, 0, 0)).below(8)
    assert second == Rng(dice_seed(dice["key"], seat, 0, 1)).below(8)


def test_a_seats_later_spins_do_not_depend_on_the_other_seats_move() -> None:
    """Two different moves of one seat in one sampled world: the other seat spins the same numbers in its
    next turns. With the dice key taken out (one shared stream, as in a real game) they do not, somewhere."""
    compared = 0
    differ_unkeyed = 0
    for seed in (1, 2, 3):
        for real in _decisions(seed):
            seat = GAME.active_seats(real)[0]
            other = 1 - seat
            options = GAME.legal_moves(real, seat)
            for k in range(3):
                world = GAME.sample_state(real, seat, Rng(100 * seed + k))
                shared = clone(world)
                del shared["dice"]
                keyed_spins, shared_spins = [], []
                for move in options[:3]:
                    keyed_spins.append(_spins(GAME.apply(world, seat, move), 5)[other])
                    shared_spins.append(_spins(GAME.apply(shared, seat, move), 5)[other])
                n = min(len(s) for s in keyed_spins)
                assert all(s[:n] == keyed_spins[0][:n] for s in keyed_spins), (seed, real["turns"], k)
                compared += n > 0
                m = min(len(s) for s in shared_spins)
                differ_unkeyed += any(s[:m] != shared_spins[0][:m] for s in shared_spins)
    assert compared >= 20
    assert differ_unkeyed > 0
