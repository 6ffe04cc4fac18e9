"""`sample_state` for every registered game: what a search bot plays on must be a world the seat cannot
tell from the real one, a legal one, and one that depends only on what the seat sees.

Seeded random playthroughs stop at a few points; at each, for every seat, the sampled states are checked.
"""

from __future__ import annotations

from typing import Any

import pytest

from server.games import all_games
from server.games.base import Game, Rng, State, pack, unpack
from server.games.bots import RandomBot

GAMES = all_games()
CASES = [(gid, n) for gid, g in sorted(GAMES.items()) for n in sorted({g.min_seats, g.max_seats})]
IDS = [f"{gid}-{n}" for gid, n in CASES]
CHECKPOINTS = 4
CONTINUE = 30


def _states(game: Game, seats: int, seed: int) -> list[State]:
    """A few states spread over one seeded random game (the first is the set-up)."""
    state = game.setup(seats, None, seed)
    bot = RandomBot(seed)
    history = [state]
    while game.result(state) is None and len(history) < 800:
        active = game.active_seats(state)
        seat = active[bot.rng.below(len(active))]
        prompt = game.prompt(state, seat)
        assert prompt is not None
        state = game.apply(state, seat, bot.choose(prompt))
        history.append(state)
    step = max(1, len(history) // CHECKPOINTS)
    return history[:-1:step][:CHECKPOINTS]


def _secrets(game: Game, state: State, seat: int) -> list[Any]:
    """Every secret `seat` may not see: the other seats' secret tokens, the hidden tokens, the face-down order."""
    others = [sorted(game.secret_tokens(state, s)) for s in range(state["seats"]) if s != seat]
    return [others, game.hidden_tokens(state), state["rng"]]


def _without_undo(prompt: dict[str, Any] | None) -> dict[str, Any] | None:
    return None if prompt is None else {k: v for k, v in prompt.items() if k != "undo"}


@pytest.mark.parametrize(("gid", "seats"), CASES, ids=IDS)
def test_a_sampled_state_looks_the_same_to_the_seat_and_plays_on(gid: str, seats: int) -> None:
    game = GAMES[gid]
    for state in _states(game, seats, 11):
        for seat in range(seats):
            sample = game.sample_state(state, seat, Rng(5))
            assert unpack(pack(sample)) == sample
            assert game.view(sample, seat) == game.view(state, seat)
            assert game.view(sample, None) == game.view(state, None)
            # a sample carries no undo savepoint (it holds the real hidden parts of the turn's start, and bots
            # never take a turn back), so its prompts never offer `undo`
            assert "undo" not in sample
            assert game.prompt(sample, seat) == _without_undo(game.prompt(state, seat))
            assert game.active_seats(sample) == game.active_seats(state)
            # the sample is a legal game: random moves keep applying (apply checks every one)
            bot = RandomBot(seat)
            cur = sample
            for _ in range(CONTINUE):
                if game.result(cur) is not None:
                    break
                active = game.active_seats(cur)
                s = active[bot.rng.below(len(active))]
                prompt = game.prompt(cur, s)
                assert prompt is not None
                cur = game.apply(cur, s, bot.choose(prompt))


@pytest.mark.parametrize(("gid", "seats"), CASES, ids=IDS)
def test_a_sample_depends_only_on_what_the_seat_sees(gid: str, seats: int) -> None:
    game = GAMES[gid]
    for state in _states(game, seats, 12):
        for seat in range(seats):
            # another world with the same view: its secrets differ, yet the samples drawn from it are the same
            other = game.sample_state(state, seat, Rng(99))
            assert game.view(other, seat) == game.view(state, seat)
            assert pack(game.sample_state(other, seat, Rng(7))) == pack(game.sample_state(state, seat, Rng(7)))


@pytest.mark.parametrize(("gid", "seats"), CASES, ids=IDS)
def test_samples_vary_across_seeds_in_what_is_hidden(gid: str, seats: int) -> None:
    game = GAMES[gid]
    states = _states(game, seats, 13)
    for state in (states[0], states[len(states) // 2]):
        for seat in range(seats):
            drawn = {repr(_secrets(game, game.sample_state(state, seat, Rng(k)), seat)) for k in range(6)}
            assert len(drawn) > 1, f"{gid}: six samples for seat {seat} hid the same secrets"
            # what the seat itself holds is never redrawn
            mine = sorted(game.secret_tokens(state, seat))
            for k in range(3):
                assert sorted(game.secret_tokens(game.sample_state(state, seat, Rng(k)), seat)) == mine


def test_the_base_hook_says_when_a_game_has_no_sampler() -> None:
    class NoSampler(type(GAMES["expedition"])):  # type: ignore[misc]
        id = "no_such_game_here"

    with pytest.raises(NotImplementedError):
        NoSampler().sample_state(GAMES["expedition"].setup(2, None, 1), 0, Rng(1))
