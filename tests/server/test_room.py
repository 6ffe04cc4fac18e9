"""Room actors without sockets: recording connections, a memory store, versions and recovery."""

from __future__ import annotations

import asyncio
from typing import Any

import msgpack
import pytest

from protocol.patch import apply_patch
from server.config import Settings
from server.metrics import Metrics
from server.net.conn import Conn
from server.node.hub import Hub
from server.rooms.core import RoomError
from server.rooms.replay import restore
from server.store import MemoryStore


class Recorder:
    """A connection whose frames land in a list."""

    def __init__(self, hub: Hub, player: str, name: str) -> None:
        self.frames: list[dict[str, Any]] = []
        self.conn = Conn(self._send, self._close, hub.metrics)
        self.conn.player, self.conn.name = player, name
        self.conn.start()

    async def _send(self, data: bytes) -> None:
        self.frames.append(msgpack.unpackb(data))

    async def _close(self, code: int, reason: str) -> None:
        pass

    def of(self, t: str) -> list[dict[str, Any]]:
        return [f for f in self.frames if f["t"] == t]


async def _flush() -> None:
    import asyncio

    for _ in range(5):
        await asyncio.sleep(0)


@pytest.fixture
async def hub() -> Hub:
    return Hub(Settings(allow_client_seed=True), MemoryStore(), Metrics())


async def _room(hub: Hub, seats: int = 2) -> str:
    from protocol import messages as m

    return await hub.create_room(m.Create(game="expedition", seats=seats, options={"seed": 8}))


async def test_the_last_join_and_the_start_are_two_versions_seen_by_everyone(hub: Hub) -> None:
    room_id = await _room(hub)
    room = hub.rooms[room_id]
    a, b = Recorder(hub, "pa", "A"), Recorder(hub, "pb", "B")
    assert await room.submit("join", a.conn) == 0
    assert room.v == 1
    assert await room.submit("join", b.conn) == 1
    assert room.v == 3 and room.status == "playing"
    await _flush()
    # A saw the join of B (v2) and the start (v3) as two patches
    assert [(p["base"], p["v"]) for p in a.of("patch")] == [(1, 2), (2, 3)]
    view = a.of("snapshot")[0]["state"]
    for p in a.of("patch"):
        view = apply_patch(view, p["ops"])
    assert view == room.build_view(0)
    # B joined last: its snapshot is at the start version
    assert b.of("snapshot")[0]["v"] == 3 and b.of("joined")[0]["seat"] == 1


async def test_a_refused_move_changes_nothing_and_an_accepted_one_is_stored_first(hub: Hub) -> None:
    room_id = await _room(hub)
    room = hub.rooms[room_id]
    a, b = Recorder(hub, "pa", "A"), Recorder(hub, "pb", "B")
    await room.submit("join", a.conn)
    await room.submit("join", b.conn)
    v = room.v
    with pytest.raises(RoomError) as err:
        await room.submit("move", b.conn, move={"a": "pass"})
    assert err.value.code == "not_your_turn" and room.v == v
    move = room.game.prompt(room.state, 0)["options"][0]  # type: ignore[arg-type,index]
    assert await room.submit("move", a.conn, re=9, move=move) == v + 1
    await _flush()
    loaded = await hub.store.load(room_id)
    assert loaded is not None and loaded.log[-1] == {"v": v + 1, "k": "move", "seat": 0, "move": move}
    # the mover's patch comes before its ok
    kinds = [f["t"] for f in a.frames]
    assert kinds.index("ok") > max(i for i, k in enumerate(kinds) if k == "patch" and a.frames[i]["v"] == v + 1)


async def test_restore_replays_the_log_into_the_same_state(hub: Hub) -> None:
    room_id = await _room(hub)
    room = hub.rooms[room_id]
    a, b = Recorder(hub, "pa", "A"), Recorder(hub, "pb", "B")
    await room.submit("join", a.conn)
    await room.submit("join", b.conn)
    for _ in range(10):
        seat = room.game.active_seats(room.state)[0]  # type: ignore[arg-type]
        move = room.game.prompt(room.state, seat)["options"][0]  # type: ignore[arg-type,index]
        await room.submit("move", (a, b)[seat].conn, move=move)
    loaded = await hub.store.load(room_id)
    assert loaded is not None
    meta, state, _ = restore(loaded.meta, loaded.snap_v, loaded.snapshot, loaded.log)
    assert state == room.state and meta["v"] == room.v


