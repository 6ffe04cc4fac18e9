"""The terminal client's `--bot LEVEL` mode: play one room from its prompts until the game has a result.

Owns: choosing an option of the current prompt — `random` (easy): uniformly at random with its own seeded
`random.Random`, never the game's; `greedy` (normal): the game's greedy bot (`server.games.<game>.bots`,
the server bots' own policy) fed this seat's view, seeded too — sending it, and coping with the network:
a `not_your_turn` / `illegal_move` answer to a stale prompt waits for the next version (or re-syncs after
a pause) and tries again; `rate_limited` and `unavailable` back off; a dropped connection reconnects
through the session (token, then re-join).
Must not: know any game's rules; every move comes from the view's prompt (the greedy policy reads only
the view the server sent this seat).

`search` (hard) is played by the server: determinized search samples hidden information from the game state
(`sample_state`), which a client never holds, so this mode hands the seat to the server's search bot
(`autoplay`, which sees only this seat's view) and follows the game to its end.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from typing import Any

from clients.cli.render import option_label
from clients.cli.session import CONNECTION_ERRORS, Session
from clients.client import ServerError

#: answers that mean "your prompt was out of date": wait for the next update and try again
STALE = ("not_your_turn", "illegal_move", "stale")
#: answers worth retrying after a pause
RETRY = ("rate_limited", "unavailable")


#: every name `--bot` takes and the level it means (the server's labels: easy, normal, hard)
LEVELS = {
    "random": "random",
    "easy": "random",
    "greedy": "greedy",
    "normal": "greedy",
    "search": "search",
    "hard": "search",
}
#: the levels a client can play itself (`search` is handed to the server: `autoplay`)
CLIENT_LEVELS = ("random", "greedy")


def level_name(name: str) -> str:
    """The level a `--bot` name means; ValueError for an unknown name."""
    if name not in LEVELS:
        raise ValueError(f"unknown bot level {name!r}; known: {', '.join(LEVELS)}")
    return LEVELS[name]


class BotGaveUp(Exception):
    """The bot met more refused moves in a row than it is willing to retry."""


class RandomBot:
    """Plays `room` for this session with uniformly random prompt options."""

    def __init__(
        self,
        session: Session,
        room: str,
        *,
        seed: int | None = None,
        delay: float = 0.0,
        stale_wait: float = 2.0,
        max_refused: int = 50,
        say: Callable[[str], None] | None = None,
        level: str = "random",
    ) -> None:
        self.session = session
        self.room = room
        self.level = level_name(level)
        self.seed = seed
        self.rng = random.Random(seed)
        self._greedy: Any = None
        self.delay = delay
        self.stale_wait = stale_wait
        self.max_refused = max_refused
        self.say = say or (lambda _msg: None)
        self.moves = 0
        self.refused = 0
        self.reconnects = 0

    async def play(self) -> dict[str, Any]:
        """Move whenever the view has a prompt; return the final view once it has a result (or once the server closed
        the room, v1.2 `closed`: a moderator, say)."""
        refused_in_a_row = 0
        while True:
            view = self.session.view(self.room)
            if view is None:
                await self._rejoin()
                continue
            if view.get("result") or (view.get("closed") and view.get("status") == "finished"):
                return view
            v0 = self.session.version(self.room)
            if self.level not in CLIENT_LEVELS:
                await self._hand_over(view)
                await self._wait_change(v0, timeout=None)
                continue
            options = (view.get("prompt") or {}).get("options") or []
            if not options:
                await self._wait_change(v0, timeout=None)
                continue
            if self.delay:
                await asyncio.sleep(self.delay)
                if self.session.version(self.room) != v0:
                    continue  # the view moved on while we paused: look again
            move = self.choose(view, options)
            try:
                await self.session.c.move(self.room, move)
            except ServerError as err:
                refused_in_a_row += 1
                self.refused += 1
                if refused_in_a_row > self.max_refused:
                    raise BotGaveUp(f"{refused_in_a_row} moves refused in a row; last: {err}") from err
                if err.code in STALE:
                    await self._wait_change(v0, timeout=self.stale_wait)
                elif err.code in RETRY:
                    await asyncio.sleep(min(2.0, 0.1 * refused_in_a_row))
                else:
                    raise
                continue
            except CONNECTION_ERRORS:
                await self._reconnect()
                continue
            refused_in_a_row = 0
            self.moves += 1
            self.say(option_label(view, move))

    async def _hand_over(self, view: dict[str, Any]) -> None:
        """Once the game runs, have the server's bot of this level play the seat (again after a reconnect)."""
        seat, seats = view.get("you"), view.get("seats") or []
        if view.get("status") != "playing" or not isinstance(seat, int) or seat >= len(seats):
            return
        if seats[seat].get("autoplay") == self.level:
            return
        try:
            await self.session.c.autoplay(self.room, self.level)
        except ServerError as err:
            if err.code not in RETRY:
                raise
            await asyncio.sleep(0.5)
        except CONNECTION_ERRORS:
            await self._reconnect()
        else:
            self.say(f"the server's {self.level} bot plays this seat")

    def choose(self, view: dict[str, Any], options: list[Any]) -> Any:
        """One of `options`: at random, or the game's greedy choice from this seat's view."""
        if self.level == "greedy":
            if self._greedy is None:
                from server.games.search import greedy_for  # the server bots' policy, fed this seat's view only

                self._greedy = greedy_for(str(view.get("game")), self.rng.getrandbits(63))
            return self._greedy.choose({"text": "", "options": options}, view)
        return self.rng.choice(options)

    async def _wait_change(self, v0: int, timeout: float | None) -> None:
        """Wait for a version other than `v0`; on timeout ask for a snapshot; reconnect if the socket closed."""
        loop = asyncio.get_running_loop()
        deadline = None if timeout is None else loop.time() + timeout
        while self.session.version(self.room) == v0:
            client = self.session.client
            if client is None or client.closed.is_set():
                await self._reconnect()
                return
            remaining = None if deadline is None else deadline - loop.time()
            if remaining is not None and remaining <= 0:
                try:
                    await self.session.c.sync(self.room)
                except CONNECTION_ERRORS:
                    await self._reconnect()
                return
            try:
                kind, what = await asyncio.wait_for(self.session.events.get(), remaining)
            except TimeoutError:
                continue
            if kind == "closed" and what is self.session.client:  # not a stale event of a replaced client
                await self._reconnect()
                return

    async def _reconnect(self) -> None:
        self.reconnects += 1
        await self.session.reconnect()
        if self.session.view(self.room) is None:
            await self._rejoin()

    async def _rejoin(self) -> None:
        try:
            await self.session.join(self.room, spectate=self.session.rooms.get(self.room, False))
        except CONNECTION_ERRORS:
            await self._reconnect()
