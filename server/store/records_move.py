"""Moving the records an earlier version kept in Redis into the records database, once.

Owns: reading the old Redis layout under a store's key prefix `{p}` and writing it through `Records`:
- `{p}ratings:{game}`: HASH player -> packed `{mu, sigma, games, name}` (a row the database has already, written
  by a node of this version, is newer and stays);
- `{p}history`: LIST of packed game records, newest first (archived by room: a game already there stays);
- `{p}chat:{room}` (`{p}chat:-lobby` for the lobby): LIST of packed lines (moved for a room with no lines yet);
- `{p}rematch:{room}`: STRING, the rematch of a finished room.
The old keys stay (the operator deletes them after checking); `{p}records:moved` says it was done, and
`{p}records:moving` (expiring) keeps two nodes that start together from moving at once.
Must not: run when the records live in memory (nothing would last) or touch live room keys.
"""

from __future__ import annotations

import contextlib
import logging
from typing import Any

from redis.exceptions import RedisError

from server.store.base import StoreUnavailable
from server.store.records import Records, unpack
from server.store.redis import RedisStore

log = logging.getLogger("marcopolo.records")

#: how long one node may take to move the records before another may try
MOVING_SECONDS = 300


def _text(raw: Any) -> str:
    return raw.decode() if isinstance(raw, bytes) else str(raw)


async def move_redis_records(store: RedisStore, records: Records, node: str = "") -> dict[str, int] | None:
    """Move the records kept in Redis under the store's prefix into `records`, unless done already.

    Returns what was moved (counts), or None when it was done before or another node is doing it."""
    r, p = store.client, store.prefix
    holding = False  # the lock, until the move is done or failed
    try:
        if await r.exists(f"{p}records:moved"):
            return None
        if not await r.set(f"{p}records:moving", node or "?", nx=True, ex=MOVING_SECONDS):
            return None
        holding = True
        if await r.exists(f"{p}records:moved"):  # another node finished the move between our two reads
            return None
        counts = {"ratings": 0, "games": 0, "chat": 0, "rematch": 0}
        async for key in r.scan_iter(match=f"{p}ratings:*", count=500):
            game = _text(key)[len(f"{p}ratings:") :]
            rows = {_text(k): unpack(v) for k, v in (await r.hgetall(key)).items()}
            await records.put_ratings(game, rows, replace=False)
            counts["ratings"] += len(rows)
        for packed in reversed(await r.lrange(f"{p}history", 0, -1)):  # oldest first: the archive's order
            rec = unpack(packed)
            players = [str(x) for x in rec.pop("_players", [])]
            if await records.finish_game(rec, players):
                counts["games"] += 1
        async for key in r.scan_iter(match=f"{p}chat:*", count=500):
            room = _text(key)[len(f"{p}chat:") :]
            where = None if room == "-lobby" else room
            if await records.has_chat(where):
                continue
            for packed in await r.lrange(key, 0, -1):
                await records.add_chat(where, unpack(packed))
                counts["chat"] += 1
        async for key in r.scan_iter(match=f"{p}rematch:*", count=500):
            new = await r.get(key)
            if new is not None:
                await records.set_rematch(_text(key)[len(f"{p}rematch:") :], _text(new))
                counts["rematch"] += 1
        await r.set(f"{p}records:moved", node or "?")
        await r.delete(f"{p}records:moving")
        holding = False
    except (RedisError, OSError) as err:
        raise StoreUnavailable(str(err)) from err
    finally:
        if holding:  # failed half-way (Redis or the records database down): the next start moves the rest at once
            with contextlib.suppress(RedisError, OSError):
                await r.delete(f"{p}records:moving")
    log.info("moved the records kept in Redis into the records database: %s", counts)
    return counts


__all__ = ["move_redis_records"]
