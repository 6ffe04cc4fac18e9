"""The terminal widgets the Voyages and Marco Polo II renderers share (`clients.cli.games.board`): what a game
passes in (its own card words, option labels, pending items, phases, players' columns, breakdown, goal
cards, log events) is used, and what both games have comes out the same for either."""

from __future__ import annotations

from typing import Any

from clients.cli.games.board import CharacterBoard, DiceRenderer, Words, event_sentence, pieces_at
from clients.cli.games.common import LogRenderer
from clients.cli.render import Move, View, to_text

BOARD: dict[str, Any] = {
    "nodes": [{"id": "a", "name": "Alpha"}, {"id": "b", "name": "Beta"}],
    "edges": [{"a": "a", "b": "b", "coins": 2}],
    "characters": {"x": {"name": "Xena", "ability": "does x"}},
}


class SampleBoard(CharacterBoard):
    prefix = "kh"

    def __init__(self, public: dict[str, Any]) -> None:
        super().__init__(public.get("board") or {})
        self.names = {n["id"]: n["name"] for n in BOARD["nodes"]}

    def name(self, node: Any) -> str:
        return str(self.names.get(node, node))

    def space(self, space: str) -> str:
        return f"space {space}"


class SampleRenderer(DiceRenderer):
    game = "test-dice"
    prefix = "kh"
    board_class = SampleBoard
    resources = ("coins", "vp")
    held_title = "Held"
    offer_title = "Goal cards offered (keep 3):"
    breakdown = ("in_game", "most_things", "total")
    breakdown_labels = {"most_things": "w.kh.bd.contracts"}  # noqa: RUF012
    stop_kinds = ("travel",)

    def contract_named(self, public: dict[str, Any], cid: Any) -> str:
        return f"contract {cid}"

    def own_label(
        self, view: View, option: Move, board: Any, me: dict[str, Any], pending: dict[str, Any]
    ) -> str | None:
        return "my own end" if option.get("a") == "end" and pending.get("kind") == "odd" else None

    def route_cost(self, board: Any, here: Any, to: Any) -> str:
        return "2 coins" if {here, to} == {"a", "b"} else ""

    def phase_words(self, view: View, phase: Any) -> str:
        return f"phase {phase}"

    def turn_tail(self, view: View) -> tuple[str, str]:
        return "first: ann", "no black dice"

    def pending_words(self, view: View, board: Any, item: dict[str, Any], who: str) -> str | None:
        return f"{who} does the game's thing" if item.get("kind") == "mine" else None

    def held_words(self, view: View, board: Any, p: dict[str, Any]) -> str:
        return f": {p.get('things', 0)} things"

    def goal_text(self, board: Any, g: dict[str, Any], posts: set[Any] | None) -> str:
        return f"goal {g['id']}" + (f" ({len(posts)} posts)" if posts is not None else "")

    def posts_of(self, p: dict[str, Any]) -> set[Any] | None:
        return set(p.get("posts") or [])


def view(**public: Any) -> dict[str, Any]:
    players = [
        {"seat": 0, "character": "x", "figures": ["a"], "posts": ["a"], "coins": 3, "vp": 7, "things": 2, "dice": []},
        {"seat": 1, "figures": ["b", "a"], "posts": [], "coins": 1, "vp": 2, "dice": [["own", 4]]},
    ]
    base: dict[str, Any] = {"board": BOARD, "players": players, "pending": [], "phase": "play", "turn": 0}
    return {
        "you": 0,
        "seats": [{"name": "ann", "connected": True}, {"name": "bob", "connected": False}],
        "public": {**base, **public},
        "private": {"goals": [{"id": 1}], "goal_offer": [{"id": 2}]},
        "prompt": None,
        "result": None,
    }


R = SampleRenderer()


def test_card_words_are_the_common_kinds_the_games_own_and_data_for_the_rest() -> None:
    words = Words(cards=lambda card: "my own card" if card.get("kind") == "mine" else None)
    assert words.card({"kind": "count", "counts": "posts", "reward": {"vp": 1}}).startswith("1 VP per trading post")
    assert words.card({"kind": "mine"}) == "my own card"
    assert words.card({"kind": "odd"}) == '{"kind":"odd"}'
    assert words.card(None) == "—"
    assert Words().card({"kind": "mine"}) == '{"kind":"mine"}'
    assert words.way({"cost": {"coins": 1}, "reward": {}}) == "1 coin for nothing"


