"""Seed 001 set-up, the turn order, the house round limit, the option bound, and what each viewer may see."""

from __future__ import annotations

import pytest

from server.games.base import MAX_OPTIONS, IllegalMove, pack
from server.games.bots import RandomBot
from server.games.classic.bots import GreedyBot
from server.games.classic.data import ALL_CARDS, COLOURS, STACK_CARDS, START_MONEY, TABLES
from server.games.classic.engine import GAME

from .helpers import BUY, at_post, build, play, rig, spin, strings, to


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_every_player_starts_in_venice_with_240_bezants_and_no_cards(seats: int) -> None:
    state = GAME.setup(seats, None, 5)
    assert state["pawns"] == ["venice"] * seats and state["money"] == [START_MONEY] * seats == [240] * seats
    assert state["hands"] == [[]] * seats and state["table"] == [None] * seats
    for colour in COLOURS:
        assert sorted(state["stacks"][colour]) == sorted(STACK_CARDS[colour]) and len(state["stacks"][colour]) == 14
    assert sorted(state["tables"]) == sorted(TABLES) and state["secrets"] == 4
    assert GAME.active_seats(state) == [state["first"]] and state["phase"] == "spin" and state["round"] == 1


def test_the_stacks_and_the_golden_tables_are_shuffled_by_the_seed() -> None:
    a, b = GAME.setup(3, None, 1), GAME.setup(3, None, 2)
    assert a["stacks"] != b["stacks"] or a["tables"] != b["tables"]
    assert GAME.setup(3, None, 1) == a


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_the_start_player_is_drawn_from_the_rooms_seed_and_is_not_always_seat_0(seats: int) -> None:
    # R B3: "the youngest player starts"; the server knows no ages, so the room's seed draws the start player
    starts = [GAME.setup(seats, None, seed)["turn"] for seed in range(60)]
    assert set(starts) == set(range(seats))
    assert all(GAME.setup(seats, None, seed)["turn"] == starts[seed] for seed in range(10))
    assert all(GAME.active_seats(GAME.setup(seats, None, seed)) == [starts[seed]] for seed in range(10))


def test_turns_go_round_the_table_from_the_start_player() -> None:
    state = build(3)
    for seat in (0, 1, 2, 0):
        assert GAME.active_seats(state) == [seat]
        state["routes"][seat] = "land"
        state = play(rig(state, 1, route="land"), seat, spin("land"))
        state["pawns"][seat] = "venice"  # back home, so Ragusa stays free for the next one
    assert state["round"] == 2


def test_a_new_round_begins_when_play_comes_back_to_the_start_player() -> None:
    state = build(3, turn=2, first=2)
    for seat in (2, 0, 1):
        assert GAME.active_seats(state) == [seat] and state["round"] == 1
        state = play(rig(state, 1, route="land"), seat, spin("land"))
        state["pawns"][seat] = "venice"
    assert GAME.active_seats(state) == [2] and state["round"] == 2


def test_moving_out_of_turn_or_an_option_not_offered_is_refused_and_changes_nothing() -> None:
    state = build(3)
    before = pack(state)
    with pytest.raises(IllegalMove) as err:
        GAME.apply(state, 1, spin("land"))
    assert err.value.code == "not_your_turn"
    with pytest.raises(IllegalMove):
        GAME.apply(state, 0, to("ragusa"))
    with pytest.raises(IllegalMove):
        GAME.apply(state, 0, BUY)
    assert pack(state) == before


def test_the_game_ends_after_the_round_limit_ranked_by_progress_then_total() -> None:
    state = build(
        3,
        pawns=["ragusa", "venice", "kashan"],
        money=[900, 100, 300],
        missions={1: "kyoto", 2: "lhasa"},
        options={"max_rounds": 10},
        round=10,
        turn=2,
    )
    state["routes"][2] = "land"
    state = play(rig(state, 1, route="land"), 2, spin("land"))
    while GAME.result(state) is None:  # finish seat 2's move, wherever it ends
        state = play(state, 2, GAME.legal_moves(state, 2)[-1])
    result = GAME.result(state)
    assert result is not None and result["reason"] == "round_limit"
    # seats 1 and 2 hold a Golden Table (240 each); seat 0 is richer but never reached Khanbaliq
    assert result["progress"] == [0, 1, 1]
    assert result["winners"] == [2] and result["ranking"][:2] == [2, 1]


