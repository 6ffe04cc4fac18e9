"""The embedded store: every room in one SQLite file, with the same semantics as MemoryStore and RedisStore.

This is the default for a single node (``make serve``): a node restarted on the same file, even after a
SIGKILL, resumes every room, session and finished game. The file is created with its folder.

Durability: the database runs in WAL mode with ``synchronous=FULL``, and changes are committed in groups: the
changes queued while the last commit ran go into the next transaction (``BEGIN IMMEDIATE``, one ``SAVEPOINT``
per change, ``COMMIT``), so one fsync serves every move of a busy moment. A call returns only after the
``COMMIT`` of its group, and with FULL SQLite fsyncs the WAL at every commit. So a move that ``append``
acknowledged survives a process crash, an OS crash and a power cut (given a disk that honours fsync). A change
refused as a caller mistake or a fence is rolled back to its savepoint alone; a database failure fails (and
stores nothing of) the whole group. ``synchronous="NORMAL"`` may be asked for instead: in WAL mode a commit
then survives a crash of the process (SIGKILL, OOM) but the last commits before an OS crash or a power cut may
be rolled back (the database itself stays consistent); the fsync happens at checkpoints only.

Threading: one dedicated worker thread owns the ``sqlite3`` connection and runs every operation, so the event
loop never waits on the disk and operations are serialised (a transaction never interleaves with another).
Any SQLite failure (disk full, I/O error, a file locked by another writer past ``busy_timeout``) raises
``StoreUnavailable``; for a write its outcome is then unknown, exactly as with Redis.

Tables: ``rooms`` (one row per room: packed meta plus the fields the store reads, ``log_v``, the snapshot, the
expiry of a finished room), ``log`` (room, v, packed entry), ``fences`` (per room: the epoch counter, the
lease token and when it lapses), ``sessions`` (key, packed session, expiry), ``seats`` (player, room). The indexes
(lobby, quick match, unfinished rooms) are kept in memory (``server.store.index``): this store is the file's one
writer, so it builds them once from the unfinished rooms (the partial index ``rooms_open``) and keeps them up.
Times are wall-clock seconds (``time.time``) so leases and expiries mean the same after a restart; finished
rooms and sessions are purged lazily once expired. Another process may open the file to read (WAL lets it
read while the node writes), but only one node may write to it: with SQLite the node runs alone. A server
opens its file with ``takeover=True``, which first takes an exclusive lock (``flock``) on ``<file>.lock``: a
second server on the same file refuses to start (``StoreLocked``, naming the process that holds it) instead of
fencing the first one off. The kernel drops the lock when the holder exits in any way (SIGKILL included), so
a restarted node never waits for it.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import os
import sqlite3
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar, cast

from server.store.base import (
    Entry,
    LoadedRoom,
    Meta,
    MetaInfo,
    Store,
    StoreFenced,
    StoreLocked,
    StoreRefused,
    StoreUnavailable,
    check_entry,
    check_meta,
    check_room,
    check_ttl,
    check_version,
    listing_order,
    pack,
    token_epoch,
    token_node,
    unpack,
)
from server.store.index import Directory

__all__ = ["DEFAULT_PATH", "SqliteStore"]

DEFAULT_PATH = "./data/marcopolo.db"

T = TypeVar("T")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS rooms (
    room TEXT PRIMARY KEY,
    data BLOB NOT NULL,
    status TEXT NOT NULL,
    game TEXT NOT NULL,
    public INTEGER NOT NULL,
    listed INTEGER NOT NULL,
    log_v INTEGER NOT NULL DEFAULT 0,
    snap_v INTEGER NOT NULL DEFAULT 0,
    snapshot BLOB,
    expires_at REAL
);
CREATE INDEX IF NOT EXISTS rooms_listed ON rooms (listed);
CREATE INDEX IF NOT EXISTS rooms_expiry ON rooms (expires_at) WHERE expires_at IS NOT NULL;
CREATE INDEX IF NOT EXISTS rooms_open ON rooms (room) WHERE status != 'finished';
CREATE TABLE IF NOT EXISTS log (
    room TEXT NOT NULL,
    v INTEGER NOT NULL,
    data BLOB NOT NULL,
    PRIMARY KEY (room, v)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS fences (
    room TEXT PRIMARY KEY,
    epoch INTEGER NOT NULL,
    token TEXT,
    lease_until REAL
);
CREATE TABLE IF NOT EXISTS sessions (
    key TEXT PRIMARY KEY,
    data BLOB NOT NULL,
    expires_at REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS sessions_expiry ON sessions (expires_at);
CREATE TABLE IF NOT EXISTS seats (
    player TEXT NOT NULL,
    room TEXT NOT NULL,
    PRIMARY KEY (player, room)
) WITHOUT ROWID;
"""


