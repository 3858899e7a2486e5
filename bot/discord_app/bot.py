"""The Discord side of Parley: the bot class, a thin adapter between Discord and the table
service. It installs the French/English command translator, loads the cogs it is given
(`cogs/*`), syncs the slash commands and hands the service a
`DiscordNotifier` so that deadlines, results and maps reach the table and spectator channels.
It implements `bot.discord_app.app.Parley`, the protocol its modules and cogs depend on;
`bot/client.py` composes it with the cogs.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from functools import partial
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_app.gateway import caught_up
from bot.discord_app.interactions import describe_refusal, locale_lang, send
from bot.discord_app.notifier import DiscordNotifier
from bot.discord_app.pacing import Pacer, trace
from bot.discord_app.uncertain import surface
from bot.i18n import t
from bot.i18n.translator import ParleyTranslator
from bot.service import TableService

log = logging.getLogger("parley.discord")


def intents(*, message_content: bool = False, members: bool = False) -> discord.Intents:
    """Guilds (channels) and DM messages. DMs to the bot carry their text without the
    privileged Message Content intent; ask for it only if the portal has it enabled."""
    wanted = discord.Intents.none()
    wanted.guilds = True
    wanted.dm_messages = True
    wanted.message_content = message_content
    # Orders typed in a power's own channel (cogs/casual): guild messages, read with the text.
    wanted.guild_messages = message_content
    # A player leaving the server (GUILD_MEMBER_REMOVE): only with Server Members (privileged).
    wanted.members = members
    return wanted


class DiscordBot(commands.Bot):
    """The adapter: a discord.py bot around a `TableService`, with the given extensions."""

    def __init__(
        self,
        service: TableService,
        *,
        extensions: Sequence[str] = (),
        message_content: bool = False,
        members: bool = False,
        sync_commands: bool = True,
        **options: Any,
    ) -> None:
        # Several processes on one database: the global rate is shared through it.
        rate = getattr(service, "rate", None)
        self.pacer = Pacer(shared=None if rate is None else rate.turn)
        # Every REST call waits its turn under the global limit (see `pacing`); a post
        # whose fate is unknown is raised, not sent again (see `uncertain`).
        options.setdefault("http_trace", surface(trace(self.pacer)))
        # The Server Members intent is for a member leaving only: no member list at start-up.
        options.setdefault("chunk_guilds_at_startup", False)
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents(message_content=message_content, members=members),
            help_command=None,
            allowed_mentions=discord.AllowedMentions.none(),
            **options,
        )
        self.service = service
        self.notifier = DiscordNotifier(self)
        self.extensions_to_load = tuple(extensions)
        self.sync_commands = sync_commands
        self.tree.error(self.on_app_command_error)
        self._tables: dict[int, set[int]] | None = None  # table channel -> game ids

    async def games_at(self, channel_id: int) -> set[int]:
        """Games whose table is `channel_id` (or one of its powers' own channels, made by the
        bot: bot/discord_app/channels.py); the index is read once, then kept up to date."""
        if self._tables is None:
            tables: dict[int, set[int]] = {}
            for game in await self.service.list_games():
                private = (game.meta.get("casual") or {}).get("private") or {}
                for channel in (game.meta.get("channel"), *private.values()):  # (and cogs/casual)
                    if channel:
                        tables.setdefault(int(channel), set()).add(game.id)
            self._tables = tables
        return set(self._tables.get(channel_id, ()))

    async def table_created(self, channel_id: int, game_id: int) -> None:
        await self.games_at(channel_id)  # load the index first
        assert self._tables is not None
        self._tables.setdefault(channel_id, set()).add(game_id)

    async def setup_hook(self) -> None:
        await self.tree.set_translator(ParleyTranslator())
        for name in self.extensions_to_load:
            await self.load_extension(name)
        # Deliver events only once the bot can post: pending ones (after a restart) go first.
        self.service.notifier = self.notifier
        # A phase closes once the bot has read what Discord sent it in time (issue 19).
        self.service.follow_gateway(partial(caught_up, self))
        self.service.start()  # (before the sync: an overdue phase waits for nothing, issue 36)
        if self.sync_commands:
            await self.tree.sync()

    async def close(self) -> None:
        follow = getattr(self.service, "follow_gateway", None)  # (None in a few tests)
        if follow is not None:
            follow(None)  # closed: no catch-up to wait for
        await super().close()

    async def on_app_command_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        original = getattr(error, "original", error)
        command = interaction.command.qualified_name if interaction.command else "?"
        refusal = describe_refusal(original, locale_lang(interaction))
        if refusal is None and isinstance(error, app_commands.NoPrivateMessage):
            refusal = t("gm.guild_only", locale_lang(interaction))
        if refusal is not None:
            log.info("refused /%s for user %s: %s", command, interaction.user.id, refusal)
            await send(interaction, [refusal])
            return
        log.error("/%s failed", command, exc_info=original)
        try:
            await send(interaction, [t("error.generic", locale_lang(interaction))])
        except discord.HTTPException:
            log.warning("could not tell user %s about the failure", interaction.user.id)
