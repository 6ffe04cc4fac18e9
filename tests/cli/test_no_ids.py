"""No internal id of the game data reaches the terminal: a whole greedy-bot game of every game is rendered
(the mover's view with its options at every step, every seat and the spectator now and then, the end for
everybody) and the text is searched for id patterns, raw pending kinds and raw error codes."""

from __future__ import annotations

import importlib
import re
from typing import Any

import pytest

from clients.cli.render import view_text

#: ids of the game data (contract-12, starter-0, offer-1-5, city-card-3, goal-2, outpost-4, route-1, slot-2, …)
IDS = re.compile(r"\b(?:contract|starter|offer|city-card|goal|outpost|marker|route|slot|tile)-\d+(?:-\d+)*\b")
#: snake_case words: pending kinds (`two_goods`, `city_contract`) and error codes (`not_found`) shown raw
RAW = re.compile(r"\b[a-z]+_[a-z_]+\b")
GAMES: dict[str, dict[str, Any]] = {
    "expedition": {},
    "classic": {},
    "voyages": {},
    "khan": {"caravans": True},
}


def document(game: str, eng: Any, state: Any, seat: int | None, seats: int) -> dict[str, Any]:
    v = eng.view(state, seat)
    result = eng.result(state)
    return {
        "game": game,
        "room": "r1",
        "you": seat,
        "status": "finished" if result else "playing",
        "seats": [{"name": f"P{i + 1}", "taken": True, "connected": True} for i in range(seats)],
        "public": v["public"],
        "private": v["private"],
        "prompt": eng.prompt(state, seat),
        "result": result,
    }


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_whole_game_in_the_terminal_shows_no_id_and_no_raw_code(game: str) -> None:
    eng = importlib.import_module(f"server.games.{game}.engine").GAME
    bot_class = importlib.import_module(f"server.games.{game}.bots").GreedyBot
    seats = 2
    state = eng.setup(seats, GAMES[game], 11)
    bots = [bot_class(5 + i) for i in range(seats)]
    found: dict[str, str] = {}
    step = 0

    def scan(seat: int | None) -> None:
        for line in view_text(document(game, eng, state, seat, seats), width=160).splitlines():
            for m in IDS.findall(line) + RAW.findall(line):
                found.setdefault(m, line.strip())

    while eng.result(state) is None and step < 5000:
        mover = eng.active_seats(state)[0]
        scan(mover)
        if step % 25 == 0:
            for seat in [*range(seats), None]:
                scan(seat)
        state = eng.apply(state, mover, bots[mover].choose(eng.prompt(state, mover), eng.view(state, mover)))
        step += 1
    assert eng.result(state) is not None
    for seat in [*range(seats), None]:
        scan(seat)
    assert step > 100
    assert found == {}
