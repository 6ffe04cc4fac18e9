"""Marco Polo Expedition (Reiner Knizia): the rules of seed 000 with the decisions of decisions.md A.

Owns: set-up, the turn (move figures paying each space or lightening the load, or pass; then draw),
the Kantshou scoring, the Daidu end and scoring, the 2-player rules, views and prompts.
Must not: do I/O. Track and cards come from `data`; which cards pay a space from `payment`.

A turn is split into small moves so that every prompt stays under the option bound:
  phase "move": {"a":"move","fig":f,"pay":[ids]}, {"a":"lighten","fig":f}, {"a":"pass"} (nothing moved
                yet) or {"a":"stop"} (after moving); when one figure has too many distinct paying sets,
                {"a":"choose","fig":f} opens card-by-card picking: {"a":"pick","card":id} / {"a":"cancel"}.
  phase "draw": {"a":"draw","from":"display","slot":i} or {"a":"draw","from":"deck"}.

Undo (v1.2, docs/games/expedition.md "Undo"): every decision of the move phase, and the `stop` or `pass` that
ends it, may be taken back until the draw; the draw (a card from the deck, or a display refilled from it) ends
the right, and so does a `stop`/`pass` that turns a card or draws one blindly (an empty display refilled, a
reshuffle, the stalemate rule's card from a neighbour's hand).
"""

from __future__ import annotations

from functools import partial
from typing import Any

from pydantic import BaseModel, ConfigDict

from server.games.base import Game, Move, Rng, State, ViewMemo, successor
from server.games.expedition import payment
from server.games.expedition.data import (
    ALL_CARDS,
    DAIDU,
    FIGURE_COLOURS,
    KANTSHOU,
    SECTION1,
    SECTION2,
    START_CHEST_VALUE,
    TRACK,
    TRACK_VIEW,
)

DISPLAY_SIZE = 5
#: above this many distinct paying sets for one figure, the prompt switches to card-by-card picking
PAY_LIST_LIMIT = 100
LOG_KEEP = 24
#: house rule: this many whole rounds in a row in which nobody could move, with no card left to draw, end the game
STALL_ROUNDS = 10


