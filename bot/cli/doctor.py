"""`parley doctor`: check what hosting the bot needs, one line per finding, exit status 1 if
any is a PROBLEM (0 otherwise), so that a supervisor or a cron job can act on it. `parley run`
runs the same checks at start-up and logs them.

Checks: the token is accepted and the intents are those README asks for; for each running
game, the bot can see, post, attach files and manage permissions in its channels (each
missing permission named with the game); the database answers, its migrations are current,
its file system has room; the machine's clock against Discord's (the Date of a REST reply);
with `--backups DIR`, the newest backup's age (docs/hosting.md). Read-only: safe beside a
running bot.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path
from typing import Any


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "doctor",
        help="check the token, intents, channel permissions, database, clock and backups",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--db", help="the bot's database (default: $PARLEY_DB or ./parley.db)")
    p.add_argument(
        "--message-content",
        action="store_true",
        help="the bot runs with --message-content: check the application has that intent",
    )
    p.add_argument("--backups", type=Path, metavar="DIR", help="where the backups go")
    p.add_argument(
        "--backup-max-age",
        default="26h",
        metavar="AGE",
        help="a newest backup older than this is a problem (default 26h)",
    )
    p.set_defaults(func=doctor)


def doctor(args: argparse.Namespace) -> int:
    from bot.hosting.doctor import (  # noqa: PLC0415
        Options,
        diagnose,
        failed,
        parse_duration,
        token_from_env,
    )

    try:
        max_age = parse_duration(args.backup_max_age)
    except ValueError:
        print(
            f"parley doctor: --backup-max-age {args.backup_max_age}: want e.g. 26h", file=sys.stderr
        )
        return 2
    opts = Options(token_from_env(), args.db, args.message_content, args.backups, max_age)
    findings = asyncio.run(diagnose(opts))
    for finding in findings:
        print(finding.line())
    return 1 if failed(findings) else 0
