"""Locust load test: Expedition players over the real wire contract (msgpack over WebSocket).

Run against a running server (for instance `python -m server --rate 1000 --burst 2000`):

    locust -f loadtests/locustfile.py --host ws://127.0.0.1:8765/ws
    locust -f loadtests/locustfile.py --host ws://127.0.0.1:8765/ws --headless -u 30 -r 10 -t 60s

Each simulated user says hello, takes the first free seat in the lobby's waiting Expedition rooms (or creates a
3-seat room and waits for others to fill it), plays random legal moves from its prompt until the game ends,
leaves, and starts over. Every request is reported to locust as a `ws` event named after the message type
(`hello`, `list_rooms`, `create`, `join`, `move`, `sync`, `leave`): the time until the answer carrying its
`re`, and the bytes of every frame received meanwhile (for a move: the mover's own patch, then `ok`).

Importing this file starts nothing (no connection, no thread): users start when locust spawns them.
"""

from __future__ import annotations

import itertools
import random
import time
from typing import Any

import msgpack
from locust import User, constant, task
from locust.env import Environment
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from protocol.patch import apply_patch

GAME = "expedition"
SEATS = 3
#: how long a user waits for a frame before it gives a room up (waiting for players, or a stuck game)
IDLE_TIMEOUT = 60.0
#: errors a prompt gone stale may bring: wait for the next patch
STALE = ("not_your_turn", "illegal_move", "stale")


class WsError(Exception):
    """The server answered with an `error` message."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code


def pick_room(rooms: list[dict[str, Any]], game: str = GAME) -> str | None:
    """The first waiting room of `game` with a free seat, from a `rooms` / `lobby` list."""
    for r in rooms:
        if r.get("game") == game and r.get("status") == "waiting" and None in (r.get("players") or []):
            return str(r["room"])
    return None


class WsClient:
    """A blocking client of the wire contract that reports each request to locust and keeps views current."""

    def __init__(self, url: str, environment: Environment, timeout: float = 10.0) -> None:
        self.environment = environment
        self.timeout = timeout
        self._ids = itertools.count(1)
        self.views: dict[str, dict[str, Any]] = {}  # room -> {"v": version, "state": view}
        start = time.perf_counter()
        try:
            self.ws: ClientConnection = connect(url, compression=None, max_size=2**22, open_timeout=timeout, proxy=None)
        except Exception as exc:
            self._fire("connect", start, 0, exc)
            raise
        self._fire("connect", start, 0, None)

    def close(self) -> None:
        self.ws.close()

    def _fire(self, name: str, start: float, length: int, exc: BaseException | None) -> None:
        self.environment.events.request.fire(
            request_type="ws",
            name=name,
            response_time=(time.perf_counter() - start) * 1000.0,
            response_length=length,
            exception=exc,
            context={},
        )

    def recv(self, timeout: float) -> tuple[dict[str, Any], int]:
        """One message (applied to the views if it is a snapshot or a patch) and its frame size."""
        frame = self.ws.recv(timeout=timeout)
        if isinstance(frame, str):
            raise WsError("bad_message", "a text frame from the server")
        msg = msgpack.unpackb(frame, raw=False)
        self._absorb(msg)
        return msg, len(frame)

    def _absorb(self, msg: dict[str, Any]) -> None:
        t = msg.get("t")
        if t == "snapshot":
            self.views[msg["room"]] = {"v": msg["v"], "state": msg["state"]}
        elif t == "patch":
            view = self.views.get(msg["room"])
            if view is None:
                return
            if view["v"] != msg["base"]:  # a gap: ask for a fresh snapshot
                self.ws.send(msgpack.packb({"t": "sync", "room": msg["room"]}, use_bin_type=True))
                return
            view["state"] = apply_patch(view["state"], msg["ops"], in_place=True)
            view["v"] = msg["v"]

    def request(self, t: str, **fields: Any) -> dict[str, Any]:
        """Send `{t, id, **fields}`, read until the answer with that `re`, report it; raises WsError."""
        rid = next(self._ids)
        start = time.perf_counter()
        length = 0
        exc: BaseException | None = None
        answer: dict[str, Any] = {}
        try:
            self.ws.send(msgpack.packb({"t": t, "id": rid, **fields}, use_bin_type=True))
            deadline = start + self.timeout
            while True:
                msg, size = self.recv(max(0.0, deadline - time.perf_counter()))
                length += size
                if msg.get("re") == rid:
                    answer = msg
                    break
            if answer.get("t") == "error":
                exc = WsError(str(answer.get("code")), str(answer.get("message")))
        except Exception as err:  # timeouts and closed sockets are failures too
            exc = err
        self._fire(t, start, length, exc)
        if exc is not None:
            raise exc
        return answer


class ExpeditionPlayer(User):
    """One player: hello, find or create a room, play it to the end with random legal moves, start over."""

    wait_time = constant(0)
    host = "ws://127.0.0.1:8765/ws"  # `make serve`; --host overrides it

    def __init__(self, environment: Environment) -> None:
        super().__init__(environment)
        self.client: WsClient | None = None
        self.rng = random.Random()

    def on_start(self) -> None:
        self._connect()

    def on_stop(self) -> None:
        if self.client is not None:
            self.client.close()
            self.client = None

    def _connect(self) -> None:
        self.client = WsClient(self.host, self.environment)
        self.client.request("hello", name=f"locust-{self.rng.randrange(10**6)}")

    @task
    def play_a_game(self) -> None:
        if self.client is None:
            self._connect()
        assert self.client is not None
        try:
            room = self._seat()
            try:
                self._play(room)
            finally:
                self.client.views.pop(room, None)
                self.client.request("leave", room=room)
        except (ConnectionClosed, OSError):
            self.on_stop()  # the next task reconnects
        except (WsError, TimeoutError):
            pass  # already reported; start over

    def _seat(self) -> str:
        """Join the first free seat in a waiting room, else create a room and join it."""
        assert self.client is not None
        rooms = self.client.request("list_rooms", game=GAME)["rooms"]
        room = pick_room(rooms)
        if room is not None:
            try:
                self.client.request("join", room=room)
                return room
            except WsError as err:
                if err.code not in ("room_full", "seat_taken", "not_found"):
                    raise  # somebody else took the seat first: create one instead
        room = str(self.client.request("create", game=GAME, seats=SEATS)["room"])
        self.client.request("join", room=room)
        return room

    def _play(self, room: str) -> None:
        assert self.client is not None
        client = self.client
        while True:
            view = client.views.get(room)
            state = view["state"] if view else {}
            if state.get("result") is not None:
                return
            prompt = state.get("prompt")
            if view is not None and prompt and prompt.get("options"):
                v0 = view["v"]
                try:
                    client.request("move", room=room, move=self.rng.choice(prompt["options"]))
                    continue
                except WsError as err:
                    if err.code not in STALE:
                        raise
                    if client.views.get(room, {}).get("v") != v0:
                        continue  # the view moved on while the move was out: look again
            client.recv(IDLE_TIMEOUT)  # wait for the next frame (a patch, normally)
