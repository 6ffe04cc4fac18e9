"""Engine invariants under fuzzed play, for every game: nothing is created or lost except by a rule.

Hypothesis plays each game: at every step it picks the mover among the active seats and one of its
prompt options, and on the way tries a mutated option and a move by a seat that is not active (both must
raise `IllegalMove` and change nothing). After every applied move it checks:
- components (cards, tiles, contracts, goals, offers, ... every id in the state's physical zones) are
  conserved: none appears from nowhere, none is duplicated, and the only ones that may leave the game are
  those a rule removes (listed per game in `MAY_LEAVE`, with the rule);
- coins, money, goods, camels, posts in stock and the black-dice pool never go negative; every die shows
  1..6 (Raschid's own dice wait unrolled, as 0, until he sets them); a player's trading posts (in stock
  and on the board) stay the same number;
- replaying the moves from the seed reproduces the state exactly.
"""

from __future__ import annotations

import os
import random
import re
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from server.games import all_games
from server.games.base import IllegalMove, Rng, pack
from tests.conformance.test_engines import _mutations

GAMES = all_games()
STEPS = 150
EXAMPLES = int(os.environ.get("INVARIANT_EXAMPLES", "3"))

#: a component id: lower-case words and numbers joined by '-' ("blue-spice-2", "contract-14", "city-card-3")
_COMPONENT = re.compile(r"^[a-z]+(-[a-z0-9]+)+$")
#: top-level keys that record or point at components rather than hold them (Expedition's `pick` names the
#: cards chosen so far for a payment made card by card: they stay in the hand until the payment is complete;
#: `undo` is the savepoint of a turn that may be taken back, a copy of an earlier state, not a zone)
_NOT_ZONES = {
    "log", "seen", "stats", "notices", "result", "options", "rng", "seq", "turn_info", "draft", "slots_used", "pick",
    "undo",
}  # fmt: skip
#: board spaces and other names that match the id pattern but are places, not components
_PLACES = re.compile(r"^(slot|space|book|travel)-")

#: components a rule takes out of the game (by id prefix), per game
MAY_LEAVE: dict[str, dict[str, str]] = {
    "expedition": {},
    "classic": {},
    "voyages": {
        "contract-": "a contract discarded for a new one, or cleared from the display at the end of a round",
        "outpost-": "an outpost bonus tile is used up by the first trading post built in its city",
    },
    "khan": {
        "offer-": "the round's offer cards are put away at the end of the round",
        "city-card-": "the round's city cards in play are put away at the end of the round",
        "outpost-": "an outpost tile is used up when its city's first trading post is built",
    },
}
_RESOURCES = ("coins", "money", "camels", "pepper", "silk", "gold", "jade", "posts_left")


def _walk(node: Any, out: Counter[str], top: bool = False) -> None:
    stack = [(node, top)]
    while stack:
        value, is_top = stack.pop()
        if isinstance(value, dict):
            for key, child in value.items():
                if is_top and key in _NOT_ZONES:
                    continue
                if _COMPONENT.match(key) and not _PLACES.match(key):
                    out[key] += 1
                stack.append((child, False))
        elif isinstance(value, list):
            stack.extend((child, False) for child in value)
        elif isinstance(value, str) and _COMPONENT.match(value) and not _PLACES.match(value):
            out[value] += 1


def components(state: dict[str, Any]) -> Counter[str]:
    """The multiset of component ids in the state's physical zones."""
    out: Counter[str] = Counter()
    _walk({k: v for k, v in state.items() if k != "pending"}, out, top=True)
    for item in state.get("pending") or []:  # a drawn card waiting for a decision is held there
        if isinstance(item, dict) and isinstance(item.get("contract"), str):
            _walk(item["contract"], out)
    return out


def _dice(state: dict[str, Any]) -> list[tuple[Any, bool]]:
    """Every die as [kind, value], with whether it may be unrolled (value 0: Raschid sets his own dice
    when he places them, so they wait in his pool unrolled)."""
    found: list[tuple[Any, bool]] = []
    players = state.get("players") or []
    raschid = {i for i, p in enumerate(players) if isinstance(p, dict) and p.get("character") == "raschid"}
    stack: list[Any] = [v for k, v in state.items() if k not in _NOT_ZONES]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            dice = node.get("dice")
            if isinstance(dice, list):
                owner = node.get("seat")
                unrolled = node.get("character") == "raschid" or (
                    isinstance(owner, int) and owner in raschid
                )  # his dice keep the 0 where a value does not matter (the money bag)
                found += [(d, unrolled) for d in dice if isinstance(d, list) and len(d) == 2]
            stack.extend(v for k, v in node.items() if k != "dice")
        elif isinstance(node, list):
            stack.extend(node)
    return found


def _posts(state: dict[str, Any]) -> list[int]:
    return [
        int(p["posts_left"]) + len(p.get("posts") or [])
        for p in state.get("players") or []
        if isinstance(p, dict) and "posts_left" in p
    ]


