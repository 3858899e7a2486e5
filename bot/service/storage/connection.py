"""The SQLite store: one aiosqlite connection, WAL, synchronous=FULL for durable commits,
foreign keys, explicit `BEGIN IMMEDIATE` transactions, numbered migrations from
`bot/service/storage/migrations/`.

Opening checks the file before writing anything to it: a file that is not SQLite, or a SQLite
database that is not Parley's (tables but no `schema_version`), or one migrated by a newer
Parley, or one failing SQLite's integrity check, or an existing empty file (unless `init`),
or a file another Parley holds (`<db>.lock`), is a `StoreError` and the file is left
untouched. Then a first write checks that the file can be written at all. Storage failures
later on (full disk, read-only, I/O error) raise `StoreUnavailableError` (see `dbfile`).
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import sqlite3
import time
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager, suppress
from importlib.resources import files
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

import aiosqlite

from bot.service.errors import StoreError
from bot.service.storage import dbfile

MIGRATIONS_DIR: Traversable = files("bot.service.storage") / "migrations"  # wheel package data
DEFAULT_DB = "parley.db"


def default_db_path() -> Path:
    """`PARLEY_DB` if set, else `parley.db` in the working directory."""
    return Path(os.environ.get("PARLEY_DB") or DEFAULT_DB)


def migrations() -> list[tuple[int, str, str]]:
    """(number, file name, SQL) for every `NNNN_name.sql`, in order."""
    out = []
    sql = (p for p in MIGRATIONS_DIR.iterdir() if p.name.endswith(".sql"))
    for path in sorted(sql, key=lambda p: p.name):
        m = re.fullmatch(r"(\d{4})_[a-z0-9_]+\.sql", path.name)
        if not m:
            raise StoreError(f"bad migration file name {path.name} (want NNNN_name.sql)")
        out.append((int(m.group(1)), path.name, path.read_text(encoding="utf-8")))
    check_numbers([n for n, _, _ in out])
    return out


def check_numbers(numbers: list[int]) -> None:
    """Numbered from 0001, each number once. A gap is allowed: branches written side by side
    take their numbers in advance (0005, 0006, 0007) and may land in any order; each
    migration is applied by its number (see `pending`)."""
    if numbers[:1] != [1] or len(set(numbers)) != len(numbers):
        raise StoreError(f"migrations must be numbered 0001, 0002, ..., each once: {numbers}")


def pending(
    known: list[tuple[int, str, str]], applied: set[int], where: object
) -> list[tuple[int, str, str]]:
    """The known migrations not yet applied; refused if the database has one this Parley
    does not know (it comes from a newer Parley)."""
    numbers = {n for n, _, _ in known}
    newer = sorted(applied - numbers)
    if newer:
        raise StoreError(
            f"{where} has schema version {newer[-1]}, newer than this Parley "
            f"({max(numbers, default=0)}); upgrade Parley"
        )
    return [m for m in known if m[0] not in applied]


class Store:
    """A serialised connection: every statement runs under one asyncio lock, so a transaction
    of one task never interleaves with another task's statements."""

    def __init__(
        self, conn: aiosqlite.Connection, path: Path, file_lock: dbfile.FileLock | None = None
    ) -> None:
        self._conn = conn
        self.path = path
        self._lock = asyncio.Lock()
        self._file_lock = file_lock
        self._full_check_later = False

    # --- opening ----------------------------------------------------------------------

    @classmethod
    async def open(cls, path: str | os.PathLike[str] | None = None, *, init: bool = False) -> Store:
        """`init`: an existing empty file may start a new database (else it is refused)."""
        db_path = Path(path) if path is not None else default_db_path()
        if db_path.exists() and db_path.is_dir():
            raise StoreError(f"database path {db_path} is a directory")
        file_lock = dbfile.FileLock(db_path)
        file_lock.acquire()
        try:
            store = await cls._open_locked(db_path, file_lock, init)
        except BaseException:
            file_lock.release()
            raise
        if store._full_check_later:
            dbfile.full_check_in_background(db_path)
        return store

    @classmethod
    async def _open_locked(cls, db_path: Path, file_lock: dbfile.FileLock, init: bool) -> Store:
        dbfile.refuse_empty(db_path, init)
        try:
            pending = aiosqlite.connect(db_path, isolation_level=None)
            # aiosqlite's worker thread is not a daemon: a process that dies of an exception
            # without closing the store would hang at exit. Dying is safe (WAL recovery).
            worker = getattr(pending, "_thread", None)
            if worker is not None:
                worker.daemon = True
            conn = await pending
        except (sqlite3.Error, OSError) as exc:
            raise StoreError(f"cannot open database {db_path}: {exc}") from None
        conn.row_factory = aiosqlite.Row
        store = cls(conn, db_path, file_lock)
        try:
            await store._check_file()
            await conn.execute("PRAGMA journal_mode=WAL")
            await conn.execute("PRAGMA synchronous=FULL")
            await conn.execute("PRAGMA foreign_keys=ON")
            await conn.execute("PRAGMA busy_timeout=5000")
            await store._migrate()
            await store._check_writable()
            # At rest NORMAL: a durable transaction sets FULL around itself (`tx`); most
            # transactions at a deadline are not durable, and each PRAGMA is a round trip.
            await conn.execute("PRAGMA synchronous=NORMAL")
        except sqlite3.DatabaseError as exc:
            await conn.close()
            raise StoreError(f"{db_path} is not a usable SQLite database ({exc})") from None
        except BaseException:
            await conn.close()
            raise
        return store

    async def _check_file(self) -> None:
        """Read-only checks before any write (PRAGMA journal_mode=WAL writes the header)."""
        try:
            cur = await self._conn.execute("SELECT name FROM sqlite_master WHERE type='table'")
            names = {r[0] for r in await cur.fetchall()}
        except sqlite3.DatabaseError as exc:
            raise StoreError(
                f"{self.path} is not a SQLite database or is corrupt ({exc}); "
                "nothing was changed: move it away or set PARLEY_DB to another file"
            ) from None
        if names and "schema_version" not in names:
            shown = ", ".join(sorted(names)[:5])
            raise StoreError(
                f"{self.path} is a SQLite database but not Parley's (tables: {shown}); "
                "nothing was changed: set PARLEY_DB to another file"
            )
        if names:
            # The full check also compares every index with its table; on a big file it
            # runs after start, in the background (see dbfile).
            size = self.path.stat().st_size
            full = size <= dbfile.FULL_CHECK_MAX_BYTES
            check = "integrity_check" if full else "quick_check"
            cur = await self._conn.execute(f"PRAGMA {check}")
            rows = list(await cur.fetchall())
            if [tuple(r) for r in rows] != [("ok",)]:
                raise dbfile.corrupt_error(self.path, check.replace("_", " "), rows)
            self._full_check_later = not full

    async def _check_writable(self) -> None:
        """A read-only file or a full disk fails here, at start, not on a player's orders."""
        stamp = json.dumps({"pid": os.getpid(), "at": time.time()})
        try:
            await self._conn.execute("BEGIN IMMEDIATE")
            await self._conn.execute(
                "INSERT OR REPLACE INTO parley_meta (key, value) VALUES ('last_open', ?)",
                (stamp,),
            )
            await self._conn.execute("COMMIT")
        except sqlite3.Error as exc:
            await self._rollback_quietly()
            raise StoreError(
                f"{self.path} cannot be written ({exc}): check that the file and its directory "
                "are writable by the user running Parley and that the disk has free space"
            ) from None

    async def _migrate(self) -> None:
        await self._conn.execute(
            "CREATE TABLE IF NOT EXISTS schema_version ("
            "version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at REAL NOT NULL)"
        )
        cur = await self._conn.execute("SELECT version FROM schema_version")
        applied = {int(r[0]) for r in await cur.fetchall()}
        for number, name, sql in pending(migrations(), applied, self.path):
            script = (
                "BEGIN IMMEDIATE;\n"
                f"{sql}\n"
                f"INSERT INTO schema_version VALUES ({number}, '{name}', {time.time()!r});\n"
                "COMMIT;"
            )
            try:
                await self._conn.executescript(script)
            except sqlite3.Error as exc:
                await self._rollback_quietly()
                raise StoreError(f"migration {name} failed: {exc}") from None

    async def _rollback_quietly(self) -> None:
        with suppress(sqlite3.Error):
            await self._conn.execute("ROLLBACK")

    async def schema_version(self) -> int:
        row = await self.fetchone("SELECT MAX(version) FROM schema_version")
        return int(row[0]) if row and row[0] is not None else 0

    async def close(self) -> None:
        async with self._lock:
            await self._conn.close()
        self.release_file_lock()

    def release_file_lock(self) -> None:
        """Let another Parley open the file (close does it; a process death does it too)."""
        if self._file_lock is not None:
            self._file_lock.release()

    # --- statements -------------------------------------------------------------------

    @asynccontextmanager
    async def tx(self, *, durable: bool = True) -> AsyncIterator[Tx]:
        """`BEGIN IMMEDIATE` ... `COMMIT`; any exception rolls back (as a crash would).

        `durable=False` commits with synchronous=NORMAL: safe against a process crash (the
        WAL is written before COMMIT returns) but not fsynced until the next durable commit,
        so a power cut may undo it. Only for writes that are harmless to redo: closing a
        phase whose deadline has passed, marking an event delivered (a repeat carries the
        same key)."""
        async with self._lock:
            with dbfile.storage_errors(self.path):
                if durable:
                    await self._conn.execute("PRAGMA synchronous=FULL")
                try:
                    try:
                        await self._conn.execute("BEGIN IMMEDIATE")
                    except BaseException:
                        # Cancelled with BEGIN in flight: the connection's thread still runs
                        # it, and an open transaction would stay for the next caller.
                        await self._rollback_quietly()
                        raise
                    try:
                        yield Tx(self._conn)
                    except BaseException:
                        await self._rollback_quietly()
                        raise
                    try:
                        await self._conn.execute("COMMIT")
                    except sqlite3.Error:
                        await self._rollback_quietly()
                        raise
                finally:
                    if durable:
                        await self._conn.execute("PRAGMA synchronous=NORMAL")

    async def fetchone(self, sql: str, params: Iterable[Any] = ()) -> sqlite3.Row | None:
        async with self._lock:
            with dbfile.storage_errors(self.path):
                cur = await self._conn.execute(sql, tuple(params))
                return await cur.fetchone()

    async def fetchall(self, sql: str, params: Iterable[Any] = ()) -> list[sqlite3.Row]:
        async with self._lock:
            with dbfile.storage_errors(self.path):
                cur = await self._conn.execute(sql, tuple(params))
                return list(await cur.fetchall())


class Tx:
    """The statements of one open transaction."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn

    async def execute(self, sql: str, params: Iterable[Any] = ()) -> int:
        """Run a statement; returns lastrowid (for INSERT) or rowcount."""
        cur = await self._conn.execute(sql, tuple(params))
        if sql.lstrip().upper().startswith("INSERT"):
            return int(cur.lastrowid or 0) if cur.rowcount else 0
        return int(cur.rowcount)

    async def fetchone(self, sql: str, params: Iterable[Any] = ()) -> sqlite3.Row | None:
        cur = await self._conn.execute(sql, tuple(params))
        return await cur.fetchone()

    async def fetchall(self, sql: str, params: Iterable[Any] = ()) -> list[sqlite3.Row]:
        cur = await self._conn.execute(sql, tuple(params))
        return list(await cur.fetchall())
