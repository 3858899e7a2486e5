"""The repository on PostgreSQL (asyncpg), selected by `PARLEY_DB=postgresql://...` or `--db`.

The statements are SQLite's (`sqlite.SqliteRepo`), run through a small dialect layer: `?`
becomes `$n`, the column `window` (reserved here) is quoted, `INSERT OR IGNORE` becomes
`ON CONFLICT DO NOTHING` and an INSERT into a table with an `id` returns it. The few
statements that differ more (upserts, LEAST, the begin order of deliveries) are overridden
below. Migrations: `migrations_pg/`, numbered as `migrations/` (a test checks).

Same guarantees as SQLite: one connection, every statement under one asyncio lock, so a
transaction is serialised with every other one of this process; one Parley per schema (a
session advisory lock, dropped by the server when the process dies); a submission is
acknowledged after COMMIT returns (synchronous_commit on, except `durable=False`).
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import re
import time
from collections.abc import AsyncIterator, Iterable, Iterator
from contextlib import asynccontextmanager, contextmanager
from importlib.resources import files
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any, cast
from urllib.parse import urlsplit, urlunsplit

import asyncpg

from bot.service.errors import StoreError, StoreUnavailableError
from bot.service.storage.connection import Store, Tx
from bot.service.storage.sqlite import SqliteRepo

log = logging.getLogger("parley.store")

MIGRATIONS_DIR: Traversable = files("bot.service.storage") / "migrations_pg"
LOCK_WAIT_SECONDS = 5.0  # a restart right after a crash: the server may not have seen it yet

_ID_TABLES = {"games", "phases", "submissions", "outbox", "audit", "tournaments"}
_WINDOW = re.compile(r"\bwindow\b")
_INSERT_INTO = re.compile(r"^\s*INSERT\s+INTO\s+(\w+)", re.IGNORECASE)
# Failures of the server or the link, not of Parley: the request changed nothing.
_UNAVAILABLE: tuple[type[BaseException], ...] = (
    OSError,
    asyncio.TimeoutError,
    asyncpg.exceptions.PostgresConnectionError,
    asyncpg.exceptions.InsufficientResourcesError,
    asyncpg.exceptions.ReadOnlySQLTransactionError,
    asyncpg.exceptions.OperatorInterventionError,
    asyncpg.exceptions.InterfaceError,
    asyncpg.exceptions.InternalClientError,  # e.g. a connection the server just killed
)


def redacted(dsn: str) -> str:
    """The DSN without its password (for messages and logs)."""
    parts = urlsplit(dsn)
    if parts.password is None:
        return dsn
    host = parts.netloc.rsplit("@", 1)[1]
    user = parts.username or ""
    return urlunsplit(parts._replace(netloc=f"{user}:***@{host}"))


def migrations() -> list[tuple[int, str, str]]:
    """(number, file name, SQL) for every `NNNN_name.sql` of `migrations_pg/`, in order."""
    out = []
    for path in sorted(MIGRATIONS_DIR.iterdir(), key=lambda p: p.name):
        m = re.fullmatch(r"(\d{4})_[a-z0-9_]+\.sql", path.name)
        if m:
            out.append((int(m.group(1)), path.name, path.read_text(encoding="utf-8")))
    return out


_SQL_CACHE: dict[str, str] = {}


def translate(sql: str) -> str:
    """SQLite's statement in PostgreSQL's dialect (see the module docstring)."""
    cached = _SQL_CACHE.get(sql)
    if cached is not None:
        return cached
    pieces = sql.split("?")
    out = pieces[0] + "".join(f"${i}{piece}" for i, piece in enumerate(pieces[1:], 1))
    out = _WINDOW.sub('"window"', out)
    if out.lstrip().upper().startswith("INSERT OR IGNORE"):
        out = out.replace("INSERT OR IGNORE", "INSERT", 1) + " ON CONFLICT DO NOTHING"
    m = _INSERT_INTO.match(out)
    if m and m.group(1) in _ID_TABLES and "RETURNING" not in out.upper():
        out += " RETURNING id"
    _SQL_CACHE[sql] = out
    return out


@contextmanager
def storage_errors(store: PgStore) -> Iterator[None]:
    """A failure of the server or the link: the player's "not saved", and the connection is
    dropped (whatever state it is in) so that the next request opens a new one."""
    try:
        yield
    except _UNAVAILABLE as exc:
        log.error("database %s: %s (%s): nothing was saved", store.where, exc, type(exc).__name__)
        store.conn.terminate()
        raise StoreUnavailableError.of("store_unavailable") from exc


class PgTx:
    """The statements of one open transaction (the interface of `connection.Tx`)."""

    def __init__(self, conn: asyncpg.Connection) -> None:
        self._conn = conn

    async def execute(self, sql: str, params: Iterable[Any] = ()) -> int:
        """Run a statement; returns the new row's id (INSERT with an id) or the row count."""
        pg = translate(sql)
        if pg.endswith(" RETURNING id"):
            value = await self._conn.fetchval(pg, *params)
            return 0 if value is None else int(value)
        status = await self._conn.execute(pg, *params)
        last = str(status).rsplit(" ", 1)[-1]
        return int(last) if last.isdigit() else 0

    async def fetchone(self, sql: str, params: Iterable[Any] = ()) -> Any:
        return await self._conn.fetchrow(translate(sql), *params)

    async def fetchall(self, sql: str, params: Iterable[Any] = ()) -> list[Any]:
        return list(await self._conn.fetch(translate(sql), *params))


