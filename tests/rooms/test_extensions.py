"""The room core against extensions of the test's own: hooks in their documented order, requests they claim,
and a core that runs a game with no extension at all (no clock, presence, ratings or bots in its views)."""

from __future__ import annotations

from typing import Any, ClassVar

import msgpack
import pytest

from server.metrics import Metrics
from server.net.conn import Conn
from server.rooms.core import Command, Extension, Room, RoomError, Viewer
from server.rooms.meta import RoomMeta
from server.store.memory import MemoryStore


class StubHost:
    """The node around a room, reduced to what the room calls back."""

    def __init__(self) -> None:
        self.store = MemoryStore()
        self.metrics = Metrics()
        self.changed: list[int] = []
        self.seats: list[tuple[str, bool]] = []

    def room_changed(self, room: Room) -> None:
        self.changed.append(room.v)

    def room_idle(self, room: Room) -> None:
        pass

    def room_fenced(self, room: Room) -> None:
        pass

    async def seat_changed(self, room: Room, player: str, held: bool) -> None:
        self.seats.append((player, held))


class Recording(Extension):
    """Records every hook with the room's version at the time; answers a `wave` request."""

    requests: ClassVar[dict[str, str]] = {"wave": "wave"}

    def __init__(self, calls: list[tuple[str, Any]]) -> None:
        self.calls = calls

    def on_create(self, room: Room) -> None:
        self.calls.append(("on_create", room.v))

    def on_dispose(self, room: Room) -> None:
        self.calls.append(("on_dispose", room.v))

    async def on_rejoin(self, room: Room, seat: int) -> None:
        self.calls.append(("on_rejoin", seat))

    async def on_join(self, room: Room, viewer: Viewer, returning: bool) -> None:
        self.calls.append(("on_join", (viewer.seat, returning)))

    async def on_leave(self, room: Room, seat: int) -> None:
        self.calls.append(("on_leave", seat))

    def before_move(self, room: Room, meta: RoomMeta, state: Any, mover: int | None, by: str) -> None:
        self.calls.append(("before_move", (meta.v, mover, by)))

    def before_commit(self, room: Room, meta: RoomMeta) -> None:
        self.calls.append(("before_commit", meta.v))

    def on_version(self, room: Room) -> None:
        self.calls.append(("on_version", room.v))

    async def on_finish(self, room: Room) -> None:
        self.calls.append(("on_finish", room.v))

    def view_keys(self, room: Room) -> dict[str, Any]:
        return {"waves": len([c for c in self.calls if c[0] == "wave"])}

    def seat_keys(self, room: Room, seats: list[dict[str, Any]]) -> None:
        for seat in seats:
            seat["mark"] = True

    async def wave(self, room: Room, cmd: Command) -> int:
        self.calls.append(("wave", room.v))
        meta = room.next_meta()
        await room.commit(None, meta)
        room.meta = meta
        room.broadcast()
        return room.v


class Frames:
    def __init__(self, host: StubHost, player: str) -> None:
        self.frames: list[dict[str, Any]] = []
        self.conn = Conn(self._send, self._close, host.metrics)
        self.conn.player, self.conn.name = player, player.upper()
        self.conn.start()

    async def _send(self, data: bytes) -> None:
        self.frames.append(msgpack.unpackb(data))

    async def _close(self, code: int, reason: str) -> None:
        pass


async def _room(host: StubHost, extensions: list[Extension]) -> Room:
    meta = RoomMeta(room="r1", game="expedition", seats=2, options={}, seed=8, players=[None, None],
                    names=[None, None])  # fmt: skip
    await host.store.create_room(meta.to_dict())
    room = Room(host, meta, None, extensions=extensions, snapshot_every=32, finished_ttl=60)
    room.start()
    return room


async def test_the_hooks_run_in_the_documented_order_through_a_join_a_start_and_a_move() -> None:
    host, calls = StubHost(), []
    room = await _room(host, [Recording(calls)])
    a, b = Frames(host, "pa"), Frames(host, "pb")
    assert calls == [("on_create", 0)]
    await room.submit("join", a.conn)
    assert calls[1:] == [("before_commit", 1), ("on_version", 1), ("on_join", (0, False))]
    calls.clear()
    await room.submit("join", b.conn)  # the last seat: the join (v2) and the start (v3), one log entry
    assert calls == [("before_move", (3, None, "start")), ("before_commit", 3), ("on_version", 2),
                     ("on_version", 3), ("on_join", (1, False))]  # fmt: skip
    calls.clear()
    prompt = room.prompt_for(room.state, 0) or room.prompt_for(room.state, 1)  # type: ignore[arg-type]
    seat = 0 if room.prompt_for(room.state, 0) else 1  # type: ignore[arg-type]
    mover = (a, b)[seat]
    assert prompt is not None
    await room.submit("move", mover.conn, 7, move=prompt["options"][0])
    assert calls == [("before_move", (4, seat, "player")), ("before_commit", 4), ("on_version", 4)]
    calls.clear()
    await room.submit("join", a.conn)  # the seat's player comes back on the same connection
    assert calls == [("on_rejoin", 0), ("on_join", (0, True))]
    calls.clear()
    await room.submit("detach", b.conn)
    assert calls == [("on_leave", 1)]
    await room.stop()
    assert calls[-1] == ("on_dispose", 4)


async def test_an_extensions_request_is_answered_inside_the_actor_and_its_view_keys_reach_every_viewer() -> None:
    host, calls = StubHost(), []
    room = await _room(host, [Recording(calls)])
    a = Frames(host, "pa")
    await room.submit("join", a.conn)
    assert await room.submit("wave", a.conn) == 2
    view = room.build_view(0)
    assert view["waves"] == 1 and all(seat["mark"] for seat in view["seats"])
    await room.stop()


async def test_a_room_with_no_extension_plays_and_its_views_hold_only_the_cores_keys() -> None:
    host = StubHost()
    room = await _room(host, [])
    a, b = Frames(host, "pa"), Frames(host, "pb")
    await room.submit("join", a.conn)
    await room.submit("join", b.conn)
    view = room.build_view(0)
    assert set(view) == {"game", "room", "status", "seats", "options", "public", "result", "you", "private", "prompt"}
    assert view["seats"][0] == {"name": "PA", "taken": True}
    with pytest.raises(RoomError) as err:
        await room.submit("chat", a.conn, text="hi")
    assert err.value.code == "unknown_type"
    assert host.seats == [("pa", True), ("pb", True)] and host.changed[-1] == 3
    await room.stop()


def test_two_extensions_claiming_one_request_fail_when_the_room_is_built() -> None:
    host = StubHost()
    meta = RoomMeta(room="r1", game="expedition", seats=2, players=[None, None], names=[None, None])
    with pytest.raises(ValueError, match="wave"):
        Room(host, meta, None, extensions=[Recording([]), Recording([])], snapshot_every=32, finished_ttl=60)

    class Mover(Extension):
        requests: ClassVar[dict[str, str]] = {"move": "move"}

    with pytest.raises(ValueError, match="move"):
        Room(host, meta, None, extensions=[Mover()], snapshot_every=32, finished_ttl=60)
