"""What a room stores beside the game state: one typed record, written with every version.

Owns: the fields of a room's metadata, which part of the server owns each (the room core or one of its
extensions), how it is written to a store (`to_dict`) and read back (`from_dict`), and `format`, the version of
that stored layout.
Must not: do I/O or know rules (the engine state is stored apart, as a snapshot and a log).

A room's meta is never changed once a version holds it: `Room.next_meta` copies it for the next version, and
the copy is changed, stored, then adopted. So an object identity names a version (the view caches rely on it).

Stored layout: a msgpack map of the fields below that are not None, plus `format`. Layout 1 is the one the
server wrote before this record was typed (the same keys, no `format`), so every stored room of that time loads
unchanged. Keys this version does not know (written by a newer one) are kept in `extra` and written back; a
meta whose `format` is newer than `FORMAT` is refused (`ValueError`) rather than half-understood.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, cast

#: the stored layout this code writes and reads (older layouts are read too)
FORMAT = 1


@dataclass(slots=True)
class RoomMeta:
    """A room's metadata at one version (see the module docstring)."""

    # ---- identity, set at creation (the node) -----------------------------------------------
    room: str
    game: str
    seats: int
    options: dict[str, Any] = field(default_factory=dict)
    #: the engine's seed (revealed only in a finished game's replay)
    seed: int = 0
    public: bool = True
    #: Unix seconds
    created: float = 0.0
    #: the node that created the room
    node: str | None = None
    #: a private room's invite (None: a public room)
    invite: str | None = None
    #: the player who created the room (host controls)
    host: str | None = None

    # ---- the room core -----------------------------------------------------------------------
    v: int = 0
    status: str = "waiting"  # waiting | playing | finished
    #: per seat: the player id (`bot:N` for a server bot) or None
    players: list[str | None] = field(default_factory=list)
    #: per seat: the name shown
    names: list[str | None] = field(default_factory=list)
    #: the version of the last snapshot (kept in the meta once a node loaded the room)
    snap_v: int | None = None

    # ---- presence (server.rooms.presence) ----------------------------------------------------
    #: per seat: a connection of its player is attached somewhere
    online: list[bool] | None = None

    # ---- bot seats and autoplay (server.rooms.bots) ------------------------------------------
    #: per seat: the level of a server bot seat (None for people)
    bot_levels: list[str | None] | None = None
    #: the room's think time of search bots per decision (ms)
    bot_think_ms: int | None = None
    #: per seat: the level of the server bot the seat's player handed the seat to
    autoplay: list[str | None] | None = None

    # ---- the turn clock (server.rooms.clock) -------------------------------------------------
    turn_seconds: int | None = None
    max_expiries: int | None = None
    #: None or {seats, deadline}: the human seats with options and when their time runs out (ms epoch)
    clock: dict[str, Any] | None = None
    #: per seat: expiries in a row
    expiries: list[int] | None = None
    #: per seat: the clock's bot plays it (after `max_expiries`)
    auto: list[bool] | None = None
    #: v1.2: `turn_based` (played over days; away players never close it) or None (live)
    mode: str | None = None
    #: v1.2, turn-based rooms: what a seat's expiry does (`wait`, `bot`, `end`)
    on_expiry: str | None = None
    #: v1.2: per seat, its time ran out and the game waits for it (`on_expiry` wait)
    late: list[bool] | None = None
    #: v1.2: the human seats with a prompt that has options in this version (whose turn it is; `my_games`)
    to_move: list[int] | None = None
    #: v1.2, turn-based rooms: per seat, [the version its turn began at, when (ms epoch)] while it is to move
    #: (None otherwise): a turn's identity, which signals are sent once for (server.node.signals)
    turns: list[list[int] | None] | None = None
    #: v1.2: each human seat's time bank (seconds, set at creation; None: no bank), used once a seat's per-move
    #: deadline passes
    time_bank_seconds: int | None = None
    #: v1.2: per seat, ms left in its bank at the clock's deadline (None: a seat without one, a server bot)
    banks: list[int | None] | None = None
    #: v1.2: the last moves the clock made for late seats (`{seat, by, v, n_from?, n_to?}`, newest last, bounded)
    clock_moves: list[dict[str, Any]] | None = None

    # ---- timed room events: filling seats, closing rooms (server.rooms.timers) ----------------
    fill_bots_after: int | None = None
    #: ms epoch at which the empty seats of a waiting room get bots
    fill_at: int | None = None
    #: why the room was closed unfinished (`nobody_joined`, `abandoned`, v1.2 `moderator`)
    closed: str | None = None
    #: v1.2: the reason a moderator gave for closing it (shown to its viewers)
    closed_message: str | None = None
    #: ms epoch since which every human seat has been away
    away_since: int | None = None

    # ---- ratings shown at the seats, and what makes a game rated (server.rooms.results) ---------
    ratings: list[int | None] | None = None
    #: per seat: its player was signed in to an account when it took the seat (v1.2; None: nobody was)
    accounts: list[bool] | None = None
    #: per seat: [moves its own player chose, moves of the seat] (clock expiries, autoplay and bots are not
    #: the player's choice)
    decisions: list[list[int]] | None = None
    #: per seat: the host muted its chat (v1.2; server.rooms.chat)
    muted: list[bool] | None = None

    #: stored keys this version does not know, written back as they were
    extra: dict[str, Any] = field(default_factory=dict)

    # ---- seats ---------------------------------------------------------------------------------

    def seat_of(self, player: str | None) -> int | None:
        """The seat `player` holds, if any."""
        if player is None:
            return None
        for i, p in enumerate(self.players):
            if p == player:
                return i
        return None

    def bot_seats(self) -> list[int]:
        return [i for i, p in enumerate(self.players) if isinstance(p, str) and p.startswith("bot:")]

    def human_seats(self) -> list[int]:
        """Seats a person holds."""
        return [i for i, p in enumerate(self.players) if isinstance(p, str) and not p.startswith("bot:")]

    def free_seats(self) -> list[int]:
        return [i for i, p in enumerate(self.players) if p is None]

    def per_seat(self, values: list[Any] | None, fill: Any) -> list[Any]:
        """`values` (a per-seat list, possibly short or None) as exactly one value per seat, a new list."""
        vals = list(values or [])
        return vals[: self.seats] + [fill] * (self.seats - len(vals))

    def seat_bot(self, seat: int) -> None:
        """Give `seat` to a new server bot (`bot:N`, named "Bot N")."""
        used = {p for p in self.players if isinstance(p, str)}
        n = next(i for i in range(1, 100) if f"bot:{i}" not in used)
        self.players[seat] = f"bot:{n}"
        self.names[seat] = f"Bot {n}"
        self.unmark_account(seat)

    def free_seat(self, seat: int) -> None:
        """Nobody holds `seat` any more."""
        self.players[seat] = self.names[seat] = None
        self.unmark_account(seat)

    def guests(self) -> list[bool | None]:
        """Per seat (v1.2): true for a person seated as a guest, false for an account, None for a free seat or a bot."""
        accounts = self.per_seat(self.accounts, False)
        return [
            None if p is None or str(p).startswith("bot:") else not accounts[i]
            for i, p in enumerate(self.per_seat(self.players, None))
        ]

    def unmark_account(self, seat: int) -> None:
        """The seat changes hands: its account mark and its mute go."""
        if self.accounts and seat < len(self.accounts) and self.accounts[seat]:
            accounts = self.per_seat(self.accounts, False)
            accounts[seat] = False
            self.accounts = accounts
        if self.muted and seat < len(self.muted) and self.muted[seat]:
            muted = self.per_seat(self.muted, False)
            muted[seat] = False
            self.muted = muted

    # ---- versions ------------------------------------------------------------------------------

    def copy(self, **changes: Any) -> RoomMeta:
        """A copy to change for a new version: its per-seat lists are new lists, `online` one flag per seat.

        Written out field by field (once per version, on every move: a fifth of `dataclasses.replace`'s time);
        `tests/rooms/test_meta.py` checks that it copies every field."""
        new = object.__new__(RoomMeta)
        new.room, new.game, new.seats, new.options = self.room, self.game, self.seats, self.options
        new.seed, new.public, new.created, new.node = self.seed, self.public, self.created, self.node
        new.invite, new.host, new.v, new.status = self.invite, self.host, self.v, self.status
        new.players, new.names, new.snap_v = list(self.players), list(self.names), self.snap_v
        online = self.online or []
        new.online = [bool(x) for x in online[: self.seats]] + [False] * (self.seats - len(online))
        new.bot_levels, new.bot_think_ms, new.autoplay = self.bot_levels, self.bot_think_ms, self.autoplay
        new.turn_seconds, new.max_expiries, new.clock = self.turn_seconds, self.max_expiries, self.clock
        new.expiries, new.auto = self.expiries, self.auto
        new.mode, new.on_expiry, new.late, new.to_move = self.mode, self.on_expiry, self.late, self.to_move
        new.turns, new.time_bank_seconds, new.banks = self.turns, self.time_bank_seconds, self.banks
        new.clock_moves = self.clock_moves
        new.fill_bots_after, new.fill_at, new.closed = self.fill_bots_after, self.fill_at, self.closed
        new.closed_message = self.closed_message
        new.away_since, new.ratings, new.extra = self.away_since, self.ratings, self.extra
        new.accounts, new.decisions, new.muted = self.accounts, self.decisions, self.muted
        for name, value in changes.items():
            setattr(new, name, value)
        return new

    # ---- stored form ---------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The stored form: every field that is not None, `extra`, and `format` (once per version)."""
        out = _fields_set(self)
        if self.extra:
            out.update(self.extra)
        out["format"] = FORMAT
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RoomMeta:
        """A stored meta (any layout up to `FORMAT`) as a record; raises ValueError for a newer layout."""
        fmt = data.get("format", 1)
        if not isinstance(fmt, int) or fmt > FORMAT:
            raise ValueError(f"room meta layout {fmt!r} is newer than this server's ({FORMAT}); upgrade it")
        known: dict[str, Any] = {}
        extra: dict[str, Any] = {}
        for key, value in data.items():
            if key in _FIELD_SET:
                known[key] = value
            elif key != "format":
                extra[key] = value
        meta = cls(**known, extra=extra)
        meta.players = list(meta.players)
        meta.names = list(meta.names)
        return meta


_FIELDS: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(RoomMeta) if f.name != "extra")
_FIELD_SET = frozenset(_FIELDS)


def _make_fields_set() -> Callable[[RoomMeta], dict[str, Any]]:
    """`meta -> {field: value}` for the fields that are not None, written out for these fields (as `dataclasses`
    writes `__init__`): on every move's commit, at 0.4 of a loop's time."""
    body = "".join(f"    if m.{name} is not None:\n        out[{name!r}] = m.{name}\n" for name in _FIELDS)
    namespace: dict[str, Any] = {}
    exec(f"def fields_set(m):\n    out = {{}}\n{body}    return out\n", namespace)  # noqa: S102 - our own field names
    return cast(Callable[[RoomMeta], dict[str, Any]], namespace["fields_set"])


_fields_set = _make_fields_set()
