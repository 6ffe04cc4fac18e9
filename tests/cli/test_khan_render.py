"""The Marco Polo II terminal renderer on views taken from real engine states (`GAME.setup`, moves, `GAME.view`)."""

from __future__ import annotations

import random
from typing import Any

from clients.cli.games.khan import KhanRenderer, bundle_words, card_words, event_words, goal_words
from clients.cli.render import option_label, option_labels, renderer_for, view_text
from server.games.base import State
from server.games.khan.bots import GreedyBot
from server.games.khan.engine import GAME

NAMES = ("ann", "bob", "cy", "dee")
CHARS2 = {"characters": ["mongke", "abha"]}


def view_of(state: State, seat: int | None) -> dict[str, Any]:
    """The whole document a viewer gets from the server (room.build_view's shape)."""
    seats = state["seats"]
    v = GAME.view(state, seat)
    result = GAME.result(state)
    return {
        "game": "khan",
        "room": "rkhan",
        "you": seat,
        "status": "finished" if result else "playing",
        "seats": [{"name": NAMES[i], "taken": True, "connected": True} for i in range(seats)],
        "public": v["public"],
        "private": v["private"],
        "prompt": GAME.prompt(state, seat),
        "result": result,
    }


def play(state: State, moves: int, seed: int = 1) -> State:
    bots = [GreedyBot(seed + i) for i in range(state["seats"])]
    for _ in range(moves):
        if GAME.result(state) is not None:
            break
        seat = GAME.active_seats(state)[0]
        state = GAME.apply(state, seat, bots[seat].choose(GAME.prompt(state, seat), GAME.view(state, seat)))
    return state


def to_play(state: State) -> State:
    """Answer the goal and round-start choices (first option) until the first turn."""
    while GAME.view(state, None)["public"]["phase"] != "play":
        seat = GAME.active_seats(state)[0]
        state = GAME.apply(state, seat, GAME.legal_moves(state, seat)[0])
    return state


def test_the_khan_renderer_is_registered() -> None:
    assert isinstance(renderer_for("khan"), KhanRenderer)


def test_own_goal_cards_appear_in_your_render_only() -> None:
    state = play(GAME.setup(3, {}, 7), 60)
    goals = [[goal_words(g) for g in GAME.view(state, s)["private"]["goals"]] for s in range(3)]
    assert all(len(x) == 1 for x in goals) and len({x[0] for x in goals}) == 3
    texts = [view_text(view_of(state, s), width=400) for s in range(3)]
    spectator = view_text(view_of(state, None), width=400)
    for s in range(3):
        assert "Your goal cards (secret)" in texts[s]
        assert f"\n    {goals[s][0]}" in texts[s]
        for other in range(3):
            if other != s:
                assert goals[s][0] not in texts[other]
        assert goals[s][0] not in spectator
    assert "Your goal cards" not in spectator
    assert "You are watching." in spectator


def test_goal_offer_is_yours_only_and_goal_labels_name_the_icons() -> None:
    state = GAME.setup(2, CHARS2, 4)
    view = view_of(state, 0)
    offer = [goal_words(g) for g in view["private"]["goal_offer"]]
    theirs = {goal_words(g) for g in view_of(state, 1)["private"]["goal_offer"]}
    assert len(offer) == 3
    own = view_text(view, width=400)
    other = view_text(view_of(state, 1), width=400)
    for words in offer:
        assert words in own and (words in theirs or words not in other)
    labels = option_labels(view)
    assert labels == [f"Keep the goal card: {words}" for words in offer]
    assert "seal improved" in labels[0] or "shield" in labels[0]


def test_goal_cards_are_shown_for_everybody_after_the_final_scoring() -> None:
    state = play(GAME.setup(2, {}, 3), 3000)
    assert GAME.result(state) is not None
    spectator = view_text(view_of(state, None), width=160)
    for seat in (0, 1):
        for g in GAME.view(state, seat)["private"]["goals"]:
            assert goal_words(g) in spectator


def test_the_map_lists_locations_and_routes_with_costs_and_gates() -> None:
    text = view_text(view_of(GAME.setup(2, CHARS2, 5), 0), width=200)
    for name in ("Beijing", "Karakorum", "Kashgar", "Baghdad", "Hormuz", "Gobi oasis", "Lhasa"):
        assert name in text
    assert "Map: 45 routes" in text
    assert "Beijing – Karakorum: 1 coin" in text
    assert "tailor's seal needed" in text
    assert "Pagan – Kabul: 6 coins + 2 camels + 1 jade" in text
    beijing = next(line for line in text.splitlines() if line.startswith("Beijing "))
    assert "ann*" in beijing and "bob" in beijing  # both figures start there; yours is marked
    kara = next(line for line in text.splitlines() if line.startswith("Karakorum "))
    assert "contracts" in kara and "lion" in kara


def test_the_turn_line_players_and_action_spaces_are_shown() -> None:
    state = to_play(GAME.setup(2, CHARS2, 5))
    text = view_text(view_of(state, 1), width=200)
    assert "Round 1 of 5.  ann to play." in text
    assert "Möngke Khan" in text and "Abha Basu" in text
    assert "Character: Abha Basu:" in text
    for space in ("Book I", "Book III (lower)", "Guild seals", "Travel 6", "Khan's favor", "Money bag"):
        assert space in text
    khan = next(line for line in text.splitlines() if line.startswith("Khan's favor"))
    assert "neutral [1] ≤ neutral [1] ≤ empty" in khan  # the two 2-player neutral dice
    assert "Offer tiles on the books" in text and "Book I: 1) " in text and "offer-" not in text
    assert "Contracts in the contract cities" in text and "City cards" in text


