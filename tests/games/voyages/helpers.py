"""Hand-made states for the Voyages rule tests.

`build` takes a real set-up, puts it in the middle of a round (phase "play", seat 0 the start player and to
move, no pending choice) and overwrites exactly what a test names; play then goes only through `GAME.apply`,
`GAME.legal_moves`, `GAME.view` and `GAME.result`.
"""

from __future__ import annotations

from typing import Any

from server.games.base import Move, State
from server.games.voyages import data as D
from server.games.voyages.engine import CARD_SPACES, GAME
from tests.util import strings  # noqa: F401 (re-exported for the rule tests)

END: Move = {"a": "end"}
STOP: Move = {"a": "stop"}
DONE: Move = {"a": "done"}

#: characters whose abilities do not touch the tests that use them (seat 0 is Matteo: only round starts differ)
NEUTRAL = ("matteo", "carpini", "niccolo", "wilhelm")
CITY = {n["name"]: n["id"] for n in D.NODES if n["type"] != "oasis"}


def own(*values: int) -> list[list[Any]]:
    """Dice of the player's colour."""
    return [["own", v] for v in values]


def build(
    seats: int = 3,
    *,
    characters: list[str] | None = None,
    options: dict[str, Any] | None = None,
    seed: int = 1,
    players: dict[int, dict[str, Any]] | None = None,
    **fields: Any,
) -> State:
    """A state in round 1 with seat 0 to move, every seat holding 5 dice of value 3 and no contract, the named
    parts replaced. Characters default to NEUTRAL.

    players: {seat: {field: value}} overrides of a player's map (coins, camels, dice, posts, figures...).
    Any other keyword (round, display, special, city_cards, outposts, khan, spaces...) is stored as is.
    """
    opts = dict(options or {})
    if characters is None and "characters" not in opts:
        characters = list(NEUTRAL[:seats])
    if characters is not None:
        opts["characters"] = characters
    state = GAME.setup(seats, opts, seed)
    state["phase"] = "play"
    state["pending"] = []
    state["turn"] = 0
    state["round"] = 1
    state["start_player"] = 0
    state["turn_info"] = {"main": False, "black": False, "posts": []}
    for p in state["players"]:
        p["dice"] = own(3, 3, 3, 3, 3) if p["character"] != "raschid" else own(0, 0, 0, 0, 0)
        p["contracts"] = []
    for seat, over in (players or {}).items():
        for key, value in over.items():
            assert key in state["players"][seat], key
            state["players"][seat][key] = value
    for key, value in fields.items():
        assert key in state, key
        state[key] = value
    return state


def play(state: State, seat: int, *moves: Move) -> State:
    """Apply `moves` in order for `seat`."""
    for m in moves:
        state = GAME.apply(state, seat, m)
    return state


def die(value: int, kind: str = "own") -> Move:
    return {"a": "die", "kind": kind, "value": value}


def place(state: State, seat: int, space: str, *dice: int | tuple[str, int]) -> State:
    """Choose `space` and its dice (ints are dice of the player's colour, or (kind, value) pairs)."""
    state = play(state, seat, {"a": "space", "space": space})
    for d in dice:
        kind, value = ("own", d) if isinstance(d, int) else d
        state = play(state, seat, die(value, kind))
    return state


def card_space(state: State, card: str, city: str | None = None) -> str:
    """Put city card `card` on the first slot of `city` (default Moscow) and return that slot's space id."""
    city_id = CITY[city or "Moscow"]
    slot = D.CITY_CARD_SLOTS.index(city_id)
    state["city_cards"][slot] = card
    return CARD_SPACES[slot]


def moves(state: State, seat: int) -> list[Move]:
    return GAME.legal_moves(state, seat)


def kinds(state: State, seat: int) -> list[str]:
    """The kinds of move `seat` is offered, in order, without duplicates."""
    out: list[str] = []
    for m in GAME.legal_moves(state, seat):
        if m["a"] not in out:
            out.append(m["a"])
    return out


def res(state: State, seat: int) -> dict[str, int]:
    p = state["players"][seat]
    return {r: p[r] for r in D.RESOURCES}


def finish(state: State) -> State:
    """Make round 5 end now: seat 0 has done its main action and ends its turn, and nobody has a die left."""
    state["round"] = 5
    state["phase"] = "play"
    state["turn"] = 0
    state["turn_info"] = {"main": True, "black": False, "posts": []}
    state["pending"] = []
    for p in state["players"]:
        p["dice"] = []
    state = play(state, 0, END)
    assert GAME.result(state) is not None
    return state
