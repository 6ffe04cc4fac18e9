"""Re-running a room's stored log: recovery after a restart or a takeover, and replays of finished games.

Owns: the pure functions that turn a stored meta, a snapshot and log entries into engine states (a `join`
entry with `start` sets the game up from the room's seed, a `move` entry applies, an `undo` entry takes the
seat's turn back), and the replay cursor that rebuilds a finished game's spectator view at any version (with the
clock's moves marked, v1.2: a `move` entry with `by` is a move the turn clock made for a late seat, `expired` or
`auto`).
Must not: do I/O or know connections; the stored meta is read as the dict the store keeps.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from server.games import Game, get_game
from server.games.base import unpack

#: the most clock moves a view lists (`clock_moves`; the newest)
CLOCK_MOVES_KEPT = 16
#: how a stored move entry names a move the turn clock made (`by`)
CLOCK_BY = ("expired", "auto")


def _numbers(public: dict[str, Any]) -> list[int]:
    log = public.get("log") if isinstance(public, dict) else None
    return [int(ev["n"]) for ev in log or [] if isinstance(ev, dict) and isinstance(ev.get("n"), int)]


def log_span(game: Game, before: dict[str, Any] | None, after: dict[str, Any]) -> tuple[int, int] | None:
    """The running numbers `n` (first, last) of the public log events a move added from state `before` to `after`,
    or None when it added none (or the game does not number its events)."""
    new = _numbers(game.public_view(after))
    if not new:
        return None
    old = _numbers(game.public_view(before)) if before is not None else []
    last_old = max(old) if old else None
    last = max(new)
    if last_old is not None and last <= last_old:
        return None
    return (last_old + 1 if last_old is not None else min(new)), last


def clock_move(
    game: Game, before: dict[str, Any] | None, after: dict[str, Any], seat: int, by: str, v: int
) -> dict[str, Any]:
    """One entry of `clock_moves`: the seat the clock moved for, how (`by`), the version, and the public log events
    the move added (`n_from`..`n_to`, left out when it added none)."""
    entry: dict[str, Any] = {"seat": seat, "by": by, "v": v}
    span = log_span(game, before, after)
    if span is not None:
        entry["n_from"], entry["n_to"] = span
    return entry


def replayed(
    game: Game, meta: dict[str, Any], state: dict[str, Any] | None, entries: list[dict[str, Any]]
) -> Iterator[dict[str, Any] | None]:
    """The engine state after each of `entries` (a start sets the game up, a move applies), from `state` (pure)."""
    for entry in entries:
        if entry["k"] == "join" and entry.get("start"):
            state = game.setup(meta["seats"], meta["options"], meta["seed"])
        elif entry["k"] == "move":
            assert state is not None, "a move before the start in the log"
            state = game.apply(state, entry["seat"], entry["move"])
        elif entry["k"] == "undo":  # v1.2: the seat took back its turn
            assert state is not None, "an undo before the start in the log"
            state = game.undo(state, entry["seat"])
        yield state


def restore(
    meta: dict[str, Any], snap_v: int, snapshot: bytes | None, entries: list[dict[str, Any]]
) -> tuple[dict[str, Any], dict[str, Any] | None, int]:
    """Rebuild a room's engine state from its snapshot and the log entries after it (pure)."""
    game = get_game(meta["game"])
    state = unpack(snapshot) if snapshot else None
    for later in replayed(game, meta, state, entries):
        state = later
    meta = dict(meta)
    last = max([meta.get("v", 0), *(e["v"] for e in entries)])
    meta["v"] = last
    if meta.get("closed") or (state is not None and game.result(state) is not None):
        meta["status"] = "finished"
    elif state is not None:
        meta["status"] = "playing"
    return meta, state, snap_v


class ReplayCursor:
    """A replay's engine state after the log entries up to index `i` (stepping forward reuses it)."""

    def __init__(self, meta: dict[str, Any], entries: list[dict[str, Any]]) -> None:
        self.meta, self.entries = meta, entries
        self.game = get_game(meta["game"])
        # seats a join or a freeing names in the log (a move's seat does not: a bot seated at creation moves too)
        touched = {e.get("seat") for e in entries if e["k"] in ("join", "free")} | {
            s for e in entries for s in e.get("bots") or []
        }
        #: bots seated at the creation are in the meta from v0 (no log entry seats them)
        self.names: list[str | None] = [
            meta["names"][i] if str(meta["players"][i]).startswith("bot:") and i not in touched else None
            for i in range(meta["seats"])
        ]
        self.state: dict[str, Any] | None = None
        #: the clock's moves up to the version shown (`clock_moves` of the view)
        self.clock_moves: list[dict[str, Any]] = []
        self.i = 0
        self.v = 0

    def advance(self, v: int) -> None:
        while self.i < len(self.entries) and self.entries[self.i]["v"] <= v:
            entry = self.entries[self.i]
            if entry["k"] == "join":
                if entry.get("seat") is not None and entry.get("name") is not None:
                    self.names[entry["seat"]] = entry["name"]
                for seat in entry.get("bots") or []:
                    self.names[seat] = self.meta["names"][seat]
                if entry.get("start"):
                    self.state = self.game.setup(self.meta["seats"], self.meta["options"], self.meta["seed"])
            elif entry["k"] == "free":
                self.names[entry["seat"]] = None
            elif entry["k"] == "move":
                assert self.state is not None, "a move before the start in the log"
                before = self.state
                self.state = self.game.apply(self.state, entry["seat"], entry["move"])
                if entry.get("by") in CLOCK_BY:
                    moved = clock_move(self.game, before, self.state, entry["seat"], entry["by"], entry["v"])
                    self.clock_moves = [*self.clock_moves, moved][-CLOCK_MOVES_KEPT:]
            elif entry["k"] == "undo":
                assert self.state is not None, "an undo before the start in the log"
                self.state = self.game.undo(self.state, entry["seat"])
            self.i += 1
        self.v = v

    def view(self) -> dict[str, Any]:
        meta = self.meta
        seats = [{"name": n, "taken": n is not None, "connected": False} for n in self.names]
        base = {"game": meta["game"], "room": meta["room"], "you": None, "seats": seats}
        if self.state is None:
            return {**base, "status": "waiting", "public": {"status": "waiting", "seats": seats},
                    "private": None, "prompt": None, "result": None}
        view = self.game.view(self.state, None)
        result = self.game.result(self.state)
        out = {**base, "status": "finished" if result is not None else "playing", "public": view["public"],
               "private": None, "prompt": None, "result": result}  # fmt: skip
        if self.clock_moves:
            out["clock_moves"] = [dict(m) for m in self.clock_moves]
        return out


def replay_view(meta: dict[str, Any], entries: list[dict[str, Any]], v: int) -> dict[str, Any]:
    """The spectator's view of a finished room at version `v`, rebuilt from the seed and the log (pure)."""
    cursor = ReplayCursor(meta, entries)
    cursor.advance(v)
    return cursor.view()
