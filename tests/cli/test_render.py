"""The terminal renderers on hand-made views: what a player, a spectator and an unknown game look like."""

from __future__ import annotations

import copy

from clients.cli.games.expedition import ExpeditionRenderer, event_words, requirement_words
from clients.cli.render import (
    GameRenderer,
    option_label,
    option_labels,
    register,
    render_lobby,
    renderer_for,
    to_text,
    view_text,
)
from tests.cli.views import expedition_view, finished


def test_the_hand_appears_in_the_players_own_render() -> None:
    text = view_text(expedition_view(you=0))
    assert "Your hand (4 cards)" in text
    assert "your gold: 3 (chests worth 3)" in text
    hand_lines = [line.strip() for line in text.splitlines() if line.strip().startswith(("blue", "red "))]
    assert "blue    oil ×2, leader" in hand_lines
    assert "red     silk" in hand_lines


def test_a_spectators_render_shows_no_hand_and_no_secret_gold() -> None:
    text = view_text(expedition_view(you=None))
    assert "you: spectator" in text
    assert "Your hand" not in text
    assert "blue-oil-1" not in text
    assert "(secret)" not in text
    assert "You are watching." in text


def test_option_labels_read_as_words() -> None:
    view = expedition_view(you=0)
    assert option_labels(view) == [
        "Move the red figure to space 4, paying blue oil, blue oil",
        "Lighten the load: move the red figure to space 4 for a 1-chest",
        "Pass: move no figure, go on to draw a card",
    ]
    words = {
        "Take the face-up green silk": {"a": "draw", "from": "display", "slot": 0},
        "Take the face-up yellow caravan leader": {"a": "draw", "from": "display", "slot": 3},
        "Draw the top card of the draw pile": {"a": "draw", "from": "deck"},
        "Stop moving and draw a card": {"a": "stop"},
        "Pay with red silk": {"a": "pick", "card": "red-silk-1"},
        "Cancel paying card by card": {"a": "cancel"},
        "Pay for the blue figure to space 4 card by card": {"a": "choose", "fig": 1},
    }
    for expected, move in words.items():
        assert option_label(view, move) == expected


def test_the_prompt_lists_options_numbered_from_one() -> None:
    text = view_text(expedition_view(you=0))
    assert "1) Move the red figure to space 4, paying blue oil, blue oil" in text
    assert "3) Pass: move no figure, go on to draw a card" in text


def test_an_unknown_move_shape_is_shown_as_its_json() -> None:
    view = expedition_view(you=0)
    assert option_label(view, {"a": "teleport", "to": 9}) == '{"a":"teleport","to":9}'
    assert option_label(view, {"a": "move"}) == '{"a":"move"}'  # a known verb with missing fields


def test_the_track_shows_requirements_in_words_scores_chests_and_figures() -> None:
    text = view_text(expedition_view(you=0), width=70)  # narrow: the two halves of the track stack
    for words in ("1 goods card", "1 leader", "2 of one colour", "2 same goods", "5 colours", "2 leaders"):
        assert words in text
    for words in ("3 of one colour", "4 goods types", "3 same goods", "Hormus", "Kantshou", "Daidu"):
        assert words in text
    rows = {line.split()[0]: line.split() for line in text.splitlines() if line[:2].strip().isdigit()}
    assert rows["1"] == ["1", "1", "goods", "card", "red*"]  # your own figure is marked
    assert rows["2"][-1] == "blue" and rows["3"][-1] == "green"
    assert rows["4"] == ["4", "2", "same", "goods", "2", "gold"]  # a chest worth 2
    assert rows["9"] == ["9", "Daidu", "3", "same", "goods", "4"]  # scores 4
    assert requirement_words({"kind": "four_goods"}) == "4 goods types"
    assert requirement_words({"kind": "goods", "n": 2}) == "2 same goods"
    assert requirement_words({"kind": "leaders", "n": 1}) == "1 leader"
    assert requirement_words({"kind": "colour", "n": 3}) == "3 of one colour"
    assert requirement_words({"kind": "five_colours"}) == "5 colours"


def test_the_table_players_turn_and_phase_are_shown() -> None:
    text = view_text(expedition_view(you=1))
    assert "Turn 7: ann to play, moving figures." in text
    assert "Face-up cards:  1:green silk 2:red oil 3:empty 4:yellow caravan leader 5:purple fruit" in text
    assert "Deck: 17 cards.  Discard pile: 2 cards (top red caravan leader)." in text
    player_rows = [line for line in text.splitlines() if "│" in line and ("ann" in line or "bob" in line)]
    assert len(player_rows) == 2
    ann = player_rows[0].split("│")
    assert [c.strip() for c in ann[1:6]] == ["1", "ann", "4", "1", "?"]  # seats from 1
    bob = player_rows[1].split("│")
    assert [c.strip() for c in bob[1:6]] == ["2", "bob (you)", "5", "2", "3 (secret)"]
    assert bob[-1].strip() == "no"  # bob's seat is disconnected


def test_public_gold_is_shown_for_everybody() -> None:
    view = expedition_view(you=None)
    for p, gold in zip(view["public"]["players"], (4, 7, 3), strict=True):
        p["gold"] = gold
    text = view_text(view)
    rows = [line.split("│") for line in text.splitlines() if "│" in line and line.split("│")[1].strip() in "123"]
    assert [r[5].strip() for r in rows] == ["4", "7", "3"]


