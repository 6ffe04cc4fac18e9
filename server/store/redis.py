"""The Redis room store (plain or behind Sentinel): several nodes share it.

Redis layout under a prefix (default ``mp:``), one Lua script per write so each write is atomic:

- ``{p}room:{id}:meta``: HASH ``data`` (packed meta), plain ``status``/``game``/``public`` for
  inspection, ``log_v`` (highest appended v);
- ``{p}room:{id}:snap``: HASH ``v``, ``data``;
- ``{p}room:{id}:log``: STREAM, entry id ``{v}-0``, field ``e`` (packed entry); a snapshot at v trims it
  with ``XTRIM MINID = {v+1}-0`` in the same script, which is exact;
- ``{p}rooms``: SET of room ids; ``{p}public``: SET of public waiting/playing room ids (both pruned lazily
  once a finished room's keys expire); ``{p}lease:{id}``: STRING fencing token with a PX expiry;
  ``{p}fence:{id}``: STRING, the room's epoch counter.

Writes go through one writer task per store: every script call queued during one loop tick is sent in one
pipeline, and each caller is answered when that pipeline returns (its own reply, or StoreUnavailable if the
connection failed). The connection pool blocks when busy instead of failing: a busy pool is not an outage.

This module must not know about engines, sessions or sockets: it stores dicts and bytes.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote

import redis.asyncio as aredis
from redis.asyncio.connection import BlockingConnectionPool
from redis.asyncio.retry import Retry
from redis.asyncio.sentinel import MasterNotFoundError, Sentinel, SentinelConnectionPool, SentinelManagedConnection
from redis.backoff import NoBackoff
from redis.commands.core import AsyncScript
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import OutOfMemoryError, ReadOnlyError, RedisError, ResponseError

from server.store.base import (
    LISTED_STATUSES,
    Entry,
    LoadedRoom,
    Meta,
    MetaInfo,
    Store,
    StoreFenced,
    StoreRefused,
    StoreUnavailable,
    StoreUnreplicated,
    check_entry,
    check_meta,
    check_room,
    check_ttl,
    check_version,
    listing_order,
    pack,
    token_node,
    unpack,
)

log = logging.getLogger("marcopolo.store")


@dataclass(frozen=True, slots=True)
class SentinelUrl:
    """A parsed ``redis+sentinel://[[user]:password@]host:port,host:port/service[/db]``."""

    sentinels: list[tuple[str, int]]
    service: str
    db: int = 0
    username: str | None = None
    password: str | None = None


def parse_sentinel_url(url: str) -> SentinelUrl:
    """Split a Sentinel url; the password (if any) is the primary's, not the Sentinels'."""
    scheme = "redis+sentinel://"
    if not url.startswith(scheme):
        raise ValueError(f"not a sentinel url: {url!r}")
    rest = url[len(scheme) :]
    netloc, _, path = rest.partition("/")
    username = password = None
    if "@" in netloc:
        auth, netloc = netloc.rsplit("@", 1)
        user, _, pw = auth.partition(":")
        username, password = (unquote(user) or None), (unquote(pw) or None)
    sentinels: list[tuple[str, int]] = []
    for part in netloc.split(","):
        host, _, port = part.strip().rpartition(":")
        if not host or not port.isdigit():
            raise ValueError(f"sentinel url {url!r}: {part!r} is not host:port")
        sentinels.append((host.strip("[]"), int(port)))
    parts = [p for p in path.split("/") if p]
    if not parts or len(parts) > 2:
        raise ValueError(f"sentinel url {url!r}: give the service name (and optionally a db) after the hosts")
    if len(parts) == 2 and not parts[1].isdigit():
        raise ValueError(f"sentinel url {url!r}: the db must be a number, got {parts[1]!r}")
    return SentinelUrl(sentinels, unquote(parts[0]), int(parts[1]) if len(parts) == 2 else 0, username, password)


# --- Redis store -----------------------------------------------------------------------------------

