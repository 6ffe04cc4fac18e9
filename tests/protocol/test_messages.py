"""The message models: strict types, bounded sizes, and the shapes the contract pins."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import BaseModel, TypeAdapter, ValidationError

from protocol import (
    ERROR_CODES,
    ERROR_MEANINGS,
    ClientMessage,
    Create,
    Error,
    Hello,
    Join,
    Patch,
    RoomInfo,
    ServerMessage,
    Snapshot,
)

from .samples import VIEW


def rejects(model: type[BaseModel], **fields: Any) -> None:
    with pytest.raises(ValidationError):
        model.model_validate(fields)


@pytest.mark.parametrize("name", ["a", "Ann Lee", "Zoë", "x" * 32, "李"])
def test_names_of_one_to_32_printable_characters_are_accepted(name: str) -> None:
    assert Hello(name=name).name == name


@pytest.mark.parametrize("name", ["", "x" * 33, " ann", "ann ", "a\x00b", "a\nb", "\t", "a\x85b"])
def test_empty_long_padded_or_control_character_names_are_rejected(name: str) -> None:
    rejects(Hello, name=name)


@pytest.mark.parametrize("token", ["", "a b", "t" * 129, "é"])
def test_tokens_are_bounded_printable_ascii(token: str) -> None:
    rejects(Hello, name="ann", token=token)


def test_room_ids_are_bounded() -> None:
    rejects(Join, room="r" * 65)
    rejects(Join, room="")
    assert Join(room="r" * 64).room == "r" * 64


@pytest.mark.parametrize("seats", [0, 9, -1])
def test_a_room_has_one_to_eight_seats(seats: int) -> None:
    rejects(Create, game="expedition", seats=seats)


def test_create_is_public_unless_told_otherwise() -> None:
    assert Create(game="expedition", seats=2).public is True


def test_a_time_bank_is_bounded_by_its_rooms_mode_and_needs_a_clock() -> None:
    day = 86400
    assert Create(game="expedition", seats=2, mode="turn_based", time_bank_seconds=14 * day).time_bank_seconds
    assert Create(game="expedition", seats=2, turn_seconds=60, time_bank_seconds=day).time_bank_seconds == day
    assert Create(game="expedition", seats=2, time_bank_seconds=0).time_bank_seconds == 0  # none
    rejects(Create, game="expedition", seats=2, mode="turn_based", time_bank_seconds=14 * day + 1)
    rejects(Create, game="expedition", seats=2, turn_seconds=60, time_bank_seconds=day + 1)  # a live room: a day
    rejects(Create, game="expedition", seats=2, time_bank_seconds=60)  # a live room without a clock
    rejects(Create, game="expedition", seats=2, mode="turn_based", time_bank_seconds=-1)
    rejects(Create, game="expedition", seats=2, mode="turn_based", time_bank_seconds=True)


@pytest.mark.parametrize("seat", [-1, 8])
def test_a_seat_is_between_0_and_7(seat: int) -> None:
    rejects(Join, room="r1", seat=seat)


def test_a_seat_is_never_a_bool_or_a_string() -> None:
    rejects(Join, room="r1", seat=True)
    rejects(Join, room="r1", seat="1")


def test_room_info_has_one_player_entry_per_seat() -> None:
    rejects(RoomInfo, room="r1", game="g", seats=2, players=["ann"], status="waiting", public=True)


def test_room_status_is_waiting_playing_or_finished() -> None:
    rejects(RoomInfo, room="r1", game="g", seats=1, players=[None], status="paused", public=True)


def test_a_patch_advances_the_version_by_exactly_one() -> None:
    rejects(Patch, room="r1", base=3, v=5, ops=[])
    assert Patch(room="r1", base=3, v=4, ops=[]).v == 4


@pytest.mark.parametrize(
    "op",
    [
        {"op": "add", "path": "/a"},
        {"op": "add", "path": "a", "value": 1},
        {"op": "add", "path": "/~2", "value": 1},
        {"op": "remove", "path": "/a", "extra": 1},
        {"op": "move", "path": "/a"},
        {"op": "frobnicate", "path": "/a"},
    ],
    ids=repr,
)
def test_malformed_patch_operations_are_rejected(op: dict[str, Any]) -> None:
    rejects(Patch, room="r1", base=0, v=1, ops=[op])


@pytest.mark.parametrize("key", ["game", "you", "public", "private", "prompt", "result"])
def test_a_snapshot_view_has_every_pinned_key(key: str) -> None:
    state = {k: v for k, v in VIEW.items() if k != key}
    rejects(Snapshot, room="r1", v=1, state=state)


def test_a_snapshot_view_may_carry_extra_keys() -> None:
    assert Snapshot(room="r1", v=1, state={**VIEW, "log": []}).state["log"] == []  # type: ignore[typeddict-item]


def test_a_prompt_is_text_and_options() -> None:
    rejects(Snapshot, room="r1", v=1, state={**VIEW, "prompt": {"text": "x", "options": [1]}})
    rejects(Snapshot, room="r1", v=1, state={**VIEW, "prompt": {"options": []}})


def test_an_error_code_must_be_one_of_the_contract() -> None:
    rejects(Error, code="oops", message="x")
    assert set(ERROR_MEANINGS) == set(ERROR_CODES)
    assert len(ERROR_CODES) == 18  # 13 of v1 and v1.1; v1.2 adds name_taken, bad_credentials, banned, muted, filtered


def test_messages_are_frozen() -> None:
    msg = Hello(name="ann")
    with pytest.raises(ValidationError):
        msg.name = "bob"  # type: ignore[misc]


def test_the_unions_pick_the_model_by_t() -> None:
    assert isinstance(TypeAdapter(ClientMessage).validate_python({"t": "hello", "name": "ann"}), Hello)
    assert isinstance(
        TypeAdapter(ServerMessage).validate_python({"t": "error", "code": "internal", "message": ""}), Error
    )
