"""The status board of each game (bot/discord_app/status_board.py): what asks for a refresh.
No command: the board is a message the bot keeps. The notifier touches a game after each of
its events; here, anything a user does that may change a board (an interaction: an order, a
ready, a ballot, a GM's command; a DM: orders), a deleted board, and the start-up."""

from __future__ import annotations

import asyncio
import logging

import discord
from discord.ext import commands

from bot.discord_app.app import Parley
from bot.discord_app.status_board import StatusBoards
from bot.service import ServiceError

log = logging.getLogger(__name__)
SETTLE = 2.0  # seconds for an order or a ballot to be stored before the board reads it


class BoardCog(commands.Cog, name="StatusBoard"):
    def __init__(self, bot: Parley) -> None:
        self.bot = bot
        self.boards = StatusBoards(bot)

    def touch(self, game_id: int) -> None:
        self.boards.touch(game_id)

    async def cog_unload(self) -> None:
        await self.boards.close()

    async def _touch_user(self, user: str, later: float = 0.0) -> None:
        """`later`: after a component or a DM, whose handler runs beside this listener (its
        effect is not stored yet); a slash command's completion comes after its effect."""
        if later:
            await asyncio.sleep(later)
        try:
            games = await self.bot.service.games_of(user)
        except ServiceError as exc:
            log.warning("status boards of %s: %s", user, exc)
            return
        for game in games:
            self.boards.touch(game.id)

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        try:
            games = await self.bot.service.list_games()
        except ServiceError as exc:
            log.warning("status boards at start-up: %s", exc)
            return
        for game in games:
            self.boards.touch(game.id)

    @commands.Cog.listener()
    async def on_app_command_completion(
        self, interaction: discord.Interaction, _command: object
    ) -> None:
        await self._touch_user(str(interaction.user.id))

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        if interaction.type in (
            discord.InteractionType.component,
            discord.InteractionType.modal_submit,
        ):
            await self._touch_user(str(interaction.user.id), later=SETTLE)

    @commands.Cog.listener()
    async def on_message(self, message: discord.Message) -> None:
        if message.guild is None and not message.author.bot:
            await self._touch_user(str(message.author.id), later=SETTLE)

    @commands.Cog.listener()
    async def on_raw_message_delete(self, payload: discord.RawMessageDeleteEvent) -> None:
        self.boards.deleted(payload.message_id)
