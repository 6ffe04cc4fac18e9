"""Server-seated bots' decisions, off the event loop: search decisions run in a process pool, time-bound.

Owns: the bot levels (`random`, `greedy`, `search`, and their labels `easy`, `normal`, `hard`), one
process pool per server process (created on first use), the think-time bound of a search decision.
Must not: touch rooms, stores or sockets; decide rules. A decision is a pure function of
(game, level, state, seat, seed): the search bot reads the state only through `sample_state` and the
seat's view (see `server.games.search`).

`random` and `greedy` decisions take a millisecond and run in place. A `search` decision is sent to a
worker process with its time budget (default 0.5 s, `configure(seconds=...)`); if the pool fails or the
answer does not come within the budget plus a grace period, the greedy move is played instead, so a bot
never stalls a room.
"""

from __future__ import annotations

import asyncio
import atexit
import concurrent.futures
import logging
import multiprocessing
import os
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from server.games import get_game
from server.games.base import Move, State
from server.games.bots import RandomBot
from server.games.search import Budget, decide, greedy_for

log = logging.getLogger("marcopolo.bots")

LEVELS = ("random", "greedy", "search")
#: the labels people see, and the level each names
LABELS = {"easy": "random", "normal": "greedy", "hard": "search"}
DEFAULT_LEVEL = "greedy"
#: seconds a search decision may think (the process pool answers within this plus GRACE)
DEFAULT_SECONDS = 0.5
GRACE = 2.0

_seconds = DEFAULT_SECONDS
_workers = max(1, min(2, (os.cpu_count() or 1) - 1))
_pool: concurrent.futures.ProcessPoolExecutor | None = None


def level_name(level: str | None) -> str:
    """The canonical level for a level or label; raises ValueError for an unknown one."""
    if level is None:
        return DEFAULT_LEVEL
    name = LABELS.get(level, level)
    if name not in LEVELS:
        raise ValueError(f"unknown bot level {level!r}; known: {', '.join((*LEVELS, *LABELS))}")
    return name


def configure(*, seconds: float | None = None, workers: int | None = None) -> None:
    """Set the think time of search decisions and the pool size (before the pool's first use)."""
    global _seconds, _workers
    if seconds is not None:
        _seconds = seconds
    if workers is not None:
        _workers = workers


def _get_pool() -> concurrent.futures.ProcessPoolExecutor:
    global _pool
    if _pool is None:
        # spawn, not fork: the server process runs an event loop and threads that a fork would copy
        _pool = concurrent.futures.ProcessPoolExecutor(_workers, mp_context=multiprocessing.get_context("spawn"))
        atexit.register(shutdown)
    return _pool


def shutdown() -> None:
    """Stop the worker processes (at exit, or in tests)."""
    global _pool
    if _pool is not None:
        _pool.shutdown(wait=False, cancel_futures=True)
        _pool = None


def choose_now(game_id: str, level: str, state: State, seat: int, seed: int) -> Move:
    """A random or greedy decision, in place (they are fast)."""
    game = get_game(game_id)
    prompt = game.prompt(state, seat)
    if prompt is None:
        raise ValueError(f"seat {seat} has nothing to choose")
    bot: Any = RandomBot(seed) if level == "random" else greedy_for(game_id, seed)
    move: Move = bot.choose(prompt, game.view(state, seat))
    return move


async def choose(
    game_id: str, level: str | None, state: State, seat: int, seed: int, seconds: float | None = None
) -> Move:
    """The bot's move; a search decision (thinking `seconds`, else the configured default) runs in a worker
    process and never blocks the event loop."""
    name = level_name(level)
    if name != "search":
        return choose_now(game_id, name, state, seat, seed)
    loop = asyncio.get_running_loop()
    seconds = _seconds if seconds is None else seconds
    try:
        fut = loop.run_in_executor(_get_pool(), decide, game_id, state, seat, seed, Budget(seconds=seconds))
        move, _playouts = await asyncio.wait_for(fut, seconds + GRACE)
        return move
    except (TimeoutError, BrokenProcessPool, OSError) as err:
        log.warning("search bot fell back to greedy (%s: %s)", type(err).__name__, err)
        if isinstance(err, BrokenProcessPool):
            shutdown()
        return choose_now(game_id, "greedy", state, seat, seed)
