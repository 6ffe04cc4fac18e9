"""Hand-made states for the Marco Polo Expedition rule tests.

`build` takes a real set-up and overwrites exactly what a test names; play then goes only through
`GAME.apply`, `GAME.legal_moves`, `GAME.prompt`, `GAME.view` and `GAME.result`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from server.games.base import Move, State
from server.games.expedition.data import ALL_CARDS, TRACK
from server.games.expedition.engine import GAME
from tests.util import strings  # noqa: F401 (re-exported for the rule tests)

PASS: Move = {"a": "pass"}
STOP: Move = {"a": "stop"}
CANCEL: Move = {"a": "cancel"}
DRAW_DECK: Move = {"a": "draw", "from": "deck"}


def mv(fig: int, *cards: str) -> Move:
    """Move `fig` one space, paying with `cards` (the engine lists pay sets sorted)."""
    return {"a": "move", "fig": fig, "pay": sorted(cards)}


def lighten(fig: int) -> Move:
    return {"a": "lighten", "fig": fig}


def choose(fig: int) -> Move:
    return {"a": "choose", "fig": fig}


def pick(card: str) -> Move:
    return {"a": "pick", "card": card}


def draw_slot(slot: int) -> Move:
    return {"a": "draw", "from": "display", "slot": slot}


def build(
    seats: int = 3,
    *,
    figs: list[int] | list[tuple[int, int]] | None = None,
    hands: list[list[str]] | None = None,
    display: Sequence[str | None] | None = None,
    deck: list[str] | None = None,
    discard: list[str] | None = None,
    gold: list[list[int]] | None = None,
    chests: dict[int, int] | None = None,
    options: dict[str, Any] | None = None,
    seed: int = 1,
    **fields: Any,
) -> State:
    """A set-up state with the named parts replaced.

    figs: positions (figure i belongs to seat i % seats, as at set-up) or (seat, pos) pairs.
    hands: every seat's hand; unless given, the display is the next 5 unused cards and the deck the rest,
    so every card id exists exactly once. chests: {position: value} overrides of the track's chests.
    Any other keyword (turn, phase, kantshou, moved, lightened, idle, ...) is stored as is. Seat 0 is the
    start player (figure i of seat i % seats on space i) unless `turn` and `figs` say otherwise.
    """
    state = GAME.setup(seats, options or {}, seed)
    # hand-made states start with seat 0 on Hormus (a real game draws its start player from the seed)
    state["turn"] = 0
    state["figs"] = [{"seat": i % seats, "pos": i} for i in range(len(state["figs"]))]
    if figs is not None:
        state["figs"] = [
            {"seat": f[0], "pos": f[1]} if isinstance(f, tuple) else {"seat": i % seats, "pos": f}
            for i, f in enumerate(figs)
        ]
    if hands is not None:
        assert len(hands) == seats
        state["hands"] = [sorted(h) for h in hands]
        used = {c for h in hands for c in h} | set(discard or [])
        rest = [c for c in ALL_CARDS if c not in used]
        if display is None:
            display = list(rest[:5])
        used |= {c for c in display if c is not None}
        if deck is None:
            deck = [c for c in rest if c not in used]
    if display is not None:
        state["display"] = list(display)
    if deck is not None:
        state["deck"] = list(deck)
    if discard is not None:
        state["discard"] = list(discard)
    if gold is not None:
        state["gold"] = [list(g) for g in gold]
    for pos, value in (chests or {}).items():
        state["chests"][pos] = value
    for key, value in fields.items():
        assert key in state, key
        state[key] = value
    return state


def play(state: State, seat: int, *moves: Move) -> State:
    """Apply `moves` in order for `seat`."""
    for m in moves:
        state = GAME.apply(state, seat, m)
    return state


def pay_options(state: State, seat: int, fig: int) -> list[list[str]]:
    """The card sets `seat` is offered to move `fig` one space."""
    return [m["pay"] for m in GAME.legal_moves(state, seat) if m["a"] == "move" and m["fig"] == fig]


def kinds(state: State, seat: int) -> list[str]:
    """The kinds of move `seat` is offered, in order, without duplicates."""
    out: list[str] = []
    for m in GAME.legal_moves(state, seat):
        if m["a"] not in out:
            out.append(m["a"])
    return out


def space(kind: str, n: int | None = None, start: int = 1) -> int:
    """The first track position at or after `start` whose requirement is `kind` (with `n` cards)."""
    for s in TRACK[start:]:
        if s.req is not None and s.req["kind"] == kind and (n is None or s.req.get("n") == n):
            return s.pos
    raise LookupError((kind, n))


def gold(state: State, seat: int) -> int:
    g = state["gold"][seat]
    return int(g[0] + 2 * g[1] + 3 * g[2])


