"""The engine skeleton both dice-placement games share: phases, turns, rounds, pending choices, dice, posts.

Owns: `DiceGame`, the base class of the Voyages and Marco Polo II engines, with what their rules do alike:
- phases "draft" (one seat at a time) / "goals" / "start" (all seats at once) / "play" / "over", the seats that
  may act, legal moves split into a pending item's options and the turn's top-level options;
- the character draft pick, turns clockwise skipping seats without dice, the round end after `ROUNDS`;
- dice: rolling, sorting by kind then value, the distinct dice of a pool, rerolls and ±1 adjustments,
  the compensation of a roll below 15 (coins and camels of choice);
- action spaces: the one-colour rule, the Khan's favor ladder (each die at least the previous one);
- trading posts: the post-VP table, relocation when none is left, posts placed during the current turn;
- the result with the camel tie-break, views of pending items and goal cards, the log and rule counters;
- undo within a turn (`_undo_keeps`): what ends a seat's right to take back its turn in both games.
Must not: know either game's components; do I/O. Each engine supplies its rules through the hooks below and
the class attributes `ROUNDS`, `DIE_ORDER`, `POST_VP`, `PROMPTS`, `GOALS_ASIDE`, `QUIET_PENDING`,
`CONTRACT_PENDING`.

Undo (docs/games/voyages.md and khan.md, "Undo"): a turn of the "play" phase is several decisions long (bonus
actions, an action space, its dice, then the action's own choices). The seat may take back what it decided since
its turn began, or since the last step of this turn that revealed something (then the savepoint is the state
right after that step), as long as the turn goes on. A step keeps that right when the RNG was not drawn from (no
die rolled or rerolled), no face-down pile lost a card from its top (`_face_down`: a contract drawn, a display
filled; a discard put under a pile reveals nothing), no contract became seen, the mover received no new secret,
and the step neither ended the turn (an `end_turn` or `round` event was logged: this also covers a seat that
moves again at once because every other seat has run out of dice) nor left the phase "play". The round-start
choices, the goal choice and the draft are never taken back: they are simultaneous, or pass the turn at once.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Callable
from functools import partial
from typing import Any, ClassVar

from server.games.base import Game, Move, Rng, State, ViewMemo, clone, state_key

COMPENSATION_LIMIT = 15
DIE_SIDES = 6
LOG_KEEP = 30
#: the players' public views, per game, seat, end of game and player state (`DiceGame._players_view`)
_PLAYER_VIEWS = ViewMemo()
#: the placements on a space (`DiceGame._placements`) and the city-card slots (`DiceGame._city_card_view`)
_PLACEMENTS = ViewMemo()
_CITY_CARDS = ViewMemo()


#: prompt texts both games use for the same pending kinds
COMMON_PROMPTS: dict[str, str] = {
    "comp": "Your dice total less than 15: take the difference as coins (the rest as camels).",
    "good": "Take 1 good of your choice.",
    "dice": "Choose the next die for this action (or cancel).",
    "relocate": "All your trading posts are placed: choose the post to move here.",
    "contracts": "Take a contract (up to 2), or stop.",
    "times": "How many times to use the city card?",
}


def shuffled(rng: Rng, items: Any, key: Any = None) -> list[Any]:
    """`items` sorted (by `key`), then shuffled by the game's RNG."""
    out = sorted(items, key=key)
    rng.shuffle(out)
    return out


def check_lineup(characters: tuple[str, ...] | None, seats: int) -> None:
    """A fixed line-up must name one character per seat."""
    if characters is not None and len(characters) != seats:
        raise ValueError(f"characters must name one character per seat ({seats})")


def new_player(*, coins: int, camels: int, figure: Any, posts: int, starter: str, **extra: Any) -> dict[str, Any]:
    """A player at the start: no character yet, no goods or VP, one figure, one starting contract."""
    return {
        "character": None,
        "coins": coins,
        "camels": camels,
        "pepper": 0,
        "silk": 0,
        "gold": 0,
        "vp": 0,
        "dice": [],
        "figures": [figure],
        "posts": [],
        "posts_left": posts,
        "placed": 0,
        "contracts": [starter],
        "completed": [],
        **extra,
    }


