"""The Voyages of Marco Polo (Luciani, Tascini): seed 003 with the rulebook and decisions.md C.

Owns: set-up (beginner and expert: city bonuses, character draft, goal cards 4-keep-2), the round (income,
roll, compensation), the turn (one main action, bonus actions before and after), the action spaces with
their occupancy fee and colour rule, travel and trading posts, city cards, contracts, the 8 characters,
round end, final scoring, views and prompts.
Must not: do I/O. Components come from `data`.

Phases: "draft" (expert character draft, one seat at a time), "goals" (expert goal cards, all at once),
"start" (round-start choices: city bonuses, Matteo's contract, compensation; all at once), "play", "over".
A choice that a rule asks for is a *pending* item (`state["pending"]`, first in first out per seat); while a
seat has one, its prompt lists only that item's options. Turn moves in "play" without a pending item:
  {"a":"space","space":S} choose a main action (then {"a":"die","kind":k,"value":v} per die, or "cancel"),
  {"a":"fulfil","contract":id}, {"a":"bag","kind":k,"value":v}, {"a":"reroll",...}, {"a":"adjust",...,"by":+-1},
  {"a":"black"}, and {"a":"end"} once the main action is done (or the seat has no die left).
"""

from __future__ import annotations

import functools
from itertools import combinations
from typing import Any

from pydantic import BaseModel, ConfigDict, field_validator

from server.games.base import Move, Rng, State
from server.games.dice import core
from server.games.dice.seating import clockwise, draft_order, draw_start, turn_order
from server.games.voyages import data as D

ROUNDS = 5
DICE_PER_PLAYER = 5
POSTS_PER_PLAYER = 9
MAX_ACTIVE_CONTRACTS = 2
DISPLAY_SIZE = 6
BLUE_SPACES: tuple[str, ...] = ("coins", "camels", "pepper", "silk", "gold", "contracts", "travel")
BAZAAR_SPACES: tuple[str, ...] = ("camels", "pepper", "silk", "gold")
SPACE_DICE: dict[str, int] = {
    "coins": 1,
    "camels": D.BAZAAR["camels"]["dice"],
    "pepper": D.BAZAAR["pepper"]["dice"],
    "silk": D.BAZAAR["silk"]["dice"],
    "gold": D.BAZAAR["gold"]["dice"],
    "khan": 1,
    "contracts": 1,
    "travel": 2,
}
CARD_SPACES: tuple[str, ...] = tuple(f"card-{i}" for i in range(len(D.CITY_CARD_SLOTS)))
ALL_SPACES: tuple[str, ...] = (*SPACE_DICE, *CARD_SPACES)
KHAN_SLOTS = 4
DIE_ORDER = {"own": 0, "white": 1, "black": 2}
GOOD_PAIRS: tuple[tuple[str, str], ...] = tuple(combinations(D.GOODS, 2))
ADJUST_COST = 2
REROLL_COST = 1
BLACK_DIE_COST = 3
BAG_COINS = 3
TAKE_COINS = 5
MOST_CONTRACTS_VP = 7
WILHELM_ALL_POSTS_VP = 10
WILHELM_POSTS = 11


