"""The classic greedy bot plans its routes with the post-ports Cambay and Maabar, where land and sea meet."""

from __future__ import annotations

from server.games.classic.bots import dist
from server.games.classic.data import ADJ, NODES, ROUTES, switches


def test_the_greedy_bot_counts_a_post_port_as_a_place_to_change_from_land_to_sea() -> None:
    # a pawn that came to Cambay by land may declare sea at its next turn: Hormuz is one sea step away
    assert "hormuz" in ADJ["sea"]["cambay"]
    assert dist(frozenset({"hormuz"}), "cambay", "land") == 1
    # and a land route through Cambay goes on by sea: Multan - Cambay (land), Cambay - Calicut (sea)
    assert dist(frozenset({"calicut"}), "multan", "land") == 2


def test_at_every_point_where_a_pawn_may_change_route_the_bot_sees_both_route_types() -> None:
    for node in NODES:
        if switches(node):
            for target in ("hormuz", "kabul", "calicut"):
                d = {r: dist(frozenset({target}), node, r) for r in ROUTES}
                assert d["land"] == d["sea"], (node, target, d)
