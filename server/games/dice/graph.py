"""Travel on a weighted graph: the map's routes as each location's list of neighbours and route costs.

Owns: `adjacency`, used by both games' data modules (Voyages: extra coins and camels per route; Marco Polo
II: coins, camels, jade and the guild seal a sea route needs).
Must not: hold rules (who may take a route, what it costs a character).
"""

from __future__ import annotations

from typing import Any


def adjacency(nodes: list[dict[str, Any]], edges: list[dict[str, Any]], costs: tuple[str, ...]) -> dict[Any, Any]:
    """location -> [(neighbour, *the edge's `costs` fields)] for undirected `edges`, sorted by neighbour."""
    out: dict[Any, list[tuple[Any, ...]]] = {n["id"]: [] for n in nodes}
    for e in edges:
        fields = tuple(e[k] for k in costs)
        out[e["a"]].append((e["b"], *fields))
        out[e["b"]].append((e["a"], *fields))
    for v in out.values():
        v.sort()
    return out
