"""The search bot: legal, reproducible, and blind to everything its seat cannot see."""

from __future__ import annotations

import pytest

from server.games import all_games
from server.games.base import Game, Rng, State
from server.games.bots import RandomBot
from server.games.search import Budget, SearchBot

GAMES = sorted(all_games())
#: small budgets: these tests check behaviour, not strength (that is the arena's job)
BUDGET = Budget(seconds=None, playouts=12, horizon=15, candidates=4)


def _decision_points(game: Game, seats: int, seed: int, count: int) -> list[tuple[State, int]]:
    """States of one random game where an active seat has a real choice (more than one option)."""
    state = game.setup(seats, None, seed)
    bot = RandomBot(seed)
    points: list[tuple[State, int]] = []
    steps = 0
    while game.result(state) is None and len(points) < count:
        active = game.active_seats(state)
        seat = active[bot.rng.below(len(active))]
        prompt = game.prompt(state, seat)
        assert prompt is not None
        if len(prompt["options"]) > 1 and steps % 7 == 3:
            points.append((state, seat))
        state = game.apply(state, seat, bot.choose(prompt))
        steps += 1
    return points


@pytest.mark.parametrize("gid", GAMES)
def test_the_same_view_and_seed_give_the_same_move_whatever_is_hidden(gid: str) -> None:
    game = all_games()[gid]
    for state, seat in _decision_points(game, 2, 21, 4):
        # a real state with the same view for `seat` and other secrets (other hands, decks, goal cards)
        other = game.sample_state(state, seat, Rng(1234))
        assert game.view(other, seat) == game.view(state, seat)
        assert other != state
        bot_a, bot_b = SearchBot(gid, 77, BUDGET), SearchBot(gid, 77, BUDGET)
        a = bot_a.choose_state(state, seat)
        b = bot_b.choose_state(other, seat)
        assert a == b
        # not only the move: every playout the bot ran scored the same in both
        assert bot_a.last_rewards == bot_b.last_rewards
        assert a in game.legal_moves(state, seat)


@pytest.mark.parametrize("gid", GAMES)
def test_a_search_bot_plays_legal_moves_within_its_playout_budget(gid: str) -> None:
    game = all_games()[gid]
    for state, seat in _decision_points(game, 2, 22, 2):
        bot = SearchBot(gid, 5, BUDGET)
        move = bot.choose_state(state, seat)
        assert move in game.legal_moves(state, seat)
        assert 0 < bot.last_playouts <= BUDGET.playouts


def test_a_search_bot_takes_the_only_option_without_thinking() -> None:
    game = all_games()["expedition"]
    state = game.setup(2, None, 1)
    state["phase"] = "draw"
    state["display"] = [None] * 5
    state["deck"] = state["deck"][:1]
    seat = game.active_seats(state)[0]  # the start player is drawn from the seed
    assert len(game.legal_moves(state, seat)) == 1
    bot = SearchBot("expedition", 1, BUDGET)
    assert bot.choose_state(state, seat) == {"a": "draw", "from": "deck"}
    assert bot.last_playouts == 0


def test_the_search_never_tries_a_cancel_the_greedy_bot_did_not_choose() -> None:
    from server.games import get_game
    from server.games.search import Budget, SearchBot, greedy_for

    for game_id in ("khan", "voyages"):
        game = get_game(game_id)
        state = game.setup(2, None, 4)
        bots = [greedy_for(game_id, s) for s in range(2)]
        checked = 0
        while game.result(state) is None and checked < 5:
            seat = game.active_seats(state)[0]
            prompt = game.prompt(state, seat)
            assert prompt is not None
            options = prompt["options"]
            if {"a": "cancel"} in options and len(options) > 1:
                bot = SearchBot(game_id, 3, Budget(seconds=None, playouts=4, candidates=len(options)))
                others = [o for o in options if o != {"a": "cancel"}]
                cands = bot._candidates(options, others[0])
                assert {"a": "cancel"} not in cands and len(cands) == len(others)
                assert bot._candidates(options, {"a": "cancel"})[0] == {"a": "cancel"}
                assert bot.choose_state(state, seat) != {"a": "cancel"}  # greedy scores cancel -100
                checked += 1
            state = game.apply(state, seat, bots[seat].choose(prompt, game.view(state, seat)))
        assert checked > 0, game_id


def test_a_search_bounded_by_time_stops_at_the_games_measured_playout_count() -> None:
    """Classic's search measured best at 32 playouts (docs/bots.md): the server's time-bounded search stops
    there too, however long it may think; an explicit count (the arena's) still rules."""
    from server.games.classic import bots as classic_bots
    from server.games.search import greedy_for

    game = all_games()["classic"]
    state = game.setup(2, None, 5)
    greedy = [greedy_for("classic", s) for s in range(2)]
    runs = 0
    for _ in range(300):
        seat = game.active_seats(state)[0]
        prompt = game.prompt(state, seat)
        assert prompt is not None
        if len(prompt["options"]) > 2:
            bot = SearchBot("classic", runs, Budget(seconds=5.0))
            bot.choose_state(state, seat)
            assert bot.last_playouts == classic_bots.SEARCH_PLAYOUTS
            bot = SearchBot("classic", runs, Budget(seconds=5.0, playouts=6))
            bot.choose_state(state, seat)
            assert bot.last_playouts == 6
            runs += 1
            if runs == 3:
                break
        state = game.apply(state, seat, greedy[seat].choose(prompt, game.view(state, seat)))
    assert runs == 3


def test_a_candidate_replaces_the_greedy_move_only_by_the_games_standard_errors() -> None:
    """The pick rule: mean paired gain minus `confidence` standard errors above zero; classic asks for 2."""
    greedy = [10.0, 20.0, 30.0, 40.0, 50.0, 60.0, 70.0, 80.0]
    gains = [5.0, -1.0, 6.0, 0.0, 4.0, 7.0, -2.0, 5.0]  # mean 3.0, standard error about 1.22
    better = [g + d for g, d in zip(greedy, gains, strict=True)]
    worse = [g - 1.0 for g in greedy]
    rewards = [greedy, worse, better]
    assert SearchBot._pick(rewards, [0, 1, 2], 1.0) == 2
    assert SearchBot._pick(rewards, [0, 1, 2], 2.0) == 2
    assert SearchBot._pick(rewards, [0, 1, 2], 3.0) == 0  # 3.0 - 3 x 1.22 < 0: the greedy move stays
    assert SearchBot._pick(rewards, [0, 1], 0.0) == 0  # a candidate no better than greedy never replaces it
    assert SearchBot("classic").confidence == 2.0
    assert SearchBot("expedition").confidence == 1.0
