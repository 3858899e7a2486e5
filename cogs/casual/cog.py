"""Casual servers: orders in a power's own channel, private press threads, the GM's reveal, and
a player leaving the server told to the GM (bot/discord_app/channels.py makes the channels).

Orders typed in a power's private channel go through the same path as a DM (OrdersCog:
`seats` are not needed, the channel names the game and power; same checks, same reply, one
store). Discord sends a guild message's text only to a bot with the Message Content intent
(`parley run --message-content`); without it `/orders submit` works in that channel as anywhere.

`/press open <power> [power2] [power3]` opens a private thread (type 12, not invitable) in the
game's public press channel with the players of those powers (and the GM if `/press gm` said
so). A thread talks by its parent's "Send Messages in Threads": the press lock of the clock,
which denies it to every player in the press channel, closes these threads too. Under Stab! a
thread is named by powers only and the bot posts nothing of the board in it.

A member leaving the server (GUILD_MEMBER_REMOVE) reaches the bot only with the privileged
Server Members intent; without it, the GM still learns of a player the bot cannot reach when
a DM fails (DiscordNotifier.tell_dm_closed).
"""

from __future__ import annotations

import logging
from typing import Any, Final

import discord
from discord import app_commands
from discord.ext import commands

from bot.core.model import Power
from bot.discord_app import channels
from bot.discord_app.app import Parley
from bot.discord_app.format import mention, power_name
from bot.discord_app.interactions import (
    RUNNING,
    Refusal,
    game_choices,
    parse_power,
    require_gm,
    resolve_game,
    send,
    think,
    user_key,
)
from bot.discord_app.replies import reply
from bot.service import GameStatus
from bot.service.clock.schedule import ct
from bot.service.games.access import BOT
from cogs.orders.cog import OrdersCog

log = logging.getLogger("parley.discord")

THREAD_ARCHIVE_MINUTES: Final = 10080  # a week: Discord's longest auto-archive (1 h, 1 d, 3 d, 7 d)
PRIVATE_THREAD: Final = 12


def press_channel(game: GameStatus) -> int | None:
    casual = game.meta.get("casual") or {}
    if casual.get("press"):
        return int(casual["press"])
    press = game.meta.get("press") or []
    return int(press[0]) if press else None


def power_of(game: GameStatus, user: str) -> Power | None:
    for power, holder in game.players.items():
        if holder == user:
            return power
    return None


