"""The codec: exact frames out, validated messages in, and only ProtocolError on bad input."""

from __future__ import annotations

from typing import Any

import msgpack
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import BaseModel

from protocol import (
    CLIENT_TYPES,
    MAX_FRAME,
    SERVER_TYPES,
    Error,
    Hello,
    Join,
    Joined,
    Move,
    Ok,
    ProtocolError,
    decode_any,
    decode_client,
    decode_server,
    encode,
)

from .samples import CLIENT_SAMPLES, SERVER_SAMPLES


def pack(obj: Any) -> bytes:
    return msgpack.packb(obj, use_bin_type=True)  # type: ignore[no-any-return]


def unpack(data: bytes) -> Any:
    return msgpack.unpackb(data, raw=False)


def client_error(frame: Any, **limits: int) -> ProtocolError:
    data = frame if isinstance(frame, bytes) else pack(frame)
    with pytest.raises(ProtocolError) as caught:
        decode_client(data, **limits)
    return caught.value


def nested(depth: int) -> dict[str, Any]:
    """A move message whose frame has exactly `depth` levels of containers."""
    inner: Any = {}
    for _ in range(depth - 2):
        inner = {"k": inner}
    return {"t": "move", "room": "r1", "move": inner}


# ---- round trips ---------------------------------------------------------------------------


def test_the_samples_cover_every_message_type() -> None:
    assert {type(msg) for msg in CLIENT_SAMPLES} == set(CLIENT_TYPES.values())
    assert {type(msg) for msg in SERVER_SAMPLES} == set(SERVER_TYPES.values())


@pytest.mark.parametrize("msg", CLIENT_SAMPLES, ids=repr)
def test_every_client_message_round_trips(msg: BaseModel) -> None:
    assert decode_client(encode(msg)) == msg


@pytest.mark.parametrize("msg", SERVER_SAMPLES, ids=repr)
def test_every_server_message_round_trips(msg: BaseModel) -> None:
    assert decode_server(encode(msg)) == msg


@pytest.mark.parametrize("msg", CLIENT_SAMPLES + SERVER_SAMPLES, ids=repr)
def test_a_frame_is_one_msgpack_map_that_starts_with_t(msg: BaseModel) -> None:
    frame = unpack(encode(msg))
    assert isinstance(frame, dict)
    assert next(iter(frame)) == "t"
    assert frame["t"] == msg.t  # type: ignore[attr-defined]


def test_encoding_gives_the_exact_bytes_of_the_contract() -> None:
    assert encode(Hello(id=1, name="ann")) == b"\x83\xa1t\xa5hello\xa2id\x01\xa4name\xa3ann"
    assert encode(Ok(re=7, v=3)) == b"\x83\xa1t\xa2ok\xa2re\x07\xa1v\x03"


def test_re_and_id_are_left_out_when_none() -> None:
    assert unpack(encode(Ok(v=3))) == {"t": "ok", "v": 3}
    assert unpack(encode(Hello(name="ann"))) == {"t": "hello", "name": "ann"}


def test_optional_fields_are_left_out_when_none() -> None:
    assert unpack(encode(Hello(id=4, name="ann", token=None))) == {"t": "hello", "id": 4, "name": "ann"}
    assert unpack(encode(Join(room="r1"))) == {"t": "join", "room": "r1", "spectate": False}


def test_joined_carries_a_null_seat_for_a_spectator() -> None:
    assert unpack(encode(Joined(re=1, room="r1", seat=None))) == {"t": "joined", "re": 1, "room": "r1", "seat": None}


def test_joined_without_a_seat_field_is_a_bad_message() -> None:
    with pytest.raises(ProtocolError) as caught:
        decode_server(pack({"t": "joined", "room": "r1"}))
    assert caught.value.code == "bad_message"


def test_none_inside_free_form_maps_is_kept() -> None:
    msg = Move(room="r1", move={"a": None})
    assert unpack(encode(msg))["move"] == {"a": None}


