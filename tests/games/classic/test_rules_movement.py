"""Seed 001 "Liikkuminen pelilaudalla" and decisions.md B: the route type, the spin, where a move may end."""

from __future__ import annotations

from server.games.classic.engine import GAME

from .helpers import DONE, build, dests, events, kinds, moving, play, rig, spin, to


def test_a_move_uses_the_whole_spin_unless_it_ends_early_at_a_trading_post() -> None:
    state = moving(value=2, pawns=["kashan", "venice", "venice"])
    # two steps from Kashan, or one step to the trading posts Baghdad and Yazd; never the city Sultaniya
    assert dests(state, 0) == ["baghdad", "basra", "damascus", "kerman", "mosul", "nishapur", "tabriz", "yazd"]
    assert "sultaniya" not in dests(state, 0)


def test_every_move_ends_at_a_port() -> None:
    state = moving(value=3, pawns=["ancyra", "venice", "venice"])
    assert "constantinople" in dests(state, 0)  # one step, a port
    assert "ragusa" not in dests(state, 0)  # would pass through the port
    assert {"acre", "trebizond"} <= set(dests(state, 0))  # ports reached with the last step


def test_a_pawn_starting_its_turn_on_a_port_may_change_between_land_and_sea() -> None:
    state = build(3, pawns=["constantinople", "venice", "venice"], routes=["land", None, None])
    assert GAME.legal_moves(state, 0) == [spin("land"), spin("sea")]
    state = rig(state, 1, route="sea")
    state = play(state, 0, spin("sea"))
    assert state["routes"][0] == "sea" and state["stats"]["route_change"] == 1


def test_the_route_type_changes_only_at_venice_or_a_port() -> None:
    state = build(3, pawns=["ancyra", "venice", "venice"], routes=["land", None, None])
    assert GAME.legal_moves(state, 0) == [spin("land")]
    # Venice counts as a port: the route type is declared there when leaving
    state = build(3)
    assert GAME.legal_moves(state, 0) == [spin("land"), spin("sea")]


def test_the_server_spins_the_wheel_of_the_declared_route_type() -> None:
    state = rig(build(3), 1, route="sea")
    after = play(state, 0, spin("sea"))
    assert after["spin"] is None and after["pawns"][0] == "corfu"  # one sea step from Venice
    assert events(after, "spin")[-1] == {"ev": "spin", "seat": 0, "route": "sea", "value": 1, "n": 1}
    state = rig(build(3), 1, route="land")
    after = play(state, 0, spin("land"))
    assert after["pawns"][0] == "ragusa"  # one land step from Venice


def test_a_move_with_more_than_one_possible_end_asks_the_player() -> None:
    state = rig(build(3, pawns=["kashan", "venice", "venice"]), 2, route="land")
    state = play(state, 0, spin("land"))
    assert state["phase"] == "move" and kinds(state, 0) == ["move"]
    state = play(state, 0, to("nishapur"))
    assert state["pawns"][0] == "nishapur" and state["turn"] == 1


def test_pawns_pass_each_other() -> None:
    state = moving(value=2, pawns=["kashan", "sultaniya", "venice"])
    assert {"tabriz", "nishapur"} <= set(dests(state, 0))


def test_no_two_pawns_stop_on_the_same_city() -> None:
    state = moving(value=2, pawns=["kashan", "nishapur", "venice"])
    assert "nishapur" not in dests(state, 0)


def test_any_number_of_pawns_share_a_trading_post_a_port_venice_khanbaliq_and_a_mission_city() -> None:
    state = moving(value=2, pawns=["kashan", "tabriz", "basra"])
    assert {"tabriz", "basra"} <= set(dests(state, 0))
    assert build(4)["pawns"] == ["venice"] * 4  # everybody starts in Venice
    state = moving(value=1, pawns=["ganzhou", "khanbaliq", "venice"], missions={0: "kyoto"})
    assert "khanbaliq" in dests(state, 0)
    state = moving(
        value=1, pawns=["formosa", "manila", "venice"], routes=["sea", "sea", "land"], missions={0: "kyoto"}
    )
    assert "manila" in dests(state, 0)


def test_a_player_who_cannot_end_a_move_on_a_free_point_stops_at_the_last_legal_one() -> None:
    # from Manila two sea steps lead only to Ryukyu, a city taken by seat 1: the move stops on Formosa
    state = build(3, pawns=["manila", "ryukyu", "venice"], routes=["sea", "sea", "land"], missions={0: "kyoto"})
    state = play(rig(state, 2, route="sea"), 0, spin("sea"))
    assert state["pawns"][0] == "formosa"
    assert events(state, "move")[-1]["short"] is True


