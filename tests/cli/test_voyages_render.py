"""The Voyages terminal renderer on views taken from real engine states (`GAME.setup`, moves, `GAME.view`)."""

from __future__ import annotations

import random
from typing import Any

from clients.cli.games.voyages import (
    Board,
    VoyagesRenderer,
    bundle_words,
    card_words,
    contract_words,
    event_words,
    goal_words,
)
from clients.cli.render import option_label, option_labels, renderer_for, view_text
from server.games.base import State
from server.games.voyages.bots import GreedyBot
from server.games.voyages.engine import GAME

NAMES = ("ann", "bob", "cy", "dee")


def view_of(state: State, seat: int | None) -> dict[str, Any]:
    """The whole document a viewer gets from the server (room.build_view's shape)."""
    seats = state["seats"]
    v = GAME.view(state, seat)
    result = GAME.result(state)
    return {
        "game": "voyages",
        "room": "rvoy",
        "you": seat,
        "status": "finished" if result else "playing",
        "seats": [{"name": NAMES[i], "taken": True, "connected": True} for i in range(seats)],
        "public": v["public"],
        "private": v["private"],
        "prompt": GAME.prompt(state, seat),
        "result": result,
    }


def play(state: State, moves: int, seed: int = 1) -> State:
    """`moves` moves of greedy bots (each seat its own bot, seeded)."""
    bots = [GreedyBot(seed + i) for i in range(state["seats"])]
    for _ in range(moves):
        if GAME.result(state) is not None:
            break
        seat = GAME.active_seats(state)[0]
        move = bots[seat].choose(GAME.prompt(state, seat), GAME.view(state, seat))
        state = GAME.apply(state, seat, move)
    return state


def move(state: State, want: dict[str, Any]) -> State:
    """Apply `want` for the seat to move (it must be one of its options)."""
    seat = GAME.active_seats(state)[0]
    assert want in GAME.legal_moves(state, seat), (want, GAME.legal_moves(state, seat))
    return GAME.apply(state, seat, want)


def test_the_voyages_renderer_is_registered() -> None:
    assert isinstance(renderer_for("voyages"), VoyagesRenderer)


def test_own_goal_cards_appear_in_your_render_only() -> None:
    state = play(GAME.setup(2, {}, 7), 30)
    board = Board(GAME.view(state, None)["public"])
    mine = [goal_words(board, g) for g in GAME.view(state, 0)["private"]["goals"]]
    theirs = [goal_words(board, g) for g in GAME.view(state, 1)["private"]["goals"]]
    assert len(mine) == 2 and len(theirs) == 2 and not set(mine) & set(theirs)
    own = view_text(view_of(state, 0), width=400).replace(" ✓", "")
    other = view_text(view_of(state, 1), width=400).replace(" ✓", "")
    spectator = view_text(view_of(state, None), width=400).replace(" ✓", "")
    assert "Your goal cards (secret)" in own
    for words in mine:
        assert words in own
        assert words not in other
        assert words not in spectator
    for words in theirs:
        assert words not in own
    assert "Your goal cards" not in spectator
    assert "You are watching." in spectator


def test_goal_cards_are_shown_for_everybody_after_the_final_scoring() -> None:
    state = play(GAME.setup(2, {}, 3), 2000)
    assert GAME.result(state) is not None
    spectator = view_text(view_of(state, None), width=400).replace(" ✓", "")
    board = Board(GAME.view(state, None)["public"])
    for seat in (0, 1):
        for g in GAME.view(state, seat)["private"]["goals"]:
            assert goal_words(board, g) in spectator


def test_the_map_lists_the_25_locations_and_the_30_routes_with_their_costs() -> None:
    text = view_text(view_of(GAME.setup(2, {}, 5), 0), width=160)
    for name in ("Venezia", "Moscow", "Beijing", "Sumatra", "Kochi", "Oasis 22", "Lan-Zhou", "Samarcanda"):
        assert name in text
    rows = [line for line in text.splitlines() if line[:2].strip().isdigit() and "│" in line]
    assert len(rows) == 25
    assert "Map: 30 routes" in text
    for route in ("Venezia – Oasis 9: 3 camels", "Adana – Kochi: 15 coins", "Venezia – Alexandria: free"):
        assert route in text
    anxi = next(line for line in rows if "Anxi" in line)
    assert "small city" in anxi and "bonus: 5 coins" in anxi  # the beginner marker on Anxi
    beijing = next(line for line in rows if "Beijing" in line)
    assert "10/7/4/1 VP" in beijing
    venezia = next(line for line in rows if "Venezia" in line)
    assert "ann*" in venezia and "bob" in venezia  # both figures start there; yours is marked


