"""Room stores: where live room state is kept (meta, snapshot, append-only log, leases, sessions).

``open_store`` picks one by url: ``memory`` (``server.store.memory``), ``sqlite:`` (``server.store.sqlite``: one
file, one node) or ``redis://`` / ``redis+sentinel://`` (``server.store.redis``: several nodes). The interface
and what every store shares is ``server.store.base``; ``server.store.records`` keeps what the lobby keeps beside
the rooms (chat, history, ratings). Nothing here knows engines, rooms or sockets.
"""

from __future__ import annotations

from server.store.base import LoadedRoom, Store, StoreFenced, StoreUnavailable, token_node
from server.store.memory import MemoryStore
from server.store.redis import RedisStore, SentinelUrl, parse_sentinel_url

__all__ = [
    "LoadedRoom",
    "MemoryStore",
    "RedisStore",
    "Store",
    "StoreFenced",
    "StoreUnavailable",
    "open_store",
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
      following failovers.

    ``wait_replicas`` (Redis only): every write batch is acknowledged only once that many replicas have it.
    ``takeover`` (SQLite only; a server node asks for it): this process is the file's one writer from now on,
    so every lease an earlier process held is fenced off (see SqliteStore).
    """
    if url == "memory":
        return MemoryStore(trim_log=trim_log)
    if url == "sqlite" or url.startswith("sqlite:"):
        from server.store.sqlite import SqliteStore, path_of

        return SqliteStore(path_of(url), trim_log=trim_log, takeover=takeover)
    if url.startswith(("redis://", "rediss://", "unix://", "redis+sentinel://")):
        return RedisStore(url, prefix=prefix, trim_log=trim_log, wait_replicas=wait_replicas)
    raise ValueError(
        f"unknown store url {url!r}: use 'memory', 'sqlite:///path/to.db', 'redis://host:port/db' "
        "or 'redis+sentinel://host:port,host:port/service'"
    )


