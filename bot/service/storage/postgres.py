"""The repository on PostgreSQL (asyncpg), selected by `PARLEY_DB=postgresql://...` or `--db`.

The statements are SQLite's (`sqlite.SqliteRepo`), run through a small dialect layer: `?`
becomes `$n`, the column `window` (reserved here) is quoted, `INSERT OR IGNORE` becomes
`ON CONFLICT DO NOTHING` and an INSERT into a table with an `id` returns it. The few
statements that differ more (upserts, LEAST, the begin order of deliveries) are overridden
below. Migrations: `migrations_pg/`, numbered as `migrations/` (a test checks).

Same guarantees as SQLite: one connection, every statement under one asyncio lock, so a
transaction is serialised with every other one of this process; a submission is acknowledged
after COMMIT returns (synchronous_commit on, except `durable=False`).

Several processes may share a schema (issue 17, `claims.py`): a phase read inside a
transaction is locked (`FOR UPDATE`), so an order saved by one process and the closing of
the phase by another are serialised; a game's lock is a session advisory lock (dropped by the
server when the process dies); a claim is one upsert (see `claims.py`); a change to a
game's times is announced on the channel `parley_<schema>` (NOTIFY), heard on a second
connection (LISTEN). Migrations run under an advisory lock: processes starting together
migrate once.
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
from bot.service.storage.claims import GameChanged
from bot.service.storage.connection import Store, Tx, check_numbers, pending
from bot.service.storage.rows import PhaseRow
from bot.service.storage.sqlite import SqliteRepo, phase_row

log = logging.getLogger("parley.store")

MIGRATIONS_DIR: Traversable = files("bot.service.storage") / "migrations_pg"

_ID_TABLES = {"games", "phases", "submissions", "outbox", "audit", "tournaments", "early_orders"}
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
    check_numbers([n for n, _, _ in out])
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
        """The connection; a lost one (server restart, network) is replaced on next use (the
        request that saw it fail was answered "not saved"; its game locks went with it, and
        the rows' own locks still serialise what matters)."""
        if self.conn.is_closed() and not self.closed:
            log.warning("database %s: connection lost; reconnecting", self.where)
            self.conn = await asyncpg.connect(
                self.dsn, server_settings=self.server_settings, timeout=10
            )
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

    async def phase(self, phase_id: int) -> PhaseRow | None:
        if not isinstance(self._db, PgTx):
            return await super().phase(phase_id)
        # In a transaction the row is locked: another process's close, commit or saved order
        # on this phase waits for this transaction (and then reads what it wrote).
        row = await self._db.fetchone("SELECT * FROM phases WHERE id = ? FOR UPDATE", (phase_id,))
        return None if row is None else phase_row(row)

    async def current_phase(self, game_id: int) -> PhaseRow | None:
        if not isinstance(self._db, PgTx):
            return await super().current_phase(game_id)
        row = await self._db.fetchone(
            "SELECT p.* FROM phases p JOIN games g ON g.current_phase_id = p.id WHERE g.id = ?"
            " FOR UPDATE OF p",
            (game_id,),
        )
        return None if row is None else phase_row(row)

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

    def __init__(self, store: PgStore, dsn: str, schema: str = "public") -> None:
        super().__init__(store)
        self.store = store
        self.dsn = dsn
        self.channel = f"parley_{schema}"  # NOTIFY's channels span the database: one per schema
        self._listener: asyncpg.Connection | None = None

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
            await _migrate(conn, where)
            await _check_writable(conn, where)
            schema = str(await conn.fetchval("SELECT current_schema()"))
        except BaseException:
            conn.terminate()
            raise
        return cls(store, dsn, schema)

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
        if self._listener is not None and not self._listener.is_closed():
            await self._listener.close()

    # --- coordination between processes (claims.Coordination) ------------------------

    @property
    def shared(self) -> bool:
        return True

    async def lock_game(self, game_id: int) -> bool:
        got = await self.store.fetchone(
            "SELECT pg_try_advisory_lock(hashtext('parley:' || current_schema()), ?) AS got",
            (game_id,),
        )
        return bool(got["got"])

    async def unlock_game(self, game_id: int) -> None:
        if self.store.conn.is_closed():
            return  # (the server dropped the lock with the connection)
        await self.store.fetchone(
            "SELECT pg_advisory_unlock(hashtext('parley:' || current_schema()), ?)", (game_id,)
        )

    async def announce(self, game_id: int, sender: str, due: float | None) -> None:
        when = "" if due is None else repr(due)
        await self.store.fetchone(
            "SELECT pg_notify(?, ?)", (self.channel, f"{game_id}|{sender}|{when}")
        )

    async def listen(self, on_change: GameChanged) -> None:
        """LISTEN on a connection of its own (a listening connection must stay idle)."""

        def heard(_conn: object, _pid: int, _channel: str, payload: str) -> None:
            game, sender, when = [*payload.split("|"), "", "", ""][:3]
            try:
                due = float(when) if when else None
            except ValueError:
                return
            if game.isdigit():
                on_change(int(game), sender, due)

        try:
            conn = await asyncpg.connect(
                self.dsn, server_settings=self.store.server_settings, timeout=10
            )
            await conn.add_listener(self.channel, heard)
        except _UNAVAILABLE as exc:
            # Without notices the other processes' changes are seen at the next due time.
            log.warning("database %s: cannot listen for other processes: %s", self.store.where, exc)
            return
        self._listener = conn


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


async def _migrate(conn: asyncpg.Connection, where: str) -> None:
    # Processes starting together: one migrates, the others wait and find it done.
    await conn.execute("SELECT pg_advisory_lock(hashtext('parley-migrate:' || current_schema()))")
    try:
        await _migrate_locked(conn, where)
    finally:
        await conn.execute(
            "SELECT pg_advisory_unlock(hashtext('parley-migrate:' || current_schema()))"
        )


async def _migrate_locked(conn: asyncpg.Connection, where: str) -> None:
    await conn.execute(
        "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY,"
        " name TEXT NOT NULL, applied_at DOUBLE PRECISION NOT NULL)"
    )
    applied = {int(r["version"]) for r in await conn.fetch("SELECT version FROM schema_version")}
    for number, name, sql in pending(migrations(), applied, where):
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
