"""Secret orders: /orders submit|show|clear (ephemeral) and free text sent to the bot by DM."""

from __future__ import annotations

import io
import logging
import re
from typing import Any, Self

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_app.app import Parley
from bot.discord_app.builder import open_builder, open_view
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
from bot.discord_app.replies import reply
from bot.i18n import t
from bot.service import GameStatus
from bot.service.clock.lateness import Receipt
from bot.service.orders.secret import Seat

log = logging.getLogger("parley.discord")

GAME_PREFIX = re.compile(r"^\s*#(\d+)\s*[:\n ]?")
NO_PINGS = discord.AllowedMentions.none()
# Saved orders get their map unless the deadline is this close (seconds): then the text ack
# alone, so a crowd of last-minute orders is read and acknowledged in time.
MAP_QUIET = 20.0


async def _followup(
    interaction: discord.Interaction, lines: list[str], file: discord.File | None
) -> None:
    """Ephemeral follow-up (after `think`), the map with the last part: only the player sees
    it."""
    parts = chunks(lines)
    for i, part in enumerate(parts):
        last = i == len(parts) - 1
        await interaction.followup.send(
            part,
            files=[file] if file is not None and last else [],
            ephemeral=True,
            allowed_mentions=NO_PINGS,
        )


class GamePicker(
    discord.ui.DynamicItem[discord.ui.Select[discord.ui.View]],
    template=r"parley:pick:(?P<message>[0-9]+)",
):
    """For a player in several games: which one a DM's orders are for.

    The custom_id names the player's DM (`parley:pick:<message id>`), so a pick made after a
    restart still finds the orders: kept in memory, else read back from Discord, else the
    player is asked to send them again with `#<id>` (an order is never dropped silently).
    """

    def __init__(self, message_id: int, select: discord.ui.Select[discord.ui.View]) -> None:
        self.message_id = message_id
        select.custom_id = f"parley:pick:{message_id}"
        super().__init__(select)

    @classmethod
    def menu(cls, message_id: int, games: list[GameStatus]) -> discord.ui.View:
        options = [
            discord.SelectOption(label=f"#{g.id} {g.name}"[:100], value=str(g.id)) for g in games
        ]
        select: discord.ui.Select[discord.ui.View] = discord.ui.Select(
            placeholder=t("orders.pick_game", games[0].lang), options=options[:25]
        )
        view = discord.ui.View(timeout=None)
        view.add_item(cls(message_id, select))
        return view

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],  # noqa: ARG003 - the id says it all
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> Self:
        select = item if isinstance(item, discord.ui.Select) else discord.ui.Select()
        return cls(int(match["message"]), select)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        bot: Parley = interaction.client
        cog = bot.get_cog(OrdersCog.__cog_name__)
        assert isinstance(cog, OrdersCog)
        await cog.picked(interaction, self.message_id, int(self.item.values[0]))


