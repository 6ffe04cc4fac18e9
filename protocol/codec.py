"""Bytes <-> messages: the msgpack codec of the wire contract, with its limits.

Owns: `encode` (a message model or a plain map to one binary frame) and the `decode_*`
functions (one frame to a validated message), which enforce the frame size limit, the
nesting depth limit and the JSON-like value domain before any model sees the data.
Must not: do I/O, log, or let any exception but `ProtocolError` out of a `decode_*` call:
a frame is untrusted input, and whatever is wrong with it is the peer's fault.

Value domain: a frame is one msgpack map; maps have string keys; values are maps, arrays,
strings, integers, booleans or nil. Floats, binary, extension types and timestamps are
`bad_message` (views are JSON documents without floats, and so are moves and options).
Depth counts containers: the frame's own map is depth 1.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any, cast

import msgpack
from pydantic import BaseModel, ValidationError

from .errors import ProtocolError
from .messages import CLIENT_TYPES, MAX_DEPTH, MAX_FRAME, SERVER_TYPES, ClientMessage, ServerMessage

SERVER_MAX_FRAME = 16 * 1024 * 1024
"""Default size limit for frames a client accepts from the server (snapshots can be big)."""
SERVER_MAX_DEPTH = 64
"""Default depth limit for frames a client accepts from the server."""

_SCALARS = (str, int, bool, type(None))
_MESSAGE_MAX = 200


def encode(msg: BaseModel | Mapping[str, Any]) -> bytes:
    """One binary frame for a message; optional fields that are None are left out.

    A model's fields with a None default are optional on the wire and dropped when None
    (`re`, `id`, `token`, ...); required fields such as `joined.seat` are always sent.
    A plain map is packed as given, except that a None `re` or `id` is dropped.
    Raises TypeError or ValueError if the value cannot be packed (a bug of the sender).
    """
    if isinstance(msg, BaseModel):
        dumped = msg.model_dump()
        for name in _optional_fields(type(msg)):
            if dumped.get(name, 0) is None:
                del dumped[name]
        data = {"t": dumped.pop("t"), **dumped} if "t" in dumped else dumped
    else:
        data = {k: v for k, v in msg.items() if not (v is None and k in ("re", "id"))}
    return cast(bytes, msgpack.packb(data, use_bin_type=True))


_PATCH_HEAD = msgpack.packb("t") + msgpack.packb("patch") + msgpack.packb("room")


def encode_ops(ops: list[dict[str, Any]]) -> tuple[int, bytes]:
    """Patch operations packed once, to be spliced into many `patch` frames by `patch_frame`."""
    return len(ops), _items(msgpack.packb(ops, use_bin_type=True), len(ops))


def _items(packed: bytes, n: int) -> bytes:
    """The items of a packed array of `n` items, without its header (one pack of the whole list is cheaper than
    one per item)."""
    return packed[1 if n < 16 else 3 if n < 0x10000 else 5 :]


def _array_header(n: int) -> bytes:
    """msgpack's header of an array of `n` items."""
    if n < 16:
        return bytes((0x90 | n,))
    return b"\xdc" + n.to_bytes(2, "big") if n < 0x10000 else b"\xdd" + n.to_bytes(4, "big")


def patch_frame(room: str, base: int, v: int, shared: tuple[int, bytes], ops: list[dict[str, Any]]) -> bytes:
    """The frame of `{t: patch, room, base, v, ops}` whose ops are the pre-packed `shared` ones followed by
    `ops`: the same bytes `encode` gives for that map, without packing the shared part again."""
    n, packed = shared
    head = msgpack.packb((room, "base", base, "v", v, "ops"), use_bin_type=True)
    return b"".join(
        (
            b"\x85",  # a map of 5
            _PATCH_HEAD,
            head[1:],  # (an array of 6: a one-byte header)
            _array_header(n + len(ops)),
            packed,
            _items(msgpack.packb(ops, use_bin_type=True), len(ops)) if ops else b"",
        )
    )


def decode_client(
    data: bytes | bytearray | memoryview, *, max_size: int = MAX_FRAME, max_depth: int = MAX_DEPTH
) -> ClientMessage:
    """Validate one frame from a client; raises ProtocolError (with `re` when readable)."""
    return cast(ClientMessage, _decode(data, CLIENT_TYPES, max_size, max_depth))


def decode_server(
    data: bytes | bytearray | memoryview,
    *,
    max_size: int = SERVER_MAX_FRAME,
    max_depth: int = SERVER_MAX_DEPTH,
) -> ServerMessage:
    """Validate one frame from the server (for clients); raises ProtocolError."""
    return cast(ServerMessage, _decode(data, SERVER_TYPES, max_size, max_depth))


