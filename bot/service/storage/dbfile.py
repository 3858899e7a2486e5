"""Guards around the database file: one Parley per file, no silent fresh start on an empty
file, integrity checks, and storage failures turned into errors a player understands.

Figures behind `FULL_CHECK_MAX_BYTES` (this machine, warm cache): `PRAGMA integrity_check`
reads about 500 MB/s on a file of maps and JSON, but only about 21 MB/s on a file of small
rows under random-order indexes (304 MB: 14 s; `quick_check` 0.6 s; 16 MB: 0.74 s). 16 MiB
keeps the full check under a second even in that worst case; larger files get `quick_check`
at start and the full check in a background thread.
"""

from __future__ import annotations

import contextlib
import fcntl
import logging
import os
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from bot.service.errors import StoreError, StoreUnavailableError

log = logging.getLogger("parley.store")

FULL_CHECK_MAX_BYTES = 16 * 2**20

# Primary SQLite result codes that mean "the storage failed", not "Parley has a bug".
_STORAGE_CODES = {
    3: "SQLITE_PERM",
    5: "SQLITE_BUSY",
    6: "SQLITE_LOCKED",
    8: "SQLITE_READONLY",
    10: "SQLITE_IOERR",
    11: "SQLITE_CORRUPT",
    13: "SQLITE_FULL",
    14: "SQLITE_CANTOPEN",
    26: "SQLITE_NOTADB",
}


def lock_path(db_path: Path) -> Path:
    return db_path.with_name(db_path.name + ".lock")


class FileLock:
    """An exclusive `flock` on `<db>.lock`, which holds the holder's pid. The OS drops the
    lock when its process dies, so a stale file left by a crash never blocks a restart."""

    def __init__(self, db_path: Path) -> None:
        self.path = lock_path(db_path)
        self.db_path = db_path
        self._fd: int | None = None

    def acquire(self) -> None:
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:
            raise StoreError(
                f"cannot create the lock file {self.path} ({exc.strerror}): the directory of "
                f"{self.db_path} must be writable by the user running Parley"
            ) from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            holder = os.read(fd, 32).decode("ascii", "replace").strip() or "?"
            os.close(fd)
            raise StoreError(
                f"another Parley (pid {holder}) is using {self.db_path}; stop it first, "
                "or give this one another database (--db or PARLEY_DB)"
            ) from None
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())
        self._fd = fd

    def release(self) -> None:
        # The file stays: removing it would let a third process lock a fresh inode while a
        # second one still waits on the old one.
        if self._fd is not None:
            with contextlib.suppress(OSError):
                fcntl.flock(self._fd, fcntl.LOCK_UN)
            os.close(self._fd)
            self._fd = None


def refuse_empty(db_path: Path, init: bool) -> None:
    """An existing zero-length file is a damaged database more often than a new one (a
    failed copy, a full disk): starting on it would silently lose every game."""
    if init or not db_path.exists() or db_path.stat().st_size > 0:
        return
    raise StoreError(
        f"{db_path} exists but is empty (0 bytes): if games were stored there, restore it "
        "from a backup; to start a new database in this file, run with --init-db. "
        "Nothing was changed"
    )


def check_text(rows: Sequence[Any], limit: int = 5) -> str:
    """The messages of an integrity check, not `<sqlite3.Row object ...>`."""
    messages = [str(r[0]) for r in rows]
    shown = "; ".join(messages[:limit])
    more = len(messages) - limit
    return shown + (f"; and {more} more" if more > 0 else "")


def corrupt_error(path: Path, check: str, rows: Sequence[Any]) -> StoreError:
    return StoreError(
        f"{path} failed SQLite's {check}: {check_text(rows)}. Nothing was changed: stop "
        "Parley, restore the file from a backup (or try `sqlite3 FILE .recover`), then restart"
    )


def full_check_in_background(path: Path) -> threading.Thread:
    """`integrity_check` on its own read-only connection; reports through the log."""

    def work() -> None:
        try:
            con = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
            try:
                rows = con.execute("PRAGMA integrity_check").fetchall()
            finally:
                con.close()
        except sqlite3.Error as exc:
            log.error("background integrity check of %s could not run: %s", path, exc)
            return
        if [tuple(r) for r in rows] == [("ok",)]:
            log.info("background integrity check of %s: ok", path)
        else:
            log.error("%s", corrupt_error(path, "integrity check (background)", rows))

    thread = threading.Thread(target=work, name="parley-integrity-check", daemon=True)
    thread.start()
    return thread


def storage_failure(exc: sqlite3.Error, path: Path) -> StoreUnavailableError | None:
    """The player-facing error for a storage failure (full disk, read-only, I/O error,
    corruption...), logged for the operator; None for other errors (bugs stay visible)."""
    code = getattr(exc, "sqlite_errorcode", None)
    name = _STORAGE_CODES.get(code & 0xFF) if isinstance(code, int) else None
    if name is None:
        return None
    log.error("database %s: %s (%s): nothing was saved", path, exc, name)
    return StoreUnavailableError.of("store_unavailable")


@contextlib.contextmanager
def storage_errors(path: Path) -> Iterator[None]:
    try:
        yield
    except sqlite3.Error as exc:
        mapped = storage_failure(exc, path)
        if mapped is None:
            raise
        raise mapped from exc
