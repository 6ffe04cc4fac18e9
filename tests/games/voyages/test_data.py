"""The component data (`voyages.json`) against the researched reference data, and the base game only."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from server.games.voyages import data as D

REFERENCE = Path(__file__).resolve().parents[3] / "shared" / "reference" / "voyages-data.json"
if not REFERENCE.exists():  # the worktrees share /work/shared
    REFERENCE = Path("/work/shared/reference/voyages-data.json")
KEY = {
    "coin": "coins",
    "camel": "camels",
    "pepper": "pepper",
    "silk": "silk",
    "gold": "gold",
    "vp": "vp",
    "choice_of_good": "any_good",
    "2_diff_goods": "two_goods",
    "travel": "move",
    "contract": "contract",
    "black_die": "black_die",
    "trigger_other_city_bonus": "other_city_bonus",
}
CITY_BONUS = "trigger_city_bonus_having_trading_post"
COUNTS = {"placed_trading_post": "posts", "fulfilled_contracts": "completed_contracts"}


def _ref() -> dict[str, Any]:
    return json.loads(REFERENCE.read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def _base(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [i for i in items if "expansion" not in i]


def _tr(d: dict[str, int] | list[Any]) -> dict[str, int]:
    return {KEY[k]: n for k, n in dict(d).items()}


def _card(c: dict[str, Any]) -> dict[str, Any]:
    """A reference city card in this project's schema."""
    out: dict[str, Any] = {"id": f"city-card-{c['id']}"}
    kind, award, cost = c["kind"], c.get("award", {}), c.get("cost", {})
    if kind == "die" and CITY_BONUS in award:
        return {**out, "kind": "city_bonus", "times_by_die": award[CITY_BONUS], "cost": {}}
    if kind == "die":
        ((good, amounts),) = award.items()
        return {**out, "kind": "by_die", "good": good, "amount_by_die": amounts}
    if kind == "choice":
        return {
            **out,
            "kind": "either",
            "ways": [{"cost": _tr(w["cost"]), "reward": _tr(w["award"])} for w in c["choice"]],
        }
    if kind == "exchange":
        there = {"cost": _tr(cost), "reward": _tr(award)}
        return {**out, "kind": "either", "ways": [there, {"cost": there["reward"], "reward": there["cost"]}]}
    assert kind == "multiple"
    if CITY_BONUS in award:
        return {**out, "kind": "city_bonus", "cost": _tr(cost)}
    if not cost:
        return {**out, "kind": "per_pip", "reward": _tr(award)}
    if set(cost) <= set(COUNTS):
        ((what, _),) = cost.items()
        return {**out, "kind": "count", "counts": COUNTS[what], "reward": _tr(award)}
    return {**out, "kind": "trade", "cost": _tr(cost), "reward": _tr(award)}


def test_the_map_equals_the_reference_map_with_beijing_spelled_out() -> None:
    ref = _ref()
    kinds = {"large_city": "large", "small_city": "small", "bejing": "beijing", "oasis": "oasis", "start": "start"}
    nodes = [
        {"id": n["id"], "name": "Beijing" if n["name"] == "Bejing" else n["name"], "type": kinds[n["type"]]}
        for n in ref["map_nodes"]
    ]
    assert [{k: n[k] for k in ("id", "name", "type")} for n in D.NODES] == nodes
    edges = [
        {"a": e["a"], "b": e["b"], "coins": e["extra_cost"].get("coin", 0), "camels": e["extra_cost"].get("camel", 0)}
        for e in ref["map_edges_undirected"]
    ]
    assert D.EDGES == edges


def test_contracts_goal_cards_outposts_and_city_bonus_markers_equal_the_reference_base_game_data() -> None:
    ref = _ref()
    contracts = [
        {"id": f"contract-{c['id']}", "starter": c["starter"], "cost": _tr(c["cost"]), "reward": _tr(c["award"])}
        for c in _base(ref["contracts"])
    ]
    assert list(D.CONTRACTS.values()) == contracts
    goals = [
        {"id": f"goal-{g['id']}", "cities": [int(c) for c in g["cities"]], "vp": g["vp"]} for g in ref["goal_cards"]
    ]
    assert list(D.GOALS.values()) == goals
    outposts = [{"id": f"outpost-{t['id']}", "reward": _tr(t["award"])} for t in ref["outpost_bonus_tiles"]]
    assert list(D.OUTPOSTS.values()) == outposts
    markers = {
        m["id"]: {"id": m["id"], "reward": _tr(m["award"]), "beginner_city": m["default_location"]}
        for m in _base(ref["city_bonus_markers"])
    }
    assert D.MARKERS == markers


def test_the_31_city_cards_equal_the_reference_city_cards() -> None:
    assert list(D.CITY_CARDS.values()) == [_card(c) for c in _ref()["city_cards"]]


def test_no_new_characters_expansion_content_is_present() -> None:
    ref = _ref()
    expansion_contracts = {f"contract-{c['id']}" for c in ref["contracts"] if "expansion" in c}
    assert expansion_contracts == {"contract-44", "contract-45", "contract-46", "contract-47"}
    assert not expansion_contracts & set(D.CONTRACTS)
    assert len(D.MARKERS) == 6 and all("gift" not in m["reward"] for m in D.MARKERS.values())
    rewards = [*(c["reward"] for c in D.CONTRACTS.values()), *(t["reward"] for t in D.OUTPOSTS.values())]
    assert all("gift" not in r for r in rewards)
    raw = json.loads((Path(D.__file__).parent / "voyages.json").read_text(encoding="utf-8"))
    data = json.dumps({k: v for k, v in raw.items() if not k.startswith("_")})  # the header says what is left out
    assert "gift" not in data and "expansion" not in data
    assert len(D.CHARACTERS) == 8  # the base game's eight, none of The New Characters
