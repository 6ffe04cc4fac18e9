"""Golden playthroughs: every seat's view and prompt at every step of a few seeded games.

`make golden` (python -m tests.golden.regen) rewrites the files; `tests/golden/test_golden.py` replays the
games and compares, so a rule change shows up as a readable diff of these files.
One JSON line per step: the step number, the active seats, the public view (the constant track only in
step 0), each seat's private view and prompt, and the move the seeded random bot chose. In the games of
`UNDO_CASES` the player also takes back its turn, one time in three where the prompt offers `undo`: such a step
records `"undo": {"seat": s}` instead of a move (`python -m tests.golden.regen GAME...` rewrites only the files of
those games).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from server.games import get_game
from server.games.base import Rng
from server.games.bots import RandomBot

ROOT = Path(__file__).parent
#: (game, seats, seed, options) per golden file
CASES: list[tuple[str, int, int, dict[str, Any]]] = [
    ("expedition", 2, 1, {}),
    ("expedition", 3, 2, {}),
    ("expedition", 5, 3, {"open_gold": True}),
    ("expedition", 2, 4, {"move_both": True}),
    ("voyages", 2, 1, {}),
    ("voyages", 3, 2, {"expert": True}),
    ("voyages", 4, 3, {}),
    ("classic", 2, 1, {"max_rounds": 10}),
    ("classic", 3, 2, {"max_rounds": 10}),
    ("classic", 4, 3, {"max_rounds": 10}),
    ("khan", 2, 1, {}),
    ("khan", 3, 2, {"caravans": True}),
    ("khan", 4, 3, {"black_dice_variant": True}),
]
#: (game, seats, seed, options) per golden file of a game played with undos (v1.2), for the games that offer it
UNDO_CASES: list[tuple[str, int, int, dict[str, Any]]] = [
    ("expedition", 3, 5, {}),
    ("classic", 2, 12, {"max_rounds": 10}),
    ("voyages", 2, 4, {}),
    ("khan", 2, 4, {}),
]
#: mixed into the seed of the draws that decide when the player takes an undo that is offered
UNDO_SALT = 0x0D0
CONSTANT_KEYS = ("track", "board")
#: the steps a playthrough with undos records at most, per game (the long games stop after their first rounds:
#: enough undos, files of a sane size)
UNDO_STEPS = {"voyages": 150, "khan": 150}


def path_for(game: str, seats: int, seed: int, undo: bool = False) -> Path:
    return ROOT / game / f"{seats}p-seed{seed}{'-undo' if undo else ''}.jsonl"


def lines(game_id: str, seats: int, seed: int, options: dict[str, Any], undo: bool = False) -> Iterator[str]:
    """The golden lines of one seeded game (with `undo`, one where offered undos are taken at random)."""
    game = get_game(game_id)
    state = game.setup(seats, options, seed)
    bot = RandomBot(seed)
    taker = Rng(seed ^ UNDO_SALT)
    step = 0
    last_event = 0
    while True:
        active = game.active_seats(state)
        public = game.view(state, None)["public"]
        if step:
            public = {k: v for k, v in public.items() if k not in CONSTANT_KEYS}
        if isinstance(public.get("log"), list):  # only the events new since the previous step
            public["log"] = [e for e in public["log"] if e.get("n", 0) > last_event]
            last_event = max([last_event, *(e.get("n", 0) for e in public["log"])])
        record: dict[str, Any] = {
            "step": step,
            "active": active,
            "public": public,
            "private": {str(s): game.view(state, s)["private"] for s in range(seats)},
            "prompts": {str(s): game.prompt(state, s) for s in active},
            "result": game.result(state),
        }
        move = None
        back = False
        if active:
            seat = active[0]
            prompt = game.prompt(state, seat)
            assert prompt is not None
            if undo and prompt.get("undo") and taker.below(3) == 0:
                back = True
                record["undo"] = {"seat": seat}
            else:
                move = bot.choose(prompt)
                record["move"] = {"seat": seat, "move": move}
        yield json.dumps(record, sort_keys=True, separators=(",", ":"))
        if undo and step + 1 >= UNDO_STEPS.get(game_id, 1 << 30):
            return
        if back:
            state = game.undo(state, active[0])
        elif move is None:
            return
        else:
            state = game.apply(state, active[0], move)
        step += 1


def main(argv: list[str]) -> int:
    cases = [(*case, False) for case in CASES] + [(*case, True) for case in UNDO_CASES]
    for game_id, seats, seed, options, undo in cases:
        if argv and game_id not in argv:
            continue
        path = path_for(game_id, seats, seed, undo)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("\n".join(lines(game_id, seats, seed, options, undo)) + "\n", encoding="utf-8")
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
