"""The terminal's end of an Expedition and a classic game: the result's `breakdown`, per seat, best first.

A seeded game of each is played to its end (tests/web/states.py, the browser tests' games) and its last view is
rendered for a seat and a spectator: the parts of every total are there and add up (Expedition: the gold by source
and the chests held; classic: money, goods cards, Golden Table, Secret of the East), classic tells every seat's
mission city and goods cards by colour, and nothing says a seat's gold is secret or unknown.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from clients.cli.render import view_text
from server.games import all_games

all_games()

from server.games.classic.data import NODES  # noqa: E402
from tests.web.states import seeded_views  # noqa: E402


def end(game: str, seed: int = 7) -> dict[int | None, dict[str, Any]]:
    last: dict[int | None, dict[str, Any]] = {}
    for _, view in seeded_views(game, seed, room=f"end-{game}"):
        if view["result"] is not None:
            last[view["you"]] = view
    return last


def rows(text: str, names: list[str]) -> dict[str, list[int]]:
    """The numbers of each name's row in the breakdown table (the part after its heading)."""
    part = text.split("Final scoring in detail", 1)[1]
    out: dict[str, list[int]] = {}
    for line in part.splitlines():
        for name in names:
            if line.strip().startswith(name) and name not in out:
                out[name] = [
                    int(x)
                    for x in re.findall(r"(?<![\d×])-?\d+(?![\d×])", line[len(line) - len(line.lstrip()) + len(name) :])
                ]
    return out


@pytest.mark.parametrize("who", [0, None])
def test_expedition_tells_every_seats_gold_by_source(who: int | None) -> None:
    view = end("expedition")[who]
    res = view["result"]
    names = [s["name"] for s in view["seats"]]
    text = view_text(view, width=160)
    assert "Final scoring in detail" in text and "chests on the track" in text and "chests held" in text
    assert "(secret)" not in text
    found = rows(text, names)
    for s, name in enumerate(names):
        b = res["breakdown"][s]
        sources = [b["start"], b["chests"], b["kantshou"], b["final"], b["lighten"]]
        assert found[name][: len(sources) + 1] == [*sources, res["scores"][s]], (name, found[name])
        assert sum(sources) == res["scores"][s]
    players = text.split("Final result", 1)[0]
    assert " ? " not in players  # every seat's gold is shown at the end


@pytest.mark.parametrize("who", [0, None])
def test_classic_tells_the_parts_and_every_secret(who: int | None) -> None:
    view = end("classic")[who]
    res = view["result"]
    names = [s["name"] for s in view["seats"]]
    text = view_text(view, width=160)
    assert "Final scoring in detail" in text and "What the end reveals" in text
    found = rows(text.split("What the end reveals", 1)[0], names)
    for s, name in enumerate(names):
        b = res["breakdown"][s]
        assert found[name] == [b["money"], b["goods"], b["table"], b["secret"], res["scores"][s]]
        revealed = text.split("What the end reveals", 1)[1]
        if b["mission"]:
            assert NODES[b["mission"]].name in revealed
    assert any(b["mission"] for b in res["breakdown"]) or all(p == 0 for p in res["progress"])
