"""The wire contract as one JSON Schema document, generated from `protocol.messages`.

Owns: `build_schema()` and the `python -m protocol.schema` entry point, which prints the
schema; `docs/protocol.schema.json` is its committed output (regenerate, never hand-edit).
Must not: describe anything the models do not enforce; the codec's extra rules (frame size,
nesting depth, JSON-like values only) are stated in the description.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import TypeAdapter

from .messages import MAX_DEPTH, MAX_FRAME, PROTOCOL_VERSION, ClientMessage, ServerMessage

_DESCRIPTION = (
    "Every WebSocket frame is binary and holds one msgpack map with a string field `t`. "
    "Maps have string keys; values are maps, arrays, strings, integers, booleans or nil "
    f"(no floats, binary or extension types). Server limits by default: {MAX_FRAME} bytes "
    f"per frame, nesting depth {MAX_DEPTH}. See docs/protocol.md."
)


def build_schema() -> dict[str, Any]:
    """One JSON Schema (draft 2020-12) for every client and server message, with `$defs`."""
    inputs: list[tuple[str, Any, TypeAdapter[Any]]] = [
        ("ClientMessage", "validation", TypeAdapter(ClientMessage)),
        ("ServerMessage", "validation", TypeAdapter(ServerMessage)),
    ]
    schemas, defs = TypeAdapter.json_schemas(inputs)
    all_defs: dict[str, Any] = dict(defs.get("$defs", {}))
    for (name, _mode), schema in schemas.items():
        all_defs[name] = schema
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"urn:marcopolo:protocol:v{PROTOCOL_VERSION}",
        "title": f"Marco Polo wire protocol v{PROTOCOL_VERSION}",
        "description": _DESCRIPTION,
        "oneOf": [{"$ref": "#/$defs/ClientMessage"}, {"$ref": "#/$defs/ServerMessage"}],
        "$defs": dict(sorted(all_defs.items())),
    }


def main() -> None:
    """Print the schema as indented JSON."""
    print(json.dumps(build_schema(), indent=2, sort_keys=False))


if __name__ == "__main__":
    main()
