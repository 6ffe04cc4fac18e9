"""Check that a finished game was fair: re-run it from its revealed seed with the rule engine.

Usage: `python -m clients.replay_check ws://HOST:PORT/ws ROOM` (exit status 0: fair).

The server reveals a game's seed only once it is over (`replay.seed`). Every shuffle and draw of the
engine comes from that seed, so anyone can rebuild the game: set it up from the seed and, version by
version, find a legal move (an option of some seat's prompt, or the undo it offers) that turns the previous
state into one whose spectator view is the replay's view at that version. The moves themselves are not
needed (a replay never shows anything private); when several moves give the same public view, every
candidate is followed. If at some version no legal move explains what everybody saw, the game did not
come from that seed and those rules: the check fails and says where. See docs/replays.md.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import sys
from dataclasses import dataclass
from typing import Any

from clients.client import Client
from server.games import get_game
from server.games.base import pack

MAX_CANDIDATES = 256


@dataclass
class Verdict:
    fair: bool
    checked: int
    why: str = ""


async def fetch(url: str, room: str, name: str = "auditor") -> dict[str, Any]:
    """Every version's spectator view of a finished room: `{game, seats, options, seed, last, views}`."""
    async with Client(url) as c:
        await c.hello(name)
        first = await c.request("replay", room=room, v=0)
        views = [first["state"]]
        for v in range(1, first["last"] + 1):
            views.append((await c.request("replay", room=room, v=v))["state"])
    return {"game": first["state"]["game"], "seats": first["seats"], "options": first["options"],
            "seed": first["seed"], "last": first["last"], "views": views}


def _key(state: Any) -> bytes:
    return hashlib.sha256(pack(state)).digest()


def check(game_id: str, seats: int, options: dict[str, Any], seed: int, views: list[dict[str, Any]]) -> Verdict:
    """Re-run the game from `seed` and explain every version's public view by a legal move (or none)."""
    game = get_game(game_id)

    def seen(state: Any) -> tuple[Any, Any]:
        return game.view(state, None)["public"], game.result(state)

    candidates: list[Any] = []
    started = False
    for v, view in enumerate(views):
        target = (view["public"], view["result"])
        if view["status"] == "waiting":
            if started:
                return Verdict(False, v, f"v{v}: waiting again after the start")
            continue
        if not started:
            started = True
            state = game.setup(seats, options, seed)
            if seen(state) != target:
                return Verdict(False, v, f"v{v}: the start is not what the seed deals")
            candidates = [state]
            continue
        nxt: dict[bytes, Any] = {}
        for state in candidates:
            if seen(state) == target:  # a version that changed no game state (presence, a host change)
                nxt.setdefault(_key(state), state)
            for seat in range(seats):
                if game.may_undo(state, seat):  # v1.2: the seat took back its turn
                    after = game.undo(state, seat)
                    if seen(after) == target:
                        nxt.setdefault(_key(after), after)
                prompt = game.prompt(state, seat)
                for option in (prompt or {}).get("options", []):
                    try:
                        after = game.apply(state, seat, option)
                    except Exception:  # noqa: BLE001 - an option the engine refuses explains nothing
                        continue
                    if seen(after) == target:
                        nxt.setdefault(_key(after), after)
            if len(nxt) > MAX_CANDIDATES:
                break
        if not nxt:
            return Verdict(False, v, f"v{v}: no legal move explains the public view")
        candidates = list(nxt.values())[:MAX_CANDIDATES]
    if not started:
        return Verdict(False, len(views), "the game never started")
    return Verdict(True, len(views))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m clients.replay_check", description=__doc__.split("\n")[0])
    ap.add_argument("url", help="ws://HOST:PORT/ws")
    ap.add_argument("room")
    a = ap.parse_args(argv)
    data = asyncio.run(fetch(a.url, a.room))
    verdict = check(data["game"], data["seats"], data["options"], data["seed"], data["views"])
    print(f"{a.room}: {'fair' if verdict.fair else 'NOT FAIR'} ({verdict.checked} versions checked) {verdict.why}")
    return 0 if verdict.fair else 1


if __name__ == "__main__":
    sys.exit(main())
