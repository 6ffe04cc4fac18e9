"""Hand-made states for the Marco Polo II rule tests.

`build` takes a real set-up, puts it in the middle of round 1 (phase "play", seat 0 to move, no pending
choice) and overwrites exactly what a test names; play then goes only through `GAME.apply`,
`GAME.legal_moves`, `GAME.view` and `GAME.result`.
"""

from __future__ import annotations

from typing import Any

from server.games.base import Move, State
from server.games.khan import data as D
from server.games.khan.engine import GAME
from tests.util import strings  # noqa: F401 (re-exported for the rule tests)

END: Move = {"a": "end"}
STOP: Move = {"a": "stop"}
DONE: Move = {"a": "done"}
SKIP: Move = {"a": "skip"}
DECLINE: Move = {"a": "decline"}

#: characters whose abilities do not touch most tests (Filippo only keeps outpost tiles; tests of outposts,
#: seals, contracts, jade and travel pick their own line-up)
NEUTRAL = ("filippo", "dewu", "mailin", "abha")
ZERO = {"coins": 0, "camels": 0, "pepper": 0, "silk": 0, "gold": 0, "jade": 0, "vp": 0}


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
    """A state in round 1 with seat 0 to move, every seat holding 5 dice of value 3, no contract and its first
    offered goal card, the named parts replaced. Characters default to NEUTRAL.

    players: {seat: {field: value}} overrides of a player's map (coins, camels, dice, posts, figures, seals...).
    Any other keyword (round, contract_spaces, pile, city_cards, area, outposts, markers, khan, spaces...) is
    stored as is.
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
    state["first"] = 0
    state["turn_info"] = {"main": False, "black": False, "fresh": [], "posts": []}
    for p in state["players"]:
        p["dice"] = own(3, 3, 3, 3, 3)
        p["contracts"] = []
        if p["goal_offer"]:
            p["goals"] = [p["goal_offer"][0]]
            p["goals_rejected"] = p["goal_offer"][1:]
            p["goal_offer"] = []
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


def step(to: str, fig: int = 0) -> Move:
    return {"a": "step", "fig": fig, "to": to}


def moves(state: State, seat: int) -> list[Move]:
    return GAME.legal_moves(state, seat)


def kinds(state: State, seat: int) -> list[str]:
    """The kinds of move `seat` is offered, in order, without duplicates."""
    out: list[str] = []
    for m in GAME.legal_moves(state, seat):
        if m["a"] not in out:
            out.append(m["a"])
    return out


def spaces(state: State, seat: int) -> list[str]:
    """The action spaces `seat` may choose now."""
    return [m["space"] for m in GAME.legal_moves(state, seat) if m["a"] == "space"]


def res(state: State, seat: int) -> dict[str, int]:
    p = state["players"][seat]
    return {r: p[r] for r in D.RESOURCES}


def delta(before: dict[str, int], after: dict[str, int]) -> dict[str, int]:
    """The resources that changed, with their change."""
    return {k: after[k] - before[k] for k in after if after[k] != before[k]}


def pending_kind(state: State) -> str | None:
    return state["pending"][0]["kind"] if state["pending"] else None


def next_round(state: State) -> State:
    """End the current round now (seat 0 has done its main action; nobody has a die left)."""
    state["phase"] = "play"
    state["turn"] = 0
    state["turn_info"] = {"main": True, "black": False, "fresh": [], "posts": []}
    state["pending"] = []
    for p in state["players"]:
        p["dice"] = []
    return play(state, 0, END)


def finish(state: State) -> State:
    """Make round 5 end now and return the scored state."""
    state["round"] = 5
    state = next_round(state)
    assert GAME.result(state) is not None
    return state


def through_start(state: State) -> State:
    """Answer every round-start choice with its first option until play begins (compensation: all camels)."""
    while state["phase"] in ("start", "goals"):
        seat = GAME.active_seats(state)[0]
        state = play(state, seat, GAME.legal_moves(state, seat)[0])
    return state