# Every write script takes the meta fields as ARGV[1..6]: data, status, game, public, room id, listed;
# the fenced ones take the lease and fence keys as their last two KEYS and the token as their last ARGV
# ('' means unfenced: tools and tests that own the store alone).
_HELPERS = """
local function write_meta(meta_key, public_key)
  redis.call('HSET', meta_key, 'data', ARGV[1], 'status', ARGV[2], 'game', ARGV[3], 'public', ARGV[4])
  if ARGV[6] == '1' then
    redis.call('SADD', public_key, ARGV[5])
  else
    redis.call('SREM', public_key, ARGV[5])
  end
end
-- a key written after finish() inherits the room's expiry
local function inherit_ttl(meta_key, key)
  local ttl = redis.call('PTTL', meta_key)
  if ttl > 0 then redis.call('PEXPIRE', key, ttl) end
end
-- does a fencing token 'node|epoch' still hold? the lease is that token, or it lapsed and the epoch is unchanged
local function holds(lease_key, fence_key, token)
  if token == '' then return true end
  local held = redis.call('GET', lease_key)
  if held then return held == token end
  local epoch = string.match(token, '|(%d+)$')
  return epoch ~= nil and (redis.call('GET', fence_key) or '0') == epoch
end
"""


def _script(body: str) -> str:
    return _HELPERS + body


# KEYS: meta, snap, log, rooms, public
_CREATE = _script(
    """
if redis.call('EXISTS', KEYS[1]) == 1 then return -2 end
redis.call('DEL', KEYS[2], KEYS[3])
write_meta(KEYS[1], KEYS[5])
redis.call('HSET', KEYS[1], 'log_v', 0)
redis.call('SADD', KEYS[4], ARGV[5])
return 1
"""
)

# KEYS: meta, public, lease, fence; ARGV[7]: token
_SAVE_META = _script(
    """
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
if not holds(KEYS[3], KEYS[4], ARGV[7]) then return -3 end
write_meta(KEYS[1], KEYS[2])
return 1
"""
)

# KEYS: meta, snap, log, public, lease, fence; ARGV[7]: v, ARGV[8]: packed entry, ARGV[9]: token
_APPEND = _script(
    """
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
if not holds(KEYS[5], KEYS[6], ARGV[9]) then return -3 end
local v = tonumber(ARGV[7])
local last = tonumber(redis.call('HGET', KEYS[1], 'log_v') or '0')
local snap_v = tonumber(redis.call('HGET', KEYS[2], 'v') or '0')
if v <= last or v <= snap_v then return -1 end
redis.call('XADD', KEYS[3], ARGV[7] .. '-0', 'e', ARGV[8])
write_meta(KEYS[1], KEYS[4])
redis.call('HSET', KEYS[1], 'log_v', ARGV[7])
inherit_ttl(KEYS[1], KEYS[3])
return 1
"""
)

# KEYS: meta, snap, log, lease, fence; ARGV: v, data, min stream id to keep ('' keeps the log), token
_SNAPSHOT = _script(
    """
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
if not holds(KEYS[4], KEYS[5], ARGV[4]) then return -3 end
local current = redis.call('HGET', KEYS[2], 'v')
if current and tonumber(current) > tonumber(ARGV[1]) then return -1 end
redis.call('HSET', KEYS[2], 'v', ARGV[1], 'data', ARGV[2])
if ARGV[3] ~= '' then redis.call('XTRIM', KEYS[3], 'MINID', '=', ARGV[3]) end
inherit_ttl(KEYS[1], KEYS[2])
inherit_ttl(KEYS[1], KEYS[3])
return 1
"""
)

# KEYS: meta, snap, log, public, lease, fence; ARGV[7]: ttl in ms, ARGV[8]: token
_FINISH = _script(
    """
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
if not holds(KEYS[5], KEYS[6], ARGV[8]) then return -3 end
write_meta(KEYS[1], KEYS[4])
for i = 1, 3 do redis.call('PEXPIRE', KEYS[i], ARGV[7]) end
redis.call('PEXPIRE', KEYS[6], ARGV[7])
return 1
"""
)

# KEYS: lease, fence; ARGV: node, ttl ms. Returns the new token, or false when another node holds the lease.
_ACQUIRE = _script(
    """
local held = redis.call('GET', KEYS[1])
if held and string.sub(held, 1, #ARGV[1] + 1) ~= ARGV[1] .. '|' then return false end
local token = ARGV[1] .. '|' .. redis.call('INCR', KEYS[2])
redis.call('SET', KEYS[1], token, 'PX', ARGV[2])
return token
"""
)

