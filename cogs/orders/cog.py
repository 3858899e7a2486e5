"""Secret orders: /orders submit|show|clear (ephemeral) and free text sent to the bot by DM."""

from __future__ import annotations

import logging
import re

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import ParleyBot
from bot.discord_app.format import chunks, phase_name, power_name, submit_reply_lines
from bot.discord_app.interactions import (
    RUNNING,
    describe_refusal,
    game_choices,
    resolve_game,
    send,
    think,
    user_key,
)
from bot.i18n import t
from bot.service import GameStatus

log = logging.getLogger("parley.discord")

GAME_PREFIX = re.compile(r"^\s*#(\d+)\s*[:\n ]?")
NO_PINGS = discord.AllowedMentions.none()


async def _reply(channel: discord.abc.Messageable, lines: list[str]) -> None:
    for part in chunks(lines):
        await channel.send(part, allowed_mentions=NO_PINGS)  # echoes user text: no mentions


class GamePicker(discord.ui.View):
    """For a player in several games: which one a DM's orders are for."""

    def __init__(self, cog: OrdersCog, user: str, text: str, games: list[GameStatus]) -> None:
        super().__init__(timeout=600)
        self.cog, self.user, self.text = cog, user, text
        options = [
            discord.SelectOption(label=f"#{g.id} {g.name}"[:100], value=str(g.id)) for g in games
        ]
        select: discord.ui.Select[GamePicker] = discord.ui.Select(
            placeholder=t("orders.pick_game", games[0].lang), options=options[:25]
        )
        select.callback = self._picked  # type: ignore[method-assign]
        self.select = select
        self.add_item(select)

    async def _picked(self, interaction: discord.Interaction) -> None:
        if user_key(interaction.user) != self.user:
            return
        game_id = int(self.select.values[0])
        await interaction.response.defer(thinking=True)
        lines = await self.cog.submit_lines(game_id, self.user, self.text)
        for part in chunks(lines):
            await interaction.followup.send(part, allowed_mentions=NO_PINGS)
        self.stop()


class OrdersCog(commands.GroupCog, group_name="orders", description="Your secret orders"):
    def __init__(self, bot: ParleyBot) -> None:
        self.bot = bot
        super().__init__()

    async def submit_lines(self, game_id: int, user: str, text: str) -> list[str]:
        """Submit and describe the service's reading; refusals become the reply."""
        try:
            game = await self.bot.service.status(game_id)
            reply = await self.bot.service.submit(game_id, user, text)
        except Exception as exc:
            message = describe_refusal(exc)
            if message is None:
                raise
            log.info("refused orders from %s for game %s: %s", user, game_id, message)
            return [message]
        head = t("orders.picked", game.lang, name=game.name, id=game.id)
        return [head, *submit_reply_lines(reply, game.lang)]

    # -- DMs -------------------------------------------------------------------------------

    @commands.Cog.listener()
    async def on_message(self, message: discord.Message) -> None:
        if message.guild is not None or message.author.bot or not message.content.strip():
            return
        user = user_key(message.author)
        text = message.content
        prefix = GAME_PREFIX.match(text)
        if prefix:
            lines = await self.submit_lines(int(prefix.group(1)), user, text[prefix.end() :])
            await _reply(message.channel, lines)
            return
        games = [
            g
            for g in await self.bot.service.games_of(user)
            if g.status in RUNNING and user in g.players.values()
        ]
        if not games:
            log.info("refused DM orders from %s: not a player in a running game", user)
            await _reply(message.channel, [t("game.not_in_any", "en")])
            return
        if len(games) == 1:
            await _reply(message.channel, await self.submit_lines(games[0].id, user, text))
            return
        view = GamePicker(self, user, text, games)
        await message.channel.send(
            t("orders.pick_game", games[0].lang), view=view, allowed_mentions=NO_PINGS
        )

    # -- slash commands --------------------------------------------------------------------

    @app_commands.command(name="submit", description="Send your orders (separate them with ;)")
    @app_commands.describe(text="Orders, e.g. A PAR - BUR; F BRE - MAO", game="Game number (#)")
    async def submit(
        self, interaction: discord.Interaction, text: str, game: int | None = None
    ) -> None:
        found = await resolve_game(self.bot, interaction, game, states=RUNNING)
        await think(interaction)
        lines = await self.submit_lines(found.id, user_key(interaction.user), text)
        await send(interaction, lines)

    @app_commands.command(name="show", description="Show your current orders")
    @app_commands.describe(game="Game number (#)")
    async def show(self, interaction: discord.Interaction, game: int | None = None) -> None:
        found = await resolve_game(self.bot, interaction, game, states=RUNNING)
        await think(interaction)
        view = await self.bot.service.my_orders(found.id, user_key(interaction.user))
        lang = found.lang
        if not view.orders:
            await send(interaction, [t("orders.none", lang, phase=phase_name(view.phase, lang))])
            return
        head = t(
            "orders.shown",
            lang,
            phase=phase_name(view.phase, lang),
            power=power_name(view.power, lang),
        )
        lines = [head, *(f"• {o}" for o in view.orders)]
        if view.warnings:
            lines += [t("orders.warnings", lang), *(f"• {w}" for w in view.warnings)]
        await send(interaction, lines)

    @app_commands.command(name="clear", description="Clear your orders")
    @app_commands.describe(game="Game number (#)")
    async def clear(self, interaction: discord.Interaction, game: int | None = None) -> None:
        found = await resolve_game(self.bot, interaction, game, states=RUNNING)
        await think(interaction)
        reply = await self.bot.service.clear_orders(found.id, user_key(interaction.user))
        await send(interaction, submit_reply_lines(reply, found.lang))

    @submit.autocomplete("game")
    @show.autocomplete("game")
    @clear.autocomplete("game")
    async def _games(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        return await game_choices(self.bot, interaction, current)
