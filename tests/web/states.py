"""A seeded game's views, built in Python and shown by a signed-in page without a server room.

Playing a whole game through the browser takes minutes; checking the layout of every state of a game does not
need the server to play it. `seeded_views` plays a game on its engine, each seat the game's greedy bot with one
move in five a seeded random one (games of a few hundred moves that still see the rarer choices), and builds, for
every state, the view the server would send to the seat that acts (or a spectator's, at the end), shaped like
`Room.build_view`; `show` puts one into the page's store under a room id of its own and draws it, as if the
server had sent that snapshot (the room is marked joined, so the page asks the server for nothing).
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Iterator
from typing import Any

from server.games import get_game

NAMES = ["Ann", "Bob", "Cy", "Dee"]
#: the seats and options the layout tests play each game with (the most crowded boards: four seats)
GAMES: dict[str, dict[str, Any]] = {
    "expedition": {"seats": 4, "options": {}},
    "classic": {"seats": 4, "options": {}},
    "voyages": {"seats": 4, "options": {}},
    "khan": {"seats": 4, "options": {}},
}

SHOW_JS = """async ([room, v, view]) => {
  const app = window.marcopolo;
  app.joined.add(room);
  if (location.hash !== `#/room/${room}`) {
    const opened = new Promise((done) => window.addEventListener("hashchange", done, { once: true }));
    location.hash = `#/room/${room}`;
    await opened; // (the page's own handler runs first: the room page opens with the focus on <main>)
  }
  app.store.snapshot({room, v, state: view});
  app.draw();
}"""


def view_of(game_id: str, state: dict[str, Any], seat: int | None, seats: int, room: str) -> dict[str, Any]:
    """The document the server sends `seat` (None: a spectator) for `state` (see `Room.build_view`)."""
    game = get_game(game_id)
    result = game.result(state)
    view = game.view(state, seat)
    return {
        "game": game_id,
        "room": room,
        "status": "finished" if result is not None else "playing",
        "seats": [{"name": NAMES[i], "taken": True, "connected": True} for i in range(seats)],
        "options": {},
        "public": view["public"],
        "result": result,
        "you": seat,
        "private": view["private"],
        "prompt": None if seat is None else game.prompt(state, seat),
    }


#: the share of moves chosen at random instead of by the greedy bot
RANDOM_MOVES = 0.2


def seeded_views(game_id: str, seed: int = 7, room: str = "layout") -> Iterator[tuple[int, dict[str, Any]]]:
    """(step, view) for every state of a seeded game (see the module's note): the acting seat's view while it
    plays, then every seat's view and a spectator's of the end."""
    game = get_game(game_id)
    conf = GAMES[game_id]
    seats = conf["seats"]
    rng = random.Random(seed)
    bot = importlib.import_module(f"server.games.{game_id}.bots").GreedyBot
    bots = [bot() for _ in range(seats)]
    state = game.setup(seats, conf["options"], seed)
    step = 0
    while game.result(state) is None:
        seat = game.active_seats(state)[0]
        view = view_of(game_id, state, seat, seats, room)
        yield step, view
        prompt = view["prompt"]
        assert prompt is not None, f"{game_id}: seat {seat} is active without a prompt"
        move = rng.choice(prompt["options"]) if rng.random() < RANDOM_MOVES else bots[seat].choose(prompt, view)
        state = game.apply(state, seat, move)
        step += 1
    for seat in [*range(seats), None]:
        yield step, view_of(game_id, state, seat, seats, room)


def show(page: Any, view: dict[str, Any], v: int) -> None:
    """Draw `view` as version `v` of its room on a signed-in page (see SHOW_JS)."""
    page.evaluate(SHOW_JS, [view["room"], v, view])