# KEYS: lease, fence; ARGV: token, ttl ms. Swap a token that holds for a new one of the same node.
_REFENCE = _script(
    """
if not holds(KEYS[1], KEYS[2], ARGV[1]) then return false end
local node = string.match(ARGV[1], '^(.*)|%d+$')
local token = node .. '|' .. redis.call('INCR', KEYS[2])
redis.call('SET', KEYS[1], token, 'PX', ARGV[2])
return token
"""
)

# KEYS: lease1, fence1, lease2, fence2, ...; ARGV: ttl ms, token1, token2, ...
# A lease still held is extended with PEXPIRE, which stores nothing new: Redis at `maxmemory` (noeviction) refuses
# SET but not PEXPIRE, so a node keeps its rooms (and serves their reads) while writes are refused.
_KEEP = _script(
    """
local out = {}
for i = 1, #KEYS / 2 do
  local token = ARGV[i + 1]
  if redis.call('GET', KEYS[2 * i - 1]) == token then
    redis.call('PEXPIRE', KEYS[2 * i - 1], ARGV[1])
    out[i] = 1
  elseif holds(KEYS[2 * i - 1], KEYS[2 * i], token) then
    redis.call('SET', KEYS[2 * i - 1], token, 'PX', ARGV[1])
    out[i] = 1
  else
    out[i] = 0
  end
end
return out
"""
)

# KEYS: lease, fence; ARGV: token. The epoch moves on, so the released token can never be taken back.
_RELEASE = _script(
    """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('DEL', KEYS[1])
  redis.call('INCR', KEYS[2])
  return 1
end
return 0
"""
)

# KEYS: a directory set; ARGV: the meta key's prefix and suffix, then room ids whose meta looked gone
_PRUNE = """
for i = 3, #ARGV do
  if redis.call('EXISTS', ARGV[1] .. ARGV[i] .. ARGV[2]) == 0 then redis.call('SREM', KEYS[1], ARGV[i]) end
end
return 0
"""

#: how long a write waits, while the replicas fell short, for them to confirm again before it is refused
SHORT_PROBE_MS = 100

_MISSING = 0
_STALE = -1
_EXISTS = -2
_FENCED = -3


def _failure(reply: Exception) -> StoreUnavailable:
    """The error reply of one command: a refusal (out of memory, a read-only replica: the command did not run)
    or a failure of unknown outcome."""
    text = str(reply)
    # out of memory: refused before the command (or the script's first write) ran; read-only: a replica
    # NOREPLICAS: a primary with `min-replicas-to-write` that has fewer good replicas
    refused = text.startswith(("OOM ", "READONLY ", "NOREPLICAS ")) or "used memory > 'maxmemory'" in text
    if refused or isinstance(reply, (OutOfMemoryError, ReadOnlyError)):
        return StoreRefused(f"redis refuses writes: {text}")
    return StoreUnavailable(f"redis: {text}")


@contextlib.contextmanager
def _unavailable() -> Iterator[None]:
    try:
        yield
    except ResponseError as exc:
        raise _failure(exc) from exc
    except (RedisError, OSError) as exc:
        raise StoreUnavailable(f"redis: {exc}") from exc


def _meta_args(info: MetaInfo) -> list[bytes | str | int]:
    return [info.packed, info.status, info.game, int(info.public), info.room, int(info.listed)]


def _check_done(room: str, done: Any, what: str) -> None:
    if done == _MISSING:
        raise KeyError(room)
    if done == _FENCED:
        raise StoreFenced(f"room {room!r}: the {what} carried a token that no longer holds")


@dataclass(slots=True)
class _Call:
    script: AsyncScript
    keys: list[str]
    args: list[Any]
    done: asyncio.Future[Any]
    #: a write that waits for `wait_replicas` (all but lease renewals, whose safety is the fencing token's)
    replicated: bool = True


