"""The Redis room store (plain, behind Sentinel, or a Redis Cluster): several nodes share it.

Room keys under a prefix (default ``mp:``); every write of a room is one Lua script over that room's keys only,
so each write is atomic, and on a Redis Cluster every key of a room is in one hash slot:

- ``{p}room:{id}:meta``: HASH ``data`` (packed meta), plain ``status``/``game``/``public`` for
  inspection, ``log_v`` (highest appended v);
- ``{p}room:{id}:snap``: HASH ``v``, ``data``;
- ``{p}room:{id}:log``: STREAM, entry id ``{v}-0``, field ``e`` (packed entry); a snapshot at v trims it
  with ``XTRIM MINID = {v+1}-0`` in the same script, which is exact;
- ``{p}lease:{id}``: STRING fencing token with a PX expiry; ``{p}fence:{id}``: STRING, the room's epoch counter.

On a Redis Cluster (``redis+cluster://``) the room id is the keys' hash tag: ``{p}room:{{id}}:meta``,
``{p}lease:{{id}}`` and so on, so the fencing token, the lease and the room's data stay in one slot and every room
script stays atomic. A plain or Sentinel Redis keeps the untagged names of earlier versions, so a rolling upgrade
reads every room where it was (``docs/storage.md``).

Indexes, read a page at a time (the lobby, quick match, a node's start-up), each one key (on a cluster, in a slot
of its own), written outside the room scripts, right after them, by commands that are idempotent (an index
write that fails leaves an entry missing or stale until the room's next change, a sweep of the index, or a read
that meets it; readers check what they read against the room's meta):

- ``{p}idx:open``: ZSET of unfinished rooms, score = created (ms); written *before* a room is created and
  emptied of it after it finished, so every unfinished room is in it;
- ``{p}idx:lobby`` and ``{p}idx:lobby:{game}``: ZSET of public waiting or playing rooms, score = created (s);
- ``{p}idx:match:{{kind}}``: ZSET of public waiting rooms with a free seat, score = free seats * 1e13 + created
  (ms); ``{p}idx:match:{{kind}}:who``: HASH room -> ``|player|player|``; quick match's script reads and writes
  both (one slot: the kind is their hash tag);
- ``{p}rooms`` (earlier versions' SET of every room id): moved into the indexes and emptied by `adopt_legacy`.

Writes go through one writer task per store: every call queued during one loop tick is sent at once, in one
pipeline per Redis server (a cluster's calls grouped by the primary of their slot), and each caller is answered
when its server's pipeline returns (its own reply, or StoreUnavailable if that connection failed). The
connection pool blocks when busy instead of failing: a busy pool is not an outage.

This module must not know about engines, sessions or sockets: it stores dicts and bytes.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import unquote

import redis.asyncio as aredis
from redis.asyncio.cluster import ClusterNode
from redis.asyncio.cluster import RedisCluster as AsyncRedisCluster
from redis.asyncio.connection import BlockingConnectionPool
from redis.asyncio.retry import Retry
from redis.asyncio.sentinel import MasterNotFoundError, Sentinel, SentinelConnectionPool, SentinelManagedConnection
from redis.backoff import NoBackoff
from redis.commands.core import AsyncScript
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import (
    MovedError,
    NoScriptError,
    OutOfMemoryError,
    ReadOnlyError,
    RedisClusterException,
    RedisError,
    ResponseError,
)

from server.store.base import (
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


@dataclass(frozen=True, slots=True)
class ClusterUrl:
    """A parsed ``redis+cluster://[[user]:password@]host:port[,host:port...]``: nodes to discover the cluster from."""

    nodes: list[tuple[str, int]]
    username: str | None = None
    password: str | None = None


def parse_cluster_url(url: str) -> ClusterUrl:
    """Split a cluster url; any of the nodes named is enough to find the others (a cluster has only db 0)."""
    scheme = "redis+cluster://"
    if not url.startswith(scheme):
        raise ValueError(f"not a cluster url: {url!r}")
    netloc, _, path = url[len(scheme) :].partition("/")
    if path.strip("/") not in ("", "0"):
        raise ValueError(f"cluster url {url!r}: a Redis Cluster has only db 0")
    username = password = None
    if "@" in netloc:
        auth, netloc = netloc.rsplit("@", 1)
        user, _, pw = auth.partition(":")
        username, password = (unquote(user) or None), (unquote(pw) or None)
    nodes: list[tuple[str, int]] = []
    for part in netloc.split(","):
        host, _, port = part.strip().rpartition(":")
        if not host or not port.isdigit():
            raise ValueError(f"cluster url {url!r}: {part!r} is not host:port")
        nodes.append((host.strip("[]"), int(port)))
    return ClusterUrl(nodes, username, password)


# --- Redis store -----------------------------------------------------------------------------------

# Every write script takes the meta fields as ARGV[1..4]: data, status, game, public; the fenced ones take the
# lease and fence keys as their last two KEYS and the token as their last ARGV ('' means unfenced: tools and tests
# that own the store alone). They touch the room's own keys only (one hash slot on a cluster).
_HELPERS = """
local function write_meta(meta_key)
  redis.call('HSET', meta_key, 'data', ARGV[1], 'status', ARGV[2], 'game', ARGV[3], 'public', ARGV[4])
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


# KEYS: meta, snap, log
_CREATE = _script(
    """
