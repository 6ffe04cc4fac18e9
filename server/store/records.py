"""What the lobby keeps beside the rooms: chat, the archive of finished games (history, replays) and ratings.

Owns: the records interface and its in-memory implementation. The records are a database apart from live room
state (see shared/DESIGN.md section 5): `server.store.records_sql` keeps them in SQL (a node's SQLite file, or a
PostgreSQL that several nodes share) and `server.store.open_records` picks one for a node. Redis keeps no
records (`server.store.records_move` moves what an earlier version kept there, once).
Must not: know about rooms' engines, sockets or the rating maths (see `server.rooms.ratings`): a game's end
hands in the function that turns its players' old rows into new ones.

Rating rows are `{mu, sigma, games, name}`; the leaderboard orders them by `score_of` (mu - 3 sigma, the
conservative estimate the lobby shows), best first, then by player id.
"""

from __future__ import annotations

import asyncio
from abc import ABC, abstractmethod
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import Any, cast

import msgpack

CHAT_KEEP = 200
LOBBY = "-lobby"  # the chat key of the lobby (no room id starts with '-')
#: what an in-memory archive keeps (the SQL archive keeps every game until the operator deletes it)
MEMORY_GAMES_KEEP = 1000
#: how a deleted account is shown in the archive (history and replays of its games)
DELETED_NAME = "deleted player"
#: failed sign-ins are kept per key (a name, an address); past this many keys the stale ones are dropped
MEMORY_ATTEMPT_KEYS = 10_000
#: the most players one player's block list holds (the oldest blocks beyond it are not applied)
BLOCKS_MAX = 1000

#: a game's end: old rating rows of its rated ids (those that have one) -> the new rows
RateFn = Callable[[dict[str, dict[str, Any]]], dict[str, dict[str, Any]]]


@dataclass(frozen=True, slots=True)
class Account:
    """An account: its player id (kept for life), its name as chosen and the folded key that makes names unique
    (`server.rooms.names.account_key`), and its password hash (argon2id; None when it signs in otherwise)."""

    player: str
    name: str
    key: str
    password: str | None
    created_at: int


@dataclass(frozen=True, slots=True)
class Passkey:
    """A WebAuthn credential of an account: its id (base64url), public key (COSE) and signature counter."""

    id: str
    player: str
    public_key: bytes
    sign_count: int
    created_at: int


@dataclass(frozen=True, slots=True)
class Device:
    """A token an account signed in with (stored as its hash, `key`), on one device."""

    key: str
    player: str
    device: str
    created_at: int
    last_seen: int


@dataclass(frozen=True, slots=True)
class Ban:
    """A ban: of an account (`kind` "player", `value` its player id), an address ("addr") or a network ("net",
    CIDR). `until` (Unix seconds) None: permanent; `lifted_at` set once an administrator lifted it."""

    id: int
    kind: str
    value: str
    reason: str
    created_at: int
    until: int | None
    lifted_at: int | None
    by: str

    def active(self, now: int) -> bool:
        return self.lifted_at is None and (self.until is None or self.until > now)

    def to_dict(self) -> dict[str, Any]:
        return {f: getattr(self, f) for f in self.__slots__}


@dataclass(frozen=True, slots=True)
class Report:
    """A player's report of another, with its context (recent chat lines, the game's public log)."""

    id: int
    reporter: str
    player: str
    room: str | None
    reason: str
    context: dict[str, Any]
    created_at: int
    resolved_at: int | None
    resolution: str | None

    def to_dict(self) -> dict[str, Any]:
        return {f: getattr(self, f) for f in self.__slots__}


@dataclass(frozen=True, slots=True)
class NotifyPrefs:
    """(v1.2) How an account hears that it is its turn in a turn-based game: an e-mail address and a webhook
    (either None: not that way), the minutes to wait after its turn began, and the webhook's signing secret
    (made by the server, shown to the account only)."""

    player: str
    email: str | None
    webhook: str | None
    delay_minutes: int
    secret: str
    updated_at: int


@dataclass(frozen=True, slots=True)
class PushSub:
    """(v1.2) One browser's web push subscription of an account: the push service's `endpoint` and the browser's keys
    (base64url: `p256dh` its P-256 public key, `auth` its authentication secret)."""

    player: str
    endpoint: str
    p256dh: str
    auth: str
    created_at: int


