"""Component data of the classic Marco Polo game: board, compass wheels, cards (house data where noted).

Owns: loading `board.json` and `cards.json`, card and Golden Table ids, the adjacency by route type, and
the checks that the house board keeps the rules' fixed points (Khanbaliq stands between Venice and every
mission city, every stopping point can be reached). Must not: hold rules. Both files say in their header
what comes from the sources and what is our reconstruction; replacing them changes no code.
"""

from __future__ import annotations

import json
from collections import deque
from dataclasses import dataclass
from importlib import resources
from typing import Any

LAND = "land"
SEA = "sea"
ROUTES: tuple[str, ...] = (LAND, SEA)

VENICE = "venice"
KHANBALIQ = "khanbaliq"
#: node types (see board.json "node_types")
CITY = "city"
POST = "post"
PORT = "port"
MISSION = "mission"
NODE_TYPES: frozenset[str] = frozenset({VENICE, CITY, POST, PORT, KHANBALIQ, MISSION})
#: where a pawn that starts its turn there may choose its route type
SWITCH_TYPES: frozenset[str] = frozenset({VENICE, PORT})

#: seed 001: the winning total by player count, counted in money, goods cards and the two 240 cards
TARGETS: dict[int, int] = {2: 1000, 3: 800, 4: 600}
#: seed 001: the colours of which a winner holds at least one and at most two cards
WIN_COLOURS: tuple[str, ...] = ("turquoise", "yellow", "green")
START_MONEY = 240  # seed 001
RANSOM_MONEY = 50  # seed 001 (TRIC says 30; decisions.md B: 50)
EMPTY_LOOT = 30  # seed 001: the winner's reward from the bank when the ransom space is empty
MAX_BUYS = 3  # seed 001: 1-3 cards from the stock per visit


def _load(name: str) -> dict[str, Any]:
    raw: dict[str, Any] = json.loads(resources.files(__package__).joinpath(name).read_text(encoding="utf-8"))
    return raw


@dataclass(frozen=True)
class Node:
    id: str
    name: str
    type: str
    colour: str | None
    x: int
    y: int
    #: a trading post that is also a port (seed 001: large circles are "trading posts and ports")
    port: bool = False

    def as_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"id": self.id, "name": self.name, "type": self.type, "x": self.x, "y": self.y}
        if self.colour is not None:
            d["colour"] = self.colour
        if self.port:
            d["port"] = True
        return d


_BOARD = _load("board.json")
_CARDS = _load("cards.json")

NODES: dict[str, Node] = {
    n["id"]: Node(n["id"], n["name"], n["type"], n.get("colour"), int(n["x"]), int(n["y"]), bool(n.get("port")))
    for n in _BOARD["nodes"]
}
EDGES: tuple[tuple[str, str, str], ...] = tuple((a, b, mode) for a, b, mode in _BOARD["edges"])
#: ADJ[route][node] = neighbours along edges of that route type, sorted
ADJ: dict[str, dict[str, list[str]]] = {r: {n: [] for n in NODES} for r in ROUTES}
for _a, _b, _mode in EDGES:
    ADJ[_mode][_a].append(_b)
    ADJ[_mode][_b].append(_a)
for _r in ROUTES:
    for _n in NODES:
        ADJ[_r][_n].sort()
RANSOM_SPACES: tuple[dict[str, Any], ...] = tuple(_BOARD["ransom_spaces"])
#: the ransom space fed by fights on each wheel
RANSOM_OF_ROUTE: dict[str, str] = {s["route"]: s["id"] for s in RANSOM_SPACES}
WHEELS: dict[str, list[int | str]] = {r: list(_BOARD["wheels"][r]) for r in ROUTES}

COLOURS: tuple[str, ...] = tuple(_CARDS["colours"])
GOODS_COPIES: dict[int, int] = {int(v): int(n) for v, n in _CARDS["goods_per_colour"].items()}
BUY_PRICE: int = _CARDS["buy_price"]
FORCED_SALE_PRICE: int = _CARDS["forced_sale_price"]
TABLE_VALUE: int = _CARDS["golden_table_value"]
SECRET_VALUE: int = _CARDS["secret_value"]
MISSION_CITIES: tuple[str, ...] = tuple(_CARDS["mission_cities"])
HAZARD_KINDS: frozenset[str] = frozenset(_CARDS["effect_kinds"])


def goods_id(colour: str, value: int, copy: int) -> str:
    """The id of one goods card, e.g. `violet-80-1`."""
    return f"{colour}-{value}-{copy}"


def hazard_id(colour: str, number: int) -> str:
    """The id of one hazard card, e.g. `green-hazard-3`."""
    return f"{colour}-hazard-{number}"


def table_id(city: str) -> str:
    """The id of the Golden Table naming `city` (a string that appears nowhere else while secret)."""
    return f"table-{city}"


