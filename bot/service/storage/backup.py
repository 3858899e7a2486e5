"""`parley db backup` / `parley db restore` for a SQLite database (docs/hosting.md).

A backup is SQLite's online backup API (`sqlite3.Connection.backup`) from a read-only
connection, in one step inside one read transaction: in WAL mode the bot's writers go on
meanwhile (a reader blocks no writer), and the copy is the database as of that transaction,
whole. (Copied in several steps, any write by the bot would restart the copy: on a busy bot
it might never end.) The row count of every table is read in the same transaction, so the
copy must match exactly; the copy is written beside the target as `.part`, checked
(`PRAGMA integrity_check`, the row counts), and only then renamed into place.

A restore copies a backup over the database through the same API (so a stale `-wal` of the
old file is never replayed onto the restored one), after checking the backup the same way,
and only while no Parley holds the database (its lock file); the old file is kept beside it
(`<db>.before-restore`).
"""

from __future__ import annotations

import os
import re
import sqlite3
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import quote

from bot.service.errors import StoreError
from bot.service.storage import dbfile


@dataclass(frozen=True, slots=True)
class BackupReport:
    path: Path
    rows: dict[str, int]  # table -> rows, equal in the source and the copy
    size: int
    seconds: float


def _readonly(path: Path) -> sqlite3.Connection:
    if not path.is_file():
        raise StoreError(f"{path}: no such database file")
    return sqlite3.connect(f"file:{quote(str(path.resolve()))}?mode=ro", uri=True, timeout=30)


def _counts(conn: sqlite3.Connection) -> dict[str, int]:
    names = [
        r[0]
        for r in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'"
            " AND name NOT LIKE 'sqlite_%' ORDER BY name"
        )
    ]
    # (names come from the database's own catalogue, quoted as identifiers)
    count = 'SELECT COUNT(*) FROM "{}"'
    return {n: int(conn.execute(count.format(n)).fetchone()[0]) for n in names}


def check_copy(path: Path, expected: dict[str, int] | None = None) -> dict[str, int]:
    """integrity_check and row counts of a copy (equal to `expected` if given)."""
    try:
        conn = _readonly(path)
        try:
            found = [tuple(r) for r in conn.execute("PRAGMA integrity_check")]
            if found != [("ok",)]:
                shown = "; ".join(str(r[0]) for r in found[:5])
                raise StoreError(f"{path} fails SQLite's integrity check: {shown}")
            counts = _counts(conn)
            if "schema_version" not in counts:
                raise StoreError(f"{path} is not a Parley database (no schema_version)")
        finally:
            conn.close()
    except sqlite3.DatabaseError as exc:
        raise StoreError(f"{path} is not a usable SQLite database ({exc})") from None
    if expected is not None and counts != expected:
        differ = sorted(
            t for t in expected.keys() | counts.keys() if expected.get(t) != counts.get(t)
        )
        raise StoreError(f"the copy's row counts differ from the database's: {', '.join(differ)}")
    return counts


def backup(source: Path, target: Path) -> BackupReport:
    """Copy the live database `source` to `target` (replaced only once the copy is checked)."""
    t0 = time.perf_counter()
    part = target.with_name(target.name + ".part")
    part.unlink(missing_ok=True)
    try:
        src = _readonly(source)
        try:
            src.execute("BEGIN")  # one snapshot for the counts and the copy
            rows = _counts(src)
            dst = sqlite3.connect(part)
            try:
                src.backup(dst)
            finally:
                dst.close()
            src.rollback()
        finally:
            src.close()
        check_copy(part, rows)
        os.replace(part, target)
    except sqlite3.Error as exc:
        part.unlink(missing_ok=True)
        raise StoreError(f"backup of {source} to {target} failed: {exc}") from None
    except BaseException:
        part.unlink(missing_ok=True)
        raise
    return BackupReport(target, rows, target.stat().st_size, time.perf_counter() - t0)


def stamped(target: Path, at: float) -> Path:
    """`backups/parley.db` -> `backups/parley-20261129T040000Z.db` (for `--every`)."""
    stamp = datetime.fromtimestamp(at, UTC).strftime("%Y%m%dT%H%M%SZ")
    return target.with_name(f"{target.stem}-{stamp}{target.suffix}")


def rotate(target: Path, keep: int) -> list[Path]:
    """Remove all but the newest `keep` stamped backups of `target`; returns those removed."""
    pattern = re.compile(re.escape(target.stem) + r"-\d{8}T\d{6}Z" + re.escape(target.suffix))
    folder = target.parent if str(target.parent) else Path()
    found = sorted(p for p in folder.iterdir() if pattern.fullmatch(p.name))
    old = found[: max(0, len(found) - keep)]
    for p in old:
        p.unlink(missing_ok=True)
    return old


def restore(backup_file: Path, db: Path) -> dict[str, int]:
    """Put `backup_file` in place of `db` (no Parley may be running on it); returns its rows."""
    rows = check_copy(backup_file)
    lock = dbfile.FileLock(db)
    lock.acquire()  # StoreError "another Parley (pid N) is using ..." if the bot runs
    try:
        if db.exists() and db.stat().st_size:
            keep = db.with_name(db.name + ".before-restore")
            src, old = sqlite3.connect(db), sqlite3.connect(keep)
            try:
                src.backup(old)
            finally:
                old.close()
                src.close()
        src = _readonly(backup_file)
        dst = sqlite3.connect(db)
        try:
            src.backup(dst)  # through SQLite: the old file's WAL is taken care of
        finally:
            dst.close()
            src.close()
        check_copy(db, rows)
    except sqlite3.Error as exc:
        raise StoreError(f"restore of {backup_file} into {db} failed: {exc}") from None
    finally:
        lock.release()
    return rows
