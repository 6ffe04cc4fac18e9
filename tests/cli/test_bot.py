"""The random bot's handling of stale prompts and refusals, against a fake session (no network)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from clients.cli.bot import BotGaveUp, RandomBot
from clients.client import ServerError

PASS = {"a": "pass"}


class FakeClient:
    def __init__(self, session: FakeSession) -> None:
        self.session = session
        self.closed = asyncio.Event()

    async def move(self, room: str, move: dict[str, Any]) -> int:
        return await self.session.on_move(move)

    async def sync(self, room: str) -> dict[str, Any]:
        self.session.syncs += 1
        self.session.advance()
        return {"t": "snapshot"}


class FakeSession:
    """Version `v` of one room; each version has a prompt until `final` is reached."""

    def __init__(self, answers: list[str | None], final: int = 3) -> None:
        self.answers = answers  # per move: None (accepted) or an error code
        self.final = final
        self.v = 0
        self.moves: list[tuple[int, dict[str, Any]]] = []
        self.syncs = 0
        self.events: asyncio.Queue[tuple[str, Any]] = asyncio.Queue()
        self.client = FakeClient(self)
        self.c = self.client
        self.rooms: dict[str, bool] = {"r": False}
        self.later: list[asyncio.TimerHandle] = []

    def view(self, room: str) -> dict[str, Any]:
        done = self.v >= self.final
        return {
            "game": "x",
            "you": 0,
            "seats": [],
            "public": {},
            "prompt": None if done else {"text": "go", "options": [PASS]},
            "result": {"scores": [1], "winners": [0]} if done else None,
        }

    def version(self, room: str) -> int:
        return self.v

    def advance(self) -> None:
        self.v += 1
        self.events.put_nowait(("update", "r"))

    async def on_move(self, move: dict[str, Any]) -> int:
        self.moves.append((self.v, move))
        code = self.answers.pop(0) if self.answers else None
        if code == "stale-then-update":  # the server moved on; the patch arrives a moment later
            self.later.append(asyncio.get_running_loop().call_later(0.02, self.advance))
            raise ServerError("not_your_turn", "seat 0 may not move now")
        if code is not None:
            raise ServerError(code, "no")
        self.advance()
        return self.v


async def test_a_stale_prompt_waits_for_the_next_update_and_tries_again() -> None:
    session = FakeSession(["stale-then-update"], final=3)
    bot = RandomBot(session, "r", seed=1, stale_wait=5.0)  # type: ignore[arg-type]
    view = await asyncio.wait_for(bot.play(), 2)
    assert view["result"] is not None
    # the refused move at version 0 is not resent at version 0: the bot waited for version 1
    assert [v for v, _ in session.moves] == [0, 1, 2]
    assert (bot.moves, bot.refused, session.syncs) == (2, 1, 0)


async def test_a_refused_move_with_no_update_coming_resyncs_after_a_pause() -> None:
    session = FakeSession(["illegal_move"], final=2)
    bot = RandomBot(session, "r", seed=1, stale_wait=0.05)  # type: ignore[arg-type]
    await asyncio.wait_for(bot.play(), 2)
    assert session.syncs == 1
    assert [v for v, _ in session.moves] == [0, 1]


async def test_rate_limited_moves_are_retried_after_a_pause() -> None:
    session = FakeSession(["rate_limited", "rate_limited"], final=1)
    bot = RandomBot(session, "r", seed=1)  # type: ignore[arg-type]
    await asyncio.wait_for(bot.play(), 2)
    assert [v for v, _ in session.moves] == [0, 0, 0]
    assert bot.refused == 2


async def test_a_bot_refused_too_often_gives_up_and_other_errors_propagate() -> None:
    bot = RandomBot(FakeSession(["rate_limited"] * 5), "r", max_refused=3)  # type: ignore[arg-type]
    with pytest.raises(BotGaveUp):
        await asyncio.wait_for(bot.play(), 5)
    bot = RandomBot(FakeSession(["forbidden"]), "r")  # type: ignore[arg-type]
    with pytest.raises(ServerError):
        await bot.play()


async def test_the_bot_is_seeded() -> None:
    picks = []
    for _ in range(2):
        session = FakeSession([], final=1)
        bot = RandomBot(session, "r", seed=7)  # type: ignore[arg-type]
        options = [{"a": "pass"}, {"a": "stop"}, {"a": "draw"}]
        picks.append([bot.rng.choice(options)["a"] for _ in range(10)])
    assert picks[0] == picks[1]