class ExpeditionOptions(BaseModel):
    """Room options: `open_gold` makes chest values public; `move_both` is the 2-player variant (9.2)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    open_gold: bool = False
    move_both: bool = False


def _same_types(a: list[str], b: list[str]) -> bool:
    """True when two card lists hold the same card types (colour and kind), copies ignored."""
    return sorted(c.rsplit("-", 1)[0] for c in a) == sorted(c.rsplit("-", 1)[0] for c in b)


def _gold_total(g: list[int]) -> int:
    return g[0] + 2 * g[1] + 3 * g[2]


#: where a seat's gold came from besides the start's 3-chest: chests taken on the track, the Kantshou scoring, the
#: final (Daidu) scoring, and the loads lightened (one gold each, counted negative)
EARNED = ("chests", "kantshou", "final", "lighten")


def _earn(state: State, seat: int, source: str, value: int) -> None:
    """Count gold a seat gained (or paid) by its source; a state from before the count keeps none."""
    earned = state.get("earned")
    if earned is not None:
        earned[seat][source] += value


class Expedition(Game):
    id = "expedition"
    title = "Marco Polo Expedition"
    min_seats = 2
    max_seats = 5
    unchanged_keys = frozenset({"seen", "options"})
    Options = ExpeditionOptions
    log_keep = LOG_KEEP
    offers_undo = True

    # ---- set-up -------------------------------------------------------------------------

    def _setup(self, seats: int, options: Any, rng: Rng) -> State:
        assert isinstance(options, ExpeditionOptions)
        deck = list(ALL_CARDS)
        rng.shuffle(deck)
        hand_size = 10 if seats == 2 else 5
        hands = [sorted(deck[i * hand_size : (i + 1) * hand_size]) for i in range(seats)]
        deck = deck[seats * hand_size :]
        display: list[str | None] = list(deck[:DISPLAY_SIZE])
        deck = deck[DISPLAY_SIZE:]
        # seed 000 §5: "the youngest player starts"; the server knows no ages and seats are assigned in join
        # order, so the room's seed draws the start player
        first = rng.below(seats)
        n_figs = 2 * seats if seats == 2 else seats
        # placement in turn order from the start player: Hormus, then the next free spaces
        figs = [{"seat": (first + i) % seats, "pos": i} for i in range(n_figs)]
        state: State = {
            "game": self.id,
            "seats": seats,
            "options": options.model_dump(),
            "rng": rng.seed,
            "figs": figs,
            "chests": [s.chest for s in TRACK],
            "hands": hands,
            "deck": deck,
            "display": display,
            "discard": [],
            "gold": [[0, 0, 1] for _ in range(seats)],  # counts of 1-, 2- and 3-chests
            # each seat's gold by where it came from, for the result's breakdown (START_CHEST_VALUE at the start)
            "earned": [dict.fromkeys(EARNED, 0) for _ in range(seats)],
            "turn": first,
            "phase": "move",
            "moved": [],
            "lightened": False,
            "kantshou": "open",  # open -> triggered (until the trigger's draw) -> scored
            "trigger": None,
            "pick": None,
            "turns": 0,
            "idle": 0,  # turns in a row nobody could move, with no card left to draw (stalemate check)
            "seq": 0,
            "log": [],
            "seen": sorted(c for c in display if c is not None),  # cards that were ever face up
            "stats": {},
            "result": None,
        }
        assert START_CHEST_VALUE == 3
        return state

    # ---- queries ------------------------------------------------------------------------

    def active_seats(self, state: State) -> list[int]:
        if state["result"] is not None:
            return []
        return [state["turn"]]

    def result(self, state: State) -> dict[str, Any] | None:
        res: dict[str, Any] | None = state["result"]
        return res

    @staticmethod
    def next_free(state: State, fig: int) -> int:
        """The next space a figure would enter: occupied spaces are skipped (Kantshou holds many once scored)."""
        pos: int = state["figs"][fig]["pos"]
        taken = {f["pos"] for i, f in enumerate(state["figs"]) if i != fig}
        scored = state["kantshou"] == "scored"
        q = pos + 1
        while q < DAIDU and q in taken and not (scored and q == KANTSHOU):
            q += 1
        return q

    def movable_figs(self, state: State, seat: int) -> list[int]:
        """Figures of `seat` that may still move this turn."""
        figs = [i for i, f in enumerate(state["figs"]) if f["seat"] == seat and f["pos"] < DAIDU]
        if state["moved"] and not state["options"]["move_both"]:
            figs = [i for i in figs if i in state["moved"]]
        return figs

    @staticmethod
    def can_lighten(state: State, fig: int, target: int) -> bool:
        """Lightening the load: a 1-chest (change is automatic) buys a space another player's figure passed."""
        seat = state["figs"][fig]["seat"]
        if state["lightened"] or _gold_total(state["gold"][seat]) < 1:
            return False
        if target >= DAIDU or state["chests"][target]:
            return False
        return any(f["seat"] != seat and f["pos"] > target for f in state["figs"])

    def can_move(self, state: State, seat: int) -> bool:
        """True when `seat` could move a figure now, paying cards or lightening the load."""
        hand: list[str] = state["hands"][seat]
        for fig in self.movable_figs(state, seat):
            target = self.next_free(state, fig)
            req = TRACK[target].req
            assert req is not None
            if payment.can_pay(req, hand) or self.can_lighten(state, fig, target):
                return True
        return False

    def legal_moves(self, state: State, seat: int) -> list[Move]:
        if seat not in self.active_seats(state):
            return []
        if state["phase"] == "draw":
            moves: list[Move] = [
                {"a": "draw", "from": "display", "slot": i} for i, c in enumerate(state["display"]) if c is not None
            ]
            if state["deck"] or state["discard"]:
                moves.append({"a": "draw", "from": "deck"})
            return moves
        pick = state["pick"]
        hand: list[str] = state["hands"][seat]
        if pick is not None:
            req = TRACK[self.next_free(state, pick["fig"])].req
            assert req is not None
            rest = list(hand)
            for c in pick["cards"]:
                rest.remove(c)
            seen: set[str] = set()
            moves = []
            for c in sorted(rest):
                t = c.rsplit("-", 1)[0]
                if t in seen:
                    continue
                seen.add(t)
                others = list(rest)
                others.remove(c)
                if payment.can_complete(req, [*pick["cards"], c], others):
                    moves.append({"a": "pick", "card": c})
            moves.append({"a": "cancel"})
            return moves
        moves = []
        for fig in self.movable_figs(state, seat):
            target = self.next_free(state, fig)
            req = TRACK[target].req
            assert req is not None
            sets = payment.paying_sets(req, hand, PAY_LIST_LIMIT)
            if sets is None:
                moves.append({"a": "choose", "fig": fig})
            else:
                moves.extend({"a": "move", "fig": fig, "pay": s} for s in sets)
            if self.can_lighten(state, fig, target):
                moves.append({"a": "lighten", "fig": fig})
        moves.append({"a": "stop"} if state["moved"] else {"a": "pass"})
        return moves

    # ---- applying moves -----------------------------------------------------------------

    def apply(self, state: State, seat: int, move: Move, legal: list[Move] | None = None) -> State:
        """As `Game.apply`, but a payment is a set of hand cards: any order, any copy of a duplicate.

        The prompt lists each choice once (sorted, lowest copies); a `move` naming other copies or another
        order, or a whole payment while the prompt offers card-by-card picking, is accepted when exactly those
        cards meet the space's requirement; a `pick` may name any copy of an offered card type.
        """
        if self.result(state) is None and seat in self.active_seats(state) and isinstance(move, dict):
            named = self._named(state, seat, move, legal)
            if named is not None:
                new = successor(state, self.unchanged_keys)
                self._apply(new, seat, named)
                self._savepoint(state, new, seat, named)
                return new
        return super().apply(state, seat, move, legal)

    def _named(self, state: State, seat: int, move: Move, legal: list[Move] | None = None) -> Move | None:
        """A payment or pick differing from a listed option only in order or copies, as it will be applied.

        `legal`: `legal_moves(state, seat)` if the caller has it already (the room's prompt of this state)."""
        if state["phase"] != "move":
            return None
        hand: list[str] = state["hands"][seat]
        pick = state["pick"]
        if move.get("a") == "pick" and set(move) == {"a", "card"} and pick is not None:
            card = move["card"]
            rest = list(hand)
            for c in pick["cards"]:
                rest.remove(c)
            if not isinstance(card, str) or card not in rest:
                return None
            kind = card.rsplit("-", 1)[0]
            for m in self.legal_moves(state, seat) if legal is None else legal:
                if m["a"] == "pick" and m["card"].rsplit("-", 1)[0] == kind:
                    return {"a": "pick", "card": card}
            return None
        if move.get("a") != "move" or set(move) != {"a", "fig", "pay"} or pick is not None:
            return None
        fig, pay = move["fig"], move["pay"]
        if type(fig) is not int or fig not in self.movable_figs(state, seat):
            return None
        if not isinstance(pay, list) or not all(isinstance(c, str) for c in pay) or len(set(pay)) != len(pay):
            return None
        if any(c not in hand for c in pay):
            return None
        req = TRACK[self.next_free(state, fig)].req
        assert req is not None
        if not payment.accepts(req, pay):
            return None
        if legal is None:
            legal = self.legal_moves(state, seat)
        listed = any(m["a"] == "move" and m["fig"] == fig and _same_types(m["pay"], pay) for m in legal)
        # when the prompt offers picking for this figure, the whole payment is as good
        if listed or {"a": "choose", "fig": fig} in legal:
            return {"a": "move", "fig": fig, "pay": sorted(pay)}
        return None

    def _apply(self, state: State, seat: int, move: Move) -> None:
        a = move["a"]
        if a == "move":
            self._pay_cards(state, seat, move["pay"])
            self._enter(state, move["fig"], "move", move["pay"])
        elif a == "lighten":
            self._pay_chest(state, seat)
            state["lightened"] = True
            self._bump(state, "lighten")
            self._enter(state, move["fig"], "lighten", None)
        elif a == "choose":
            state["pick"] = {"fig": move["fig"], "cards": []}
            self._bump(state, "pick_mode")
        elif a == "pick":
            pick = state["pick"]
            pick["cards"].append(move["card"])
            req = TRACK[self.next_free(state, pick["fig"])].req
            assert req is not None
            if len(pick["cards"]) == payment.req_size(req):
                cards = sorted(pick["cards"])
                state["pick"] = None
                self._pay_cards(state, seat, cards)
                self._enter(state, pick["fig"], "move", cards)
        elif a == "cancel":
            state["pick"] = None
        elif a in ("pass", "stop"):
            if a == "pass" and self.can_move(state, seat):
                state["idle"] = -1  # could have moved: this turn breaks any stalemate count (reset below)
            self._bump(state, a)
            self._log(state, {"ev": a, "seat": seat})
            state["phase"] = "draw"
            self._maybe_skip_draw(state)
        elif a == "draw":
            state["idle"] = 0
            self._draw(state, seat, move)
            self._end_turn(state)
        else:  # pragma: no cover - legal_moves lists only the kinds above
            raise AssertionError(a)

    def _pay_cards(self, state: State, seat: int, cards: list[str]) -> None:
        hand = state["hands"][seat]
        for c in cards:
            hand.remove(c)
        state["discard"].extend(cards)
        self._mark_seen(state, cards)

    def _pay_chest(self, state: State, seat: int) -> None:
        _earn(state, seat, "lighten", -1)
        g = state["gold"][seat]
        if g[0]:
            g[0] -= 1
        elif g[1]:  # change a 2 into 1 + 1, pay one of them and keep the other
            g[1] -= 1
            g[0] += 1
            self._bump(state, "change")
        else:  # change a 3 into 2 + 1 and pay the 1
            g[2] -= 1
            g[1] += 1
            self._bump(state, "change")

    def _enter(self, state: State, fig: int, how: str, paid: list[str] | None) -> None:
        f = state["figs"][fig]
        seat = f["seat"]
        start = f["pos"]
        target = self.next_free(state, fig)
        if target > start + 1:
            self._bump(state, "skip")
        f["pos"] = target
        if fig not in state["moved"]:
            state["moved"].append(fig)
        ev: dict[str, Any] = {"ev": how, "seat": seat, "fig": fig, "from": start, "to": target}
        if paid is not None:
            ev["paid"] = paid
        chest = state["chests"][target]
        if chest:
            state["chests"][target] = 0
            self._give(state, seat, chest)
            _earn(state, seat, "chests", chest)
            ev["chest"] = chest
            self._bump(state, "chest")
        if state["kantshou"] == "scored" and target in SECTION1 and target != KANTSHOU:
            f["pos"] = KANTSHOU  # a straggler catches up for free
            ev["to"] = KANTSHOU
            ev["caught_up"] = True
            self._bump(state, "catch_up")
        self._log(state, ev)
        if target == DAIDU:
            self._final_scoring(state)
        elif target == KANTSHOU and state["kantshou"] == "open":
            state["kantshou"] = "triggered"
            state["trigger"] = seat
            self._bump(state, "kantshou_trigger")
            state["phase"] = "draw"  # the trigger's whole turn ends after the draw
            self._maybe_skip_draw(state)

    def _fill_display(self, state: State) -> None:
        """Top the face-up display up to five cards (6.3) where a slot stayed empty for want of cards."""
        for slot, card in enumerate(state["display"]):
            if card is None:
                refill = self._take_top(state)
                if refill is None:
                    return
                state["display"][slot] = refill
                self._mark_seen(state, [refill])

    def _maybe_skip_draw(self, state: State) -> None:
        """With no card left to draw (deck, discard pile and display empty) the draw is automatic.

        House rule (docs/games/expedition.md, "Stalemate"): the player draws one card blindly from the hand of
        the next player in turn order holding a card (the left neighbour); a turn in which its player moved
        nothing and could not have moved counts towards the stalemate end.
        """
        if state["phase"] == "draw":
            self._fill_display(state)
        if state["phase"] == "draw" and not any(c is not None for c in state["display"]):
            if not state["deck"] and not state["discard"]:
                self._bump(state, "no_card_to_draw")
                # a turn counts only if its player moved nothing and could not have moved
                state["idle"] = 0 if state["moved"] or state["idle"] < 0 else state["idle"] + 1
                if state["idle"] >= STALL_ROUNDS * state["seats"]:
                    # house rule: STALL_ROUNDS whole rounds with no movement and no card left to draw end the game
                    self._bump(state, "stalemate")
                    self._log(state, {"ev": "stalemate"})
                    if state["kantshou"] != "scored":
                        # a stalemate before Kantshou: the figures on section-1 spaces score as at Kantshou
                        self._kantshou_scoring(state, gather=False)
                    self._final_scoring(state)
                    return
                self._take_from_neighbour(state, state["turn"])
                self._end_turn(state)

    def _take_from_neighbour(self, state: State, seat: int) -> None:
        """Draw one card at random from the hand of the next seat in turn order that holds a card."""
        seats: int = state["seats"]
        for step in range(1, seats):
            giver = (seat + step) % seats
            hand: list[str] = state["hands"][giver]
            if hand:
                rng = Rng(state["rng"])
                card = hand.pop(rng.below(len(hand)))
                state["rng"] = rng.seed
                state["hands"][seat].append(card)
                state["hands"][seat].sort()
                # the card is never named: only the two players concerned know it
                self._log(state, {"ev": "take", "seat": seat, "from_seat": giver})
                self._bump(state, "take_from_hand")
                return

    def _take_top(self, state: State) -> str | None:
        if not state["deck"] and state["discard"]:
            rng = Rng(state["rng"])
            state["deck"] = state["discard"]
            state["discard"] = []
            rng.shuffle(state["deck"])
            state["rng"] = rng.seed
            self._bump(state, "reshuffle")
            self._log(state, {"ev": "reshuffle", "cards": len(state["deck"])})
        if not state["deck"]:
            return None
        card: str = state["deck"].pop(0)
        return card

    def _draw(self, state: State, seat: int, move: Move) -> None:
        if move["from"] == "display":
            slot = move["slot"]
            card = state["display"][slot]
            state["display"][slot] = refill = self._take_top(state)
            if refill is not None:
                self._mark_seen(state, [refill])
            self._log(state, {"ev": "draw", "seat": seat, "slot": slot, "card": card})
            self._bump(state, "draw_display")
        else:
            card = self._take_top(state)
            self._log(state, {"ev": "draw", "seat": seat, "slot": None})
            self._bump(state, "draw_deck")
        assert card is not None
        state["hands"][seat].append(card)
        state["hands"][seat].sort()

    def _end_turn(self, state: State) -> None:
        if state["result"] is not None:
            return
        if state["kantshou"] == "triggered":
            self._kantshou_scoring(state)
        state["turns"] += 1
        state["turn"] = (state["turn"] + 1) % state["seats"]
        state["phase"] = "move"
        state["moved"] = []
        state["lightened"] = False
        state["pick"] = None

    # ---- scoring ------------------------------------------------------------------------

    def _give(self, state: State, seat: int, value: int) -> None:
        """Pay gold from the (unlimited) supply, largest chests first."""
        g = state["gold"][seat]
        threes, rest = divmod(value, 3)
        g[2] += threes
        if rest == 2:
            g[1] += 1
        elif rest == 1:
            g[0] += 1

    def _kantshou_scoring(self, state: State, gather: bool = True) -> None:
        """Section-1 figures score their space; with `gather` they then move onto Kantshou."""
        paid = []
        for i, f in enumerate(state["figs"]):
            if f["pos"] in SECTION1:
                value = TRACK[f["pos"]].score
                assert value is not None
                self._give(state, f["seat"], value)
                _earn(state, f["seat"], "kantshou", value)
                paid.append({"fig": i, "seat": f["seat"], "gold": value})
                if gather:
                    f["pos"] = KANTSHOU
        state["kantshou"] = "scored"
        self._log(state, {"ev": "kantshou_scoring", "paid": paid})

    def _final_scoring(self, state: State) -> None:
        paid = []
        for i, f in enumerate(state["figs"]):
            if f["pos"] in SECTION2:
                value = TRACK[f["pos"]].score
                assert value is not None
                self._give(state, f["seat"], value)
                _earn(state, f["seat"], "final", value)
                paid.append({"fig": i, "seat": f["seat"], "gold": value})
        self._log(state, {"ev": "final_scoring", "paid": paid})
        seats = state["seats"]
        scores = [_gold_total(state["gold"][s]) for s in range(seats)]
        best = [max(f["pos"] for f in state["figs"] if f["seat"] == s) for s in range(seats)]
        key = [(scores[s], best[s]) for s in range(seats)]
        top = max(key)
        ranking = sorted(range(seats), key=lambda s: (-scores[s], -best[s], s))
        state["result"] = {
            "scores": scores,
            "winners": [s for s in range(seats) if key[s] == top],
            "ranking": ranking,
            "tiebreak": best,
            "breakdown": [self._breakdown(state, s) for s in range(seats)],
        }
        state["phase"] = "over"

    @staticmethod
    def _breakdown(state: State, seat: int) -> dict[str, Any]:
        """What a seat's gold is made of, told at the end (every seat's chests are shown then): the chests held
        by value, and, when the state counted them from the start, the gold by source, adding up to the total."""
        g = state["gold"][seat]
        out: dict[str, Any] = {
            "gold": _gold_total(g),
            "chest_values": {"1": g[0], "2": g[1], "3": g[2]},
            "figures": sorted(f["pos"] for f in state["figs"] if f["seat"] == seat),
        }
        earned = state.get("earned")
        if earned is not None:
            out["start"] = START_CHEST_VALUE
            out.update(earned[seat])
        return out

    # ---- bookkeeping --------------------------------------------------------------------

    @staticmethod
    def _mark_seen(state: State, cards: list[str]) -> None:
        state["seen"] = sorted(set(state["seen"]).union(cards))

    # ---- undo within a turn (v1.2) --------------------------------------------------------

    def _undo_keeps(self, before: State, after: State, seat: int, move: Move) -> bool:
        """The move phase's decisions (and the `stop`/`pass` ending it) keep the right to take the turn back; the
        draw ends it, as does anything that turned a card: the deck or the display changed (a draw from the
        shuffled deck leaves the RNG as it was), or the RNG was drawn from (a reshuffle, a neighbour's card)."""
        return (
            move["a"] != "draw"
            and self.undo_basics(before, after, seat)
            and after["turns"] == before["turns"]
            and len(after["deck"]) == len(before["deck"])
            and after["display"] == before["display"]
        )

    def undo(self, state: State, seat: int) -> State:
        """As `Game.undo`, but the cards shown in the taken-back payments stay `seen`: the public log names them,
        so they are nobody's secret any more (`seen` is in no view, so every view is still the turn's first)."""
        new = super().undo(state, seat)
        new["seen"] = list(state["seen"])
        return new

    # ---- views --------------------------------------------------------------------------

    def _prompt_text(self, state: State, seat: int) -> str:
        if state["phase"] == "draw":
            return "Draw a card: one of the face-up cards or the top of the deck."
        if state["pick"] is not None:
            return "Pick the next card to pay with (or cancel)."
        if state["moved"]:
            return "Move on (pay the next space or lighten the load) or stop moving."
        return "Move a figure (pay the next space or lighten the load) or pass."

    def _public_view(self, state: State) -> dict[str, Any]:
        # the figures' and players' entries are built once per distinct content (`_VIEWS`): an unchanged one is the
        # object of the version before, which the room's diff skips by identity
        # at the end every seat's chests are shown (the result's breakdown tells the same)
        open_gold = state["options"]["open_gold"] or state["result"] is not None
        hands, gold = state["hands"], state["gold"]
        players = [
            _VIEWS.get(("p", s, len(hands[s]), *gold[s], open_gold), partial(_player_view, s, hands, gold, open_gold))
            for s in range(state["seats"])
        ]
        figures = []
        for i, f in enumerate(state["figs"]):
            # the space this figure would enter next (occupied spaces skipped), for clients
            nxt = self.next_free(state, i) if f["pos"] < DAIDU else None
            seat, pos = f["seat"], f["pos"]
            figures.append(_VIEWS.get(("f", i, seat, pos, nxt), partial(_figure_view, i, seat, pos, nxt)))
        return {
            "status": "over" if state["result"] is not None else "playing",
            "options": dict(state["options"]),
            "track": TRACK_VIEW,
            "chests": list(state["chests"]),
            "figures": figures,
            "players": players,
            "display": list(state["display"]),
            "deck": len(state["deck"]),
            "discard": list(state["discard"]),
            "turn": state["turn"],
            "phase": state["phase"],
            "moved": list(state["moved"]),
            "lightened": state["lightened"],
            "kantshou": state["kantshou"],
            "turns": state["turns"],
            "log": list(state["log"]),  # the events themselves are never changed once logged (see `successor`)
        }

    def _private_view(self, state: State, seat: int) -> dict[str, Any] | None:
        priv: dict[str, Any] = {"hand": list(state["hands"][seat])}
        if not state["options"]["open_gold"]:
            g = state["gold"][seat]
            priv["gold"] = _gold_total(g)
            priv["chest_values"] = {"1": g[0], "2": g[1], "3": g[2]}
        pick = state["pick"]
        if pick is not None and state["turn"] == seat:
            priv["picking"] = {"fig": pick["fig"], "cards": list(pick["cards"])}
        return priv

    def secret_tokens(self, state: State, seat: int) -> list[str]:
        # cards that were never face up (display or discard pile): their ids alone give them away
        seen = set(state["seen"])
        return [c for c in state["hands"][seat] if c not in seen]

    def hidden_tokens(self, state: State) -> list[str]:
        # after a reshuffle the deck holds the old, public discard pile: only its order (never sent) is secret
        seen = set(state["seen"])
        return [c for c in state["deck"] if c not in seen]


#: the figures' and players' entries of public views (`Expedition._public_view`)
_VIEWS = ViewMemo()


def _figure_view(i: int, seat: int, pos: int, nxt: int | None) -> dict[str, Any]:
    return {"fig": i, "seat": seat, "pos": pos, "colour": FIGURE_COLOURS[i], "next": nxt}


def _player_view(s: int, hands: list[list[str]], gold: list[list[int]], open_gold: bool) -> dict[str, Any]:
    g = gold[s]
    p: dict[str, Any] = {"seat": s, "hand": len(hands[s]), "chests": sum(g)}
    if open_gold:
        p["gold"] = _gold_total(g)
        p["chest_values"] = {"1": g[0], "2": g[1], "3": g[2]}
    return p


GAME = Expedition()