def renamed(record: dict[str, Any], replay: dict[str, Any] | None, player: str) -> tuple[dict[str, Any], Any]:
    """An archived game's record and replay with `player`'s name replaced by `DELETED_NAME` wherever it shows."""
    meta = dict(replay["meta"]) if replay and isinstance(replay.get("meta"), dict) else None
    seat_players = record.get("_seat_players") or (meta.get("players") if meta else None) or []
    seats = [i for i, p in enumerate(seat_players) if p == player]
    names = list(record.get("players") or [])
    for i in seats:
        if i < len(names):
            names[i] = DELETED_NAME
    record = {**record, "players": names}
    if replay is not None and meta is not None:
        meta_names = list(meta.get("names") or [])
        for i in seats:
            if i < len(meta_names):
                meta_names[i] = DELETED_NAME
        meta["names"] = meta_names
        entries = [
            {**e, "name": DELETED_NAME} if isinstance(e, dict) and e.get("player") == player and "name" in e else e
            for e in replay.get("entries") or []
        ]
        replay = {**replay, "meta": meta, "entries": entries}
    return record, replay


def pack(obj: Any) -> bytes:
    return cast(bytes, msgpack.packb(obj, use_bin_type=True))


def unpack(data: bytes) -> Any:
    return msgpack.unpackb(data, raw=False, strict_map_key=False)


def score_of(row: dict[str, Any]) -> float:
    """The leaderboard's order of a rating row: mu - 3 sigma, higher first."""
    return float(row["mu"]) - 3 * float(row["sigma"])


