"""Marco Polo II: In the Service of the Khan (Luciani, Tascini): seed 004, the rulebook and decisions.md D.

Owns: set-up (markers, outposts, city cards, contracts, offer tiles, the character draft, 1 of 3 goal cards),
the round (bonuses, new offers and action-area cards, the roll, compensation), the turn (one main action,
bonus actions before and after), the action spaces with their occupancy fee and colour rule, travel and
trading posts, contracts, guild seals, the special cities, city cards, the 7 characters, the Caravans
expansion, final scoring, views and prompts.
Must not: do I/O. Components come from `data` (house data); the shared state helpers from `base`.

Phases: "draft" (one seat at a time), "goals" (all seats at once), "start" (round-start choices, all at
once), "play" (the seat whose turn it is), "over". A choice that a rule asks for is a *pending* item
(`state["pending"]`); a seat with one sees only that item's options. Items a rule creates while another is
being resolved go in front of that seat's items, so nested choices are answered first. Top-level moves in
"play": {"a":"space","space":S} (then {"a":"die","kind":k,"value":v} per die, or "cancel"), the bonus
actions {"a":"fulfil"}, {"a":"improve"}, {"a":"bag"}, {"a":"reroll"}, {"a":"adjust"}, {"a":"black"},
{"a":"tile"} (Filippo), {"a":"caravan"}, {"a":"deliver"} (Caravans), and {"a":"end"}.

Payments: jade may pay for any coin or camel (rulebook "Jade The Special Good"): every paying move is offered
plain (jade only for what coins and camels cannot cover) and with a `jade` split for every other share the jade
held allows (`jade_choices`). VP may be paid below zero (city card).
"""

from __future__ import annotations

import functools
from collections import Counter
from typing import Any

from pydantic import BaseModel, ConfigDict, field_validator

from server.games.base import Move, Rng, State
from server.games.dice import core
from server.games.dice.seating import draft_order, draw_start, turn_order
from server.games.khan import data as D

ROUNDS = 5
DICE_PER_PLAYER = 5
POSTS_PER_PLAYER = 11
MAX_ACTIVE_CONTRACTS = 2
CONTRACT_ACTION_COINS = 3
KHAN_SLOTS = 4
KHAN_REWARD: dict[str, int] = {"coins": 4, "camels": 2}
BAG_REWARD: dict[str, dict[str, int]] = {"coins": {"coins": 3}, "camels": {"camels": 2}, "jade": {"jade": 1}}
TRAVEL1_COINS = 2
REROLL_COST = 1
ADJUST_COST = 2
BLACK_DIE_COST = 3
BLACK_DICE = {2: 4, 3: 5, 4: 6}
MOST_CONTRACTS_VP = 8
SECOND_CONTRACTS_VP = 4
MONGKE_VP = 3
MAX_MOVES_PER_MOVEMENT = 12
START_COINS = 8
START_CAMELS = 3
MAILIN_COINS = 3
ABHA_COINS = 2
#: Isabella's bonus per die rolled: the rulebook example (1, 2, 4, 4, 6 gives "2 coins and 1 point" besides the
#: double 4s) fixes 1 coin per 1 or 6, against the supplement text's "2 coins" (decision in docs/games/khan.md)
ISABELLA_ROLL: dict[int, dict[str, int]] = {
    1: {"coins": 1},
    6: {"coins": 1},
    2: {"vp": 1},
    5: {"vp": 1},
    3: {"camels": 1},
    4: {"camels": 1},
}
ISABELLA_PAIR: dict[int, dict[str, int]] = {
    1: {"jade": 1},
    6: {"jade": 1},
    2: {"silk": 1},
    5: {"silk": 1},
    3: {"gold": 1},
    4: {"gold": 1},
}
CARGO_VP = {"pepper": 2, "silk": 4, "gold": 6}
CARGO_END_VP = {"pepper": 1, "silk": 2, "gold": 3}
UPGRADE = {"pepper": "silk", "silk": "gold"}
CARAVAN_CAPACITY = 2

BOOKS: tuple[str, ...] = ("book1", "book2", "book3a", "book3b")
BOOK_PILE = {"book1": 0, "book2": 1, "book3a": 2, "book3b": 2}
CARAVAN_STEPS = {"book1": 1, "book2": 2, "book3a": 3, "book3b": 3}
TRAVEL_SPACES: dict[str, int] = {"travel1": 1, "travel3": 3, "travel6": 6}
TRAVEL_RANK = {"travel1": 0, "travel3": 1, "travel6": 2}
BLUE_SPACES: tuple[str, ...] = (*BOOKS, "seals", *TRAVEL_SPACES, "contracts")
SLOT_COUNT = len(D.CARD_SLOT_CITIES) + 2
SLOTS: tuple[str, ...] = tuple(f"slot-{i}" for i in range(SLOT_COUNT))
ALL_SPACES: tuple[str, ...] = (*BLUE_SPACES, "khan", *D.SPECIAL_CITIES, *SLOTS)
SPACE_DICE: dict[str, int] = {"seals": 2, "travel1": 1, "travel3": 2, "travel6": 3}
SPACE_MIN: dict[str, int] = {"book2": 3, "book3a": 5, "book3b": 5}
DIE_ORDER = {"own": 0, "black": 1}
FINISHERS: tuple[str, ...] = ("stop", "done", "singles")