@app_commands.guild_only()
class PressCog(commands.GroupCog, group_name="press", description="Private press between powers"):
    def __init__(self, bot: Parley) -> None:
        self.bot = bot
        super().__init__()

    # -- orders in a power's own channel -----------------------------------------------------

    @commands.Cog.listener()
    async def on_message(self, message: discord.Message) -> None:
        if message.guild is None or message.author.bot or not message.content.strip():
            return
        here = await self.bot.games_at(message.channel.id)  # (in memory: most chat stops here)
        if not here:
            return
        user = user_key(message.author)
        for seat in await self.bot.service.seats(user):
            if seat.game_id not in here:
                continue
            game = await self.bot.service.status(seat.game_id)
            power = channels.power_at(game, message.channel.id)
            orders = self.bot.get_cog("OrdersCog")
            if power is None or game.players.get(power) != user:
                continue  # the table, or a power this player does not hold
            if not isinstance(orders, OrdersCog):
                return
            sent = message.created_at.timestamp()  # Discord's time, as for a DM (issue 19)
            with self.bot.service.receiving(user, sent) as receipt:
                lines, file = await orders.submitted(game.id, user, message.content, receipt, seat)
            await reply(message.channel, lines, message.id, file)
            return

    # -- private press -----------------------------------------------------------------------

    @app_commands.command(name="open", description="Open a private press thread with powers")
    @app_commands.describe(
        power="Power to talk with",
        power2="Another power (group press)",
        power3="Another power",
        game="Game number (#)",
    )
    async def open(
        self,
        interaction: discord.Interaction,
        power: str,
        power2: str | None = None,
        power3: str | None = None,
        game: int | None = None,
    ) -> None:
        found = await resolve_game(self.bot, interaction, game, states=RUNNING)
        user = user_key(interaction.user)
        mine = power_of(found, user)
        if mine is None:
            raise Refusal(ct("press_not_player", found.lang))
        others = [parse_power(p, found.lang, found.variant) for p in (power, power2, power3) if p]
        group = sorted({mine, *(p for p in others if p is not None)}, key=lambda p: p.value)
        if len(group) < 2 or any(p not in found.players for p in group):
            raise Refusal(ct("press_powers", found.lang))
        parent = press_channel(found)
        if parent is None:
            raise Refusal(ct("press_no_channel", found.lang))
        if not found.press_open:
            raise Refusal(ct("press_closed", found.lang))
        threads: list[dict[str, Any]] = list(found.meta.get("press_threads") or [])
        ids = [p.value for p in group]
        for thread in threads:
            if sorted(thread["powers"]) == ids:
                raise Refusal(ct("press_exists", found.lang, thread=f"<#{thread['id']}>"))
        await think(interaction)
        names = [power_name(p, found.lang, found.variant) for p in group]
        made = await self.bot.http.start_thread_without_message(
            parent,
            name=" – ".join(names)[:100],
            auto_archive_duration=THREAD_ARCHIVE_MINUTES,
            type=PRIVATE_THREAD,
            invitable=False,  # players do not bring in others: the bot decides who is in
        )
        thread_id = int(made["id"])
        members = [found.players[p] for p in group]
        if found.meta.get("press_gm"):
            members.append(found.gm)
        for member in members:
            await self.bot.http.add_user_to_thread(thread_id, int(member))
        threads.append({"id": str(thread_id), "powers": ids})
        await self.bot.service.set_meta(found.id, "press_threads", threads, by=BOT)
        opened = ct("press_opened", found.lang, powers=", ".join(names))
        await self.bot.get_partial_messageable(thread_id).send(
            opened, allowed_mentions=discord.AllowedMentions.none()
        )
        await send(interaction, [ct("press_open_reply", found.lang, thread=f"<#{thread_id}>")])

    @app_commands.command(name="gm", description="Whether the GM is in new press threads (GM)")
    @app_commands.describe(
        reads="The GM joins the private press threads opened from now on", game="Game number (#)"
    )
    async def gm(
        self, interaction: discord.Interaction, reads: bool, game: int | None = None
    ) -> None:
        found = await resolve_game(self.bot, interaction, game)
        require_gm(found, interaction)
        await self.bot.service.set_meta(found.id, "press_gm", reads, by=found.gm)
        await send(interaction, [ct("press_gm_on" if reads else "press_gm_off", found.lang)])

    @app_commands.command(
        name="reveal", description="Open the powers' channels to every player (GM, game over)"
    )
    @app_commands.describe(game="Game number (#)")
    async def reveal(self, interaction: discord.Interaction, game: int | None = None) -> None:
        found = await resolve_game(self.bot, interaction, game, states=("over",))
        require_gm(found, interaction)
        if not found.meta.get("casual"):
            raise Refusal(ct("no_game_channels", found.lang))
        await think(interaction)
        await channels.reveal(self.bot, found, private=True)
        await send(interaction, [ct("revealed", found.lang)])

    @open.autocomplete("game")
    @gm.autocomplete("game")
    @reveal.autocomplete("game")
    async def _games(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        return await game_choices(self.bot, interaction, current)

    # -- a member leaves the server ----------------------------------------------------------

    @commands.Cog.listener()
    async def on_raw_member_remove(self, payload: discord.RawMemberRemoveEvent) -> None:
        """Needs the Server Members intent (privileged): tell the GM of each running game."""
        user = str(payload.user.id)
        for game in await self.bot.service.games_of(user):
            if game.status == "over" or int(game.meta.get("guild") or 0) != payload.guild_id:
                continue
            power = power_of(game, user)
            if power is None:
                continue
            text = ct(
                "player_left",
                game.lang,
                user=mention(user),
                power=power_name(power, game.lang, game.variant),
                name=game.name,
                id=game.id,
            )
            key = f"left:{game.id}:{user}:{discord.utils.utcnow().timestamp():.0f}"
            if not await self.bot.notifier.dm(game.gm, text, key):
                log.warning("game %s: could not tell the GM that %s left", game.id, user)