class PgStore:
    """One connection; reads outside a transaction under the same lock as transactions."""

    def __init__(
        self, conn: asyncpg.Connection, dsn: str, server_settings: dict[str, str] | None
    ) -> None:
        self.conn = conn  # tests and maintenance only
        self.dsn = dsn
        self.server_settings = server_settings
        self.where = redacted(dsn)
        self.lock = asyncio.Lock()
        self.closed = False

    async def connection(self) -> asyncpg.Connection:
        """The connection; a lost one (server restart, network) is replaced on next use, its
        schema lock taken again (the request that saw it fail was answered "not saved")."""
        if self.conn.is_closed() and not self.closed:
            log.warning("database %s: connection lost; reconnecting", self.where)
            conn = await asyncpg.connect(self.dsn, server_settings=self.server_settings, timeout=10)
            try:
                await _lock_schema(conn, self.where)
            except BaseException:
                conn.terminate()
                raise
            self.conn = conn
        return self.conn

    async def fetchone(self, sql: str, params: Iterable[Any] = ()) -> Any:
        async with self.lock:
            with storage_errors(self):
                conn = await self.connection()
                return await conn.fetchrow(translate(sql), *params)

    async def fetchall(self, sql: str, params: Iterable[Any] = ()) -> list[Any]:
        async with self.lock:
            with storage_errors(self):
                conn = await self.connection()
                return list(await conn.fetch(translate(sql), *params))


class PgRepo(SqliteRepo):
    """SQLite's statements on PostgreSQL, and the few that differ."""

    def __init__(self, db: PgStore | PgTx) -> None:
        # The dialect layer has the interface of Store / Tx (duck-typed).
        super().__init__(cast(Store | Tx, db))

    def _tx(self) -> Tx:
        if not isinstance(self._db, PgTx):
            raise TypeError("writes go through `async with storage.tx() as tx`")
        return cast(Tx, self._db)

    async def deadline_now(self, phase_id: int, at: float) -> None:
        await self._tx().execute(
            "UPDATE phases SET deadline = ?, writing_at = LEAST(writing_at, ?)"
            " WHERE id = ? AND status = 'open'",
            (at, at, phase_id),
        )

    async def set_ready(self, phase_id: int, power: str, at: float | None) -> None:
        if at is None:
            await super().set_ready(phase_id, power, at)
            return
        await self._tx().execute(
            "INSERT INTO ready (phase_id, power, at) VALUES (?,?,?)"
            " ON CONFLICT (phase_id, power) DO UPDATE SET at = EXCLUDED.at",
            (phase_id, power, at),
        )

    async def record_post(  # noqa: PLR0917 - the columns of a posted message
        self, event_id: int, dest: str, part: int, message_id: str, at: float, last: bool
    ) -> None:
        tx = self._tx()
        await tx.execute(
            "INSERT INTO delivered_messages (event_id, dest, part, message_id, posted_at)"
            " VALUES (?,?,?,?,?) ON CONFLICT (event_id, dest, part) DO UPDATE SET"
            " message_id = EXCLUDED.message_id, posted_at = EXCLUDED.posted_at",
            (event_id, dest, part, message_id, at),
        )
        if last:
            await tx.execute(
                "UPDATE deliveries SET delivered_at=? WHERE event_id=? AND dest=?",
                (at, event_id, dest),
            )

    async def delivery_dests(self, event_id: int) -> list[str]:
        rows = await self._db.fetchall(
            "SELECT dest FROM deliveries WHERE event_id=? ORDER BY started_at, seq", (event_id,)
        )
        return [r["dest"] for r in rows]

    async def save_votebook(self, game_id: int, state_json: str, at: float) -> None:
        await self._tx().execute(
            "INSERT INTO votebooks (game_id, state_json, updated_at) VALUES (?,?,?)"
            " ON CONFLICT (game_id) DO UPDATE SET state_json = EXCLUDED.state_json,"
            " updated_at = EXCLUDED.updated_at",
            (game_id, state_json, at),
        )