def decode_any(
    data: bytes | bytearray | memoryview, *, max_size: int = MAX_FRAME, max_depth: int = MAX_DEPTH
) -> dict[str, Any]:
    """One frame as a plain map, with the size, depth and value checks but no model."""
    obj = _unpack(data, max_size)
    _check_tree(obj, max_depth, _request_id(obj))
    return obj


def peek_id(data: bytes | bytearray | memoryview) -> int | None:
    """The integer `id` of a frame, read without building the rest (for answers to refused frames).

    Walks the top-level map's keys and skips every value but `id`'s, so the cost is bounded by the
    frame's size; like a full decode, the last `id` of a map that repeats the key wins. None when the
    frame is not a map, breaks off, or holds no integer `id`. Never raises.
    """
    try:
        unpacker = msgpack.Unpacker(
            raw=False, max_buffer_size=max(len(data), 1), strict_map_key=False, max_str_len=len(data)
        )
        unpacker.feed(data)
        size = unpacker.read_map_header()
        if size > len(data):
            return None
        rid: object = None
        for _ in range(size):
            key = unpacker.unpack()
            if key == "id":
                rid = unpacker.unpack()
            else:
                unpacker.skip()
    except Exception:  # untrusted bytes: whatever is wrong, there is no id to read
        return None
    return rid if type(rid) is int else None


def _decode(
    data: bytes | bytearray | memoryview, types: Mapping[str, type[BaseModel]], max_size: int, max_depth: int
) -> BaseModel:
    obj = _unpack(data, max_size)
    re = _request_id(obj)
    _check_tree(obj, max_depth, re)
    t = obj.get("t")
    if not isinstance(t, str):
        raise ProtocolError("bad_message", "a frame needs a string field 't'", re)
    model = types.get(t)
    if model is None:
        raise ProtocolError("unknown_type", f"unknown message type {_clip(repr(t), 40)}", re)
    try:
        return model.model_validate(obj)
    except ValidationError as exc:
        raise ProtocolError("bad_message", _describe(exc), re) from None


def _unpack(data: object, max_size: int) -> dict[str, Any]:
    if not isinstance(data, bytes | bytearray | memoryview):
        raise ProtocolError("bad_message", "a frame is binary msgpack")
    if len(data) > max_size:
        raise ProtocolError("too_large", f"a frame may hold at most {max_size} bytes")
    try:
        obj = msgpack.unpackb(
            data,
            raw=False,
            strict_map_key=True,
            use_list=True,
            max_str_len=max_size,
            max_bin_len=max_size,
            max_array_len=max_size,
            max_map_len=max_size,
            max_ext_len=max_size,
        )
    except Exception:  # any failure to unpack untrusted bytes is the peer's fault
        raise ProtocolError("bad_message", "the frame is not one msgpack value") from None
    if not isinstance(obj, dict):
        raise ProtocolError("bad_message", "a frame is a msgpack map")
    return obj


def _request_id(obj: dict[str, Any]) -> int | None:
    """The frame's integer `id` (never a bool), to be echoed as `re`."""
    rid = obj.get("id")
    return rid if type(rid) is int else None


def _check_tree(root: dict[str, Any], max_depth: int, re: int | None) -> None:
    """Walk the decoded frame without recursion: depth and JSON-like values only."""
    stack: list[tuple[Any, int]] = [(root, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > max_depth:
            raise ProtocolError("bad_message", f"nesting deeper than {max_depth}", re)
        if isinstance(node, dict):
            for key in node:
                if type(key) is not str:
                    raise ProtocolError("bad_message", "map keys must be strings", re)
            values: Any = node.values()
        else:
            values = node
        for value in values:
            kind = type(value)
            if kind is dict or kind is list:
                stack.append((value, depth + 1))
            elif kind not in _SCALARS:
                raise ProtocolError(
                    "bad_message", f"{kind.__name__} values are not allowed (JSON-like values only)", re
                )


def _describe(exc: ValidationError) -> str:
    """A short, safe summary of the first validation error."""
    errors = exc.errors(include_url=False, include_input=False, include_context=False)
    first = errors[0]
    where = ".".join(str(part) for part in first["loc"])
    kind = first["type"]
    if kind == "extra_forbidden":
        text = f"unknown field {where!r}"
    elif kind == "missing":
        text = f"missing field {where!r}"
    else:
        msg = first["msg"].removeprefix("Value error, ")
        text = f"{where}: {msg}" if where else msg
    if len(errors) > 1:
        text += f" (and {len(errors) - 1} more)"
    return _clip(text, _MESSAGE_MAX)


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


@cache
def _optional_fields(model: type[BaseModel]) -> tuple[str, ...]:
    return tuple(
        name for name, field in model.model_fields.items() if not field.is_required() and field.default is None
    )