async def test_a_disconnected_seat_shows_and_costs_a_version(hub: Hub) -> None:
    room_id = await _room(hub)
    room = hub.rooms[room_id]
    a, b = Recorder(hub, "pa", "A"), Recorder(hub, "pb", "B")
    await room.submit("join", a.conn)
    await room.submit("join", b.conn)
    v = room.v
    await room.submit("detach", b.conn)
    assert room.v == v + 1
    assert room.build_view(None)["seats"][1]["connected"] is False
    again = Recorder(hub, "pb", "B")
    assert await room.submit("join", again.conn) == 1
    assert room.v == v + 2 and room.build_view(None)["seats"][1]["connected"] is True


async def test_a_stopped_room_answers_unavailable_instead_of_leaving_requests_waiting(hub: Hub) -> None:
    room_id = await _room(hub)
    room = hub.rooms[room_id]
    a = Recorder(hub, "pa", "A")
    await room.stop()
    with pytest.raises(RoomError) as err:
        await room.submit("join", a.conn)
    assert err.value.code == "unavailable"


class Raw:
    """A connection that keeps the raw frame bytes it was given."""

    def __init__(self, hub: Hub, player: str | None, name: str) -> None:
        self.pushed: list[bytes] = []
        self.conn = Conn(self._send, self._close, hub.metrics, write_now=self._write_now)
        self.conn.player, self.conn.name = player, name
        self.conn.start()

    def _write_now(self, data: bytes) -> bool:
        self.pushed.append(data)
        return True

    async def _send(self, data: bytes) -> None:  # pragma: no cover - every frame is written at once
        self.pushed.append(data)

    async def _close(self, code: int, reason: str) -> None:
        pass

    def patches(self) -> list[bytes]:
        return [f for f in self.pushed if msgpack.unpackb(f)["t"] == "patch"]


async def test_a_mover_whose_socket_is_busy_gets_its_patch_then_its_ok_through_the_queue(hub: Hub) -> None:
    room_id = await _room(hub, seats=2)
    room = hub.rooms[room_id]
    sent: list[bytes] = []

    async def send(data: bytes) -> None:
        sent.append(data)

    async def close(code: int, reason: str) -> None:
        pass

    busy = Conn(send, close, hub.metrics, write_now=lambda data: False)  # the socket never takes a frame now
    busy.player, busy.name = "pb", "B"
    busy.start()
    other = Raw(hub, "po", "O")
    await room.submit("join", busy)
    await room.submit("join", other.conn)
    assert room.state is not None
    seat = room.seat_of("pb")
    for _ in range(20):  # the other seat moves until it is this one's turn
        if room.game.active_seats(room.state)[0] == seat:
            break
        prompt = room.prompt_for(room.state, 1 - seat)
        assert prompt is not None
        await room.submit("move", other.conn, move=prompt["options"][0])
    prompt = room.prompt_for(room.state, seat)
    assert prompt is not None
    v = await room.submit("move", busy, move=prompt["options"][0], re=7)
    for _ in range(50):  # the writer task drains the queue
        if any(msgpack.unpackb(f)["t"] == "ok" for f in sent):
            break
        await asyncio.sleep(0.01)
    tail = [msgpack.unpackb(f) for f in sent][-2:]
    assert [m["t"] for m in tail] == ["patch", "ok"] and tail[0]["v"] == v and tail[1]["re"] == 7
    await busy.finish()


async def test_spectators_share_one_encoded_frame_and_every_seat_gets_its_own_view(hub: Hub) -> None:
    room_id = await _room(hub, seats=3)
    room = hub.rooms[room_id]
    seats = [Raw(hub, f"p{i}", f"P{i}") for i in range(3)]
    watchers = [Raw(hub, None, f"W{i}") for i in range(3)]
    for r in seats:
        await room.submit("join", r.conn)
    for w in watchers:
        await room.submit("join", w.conn, spectate=True)
    assert room.state is not None
    views = {id(r): msgpack.unpackb(next(f for f in r.pushed if msgpack.unpackb(f)["t"] == "snapshot"))["state"]
             for r in [*seats, *watchers]}  # fmt: skip
    for _ in range(12):
        seat = room.game.active_seats(room.state)[0]
        prompt = room.prompt_for(room.state, seat)
        assert prompt is not None
        await room.submit("move", seats[seat].conn, move=prompt["options"][0])
    # the spectators' frames are the very same bytes objects, not equal copies
    frames = [w.patches() for w in watchers]
    assert len(frames[0]) == 12
    assert all(a is b for other in frames[1:] for a, b in zip(frames[0], other, strict=True))
    # and every connection's patches, applied to its snapshot, give its own current view
    for i, r in enumerate([*seats, *watchers]):
        view = views[id(r)]
        for f in r.patches():
            view = apply_patch(view, msgpack.unpackb(f)["ops"])
        assert view == room.build_view(i if i < 3 else None)