def test_option_labels_both_games_have_and_the_games_own_first() -> None:
    v = view(pending=[{"seat": 0, "kind": "travel"}])
    assert R.label(v, {"a": "step", "fig": 0, "to": "b"}) == "Move from Alpha to Beta (route: 2 coins)"
    assert R.label(v, {"a": "stop"}) == "Stop moving here"
    assert R.label(view(pending=[{"seat": 0, "kind": "card"}]), {"a": "stop"}) == "Stop"
    assert R.label(v, {"a": "fulfil", "contract": "c1"}) == "Fulfil contract c1"
    assert R.label(v, {"a": "end"}) == "End your turn"
    assert R.label(view(pending=[{"seat": 0, "kind": "odd"}]), {"a": "end"}) == "my own end"
    # an option nobody knows, or one missing its fields, is shown as data
    assert R.label(v, {"a": "nothing"}) == '{"a":"nothing"}'
    assert R.label(v, {"a": "fulfil"}) == '{"a":"fulfil"}'


def test_turn_line_and_pending_choices_use_the_games_words() -> None:
    assert to_text(R.turn_line(view())).startswith("Round ? of 5.  ann (you) to play.")
    line = to_text(R.turn_line(view(phase="goals")))
    assert "phase goals" in line and "first: ann" in line and "no black dice" in line
    pending = [
        {"seat": 1, "kind": "mine"},
        {"seat": 0, "kind": "travel", "steps": 1, "max": 3},
        {"seat": 1, "kind": "??"},
    ]
    asked = to_text(R.asking(view(pending=pending))).splitlines()
    assert asked == [
        "Now: bob does the game's thing",
        "Now: ann (you) is travelling (1 of at most 3 locations)",
        "Now: bob is choosing: a choice of the action",
    ]


def test_players_your_board_and_result_take_the_games_columns_and_goal_cards() -> None:
    players = to_text(R.players(view()), width=160)
    assert "coins" in players and "VP" in players and "jade" not in players
    assert "Held" in players and "ann (you): 2 things" in players and "bob: 0 things" in players
    mine = to_text(R.your_board(view()))
    assert "Character: Xena: does x" in mine and "goal 1 (1 posts)" in mine
    assert "Goal cards offered (keep 3): goal 2" in mine and "goal 2 (" not in mine
    v = view()
    v["result"] = {"scores": [7, 2], "winners": [0], "breakdown": [{"in_game": 5, "total": 7}, {"total": 2}]}
    v["public"]["players"][1]["goals"] = [{"id": 9}]
    result = to_text(R.result(v), width=160)
    assert "in game" in result and "most contracts" in result and "most things" not in result
    assert "bob's goal cards: goal 9 (0 posts)" in result


def test_log_events_both_games_have_and_the_games_own_first() -> None:
    v = view()
    board = SampleBoard(v["public"])

    def say(ev: dict[str, Any], own: Any = lambda who: None) -> str:
        return event_sentence(v, ev, board, own, lambda cid: f"contract {cid}", lambda k, d: f"{k} {d}")

    assert say({"ev": "place", "seat": 1, "dice": [["own", 2]], "space": "s"}) == "bob placed own 2 on space s"
    assert say({"ev": "relocate", "seat": 0, "from": "a", "to": "b"}).startswith("ann (you) ")
    assert say({"ev": "end_turn", "seat": 1}) == "bob ended the turn"
    assert say({"ev": "end_turn", "seat": 1}, lambda who: f"{who} stopped") == "bob stopped"
    # unknown events and events missing their fields are shown as data
    assert say({"ev": "odd", "n": 3, "x": 1}) == '{"ev":"odd","x":1}'
    assert say({"ev": "place", "seat": 1}) == '{"ev":"place","seat":1}'


def test_pieces_on_the_map_and_the_log_panel_length() -> None:
    posts, figures = pieces_at(view()["public"], str)
    assert posts == {"a": [0]}
    assert figures == {"a": [(0, 0), (1, 1)], "b": [(1, 0)]}

    class Short(LogRenderer):
        log_shown = 2

        def event(self, view: View, ev: dict[str, Any]) -> str:
            return f"event {ev['n']}"

    text = to_text(Short().log({"public": {"log": [{"n": i} for i in range(5)]}}))
    assert text.splitlines() == ["Recent events", "  event 3", "  event 4"]
    assert "(nothing yet)" in to_text(Short().log({"public": {"log": []}}))
