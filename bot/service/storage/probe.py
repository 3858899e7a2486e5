"""`parley doctor`'s look at a database, read-only and beside a running bot: does it answer,
which migrations are applied against those this Parley knows, how big it is and how much room
its file system has, and the running games with their channels (their `meta`).

SQLite is opened `mode=ro` (no file lock taken: the bot may hold it, and WAL lets a reader in);
nothing is migrated or written. PostgreSQL is one plain connection; the server's free space is
known only when its data directory is on this machine and readable (else None).
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

from bot.service.storage import connection

GAMES_SQL = "SELECT id, name, status, meta_json FROM games WHERE status != 'over' ORDER BY id"


@dataclass(frozen=True, slots=True)
class RunningGame:
    id: int
    name: str
    status: str
    meta: dict[str, Any]


@dataclass(frozen=True, slots=True)
class DbProbe:
    where: str
    error: str | None = None  # why it does not answer (None: it answers)
    applied: frozenset[int] = frozenset()
    known: frozenset[int] = frozenset()
    size: int | None = None  # bytes
    free: int | None = None  # bytes free where it lives (None: not visible from here)
    games: list[RunningGame] = field(default_factory=list)

    @property
    def missing(self) -> list[int]:
        """Migrations this Parley has that the database lacks (a restart applies them)."""
        return sorted(self.known - self.applied)

    @property
    def newer(self) -> list[int]:
        """Migrations the database has that this Parley does not know (a newer Parley's)."""
        return sorted(self.applied - self.known)


def _games(rows: list[Any]) -> list[RunningGame]:
    out = []
    for r in rows:
        try:
            meta = json.loads(r["meta_json"] or "{}")
        except ValueError:
            meta = {}  # (the bot reports a damaged game itself)
        out.append(RunningGame(int(r["id"]), str(r["name"]), str(r["status"]), meta))
    return out


async def probe(target: str | os.PathLike[str] | None = None) -> DbProbe:
    """`target` as `parley run` takes it (else `$PARLEY_DB`, else ./parley.db)."""
    from bot.service.storage.opening import is_postgres, sqlite_path  # noqa: PLC0415

    if target is None:
        target = os.environ.get("PARLEY_DB") or connection.DEFAULT_DB
    if is_postgres(target):
        return await _probe_pg(str(target))
    return await asyncio.to_thread(_probe_sqlite, sqlite_path(target))


def _probe_sqlite(path: Path) -> DbProbe:
    known = frozenset(n for n, _, _ in connection.migrations())
    where = str(path)
    free = shutil.disk_usage(path.parent if str(path.parent) else ".").free
    if not path.is_file():
        return DbProbe(where, f"{path}: no such file", known=known, free=free)
    size = sum(p.stat().st_size for p in (path, Path(f"{path}-wal")) if p.exists())
    try:
        conn = sqlite3.connect(f"file:{quote(str(path.resolve()))}?mode=ro", uri=True, timeout=5)
    except sqlite3.Error as exc:
        return DbProbe(where, str(exc), known=known, size=size, free=free)
    conn.row_factory = sqlite3.Row
    try:
        applied = frozenset(int(r[0]) for r in conn.execute("SELECT version FROM schema_version"))
        games = _games(conn.execute(GAMES_SQL).fetchall())
    except sqlite3.Error as exc:
        return DbProbe(where, f"not a Parley database ({exc})", known=known, size=size, free=free)
    finally:
        conn.close()
    return DbProbe(where, None, applied, known, size, free, games)


def _free(folder: str) -> int | None:
    return shutil.disk_usage(folder).free if os.path.isdir(folder) else None


async def _probe_pg(dsn: str) -> DbProbe:
    import asyncpg  # noqa: PLC0415

    from bot.service.storage.postgres import migrations, redacted  # noqa: PLC0415

    where = redacted(dsn)
    known = frozenset(n for n, _, _ in migrations())
    try:
        conn = await asyncpg.connect(dsn, timeout=10)
    except (OSError, asyncpg.PostgresError, TimeoutError) as exc:
        return DbProbe(where, f"cannot connect ({exc})", known=known)
    try:
        try:
            rows = await conn.fetch("SELECT version FROM schema_version")
            applied = frozenset(int(r["version"]) for r in rows)
            games = _games(await conn.fetch(GAMES_SQL))
        except asyncpg.PostgresError as exc:
            return DbProbe(where, f"not a Parley database ({exc})", known=known)
        size = int(await conn.fetchval("SELECT pg_database_size(current_database())"))
        free = None
        try:  # (superusers and pg_read_all_settings only; the server may be elsewhere)
            data = await conn.fetchval("SELECT current_setting('data_directory')")
            if data:
                free = await asyncio.to_thread(_free, str(data))
        except (asyncpg.PostgresError, OSError):
            pass
    finally:
        await conn.close()
    return DbProbe(where, None, applied, known, size, free, games)
