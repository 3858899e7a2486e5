"""The PostgreSQL half of the service tests: a real server, one fresh schema per test.

`PARLEY_TEST_PG` names the server (default: the local one, trust auth, database `test`).
Without a reachable server the PostgreSQL tests FAIL with the reason: they are never skipped."""

from __future__ import annotations

import os
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import asyncpg
import pytest

DEFAULT_DSN = "postgresql://postgres@127.0.0.1:5432/test"


def dsn() -> str:
    return os.environ.get("PARLEY_TEST_PG") or DEFAULT_DSN


async def connect() -> asyncpg.Connection:
    try:
        return await asyncpg.connect(dsn(), timeout=5)
    except (OSError, TimeoutError, asyncpg.PostgresError) as exc:
        pytest.fail(
            f"PostgreSQL tests need a server: cannot connect to {dsn()} ({exc}). Start one "
            "(see README, 'Tests on PostgreSQL') or point PARLEY_TEST_PG at one",
            pytrace=False,
        )


@asynccontextmanager
async def fresh_schema() -> AsyncIterator[str]:
    """A new empty schema, dropped afterwards (with everything in it)."""
    name = f"t_{uuid.uuid4().hex[:16]}"
    admin = await connect()
    try:
        await admin.execute(f"CREATE SCHEMA {name}")
        try:
            yield name
        finally:
            # A test's connections may still hold locks: drop them first.
            await admin.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE pid <> pg_backend_pid() AND application_name = $1",
                name,
            )
            await admin.execute(f"DROP SCHEMA {name} CASCADE")
    finally:
        await admin.close()


def settings(schema: str) -> dict[str, str]:
    """The connection settings that put a storage in `schema` (and name it, for the drop)."""
    return {"search_path": schema, "application_name": schema}