def test_log_events_read_as_words() -> None:
    text = view_text(expedition_view(you=0))
    assert "bob moved the blue figure to space 2 paying blue caravan leader" in text
    assert "bob stopped moving" in text
    assert "bob took the face-up green oil" in text
    assert "cy lightened the load: the green figure to space 3 for 1 gold" in text
    assert "cy passed" in text
    assert "cy drew from the draw pile" in text
    assert "The discard pile was shuffled into a new draw pile (12 cards)" in text
    view = expedition_view(you=2)
    chest = {"ev": "move", "seat": 2, "fig": 2, "from": 3, "to": 4, "paid": ["red-oil-1", "red-silk-2"], "chest": 2}
    assert (
        event_words(view, chest)
        == "cy (you) moved the green figure to space 4 paying red oil, red silk, took a chest of 2 gold"
    )
    kantshou = {"ev": "kantshou_scoring", "paid": [{"fig": 0, "seat": 0, "gold": 3}]}
    assert event_words(view, kantshou) == "Kantshou scoring: ann 3 gold"
    assert event_words(view, {"ev": "comet", "n": 4}) == '{"ev":"comet"}'


def test_a_card_drawn_from_a_neighbours_hand_is_told_without_naming_the_card() -> None:
    view = expedition_view(you=0)
    words = event_words(view, {"ev": "take", "seat": 1, "from_seat": 2, "n": 9})
    assert words == "No card was left to draw: bob drew a card blindly from the hand of cy"


def test_the_final_result_shows_scores_and_winners() -> None:
    text = view_text(finished(expedition_view(you=0)))
    assert "Game over after 6 turns." in text
    assert "Final scoring on the last stretch: cy 4 gold" in text
    rows = [[c.strip() for c in line.split("│")] for line in text.splitlines() if "│" in line and "winner" in line]
    assert rows == [["1", "cy", "14", "9", "winner"]]
    assert "Winner: cy" in text
    assert "The game is over." in text


def test_a_waiting_room_shows_its_seats() -> None:
    seats = [{"name": "ann", "taken": True, "connected": True}, {"name": None, "taken": False, "connected": False}]
    view = {
        "game": "expedition",
        "room": "rwait",
        "you": 0,
        "status": "waiting",
        "seats": seats,
        "public": {"status": "waiting", "seats": seats},
        "private": None,
        "prompt": None,
        "result": None,
    }
    text = view_text(view)
    assert "ann (you)" in text
    assert "Waiting for the seats to fill" in text
    assert "Track" not in text


def test_an_unknown_game_uses_the_generic_fallback() -> None:
    view = {
        "game": "othello",
        "room": "rX",
        "you": 1,
        "status": "playing",
        "seats": [{"name": "ann", "taken": True, "connected": True}, {"name": "bob", "taken": True, "connected": True}],
        "public": {"board": [[0, 1], [1, 0]], "turn": 1},
        "private": {"secret": "xyz"},
        "prompt": {"text": "Place a disc.", "options": [{"at": [0, 0]}, {"pass": True}]},
        "result": None,
    }
    assert type(renderer_for("othello")) is GameRenderer
    text = view_text(view)
    assert "othello  room rX  playing  you: seat 2 (bob)" in text
    assert "board: [[0,1],[1,0]]" in text
    assert "secret: " in text
    assert option_labels(view) == ['{"at":[0,0]}', '{"pass":true}']
    assert '1) {"at":[0,0]}' in text
    done = {**view, "prompt": None, "result": {"scores": [3, 5], "winners": [1]}}
    text = view_text(done)
    assert "Winner: bob (you)" in text


def test_the_generic_dump_is_cut_to_a_line() -> None:
    view = {"game": "nope", "room": "r", "you": None, "status": "playing", "seats": [], "public": {"big": "x" * 999}}
    line = next(line for line in view_text(view, width=400).splitlines() if "big:" in line)
    assert line.endswith("…") and len(line) < 200


def test_renderers_are_found_by_game_id_and_new_games_register_one() -> None:
    assert isinstance(renderer_for("expedition"), ExpeditionRenderer)

    class Dice(GameRenderer):
        game = "test-dice"

        def label(self, view: dict, option: dict) -> str:
            return f"roll {option['n']}"

    register(Dice())
    view = copy.deepcopy({"game": "test-dice", "you": 0, "seats": [], "public": {}})
    assert option_label(view, {"n": 3}) == "roll 3"


def test_the_lobby_numbers_rooms_and_marks_your_seat() -> None:
    rooms = [
        {"room": "ra", "game": "expedition", "seats": 3, "players": ["ann", None, None], "status": "waiting"},
        {"room": "rb", "game": "expedition", "seats": 2, "players": ["bob", "cy"], "status": "playing"},
    ]
    text = to_text(render_lobby(rooms, held=["rb"]))
    lines = [line for line in text.splitlines() if "expedition" in line]
    assert "1 │ ra" in lines[0] and "1/3" in lines[0] and "ann, ·, ·" in lines[0]
    assert "2 │ rb (your seat)" in lines[1] and "2/2" in lines[1]
    assert "No open rooms" in to_text(render_lobby([]))
