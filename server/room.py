"""A room: one actor (one task, one inbox) running one game over the pure rule engine.

Owns: the room's metadata (seats, players, status, version), the engine state, who is watching, each
viewer's last view, persistence of every version (log entry + meta, then snapshots) and recovery
(snapshot + replay), patches per viewer.
Must not: parse frames or touch sockets (it pushes plain messages to `Conn` outboxes), or decide rules
(it calls `engine.apply` and nothing else changes a game).

Every change raises the room's version `v` by one: a seat taken or freed before the start, the start,
each move, a seated player connecting or disconnecting. A change is stored before anybody hears of it;
a move's `ok` goes out after the move is stored and after the mover's own patch.

Every write carries the room's fencing token (`fence`). A write refused as fenced means another node owns
the room: the room stops at once and the hub moves its viewers there. A write of unknown outcome (a timeout,
a lost connection) is settled before anybody is answered: the room swaps its token for a new one (so the
write, if still in flight, can no longer land) and reads back the stored version; the change is then
known to be stored (answered `ok`) or not (answered `unavailable`, nothing changed). While the store
cannot be reached the room keeps trying, with back-off; commands wait in the inbox.
Presence (which seats are connected) is part of the stored meta, so every node shows the same view at the
same version.
"""

from __future__ import annotations

import asyncio
import hmac
import logging
import time
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, Protocol

from protocol.codec import encode_ops, patch_frame
from protocol.patch import make_patch_builtin as make_patch
from server import botpool, clock, lobby
from server.games import Game, IllegalMove, get_game
from server.games.base import pack, unpack
from server.games.bots import bot_for
from server.metrics import Metrics
from server.names import unique_name
from server.store import Store, StoreFenced, StoreUnavailable

log = logging.getLogger("marcopolo.room")