def test_trading_posts_and_figures_show_where_they_are() -> None:
    state = GAME.setup(2, {"characters": ["kubilai", "berke"]}, 5)
    text = view_text(view_of(state, 1), width=160)
    beijing = next(line for line in text.splitlines() if line[:2].strip() == "8")
    assert "ann (10 VP)" in beijing  # Kubilai starts with a post on Beijing's 10 space
    assert "ann" in beijing.split("│")[-1]  # and his figure stands there


def test_the_turn_line_dice_and_players_are_shown() -> None:
    state = GAME.setup(2, {}, 11)  # beginner, seat 0 drawn to start: Raschid (no roll) and Matteo (white die)
    text = view_text(view_of(state, 1), width=160)
    assert "Round 1 of 5.  ann to play." in text
    assert "Raschid ad-Din Sinan" in text and "Matteo Polo" in text
    ann = next(line for line in text.splitlines() if line.startswith("▶"))
    assert "[?][?][?][?][?]" in ann  # Raschid's dice are not rolled
    bob = next(line for line in text.splitlines() if "bob (you)" in line and "Matteo" in line)
    assert "]w" in bob  # Matteo's white die
    assert "Contracts held" in text and "Your board" in text


def test_dice_placed_on_action_spaces_and_the_khan_ladder_are_shown() -> None:
    state = GAME.setup(2, {}, 11)  # a seed whose drawn start player is seat 0 (no compensation)
    state = move(state, {"a": "space", "space": "khan"})
    text = view_text(view_of(state, 0), width=160)
    assert "ann (you) is placing dice on Khan's favor (0 of 1 chosen)" in text
    assert "Place your die as a 4 on Khan's favor" in option_labels(view_of(state, 0))
    state = move(state, {"a": "die", "kind": "own", "value": 4})
    state = move(state, {"a": "good", "good": "silk"})
    text = view_text(view_of(state, None), width=160)
    khan = next(line for line in text.splitlines() if line.startswith("Khan's favor"))
    assert "neutral [1] ≤ neutral [1] ≤ ann [4] ≤ empty" in khan
    coins = next(line for line in text.splitlines() if line.startswith("Take 5 coins"))
    assert "neutral [1]" in coins  # the 2-player neutral die
    assert "ann placed 4 on Khan's favor" in text


def test_the_contract_display_city_cards_and_the_bazaar_are_shown() -> None:
    state = GAME.setup(3, {}, 9)
    view = view_of(state, 0)
    text = view_text(view, width=160)
    display = view["public"]["display"]
    assert len(display) == 6
    assert f"slot 1: {contract_words(display[0])}" in text
    assert "(+2 coins or camels)" in text
    for cc in view["public"]["city_cards"]:
        assert card_words(cc["card"]) in text
    assert text.count("  Sumatra: ") == 3 and "city-card-" not in text
    gold = next(line for line in text.splitlines() if line.startswith("gold ") and "│" in line)
    assert "3 gold + 1 free move" in gold and "2 gold + 2 camels" in gold


def test_option_labels_read_as_words_in_real_games() -> None:
    seen: dict[str, str] = {}
    for seed, seats, options in ((1, 2, {}), (2, 3, {"expert": True}), (3, 4, {})):
        state = GAME.setup(seats, options, seed)
        rng = random.Random(seed)
        while GAME.result(state) is None:
            seat = GAME.active_seats(state)[0]
            view = view_of(state, seat)
            for o, label in zip(view["prompt"]["options"], option_labels(view), strict=True):
                assert not label.startswith("{"), (o, label)
                seen.setdefault(str(o["a"]), label)
            state = GAME.apply(state, seat, rng.choice(view["prompt"]["options"]))
    for verb in ("space", "die", "end", "bag", "column", "take", "good", "comp", "goals", "character"):
        assert verb in seen, verb


