"""Hostile frames over a real socket: a clean answer (or a documented close), never a fault, never a changed room.

A server runs in a thread of this process (so its log and its rooms can be checked); the fuzzing client is a
spectator of a started game and sends each frame on a plain socket, followed by a marker `ping`. Everything
the server says between the frame and the marker's `pong` is the frame's answer: exactly one message with
`re` equal to the frame's integer `id`, or, when the frame could not be read as a map, exactly one `error`
without `re`. No answer is an `internal` error, no record of the server's log is an error, and the game's
version and state stay exactly as they were.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import os
import threading
from collections.abc import Coroutine, Iterator
from typing import Any

import msgpack
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from protocol import decode_server
from server.games.base import pack
from server.net.app import App
from tests.net.conftest import start_app
from tests.net.rawws import RawWS

from .frames import expected_re, frames
from .frames import pack as pack_msg

#: the close codes a hostile frame may earn (docs/protocol.md): text 1003, oversized 1009, policy 1008
CLOSE_CODES = {1003, 1008, 1009}
_markers = itertools.count(2**62)
EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "400"))


class ServerThread:
    """An App on its own event loop in a daemon thread."""

    def __init__(self, **settings: Any) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.app: App = self.call(start_app(**settings))

    def call(self, coro: Coroutine[Any, Any, Any]) -> Any:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(20)

    def stop(self) -> None:
        self.call(self.app.stop())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)
        self.loop.close()


class Errors(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


def _answer(raw: RawWS, rid: int) -> dict[str, Any]:
    while True:
        msg = raw.recv()
        if msg.get("re") == rid:
            return msg


class Fixture:
    def __init__(self) -> None:
        # the fuzzer never answers pings: keepalive is tested elsewhere (tests/net/test_limits.py)
        self.srv = ServerThread(
            rate=100_000.0, burst=100_000, creates_per_minute=0, waiting_rooms_per_player=0, ping_interval=0
        )
        port = self.srv.app.port
        self.port = port
        self.players = [RawWS(port, rcvbuf=None) for _ in range(2)]
        for i, p in enumerate(self.players):
            p.send({"t": "hello", "id": 1, "name": f"player{i}"})
            _answer(p, 1)
        self.players[0].send({"t": "create", "id": 2, "game": "expedition", "seats": 2, "options": {"seed": 9}})
        self.room = str(_answer(self.players[0], 2)["room"])
        for p in self.players:
            p.send({"t": "join", "id": 3, "room": self.room})
            _answer(p, 3)
        self.fuzzer = self.spectator()

    def spectator(self) -> RawWS:
        raw = RawWS(self.port, rcvbuf=None)
        raw.sock.settimeout(30)  # a loaded machine may take a while; a lost answer still fails
        raw.send({"t": "hello", "id": 1, "name": "fuzzer"})
        _answer(raw, 1)
        raw.send({"t": "join", "id": 2, "room": self.room, "spectate": True})
        _answer(raw, 2)
        return raw

    def room_state(self) -> tuple[int, bytes]:
        room = self.srv.app.hub.rooms[self.room]
        assert room.state is not None
        return room.v, pack(room.state)


@pytest.fixture(scope="module")
def fx() -> Iterator[Fixture]:
    errors = Errors()
    logging.getLogger("marcopolo").addHandler(errors)
    f = Fixture()
    f.errors = errors  # type: ignore[attr-defined]
    yield f
    for raw in (*f.players, f.fuzzer):
        raw.close()
    f.srv.stop()
    logging.getLogger("marcopolo").removeHandler(errors)


def _exchange(fx: Fixture, data: bytes, opcode: int = 2) -> list[dict[str, Any]] | int:
    """Send one frame and a marker ping; the messages before the marker's pong, or the close code."""
    marker = next(_markers)
    raw = fx.fuzzer
    try:
        raw.send_frame(data, opcode)
        raw.send({"t": "ping", "id": marker})
        got: list[dict[str, Any]] = []
        while True:
            op, payload = raw.recv_frame()
            if op == 8:
                return int.from_bytes(payload[:2], "big") if len(payload) >= 2 else 1005
            if op != 2:
                continue
            msg = msgpack.unpackb(payload, raw=False)
            decode_server(payload)  # every frame the server sends keeps the contract
            if msg.get("re") == marker:
                return got
            got.append(msg)
    except (ConnectionError, OSError):
        return 1006


def _direct(out: list[dict[str, Any]] | int) -> list[dict[str, Any]]:
    """The messages of an exchange that are not pushes (a fuzzed `watch_lobby` may have made us a watcher)."""
    assert isinstance(out, list), f"closed with {out}"
    return [m for m in out if m["t"] not in ("lobby", "patch", "snapshot")]


def _check(fx: Fixture, data: bytes, before: tuple[int, bytes]) -> None:
    out = _exchange(fx, data)
    if isinstance(out, int):
        assert out in CLOSE_CODES, f"closed with {out}"
        fx.fuzzer.close()
        fx.fuzzer = fx.spectator()
    else:
        decodable, rid = expected_re(data)
        answers = [m for m in out if "re" in m]
        if rid is not None:  # exactly one answer carries the id
            assert [m.get("re") for m in answers] == [rid], out
        elif not decodable:  # the only frames answered without `re`: exactly one error
            errors = [m for m in out if m["t"] == "error" and "re" not in m]
            assert len(errors) == 1 and not answers, out
        else:  # a request without an id: answered (or not) without `re`
            assert not answers, out
        assert not any(m.get("code") == "internal" for m in out), out
    assert fx.room_state() == before, "a hostile frame changed the game"
    assert not fx.errors.records, [r.getMessage() for r in fx.errors.records]  # type: ignore[attr-defined]


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_hostile_frames_get_a_clean_answer_and_change_no_room(fx: Fixture, data: st.DataObject) -> None:
    before = fx.room_state()
    frame = data.draw(frames(fx.room))
    _check(fx, frame, before)


def test_a_frame_over_the_size_limit_is_answered_too_large_with_its_id(fx: Fixture) -> None:
    before = fx.room_state()
    big = pack_msg({"id": 77, "t": "ping", "pad": "x" * (70 * 1024)})
    out = _exchange(fx, big)
    assert [(m["t"], m.get("code"), m.get("re")) for m in _direct(out)] == [("error", "too_large", 77)]
    assert fx.room_state() == before


def test_a_frame_over_the_hard_limit_closes_with_1009(fx: Fixture) -> None:
    out = _exchange(fx, b"\x00" * (300 * 1024))
    assert out == 1009
    fx.fuzzer.close()
    fx.fuzzer = fx.spectator()


def test_a_text_frame_is_a_bad_message_without_re(fx: Fixture) -> None:
    out = _exchange(fx, b'{"t":"ping","id":5}', opcode=1)
    assert [(m["t"], m.get("code"), "re" in m) for m in _direct(out)] == [("error", "bad_message", False)]


def test_deep_nesting_is_refused_with_the_id(fx: Fixture) -> None:
    deep: Any = 1
    for _ in range(500):
        deep = [deep]
    out = _exchange(fx, pack_msg({"t": "move", "id": 9, "room": fx.room, "move": {"x": deep}}))
    assert [(m.get("code"), m.get("re")) for m in _direct(out)] == [("bad_message", 9)]
