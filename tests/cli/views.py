"""Hand-made view documents for the renderer tests (shaped like the server's, written out by hand)."""

from __future__ import annotations

import copy
from typing import Any

REQS: list[dict[str, Any] | None] = [
    None,
    {"kind": "goods", "n": 1},
    {"kind": "leaders", "n": 1},
    {"kind": "colour", "n": 2},
    {"kind": "goods", "n": 2},
    {"kind": "five_colours"},
    {"kind": "leaders", "n": 2},
    {"kind": "colour", "n": 3},
    {"kind": "four_goods"},
    {"kind": "goods", "n": 3},
]


def track() -> list[dict[str, Any]]:
    """A ten-space track: Hormus, a chest on 4, scoring on 6..9, Kantshou on 8, Daidu on 9."""
    names = {0: "Hormus", 8: "Kantshou", 9: "Daidu"}
    return [
        {"pos": i, "name": names.get(i), "req": REQS[i], "chest": 2 if i == 4 else 0, "score": i - 5 if i > 5 else None}
        for i in range(10)
    ]


SEATS = [
    {"name": "ann", "taken": True, "connected": True},
    {"name": "bob", "taken": True, "connected": False},
    {"name": "cy", "taken": True, "connected": True},
]


def expedition_view(you: int | None = 0) -> dict[str, Any]:
    """Seat 0's turn in the move phase; `you=None` gives the spectator's view."""
    public = {
        "status": "playing",
        "options": {"open_gold": False, "move_both": False},
        "track": track(),
        "chests": [0, 0, 0, 0, 2, 0, 0, 0, 0, 0],
        "figures": [
            {"fig": 0, "seat": 0, "pos": 1, "colour": "red", "next": 4},
            {"fig": 1, "seat": 1, "pos": 2, "colour": "blue", "next": 4},
            {"fig": 2, "seat": 2, "pos": 3, "colour": "green", "next": 4},
        ],
        "players": [
            {"seat": 0, "hand": 4, "chests": 1},
            {"seat": 1, "hand": 5, "chests": 2},
            {"seat": 2, "hand": 6, "chests": 1},
        ],
        "display": ["green-silk-1", "red-oil-2", None, "yellow-leader-3", "purple-fruit-1"],
        "deck": 17,
        "discard": ["blue-spice-2", "red-leader-1"],
        "turn": 0,
        "phase": "move",
        "moved": [],
        "lightened": False,
        "kantshou": "open",
        "turns": 6,
        "log": [
            {"ev": "move", "seat": 1, "fig": 1, "from": 1, "to": 2, "paid": ["blue-leader-2"], "n": 1},
            {"ev": "stop", "seat": 1, "n": 2},
            {"ev": "draw", "seat": 1, "slot": 2, "card": "green-oil-1", "n": 3},
            {"ev": "lighten", "seat": 2, "fig": 2, "from": 2, "to": 3, "n": 4},
            {"ev": "pass", "seat": 2, "n": 5},
            {"ev": "draw", "seat": 2, "slot": None, "n": 6},
            {"ev": "reshuffle", "cards": 12, "n": 7},
        ],
    }
    view: dict[str, Any] = {
        "game": "expedition",
        "room": "r0123456789",
        "you": you,
        "status": "playing",
        "seats": copy.deepcopy(SEATS),
        "public": public,
        "private": None,
        "prompt": None,
        "result": None,
    }
    if you is not None:
        view["private"] = {
            "hand": ["blue-oil-1", "blue-oil-2", "blue-leader-3", "red-silk-1"],
            "gold": 3,
            "chest_values": {"1": 0, "2": 0, "3": 1},
        }
    if you == 0:
        view["prompt"] = {
            "text": "Move a figure (pay the next space or lighten the load) or pass.",
            "options": [
                {"a": "move", "fig": 0, "pay": ["blue-oil-1", "blue-oil-2"]},
                {"a": "lighten", "fig": 0},
                {"a": "pass"},
            ],
        }
    return view


def finished(view: dict[str, Any]) -> dict[str, Any]:
    """The same view once the game is over: cy wins on 14 gold."""
    view = copy.deepcopy(view)
    view["status"] = "finished"
    view["public"]["status"] = "over"
    view["prompt"] = None
    view["public"]["log"].append(
        {"ev": "final_scoring", "paid": [{"fig": 2, "seat": 2, "gold": 4}], "n": 8},
    )
    view["result"] = {"scores": [9, 11, 14], "winners": [2], "ranking": [2, 1, 0], "tiebreak": [5, 7, 9]}
    return view
