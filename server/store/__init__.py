"""Room stores: where live room state is kept (meta, snapshot, append-only log, leases, sessions).

``open_store`` picks one by url: ``memory`` (``server.store.memory``), ``sqlite:`` (``server.store.sqlite``: one
file, one node) or ``redis://`` / ``redis+sentinel://`` / ``redis+cluster://`` (``server.store.redis``: several
nodes). The interface
and what every store shares is ``server.store.base``. The records (chat, the archive of finished games,
ratings) are a database apart: ``open_records`` picks one (``server.store.records``: the interface and memory;
``server.store.records_sql``: SQLite or PostgreSQL). Nothing here knows engines, rooms or sockets.
"""

from __future__ import annotations

import logging
import weakref
from pathlib import Path

from server.store.base import (
    LoadedRoom,
    Store,
    StoreFenced,
    StoreLocked,
    StoreRefused,
    StoreUnavailable,
    token_node,
)
from server.store.memory import MemoryStore
from server.store.records import MemoryRecords, Records
from server.store.redis import ClusterUrl, RedisStore, SentinelUrl, parse_cluster_url, parse_sentinel_url

__all__ = [
    "ClusterUrl",
    "LoadedRoom",
    "MemoryStore",
    "RedisStore",
    "Store",
    "StoreFenced",
    "StoreLocked",
    "StoreRefused",
    "StoreUnavailable",
    "MemoryRecords",
    "Records",
    "open_records",
    "open_store",
    "parse_cluster_url",
    "records_for",
    "SentinelUrl",
    "parse_sentinel_url",
    "token_node",
]


def open_store(
    url: str, *, prefix: str = "mp:", trim_log: bool = True, wait_replicas: int = 0, takeover: bool = False
) -> Store:
    """The store a url names.

    - ``memory``: a MemoryStore (tests and throwaway runs: nothing survives the process);
    - ``sqlite:///path/to.db`` (absolute), ``sqlite:///./rel.db`` or ``sqlite:rel.db`` (relative to the working
      directory), bare ``sqlite:`` for ``./data/marcopolo.db``: a SqliteStore (one node, one file);
    - ``redis://host:port/db``, ``rediss://...``, ``unix://...``: a RedisStore;
    - ``redis+sentinel://host:port,host:port/service[/db]``: a RedisStore on the primary the Sentinels name,
      following failovers;
    - ``redis+cluster://host:port[,host:port...]``: a RedisStore on a Redis Cluster (each room's keys in one slot).

    ``wait_replicas`` (Redis only): every write batch is acknowledged only once that many replicas have it.
    ``takeover`` (SQLite only; a server node asks for it): this process is the file's one writer from now on,
    so every lease an earlier process held is fenced off (see SqliteStore).
    """
    if url == "memory":
        return MemoryStore(trim_log=trim_log)
    if url == "sqlite" or url.startswith("sqlite:"):
        from server.store.sqlite import SqliteStore, path_of

        return SqliteStore(path_of(url), trim_log=trim_log, takeover=takeover)
    if url.startswith(("redis://", "rediss://", "unix://", "redis+sentinel://", "redis+cluster://")):
        return RedisStore(url, prefix=prefix, trim_log=trim_log, wait_replicas=wait_replicas)
    raise ValueError(
        f"unknown store url {url!r}: use 'memory', 'sqlite:///path/to.db', 'redis://host:port/db' "
        "'redis+sentinel://host:port,host:port/service' or 'redis+cluster://host:port,host:port'"
    )


log = logging.getLogger("marcopolo.records")

#: where a node on Redis keeps its records when none are named (one machine only: see `open_records`)
LOCAL_RECORDS = "sqlite:///./data/records.db"


def open_records(url: str | None, store: Store, *, timeout: float = 5.0) -> Records:
    """The records database a url names, for a node whose room store is `store`.

    - ``memory``: kept in the process (nothing survives it);
    - ``sqlite:///path/to.db`` (or ``sqlite:``): tables in that SQLite file (the room store's own file is fine);
    - ``postgresql://user:password@host:port/db``: a PostgreSQL that several nodes share;
    - None (not named): the memory store's records in memory, a SQLite store's in its own file, and a Redis
      store's in ``./data/records.db``, which only nodes on one machine share: several machines name a
      PostgreSQL (said at start-up).
    """
    from server.store.records_sql import SqlRecords
    from server.store.sqlite import SqliteStore

    if url is None or url == "":
        if isinstance(store, SqliteStore):
            return SqlRecords(f"sqlite:///{store.path.resolve()}", prepare=store.ping, timeout=timeout)
        if isinstance(store, RedisStore):
            log.warning(
                "records (ratings, finished games, chat) in the local file %s: nodes on other machines do not "
                "see them; name a shared database with --records postgresql://...",
                LOCAL_RECORDS,
            )
            return SqlRecords(LOCAL_RECORDS, timeout=timeout)
        return MemoryRecords()
    if url == "memory":
        return MemoryRecords()
    if url == "sqlite" or url.startswith(("sqlite:", "postgresql://", "postgres://")):
        if isinstance(store, SqliteStore) and url.startswith("sqlite"):
            from server.store.sqlite import path_of

            if Path(path_of(url)).resolve() == store.path.resolve():
                return SqlRecords(url, prepare=store.ping, timeout=timeout)
        return SqlRecords(url, timeout=timeout)
    raise ValueError(f"unknown records url {url!r}: use 'memory', 'sqlite:///path/to.db' or 'postgresql://...'")


_default: weakref.WeakKeyDictionary[Store, Records] = weakref.WeakKeyDictionary()


def records_for(store: Store) -> Records:
    """The records a node on `store` keeps when it is given none (one object per store): see `open_records`.
    A Redis store's are kept in memory here (in-process nodes of tests); a server names them at start-up."""
    found = _default.get(store)
    if found is None:
        found = MemoryRecords() if isinstance(store, RedisStore) else open_records(None, store)
        _default[store] = found
    return found
