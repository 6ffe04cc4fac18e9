"""The whole suite: nodes a test starts (in this process or as `python -m server`) keep their rooms and their
records in memory unless the test names a store or a records database. The server's own default is a SQLite
file (`./data/marcopolo.db`, records in the same file), which tests must not share; `tests/deploy/test_config.py`
checks that default with a node of its own.

PostgreSQL: tests that need it take the `pg_url` fixture, a database of this run's own on the server that
answers at 127.0.0.1:5432 (`.ci/run` makes sure one does; `MARCOPOLO_TEST_PG` names another server), dropped
at the end of the run. Where none answers those tests are skipped, unless `MARCOPOLO_REQUIRE_PG=1` (CI) makes
that a failure.

Redis Cluster: tests that need one take the session fixture `redis_cluster`, six `redis-server` of this run's own
(`tests/faults/cluster_procs.py`), each test under a key prefix of its own.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import os
import secrets
from collections.abc import Iterator
from typing import Any

import pytest

os.environ.setdefault("MARCOPOLO_STORE", "memory")
os.environ.setdefault("MARCOPOLO_RECORDS", "memory")


@pytest.fixture(scope="session")
def redis_cluster() -> Iterator[Any]:
    """A Redis Cluster of this test run's own: six `redis-server` (three primaries, a replica each) on free loopback
    ports, started at its first use and every process stopped by its PID at the end of the run."""
    from tests.faults.cluster_procs import REDIS_CLI, REDIS_SERVER, LocalRedisCluster

    if REDIS_SERVER is None or REDIS_CLI is None:
        pytest.skip("redis-server and redis-cli (redis-tools) are needed for a local Redis Cluster")
    cluster = LocalRedisCluster(fsync="everysec")  # nothing here kills a node (tests/faults start their own)
    try:
        cluster.start()
        yield cluster
    finally:
        cluster.stop()


PG_SERVER = os.environ.get("MARCOPOLO_TEST_PG", "postgresql://postgres@127.0.0.1:5432/postgres")


async def _admin(sql: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(PG_SERVER, timeout=3)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


class PgDatabases:
    """Databases of this test run on the PostgreSQL at `PG_SERVER`: each `new()` one is empty; all are dropped
    at the end of the run."""

    def __init__(self) -> None:
        self.made: list[str] = []
        self.tag = f"mptest_{os.getpid()}_{secrets.token_hex(3)}"

    def new(self) -> str:
        name = f"{self.tag}_{len(self.made)}"
        _admin_sync(f'CREATE DATABASE "{name}"')
        self.made.append(name)
        return f"{PG_SERVER.rsplit('/', 1)[0]}/{name}"

    def drop_all(self) -> None:
        for name in self.made:
            _admin_sync(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _admin_sync(sql: str) -> None:
    """`_admin` from sync code, also while an event loop runs in this thread (async fixtures ask for pg_url)."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, _admin(sql)).result()


@pytest.fixture(scope="session")
def pg_databases() -> Iterator[PgDatabases]:
    made = PgDatabases()
    try:
        _admin_sync("SELECT 1")
    except Exception as err:  # noqa: BLE001 - refused, timed out, no such role: no PostgreSQL here
        if os.environ.get("MARCOPOLO_REQUIRE_PG") == "1":
            pytest.fail(f"no PostgreSQL at {PG_SERVER}: {err}")
        pytest.skip(f"no PostgreSQL at {PG_SERVER}: {err}")
    try:
        yield made
    finally:
        made.drop_all()


@pytest.fixture
def pg_url(pg_databases: PgDatabases) -> str:
    """A new, empty PostgreSQL database of this test run (dropped at the end of the run): its url."""
    return pg_databases.new()