class _Refused(Exception):
    """Raised inside a transaction to roll it back and hand a caller mistake (or a fence) out."""

    def __init__(self, exc: Exception) -> None:
        super().__init__(str(exc))
        self.exc = exc


def _settle_all(answers: list[tuple[asyncio.Future[Any], bool, Any]]) -> None:
    """(Event loop.) Answer every caller of a group: a result, or the exception its write raised."""
    for fut, ok, value in answers:
        if fut.done():  # the caller gave up (cancelled): nothing to answer
            continue
        if ok:
            fut.set_result(value)
        else:
            fut.set_exception(value)


def path_of(url: str) -> str:
    """The file of a ``sqlite:`` url: ``sqlite:///abs/path.db`` (or ``sqlite:////abs/path.db``),
    ``sqlite:///./rel.db`` or ``sqlite:rel.db`` (relative to the working directory), or the default
    ``./data/marcopolo.db`` for a bare ``sqlite`` / ``sqlite:`` / ``sqlite://``."""
    rest = url.split(":", 1)[1] if ":" in url else ""
    if rest.startswith("//"):
        rest = rest[2:]
        if rest.startswith(("/./", "/../")):
            rest = rest[1:]  # sqlite:///./data/x.db is relative to the working directory
        elif rest.startswith("//"):
            rest = rest[1:]  # sqlite:////abs/x.db, as SQLAlchemy spells an absolute path
    return rest or DEFAULT_PATH


#: SQLite failures that refuse a write outright (the group is rolled back, nothing of it stored) and that an
#: immediate retry does not cure: a full disk or database, a read-only file, no memory
_REFUSING = ("SQLITE_FULL", "SQLITE_READONLY", "SQLITE_NOMEM")


def _failure(exc: sqlite3.Error) -> StoreUnavailable:
    name = str(getattr(exc, "sqlite_errorname", ""))
    if name.startswith(_REFUSING):
        return StoreRefused(f"sqlite refuses writes: {exc}")
    return StoreUnavailable(f"sqlite: {exc}")


