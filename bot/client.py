"""The Discord bot Parley runs, composed: the adapter (`bot.discord_app.bot.DiscordBot`) with
every cog of `cogs/`. Nothing else lives here."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from discord.ext import commands

from bot.discord_app.bot import DiscordBot, intents
from bot.service import TableService

__all__ = ["EXTENSIONS", "ParleyBot", "ShardedParleyBot", "intents", "make_bot"]

EXTENSIONS = (
    "cogs.game",
    "cogs.orders",
    "cogs.ready",
    "cogs.gm",
    "cogs.spectate",
    "cogs.vote",
    "cogs.history",
    "cogs.settings",
    "cogs.tournament",
    "cogs.board",
    "cogs.casual",
)


class ParleyBot(DiscordBot):
    """The adapter with all of Parley's cogs."""

    def __init__(self, service: TableService, **options: Any) -> None:
        super().__init__(service, extensions=EXTENSIONS, **options)


class ShardedParleyBot(ParleyBot, commands.AutoShardedBot):
    """The same bot over a range of discord.py shards (`shard_ids` of `shard_count`): one
    of several processes sharing a PostgreSQL database (`parley run --shards 0-3
    --shard-count 8`)."""


def make_bot(
    service: TableService,
    *,
    shards: Sequence[int] | None = None,
    shard_count: int | None = None,
    **options: Any,
) -> ParleyBot:
    """The bot for this process: every shard (discord.py's default) or the given range."""
    if shards is None:
        return ParleyBot(service, **options)
    return ShardedParleyBot(service, shard_ids=list(shards), shard_count=shard_count, **options)
