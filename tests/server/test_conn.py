"""The connection outbox on its own: bounds in frames and bytes, coalescing, and a close that always ends."""

from __future__ import annotations

import asyncio

import msgpack

from protocol.codec import peek_id
from server.metrics import Metrics
from server.net.conn import TOO_SLOW, Conn


class Peer:
    """A transport that can stall: `send` waits until `flowing` is set."""

    def __init__(self) -> None:
        self.sent: list[bytes] = []
        self.flowing = asyncio.Event()
        self.closes: list[tuple[int, str]] = []
        self.killed = False
        self.close_hangs = False

    async def send(self, data: bytes) -> None:
        await self.flowing.wait()
        self.sent.append(data)

    async def close(self, code: int, reason: str) -> None:
        self.closes.append((code, reason))
        if self.close_hangs:
            await asyncio.sleep(3600)

    def kill(self) -> None:
        self.killed = True


def _conn(peer: Peer, **kw: object) -> Conn:
    conn = Conn(peer.send, peer.close, Metrics(), kill=peer.kill, **kw)  # type: ignore[arg-type]
    conn.start()
    return conn


async def test_a_stalled_reader_past_the_byte_bound_is_closed_and_its_queue_freed() -> None:
    peer = Peer()
    conn = _conn(peer, queue_size=10_000, queue_bytes=10_000, close_timeout=0.2)
    for i in range(100):
        conn.push({"t": "patch", "pad": "x" * 500, "i": i})
        if conn.closed:
            break
    assert conn.closed and conn.close_code == TOO_SLOW
    assert conn.queued == (0, 0)
    assert i < 25  # about 10 000 bytes of 500-byte frames
    await asyncio.sleep(0.4)
    assert peer.killed, "a close that cannot complete ends with the transport aborted"
    await conn.finish()


async def test_a_stalled_reader_past_the_frame_bound_is_closed_too() -> None:
    peer = Peer()
    conn = _conn(peer, queue_size=5, close_timeout=0.1)
    for _ in range(7):
        conn.push({"t": "pong"})
    assert conn.closed and conn.queued == (0, 0)
    await conn.finish()


async def test_coalesced_frames_replace_the_unsent_one_of_the_same_key() -> None:
    peer = Peer()
    conn = _conn(peer)
    conn.push({"t": "pong", "re": 1})
    for n in range(50):
        conn.push_latest("lobby", msgpack.packb({"t": "lobby", "n": n}), "lobby")
    assert conn.queued[0] == 2
    peer.flowing.set()
    for _ in range(50):
        if len(peer.sent) == 2:
            break
        await asyncio.sleep(0.01)
    assert [msgpack.unpackb(d)["t"] for d in peer.sent] == ["pong", "lobby"]
    assert msgpack.unpackb(peer.sent[1])["n"] == 49
    conn.push_latest("lobby", msgpack.packb({"t": "lobby", "n": 50}), "lobby")  # sent: a new slot
    await asyncio.sleep(0.05)
    assert msgpack.unpackb(peer.sent[-1])["n"] == 50
    await conn.finish()


async def test_a_close_sends_what_is_queued_first_and_then_the_close() -> None:
    peer = Peer()
    conn = _conn(peer, close_timeout=1.0)
    conn.push({"t": "error", "code": "forbidden"})
    conn.abort(1008, "bye")
    peer.flowing.set()
    await asyncio.sleep(0.1)
    assert len(peer.sent) == 1 and peer.closes == [(1008, "bye")]
    await conn.finish()


async def test_a_close_handshake_that_hangs_is_cut_off_at_the_deadline() -> None:
    peer = Peer()
    peer.flowing.set()
    peer.close_hangs = True
    conn = _conn(peer, close_timeout=0.2)
    conn.abort(1011, "keepalive ping timeout")
    await asyncio.sleep(0.4)
    assert peer.closes and peer.killed
    await conn.finish()


def test_peek_id_reads_the_id_without_decoding_the_rest() -> None:
    assert peek_id(msgpack.packb({"t": "ping", "id": 5})) == 5
    assert peek_id(msgpack.packb({"id": 2**64 - 1, "x": [1.5, b"bin"]})) == 2**64 - 1
    assert peek_id(msgpack.packb({"id": 1, "t": "x", "id2": 3})) == 1
    assert peek_id(b"\x82\xa2id\x01\xa2id\x02") == 2  # a repeated key: the last wins, as in a full decode
    for bad in (b"", b"\xc1", msgpack.packb([1, 2]), msgpack.packb({"id": True}), msgpack.packb({"id": "7"})):
        assert peek_id(bad) is None
    assert peek_id(msgpack.packb({"t": "x", "id": 9})[:-1]) is None  # truncated
    assert peek_id(b"\xdf\xff\xff\xff\xff") is None  # a map that claims 4 G entries
