"""v1.2 `undo` over real sockets: the mover's patch then `ok`, every viewer's view back at the turn's start, the
undo stored in the log and re-run after a restart, and the refusals (`illegal_move`, `stale`, `forbidden`)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import msgpack
import pytest

from clients.client import Client, ServerError
from server.games import all_games
from server.store.sqlite import SqliteStore
from tests.util import strings

from .conftest import _settle, start_app

UNDO_GAMES = sorted(gid for gid, g in all_games().items() if g.offers_undo)
SKIP = {"connected", "clock"}


def comparable(view: dict[str, Any]) -> Any:
    """A view without what an undo may change: the public log, the clock, presence."""
    out = {k: v for k, v in view.items() if k != "clock"}
    if isinstance(out.get("public"), dict):
        out["public"] = {k: v for k, v in out["public"].items() if k != "log"}
    out["seats"] = [{k: v for k, v in s.items() if k not in SKIP} for s in out.get("seats") or []]
    return out


async def clients(port: int, n: int) -> list[Client]:
    out = []
    for i in range(n):
        c = Client(f"ws://127.0.0.1:{port}/ws", keep_frames=True)
        await c.connect()
        await c.hello(f"p{i}")
        out.append(c)
    return out


async def play_until_undo(room: str, players: list[Client], rng: random.Random) -> tuple[Client, int, list[Any]]:
    """Play random moves until a prompt offers `undo`; returns the mover, the version where its turn began, and
    every client's comparable view at that version (players, then the spectator)."""
    everyone = players
    turn_start: tuple[int, list[Any]] | None = None
    for _ in range(3000):
        await _settle(everyone, room)
        views = [p.view(room) for p in players]
        mover = next((p for p, v in zip(players, views, strict=True) if v.get("prompt")), None)
        assert mover is not None, "nobody has a prompt"
        prompt = mover.view(room)["prompt"]
        if prompt.get("undo"):
            assert turn_start is not None
            return mover, turn_start[0], turn_start[1]
        here = (mover.views[room].v, [comparable(p.view(room)) for p in everyone])
        await mover.move(room, rng.choice(prompt["options"]))
        await _settle(everyone, room)
        after = mover.view(room).get("prompt")
        turn_start = here if after and after.get("undo") else None
    raise AssertionError("no undo was offered in 3000 random moves")


@pytest.mark.parametrize("gid", UNDO_GAMES)
async def test_an_undo_over_the_wire_restores_every_view_and_outlives_a_restart(gid: str, tmp_path: Path) -> None:
    path = tmp_path / "rooms.db"
    app = await start_app(store=SqliteStore(path, takeover=True), records="")
    try:
        *players, spectator = await clients(app.port, 3)
        room = await players[0].create(gid, 2, {"seed": 4242})
        await spectator.join(room, spectate=True)
        for p in players:
            await p.join(room)
        await players[1].wait_for(room, lambda s: s["status"] == "playing")
        everyone = [*players, spectator]
        mover, start_v, before = await play_until_undo(room, everyone[:2] + [spectator], random.Random(7))
        other = next(p for p in players if p is not mover)
        v = mover.views[room].v
        # refusals first: nothing changes
        with pytest.raises(ServerError) as err:
            await other.undo(room)
        assert err.value.code == "illegal_move"
        with pytest.raises(ServerError) as err:
            await spectator.undo(room)
        assert err.value.code == "forbidden"
        with pytest.raises(ServerError) as err:
            await mover.undo(room, v=v - 1)
        assert err.value.code == "stale"
        assert mover.views[room].v == v
        # the undo: a new version; the mover's patch comes before its ok
        assert mover.frames is not None
        mark = len(mover.frames)
        ok_v = await mover.undo(room, v=v)
        assert ok_v == v + 1
        frames = [msgpack.unpackb(f) for f in mover.frames[mark:]]
        kinds = [(f["t"], f.get("v")) for f in frames]
        assert kinds.index(("patch", v + 1)) < kinds.index(("ok", v + 1)), kinds
        await _settle(everyone, room)
        assert [comparable(c.view(room)) for c in everyone] == before, "the views are not those of the turn's start"
        log = mover.view(room)["public"]["log"]
        assert log[-1]["ev"] == "undo" and log[-1]["seat"] == mover.view(room)["you"]
        assert not (mover.view(room)["prompt"] or {}).get("undo"), "undo offered again right at the turn's start"
        # a resend of the same undo (same v) is stale, never applied twice
        with pytest.raises(ServerError) as err:
            await mover.undo(room, v=v)
        assert err.value.code in ("stale", "illegal_move")
        events = await spectator.game_log(room)
        assert events[-1]["ev"] == "undo"
        kept = comparable(spectator.view(room))
        kept_mover = comparable(mover.view(room))
        mover_token = mover.token
        await mover.close()
    finally:
        await app.stop()
    # a restart on the same file re-runs the stored log, undo included (snapshots every 50 versions: the undo is
    # in the log's tail)
    app = await start_app(store=SqliteStore(path, takeover=True), records="")
    try:
        again = Client(f"ws://127.0.0.1:{app.port}/ws")
        await again.connect()
        await again.hello("late watcher")
        await again.join(room, spectate=True)
        assert comparable(again.view(room)) == kept
        assert again.view(room)["public"]["log"][-1]["ev"] == "undo"
        back = Client(f"ws://127.0.0.1:{app.port}/ws")
        await back.connect()
        await back.hello("p", mover_token)
        await back.join(room)
        assert comparable(back.view(room)) == kept_mover
        await again.close()
        await back.close()
    finally:
        await app.stop()


@pytest.mark.parametrize("gid", UNDO_GAMES)
async def test_no_frame_carries_another_seats_secret_around_undos(gid: str) -> None:
    app = await start_app()
    try:
        *players, spectator = await clients(app.port, 3)
        room = await players[0].create(gid, 2, {"seed": 99})
        await spectator.join(room, spectate=True)
        for p in players:
            await p.join(room)
        await players[1].wait_for(room, lambda s: s["status"] == "playing")
        everyone = [*players, spectator]
        rng = random.Random(3)
        game = all_games()[gid]
        undos = 0
        for _ in range(400):
            await _settle(everyone, room)
            mover = next((p for p in players if p.view(room).get("prompt")), None)
            if mover is None or mover.view(room).get("result"):
                break
            prompt = mover.view(room)["prompt"]
            if prompt.get("undo") and rng.random() < 0.5:
                await mover.undo(room)
                undos += 1
            else:
                await mover.move(room, rng.choice(prompt["options"]))
        assert undos > 0
        state = app.hub.rooms[room].state
        assert state is not None
        for seat, p in enumerate(players):
            theirs = set(strings(game.secret_tokens(state, seat)))
            for other in everyone:
                if other is p or other.frames is None:
                    continue
                seen = strings([msgpack.unpackb(f) for f in other.frames])
                # secrets held now by `seat` never reached anyone else, in any frame
                assert not theirs & seen, (seat, theirs & seen)
    finally:
        await app.stop()