def test_a_pawn_with_no_legal_stop_at_all_stays_where_it_is() -> None:
    # every point one step from Nishapur is a city with a pawn on it
    state = build(4, pawns=["nishapur", "sultaniya", "merv", "herat"])
    state = play(rig(state, 1, route="land"), 0, spin("land"))
    assert state["pawns"][0] == "nishapur" and state["turn"] == 1
    assert events(state, "no_move")


def test_a_hazard_sector_means_no_movement_but_a_fight() -> None:
    state = build(3, pawns=["kashan", "venice", "venice"])
    state = play(rig(state, "robbers", route="land", dice=(5, 2)), 0, spin("land"))
    assert state["pawns"][0] == "kashan"
    assert events(state, "fight")[-1]["space"] == "robbers"


# ---- trading posts that are also ports (seed 001: large circles are "trading posts and ports") ---------------


def test_a_land_pawn_that_stops_on_the_post_port_cambay_may_go_on_by_sea() -> None:
    state = moving(value=1, pawns=["multan", "venice", "venice"], routes=["land", None, None])
    state = play(state, 0, to("cambay"), DONE)
    assert state["pawns"][0] == "cambay" and state["routes"][0] == "land" and state["turn"] == 1
    state = build(3, pawns=["cambay", "venice", "venice"], routes=["land", None, None])
    assert GAME.legal_moves(state, 0) == [spin("land"), spin("sea")]
    state = play(rig(state, 1, route="sea"), 0, spin("sea"))
    assert state["routes"][0] == "sea" and dests(state, 0) == ["calicut", "hormuz"]


def test_a_sea_pawn_on_the_post_port_maabar_may_go_on_by_land_to_calicut() -> None:
    state = build(3, pawns=["maabar", "venice", "venice"], routes=["sea", None, None])
    assert GAME.legal_moves(state, 0) == [spin("land"), spin("sea")]
    state = play(rig(state, 1, route="land"), 0, spin("land"))
    assert state["routes"][0] == "land" and state["pawns"][0] == "calicut"


def test_a_post_port_is_no_compulsory_stop_a_move_may_pass_it_on_the_same_route_type() -> None:
    # Hormuz -> Cambay -> Calicut by sea: Cambay is a trading post, so stopping there is a choice
    state = moving(value=2, pawns=["hormuz", "venice", "venice"], routes=["sea", None, None])
    assert dests(state, 0) == ["basra", "calicut", "cambay"]  # Basra: a port, one step


def test_the_route_type_still_changes_only_on_a_port_not_on_an_ordinary_trading_post() -> None:
    state = build(3, pawns=["yazd", "venice", "venice"], routes=["land", None, None])
    assert GAME.legal_moves(state, 0) == [spin("land")]


def _walked(state: dict, seat: int, steps: int) -> tuple[list[str], bool]:
    """The walk of `movement.destinations` with the rule's predicates spelled out (the oracle for the cache)."""
    from server.games.classic import movement
    from server.games.classic.data import CITY, KHANBALIQ, NODES, PORT, VENICE

    occupied = {p for s, p in enumerate(state["pawns"]) if s != seat and NODES[p].type == CITY}
    has_table = state["table"][seat] is not None
    bearer = not has_table and len(GAME.eighties(state, seat)) >= 3
    mission = GAME.mission_city(state, seat)
    return movement.destinations(
        state["pawns"][seat],
        steps,
        state["routes"][seat],
        may_enter=lambda n: n != KHANBALIQ or has_table or bearer,
        must_stop=lambda n: NODES[n].type in (VENICE, PORT) or (n == KHANBALIQ and not has_table) or n == mission,
        may_stay=lambda n: n not in occupied,
    )


def test_the_memoised_destinations_agree_with_the_walk_along_whole_games() -> None:
    import random

    checked = 0
    for seed in range(6):
        rng = random.Random(seed)
        state = GAME.setup(2 + seed % 3, None, seed)
        for _ in range(400):
            if GAME.result(state) is not None:
                break
            for seat in range(state["seats"]):
                if state["routes"][seat] is None:
                    continue
                for steps in range(1, 7):
                    got = GAME.destinations(state, seat, steps)
                    assert got == _walked(state, seat, steps)
                    got[0].append("nowhere")  # a caller's list is its own: the cache keeps its copy
                    assert GAME.destinations(state, seat, steps) == _walked(state, seat, steps)
                    checked += 1
            seat = GAME.active_seats(state)[0]
            state = GAME.apply(state, seat, rng.choice(GAME.legal_moves(state, seat)))
    assert checked > 1000