def test_a_plain_map_is_packed_as_given_without_a_none_re() -> None:
    assert unpack(encode({"t": "pong", "re": None})) == {"t": "pong"}
    assert unpack(encode({"t": "x", "other": None})) == {"t": "x", "other": None}


def test_decode_any_gives_the_plain_map() -> None:
    assert decode_any(pack({"t": "whatever", "a": [1, {"b": None}]})) == {"t": "whatever", "a": [1, {"b": None}]}


def test_bytearray_and_memoryview_frames_are_accepted() -> None:
    frame = encode(Hello(name="ann"))
    assert decode_client(bytearray(frame)) == decode_client(memoryview(frame)) == Hello(name="ann")


# ---- errors --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "data",
    [b"", b"\xc1", b"\x82\xa1t", b"\x81\xa1t\xa4ping\x00", b"\x81\xa1t\xa2\xff\xfe"],
    ids=["empty", "reserved-byte", "truncated", "trailing-bytes", "invalid-utf8"],
)
def test_malformed_msgpack_is_a_bad_message_without_re(data: bytes) -> None:
    err = client_error(data)
    assert (err.code, err.re) == ("bad_message", None)


@pytest.mark.parametrize("frame", [[1, 2], 3, "ping", None, True])
def test_a_frame_that_is_not_a_map_is_a_bad_message(frame: Any) -> None:
    assert client_error(frame).code == "bad_message"


def test_a_text_frame_is_a_bad_message() -> None:
    with pytest.raises(ProtocolError) as caught:
        decode_client('{"t": "ping"}')  # type: ignore[arg-type]
    assert caught.value.code == "bad_message"


def test_an_oversized_frame_is_too_large() -> None:
    frame = pack({"t": "move", "id": 3, "room": "r1", "move": {"pad": "x" * MAX_FRAME}})
    err = client_error(frame)
    assert (err.code, err.re) == ("too_large", None)


def test_a_frame_of_exactly_the_limit_is_accepted() -> None:
    frame = pack({"t": "move", "room": "r1", "move": {"pad": ""}})
    frame = pack({"t": "move", "room": "r1", "move": {"pad": "x" * (100 - len(frame) - 1)}})
    assert len(frame) == 100
    assert isinstance(decode_client(frame, max_size=100), Move)
    assert client_error(frame, max_size=99).code == "too_large"


def test_the_size_limit_is_checked_before_decoding() -> None:
    assert client_error(b"\xc1" * 70_000).code == "too_large"


def test_nesting_at_the_depth_limit_is_accepted() -> None:
    assert isinstance(decode_client(pack(nested(32))), Move)


def test_a_frame_nested_too_deep_is_a_bad_message() -> None:
    frame = nested(33)
    frame["id"] = 12
    err = client_error(frame)
    assert (err.code, err.re) == ("bad_message", 12)
    assert "deeper" in err.message


def test_the_depth_limit_is_configurable() -> None:
    assert client_error(nested(5), max_depth=4).code == "bad_message"
    assert isinstance(decode_client(pack(nested(5)), max_depth=5), Move)


def test_nesting_beyond_msgpacks_own_stack_is_a_bad_message() -> None:
    assert client_error(b"\x91" * 5000 + b"\xc0").code == "bad_message"
    assert client_error(b"\x81\xa1k" * 5000 + b"\xc0").code == "bad_message"


@pytest.mark.parametrize(
    "frame",
    [
        {"t": "create", "game": "expedition", "seats": "3"},
        {"t": "create", "game": "expedition", "seats": True},
        {"t": "create", "game": "expedition", "seats": 9},
        {"t": "create", "game": "expedition", "seats": 2, "public": 1},
        {"t": "join", "room": "r1", "seat": True},
        {"t": "join", "room": "r1", "seat": -1},
        {"t": "join", "room": 5},
        {"t": "hello", "name": 5},
        {"t": "hello", "name": ""},
        {"t": "hello", "name": "x" * 33},
        {"t": "hello", "name": "ann", "id": "3"},
        {"t": "hello", "name": "ann", "id": True},
        {"t": "move", "room": "r1", "move": [1, 2]},
        {"t": "move", "room": "r1", "move": None},
    ],
    ids=repr,
)
def test_wrong_types_and_values_are_bad_messages(frame: dict[str, Any]) -> None:
    assert client_error(frame).code == "bad_message"