class OrdersCog(commands.GroupCog, group_name="orders", description="Your secret orders"):
    def __init__(self, bot: Parley) -> None:
        self.bot = bot
        self.pending: dict[int, tuple[str, str]] = {}  # DM message id -> (user, orders text)
        self.accepted: dict[tuple[int, str], bool] = {}  # (game, user) -> last set saved?
        self.answered: dict[str, tuple[int, str]] = {}  # user -> (game, lang) of the last reply
        super().__init__()

    async def picked(self, interaction: discord.Interaction, message_id: int, game_id: int) -> None:
        """The game picked for the orders of DM `message_id` (see `GamePicker`)."""
        user = user_key(interaction.user)
        await interaction.response.defer(thinking=True)
        text = await self._pending_text(interaction, message_id, user)
        if text is None:
            game = await self.bot.service.status(game_id)
            log.warning("orders of DM %s lost for %s: asked to resend", message_id, user)
            lines, file = [t("orders.pick_lost", game.lang, id=game_id)], None
        else:
            sent = discord.utils.snowflake_time(message_id).timestamp()  # the DM's own time
            with self.bot.service.receiving(user, sent) as receipt:
                lines, file = await self.submitted(game_id, user, text, receipt)
            self.pending.pop(message_id, None)
        parts = chunks(lines)
        for i, part in enumerate(parts):
            last = i == len(parts) - 1
            files = [file] if file is not None and last else []
            await interaction.followup.send(part, files=files, allowed_mentions=NO_PINGS)

    async def _pending_text(
        self, interaction: discord.Interaction, message_id: int, user: str
    ) -> str | None:
        kept = self.pending.get(message_id)
        if kept is not None:
            return kept[1] if kept[0] == user else None
        channel = interaction.channel  # after a restart: read the DM again
        if not isinstance(channel, discord.abc.Messageable):
            return None
        try:
            message = await channel.fetch_message(message_id)
        except discord.HTTPException:
            return None
        if user_key(message.author) != user or not message.content.strip():
            return None
        return message.content

    async def orders_map(
        self, game_id: int, user: str, *, quiet: float = 0.0
    ) -> discord.File | None:
        """The player's own orders drawn on the board (secret: sent in a DM or ephemeral)."""
        png = await self.bot.service.orders_map(game_id, user, quiet=quiet)
        return None if png is None else discord.File(io.BytesIO(png), filename="orders.png")

    async def submitted(
        self, game_id: int, user: str, text: str, receipt: Receipt, seat: Seat | None = None
    ) -> tuple[list[str], discord.File | None]:
        """The reply to a submission, with the map of the orders when they were saved.
        `receipt`: when the player sent the set and when it arrived (issue 19); `seat`: the
        game's name and language if already read."""
        lines = await self.submit_lines(game_id, user, text, receipt, seat)
        saved = self.accepted.pop((game_id, user), False)
        # No map in the last seconds: the acknowledgement first (see TableService.orders_map).
        return lines, await self.orders_map(game_id, user, quiet=MAP_QUIET) if saved else None

    async def submit_lines(
        self, game_id: int, user: str, text: str, receipt: Receipt, seat: Seat | None = None
    ) -> list[str]:
        """Submit and describe the service's reading; refusals become the reply."""
        try:
            game = seat or await self.bot.service.seat(game_id)
            reply = await self.bot.service.submit(game_id, user, text, receipt=receipt)
        except Exception as exc:
            message = describe_refusal(exc)
            if message is None:
                raise
            log.info("refused orders from %s for game %s: %s", user, game_id, message)
            return [message]
        self.accepted[game_id, user] = reply.accepted
        self.answered[user] = (game_id, game.lang)
        head = t("orders.picked", game.lang, name=game.name, id=game.game_id)
        return [head, *submit_reply_lines(reply, game.lang)]

    # -- DMs -------------------------------------------------------------------------------

    @commands.Cog.listener()
    async def on_message(self, message: discord.Message) -> None:
        if message.guild is not None or message.author.bot or not message.content.strip():
            return
        user = user_key(message.author)
        # From its arrival the set is being read: a phase due to close waits for it if it was
        # sent in time (Discord's time of the message, issue 19). The reply goes after.
        with self.bot.service.receiving(user, message.created_at.timestamp()) as receipt:
            got = await self._dm_orders(message, user, receipt)
        if isinstance(got, tuple):
            game = self.answered.pop(user, None)  # the builder's button under the answer
            view = open_view(game[0], user, game[1]) if game else None
            await reply(message.channel, got[0], message.id, got[1], view)
            return
        self.pending[message.id] = (user, message.content)
        view = GamePicker.menu(message.id, got)
        await message.channel.send(
            t("orders.pick_game", got[0].lang), view=view, allowed_mentions=NO_PINGS
        )

    async def _dm_orders(
        self, message: discord.Message, user: str, receipt: Receipt
    ) -> tuple[list[str], discord.File | None] | list[GameStatus]:
        """The reply to a DM's orders, or the games to pick from (several running)."""
        text = message.content
        prefix = GAME_PREFIX.match(text)
        if prefix:
            return await self.submitted(int(prefix.group(1)), user, text[prefix.end() :], receipt)
        # Light: a few hundred of these come in a deadline's last seconds (issue 19).
        seats = await self.bot.service.seats(user)
        if not seats:
            log.info("refused DM orders from %s: not a player in a running game", user)
            return [t("game.not_in_any", "en")], None
        if len(seats) == 1:
            return await self.submitted(seats[0].game_id, user, text, receipt, seats[0])
        return [await self.bot.service.status(seat.game_id) for seat in seats]

    # -- slash commands --------------------------------------------------------------------

    @app_commands.command(name="submit", description="Send your orders (separate them with ;)")
    @app_commands.describe(text="Orders, e.g. A PAR - BUR; F BRE - MAO", game="Game number (#)")
    async def submit(
        self, interaction: discord.Interaction, text: str, game: int | None = None
    ) -> None:
        user = user_key(interaction.user)
        # The command's own time counts, as a DM's (issue 19); the reply goes after.
        with self.bot.service.receiving(user, interaction.created_at.timestamp()) as receipt:
            found = await resolve_game(self.bot, interaction, game, states=RUNNING)
            await think(interaction)
            got = await self.submitted(found.id, user, text, receipt)
        await _followup(interaction, *got)

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
            power=power_name(view.power, lang, found.variant),
        )
        lines = [head, *(f"• {o}" for o in view.orders)]
        if view.warnings:
            lines += [t("orders.warnings", lang), *(f"• {w}" for w in view.warnings)]
        user = user_key(interaction.user)
        await _followup(interaction, lines, await self.orders_map(found.id, user))

    @app_commands.command(name="clear", description="Clear your orders")
    @app_commands.describe(game="Game number (#)")
    async def clear(self, interaction: discord.Interaction, game: int | None = None) -> None:
        found = await resolve_game(self.bot, interaction, game, states=RUNNING)
        await think(interaction)
        reply = await self.bot.service.clear_orders(found.id, user_key(interaction.user))
        await send(interaction, submit_reply_lines(reply, found.lang))

    @app_commands.command(name="build", description="Build your orders from menus")
    @app_commands.describe(game="Game number (#)")
    async def build(self, interaction: discord.Interaction, game: int | None = None) -> None:
        found = await resolve_game(self.bot, interaction, game, states=RUNNING)
        await open_builder(interaction, found.id)  # ephemeral in a server (bot/discord_app/builder)

    @submit.autocomplete("game")
    @show.autocomplete("game")
    @build.autocomplete("game")
    @clear.autocomplete("game")
    async def _games(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        return await game_choices(self.bot, interaction, current)
