"""Classic `sample_state`: the seen cards stay where they lie, only the unseen ones are redrawn.

A card leaves a hand face up for the bottom of its stack and a drawn hazard card goes under too, so a stack is
always its unseen cards on top of the seen ones, in the order everyone watched them go under.
"""

from __future__ import annotations

from server.games.base import Rng, State
from server.games.classic.bots import GreedyBot
from server.games.classic.data import COLOURS, HAZARDS
from server.games.classic.engine import GAME


def _states(seed: int, seats: int = 2) -> list[State]:
    state = GAME.setup(seats, None, seed)
    bots = [GreedyBot(seed + s) for s in range(seats)]
    out: list[State] = []
    while GAME.result(state) is None:
        seat = GAME.active_seats(state)[0]
        prompt = GAME.prompt(state, seat)
        assert prompt is not None
        state = GAME.apply(state, seat, bots[seat].choose(prompt, GAME.view(state, seat)))
        if state["turns"] % 10 == 0:
            out.append(state)
    return out


def test_a_stack_is_its_unseen_cards_on_top_of_the_seen_ones() -> None:
    for seed in (1, 2):
        for state in _states(seed):
            seen = set(state["seen"])
            for colour in COLOURS:
                flags = [c in seen for c in state["stacks"][colour]]
                assert flags == sorted(flags), (seed, colour)


def test_a_sample_keeps_the_seen_cards_and_redraws_the_unseen_ones() -> None:
    moved = 0
    for state in _states(3):
        seen = set(state["seen"])
        for seat in range(2):
            sample = GAME.sample_state(state, seat, Rng(state["turns"]))
            for colour in COLOURS:
                real, drawn = state["stacks"][colour], sample["stacks"][colour]
                assert [c for c in drawn if c in seen] == [c for c in real if c in seen]
                assert [c in seen for c in drawn] == [c in seen for c in real]
                assert sorted(c for c in drawn if c in HAZARDS) == sorted(c for c in real if c in HAZARDS)
                moved += drawn != real
            other = 1 - seat
            assert [c for c in sample["hands"][other] if c in seen] == [c for c in state["hands"][other] if c in seen]
            assert len(sample["hands"][other]) == len(state["hands"][other])
            assert sample["hands"][seat] == state["hands"][seat]
    assert moved > 0


def test_with_three_seats_a_sample_does_not_tell_which_other_hand_holds_a_seen_card() -> None:
    # A blind forced sale between seats 1 and 2 moves a card seat 0 cannot follow: two real states that differ
    # only in which of the two holds a seen card show seat 0 the same, so they must give it the same sample.
    swapped = 0
    for state in _states(5, seats=3):
        seen = set(state["seen"])
        a = next((c for c in state["hands"][1] if c in seen), None)
        b = next((c for c in state["hands"][2] if c not in seen), None)
        if a is None or b is None:
            continue
        other = {**state, "hands": [list(h) for h in state["hands"]]}
        other["hands"][1] = sorted([*(c for c in state["hands"][1] if c != a), b])
        other["hands"][2] = sorted([*(c for c in state["hands"][2] if c != b), a])
        assert GAME.view(other, 0) == GAME.view(state, 0)
        assert GAME.sample_state(other, 0, Rng(7)) == GAME.sample_state(state, 0, Rng(7))
        swapped += 1
    assert swapped > 0
