"""Alembic environment of the records database: always run by the server on a connection it opened
(`server.store.records_sql.upgrade`), never from a URL in a config file."""

from __future__ import annotations

from alembic import context

from server.store.records_sql import VERSION_TABLE

connection = context.config.attributes["connection"]
context.configure(connection=connection, version_table=VERSION_TABLE, render_as_batch=False)
with context.begin_transaction():
    context.run_migrations()