def check_characters(v: tuple[str, ...] | None, known: dict[str, Any]) -> tuple[str, ...] | None:
    """Validator of the `characters` room option: known ids, each once."""
    if v is not None:
        unknown = [c for c in v if c not in known]
        if unknown:
            raise ValueError(f"unknown characters {unknown}; known: {sorted(known)}")
        if len(set(v)) != len(v):
            raise ValueError("each character may be used once")
    return v


def roll(rng: Rng) -> int:
    """One die."""
    return 1 + rng.below(DIE_SIDES)


def die_types(dice: list[list[Any]]) -> list[tuple[str, int]]:
    """The distinct (kind, value) dice of a pool, in pool order."""
    out: list[tuple[str, int]] = []
    for k, v in dice:
        if (k, v) not in out:
            out.append((k, v))
    return out


def compensation(values: list[int]) -> int:
    """What a roll below 15 is made up with (0 for 15 or more)."""
    return max(0, COMPENSATION_LIMIT - sum(values))


def comp_options(item: dict[str, Any]) -> list[Move]:
    """The compensation choice: how many of the amount as coins (the rest as camels)."""
    return [{"a": "comp", "coins": n} for n in range(item["amount"] + 1)]


def colour_used(places: list[dict[str, Any]], seat: int) -> bool:
    """Whether `seat` has a die of its own colour among `places` (one colour per space and round)."""
    return any(pl["seat"] == seat and any(d[0] == "own" for d in pl["dice"]) for pl in places)


def khan_min(khan: list[dict[str, Any]]) -> int:
    """The lowest die the Khan's favor takes next: at least the last die placed there."""
    return int(khan[-1]["dice"][0][1]) if khan else 1


def neutral(value: int) -> dict[str, Any]:
    """A neutral die's placement (fewer players)."""
    return {"seat": None, "dice": [["neutral", value]]}


def ranked_result(scores: list[int], camels: list[int], breakdown: list[dict[str, int]]) -> dict[str, Any]:
    """The result: highest score wins, a tie goes to most camels, still tied a shared win."""
    seats = len(scores)
    key = [(scores[s], camels[s]) for s in range(seats)]
    best = max(key)
    return {
        "scores": scores,
        "winners": [s for s in range(seats) if key[s] == best],
        "ranking": sorted(range(seats), key=lambda s: (-scores[s], -camels[s], s)),
        "tiebreak": camels,
        "breakdown": breakdown,
    }


