"""The Discord bot Parley runs, composed: the adapter (`bot.discord_app.bot.DiscordBot`) with
every cog of `bot/discord_app/cogs/`. Nothing else lives here."""

from __future__ import annotations

from typing import Any

from bot.discord_app.bot import DiscordBot, intents
from bot.service import TableService

__all__ = ["EXTENSIONS", "ParleyBot", "intents"]

EXTENSIONS = (
    "bot.discord_app.cogs.game",
    "bot.discord_app.cogs.orders",
    "bot.discord_app.cogs.ready",
    "bot.discord_app.cogs.gm",
    "bot.discord_app.cogs.spectate",
    "bot.discord_app.cogs.vote",
    "bot.discord_app.cogs.history",
)


class ParleyBot(DiscordBot):
    """The adapter with all of Parley's cogs."""

    def __init__(self, service: TableService, **options: Any) -> None:
        super().__init__(service, extensions=EXTENSIONS, **options)
