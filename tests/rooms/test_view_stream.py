"""Every viewer's stream of frames on seeded games of the four games, through the real hub and rooms: applying a
viewer's patches to its snapshot gives, at every version, exactly the view built for it then, and that view is the
one built from scratch (a copy of the state, every view memo emptied); and the whole stream (the snapshots and
patches of four seats and a spectator, room ids aside) is, byte for byte, the one the room core sent before the
views shared their unchanged parts between versions (issue 34: `DIGESTS` were recorded on commit df648e8,
Expedition's again on 193d454, whose end view shows every seat's gold)."""

from __future__ import annotations

import asyncio
import hashlib
import random
from typing import Any

import msgpack
import pytest

from protocol import messages as m
from protocol.patch import apply_patch
from server.config import Settings
from server.games import base
from server.metrics import Metrics
from server.net.conn import Conn
from server.node.hub import Hub
from server.store import MemoryStore

#: game -> (seats, seed, moves at most)
CASES = {"expedition": (4, 11, 400), "classic": (4, 12, 160), "voyages": (4, 13, 120), "khan": (4, 14, 120)}
#: sha256 of each case's whole stream, recorded with the room core and engines of commit df648e8 (Expedition:
#: 193d454, the end view changed)
DIGESTS = {
    "classic": "cc8bd6a8e79331d4e1a00745015687e9bcd29e83d9cfceb3a9ed09d8b1e0c1c1",
    "expedition": "0f38536570b3470ad4a76b948502da4ee1597965a517e2281855b24e8cc01f19",
    "khan": "87ff4ea9d075bd18a214a6e1c3460ec3df1eec5a29e1277ade1607d41772635d",
    "voyages": "f7c79b531c518076dc55cc7b9e0a99f69dbf78a34ae7bd2b1a4c1dd587a8f8ab",
}


class Recorder:
    """A connection whose socket keeps every frame."""

    def __init__(self, hub: Hub, player: str) -> None:
        self.frames: list[bytes] = []
        self.conn = Conn(self._send, self._close, hub.metrics, rate=1e9, burst=10**9, write_now=self._write)
        self.conn.player, self.conn.name = player, player
        self.conn.start()
        hub.connected(self.conn)
        self.doc: Any = None
        self.read = 0

    def _write(self, data: bytes) -> bool:
        self.frames.append(data)
        return True

    async def _send(self, data: bytes) -> None:  # pragma: no cover - `_write` always takes the frame
        self.frames.append(data)

    async def _close(self, code: int, reason: str) -> None:
        pass

    def follow(self) -> None:
        """Apply the frames received since the last call to the document this viewer holds."""
        for data in self.frames[self.read :]:
            msg = msgpack.unpackb(data)
            if msg["t"] == "snapshot":
                self.doc = msg["state"]
            elif msg["t"] == "patch":
                self.doc = apply_patch(self.doc, msg["ops"])
        self.read = len(self.frames)


def _without(value: Any, room: str) -> Any:
    """`value` with the room's (random) id replaced by a fixed string."""
    if isinstance(value, dict):
        return {k: _without(v, room) for k, v in value.items()}
    if isinstance(value, list):
        return [_without(v, room) for v in value]
    return "ROOM" if value == room else value


def _fresh_view(room: Any, seat: int | None) -> dict[str, Any]:
    """The view of `seat` built from a copy of the state with every view memo emptied."""
    base.clear_view_memos()
    state = room.state
    room.state = base.unpack(base.pack(state))
    room._shared_key = None  # the room's per-version caches are built again
    try:
        return room.build_view(seat)  # type: ignore[no-any-return]
    finally:
        room.state = state
        room._shared_key = None


async def _play(game: str, seats: int, seed: int, moves: int, check: bool) -> str:
    hub = Hub(Settings(allow_client_seed=True, rate=1e9, burst=10**9), MemoryStore(), Metrics())
    hub.ready = True
    players = [Recorder(hub, f"p{seed}-{i}") for i in range(seats)]
    watcher = Recorder(hub, f"w{seed}")
    room_id = await hub.create_room(m.Create(game=game, seats=seats, options={"seed": seed}))
    room = hub.rooms[room_id]
    for p in players:
        await room.submit("join", p.conn)
    await room.submit("join", watcher.conn, spectate=True)
    viewers = [*((p, i) for i, p in enumerate(players)), (watcher, None)]
    rng = random.Random(seed)
    for n in range(moves):
        if room.state is None or room.status != "playing":
            break
        seat = next(i for i in room.game.active_seats(room.state) if room.prompt_for(room.state, i))
        move = rng.choice(room.prompt_for(room.state, seat)["options"])
        frame = {"t": "move", "id": n + 1, "room": room_id, "v": room.v, "move": move}
        await hub.handle_frame(players[seat].conn, msgpack.packb(frame))
        if check:
            for rec, s in viewers:
                rec.follow()
                built = room.build_view(s)
                assert msgpack.packb(rec.doc) == msgpack.packb(built), (game, room.v, s)
                if n % 7 == 0 or room.status != "playing":
                    assert msgpack.packb(built) == msgpack.packb(_fresh_view(room, s)), (game, room.v, s)
    digest = hashlib.sha256()
    for k, (rec, _s) in enumerate(viewers):
        for data in rec.frames:
            digest.update(b"%d:" % k + msgpack.packb(_without(msgpack.unpackb(data), room_id)))
    return digest.hexdigest()


@pytest.mark.parametrize("game", sorted(CASES))
def test_patches_rebuild_each_viewers_view_and_the_stream_is_unchanged(game: str) -> None:
    seats, seed, moves = CASES[game]
    digest = asyncio.run(_play(game, seats, seed, moves, check=True))
    assert digest == DIGESTS[game]


if __name__ == "__main__":  # prints the digests (run in a checkout of the commit to compare with)
    for name, (n, s, k) in sorted(CASES.items()):
        print(f'    "{name}": "{asyncio.run(_play(name, n, s, k, check=False))}",')


@pytest.mark.parametrize("game", sorted(CASES))
def test_views_with_shared_parts_equal_views_built_from_scratch_to_the_end_of_a_game(game: str) -> None:
    """Every version of a whole seeded game, its last included: each seat's and the spectators' view equals, byte
    for byte, the view built from a copy of the state with every view memo emptied."""
    from server.games import get_game

    engine = get_game(game)
    rng = random.Random(7)
    state = engine.setup(3, None, 7)
    for _ in range(3000):
        # built with the memos as the versions before left them, then from scratch
        views = {seat: msgpack.packb(engine.view(state, seat)) for seat in (None, 0, 1, 2)}
        base.clear_view_memos()
        copy = base.unpack(base.pack(state))
        for seat, view in views.items():
            assert view == msgpack.packb(engine.view(copy, seat)), (game, seat)
        active = [s for s in engine.active_seats(state) if engine.prompt(state, s)]
        if not active:
            break
        seat = active[0]
        prompt = engine.prompt(state, seat)
        assert prompt is not None
        state = engine.apply(state, seat, rng.choice(prompt["options"]))
    assert engine.result(state) is not None
