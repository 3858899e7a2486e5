"""/ready: a player marks themself ready (early adjudication when the clock allows it)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_app.app import Parley
from bot.discord_app.format import phase_name
from bot.discord_app.interactions import (
    RUNNING,
    game_choices,
    resolve_game,
    send,
    think,
    user_key,
)
from bot.i18n import t


class ReadyCog(commands.Cog):
    def __init__(self, bot: Parley) -> None:
        self.bot = bot

    @app_commands.command(
        name="ready", description="Mark yourself ready (early adjudication when all are)"
    )
    @app_commands.describe(game="Game number (#)")
    async def ready(self, interaction: discord.Interaction, game: int | None = None) -> None:
        found = await resolve_game(self.bot, interaction, game, states=RUNNING)
        await think(interaction)  # the last one ready may set off the adjudication
        early = await self.bot.service.set_ready(found.id, user_key(interaction.user))
        lines = [t("ready.marked", found.lang, phase=phase_name(found.phase, found.lang))]
        if early:
            lines.append(t("ready.early", found.lang))
        await send(interaction, lines)

    @ready.autocomplete("game")
    async def _games(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        return await game_choices(self.bot, interaction, current)