class _NewestSentinel(Sentinel):
    """Sentinels asked all at once; the primary named in the newest configuration wins.

    redis-py takes the first Sentinel that answers. Right after a failover a Sentinel that has not yet heard of
    it still names the old primary, which may be back by then as an (empty, still syncing) replica: a node
    that believed it would read no rooms there and drop them. The Sentinels' configuration epoch grows with
    every failover, so the highest epoch among the answers names the current primary (ties: the address most
    Sentinels name, then the first in the url).
    """

    async def discover_master(self, service_name: str) -> tuple[str, int]:
        async def ask(sentinel: Any) -> Any:
            try:
                return (await sentinel.sentinel_masters()).get(service_name)
            except RedisError as e:  # that Sentinel is down, or refuses: the others decide
                return e

        answers = await asyncio.gather(*(ask(s) for s in self.sentinels))
        named: dict[tuple[str, int], list[int]] = {}  # address -> [best epoch, votes, -first position]
        for position, state in enumerate(answers):
            if isinstance(state, dict) and self.check_master_state(state, service_name):  # type: ignore[no-untyped-call]
                address = (str(state["ip"]), int(state["port"]))
                epoch = int(state.get("config-epoch", 0))
                seen = named.setdefault(address, [epoch, 0, -position])
                seen[0], seen[1] = max(seen[0], epoch), seen[1] + 1
        if not named:
            pairs = zip(self.sentinels, answers, strict=True)
            errors = ", ".join(f"{s!r} - {e!r}" for s, e in pairs if not isinstance(e, dict))
            raise MasterNotFoundError(f"No master found for {service_name!r} : {errors}")
        return max(named.items(), key=lambda kv: kv[1])[0]


class _PrimaryConnection(SentinelManagedConnection):
    """A connection that checks with ROLE that the server it reached is a primary (as the Sentinel client
    guidelines ask): reads from a replica the Sentinels still named would see missing or old rooms, and its
    pub/sub would never hear the primary's messages. A replica is a connection error, so the caller gets
    StoreUnavailable and the next connection asks the Sentinels again."""

    async def connect_to(self, address: tuple[str, int]) -> None:
        await super().connect_to(address)
        await self.send_command("ROLE")
        reply = await self.read_response()
        role = reply[0].decode() if isinstance(reply, list) and isinstance(reply[0], bytes) else reply[0]
        if role != "master":
            await self.disconnect()
            raise RedisConnectionError(f"{address[0]}:{address[1]} is a {role}, not the primary")


class _BlockingSentinelPool(SentinelConnectionPool, BlockingConnectionPool):
    """Connections to the primary the Sentinels name, from a pool that blocks when busy (as RedisStore's does).

    SentinelConnectionPool finds the primary (and drops idle connections when it moved); BlockingConnectionPool
    makes a caller wait up to ``timeout`` seconds for a free connection instead of failing.
    """