class Records(ABC):
    """The records of a node. Writes started in the background (`spawn`) are waited for by `settled`, so a
    node reads its own writes: the lobby's lists wait for the archive of a game this node just ended."""

    def __init__(self) -> None:
        self._pending: set[asyncio.Task[Any]] = set()
        self._settle: set[asyncio.Task[Any]] = set()

    def spawn(self, work: Coroutine[Any, Any, Any], name: str = "records", settle: bool = True) -> asyncio.Task[Any]:
        """Run `work` without anybody awaiting it (kept until done; `close` waits for it, and `settled` too
        unless `settle` is False: retries of a write that failed are not waited for)."""
        task = asyncio.get_running_loop().create_task(work, name=name)
        for kept in (self._pending, self._settle) if settle else (self._pending,):
            kept.add(task)
            task.add_done_callback(kept.discard)
        return task

    async def settled(self, timeout: float = 2.0) -> None:
        """Wait (at most `timeout` seconds) for the first attempt of the background writes started so far."""
        if self._settle:
            await asyncio.wait(set(self._settle), timeout=timeout)

    async def close(self) -> None:
        await self.settled(2.0)  # a game's archive a moment from done; one stuck on a database that is down is not
        for task in list(self._pending):
            task.cancel()

    async def migrate(self) -> None:  # noqa: B027 - most records have nothing to make ready
        """Make the database ready (tables, migrations); called at start-up, and by the first use otherwise."""

    @abstractmethod
    async def add_chat(self, room: str | None, line: dict[str, Any]) -> None: ...

    @abstractmethod
    async def chat(self, room: str | None) -> list[dict[str, Any]]:
        """The kept lines of a room (None: the lobby), oldest first."""

    @abstractmethod
    async def has_chat(self, room: str | None) -> bool: ...

    @abstractmethod
    async def finish_game(
        self,
        record: dict[str, Any],
        players: list[str],
        *,
        rated: list[str] | None = None,
        rate: RateFn | None = None,
        replay: dict[str, Any] | None = None,
        timeout: float | None = None,
    ) -> bool:
        """Archive a finished game (`record` has `room` and `game`; `players`: its people's ids) with what its
        replay needs, and rate it: `rate` gets the rows of the ids in `rated` and returns the new ones, all in
        one atomic step. Done once per room: False (and nothing changed) when the room is archived already."""

    @abstractmethod
    async def history(self, game: str | None, player: str | None, limit: int) -> list[dict[str, Any]]:
        """The newest finished games first (records as archived, with `_players`); with `player`, each record
        also has `_score`: that player's leaderboard score after the game (None: the game did not rate it)."""

    @abstractmethod
    async def archived(self, room: str) -> dict[str, Any] | None:
        """What the replay of an archived game needs (`{"meta": ..., "entries": [...]}`), or None."""

    @abstractmethod
    async def leaderboard(self, game: str, limit: int, offset: int = 0) -> list[tuple[str, dict[str, Any]]]:
        """A page of a game's rating rows, best first: (player, row); `offset` rows skipped."""

    @abstractmethod
    async def rank_of(self, game: str, player: str) -> tuple[int, dict[str, Any]] | None:
        """The player's place on the game's leaderboard (1: the best) and row, if it has one."""

    @abstractmethod
    async def ratings_by_player(self, player: str) -> dict[str, dict[str, Any]]:
        """The player's rating row in each game it has one."""

    @abstractmethod
    async def ratings_of(
        self, game: str, players: list[str], timeout: float | None = None
    ) -> dict[str, dict[str, Any]]:
        """The rows of these rated ids (those that have one)."""

    @abstractmethod
    async def put_ratings(self, game: str, rows: dict[str, dict[str, Any]], *, replace: bool = True) -> None:
        """Write rating rows as they are (`replace=False`: only where a player has none)."""

    @abstractmethod
    async def set_rematch(self, room: str, new: str) -> str:
        """Record `new` as the rematch of `room` unless one is recorded; return the recorded one."""

    # ---- accounts ----------------------------------------------------------------------------------
    # Times are Unix seconds. A deleted account keeps its key (nobody else can take its name) until `free_at`.

    @abstractmethod
    async def create_account(self, account: Account) -> bool:
        """Store a new account; False (nothing stored) when a live account, or a deleted one whose name is not
        free yet, holds its key."""

    @abstractmethod
    async def account_by_key(self, key: str) -> Account | None:
        """The live account holding that name key."""

    @abstractmethod
    async def account(self, player: str) -> Account | None:
        """The live account of that player id."""

    @abstractmethod
    async def accounts_among(self, players: list[str]) -> set[str]:
        """Those of `players` that are live accounts."""

    @abstractmethod
    async def set_password(self, player: str, password: str) -> None: ...

    @abstractmethod
    async def delete_account(self, player: str, now: int, free_at: int) -> list[str]:
        """Delete the account: its games stay in the archive, shown under `DELETED_NAME` (history and replays),
        its rating rows go, its name is free from `free_at`. Its tokens' keys, dropped."""

    @abstractmethod
    async def add_device(self, device: Device) -> None: ...

    @abstractmethod
    async def device(self, key: str) -> Device | None:
        """The live account's token with that key (None: signed out, or never one)."""

    @abstractmethod
    async def devices(self, player: str) -> list[Device]:
        """Every token the account is signed in with, newest first."""

    @abstractmethod
    async def drop_devices(self, player: str, keys: list[str] | None = None) -> list[str]:
        """Sign the account out of those tokens (None: all of them); the keys dropped."""

    @abstractmethod
    async def add_passkey(self, passkey: Passkey) -> bool:
        """Store a credential; False when its id is known already."""

    @abstractmethod
    async def passkey(self, credential: str) -> Passkey | None:
        """A live account's credential with that id."""

    @abstractmethod
    async def passkeys(self, player: str) -> list[Passkey]: ...

    @abstractmethod
    async def set_sign_count(self, credential: str, sign_count: int) -> None: ...

    @abstractmethod
    async def note_attempt(self, keys: list[str], now: int, window: int) -> dict[str, int]:
        """Count a failed sign-in under each key (a name, an address) and return each key's failures in the last
        `window` seconds, this one included. Older failures are forgotten."""

    @abstractmethod
    async def attempts(self, keys: list[str], since: int) -> dict[str, int]:
        """Each key's failures since `since`."""

    # ---- moderation --------------------------------------------------------------------------------

    @abstractmethod
    async def delete_chat(self, room: str | None, line: str) -> dict[str, Any] | None:
        """Delete the kept chat line with that `id` from a room (None: the lobby); the line deleted, or None."""

    @abstractmethod
    async def set_block(self, player: str, other: str, blocked: bool, now: int, name: str | None = None) -> None:
        """`player` blocks (or unblocks) `other` (shown as `name`)."""

    @abstractmethod
    async def block_list(self, player: str) -> list[tuple[str, str | None]]:
        """The players `player` blocks and their names, newest first (at most `BLOCKS_MAX`)."""

    @abstractmethod
    async def blocked_by(self, player: str) -> set[str]:
        """The players `player` blocks (at most `BLOCKS_MAX`)."""

    @abstractmethod
    async def blocks(self, player: str, other: str) -> bool:
        """Does `player` block `other`?"""

    @abstractmethod
    async def add_report(
        self, reporter: str, player: str, room: str | None, reason: str, context: dict[str, Any], now: int
    ) -> int:
        """Keep a report; its id."""

    @abstractmethod
    async def reports(self, *, open_only: bool = True, player: str | None = None, limit: int = 100) -> list[Report]:
        """Reports, newest first (only the unresolved ones, or about one player)."""

    @abstractmethod
    async def resolve_report(self, report: int, resolution: str, now: int) -> Report | None:
        """Mark a report resolved (once); the report as it is now, or None when there is none."""

    @abstractmethod
    async def add_ban(self, kind: str, value: str, reason: str, now: int, until: int | None, by: str) -> Ban: ...

    @abstractmethod
    async def bans(self, *, active_at: int | None = None, limit: int = 100) -> list[Ban]:
        """Bans, newest first (with `active_at`: only those in force then)."""

    @abstractmethod
    async def lift_ban(self, ban: int, now: int) -> Ban | None:
        """Lift a ban; the ban as it is now, or None when there is none."""

    @abstractmethod
    async def bans_on(self, kind: str, values: list[str], now: int) -> list[Ban]:
        """The bans in force of that kind on any of `values` (for "net": every network ban in force)."""

    @abstractmethod
    async def add_audit(self, actor: str, action: str, target: str | None, detail: dict[str, Any], now: int) -> int:
        """Keep one administrator's action in the audit log; its id."""

    @abstractmethod
    async def audit(self, *, limit: int = 100, before: int | None = None) -> list[dict[str, Any]]:
        """The audit log, newest first (`before`: only entries with a smaller id)."""

    # ---- signals of turn-based games (v1.2) ---------------------------------------------------------

    @abstractmethod
    async def notify_prefs(self, player: str) -> NotifyPrefs | None:
        """The account's signal settings, if it ever set them (a deleted account has none)."""

    @abstractmethod
    async def set_notify_prefs(self, prefs: NotifyPrefs) -> None:
        """Keep the account's signal settings (replacing the ones it had)."""

    @abstractmethod
    async def push_subs(self, player: str) -> list[PushSub]:
        """The account's web push subscriptions, oldest first."""

    @abstractmethod
    async def add_push_sub(self, sub: PushSub, keep: int) -> None:
        """Keep a web push subscription (replacing the account's one with the same endpoint); past `keep` of them,
        the oldest go."""

    @abstractmethod
    async def drop_push_sub(self, player: str, endpoint: str | None) -> int:
        """Forget the account's subscription with that endpoint (None: every one); how many went."""

    @abstractmethod
    async def claim_signal(self, key: str, now: int) -> bool:
        """True for the first claim of `key` (a turn: room, seat, version), False for every later one, from any
        node: the one that gets True sends the turn's signals."""

    @abstractmethod
    async def prune_signals(self, before: int) -> int:
        """Forget claims made before `before` (Unix seconds); how many."""


