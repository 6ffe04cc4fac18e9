"""Hand-made states for the classic Marco Polo rule tests.

`build` takes a real set-up and overwrites exactly what a test names; play then goes only through
`GAME.apply`, `GAME.legal_moves`, `GAME.prompt`, `GAME.view` and `GAME.result`. `rig` picks the seed of the
game's own RNG so that the next spin (and fight) comes out as the test needs: nothing else is faked.
"""

from __future__ import annotations

from typing import Any

from server.games.base import Move, Rng, State
from server.games.classic.data import COLOURS, RANSOM_OF_ROUTE, WHEELS, colour_of, table_id
from server.games.classic.engine import GAME
from tests.util import strings  # noqa: F401 (re-exported for the rule tests)

DONE: Move = {"a": "done"}
BUY: Move = {"a": "buy"}
FIGHT: Move = {"a": "fight"}
DECLINE: Move = {"a": "decline"}
PAY_MONEY: Move = {"a": "ransom", "pay": "money"}


def spin(route: str) -> Move:
    return {"a": "spin", "route": route}


def to(node: str) -> Move:
    return {"a": "move", "to": node}


def sell(card: str) -> Move:
    return {"a": "sell", "card": card}


def gift(card: str) -> Move:
    return {"a": "gift", "card": card}


def ransom(card: str) -> Move:
    return {"a": "ransom", "card": card}


def discard(card: str) -> Move:
    return {"a": "discard", "card": card}


def force(seat: int) -> Move:
    return {"a": "force", "seat": seat}


def build(
    seats: int = 3,
    *,
    pawns: list[str] | None = None,
    routes: list[str | None] | None = None,
    money: list[int] | None = None,
    hands: list[list[str]] | None = None,
    stacks: dict[str, list[str]] | None = None,
    missions: dict[int, str] | None = None,
    secret: list[bool] | None = None,
    options: dict[str, Any] | None = None,
    seed: int = 1,
    **fields: Any,
) -> State:
    """A set-up state with the named parts replaced.

    hands: every seat's goods cards; they are taken out of the stacks so every card exists once.
    stacks: exact contents (top first) of the named colours' stacks. missions: {seat: city} gives that seat
    the Golden Table of `city` (taken from the Golden Table stack). Any other keyword (turn, phase, spin,
    trade, skip, extra, ransom, round, first, ...) is stored as is. Seat 0 is the start player unless
    `turn` and `first` say otherwise.
    """
    state = GAME.setup(seats, options or {}, seed)
    # hand-made states start with seat 0 (the start player of a real game is drawn from the seed)
    state["turn"] = 0
    state["first"] = 0
    if pawns is not None:
        assert len(pawns) == seats
        state["pawns"] = list(pawns)
    if routes is not None:
        state["routes"] = list(routes)
    else:
        state["routes"] = ["land"] * seats
    if money is not None:
        state["money"] = list(money)
    if hands is not None:
        assert len(hands) == seats
        state["hands"] = [sorted(h) for h in hands]
        held = {c for h in hands for c in h}
        for colour in COLOURS:
            state["stacks"][colour] = [c for c in state["stacks"][colour] if c not in held]
    for colour, cards in (stacks or {}).items():
        state["stacks"][colour] = list(cards)
    for seat, city in (missions or {}).items():
        table = table_id(city)
        state["tables"].remove(table)
        state["table"][seat] = table
    if secret is not None:
        state["secret"] = list(secret)
        state["secrets"] -= sum(secret)
    for key, value in fields.items():
        assert key in state, key
        state[key] = value
    return state


def rig(state: State, value: int | str, *, route: str | None = None, dice: tuple[int, int] | None = None) -> State:
    """Set the game's RNG seed so the next spin on `route` shows `value` (and the fight's dice are `dice`).

    dice = (player's big die, robbers' small die).
    """
    seat = state["turn"]
    route = route or state["routes"][seat]
    assert route is not None
    wheel = WHEELS[route]
    for seed in range(1, 1_000_000):
        rng = Rng(seed)
        if wheel[rng.below(len(wheel))] != value:
            continue
        if dice is not None and (1 + rng.below(6), 1 + rng.below(6)) != dice:
            continue
        state["rng"] = seed
        return state
    raise LookupError((value, dice))


def rig_fight(state: State, dice: tuple[int, int]) -> State:
    """Set the RNG seed so that the next fight (a `fight` move) rolls `dice`."""
    for seed in range(1, 1_000_000):
        rng = Rng(seed)
        if (1 + rng.below(6), 1 + rng.below(6)) == dice:
            state["rng"] = seed
            return state
    raise LookupError(dice)


def moving(seats: int = 3, value: int = 2, **kw: Any) -> State:
    """Seat 0 has spun `value` on its route's wheel and now chooses where its move ends."""
    state = build(seats, **kw)
    state["phase"] = "move"
    state["spin"] = {"route": state["routes"][0], "sector": value - 1, "value": value}
    return state


def at_post(state: State, seat: int, post: str, phase: str = "sell") -> State:
    """`seat` has just arrived at `post` (its turn, trading under way)."""
    from server.games.classic.data import NODES

    state["pawns"][seat] = post
    state["turn"] = seat
    state["phase"] = phase
    state["trade"] = {"post": post, "colour": NODES[post].colour, "bought": 0}
    return state


def pass_turn(state: State, seat: int) -> State:
    """`seat` spins robbers on its route's wheel and wins the fight: its turn ends without a move."""
    route = state["routes"][seat] or "land"
    return play(rig(state, RANSOM_OF_ROUTE[route], route=route, dice=(6, 1)), seat, spin(route))


def play(state: State, seat: int, *moves: Move) -> State:
    """Apply `moves` in order for `seat`."""
    for m in moves:
        state = GAME.apply(state, seat, m)
    return state


def kinds(state: State, seat: int) -> list[str]:
    """The kinds of move `seat` is offered, in order, without duplicates."""
    out: list[str] = []
    for m in GAME.legal_moves(state, seat):
        if m["a"] not in out:
            out.append(m["a"])
    return out


def dests(state: State, seat: int) -> list[str]:
    """The end points offered in the move phase."""
    return [m["to"] for m in GAME.legal_moves(state, seat) if m["a"] == "move"]


def events(state: State, kind: str) -> list[dict[str, Any]]:
    """The public log's events of one kind."""
    return [e for e in GAME.view(state, None)["public"]["log"] if e["ev"] == kind]


def of_colour(cards: list[str], colour: str) -> list[str]:
    return [c for c in cards if colour_of(c) == colour]