class PgStorage(PgRepo):
    """The repository on one PostgreSQL schema (the connection's `search_path`)."""

    def __init__(self, store: PgStore, dsn: str) -> None:
        super().__init__(store)
        self.store = store
        self.dsn = dsn

    @classmethod
    async def open(cls, dsn: str, *, server_settings: dict[str, str] | None = None) -> PgStorage:
        """Connect, take the schema's lock, migrate, check a write. (No `init`: an empty
        schema is a new database; there is no file to lose.)"""
        where = redacted(dsn)
        try:
            conn = await asyncpg.connect(dsn, server_settings=server_settings, timeout=10)
        except (TimeoutError, OSError, asyncpg.PostgresError) as exc:
            raise StoreError(
                f"cannot connect to PostgreSQL at {where} ({exc}); check the server is "
                "running and PARLEY_DB (or --db)"
            ) from None
        store = PgStore(conn, dsn, server_settings)
        try:
            await _check_schema(conn, where)
            await _lock_schema(conn, where)
            await _migrate(conn, where)
            await _check_writable(conn, where)
        except BaseException:
            conn.terminate()
            raise
        return cls(store, dsn)

    @property
    def path(self) -> Path:
        return Path(self.store.where)

    @asynccontextmanager
    async def tx(self, *, durable: bool = True) -> AsyncIterator[PgRepo]:
        """One transaction; `durable=False`: synchronous_commit off (a crash of the server
        may undo it, never one of Parley)."""
        async with self.store.lock:
            with storage_errors(self.store):
                conn = await self.store.connection()
                async with conn.transaction():
                    if not durable:
                        await conn.execute("SET LOCAL synchronous_commit = off")
                    yield PgRepo(PgTx(conn))

    async def close(self) -> None:
        async with self.store.lock:
            self.store.closed = True
            if not self.store.conn.is_closed():
                await self.store.conn.close()


async def _check_schema(conn: asyncpg.Connection, where: str) -> None:
    names = {
        r["table_name"]
        for r in await conn.fetch(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()"
        )
    }
    if names and "schema_version" not in names:
        shown = ", ".join(sorted(names)[:5])
        raise StoreError(
            f"{where} is a PostgreSQL schema but not Parley's (tables: {shown}); nothing was "
            "changed: give Parley its own database or schema"
        )


async def _lock_schema(conn: asyncpg.Connection, where: str) -> None:
    """One Parley per schema, as SQLite's lock file: the server drops a session's lock when
    its connection ends (a process death included)."""
    waited = 0.0
    while True:
        got = await conn.fetchval(
            "SELECT pg_try_advisory_lock(hashtext('parley:' || current_schema()))"
        )
        if got:
            return
        if waited >= LOCK_WAIT_SECONDS:
            raise StoreError(
                f"another Parley is using {where}; stop it first, or give this one another "
                "database (--db or PARLEY_DB)"
            )
        await asyncio.sleep(0.1)
        waited += 0.1


async def _migrate(conn: asyncpg.Connection, where: str) -> None:
    await conn.execute(
        "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY,"
        " name TEXT NOT NULL, applied_at DOUBLE PRECISION NOT NULL)"
    )
    current = int(await conn.fetchval("SELECT COALESCE(MAX(version), 0) FROM schema_version"))
    known = migrations()
    if current > len(known):
        raise StoreError(
            f"{where} has schema version {current}, newer than this Parley ({len(known)}); "
            "upgrade Parley"
        )
    for number, name, sql in known[current:]:
        try:
            async with conn.transaction():
                await conn.execute(sql)
                await conn.execute(
                    "INSERT INTO schema_version VALUES ($1, $2, $3)", number, name, time.time()
                )
        except asyncpg.PostgresError as exc:
            raise StoreError(f"migration {name} failed on {where}: {exc}") from None


async def _check_writable(conn: asyncpg.Connection, where: str) -> None:
    stamp = json.dumps({"pid": os.getpid(), "at": time.time()})
    try:
        await conn.execute(
            "INSERT INTO parley_meta (key, value) VALUES ('last_open', $1)"
            " ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value",
            stamp,
        )
    except asyncpg.PostgresError as exc:
        raise StoreError(
            f"{where} cannot be written ({exc}): check the user's privileges and the server's disk"
        ) from None