if redis.call('EXISTS', KEYS[1]) == 1 then return -2 end
redis.call('DEL', KEYS[2], KEYS[3])
write_meta(KEYS[1])
redis.call('HSET', KEYS[1], 'log_v', 0)
return 1
"""
)

# KEYS: meta, lease, fence; ARGV[5]: token
_SAVE_META = _script(
    """
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
if not holds(KEYS[2], KEYS[3], ARGV[5]) then return -3 end
write_meta(KEYS[1])
return 1
"""
)

# KEYS: meta, snap, log, lease, fence; ARGV[5]: v, ARGV[6]: packed entry, ARGV[7]: token
_APPEND = _script(
    """
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
if not holds(KEYS[4], KEYS[5], ARGV[7]) then return -3 end
local v = tonumber(ARGV[5])
local last = tonumber(redis.call('HGET', KEYS[1], 'log_v') or '0')
local snap_v = tonumber(redis.call('HGET', KEYS[2], 'v') or '0')
if v <= last or v <= snap_v then return -1 end
redis.call('XADD', KEYS[3], ARGV[5] .. '-0', 'e', ARGV[6])
write_meta(KEYS[1])
redis.call('HSET', KEYS[1], 'log_v', ARGV[5])
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

# KEYS: meta, snap, log, lease, fence; ARGV[5]: ttl in ms, ARGV[6]: token
_FINISH = _script(
    """
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
if not holds(KEYS[4], KEYS[5], ARGV[6]) then return -3 end
write_meta(KEYS[1])
for i = 1, 3 do redis.call('PEXPIRE', KEYS[i], ARGV[5]) end
redis.call('PEXPIRE', KEYS[5], ARGV[5])
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

# KEYS: lease1, fence1, lease2, fence2, ... (on a cluster: rooms of one slot); ARGV: ttl ms, token1, token2, ...
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

#: a match index's score: free seats * FREE_UNIT + created ms (fewest free seats first, then the oldest)
FREE_UNIT = 10**13
#: how long a seat quick match took in the index waits for its player's join before it counts as free again (ms)
HOLD_MS = 10_000

# Quick match's index of one kind (one slot: the kind is the hash tag): KEYS[1] ZSET room -> free seats * FREE_UNIT
# + created ms, counting only seats neither held by a player nor taken by a claim still waiting for its join;
# KEYS[2] `who` HASH room -> '|player|player|' seated; KEYS[3] `held` HASH room -> 'player@ms|player@ms|', the
# claims not joined yet.
_MATCH_HELPERS = f"""
local function fmt(x) return string.format('%.0f', x) end
-- put a room where its meta (ARGV from `first`: room, free seats, created ms, '|seated|', now ms) and its live claims
-- say; `drop`: a player whose claim is handed back
local function place(first, drop)
  local room, seated, now = ARGV[first], ARGV[first + 3], tonumber(ARGV[first + 4])
  local held = redis.call('HGET', KEYS[3], room) or ''
  local keep, n = '', 0
  for entry in string.gmatch(held, '([^|]+)') do
    local p, t = string.match(entry, '^(.*)@(%d+)$')
    if p and p ~= drop and not string.find(seated, '|' .. p .. '|', 1, true) and tonumber(t) + {HOLD_MS} > now then
      keep = keep .. entry .. '|'
      n = n + 1
    end
  end
  if keep == '' then redis.call('HDEL', KEYS[3], room) else redis.call('HSET', KEYS[3], room, keep) end
  redis.call('HSET', KEYS[2], room, seated)
  local free = tonumber(ARGV[first + 1]) - n
  if free > 0 then
    redis.call('ZADD', KEYS[1], fmt(free * {FREE_UNIT} + tonumber(ARGV[first + 2])), room)
  else
    redis.call('ZREM', KEYS[1], room)
  end
  return free
end
"""

# ARGV: player, how many of the fullest rooms to look at, now ms, a new room's id ('' for none), its seats, its
# created ms. A seat in the fullest room the player neither sits in nor claimed yet: {room, 0}. None: with a new
# room's id, that room is put in the index with the player's claim in it (the caller creates it): {room, 1}.
_MATCH = _MATCH_HELPERS + f"""
local rooms = redis.call('ZRANGE', KEYS[1], 0, tonumber(ARGV[2]) - 1, 'WITHSCORES')
local me = '|' .. ARGV[1] .. '|'
local mine = '|' .. ARGV[1] .. '@'
for i = 1, #rooms, 2 do
  local room = rooms[i]
  local seated = redis.call('HGET', KEYS[2], room) or '|'
  local held = redis.call('HGET', KEYS[3], room) or ''
  if not string.find(seated, me, 1, true) and not string.find('|' .. held, mine, 1, true) then
    local score = tonumber(rooms[i + 1])
    if score < {2 * FREE_UNIT} then
      redis.call('ZREM', KEYS[1], room)
    else
      redis.call('ZADD', KEYS[1], fmt(score - {FREE_UNIT}), room)
    end
    redis.call('HSET', KEYS[3], room, held .. ARGV[1] .. '@' .. ARGV[3] .. '|')
    return {{room, 0}}
  end
end
if ARGV[4] == '' then return false end
redis.call('HSET', KEYS[3], ARGV[4], ARGV[1] .. '@' .. ARGV[3] .. '|')
redis.call('HSET', KEYS[2], ARGV[4], '|')
local free = tonumber(ARGV[5]) - 1
if free > 0 then redis.call('ZADD', KEYS[1], fmt(free * {FREE_UNIT} + tonumber(ARGV[6])), ARGV[4]) end
return {{ARGV[4], 1}}
"""

# ARGV: room, free seats, created ms, '|seated|', now ms (the room's meta); ARGV[6]: a player whose claim is handed
# back ('' for none). The room's place from its meta and the claims still waiting; its free seats there.
_PLACE = _MATCH_HELPERS + """
return place(1, ARGV[6])
"""

#: how long a write waits, while the replicas fell short, for them to confirm again before it is refused
SHORT_PROBE_MS = 100
#: how many of the fullest rooms of a kind quick match's script looks at for one the player does not sit in
MATCH_LOOK = 32
#: the most times a call is sent again after its server said it did not run it (moved, NOSCRIPT, TRYAGAIN)
RESENDS = 3
#: how many rooms' index places a store remembers (to skip index writes that would change nothing)
PLACES_KEPT = 200_000

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
    except (RedisError, RedisClusterException, OSError) as exc:
        raise StoreUnavailable(f"redis: {exc}") from exc


def _meta_args(info: MetaInfo) -> list[bytes | str | int]:
    return [info.packed, info.status, info.game, int(info.public)]


def _check_done(room: str, done: Any, what: str) -> None:
    if done == _MISSING:
        raise KeyError(room)
    if done == _FENCED:
        raise StoreFenced(f"room {room!r}: the {what} carried a token that no longer holds")


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


Command = tuple[Any, ...]


@dataclass(slots=True)
class _Call:
    """One write for the writer task: a script over `keys` (or, with no script, the command `args`)."""

    script: AsyncScript | None
    keys: list[str]
    args: list[Any]
    done: asyncio.Future[Any]
    #: a write that waits for `wait_replicas` (all but lease renewals, whose safety is the fencing token's)
    replicated: bool = True
    #: the index commands to send once the reply is known (run after the script, before the caller hears of it)
    after: Callable[[Any], list[Command]] | None = None
    room: str = ""
    #: times it was sent again after its server said it did not run it
    resent: int = 0
    reply: Any = None
    index: list[Command] = field(default_factory=list)


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
    one writer task sends every call queued meanwhile in one pipeline per server. ``client`` is exposed for
    pub/sub (on a cluster, sharded pub/sub: see ``sharded``).

    A ``redis+sentinel://`` url connects to the primary the Sentinels name and follows a failover: a
    connection that fails (or finds its server demoted) asks the Sentinels again on its next use, so writes
    fail with StoreUnavailable until a replica is promoted and then go to it.

    A ``redis+cluster://`` url connects to a Redis Cluster (redis-py's cluster client, no automatic retries):
    every room's keys share a hash tag, the calls of one batch are sent in one pipeline per primary, lease
    renewals in one script per slot, and a call the server did not run (MOVED after a failover, NOSCRIPT on a
    new primary) is sent again, to the right primary, with the next batch.

    ``wait_replicas`` N > 0: each write pipeline ends with ``WAIT N wait_timeout_ms`` on the same connection
    (on a cluster: one per primary); if fewer than N replicas confirm, every call of the batch raises
    StoreUnavailable (a write of unknown outcome, which the caller settles), so no write is acknowledged before N
    replicas have it. The session and seat-index writes wait the same way; deleting a room does not (losing a
    delete in a failover is harmless: it is repeated), nor do the index writes (repaired as the module says).
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
        #: a Redis Cluster: keys of a room share a hash tag, node channels use sharded pub/sub
        self.sharded = url.startswith("redis+cluster://")
        self.sentinel: Sentinel | None = None
        self.client: Any
        fail_fast: dict[str, Any] = {
            "socket_timeout": timeout,
            "socket_connect_timeout": timeout,
            "retry": Retry(NoBackoff(), 0),
        }
        if self.sharded:
            if "{" in prefix or "}" in prefix:
                raise ValueError(f"on a Redis Cluster the prefix must not hold braces (hash tags), got {prefix!r}")
            nodes = parse_cluster_url(url)
            self.client = AsyncRedisCluster(
                startup_nodes=[ClusterNode(host, port) for host, port in nodes.nodes],
                require_full_coverage=False,  # the slots of the other primaries are served during a failover
                max_connections=max(max_connections, 128),
                username=nodes.username,
                password=nodes.password,
                **fail_fast,
            )
        elif url.startswith("redis+sentinel://"):
            where = parse_sentinel_url(url)
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
                url, max_connections=max_connections, timeout=pool_wait, **fail_fast
            )
            self.client = aredis.Redis.from_pool(pool)
        reg = self.client.register_script
        self._create, self._save_meta, self._append = reg(_CREATE), reg(_SAVE_META), reg(_APPEND)
        self._snapshot, self._finish = reg(_SNAPSHOT), reg(_FINISH)
        self._acquire, self._refence, self._release = reg(_ACQUIRE), reg(_REFENCE), reg(_RELEASE)
        self._keep = reg(_KEEP)
        self._match, self._place = reg(_MATCH), reg(_PLACE)
        self._scripts: list[AsyncScript] = [
            self._create, self._save_meta, self._append, self._snapshot, self._finish, self._acquire,
            self._refence, self._release, self._keep, self._match, self._place,
        ]  # fmt: skip
        #: servers ("" for a plain Redis, else a cluster primary's name) known to have every script loaded
        self._loaded: set[str] = set()
        #: a cluster's reads wait for one of this many connections per process (its pool fails when exhausted)
        self._reads = asyncio.Semaphore(max_connections)
        self._closed = False
        self._max_batch = max_batch
        self._queue: list[_Call] = []
        self._wake: asyncio.Event | None = None
        self._writer: asyncio.Task[None] | None = None
        #: servers ("" for a plain Redis, else a cluster primary's name) whose WAIT came back short: writes to them
        #: are refused (StoreRefused) until the replicas confirm again
        self._short: set[str] = set()
        self.short_reason = ""
        #: what the indexes hold of each room, as this store last wrote it (`MetaInfo.place`), newest last
        self._placed: OrderedDict[str, tuple[Any, ...]] = OrderedDict()
        #: pipelines sent and calls they carried (the benchmark reads these)
        self.batches = 0
        self.batched_calls = 0
        #: index writes that failed (the sweep and the readers repair what they left)
        self.index_failures = 0

    # ---- key names ------------------------------------------------------------------------------

    def _tag(self, room: str) -> str:
        return f"{{{room}}}" if self.sharded else room

    def _key(self, room: str, part: str) -> str:
        return f"{self.prefix}room:{self._tag(room)}:{part}"

    def _room_keys(self, room: str) -> list[str]:
        return [self._key(room, "meta"), self._key(room, "snap"), self._key(room, "log")]

    def _lease_key(self, room: str) -> str:
        return f"{self.prefix}lease:{self._tag(room)}"

    def _fence_keys(self, room: str) -> list[str]:
        return [self._lease_key(room), f"{self.prefix}fence:{self._tag(room)}"]

    @property
    def _open_key(self) -> str:
        return f"{self.prefix}idx:open"

    def _lobby_key(self, game: str | None) -> str:
        return f"{self.prefix}idx:lobby" if game is None else f"{self.prefix}idx:lobby:{game}"

    def _match_keys(self, kind: str) -> list[str]:
        key = f"{self.prefix}idx:match:{{{kind}}}"
        return [key, f"{key}:who", f"{key}:held"]

    @property
    def _legacy_rooms_key(self) -> str:
        return f"{self.prefix}rooms"

    def room_of_meta_key(self, key: str) -> str | None:
        """The room id in a meta key's name (None for another key)."""
        head, tail = f"{self.prefix}room:", ":meta"
        if not key.startswith(head) or not key.endswith(tail):
            return None
        rid = key[len(head) : -len(tail)]
        if self.sharded:
            if not (rid.startswith("{") and rid.endswith("}")):
                return None
            rid = rid[1:-1]
        return rid

    # ---- the coalescing writer ------------------------------------------------------------------

    async def _run(
        self,
        script: AsyncScript | None,
        keys: list[str],
        args: list[Any],
        *,
        replicated: bool = True,
        after: Callable[[Any], list[Command]] | None = None,
        room: str = "",
    ) -> Any:
        """Queue one call for the writer task and wait for its own reply (and, with `after`, for the index
        commands `after(reply)` names)."""
        if self._closed:
            raise StoreUnavailable("the store is closed")
        loop = asyncio.get_running_loop()
        if self._writer is None or self._writer.done():
            self._wake = asyncio.Event()
            self._writer = loop.create_task(self._write_loop(), name="redis-writer")
        call = _Call(script, keys, args, loop.create_future(), replicated, after, room)
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
                try:
                    await self._send(batch)
                except Exception:  # a fault here must not leave callers waiting forever: they get `unavailable`
                    log.exception("redis: the writer failed on a batch of %d calls", len(batch))
                    for call in batch:
                        if not call.done.done():
                            call.done.set_exception(StoreUnavailable("redis: the writer failed"))

    async def _send(self, batch: list[_Call]) -> None:
        self.batches += 1
        self.batched_calls += len(batch)
        ok: list[_Call] = []
        try:
            if not self.sharded:
                ok = await self._send_to(None, batch)
            else:
                groups = await self._by_primary(batch)
                for got in await asyncio.gather(*(self._send_to(node, calls) for node, calls in groups)):
                    ok.extend(got)
            for call in ok:
                if call.after is not None:
                    call.index = call.after(call.reply)
            if any(call.index for call in ok):
                await self._write_index([call for call in ok if call.index])
        except asyncio.CancelledError:
            for call in batch:
                if not call.done.done():
                    call.done.set_exception(StoreUnavailable("the store is closing"))
            raise
        for call in ok:
            if not call.done.done():
                call.done.set_result(call.reply)

    async def _by_primary(self, batch: list[_Call]) -> list[tuple[Any, list[_Call]]]:
        """A cluster's calls grouped by the primary serving their slot now (as the client's slot map says)."""
        groups: dict[str, tuple[Any, list[_Call]]] = {}
        try:
            if not self.client.nodes_manager.slots_cache:
                await self.client.initialize()
        except (RedisError, RedisClusterException, OSError) as exc:
            failure = StoreUnavailable(f"redis: {exc}")
            for call in batch:
                call.done.set_exception(failure)
            return []
        for call in batch:
            try:
                node = self.client.get_node_from_key(call.keys[0])
            except (RedisError, RedisClusterException) as exc:
                call.done.set_exception(StoreUnavailable(f"redis: {exc}"))
                continue
            groups.setdefault(node.name, (node, []))[1].append(call)
        return list(groups.values())

    async def _send_to(self, node: Any, calls: list[_Call]) -> list[_Call]:
        """Send `calls` in one pipeline to one server (`node` None: the plain or Sentinel Redis); the calls that
        succeeded, with their replies set (the others are answered here, or queued again)."""
        where = "" if node is None else str(node.name)
        target: dict[str, Any] = {} if node is None else {"target_nodes": node}
        short: StoreUnreplicated | None = None
        try:
            if self.wait_replicas and not await self._replicas_back(node):
                refused = StoreRefused(self.short_reason)
                for call in calls:
                    if call.replicated:
                        call.done.set_exception(refused)
                calls = [call for call in calls if not call.replicated]
                if not calls:
                    return []
            waits = self.wait_replicas and any(call.replicated for call in calls)
            if where not in self._loaded:
                await self._load_scripts(node)
            async with self.client.pipeline(transaction=False) as pipe:
                for call in calls:
                    if call.script is None:
                        pipe.execute_command(*call.args, **target)
                    else:  # (not `call.script(...)`: a plain pipeline would ask SCRIPT EXISTS at every batch)
                        sha = call.script.sha
                        pipe.execute_command("EVALSHA", sha, len(call.keys), *call.keys, *call.args, **target)
                if waits:
                    pipe.execute_command("WAIT", self.wait_replicas, self.wait_timeout_ms, **target)
                if node is None:
                    replies = await pipe.execute(raise_on_error=False)
                else:  # a redirect is answered here: resent with the next batch, to be followed by its own WAIT
                    replies = await pipe.execute(raise_on_error=False, allow_redirections=False)
            if waits:
                try:
                    self._check_wait(replies, where)
                except StoreUnreplicated as exc:
                    short = exc
        except (RedisError, RedisClusterException, OSError, StoreUnavailable) as exc:
            failure = exc if isinstance(exc, StoreUnavailable) else StoreUnavailable(f"redis: {exc}")
            for call in calls:
                if not call.done.done():
                    call.done.set_exception(failure)
            return []
        ok: list[_Call] = []
        for call, reply in zip(calls, replies, strict=True):
            if call.done.done():
                continue
            redirect = node is not None and isinstance(reply, MovedError)
            if (redirect or isinstance(reply, NoScriptError)) and call.resent < RESENDS:
                call.resent += 1  # not run: the slot moved (a failover) or the primary is new to the script
                if isinstance(reply, MovedError):
                    with contextlib.suppress(Exception):
                        await self.client.nodes_manager.move_slot(reply)
                else:
                    self._loaded.discard(where)
                self._queue.append(call)
                if self._wake is not None:
                    self._wake.set()
                continue
            if isinstance(reply, Exception):
                call.done.set_exception(_failure(reply))
            elif short is not None and call.replicated:
                call.done.set_exception(short)  # it ran on the primary; the replicas do not have it (yet)
            else:
                call.reply = reply
                ok.append(call)
        return ok

    async def _load_scripts(self, node: Any) -> None:
        """Load every script on the server (`node`: a cluster primary), once; a server that answers NOSCRIPT later
        (restarted, or a replica promoted) has them loaded again (see `_send_to`)."""
        target: dict[str, Any] = {} if node is None else {"target_nodes": node}
        async with self.client.pipeline(transaction=False) as pipe:
            for script in self._scripts:
                pipe.execute_command("SCRIPT", "LOAD", script.script, **target)
            await pipe.execute()
        self._loaded.add("" if node is None else str(node.name))

    def _check_wait(self, replies: list[Any], where: str) -> None:
        """Pop WAIT's reply. Fewer replicas than asked: StoreUnavailable if WAIT itself failed (outcome
        unknown), else StoreUnreplicated (the writes ran on the primary) and the store refuses further writes
        to that server until the replicas confirm again (`_replicas_back`)."""
        acked = replies.pop()
        if isinstance(acked, Exception) or not isinstance(acked, int):
            raise StoreUnavailable(f"redis: WAIT failed ({acked!r}): outcome unknown")
        if acked < self.wait_replicas:
            self.short_reason = f"redis: {acked} of the {self.wait_replicas} replicas asked for confirm writes"
            self._short.add(where)
            raise StoreUnreplicated(self.short_reason)

    async def _replicas_back(self, node: Any) -> bool:
        """While a WAIT came back short: do the replicas confirm everything written so far now? One short
        WAIT (`SHORT_PROBE_MS`), so writes are refused at once while they do not (nothing is sent)."""
        where = "" if node is None else str(node.name)
        if where not in self._short:
            return True
        target: dict[str, Any] = {} if node is None else {"target_nodes": node}
        with _unavailable():
            acked = await self.client.execute_command("WAIT", self.wait_replicas, SHORT_PROBE_MS, **target)
        if isinstance(acked, int) and acked >= self.wait_replicas:
            log.info("redis: %d replicas confirm writes again%s", acked, f" ({where})" if where else "")
            self._short.discard(where)
        return where not in self._short

    # ---- the indexes --------------------------------------------------------------------------

    def _index_ops(self, room: str, new: MetaInfo | None, old: tuple[Any, ...] | None) -> list[Command]:
        """The commands that put `room` where `new` says in every index (None: the room is gone), and take it out
        of where `old` (its last place, if known) had it. Each command is idempotent."""
        if new is not None and old == new.place():
            return []
        old_game: str | None = old[2] if old is not None else None
        old_kind: str = old[5] if old is not None else ""
        ops: list[Command] = []
        if new is None:
            ops += [("ZREM", self._open_key, room), ("ZREM", self._lobby_key(None), room)]
            if old_game is not None:
                ops.append(("ZREM", self._lobby_key(old_game), room))
            if old_kind:
                ops += self._unmatch_ops(old_kind, room)
            return ops
        if new.open:
            ops.append(("ZADD", self._open_key, "NX", new.created_ms, room))
        else:
            ops.append(("ZREM", self._open_key, room))
        for key in (self._lobby_key(None), self._lobby_key(new.game)):
            ops.append(("ZADD", key, repr(new.created), room) if new.listed else ("ZREM", key, room))
        if new.matchable:
            ops.append(self._place_op(new))
        elif new.kind:
            ops += self._unmatch_ops(new.kind, room)
        if old_kind and old_kind != new.kind:
            ops += self._unmatch_ops(old_kind, room)
        return ops

    def _unmatch_ops(self, kind: str, room: str) -> list[Command]:
        zset, who, held = self._match_keys(kind)
        return [("ZREM", zset, room), ("HDEL", who, room), ("HDEL", held, room)]

    def _place_op(self, info: MetaInfo, drop: str = "") -> Command:
        """The script that puts a matchable room in its kind's index, counting the claims still waiting for their
        joins (sent as EVAL in an index pipeline, so a primary new to it runs it too)."""
        seated = "|" + "".join(f"{p}|" for p in info.players)
        args = [info.room, info.free, info.created_ms, seated, int(time.time() * 1000), drop]
        return ("EVAL", _PLACE, 3, *self._match_keys(info.kind), *args)

    def _placing(self, room: str, new: MetaInfo | None) -> list[Command]:
        """`_index_ops` from the room's last known place, which becomes `new`'s."""
        ops = self._index_ops(room, new, self._placed.get(room))
        if new is None or not new.open:
            self._placed.pop(room, None)
        elif ops:
            self._placed[room] = new.place()
            self._placed.move_to_end(room)
            while len(self._placed) > PLACES_KEPT:
                self._placed.popitem(last=False)
        return ops

    def _after(self, room: str, info: MetaInfo) -> Callable[[Any], list[Command]]:
        """Index commands for a room script's reply: only a write that happened (1) moves the room."""
        return lambda reply: self._placing(room, info) if reply == 1 else []

    async def _write_index(self, calls: list[_Call]) -> None:
        """Send the index commands of `calls` in one pipeline. A failure leaves the rooms' places unknown (their
        next write sends every command again); the callers still hear of their own writes, which happened."""
        cmds = [(call, cmd) for call in calls for cmd in call.index]
        failed: set[str] = set()
        try:
            async with self.client.pipeline(transaction=False) as pipe:
                for _call, cmd in cmds:
                    pipe.execute_command(*cmd)
                replies = await pipe.execute(raise_on_error=False)
            pairs = zip(cmds, replies, strict=True)
            failed = {call.room for (call, _cmd), reply in pairs if isinstance(reply, Exception)}
        except (RedisError, RedisClusterException, OSError) as exc:
            failed = {call.room for call in calls}
            log.warning("redis: index writes of %d rooms failed (%s); the sweep repairs them", len(failed), exc)
        for room in failed:
            self._placed.pop(room, None)
        self.index_failures += len(failed)

    async def _index_now(self, cmds: list[Command]) -> None:
        """Send index commands and wait for them (StoreUnavailable if any failed)."""
        if not cmds:
            return
        with _unavailable():
            async with self.client.pipeline(transaction=False) as pipe:
                for cmd in cmds:
                    pipe.execute_command(*cmd)
                await pipe.execute()

    async def _metas(self, rooms: list[str], field_name: str = "data") -> list[Any]:
        """One field of each room's meta (None where the room is gone), in one pipeline."""
        if not rooms:
            return []
        async with self._reading():
            async with self.client.pipeline(transaction=False) as pipe:
                for rid in rooms:
                    pipe.hget(self._key(rid, "meta"), field_name)
                return list(await pipe.execute())

    @contextlib.asynccontextmanager
    async def _reading(self) -> Any:
        """A read: StoreUnavailable for any failure; on a cluster, at most `max_connections` at once."""
        if self.sharded:
            async with self._reads:
                with _unavailable():
                    yield
        else:
            with _unavailable():
                yield

    async def lobby_page(self, game: str | None, offset: int, limit: int) -> tuple[list[Meta], int]:
        key = self._lobby_key(game)
        async with self._reading():
            async with self.client.pipeline(transaction=False) as pipe:
                pipe.zcard(key)
                pipe.zrange(key, offset, offset + limit - 1)
                total, raw = await pipe.execute()
        ids = [_text(x) for x in raw]
        metas: list[Meta] = []
        stale: list[Command] = []
        for rid, data in zip(ids, await self._metas(ids), strict=True):
            info = check_meta(unpack(data)) if data is not None else None
            if info is None or not info.listed:  # a room gone or changed whose index write was lost: repaired
                stale += self._index_ops(rid, info, None) if info is not None else [("ZREM", key, rid)]
                total -= 1
            else:
                metas.append(unpack(info.packed))
        if stale:
            with contextlib.suppress(StoreUnavailable):
                await self._index_now(stale)
        return metas, max(0, int(total))

    async def match_claim(
        self, kind: str, player: str, new_room: str | None = None, seats: int = 0, created: float = 0.0
    ) -> tuple[str, bool] | None:
        now = int(time.time() * 1000)
        args = [player, MATCH_LOOK, now, new_room or "", seats, int(created * 1000)]
        got = await self._run(self._match, self._match_keys(kind), args, replicated=False)
        return (_text(got[0]), bool(got[1])) if got else None

    async def match_release(self, kind: str, room: str, player: str) -> None:
        data = (await self._metas([room]))[0]
        info = check_meta(unpack(data)) if data is not None else None
        if info is None or not info.matchable or info.kind != kind:  # gone (or never made), started, changed
            await self._index_now(self._unmatch_ops(kind, room) if info is None else [])
            return
        op = self._place_op(info, drop=player)
        await self._run(self._place, [str(k) for k in op[3:6]], list(op[6:]), replicated=False)

    async def open_rooms(self, after: str | None, count: int) -> tuple[list[str], str | None]:
        page, cursor = await self._open_page(after, count, repair=False)
        return [rid for rid, _info in page], cursor

    async def _open_page(
        self, after: str | None, count: int, *, repair: bool
    ) -> tuple[list[tuple[str, MetaInfo | None]], str | None]:
        """A page of the open index, checked against the rooms: a room gone or finished is dropped from every
        index; with `repair`, the others are put back where their metas say (every index). Returns the rooms
        still open (with their MetaInfo when `repair` read it) and the next page's cursor ("score|room")."""
        low, after_room = ("-inf", "") if after is None else (after.partition("|")[0], after.partition("|")[2])
        entries: list[tuple[str, float]] = []
        async with self._reading():
            raw = await self.client.zrangebyscore(self._open_key, low, "+inf", start=0, num=count + 64, withscores=True)
        for member, score in raw:
            rid = _text(member)
            if after is not None and score == float(low) and rid <= after_room:
                continue
            entries.append((rid, float(score)))
        full = len(entries) >= count
        entries = entries[:count]
        cursor = f"{entries[-1][1]!r}|{entries[-1][0]}" if full and entries else None
        ids = [rid for rid, _score in entries]
        values = await self._metas(ids, "data" if repair else "status")
        page: list[tuple[str, MetaInfo | None]] = []
        fix: list[Command] = []
        for rid, value in zip(ids, values, strict=True):
            if value is None:
                fix += self._index_ops(rid, None, self._placed.pop(rid, None))
                continue
            info = check_meta(unpack(value)) if repair else None
            if (info is not None and not info.open) or (info is None and value == b"finished"):
                fix += self._index_ops(rid, info, None) if info is not None else [("ZREM", self._open_key, rid)]
                continue
            if info is not None:
                fix += self._index_ops(rid, info, None)
            page.append((rid, info))
        if fix:
            with contextlib.suppress(StoreUnavailable):
                await self._index_now(fix)
        return page, cursor

    async def sweep_open(self, after: str | None, count: int) -> tuple[list[str], str | None]:
        """One page of the sweep over the unfinished rooms: every index entry of each room rewritten from its meta,
        rooms gone or finished dropped. Returns the rooms still open and the next cursor (None: start again)."""
        page, cursor = await self._open_page(after, count, repair=True)
        return [rid for rid, _info in page], cursor

    async def sweep_lobby(self, offset: int, count: int) -> int | None:
        """One page of the sweep over the lobby index (entries of rooms gone, finished or no longer public are
        dropped); the next offset, or None at the end."""
        metas, total = await self.lobby_page(None, offset, count)
        nxt = offset + len(metas)
        return nxt if nxt < total and metas else None

    async def adopt_legacy(self, count: int = 500) -> int:
        """Move up to `count` ids of the set of every room that versions before the indexes kept (``{p}rooms``)
        into the indexes, and out of that set; how many were taken (0: none left). Idempotent: ids taken twice
        (by two nodes) are placed twice. Never on a cluster (those versions could not run on one)."""
        if self.sharded:
            return 0
        key = self._legacy_rooms_key
        async with self._reading():
            _cursor, members = await self.client.sscan(key, 0, count=count)
        ids = sorted({_text(m) for m in members})[:count]
        if not ids:
            return 0
        statuses = await self._metas(ids, "status")
        live = [rid for rid, status in zip(ids, statuses, strict=True) if status not in (None, b"finished")]
        ops: list[Command] = []
        for rid, data in zip(live, await self._metas(live), strict=True):
            if data is not None:
                ops += self._index_ops(rid, check_meta(unpack(data)), None)
        await self._index_now(ops)
        with _unavailable():
            await self.client.srem(key, *ids)
        return len(ids)

    async def take_sweep(self, node: str, ttl_ms: int) -> bool:
        """The sweep lock for `node` (taken, or still held by it and extended): one node sweeps at a time."""
        key = f"{self.prefix}sweep"
        with _unavailable():
            if await self.client.set(key, node, nx=True, px=ttl_ms):
                return True
            if _text(await self.client.get(key)) == node:
                await self.client.pexpire(key, ttl_ms)
                return True
        return False

    # ---- rooms ----------------------------------------------------------------------------------

    async def create_room(self, meta: Meta) -> None:
        info = check_meta(meta)
        # the open index first: a room that exists is in it (an entry whose room was never made is dropped by
        # the reads that meet it)
        if info.open:
            await self._index_now([("ZADD", self._open_key, "NX", info.created_ms, info.room)])
        done = await self._run(
            self._create, self._room_keys(info.room), _meta_args(info), after=self._after(info.room, info),
            room=info.room,
        )  # fmt: skip
        if done == _EXISTS:
            raise ValueError(f"room {info.room!r} already exists")

    async def save_meta(self, room: str, meta: Meta, *, fence: str | None = None) -> None:
        info = check_meta(meta, room)
        keys = [self._key(room, "meta"), *self._fence_keys(room)]
        done = await self._run(
            self._save_meta, keys, [*_meta_args(info), fence or ""], after=self._after(room, info), room=room
        )
        _check_done(room, done, "meta")

    async def append(self, room: str, entry: Entry, meta: Meta, *, fence: str | None = None) -> None:
        info = check_meta(meta, room)
        v, packed = check_entry(entry)
        keys = [*self._room_keys(room), *self._fence_keys(room)]
        args = [*_meta_args(info), v, packed, fence or ""]
        done = await self._run(self._append, keys, args, after=self._after(room, info), room=room)
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
        async with self._reading():
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
        async with self._reading():
            async with self.client.pipeline(transaction=True) as pipe:
                pipe.hget(meta_key, "log_v")
                pipe.xrange(log_key, f"{v}-0", f"{v}-0")
                log_v, found = await pipe.execute()
        if log_v is None:
            raise KeyError(room)
        return int(log_v), unpack(found[0][1][b"e"]) if found else None

    async def full_log(self, room: str) -> list[Entry]:
        """Every stored log entry of the room (all of them only with ``trim_log=False``)."""
        async with self._reading():
            log = await self.client.xrange(self._key(room, "log"), "-", "+")
        return [unpack(fields[b"e"]) for _id, fields in log]

    async def room_ids(self, *, unfinished_only: bool = False) -> list[str]:
        if unfinished_only:
            out: list[str] = []
            cursor: str | None = None
            while True:
                page, cursor = await self.open_rooms(cursor, 1000)
                out += page
                if cursor is None:
                    return sorted(out)
        found: set[str] = set()
        async with self._reading():
            async for key in self.client.scan_iter(match=f"{self.prefix}room:*:meta", count=1000):
                rid = self.room_of_meta_key(_text(key))
                if rid is not None:
                    found.add(rid)
        return sorted(found)

    async def list_public(self) -> list[Meta]:
        out: list[Meta] = []
        offset = 0
        while True:
            metas, total = await self.lobby_page(None, offset, 1000)
            out += metas
            offset += 1000
            if offset >= total or not metas:
                return sorted(out, key=listing_order)

    async def finish(self, room: str, meta: Meta, ttl_seconds: int, *, fence: str | None = None) -> None:
        check_ttl(ttl_seconds, "ttl_seconds")
        info = check_meta({**meta, "status": "finished"}, room)
        keys = [*self._room_keys(room), *self._fence_keys(room)]
        args = [*_meta_args(info), ttl_seconds * 1000, fence or ""]
        if self._placed.get(room) is None:  # its kind (a waiting room closed) must leave quick match's index too
            info_was = await self._metas([room])
            if info_was[0] is not None:
                self._placed[room] = check_meta(unpack(info_was[0])).place()
        done = await self._run(self._finish, keys, args, after=self._after(room, info), room=room)
        _check_done(room, done, "finish")

    async def delete_room(self, room: str) -> None:
        check_room(room)
        data = (await self._metas([room]))[0]
        old = check_meta(unpack(data)).place() if data is not None else self._placed.get(room)
        self._placed.pop(room, None)
        with _unavailable():
            async with self.client.pipeline(transaction=not self.sharded) as pipe:
                pipe.delete(*self._room_keys(room), *self._fence_keys(room))  # (one slot on a cluster)
                await pipe.execute()
        await self._index_now(self._index_ops(room, None, old))

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
            if not self.sharded:
                await self.client.connection_pool.disconnect()
            if self.sentinel is not None:
                await self.sentinel.aclose()

    async def ping(self) -> None:
        with _unavailable():
            await self.client.ping()

    async def get_meta(self, room: str) -> Meta | None:
        check_room(room)
        data = (await self._metas([room]))[0]
        if not isinstance(data, bytes):
            return None
        meta: Meta = unpack(data)
        return meta

    async def mark_seat(self, player: str, room: str, held: bool) -> None:
        key = f"{self.prefix}player:{player}:rooms"
        await self._run(None, [key], ["SADD" if held else "SREM", key, room])

    async def player_rooms(self, player: str) -> list[str]:
        async with self._reading():
            members = await self.client.smembers(f"{self.prefix}player:{player}:rooms")
        return sorted(_text(m) for m in members)

    async def save_session(self, key: str, session: dict[str, Any], ttl_seconds: int) -> None:
        check_ttl(ttl_seconds, "ttl_seconds")
        name = f"{self.prefix}session:{key}"
        await self._run(None, [name], ["SET", name, pack(session), "EX", ttl_seconds])

    async def delete_sessions(self, keys: list[str]) -> None:
        names = [f"{self.prefix}session:{key}" for key in keys]
        await asyncio.gather(*(self._run(None, [name], ["DEL", name]) for name in names))

    async def load_session(self, key: str) -> dict[str, Any] | None:
        async with self._reading():
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
        """Renew many leases: one script per 500 rooms (on a cluster: per slot, at most 500 rooms each), all
        queued at once, so they go in one pipeline per server."""
        check_ttl(ttl_ms, "ttl_ms")
        if self.sharded:
            by_slot: dict[int, list[int]] = {}
            for i, (room, _token) in enumerate(leases):
                by_slot.setdefault(self.client.keyslot(self._lease_key(room)), []).append(i)
            groups = [ids[j : j + 500] for ids in by_slot.values() for j in range(0, len(ids), 500)]
        else:
            groups = [list(range(i, min(i + 500, len(leases)))) for i in range(0, len(leases), 500)]

        async def keep(group: list[int]) -> list[Any]:
            keys = [k for i in group for k in self._fence_keys(leases[i][0])]
            args = [ttl_ms, *(leases[i][1] for i in group)]
            # not waiting for replicas: a renewal lost in a failover only lets another node take the room
            # sooner, and the fencing token keeps this node's writes off it
            return list(await self._run(self._keep, keys, args, replicated=False))

        held = [False] * len(leases)
        for group, got in zip(groups, await asyncio.gather(*(keep(g) for g in groups)), strict=True):
            for i, x in zip(group, got, strict=True):
                held[i] = bool(x)
        return held

    async def refence(self, room: str, token: str, ttl_ms: int) -> str | None:
        check_ttl(ttl_ms, "ttl_ms")
        new = await self._run(self._refence, self._fence_keys(room), [token, ttl_ms])
        return new.decode() if isinstance(new, bytes) else None

    async def release_lease(self, room: str, token: str) -> None:
        await self._run(self._release, self._fence_keys(room), [token])

    async def lease_holder(self, room: str) -> str | None:
        async with self._reading():
            held = await self.client.get(self._lease_key(room))
        return token_node(held.decode()) if isinstance(held, bytes) else None

    async def lease_holders(self, rooms: list[str]) -> list[str | None]:
        """Every room's lease holder, read with one MGET per 500 rooms (on a cluster: GETs in one pipeline)."""
        out: list[str | None] = []
        for i in range(0, len(rooms), 500):
            keys = [self._lease_key(room) for room in rooms[i : i + 500]]
            async with self._reading():
                if self.sharded:
                    async with self.client.pipeline(transaction=False) as pipe:
                        for key in keys:
                            pipe.get(key)
                        held = await pipe.execute()
                else:
                    held = await self.client.mget(keys)
            out.extend(token_node(h.decode()) if isinstance(h, bytes) else None for h in held)
        return out
