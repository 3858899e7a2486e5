"""Which storage a database target names: `postgresql://...` (or `postgres://`) is
PostgreSQL, `sqlite:FILE` or any other path is a SQLite file. asyncpg is imported only for
PostgreSQL (it is the optional `postgres` extra)."""

from __future__ import annotations

import os
from pathlib import Path

from bot.service.errors import StoreError
from bot.service.storage.base import Storage
from bot.service.storage.connection import DEFAULT_DB
from bot.service.storage.sqlite import SqliteStorage

SCHEMES = ("postgresql://", "postgres://")


def is_postgres(target: str | os.PathLike[str] | None) -> bool:
    return isinstance(target, str) and target.startswith(SCHEMES)


def sqlite_path(target: str | os.PathLike[str]) -> Path:
    text = os.fspath(target)
    return Path(text.removeprefix("sqlite:"))


async def open_storage(
    target: str | os.PathLike[str] | None = None, *, init: bool = False
) -> Storage:
    """`target`, else `$PARLEY_DB`, else ./parley.db."""
    if target is None:
        target = os.environ.get("PARLEY_DB") or DEFAULT_DB
    if is_postgres(target):
        try:
            from bot.service.storage.postgres import PgStorage  # noqa: PLC0415
        except ImportError:
            raise StoreError(
                "PARLEY_DB names a PostgreSQL database but asyncpg is not installed: "
                "pip install 'parley[postgres]'"
            ) from None
        return await PgStorage.open(str(target))
    return await SqliteStorage.open(sqlite_path(target), init=init)
