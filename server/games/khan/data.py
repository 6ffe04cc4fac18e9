"""Component data of Marco Polo II: In the Service of the Khan, loaded from the HOUSE DATA files.

Owns: the map (`board.json`: locations, routes with costs and seals, the roles of the cities, the shield track),
the cards (`cards.json`: contracts, city cards, goal cards, offer tiles) and the tiles (`tiles.json`: guild
seals, city-bonus markers, outpost bonuses, caravan routes, characters), with lookups and a consistency check.
Must not: hold rules. Every file is our own reconstruction and says so (and what it rests on) in `_source`.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

from server.games.dice.graph import adjacency


def _load(name: str) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(resources.files(__package__).joinpath(name).read_text(encoding="utf-8"))
    assert doc["_source"].startswith("HOUSE DATA"), name
    return doc


_BOARD = _load("board.json")
_CARDS = _load("cards.json")
_TILES = _load("tiles.json")

GOODS: tuple[str, ...] = ("pepper", "silk", "gold")
#: what a player holds and counts (jade is a good too, but also pays for coins and camels)
RESOURCES: tuple[str, ...] = ("coins", "camels", "pepper", "silk", "gold", "jade", "vp")
SEALS: tuple[str, ...] = ("farmer", "spicer", "tailor", "jeweler")

NODES: list[dict[str, Any]] = _BOARD["nodes"]
EDGES: list[dict[str, Any]] = _BOARD["edges"]
NODE: dict[str, dict[str, Any]] = {n["id"]: n for n in NODES}
BEIJING: str = next(n["id"] for n in NODES if n["type"] == "start")
CITIES: frozenset[str] = frozenset(n["id"] for n in NODES if n["type"] == "city")
OASES: frozenset[str] = frozenset(n["id"] for n in NODES if n["type"] == "oasis")
SHIELDS: tuple[str, ...] = tuple(_BOARD["shields"])
SHIELD_OF: dict[str, str] = {n["id"]: n["shield"] for n in NODES if n["type"] == "city"}

#: location -> [(neighbour, coins, camels, jade, seal or None)], sorted by neighbour
ADJACENT: dict[str, list[tuple[str, int, int, int, str | None]]] = adjacency(
    NODES, EDGES, ("coins", "camels", "jade", "seal")
)

CONTRACT_CITIES: tuple[str, ...] = tuple(_BOARD["contract_cities"])
CARD_SLOT_CITIES: tuple[str, ...] = tuple(_BOARD["card_slots"])
MARKER_CITIES: tuple[str, ...] = tuple(_BOARD["marker_cities"])
OUTPOST_CITIES: tuple[str, ...] = tuple(_BOARD["outpost_cities"])
SPECIAL: dict[str, dict[str, Any]] = _BOARD["special_cities"]
SPECIAL_CITIES: tuple[str, ...] = tuple(SPECIAL)
SPECIAL_TWICE_FROM: int = _BOARD["special_twice_from"]
SHIELD_TRACK: tuple[int, ...] = tuple(_BOARD["shield_track"])
POST_VP: dict[int, int] = {int(k): v for k, v in _BOARD["post_vp"].items()}

CONTRACTS: dict[str, dict[str, Any]] = {c["id"]: c for c in [*_CARDS["contracts"], *_CARDS["starting_contracts"]]}
RED_CONTRACTS: tuple[str, ...] = tuple(c["id"] for c in _CARDS["contracts"])
STARTERS: tuple[str, ...] = tuple(c["id"] for c in _CARDS["starting_contracts"])
CITY_CARDS: dict[str, dict[str, Any]] = {c["id"]: c for c in _CARDS["city_cards"]}
GOALS: dict[str, dict[str, Any]] = {g["id"]: g for g in _CARDS["goals"]}
OFFER_TILES: dict[str, dict[str, Any]] = {t["id"]: t for t in _CARDS["offer_tiles"]}
OFFER_PILES: tuple[tuple[str, ...], ...] = tuple(
    tuple(t["id"] for t in _CARDS["offer_tiles"] if t["pile"] == n) for n in (1, 2, 3)
)

SEAL: dict[str, dict[str, Any]] = _TILES["seals"]
MARKERS: dict[str, dict[str, Any]] = {m["id"]: m for m in _TILES["markers"]}
OUTPOSTS: dict[str, dict[str, Any]] = {t["id"]: t for t in _TILES["outposts"]}
CARAVAN_ROUTES: dict[str, dict[str, Any]] = {r["id"]: r for r in _TILES["caravan_routes"]}
CHARACTERS: dict[str, dict[str, str]] = _TILES["characters"]
#: the seal whose improved side a special city's action rewards
SPECIAL_SEAL: dict[str, str] = {c: v["seal"] for c, v in SPECIAL.items()}


def token_number(token: str) -> int:
    """The number at the end of an id such as `contract-12` (for a stable numeric sort)."""
    return int(token.rsplit("-", 1)[1])


def _check() -> None:
    assert 25 <= len(NODES) <= 35 and NODES[0]["id"] == BEIJING
    assert len(SHIELDS) == 9 and set(SHIELD_OF.values()) == set(SHIELDS)
    assert len(CONTRACT_CITIES) == 5 and len(set(CARD_SLOT_CITIES)) + len(SPECIAL_CITIES) == 8
    assert (
        len(CARD_SLOT_CITIES) == 6
        and len(MARKER_CITIES) == 6
        and set(SPECIAL_CITIES)
        == {
            "baghdad",
            "balkh",
            "hormuz",
        }
    )
    assert "kashgar" in MARKER_CITIES and "kashgar" in CARD_SLOT_CITIES
    for group in (CONTRACT_CITIES, CARD_SLOT_CITIES, MARKER_CITIES, OUTPOST_CITIES, SPECIAL_CITIES):
        assert all(c in CITIES for c in group)
    sea = [e["seal"] for e in EDGES if e["seal"]]
    assert sorted(sea) == sorted(["spicer", "spicer", "tailor", "tailor", "jeweler", "jeweler"])
    assert len(SHIELD_TRACK) == 14 and SHIELD_TRACK[-1] == 43
    assert len(RED_CONTRACTS) == 42 and len(STARTERS) == 7
    assert len(CITY_CARDS) == 25 and len(GOALS) == 14 and len(MARKERS) == 7 and len(OUTPOSTS) == 10
    assert [len(p) for p in OFFER_PILES] == [6, 6, 6]
    for t in OFFER_TILES.values():
        assert [o["jade"] for o in t["offers"]] == [0, 0, 1, 2]
    for g in GOALS.values():
        keys = [i.get("seal") or i.get("shield") for i in g["icons"]]
        assert len(g["icons"]) == 4 and len(set(keys)) == 4
        assert all(k in SEALS or k in SHIELDS for k in keys)
    for r in CARAVAN_ROUTES.values():
        a, b = r["shields"]
        assert a != b and a in SHIELDS and b in SHIELDS
    for c in CONTRACTS.values():
        assert c["reward"].get("vp", 0) > 0 and len(c["reward"]) >= 2
    assert tuple(SEAL) == SEALS and len(CHARACTERS) == 7
    # the map is connected
    seen = {BEIJING}
    stack = [BEIJING]
    while stack:
        for n, *_ in ADJACENT[stack.pop()]:
            if n not in seen:
                seen.add(n)
                stack.append(n)
    assert len(seen) == len(NODES)


_check()

#: constant board data, sent in the public view under `board` (nothing in it is hidden)
BOARD_VIEW: dict[str, Any] = {
    "nodes": [dict(n) for n in NODES],
    "edges": [dict(e) for e in EDGES],
    "shields": list(SHIELDS),
    "contract_cities": list(CONTRACT_CITIES),
    "card_slots": list(CARD_SLOT_CITIES),
    "marker_cities": list(MARKER_CITIES),
    "outpost_cities": list(OUTPOST_CITIES),
    "special_cities": {
        k: {kk: (dict(vv) if isinstance(vv, dict) else vv) for kk, vv in v.items()} for k, v in SPECIAL.items()
    },
    "special_twice_from": SPECIAL_TWICE_FROM,
    "shield_track": list(SHIELD_TRACK),
    "post_vp": {str(k): v for k, v in POST_VP.items()},
    "seals": {k: {kk: (dict(vv) if isinstance(vv, dict) else vv) for kk, vv in v.items()} for k, v in SEAL.items()},
    "characters": {k: dict(v) for k, v in CHARACTERS.items()},
}
