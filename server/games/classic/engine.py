"""Marco Polo, the classic roll-and-move trading game: seed 001 with the decisions of decisions.md B.

Owns: set-up, the turn (declare the route and spin, move, fight pirates or robbers, trade at a trading post,
bring the gifts to Khanbaliq, complete the mission), the win in Venice, the round limit, views and prompts.
Must not: do I/O. The board, wheels and cards come from `data`; where a move may end from `movement`.

A turn is split into small moves so that every prompt stays far below the option bound:
  phase "spin":    {"a":"spin","route":"land"|"sea"} (both only at Venice or a port; the wheel is spun now)
  phase "move":    {"a":"move","to":node} (only when more than one end point is possible)
  phase "fight":   {"a":"fight"} / {"a":"decline"} (Golden Table protection; unprotected fights are automatic)
  phase "ransom":  {"a":"ransom","pay":"money"} / {"a":"ransom","card":id} after a lost fight
  phase "gift":    {"a":"gift","card":id} at Khanbaliq, when the player holds more than three 80-cards
  phase "sell":    {"a":"sell","card":id} one card at a time, then {"a":"done"}
  phase "buy":     {"a":"buy"} (one card from the stock) / {"a":"force","seat":s} (blind card from s) / {"a":"done"}
  phase "discard": {"a":"discard","card":id} (a hazard card took one goods card)
Copies of one card type are offered once (the lowest id stands for its copies).

Undo (v1.2, docs/games/classic.md "Undo"): the spin opens every turn and turns the compass, so it is never taken
back; the decisions after it (where the move ends, selling card by card, `done` with selling, the first gifts
to the Khan, the card a hazard takes) may be, back to the state after the last reveal (the spin, a card bought
or drawn), until something is revealed again (a card bought, a blind forced sale, a fight's dice, a Golden
Table) or the turn ends.
"""

from __future__ import annotations

import functools
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from server.games.base import Game, Move, Rng, State
from server.games.classic import movement
from server.games.classic.data import (
    ADJ,
    BOARD_VIEW,
    BUY_PRICE,
    CITY,
    COLOURS,
    EMPTY_LOOT,
    FORCED_SALE_PRICE,
    HAZARDS,
    KHANBALIQ,
    MAX_BUYS,
    MISSION,
    NODES,
    PORT,
    POST,
    RANSOM_MONEY,
    RANSOM_OF_ROUTE,
    ROUTES,
    SECRET_VALUE,
    STACK_CARDS,
    START_MONEY,
    TABLE_VALUE,
    TABLES,
    TARGETS,
    VENICE,
    WHEELS,
    WIN_COLOURS,
    card_type,
    city_of_table,
    colour_of,
    switches,
    value_of,
)

LOG_KEEP = 24
#: the moves that reveal something hidden (the compass, the fight's dice, a stack's top card, a blind card)
REVEALING = frozenset({"spin", "fight", "buy", "force"})
GIFTS = 3  # seed 001: three 80-value goods cards open Khanbaliq
GIFT_VALUE = 80