@pytest.mark.parametrize(
    "value",
    [1.5, 3.0, b"bytes", msgpack.ExtType(5, b"x"), msgpack.Timestamp(1, 0)],
    ids=["float", "integral-float", "binary", "ext", "timestamp"],
)
def test_values_that_are_not_json_like_are_bad_messages(value: Any) -> None:
    err = client_error({"t": "move", "id": 4, "room": "r1", "move": {"deep": [{"x": value}]}})
    assert (err.code, err.re) == ("bad_message", 4)


def test_binary_map_keys_are_a_bad_message() -> None:
    assert client_error({"t": "move", "room": "r1", "move": {b"k": 1}}).code == "bad_message"


def test_integer_map_keys_are_a_bad_message() -> None:
    assert client_error(b"\x82\xa1t\xa4ping\x01\x02").code == "bad_message"


def test_unknown_fields_are_bad_messages() -> None:
    err = client_error({"t": "ping", "id": 1, "extra": 1})
    assert (err.code, err.re, err.message) == ("bad_message", 1, "unknown field 'extra'")


def test_missing_fields_are_bad_messages() -> None:
    err = client_error({"t": "join"})
    assert (err.code, err.message) == ("bad_message", "missing field 'room'")


def test_a_frame_without_t_is_a_bad_message() -> None:
    err = client_error({"id": 9, "name": "ann"})
    assert (err.code, err.re) == ("bad_message", 9)


@pytest.mark.parametrize("t", [1, None, ["hello"], True])
def test_a_t_that_is_not_a_string_is_a_bad_message(t: Any) -> None:
    assert client_error({"t": t}).code == "bad_message"


def test_an_unknown_t_is_an_unknown_type() -> None:
    err = client_error({"t": "teleport", "id": 5})
    assert (err.code, err.re) == ("unknown_type", 5)


def test_a_server_type_sent_by_a_client_is_an_unknown_type() -> None:
    assert client_error({"t": "welcome"}).code == "unknown_type"


def test_a_client_type_sent_by_the_server_is_an_unknown_type() -> None:
    with pytest.raises(ProtocolError) as caught:
        decode_server(pack({"t": "hello", "name": "x"}))
    assert caught.value.code == "unknown_type"


def test_re_is_taken_from_an_integer_id_of_a_bad_message() -> None:
    err = client_error({"t": "create", "id": 77, "game": "expedition", "seats": "3"})
    assert (err.code, err.re) == ("bad_message", 77)


@pytest.mark.parametrize("bad_id", [True, "7", 7.0, None, [7]])
def test_re_is_none_when_the_id_is_not_an_integer(bad_id: Any) -> None:
    assert client_error({"t": "create", "id": bad_id}).re is None


def test_a_spectator_asking_for_a_seat_is_a_bad_message() -> None:
    err = client_error({"t": "join", "room": "r1", "seat": 0, "spectate": True})
    assert (err.code, err.message) == ("bad_message", "a spectator takes no seat")


def test_error_messages_are_short() -> None:
    err = client_error({"t": "create", "game": "g" * 5000, "seats": 2})
    assert len(err.message) <= 200
    err = client_error({"t": "t" * 5000})
    assert len(err.message) <= 200


def test_a_protocol_error_becomes_an_error_answer() -> None:
    err = client_error({"t": "teleport", "id": 5})
    answer = Error.from_protocol_error(err)
    assert unpack(encode(answer)) == {"t": "error", "re": 5, "code": "unknown_type", "message": err.message}
    assert unpack(encode(Error.from_protocol_error(ProtocolError("too_large", "big")))) == {
        "t": "error",
        "code": "too_large",
        "message": "big",
    }


