"""Database maintenance (docs/hosting.md).

`parley db backup FILE`: copy the SQLite database (`--db`, $PARLEY_DB or ./parley.db) to FILE
while the bot runs (SQLite's online backup), then check the copy (integrity_check, every
table's row count against the database's at the moment of the copy); exit 2 if it fails.
`--every 6h --keep 28`: for a host without cron, a backup every 6 hours, each named FILE's
name plus the time (parley-20261129T040000Z.db), keeping the newest 28.

`parley db restore BACKUP`: put a backup in place of the database, the bot stopped (the old
file is kept as <db>.before-restore).

`parley db copy --from sqlite:parley.db --to postgresql://...`: move a community's games
from SQLite to PostgreSQL. Stop the bot first (both databases are locked while copying). The
copy is verified (row counts and digests of every table) before it is committed; on any
difference nothing is written. PostgreSQL itself is backed up with pg_dump."""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import time
from pathlib import Path
from typing import Any


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "db",
        help="database maintenance (backup, restore, copy SQLite -> PostgreSQL)",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    subs = p.add_subparsers(dest="db_command", metavar="ACTION", required=True)
    c = subs.add_parser("copy", help="copy every game into an empty PostgreSQL database")
    c.add_argument("--from", dest="source", required=True, help="sqlite:FILE (or FILE)")
    c.add_argument("--to", dest="target", required=True, help="postgresql://user@host/db")
    c.set_defaults(func=copy)
    b = subs.add_parser("backup", help="copy the SQLite database while the bot runs, checked")
    b.add_argument("file", type=Path, metavar="FILE", help="the copy (with --every: its name)")
    b.add_argument("--db", help="the database (default: $PARLEY_DB or ./parley.db)")
    b.add_argument("--every", metavar="AGE", help="repeat: 6h, 30m, 1d (a host without cron)")
    b.add_argument("--keep", type=int, default=28, help="with --every: copies kept (28)")
    b.set_defaults(func=backup)
    r = subs.add_parser("restore", help="put a backup in place of the database (bot stopped)")
    r.add_argument("file", type=Path, metavar="BACKUP")
    r.add_argument("--db", help="the database (default: $PARLEY_DB or ./parley.db)")
    r.set_defaults(func=restore)


def _sqlite_db(args: argparse.Namespace, command: str) -> Path | None:
    from bot.service.storage.opening import is_postgres, sqlite_path  # noqa: PLC0415

    target = args.db or os.environ.get("PARLEY_DB") or "parley.db"
    if is_postgres(target):
        print(
            f"parley db {command}: the database is PostgreSQL: use pg_dump / pg_restore "
            "(docs/hosting.md, Backups)",
            file=sys.stderr,
        )
        return None
    return sqlite_path(target)


def backup(args: argparse.Namespace) -> int:
    from bot.hosting.doctor import parse_duration  # noqa: PLC0415
    from bot.service import StoreError  # noqa: PLC0415
    from bot.service.storage.backup import backup as copy_db  # noqa: PLC0415
    from bot.service.storage.backup import rotate, stamped  # noqa: PLC0415

    db = _sqlite_db(args, "backup")
    if db is None:
        return 2
    try:
        every = parse_duration(args.every) if args.every else None
    except ValueError:
        print(f"parley db backup: --every {args.every}: want e.g. 6h", file=sys.stderr)
        return 2
    if args.keep < 1:
        print("parley db backup: --keep must be at least 1", file=sys.stderr)
        return 2
    while True:
        target = stamped(args.file, time.time()) if every else args.file
        try:
            report = copy_db(db, target)
        except StoreError as exc:
            print(f"parley db backup: {exc}", file=sys.stderr, flush=True)
            if every is None:
                return 2
        else:
            rows = sum(report.rows.values())
            print(
                f"backed up {db} to {target}: {rows} rows in {len(report.rows)} tables, "
                f"{report.size / 2**20:.1f} MiB, {report.seconds:.1f} s; checked",
                flush=True,
            )
            if every is None:
                return 0
            for old in rotate(args.file, args.keep):
                print(f"removed {old} (--keep {args.keep})", flush=True)
        time.sleep(every)


def restore(args: argparse.Namespace) -> int:
    from bot.service import StoreError  # noqa: PLC0415
    from bot.service.storage.backup import restore as put_back  # noqa: PLC0415

    db = _sqlite_db(args, "restore")
    if db is None:
        return 2
    try:
        rows = put_back(args.file, db)
    except StoreError as exc:
        print(f"parley db restore: {exc}", file=sys.stderr)
        return 2
    print(f"restored {args.file} into {db}: {sum(rows.values())} rows; start the bot")
    return 0


def copy(args: argparse.Namespace) -> int:
    from bot.service import StoreError  # noqa: PLC0415
    from bot.service.storage.opening import is_postgres, sqlite_path  # noqa: PLC0415

    if is_postgres(args.source) or not is_postgres(args.target):
        print(
            "parley db copy: --from is a SQLite file (sqlite:FILE), --to a postgresql:// URL",
            file=sys.stderr,
        )
        return 2
    try:
        from bot.service.storage.copy import copy_sqlite_to_postgres  # noqa: PLC0415
    except ImportError:
        print("parley db copy: needs asyncpg: pip install 'parley[postgres]'", file=sys.stderr)
        return 2
    try:
        copied = asyncio.run(copy_sqlite_to_postgres(sqlite_path(args.source), args.target))
    except StoreError as exc:
        print(f"parley db copy: {exc}", file=sys.stderr)
        return 2
    for t in copied:
        print(f"{t.table:20} {t.rows:8} rows  sha256 {t.digest[:16]}")
    total = sum(t.rows for t in copied)
    print(f"copied and verified: {total} rows in {len(copied)} tables")
    return 0
