"""The Discord bot Parley runs, composed: the adapter (`bot.discord_app.bot.DiscordBot`) with
every cog of `cogs/`. Nothing else lives here."""

from __future__ import annotations

from typing import Any

from bot.discord_app.bot import DiscordBot, intents
from bot.service import TableService

__all__ = ["EXTENSIONS", "ParleyBot", "intents"]

EXTENSIONS = (
    "cogs.game",
    "cogs.orders",
    "cogs.ready",
    "cogs.gm",
    "cogs.spectate",
    "cogs.vote",
    "cogs.history",
    "cogs.tournament",
)


class ParleyBot(DiscordBot):
    """The adapter with all of Parley's cogs."""

    def __init__(self, service: TableService, **options: Any) -> None:
        super().__init__(service, extensions=EXTENSIONS, **options)