def test_decode_any_applies_the_same_limits() -> None:
    for data, code in [(b"\xc1", "bad_message"), (pack([1]), "bad_message"), (b"\x80" * 70_000, "too_large")]:
        with pytest.raises(ProtocolError) as caught:
            decode_any(data)
        assert caught.value.code == code
    with pytest.raises(ProtocolError) as caught:
        decode_any(pack({"id": 3, "x": 1.5}))
    assert (caught.value.code, caught.value.re) == ("bad_message", 3)


# ---- fuzzing -------------------------------------------------------------------------------

msgpack_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**63), max_value=2**64 - 1)
    | st.floats()
    | st.text(max_size=10)
    | st.binary(max_size=10),
    lambda children: (
        st.lists(children, max_size=4)
        | st.dictionaries(st.text(max_size=6) | st.binary(max_size=3), children, max_size=4)
    ),
    max_leaves=20,
)

field_names = st.sampled_from(
    ["t", "id", "name", "token", "game", "seats", "options", "public", "room", "seat", "spectate", "move", "x"]
)
message_types = st.sampled_from(sorted(CLIENT_TYPES) + sorted(SERVER_TYPES) + ["nope", ""])


@st.composite
def message_like(draw: st.DrawFn) -> dict[Any, Any]:
    """Maps that look like messages: a known `t` and plausible fields with arbitrary values."""
    frame = draw(st.dictionaries(field_names, msgpack_values, max_size=6))
    frame["t"] = draw(message_types)
    return frame


FUZZ = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def only_protocol_errors(data: bytes) -> None:
    for decode in (decode_client, decode_server, decode_any):
        try:
            decode(data)
        except ProtocolError as err:
            assert err.code in ("bad_message", "unknown_type", "too_large")
            assert err.re is None or type(err.re) is int


@FUZZ
@given(st.binary(max_size=200))
def test_random_bytes_raise_nothing_but_protocol_errors(data: bytes) -> None:
    only_protocol_errors(data)


@FUZZ
@given(msgpack_values)
def test_random_msgpack_values_raise_nothing_but_protocol_errors(value: Any) -> None:
    only_protocol_errors(pack(value))


@FUZZ
@given(message_like())
def test_message_like_maps_raise_nothing_but_protocol_errors(frame: dict[Any, Any]) -> None:
    only_protocol_errors(pack(frame))


@FUZZ
@given(message_like(), st.integers(min_value=0, max_value=2**32))
def test_a_bad_message_with_an_integer_id_always_carries_re(frame: dict[Any, Any], rid: int) -> None:
    frame["id"] = rid
    try:
        decode_client(pack(frame))
    except ProtocolError as err:
        assert err.re == rid


@FUZZ
@given(st.binary(min_size=1, max_size=200), st.integers(min_value=0, max_value=199))
def test_truncated_valid_frames_raise_nothing_but_protocol_errors(extra: bytes, cut: int) -> None:
    frame = encode(Move(id=1, room="r1", move={"a": [1, 2, {"b": "c"}], "d": extra.hex()}))
    only_protocol_errors(frame[: cut % len(frame)])
    only_protocol_errors(frame + extra)


@pytest.mark.parametrize(
    ("shared", "own"),
    [
        ([], []),
        ([{"op": "replace", "path": "/public/turn", "value": 2}], []),
        ([], [{"op": "add", "path": "/private/hand/3", "value": "red-1"}]),
        ([{"op": "remove", "path": "/public/log/0"}] * 20, [{"op": "replace", "path": "/prompt", "value": None}]),
    ],
)
def test_a_spliced_patch_frame_is_the_frame_encode_gives_for_the_same_message(shared: list, own: list) -> None:
    from protocol.codec import encode_ops, patch_frame

    frame = patch_frame("r1", 7, 8, encode_ops(shared), own)
    assert frame == encode({"t": "patch", "room": "r1", "base": 7, "v": 8, "ops": [*shared, *own]})
    assert decode_server(frame).model_dump()["ops"] == [*shared, *own]