def test_the_round_limit_is_a_room_option() -> None:
    assert GAME.parse_options({}).model_dump() == {"max_rounds": 200}
    with pytest.raises(ValueError):
        GAME.parse_options({"max_rounds": 3})


@pytest.mark.parametrize("seats", [2, 4])
def test_every_prompt_stays_within_the_option_bound_in_whole_games(seats: int) -> None:
    for bot_kind in ("random", "greedy"):
        state = GAME.setup(seats, None, 3)
        bots = [RandomBot(s) if bot_kind == "random" else GreedyBot(s) for s in range(seats)]
        largest = 0
        while GAME.result(state) is None:
            seat = GAME.active_seats(state)[0]
            prompt = GAME.prompt(state, seat)
            assert prompt is not None
            largest = max(largest, len(prompt["options"]))
            bot = bots[seat]
            move = bot.choose(prompt, GAME.view(state, seat)) if isinstance(bot, GreedyBot) else bot.choose(prompt)
            state = GAME.apply(state, seat, move)
        assert 0 < largest <= 64 < MAX_OPTIONS


# ---- hidden information ---------------------------------------------------------------------------


def test_others_see_only_how_many_goods_cards_a_player_holds_and_money_is_public() -> None:
    state = build(3, hands=[["violet-80-1", "green-30-1"], [], []], money=[123, 240, 240])
    for viewer in (1, 2, None):
        view = GAME.view(state, viewer)
        assert view["public"]["players"][0]["hand"] == 2 and view["public"]["players"][0]["money"] == 123
        assert not {"violet-80-1", "green-30-1"} & strings(view)
    assert GAME.view(state, 0)["private"]["hand"] == ["green-30-1", "violet-80-1"]


def test_no_view_shows_the_order_or_the_contents_of_a_stack() -> None:
    state = GAME.setup(4, None, 9)
    for viewer in (0, 1, 2, 3, None):
        view = GAME.view(state, viewer)
        assert not set(ALL_CARDS) & strings(view) and not set(TABLES) & strings(view)
        assert view["public"]["stacks"] == dict.fromkeys(COLOURS, 14)
        assert "rng" not in strings(view)


def test_a_card_bought_from_the_stock_is_seen_only_by_its_buyer() -> None:
    state = build(3, hands=[[], [], []], stacks={"yellow": ["yellow-80-2", "yellow-30-1", "yellow-hazard-1"]})
    state = play(at_post(state, 0, "yazd", phase="buy"), 0, BUY)
    assert "yellow-80-2" in strings(GAME.view(state, 0)["private"])
    for viewer in (1, 2, None):
        assert "yellow-80-2" not in strings(GAME.view(state, viewer))


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_greedy_games_keep_every_secret_through_khanbaliq_the_missions_and_venice(seats: int) -> None:
    state = GAME.setup(seats, None, 21)
    bots = [GreedyBot(s) for s in range(seats)]
    tables_seen = False
    while GAME.result(state) is None:
        views = {v: GAME.view(state, v) for v in [*range(seats), None]}
        hidden = set(GAME.hidden_tokens(state))
        for viewer, view in views.items():
            seen = strings(view)
            assert not seen & hidden
            for other in range(seats):
                if other != viewer:
                    assert not seen & set(GAME.secret_tokens(state, other)), (viewer, other)
        tables_seen = tables_seen or any(t is not None for t in state["table"])
        seat = GAME.active_seats(state)[0]
        prompt = GAME.prompt(state, seat)
        assert prompt is not None
        state = GAME.apply(state, seat, bots[seat].choose(prompt, views[seat]))
    result = GAME.result(state)
    assert result is not None and result["reason"] == "venice" and tables_seen
