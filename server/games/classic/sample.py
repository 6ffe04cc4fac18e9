"""Classic determinization: a full state one seat cannot tell from the real one.

Owns: `sample_state(game, state, seat, rng)` (the engine's `sample_state` hook calls it).
Must not: read where a hidden card lies: other hands and the stacks are read only as sorted pools.
Kept: everything in the seat's view, its own notices, the public history (`seen`, the gifts handed over,
the extra-turn flag), and every seen card where it lies (a stack is its unseen cards on top of the seen ones,
in the public order they went under; a seen card in a hand came there in view, like `secret_tokens` says, so
with one other seat it stays in that hand; with more, the seen cards the other seats hold are dealt among
their hands at random, since a blind forced sale between two of them moves one where this seat cannot see).
Redrawn: the unseen cards of the other hands (same counts) and of every stack's top part (same counts, the
stack's colour only, with its hazard cards not yet drawn; hazard cards never leave their stack), the Golden
Tables not yet revealed (the other seats' and the face-down pile), the other seats' notices (they are theirs),
the RNG. Before, the whole stacks were reshuffled: a stack holds 9 seen cards of 14 on average in greedy
games, and a hazard card just drawn could come again at once in the sample. Added: keyed dice
(`state["dice"]`, see `engine.Classic._roll`), so each seat's draws in the sample depend on its own turn count
and not on one stream all seats share.
The undo savepoint (`state["undo"]`) is dropped: it holds the real hidden parts of the turn's start, and search
bots never take a turn back (the sample's prompts offer no `undo`; as in every game, see
tests/conformance/test_sample_state.py).
"""

from __future__ import annotations

from typing import Any

from server.games.base import Rng, State, clone
from server.games.classic.data import COLOURS, HAZARDS, colour_of


def sample_state(game: Any, state: State, seat: int, rng: Rng) -> State:
    """A copy of `state` with every secret of the other seats redrawn (see the module's docstring)."""
    return _sample(state, seat, rng)


def _sample(state: State, seat: int, rng: Rng) -> State:
    """A copy of `state` with every secret of the other seats and the stack order redrawn."""
    out = clone({key: value for key, value in state.items() if key != "undo"})
    seats: int = out["seats"]
    others = [s for s in range(seats) if s != seat]
    seen = set(out["seen"])
    # a seen card's place is public: a card leaves a hand face up for the bottom of its stack, and a stack is
    # always its unseen cards on top of the seen ones, in the order everyone watched them go under
    goods = sorted(
        [
            *(c for s in others for c in out["hands"][s] if c not in seen),
            *(c for colour in COLOURS for c in out["stacks"][colour] if c not in HAZARDS and c not in seen),
        ]
    )
    rng.shuffle(goods)
    for colour in COLOURS:
        stack = out["stacks"][colour]
        unseen = [c for c in stack if c not in seen]
        hazards = sorted(c for c in unseen if c in HAZARDS)
        need = len(unseen) - len(hazards)
        mine = [c for c in goods if colour_of(c) == colour][:need]
        taken = set(mine)
        goods = [c for c in goods if c not in taken]
        new = [*mine, *hazards]
        rng.shuffle(new)
        out["stacks"][colour] = [*new, *(c for c in stack if c in seen)]
    # the seen cards the other seats hold: with one other seat they are its own; with more, a blind forced
    # sale between two of them moves one unseen by this seat, so they are dealt among those hands at random
    held = {s: [c for c in out["hands"][s] if c in seen] for s in others}
    if len(others) > 1:
        pool = sorted(c for s in others for c in held[s])
        slots = [s for s in others for _ in out["hands"][s]]
        rng.shuffle(slots)
        held = {s: [] for s in others}
        for card, s in zip(pool, slots, strict=False):
            held[s].append(card)
    for s in others:
        kept = held[s]
        n = len(out["hands"][s]) - len(kept)
        out["hands"][s] = sorted([*kept, *goods[:n]])
        del goods[:n]
        out["notices"][s] = []
    hidden = [s for s in others if out["table"][s] is not None and not out["secret"][s]]
    tables = sorted([*out["tables"], *(out["table"][s] for s in hidden)])
    rng.shuffle(tables)
    for s in hidden:
        out["table"][s] = tables.pop()
    out["tables"] = tables
    out["stats"] = {}
    out["rng"] = rng.next64()
    # keyed dice: every spin, fight and forced-sale pick is a function of (key, turn player, that seat's turn
    # count from here, draw index in the turn), so candidates played out in this world share each seat's dice
    out["dice"] = {"key": rng.next64(), "turns": [0] * seats, "draw": 0}
    return out
