"""`parley db copy`: every row of a SQLite database into an empty PostgreSQL one, verified.

Both sides are opened as Parley opens them (migrated to this version; the SQLite file locked:
no bot may run on it meanwhile; the PostgreSQL target must be empty, so a bot started on it
meanwhile fails the copy). The rows go in one PostgreSQL transaction; before it commits, each
table is read back and its row count and digest (SHA-256 over the rows in key order) must
equal the source's, else the transaction is rolled back and the target stays empty.
"""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import asyncpg

from bot.service.errors import StoreError
from bot.service.storage.postgres import PgStorage
from bot.service.storage.sqlite import SqliteStorage

# In foreign-key order; the key orders the rows for the digest (and deliveries' begin order).
TABLES: tuple[tuple[str, str], ...] = (
    ("parley_meta", "key"),
    ("games", "id"),
    ("players", "game_id, power"),
    ("phases", "id"),
    ("submissions", "id"),
    ("early_orders", "id"),
    ("ready", "phase_id, power"),
    ("builder_drafts", "phase_id, power"),
    ("results", "phase_id"),
    ("outbox", "id"),
    ("audit", "id"),
    ("votebooks", "game_id"),
    ("deliveries", "event_id, dest"),
    ("delivered_messages", "event_id, dest, part"),
    ("palettes", "scope, owner"),
    ("status_boards", "game_id"),
    ("tournaments", "id"),
    ("tournament_entries", "tournament_id, round_no, user_id"),
    ("tournament_rounds", "tournament_id, round_no"),
    ("tournament_tables", "tournament_id, round_no, table_no"),
    ("tournament_marks", "tournament_id, at, user_id, kind, reason"),
    ("tournament_names", "tournament_id, user_id"),
)
# Coordination between running processes (leases, rate slots): nothing to carry over.
TRANSIENT = frozenset({"claims", "rate_slots", "rate_demand", "schema_version"})
_IDENTITY = ("games", "phases", "submissions", "early_orders", "outbox", "audit", "tournaments")
_SQLITE_ORDER = {"deliveries": "started_at, rowid"}  # the order they were begun: PG's seq


@dataclass(frozen=True)
class TableCopy:
    table: str
    rows: int
    digest: str


class CopyError(StoreError):
    """The copy was refused or did not verify; the target was left as it was."""


def _value(v: Any) -> str:
    if v is None:
        return "N"
    if isinstance(v, bytes | bytearray | memoryview):
        return "b" + bytes(v).hex()
    if isinstance(v, bool):
        return f"i{int(v)}"
    if isinstance(v, int):
        return f"i{v}"
    if isinstance(v, float):
        return f"f{v!r}"
    return "s" + str(v)


def digest(rows: Iterable[Sequence[Any]]) -> tuple[int, str]:
    """(count, SHA-256) of rows; types are kept apart (1 is not 1.0 is not '1')."""
    h = hashlib.sha256()
    n = 0
    for row in rows:
        h.update("\x1f".join(_value(v) for v in row).encode())
        h.update(b"\x1e")
        n += 1
    return n, h.hexdigest()


async def _columns(src: SqliteStorage, table: str) -> list[str]:
    rows = await src.store.fetchall(f"PRAGMA table_info({table})")
    return [str(r["name"]) for r in rows]


async def copy_sqlite_to_postgres(
    source: Path,
    target: str,
    *,
    server_settings: dict[str, str] | None = None,
    check: Callable[[str, list[Any]], list[Any]] | None = None,
) -> list[TableCopy]:
    """Copy, verify, commit; returns what was copied. `check` (tests) sees the rows read
    back from the target before they are compared."""
    if not await asyncio.to_thread(source.exists):  # opening would create it
        raise CopyError(f"{source} does not exist; nothing was copied")
    src = await SqliteStorage.open(source)
    try:
        dst = await PgStorage.open(target, server_settings=server_settings)
        try:
            return await _copy(src, dst, check)
        finally:
            await dst.close()
    finally:
        await src.close()


async def _copy(
    src: SqliteStorage,
    dst: PgStorage,
    check: Callable[[str, list[Any]], list[Any]] | None,
) -> list[TableCopy]:
    conn = dst.store.conn
    for table, _ in TABLES:
        # Table names here and below are the constants of TABLES, never input.
        count = await conn.fetchval(f"SELECT count(*) FROM {table}")  # noqa: S608
        if table != "parley_meta" and count:
            raise CopyError(
                f"{dst.path} already has {table}: copy only into an empty database; "
                "nothing was copied"
            )
    done: list[TableCopy] = []
    async with conn.transaction():
        await conn.execute("DELETE FROM parley_meta")
        for table, key in TABLES:
            cols = await _columns(src, table)
            order = _SQLITE_ORDER.get(table, key)
            rows = await src.store.fetchall(
                f"SELECT {', '.join(cols)} FROM {table} ORDER BY {order}"  # noqa: S608
            )
            records = [tuple(r) for r in rows]
            if records:
                try:
                    await conn.copy_records_to_table(table, records=records, columns=cols)
                except (asyncpg.PostgresError, ValueError, TypeError) as exc:
                    # A source row PostgreSQL's types refuse (SQLite stores anything).
                    raise CopyError(
                        f"{table}: a row cannot be copied ({exc}); repair it in the source; "
                        "nothing was copied"
                    ) from None
            quoted = ", ".join(f'"{c}"' for c in cols)
            back = [tuple(r) for r in await conn.fetch(f"SELECT {quoted} FROM {table}")]  # noqa: S608
            if check is not None:
                back = check(table, back)
            # Sorted here, not by ORDER BY: the server's collation may order text otherwise.
            by_key = _key_of(cols, key)
            want = digest(sorted(records, key=by_key))
            got = digest(sorted(back, key=by_key))
            if want != got:
                raise CopyError(
                    f"{table}: the copy does not match the source ({want[0]} rows, digest "
                    f"{want[1][:12]}; copied {got[0]}, {got[1][:12]}); nothing was copied"
                )
            done.append(TableCopy(table, want[0], want[1]))
        for table in _IDENTITY:
            top = f"COALESCE((SELECT MAX(id) FROM {table}), 0) + 1"  # noqa: S608
            reset = f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), {top}, false)"
            await conn.execute(reset)
    return done


def _key_of(cols: list[str], key: str) -> Callable[[Sequence[Any]], tuple[Any, ...]]:
    at = [cols.index(k.strip()) for k in key.split(",")]
    return lambda row: tuple(row[i] for i in at)