class SqliteStore(Store):
    """Rooms in one SQLite file (see the module docstring); ``clock`` (default ``time.time``) drives expiry.

    ``takeover=True`` (what a server node opens the file with) makes this process the file's writer: when the
    file is opened, every lease is dropped and every room's epoch raised, so no token an earlier process got
    holds any more, and this node takes every room at once whatever its node id (a node restarted under
    another id or port does not wait for the old leases). Tools that only read (audits) leave it off.
    """

    def __init__(
        self,
        path: str | Path = DEFAULT_PATH,
        *,
        trim_log: bool = True,
        clock: Callable[[], float] = time.time,
        synchronous: str = "FULL",
        busy_timeout_ms: int = 5000,
        takeover: bool = False,
    ) -> None:
        if synchronous.upper() not in ("FULL", "NORMAL", "EXTRA"):
            raise ValueError(f"synchronous must be FULL, EXTRA or NORMAL, got {synchronous!r}")
        self.path = Path(path)
        self.trim_log = trim_log
        self._clock = clock
        self._synchronous = synchronous.upper()
        self._busy_timeout_ms = busy_timeout_ms
        self.takeover = takeover
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sqlite-store")
        self._db: sqlite3.Connection | None = None
        self._closed = False
        #: writes waiting for the next group commit, and whether a group is already on its way to the worker
        self._queue: list[tuple[Callable[[sqlite3.Connection], Any], asyncio.Future[Any]]] = []
        self._queue_lock = threading.Lock()
        self._group_due = False
        #: group commits made (each one transaction, one fsync)
        self.groups = 0
        #: the open `<file>.lock` this store holds exclusively (takeover only), see `lock`
        self._lock_fd: int | None = None
        #: (worker thread) the `fences` rows read, by room, while this store holds the file's lock and so is its
        #: one writer: a move's fence check then reads no row. Every write of a room's fence drops its entry,
        #: and any rollback drops them all.
        self._fences: dict[str, tuple[Any, ...] | None] = {}
        #: the lobby, quick match and the unfinished rooms (in memory: this store is the file's one writer), built
        #: from the file at the first read of an index and then kept up by every write of this store
        self.directory = Directory()
        self._directory_built = False
        self._directory_task: asyncio.Task[None] | None = None

    @property
    def lock_path(self) -> Path:
        return self.path.with_name(self.path.name + ".lock")

    def lock(self) -> None:
        """Take the file's exclusive lock (a server does, before it serves); StoreLocked if another holds it.
        Cheap and synchronous; done again by the first write of a takeover store if nobody did it before."""
        if self._lock_fd is not None:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.lock_path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 64, 0).decode(errors="replace").strip() or "?"
            os.close(fd)
            raise StoreLocked(
                f"{self.path} is in use by another server (pid {holder}); a SQLite store has one server: stop "
                "that one first, or give this one another file"
            ) from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        self._lock_fd = fd

    def _unlock(self) -> None:
        if self._lock_fd is not None:
            with contextlib.suppress(OSError):
                os.close(self._lock_fd)  # closing the descriptor drops the flock
            self._lock_fd = None

    # ---- the worker thread ----------------------------------------------------------------------

    def _connect(self) -> sqlite3.Connection:
        if self._db is not None:
            return self._db
        if self.takeover:
            self.lock()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        try:
            db.execute(f"PRAGMA busy_timeout = {int(self._busy_timeout_ms)}")
            mode = db.execute("PRAGMA journal_mode = WAL").fetchone()[0]
            if str(mode).lower() != "wal":
                raise sqlite3.OperationalError(f"could not switch {self.path} to WAL (journal_mode={mode})")
            db.execute(f"PRAGMA synchronous = {self._synchronous}")
            db.executescript(_SCHEMA)
            if self.takeover:  # every token an earlier process got no longer holds, even lapsed ones
                db.execute("BEGIN IMMEDIATE")
                db.execute("UPDATE fences SET epoch = epoch + 1, token = NULL, lease_until = NULL")
                db.execute("COMMIT")
                self._fences.clear()
        except BaseException:
            db.close()
            raise
        self._db = db
        return db

    async def _call(self, fn: Callable[[sqlite3.Connection], T], *, write: bool) -> T:
        """Run ``fn(db)`` on the worker thread, in a transaction (IMMEDIATE for a write), and return its result.

        Writes are committed in groups: every write queued while the worker was busy runs in the next
        transaction, each in a savepoint of its own (a write refused as a caller mistake or a fence rolls back
        alone), and every caller is answered once that one COMMIT returned. So each write is still durable
        before its caller hears of it, and one fsync serves many moves."""
        if self._closed:
            raise StoreUnavailable("the store is closed")
        loop = asyncio.get_running_loop()
        try:
            if write:
                fut: asyncio.Future[Any] = loop.create_future()
                with self._queue_lock:
                    self._queue.append((fn, fut))
                    start = not self._group_due
                    self._group_due = True
                if start:
                    loop.run_in_executor(self._pool, self._commit_group, loop).add_done_callback(self._group_failed)
                return cast(T, await fut)
            return await loop.run_in_executor(self._pool, self._read, fn)
        except _Refused as refused:
            raise refused.exc from None
        except sqlite3.Error as exc:
            raise StoreUnavailable(f"sqlite: {exc}") from exc
        except RuntimeError as exc:
            if self._closed:  # the executor was shut down by close() meanwhile
                raise StoreUnavailable("the store is closed") from exc
            raise

    def _read(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        db = self._connect()
        db.execute("BEGIN")
        try:
            return fn(db)
        finally:
            if db.in_transaction:
                db.rollback()

    def _commit_group(self, loop: asyncio.AbstractEventLoop) -> None:
        """(Worker thread.) Every write queued so far, in one transaction; each caller answered after COMMIT."""
        with self._queue_lock:
            group, self._queue = self._queue, []
            self._group_due = False
        if not group:
            return
        outcomes: list[tuple[bool, Any]] = []
        try:
            db = self._connect()
            db.execute("BEGIN IMMEDIATE")
            try:
                for fn, _fut in group:
                    # a write that checks everything before it writes needs no savepoint: refused, it wrote nothing
                    whole = not getattr(fn, "checks_first", False)
                    if whole:
                        db.execute("SAVEPOINT one")
                    try:
                        outcomes.append((True, fn(db)))
                    except sqlite3.Error:
                        raise  # the database failed: the whole group is not stored
                    except Exception as refused:  # noqa: BLE001 - a caller mistake or a fence: this write alone
                        if whole:
                            db.execute("ROLLBACK TO one")
                            self._fences.clear()
                        outcomes.append((False, refused))
                    if whole:
                        db.execute("RELEASE one")
                db.execute("COMMIT")
            except BaseException:
                self._fences.clear()
                if db.in_transaction:
                    db.rollback()
                raise
        except BaseException as exc:  # nothing of this group is stored (or its outcome is unknown)
            failed = _failure(exc) if isinstance(exc, sqlite3.Error) else exc
            answers = [(fut, False, failed) for _fn, fut in group]
        else:
            self.groups += 1
            answers = [(fut, ok, value) for (_fn, fut), (ok, value) in zip(group, outcomes, strict=True)]
        loop.call_soon_threadsafe(_settle_all, answers)  # one wake-up of the event loop per group

    def _group_failed(self, done: asyncio.Future[None]) -> None:
        """A group that could not even start (the executor was shut down): its callers are answered."""
        if done.cancelled() or done.exception() is None:
            return
        with self._queue_lock:
            group, self._queue = self._queue, []
            self._group_due = False
        for _fn, fut in group:
            if not fut.done():
                fut.set_exception(StoreUnavailable("the store is closed"))

    def _now(self) -> float:
        return self._clock()

    # ---- helpers (worker thread, inside a transaction) --------------------------------------------

    def _purge(self, db: sqlite3.Connection, room: str | None = None) -> None:
        """Delete finished rooms whose ttl ran out (one room, or all of them)."""
        now = self._now()
        if room is None:
            gone = [r for (r,) in db.execute("SELECT room FROM rooms WHERE expires_at <= ?", (now,))]
        else:
            row = db.execute("SELECT expires_at FROM rooms WHERE room = ?", (room,)).fetchone()
            gone = [room] if row is not None and row[0] is not None and row[0] <= now else []
        for rid in gone:  # the room's epoch goes with it, as its fence key expires with the room in Redis
            for table in ("rooms", "log", "fences"):
                db.execute(f"DELETE FROM {table} WHERE room = ?", (rid,))  # noqa: S608 - fixed table names
            self._fences.pop(rid, None)

    def _exists(self, db: sqlite3.Connection, room: str) -> bool:
        self._purge(db, room)
        return db.execute("SELECT 1 FROM rooms WHERE room = ?", (room,)).fetchone() is not None

    def _lease(self, db: sqlite3.Connection, room: str) -> tuple[int, str | None]:
        """The room's epoch and the token holding its lease now (None if free or lapsed)."""
        if room in self._fences:
            row = self._fences[room]
        else:
            row = db.execute("SELECT epoch, token, lease_until FROM fences WHERE room = ?", (room,)).fetchone()
            if self._lock_fd is not None:
                self._fences[room] = row
        if row is None:
            return 0, None
        epoch, token, until = row
        if token is None or until is None or self._now() >= until:
            return int(epoch), None
        return int(epoch), str(token)

    def _holds(self, db: sqlite3.Connection, room: str, token: str | None) -> bool:
        if token is None:
            return True
        epoch, held = self._lease(db, room)
        if held is not None:
            return held == token
        return token_epoch(token) == epoch

    def _need(self, db: sqlite3.Connection, room: str, fence: str | None, what: str) -> None:
        if not self._exists(db, room):
            raise _Refused(KeyError(room))
        if not self._holds(db, room, fence):
            raise _Refused(StoreFenced(f"room {room!r}: the {what} carried a token that no longer holds"))

    def _grant(self, db: sqlite3.Connection, room: str, node: str, ttl_ms: int) -> str:
        epoch, _held = self._lease(db, room)
        token = f"{node}|{epoch + 1}"
        db.execute(
            "INSERT INTO fences (room, epoch, token, lease_until) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (room) DO UPDATE SET epoch = excluded.epoch, token = excluded.token, "
            "lease_until = excluded.lease_until",
            (room, epoch + 1, token, self._now() + ttl_ms / 1000),
        )
        self._fences.pop(room, None)
        return token

    def _extend(self, db: sqlite3.Connection, room: str, token: str, ttl_ms: int) -> bool:
        if not self._holds(db, room, token):
            return False
        epoch, _held = self._lease(db, room)
        db.execute(
            "INSERT INTO fences (room, epoch, token, lease_until) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (room) DO UPDATE SET token = excluded.token, lease_until = excluded.lease_until",
            (room, epoch, token, self._now() + ttl_ms / 1000),
        )
        self._fences.pop(room, None)
        return True

    @staticmethod
    def _write_meta(db: sqlite3.Connection, info: MetaInfo) -> None:
        db.execute(
            "UPDATE rooms SET data = ?, status = ?, game = ?, public = ?, listed = ? WHERE room = ?",
            (info.packed, info.status, info.game, int(info.public), int(info.listed), info.room),
        )

    # ---- indexes --------------------------------------------------------------------------------

    async def _directory(self) -> Directory:
        """The indexes, read from the file the first time (the unfinished rooms only, through `rooms_open`)."""
        if not self._directory_built:
            if self._directory_task is None or self._directory_task.done():
                self._directory_task = asyncio.get_running_loop().create_task(self._build_directory())
            task = self._directory_task
            try:
                await asyncio.shield(task)
            finally:
                if task.done() and not task.cancelled() and task.exception() is not None:
                    self._directory_task = None
        return self.directory

    async def _build_directory(self) -> None:
        def work(db: sqlite3.Connection) -> list[bytes]:
            return [d for (d,) in db.execute("SELECT data FROM rooms WHERE status != 'finished'")]

        rows = await self._call(work, write=False)
        for data in rows:  # (writes answered before this point are in these rows; later ones update it below)
            try:
                info = check_meta(unpack(data))
            except ValueError:
                continue
            self.directory.update(info.room, info)
        self._directory_built = True

    def _place(self, room: str, info: MetaInfo | None) -> None:
        if self._directory_built:
            self.directory.update(room, info)

    async def lobby_page(self, game: str | None, offset: int, limit: int) -> tuple[list[Meta], int]:
        ids, total = (await self._directory()).lobby_page(game, offset, limit)
        if not ids:
            return [], total

        def work(db: sqlite3.Connection) -> dict[str, bytes]:
            marks = ",".join("?" * len(ids))
            return dict(db.execute(f"SELECT room, data FROM rooms WHERE room IN ({marks})", ids).fetchall())  # noqa: S608

        found = await self._call(work, write=False)
        return [unpack(found[rid]) for rid in ids if rid in found], total

    async def match_claim(
        self, kind: str, player: str, new_room: str | None = None, seats: int = 0, created: float = 0.0
    ) -> tuple[str, bool] | None:
        return (await self._directory()).claim(kind, player, new_room, seats, created)

    async def match_release(self, kind: str, room: str, player: str) -> None:
        (await self._directory()).release(kind, room, player)

    async def open_rooms(self, after: str | None, count: int) -> tuple[list[str], str | None]:
        return (await self._directory()).open_page(after, count)

    # ---- rooms ----------------------------------------------------------------------------------

    async def create_room(self, meta: Meta) -> None:
        info = check_meta(meta)

        def work(db: sqlite3.Connection) -> None:
            if self._exists(db, info.room):
                raise _Refused(ValueError(f"room {info.room!r} already exists"))
            db.execute("DELETE FROM log WHERE room = ?", (info.room,))
            db.execute(
                "INSERT INTO rooms (room, data, status, game, public, listed) VALUES (?, ?, ?, ?, ?, ?)",
                (info.room, info.packed, info.status, info.game, int(info.public), int(info.listed)),
            )

        await self._call(work, write=True)
        self._place(info.room, info)

    async def save_meta(self, room: str, meta: Meta, *, fence: str | None = None) -> None:
        info = check_meta(meta, room)

        def work(db: sqlite3.Connection) -> None:
            self._need(db, room, fence, "meta")
            self._write_meta(db, info)

        await self._call(work, write=True)
        self._place(room, info)

    async def append(self, room: str, entry: Entry, meta: Meta, *, fence: str | None = None) -> None:
        info = check_meta(meta, room)
        v, packed = check_entry(entry)

        def work(db: sqlite3.Connection) -> None:
            # the move's path: one read of the room row (exists, not expired, versions), the fence, two writes
            row = db.execute("SELECT log_v, snap_v, expires_at FROM rooms WHERE room = ?", (room,)).fetchone()
            if row is None or (row[2] is not None and row[2] <= self._now()):
                self._purge(db, room)
                raise _Refused(KeyError(room))
            if not self._holds(db, room, fence):
                raise _Refused(StoreFenced(f"room {room!r}: the append carried a token that no longer holds"))
            last = max(row[0], row[1])
            if v <= last:
                raise _Refused(ValueError(f"entry v={v} is not above the room's last stored version {last}"))
            db.execute("INSERT OR REPLACE INTO log (room, v, data) VALUES (?, ?, ?)", (room, v, packed))
            db.execute(
                "UPDATE rooms SET data = ?, status = ?, game = ?, public = ?, listed = ?, log_v = ? WHERE room = ?",
                (info.packed, info.status, info.game, int(info.public), int(info.listed), v, room),
            )

        work.checks_first = True  # type: ignore[attr-defined]  # every refusal comes before the first write
        await self._call(work, write=True)
        self._place(room, info)

    async def save_snapshot(self, room: str, v: int, snapshot: bytes, *, fence: str | None = None) -> None:
        check_version(v, "snapshot v", 0)
        check_room(room)
        data = bytes(snapshot)

        def work(db: sqlite3.Connection) -> None:
            self._need(db, room, fence, "snapshot")
            snap_v, current = db.execute("SELECT snap_v, snapshot FROM rooms WHERE room = ?", (room,)).fetchone()
            if current is not None and v < snap_v:
                raise _Refused(ValueError(f"snapshot v={v} is older than the stored one at v={snap_v}"))
            db.execute("UPDATE rooms SET snap_v = ?, snapshot = ? WHERE room = ?", (v, data, room))
            if self.trim_log:
                db.execute("DELETE FROM log WHERE room = ? AND v <= ?", (room, v))

        await self._call(work, write=True)

    async def load(self, room: str) -> LoadedRoom | None:
        check_room(room)

        def work(db: sqlite3.Connection) -> LoadedRoom | None:
            self._purge(db, room)
            row = db.execute("SELECT data, snap_v, snapshot FROM rooms WHERE room = ?", (room,)).fetchone()
            if row is None:
                return None
            data, snap_v, snapshot = row
            log = db.execute("SELECT data FROM log WHERE room = ? AND v > ? ORDER BY v", (room, snap_v))
            return LoadedRoom(
                meta=unpack(data),
                snap_v=int(snap_v),
                snapshot=None if snapshot is None else bytes(snapshot),
                log=[unpack(e) for (e,) in log],
            )

        return await self._call(work, write=True)  # a purge may write

    async def log_entry(self, room: str, v: int) -> tuple[int, Entry | None]:
        def work(db: sqlite3.Connection) -> tuple[int, Entry | None]:
            self._purge(db, room)
            row = db.execute("SELECT log_v FROM rooms WHERE room = ?", (room,)).fetchone()
            if row is None:
                raise _Refused(KeyError(room))
            found = db.execute("SELECT data FROM log WHERE room = ? AND v = ?", (room, v)).fetchone()
            return int(row[0]), None if found is None else unpack(found[0])

        return await self._call(work, write=True)

    async def full_log(self, room: str) -> list[Entry]:
        """Every stored log entry of the room (all of them only with ``trim_log=False``)."""

        def work(db: sqlite3.Connection) -> list[Entry]:
            if not self._exists(db, room):
                raise _Refused(KeyError(room))
            return [unpack(e) for (e,) in db.execute("SELECT data FROM log WHERE room = ? ORDER BY v", (room,))]

        return await self._call(work, write=True)

    async def room_ids(self, *, unfinished_only: bool = False) -> list[str]:
        def work(db: sqlite3.Connection) -> list[str]:
            self._purge(db)
            sql = "SELECT room FROM rooms" + (" WHERE status != 'finished'" if unfinished_only else "")
            return sorted(r for (r,) in db.execute(sql))

        return await self._call(work, write=True)

    async def list_public(self) -> list[Meta]:
        def work(db: sqlite3.Connection) -> list[Meta]:
            self._purge(db)
            return [unpack(d) for (d,) in db.execute("SELECT data FROM rooms WHERE listed = 1")]

        return sorted(await self._call(work, write=True), key=listing_order)

    async def finish(self, room: str, meta: Meta, ttl_seconds: int, *, fence: str | None = None) -> None:
        check_ttl(ttl_seconds, "ttl_seconds")
        info = check_meta({**meta, "status": "finished"}, room)

        def work(db: sqlite3.Connection) -> None:
            self._need(db, room, fence, "finish")
            self._write_meta(db, info)
            db.execute("UPDATE rooms SET expires_at = ? WHERE room = ?", (self._now() + ttl_seconds, room))

        await self._call(work, write=True)
        self._place(room, info)

    async def delete_room(self, room: str) -> None:
        check_room(room)

        def work(db: sqlite3.Connection) -> None:
            for table in ("rooms", "log", "fences"):
                db.execute(f"DELETE FROM {table} WHERE room = ?", (room,))  # noqa: S608 - fixed table names
            self._fences.pop(room, None)

        await self._call(work, write=True)
        self._place(room, None)

    async def close(self) -> None:
        if self._closed:
            return
        self._closed = True

        def shut() -> None:
            if self._db is not None:
                self._db.close()
                self._db = None

        loop = asyncio.get_running_loop()
        try:
            await loop.run_in_executor(self._pool, shut)
        finally:
            self._pool.shutdown(wait=False)
            self._unlock()

    async def ping(self) -> None:
        def work(db: sqlite3.Connection) -> None:
            db.execute("SELECT 1 FROM rooms LIMIT 1").fetchall()

        await self._call(work, write=False)

    async def get_meta(self, room: str) -> Meta | None:
        check_room(room)

        def work(db: sqlite3.Connection) -> Meta | None:
            self._purge(db, room)
            row = db.execute("SELECT data FROM rooms WHERE room = ?", (room,)).fetchone()
            return None if row is None else unpack(row[0])

        return await self._call(work, write=True)

    async def mark_seat(self, player: str, room: str, held: bool) -> None:
        def work(db: sqlite3.Connection) -> None:
            if held:
                db.execute("INSERT OR IGNORE INTO seats (player, room) VALUES (?, ?)", (player, room))
            else:
                db.execute("DELETE FROM seats WHERE player = ? AND room = ?", (player, room))

        await self._call(work, write=True)

    async def player_rooms(self, player: str) -> list[str]:
        def work(db: sqlite3.Connection) -> list[str]:
            return sorted(r for (r,) in db.execute("SELECT room FROM seats WHERE player = ?", (player,)))

        return await self._call(work, write=False)

    async def save_session(self, key: str, session: dict[str, Any], ttl_seconds: int) -> None:
        check_ttl(ttl_seconds, "ttl_seconds")
        packed = pack(session)

        def work(db: sqlite3.Connection) -> None:
            now = self._now()
            db.execute("DELETE FROM sessions WHERE expires_at <= ?", (now,))
            db.execute(
                "INSERT OR REPLACE INTO sessions (key, data, expires_at) VALUES (?, ?, ?)",
                (key, packed, now + ttl_seconds),
            )

        await self._call(work, write=True)

    async def load_session(self, key: str) -> dict[str, Any] | None:
        def work(db: sqlite3.Connection) -> dict[str, Any] | None:
            row = db.execute("SELECT data, expires_at FROM sessions WHERE key = ?", (key,)).fetchone()
            if row is None or self._now() >= row[1]:
                return None
            session: dict[str, Any] = unpack(row[0])
            return session

        return await self._call(work, write=False)

    async def delete_sessions(self, keys: list[str]) -> None:
        def work(db: sqlite3.Connection) -> None:
            db.executemany("DELETE FROM sessions WHERE key = ?", [(key,) for key in keys])

        if keys:
            await self._call(work, write=True)

    # ---- leases ---------------------------------------------------------------------------------

    async def acquire_lease(self, room: str, node: str, ttl_ms: int) -> str | None:
        check_ttl(ttl_ms, "ttl_ms")

        def work(db: sqlite3.Connection) -> str | None:
            _epoch, held = self._lease(db, room)
            if held is not None and token_node(held) != node:
                return None
            return self._grant(db, room, node, ttl_ms)

        return await self._call(work, write=True)

    async def renew_lease(self, room: str, token: str, ttl_ms: int) -> bool:
        return (await self.keep_leases([(room, token)], ttl_ms))[0]

    async def keep_leases(self, leases: list[tuple[str, str]], ttl_ms: int) -> list[bool]:
        check_ttl(ttl_ms, "ttl_ms")
        if not leases:
            return []

        def work(db: sqlite3.Connection) -> list[bool]:
            return [self._extend(db, room, token, ttl_ms) for room, token in leases]

        return await self._call(work, write=True)

    async def refence(self, room: str, token: str, ttl_ms: int) -> str | None:
        check_ttl(ttl_ms, "ttl_ms")

        def work(db: sqlite3.Connection) -> str | None:
            if not self._holds(db, room, token):
                return None
            return self._grant(db, room, token_node(token), ttl_ms)

        return await self._call(work, write=True)

    async def release_lease(self, room: str, token: str) -> None:
        def work(db: sqlite3.Connection) -> None:
            _epoch, held = self._lease(db, room)
            if held == token:  # the epoch moves on, so the released token can never be taken back or write
                db.execute(
                    "UPDATE fences SET epoch = epoch + 1, token = NULL, lease_until = NULL WHERE room = ?", (room,)
                )
                self._fences.pop(room, None)

        await self._call(work, write=True)

    async def lease_holder(self, room: str) -> str | None:
        def work(db: sqlite3.Connection) -> str | None:
            _epoch, held = self._lease(db, room)
            return None if held is None else token_node(held)

        return await self._call(work, write=False)

    # ---- inspection -----------------------------------------------------------------------------

    async def pragma(self, name: str) -> Any:
        """One PRAGMA's current value (``journal_mode``, ``synchronous``...), for checks and health pages."""
        if not name.isidentifier():
            raise ValueError(f"not a pragma name: {name!r}")

        def work(db: sqlite3.Connection) -> Any:
            return db.execute(f"PRAGMA {name}").fetchone()[0]

        return await self._call(work, write=False)