class MemoryRecords(Records):
    """Records that live as long as the object (the memory store's, and tests')."""

    def __init__(self) -> None:
        super().__init__()
        self._chat: dict[str, list[bytes]] = {}
        self._games: list[tuple[str, bytes]] = []  # (room, packed record), newest first
        self._replays: dict[str, bytes] = {}
        self._ratings: dict[str, dict[str, bytes]] = {}
        self._rematch: dict[str, str] = {}
        self._accounts: dict[str, Account] = {}
        self._keys: dict[str, str] = {}  # name key -> player
        self._deleted: dict[str, int] = {}  # player -> when its name is free
        self._devices: dict[str, Device] = {}
        self._attempts: dict[str, list[int]] = {}
        self._passkeys: dict[str, Passkey] = {}
        self._blocks: dict[str, dict[str, tuple[int, str | None]]] = {}
        self._reports: list[Report] = []
        self._bans: list[Ban] = []
        self._audit: list[dict[str, Any]] = []
        self._notify: dict[str, NotifyPrefs] = {}
        self._signals: dict[str, int] = {}
        self._push: dict[str, list[PushSub]] = {}  # player -> subscriptions, oldest first

    async def add_chat(self, room: str | None, line: dict[str, Any]) -> None:
        lines = self._chat.setdefault(room or LOBBY, [])
        lines.append(pack(line))
        del lines[:-CHAT_KEEP]

    async def chat(self, room: str | None) -> list[dict[str, Any]]:
        return [unpack(x) for x in self._chat.get(room or LOBBY, [])]

    async def has_chat(self, room: str | None) -> bool:
        return bool(self._chat.get(room or LOBBY))

    async def finish_game(
        self,
        record: dict[str, Any],
        players: list[str],
        *,
        rated: list[str] | None = None,
        rate: RateFn | None = None,
        replay: dict[str, Any] | None = None,
        timeout: float | None = None,
    ) -> bool:
        room = str(record["room"])
        if any(r == room for r, _ in self._games):
            return False
        self._games.insert(0, (room, pack({**record, "_players": players})))
        dropped = self._games[MEMORY_GAMES_KEEP:]
        del self._games[MEMORY_GAMES_KEEP:]
        for old, _ in dropped:
            self._replays.pop(old, None)
        if replay is not None:
            self._replays[room] = pack(replay)
        if rate is not None and rated:
            game = str(record["game"])
            rows = self._ratings.setdefault(game, {})
            new = rate({p: unpack(rows[p]) for p in sorted(set(rated)) if p in rows})
            rows.update({k: pack(v) for k, v in new.items()})
            scores = {p: score_of(v) for p, v in new.items() if p in players}
            if scores:
                self._games[0] = (room, pack({**record, "_players": players, "_scores": scores}))
        return True

    async def history(self, game: str | None, player: str | None, limit: int) -> list[dict[str, Any]]:
        out = []
        for _, packed in self._games:
            rec = unpack(packed)
            if (game is None or rec["game"] == game) and (player is None or player in rec.get("_players", [])):
                scores = rec.pop("_scores", None) or {}
                if player is not None:
                    rec["_score"] = scores.get(player)
                out.append(rec)
                if len(out) >= limit:
                    break
        return out

    async def archived(self, room: str) -> dict[str, Any] | None:
        got = self._replays.get(room)
        return None if got is None else dict(unpack(got))

    async def leaderboard(self, game: str, limit: int, offset: int = 0) -> list[tuple[str, dict[str, Any]]]:
        rows = [(p, unpack(v)) for p, v in self._ratings.get(game, {}).items()]
        rows.sort(key=lambda pr: (-score_of(pr[1]), pr[0]))
        return rows[offset : offset + limit]

    async def rank_of(self, game: str, player: str) -> tuple[int, dict[str, Any]] | None:
        rows = self._ratings.get(game, {})
        if player not in rows:
            return None
        mine = unpack(rows[player])
        key = (-score_of(mine), player)
        return 1 + sum(1 for p, v in rows.items() if (-score_of(unpack(v)), p) < key), mine

    async def ratings_by_player(self, player: str) -> dict[str, dict[str, Any]]:
        return {game: unpack(rows[player]) for game, rows in self._ratings.items() if player in rows}

    async def ratings_of(
        self, game: str, players: list[str], timeout: float | None = None
    ) -> dict[str, dict[str, Any]]:
        rows = self._ratings.get(game, {})
        return {p: unpack(rows[p]) for p in players if p in rows}

    async def put_ratings(self, game: str, rows: dict[str, dict[str, Any]], *, replace: bool = True) -> None:
        kept = self._ratings.setdefault(game, {})
        for p, row in rows.items():
            if replace or p not in kept:
                kept[p] = pack(row)

    async def set_rematch(self, room: str, new: str) -> str:
        return self._rematch.setdefault(room, new)

    # ---- accounts ----------------------------------------------------------------------------------

    def _live(self, player: str) -> Account | None:
        return None if player in self._deleted else self._accounts.get(player)

    async def create_account(self, account: Account) -> bool:
        if account.player in self._accounts:
            return False
        holder = self._keys.get(account.key)
        if holder is not None:
            free_at = self._deleted.get(holder)
            if free_at is None or free_at > account.created_at:
                return False
        self._keys[account.key] = account.player
        self._accounts[account.player] = account
        return True

    async def account_by_key(self, key: str) -> Account | None:
        holder = self._keys.get(key)
        return None if holder is None else self._live(holder)

    async def account(self, player: str) -> Account | None:
        return self._live(player)

    async def accounts_among(self, players: list[str]) -> set[str]:
        return {p for p in players if self._live(p) is not None}

    async def set_password(self, player: str, password: str) -> None:
        got = self._live(player)
        if got is not None:
            self._accounts[player] = Account(got.player, got.name, got.key, password, got.created_at)

    async def delete_account(self, player: str, now: int, free_at: int) -> list[str]:
        if self._live(player) is None:
            return []
        self._deleted[player] = free_at
        for i, (room, packed) in enumerate(self._games):
            rec = unpack(packed)
            if player in rec.get("_players", []):
                replay = unpack(self._replays[room]) if room in self._replays else None
                rec, replay = renamed(rec, replay, player)
                self._games[i] = (room, pack(rec))
                if replay is not None:
                    self._replays[room] = pack(replay)
        for rows in self._ratings.values():
            rows.pop(player, None)
        for cred in [k for k, p in self._passkeys.items() if p.player == player]:
            del self._passkeys[cred]
        self._notify.pop(player, None)
        self._push.pop(player, None)
        return await self.drop_devices(player)

    async def add_device(self, device: Device) -> None:
        self._devices[device.key] = device

    async def device(self, key: str) -> Device | None:
        got = self._devices.get(key)
        return got if got is not None and self._live(got.player) is not None else None

    async def devices(self, player: str) -> list[Device]:
        mine = [d for d in self._devices.values() if d.player == player]
        return sorted(mine, key=lambda d: (-d.created_at, d.key))

    async def drop_devices(self, player: str, keys: list[str] | None = None) -> list[str]:
        gone = [k for k, d in self._devices.items() if d.player == player and (keys is None or k in keys)]
        for k in gone:
            del self._devices[k]
        return gone

    async def add_passkey(self, passkey: Passkey) -> bool:
        if passkey.id in self._passkeys:
            return False
        self._passkeys[passkey.id] = passkey
        return True

    async def passkey(self, credential: str) -> Passkey | None:
        got = self._passkeys.get(credential)
        return got if got is not None and self._live(got.player) is not None else None

    async def passkeys(self, player: str) -> list[Passkey]:
        return sorted((p for p in self._passkeys.values() if p.player == player), key=lambda p: p.id)

    async def set_sign_count(self, credential: str, sign_count: int) -> None:
        got = self._passkeys.get(credential)
        if got is not None:
            self._passkeys[credential] = Passkey(got.id, got.player, got.public_key, sign_count, got.created_at)

    async def note_attempt(self, keys: list[str], now: int, window: int) -> dict[str, int]:
        out = {}
        for key in keys:
            times = [t for t in self._attempts.get(key, []) if t > now - window]
            times.append(now)
            self._attempts[key] = times
            out[key] = len(times)
        if len(self._attempts) > MEMORY_ATTEMPT_KEYS:  # forget the keys with no recent failure
            for key in [k for k, ts in self._attempts.items() if ts[-1] <= now - window]:
                del self._attempts[key]
        return out

    async def attempts(self, keys: list[str], since: int) -> dict[str, int]:
        return {key: sum(1 for t in self._attempts.get(key, []) if t > since) for key in keys}

    # ---- moderation --------------------------------------------------------------------------------

    async def delete_chat(self, room: str | None, line: str) -> dict[str, Any] | None:
        lines = self._chat.get(room or LOBBY, [])
        for i, packed in enumerate(lines):
            got = unpack(packed)
            if got.get("line") == line:
                del lines[i]
                return dict(got)
        return None

    async def set_block(self, player: str, other: str, blocked: bool, now: int, name: str | None = None) -> None:
        mine = self._blocks.setdefault(player, {})
        if blocked:
            mine.setdefault(other, (now, name))
        else:
            mine.pop(other, None)

    async def block_list(self, player: str) -> list[tuple[str, str | None]]:
        mine = self._blocks.get(player, {})
        return [(p, mine[p][1]) for p in sorted(mine, key=lambda p: (-mine[p][0], p))[:BLOCKS_MAX]]

    async def blocked_by(self, player: str) -> set[str]:
        return {p for p, _ in await self.block_list(player)}

    async def blocks(self, player: str, other: str) -> bool:
        return other in self._blocks.get(player, {})

    async def add_report(
        self, reporter: str, player: str, room: str | None, reason: str, context: dict[str, Any], now: int
    ) -> int:
        rid = len(self._reports) + 1
        self._reports.append(Report(rid, reporter, player, room, reason, unpack(pack(context)), now, None, None))
        return rid

    async def reports(self, *, open_only: bool = True, player: str | None = None, limit: int = 100) -> list[Report]:
        got = [
            r for r in reversed(self._reports)
            if (not open_only or r.resolved_at is None) and (player is None or r.player == player)
        ]  # fmt: skip
        return got[:limit]

    async def resolve_report(self, report: int, resolution: str, now: int) -> Report | None:
        if not 1 <= report <= len(self._reports):
            return None
        got = self._reports[report - 1]
        if got.resolved_at is None:
            got = Report(got.id, got.reporter, got.player, got.room, got.reason, got.context, got.created_at, now,
                         resolution)  # fmt: skip
            self._reports[report - 1] = got
        return got

    async def add_ban(self, kind: str, value: str, reason: str, now: int, until: int | None, by: str) -> Ban:
        ban = Ban(len(self._bans) + 1, kind, value, reason, now, until, None, by)
        self._bans.append(ban)
        return ban

    async def bans(self, *, active_at: int | None = None, limit: int = 100) -> list[Ban]:
        got = [b for b in reversed(self._bans) if active_at is None or b.active(active_at)]
        return got[:limit]

    async def lift_ban(self, ban: int, now: int) -> Ban | None:
        if not 1 <= ban <= len(self._bans):
            return None
        got = self._bans[ban - 1]
        if got.lifted_at is None:
            got = Ban(got.id, got.kind, got.value, got.reason, got.created_at, got.until, now, got.by)
            self._bans[ban - 1] = got
        return got

    async def bans_on(self, kind: str, values: list[str], now: int) -> list[Ban]:
        return [b for b in self._bans if b.kind == kind and (kind == "net" or b.value in values) and b.active(now)]

    async def add_audit(self, actor: str, action: str, target: str | None, detail: dict[str, Any], now: int) -> int:
        aid = len(self._audit) + 1
        self._audit.append({"id": aid, "at": now, "actor": actor, "action": action, "target": target,
                            "detail": unpack(pack(detail))})  # fmt: skip
        return aid

    async def audit(self, *, limit: int = 100, before: int | None = None) -> list[dict[str, Any]]:
        got = [dict(a) for a in reversed(self._audit) if before is None or a["id"] < before]
        return got[:limit]

    async def notify_prefs(self, player: str) -> NotifyPrefs | None:
        return self._notify.get(player)

    async def set_notify_prefs(self, prefs: NotifyPrefs) -> None:
        self._notify[prefs.player] = prefs

    async def push_subs(self, player: str) -> list[PushSub]:
        return list(self._push.get(player, []))

    async def add_push_sub(self, sub: PushSub, keep: int) -> None:
        subs = [s for s in self._push.get(sub.player, []) if s.endpoint != sub.endpoint] + [sub]
        self._push[sub.player] = subs[-keep:] if keep > 0 else []

    async def drop_push_sub(self, player: str, endpoint: str | None) -> int:
        subs = self._push.get(player, [])
        kept = [s for s in subs if endpoint is not None and s.endpoint != endpoint]
        if kept:
            self._push[player] = kept
        else:
            self._push.pop(player, None)
        return len(subs) - len(kept)

    async def claim_signal(self, key: str, now: int) -> bool:
        if key in self._signals:
            return False
        self._signals[key] = now
        return True

    async def prune_signals(self, before: int) -> int:
        gone = [k for k, at in self._signals.items() if at < before]
        for k in gone:
            del self._signals[k]
        return len(gone)


__all__ = [
    "BLOCKS_MAX", "CHAT_KEEP", "DELETED_NAME", "LOBBY", "Account", "Ban", "Device", "MemoryRecords", "NotifyPrefs",
    "Passkey", "PushSub",
    "RateFn", "Records", "Report", "pack",
    "renamed", "score_of", "unpack",
]  # fmt: skip
