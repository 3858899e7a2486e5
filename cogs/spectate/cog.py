"""/spectate: a channel follows a game's results and maps (public information only)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_app.app import Parley
from bot.discord_app.interactions import (
    game_choices,
    guild_only_check,
    resolve_game,
    send,
    user_key,
)
from bot.i18n import t


class SpectateCog(commands.Cog):
    def __init__(self, bot: Parley) -> None:
        self.bot = bot

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        return await guild_only_check(interaction)

    @app_commands.command(
        name="spectate", description="Post a game's results and maps in this channel"
    )
    @app_commands.describe(game="Game number (#)", stop="Stop following the game")
    @app_commands.guild_only()
    async def spectate(
        self, interaction: discord.Interaction, game: int, stop: bool = False
    ) -> None:
        found = await resolve_game(
            self.bot, interaction, game, states=("forming", "active", "paused")
        )
        channel = interaction.channel_id
        following = [int(c) for c in found.meta.get("spectators", []) if int(c) != channel]
        if not stop:
            following.append(int(channel or 0))
        await self.bot.service.set_meta(
            found.id, "spectators", following, by=user_key(interaction.user)
        )
        key = "spectate.off" if stop else "spectate.on"
        await send(interaction, [t(key, found.lang, name=found.name, id=found.id)], ephemeral=False)

    @spectate.autocomplete("game")
    async def _games(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        return await game_choices(self.bot, interaction, current)
