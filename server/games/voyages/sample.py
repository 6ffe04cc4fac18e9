"""Voyages determinization: a full state one seat cannot tell from the real one.

Owns: `sample_state(game, state, seat, rng)` (the engine's `sample_state` hook calls it).
Must not: read where a hidden card lies: hidden goal cards and contracts are read only as sorted pools.
Kept: everything in the seat's view and the public history (`seen`, completed contracts, the boxed
starters, city cards and outposts that never come into play). Redrawn: the other seats' goal cards (kept,
offered and discarded; same counts) from the goal cards the seat has not seen, the contracts of the round
piles and of the special pile that were never face up (the special pile's known cards stay in it, in a
new order), the RNG (dice to come).
Dropped: the undo savepoint (`state["undo"]`, the state where the mover's turn began, hidden parts and all).
"""

from __future__ import annotations

from typing import Any

from server.games.base import Rng, State, clone
from server.games.voyages import data as D


def sample_state(game: Any, state: State, seat: int, rng: Rng) -> State:
    """A copy of `state` with every secret of the other seats and the pile order redrawn."""
    # not the undo savepoint (`state["undo"]`): it holds the real hidden parts of the turn's start
    out = clone({k: v for k, v in state.items() if k != "undo"})
    players = out["players"]
    others = [s for s in range(out["seats"]) if s != seat]
    keys = ("goals", "goal_offer", "goals_discarded")
    goals = sorted(
        [*out["boxed"]["goals"], *(g for s in others for k in keys for g in players[s][k])], key=D.token_number
    )
    rng.shuffle(goals)
    for s in others:
        for k in keys:
            n = len(players[s][k])
            players[s][k] = sorted(goals[:n], key=D.token_number)
            del goals[:n]
    out["boxed"]["goals"] = sorted(goals, key=D.token_number)

    seen = set(out["seen"])
    unseen = sorted(
        [*(c for pile in out["piles"] for c in pile), *(c for c in out["special"] if c not in seen)],
        key=D.token_number,
    )
    rng.shuffle(unseen)
    piles = []
    for pile in out["piles"]:
        piles.append(unseen[: len(pile)])
        del unseen[: len(pile)]
    out["piles"] = piles
    special = sorted([c for c in out["special"] if c in seen], key=D.token_number) + unseen
    rng.shuffle(special)
    out["special"] = special
    out["stats"] = {}
    out["rng"] = rng.next64()
    return out