def test_placing_dice_and_the_log_read_as_words() -> None:
    state = to_play(GAME.setup(2, CHARS2, 5))
    view = view_of(state, 0)
    labels = option_labels(view)
    assert "Book I (1 die)" in labels
    assert "Travel 3 (2 dice)" in labels
    assert "End your turn" not in labels
    state = GAME.apply(state, 0, {"a": "space", "space": "book1"})
    view = view_of(state, 0)
    labels = option_labels(view)
    assert labels[-1] == "Cancel this action (take the dice back)"
    assert all(label.startswith("Place your ") and label.endswith(" die on Book I") for label in labels[:-1])
    die = view["prompt"]["options"][0]
    state = GAME.apply(state, 0, die)
    labels = option_labels(view_of(state, 0))
    assert labels[0].startswith("Take offer 1: ")
    text = view_text(view_of(state, None), width=200)
    assert f"ann placed {die['value']} on Book I" in text
    book = next(line for line in text.splitlines() if line.startswith("Book I "))
    assert f"ann [{die['value']}]" in book


def test_travel_labels_name_the_route_cost() -> None:
    state = to_play(GAME.setup(2, CHARS2, 5))
    state = GAME.apply(state, 0, {"a": "space", "space": "travel1"})
    while GAME.view(state, 0)["public"]["pending"][0]["kind"] == "dice":
        state = GAME.apply(state, 0, GAME.legal_moves(state, 0)[0])
    labels = option_labels(view_of(state, 0))
    assert "Move from Beijing to Karakorum (route: 1 coin)" in labels


def test_option_labels_read_as_words_in_real_games() -> None:
    seen: dict[str, str] = {}
    runs = ((1, 2, {}), (2, 3, {"caravans": True}), (3, 4, {"black_dice_variant": True}), (4, 2, {"caravans": True}))
    for seed, seats, options in runs:
        state = GAME.setup(seats, options, seed)
        rng = random.Random(seed)
        while GAME.result(state) is None:
            seat = GAME.active_seats(state)[0]
            view = view_of(state, seat)
            for o, label in zip(view["prompt"]["options"], option_labels(view), strict=True):
                assert not label.startswith("{"), (o, label)
                seen.setdefault(str(o["a"]), label)
            state = GAME.apply(state, seat, rng.choice(view["prompt"]["options"]))
        view = view_of(state, 0)
        for ev in view["public"]["log"]:
            assert not event_words(view, ev).startswith("{"), ev
    for verb in ("character", "goal", "space", "die", "end", "bag", "offer", "step", "take", "comp", "fulfil"):
        assert verb in seen, verb


def test_the_other_choices_read_as_words() -> None:
    state = GAME.setup(2, CHARS2, 5)
    view = view_of(state, 0)
    words = {
        "Buy a black die for 3 camels": {"a": "black"},
        "Turn your 3 die to 2 for 2 camels": {"a": "adjust", "kind": "own", "value": 3, "by": -1},
        "Reroll the black 5 die for 1 camel": {"a": "reroll", "kind": "black", "value": 5},
        "Money bag: your 4 die for 1 jade": {"a": "bag", "kind": "own", "value": 4, "take": "jade"},
        "Take 1 silk": {"a": "good", "good": "silk"},
        "Take the jeweler's seal (+3 jade)": {"a": "seal", "seal": "jeweler"},
        "Move your trading post from Kashgar": {"a": "relocate", "from": "kashgar"},
        "Place your extra trading post in Xian": {"a": "post", "city": "xian"},
        "Use the pair of 3s for 1 gold": {"a": "pair", "value": 3},
        "Deliver your caravan's goods": {"a": "deliver"},
        "Move your caravan to Lhasa": {"a": "haul", "to": "lhasa"},
        (
            "Play Gantulga Od: Only the 1-die Travel space; pays no coins or camels for"
            " routes (jade and seals still), on every movement."
        ): {"a": "character", "character": "gantulga"},  # named with its ability
    }
    for expected, option in words.items():
        assert option_label(view, option) == expected
    assert option_label(view, {"a": "teleport", "to": 9}) == '{"a":"teleport","to":9}'


def test_words_for_costs_rewards_cards_and_goals() -> None:
    assert bundle_words({"camels": 2, "silk": 1, "jade": 2}) == "2 camels + 1 silk + 2 jade"
    assert bundle_words({"good": 1, "black_die": 1, "vp": 5}) == "1 good of your choice + 1 black die + 5 VP"
    assert card_words({"kind": "per_pip", "reward": {"coins": 2}}) == "2 coins per pip of the die"
    assert card_words({"kind": "move", "steps_by_die": [1, 1, 2, 2, 3, 3]}).startswith("move 1/1/2/2/3/3")
    g = {"id": "goal-0", "icons": [{"seal": "farmer", "vp": 4}, {"shield": "lion"}]}
    assert goal_words(g) == "farmer's seal improved: 4 VP, lion shield"


def test_the_result_shows_scores_camels_and_the_breakdown() -> None:
    state = play(GAME.setup(2, {}, 3), 3000)
    result = GAME.result(state)
    assert result is not None
    text = view_text(view_of(state, 0), width=200)
    assert "Game over after round 5." in text
    assert "Final result" in text and "camels" in text
    assert "Final scoring" in text and "most contracts" in text and "shields" in text
    winner = result["winners"][0]
    row = next(line for line in text.splitlines() if "│" in line and "winner" in line)
    assert NAMES[winner] in row and str(result["scores"][winner]) in row
