"""`python -m loadtests.baseline`: the bench's raw baseline, a bare server that speaks the wire contract.

What a move must cost at least on this stack: the same socket library as the real server (websockets,
asyncio, no compression), msgpack frames, a per-viewer snapshot and then per-viewer RFC 6902 patches built
by hand (no diff), the mover's patch before its `ok`, and, with `--store redis://...`, one Redis write per
move (an `XADD` to the room's log and a `SET` of its snapshot) coalesced with every other move of the same
loop tick into one pipeline, the move acknowledged only once the pipeline has answered. No rules beyond
whose turn it is, no validation beyond what keeps the room consistent, no sessions, no lobby.

The game is trivial, whatever `create.game` says: a race on a track. The seat to move chooses a step of 1, 2
or 3 (`{"step": n}`); the first to reach `GOAL` wins. The view follows the contract's shape:
`{game, room, you, public, private, prompt, result}`; `public` holds the seats, the track, the turn and the
last move, `private` a per-seat secret (`mark`) and the seat's own count of steps.

Messages (what `loadtests/bench.py` sends, nothing else): `hello`, `create`, `join` (a seat; no spectators),
`move` (with `v`: `stale` when it is not the room's version), `sync`, `leave`, `ping`. Anything else is
`unknown_type`. `GET /healthz` answers 200.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import secrets
import signal
import sys
from collections.abc import Callable
from typing import Any

import msgpack
from websockets.asyncio.server import Server, ServerConnection, broadcast, serve
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request, Response

GAME = "race"
#: the track's length: a 4-seat game is about 4 x GOAL / 2 moves
GOAL = 100
STEPS = ({"step": 1}, {"step": 2}, {"step": 3})
MAX_FRAME = 64 * 1024

_packer = msgpack.Packer(use_bin_type=True)


def _pack(obj: Any) -> bytes:
    out: bytes = _packer.pack(obj)
    return out


def _error(code: str, message: str, re: Any = None) -> bytes:
    msg: dict[str, Any] = {"t": "error", "code": code, "message": message}
    if re is not None:
        msg["re"] = re
    return _pack(msg)


class Refused(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


class Conn:
    """One connection: its socket, its player and the rooms it sits in."""

    __slots__ = ("ws", "player", "rooms")

    def __init__(self, ws: ServerConnection) -> None:
        self.ws = ws
        self.player: str | None = None
        self.rooms: dict[str, int] = {}  # room -> seat

    def send(self, frame: bytes) -> None:
        """Queue a frame without waiting (`websockets.broadcast`: the transport buffers, a closed socket drops it)."""
        broadcast((self.ws,), frame)


class Room:
    __slots__ = ("id", "seats", "names", "conns", "v", "status", "track", "steps", "marks", "turn", "last", "moves")

    def __init__(self, room_id: str, seats: int) -> None:
        self.id = room_id
        self.seats = seats
        self.names: list[str | None] = [None] * seats
        self.conns: list[Conn | None] = [None] * seats
        self.v = 0
        self.status = "waiting"
        self.track = [0] * seats
        self.steps = [0] * seats
        self.marks = [secrets.randbelow(1000) for _ in range(seats)]
        self.turn = 0
        self.last: dict[str, int] | None = None
        self.moves = 0

    # ---- views ------------------------------------------------------------------------------

    def public(self) -> dict[str, Any]:
        return {
            "status": self.status,
            "seats": [{"name": n, "taken": n is not None} for n in self.names],
            "track": list(self.track),
            "turn": self.turn if self.status == "playing" else None,
            "moves": self.moves,
            "last": self.last,
            "goal": GOAL,
        }

    def private(self, seat: int) -> dict[str, Any] | None:
        if self.status == "waiting":
            return None
        return {"mark": self.marks[seat], "steps": self.steps[seat]}

    def prompt(self, seat: int) -> dict[str, Any] | None:
        if self.status != "playing" or seat != self.turn:
            return None
        return {"text": "Step forward", "options": list(STEPS)}

    def result(self) -> dict[str, Any] | None:
        if self.status != "finished":
            return None
        best = max(self.track)
        return {"scores": list(self.track), "winners": [i for i, p in enumerate(self.track) if p == best]}

    def view(self, seat: int) -> dict[str, Any]:
        return {
            "game": GAME,
            "room": self.id,
            "you": seat,
            "public": self.public(),
            "private": self.private(seat),
            "prompt": self.prompt(seat),
            "result": self.result(),
        }

    def snapshot(self, seat: int, re: Any = None) -> bytes:
        msg: dict[str, Any] = {"t": "snapshot", "room": self.id, "v": self.v, "state": self.view(seat)}
        if re is not None:
            msg["re"] = re
        return _pack(msg)

    def _patch(self, ops: list[dict[str, Any]]) -> bytes:
        return _pack({"t": "patch", "room": self.id, "base": self.v - 1, "v": self.v, "ops": ops})

    def _send_all(self, ops: list[dict[str, Any]], skip: Conn | None = None) -> None:
        """The same ops for every seated viewer (one frame, encoded once)."""
        broadcast([c.ws for c in self.conns if c is not None and c is not skip], self._patch(ops))

    # ---- changes ----------------------------------------------------------------------------

    def seat_change(self, seat: int, joiner: Conn | None) -> None:
        """A seat taken (`joiner`) or freed before the start: one version, a patch to the others."""
        self.v += 1
        taken = self.names[seat] is not None
        ops = [{"op": "replace", "path": f"/public/seats/{seat}", "value": {"name": self.names[seat], "taken": taken}}]
        self._send_all(ops, skip=joiner)
        if joiner is not None:
            joiner.send(self.snapshot(seat))

    def start(self) -> None:
        self.v += 1
        self.status = "playing"
        for seat, c in enumerate(self.conns):
            if c is None:
                continue
            ops: list[dict[str, Any]] = [
                {"op": "replace", "path": "/public/status", "value": "playing"},
                {"op": "replace", "path": "/public/turn", "value": 0},
                {"op": "replace", "path": "/private", "value": self.private(seat)},
            ]
            if seat == 0:
                ops.append({"op": "replace", "path": "/prompt", "value": self.prompt(0)})
            c.send(self._patch(ops))

    def apply(self, seat: int, step: int) -> Callable[[Conn, Any], None]:
        """Apply a move (already checked) and return what sends its patches and `ok` once it is stored."""
        mover = seat
        self.v += 1
        self.moves += 1
        self.track[seat] += step
        self.steps[seat] += 1
        self.last = {"seat": seat, "step": step}
        public_ops: list[dict[str, Any]] = [
            {"op": "replace", "path": f"/public/track/{seat}", "value": self.track[seat]},
            {"op": "replace", "path": "/public/moves", "value": self.moves},
            {"op": "replace", "path": "/public/last", "value": self.last},
        ]
        if self.track[seat] >= GOAL:
            self.status = "finished"
            public_ops.append({"op": "replace", "path": "/public/status", "value": "finished"})
            public_ops.append({"op": "replace", "path": "/public/turn", "value": None})
            public_ops.append({"op": "replace", "path": "/result", "value": self.result()})
            nxt = None
        else:
            self.turn = nxt = (seat + 1) % self.seats
            public_ops.append({"op": "replace", "path": "/public/turn", "value": nxt})
        v = self.v
        own = [
            *public_ops,
            {"op": "replace", "path": "/private/steps", "value": self.steps[seat]},
            {"op": "replace", "path": "/prompt", "value": None},
        ]
        next_ops = (
            [*public_ops, {"op": "replace", "path": "/prompt", "value": self.prompt(nxt)}] if nxt is not None else None
        )
        conns = list(self.conns)
        room_id = self.id

        def deliver(conn: Conn, re: Any) -> None:
            others = []  # viewers whose view changed only in its public part: one frame for all of them
            for s, c in enumerate(conns):
                if c is None:
                    continue
                if s == mover:
                    c.send(_pack({"t": "patch", "room": room_id, "base": v - 1, "v": v, "ops": own}))
                elif s == nxt and next_ops is not None:
                    c.send(_pack({"t": "patch", "room": room_id, "base": v - 1, "v": v, "ops": next_ops}))
                else:
                    others.append(c.ws)
            if others:
                broadcast(others, _pack({"t": "patch", "room": room_id, "base": v - 1, "v": v, "ops": public_ops}))
            ok: dict[str, Any] = {"t": "ok", "v": v}
            if re is not None:
                ok["re"] = re
            conn.send(_pack(ok))

        return deliver

    def record(self) -> bytes:
        """What the store keeps of the room (its whole state: small)."""
        return _pack(
            {
                "v": self.v,
                "seats": self.seats,
                "names": self.names,
                "status": self.status,
                "track": self.track,
                "steps": self.steps,
                "marks": self.marks,
                "turn": self.turn,
                "moves": self.moves,
            }
        )


class RedisWriter:
    """Group commit: every move of one loop tick goes to Redis in one pipeline (XADD + SET per move)."""

    def __init__(self, url: str, prefix: str) -> None:
        import redis.asyncio as aredis

        self.redis = aredis.Redis.from_url(url)
        self.prefix = prefix
        self.batch: list[tuple[str, bytes, bytes, Callable[[], None]]] = []
        self._task: asyncio.Task[None] | None = None
        self.writes = 0  # moves written
        self.flushes = 0  # pipelines sent

    def write(self, room: str, entry: bytes, record: bytes, then: Callable[[], None]) -> None:
        self.batch.append((room, entry, record, then))
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._flush())

    async def _flush(self) -> None:
        try:
            while self.batch:
                await asyncio.sleep(0)  # let the rest of this tick's moves join the batch
                batch, self.batch = self.batch, []
                pipe = self.redis.pipeline(transaction=False)
                for room, entry, record, _ in batch:
                    pipe.xadd(f"{self.prefix}log:{room}", {"m": entry})
                    pipe.set(f"{self.prefix}room:{room}", record)
                await pipe.execute()
                self.writes += len(batch)
                self.flushes += 1
                for *_, then in batch:
                    then()
        finally:
            self._task = None
            if self.batch:  # a batch that arrived as the task ended
                self._task = asyncio.get_running_loop().create_task(self._flush())

    async def close(self) -> None:
        if self._task is not None:
            with contextlib.suppress(Exception):
                await self._task
        await self.redis.aclose()


class Baseline:
    def __init__(self, store: str = "memory", prefix: str = "mpbase:") -> None:
        self.rooms: dict[str, Room] = {}
        self.writer = RedisWriter(store, prefix) if store.startswith("redis") else None
        self._room_ids = itertools.count(1)
        self._players = itertools.count(1)
        self.port = 0
        self.server: Server | None = None

    async def handler(self, ws: ServerConnection) -> None:
        conn = Conn(ws)
        try:
            async for frame in ws:
                if isinstance(frame, str):
                    conn.send(_error("bad_message", "frames are binary"))
                    continue
                if len(frame) > MAX_FRAME:
                    conn.send(_error("too_large", "frame over 64 KiB"))
                    continue
                try:
                    msg = msgpack.unpackb(frame, raw=False, strict_map_key=True)
                except Exception:
                    conn.send(_error("bad_message", "not msgpack"))
                    continue
                if type(msg) is not dict:
                    conn.send(_error("bad_message", "not a map"))
                    continue
                re = msg.get("id")
                try:
                    self.dispatch(conn, msg, re)
                except Refused as err:
                    conn.send(_error(err.code, str(err), re))
                except (KeyError, TypeError, ValueError) as err:
                    conn.send(_error("bad_message", f"malformed: {err}", re))
        except ConnectionClosed:
            pass
        finally:
            self.gone(conn)

    def gone(self, conn: Conn) -> None:
        for room_id, seat in list(conn.rooms.items()):
            room = self.rooms.get(room_id)
            if room is None:
                continue
            if room.conns[seat] is conn:
                room.conns[seat] = None
            if room.status == "waiting" and room.names[seat] is not None:
                room.names[seat] = None
                room.seat_change(seat, None)
            self._maybe_drop(room)
        conn.rooms.clear()

    def _maybe_drop(self, room: Room) -> None:
        if all(c is None for c in room.conns) and room.status != "waiting":
            self.rooms.pop(room.id, None)

    def dispatch(self, conn: Conn, msg: dict[str, Any], re: Any) -> None:
        t = msg["t"]
        if t == "ping":
            conn.send(_pack({"t": "pong", "re": re} if re is not None else {"t": "pong"}))
            return
        if t == "hello":
            name = msg["name"]
            if not isinstance(name, str) or not 1 <= len(name) <= 32:
                raise Refused("bad_message", "name: 1..32 characters")
            conn.player = f"p{next(self._players)}"
            conn.send(
                _pack({"t": "welcome", "re": re, "player": conn.player, "token": secrets.token_hex(8), "rooms": []})
            )
            return
        if conn.player is None:
            raise Refused("forbidden", "hello first")
        if t == "move":
            self.move(conn, msg, re)
        elif t == "create":
            seats = msg["seats"]
            if type(seats) is not int or not 1 <= seats <= 8:
                raise Refused("bad_message", "seats: 1..8")
            room_id = f"b{next(self._room_ids)}"
            self.rooms[room_id] = Room(room_id, seats)
            conn.send(_pack({"t": "created", "re": re, "room": room_id}))
        elif t == "join":
            room = self._room(msg)
            if room.id in conn.rooms:
                seat = conn.rooms[room.id]
                room.conns[seat] = conn
                conn.send(_pack({"t": "joined", "re": re, "room": room.id, "seat": seat}))
                conn.send(room.snapshot(seat))
                return
            if None not in room.names:
                raise Refused("room_full", "no free seat")
            seat = room.names.index(None)
            room.names[seat] = conn.player
            room.conns[seat] = conn
            conn.rooms[room.id] = seat
            conn.send(_pack({"t": "joined", "re": re, "room": room.id, "seat": seat}))
            room.seat_change(seat, conn)
            if None not in room.names:
                room.start()
        elif t == "sync":
            room = self._room(msg)
            if room.id not in conn.rooms:
                raise Refused("forbidden", "not in this room")
            conn.send(room.snapshot(conn.rooms[room.id], re))
        elif t == "leave":
            room = self._room(msg)
            left = conn.rooms.pop(room.id, -1)
            if left >= 0:
                seat = left
                room.conns[seat] = None
                if room.status == "waiting":
                    room.names[seat] = None
                    room.seat_change(seat, None)
            conn.send(_pack({"t": "left", "re": re, "room": room.id}))
            self._maybe_drop(room)
        else:
            raise Refused("unknown_type", f"unknown message type {t!r}")

    def _room(self, msg: dict[str, Any]) -> Room:
        room = self.rooms.get(msg["room"])
        if room is None:
            raise Refused("not_found", "no such room")
        return room

    def move(self, conn: Conn, msg: dict[str, Any], re: Any) -> None:
        room = self._room(msg)
        seat = conn.rooms.get(room.id)
        if seat is None:
            raise Refused("forbidden", "not in this room")
        v = msg.get("v")
        if v is not None and v != room.v:
            raise Refused("stale", f"the room is at version {room.v}")
        if room.status != "playing":
            raise Refused("illegal_move", "the game is not running")
        if seat != room.turn:
            raise Refused("not_your_turn", "not your turn")
        move = msg["move"]
        step = move.get("step") if type(move) is dict else None
        if type(step) is not int or not 1 <= step <= 3 or len(move) != 1:
            raise Refused("illegal_move", "choose a step of 1, 2 or 3")
        deliver = room.apply(seat, step)
        if self.writer is None:
            deliver(conn, re)
        else:
            self.writer.write(room.id, _pack([room.v, seat, move]), room.record(), lambda: deliver(conn, re))

    async def _http(self, connection: ServerConnection, request: Request) -> Response | None:
        if request.path == "/healthz":
            return connection.respond(200, "ok\n")
        if request.path != "/ws":
            return connection.respond(404, "not found\n")
        return None

    async def start(self, host: str = "127.0.0.1", port: int = 0) -> None:
        self.server = await serve(
            self.handler, host, port, process_request=self._http, compression=None, max_size=4 * MAX_FRAME
        )
        self.port = next(iter(self.server.sockets)).getsockname()[1]

    async def stop(self) -> None:
        if self.server is not None:
            self.server.close()
            await self.server.wait_closed()
        if self.writer is not None:
            await self.writer.close()


async def amain(a: argparse.Namespace) -> None:
    loop = asyncio.get_running_loop()
    stop: asyncio.Future[None] = loop.create_future()

    def stopping() -> None:
        if not stop.done():
            stop.set_result(None)

    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stopping)
    baseline = Baseline(a.store, a.prefix)
    await baseline.start(a.host, a.port)
    try:
        await stop
    finally:
        await baseline.stop()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m loadtests.baseline", description=__doc__.split("\n\n")[0])
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, default=8799)
    ap.add_argument("--store", default="memory", help="memory (default) or redis://host:port/db")
    ap.add_argument("--prefix", default="mpbase:", help="Redis key prefix (default mpbase:)")
    asyncio.run(amain(ap.parse_args(argv)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
