"""`parley db copy --from sqlite:parley.db --to postgresql://...`: move a community's games
from SQLite to PostgreSQL. Stop the bot first (both databases are locked while copying). The
copy is verified (row counts and digests of every table) before it is committed; on any
difference nothing is written."""

from __future__ import annotations

import argparse
import asyncio
import sys
from typing import Any


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "db",
        help="database maintenance (copy SQLite -> PostgreSQL)",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    subs = p.add_subparsers(dest="db_command", metavar="ACTION", required=True)
    c = subs.add_parser("copy", help="copy every game into an empty PostgreSQL database")
    c.add_argument("--from", dest="source", required=True, help="sqlite:FILE (or FILE)")
    c.add_argument("--to", dest="target", required=True, help="postgresql://user@host/db")
    c.set_defaults(func=copy)


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
