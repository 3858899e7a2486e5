"""/settings palette|server-palette: map colours chosen from Discord (issue 16).

A user's palette is for the maps sent to them alone (the map of their own orders); a server's
is for the public maps of its games that chose none at `/game create` (see
bot.service.games.palettes). A server's may be set by a member with Manage Server.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_app.app import Parley
from bot.discord_app.interactions import Refusal, guild_only_check, locale_lang, send, user_key
from bot.i18n import t

GAME = "game"  # the user's choice: none, each game's palette
COLOURS = [
    app_commands.Choice(name="Default colours", value="default"),
    app_commands.Choice(name="Colour-blind friendly", value="colorblind"),
]


def _name(value: str | None, lang: str) -> str:
    return t(f"settings.palette_{value or GAME}", lang)


class SettingsCog(
    commands.GroupCog, group_name="settings", description="Your settings and your server's"
):
    def __init__(self, bot: Parley) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name="palette", description="Colours of the maps sent to you")
    @app_commands.describe(colours="Your choice (empty: show it)")
    @app_commands.choices(
        colours=[*COLOURS, app_commands.Choice(name="As each game's maps", value=GAME)]
    )
    async def palette(
        self, interaction: discord.Interaction, colours: app_commands.Choice[str] | None = None
    ) -> None:
        lang = locale_lang(interaction)
        user = user_key(interaction.user)
        if colours is not None:
            chosen = None if colours.value == GAME else colours.value
            await self.bot.service.set_user_palette(user, chosen)
        now = await self.bot.service.user_palette(user)
        await send(interaction, [t("settings.palette_user", lang, palette=_name(now, lang))])

    @app_commands.command(name="server-palette", description="Colours of this server's public maps")
    @app_commands.describe(colours="The server's choice (empty: show it)")
    @app_commands.choices(colours=COLOURS)
    @app_commands.guild_only()
    async def server_palette(
        self, interaction: discord.Interaction, colours: app_commands.Choice[str] | None = None
    ) -> None:
        await guild_only_check(interaction)
        lang = locale_lang(interaction)
        server = str(interaction.guild_id)
        if colours is not None:
            if not interaction.permissions.manage_guild:
                raise Refusal(t("settings.manage_server", lang))
            await self.bot.service.set_server_palette(server, colours.value)
        now = await self.bot.service.server_palette(server) or "default"
        line = t("settings.palette_server", lang, palette=_name(now, lang))
        await send(interaction, [line], ephemeral=colours is None)
