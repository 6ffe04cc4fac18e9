"""Marco Polo II determinization: a full state one seat cannot tell from the real one.

Owns: `sample_state(game, state, seat, rng)` (the engine's `sample_state` hook calls it).
Must not: read where a hidden card or tile lies: hidden goal cards, contracts, city cards and offer tiles
are read only as sorted pools.
Kept: everything in the seat's view and the public history (`seen`; contracts discarded under the pile
stay at its bottom, in their order; the boxed markers, outposts and starters that never come into play).
Redrawn: the other seats' goal cards (kept, offered, rejected; same counts) from the goal cards the seat has
not seen, the never-seen contracts on top of the pile, the city-card deck order, the offer tiles below each
pile's visible top (with the tile each pile left in the box), the RNG (dice to come).
Dropped: the undo savepoint (`state["undo"]`, the state where the mover's turn began, hidden parts and all).
"""

from __future__ import annotations

from typing import Any

from server.games.base import Rng, State, clone
from server.games.khan import data as D


def sample_state(game: Any, state: State, seat: int, rng: Rng) -> State:
    """A copy of `state` with every secret of the other seats and every face-down order redrawn."""
    # not the undo savepoint (`state["undo"]`): it holds the real hidden parts of the turn's start
    out = clone({k: v for k, v in state.items() if k != "undo"})
    players = out["players"]
    boxed = out["boxed"]
    others = [s for s in range(out["seats"]) if s != seat]
    keys = ("goals", "goal_offer", "goals_rejected")
    goals = sorted([*boxed["goals"], *(g for s in others for k in keys for g in players[s][k])], key=D.token_number)
    rng.shuffle(goals)
    for s in others:
        for k in keys:
            n = len(players[s][k])
            players[s][k] = sorted(goals[:n], key=D.token_number)
            del goals[:n]
    boxed["goals"] = sorted(goals, key=D.token_number)

    seen = set(out["seen"])
    unseen = sorted((c for c in out["pile"] if c not in seen), key=D.token_number)
    rng.shuffle(unseen)
    out["pile"] = [*unseen, *(c for c in out["pile"] if c in seen)]

    deck = sorted(out["deck"], key=D.token_number)
    rng.shuffle(deck)
    out["deck"] = deck

    for i, pile in enumerate(out["offer_piles"]):
        if not pile or i >= len(boxed["offers"]):
            continue
        pool = sorted([*pile[1:], boxed["offers"][i]], key=D.token_number)
        rng.shuffle(pool)
        out["offer_piles"][i] = [pile[0], *pool[: len(pile) - 1]]
        boxed["offers"][i] = pool[-1]
    out["stats"] = {}
    out["rng"] = rng.next64()
    return out
