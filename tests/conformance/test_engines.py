"""Properties every registered rule engine must have; a new game joins by registering.

Seeded random playthroughs check the engine interface (DESIGN.md section 2) and hidden information
(section 4) at every step.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from server.games import all_games
from server.games.base import MAX_OPTIONS, Game, IllegalMove, Rng, State, pack, successor, unpack
from server.games.bots import RandomBot
from tests.util import strings

GAMES = all_games()
CASES = [(gid, n) for gid, g in sorted(GAMES.items()) for n in range(g.min_seats, g.max_seats + 1)]
IDS = [f"{gid}-{n}" for gid, n in CASES]
MOVE_BOUND = 20_000


def _is_json_document(doc: Any) -> bool:
    if doc is None or isinstance(doc, bool | int | str):
        return True
    if isinstance(doc, list):
        return all(_is_json_document(x) for x in doc)
    if isinstance(doc, dict):
        return all(isinstance(k, str) and _is_json_document(v) for k, v in doc.items())
    return False


def playthrough(game: Game, seats: int, seed: int, options: dict[str, Any] | None = None):  # type: ignore[no-untyped-def]
    """Yield (state, seat, prompt, move) for every step of one random game, then the final state."""
    state = game.setup(seats, options, seed)
    bot = RandomBot(seed ^ 0x5EED)
    for _ in range(MOVE_BOUND):
        if game.result(state) is not None:
            break
        active = game.active_seats(state)
        seat = active[bot.rng.below(len(active))]
        prompt = game.prompt(state, seat)
        assert prompt is not None, "an active seat must get a prompt"
        move = bot.choose(prompt)
        yield state, seat, prompt, move
        state = game.apply(state, seat, move)
    yield state, None, None, None


def _final(game: Game, seats: int, seed: int, options: dict[str, Any] | None = None) -> tuple[State, list[Any]]:
    moves = []
    final: State = {}
    for state, seat, _prompt, move in playthrough(game, seats, seed, options):
        final = state
        if move is not None:
            moves.append((seat, move))
    return final, moves


@pytest.mark.parametrize(("gid", "seats"), CASES, ids=IDS)
def test_every_random_game_ends_within_the_bound_with_a_result(gid: str, seats: int) -> None:
    game = GAMES[gid]
    for seed in range(5):
        state, moves = _final(game, seats, seed)
        assert len(moves) < MOVE_BOUND
        result = game.result(state)
        assert result is not None
        assert len(result["scores"]) == seats
        assert result["winners"] and all(0 <= w < seats for w in result["winners"])
        assert game.active_seats(state) == []
        assert all(game.prompt(state, s) is None for s in range(seats))


@pytest.mark.parametrize(("gid", "seats"), CASES, ids=IDS)
def test_every_step_keeps_the_interface_promises(gid: str, seats: int) -> None:
    game = GAMES[gid]
    for seed in (11, 12):
        for state, seat, prompt, move in playthrough(game, seats, seed):
            active = set(game.active_seats(state))
            # result is set exactly when the game is over
            assert (game.result(state) is None) == bool(active)
            # only active seats get a prompt, and prompts are bounded
            for s in range(seats):
                p = game.prompt(state, s)
                assert (p is not None) == (s in active)
                if p is not None:
                    assert 0 < len(p["options"]) <= MAX_OPTIONS
                    assert isinstance(p["text"], str) and p["text"]
            assert game.prompt(state, None) is None
            # state round-trips through msgpack
            assert unpack(pack(state)) == state
            # views: JSON documents, identical public parts, no foreign secrets
            views = {s: game.view(state, s) for s in [*range(seats), None]}
            publics = {json.dumps(v["public"], sort_keys=True) for v in views.values()}
            assert len(publics) == 1
            hidden = set(game.hidden_tokens(state))
            for viewer, v in views.items():
                assert _is_json_document(v)
                if viewer is None:
                    assert v["private"] is None
                seen = strings(v)
                assert not (seen & hidden), f"hidden data in the view of {viewer}"
                for other in range(seats):
                    if other != viewer:
                        leak = seen & set(game.secret_tokens(state, other))
                        assert not leak, f"seat {other}'s secrets {leak} in the view of {viewer}"
            if move is None:
                break
            assert seat is not None and prompt is not None
            # every option applies without error (checked on a sample to keep the test fast)
            for option in prompt["options"][:8]:
                before = pack(state)
                game.apply(state, seat, option)
                assert pack(state) == before, "apply must not mutate its input"


@pytest.mark.parametrize(("gid", "seats"), CASES, ids=IDS)
def test_the_same_seed_and_moves_give_the_same_state(gid: str, seats: int) -> None:
    game = GAMES[gid]
    final, moves = _final(game, seats, 7)
    replay = game.setup(seats, None, 7)
    for seat, move in moves:
        replay = game.apply(replay, seat, move)
    assert pack(replay) == pack(final)
    again, _ = _final(game, seats, 7)
    assert pack(again) == pack(final)


@pytest.mark.parametrize(("gid", "seats"), CASES, ids=IDS)
def test_different_seeds_deal_different_games(gid: str, seats: int) -> None:
    game = GAMES[gid]
    assert pack(game.setup(seats, None, 1)) != pack(game.setup(seats, None, 2))


def _mutations(move: dict[str, Any], rng: Rng) -> list[Any]:
    out: list[Any] = [None, [], "move", 7, {}, {**move, "extra": 1}]
    for key, value in move.items():
        out.append({k: v for k, v in move.items() if k != key})
        if isinstance(value, int) and not isinstance(value, bool):
            out.append({**move, key: value + 1 + rng.below(5)})
            out.append({**move, key: -1})
            out.append({**move, key: str(value)})
        elif isinstance(value, str):
            out.append({**move, key: value + "x"})
            out.append({**move, key: 0})
        elif isinstance(value, list):
            out.append({**move, key: value[:-1]})
            out.append({**move, key: [*value, value[0]] if value else ["x"]})
            out.append({**move, key: list(reversed(value)) + ["junk"]})
    return out


@pytest.mark.parametrize(("gid", "seats"), CASES, ids=IDS)
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), stop=st.integers(0, 400), data=st.data())
def test_illegal_or_mutated_moves_raise_and_change_nothing(
    gid: str, seats: int, seed: int, stop: int, data: st.DataObject
) -> None:
    game = GAMES[gid]
    rng = Rng(seed)
    for i, (state, seat, prompt, move) in enumerate(playthrough(game, seats, seed)):
        if move is None or i < stop:
            if move is None:
                return
            continue
        assert seat is not None and prompt is not None
        before = pack(state)
        legal = prompt["options"]
        for bad in _mutations(move, rng):
            if bad in legal:
                continue
            with pytest.raises(IllegalMove):
                game.apply(state, seat, bad)
            assert pack(state) == before
        # a seat that is not active may not move at all
        for other in range(seats):
            if other not in game.active_seats(state):
                with pytest.raises(IllegalMove) as err:
                    game.apply(state, other, move)
                assert err.value.code == "not_your_turn"
                assert pack(state) == before
        # fuzzed maps built from the move's own keys
        fuzzed = data.draw(
            st.dictionaries(
                st.sampled_from([*move.keys(), "a", "x"]),
                st.one_of(st.integers(-3, 300), st.text(max_size=12), st.booleans(), st.none()),
                max_size=4,
            )
        )
        if fuzzed not in legal:
            with pytest.raises(IllegalMove):
                game.apply(state, seat, fuzzed)
            assert pack(state) == before
        return


@pytest.mark.parametrize("gid", sorted(GAMES))
def test_setup_refuses_seat_counts_outside_the_range(gid: str) -> None:
    game = GAMES[gid]
    for bad in (game.min_seats - 1, game.max_seats + 1):
        with pytest.raises(ValueError):
            game.setup(bad, None, 1)


@pytest.mark.parametrize("gid", sorted(GAMES))
def test_options_reject_unknown_keys(gid: str) -> None:
    game = GAMES[gid]
    with pytest.raises(ValueError):
        game.parse_options({"no_such_option": True})


@pytest.mark.parametrize("gid", sorted(GAMES))
def test_the_copy_apply_changes_equals_the_state_and_shares_only_the_logged_events(gid: str) -> None:
    from loadtests.copy_bench import mid_game

    state = mid_game(gid, 40, 3)
    before = pack(state)
    new = successor(state)
    assert pack(new) == before and list(new) == list(state)
    assert new["log"] is not state["log"] and new["log"] == state["log"]
    assert all(a is b for a, b in zip(new["log"], state["log"], strict=True))  # events are shared, not copied
    for key, value in state.items():
        if key == "undo":  # the undo savepoint is never changed once made: shared (see `successor`)
            assert new[key] is value
        elif key != "log" and isinstance(value, dict | list):
            assert new[key] is not value, key
    new["log"].append({"ev": "x", "n": -1})
    new["stats"]["x"] = 1
    assert pack(state) == before
