"""The rule-engine interface every game implements, and the helpers they share.

Owns: the `Game` shape (setup / view / prompt / apply / result), `IllegalMove`, the seeded
RNG that lives inside a game state, the all-or-nothing `apply` wrapper, and the bookkeeping every engine
shares (`_bump` counts rule firings in `state["stats"]`, `_log` appends numbered public events).
Must not: import asyncio, sockets, stores or anything of the server. Engines are pure:
the same seed and the same moves always give the same state.

A state is a plain map (str keys; values maps, lists, ints, strings, bools, None) so that
`msgpack.packb(state)` is a complete snapshot. The RNG state is one integer under
`state["rng"]`; views never contain it.
"""

from __future__ import annotations

import marshal
from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import Any, ClassVar

import msgpack
from pydantic import BaseModel, ConfigDict

State = dict[str, Any]
Move = dict[str, Any]
View = dict[str, Any]

MAX_OPTIONS = 256
_MASK64 = (1 << 64) - 1


class IllegalMove(Exception):
    """A move broke a rule (or was badly shaped); the state is left unchanged."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


class NoOptions(BaseModel):
    """Options model for games without variants; rejects unknown keys."""

    model_config = ConfigDict(extra="forbid", frozen=True)


def pack(state: State) -> bytes:
    """Serialise a state (or view) to msgpack bytes."""
    return msgpack.packb(state, use_bin_type=True)  # type: ignore[no-any-return]


def unpack(data: bytes) -> State:
    """Inverse of `pack`."""
    return msgpack.unpackb(data, raw=False, strict_map_key=True)  # type: ignore[no-any-return]


def clone(state: State) -> State:
    """A deep copy of a state (through `marshal`: the fastest copy of plain maps, lists and scalars in
    CPython, about 1.4-2x a msgpack round trip; that states round-trip through msgpack is checked by the
    conformance suite and by every snapshot)."""
    return marshal.loads(marshal.dumps(state))  # type: ignore[no-any-return]


def successor(state: State, unchanged: frozenset[str] = frozenset()) -> State:
    """The copy `apply` changes: a deep copy, except that the public log's events, the undo savepoint and the
    values of the keys in `unchanged` (`Game.unchanged_keys`: values the rules replace, never change in place) are
    shared with `state`.

    Events are appended by `Game._log` and never changed once a move is applied (views share them too), and the
    log is the largest part of most states, so sharing them makes the per-move copy about a third cheaper;
    the list itself is new. The savepoint (`state["undo"]`, see `Game.undo`) is never changed once made. That
    `apply` never changes its input is checked by the conformance suite."""
    log = state.get("log")
    if type(log) is not list:
        return clone(state)
    rest = state.copy()
    rest["log"] = None  # (placeholders keep the keys' order, so the same packed bytes)
    kept = [key for key in ("undo", *unchanged) if key in rest]
    for key in kept:
        rest[key] = None
    copied = clone(rest)
    copied["log"] = log.copy()
    for key in kept:
        copied[key] = state[key]
    return copied


class ViewMemo:
    """Views of parts of states, built once per distinct value of what they show and then the very same object.

    A view built from an unchanged part of the state (a player who did not move) is then the object of the version
    before, so the room's diff of two versions skips it by identity instead of comparing it, and it is not built
    again. Keys are values: `state_key(part)` (the part's marshal bytes: equal bytes are strictly equal values,
    `1` not `True`), plus whatever else the view reads. Views are never changed once built (the room and the
    diff only read them), so one object may serve every room. At most `size` entries; a full memo starts over."""

    __slots__ = ("_memo", "size")

    def __init__(self, size: int = 2048) -> None:
        self._memo: dict[Any, Any] = {}
        self.size = size
        _MEMOS.append(self)

    def get(self, key: Any, build: Callable[[], Any]) -> Any:
        view = self._memo.get(key)
        if view is None:
            if len(self._memo) >= self.size:
                self._memo.clear()
            view = self._memo[key] = build()
        return view


_MEMOS: list[ViewMemo] = []


def clear_view_memos() -> None:
    """Empty every `ViewMemo` (tests compare views built with and without them)."""
    for memo in _MEMOS:
        memo._memo.clear()


def state_key(part: Any) -> bytes:
    """A key for `ViewMemo` standing for a part of a state: its marshal bytes (a few µs for a player's part)."""
    return marshal.dumps(part)


class Rng:
    """SplitMix64 generator whose whole state is one int stored in the game state.

    Usage: `rng = Rng(state["rng"])`, draw, then `state["rng"] = rng.seed`.
    """

    def __init__(self, seed: int) -> None:
        self.seed = seed & _MASK64

    def next64(self) -> int:
        """Next 64-bit output."""
        self.seed = (self.seed + 0x9E3779B97F4A7C15) & _MASK64
        z = self.seed
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """Uniform integer in [0, n) without modulo bias."""
        if n <= 0:
            raise ValueError("n must be positive")
        limit = (_MASK64 + 1) - ((_MASK64 + 1) % n)
        while True:
            x = self.next64()
            if x < limit:
                return x % n

    def shuffle(self, items: list[Any]) -> None:
        """Fisher-Yates shuffle in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]


class Game(ABC):
    """One game's rules. Subclasses implement the underscored hooks; callers use the rest."""

    id: ClassVar[str]
    title: ClassVar[str]
    min_seats: ClassVar[int]
    max_seats: ClassVar[int]
    Options: ClassVar[type[BaseModel]] = NoOptions
    #: v1.2: whether this game lets a seat take back its turn (`_undo_keeps` decides when)
    offers_undo: ClassVar[bool] = False
    #: top-level keys of the state whose values the rules only ever replace, never change in place (`seen` when a
    #: new sorted list is made each time, the options): `apply` shares them with the state before (`successor`)
    unchanged_keys: ClassVar[frozenset[str]] = frozenset()

    # ---- public surface -------------------------------------------------------------

    def parse_options(self, options: dict[str, Any] | None) -> BaseModel:
        """Validate room options (raises pydantic.ValidationError on bad input)."""
        return self.Options.model_validate(options or {})

    def setup(self, seats: int, options: dict[str, Any] | BaseModel | None, seed: int) -> State:
        """A new game for `seats` seats; the seeded RNG lives inside the returned state."""
        if not self.min_seats <= seats <= self.max_seats:
            raise ValueError(f"{self.id} takes {self.min_seats}..{self.max_seats} seats, not {seats}")
        opts = options if isinstance(options, BaseModel) else self.parse_options(options)
        state = self._setup(seats, opts, Rng(seed))
        return state

    def apply(self, state: State, seat: int, move: Move, legal: list[Move] | None = None) -> State:
        """Validate and apply one move; returns a new state, never touches the given one.

        `legal`: `legal_moves(state, seat)` if the caller has it already (a prompt of this very state)."""
        if not isinstance(move, dict):
            raise IllegalMove("bad_move", "a move is a map")
        if self.result(state) is not None:
            raise IllegalMove("game_over", "the game is over")
        if seat not in self.active_seats(state):
            raise IllegalMove("not_your_turn", f"seat {seat} may not move now")
        if legal is None:
            legal = self.legal_moves(state, seat)
        if move not in legal:
            raise IllegalMove("illegal_move", "that move is not one of the legal options")
        new = successor(state, self.unchanged_keys)
        self._apply(new, seat, move)
        self._savepoint(state, new, seat, move)
        return new

    def prompt(self, state: State, seat: int | None) -> dict[str, Any] | None:
        """`{text, options}` for a seat that may act now, else None; with `undo: true` (v1.2) when the seat may
        take back the decisions of its current turn (`may_undo`)."""
        if seat is None or self.result(state) is not None or seat not in self.active_seats(state):
            return None
        options = self.legal_moves(state, seat)
        if not options:
            return None
        prompt: dict[str, Any] = {"text": self._prompt_text(state, seat), "options": options}
        if self.may_undo(state, seat):
            prompt["undo"] = True
        return prompt

    # ---- undo within a turn (v1.2) ------------------------------------------------------

    def may_undo(self, state: State, seat: int) -> bool:
        """Whether `seat` may take back the decisions of its current turn now: it made at least one, none of them
        revealed anything hidden or ended its turn, and no other seat acted since (see `_undo_keeps`)."""
        point = state.get("undo")
        return (
            point is not None
            and point["seat"] == seat
            and self.result(state) is None
            and seat in self.active_seats(state)
        )

    def undo(self, state: State, seat: int) -> State:
        """Take back `seat`'s current turn: the state where that turn began, with the public log kept as it is
        and one `undo` event added (every view equals the turn's first one but for the log). Pure; raises
        IllegalMove `illegal_move` when `may_undo` is False."""
        if not self.may_undo(state, seat):
            raise IllegalMove("illegal_move", "there is nothing of this turn to take back")
        base = state["undo"]["base"]
        rest = {key: value for key, value in base.items() if key != "log"}
        copied = clone(rest)
        new: State = {}
        for key in base:
            new[key] = state["log"].copy() if key == "log" else copied[key]
        new["seq"] = state["seq"]
        self._log(new, {"ev": "undo", "seat": seat})
        return new

    def _savepoint(self, before: State, after: State, seat: int, move: Move) -> None:
        """Keep, start or end the undo savepoint of `after` (the state `move` of `seat` made from `before`)."""
        if self.result(after) is None and self._undo_keeps(before, after, seat, move):
            point = before.get("undo")
            if point is None or point["seat"] != seat:
                # the turn's first decision: the savepoint is `before` itself, shared (states are never changed
                # once made); its log is not kept (an undo keeps the log as it is then)
                base = {key: (None if key == "log" else value) for key, value in before.items() if key != "undo"}
                point = {"seat": seat, "base": base}
            after["undo"] = point
        elif "undo" in after:
            del after["undo"]

    def _undo_keeps(self, before: State, after: State, seat: int, move: Move) -> bool:
        """Whether, after `move`, `seat` may still take back its turn: the move revealed nothing hidden (no card
        drawn, die rolled, tile turned, deck shuffled), no other seat acts before `seat` again, and the turn
        goes on. A game that offers undo overrides this (the default: never); `undo_basics` checks the parts
        every game shares."""
        return False

    def undo_basics(self, before: State, after: State, seat: int) -> bool:
        """The checks every game's `_undo_keeps` makes: the RNG was not drawn from, `seat` is the only seat to
        move after, and the game goes on."""
        return (
            before.get("rng") == after.get("rng") and self.result(after) is None and self.active_seats(after) == [seat]
        )

    def public_view(self, state: State) -> dict[str, Any]:
        """The part of every view that is the same for every viewer."""
        return self._public_view(state)

    def private_view(self, state: State, seat: int) -> dict[str, Any] | None:
        """What only `seat` sees (its hand, its objectives...)."""
        return self._private_view(state, seat)

    def view(self, state: State, seat: int | None) -> View:
        """What one viewer may see: `{public, private}`; `private` is None for spectators."""
        return {
            "public": self._public_view(state),
            "private": None if seat is None else self._private_view(state, seat),
        }

    # ---- hooks ------------------------------------------------------------------------

    @abstractmethod
    def _setup(self, seats: int, options: Any, rng: Rng) -> State: ...

    @abstractmethod
    def active_seats(self, state: State) -> list[int]:
        """Seats that may move now (empty once the game is over)."""

    @abstractmethod
    def legal_moves(self, state: State, seat: int) -> list[Move]:
        """Every complete legal move of `seat` now (at most MAX_OPTIONS)."""

    @abstractmethod
    def _apply(self, state: State, seat: int, move: Move) -> None:
        """Apply a move already known to be legal, mutating `state` in place."""

    @abstractmethod
    def _prompt_text(self, state: State, seat: int) -> str: ...

    @abstractmethod
    def _public_view(self, state: State) -> dict[str, Any]: ...

    @abstractmethod
    def _private_view(self, state: State, seat: int) -> dict[str, Any] | None: ...

    @abstractmethod
    def result(self, state: State) -> dict[str, Any] | None:
        """`{scores, winners, ...}` once the game is over, else None."""

    @abstractmethod
    def secret_tokens(self, state: State, seat: int) -> list[str]:
        """Strings that only `seat` may see right now (used by the hidden-information tests)."""

    def hidden_tokens(self, state: State) -> list[str]:
        """Strings no viewer may see right now (deck order etc.); default none."""
        return []

    def sample_state(self, state: State, seat: int, rng: Rng) -> State:
        """A full state that `seat` cannot tell from `state`: what it sees is kept, every secret redrawn.

        The result depends only on what `seat` can see (its view and the public history it watched): the
        hidden parts of `state` are only read as a pool, in sorted order, never where they lie. Search bots
        play on such samples. A game implements it as `sample_state(game, state, seat, rng)` in its
        `sample` module (`server/games/<id>/sample.py`); without one this raises NotImplementedError.
        """
        import importlib

        try:
            module = importlib.import_module(f"server.games.{self.id}.sample")
        except ModuleNotFoundError as exc:
            if exc.name not in (f"server.games.{self.id}", f"server.games.{self.id}.sample"):
                raise
            raise NotImplementedError(f"{self.id} has no sample_state") from exc
        sampled: State = module.sample_state(self, state, seat, rng)
        return sampled

    # ---- bookkeeping the engines share: `state["stats"]`, `state["seq"]`, `state["log"]` ----------

    #: how many public events `_log` keeps in `state["log"]`
    log_keep: ClassVar[int] = 24

    @staticmethod
    def _bump(state: State, rule: str) -> None:
        """Count one firing of `rule` in `state["stats"]` (the simulations report these counts)."""
        state["stats"][rule] = state["stats"].get(rule, 0) + 1

    def _log(self, state: State, ev: dict[str, Any]) -> None:
        """Append a public event numbered `n` from the running `state["seq"]`; keep the last `log_keep`."""
        state["seq"] += 1
        ev["n"] = state["seq"]
        state["log"].append(ev)
        del state["log"][: -self.log_keep]
