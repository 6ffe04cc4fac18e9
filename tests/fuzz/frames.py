"""Hypothesis strategies for hostile frames: well-formed requests mutated, and bytes that are no frame at all.

Mutations: fields dropped, added or retyped, `t` replaced, huge and negative integers, floats, binary,
deep nesting, invalid UTF-8 inside a string, truncated msgpack, trailing garbage.
"""

from __future__ import annotations

from typing import Any

import msgpack
from hypothesis import strategies as st

INT = st.integers(-(2**63), 2**64 - 1)
SCALAR = st.none() | st.booleans() | INT | st.text(max_size=24)
JSON_LIKE = st.recursive(
    SCALAR,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=16,
)
#: values outside the contract's value domain
WEIRD = st.floats(allow_nan=True) | st.binary(max_size=12) | st.just(-(2**63)) | st.just(2**64 - 1)
VALUE = JSON_LIKE | WEIRD
_BAD_UTF8 = b"\xff\xfe\xc0\xaf"
_MARK = "\x00UTF8MARK\x00"


def templates(room: str) -> list[dict[str, Any]]:
    """One well-formed request of every client type (for the room under test)."""
    return [
        {"t": "hello", "name": "fuzzer"},
        {"t": "list_rooms", "game": "expedition", "offset": 0, "limit": 5},
        {"t": "watch_lobby"},
        {"t": "unwatch_lobby"},
        {"t": "create", "game": "expedition", "seats": 2, "options": {}, "public": True, "bots": 0},
        {"t": "join", "room": room, "spectate": True},
        {"t": "join", "room": room, "seat": 0},
        {"t": "move", "room": room, "move": {"kind": "pass"}},
        {"t": "sync", "room": room},
        {"t": "leave", "room": room},
        {"t": "ping"},
    ]


def _nest(value: Any, depth: int) -> Any:
    for _ in range(depth):
        value = [value]
    return value


@st.composite
def mutated(draw: st.DrawFn, room: str) -> dict[str, Any]:
    msg = dict(draw(st.sampled_from(templates(room))))
    if draw(st.booleans()):
        msg["id"] = draw(INT | VALUE) if draw(st.integers(0, 4)) == 0 else draw(st.integers(0, 2**40))
    for _ in range(draw(st.integers(0, 3))):
        op = draw(st.sampled_from(["drop", "add", "retype", "nest", "t", "utf8"]))
        keys = sorted(msg)
        if op == "drop" and keys:
            msg.pop(draw(st.sampled_from(keys)))
        elif op == "add":
            msg[draw(st.text(max_size=8))] = draw(VALUE)
        elif op == "retype" and keys:
            msg[draw(st.sampled_from(keys))] = draw(VALUE)
        elif op == "nest" and keys:
            key = draw(st.sampled_from(keys))
            msg[key] = _nest(msg[key], draw(st.integers(1, 120)))
        elif op == "t":
            msg["t"] = draw(st.text(max_size=12) | VALUE)
        elif op == "utf8" and keys:
            msg[draw(st.sampled_from(keys))] = _MARK
    return msg


def pack(msg: Any) -> bytes:
    data: bytes = msgpack.packb(msg, use_bin_type=True)
    mark = msgpack.packb(_MARK, use_bin_type=True)[1:]  # the string's bytes after its header
    return data.replace(mark, _BAD_UTF8 + b"x" * (len(mark) - len(_BAD_UTF8)))


@st.composite
def frames(draw: st.DrawFn, room: str) -> bytes:
    """One hostile frame's bytes."""
    kind = draw(st.integers(0, 9))
    if kind == 0:
        return draw(st.binary(max_size=64))
    if kind == 1:
        return pack(draw(VALUE))  # a value that is not a map
    data = pack(draw(mutated(room)))
    if kind == 2 and len(data) > 1:
        return data[: draw(st.integers(1, len(data) - 1))]  # truncated
    if kind == 3:
        return data + draw(st.binary(min_size=1, max_size=8))  # trailing garbage
    return data


def expected_re(data: bytes) -> tuple[bool, int | None]:
    """(decodable as a map, its integer id) as the contract defines the answer's `re`."""
    try:
        obj = msgpack.unpackb(data, raw=False, strict_map_key=False)
    except Exception:
        return False, None
    if not isinstance(obj, dict):
        return False, None
    rid = obj.get("id")
    return True, rid if type(rid) is int else None