class DiceGame(Game):
    """The shared rules of the two dice-placement engines; subclasses implement the hooks."""

    min_seats = 2
    max_seats = 4
    log_keep = LOG_KEEP
    unchanged_keys = frozenset({"seen", "options"})
    ROUNDS: ClassVar[int] = 5
    #: the action spaces in the order they are offered
    SPACES: ClassVar[tuple[str, ...]]
    #: the state key of the seat that starts the round ("start_player" or "first")
    FIRST: ClassVar[str]
    #: sort order of die kinds in a player's pool
    DIE_ORDER: ClassVar[dict[str, int]]
    #: VP for the nth post placed
    POST_VP: ClassVar[dict[int, int]]
    #: prompt text per pending kind
    PROMPTS: ClassVar[dict[str, str]]
    #: the player field of goal cards set aside (secret to their owner for ever)
    GOALS_ASIDE: ClassVar[str]
    #: pending kinds whose fields are not shown (the goal choice)
    QUIET_PENDING: ClassVar[tuple[str, ...]]
    #: pending kinds whose `contract` field is shown in full
    CONTRACT_PENDING: ClassVar[tuple[str, ...]]

    # ---- hooks ------------------------------------------------------------------------------

    @abstractmethod
    def _give_character(self, state: State, seat: int, char: str) -> None: ...

    @abstractmethod
    def _after_draft(self, state: State) -> None: ...

    @abstractmethod
    def _start_round(self, state: State) -> None: ...

    @abstractmethod
    def _final_scoring(self, state: State) -> None: ...

    def estimated_vp(self, state: State) -> list[float]:
        """Estimated final VP per seat (the search bots' playout cut-off): the final scoring as if the game
        ended now, plus a little for what each player still holds."""
        end = clone({k: v for k, v in state.items() if k != "undo"})  # the savepoint is not needed here
        self._final_scoring(end)
        scores = end["result"]["scores"]
        out = []
        for s, p in enumerate(state["players"]):
            goods = sum(p.get(k, 0) for k in ("pepper", "silk", "gold", "jade"))
            held = 0.4 * goods + 0.2 * p["camels"] + 0.05 * p["coins"] + 1.5 * len(p["contracts"])
            out.append(float(scores[s]) + held)
        return out

    @abstractmethod
    def _settle_items(self, state: State) -> bool:
        """Settle one pending item that needs no decision; whether one was settled."""

    @abstractmethod
    def _pending_options(self, state: State, item: dict[str, Any]) -> list[Move]: ...

    @abstractmethod
    def _space_ok(self, state: State, seat: int, space: str) -> bool: ...

    @abstractmethod
    def _bonus_options(self, state: State, seat: int) -> list[Move]:
        """The bonus actions `seat` may take now (before or after its main action)."""

    @abstractmethod
    def _colour_used(self, state: State, seat: int, space: str) -> bool: ...

    @abstractmethod
    def _pool_left(self, p: dict[str, Any], picked: list[list[Any]]) -> list[list[Any]]: ...

    @abstractmethod
    def _resolve(self, state: State, seat: int, item: dict[str, Any], move: Move) -> None: ...

    @abstractmethod
    def _turn_move(self, state: State, seat: int, move: Move) -> None: ...

    @abstractmethod
    def _post_effects(self, state: State, seat: int, city: Any) -> None: ...

    @abstractmethod
    def _out_of_posts(self, state: State, seat: int, city: Any) -> None:
        """A post is due in `city` but none is left (relocation, or nothing)."""

    @abstractmethod
    def _goal_view(self, gid: str) -> dict[str, Any]: ...

    @abstractmethod
    def _contract_view(self, cid: str) -> dict[str, Any]: ...

    @abstractmethod
    def _token_order(self, token: str) -> Any:
        """Sort key of seen contract ids."""

    def _turn_begins(self, state: State, seat: int) -> None:
        """Called when `seat`'s turn begins (after `turn_info` is fresh)."""

    def _turn_ends(self, state: State, seat: int) -> None:
        """Called when `seat` ends its turn, before the next seat's turn begins."""

    def _round_ends(self, state: State) -> None:
        """Called at a round's end, before the final scoring or the next round."""

    def _new_turn_info(self) -> dict[str, Any]:
        return {"main": False, "black": False, "posts": []}

    def _face_down(self, state: State) -> list[list[Any]]:
        """The face-down piles (and boxed components) of `state`, each a list whose order nobody sees: undo stops
        when a step takes anything from one (see `_undo_keeps`); adding to the end of one is no reveal."""
        return []

    def _base_state(self, seats: int, options: Any, players: list[dict[str, Any]], **fields: Any) -> State:
        """The state keys both games share, then the game's own `fields`."""
        return {
            "game": self.id,
            "seats": seats,
            "options": options.model_dump(mode="json"),
            "rng": 0,
            "phase": "setup",
            "round": 0,
            "turn": None,
            "turn_info": self._new_turn_info(),
            "players": players,
            **fields,
            "khan": [],
            "bag": [],
            "pending": [],
            "draft": None,
            "seq": 0,
            "log": [],
            "stats": {},
            "result": None,
        }

    # ---- queries --------------------------------------------------------------------------

    def active_seats(self, state: State) -> list[int]:
        phase = state["phase"]
        if phase == "over":
            return []
        if phase == "draft":
            return [state["draft"]["order"][0]]
        if phase == "play":
            return [state["turn"]]
        return sorted({item["seat"] for item in state["pending"]})

    def result(self, state: State) -> dict[str, Any] | None:
        res: dict[str, Any] | None = state["result"]
        return res

    @staticmethod
    def _current(state: State, seat: int) -> dict[str, Any] | None:
        """`seat`'s first pending item."""
        for item in state["pending"]:
            if item["seat"] == seat:
                return item  # type: ignore[no-any-return]
        return None

    def legal_moves(self, state: State, seat: int) -> list[Move]:
        if seat not in self.active_seats(state):
            return []
        if state["phase"] == "draft":
            return [{"a": "character", "character": c} for c in state["draft"]["offer"]]
        item = self._current(state, seat)
        if item is not None:
            return self._pending_options(state, item)
        return self._turn_options(state, seat)

    # ---- undo within a turn (see the module docstring) -------------------------------------------

    def _undo_keeps(self, before: State, after: State, seat: int, move: Move) -> bool:
        return (
            self.undo_basics(before, after, seat)
            and before["phase"] == "play"
            and after["phase"] == "play"
            and before["turn"] == seat
            and after["turn"] == seat
            and before["round"] == after["round"]
            and not self._turn_ended(before, after)
            and before["seen"] == after["seen"]
            and not self._drawn(before, after)
            and set(self.secret_tokens(after, seat)) <= set(self.secret_tokens(before, seat))
        )

    @staticmethod
    def _turn_ended(before: State, after: State) -> bool:
        """Whether the step from `before` to `after` ended a turn or a round (by the events it logged; the turn
        seat alone cannot tell, since a seat moves again at once when every other seat is out of dice)."""
        logged = after["seq"] - before["seq"]
        events = [ev for ev in after["log"] if ev["n"] > before["seq"]]
        if len(events) < logged:  # more events than the log keeps: assume the worst
            return True
        return any(ev["ev"] in ("end_turn", "round", "final_scoring") for ev in events)

    def _drawn(self, before: State, after: State) -> bool:
        """Whether a face-down pile of `before` lost a card (or changed order) in `after`: each pile of `after`
        must start with the whole pile of `before`."""
        for old, new in zip(self._face_down(before), self._face_down(after), strict=True):
            if new[: len(old)] != old:
                return True
        return False

    # ---- moves, turns and rounds ---------------------------------------------------------------

    def _apply(self, state: State, seat: int, move: Move) -> None:
        if state["phase"] == "draft":
            self._draft_pick(state, seat, move["character"])
        else:
            item = self._current(state, seat)
            if item is not None:
                self._resolve(state, seat, item, move)
            else:
                self._turn_move(state, seat, move)
        self._settle(state)

    def _draft_pick(self, state: State, seat: int, char: str) -> None:
        dr = state["draft"]
        dr["offer"].remove(char)
        dr["order"].pop(0)
        self._give_character(state, seat, char)
        self._log(state, {"ev": "character", "seat": seat, "character": char})
        if not dr["order"]:
            self._after_draft(state)

    def _turn_options(self, state: State, seat: int) -> list[Move]:
        """Choose a main action (a space the seat can complete), bonus actions, and end once the main action is
        done or no die is left."""
        p = state["players"][seat]
        ti = state["turn_info"]
        opts: list[Move] = []
        if not ti["main"] and p["dice"]:
            opts.extend({"a": "space", "space": sp} for sp in self.SPACES if self._space_ok(state, seat, sp))
        opts.extend(self._bonus_options(state, seat))
        if ti["main"] or not p["dice"]:
            opts.append({"a": "end"})
        return opts

    def _only_end(self, state: State, seat: int) -> bool:
        """`_turn_options(state, seat) == [{"a": "end"}]` without listing the spaces: "end" is offered only once
        the main action is done or no die is left, and then no space is (bonus options are never "end")."""
        ti = state["turn_info"]
        return bool(ti["main"] or not state["players"][seat]["dice"]) and not self._bonus_options(state, seat)

    def _die_candidates(self, state: State, seat: int, item: dict[str, Any]) -> list[tuple[str, int, list[list[Any]]]]:
        """The distinct dice `seat` may add to the placement of `item` by the colour rule, each with the rest of
        the pool."""
        p = state["players"][seat]
        own_ok = not self._colour_used(state, seat, item["space"])
        pool = self._pool_left(p, item["picked"])
        out: list[tuple[str, int, list[list[Any]]]] = []
        for k, v in die_types(pool):
            if k == "own" and not own_ok:
                continue
            rest = list(pool)
            rest.remove([k, v])
            out.append((k, v, rest))
        return out

    def _settle(self, state: State) -> None:
        """Advance past everything that needs no decision."""
        for _ in range(10_000):
            phase = state["phase"]
            if phase in ("over", "draft", "setup"):
                return
            if phase in ("goals", "start"):
                if state["pending"]:
                    if self._settle_items(state):
                        continue
                    return
                if phase == "goals":
                    self._start_round(state)
                else:
                    self._begin_play(state)
                continue
            seat = state["turn"]
            if self._current(state, seat) is not None:
                if self._settle_items(state):
                    continue
                return
            if self._only_end(state, seat):
                self._end_turn(state)
                continue
            return
        raise AssertionError("settle did not converge")  # pragma: no cover

    def _begin_play(self, state: State) -> None:
        state["phase"] = "play"
        self._next_turn(state, state[self.FIRST])

    def _next_turn(self, state: State, first: int) -> None:
        """The turn of the first seat from `first` on (clockwise) that still has dice; else the round ends."""
        seats = state["seats"]
        for i in range(seats):
            s = (first + i) % seats
            if state["players"][s]["dice"]:
                state["turn"] = s
                state["turn_info"] = self._new_turn_info()
                self._turn_begins(state, s)
                return
        self._end_round(state)

    def _end_turn(self, state: State) -> None:
        seat = state["turn"]
        self._turn_ends(state, seat)
        self._log(state, {"ev": "end_turn", "seat": seat})
        self._next_turn(state, (seat + 1) % state["seats"])

    def _end_round(self, state: State) -> None:
        state["turn"] = None
        self._round_ends(state)
        for p in state["players"]:
            p["dice"] = []
        if state["round"] >= self.ROUNDS:
            self._final_scoring(state)
            return
        self._start_round(state)

    def _finish(self, state: State, breakdown: list[dict[str, int]]) -> None:
        """End the game with these per-seat scores (`total` of each breakdown)."""
        scores = [b["total"] for b in breakdown]
        state["result"] = ranked_result(scores, [p["camels"] for p in state["players"]], breakdown)
        state["phase"] = "over"
        state["turn"] = None
        self._log(state, {"ev": "final_scoring", "scores": scores})

    # ---- dice ----------------------------------------------------------------------------------

    def _die_key(self, d: list[Any]) -> tuple[int, int]:
        return self.DIE_ORDER[d[0]], d[1]

    def _roll_dice(self, rng: Rng, kind: str, n: int) -> list[list[Any]]:
        return sorted(([kind, roll(rng)] for _ in range(n)), key=self._die_key)

    def _add_die(self, p: dict[str, Any], die: list[Any]) -> None:
        p["dice"].append(die)
        p["dice"].sort(key=self._die_key)

    def _set_die(self, p: dict[str, Any], kind: str, old: int, new: int) -> None:
        p["dice"].remove([kind, old])
        self._add_die(p, [kind, new])

    def _reroll(self, state: State, p: dict[str, Any], kind: str, old: int) -> int:
        """Reroll one die of `p` (the RNG lives in the state); returns the new value."""
        rng = Rng(state["rng"])
        new = roll(rng)
        state["rng"] = rng.seed
        self._set_die(p, kind, old, new)
        self._bump(state, "reroll")
        return new

    def _adjust(self, state: State, p: dict[str, Any], kind: str, old: int, by: int) -> None:
        self._set_die(p, kind, old, old + by)
        self._bump(state, "adjust")

    @staticmethod
    def _adjust_options(types: list[tuple[str, int]], pay: dict[str, Any] | None = None) -> list[Move]:
        """±1 for each distinct die, never 6 to 1 or 1 to 6 (a die of 0 is Raschid's unrolled die)."""
        out: list[Move] = []
        for k, v in types:
            for by in (-1, 1):
                if v > 0 and 1 <= v + by <= 6:
                    out.append({"a": "adjust", "kind": k, "value": v, "by": by, **(pay or {})})
        return out

    def _compensate(self, state: State, seat: int, item: dict[str, Any], move: Move) -> int:
        """Answer a compensation item: `coins` as coins, the rest as camels; returns the camels."""
        p = state["players"][seat]
        camels: int = item["amount"] - move["coins"]
        p["coins"] += move["coins"]
        p["camels"] += camels
        return camels

    # ---- action spaces and posts -----------------------------------------------------------------

    @staticmethod
    def _place_dice(p: dict[str, Any], seat: int, dice: list[list[Any]], held: list[list[Any]]) -> dict[str, Any]:
        """Take `held` (the pool's own copies of `dice`) from `p` and return the placement of `dice`."""
        for d in held:
            p["dice"].remove(list(d))
        return {"seat": seat, "dice": [list(d) for d in dice]}

    def _place_post(self, state: State, seat: int, city: Any) -> None:
        """Place one of `seat`'s posts in `city`: the post VP of the nth post, then the city's effects."""
        p = state["players"][seat]
        if p["posts_left"] <= 0:
            self._out_of_posts(state, seat, city)
            return
        p["posts_left"] -= 1
        p["placed"] += 1
        vp = self.POST_VP.get(p["placed"], 0)
        if vp:
            p["vp"] += vp
            self._bump(state, f"post_{p['placed']}")
        self._log(state, {"ev": "post", "seat": seat, "city": city, "nth": p["placed"], "vp": vp})
        self._post_effects(state, seat, city)

    @staticmethod
    def _record_post(state: State, seat: int, city: Any) -> None:
        """`city` has `seat`'s post now; one placed during its own turn opens the city's action next turn."""
        state["players"][seat]["posts"].append(city)
        if state["phase"] == "play" and state["turn"] == seat:
            state["turn_info"]["posts"].append(city)

    def _relocate(self, state: State, seat: int, item: dict[str, Any], move: Move) -> None:
        """With no post left, the named post moves to the new city (whose effects apply; no post VP)."""
        state["players"][seat]["posts"].remove(move["from"])
        self._bump(state, "relocate_post")
        self._log(state, {"ev": "relocate", "seat": seat, "from": move["from"], "to": item["city"]})
        self._post_effects(state, seat, item["city"])

    def _lose(self, state: State, item: dict[str, Any]) -> None:
        """Drop a pending item that offers no option (what it would have given is lost)."""
        state["pending"].remove(item)
        self._bump(state, f"lost_{item['kind']}")

    # ---- bookkeeping ------------------------------------------------------------------------------

    def _mark_seen(self, state: State, ids: list[str]) -> None:
        state["seen"] = sorted(set(state["seen"]).union(ids), key=self._token_order)

    # ---- views ------------------------------------------------------------------------------

    def _prompt_text(self, state: State, seat: int) -> str:
        if state["phase"] == "draft":
            return "Choose your character."
        item = self._current(state, seat)
        if item is not None:
            return self.PROMPTS[item["kind"]]
        if state["turn_info"]["main"]:
            return "Bonus actions, or end your turn."
        return "Choose an action space (bonus actions may come before or after)."

    def _pending_view(self, item: dict[str, Any]) -> dict[str, Any]:
        out: dict[str, Any] = {"seat": item["seat"], "kind": item["kind"]}
        if item["kind"] in self.QUIET_PENDING:
            return out
        for k, v in item.items():
            if k not in out:
                out[k] = v
        if item["kind"] in self.CONTRACT_PENDING:
            out["contract"] = self._contract_view(item["contract"])
        return out

    @staticmethod
    def _placements(places: list[dict[str, Any]]) -> list[dict[str, Any]]:
        # the same object for the same placements (`ViewMemo`): most spaces do not change from a version to the next
        return _PLACEMENTS.get(state_key(places), lambda: [dict(pl) for pl in places])  # type: ignore[no-any-return]

    @staticmethod
    def _city_card_view(slot: int, city: Any, card: dict[str, Any], used: Any, **keys: Any) -> dict[str, Any]:
        """One city-card slot of the public view (`card` is the card's cached view, `used` the slot's placement or
        None); the same object for the same slot, card and placement (`ViewMemo`)."""
        return _CITY_CARDS.get(  # type: ignore[no-any-return]
            (slot, city, id(card), state_key(used), *keys.items()),
            lambda: {"slot": slot, **keys, "city": city, "card": card, "used": used},
        )

    def _player_view(self, state: State, seat: int, resources: tuple[str, ...], **extra: Any) -> dict[str, Any]:
        """What everyone sees of a player (goal cards only as a count until the final scoring)."""
        p = state["players"][seat]
        pv: dict[str, Any] = {
            "seat": seat,
            "character": p["character"],
            **{r: p[r] for r in resources},
            "dice": [list(d) for d in p["dice"]],
            "figures": list(p["figures"]),
            "posts": list(p["posts"]),
            "posts_left": p["posts_left"],
            "contracts": [self._contract_view(c) for c in p["contracts"]],
            "completed": len(p["completed"]),
            "goal_cards": len(p["goals"]) + len(p["goal_offer"]),
            **extra,
        }
        if state["phase"] == "over":
            pv["goals"] = [self._goal_view(g) for g in p["goals"]]
        return pv

    def _players_view(
        self, state: State, resources: tuple[str, ...], extra: Callable[[dict[str, Any]], dict[str, Any]] | None = None
    ) -> list[dict[str, Any]]:
        """Every player's public view (`_player_view`, with `extra(player)`'s keys): the same object as in the version
        before for a player whose state did not change (`ViewMemo`; the view reads the player and whether the game
        is over, nothing else)."""
        over = state["phase"] == "over"
        get = _PLAYER_VIEWS.get
        return [
            get((self.id, s, over, state_key(p)), partial(self._player_view_of, state, s, p, resources, extra))
            for s, p in enumerate(state["players"])
        ]

    def _player_view_of(
        self,
        state: State,
        s: int,
        p: dict[str, Any],
        resources: tuple[str, ...],
        extra: Callable[[dict[str, Any]], dict[str, Any]] | None,
    ) -> dict[str, Any]:
        return self._player_view(state, s, resources, **(extra(p) if extra else {}))

    def _common_view(self, state: State) -> dict[str, Any]:
        """The public view's keys both games share."""
        draft = state["draft"]
        return {
            "status": "over" if state["phase"] == "over" else "playing",
            "options": dict(state["options"]),
            "round": state["round"],
            "phase": state["phase"],
            "turn": state["turn"],
            "main_done": state["turn_info"]["main"],
            "black_bought": state["turn_info"]["black"],
            "spaces": {k: self._placements(v) for k, v in state["spaces"].items()},
            "khan": self._placements(state["khan"]),
            "bag": self._placements(state["bag"]),
            "pending": [self._pending_view(it) for it in state["pending"]],
            "draft": None if draft is None else {"offer": list(draft["offer"]), "order": list(draft["order"])},
            "log": list(state["log"]),  # the events themselves are never changed once logged (see `successor`)
            "result": state["result"],
        }

    def _private_view(self, state: State, seat: int) -> dict[str, Any] | None:
        p = state["players"][seat]
        return {
            "seat": seat,
            "goals": [self._goal_view(g) for g in p["goals"]],
            "goal_offer": [self._goal_view(g) for g in p["goal_offer"]],
            self.GOALS_ASIDE: [self._goal_view(g) for g in p[self.GOALS_ASIDE]],
        }

    def secret_tokens(self, state: State, seat: int) -> list[str]:
        p = state["players"][seat]
        secret = [*p["goal_offer"], *p[self.GOALS_ASIDE]]
        if state["phase"] != "over":
            secret.extend(p["goals"])
        return secret
