"""Write the views the JS renderer tests read (tests/web/js/fixtures/<game>.json): views of greedy-bot games,
sampled with their prompts, as a seated player sees them. Run `python -m tests.web.js.make_fixtures` after a
change of a view's shape; the files are committed so that `node --test` needs no Python."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from server.games import get_game
from server.games.classic.bots import GreedyBot as ClassicBot
from server.games.expedition.bots import GreedyBot as ExpeditionBot
from server.games.khan.bots import GreedyBot as KhanBot
from server.games.voyages.bots import GreedyBot as VoyagesBot
from server.games.voyages.data import CITIES as VOYAGES_CITIES

OUT = Path(__file__).resolve().parent / "fixtures"
BOTS: dict[str, Any] = {"expedition": ExpeditionBot, "classic": ClassicBot, "voyages": VoyagesBot, "khan": KhanBot}
OPTIONS: dict[str, dict[str, Any]] = {"classic": {"max_rounds": 12}}
SAMPLES = 10


def wire(g: Any, state: Any, seat: int, game: str) -> dict[str, Any]:
    """The view as the browser holds it: the engine's view with the room fields the server adds."""
    seats = [{"name": n, "taken": True, "connected": True} for n in ("Ann", "Bob")]
    result = g.result(state)
    return {
        "game": game,
        "room": "r1",
        "status": "finished" if result is not None else "playing",
        "seats": seats,
        "you": seat,
        "prompt": g.prompt(state, seat),
        "result": result,
        **g.view(state, seat),
    }


def sample(game: str, seed: int = 5) -> list[dict[str, Any]]:
    g = get_game(game)
    state = g.setup(2, OPTIONS.get(game, {}), seed)
    bots = {0: BOTS[game](1), 1: BOTS[game](2)}
    views: list[dict[str, Any]] = []
    kinds: set[str] = set()
    moves = 0
    while g.active_seats(state) and moves < 3000:
        seat = g.active_seats(state)[0]
        view = wire(g, state, seat, game)
        prompt = view["prompt"]
        new = {o.get("a") for o in prompt["options"]} - kinds
        if new or moves % 97 == 0:
            kinds |= new
            views.append(view)
        state = g.apply(state, seat, bots[seat].choose(prompt, view))
        moves += 1
    views.append(wire(g, state, 0, game))
    step = max(1, len(views) // 40)
    return views[::step] if len(views) > 40 else views


def look_alike() -> dict[str, list[dict[str, Any]]]:
    """Views whose options differ only where a careless label would not say (labels.test.mjs): Marco Polo II's
    jade splits (the same move paying coins or camels with jade), one view per kind of move, from greedy-bot
    games; and the Voyages' `post_choice` (which city of a split city-card move gets the trading post), pushed
    onto a real mid-game state as the engine pushes it (the bots rarely meet it)."""
    out: dict[str, list[dict[str, Any]]] = {"khan": [], "voyages": []}
    g = get_game("khan")
    kinds: set[str] = set()
    for seed in range(1, 6):
        state = g.setup(2, {}, seed)
        bots = {0: KhanBot(seed), 1: KhanBot(seed + 10)}
        while g.active_seats(state):
            seat = g.active_seats(state)[0]
            view = wire(g, state, seat, "khan")
            split = {o["a"] for o in view["prompt"]["options"] if isinstance(o.get("jade"), dict)} - kinds
            if split:
                kinds |= split
                out["khan"].append(view)
            state = g.apply(state, seat, bots[seat].choose(view["prompt"], view))
    g = get_game("voyages")
    state = g.setup(2, {}, 5)
    players = {0: VoyagesBot(1), 1: VoyagesBot(2)}
    for _ in range(60):
        seat = g.active_seats(state)[0]
        view = wire(g, state, seat, "voyages")
        state = g.apply(state, seat, players[seat].choose(view["prompt"], view))
    seat = g.active_seats(state)[0]
    posts = set(state["players"][seat]["posts"])
    cities = [c for c in VOYAGES_CITIES if c not in posts][:3]
    state["pending"].insert(0, {"seat": seat, "kind": "post_choice", "cities": cities})
    out["voyages"].append(wire(g, state, seat, "voyages"))
    return out


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for game in BOTS:
        views = sample(game)
        text = json.dumps(views, separators=(",", ":"), ensure_ascii=False)
        (OUT / f"{game}.json").write_text(text, encoding="utf-8")
        print(game, len(views), "views")
    write_look_alike()


def write_look_alike() -> None:
    text = json.dumps(look_alike(), separators=(",", ":"), ensure_ascii=False)
    (OUT / "labels.json").write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
