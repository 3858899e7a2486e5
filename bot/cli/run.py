"""`parley run`: the Discord bot, on the table service's database.

Needs `DISCORD_TOKEN` (the bot token of your Discord application; see the README). The
database is `$PARLEY_DB`, or `parley.db` in the working directory, or `--db FILE`; a missing
file is created, an existing empty one is refused unless `--init-db`. Without a network, or
while Discord is down, it says so in one line and tries again (5 s, doubling to 5 minutes);
a refused token stops it (exit 2).

Several processes (issue 17, README "Running at scale"): `--shards 0-3 --shard-count 8`
connects shards 0 to 3 of 8 in this process; run the others (4-7) in another, all on one
PostgreSQL database. Each process runs the scheduler and the outbox; the database decides
which process adjudicates a phase or posts an event. SQLite is one process: `--shards` that
leaves shards to another process is refused on it.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from collections.abc import Awaitable, Callable
from typing import Any

MISSING_CREDENTIAL_HELP = (
    "parley run: DISCORD_TOKEN is not set.\n"
    "Create a Discord application and its bot (README, 'Discord application'), then:\n"
    "  DISCORD_TOKEN=<your bot token> parley run\n"
    "Without a token, try the offline demo: parley demo"
)


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "run",
        help="run the Discord bot (needs DISCORD_TOKEN)",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "--db",
        help="SQLite database file, or postgresql://... (default: $PARLEY_DB or ./parley.db)",
    )
    p.add_argument(
        "--init-db",
        action="store_true",
        help="accept an existing empty database file and start a new database in it "
        "(without it, an empty file is refused: it usually means a lost database)",
    )
    p.add_argument(
        "--message-content",
        action="store_true",
        help="ask for the privileged Message Content intent (not needed for DM orders; "
        "needed for orders typed in a power's own channel)",
    )
    p.add_argument(
        "--members-intent",
        action="store_true",
        help="ask for the privileged Server Members intent: the GM is told when a player "
        "leaves the server",
    )
    p.add_argument(
        "--grace",
        type=float,
        metavar="SECONDS",
        help="how long a phase waits after its deadline for orders sent before it that are "
        "still being read (default: docs/guide.md, section 6; the deadline players are "
        "told does not move)",
    )
    p.add_argument(
        "--shards",
        help="the discord.py shards this process connects, e.g. 0-3 or 0,2 (with --shard-count)",
    )
    p.add_argument("--shard-count", type=int, help="how many shards the bot has in all")
    p.add_argument(
        "--executor",
        choices=("process", "thread"),
        default=default_executor(),
        help="where phases are adjudicated and maps drawn: a pool of worker processes, one "
        "per CPU (the default on a machine of two CPUs or more: issue 18), or threads",
    )
    p.add_argument("--no-sync", action="store_true", help="do not sync the slash commands")
    # Hosting (issue 34, docs/hosting.md)
    p.add_argument(
        "--metrics",
        metavar="HOST:PORT",
        help="serve /healthz and /metrics (Prometheus) there, e.g. 127.0.0.1:9108 (off by default)",
    )
    p.add_argument(
        "--metrics-public",
        action="store_true",
        help="allow --metrics on a non-loopback address (anyone who reaches it reads them)",
    )
    p.add_argument("--log-format", choices=("text", "json"), default="text", help="log lines")
    p.add_argument(
        "--no-doctor", dest="doctor", action="store_false", help="skip the start-up checks"
    )
    p.add_argument("-v", "--verbose", action="store_true", help="debug logging")
    p.set_defaults(func=run)


def default_executor() -> str:
    """Worker processes where there is more than one CPU to use (bench/deadline.py)."""
    return "process" if (os.cpu_count() or 1) > 1 else "thread"


class ShardsError(ValueError):
    """`--shards`/`--shard-count` cannot be used as given (the message says why)."""


def parse_shards(text: str | None, count: int | None) -> list[int] | None:
    """`0-3` or `0,2,5` (of `count`); None: every shard (no `--shards`)."""
    if text is None:
        if count is not None:
            raise ShardsError("--shard-count needs --shards (the shards this process connects)")
        return None
    if count is None or count < 1:
        raise ShardsError("--shards needs --shard-count N (how many shards the bot has, N >= 1)")
    ids: list[int] = []
    for part in text.replace(" ", "").split(","):
        low, dash, high = part.partition("-")
        if not low.isdigit() or (dash and not high.isdigit()):
            raise ShardsError(f"--shards {text}: want a range like 0-3 or a list like 0,2")
        first, last = int(low), int(high) if dash else int(low)
        if first > last:
            raise ShardsError(f"--shards {text}: {first}-{last} is an empty range")
        ids.extend(range(first, last + 1))
    if max(ids) >= count:
        raise ShardsError(f"--shards {text}: shards are numbered 0 to {count - 1} (--shard-count)")
    return sorted(set(ids))


def check_processes(shards: list[int] | None, count: int | None, target: str | None) -> None:
    """Shards left to other processes need a database they can share: PostgreSQL."""
    from bot.service.storage.opening import is_postgres  # noqa: PLC0415

    if shards is None or count is None or len(shards) == count:
        return
    if not is_postgres(target or os.environ.get("PARLEY_DB")):
        raise ShardsError(
            f"--shards {shards[0]}..{shards[-1]} of {count} leaves shards to other processes, "
            "and SQLite serves one process: use PostgreSQL (--db or PARLEY_DB="
            "postgresql://...), or run every shard here (--shards "
            f"0-{count - 1}) or leave out --shards"
        )


def run(args: argparse.Namespace) -> int:
    try:
        args.shard_ids = parse_shards(args.shards, args.shard_count)
        check_processes(args.shard_ids, args.shard_count, args.db)
    except ShardsError as exc:
        print(f"parley run: {exc}", file=sys.stderr)
        return 2
    token = os.environ.get("DISCORD_TOKEN", "").strip()
    if not token:
        print(MISSING_CREDENTIAL_HELP, file=sys.stderr)
        return 2
    from bot.hosting.logs import configure  # noqa: PLC0415
    from bot.hosting.server import AddressError  # noqa: PLC0415
    from bot.hosting.startup import Hosting  # noqa: PLC0415

    try:
        hosting = Hosting(args, token)
    except AddressError as exc:
        print(f"parley run: {exc}", file=sys.stderr)
        return 2
    configure(args.log_format, verbose=args.verbose)
    try:
        return asyncio.run(_serve(args, token, hosting))
    except KeyboardInterrupt:
        return 0


# Backoff between attempts to reach Discord: doubling from 5 s, at most 5 minutes.
FIRST_DELAY, MAX_DELAY = 5.0, 300.0


def _unreachable(exc: BaseException) -> bool:
    """No network, DNS, or Discord down (5xx, no gateway): worth retrying. A refused token or
    a missing intent is not (the operator must act)."""
    import aiohttp  # noqa: PLC0415
    import discord  # noqa: PLC0415

    if isinstance(exc, discord.LoginFailure | discord.PrivilegedIntentsRequired):
        return False
    return isinstance(
        exc,
        OSError
        | TimeoutError
        | aiohttp.ClientError
        | discord.GatewayNotFound
        | discord.DiscordServerError,
    )


async def with_retries(
    start: Callable[[], Awaitable[None]],
    *,
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    first: float = FIRST_DELAY,
    most: float = MAX_DELAY,
) -> None:
    """Run `start` until it returns; while Discord cannot be reached, one line on stderr per
    attempt and a wait that doubles (a daemon outlives a network outage)."""
    delay = first
    while True:
        try:
            await start()
            return
        except Exception as exc:
            if not _unreachable(exc):
                raise
            why = str(exc) or type(exc).__name__
            print(
                f"parley run: cannot reach Discord ({why}); retrying in {delay:g} s",
                file=sys.stderr,
                flush=True,
            )
        await sleep(delay)
        delay = min(delay * 2, most)


async def _serve(args: argparse.Namespace, token: str, hosting: Any = None) -> int:
    # Imported here: `parley parse` and friends need neither discord nor the service.
    import discord  # noqa: PLC0415

    from bot.client import make_bot  # noqa: PLC0415
    from bot.service import ServiceError, TableService  # noqa: PLC0415

    try:
        grace = {} if args.grace is None else {"grace": max(0.0, args.grace)}
        executor = getattr(args, "executor", None) or default_executor()
        extra = hosting.service_options() if hosting is not None else {}
        service = await TableService.open(
            args.db, run=False, init_db=args.init_db, executor=executor, **grace, **extra
        )
    except ServiceError as exc:
        print(f"parley run: {exc.message}", file=sys.stderr)
        return 2
    shards = getattr(args, "shard_ids", None)

    def new_bot() -> Any:
        # One process syncs the slash commands: the one with shard 0 (or the only one).
        sync = not args.no_sync and (shards is None or 0 in shards)
        return make_bot(
            service,
            shards=shards,
            shard_count=getattr(args, "shard_count", None),
            message_content=args.message_content,
            members=getattr(args, "members_intent", False),
            sync_commands=sync,
        )

    bot = new_bot()

    async def start() -> None:
        nonlocal bot
        if bot.is_closed():  # a fresh client after a failed attempt
            bot = new_bot()
        try:
            await bot.start(token)
        except BaseException:
            if not bot.is_closed():
                await bot.close()
            raise

    try:
        if hosting is not None:  # the start-up checks; /healthz and /metrics if asked
            try:
                await hosting.started(service, lambda: bot)
            except OSError as exc:
                print(f"parley run: cannot serve --metrics {args.metrics}: {exc}", file=sys.stderr)
                return 2
        await with_retries(start)
    except discord.LoginFailure:
        print("parley run: Discord refused the token (DISCORD_TOKEN).", file=sys.stderr)
        return 2
    except discord.PrivilegedIntentsRequired:
        print(
            "parley run: enable the Message Content (or Server Members) intent in the"
            " Developer Portal (Bot page), or run without --message-content"
            " (--members-intent).",
            file=sys.stderr,
        )
        return 2
    finally:
        if hosting is not None:
            await hosting.stop()
        if not bot.is_closed():
            await bot.close()
        await service.close()
    return 0
