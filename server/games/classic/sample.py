"""Classic determinization: a full state one seat cannot tell from the real one.

Owns: `sample_state(game, state, seat, rng)` (the engine's `sample_state` hook calls it).
Must not: read where a hidden card lies: other hands and the stacks are read only as sorted pools.
Kept: everything in the seat's view, its own notices, the public history (`seen`, the gifts handed over,
the extra-turn flag). Redrawn: the other hands (same sizes) and every stack's goods and order (same sizes,
the stack's colour only; hazard cards never leave their stack), the Golden Tables not yet revealed (the
other seats' and the face-down pile), the other seats' notices (they are theirs), the RNG. Added: keyed dice
(`state["dice"]`, see `engine.Classic._roll`), so each seat's draws in the sample depend on its own turn count
and not on one stream all seats share.
"""

from __future__ import annotations

from typing import Any

from server.games.base import Rng, State, clone
from server.games.classic.data import COLOURS, HAZARDS, colour_of


def sample_state(game: Any, state: State, seat: int, rng: Rng) -> State:
    """A copy of `state` with every secret of the other seats and the stack order redrawn."""
    out = clone(state)
    seats: int = out["seats"]
    others = [s for s in range(seats) if s != seat]
    goods = sorted(
        [
            *(c for s in others for c in out["hands"][s]),
            *(c for colour in COLOURS for c in out["stacks"][colour] if c not in HAZARDS),
        ]
    )
    rng.shuffle(goods)
    for colour in COLOURS:
        stack = out["stacks"][colour]
        hazards = sorted(c for c in stack if c in HAZARDS)
        need = len(stack) - len(hazards)
        mine = [c for c in goods if colour_of(c) == colour][:need]
        taken = set(mine)
        goods = [c for c in goods if c not in taken]
        new = [*mine, *hazards]
        rng.shuffle(new)
        out["stacks"][colour] = new
    for s in others:
        n = len(out["hands"][s])
        out["hands"][s] = sorted(goods[:n])
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
