"""What the Discord adapter's modules and cogs need from the bot: a small protocol, so that
they depend on it and not on the bot class (`bot.discord_app.bot.DiscordBot` implements it;
`bot/client.py` composes the two)."""

from __future__ import annotations

from typing import Protocol

import discord
from discord.ext import commands
from discord.http import HTTPClient

from bot.service import TableService


class DirectMessages(Protocol):
    """Posts a direct message, deduplicated by `key`; False if the user's DMs are closed."""

    async def dm(
        self, user: str, text: str, key: str, *, view: discord.ui.View | None = None
    ) -> bool: ...


class Parley(Protocol):
    """The bot as its adapter modules and cogs see it."""

    @property
    def service(self) -> TableService: ...

    @property
    def notifier(self) -> DirectMessages: ...

    @property
    def http(self) -> HTTPClient: ...

    @property
    def user(self) -> discord.ClientUser | None: ...

    def get_partial_messageable(
        self,
        id: int,
        *,
        guild_id: int | None = None,
        type: discord.ChannelType | None = None,
    ) -> discord.PartialMessageable: ...

    def get_cog(self, name: str, /) -> commands.Cog | None: ...

    def is_closed(self) -> bool: ...

    async def games_at(self, channel_id: int) -> set[int]:
        """Games whose table is the channel `channel_id`."""
        ...

    async def table_created(self, channel_id: int, game_id: int) -> None:
        """A game was created at the table `channel_id` (keeps `games_at` current)."""
        ...
