"""The typed room meta: what today's stores hold loads unchanged, unknown keys survive, newer layouts are refused."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from server.config import Settings
from server.metrics import Metrics
from server.node.hub import Hub
from server.rooms.meta import FORMAT, RoomMeta
from server.store.memory import MemoryStore

#: metas as the server stored them before the meta was typed (recorded from that code: waiting rooms with a
#: clock, a fill deadline, bots of named levels and a think time, a private room's invite, running games with
#: autoplay and expiries, a room closed as abandoned)
STORED = json.loads((Path(__file__).parent / "stored_metas.json").read_text(encoding="utf-8"))


def _given(data: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in data.items() if v is not None}


@pytest.mark.parametrize("data", STORED, ids=[f"{d['status']}-{len(d)}keys" for d in STORED])
def test_a_meta_stored_before_the_typed_model_loads_into_typed_fields_and_writes_back_the_same(
    data: dict[str, Any],
) -> None:
    meta = RoomMeta.from_dict(data)
    assert meta.extra == {}, "every key of the old layout has a typed field"
    assert meta.room == data["room"] and meta.v == data["v"] and meta.players == data["players"]
    written = meta.to_dict()
    assert written.pop("format") == FORMAT
    assert written == _given(data)
    assert RoomMeta.from_dict(written) == meta


def test_the_recorded_metas_cover_every_field_a_room_stored() -> None:
    keys = {k for d in STORED for k in d}
    assert keys >= {"room", "game", "seats", "options", "seed", "public", "status", "players", "names", "v",
                    "online", "ratings", "host", "turn_seconds", "max_expiries", "clock", "expiries", "auto",
                    "autoplay", "fill_bots_after", "fill_at", "away_since", "closed", "invite", "bot_levels",
                    "bot_think_ms", "created", "node"}  # fmt: skip


def test_keys_a_newer_server_wrote_are_kept_and_written_back() -> None:
    data = {**STORED[0], "omen": "comet", "format": 1}
    meta = RoomMeta.from_dict(data)
    assert meta.extra == {"omen": "comet"}
    assert meta.copy(v=meta.v + 1).to_dict()["omen"] == "comet"


def test_a_meta_of_a_newer_layout_is_refused_not_half_read() -> None:
    with pytest.raises(ValueError, match="newer"):
        RoomMeta.from_dict({**STORED[0], "format": FORMAT + 1})


def test_a_copy_for_the_next_version_shares_no_per_seat_list_with_the_version_it_came_from() -> None:
    meta = RoomMeta.from_dict(STORED[0])
    nxt = meta.copy(v=meta.v + 1)
    nxt.players[0], nxt.names[0] = "someone", "Someone"
    nxt.online[0] = not nxt.online[0]
    assert meta.players == STORED[0]["players"] and meta.names == STORED[0]["names"]
    assert nxt.online is not None and len(nxt.online) == meta.seats and meta.online == STORED[0].get("online")


async def test_a_waiting_room_stored_before_the_typed_model_is_loaded_and_joined() -> None:
    last = {d["room"]: d for d in STORED if d["status"] == "waiting" and None in d["players"]}  # one per room
    waiting = list(last.values())
    assert waiting
    store = MemoryStore()
    for data in waiting:
        await store.create_room(data)
    hub = Hub(Settings(), store, Metrics())
    assert await hub.load_rooms() == len(waiting)
    for data in waiting:
        room = hub.rooms[data["room"]]
        assert room.meta == RoomMeta.from_dict({**data, "snap_v": 0})
        view = room.build_view(None)
        assert [s["name"] for s in view["seats"]] == data["names"]
    await hub.close()


def test_a_copy_keeps_every_field_but_those_it_is_told_to_change() -> None:
    import dataclasses

    values = {f.name: [f"value of {f.name}"] for f in dataclasses.fields(RoomMeta)}
    values.update(seats=1, online=[True], players=["p"], names=["P"])
    meta = RoomMeta(**values)  # type: ignore[arg-type]
    same = meta.copy()
    assert same == meta and same is not meta and same.players is not meta.players
    changed = meta.copy(v=7, closed="abandoned")
    assert (changed.v, changed.closed) == (7, "abandoned")
    assert dataclasses.replace(changed, v=meta.v, closed=meta.closed) == meta
