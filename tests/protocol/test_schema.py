"""The JSON Schema: generated from the models, complete, and committed up to date."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from protocol import CLIENT_TYPES, SERVER_TYPES
from protocol.schema import build_schema, main

COMMITTED = Path(__file__).parents[2] / "docs" / "protocol.schema.json"


def test_the_schema_is_printed_as_json(capsys: pytest.CaptureFixture[str]) -> None:
    main()
    assert json.loads(capsys.readouterr().out) == build_schema()


def test_the_committed_schema_is_up_to_date(capsys: pytest.CaptureFixture[str]) -> None:
    main()
    assert COMMITTED.read_text() == capsys.readouterr().out, "run: python -m protocol.schema > " + str(
        COMMITTED
    )


def test_the_schema_maps_every_t_to_its_message() -> None:
    defs = build_schema()["$defs"]
    assert set(defs["ClientMessage"]["discriminator"]["mapping"]) == set(CLIENT_TYPES)
    assert set(defs["ServerMessage"]["discriminator"]["mapping"]) == set(SERVER_TYPES)


def test_every_message_requires_t_and_forbids_other_fields() -> None:
    defs = build_schema()["$defs"]
    for model in [*CLIENT_TYPES.values(), *SERVER_TYPES.values()]:
        schema = defs[model.__name__]
        assert schema["required"][0] == "t"
        assert schema["additionalProperties"] is False


def test_joined_requires_its_seat() -> None:
    assert "seat" in build_schema()["$defs"]["Joined"]["required"]
