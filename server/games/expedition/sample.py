"""Expedition determinization: a full state one seat cannot tell from the real one.

Owns: `sample_state(game, state, seat, rng)` (the engine's `sample_state` hook calls it).
Must not: read where a hidden card lies: other hands and the deck are read only as one sorted pool.
Kept: everything in the seat's view and the public history (`seen`, the stalemate counter, the Kantshou
trigger). Redrawn: the other hands (same sizes) and the deck order from the pool of cards the seat cannot
see, the other seats' chest values (same chest counts; unless `open_gold`), the RNG.
The undo savepoint (`state["undo"]`) is dropped: it holds the real hidden parts of the turn's start, and search
bots never take a turn back (the sample's prompts offer no `undo`; as in every game, see
tests/conformance/test_sample_state.py).
"""

from __future__ import annotations

from typing import Any

from server.games.base import Rng, State, clone

#: how a hidden chest is redrawn: gold comes in threes first (`_give`), so a 3 is the likeliest
_CHEST_WEIGHTS = (1, 1, 2)


def sample_state(game: Any, state: State, seat: int, rng: Rng) -> State:
    """A copy of `state` with every secret of the other seats redrawn (see the module's docstring)."""
    return _sample(state, seat, rng)


def _sample(state: State, seat: int, rng: Rng) -> State:
    """A copy of `state` with every secret of the other seats and the deck order redrawn."""
    out = clone({key: value for key, value in state.items() if key != "undo"})
    seats: int = out["seats"]
    others = [s for s in range(seats) if s != seat]
    pool = sorted([*out["deck"], *(c for s in others for c in out["hands"][s])])
    rng.shuffle(pool)
    for s in others:
        n = len(out["hands"][s])
        out["hands"][s] = sorted(pool[:n])
        del pool[:n]
    out["deck"] = pool
    if not out["options"]["open_gold"]:
        for s in others:
            g = [0, 0, 0]
            for _ in range(sum(out["gold"][s])):
                r = rng.below(sum(_CHEST_WEIGHTS))
                v = 0 if r < _CHEST_WEIGHTS[0] else (1 if r < _CHEST_WEIGHTS[0] + _CHEST_WEIGHTS[1] else 2)
                g[v] += 1
            out["gold"][s] = g
    if out["pick"] is not None and out["turn"] != seat:
        out["pick"] = None  # another seat's half-chosen payment is its secret
    out["stats"] = {}
    out["rng"] = rng.next64()
    return out