def test_labels_name_the_action_the_dice_and_the_places() -> None:
    state = GAME.setup(2, {}, 11)  # a seed whose drawn start player is seat 0 (no compensation)
    view = view_of(state, 0)
    labels = option_labels(view)
    assert "Bazaar: gold (3 dice)" in labels
    assert "Travel (2 dice)" in labels
    assert "Money bag: put your die (any value) in it for 3 coins" in labels
    state = move(state, {"a": "space", "space": "travel"})
    state = move(state, {"a": "die", "kind": "own", "value": 2})
    state = move(state, {"a": "die", "kind": "own", "value": 2})
    labels = option_labels(view_of(state, 0))
    assert "Move from Venezia to Alexandria" in labels
    assert "Move from Venezia to Oasis 9 (route: 3 camels)" not in labels  # ann has 2 camels only
    assert "Move from Venezia to Oasis 1" in labels
    state = move(state, {"a": "step", "fig": 0, "to": 1})
    labels = option_labels(view_of(state, 0))
    assert labels == ["Move from Oasis 1 to Venezia", "Move from Oasis 1 to Moscow", "Stop moving here"]


def test_the_other_pending_choices_read_as_words() -> None:
    state = GAME.setup(2, {}, 11)  # a seed whose drawn start player is seat 0 (no compensation)
    view = view_of(state, 0)
    words = {
        "Take column 3 of the silk bazaar: 2 silk + 1 camel": {"a": "column", "n": 3},
        "Take 1 pepper and 1 gold": {"a": "goods", "goods": ["pepper", "gold"]},
        "Buy a black die for 3 camels": {"a": "black"},
        "Turn your 3 die to 2 for 2 camels": {"a": "adjust", "kind": "own", "value": 3, "by": -1},
        "Reroll the black 5 die for 1 camel": {"a": "reroll", "kind": "black", "value": 5},
        "End your turn": {"a": "end"},
        "Take the bonus 3 camels": {"a": "bonus", "marker": 1},
        "Take the bonus of Kochi (3 VP)": {"a": "city", "city": 24},
        "Move your trading post from Moscow": {"a": "relocate", "from": 2},
        "Give 1 silk for 2 camels": {"a": "trade", "give": "silk"},
        "Decline the new contract": {"a": "decline"},
        (
            "Play Wilhelm von Rubruk: 11 trading posts (+10 VP if all are placed); places a post"
            " in every city moved through."
        ): {"a": "character", "character": "wilhelm"},  # named with its ability
    }
    view["public"]["pending"] = [{"seat": 0, "kind": "column", "res": "silk", "max": 4}]
    for expected, option in words.items():
        assert option_label(view, option) == expected
    assert option_label(view, {"a": "teleport", "to": 9}) == '{"a":"teleport","to":9}'


def test_words_for_costs_rewards_and_city_cards() -> None:
    assert bundle_words({"camels": 2, "silk": 1, "gold": 2}) == "2 camels + 1 silk + 2 gold"
    assert bundle_words({"any_good": 1, "black_die": 1, "vp": 5}) == "1 good of your choice + 1 black die + 5 VP"
    assert bundle_words({"two_goods": 1, "move": 1, "contract": 1}) == (
        "2 different goods + 1 free move + the top special contract"
    )
    assert card_words({"kind": "per_pip", "reward": {"coins": 2}}) == "2 coins per pip of the die"
    assert card_words({"kind": "by_die", "good": "gold", "amount_by_die": [1, 1, 1, 1, 1, 3]}) == (
        "by die value 1 to 6: gold 1/1/1/1/1/3"
    )


def test_log_events_read_as_words() -> None:
    state = play(GAME.setup(2, {}, 7), 60)
    view = view_of(state, 0)
    for ev in view["public"]["log"]:
        assert not event_words(view, ev).startswith("{"), ev
    assert event_words(view, {"ev": "step", "seat": 1, "from": 0, "to": 9, "coins": 3, "camels": 3}) == (
        "bob moved from Venezia to Oasis 9 for 3 coins + 3 camels"
    )
    assert event_words(view, {"ev": "post", "seat": 0, "city": 2, "nth": 8, "vp": 5}) == (
        "ann (you) placed trading post 8 in Moscow (+5 VP)"
    )
    assert event_words(view, {"ev": "comet", "n": 3}) == '{"ev":"comet"}'


def test_the_result_shows_scores_camels_and_the_breakdown() -> None:
    state = play(GAME.setup(2, {}, 3), 2000)
    result = GAME.result(state)
    assert result is not None
    text = view_text(view_of(state, 0), width=160)
    assert "Game over after round 5." in text
    assert "Final result" in text and "camels" in text
    assert "Final scoring" in text and "most contracts" in text
    winner = result["winners"][0]
    row = next(line for line in text.splitlines() if "│" in line and "winner" in line)
    assert NAMES[winner] in row and str(result["scores"][winner]) in row
    assert "The game is over." in text