class VoyagesOptions(BaseModel):
    """Room options. `expert` turns on all three expert distributions; each may also be chosen alone.

    `characters` fixes the character of every seat (by id, seat order) and overrides the beginner set and
    the draft; it exists for tests, simulations and rematches.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)
    expert: bool = False
    random_city_bonuses: bool = False
    character_draft: bool = False
    goal_draft: bool = False
    characters: tuple[str, ...] | None = None

    @field_validator("characters")
    @classmethod
    def _known_characters(cls, v: tuple[str, ...] | None) -> tuple[str, ...] | None:
        return core.check_characters(v, D.CHARACTERS)


class Voyages(core.DiceGame):
    id = "voyages"
    title = "The Voyages of Marco Polo"
    Options = VoyagesOptions
    SPACES = ALL_SPACES
    FIRST = "start_player"
    DIE_ORDER = DIE_ORDER
    POST_VP = D.POST_BONUS_VP
    GOALS_ASIDE = "goals_discarded"
    QUIET_PENDING = ("goals",)
    #: (`boxed`: the components left in the box, never changed once the game is set up)
    unchanged_keys = frozenset({"seen", "options", "boxed"})
    CONTRACT_PENDING = ("keep",)
    #: a seat may take back its turn (dice/core.py `_undo_keeps`; docs/games/voyages.md, "Undo")
    offers_undo = True

    # ---- set-up -------------------------------------------------------------------------

    def _setup(self, seats: int, options: Any, rng: Rng) -> State:
        assert isinstance(options, VoyagesOptions)
        core.check_lineup(options.characters, seats)
        expert = options.expert
        draft = (expert or options.character_draft) and options.characters is None
        goal_draft = expert or options.goal_draft
        markers = sorted(D.MARKERS)
        if expert or options.random_city_bonuses:
            rng.shuffle(markers)
            city_bonus = {str(c): m for c, m in zip(D.SMALL_CITIES, markers, strict=True)}
        else:
            city_bonus = {str(D.MARKERS[m]["beginner_city"]): m for m in markers}
        tiles = core.shuffled(rng, D.OUTPOSTS, D.token_number)
        outposts: dict[str, str | None] = {str(c): tiles[i] for i, c in enumerate(D.LARGE_CITIES)}
        cards = core.shuffled(rng, D.CITY_CARDS, D.token_number)
        n_slots = len(D.CITY_CARD_SLOTS)
        starters = core.shuffled(rng, D.STARTERS, D.token_number)
        others = core.shuffled(rng, D.NON_STARTERS, D.token_number)
        piles = [others[i * DISPLAY_SIZE : (i + 1) * DISPLAY_SIZE] for i in range(ROUNDS)]
        special = others[ROUNDS * DISPLAY_SIZE :]
        goals = core.shuffled(rng, D.GOALS, D.token_number)
        per = 4 if goal_draft else 2
        dealt = [sorted(goals[i * per : (i + 1) * per], key=D.token_number) for i in range(seats)]
        pool = sorted(D.CHARACTERS)
        if draft:
            rng.shuffle(pool)
        start = draw_start(rng, seats)  # seat numbers stay the joining order
        players = [
            core.new_player(
                coins=7 + clockwise(start, s, seats),
                camels=2,
                figure=D.VENEZIA,
                posts=POSTS_PER_PLAYER,
                starter=starters[s],
                goals=[] if goal_draft else dealt[s],
                goal_offer=dealt[s] if goal_draft else [],
                goals_discarded=[],
            )
            for s in range(seats)
        ]
        display = piles.pop(0)
        state = self._base_state(
            seats,
            options,
            players,
            start_player=start,
            last_traveller=None,
            display=display,
            piles=piles,
            special=special,
            boxed={
                "contracts": starters[seats:],
                "city_cards": cards[n_slots:],
                "outposts": tiles[len(D.LARGE_CITIES) :],
                "goals": goals[seats * per :],
            },
            city_cards=cards[:n_slots],
            card_used=[None] * n_slots,
            outposts=outposts,
            city_bonus=city_bonus,
            beijing=[],
            black_pool=seats + 1,
            spaces={k: [] for k in BLUE_SPACES},
            seen=sorted([*display, *starters[:seats]], key=D.token_number),
        )
        if options.characters is not None:
            for s, c in enumerate(options.characters):
                self._give_character(state, s, c)
        elif not draft:
            for s in range(seats):
                self._give_character(state, s, D.BEGINNER_CHARACTERS[clockwise(start, s, seats)])
        if draft:
            state["draft"] = {"offer": sorted(pool[: seats + 1]), "order": draft_order(start, seats)}
            state["phase"] = "draft"
            state["rng"] = rng.seed
            return state
        state["rng"] = rng.seed
        self._after_draft(state)
        self._settle(state)
        return state

    def _give_character(self, state: State, seat: int, char: str) -> None:
        p = state["players"][seat]
        p["character"] = char
        if char == "kubilai":
            p["figures"] = [D.BEIJING]
            p["posts_left"] -= 1
            p["placed"] += 1
            p["posts"].append(D.BEIJING)
            state["beijing"].append(seat)
        elif char == "niccolo":
            p["figures"] = [D.VENEZIA, D.VENEZIA]
        elif char == "wilhelm":
            p["posts_left"] = WILHELM_POSTS

    def _after_draft(self, state: State) -> None:
        state["draft"] = None
        if any(p["goal_offer"] for p in state["players"]):
            state["phase"] = "goals"
            for s in range(state["seats"]):
                self._push(state, s, "goals")
            return
        self._start_round(state)

    # ---- rounds and turns ----------------------------------------------------------------

    def _start_round(self, state: State) -> None:
        state["round"] += 1
        seats = state["seats"]
        if state["last_traveller"] is not None:
            state["start_player"] = state["last_traveller"]
        state["last_traveller"] = None
        state["spaces"] = {k: [] for k in BLUE_SPACES}
        state["khan"] = []
        if seats == 2:
            state["spaces"]["coins"].append(core.neutral(1))
        for _ in range(max(0, 4 - seats)):
            state["khan"].append(core.neutral(1))
        state["bag"] = []
        state["card_used"] = [None] * len(D.CITY_CARD_SLOTS)
        state["black_pool"] = seats + 1
        self._log(state, {"ev": "round", "round": state["round"], "start_player": state["start_player"]})
        order = turn_order(state["start_player"], seats)
        for s in order:  # 2. city and character bonuses
            p = state["players"][s]
            p["dice"] = []
            for city in p["posts"]:
                if D.NODE_TYPE[city] == "small":
                    self._city_bonus(state, s, city)
            char = p["character"]
            if char == "carpini":
                self._gain(state, s, {"coins": 3})
            elif char == "niccolo":
                self._gain(state, s, {"camels": 1})
            elif char == "matteo":
                self._draw_special(state, s)
        rng = Rng(state["rng"])
        for s in order:  # 3.-4. retrieve and roll the dice, compensation
            p = state["players"][s]
            if p["character"] == "raschid":
                p["dice"] = [["own", 0] for _ in range(DICE_PER_PLAYER)]
            else:
                p["dice"] = self._roll_dice(rng, "own", DICE_PER_PLAYER)
                if p["character"] == "matteo":
                    self._add_die(p, ["white", core.roll(rng)])
                amount = core.compensation([v for _, v in p["dice"]])
                if amount:
                    self._push(state, s, "comp", amount=amount)
                    self._bump(state, "compensation")
            self._log(state, {"ev": "roll", "seat": s, "dice": [list(d) for d in p["dice"]]})
        state["rng"] = rng.seed
        state["phase"] = "start"

    def _turn_begins(self, state: State, seat: int) -> None:
        if not state["display"] and state["special"]:  # an empty display takes 2 special contracts
            drawn = state["special"][:2]
            del state["special"][:2]
            state["display"] = drawn
            self._mark_seen(state, drawn)
            self._bump(state, "display_refill")
            self._log(state, {"ev": "display_refill", "contracts": list(drawn)})

    def _round_ends(self, state: State) -> None:
        state["special"].extend(state["display"])
        state["display"] = []
        if state["round"] < ROUNDS:
            state["display"] = state["piles"].pop(0)
            self._mark_seen(state, state["display"])

    # ---- the turn's top-level options --------------------------------------------------------

    def _bonus_options(self, state: State, seat: int) -> list[Move]:
        p = state["players"][seat]
        opts: list[Move] = []
        for cid in p["contracts"]:
            if self._can_pay(p, D.CONTRACTS[cid]["cost"]):
                opts.append({"a": "fulfil", "contract": cid})
        types = core.die_types(p["dice"])
        opts.extend({"a": "bag", "kind": k, "value": v} for k, v in types)
        if p["camels"] >= REROLL_COST:
            opts.extend({"a": "reroll", "kind": k, "value": v} for k, v in types if v > 0)
        if p["camels"] >= ADJUST_COST:
            opts.extend(self._adjust_options(types))
        if p["camels"] >= BLACK_DIE_COST and state["black_pool"] > 0 and not state["turn_info"]["black"]:
            opts.append({"a": "black"})
        return opts

    def _colour_used(self, state: State, seat: int, space: str) -> bool:
        if space == "khan":
            return core.colour_used(state["khan"], seat)
        return space in BLUE_SPACES and core.colour_used(state["spaces"][space], seat)

    def _occupied(self, state: State, space: str) -> bool:
        return space in BLUE_SPACES and bool(state["spaces"][space])

    def _fee(self, state: State, seat: int, space: str, low: int) -> int:
        if not self._occupied(state, space) or state["players"][seat]["character"] == "berke":
            return 0
        return low

    def _khan_min(self, state: State) -> int:
        return core.khan_min(state["khan"])

    def _space_open(self, state: State, seat: int, space: str) -> bool:
        """Whether `space` can take a placement of `seat` at all (dice aside)."""
        if space == "khan":
            return len(state["khan"]) < KHAN_SLOTS
        if space in CARD_SPACES:
            slot = CARD_SPACES.index(space)
            city = D.CITY_CARD_SLOTS[slot]
            # a post placed this turn (e.g. by a bonus move before the main action) opens the card next turn
            new = city in state["turn_info"]["posts"]
            return state["card_used"][slot] is None and city in state["players"][seat]["posts"] and not new
        return True

    def _space_ok(self, state: State, seat: int, space: str) -> bool:
        if not self._space_open(state, seat, space):
            return False
        p = state["players"][seat]
        own_ok = not self._colour_used(state, seat, space)
        raschid = p["character"] == "raschid"
        need = SPACE_DICE.get(space, 1)
        values = sorted((1 if raschid and k == "own" else v) for k, v in p["dice"] if own_ok or k != "own")
        if len(values) < need:
            return False
        if space == "khan":
            lo = self._khan_min(state)
            return any((own_ok or k != "own") and (v >= lo or (raschid and k == "own")) for k, v in p["dice"])
        low = values[0]
        fee = self._fee(state, seat, space, low)
        if p["coins"] < fee:
            return False
        return self._action_ok(state, seat, space, low, p["coins"] - fee)

    def _action_ok(self, state: State, seat: int, space: str, low: int, coins: int) -> bool:
        p = state["players"][seat]
        if space == "travel":
            return bool(self._steps(state, seat, p, "action", 0, coins=coins))
        if space == "contracts":
            return bool(state["display"])
        if space in CARD_SPACES:
            return self._card_ok(state, seat, state["city_cards"][CARD_SPACES.index(space)], low)
        return True

    def _card_ok(self, state: State, seat: int, card_id: str, low: int) -> bool:
        card = D.CITY_CARDS[card_id]
        p = state["players"][seat]
        kind = card["kind"]
        if kind == "trade":
            if "move" in card["reward"]:
                mode = "goods" if "two_goods" in card["cost"] else "camels"
                return bool(self._steps(state, seat, p, mode, 0))
            return self._can_pay(p, card["cost"])
        if kind == "either":
            return any(self._can_pay(p, w["cost"]) for w in card["ways"])
        if kind == "city_bonus":
            return any(D.NODE_TYPE[c] == "small" for c in p["posts"]) and self._can_pay(p, card["cost"])
        return True

    @staticmethod
    def _can_pay(p: dict[str, Any], cost: dict[str, int]) -> bool:
        for k, n in cost.items():
            if k == "any_good":
                if sum(p[g] for g in D.GOODS) < n:
                    return False
            elif k == "two_goods":
                if sum(1 for g in D.GOODS if p[g] > 0) < 2:
                    return False
            elif p[k] < n:
                return False
        return True

    # ---- pending choices ------------------------------------------------------------------

    def _push(self, state: State, seat: int, kind: str, **fields: Any) -> None:
        state["pending"].append({"seat": seat, "kind": kind, **fields})

    def _pending_options(self, state: State, item: dict[str, Any]) -> list[Move]:
        kind = item["kind"]
        seat = item["seat"]
        p = state["players"][seat]
        if kind == "goals":
            return [{"a": "goals", "keep": list(pair)} for pair in combinations(p["goal_offer"], 2)]
        if kind == "comp":
            return core.comp_options(item)
        if kind == "good":
            return [{"a": "good", "good": g} for g in D.GOODS]
        if kind == "two_goods":
            return [{"a": "goods", "goods": list(pair)} for pair in GOOD_PAIRS]
        if kind == "other_bonus":
            return [{"a": "bonus", "marker": m} for m in sorted(D.MARKERS) if m != item["marker"]]
        if kind == "keep":
            return [{"a": "keep", "discard": c} for c in p["contracts"]] + [{"a": "decline"}]
        if kind == "relocate":
            return [{"a": "relocate", "from": c} for c in p["posts"] if D.NODE_TYPE[c] != "beijing"]
        if kind == "post_choice":
            return [{"a": "post", "city": c} for c in item["cities"] if c not in p["posts"]]
        if kind == "dice":
            return [*self._die_options(state, seat, item), {"a": "cancel"}]
        if kind == "column":
            return [{"a": "column", "n": n} for n in range(1, item["max"] + 1)]
        if kind == "contracts":
            return self._contract_options(state, seat, item)
        if kind == "travel":
            opts = self._steps(state, seat, p, item["mode"], item["steps"], limit=item["max"])
            if item["steps"] > 0 or item["mode"] == "free":
                opts.append({"a": "stop"})
            return opts
        if kind == "times":
            return [{"a": "times", "n": n, "way": w} for w, cap in enumerate(item["caps"]) for n in range(1, cap + 1)]
        if kind == "card":
            return self._card_loop_options(state, seat, item)
        raise AssertionError(kind)  # pragma: no cover

    def _die_options(self, state: State, seat: int, item: dict[str, Any]) -> list[Move]:
        p = state["players"][seat]
        space = item["space"]
        need = item["need"]
        picked = item["picked"]
        raschid = p["character"] == "raschid"
        own_ok = not self._colour_used(state, seat, space)
        opts: list[Move] = []
        for k, v, rest in self._die_candidates(state, seat, item):
            if sum(1 for d in rest if own_ok or d[0] != "own") < need - len(picked) - 1:
                continue
            for val in range(1, 7) if (raschid and k == "own") else [v]:
                if space == "khan" and val < self._khan_min(state):
                    continue
                low = min([val, *(d[1] for d in picked)])
                fee = self._fee(state, seat, space, low)
                if p["coins"] < fee or not self._action_ok(state, seat, space, low, p["coins"] - fee):
                    continue
                opts.append({"a": "die", "kind": k, "value": val})
        return opts

    @staticmethod
    def _pool_left(p: dict[str, Any], picked: list[list[Any]]) -> list[list[Any]]:
        pool = [list(d) for d in p["dice"]]
        for k, v in picked:
            pool.remove([k, 0] if (k == "own" and p["character"] == "raschid") else [k, v])
        return pool

    def _contract_options(self, state: State, seat: int, item: dict[str, Any]) -> list[Move]:
        p = state["players"][seat]
        opts: list[Move] = []
        if len(item["taken"]) < 2:
            old = [c for c in p["contracts"] if c not in item["taken"]]
            for slot, cid in item["eligible"]:
                if cid in item["taken"]:
                    continue
                bonus: list[str | None] = ["coins", "camels"] if slot >= 4 else [None]
                discards: list[str | None] = list(old) if len(p["contracts"]) >= MAX_ACTIVE_CONTRACTS else [None]
                for b in bonus:
                    for dc in discards:
                        m: Move = {"a": "take", "contract": cid}
                        if b is not None:
                            m["bonus"] = b
                        if dc is not None:
                            m["discard"] = dc
                        opts.append(m)
        if item["taken"]:
            opts.append({"a": "done"})
        return opts

    def _neighbours(self, p: dict[str, Any], loc: int) -> list[tuple[int, int, int]]:
        out = {n: (n, c, k) for n, c, k in D.ADJACENT[loc]}
        if p["character"] == "carpini" and D.NODE_TYPE[loc] == "oasis":
            for o in D.OASES:
                if o != loc:
                    out[o] = (o, 0, 0)
        return [out[n] for n in sorted(out)]

    def _steps(
        self,
        state: State,
        seat: int,
        p: dict[str, Any],
        mode: str,
        done: int,
        *,
        limit: int = 6,
        coins: int | None = None,
    ) -> list[Move]:
        """The next steps a travel of `mode` may take after `done` steps, each payable now."""
        if done >= limit:
            return []
        have = p["coins"] if coins is None else coins
        tier = D.TIER_COST[done + 1] - D.TIER_COST[done] if mode == "action" else 0
        extra_camels = 2 if mode == "camels" else 0
        pairs = [list(pr) for pr in GOOD_PAIRS if p[pr[0]] > 0 and p[pr[1]] > 0] if mode == "goods" else [[]]
        opts: list[Move] = []
        for f, loc in enumerate(p["figures"]):
            for dest, c, k in self._neighbours(p, loc):
                if have < tier + c or p["camels"] < k + extra_camels:
                    continue
                for pr in pairs:
                    m: Move = {"a": "step", "fig": f, "to": dest}
                    if mode == "goods":
                        m["goods"] = pr
                    opts.append(m)
        return opts

    def _card_loop_options(self, state: State, seat: int, item: dict[str, Any]) -> list[Move]:
        p = state["players"][seat]
        card = D.CITY_CARDS[item["card"]]
        opts: list[Move] = []
        if item["left"] > 0:
            if card["kind"] == "city_bonus":
                if self._can_pay(p, card["cost"]):
                    opts.extend(
                        {"a": "city", "city": c}
                        for c in sorted(p["posts"])
                        if D.NODE_TYPE[c] == "small" and c not in item["used"]
                    )
            elif card["kind"] == "either":  # good <-> 2 camels, one way for the whole action
                if item["way"] in (None, 0):
                    opts.extend({"a": "trade", "give": g} for g in D.GOODS if p[g] > 0)
                if item["way"] in (None, 1) and p["camels"] >= 2:
                    opts.extend({"a": "trade", "get": g} for g in D.GOODS)
            elif self._can_pay(p, card["cost"]):  # pay, then one good of choice
                opts.extend({"a": "trade", "get": g} for g in D.GOODS)
        if item["done"] > 0:
            opts.append({"a": "stop"})
        return opts

    # ---- applying moves -----------------------------------------------------------------

    def _settle_items(self, state: State) -> bool:
        if self._drop_empty(state):
            return True
        if state["phase"] != "play":
            return False
        item = self._current(state, state["turn"])
        assert item is not None
        if item["kind"] in ("travel", "card") and self._pending_options(state, item) == [{"a": "stop"}]:
            if item["kind"] == "travel":  # a forced stop is taken by itself
                self._finish_travel(state, item)
            else:
                state["pending"].remove(item)
            return True
        return False

    def _drop_empty(self, state: State) -> bool:
        """Remove the first pending item that offers no option (a move nobody can pay is lost)."""
        for item in state["pending"]:
            first = self._current(state, item["seat"]) is item
            if first and not self._pending_options(state, item):
                if item["kind"] == "travel" and item["steps"] > 0:
                    self._finish_travel(state, item)
                else:
                    self._lose(state, item)
                return True
        return False

    def _turn_move(self, state: State, seat: int, move: Move) -> None:
        p = state["players"][seat]
        a = move["a"]
        if a == "space":
            space = move["space"]
            self._push(state, seat, "dice", space=space, need=SPACE_DICE.get(space, 1), picked=[])
        elif a == "fulfil":
            self._fulfil(state, seat, move["contract"])
        elif a == "bag":
            self._take_die(p, move["kind"], move["value"])
            state["bag"].append({"seat": seat, "dice": [[move["kind"], move["value"]]]})
            p["coins"] += BAG_COINS
            self._bump(state, "money_bag")
            self._log(state, {"ev": "bag", "seat": seat, "die": [move["kind"], move["value"]]})
        elif a == "reroll":
            new = self._reroll(state, p, move["kind"], move["value"])
            p["camels"] -= REROLL_COST
            self._log(state, {"ev": "reroll", "seat": seat, "kind": move["kind"], "from": move["value"], "to": new})
        elif a == "adjust":
            self._adjust(state, p, move["kind"], move["value"], move["by"])
            p["camels"] -= ADJUST_COST
            self._log(
                state, {"ev": "adjust", "seat": seat, "kind": move["kind"], "from": move["value"], "by": move["by"]}
            )
        elif a == "black":
            p["camels"] -= BLACK_DIE_COST
            state["turn_info"]["black"] = True
            self._black_die(state, seat)
            self._bump(state, "buy_black_die")
        elif a == "end":
            self._end_turn(state)
        else:  # pragma: no cover
            raise AssertionError(a)

    @staticmethod
    def _take_die(p: dict[str, Any], kind: str, value: int) -> None:
        p["dice"].remove([kind, value])

    def _black_die(self, state: State, seat: int) -> None:
        if state["black_pool"] <= 0:
            self._bump(state, "no_black_die_left")
            return
        rng = Rng(state["rng"])
        v = core.roll(rng)
        state["rng"] = rng.seed
        state["black_pool"] -= 1
        self._add_die(state["players"][seat], ["black", v])
        self._log(state, {"ev": "black_die", "seat": seat, "value": v})

    def _fulfil(self, state: State, seat: int, cid: str) -> None:
        p = state["players"][seat]
        c = D.CONTRACTS[cid]
        for k, n in c["cost"].items():
            p[k] -= n
        p["contracts"].remove(cid)
        p["completed"].append(cid)
        self._bump(state, "fulfil")
        self._log(state, {"ev": "fulfil", "seat": seat, "contract": cid})
        self._gain(state, seat, c["reward"])

    def _resolve(self, state: State, seat: int, item: dict[str, Any], move: Move) -> None:
        p = state["players"][seat]
        kind = item["kind"]
        a = move["a"]
        keep_item = kind in ("dice", "contracts", "travel", "card")
        if not keep_item:
            state["pending"].remove(item)
        if kind == "goals":
            keep = move["keep"]
            p["goals"] = sorted(keep, key=D.token_number)
            p["goals_discarded"] = [g for g in p["goal_offer"] if g not in keep]
            p["goal_offer"] = []
            self._log(state, {"ev": "goals_kept", "seat": seat})
        elif kind == "comp":
            camels = self._compensate(state, seat, item, move)
            self._log(state, {"ev": "compensation", "seat": seat, "coins": move["coins"], "camels": camels})
        elif kind == "good":
            p[move["good"]] += 1
        elif kind == "two_goods":
            for g in move["goods"]:
                p[g] += 1
        elif kind == "other_bonus":
            self._bump(state, "other_city_bonus")
            self._gain(state, seat, D.MARKERS[move["marker"]]["reward"])
        elif kind == "keep":
            if a == "decline":
                state["special"].append(item["contract"])
            else:
                p["contracts"].remove(move["discard"])
                state["special"].append(move["discard"])
                p["contracts"].append(item["contract"])
            self._log(state, {"ev": "special_contract", "seat": seat, "kept": a != "decline"})
        elif kind == "relocate":
            self._relocate(state, seat, item, move)
        elif kind == "post_choice":
            self._place_post(state, seat, move["city"])
        elif kind == "column":
            self._bazaar_take(state, seat, item["res"], move["n"])
        elif kind == "times":
            self._card_times(state, seat, item, move["n"], move["way"])
        elif kind == "dice":
            if a == "cancel":
                state["pending"].remove(item)
                return
            item["picked"].append([move["kind"], move["value"]])
            if len(item["picked"]) == item["need"]:
                state["pending"].remove(item)
                self._place(state, seat, item["space"], item["picked"])
        elif kind == "contracts":
            if a == "done":
                state["pending"].remove(item)
                return
            self._take_contract(state, seat, item, move)
            if len(item["taken"]) >= 2 or all(c in item["taken"] for _, c in item["eligible"]):
                state["pending"].remove(item)
        elif kind == "travel":
            if a == "stop":
                self._finish_travel(state, item)
                return
            self._step(state, seat, item, move)
            if item["steps"] >= item["max"]:
                self._finish_travel(state, item)
        elif kind == "card":
            if a == "stop":
                state["pending"].remove(item)
                return
            self._card_step(state, seat, item, move)
            if item["left"] <= 0:
                state["pending"].remove(item)
        else:  # pragma: no cover
            raise AssertionError(kind)

    # ---- main actions ---------------------------------------------------------------------

    def _place(self, state: State, seat: int, space: str, dice: list[list[Any]]) -> None:
        p = state["players"][seat]
        raschid = p["character"] == "raschid"
        for k, v in dice:
            p["dice"].remove([k, 0] if (raschid and k == "own") else [k, v])
        low = min(v for _, v in dice)
        fee = self._fee(state, seat, space, low)
        if self._occupied(state, space) and p["character"] == "berke":
            self._bump(state, "berke_free")
        p["coins"] -= fee
        if fee:
            self._bump(state, "occupancy_fee")
        placement = {"seat": seat, "dice": [list(d) for d in dice]}
        if space == "khan":
            state["khan"].append(placement)
        elif space in BLUE_SPACES:
            state["spaces"][space].append(placement)
        else:
            state["card_used"][CARD_SPACES.index(space)] = placement
        state["turn_info"]["main"] = True
        self._bump(state, f"space_{space.split('-')[0]}")
        self._log(state, {"ev": "place", "seat": seat, "space": space, "dice": placement["dice"], "fee": fee})
        if space == "coins":
            p["coins"] += TAKE_COINS
            self._mercator(state, seat, "coins", "coins")
        elif space in BAZAAR_SPACES:
            if low == 1:
                self._bazaar_take(state, seat, space, 1)
            else:
                self._push(state, seat, "column", res=space, max=low)
        elif space == "khan":
            p["camels"] += 2
            self._push(state, seat, "good")
            self._mercator(state, seat, "khan", "camels")
        elif space == "contracts":
            eligible = [[i, c] for i, c in enumerate(state["display"]) if i < low]
            self._push(state, seat, "contracts", eligible=eligible, taken=[])
        elif space == "travel":
            state["last_traveller"] = seat
            self._push(state, seat, "travel", mode="action", max=low, steps=0, moved=[], entered=[])
        else:
            self._run_card(state, seat, state["city_cards"][CARD_SPACES.index(space)], low)

    def _mercator(self, state: State, seat: int, what: str, res: str) -> None:
        """Mercator ex Tabriz profits from another player's bazaar, Khan's favor (3p/2p) or 5 coins (2p)."""
        seats = state["seats"]
        if what == "khan" and seats > 3 or what == "coins" and seats > 2:
            return
        for s, q in enumerate(state["players"]):
            if s != seat and q["character"] == "mercator":
                q[res] += 2 if what == "coins" else 1
                self._bump(state, f"mercator_{what}")
                self._log(state, {"ev": "mercator", "seat": s, "from": seat, "res": res})

    def _bazaar_take(self, state: State, seat: int, res: str, column: int) -> None:
        row = D.BAZAAR[res]["by_die"][column - 1]
        self._gain(state, seat, row)
        self._log(state, {"ev": "bazaar", "seat": seat, "res": res, "column": column})
        self._mercator(state, seat, "bazaar", res)

    def _take_contract(self, state: State, seat: int, item: dict[str, Any], move: Move) -> None:
        p = state["players"][seat]
        cid = move["contract"]
        if "discard" in move:
            p["contracts"].remove(move["discard"])
            state["special"].append(move["discard"])
            self._bump(state, "discard_contract")
        state["display"].remove(cid)  # the rest slide left
        p["contracts"].append(cid)
        item["taken"].append(cid)
        if "bonus" in move:
            slot = next(s for s, c in item["eligible"] if c == cid)
            p[move["bonus"]] += 1 if slot == 4 else 2
        self._log(state, {"ev": "take_contract", "seat": seat, "contract": cid, "discard": move.get("discard")})

    def _step(self, state: State, seat: int, item: dict[str, Any], move: Move) -> None:
        p = state["players"][seat]
        f = move["fig"]
        loc = p["figures"][f]
        dest = move["to"]
        _, c, k = next(x for x in self._neighbours(p, loc) if x[0] == dest)
        mode = item["mode"]
        s = item["steps"]
        tier = D.TIER_COST[s + 1] - D.TIER_COST[s] if mode == "action" else 0
        p["coins"] -= tier + c
        p["camels"] -= k + (2 if mode == "camels" else 0)
        for g in move.get("goods", []):
            p[g] -= 1
        p["figures"][f] = dest
        item["steps"] = s + 1
        if f not in item["moved"]:
            item["moved"].append(f)
        item["entered"].append(dest)
        self._log(
            state, {"ev": "step", "seat": seat, "fig": f, "from": loc, "to": dest, "coins": tier + c, "camels": k}
        )

    def _finish_travel(self, state: State, item: dict[str, Any]) -> None:
        state["pending"].remove(item)
        seat = item["seat"]
        p = state["players"][seat]
        wilhelm = p["character"] == "wilhelm"
        targets = list(item["entered"]) if wilhelm else [p["figures"][f] for f in sorted(item["moved"])]
        cities: list[int] = []
        for city in targets:
            if city in D.CITIES and city not in p["posts"] and city not in cities:
                cities.append(city)
        if item["mode"] != "action" and not wilhelm and len(cities) > 1:
            # a move that is no Travel action (a city card's) places one post where it ends: when Niccolo's two
            # figures both end in new cities, he chooses which one gets it (as Mailin in Marco Polo II)
            self._push(state, seat, "post_choice", cities=cities)
            cities = []
        for city in cities:
            self._place_post(state, seat, city)
        self._bump(state, f"travel_{item['mode']}")

    def _out_of_posts(self, state: State, seat: int, city: int) -> None:
        if any(D.NODE_TYPE[c] != "beijing" for c in state["players"][seat]["posts"]):  # Beijing posts stay
            self._push(state, seat, "relocate", city=city)

    def _post_effects(self, state: State, seat: int, city: int) -> None:
        self._record_post(state, seat, city)
        kind = D.NODE_TYPE[city]
        if kind == "beijing":
            state["beijing"].append(seat)
            self._bump(state, "beijing")
        elif kind == "large":
            tile = state["outposts"][str(city)]
            if tile is not None:
                state["outposts"][str(city)] = None
                self._bump(state, "outpost_bonus")
                self._log(state, {"ev": "outpost_bonus", "seat": seat, "city": city, "tile": tile})
                self._gain(state, seat, D.OUTPOSTS[tile]["reward"])
        else:
            self._city_bonus(state, seat, city)

    def _city_bonus(self, state: State, seat: int, city: int) -> None:
        marker = state["city_bonus"][str(city)]
        reward = D.MARKERS[marker]["reward"]
        self._bump(state, "city_bonus")
        if "other_city_bonus" in reward:
            self._push(state, seat, "other_bonus", marker=marker)
        else:
            self._gain(state, seat, reward)

    def _gain(self, state: State, seat: int, reward: dict[str, int]) -> None:
        p = state["players"][seat]
        for k, n in reward.items():
            if k in D.RESOURCES:
                p[k] += n
            elif k == "any_good":
                for _ in range(n):
                    self._push(state, seat, "good")
            elif k == "two_goods":
                for _ in range(n):
                    self._push(state, seat, "two_goods")
            elif k == "move":
                for _ in range(n):
                    self._push(state, seat, "travel", mode="free", max=1, steps=0, moved=[], entered=[])
            elif k == "contract":
                for _ in range(n):
                    self._draw_special(state, seat)
            elif k == "black_die":
                for _ in range(n):
                    self._black_die(state, seat)
            else:  # pragma: no cover
                raise AssertionError(k)

    def _draw_special(self, state: State, seat: int) -> None:
        if not state["special"]:
            self._bump(state, "special_pile_empty")
            return
        cid: str = state["special"].pop(0)
        self._mark_seen(state, [cid])
        p = state["players"][seat]
        self._bump(state, "special_contract")
        if len(p["contracts"]) < MAX_ACTIVE_CONTRACTS:
            p["contracts"].append(cid)
            self._log(state, {"ev": "special_contract", "seat": seat, "contract": cid, "kept": True})
        else:
            self._push(state, seat, "keep", contract=cid)

    # ---- city cards -------------------------------------------------------------------------

    def _run_card(self, state: State, seat: int, card_id: str, d: int) -> None:
        card = D.CITY_CARDS[card_id]
        p = state["players"][seat]
        kind = card["kind"]
        self._bump(state, card_id)
        if kind == "per_pip":
            self._gain(state, seat, {k: n * d for k, n in card["reward"].items()})
        elif kind == "by_die":
            self._gain(state, seat, {card["good"]: card["amount_by_die"][d - 1]})
        elif kind == "count":
            have = len(p["posts"]) if card["counts"] == "posts" else len(p["completed"])
            n = min(have, d)
            self._gain(state, seat, {k: v * n for k, v in card["reward"].items()})
        elif kind == "city_bonus":
            left = card["times_by_die"][d - 1] if "times_by_die" in card else d
            self._push(state, seat, "card", card=card_id, left=left, done=0, way=None, used=[])
        elif kind == "trade" and "move" in card["reward"]:
            mode = "goods" if "two_goods" in card["cost"] else "camels"
            self._push(state, seat, "travel", mode=mode, max=d, steps=0, moved=[], entered=[])
        elif kind == "trade" and "any_good" in card["reward"]:
            self._push(state, seat, "card", card=card_id, left=d, done=0, way=None, used=[])
        elif kind == "either" and any("any_good" in w["cost"] for w in card["ways"]):
            self._push(state, seat, "card", card=card_id, left=d, done=0, way=None, used=[])
        else:
            ways = card["ways"] if kind == "either" else [card]
            caps = [min(d, self._affordable_times(p, w["cost"])) for w in ways]
            if sum(caps) == 1:
                self._card_times_apply(state, seat, ways[caps.index(1)], 1)
            else:
                self._push(state, seat, "times", card=card_id, caps=caps)

    @staticmethod
    def _affordable_times(p: dict[str, Any], cost: dict[str, int]) -> int:
        return min(int(p[k]) // n for k, n in cost.items())

    def _card_times(self, state: State, seat: int, item: dict[str, Any], n: int, way: int) -> None:
        card = D.CITY_CARDS[item["card"]]
        ways = card["ways"] if card["kind"] == "either" else [card]
        self._card_times_apply(state, seat, ways[way], n)

    def _card_times_apply(self, state: State, seat: int, way: dict[str, Any], n: int) -> None:
        p = state["players"][seat]
        for k, c in way["cost"].items():
            p[k] -= c * n
        self._gain(state, seat, {k: v * n for k, v in way["reward"].items()})
        self._log(state, {"ev": "card_times", "seat": seat, "times": n})

    def _card_step(self, state: State, seat: int, item: dict[str, Any], move: Move) -> None:
        p = state["players"][seat]
        card = D.CITY_CARDS[item["card"]]
        item["left"] -= 1
        item["done"] += 1
        a = move["a"]
        if a == "city":
            for k, c in card["cost"].items():
                p[k] -= c
            item["used"].append(move["city"])
            self._city_bonus(state, seat, move["city"])
        elif "give" in move:
            item["way"] = 0
            p[move["give"]] -= 1
            p["camels"] += 2
        elif card["kind"] == "either":
            item["way"] = 1
            p["camels"] -= 2
            p[move["get"]] += 1
        else:
            for k, c in card["cost"].items():
                p[k] -= c
            p[move["get"]] += 1

    # ---- scoring ------------------------------------------------------------------------

    def _final_scoring(self, state: State) -> None:
        players = state["players"]
        most = max(len(p["completed"]) for p in players)
        breakdown = []
        for s, p in enumerate(players):
            goal_vp = 0
            cities: set[int] = set()
            for g in p["goals"]:
                goal = D.GOALS[g]
                if all(c in p["posts"] for c in goal["cities"]):
                    goal_vp += goal["vp"]
                cities.update(c for c in goal["cities"] if c in p["posts"])
            beijing = D.BEIJING_VP[state["beijing"].index(s)] if s in state["beijing"] else 0
            b = {
                "in_game": p["vp"],
                "goal_cards": goal_vp,
                "goal_cities": D.GOAL_CITY_SET_VP[min(len(cities), len(D.GOAL_CITY_SET_VP) - 1)],
                "coins": p["coins"] // 10,
                "beijing": beijing,
                "goods": (p["pepper"] + p["silk"] + p["gold"]) // 2 if s in state["beijing"] else 0,
                "most_contracts": MOST_CONTRACTS_VP if most > 0 and len(p["completed"]) == most else 0,
                "all_posts": WILHELM_ALL_POSTS_VP if p["character"] == "wilhelm" and p["posts_left"] == 0 else 0,
            }
            b["total"] = sum(b.values())
            breakdown.append(b)
        self._finish(state, breakdown)

    # ---- views --------------------------------------------------------------------------

    PROMPTS = {
        **core.COMMON_PROMPTS,
        "goals": "Keep 2 of your 4 goal cards.",
        "two_goods": "Take 2 different goods.",
        "other_bonus": "Take the bonus of another city-bonus marker.",
        "keep": "Both contract spaces are full: discard an old contract for the new one, or decline it.",
        "column": "Choose how much to take from the bazaar (up to your lowest die).",
        "travel": "Move one step, or stop here.",
        "card": "Use the city card once more, or stop.",
        "post_choice": "This move places one trading post: choose the city where it goes.",
    }

    @staticmethod
    def _token_order(token: str) -> int:
        return D.token_number(token)

    @staticmethod
    @functools.cache
    def _goal_view(gid: str) -> dict[str, Any]:
        return dict(D.GOALS[gid])

    # The views of contracts, city cards and outposts depend on their id alone: each is built once and the same
    # object is in every view that shows it (views are never changed once built), so a diff skips it by identity.

    @staticmethod
    @functools.cache
    def _contract_view(cid: str) -> dict[str, Any]:
        c = D.CONTRACTS[cid]
        return {"id": cid, "cost": dict(c["cost"]), "reward": dict(c["reward"])}

    @staticmethod
    @functools.cache
    def _card_view(cid: str) -> dict[str, Any]:
        return {k: (dict(v) if isinstance(v, dict) else v) for k, v in D.CITY_CARDS[cid].items()}

    @staticmethod
    @functools.cache
    def _outpost_view(tid: str) -> dict[str, Any]:
        return {"id": tid, "reward": dict(D.OUTPOSTS[tid]["reward"])}

    def _public_view(self, state: State) -> dict[str, Any]:
        return {
            **self._common_view(state),
            "track": D.BOARD_VIEW,
            "start_player": state["start_player"],
            "last_traveller": state["last_traveller"],
            "display": [self._contract_view(c) for c in state["display"]],
            "piles": [len(x) for x in state["piles"]],
            "special": len(state["special"]),
            "city_cards": [
                self._city_card_view(i, D.CITY_CARD_SLOTS[i], self._card_view(c), state["card_used"][i])
                for i, c in enumerate(state["city_cards"])
            ],
            "outposts": {k: (None if t is None else self._outpost_view(t)) for k, t in state["outposts"].items()},
            "city_bonus": dict(state["city_bonus"]),
            "beijing": list(state["beijing"]),
            "black_dice": state["black_pool"],
            "players": self._players_view(state, D.RESOURCES),
        }

    def _face_down(self, state: State) -> list[list[Any]]:
        """The round piles (one after the other), the special contract pile and the box."""
        boxed = state["boxed"]
        return [
            [c for pile in state["piles"] for c in pile],
            state["special"],
            boxed["contracts"],
            boxed["city_cards"],
            boxed["outposts"],
            boxed["goals"],
        ]

    def hidden_tokens(self, state: State) -> list[str]:
        seen = set(state["seen"])
        boxed = state["boxed"]
        contracts = [
            c
            for c in [*(c for pile in state["piles"] for c in pile), *state["special"], *boxed["contracts"]]
            if c not in seen
        ]
        return [*contracts, *boxed["city_cards"], *boxed["outposts"], *boxed["goals"]]


GAME = Voyages()
