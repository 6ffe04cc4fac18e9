"""Where a pawn may end a move of the spun number of steps along one route type.

Owns: the movement rule of seed 001 with decisions.md B, as a pure function of the board and a few facts
about the moving pawn. Must not: touch a game state; the engine passes what it needs.

A move follows routes of one type and never visits a stopping point twice. It ends
- after exactly the spun number of steps, on a stopping point where the pawn may stay
  (an ordinary city holds one pawn at a time; every other point holds any number);
- earlier at a trading post, if the player wants to stop there;
- earlier at a point where every move ends (Venice, a port, Khanbaliq for a pawn bringing the Khan's gifts,
  the mover's own mission city).
A pawn that cannot end a move that way on any path stops at the last point on a path where it could stay
(decisions.md B). A point the pawn may not enter (Khanbaliq without three 80-cards) ends a path.
"""

from __future__ import annotations

from collections.abc import Callable

from server.games.classic.data import ADJ, NODES, POST


def destinations(
    start: str,
    steps: int,
    route: str,
    *,
    may_enter: Callable[[str], bool],
    must_stop: Callable[[str], bool],
    may_stay: Callable[[str], bool],
) -> tuple[list[str], bool]:
    """The points where the move may end, sorted, and whether they are the fall-back stops.

    Returns ([], True) when the pawn cannot move at all (it stays where it is).
    """
    full: set[str] = set()
    fallback: set[str] = set()
    adj = ADJ[route]

    def walk(node: str, k: int, visited: frozenset[str], last_stay: str | None) -> None:
        if k == steps:
            if may_stay(node):
                full.add(node)
            elif last_stay is not None:
                fallback.add(last_stay)
            return
        if must_stop(node):
            full.add(node)  # points where every move ends hold any number of pawns
            return
        if NODES[node].type == POST:
            full.add(node)
        stay = node if may_stay(node) else last_stay
        went_on = False
        for nb in adj[node]:
            if nb in visited or not may_enter(nb):
                continue
            went_on = True
            walk(nb, k + 1, visited | {nb}, stay)
        if not went_on and stay is not None:
            fallback.add(stay)

    for nb in adj[start]:
        if may_enter(nb):
            walk(nb, 1, frozenset({start, nb}), None)
    if full:
        return sorted(full), False
    return sorted(fallback), True
