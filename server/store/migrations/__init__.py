"""Alembic migrations of the records database (`server.store.records_sql` runs them at start-up)."""
