"""Component data of The Voyages of Marco Polo (base game), loaded from `voyages.json`.

Owns: the map (nodes, undirected routes with extra costs, lookups), the contracts, city cards, goal cards,
outpost bonuses, city-bonus markers, the bazaar table, tier costs and the characters.
Must not: hold rules. The JSON file names its sources in its `_source` header.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

from server.games.dice.graph import adjacency

_RAW: dict[str, Any] = json.loads(resources.files(__package__).joinpath("voyages.json").read_text(encoding="utf-8"))

GOODS: tuple[str, ...] = ("pepper", "silk", "gold")
RESOURCES: tuple[str, ...] = ("coins", "camels", "pepper", "silk", "gold", "vp")

NODES: list[dict[str, Any]] = _RAW["map"]["nodes"]
EDGES: list[dict[str, Any]] = _RAW["map"]["edges"]
NODE_TYPE: dict[int, str] = {n["id"]: n["type"] for n in NODES}
NODE_NAME: dict[int, str] = {n["id"]: n["name"] for n in NODES}
VENEZIA: int = next(n["id"] for n in NODES if n["type"] == "start")
BEIJING: int = next(n["id"] for n in NODES if n["type"] == "beijing")
LARGE_CITIES: tuple[int, ...] = tuple(n["id"] for n in NODES if n["type"] == "large")
SMALL_CITIES: tuple[int, ...] = tuple(n["id"] for n in NODES if n["type"] == "small")
OASES: tuple[int, ...] = tuple(n["id"] for n in NODES if n["type"] == "oasis")
CITIES: frozenset[int] = frozenset((*LARGE_CITIES, *SMALL_CITIES, BEIJING))

#: location -> [(neighbour, extra coins, extra camels)], sorted by neighbour
ADJACENT: dict[int, list[tuple[int, int, int]]] = adjacency(NODES, EDGES, ("coins", "camels"))

CITY_CARD_SLOTS: tuple[int, ...] = tuple(_RAW["city_card_slots"])
TIER_COST: tuple[int, ...] = tuple(_RAW["travel_tier_cost"])
BEIJING_VP: tuple[int, ...] = tuple(_RAW["beijing_vp"])
POST_BONUS_VP: dict[int, int] = {int(k): v for k, v in _RAW["post_bonus_vp"].items()}
GOAL_CITY_SET_VP: tuple[int, ...] = tuple(_RAW["goal_city_set_vp"])
BAZAAR: dict[str, dict[str, Any]] = _RAW["bazaar"]

CONTRACTS: dict[str, dict[str, Any]] = {c["id"]: c for c in _RAW["contracts"]}
STARTERS: tuple[str, ...] = tuple(c["id"] for c in _RAW["contracts"] if c["starter"])
NON_STARTERS: tuple[str, ...] = tuple(c["id"] for c in _RAW["contracts"] if not c["starter"])
CITY_CARDS: dict[str, dict[str, Any]] = {c["id"]: c for c in _RAW["city_cards"]}
GOALS: dict[str, dict[str, Any]] = {g["id"]: g for g in _RAW["goal_cards"]}
OUTPOSTS: dict[str, dict[str, Any]] = {t["id"]: t for t in _RAW["outpost_bonuses"]}
MARKERS: dict[int, dict[str, Any]] = {m["id"]: m for m in _RAW["city_bonus_markers"]}

#: the 8 base characters; Mercator's ability depends on the player count (his three tiles)
CHARACTERS: dict[str, dict[str, str]] = {
    "raschid": {
        "name": "Raschid ad-Din Sinan",
        "ability": "Does not roll: chooses each die's value when placing it; no compensation.",
    },
    "matteo": {"name": "Matteo Polo", "ability": "Each round: the white die and the top contract of the special pile."},
    "mercator": {
        "name": "Mercator ex Tabriz",
        "ability": "Gets 1 of the good (or camel) another player takes at the "
        "bazaar; with 3 or 2 players also 1 camel when another player takes the Khan's favor; with 2 players "
        "also 2 coins when the other player takes 5 coins.",
    },
    "kubilai": {"name": "Kubilai Khan", "ability": "Starts in Beijing with a trading post on its 10-VP space."},
    "berke": {"name": "Berke Khan", "ability": "Never pays to use an occupied action space."},
    "niccolo": {
        "name": "Niccolo and Marco Polo",
        "ability": "A second figure; movement may be split between them; 1 camel each round.",
    },
    "wilhelm": {
        "name": "Wilhelm von Rubruk",
        "ability": "11 trading posts (+10 VP if all are placed); places a post in every city moved through.",
    },
    "carpini": {
        "name": "Johannes Carpini",
        "ability": "May move from any oasis to any other oasis as one step; 3 coins each round.",
    },
}
#: the beginner game's characters by seat (rulebook, player set-up 6)
BEGINNER_CHARACTERS: tuple[str, ...] = ("raschid", "matteo", "berke", "mercator")


def token_number(token: str) -> int:
    """The number at the end of an id such as `contract-12` (for a stable numeric sort)."""
    return int(token.rsplit("-", 1)[1])


def _check() -> None:
    assert len(NODES) == 25 and len(EDGES) == 30
    assert len(LARGE_CITIES) == 7 and len(SMALL_CITIES) == 6 and len(OASES) == 10
    assert len(CONTRACTS) == 44 and len(STARTERS) == 6
    assert len(CITY_CARDS) == 31 and len(GOALS) == 18 and len(OUTPOSTS) == 10 and len(MARKERS) == 6
    assert sorted(set(CITY_CARD_SLOTS)) == sorted(LARGE_CITIES) and len(CITY_CARD_SLOTS) == 9
    assert sorted(m["beginner_city"] for m in MARKERS.values()) == sorted(SMALL_CITIES)
    for g in GOALS.values():
        assert all(c in CITIES for c in g["cities"])


_check()

#: constant board data sent once in the public view
BOARD_VIEW: dict[str, Any] = {
    "nodes": [dict(n) for n in NODES],
    "edges": [dict(e) for e in EDGES],
    "city_card_slots": list(CITY_CARD_SLOTS),
    "travel_tier_cost": list(TIER_COST),
    "beijing_vp": list(BEIJING_VP),
    "bazaar": {k: {"dice": v["dice"], "by_die": [dict(x) for x in v["by_die"]]} for k, v in BAZAAR.items()},
    "characters": {k: dict(v) for k, v in CHARACTERS.items()},
    "city_bonus_markers": {str(k): dict(v["reward"]) for k, v in MARKERS.items()},
}