#: hazard id -> {name, text, effect}
HAZARDS: dict[str, dict[str, Any]] = {
    hazard_id(c, i + 1): dict(h) for c in COLOURS for i, h in enumerate(_CARDS["hazards"][c])
}
#: the cards of each colour's stack, in a fixed order before the shuffle
STACK_CARDS: dict[str, tuple[str, ...]] = {
    c: (
        *(goods_id(c, v, i + 1) for v in sorted(GOODS_COPIES, reverse=True) for i in range(GOODS_COPIES[v])),
        *(hazard_id(c, i + 1) for i in range(len(_CARDS["hazards"][c]))),
    )
    for c in COLOURS
}
ALL_CARDS: tuple[str, ...] = tuple(card for c in COLOURS for card in STACK_CARDS[c])
TABLES: tuple[str, ...] = tuple(table_id(c) for c in MISSION_CITIES)


def _colour_of(card: str) -> str:
    return card.split("-", 1)[0]


def _value_of(card: str) -> int:
    return 0 if card in HAZARDS else int(card.split("-")[1])


#: every stack card's colour and value, looked up instead of parsed (the bots and views ask for them often)
_COLOUR: dict[str, str] = {card: _colour_of(card) for card in ALL_CARDS}
_VALUE: dict[str, int] = {card: _value_of(card) for card in ALL_CARDS}


def colour_of(card: str) -> str:
    """Colour of a goods or hazard card id."""
    colour = _COLOUR.get(card)
    return _colour_of(card) if colour is None else colour


def value_of(card: str) -> int:
    """Face value of a goods card id (0 for a hazard card)."""
    value = _VALUE.get(card)
    return _value_of(card) if value is None else value


def card_type(card: str) -> str:
    """Colour and value (`violet-80`): copies of one type are interchangeable."""
    return card.rsplit("-", 1)[0]


def city_of_table(table: str) -> str:
    """The mission city named by a Golden Table id."""
    return table.split("-", 1)[1]


def switches(node: str) -> bool:
    """True where a pawn starting its turn may declare land or sea: Venice, a port, a trading post that is a port."""
    n = NODES[node]
    return n.type in SWITCH_TYPES or n.port


def reachable(start: str, blocked: frozenset[str] = frozenset()) -> set[str]:
    """Stopping points a pawn can reach from `start` (route changes only at Venice and ports)."""
    seen: set[tuple[str, str]] = set()
    todo: deque[tuple[str, str]] = deque((start, r) for r in ROUTES)
    while todo:
        node, route = todo.popleft()
        if (node, route) in seen:
            continue
        seen.add((node, route))
        if switches(node):
            todo.extend((node, r) for r in ROUTES)
        todo.extend((nb, route) for nb in ADJ[route][node] if nb not in blocked)
    return {n for n, _ in seen}


def _check() -> None:
    assert len(NODES) == len(_BOARD["nodes"]), "node ids must be unique"
    assert 45 <= len(NODES) <= 70, "decisions.md B: about 45-70 stopping points"
    for n in NODES.values():
        assert n.type in NODE_TYPES, n
        assert (n.colour is not None) == (n.type == POST), n
        assert n.colour is None or n.colour in COLOURS, n
        assert not n.port or n.type == POST, f"only a trading post can also be a port: {n}"
    pairs = set()
    for a, b, mode in EDGES:
        assert a in NODES and b in NODES and a != b and mode in ROUTES, (a, b, mode)
        assert frozenset((a, b)) not in pairs, f"two routes between {a} and {b}"
        pairs.add(frozenset((a, b)))
    for n in NODES.values():
        both = all(ADJ[r][n.id] for r in ROUTES)
        assert not both or switches(n.id), f"{n.id} joins land and sea routes, so it must be a port"
    assert NODES[VENICE].type == VENICE and NODES[KHANBALIQ].type == KHANBALIQ
    assert sorted(n.id for n in NODES.values() if n.type == MISSION) == sorted(MISSION_CITIES)
    assert reachable(VENICE) == set(NODES), "every stopping point must be reachable from Venice"
    beyond = set(NODES) - reachable(VENICE, frozenset({KHANBALIQ}))
    assert set(MISSION_CITIES) <= beyond, "the mission cities lie beyond Khanbaliq"
    assert sorted(RANSOM_OF_ROUTE) == sorted(ROUTES)
    for route, sectors in WHEELS.items():
        assert len(sectors) == 8 and [s for s in sectors if isinstance(s, int)] == [1, 2, 3, 4, 5, 6], route
        assert all(s == RANSOM_OF_ROUTE[route] for s in sectors if isinstance(s, str)), route
    assert len(ALL_CARDS) == len(set(ALL_CARDS)) == 56
    assert sum(1 for c in ALL_CARDS if c in HAZARDS) == 20
    for h in HAZARDS.values():
        assert h["effect"]["kind"] in HAZARD_KINDS, h
        assert h["effect"].get("space", "robbers") in RANSOM_OF_ROUTE.values(), h
    for c in COLOURS:
        # at most one free card per stack: a free draw can never draw the card that granted it (no loops)
        assert sum(1 for i in STACK_CARDS[c] if i in HAZARDS and HAZARDS[i]["effect"]["kind"] == "free_card") <= 1


_check()

#: the constant part of the public view: the board as drawn by clients
BOARD_VIEW: dict[str, Any] = {
    "canvas": dict(_BOARD["canvas"]),
    "nodes": [n.as_dict() for n in NODES.values()],
    "edges": [[a, b, mode] for a, b, mode in EDGES],
    "ransom_spaces": [dict(s) for s in RANSOM_SPACES],
    "wheels": {r: list(s) for r, s in WHEELS.items()},
}