class ClassicOptions(BaseModel):
    """Room options: `max_rounds` is the house round limit (the game ends after that many rounds)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    max_rounds: int = Field(default=200, ge=10, le=1000)


def hand_total(hand: list[str]) -> int:
    """Face value of a hand of goods cards."""
    return sum(value_of(c) for c in hand)


def colour_counts(hand: list[str]) -> dict[str, int]:
    """Goods cards per colour."""
    counts = dict.fromkeys(COLOURS, 0)
    for c in hand:
        counts[colour_of(c)] += 1
    return counts


def colours_ok(hand: list[str]) -> bool:
    """Seed 001: at least one and at most two cards each of turquoise, yellow and green."""
    counts = colour_counts(hand)
    return all(1 <= counts[c] <= 2 for c in WIN_COLOURS)


def one_per_type(cards: list[str]) -> list[str]:
    """The lowest id of each card type among `cards`, sorted."""
    out: dict[str, str] = {}
    for c in sorted(cards):
        out.setdefault(card_type(c), c)
    return sorted(out.values())


def dice_seed(key: int, seat: int, turn: int, draw: int) -> int:
    """The seed of one keyed draw (see `Classic._roll`): SplitMix64 steps over the key and the three indices."""
    h = key
    for part in (seat, turn, draw):
        h = Rng(h ^ part).next64()
    return h


@functools.lru_cache(maxsize=8192)
def _destinations(
    start: str, steps: int, route: str, occupied: frozenset[str], has_table: bool, bearer: bool, mission: str | None
) -> tuple[tuple[str, ...], bool]:
    """`Classic.destinations` as a pure function of what it reads, memoised: the walk is the largest part of
    a classic move and of the search bot's playouts, and few of its inputs recur (tests compare it with the
    walk itself)."""

    def may_enter(node: str) -> bool:
        return node != KHANBALIQ or has_table or bearer

    def must_stop(node: str) -> bool:
        kind = NODES[node].type
        return kind in (VENICE, PORT) or (node == KHANBALIQ and not has_table) or node == mission

    def may_stay(node: str) -> bool:
        return node not in occupied

    dests, fallback = movement.destinations(
        start, steps, route, may_enter=may_enter, must_stop=must_stop, may_stay=may_stay
    )
    return tuple(dests), fallback


class Classic(Game):
    id = "classic"
    title = "Marco Polo (the classic trading game)"
    min_seats = 2
    max_seats = 4
    Options = ClassicOptions
    log_keep = LOG_KEEP
    unchanged_keys = frozenset({"options"})
    offers_undo = True

    # ---- set-up -------------------------------------------------------------------------

    def _setup(self, seats: int, options: Any, rng: Rng) -> State:
        assert isinstance(options, ClassicOptions)
        stacks: dict[str, list[str]] = {}
        for colour in COLOURS:
            stack = list(STACK_CARDS[colour])
            rng.shuffle(stack)
            stacks[colour] = stack
        tables = list(TABLES)
        rng.shuffle(tables)
        # research B3: "the youngest player starts"; the server knows no ages, so the seed draws the start player
        first = rng.below(seats)
        return {
            "game": self.id,
            "seats": seats,
            "options": options.model_dump(),
            "rng": rng.seed,
            "pawns": [VENICE] * seats,
            "routes": [None] * seats,
            "money": [START_MONEY] * seats,
            "hands": [[] for _ in range(seats)],
            "stacks": stacks,
            "tables": tables,
            "secrets": len(TABLES),
            "table": [None] * seats,
            "secret": [False] * seats,
            "ransom": {space: {"money": 0, "cards": []} for space in sorted(RANSOM_OF_ROUTE.values())},
            "first": first,
            "turn": first,
            "phase": "spin",
            "round": 1,
            "turns": 0,
            "spin": None,
            "fight": None,
            "trade": None,
            "gifts": [],
            "skip": [0] * seats,
            "extra": False,
            "seen": [],
            "notices": [[] for _ in range(seats)],
            "seq": 0,
            "log": [],
            "stats": {},
            "result": None,
        }

    # ---- queries ------------------------------------------------------------------------

    def active_seats(self, state: State) -> list[int]:
        if state["result"] is not None:
            return []
        return [state["turn"]]

    def result(self, state: State) -> dict[str, Any] | None:
        res: dict[str, Any] | None = state["result"]
        return res

    @staticmethod
    def total(state: State, seat: int) -> int:
        """Money, goods cards at face value, and 240 each for the Golden Table and the Secret of the East."""
        return int(
            state["money"][seat]
            + hand_total(state["hands"][seat])
            + (TABLE_VALUE if state["table"][seat] is not None else 0)
            + (SECRET_VALUE if state["secret"][seat] else 0)
        )

    @staticmethod
    def mission_city(state: State, seat: int) -> str | None:
        """The city of the seat's Golden Table while the mission is not yet done."""
        table = state["table"][seat]
        if table is None or state["secret"][seat]:
            return None
        return city_of_table(table)

    @staticmethod
    def protected(state: State, seat: int) -> bool:
        """decisions.md B: the Golden Table protects from receiving it until reaching the mission city."""
        return state["table"][seat] is not None and not state["secret"][seat]

    @staticmethod
    def eighties(state: State, seat: int) -> list[str]:
        """The seat's 80-value goods cards (the Khan's gifts)."""
        return [c for c in state["hands"][seat] if value_of(c) == GIFT_VALUE]

    def route_choices(self, state: State, seat: int) -> list[str]:
        """Route types the seat may declare now: any with a route from here at Venice or a port."""
        node = state["pawns"][seat]
        if switches(node):
            return [r for r in ROUTES if ADJ[r][node]]
        route: str = state["routes"][seat]
        return [route]

    def destinations(self, state: State, seat: int, steps: int) -> tuple[list[str], bool]:
        """End points of a move of `steps` along the seat's route type, and whether they are fall-backs."""
        route: str = state["routes"][seat]
        occupied = frozenset(p for s, p in enumerate(state["pawns"]) if s != seat and NODES[p].type == CITY)
        has_table = state["table"][seat] is not None
        bearer = not has_table and len(self.eighties(state, seat)) >= GIFTS
        mission = self.mission_city(state, seat)
        dests, fallback = _destinations(state["pawns"][seat], steps, route, occupied, has_table, bearer, mission)
        return list(dests), fallback

    def buy_moves(self, state: State, seat: int) -> list[Move]:
        """The buying step's options: one card from the stock, a forced sale from a seat on the post, done."""
        trade = state["trade"]
        post = trade["post"]
        money = state["money"][seat]
        moves: list[Move] = []
        if trade["bought"] < MAX_BUYS and money >= BUY_PRICE and state["stacks"][trade["colour"]]:
            moves.append({"a": "buy"})
        if trade["bought"] == 0 and money >= FORCED_SALE_PRICE:
            for s in range(state["seats"]):
                if s != seat and state["pawns"][s] == post and state["hands"][s]:
                    moves.append({"a": "force", "seat": s})
        moves.append({"a": "done"})
        return moves

    def legal_moves(self, state: State, seat: int) -> list[Move]:
        if seat not in self.active_seats(state):
            return []
        phase = state["phase"]
        hand: list[str] = state["hands"][seat]
        if phase == "spin":
            return [{"a": "spin", "route": r} for r in self.route_choices(state, seat)]
        if phase == "move":
            dests, _ = self.destinations(state, seat, state["spin"]["value"])
            return [{"a": "move", "to": d} for d in dests]
        if phase == "fight":
            return [{"a": "fight"}, {"a": "decline"}]
        if phase == "ransom":
            moves: list[Move] = []
            if state["money"][seat] >= RANSOM_MONEY:
                moves.append({"a": "ransom", "pay": "money"})
            moves.extend({"a": "ransom", "card": c} for c in one_per_type(hand))
            return moves
        if phase == "gift":
            return [{"a": "gift", "card": c} for c in one_per_type(self.eighties(state, seat))]
        if phase == "sell":
            return [*({"a": "sell", "card": c} for c in one_per_type(hand)), {"a": "done"}]
        if phase == "buy":
            return self.buy_moves(state, seat)
        if phase == "discard":
            return [{"a": "discard", "card": c} for c in one_per_type(hand)]
        return []

    # ---- applying moves -----------------------------------------------------------------

    def _apply(self, state: State, seat: int, move: Move) -> None:
        a = move["a"]
        if a == "spin":
            self._spin(state, seat, move["route"])
        elif a == "move":
            _, fallback = self.destinations(state, seat, state["spin"]["value"])
            self._move_to(state, seat, move["to"], fallback)
        elif a == "fight":
            self._fight(state, seat)
        elif a == "decline":
            self._bump(state, "fight_declined")
            self._log(state, {"ev": "decline", "seat": seat})
            self._end_turn(state)
        elif a == "ransom":
            self._pay_ransom(state, seat, move)
            self._end_turn(state)
        elif a == "gift":
            self._give_gift(state, seat, move["card"])
        elif a == "sell":
            self._sell(state, seat, move["card"])
            self._settle(state)
        elif a == "done":
            if state["phase"] == "sell":
                state["phase"] = "buy"
                self._settle(state)
            else:
                self._end_turn(state)
        elif a == "buy":
            state["money"][seat] -= BUY_PRICE
            state["trade"]["bought"] += 1
            self._bump(state, "buy")
            self._draw(state, seat, paid=True)
            self._settle(state)
        elif a == "force":
            self._forced_sale(state, seat, int(move["seat"]))  # a JSON `true` equals 1: store the int
            self._end_turn(state)
        elif a == "discard":
            card = move["card"]
            self._return_card(state, seat, card)
            self._log(state, {"ev": "discard", "seat": seat, "card": card})
            state["phase"] = "buy"
            self._settle(state)
        else:  # pragma: no cover - legal_moves lists only the kinds above
            raise AssertionError(a)

    def _spin(self, state: State, seat: int, route: str) -> None:
        old = state["routes"][seat]
        if old is not None and old != route:
            self._bump(state, "route_change")
        state["routes"][seat] = route
        sector = self._roll(state, len(WHEELS[route]))
        value = WHEELS[route][sector]
        state["spin"] = {"route": route, "sector": sector, "value": value}
        self._bump(state, f"spin_{route}")
        self._log(state, {"ev": "spin", "seat": seat, "route": route, "value": value})
        if isinstance(value, str):
            self._bump(state, f"hazard_sector_{value}")
            if self.protected(state, seat):
                state["phase"] = "fight"
            else:
                self._fight(state, seat)
            return
        dests, fallback = self.destinations(state, seat, value)
        if not dests:
            self._bump(state, "no_move")
            self._log(state, {"ev": "no_move", "seat": seat})
            self._end_turn(state)
        elif len(dests) == 1:
            self._move_to(state, seat, dests[0], fallback)
        else:
            state["phase"] = "move"

    def _move_to(self, state: State, seat: int, node: str, fallback: bool) -> None:
        start = state["pawns"][seat]
        state["pawns"][seat] = node
        if fallback:
            self._bump(state, "short_move")
        self._log(state, {"ev": "move", "seat": seat, "from": start, "to": node, "short": fallback})
        self._arrive(state, seat, node)

    def _arrive(self, state: State, seat: int, node: str) -> None:
        kind = NODES[node].type
        if node == KHANBALIQ and state["table"][seat] is None:
            state["gifts"] = []
            eighties = self.eighties(state, seat)
            if len(eighties) == GIFTS:
                for card in eighties:
                    self._give_gift(state, seat, card)
            else:
                state["phase"] = "gift"
        elif kind == MISSION and node == self.mission_city(state, seat):
            self._complete_mission(state, seat)
        elif node == VENICE:
            self._reach_venice(state, seat)
        elif kind == POST:
            state["trade"] = {"post": node, "colour": NODES[node].colour, "bought": 0}
            state["phase"] = "sell"
            self._bump(state, "trade_visit")
            self._settle(state)
        else:
            self._end_turn(state)

    # ---- fights -------------------------------------------------------------------------

    def _fight(self, state: State, seat: int) -> None:
        """The player's (big) die against the raiders' (small) die; the raiders win only when strictly higher."""
        mine = 1 + self._roll(state, 6)
        theirs = 1 + self._roll(state, 6)
        space = RANSOM_OF_ROUTE[state["spin"]["route"]]
        won = mine >= theirs
        protected = self.protected(state, seat)
        state["fight"] = {"space": space, "player": mine, "raiders": theirs, "won": won}
        ev: dict[str, Any] = {"ev": "fight", "seat": seat, "space": space, "player": mine, "raiders": theirs}
        self._bump(state, "fight_protected" if protected else "fight")
        if won:
            loot = state["ransom"][space]
            if loot["money"] or loot["cards"]:
                ev["loot"] = {"money": loot["money"], "cards": list(loot["cards"])}
                state["money"][seat] += loot["money"]
                state["hands"][seat] = sorted(state["hands"][seat] + loot["cards"])
                state["ransom"][space] = {"money": 0, "cards": []}
                self._bump(state, "fight_won_loot")
            else:
                ev["loot"] = {"money": EMPTY_LOOT, "cards": [], "bank": True}
                state["money"][seat] += EMPTY_LOOT
                self._bump(state, "fight_won_bank")
            self._log(state, ev)
            self._end_turn(state)
            return
        self._log(state, ev)
        if protected:
            self._bump(state, "fight_lost_protected")
            state["phase"] = "fight"
            return
        self._bump(state, "fight_lost")
        if state["money"][seat] < RANSOM_MONEY and not state["hands"][seat]:
            paid = state["money"][seat]
            state["money"][seat] = 0
            state["ransom"][space]["money"] += paid
            self._bump(state, "ransom_all_money")
            self._log(state, {"ev": "ransom", "seat": seat, "space": space, "money": paid})
            self._end_turn(state)
            return
        state["phase"] = "ransom"

    def _pay_ransom(self, state: State, seat: int, move: Move) -> None:
        space = state["fight"]["space"]
        if "card" in move:
            card = move["card"]
            state["hands"][seat].remove(card)
            state["ransom"][space]["cards"].append(card)
            self._mark_seen(state, card)
            self._bump(state, "ransom_card")
            self._log(state, {"ev": "ransom", "seat": seat, "space": space, "card": card})
        else:
            state["money"][seat] -= RANSOM_MONEY
            state["ransom"][space]["money"] += RANSOM_MONEY
            self._bump(state, "ransom_money")
            self._log(state, {"ev": "ransom", "seat": seat, "space": space, "money": RANSOM_MONEY})

    # ---- Khanbaliq, the mission, Venice -------------------------------------------------

    def _give_gift(self, state: State, seat: int, card: str) -> None:
        self._return_card(state, seat, card)
        state["gifts"].append(card)
        self._bump(state, "gift")
        if len(state["gifts"]) < GIFTS:
            state["phase"] = "gift"
            return
        self._log(state, {"ev": "gifts", "seat": seat, "cards": list(state["gifts"])})
        state["gifts"] = []
        table = state["tables"].pop(0)
        state["table"][seat] = table
        self._bump(state, "golden_table")
        self._log(state, {"ev": "golden_table", "seat": seat})
        self._notify(state, seat, {"ev": "golden_table", "table": table, "mission": city_of_table(table)})
        self._end_turn(state)

    def _complete_mission(self, state: State, seat: int) -> None:
        table = state["table"][seat]
        state["secret"][seat] = True
        state["secrets"] -= 1
        self._mark_seen(state, table)
        self._bump(state, "mission")
        self._log(state, {"ev": "mission", "seat": seat, "city": city_of_table(table), "table": table})
        self._end_turn(state)

    def _reach_venice(self, state: State, seat: int) -> None:
        total = self.total(state, seat)
        target = TARGETS[state["seats"]]
        if state["secret"][seat] and total >= target and colours_ok(state["hands"][seat]):
            self._bump(state, "win")
            self._log(state, {"ev": "win", "seat": seat, "total": total})
            self._finish(state, winner=seat)
            return
        if state["secret"][seat]:
            self._bump(state, "venice_not_enough")
        self._log(state, {"ev": "venice", "seat": seat})
        self._end_turn(state)

    # ---- trading ------------------------------------------------------------------------

    def _settle(self, state: State) -> None:
        """Skip trading steps with nothing to decide: selling with an empty hand, buying with nothing to buy."""
        seat = state["turn"]
        if state["phase"] == "sell" and not state["hands"][seat]:
            state["phase"] = "buy"
        if state["phase"] == "buy" and self.buy_moves(state, seat) == [{"a": "done"}]:
            self._end_turn(state)

    def _sell(self, state: State, seat: int, card: str) -> None:
        value = value_of(card)
        self._return_card(state, seat, card)
        state["money"][seat] += value
        self._bump(state, "sell")
        self._log(state, {"ev": "sell", "seat": seat, "card": card, "value": value})

    def _return_card(self, state: State, seat: int, card: str) -> None:
        """A goods card leaves a hand face up for the bottom of its colour's stack."""
        state["hands"][seat].remove(card)
        state["stacks"][colour_of(card)].append(card)
        self._mark_seen(state, card)

    def _draw(self, state: State, seat: int, paid: bool) -> None:
        colour = state["trade"]["colour"]
        stack = state["stacks"][colour]
        if not stack:  # pragma: no cover - hazard cards never leave a stack, so it is never empty
            return
        card = stack.pop(0)
        if card not in HAZARDS:
            state["hands"][seat].append(card)
            state["hands"][seat].sort()
            self._log(state, {"ev": "buy", "seat": seat, "colour": colour, "free": not paid})
            self._notify(state, seat, {"ev": "buy", "card": card})
            return
        hazard = HAZARDS[card]
        effect = hazard["effect"]
        kind = effect["kind"]
        stack.append(card)  # shown, then to the bottom of its stack
        self._mark_seen(state, card)
        self._bump(state, f"hazard_{kind}")
        ev: dict[str, Any] = {"ev": "hazard", "seat": seat, "card": card, "name": hazard["name"]}
        ev["text"] = hazard["text"]
        ev["effect"] = dict(effect)
        money = state["money"]
        if kind == "toll":
            paid_now = min(effect["amount"], money[seat])
            money[seat] -= paid_now
            ev["paid"] = paid_now
        elif kind == "windfall":
            money[seat] += effect["amount"]
        elif kind == "lose_turn":
            state["skip"][seat] += 1
        elif kind == "extra_turn":
            state["extra"] = True
        elif kind == "tribute":
            paid_now = min(effect["amount"], money[seat])
            money[seat] -= paid_now
            state["ransom"][effect["space"]]["money"] += paid_now
            ev["paid"] = paid_now
        self._log(state, ev)
        if kind == "free_card":
            self._draw(state, seat, paid=False)
        elif kind == "lose_card" and state["hands"][seat]:
            state["phase"] = "discard"

    def _forced_sale(self, state: State, buyer: int, seller: int) -> None:
        """Option B: pay the seller 30 and draw one card blind from their hand (the server picks it)."""
        hand = state["hands"][seller]
        card = hand.pop(self._roll(state, len(hand)))
        state["money"][buyer] -= FORCED_SALE_PRICE
        state["money"][seller] += FORCED_SALE_PRICE
        state["hands"][buyer].append(card)
        state["hands"][buyer].sort()
        self._bump(state, "forced_sale")
        self._log(state, {"ev": "forced_sale", "buyer": buyer, "seller": seller, "price": FORCED_SALE_PRICE})
        # the seller's older notices about this card are out of date; the new one says where it went
        state["notices"][seller] = [n for n in state["notices"][seller] if n["note"].get("card") != card]
        self._notify(state, buyer, {"ev": "forced_sale", "card": card, "from": seller})
        # seed 001: the card is drawn with its face towards the seller, so the seller sees which card went
        self._notify(state, seller, {"ev": "forced_sale", "card": card, "to": buyer})

    # ---- chance -------------------------------------------------------------------------

    @staticmethod
    def _roll(state: State, n: int) -> int:
        """A uniform draw in [0, n): the compass, the fight dice, the blind card of a forced sale.

        A real game draws from the one stream `state["rng"]`. A state with keyed dice (`state["dice"]`, set only
        by `sample_state` for the search bot's worlds) draws the `draw`-th number of the turn player's `turns`-th
        turn as a pure function of (key, seat, turns, draw): a seat's dice then do not depend on what the other
        seats did before, so two candidate moves played out in one world meet the same later spins and fights
        (common random numbers), where one shared stream shifted every later draw of both seats after one
        extra fight or lost turn.
        """
        dice = state.get("dice")
        if dice is None:
            rng = Rng(state["rng"])
            value = rng.below(n)
            state["rng"] = rng.seed
            return value
        seat: int = state["turn"]
        value = Rng(dice_seed(dice["key"], seat, dice["turns"][seat], dice["draw"])).below(n)
        dice["draw"] += 1
        return value

    # ---- undo within a turn (v1.2) --------------------------------------------------------

    def _undo_keeps(self, before: State, after: State, seat: int, move: Move) -> bool:
        """A decision that reveals nothing keeps the right to take back the turn's decisions since its last
        reveal, while the turn goes on: not the spin, a fight, a card bought (a stack's top, which leaves the RNG
        as it was) or a forced sale, nor a move that ends the turn (`turns` counts every turn, an extra turn of
        the same seat too; the Golden Table is drawn only as a turn ends). Keyed dice (sampled worlds) are
        checked like the RNG."""
        return (
            move["a"] not in REVEALING
            and self.undo_basics(before, after, seat)
            and after["turns"] == before["turns"]
            and after.get("dice") == before.get("dice")
        )

    def undo(self, state: State, seat: int) -> State:
        """As `Game.undo`, but the cards shown in the taken-back decisions (sold, given to the Khan, discarded)
        stay `seen`: the public log names them, so they are nobody's secret any more (`seen` is in no view, so
        every view is still the one where the taken-back part began)."""
        new = super().undo(state, seat)
        new["seen"] = list(state["seen"])
        return new

    # ---- turn order and the end ---------------------------------------------------------

    def _end_turn(self, state: State) -> None:
        if state["result"] is not None:
            return
        seat = state["turn"]
        dice = state.get("dice")
        if dice is not None:  # keyed dice (sampled worlds only): the seat's next turn draws from a new key
            dice["turns"][seat] += 1
            dice["draw"] = 0
        state["phase"] = "spin"
        state["trade"] = None
        state["spin"] = None
        state["fight"] = None
        state["gifts"] = []
        state["turns"] += 1
        if state["extra"]:
            state["extra"] = False
            self._bump(state, "extra_turn")
        else:
            seat = self._advance(state, seat)
        while state["skip"][seat] > 0:
            state["skip"][seat] -= 1
            self._bump(state, "turn_missed")
            self._log(state, {"ev": "miss_turn", "seat": seat})
            seat = self._advance(state, seat)
        if state["round"] > state["options"]["max_rounds"]:
            self._bump(state, "round_limit")
            self._log(state, {"ev": "round_limit"})
            self._finish(state, winner=None)
            return
        state["turn"] = seat
        # a notice stays through its owner's next turn (so it is seen on a turn) and goes at the one after
        kept = [n for n in state["notices"][seat] if not n["aged"]]
        state["notices"][seat] = [{"aged": True, "note": n["note"]} for n in kept]

    @staticmethod
    def _advance(state: State, seat: int) -> int:
        nxt: int = (seat + 1) % state["seats"]
        if nxt == state["first"]:
            state["round"] += 1
        return nxt

    def _finish(self, state: State, winner: int | None) -> None:
        seats = state["seats"]
        scores = [self.total(state, s) for s in range(seats)]
        progress = [2 if state["secret"][s] else 1 if state["table"][s] is not None else 0 for s in range(seats)]
        order = sorted(range(seats), key=lambda s: (-progress[s], -scores[s], s))
        if winner is not None:
            winners = [winner]
            order.remove(winner)
            order.insert(0, winner)
        else:
            best = max((progress[s], scores[s]) for s in range(seats))
            winners = [s for s in range(seats) if (progress[s], scores[s]) == best]
        state["result"] = {
            "scores": scores,
            "winners": winners,
            "ranking": order,
            "progress": progress,
            "reason": "venice" if winner is not None else "round_limit",
            "target": TARGETS[seats],
            "breakdown": [self._breakdown(state, s) for s in range(seats)],
        }
        state["phase"] = "over"
        state["trade"] = None

    def _breakdown(self, state: State, seat: int) -> dict[str, Any]:
        """What a seat's total is made of, and every secret it kept, told at the end: the money, the goods cards
        (their face value and how many of each colour: no card is named), the Golden Table and its mission city
        (also when the mission was not done), the Secret of the East, the win's colour condition, and whether the
        pawn stands in Venice."""
        hand = state["hands"][seat]
        table = state["table"][seat]
        return {
            "money": state["money"][seat],
            "goods": hand_total(hand),
            "colours": colour_counts(hand),
            "colours_ok": colours_ok(hand),
            "table": TABLE_VALUE if table is not None else 0,
            "mission": city_of_table(table) if table is not None else None,
            "mission_done": bool(state["secret"][seat]),
            "secret": SECRET_VALUE if state["secret"][seat] else 0,
            "venice": state["pawns"][seat] == VENICE,
            "total": self.total(state, seat),
        }

    # ---- bookkeeping --------------------------------------------------------------------

    @staticmethod
    def _mark_seen(state: State, card: str) -> None:
        if card not in state["seen"]:
            state["seen"].append(card)
            state["seen"].sort()

    @staticmethod
    def _notify(state: State, seat: int, note: dict[str, Any]) -> None:
        state["notices"][seat].append({"aged": False, "note": note})
        del state["notices"][seat][:-LOG_KEEP]

    # ---- views --------------------------------------------------------------------------

    def _prompt_text(self, state: State, seat: int) -> str:
        phase = state["phase"]
        if phase == "spin":
            if len(self.route_choices(state, seat)) > 1:
                return "Declare land or sea, and spin the compass."
            return "Spin the compass."
        if phase == "move":
            return f"You spun {state['spin']['value']}: choose where your move ends."
        if phase == "fight":
            return "The Golden Table protects you: fight (you lose nothing) or decline the fight."
        if phase == "ransom":
            return f"You lost the fight: pay {RANSOM_MONEY} bezants or one goods card onto the ransom space."
        if phase == "gift":
            return f"Choose the next 80-card to give the Khan ({len(state['gifts']) + 1} of {GIFTS})."
        if phase == "sell":
            return "Sell goods cards one at a time at face value, or done."
        if phase == "buy":
            return (
                f"Buy from the stock ({BUY_PRICE} each, up to {MAX_BUYS}), or make a player here sell you a blind "
                f"card for {FORCED_SALE_PRICE}, or done."
            )
        if phase == "discard":
            return "Put one of your goods cards at the bottom of its stack."
        return "Wait."

    def _public_view(self, state: State) -> dict[str, Any]:
        seats = state["seats"]
        players = []
        for s in range(seats):
            revealed = state["secret"][s]
            table = state["table"][s]
            players.append(
                {
                    "seat": s,
                    "pawn": state["pawns"][s],
                    "route": state["routes"][s],
                    "money": state["money"][s],
                    "hand": len(state["hands"][s]),
                    "table": table is not None,
                    "mission": city_of_table(table) if revealed and table is not None else None,
                    "secret": revealed,
                    "skip": state["skip"][s],
                }
            )
        trade = state["trade"]
        return {
            "status": "over" if state["result"] is not None else "playing",
            "options": dict(state["options"]),
            "board": BOARD_VIEW,
            "target": TARGETS[seats],
            "players": players,
            "stacks": {c: len(state["stacks"][c]) for c in COLOURS},
            "tables": len(state["tables"]),
            "secrets": state["secrets"],
            "ransom": {k: {"money": v["money"], "cards": list(v["cards"])} for k, v in state["ransom"].items()},
            "turn": state["turn"],
            "phase": state["phase"],
            "round": state["round"],
            "turns": state["turns"],
            "spin": None if state["spin"] is None else dict(state["spin"]),
            "fight": None if state["fight"] is None else dict(state["fight"]),
            "trade": None if trade is None else dict(trade),
            "log": list(state["log"]),  # the events themselves are never changed once logged (see `successor`)
        }

    def _private_view(self, state: State, seat: int) -> dict[str, Any] | None:
        table = state["table"][seat]
        return {
            "hand": list(state["hands"][seat]),
            "table": table,
            "mission": city_of_table(table) if table is not None else None,
            "total": self.total(state, seat),
            "notices": [dict(n["note"]) for n in state["notices"][seat]],
        }

    def secret_tokens(self, state: State, seat: int) -> list[str]:
        # a card the seller of a forced sale was shown is no longer this seat's secret alone
        told = [n["note"] for s, notes in enumerate(state["notices"]) if s != seat for n in notes]
        seen = set(state["seen"]).union(note["card"] for note in told if "card" in note)
        tokens = [c for c in state["hands"][seat] if c not in seen]
        table = state["table"][seat]
        if table is not None and table not in seen:
            tokens.append(table)
        return tokens

    def hidden_tokens(self, state: State) -> list[str]:
        seen = set(state["seen"])
        stacked = [c for colour in COLOURS for c in state["stacks"][colour] if c not in seen]
        return stacked + list(state["tables"])


GAME = Classic()
