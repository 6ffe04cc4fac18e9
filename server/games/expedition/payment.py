"""Which sets of cards pay a space's requirement (seed 000, section 6.1).

Owns: the five requirement kinds, enumeration of the minimal paying sets a hand holds (as sets of card
types, each shown by concrete card ids), and the check used when a player picks cards one at a time.
Must not: change any state.

Cards of the same colour and kind are interchangeable, so two paying sets that differ only in which
copy of a card they use are the same choice; we list each choice once, using the lowest ids.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import product
from typing import Any

from server.games.expedition.data import COLOURS, GOODS, LEADER, colour_of, kind_of

Req = dict[str, Any]


def req_size(req: Req) -> int:
    """How many cards pay this requirement."""
    kind = req["kind"]
    if kind == "four_goods":
        return 4
    if kind == "five_colours":
        return 5
    return int(req["n"])


def accepts(req: Req, cards: list[str]) -> bool:
    """True when exactly these cards pay the requirement."""
    if len(cards) != req_size(req):
        return False
    kinds = [kind_of(c) for c in cards]
    colours = [colour_of(c) for c in cards]
    match req["kind"]:
        case "goods":
            return len(set(kinds)) == 1 and kinds[0] in GOODS
        case "four_goods":
            return sorted(kinds) == sorted(GOODS)
        case "leaders":
            return all(k == LEADER for k in kinds)
        case "colour":
            return len(set(colours)) == 1
        case "five_colours":
            return sorted(colours) == sorted(COLOURS)
    raise ValueError(f"unknown requirement kind {req['kind']!r}")


def _by_type(hand: list[str]) -> dict[tuple[str, str], list[str]]:
    out: dict[tuple[str, str], list[str]] = {}
    for c in sorted(hand):
        out.setdefault((colour_of(c), kind_of(c)), []).append(c)
    return out


CardType = tuple[str, str]


def _multisets(types: list[CardType], caps: dict[CardType, int], n: int) -> Iterator[list[CardType]]:
    """Multisets of size n over `types` (in order) with per-type caps."""
    if n == 0:
        yield []
        return
    if not types:
        return
    head, rest = types[0], types[1:]
    for take in range(min(n, caps[head]), -1, -1):
        for tail in _multisets(rest, caps, n - take):
            yield [head] * take + tail


def _realise(choice: list[tuple[str, str]], groups: dict[tuple[str, str], list[str]]) -> list[str]:
    used: dict[tuple[str, str], int] = {}
    out = []
    for t in choice:
        i = used.get(t, 0)
        out.append(groups[t][i])
        used[t] = i + 1
    return sorted(out)


def _choices(req: Req, groups: dict[tuple[str, str], list[str]]) -> Iterator[list[tuple[str, str]]]:
    caps = {t: len(ids) for t, ids in groups.items()}
    types = sorted(groups)
    match req["kind"]:
        case "goods":
            for g in GOODS:
                yield from _multisets([t for t in types if t[1] == g], caps, int(req["n"]))
        case "leaders":
            yield from _multisets([t for t in types if t[1] == LEADER], caps, int(req["n"]))
        case "colour":
            for c in COLOURS:
                yield from _multisets([t for t in types if t[0] == c], caps, int(req["n"]))
        case "four_goods":
            per = [[t for t in types if t[1] == g] for g in GOODS]
            for combo in product(*per):
                yield list(combo)
        case "five_colours":
            per = [[t for t in types if t[0] == c] for c in COLOURS]
            for combo in product(*per):
                yield list(combo)
        case _:
            raise ValueError(f"unknown requirement kind {req['kind']!r}")


def paying_sets(req: Req, hand: list[str], limit: int) -> list[list[str]] | None:
    """Every distinct minimal paying set in `hand` (sorted ids), or None if there are more than `limit`."""
    groups = _by_type(hand)
    out: list[list[str]] = []
    for choice in _choices(req, groups):
        out.append(_realise(choice, groups))
        if len(out) > limit:
            return None
    return out


def can_pay(req: Req, hand: list[str]) -> bool:
    """True when some subset of `hand` pays the requirement."""
    return can_complete(req, [], hand)


def can_complete(req: Req, chosen: list[str], rest: list[str]) -> bool:
    """True when the cards `chosen` so far can be completed from `rest` into a paying set."""
    need = req_size(req) - len(chosen)
    if need < 0:
        return False
    kinds = [kind_of(c) for c in chosen]
    colours = [colour_of(c) for c in chosen]
    match req["kind"]:
        case "goods":
            if len(set(kinds)) > 1 or any(k == LEADER for k in kinds):
                return False
            if kinds:
                return sum(1 for c in rest if kind_of(c) == kinds[0]) >= need
            return any(sum(1 for c in rest if kind_of(c) == g) >= need for g in GOODS)
        case "leaders":
            return all(k == LEADER for k in kinds) and sum(1 for c in rest if kind_of(c) == LEADER) >= need
        case "colour":
            if len(set(colours)) > 1:
                return False
            if colours:
                return sum(1 for c in rest if colour_of(c) == colours[0]) >= need
            return any(sum(1 for c in rest if colour_of(c) == col) >= need for col in COLOURS)
        case "four_goods":
            if len(set(kinds)) != len(kinds) or LEADER in kinds:
                return False
            have = {kind_of(c) for c in rest}
            return all(g in have for g in GOODS if g not in kinds)
        case "five_colours":
            if len(set(colours)) != len(colours):
                return False
            have = {colour_of(c) for c in rest}
            return all(c in have for c in COLOURS if c not in colours)
    raise ValueError(f"unknown requirement kind {req['kind']!r}")
