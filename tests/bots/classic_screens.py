"""Measurements, not bots: the classic search against the greedy bot with one setting changed, on any seeds.

    nice -n 19 python -m tests.bots.classic_screens --reward own --playouts 32 --candidates 5 \
        --confidence 1.0 --seeds 200-259 --jobs 2 --rows ROWS

Plays the arena's games (`server.games.arena.play`: game k uses seed k, the search bot at seat k % 2) for
every k in `--seeds`, with the classic search's reward, pick rule, playouts and candidates set as given in
each worker before it starts, and appends each game's row (with its `config`) to `--rows`; prints the win
rate at the end. Rewards: `own` (the shipped one: the seat's expected finishing round, `OWN_REWARD`),
`margin` (the finishing-round margin over the other seat), `sigmoidS` (a logistic of that margin with scale
S turns: a smoothed "finish first"). Nothing imports this file; docs/bots.md has what it measured.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import statistics
from typing import Any

from server.games import search
from server.games.arena import play, wilson
from server.games.classic import bots as classic_bots
from server.games.search import Budget, SearchBot

_ORIGINAL_REWARD = SearchBot._reward


def _configure(reward: str, confidence: float) -> None:
    classic_bots.SEARCH_CONFIDENCE = confidence
    classic_bots.OWN_REWARD = reward == "own"
    if reward.startswith("sigmoid"):
        scale = float(reward[len("sigmoid") :]) * classic_bots.TURN

        def _reward(self: SearchBot, state: Any, seat: int) -> float:
            margin = _ORIGINAL_REWARD(self, state, seat)
            return 1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, margin / scale))))

        search.SearchBot._reward = _reward  # type: ignore[method-assign]
    elif reward not in ("own", "margin"):
        raise SystemExit(f"unknown reward {reward!r}")


def _play(job: tuple[int, Budget]) -> dict[str, Any]:
    return play("classic", job[0], job[1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--reward", default="own")
    ap.add_argument("--playouts", type=int, default=32)
    ap.add_argument("--candidates", type=int, default=search.CANDIDATES)
    ap.add_argument("--confidence", type=float, default=1.0)
    ap.add_argument("--seeds", default="200-259", help="K0-K1, both included")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--rows", required=True)
    a = ap.parse_args()
    k0, k1 = (int(x) for x in a.seeds.split("-"))
    config = f"reward={a.reward} playouts={a.playouts} candidates={a.candidates} confidence={a.confidence}"
    budget = Budget(seconds=None, playouts=a.playouts, candidates=a.candidates)
    wins: list[float] = []
    with (
        multiprocessing.Pool(a.jobs, initializer=_configure, initargs=(a.reward, a.confidence)) as pool,
        open(a.rows, "a") as fh,
    ):
        for row in pool.imap_unordered(_play, [(k, budget) for k in range(k0, k1 + 1)]):
            row["config"] = config
            fh.write(json.dumps(row) + "\n")
            fh.flush()
            wins.append(row["win"])
    print(f"{config}: {100 * statistics.fmean(wins):.0f}% ({wilson(sum(wins), len(wins))}) of {len(wins)} games")


if __name__ == "__main__":
    main()
