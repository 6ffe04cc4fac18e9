"""The components: the goods cards of the sources, and the house board, wheels and hazard cards with their checks."""

from __future__ import annotations

import json
from importlib import resources

from server.games.classic.data import (
    ALL_CARDS,
    COLOURS,
    HAZARDS,
    KHANBALIQ,
    MISSION_CITIES,
    NODES,
    RANSOM_OF_ROUTE,
    VENICE,
    WHEELS,
    reachable,
    value_of,
)


def test_the_56_cards_are_per_colour_three_80s_four_50s_two_30s_and_five_hazard_cards() -> None:
    assert len(ALL_CARDS) == 56 and COLOURS == ("violet", "green", "yellow", "turquoise")
    for colour in COLOURS:
        mine = [c for c in ALL_CARDS if c.startswith(colour + "-")]
        values = sorted(value_of(c) for c in mine if c not in HAZARDS)
        assert values == [30, 30, 50, 50, 50, 50, 80, 80, 80]
        assert sum(1 for c in mine if c in HAZARDS) == 5


def test_each_compass_wheel_has_eight_sectors_values_1_to_6_and_two_hazard_sectors() -> None:
    assert WHEELS["land"] == [1, 2, 3, 4, 5, 6, "robbers", "robbers"]
    assert WHEELS["sea"] == [1, 2, 3, 4, 5, 6, "pirates", "pirates"]
    assert RANSOM_OF_ROUTE == {"land": "robbers", "sea": "pirates"}


def test_the_house_board_has_every_kind_of_stopping_point_and_all_of_them_are_reachable() -> None:
    assert 45 <= len(NODES) <= 70
    kinds = {n.type for n in NODES.values()}
    assert kinds == {"venice", "city", "post", "port", "khanbaliq", "mission"}
    for colour in COLOURS:
        assert sum(1 for n in NODES.values() if n.colour == colour) == 5
    assert reachable(VENICE) == set(NODES)


def test_the_mission_cities_lie_beyond_khanbaliq() -> None:
    assert sorted(MISSION_CITIES) == ["kyoto", "lhasa", "mandalay", "manila"]
    west = reachable(VENICE, frozenset({KHANBALIQ}))
    assert not set(MISSION_CITIES) & west


def test_the_data_files_say_what_is_house_data_and_what_it_rests_on() -> None:
    for name in ("board.json", "cards.json"):
        raw = json.loads(resources.files("server.games.classic").joinpath(name).read_text(encoding="utf-8"))
        assert raw["_house_data"].startswith(("HOUSE DATA", "Goods cards")) and "HOUSE DATA" in raw["_house_data"]
        assert "seed 001" in raw["_house_data"] and "decisions.md" in raw["_house_data"]


def test_every_point_where_land_and_sea_routes_meet_lets_a_pawn_change_route_there() -> None:
    from server.games.classic.data import ADJ, switches

    for node in NODES.values():
        if ADJ["land"][node.id] and ADJ["sea"][node.id]:
            assert switches(node.id), f"{node.id} joins land and sea routes but is a dead end for one of them"


def test_cambay_and_maabar_are_trading_posts_and_ports_and_only_trading_posts_can_be_post_ports() -> None:
    from server.games.classic.data import BOARD_VIEW, switches

    assert NODES["cambay"].type == NODES["maabar"].type == "post"
    assert NODES["cambay"].port and NODES["maabar"].port and switches("cambay")
    assert not NODES["yazd"].port and not switches("yazd")
    assert all(n.type == "post" for n in NODES.values() if n.port)
    shown = {n["id"]: n for n in BOARD_VIEW["nodes"]}
    assert shown["cambay"]["port"] is True and "port" not in shown["yazd"]


def test_the_kabul_multan_road_joins_the_northern_and_southern_routes_at_the_post_port_cambay() -> None:
    from server.games.classic.data import ADJ

    assert "multan" in ADJ["land"]["cambay"] and ADJ["sea"]["cambay"]
    # without Cambay's port, a land pawn from the north could not reach the sea routes through Multan
    assert NODES["cambay"].port