class KhanOptions(BaseModel):
    """Room options.

    `caravans`: the Caravans expansion (seed 004). `black_dice_variant`: black dice are rolled at each round
    start and a taken one keeps its value (rulebook variant). `characters` fixes every seat's character (by id,
    seat order) instead of the draft; it exists for tests, simulations and rematches.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)
    caravans: bool = False
    black_dice_variant: bool = False
    characters: tuple[str, ...] | None = None

    @field_validator("characters")
    @classmethod
    def _known_characters(cls, v: tuple[str, ...] | None) -> tuple[str, ...] | None:
        return core.check_characters(v, D.CHARACTERS)


def _times(reward: dict[str, int], n: int) -> dict[str, int]:
    return {k: v * n for k, v in reward.items()}


def afford(p: dict[str, Any], cost: dict[str, int]) -> bool:
    """Whether player map `p` can pay `cost` now (jade covering missing coins and camels; VP may go negative)."""
    jade = cost.get("jade", 0)
    for k, n in cost.items():
        if k in ("coins", "camels"):
            jade += max(0, n - p[k])
        elif k in D.GOODS and p[k] < n:
            return False
    return bool(p["jade"] >= jade)


def pay(p: dict[str, Any], cost: dict[str, int], jade_for: dict[str, int] | None = None) -> None:
    """Pay `cost` (known to be affordable). Without `jade_for`: coins and camels first, jade for the rest; with it
    (one of `jade_choices`): jade stands in for that many of the coins and camels."""
    jade = cost.get("jade", 0)
    for k, n in cost.items():
        if k in ("coins", "camels"):
            take = min(p[k], n) if jade_for is None else n - jade_for.get(k, 0)
            p[k] -= take
            jade += n - take
        elif k in D.GOODS or k == "vp":
            p[k] -= n
    p["jade"] -= jade


def jade_choices(p: dict[str, Any], cost: dict[str, int]) -> list[dict[str, int] | None]:
    """The ways player `p` may pay `cost` with jade standing in for coins or camels at will (rulebook: jade may
    replace any coin or camel): None first (jade only for what coins and camels cannot cover), then every other
    `{"coins": x, "camels": y}` that the jade held can replace. Empty when `cost` cannot be paid."""
    if not afford(p, cost):
        return []
    coins, camels = cost.get("coins", 0), cost.get("camels", 0)
    least_c, least_k = max(0, coins - p["coins"]), max(0, camels - p["camels"])
    spare = p["jade"] - cost.get("jade", 0)
    out: list[dict[str, int] | None] = [None]
    for x in range(least_c, coins + 1):
        for y in range(least_k, camels + 1):
            if (x, y) != (least_c, least_k) and x + y <= spare:
                out.append({"coins": x, "camels": y})
    return out


def with_jade(move: Move, choice: dict[str, int] | None) -> Move:
    """`move` naming the jade it spends (the plain move spends the least)."""
    return move if choice is None else {**move, "jade": choice}


class Khan(core.DiceGame):
    id = "khan"
    title = "Marco Polo II: In the Service of the Khan"
    Options = KhanOptions
    SPACES = ALL_SPACES
    FIRST = "first"
    DIE_ORDER = DIE_ORDER
    POST_VP = D.POST_VP
    GOALS_ASIDE = "goals_rejected"
    QUIET_PENDING = ("goal",)
    CONTRACT_PENDING = ("drawn",)
    #: a seat may take back its turn (dice/core.py `_undo_keeps`; docs/games/khan.md, "Undo")
    offers_undo = True

    # ---- set-up -------------------------------------------------------------------------

    def _setup(self, seats: int, options: Any, rng: Rng) -> State:
        assert isinstance(options, KhanOptions)
        core.check_lineup(options.characters, seats)
        markers = core.shuffled(rng, D.MARKERS, D.token_number)
        n_mark = len(D.MARKER_CITIES)
        outposts = core.shuffled(rng, D.OUTPOSTS, D.token_number)
        n_out = len(D.OUTPOST_CITIES)
        cards = core.shuffled(rng, D.CITY_CARDS, D.token_number)
        starters = core.shuffled(rng, D.STARTERS, D.token_number)
        red = core.shuffled(rng, D.RED_CONTRACTS, D.token_number)
        contract_spaces = {c: [red[2 * i], red[2 * i + 1]] for i, c in enumerate(D.CONTRACT_CITIES)}
        pile = red[2 * len(D.CONTRACT_CITIES) :]
        offer_piles: list[list[str]] = []
        boxed_offers: list[str] = []
        for ids in D.OFFER_PILES:
            tiles = core.shuffled(rng, ids, D.token_number)
            boxed_offers.append(tiles.pop())
            offer_piles.append(tiles)
        offers = [p.pop(0) for p in offer_piles]
        goals = core.shuffled(rng, D.GOALS, D.token_number)
        pool = sorted(D.CHARACTERS)
        if options.characters is None:
            rng.shuffle(pool)
        first = draw_start(rng, seats)  # seat numbers stay the joining order
        players = [
            core.new_player(
                coins=START_COINS,
                camels=START_CAMELS,
                figure=D.BEIJING,
                posts=POSTS_PER_PLAYER,
                starter=starters[s],
                jade=0,
                seals={},
                goals=[],
                goal_offer=sorted(goals[3 * s : 3 * s + 3], key=D.token_number),
                goals_rejected=[],
                tiles=[],
                caravan=None,
            )
            for s in range(seats)
        ]
        state = self._base_state(
            seats,
            options,
            players,
            first=first,
            next_first=None,
            travel_top=-1,
            markers={c: markers[i] for i, c in enumerate(D.MARKER_CITIES)},
            outposts={c: outposts[i] for i, c in enumerate(D.OUTPOST_CITIES)},
            contract_spaces=contract_spaces,
            pile=pile,
            city_cards=cards[: len(D.CARD_SLOT_CITIES)],
            area=cards[len(D.CARD_SLOT_CITIES) : SLOT_COUNT],
            deck=cards[SLOT_COUNT:],
            offers=offers,
            offer_piles=offer_piles,
            boxed={
                "markers": markers[n_mark:],
                "outposts": outposts[n_out:],
                "starters": starters[seats:],
                "offers": boxed_offers,
                "goals": goals[3 * seats :],
            },
            caravan_routes=sorted(D.CARAVAN_ROUTES, key=D.token_number) if options.caravans else [],
            spaces={k: [] for k in BLUE_SPACES},
            special={c: [] for c in D.SPECIAL_CITIES},
            slots_used=[None] * SLOT_COUNT,
            black_pool=[0] * BLACK_DICE[seats],
            seen=sorted(
                [*(c for v in contract_spaces.values() for c in v), *starters[:seats]], key=self._contract_order
            ),
        )
        if options.characters is not None:
            for s, c in enumerate(options.characters):
                self._give_character(state, s, c)
            state["rng"] = rng.seed
            self._after_draft(state)
        else:
            state["draft"] = {"offer": sorted(pool[: seats + 1]), "order": draft_order(first, seats)}
            state["phase"] = "draft"
            state["rng"] = rng.seed
        self._settle(state)
        return state

    def _new_turn_info(self) -> dict[str, Any]:
        return {**super()._new_turn_info(), "fresh": []}  # contracts taken this turn (never discarded in it)

    @staticmethod
    def _contract_order(cid: str) -> tuple[int, int]:
        return (0 if cid.startswith("contract") else 1), D.token_number(cid)

    def _give_character(self, state: State, seat: int, char: str) -> None:
        p = state["players"][seat]
        p["character"] = char
        if char == "mailin":
            p["figures"] = [D.BEIJING, D.BEIJING]
            p["coins"] += MAILIN_COINS

    def _after_draft(self, state: State) -> None:
        state["draft"] = None
        state["phase"] = "goals"
        for s in range(state["seats"]):
            self._push(state, s, [{"kind": "goal"}])

    # ---- rounds and turns ----------------------------------------------------------------

    def _start_round(self, state: State) -> None:
        state["round"] += 1
        seats = state["seats"]
        if state["next_first"] is not None:
            state["first"] = state["next_first"]
        state["next_first"] = None
        state["travel_top"] = -1
        state["spaces"] = {k: [] for k in BLUE_SPACES}
        state["khan"] = []
        state["special"] = {c: [] for c in D.SPECIAL_CITIES}
        for _ in range(max(0, 4 - seats)):
            state["khan"].append(core.neutral(1))
        if seats == 2:
            for c in D.SPECIAL_CITIES:
                state["special"][c].append(core.neutral(1))
            state["spaces"]["book3b"].append(core.neutral(5))
        state["slots_used"] = [None] * SLOT_COUNT
        state["bag"] = []
        rng = Rng(state["rng"])
        n_black = BLACK_DICE[seats]
        if state["options"]["black_dice_variant"]:
            state["black_pool"] = sorted(core.roll(rng) for _ in range(n_black))
        else:
            state["black_pool"] = [0] * n_black
        if state["round"] > 1:
            state["offers"] = [pile.pop(0) for pile in state["offer_piles"]]
            state["area"] = state["deck"][:2]
            del state["deck"][:2]
        self._log(state, {"ev": "round", "round": state["round"], "first": state["first"]})
        order = turn_order(state["first"], seats)
        for s in order:
            state["players"][s]["dice"] = []
        for s in order:
            sources = self._round_bonuses(state, s)
            for _label, reward in sources:
                self._gain(state, s, reward)
            if state["players"][s]["character"] == "mailin" and sources:
                self._push(state, s, [{"kind": "mailin", "sources": [label for label, _ in sources]}])
        for s in order:
            p = state["players"][s]
            p["dice"] = self._roll_dice(rng, "own", DICE_PER_PLAYER)
            values = [v for _, v in p["dice"]]
            items: list[dict[str, Any]] = []
            if p["character"] == "isabella":
                counts = Counter(values)
                if any(n >= 2 for n in counts.values()):
                    items.append({"kind": "isabella", "counts": {str(v): counts[v] for v in sorted(counts)}})
                else:
                    self._isabella(state, s, values)
            amount = core.compensation(values)
            if amount:
                items.append({"kind": "comp", "amount": amount})
                self._bump(state, "compensation")
            self._push(state, s, items)
            self._log(state, {"ev": "roll", "seat": s, "dice": [list(d) for d in p["dice"]]})
        state["rng"] = rng.seed
        state["phase"] = "start"

    def _round_bonuses(self, state: State, seat: int) -> list[tuple[str, dict[str, int]]]:
        """The '!' bonuses `seat` receives at a round start: (label, reward) per source."""
        p = state["players"][seat]
        out: list[tuple[str, dict[str, int]]] = []
        for city in D.MARKER_CITIES:
            if city in p["posts"]:
                out.append((f"marker:{city}", self._marker_reward(state, state["markers"][city])))
        for city in D.SPECIAL_CITIES:
            if city in p["posts"]:
                out.append((f"special:{city}", dict(D.SPECIAL[city]["bonus"])))
        if p["character"] == "abha":
            out.append(("character", {"coins": ABHA_COINS}))
        for t in D.SEALS:
            if p["seals"].get(t) == "improved":
                out.append((f"seal:{t}", dict(D.SEAL[t]["bonus"])))
        return out

    @staticmethod
    def _marker_reward(state: State, marker: str) -> dict[str, int]:
        reward = dict(D.MARKERS[marker]["reward"])
        if "other_marker" in reward:
            reward["other_marker"] = 1
        return reward

    def _source_reward(self, state: State, label: str) -> dict[str, int]:
        kind, _, what = label.partition(":")
        if kind == "marker":
            return self._marker_reward(state, state["markers"][what])
        if kind == "special":
            return dict(D.SPECIAL[what]["bonus"])
        if kind == "seal":
            return dict(D.SEAL[what]["bonus"])
        return {"coins": ABHA_COINS}

    def _turn_ends(self, state: State, seat: int) -> None:
        self._refill_contracts(state)

    def _refill_contracts(self, state: State) -> None:
        drawn: list[str] = []
        for city in D.CONTRACT_CITIES:
            row = state["contract_spaces"][city]
            for i, c in enumerate(row):
                if c is None and state["pile"]:
                    row[i] = state["pile"].pop(0)
                    drawn.append(row[i])
        if drawn:
            self._mark_seen(state, drawn)

    # ---- the turn's top-level options ------------------------------------------------------

    def _bonus_options(self, state: State, seat: int) -> list[Move]:
        p = state["players"][seat]
        opts: list[Move] = []
        for c in p["contracts"]:
            opts.extend(with_jade({"a": "fulfil", "contract": c}, j) for j in jade_choices(p, D.CONTRACTS[c]["cost"]))
        for t in D.SEALS:
            if p["seals"].get(t) == "basic":
                opts.extend(with_jade({"a": "improve", "seal": t}, j) for j in jade_choices(p, D.SEAL[t]["improve"]))
        types = core.die_types(p["dice"])
        for k, v in types:
            opts.extend({"a": "bag", "kind": k, "value": v, "take": t} for t in BAG_REWARD)
        for j in jade_choices(p, {"camels": REROLL_COST}):
            opts.extend(with_jade({"a": "reroll", "kind": k, "value": v}, j) for k, v in types)
        for j in jade_choices(p, {"camels": ADJUST_COST}):
            opts.extend(self._adjust_options(types, None if j is None else {"jade": j}))
        if not state["turn_info"]["black"] and state["black_pool"]:
            for j in jade_choices(p, {"camels": BLACK_DIE_COST}):
                if state["options"]["black_dice_variant"]:
                    opts.extend(with_jade({"a": "black", "value": v}, j) for v in sorted(set(state["black_pool"])))
                else:
                    opts.append(with_jade({"a": "black"}, j))
        opts.extend({"a": "tile", "tile": t} for t in sorted(set(p["tiles"]), key=D.token_number))
        if state["options"]["caravans"]:
            opts.extend(self._caravan_claims(state, seat))
            if p["caravan"] is not None and p["caravan"]["met"] and p["caravan"]["at"] in p["figures"]:
                opts.append({"a": "deliver"})
        return opts

    def _caravan_claims(self, state: State, seat: int) -> list[Move]:
        p = state["players"][seat]
        if p["caravan"] is not None or not any(p[g] > 0 for g in D.GOODS):
            return []
        here = {D.SHIELD_OF[f] for f in p["figures"] if f in D.CITIES}
        opts: list[Move] = []
        for rid in state["caravan_routes"]:
            a, b = D.CARAVAN_ROUTES[rid]["shields"]
            starts: set[str] = set()
            for mine, other in ((a, b), (b, a)):
                if mine in here:
                    starts.update(c for c in D.CITIES if D.SHIELD_OF[c] == other)
            opts.extend({"a": "caravan", "route": rid, "start": c} for c in sorted(starts))
        return opts

    # ---- placing dice ---------------------------------------------------------------------

    def _need(self, state: State, seat: int, space: str) -> int:
        if space == "seals" and state["players"][seat]["character"] == "dewu":
            return 1
        return SPACE_DICE.get(space, 1)

    def _places(self, state: State, space: str) -> list[dict[str, Any]]:
        if space == "khan":
            return state["khan"]  # type: ignore[no-any-return]
        if space in D.SPECIAL:
            return state["special"][space]  # type: ignore[no-any-return]
        if space in BLUE_SPACES:
            return state["spaces"][space]  # type: ignore[no-any-return]
        return []

    def _colour_used(self, state: State, seat: int, space: str) -> bool:
        return core.colour_used(self._places(state, space), seat)

    def _fee(self, state: State, space: str, low: int) -> int:
        return low if space in BLUE_SPACES and state["spaces"][space] else 0

    def _khan_min(self, state: State) -> int:
        return core.khan_min(state["khan"])

    def _space_open(self, state: State, seat: int, space: str) -> bool:
        p = state["players"][seat]
        if space == "khan":
            return len(state["khan"]) < KHAN_SLOTS
        new = state["turn_info"]["posts"]  # a post placed this turn opens its city's action from the next turn
        if space in D.SPECIAL:
            return space in p["posts"] and space not in new and len(state["special"][space]) < 2
        if space in SLOTS:
            i = SLOTS.index(space)
            if state["slots_used"][i] is not None:
                return False
            if i >= len(D.CARD_SLOT_CITIES):
                return True
            city = D.CARD_SLOT_CITIES[i]
            return city in p["posts"] and city not in new
        if space in ("travel3", "travel6"):
            return bool(p["character"] != "gantulga")
        return True

    def _space_ok(self, state: State, seat: int, space: str) -> bool:
        if not self._space_open(state, seat, space):
            return False
        return self._feasible(state, seat, space, [], state["players"][seat]["dice"])

    def _feasible(self, state: State, seat: int, space: str, picked: list[list[Any]], pool: list[list[Any]]) -> bool:
        """Whether `picked` plus some dice of `pool` complete a placement on `space` whose action can be done."""
        need = self._need(state, seat, space) - len(picked)
        own_ok = not self._colour_used(state, seat, space)
        eligible = [v for k, v in pool if own_ok or k != "own"]
        if len(eligible) < need:
            return False
        if picked:
            m = min(v for _, v in picked)
            cands = {m} if need == 0 else {m, *(v for v in eligible if v < m)}
        else:
            cands = set(eligible)
        lo = max(SPACE_MIN.get(space, 1), self._khan_min(state) if space == "khan" else 1)
        for low in sorted(cands, reverse=True):
            if low < lo:
                continue
            if sum(1 for v in eligible if v >= low) < need:
                continue
            if self._action_ok(state, seat, space, low):
                return True
        return False

    def _action_ok(self, state: State, seat: int, space: str, low: int, *, paid: bool = False) -> bool:
        """Whether the action of `space` can be done with lowest die `low` (fee included unless `paid`)."""
        p = state["players"][seat]
        fee = 0 if paid else self._fee(state, space, low)
        if space in TRAVEL_SPACES:
            extra = 0 if paid else fee + (TRAVEL1_COINS if space == "travel1" else 0)
            return self._can_step(state, seat, extra)
        if not afford(p, {"coins": fee}):
            return False
        if space == "seals":
            return bool(self._seal_choices(p, low)) and afford(p, {"coins": fee})
        if space == "contracts":
            return bool(self._contract_takes(state, seat, self._contract_cities(p)))
        if space in SLOTS:
            i = SLOTS.index(space)
            card = state["city_cards"][i] if i < len(D.CARD_SLOT_CITIES) else state["area"][i - len(D.CARD_SLOT_CITIES)]
            return self._card_ok(state, seat, card, low)
        return True

    def _can_step(self, state: State, seat: int, extra_coins: int) -> bool:
        p = state["players"][seat]
        for loc in p["figures"]:
            for _n, c, k, j, seal in D.ADJACENT[loc]:
                if seal is not None and seal not in p["seals"]:
                    continue
                if p["character"] == "gantulga":
                    c = k = 0
                if afford(p, {"coins": c + extra_coins, "camels": k, "jade": j}):
                    return True
        return False

    @staticmethod
    def _seal_choices(p: dict[str, Any], low: int) -> list[str]:
        return [t for t in D.SEALS if t not in p["seals"] and D.SEAL[t]["min_die"] <= low]

    @staticmethod
    def _contract_cities(p: dict[str, Any]) -> list[str]:
        return [c for c in D.CONTRACT_CITIES if c in p["posts"]]

    def _contract_takes(self, state: State, seat: int, cities: list[str]) -> list[Move]:
        """Take moves for one contract from `cities` (naming the old contract to discard when both spaces are full)."""
        p = state["players"][seat]
        fresh = state["turn_info"]["fresh"] if state["phase"] == "play" else []
        discards: list[str | None]
        if len(p["contracts"]) < MAX_ACTIVE_CONTRACTS:
            discards = [None]
        else:
            discards = [c for c in p["contracts"] if c not in fresh]
        opts: list[Move] = []
        for city in cities:
            for cid in state["contract_spaces"][city]:
                if cid is None:
                    continue
                for dc in discards:
                    m: Move = {"a": "take", "contract": cid}
                    if dc is not None:
                        m["discard"] = dc
                    opts.append(m)
        return opts

    def _card_ok(self, state: State, seat: int, card_id: str, low: int) -> bool:
        card = D.CITY_CARDS[card_id]
        p = state["players"][seat]
        kind = card["kind"]
        if kind == "trade":
            return afford(p, card["cost"])
        if kind == "either":
            return any(afford(p, w["cost"]) for w in card["ways"])
        if kind == "city_bonus":
            return bool(self._bonus_cities(p))
        if kind == "seal":
            return bool(self._seal_choices(p, low)) and afford(p, card["cost"])
        if kind == "move":
            return self._can_step(state, seat, 0)
        if kind == "contract":
            return bool(self._contract_takes(state, seat, self._contract_cities(p)))
        return True

    @staticmethod
    def _bonus_cities(p: dict[str, Any]) -> list[str]:
        return [c for c in (*D.MARKER_CITIES, *D.SPECIAL_CITIES) if c in p["posts"]]

    # ---- pending choices ------------------------------------------------------------------

    def _push(self, state: State, seat: int, items: list[dict[str, Any]]) -> None:
        """Put `items` (in order) in front of `seat`'s pending items."""
        pend = state["pending"]
        at = next((i for i, it in enumerate(pend) if it["seat"] == seat), len(pend))
        pend[at:at] = [{"seat": seat, **it} for it in items]

    def _pending_options(self, state: State, item: dict[str, Any]) -> list[Move]:
        kind = item["kind"]
        seat = item["seat"]
        p = state["players"][seat]
        if kind == "goal":
            return [{"a": "goal", "keep": g} for g in p["goal_offer"]]
        if kind == "comp":
            return core.comp_options(item)
        if kind == "isabella":
            pairs = [{"a": "pair", "value": int(v)} for v, n in item["counts"].items() if n >= 2]
            return [*pairs, {"a": "singles"}]
        if kind == "mailin":
            return [{"a": "double", "source": s} for s in item["sources"]]
        if kind == "marker":
            return [
                {"a": "marker", "city": c}
                for c in D.MARKER_CITIES
                if "other_marker" not in D.MARKERS[state["markers"][c]]["reward"]
            ]
        if kind == "good":
            return [{"a": "good", "good": g} for g in D.GOODS]
        if kind == "dice":
            return [*self._die_options(state, seat, item), {"a": "cancel"}]
        if kind == "offer":
            tile = D.OFFER_TILES[state["offers"][BOOK_PILE[item["space"]]]]
            return [{"a": "offer", "i": i} for i, o in enumerate(tile["offers"]) if p["jade"] >= o["jade"]]
        if kind == "seal":
            return [
                with_jade({"a": "seal", "seal": t}, j)
                for t in self._seal_choices(p, item["low"])
                for j in jade_choices(p, item.get("cost", {}))
            ]
        if kind == "travel":
            opts = self._step_options(state, seat, item)
            if item["moves"] > 0 or item["mode"] != "action":
                opts.append({"a": "stop"})
            return opts
        if kind == "extra_post":
            cities = self._extra_post_cities(p, item)
            return [*({"a": "post", "city": c} for c in cities), {"a": "skip"}] if cities else []
        if kind == "mongke":
            return [{"a": "oases", "coins": k} for k in range(item["n"] + 1)]
        if kind == "post_choice":
            return [{"a": "post", "city": c} for c in item["cities"] if c not in p["posts"]]
        if kind == "relocate":
            return [{"a": "relocate", "from": c} for c in p["posts"]]
        if kind == "contracts":
            opts = self._contract_takes(state, seat, self._contract_cities(p)) if len(item["taken"]) < 2 else []
            if item["taken"]:
                opts.append({"a": "done"})
            return opts
        if kind == "city_contract":
            opts = self._contract_takes(state, seat, [item["city"]])
            return [*opts, {"a": "decline"}] if opts else []
        if kind == "take_contract":
            opts = self._contract_takes(state, seat, self._contract_cities(p))
            return [*opts, {"a": "decline"}] if opts else []
        if kind == "drawn":
            return [
                *({"a": "discard", "contract": c} for c in p["contracts"]),
                {"a": "discard", "contract": item["contract"]},
            ]
        if kind == "times":
            ways = self._card_ways(item["card"])
            return [
                with_jade({"a": "times", "way": w, "n": n}, j)
                for w, cap in enumerate(item["caps"])
                for n in range(1, cap + 1)
                for j in jade_choices(p, _times(ways[w]["cost"], n))
            ]
        if kind == "card":
            opts = [{"a": "city", "city": c} for c in self._bonus_cities(p) if c not in item["used"]]
            if item["used"]:
                opts.append({"a": "stop"})
            return opts if item["left"] > 0 else [{"a": "stop"}]
        if kind == "black_pick":
            return [{"a": "black", "value": v} for v in sorted(set(state["black_pool"]))]
        if kind == "load":
            opts = [{"a": "load", "good": g} for g in D.GOODS if p[g] > 0]
            if item["loaded"]:
                opts.append({"a": "stop"})
            return opts if item["loaded"] < CARAVAN_CAPACITY else [{"a": "stop"}]
        if kind == "caravan_move":
            return [*self._caravan_steps(state, seat, item), {"a": "stop"}]
        if kind == "cargo":
            good = item["goods"][0]
            hows = ["double", "upgrade", "vp"] if good in UPGRADE else ["double", "vp"]
            return [{"a": "cargo", "how": h} for h in hows]
        raise AssertionError(kind)  # pragma: no cover

    def _die_options(self, state: State, seat: int, item: dict[str, Any]) -> list[Move]:
        p = state["players"][seat]
        space = item["space"]
        picked = item["picked"]
        opts: list[Move] = []
        for k, v, rest in self._die_candidates(state, seat, item):
            if not self._feasible(state, seat, space, [*picked, [k, v]], rest):
                continue
            m: Move = {"a": "die", "kind": k, "value": v}
            if len(picked) + 1 < self._need(state, seat, space):
                opts.append(m)
                continue
            low = min([v, *(d[1] for d in picked)])
            cost = self._placement_cost(state, space, low)
            opts.extend(
                with_jade(m, j) for j in jade_choices(p, cost) if self._still_ok(state, seat, space, low, cost, j)
            )
        return opts

    def _placement_cost(self, state: State, space: str, low: int) -> dict[str, int]:
        """What placing on `space` with lowest die `low` costs at once: the fee, and the 2 coins of travel1."""
        coins = self._fee(state, space, low) + (TRAVEL1_COINS if space == "travel1" else 0)
        return {"coins": coins} if coins else {}

    def _still_ok(
        self, state: State, seat: int, space: str, low: int, cost: dict[str, int], choice: dict[str, int] | None
    ) -> bool:
        """Whether the action stays doable after paying `cost` with the jade `choice` (None: checked already)."""
        if choice is None:
            return True
        trial = dict(state["players"][seat])
        pay(trial, cost, choice)
        players = list(state["players"])
        players[seat] = trial
        return self._action_ok({**state, "players": players}, seat, space, low, paid=True)

    @staticmethod
    def _pool_left(p: dict[str, Any], picked: list[list[Any]]) -> list[list[Any]]:
        pool = [list(d) for d in p["dice"]]
        for d in picked:
            pool.remove(list(d))
        return pool

    def _step_options(self, state: State, seat: int, item: dict[str, Any]) -> list[Move]:
        """The next steps of a movement, each payable now (one location per move)."""
        p = state["players"][seat]
        if item["moves"] >= MAX_MOVES_PER_MOVEMENT:
            return []
        mongke = p["character"] == "mongke"
        free = p["character"] == "gantulga"
        opts: list[Move] = []
        for f, loc in enumerate(p["figures"]):
            for dest, c, k, j, seal in D.ADJACENT[loc]:
                if seal is not None and seal not in p["seals"]:
                    continue
                counts = not (mongke and dest in D.OASES)
                if counts and item["steps"] >= item["max"]:
                    continue
                if free:
                    c = k = 0
                opts.extend(
                    with_jade({"a": "step", "fig": f, "to": dest}, jc)
                    for jc in jade_choices(p, {"coins": c, "camels": k, "jade": j})
                )
        return opts

    @staticmethod
    def _extra_post_cities(p: dict[str, Any], item: dict[str, Any]) -> list[str]:
        out: list[str] = []
        for c in item["entered"]:
            if c in D.CITIES and c not in p["posts"] and c not in out:
                out.append(c)
        return out

    def _caravan_steps(self, state: State, seat: int, item: dict[str, Any]) -> list[Move]:
        p = state["players"][seat]
        if item["left"] <= 0 or p["caravan"] is None:
            return []
        return [
            {"a": "haul", "to": dest}
            for dest, _c, _k, _j, seal in D.ADJACENT[p["caravan"]["at"]]
            if seal is None or seal in p["seals"]
        ]

    # ---- applying moves -----------------------------------------------------------------

    def _settle_items(self, state: State) -> bool:
        return self._drop_empty(state) or self._auto_finish(state)

    def _auto_finish(self, state: State) -> bool:
        """Resolve a seat's first item whose only option finishes it (stop, done, singles)."""
        for seat in sorted({it["seat"] for it in state["pending"]}):
            item = self._current(state, seat)
            assert item is not None
            opts = self._pending_options(state, item)
            if len(opts) == 1 and opts[0]["a"] in FINISHERS:
                self._resolve(state, seat, item, opts[0])
                return True
        return False

    def _drop_empty(self, state: State) -> bool:
        """Settle the first item (of any seat) that offers no option."""
        for seat in sorted({it["seat"] for it in state["pending"]}):
            item = self._current(state, seat)
            assert item is not None
            if self._pending_options(state, item):
                continue
            if item["kind"] == "travel":
                self._finish_travel(state, item)
            elif item["kind"] == "contracts" and item["taken"]:
                self._finish_contracts(state, item)
            else:
                self._lose(state, item)
            return True
        return False

    def _turn_move(self, state: State, seat: int, move: Move) -> None:
        p = state["players"][seat]
        a = move["a"]
        if a == "space":
            self._push(state, seat, [{"kind": "dice", "space": move["space"], "picked": []}])
        elif a == "fulfil":
            self._fulfil(state, seat, move["contract"], move.get("jade"))
        elif a == "improve":
            self._improve(state, seat, move["seal"], move.get("jade"))
        elif a == "bag":
            p["dice"].remove([move["kind"], move["value"]])
            state["bag"].append({"seat": seat, "dice": [[move["kind"], move["value"]]]})
            self._bump(state, f"bag_{move['take']}")
            self._log(state, {"ev": "bag", "seat": seat, "take": move["take"]})
            self._gain(state, seat, BAG_REWARD[move["take"]])
        elif a == "reroll":
            pay(p, {"camels": REROLL_COST}, move.get("jade"))
            new = self._reroll(state, p, move["kind"], move["value"])
            self._log(state, {"ev": "reroll", "seat": seat, "from": move["value"], "to": new})
            if p["character"] == "isabella":
                self._isabella(state, seat, [new])
        elif a == "adjust":
            pay(p, {"camels": ADJUST_COST}, move.get("jade"))
            self._adjust(state, p, move["kind"], move["value"], move["by"])
            self._log(state, {"ev": "adjust", "seat": seat, "from": move["value"], "by": move["by"]})
        elif a == "black":
            pay(p, {"camels": BLACK_DIE_COST}, move.get("jade"))
            state["turn_info"]["black"] = True
            self._bump(state, "buy_black_die")
            self._take_black(state, seat, move.get("value"))
        elif a == "tile":
            p["tiles"].remove(move["tile"])
            self._bump(state, "filippo_tile")
            self._log(state, {"ev": "tile", "seat": seat, "tile": move["tile"]})
            self._gain(state, seat, D.OUTPOSTS[move["tile"]]["reward"])
        elif a == "caravan":
            state["caravan_routes"].remove(move["route"])
            # "met": the caravan has moved, or a figure ended a movement on it, since the claim; only then may a
            # figure standing with it deliver it (seed 004: where a movement ends, never in passing)
            p["caravan"] = {"route": move["route"], "at": move["start"], "goods": [], "met": False}
            self._bump(state, "caravan_claim")
            self._log(state, {"ev": "caravan", "seat": seat, "route": move["route"], "at": move["start"]})
            self._push(state, seat, [{"kind": "load", "loaded": 0}])
        elif a == "deliver":
            goods = list(p["caravan"]["goods"])
            self._bump(state, "caravan_deliver")
            self._log(state, {"ev": "deliver", "seat": seat, "route": p["caravan"]["route"], "goods": goods})
            p["caravan"] = None
            if goods:
                self._push(state, seat, [{"kind": "cargo", "goods": goods}])
        elif a == "end":
            self._end_turn(state)
        else:  # pragma: no cover
            raise AssertionError(a)

    def _take_black(self, state: State, seat: int, value: int | None) -> None:
        """Take a black die from the board: rolled now, or (variant) the chosen pre-rolled one."""
        p = state["players"][seat]
        if not state["black_pool"]:
            self._bump(state, "no_black_die_left")
            return
        if value is None:
            rng = Rng(state["rng"])
            value = core.roll(rng)
            state["rng"] = rng.seed
            state["black_pool"].pop()
        else:
            state["black_pool"].remove(value)
        self._add_die(p, ["black", value])
        self._log(state, {"ev": "black_die", "seat": seat, "value": value})
        if p["character"] == "isabella":
            self._isabella(state, seat, [value])

    def _isabella(self, state: State, seat: int, values: list[int]) -> None:
        for v in values:
            self._gain(state, seat, ISABELLA_ROLL[v])
        self._bump(state, "isabella_roll")

    def _fulfil(self, state: State, seat: int, cid: str, jade_for: dict[str, int] | None = None) -> None:
        p = state["players"][seat]
        c = D.CONTRACTS[cid]
        pay(p, c["cost"], jade_for)
        p["contracts"].remove(cid)
        p["completed"].append(cid)
        self._bump(state, "fulfil")
        self._log(state, {"ev": "fulfil", "seat": seat, "contract": cid})
        reward = dict(c["reward"])
        if p["character"] == "abha":
            reward["jade"] = reward.get("jade", 0) + 1
        self._gain(state, seat, reward)

    def _improve(self, state: State, seat: int, seal: str, jade_for: dict[str, int] | None = None) -> None:
        p = state["players"][seat]
        pay(p, D.SEAL[seal]["improve"], jade_for)
        p["seals"][seal] = "improved"
        self._bump(state, f"improve_{seal}")
        self._log(state, {"ev": "improve", "seat": seat, "seal": seal})
        reward = dict(D.SEAL[seal]["bonus"])
        if p["character"] == "dewu":
            reward["jade"] = reward.get("jade", 0) + 1
        self._gain(state, seat, reward)

    def _resolve(self, state: State, seat: int, item: dict[str, Any], move: Move) -> None:  # noqa: C901
        p = state["players"][seat]
        kind = item["kind"]
        a = move["a"]
        if kind not in ("dice", "contracts", "travel", "card", "isabella", "load", "caravan_move", "cargo"):
            state["pending"].remove(item)
        if kind == "goal":
            p["goals"] = [move["keep"]]
            p["goals_rejected"] = [g for g in p["goal_offer"] if g != move["keep"]]
            p["goal_offer"] = []
            self._log(state, {"ev": "goal_kept", "seat": seat})
        elif kind == "comp":
            self._compensate(state, seat, item, move)
            self._log(state, {"ev": "compensation", "seat": seat, "coins": move["coins"]})
        elif kind == "isabella":
            if a == "pair":
                item["counts"][str(move["value"])] -= 2
                self._bump(state, "isabella_pair")
                self._gain(state, seat, ISABELLA_PAIR[move["value"]])
            if a == "singles" or not any(n >= 2 for n in item["counts"].values()):
                state["pending"].remove(item)
                self._isabella(state, seat, [int(v) for v, n in item["counts"].items() for _ in range(n)])
        elif kind == "mailin":
            self._bump(state, "mailin_double")
            self._log(state, {"ev": "double", "seat": seat, "source": move["source"]})
            self._gain(state, seat, self._source_reward(state, move["source"]))
        elif kind == "marker":
            self._bump(state, "other_marker")
            self._gain(state, seat, self._marker_reward(state, state["markers"][move["city"]]))
        elif kind == "good":
            p[move["good"]] += 1
        elif kind == "dice":
            if a == "cancel":
                state["pending"].remove(item)
                return
            item["picked"].append([move["kind"], move["value"]])
            if len(item["picked"]) == self._need(state, seat, item["space"]):
                state["pending"].remove(item)
                self._place(state, seat, item["space"], item["picked"], move.get("jade"))
        elif kind == "offer":
            offer = D.OFFER_TILES[state["offers"][BOOK_PILE[item["space"]]]]["offers"][move["i"]]
            p["jade"] -= offer["jade"]
            self._bump(state, f"offer_{move['i']}")
            self._log(state, {"ev": "offer", "seat": seat, "space": item["space"], "i": move["i"]})
            follow = []
            if p["caravan"] is not None:
                follow.append({"kind": "caravan_move", "left": CARAVAN_STEPS[item["space"]]})
            self._push(state, seat, follow)
            self._gain(state, seat, offer["gain"])
        elif kind == "seal":
            if item.get("cost"):
                pay(p, item["cost"], move.get("jade"))
            p["seals"][move["seal"]] = "basic"
            self._bump(state, f"seal_{move['seal']}")
            self._log(state, {"ev": "seal", "seat": seat, "seal": move["seal"]})
            self._gain(state, seat, {"jade": D.SEAL[move["seal"]]["jade"]})
        elif kind == "travel":
            if a == "stop":
                self._finish_travel(state, item)
            else:
                self._step(state, seat, item, move)
        elif kind == "extra_post":
            if a == "post":
                self._bump(state, "extra_post")
                self._place_post(state, seat, move["city"])
        elif kind == "post_choice":
            self._place_post(state, seat, move["city"])
        elif kind == "mongke":
            k = move["coins"]
            self._gain(state, seat, {"coins": 2 * k, "camels": item["n"] - k})
        elif kind == "relocate":
            self._relocate(state, seat, item, move)
        elif kind == "contracts":
            if a == "done":
                self._finish_contracts(state, item)
                return
            self._take_contract(state, seat, move)
            item["taken"].append(move["contract"])
            if len(item["taken"]) >= 2:
                self._finish_contracts(state, item)
        elif kind in ("city_contract", "take_contract"):
            if a == "take":
                self._take_contract(state, seat, move)
        elif kind == "drawn":
            self._discard(state, seat, move["contract"], drawn=item["contract"])
        elif kind == "times":
            way = self._card_ways(item["card"])[move["way"]]
            pay(p, _times(way["cost"], move["n"]), move.get("jade"))
            self._log(state, {"ev": "card_times", "seat": seat, "n": move["n"]})
            self._gain(state, seat, _times(way["reward"], move["n"]))
        elif kind == "card":
            if a == "stop":
                state["pending"].remove(item)
                return
            item["left"] -= 1
            item["used"].append(move["city"])
            if item["left"] <= 0:
                state["pending"].remove(item)
            self._bump(state, "card_city_bonus")
            self._gain(state, seat, self._source_reward(state, self._bonus_label(move["city"])))
        elif kind == "black_pick":
            self._take_black(state, seat, move["value"])
        elif kind == "load":
            if a == "stop":
                state["pending"].remove(item)
                return
            p[move["good"]] -= 1
            p["caravan"]["goods"].append(move["good"])
            item["loaded"] += 1
        elif kind == "caravan_move":
            if a == "stop":
                state["pending"].remove(item)
                return
            p["caravan"]["at"] = move["to"]
            p["caravan"]["met"] = True
            item["left"] -= 1
            self._bump(state, "caravan_step")
            if item["left"] <= 0:
                state["pending"].remove(item)
        elif kind == "cargo":
            good = item["goods"].pop(0)
            if not item["goods"]:
                state["pending"].remove(item)
            how = move["how"]
            self._bump(state, f"cargo_{how}")
            if how == "double":
                p[good] += 2
            elif how == "upgrade":
                p[UPGRADE[good]] += 1
            else:
                p["vp"] += CARGO_VP[good]
        else:  # pragma: no cover
            raise AssertionError(kind)

    @staticmethod
    def _bonus_label(city: str) -> str:
        return f"special:{city}" if city in D.SPECIAL else f"marker:{city}"

    # ---- main actions ---------------------------------------------------------------------

    def _place(
        self, state: State, seat: int, space: str, dice: list[list[Any]], jade_for: dict[str, int] | None = None
    ) -> None:
        p = state["players"][seat]
        for d in dice:
            p["dice"].remove(list(d))
        low = min(v for _, v in dice)
        fee = self._fee(state, space, low)
        cost = self._placement_cost(state, space, low)
        if cost:
            pay(p, cost, jade_for)  # the fee and travel1's 2 coins
        if fee:
            self._bump(state, "occupancy_fee")
        placement = {"seat": seat, "dice": [list(d) for d in dice]}
        if space in SLOTS:
            state["slots_used"][SLOTS.index(space)] = placement
        else:
            self._places(state, space).append(placement)
        state["turn_info"]["main"] = True
        self._bump(state, f"space_{space.split('-')[0]}")
        self._log(state, {"ev": "place", "seat": seat, "space": space, "dice": placement["dice"], "fee": fee})
        if space in BOOKS:
            self._push(state, seat, [{"kind": "offer", "space": space}])
        elif space == "khan":
            self._gain(state, seat, KHAN_REWARD)
        elif space == "seals":
            self._push(state, seat, [{"kind": "seal", "low": low}])
        elif space in TRAVEL_SPACES:
            rank = TRAVEL_RANK[space]
            if rank >= state["travel_top"]:
                state["travel_top"] = rank
                state["next_first"] = seat
            self._push(state, seat, [self._travel_item("action", min(TRAVEL_SPACES[space], low), space == "travel6")])
        elif space == "contracts":
            self._push(state, seat, [{"kind": "contracts", "taken": []}])
        elif space in D.SPECIAL:
            spec = D.SPECIAL[space]
            reward = dict(spec["reward"])
            seal = spec["seal"]
            if p["seals"].get(seal) == "improved":
                times = 2 if low >= D.SPECIAL_TWICE_FROM else 1
                self._bump(state, "special_seal_bonus")
                for k, n in _times(D.SEAL[seal]["bonus"], times).items():
                    reward[k] = reward.get(k, 0) + n
            self._gain(state, seat, reward)
        else:
            i = SLOTS.index(space)
            card = state["city_cards"][i] if i < len(D.CARD_SLOT_CITIES) else state["area"][i - len(D.CARD_SLOT_CITIES)]
            self._run_card(state, seat, card, low)

    @staticmethod
    def _travel_item(mode: str, limit: int, extra: bool = False) -> dict[str, Any]:
        return {
            "kind": "travel",
            "mode": mode,
            "max": limit,
            "steps": 0,
            "moves": 0,
            "moved": [],
            "entered": [],
            "extra": extra,
        }

    def _step(self, state: State, seat: int, item: dict[str, Any], move: Move) -> None:
        p = state["players"][seat]
        f = move["fig"]
        loc = p["figures"][f]
        dest = move["to"]
        _, c, k, j, _seal = next(x for x in D.ADJACENT[loc] if x[0] == dest)
        if p["character"] == "gantulga":
            if c or k:
                self._bump(state, "gantulga_free_route")
            c = k = 0
        pay(p, {"coins": c, "camels": k, "jade": j}, move.get("jade"))
        p["figures"][f] = dest
        item["moves"] += 1
        if not (p["character"] == "mongke" and dest in D.OASES):
            item["steps"] += 1
        if f not in item["moved"]:
            item["moved"].append(f)
        item["entered"].append(dest)
        self._log(state, {"ev": "step", "seat": seat, "fig": f, "from": loc, "to": dest})

    def _finish_travel(self, state: State, item: dict[str, Any]) -> None:
        state["pending"].remove(item)
        seat = item["seat"]
        p = state["players"][seat]
        self._bump(state, f"travel_{item['mode']}")
        if not item["moves"]:
            return
        caravan = p["caravan"]
        if caravan is not None and any(p["figures"][f] == caravan["at"] for f in item["moved"]):
            # a figure meets its caravan where a movement ends, never by passing through (seed 004)
            caravan["met"] = True
        if item["extra"]:
            self._push(state, seat, [{"kind": "extra_post", "entered": list(item["entered"])}])
        if p["character"] == "mongke":
            oases = sorted({x for x in item["entered"] if x in D.OASES})
            if oases:
                p["vp"] += MONGKE_VP * len(oases)
                self._bump(state, "mongke_oases")
                self._push(state, seat, [{"kind": "mongke", "n": len(oases)}])
        ends: list[str] = []
        for f in sorted(item["moved"]):
            city = p["figures"][f]
            if city in D.CITIES and city not in p["posts"] and city not in ends:
                ends.append(city)
        if item["mode"] != "action" and len(ends) > 1:
            # a move from a card or a reward places 1 post at most (rulebook supplement): Mailin chooses where
            self._push(state, seat, [{"kind": "post_choice", "cities": ends}])
            return
        for city in reversed(ends):
            self._place_post(state, seat, city)

    def _out_of_posts(self, state: State, seat: int, city: str) -> None:
        self._push(state, seat, [{"kind": "relocate", "city": city}])

    def _post_effects(self, state: State, seat: int, city: str) -> None:
        self._record_post(state, seat, city)
        follow: list[dict[str, Any]] = []
        if city in D.CONTRACT_CITIES and any(state["contract_spaces"][city]):
            follow.append({"kind": "city_contract", "city": city})
        self._push(state, seat, follow)
        if city in state["markers"]:
            self._bump(state, "city_bonus")
            self._gain(state, seat, self._marker_reward(state, state["markers"][city]))
        if city in D.SPECIAL:
            self._bump(state, "special_bonus")
            self._gain(state, seat, D.SPECIAL[city]["bonus"])
        tile = state["outposts"].get(city)
        if tile is not None:
            state["outposts"][city] = None
            self._bump(state, "outpost_bonus")
            self._log(state, {"ev": "outpost", "seat": seat, "city": city, "tile": tile})
            self._gain(state, seat, D.OUTPOSTS[tile]["reward"])
            keeper = next((s for s, q in enumerate(state["players"]) if q["character"] == "filippo"), None)
            if keeper is not None:
                state["players"][keeper]["tiles"].append(tile)
                self._bump(state, "filippo_keeps")

    def _take_contract(self, state: State, seat: int, move: Move) -> None:
        p = state["players"][seat]
        cid = move["contract"]
        if "discard" in move:
            self._discard(state, seat, move["discard"])
        for row in state["contract_spaces"].values():
            if cid in row:
                row[row.index(cid)] = None
        p["contracts"].append(cid)
        state["turn_info"]["fresh"].append(cid)
        self._bump(state, "take_contract")
        self._log(state, {"ev": "take_contract", "seat": seat, "contract": cid})

    def _discard(self, state: State, seat: int, cid: str, drawn: str | None = None) -> None:
        """Discard `cid` (an active contract, or the just-drawn one): starters to the box, others under the pile."""
        p = state["players"][seat]
        if cid in p["contracts"]:
            p["contracts"].remove(cid)
        if drawn is not None and drawn != cid:
            p["contracts"].append(drawn)
        if cid in D.STARTERS:
            state["boxed"]["starters"].append(cid)
        else:
            state["pile"].append(cid)
        self._bump(state, "discard_contract")
        self._log(state, {"ev": "discard", "seat": seat, "contract": cid})

    def _finish_contracts(self, state: State, item: dict[str, Any]) -> None:
        state["pending"].remove(item)
        self._gain(state, item["seat"], {"coins": CONTRACT_ACTION_COINS})

    def _draw_contract(self, state: State, seat: int) -> dict[str, Any] | None:
        if not state["pile"]:
            self._bump(state, "pile_empty")
            return None
        cid: str = state["pile"].pop(0)
        self._mark_seen(state, [cid])
        p = state["players"][seat]
        self._bump(state, "draw_contract")
        self._log(state, {"ev": "draw_contract", "seat": seat, "contract": cid})
        if len(p["contracts"]) < MAX_ACTIVE_CONTRACTS:
            p["contracts"].append(cid)
            return None
        return {"kind": "drawn", "contract": cid}

    def _gain(self, state: State, seat: int, reward: dict[str, int]) -> None:
        """Receive a reward; rewards that need a choice become pending items (in reward order)."""
        p = state["players"][seat]
        items: list[dict[str, Any]] = []
        for k, n in reward.items():
            if n <= 0:
                continue
            if k in D.RESOURCES:
                p[k] += n
                if k == "jade" and p["character"] == "abha":
                    p["vp"] += n
                    self._bump(state, "abha_jade_vp")
            elif k == "good":
                items.extend({"kind": "good"} for _ in range(n))
            elif k == "black_die":
                for _ in range(n):
                    if state["options"]["black_dice_variant"]:
                        items.append({"kind": "black_pick"})
                    else:
                        self._take_black(state, seat, None)
            elif k == "move":
                items.append(self._travel_item("free", n))
            elif k == "contract":
                items.append({"kind": "take_contract"})
            elif k == "draw_contract":
                for _ in range(n):
                    drawn = self._draw_contract(state, seat)
                    if drawn is not None:
                        items.append(drawn)
            elif k == "other_marker":
                items.append({"kind": "marker"})
            else:  # pragma: no cover
                raise AssertionError(k)
        self._push(state, seat, items)

    # ---- city cards -------------------------------------------------------------------------

    def _run_card(self, state: State, seat: int, card_id: str, d: int) -> None:
        card = D.CITY_CARDS[card_id]
        p = state["players"][seat]
        kind = card["kind"]
        self._bump(state, f"card_{kind}")
        if kind == "count":
            have = len(p["completed"]) if card["counts"] == "contracts" else len(p["posts"])
            self._gain(state, seat, _times(card["reward"], min(have, d)))
        elif kind == "per_pip":
            self._gain(state, seat, _times(card["reward"], d))
        elif kind == "by_die":
            self._gain(state, seat, card["rewards"][d - 1])
        elif kind in ("trade", "either"):
            ways = self._card_ways(card_id)
            caps = [self._affordable_times(p, w["cost"], d) for w in ways]
            if sum(caps) == 1 and len(jade_choices(p, ways[caps.index(1)]["cost"])) == 1:
                w = caps.index(1)
                pay(p, ways[w]["cost"])
                self._gain(state, seat, ways[w]["reward"])
            else:
                self._push(state, seat, [{"kind": "times", "card": card_id, "caps": caps}])
        elif kind == "city_bonus":
            self._push(
                state, seat, [{"kind": "card", "card": card_id, "left": card["times_by_die"][d - 1], "used": []}]
            )
        elif kind == "seal":  # the card's camel is paid with the seal chosen (jade may pay it: `seal` options)
            self._push(state, seat, [{"kind": "seal", "low": d, "cost": dict(card["cost"])}])
        elif kind == "move":
            self._push(state, seat, [self._travel_item("free", card["steps_by_die"][d - 1])])
        elif kind == "contract":
            self._push(state, seat, [{"kind": "take_contract"}])
            self._gain(state, seat, _times(card["reward_per_pip"], d))
        else:  # pragma: no cover
            raise AssertionError(kind)

    @staticmethod
    def _card_ways(card_id: str) -> list[dict[str, Any]]:
        """The ways of a trade card: its cost and reward, or each of an either card's two."""
        card = D.CITY_CARDS[card_id]
        return list(card["ways"]) if card["kind"] == "either" else [card]

    @staticmethod
    def _affordable_times(p: dict[str, Any], cost: dict[str, int], limit: int) -> int:
        n = 0
        while n < limit and afford(p, _times(cost, n + 1)):
            n += 1
        return n

    # ---- scoring ------------------------------------------------------------------------

    def _final_scoring(self, state: State) -> None:
        players = state["players"]
        seats = state["seats"]
        counts = [len(p["completed"]) for p in players]
        top = max(counts)
        firsts = [s for s in range(seats) if top > 0 and counts[s] == top]
        seconds: list[int] = []
        if len(firsts) == 1 and seats > 2:
            rest = [c for c in counts if c < top]
            second = max(rest) if rest else 0
            seconds = [s for s in range(seats) if second > 0 and counts[s] == second]
        breakdown = []
        for s, p in enumerate(players):
            shields = {D.SHIELD_OF[c] for c in p["posts"] if c in D.SHIELD_OF}
            plus = 1 if p["character"] == "dewu" else 0
            seal_vp = 0
            for g in p["goals"]:
                for icon in D.GOALS[g]["icons"]:
                    if "seal" in icon and p["seals"].get(icon["seal"]) == "improved":
                        seal_vp += icon["vp"]
                    elif "shield" in icon and icon["shield"] in shields:
                        plus += 1
            n_shields = len(shields) + plus
            caravan = p["caravan"]
            b = {
                "in_game": p["vp"],
                "goal_seals": seal_vp,
                "shields": D.SHIELD_TRACK[min(n_shields, len(D.SHIELD_TRACK) - 1)],
                "shield_count": n_shields,
                "goods": (p["pepper"] + p["silk"] + p["gold"] + p["jade"]) // 2,
                "coins": p["coins"] // 10,
                "contracts": MOST_CONTRACTS_VP if s in firsts else SECOND_CONTRACTS_VP if s in seconds else 0,
                "caravan": sum(CARGO_END_VP[g] for g in caravan["goods"]) if caravan else 0,
            }
            b["total"] = sum(v for k, v in b.items() if k != "shield_count")
            breakdown.append(b)
        state["pending"] = []
        self._finish(state, breakdown)

    # ---- views --------------------------------------------------------------------------

    PROMPTS = {
        **core.COMMON_PROMPTS,
        "goal": "Keep 1 of your 3 goal cards.",
        "isabella": "Take a doubles bonus for a pair of your dice, or the single bonuses for the rest.",
        "mailin": "Choose one of this round's bonuses to receive a second time.",
        "marker": "Take the bonus of another city-bonus marker.",
        "offer": "Choose one offer of the book.",
        "seal": "Choose your guild seal.",
        "travel": "Move one location, or stop here.",
        "extra_post": "Place your extra trading post in a city you moved through, or skip.",
        "mongke": "Oasis bonus: choose how many times 2 coins (the rest 1 camel each).",
        "post_choice": "This move places one trading post: choose the city where it goes.",
        "city_contract": "Take one of this city's contracts, or decline.",
        "take_contract": "Take a contract from a city with your trading post, or decline.",
        "drawn": "Both contract spaces are full: discard an old contract or the new one.",
        "card": "Take the bonus of one of your bonus cities (a different one each time), or stop.",
        "black_pick": "Choose a black die from the board.",
        "load": "Load a good onto your caravan (up to 2), or stop.",
        "caravan_move": "Move your caravan one location, or stop.",
        "cargo": "Your caravan arrived: double, upgrade or sell its next good.",
    }

    def _token_order(self, token: str) -> tuple[int, int]:
        return self._contract_order(token)

    # The views of cards, tiles and markers depend on their id alone: each is built once and the same object is
    # in every view that shows it (views are never changed once built), so a diff skips it by identity.

    @staticmethod
    @functools.cache
    def _contract_view(cid: str) -> dict[str, Any]:
        c = D.CONTRACTS[cid]
        return {"id": cid, "cost": dict(c["cost"]), "reward": dict(c["reward"]), "starting": cid in D.STARTERS}

    @staticmethod
    @functools.cache
    def _reward_view(kind: str, tid: str) -> dict[str, Any]:
        """A marker's (`kind` "marker") or an outpost tile's reward, with its id."""
        data = D.MARKERS if kind == "marker" else D.OUTPOSTS
        return {"id": tid, "reward": dict(data[tid]["reward"])}

    @staticmethod
    @functools.cache
    def _card_view(cid: str) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for k, v in D.CITY_CARDS[cid].items():
            if isinstance(v, dict):
                out[k] = dict(v)
            elif isinstance(v, list):
                out[k] = [dict(x) if isinstance(x, dict) else x for x in v]
            else:
                out[k] = v
        return out

    @staticmethod
    @functools.cache
    def _route_view(rid: str) -> dict[str, Any]:
        return {"id": rid, "shields": list(D.CARAVAN_ROUTES[rid]["shields"])}

    @staticmethod
    @functools.cache
    def _tile_view(tid: str) -> dict[str, Any]:
        t = D.OFFER_TILES[tid]
        return {
            "id": tid,
            "pile": t["pile"],
            "offers": [{"jade": o["jade"], "gain": dict(o["gain"])} for o in t["offers"]],
        }

    def _public_view(self, state: State) -> dict[str, Any]:
        n_cities = len(D.CARD_SLOT_CITIES)
        cards = [*state["city_cards"], *state["area"]]
        return {
            **self._common_view(state),
            "board": D.BOARD_VIEW,
            "first": state["first"],
            "next_first": state["next_first"],
            "contract_spaces": {
                c: [None if x is None else self._contract_view(x) for x in row]
                for c, row in state["contract_spaces"].items()
            },
            "pile": len(state["pile"]),
            "city_cards": [
                self._city_card_view(
                    i,
                    D.CARD_SLOT_CITIES[i] if i < n_cities else None,
                    self._card_view(c),
                    state["slots_used"][i],
                    space=SLOTS[i],
                )
                for i, c in enumerate(cards)
            ],
            "deck": len(state["deck"]),
            "offers": [self._tile_view(t) for t in state["offers"]],
            "next_offers": [self._tile_view(p[0]) if p else None for p in state["offer_piles"]],
            "offers_left": [len(p) for p in state["offer_piles"]],
            "markers": {c: self._reward_view("marker", m) for c, m in state["markers"].items()},
            "outposts": {
                c: (None if t is None else self._reward_view("outpost", t)) for c, t in state["outposts"].items()
            },
            "caravan_routes": [self._route_view(r) for r in state["caravan_routes"]],
            "black_dice": list(state["black_pool"]),
            "special": {c: self._placements(v) for c, v in state["special"].items()},
            "players": self._players_view(state, D.RESOURCES, self._khan_player),
        }

    @staticmethod
    def _khan_player(p: dict[str, Any]) -> dict[str, Any]:
        """The public parts of a player that only this game has."""
        return {
            "seals": dict(p["seals"]),
            "tiles": [Khan._reward_view("outpost", t) for t in p["tiles"]],
            "caravan": None if p["caravan"] is None else {**p["caravan"], "goods": list(p["caravan"]["goods"])},
        }

    @staticmethod
    @functools.cache
    def _goal_view(gid: str) -> dict[str, Any]:
        return {"id": gid, "icons": [dict(i) for i in D.GOALS[gid]["icons"]]}

    def _face_down(self, state: State) -> list[list[Any]]:
        """The contract pile, the city-card deck, the offer-tile piles (one after the other; their visible tops
        change only at a round start) and the box."""
        boxed = state["boxed"]
        return [
            state["pile"],
            state["deck"],
            [t for pile in state["offer_piles"] for t in pile],
            boxed["markers"],
            boxed["outposts"],
            boxed["starters"],
            boxed["offers"],
            boxed["goals"],
        ]

    def hidden_tokens(self, state: State) -> list[str]:
        seen = set(state["seen"])
        boxed = state["boxed"]
        contracts = [c for c in [*state["pile"], *boxed["starters"]] if c not in seen]
        deep_offers = [t for pile in state["offer_piles"] for t in pile[1:]]
        return [
            *contracts,
            *state["deck"],
            *deep_offers,
            *boxed["offers"],
            *boxed["outposts"],
            *boxed["markers"],
            *boxed["goals"],
        ]


GAME = Khan()
