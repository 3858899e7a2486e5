"""What every cog needs: find the game a command is about, refuse cleanly, reply in parts."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot.core.map import load_map
from bot.core.model import ModelError, Power
from bot.discord_app.format import chunks, power_name
from bot.i18n import normalise_lang, t
from bot.service import GameStatus, ServiceError

if TYPE_CHECKING:
    from bot.discord_app.app import Parley

log = logging.getLogger("parley.discord")

RUNNING = ("active", "paused")


class Refusal(Exception):  # noqa: N818 - a refusal is not an error of the bot
    """A user asked for something they may not do or that makes no sense; told ephemerally."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def user_key(user: discord.abc.User) -> str:
    return str(user.id)


def locale_lang(interaction: discord.Interaction) -> str:
    return normalise_lang(interaction.locale)


async def send(
    interaction: discord.Interaction,
    lines: Sequence[str],
    *,
    ephemeral: bool = True,
) -> None:
    """Reply (or follow up after a deferral); never pings anyone: replies echo user text."""
    none = discord.AllowedMentions.none()
    for part in chunks(lines):
        if interaction.response.is_done():
            await interaction.followup.send(part, ephemeral=ephemeral, allowed_mentions=none)
        else:
            await interaction.response.send_message(
                part, ephemeral=ephemeral, allowed_mentions=none
            )


async def think(interaction: discord.Interaction, *, ephemeral: bool = True) -> None:
    """Defer before slow work so the interaction cannot time out (3 s)."""
    if not interaction.response.is_done():
        await interaction.response.defer(ephemeral=ephemeral, thinking=True)


async def games_here(bot: Parley, channel_id: int | None) -> list[GameStatus]:
    """The games whose table is this channel (not over), via the bot's channel index."""
    if channel_id is None:
        return []
    games = [await bot.service.status(g) for g in await bot.games_at(channel_id)]
    return [g for g in games if g.status != "over"]


async def resolve_game(
    bot: Parley,
    interaction: discord.Interaction,
    game_id: int | None,
    *,
    states: Sequence[str] = ("forming", *RUNNING),
) -> GameStatus:
    """The game an interaction is about: the `game` option, else the one at this table,
    else the user's only game; otherwise a refusal that says how to choose."""
    lang = locale_lang(interaction)
    if game_id is not None:
        return await bot.service.status(game_id)
    here = [g for g in await games_here(bot, interaction.channel_id) if g.status in states]
    if len(here) == 1:
        return here[0]
    mine = [g for g in await bot.service.games_of(user_key(interaction.user)) if g.status in states]
    if len(mine) == 1:
        return mine[0]
    if not mine and not here:
        raise Refusal(t("game.none_here", lang))
    listed = ", ".join(f"{g.name} (#{g.id})" for g in (here or mine))
    raise Refusal(t("game.several", lang, games=listed))


async def guild_only_check(interaction: discord.Interaction) -> bool:
    """`guild_only()` only hides a command in DM clients; this refuses it in code."""
    if interaction.guild_id is None:
        raise app_commands.NoPrivateMessage
    return True


def require_gm(game: GameStatus, interaction: discord.Interaction) -> None:
    """GM rights are checked here, in code: `default_permissions` is only a hint to clients."""
    if user_key(interaction.user) != game.gm:
        raise Refusal(t("gm.only_gm", game.lang))


def parse_power(text: str | None, lang: str, variant: str) -> Power | None:
    """A power of the game's variant named in any of its languages; an unknown one is refused
    in `lang` (the game's)."""
    if not text:
        return None
    game_map = load_map(variant)
    try:
        return game_map.parse_power(text)
    except ModelError:
        known = ", ".join(game_map.power_name(p, lang) for p in game_map.powers)
        raise Refusal(t("error.unknown_power", lang, value=text, known=known)) from None


def power_choices(
    powers: Sequence[Power], current: str, lang: str, variant: str
) -> list[app_commands.Choice[str]]:
    typed = current.strip().lower()
    out = []
    for power in powers:
        label = power_name(power, lang, variant)
        if typed in label.lower() or typed in power.value.lower():
            out.append(app_commands.Choice(name=label, value=power.value))
    return out[:25]


async def game_choices(
    bot: Parley, interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[int]]:
    """Games at this table and the user's own games, for the `game` option."""
    here = await games_here(bot, interaction.channel_id)
    mine = await bot.service.games_of(user_key(interaction.user))
    picked = list({g.id: g for g in [*here, *mine]}.values())
    typed = current.strip().lower().lstrip("#")
    return [
        app_commands.Choice(name=f"#{g.id} {g.name} ({g.status})"[:100], value=g.id)
        for g in picked
        if typed in f"{g.id} {g.name}".lower()
    ][:25]


def describe_refusal(exc: BaseException, fallback_lang: str = "en") -> str | None:
    """A refusal's text: in the game's language, or `fallback_lang` (the user's locale) for a
    service error that knows no game (e.g. "no game #12")."""
    if isinstance(exc, ServiceError) and exc.lang is None:
        return exc.localized(fallback_lang)
    if isinstance(exc, Refusal | ServiceError):
        return exc.message
    return None