def _numbers(state: dict[str, Any]) -> list[tuple[str, int]]:
    found: list[tuple[str, int]] = []
    for i, p in enumerate(state.get("players") or []):
        if isinstance(p, dict):
            found += [(f"players/{i}/{k}", p[k]) for k in _RESOURCES if isinstance(p.get(k), int)]
    for i, amount in enumerate(state.get("money") or []):
        found.append((f"money/{i}", amount))
    pool = state.get("black_pool")
    if isinstance(pool, int):
        found.append(("black_pool", pool))
    elif isinstance(pool, list):
        found += [(f"black_pool/{i}", n) for i, n in enumerate(pool) if isinstance(n, int)]
    return found


def check_step(gid: str, setup: Counter[str], before: dict[str, Any], after: dict[str, Any], move: Any) -> None:
    was, now = components(before), components(after)
    created = now - was
    assert not created, f"{move}: components from nowhere {dict(created)}"
    assert not (now - setup), "more copies of a component than the game started with"
    for comp in was - now:
        assert any(comp.startswith(prefix) for prefix in MAY_LEAVE[gid]), f"{move}: {comp} left the game"
    for where, n in _numbers(after):
        assert n >= 0, f"{move}: {where} is {n}"
    for (kind, value), unrolled in _dice(after):
        low = 0 if unrolled and kind == "own" else 1
        assert isinstance(value, int) and low <= value <= 6, f"{move}: a {kind} die shows {value}"
    assert _posts(after) == _posts(before), f"{move}: trading posts created or lost"


@pytest.mark.parametrize("gid", sorted(GAMES))
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 2**63 - 1), data=st.data())
def test_fuzzed_play_conserves_components_refuses_bad_moves_and_replays(
    gid: str, seed: int, data: st.DataObject
) -> None:
    game = GAMES[gid]
    seats = data.draw(st.integers(game.min_seats, game.max_seats), label="seats")
    state = game.setup(seats, None, seed)
    setup = components(state)
    rng = Rng(seed)
    played: list[tuple[int, Any]] = []
    for _ in range(STEPS):
        if game.result(state) is not None:
            break
        active = game.active_seats(state)
        seat = data.draw(st.sampled_from(active), label="seat")
        prompt = game.prompt(state, seat)
        assert prompt is not None
        legal = prompt["options"]
        move = data.draw(st.sampled_from(legal), label="move")
        frozen = pack(state)
        trial = data.draw(st.integers(0, 3), label="trial")
        if trial == 0:  # a mutated option
            bad = [b for b in _mutations(move, rng) if b not in legal]
            if bad:
                with pytest.raises(IllegalMove):
                    game.apply(state, seat, data.draw(st.sampled_from(bad), label="mutated"))
                assert pack(state) == frozen, "an illegal move changed the state"
        elif trial == 1:  # the wrong seat
            idle = [s for s in range(seats) if s not in active]
            if idle:
                with pytest.raises(IllegalMove) as err:
                    game.apply(state, data.draw(st.sampled_from(idle), label="idle"), move)
                assert err.value.code == "not_your_turn"
                assert pack(state) == frozen, "a move by the wrong seat changed the state"
        after = game.apply(state, seat, move)
        assert pack(state) == frozen, "apply changed its input"
        check_step(gid, setup, state, after, move)
        played.append((seat, move))
        state = after
    replay = game.setup(seats, None, seed)
    for seat, move in played:
        replay = game.apply(replay, seat, move)
    assert pack(replay) == pack(state), "replaying the moves from the seed gave another state"


def test_the_component_walk_sees_every_card_of_a_fresh_expedition_game() -> None:
    game = GAMES["expedition"]
    state = game.setup(3, None, 1)
    comps = components(state)
    held = len(state["deck"]) + len(state["display"]) + sum(len(h) for h in state["hands"])
    assert sum(n for c, n in comps.items() if c.count("-") == 2 and not c.startswith("city")) >= held
    moved = dict(state, display=state["display"][1:])  # a card lost from the display is noticed
    with pytest.raises(AssertionError):
        check_step("expedition", comps, state, moved, {"a": "test"})


def test_a_payment_picked_card_by_card_conserves_the_cards_and_takes_them_from_the_hand_once() -> None:
    """Seeded random games until a seat must pick its payment card by card (`choose`: too many ways to pay to
    list); every pick, and the payment it completes, passes the component check, and the hand loses exactly
    the picked cards, once."""
    game = GAMES["expedition"]
    for seed in range(100, 140):  # seed 108 reaches a `choose` at its 65th move
        rng = random.Random(seed)
        state = game.setup(2, None, seed)
        setup = components(state)
        for _ in range(150):
            if game.result(state) is not None:
                break
            seat = game.active_seats(state)[0]
            options = game.legal_moves(state, seat)
            choose = next((o for o in options if o["a"] == "choose"), None)
            if choose is None:
                state = game.apply(state, seat, rng.choice(options))
                continue
            hand = Counter(state["hands"][seat])
            picked: list[str] = []
            move: dict[str, Any] = choose
            for _step in range(10):
                after = game.apply(state, seat, move)
                check_step("expedition", setup, state, after, move)
                state = after
                if state["pick"] is None and move["a"] == "pick":
                    break  # the last pick paid
                move = next(o for o in game.legal_moves(state, seat) if o["a"] == "pick")
                picked.append(move["card"])
                assert Counter(state["hands"][seat]) == hand, "a picked card left the hand before the payment"
            assert state["pick"] is None and picked
            assert hand - Counter(state["hands"][seat]) == Counter(picked)
            return
    pytest.fail("no seeded game reached a payment picked card by card")