class RedisStore(Store):
    """Rooms in Redis under ``prefix``; every write is one Lua script, so it is atomic.

    The client fails fast (``timeout`` seconds for connect and socket reads, no automatic retries): a dead
    Redis surfaces as StoreUnavailable instead of a hung room. Connections come from a blocking pool of
    ``max_connections`` (a caller waits up to ``pool_wait`` seconds for one). Write scripts are coalesced:
    one writer task sends every call queued meanwhile in one pipeline. ``client`` is exposed for pub/sub.

    A ``redis+sentinel://`` url connects to the primary the Sentinels name and follows a failover: a
    connection that fails (or finds its server demoted) asks the Sentinels again on its next use, so writes
    fail with StoreUnavailable until a replica is promoted and then go to it.

    ``wait_replicas`` N > 0: each write pipeline ends with ``WAIT N wait_timeout_ms`` on the same connection;
    if fewer than N replicas confirm, every call of the batch raises StoreUnavailable (a write of unknown
    outcome, which the caller settles), so no write is acknowledged before N replicas have it. The session
    and seat-index writes wait the same way; deleting a room does not (losing a delete in a failover is
    harmless: it is repeated).
    """

    def __init__(
        self,
        url: str = "redis://127.0.0.1:6379/0",
        *,
        prefix: str = "mp:",
        timeout: float = 2.0,
        trim_log: bool = True,
        max_connections: int = 64,
        pool_wait: float = 10.0,
        max_batch: int = 512,
        wait_replicas: int = 0,
        wait_timeout_ms: int | None = None,
    ):
        if isinstance(wait_replicas, bool) or not isinstance(wait_replicas, int) or wait_replicas < 0:
            raise ValueError(f"wait_replicas must be an int >= 0, got {wait_replicas!r}")
        self.prefix = prefix
        #: where it is (what else shares this Redis, e.g. the nodes' shared limits, connects to)
        self.url = url
        self.trim_log = trim_log
        self.timeout = timeout
        self.wait_replicas = wait_replicas
        #: how long WAIT waits for the replicas; below the socket timeout, so a WAIT never looks like an outage
        self.wait_timeout_ms = wait_timeout_ms if wait_timeout_ms is not None else max(1, int(timeout * 500))
        self.sentinel: Sentinel | None = None
        self.client: aredis.Redis
        if url.startswith("redis+sentinel://"):
            where = parse_sentinel_url(url)
            fail_fast: dict[str, Any] = {
                "socket_timeout": timeout,
                "socket_connect_timeout": timeout,
                "retry": Retry(NoBackoff(), 0),
            }
            self.sentinel = _NewestSentinel(where.sentinels, sentinel_kwargs=dict(fail_fast), **fail_fast)  # type: ignore[no-untyped-call]
            self.client = self.sentinel.master_for(
                where.service,
                redis_class=aredis.Redis,
                connection_pool_class=_BlockingSentinelPool,
                connection_class=_PrimaryConnection,
                max_connections=max_connections,
                timeout=pool_wait,
                db=where.db,
                username=where.username,
                password=where.password,
            )
        else:
            pool = aredis.BlockingConnectionPool.from_url(
                url,
                max_connections=max_connections,
                timeout=pool_wait,
                socket_timeout=timeout,
                socket_connect_timeout=timeout,
                retry=Retry(NoBackoff(), 0),
            )
            self.client = aredis.Redis.from_pool(pool)
        reg = self.client.register_script
        self._create, self._save_meta, self._append = reg(_CREATE), reg(_SAVE_META), reg(_APPEND)
        self._snapshot, self._finish = reg(_SNAPSHOT), reg(_FINISH)
        self._acquire, self._refence, self._release = reg(_ACQUIRE), reg(_REFENCE), reg(_RELEASE)
        self._keep = reg(_KEEP)
        self._prune = reg(_PRUNE)
        self._closed = False
        self._max_batch = max_batch
        self._queue: list[_Call] = []
        self._wake: asyncio.Event | None = None
        self._writer: asyncio.Task[None] | None = None
        #: a WAIT came back short: writes are refused (StoreRefused) until the replicas confirm again
        self._short = False
        self.short_reason = ""
        #: pipelines sent and calls they carried (the benchmark reads these)
        self.batches = 0
        self.batched_calls = 0

    def _key(self, room: str, part: str) -> str:
        return f"{self.prefix}room:{room}:{part}"

    def _room_keys(self, room: str) -> tuple[str, str, str]:
        return self._key(room, "meta"), self._key(room, "snap"), self._key(room, "log")

    @property
    def _rooms_key(self) -> str:
        return f"{self.prefix}rooms"

    @property
    def _public_key(self) -> str:
        return f"{self.prefix}public"

    def _lease_key(self, room: str) -> str:
        return f"{self.prefix}lease:{room}"

    def _fence_keys(self, room: str) -> list[str]:
        return [self._lease_key(room), f"{self.prefix}fence:{room}"]

    # ---- the coalescing writer ------------------------------------------------------------------

    async def _run(self, script: AsyncScript, keys: list[str], args: list[Any], *, replicated: bool = True) -> Any:
        """Queue one script call for the writer task and wait for its own reply."""
        if self._closed:
            raise StoreUnavailable("the store is closed")
        loop = asyncio.get_running_loop()
        if self._writer is None or self._writer.done():
            self._wake = asyncio.Event()
            self._writer = loop.create_task(self._write_loop(), name="redis-writer")
        call = _Call(script, keys, args, loop.create_future(), replicated)
        self._queue.append(call)
        assert self._wake is not None
        self._wake.set()
        return await call.done

    async def _write_loop(self) -> None:
        assert self._wake is not None
        while not self._closed:
            await self._wake.wait()
            self._wake.clear()
            await asyncio.sleep(0)  # let every room that is ready this tick queue its write
            while self._queue:
                batch, self._queue = self._queue[: self._max_batch], self._queue[self._max_batch :]
                await self._send(batch)

    async def _send(self, batch: list[_Call]) -> None:
        self.batches += 1
        self.batched_calls += len(batch)
        short: StoreUnreplicated | None = None
        try:
            if self.wait_replicas and not await self._replicas_back():
                refused = StoreRefused(self.short_reason)
                for call in batch:
                    if call.replicated and not call.done.done():
                        call.done.set_exception(refused)
                batch = [call for call in batch if not call.replicated]
                if not batch:
                    return
            waits = self.wait_replicas and any(call.replicated for call in batch)
            async with self.client.pipeline(transaction=False) as pipe:
                for call in batch:
                    await call.script(keys=call.keys, args=call.args, client=pipe)
                if waits:
                    self._queue_wait(pipe)
                replies = await pipe.execute(raise_on_error=False)
            if waits:
                try:
                    self._check_wait(replies)
                except StoreUnreplicated as exc:
                    short = exc
        except (RedisError, OSError, StoreUnavailable) as exc:
            failure = exc if isinstance(exc, StoreUnavailable) else StoreUnavailable(f"redis: {exc}")
            for call in batch:
                if not call.done.done():
                    call.done.set_exception(failure)
            return
        except asyncio.CancelledError:
            for call in batch:
                if not call.done.done():
                    call.done.set_exception(StoreUnavailable("the store is closing"))
            raise
        for call, reply in zip(batch, replies, strict=True):
            if call.done.done():
                continue
            if isinstance(reply, Exception):
                call.done.set_exception(_failure(reply))
            elif short is not None and call.replicated:
                call.done.set_exception(short)  # it ran on the primary; the replicas do not have it (yet)
            else:
                call.done.set_result(reply)

    def _queue_wait(self, pipe: Any) -> None:
        """End a write pipeline with WAIT when replicas must confirm (its reply is the pipeline's last)."""
        if self.wait_replicas:
            pipe.execute_command("WAIT", self.wait_replicas, self.wait_timeout_ms)

    def _check_wait(self, replies: list[Any]) -> None:
        """Pop WAIT's reply. Fewer replicas than asked: StoreUnavailable if WAIT itself failed (outcome
        unknown), else StoreUnreplicated (the writes ran on the primary) and the store refuses further writes
        until the replicas confirm again (`_replicas_back`)."""
        if not self.wait_replicas:
            return
        acked = replies.pop()
        if isinstance(acked, Exception) or not isinstance(acked, int):
            raise StoreUnavailable(f"redis: WAIT failed ({acked!r}): outcome unknown")
        if acked < self.wait_replicas:
            self.short_reason = f"redis: {acked} of the {self.wait_replicas} replicas asked for confirm writes"
            self._short = True
            raise StoreUnreplicated(self.short_reason)

    async def _replicas_back(self) -> bool:
        """While a WAIT came back short: do the replicas confirm everything written so far now? One short
        WAIT (`SHORT_PROBE_MS`), so writes are refused at once while they do not (nothing is sent)."""
        if not self._short:
            return True
        with _unavailable():
            acked = await self.client.execute_command("WAIT", self.wait_replicas, SHORT_PROBE_MS)
        if isinstance(acked, int) and acked >= self.wait_replicas:
            log.info("redis: %d replicas confirm writes again", acked)
            self._short = False
        return not self._short

    async def _replicated(self, build: Callable[[Any], None]) -> list[Any]:
        """Send the commands ``build(pipe)`` queues in one pipeline (then WAIT, if asked); their replies."""
        if self.wait_replicas and not await self._replicas_back():
            raise StoreRefused(self.short_reason)
        with _unavailable():
            async with self.client.pipeline(transaction=False) as pipe:
                build(pipe)
                self._queue_wait(pipe)
                replies: list[Any] = await pipe.execute()
        self._check_wait(replies)
        return replies

    # ---- rooms ----------------------------------------------------------------------------------

    async def create_room(self, meta: Meta) -> None:
        info = check_meta(meta)
        keys = [*self._room_keys(info.room), self._rooms_key, self._public_key]
        done = await self._run(self._create, keys, _meta_args(info))
        if done == _EXISTS:
            raise ValueError(f"room {info.room!r} already exists")

    async def save_meta(self, room: str, meta: Meta, *, fence: str | None = None) -> None:
        info = check_meta(meta, room)
        keys = [self._key(room, "meta"), self._public_key, *self._fence_keys(room)]
        done = await self._run(self._save_meta, keys, [*_meta_args(info), fence or ""])
        _check_done(room, done, "meta")

    async def append(self, room: str, entry: Entry, meta: Meta, *, fence: str | None = None) -> None:
        info = check_meta(meta, room)
        v, packed = check_entry(entry)
        keys = [*self._room_keys(room), self._public_key, *self._fence_keys(room)]
        done = await self._run(self._append, keys, [*_meta_args(info), v, packed, fence or ""])
        _check_done(room, done, "append")
        if done == _STALE:
            raise ValueError(f"entry v={v} is not above the room's last stored version")

    async def save_snapshot(self, room: str, v: int, snapshot: bytes, *, fence: str | None = None) -> None:
        check_version(v, "snapshot v", 0)
        check_room(room)
        trim = f"{v + 1}-0" if self.trim_log else ""
        args: list[bytes | str | int] = [v, bytes(snapshot), trim, fence or ""]
        done = await self._run(self._snapshot, [*self._room_keys(room), *self._fence_keys(room)], args)
        _check_done(room, done, "snapshot")
        if done == _STALE:
            raise ValueError(f"snapshot v={v} is older than the stored one")

    async def load(self, room: str) -> LoadedRoom | None:
        check_room(room)
        meta_key, snap_key, log_key = self._room_keys(room)
        with _unavailable():
            async with self.client.pipeline(transaction=True) as pipe:
                pipe.hget(meta_key, "data")
                pipe.hmget(snap_key, ["v", "data"])
                pipe.xrange(log_key, "-", "+")
                data, (snap_v, snapshot), log = await pipe.execute()
        if data is None:
            return None
        base = int(snap_v) if snap_v is not None else 0
        entries = [unpack(fields[b"e"]) for _id, fields in log]
        return LoadedRoom(
            meta=unpack(data),
            snap_v=base,
            snapshot=snapshot,
            log=[e for e in entries if e["v"] > base],
        )

    async def log_entry(self, room: str, v: int) -> tuple[int, Entry | None]:
        meta_key, _snap, log_key = self._room_keys(room)
        with _unavailable():
            async with self.client.pipeline(transaction=True) as pipe:
                pipe.hget(meta_key, "log_v")
                pipe.xrange(log_key, f"{v}-0", f"{v}-0")
                log_v, found = await pipe.execute()
        if log_v is None:
            raise KeyError(room)
        return int(log_v), unpack(found[0][1][b"e"]) if found else None

    async def full_log(self, room: str) -> list[Entry]:
        """Every stored log entry of the room (all of them only with ``trim_log=False``)."""
        with _unavailable():
            log = await self.client.xrange(self._key(room, "log"), "-", "+")
        return [unpack(fields[b"e"]) for _id, fields in log]

    async def _fields_of(self, set_key: str, field_name: str) -> dict[str, bytes]:
        """Read one meta field of every room in a directory set; drop ids whose room has expired."""
        with _unavailable():
            members = await self.client.smembers(set_key)
            ids = sorted(m.decode() if isinstance(m, bytes) else m for m in members)
            async with self.client.pipeline(transaction=False) as pipe:
                for rid in ids:
                    pipe.hget(self._key(rid, "meta"), field_name)
                values = await pipe.execute()
            gone = [rid for rid, value in zip(ids, values, strict=True) if value is None]
            if gone:
                args = [f"{self.prefix}room:", ":meta", *gone]
                await self._prune(keys=[set_key], args=args)
        return {rid: value for rid, value in zip(ids, values, strict=True) if value is not None}

    async def room_ids(self, *, unfinished_only: bool = False) -> list[str]:
        statuses = await self._fields_of(self._rooms_key, "status")
        return [rid for rid, status in statuses.items() if not unfinished_only or status != b"finished"]

    async def list_public(self) -> list[Meta]:
        metas = [unpack(data) for data in (await self._fields_of(self._public_key, "data")).values()]
        listed = [m for m in metas if m.get("public", True) is True and m.get("status") in LISTED_STATUSES]
        return sorted(listed, key=listing_order)

    async def finish(self, room: str, meta: Meta, ttl_seconds: int, *, fence: str | None = None) -> None:
        check_ttl(ttl_seconds, "ttl_seconds")
        info = check_meta({**meta, "status": "finished"}, room)
        keys = [*self._room_keys(room), self._public_key, *self._fence_keys(room)]
        done = await self._run(self._finish, keys, [*_meta_args(info), ttl_seconds * 1000, fence or ""])
        _check_done(room, done, "finish")

    async def delete_room(self, room: str) -> None:
        check_room(room)
        with _unavailable():
            async with self.client.pipeline(transaction=True) as pipe:
                pipe.delete(*self._room_keys(room), *self._fence_keys(room))
                pipe.srem(self._rooms_key, room)
                pipe.srem(self._public_key, room)
                await pipe.execute()

    async def close(self) -> None:
        if not self._closed:
            self._closed = True
            if self._writer is not None:
                self._writer.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await self._writer
            for call in self._queue:
                if not call.done.done():
                    call.done.set_exception(StoreUnavailable("the store is closed"))
            self._queue = []
            await self.client.aclose()
            await self.client.connection_pool.disconnect()
            if self.sentinel is not None:
                await self.sentinel.aclose()

    async def ping(self) -> None:
        with _unavailable():
            await self.client.ping()

    async def get_meta(self, room: str) -> Meta | None:
        check_room(room)
        with _unavailable():
            data = await self.client.hget(self._key(room, "meta"), "data")
        if not isinstance(data, bytes):
            return None
        meta: Meta = unpack(data)
        return meta

    async def mark_seat(self, player: str, room: str, held: bool) -> None:
        key = f"{self.prefix}player:{player}:rooms"
        await self._replicated(lambda pipe: pipe.sadd(key, room) if held else pipe.srem(key, room))

    async def player_rooms(self, player: str) -> list[str]:
        with _unavailable():
            members = await self.client.smembers(f"{self.prefix}player:{player}:rooms")
        return sorted(m.decode() if isinstance(m, bytes) else str(m) for m in members)

    async def save_session(self, key: str, session: dict[str, Any], ttl_seconds: int) -> None:
        check_ttl(ttl_seconds, "ttl_seconds")
        packed = pack(session)
        await self._replicated(lambda pipe: pipe.set(f"{self.prefix}session:{key}", packed, ex=ttl_seconds))

    async def delete_sessions(self, keys: list[str]) -> None:
        if keys:
            await self._replicated(lambda pipe: pipe.delete(*(f"{self.prefix}session:{key}" for key in keys)))

    async def load_session(self, key: str) -> dict[str, Any] | None:
        with _unavailable():
            data = await self.client.get(f"{self.prefix}session:{key}")
        if not isinstance(data, bytes):
            return None
        session: dict[str, Any] = unpack(data)
        return session

    # ---- leases ---------------------------------------------------------------------------------

    async def acquire_lease(self, room: str, node: str, ttl_ms: int) -> str | None:
        check_ttl(ttl_ms, "ttl_ms")
        token = await self._run(self._acquire, self._fence_keys(room), [node, ttl_ms])
        return token.decode() if isinstance(token, bytes) else None

    async def renew_lease(self, room: str, token: str, ttl_ms: int) -> bool:
        return (await self.keep_leases([(room, token)], ttl_ms))[0]

    async def keep_leases(self, leases: list[tuple[str, str]], ttl_ms: int) -> list[bool]:
        check_ttl(ttl_ms, "ttl_ms")
        held: list[bool] = []
        for i in range(0, len(leases), 500):
            chunk = leases[i : i + 500]
            keys = [k for room, _token in chunk for k in self._fence_keys(room)]
            args = [ttl_ms, *(token for _room, token in chunk)]
            # not waiting for replicas: a renewal lost in a failover only lets another node take the room
            # sooner, and the fencing token keeps this node's writes off it
            held.extend(bool(x) for x in await self._run(self._keep, keys, args, replicated=False))
        return held

    async def refence(self, room: str, token: str, ttl_ms: int) -> str | None:
        check_ttl(ttl_ms, "ttl_ms")
        new = await self._run(self._refence, self._fence_keys(room), [token, ttl_ms])
        return new.decode() if isinstance(new, bytes) else None

    async def release_lease(self, room: str, token: str) -> None:
        await self._run(self._release, self._fence_keys(room), [token])

    async def lease_holder(self, room: str) -> str | None:
        with _unavailable():
            held = await self.client.get(self._lease_key(room))
        return token_node(held.decode()) if isinstance(held, bytes) else None

    async def lease_holders(self, rooms: list[str]) -> list[str | None]:
        """Every room's lease holder, read with one MGET per 500 rooms."""
        out: list[str | None] = []
        for i in range(0, len(rooms), 500):
            with _unavailable():
                held = await self.client.mget([self._lease_key(room) for room in rooms[i : i + 500]])
            out.extend(token_node(h.decode()) if isinstance(h, bytes) else None for h in held)
        return out