class RoomError(Exception):
    """A request the room refuses; `code` is a wire error code.

    The code `abandoned` is internal: the outcome of the request could not be settled (the room stopped
    while the store was unreachable), so it must not be answered at all; the hub closes the connection.
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


UNAVAILABLE = "the store is unavailable; nothing was changed; retry"
#: the most public log events a room keeps for `game_log` (the newest; a game has a few hundred)
GAME_LOG_KEPT = 5000


class Conn(Protocol):
    """What a room needs of a connection: a local `server.conn.Conn` or a `cluster.RemoteConn`."""

    id: str
    player: str | None
    name: str | None

    def push(self, msg: dict[str, Any]) -> None: ...

    def push_bytes(self, data: bytes, t: str = "?") -> None: ...


class Hub(Protocol):
    """What a room needs from the server around it."""

    store: Store
    metrics: Metrics

    def room_changed(self, room: Room) -> None: ...

    def room_idle(self, room: Room) -> None: ...

    def room_fenced(self, room: Room) -> None: ...

    async def seat_changed(self, room: Room, player: str, held: bool) -> None: ...


@dataclass
class Viewer:
    conn: Conn
    seat: int | None
    v: int = 0
    #: the last view sent, in its two parts: what every viewer sees (the same object for every viewer
    #: at one version) and what this seat alone sees (`you`, `private`, `prompt`)
    last_shared: dict[str, Any] = field(default_factory=dict)
    last_own: dict[str, Any] = field(default_factory=dict)

    @property
    def last(self) -> dict[str, Any]:
        """The whole last view sent."""
        return {**self.last_shared, **self.last_own}


@dataclass
class Command:
    kind: str
    conn: Conn | None
    args: dict[str, Any]
    re: int | None
    done: asyncio.Future[Any]


class Room:
    """The actor. Use `submit`; never call the `_do_*` handlers from outside the actor task."""

    def __init__(
        self,
        hub: Hub,
        meta: dict[str, Any],
        state: dict[str, Any] | None,
        *,
        snapshot_every: int,
        finished_ttl: int,
        fence: str | None = None,
        lease_ms: int = 2000,
        bot_delay: float = 0.5,
        bot_think: float = botpool.DEFAULT_SECONDS,
        presence_grace: float = 0.0,
    ) -> None:
        self.hub = hub
        self.meta = meta
        self.state = state
        self.game: Game = get_game(meta["game"])
        self.viewers: dict[str, Viewer] = {}
        self.snapshot_every = snapshot_every
        self.finished_ttl = finished_ttl
        self.snap_v = meta.get("snap_v", 0)
        #: the fencing token every write carries (None: a store this room owns alone, as in unit tests)
        self.fence = fence
        #: until when (time.monotonic) the lease is known to hold: set from the moment a renewal that
        #: succeeded was sent. Past it the room checks with the store before it answers anything, so an
        #: owner that was paused (SIGSTOP, a long stall) never shows a view older than the new owner's.
        self.lease_until = float("inf") if fence is None else 0.0
        self.lease_ms = lease_ms
        self.bot_delay = bot_delay
        #: seconds a search bot thinks per decision (the room's `bot_think_ms` option wins over this setting)
        self.bot_think = meta["bot_think_ms"] / 1000 if meta.get("bot_think_ms") else float(bot_think)
        #: after a takeover, seats stay shown as connected this long so their players can re-attach
        self.presence_grace = presence_grace
        self._presence_task: asyncio.Task[None] | None = None
        self._stopped = False
        self.fenced = False
        self._bots: dict[int, Any] = {}
        self._bot_timers: dict[int, asyncio.Task[None]] = {}
        self._inbox: asyncio.Queue[Command | None] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None
        #: the timer of the turn clock and the lobby's timed events (server.clock)
        self._clock_task: asyncio.Task[None] | None = None
        #: per version, built once: the shared part of the view (keyed by the meta and state objects,
        #: which are replaced, never changed, on every version) and each seat's prompt (keyed by the state)
        self._shared_key: tuple[Any, Any] | None = None
        self._shared: dict[str, Any] = {}
        self._own: dict[int | None, dict[str, Any]] = {}
        self._prompts: tuple[Any, dict[int, dict[str, Any] | None]] = (None, {})
        #: every public log event of the game so far, oldest first, gathered from each version's public view
        #: (which keeps only the last few); None for a room loaded mid-game until it is rebuilt from the log
        self.events: list[dict[str, Any]] | None = [] if state is None and meta["status"] == "waiting" else None

    # ---- identity ---------------------------------------------------------------------------

    @property
    def id(self) -> str:
        return str(self.meta["room"])

    @property
    def v(self) -> int:
        return int(self.meta["v"])

    @property
    def status(self) -> str:
        return str(self.meta["status"])

    def seat_of(self, player: str | None) -> int | None:
        """The seat `player` holds here, if any."""
        if player is None:
            return None
        for i, p in enumerate(self.meta["players"]):
            if p == player:
                return i
        return None

    # ---- lifecycle --------------------------------------------------------------------------

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name=f"room-{self.id}")
        self._schedule_bots()
        lobby.started(self)
        clock.schedule(self)
        if self.presence_grace > 0:
            self._presence_task = asyncio.get_running_loop().create_task(self._presence_after_grace())

    async def stop(self) -> None:
        self._stopped = True
        for timer in self._bot_timers.values():
            timer.cancel()
        clock.cancel(self)
        if self._presence_task is not None:
            self._presence_task.cancel()
        await self._inbox.put(None)
        if self._task is not None and self._task is not asyncio.current_task():
            await self._task

    async def submit(self, kind: str, conn: Conn | None, re: int | None = None, **args: Any) -> Any:
        """Queue a command for the actor and wait for its outcome (raises RoomError)."""
        if self._stopped:
            raise RoomError("unavailable", "the room was closed here; retry")
        fut: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        await self._inbox.put(Command(kind, conn, args, re, fut))
        return await fut

    async def _run(self) -> None:
        while True:
            cmd = await self._inbox.get()
            if cmd is None:
                # commands queued behind the stop are answered, never left waiting forever
                while not self._inbox.empty():
                    late = self._inbox.get_nowait()
                    if late is not None and not late.done.done():
                        late.done.set_exception(RoomError("unavailable", "the room was closed here; retry"))
                return
            if self.fenced:
                if not cmd.done.done():
                    cmd.done.set_exception(RoomError("unavailable", "the room moved to another node; retry"))
                continue
            try:
                if time.monotonic() >= self.lease_until:
                    await self._check_lease()
                handler: Callable[[Command], Awaitable[Any]] = getattr(self, f"_do_{cmd.kind}")
                result = await handler(cmd)
                if not cmd.done.done():
                    cmd.done.set_result(result)
            except RoomError as err:
                if not cmd.done.done():
                    cmd.done.set_exception(err)
            except StoreFenced as err:
                self._lost(str(err))
                if not cmd.done.done():
                    cmd.done.set_exception(RoomError("unavailable", "the room moved to another node; retry"))
            except StoreUnavailable as err:  # a read failed: nothing was changed
                log.warning("room %s: store unavailable: %s", self.id, err)
                if not cmd.done.done():
                    cmd.done.set_exception(RoomError("unavailable", UNAVAILABLE))
            except Exception as err:  # a server fault: log it, answer `internal`, keep the actor alive
                log.exception("room %s: fault in %s", self.id, cmd.kind)
                if not cmd.done.done():
                    cmd.done.set_exception(RoomError("internal", f"server fault ({type(err).__name__})"))

    # ---- views ------------------------------------------------------------------------------

    def online(self) -> list[bool]:
        """Which seats show as connected: the stored presence (bots are always there)."""
        stored = self.meta.get("online") or []
        bots = set(self.bot_seats())
        return [i in bots or (i < len(stored) and bool(stored[i])) for i in range(self.meta["seats"])]

    def seats_view(self) -> list[dict[str, Any]]:
        online = self.online()
        rated = self.meta.get("ratings") or []
        auto = self.autoplay()
        seats = [
            {
                "name": self.meta["names"][i],
                "taken": self.meta["players"][i] is not None,
                "connected": online[i],
                "rating": rated[i] if i < len(rated) else None,
            }
            for i in range(self.meta["seats"])
        ]
        for i, level in enumerate(auto):
            if level is not None:
                seats[i]["autoplay"] = level  # (a wire addition: only on a seat a server bot plays for its player)
        return seats

    def autoplay(self) -> list[str | None]:
        """Per seat: the level of the server bot its player handed it to (`autoplay`), else None."""
        stored = self.meta.get("autoplay") or []
        return [stored[i] if i < len(stored) else None for i in range(self.meta["seats"])]

    def played_seats(self) -> list[int]:
        """Seats a server bot moves: bot seats and seats on autoplay."""
        auto = self.autoplay()
        return sorted({*self.bot_seats(), *(i for i, level in enumerate(auto) if level is not None)})

    def prompt_for(self, state: dict[str, Any], seat: int) -> dict[str, Any] | None:
        """`game.prompt(state, seat)`, computed once per state (states are never changed in place)."""
        cached_state, prompts = self._prompts
        if cached_state is not state:
            prompts = {}
            self._prompts = (state, prompts)
        if seat not in prompts:
            prompts[seat] = self.game.prompt(state, seat)
        return prompts[seat]

    def _view_parts(self) -> tuple[dict[str, Any], dict[int | None, dict[str, Any]]]:
        """The shared part of the current version's view and the cache of its per-seat parts."""
        key = (self.meta, self.state)
        if self._shared_key is None or self._shared_key[0] is not key[0] or self._shared_key[1] is not key[1]:
            seats = self.seats_view()
            shared: dict[str, Any] = {"game": self.meta["game"], "room": self.id, "status": self.status,
                                      "seats": seats, "options": self.meta["options"],
                                      **clock.view_keys(self.meta)}  # fmt: skip
            if self.state is None:
                shared["public"] = {"status": "waiting", "seats": seats}
                shared["result"] = None
            else:
                shared["public"] = self.game.public_view(self.state)
                shared["result"] = self.game.result(self.state)
                self._gather_events(shared["public"])
            self._shared_key, self._shared, self._own = key, shared, {}
        return self._shared, self._own

    def _gather_events(self, public: dict[str, Any]) -> None:
        """Keep the public log events of a new version that are not kept yet (by their running number `n`)."""
        if self.events is None or not isinstance(public.get("log"), list):
            return
        last = self.events[-1]["n"] if self.events else 0
        new: list[dict[str, Any]] = []
        for ev in reversed(public["log"]):  # the new events are the log's tail: read back to the last kept one
            if isinstance(ev, dict) and isinstance(ev.get("n"), int):
                if ev["n"] <= last:
                    break
                new.append(ev)
        if new:
            new.reverse()
            self.events.extend(new)
            del self.events[:-GAME_LOG_KEPT]

    async def _rebuild_events(self) -> None:
        """The whole public log of a room loaded mid-game: the game re-run from its seed and its stored log,
        keeping each version's public log events (the public view only: no seat's private data)."""
        try:
            entries = await self._timed("log", self.hub.store.full_log(self.id))  # type: ignore[attr-defined]
        except StoreUnavailable as err:
            log.warning("room %s: the whole log could not be read: %s", self.id, err)
            return
        entries = sorted((e for e in entries if e["v"] <= self.v), key=lambda e: e["v"])
        self.events = []  # rebuilt once: without the game's start in the store, it begins with what is here
        if any(e.get("start") for e in entries):  # (the log before the last snapshot is trimmed: `keep_log` off)
            for state in replayed(self.game, self.meta, None, entries):
                if state is not None:
                    self._gather_events(self.game.public_view(state))
        if self.state is not None:
            self._gather_events(self.game.public_view(self.state))

    def _own_view(self, seat: int | None) -> dict[str, Any]:
        """What only `seat` sees of the current version (`you`, `private`, `prompt`), built once per seat."""
        _shared, own = self._view_parts()
        part = own.get(seat)
        if part is None:
            if self.state is None or seat is None:
                part = {"you": seat, "private": None, "prompt": None}
            else:
                private = self.game.private_view(self.state, seat)
                part = {"you": seat, "private": private, "prompt": self.prompt_for(self.state, seat)}
            own[seat] = part
        return part

    def build_view(self, seat: int | None) -> dict[str, Any]:
        """The whole document one viewer sees (DESIGN.md section 3)."""
        shared, _own = self._view_parts()
        return {**shared, **self._own_view(seat)}

    def _snapshot_to(self, viewer: Viewer, re: int | None) -> None:
        viewer.last_shared, _ = self._view_parts()
        viewer.last_own = self._own_view(viewer.seat)
        viewer.v = self.v
        view = {**viewer.last_shared, **viewer.last_own}
        viewer.conn.push({"t": "snapshot", "re": re, "room": self.id, "v": self.v, "state": view})

    def _broadcast(self, first: Conn | None = None, skip: Conn | None = None) -> None:
        """Send every viewer the patch from its last view to the current version (mover first).

        The shared part is diffed once per distinct old version and its operations encoded once; per
        viewer only its own part is diffed, and viewers with the same old and new parts (spectators)
        share one encoded frame."""
        self._schedule_bots()
        clock.schedule(self)
        shared, _ = self._view_parts()
        shared_ops: dict[int, tuple[int, bytes]] = {}
        frames: dict[tuple[int, int, int], tuple[bytes, int]] = {}  # ids of objects alive throughout
        order = sorted(self.viewers.values(), key=lambda vw: vw.conn is not first)
        for viewer in order:
            if viewer.conn is skip:
                continue
            own = self._own_view(viewer.seat)
            fkey = (id(viewer.last_shared), id(viewer.last_own), id(own))
            frame = frames.get(fkey)
            if frame is None:
                skey = id(viewer.last_shared)
                packed = shared_ops.get(skey)
                if packed is None:
                    ops = make_patch(viewer.last_shared, shared, copy=False)
                    packed = shared_ops[skey] = encode_ops(ops)
                frame = frames[fkey] = (
                    patch_frame(self.id, viewer.v, self.v, packed, own_patch(viewer.last_own, own)),
                    viewer.v,
                )
            viewer.conn.push_bytes(frame[0], "patch")
            viewer.last_shared, viewer.last_own, viewer.v = shared, own, self.v

    # ---- persistence ------------------------------------------------------------------------

    async def _timed(self, op: str, coro: Awaitable[Any]) -> Any:
        t0 = time.perf_counter()
        try:
            return await coro
        finally:
            self.hub.metrics.store_op(op).observe(time.perf_counter() - t0)

    async def _commit(self, entry: dict[str, Any] | None, meta: dict[str, Any]) -> None:
        """Store one new version (a log entry + the new meta, or the meta alone) under the room's token.

        Returns once it is stored. Raises RoomError `unavailable` when it is known not to be stored,
        StoreFenced when another node owns the room, RoomError `abandoned` when the outcome stays unknown.
        """
        store = self.hub.store
        lobby.note_presence(self, meta)
        await lobby.note_ratings(self, meta)
        try:
            if entry is None:
                await self._timed("meta", store.save_meta(self.id, meta, fence=self.fence))
            else:
                await self._timed("append", store.append(self.id, entry, meta, fence=self.fence))
            return
        except StoreUnavailable as err:
            log.warning("room %s: write of v=%d of unknown outcome: %s", self.id, meta["v"], err)
        stored = await self._settle(int(meta["v"]), entry)
        if stored is None:
            raise RoomError("abandoned", "the outcome of the change could not be settled")
        if not stored:
            raise RoomError("unavailable", UNAVAILABLE)

    async def _settle(self, v: int, entry: dict[str, Any] | None) -> bool | None:
        """After a write of version `v` of unknown outcome: was it stored? None if that cannot be told."""
        store = self.hub.store
        self.hub.metrics.store_settles.inc()
        delay = 0.05
        while not self._stopped:
            try:
                if self.fence is not None:
                    new = await store.refence(self.id, self.fence, self.lease_ms)
                    if new is None:  # another node took the room; did our write land before it did?
                        last, found = await store.log_entry(self.id, v) if entry is not None else (0, None)
                        self._lost("fenced while settling a write")
                        if entry is None or found is None:
                            return None if entry is not None and last >= v else False
                        return bool(found == entry)
                    self.fence = new  # the old token can no longer write: what we read now is final
                    self.lease_until = time.monotonic()  # checked again before the next answer
                meta = await store.get_meta(self.id)
                if meta is None:
                    self._lost("the room vanished from the store")
                    return None
                stored_v = int(meta.get("v", 0))
                if stored_v < self.v:
                    self._lost(f"the store holds v={stored_v}, behind this room's v={self.v}")
                    return None
                return stored_v >= v
            except StoreUnavailable as err:
                log.info("room %s: settling v=%d: store still unavailable (%s)", self.id, v, err)
            except KeyError:
                self._lost("the room vanished from the store")
                return None
            await asyncio.sleep(delay)
            delay = min(delay * 2, 1.0)
        return None

    async def _check_lease(self) -> None:
        """The lease may have lapsed (no renewal for a while): renew it now or stop serving the room here."""
        assert self.fence is not None
        sent = time.monotonic()
        try:
            held = await self.hub.store.renew_lease(self.id, self.fence, self.lease_ms)
        except StoreUnavailable as err:
            raise RoomError("unavailable", UNAVAILABLE) from err
        if not held:
            self._lost("the lease lapsed and another node took the room")
            raise RoomError("unavailable", "the room moved to another node; retry")
        self.lease_until = max(self.lease_until, sent + self.lease_ms / 1000)

    def _lost(self, why: str) -> None:
        """Another node owns the room (or the store lost it): stop serving it here at once."""
        if self.fenced:
            return
        log.warning("room %s: dropped here: %s", self.id, why)
        self.fenced = True
        self._stopped = True
        for timer in self._bot_timers.values():
            timer.cancel()
        clock.cancel(self)
        self.hub.room_fenced(self)

    async def _after_commit(self) -> None:
        """Snapshots and the end of the game; a failure here loses nothing (the log has the change)."""
        store = self.hub.store
        try:
            if self.status == "finished":
                await self._timed("snapshot", store.save_snapshot(self.id, self.v, self._packed(), fence=self.fence))
                self.snap_v = self.v
                await self._timed("finish", store.finish(self.id, self.meta, self.finished_ttl, fence=self.fence))
                await lobby.finished(self)
            elif self.state is not None and self.v - self.snap_v >= self.snapshot_every:
                await self._timed("snapshot", store.save_snapshot(self.id, self.v, self._packed(), fence=self.fence))
                self.snap_v = self.v
        except StoreUnavailable as err:
            log.warning("room %s: snapshot deferred: %s", self.id, err)
        except StoreFenced as err:
            self._lost(str(err))

    async def _index_seat(self, player: str | None, held: bool) -> None:
        if player is None:
            return
        try:
            await self._timed("index", self.hub.seat_changed(self, player, held))
        except StoreUnavailable as err:  # the index only feeds `welcome.rooms`; the seat itself is stored
            log.warning("room %s: seat index not updated: %s", self.id, err)

    def _packed(self) -> bytes:
        return b"" if self.state is None else pack(self.state)

    def _next_meta(self, **changes: Any) -> dict[str, Any]:
        meta = {**self.meta, "players": list(self.meta["players"]), "names": list(self.meta["names"])}
        online = list(self.meta.get("online") or [])
        meta["online"] = [bool(x) for x in online[: meta["seats"]]] + [False] * (meta["seats"] - len(online))
        meta.update(changes)
        meta["v"] = changes.get("v", self.v + 1)
        return meta

    # ---- commands ---------------------------------------------------------------------------

    async def _do_join(self, cmd: Command) -> int | None:
        conn = cmd.conn
        assert conn is not None
        want: int | None = cmd.args.get("seat")
        held = self.seat_of(conn.player)
        if held is not None:  # re-attach (also when asking to spectate: the seat stays yours)
            if want is not None and want != held:
                raise RoomError("seat_taken", f"you hold seat {held} in this room")
            await clock.reattach(self, held)
            await self._attach_seated(conn, held, cmd.re)
            return held
        invite = self.meta.get("invite")
        given = cmd.args.get("invite")
        if invite and not (isinstance(given, str) and hmac.compare_digest(given.encode(), str(invite).encode())):
            raise RoomError("forbidden", "this room is private: join it with its invite")
        if cmd.args.get("spectate", False):
            self.viewers[conn.id] = viewer = Viewer(conn, None)
            self._welcome(viewer, cmd.re)
            return None
        if self.status != "waiting":
            raise RoomError("room_full", "the game has started; you may watch it")
        free = [i for i, p in enumerate(self.meta["players"]) if p is None]
        if want is not None:
            if want >= self.meta["seats"]:
                raise RoomError("not_found", f"no seat {want} in this room")
            if want not in free:
                raise RoomError("seat_taken", f"seat {want} is taken")
            seat = want
        elif free:
            seat = free[0]
        else:
            raise RoomError("room_full", "every seat is taken")
        meta = self._next_meta()
        meta["players"][seat] = conn.player
        meta["names"][seat] = name = unique_name(conn.name or "?", meta["names"])
        meta["online"][seat] = True
        starts = all(p is not None for p in meta["players"])
        entry: dict[str, Any] = {"v": meta["v"], "k": "join", "seat": seat, "player": conn.player, "name": name}
        state = None
        if starts:
            state = self.game.setup(meta["seats"], meta["options"], meta["seed"])
            meta["v"] += 1
            meta["status"] = "playing"
            entry["start"] = True
            entry["v"] = meta["v"]
            clock.stamp(self, meta, state, None, "start")
        await self._commit(entry, meta)
        self.viewers[conn.id] = viewer = Viewer(conn, seat)
        # the join is one version and the start the next: the others get a patch for each
        self.meta = {**meta, "v": meta["v"] - 1, "status": "waiting", "clock": None} if starts else meta
        self._broadcast(skip=conn)
        if starts:
            self.meta, self.state = meta, state
            self._broadcast(skip=conn)
        self._welcome(viewer, cmd.re)
        self.hub.room_changed(self)
        await self._index_seat(conn.player, True)
        await self._after_commit()
        return seat

    async def _attach_seated(self, conn: Conn, seat: int, re: int | None) -> None:
        """Put a player's connection on its seat; another connection on that seat is dropped."""
        for cid in [cid for cid, vw in self.viewers.items() if vw.seat == seat and cid != conn.id]:
            del self.viewers[cid]
        self.viewers[conn.id] = viewer = Viewer(conn, seat)
        await self._sync_presence(skip=conn)
        self._welcome(viewer, re)

    def _welcome(self, viewer: Viewer, re: int | None) -> None:
        viewer.conn.push({"t": "joined", "re": re, "room": self.id, "seat": viewer.seat})
        self._snapshot_to(viewer, None)

    async def _sync_presence(self, skip: Conn | None = None, hold: bool = False) -> None:
        """Store and show a presence change when the seats with viewers differ from the stored presence.

        Presence is best effort: when the store refuses, the stored presence stays as it was (no version
        is shown that was not stored) and the next presence change or sweep corrects it. With `hold`
        (just after a takeover), seats are only turned on, not off.
        """
        seated = {v.seat for v in self.viewers.values() if v.seat is not None}
        stored = [bool(x) for x in (self.meta.get("online") or [False] * self.meta["seats"])]
        want = [i in seated or (hold and stored[i]) for i in range(self.meta["seats"])]
        if want == stored:
            return
        meta = self._next_meta(online=want)
        try:
            await self._commit(None, meta)
        except RoomError as err:
            if err.code == "abandoned":
                raise
            log.info("room %s: presence not stored (%s)", self.id, err.message)
            return
        self.meta = meta
        self._broadcast(skip=skip)

    def _in_grace(self) -> bool:
        return self._presence_task is not None and not self._presence_task.done()

    async def _presence_after_grace(self) -> None:
        await asyncio.sleep(self.presence_grace)
        try:
            await self.submit("presence", None)
        except RoomError:
            pass

    async def _do_presence(self, cmd: Command) -> None:
        await self._sync_presence()

    async def _do_leave(self, cmd: Command) -> None:
        conn = cmd.conn
        assert conn is not None
        viewer = self.viewers.pop(conn.id, None)
        held = self.seat_of(conn.player)
        if held is not None and self.status == "waiting":
            meta = self._next_meta()
            meta["players"][held] = None
            meta["names"][held] = None
            meta["online"][held] = False
            try:
                await self._commit({"v": meta["v"], "k": "free", "seat": held}, meta)
            except (RoomError, StoreFenced):
                if viewer is not None:
                    self.viewers[conn.id] = viewer
                raise
            self.meta = meta
            self._broadcast()
            self.hub.room_changed(self)
            await self._index_seat(conn.player, False)
        elif viewer is not None and viewer.seat is not None:
            await self._sync_presence(hold=self._in_grace())
        conn.push({"t": "left", "re": cmd.re, "room": self.id})
        self._maybe_idle()

    async def _do_detach(self, cmd: Command) -> None:
        """The connection closed: stop sending to it; its seat shows as disconnected."""
        conn = cmd.conn
        assert conn is not None
        viewer = self.viewers.pop(conn.id, None)
        if viewer is not None and viewer.seat is not None:
            await self._sync_presence(hold=self._in_grace())
        self._maybe_idle()

    def _maybe_idle(self) -> None:
        if not self.viewers:
            self.hub.room_idle(self)

    def _viewer_of(self, cmd: Command, *, seated: str | None = None) -> Viewer:
        """The viewer that sent `cmd`; `forbidden` if it has not joined, or (with `seated`, the reason
        given) if it watches without a seat."""
        conn = cmd.conn
        assert conn is not None
        viewer = self.viewers.get(conn.id)
        if viewer is None:
            raise RoomError("forbidden", "join the room first")
        if seated is not None and viewer.seat is None:
            raise RoomError("forbidden", seated)
        return viewer

    async def _do_sync(self, cmd: Command) -> None:
        self._snapshot_to(self._viewer_of(cmd), cmd.re)

    async def _do_move(self, cmd: Command) -> int:
        conn = cmd.conn
        assert conn is not None
        viewer = self._viewer_of(cmd, seated="spectators do not move")
        assert viewer.seat is not None
        made_at = cmd.args.get("v")
        if made_at is not None and made_at != self.v:
            raise RoomError("stale", f"the move was made at v={made_at}; the room is at v={self.v}; sync")
        return await self._play(viewer.seat, cmd.args["move"], conn, cmd.re)

    async def _play(self, seat: int, move: Any, conn: Conn | None, re: int | None) -> int:
        """Apply, store, then tell everyone; `conn` (the mover, if a person) gets its patch, then `ok`."""
        if self.state is None or self.status == "waiting":
            raise RoomError("illegal_move", "the game has not started")
        prompt = self.prompt_for(self.state, seat)
        try:
            state = self.game.apply(self.state, seat, move, prompt["options"] if prompt else None)
        except IllegalMove as err:
            code = "not_your_turn" if err.code == "not_your_turn" else "illegal_move"
            raise RoomError(code, err.message) from None
        over = self.game.result(state) is not None
        meta = self._next_meta(status="finished" if over else self.status)
        if conn is not None and any(self.meta.get("autoplay") or ()) and self.autoplay()[seat] is not None:
            auto = self.autoplay()
            auto[seat] = None  # the player moved: it plays its seat itself again
            meta["autoplay"] = auto
        clock.stamp(self, meta, state, seat, clock.mover_kind(self, conn, seat))
        await self._commit({"v": meta["v"], "k": "move", "seat": seat, "move": move}, meta)
        self.meta, self.state = meta, state
        self._broadcast(first=conn)
        if conn is not None:
            conn.push({"t": "ok", "re": re, "v": self.v})
        if over:
            self.hub.room_changed(self)
        await self._after_commit()
        return self.v

    # ---- v1.1: clocks, chat, host controls (server.clock, server.lobby) ----------------------

    async def _do_tick(self, cmd: Command) -> None:
        await clock.tick(self)

    async def _do_chat(self, cmd: Command) -> None:
        await lobby.room_chat(self, cmd)

    async def _do_host(self, cmd: Command) -> int:
        return await lobby.host(self, cmd)

    async def _do_game_log(self, cmd: Command) -> None:
        """The game's whole public log to a viewer (one that joined mid-game or came back sees it all)."""
        conn = cmd.conn
        assert conn is not None
        if conn.id not in self.viewers:
            raise RoomError("forbidden", "join the room (or watch it) first")
        if self.events is None:
            await self._rebuild_events()
        shared, _own = self._view_parts()
        events = self.events if self.events is not None else list(shared["public"].get("log") or [])
        conn.push({"t": "game_log", "re": cmd.re, "room": self.id, "v": self.v, "events": events})

    async def _do_autoplay(self, cmd: Command) -> int:
        """A seated player hands its seat to a server bot (`level`), or takes it back (None): one version."""
        conn = cmd.conn
        assert conn is not None
        viewer = self._viewer_of(cmd, seated="spectators have no seat to hand over")
        assert viewer.seat is not None
        if self.status != "playing":
            why = "the game is over" if self.status == "finished" else "the game has not started"
            raise RoomError("forbidden", why)
        level: str | None = cmd.args.get("level")
        if level is not None:
            level = botpool.level_name(level)
        auto = self.autoplay()
        if auto[viewer.seat] != level:
            meta = self._next_meta()
            auto[viewer.seat] = level
            meta["autoplay"] = auto
            await self._commit(None, meta)
            self.meta = meta
            self._broadcast()
        conn.push({"t": "autoplay", "re": cmd.re, "room": self.id, "v": self.v})
        return self.v

    # ---- server-seated bots -----------------------------------------------------------------

    def bot_seats(self) -> list[int]:
        return [i for i, p in enumerate(self.meta["players"]) if isinstance(p, str) and p.startswith("bot:")]

    def _schedule_bots(self) -> None:
        """Start a timer for every bot seat that may move now (a bot move is a server-side step)."""
        if self.state is None or self.status != "playing":
            return
        active = set(self.game.active_seats(self.state))
        for seat in self.played_seats():
            timer = self._bot_timers.get(seat)
            if seat in active and (timer is None or timer.done()):
                self._bot_timers[seat] = asyncio.get_running_loop().create_task(self._bot_timer(seat, self.v))

    async def _bot_timer(self, seat: int, v: int) -> None:
        await asyncio.sleep(self.bot_delay)
        try:
            # the bot thinks here, outside the actor (a search bot in the process pool): the room keeps
            # serving, and `_do_bot` plays the move only if nothing changed meanwhile
            at, state, move = self.v, self.state, None
            if state is not None and self.status == "playing" and seat in self.game.active_seats(state):
                levels = self.meta.get("bot_levels") or []
                level = self.autoplay()[seat] or (levels[seat] if seat < len(levels) else None)
                seed = (int(self.meta["seed"]) * 7919 + seat * 104729 + at) & 0xFFFFFFFF
                move = await botpool.choose(self.meta["game"], level, state, seat, seed, seconds=self.bot_think)
            await self.submit("bot", None, None, seat=seat, v=v, at=at, move=move)
        except RoomError as err:
            log.info("room %s: bot on seat %d did not move: %s", self.id, seat, err.message)
            if err.code == "unavailable" and not self._stopped:  # try again once the store is back
                await asyncio.sleep(max(self.bot_delay, 0.5))
                if not self._stopped:
                    self._schedule_bots()

    async def _do_bot(self, cmd: Command) -> None:
        seat: int = cmd.args["seat"]
        self._bot_timers.pop(seat, None)
        if self.state is None or self.status != "playing" or seat not in self.game.active_seats(self.state):
            return
        if seat not in self.played_seats():
            return  # the seat's player took it back while the bot thought
        prompt = self.prompt_for(self.state, seat)
        if prompt is None:
            return
        move = cmd.args.get("move")
        if move is not None and (cmd.args.get("at") != self.v or move not in prompt["options"]):
            self._schedule_bots()  # the game moved on while the bot thought: think again
            return
        if move is None:
            bot = self._bots.get(seat)
            if bot is None:
                seed = (int(self.meta["seed"]) * 7919 + seat) & 0xFFFFFFFF
                bot = self._bots[seat] = bot_for(self.meta["game"], seed)
            move = bot.choose(prompt, self.game.view(self.state, seat))
        await self._play(seat, move, None, None)


def own_patch(old: dict[str, Any], new: dict[str, Any]) -> list[dict[str, Any]]:
    """The operations from one viewer's own part (`you`, `private`, `prompt`) to the next.

    A prompt whose question changed (or that came or went) is replaced whole without walking its options:
    its options are then a new list, and the diff would end in the same `replace` (measured over seeded
    games of every game: the same bytes, a tenth of the time)."""
    po, pn = old.get("prompt"), new.get("prompt")
    if po is pn or (type(po) is dict and type(pn) is dict and po.get("text") == pn.get("text")):
        return make_patch(old, new, copy=False)
    ops = make_patch({**old, "prompt": None}, {**new, "prompt": None}, copy=False)
    ops.append({"op": "replace", "path": "/prompt", "value": pn})
    return ops


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
