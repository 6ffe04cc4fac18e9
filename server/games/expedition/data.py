"""Component data of Marco Polo Expedition: the 55 cards (seed 000) and the track (house data).

Owns: card ids and their colour/kind, the track loaded from `track.json` with its fixed points checked.
Must not: hold rules. The track file is a reconstruction (see its header); replacing it changes no code.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from typing import Any

COLOURS: tuple[str, ...] = ("blue", "yellow", "red", "green", "purple")
GOODS: tuple[str, ...] = ("oil", "spice", "silk", "fruit")
LEADER = "leader"
KINDS: tuple[str, ...] = (*GOODS, LEADER)
#: per colour: 2 of each goods type and 3 caravan leaders (seed 000, section 1)
COPIES: dict[str, int] = {"oil": 2, "spice": 2, "silk": 2, "fruit": 2, LEADER: 3}
#: figure colours in placement order (the fifth is our choice; the seed names four)
FIGURE_COLOURS: tuple[str, ...] = ("red", "blue", "green", "orange", "white")

HORMUS = 0
KANTSHOU = 16
DAIDU = 29
SECTION1 = range(11, 17)  # numbered scoring spaces worth 1..6
SECTION2 = range(23, 30)  # numbered scoring spaces worth 1..7
START_CHEST_VALUE = 3


def card_id(colour: str, kind: str, copy: int) -> str:
    """The id of one card, e.g. `blue-oil-1`; ids are unique and self-describing."""
    return f"{colour}-{kind}-{copy}"


ALL_CARDS: tuple[str, ...] = tuple(card_id(c, k, i) for c in COLOURS for k in KINDS for i in range(1, COPIES[k] + 1))


def colour_of(card: str) -> str:
    """Colour of a card id."""
    return card.split("-", 1)[0]


def kind_of(card: str) -> str:
    """Kind (goods type or `leader`) of a card id."""
    return card.split("-")[1]


@dataclass(frozen=True)
class Space:
    pos: int
    name: str | None
    req: dict[str, Any] | None
    chest: int
    score: int | None

    def as_dict(self) -> dict[str, Any]:
        return {"pos": self.pos, "name": self.name, "req": self.req, "chest": self.chest, "score": self.score}


def _load_track() -> tuple[Space, ...]:
    return track_from(json.loads(resources.files(__package__).joinpath("track.json").read_text(encoding="utf-8")))


def track_from(raw: dict[str, Any]) -> tuple[Space, ...]:
    """The spaces of a track file, checked: its header must say it is house data and what it rests on, and the
    fixed points of the rules (seed 000, decisions.md A) must hold."""
    header = raw.get("_house_data")
    assert isinstance(header, str) and header.startswith("HOUSE DATA"), "track.json must say it is HOUSE DATA"
    assert "seed 000" in header and "decisions.md" in header, "the header names what the track rests on"
    spaces = tuple(
        Space(s["pos"], s.get("name"), s.get("req"), int(s.get("chest", 0)), s.get("score")) for s in raw["spaces"]
    )
    assert [s.pos for s in spaces] == list(range(DAIDU + 1)), "track positions must be 0..29"
    assert spaces[KANTSHOU].req == {"kind": "four_goods"}
    assert spaces[DAIDU].req == {"kind": "goods", "n": 4}
    for i, p in enumerate(SECTION1):
        assert spaces[p].score == i + 1
    for i, p in enumerate(SECTION2):
        assert spaces[p].score == i + 1
    for s in spaces:
        assert s.chest in (0, 1, 2)
        assert not (s.chest and s.pos < 5), "starting spaces never hold a chest"
    return spaces


TRACK: tuple[Space, ...] = _load_track()
TRACK_VIEW: list[dict[str, Any]] = [s.as_dict() for s in TRACK]
