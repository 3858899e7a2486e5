"""/game create|join|start|status|leave: forming a table and following it."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.core import catalogue
from bot.core.map import bundled_maps, load_map
from bot.core.presets import list_presets
from bot.core.scoring import SYSTEMS
from bot.discord_app.app import Parley
from bot.discord_app.channels import set_up
from bot.discord_app.format import mention, power_name, settings_lines, status_lines
from bot.discord_app.interactions import (
    Refusal,
    game_choices,
    guild_only_check,
    locale_lang,
    parse_power,
    power_choices,
    require_gm,
    resolve_game,
    send,
    think,
    user_key,
)
from bot.i18n import t
from bot.service import ServiceError, clock_names, parse_times
from bot.service.clock.clocks import parse_duration
from bot.service.clock.schedule import parse_schedule

# A game's language: one choice per catalogue language, named by its `[meta] name`.
LANGUAGES = [
    app_commands.Choice(name=catalogue.meta(code).name, value=code)
    for code in catalogue.languages()
]


# The map palettes (renderer.PALETTES) a GM may choose.
PALETTES = [
    app_commands.Choice(name="Default colours", value="default"),
    app_commands.Choice(name="Colour-blind friendly", value="colorblind"),
]
# /game create channels: the bot makes the game's category and channels, or uses these.
CHANNELS = [
    app_commands.Choice(
        name="Made by the bot (category, press, a channel per power)", value="auto"
    ),
    app_commands.Choice(name="This channel (and the press channel given)", value="here"),
]
# Stab! rule 4: how retreats are ordered, fixed at creation (the GM note's default first).
RETREATS = [
    app_commands.Choice(name="A separate retreat phase", value="phase"),
    app_commands.Choice(name="Conditional, written with the moves", value="conditional"),
]


def _overrides(times: str, years: int | None, lang: str) -> dict[str, Any]:
    """The clock overrides of /game create's `times` and `years` (a refusal in `lang`)."""
    try:
        overrides = parse_times(times) if times.strip() else {}
    except ServiceError as exc:
        exc.lang = lang
        raise
    return {**overrides, "years": years} if years else overrides


def casual_overrides(schedule: str, reminders: str, lang: str) -> dict[str, Any]:
    """The clock overrides of /game create's `schedule` and `reminders`
    (bot.service.clock.schedule)."""
    out: dict[str, Any] = {}
    try:
        if schedule.strip():
            out["schedule"] = parse_schedule(schedule).to_json()
        if reminders.strip():
            out["reminders"] = [parse_duration(r) for r in reminders.replace(",", " ").split()]
    except ServiceError as exc:
        exc.lang = lang
        raise
    return out


def _matching(names: list[str], current: str) -> list[app_commands.Choice[str]]:
    typed = current.strip().lower()
    return [app_commands.Choice(name=n, value=n) for n in names if typed in n.lower()][:25]


@app_commands.guild_only()
class GameCog(
    commands.GroupCog, group_name="game", description="Create, join, start and follow a game"
):
    def __init__(self, bot: Parley) -> None:
        self.bot = bot
        super().__init__()

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        return await guild_only_check(interaction)

    @app_commands.command(name="create", description="Create a game at this table (this channel)")
    @app_commands.describe(
        name="Name of the game",
        clock="Clock preset (casual, edc2023, ...)",
        rules="Rule set (datc, edc2023, ...)",
        language="Language of the game's orders and messages",
        press="Negotiation channel locked when press is closed",
        years="Game years before the end (default: the clock's)",
        early="Adjudicate early when every player is ready",
        variant="Variant: the board and its powers (standard, sandard)",
        times="Custom clock, e.g. negotiation: 10m writing: 2m reading: 3m retreats: 2m",
        scoring="Scoring system (default: the rules')",
        palette="Map colours (colour-blind: the game's maps and the players' order maps)",
        retreats="Stab! (hidden movement) only: how retreats are ordered",
        channels="Channels: made by the bot (default where it may), or this one",
        schedule="Deadlines at a fixed time, e.g. at: 21:00 zone: Europe/Paris every: 2 skip: sun",
        reminders="Reminders before each deadline, e.g. 24h 1h",
    )
    @app_commands.choices(
        language=LANGUAGES, palette=PALETTES, retreats=RETREATS, channels=CHANNELS
    )
    async def create(  # noqa: PLR0917 - one parameter per slash-command option
        self,
        interaction: discord.Interaction,
        name: str = "",
        clock: str = "casual",
        rules: str = "datc",
        language: app_commands.Choice[str] | None = None,
        press: discord.TextChannel | None = None,
        years: app_commands.Range[int, 1, 100] | None = None,
        early: bool | None = None,
        variant: str = "standard",
        times: str = "",
        scoring: str = "",
        palette: app_commands.Choice[str] | None = None,
        retreats: app_commands.Choice[str] | None = None,
        channels: app_commands.Choice[str] | None = None,
        schedule: str = "",
        reminders: str = "",
    ) -> None:
        lang = language.value if language else locale_lang(interaction)
        overrides = {
            **_overrides(times, years, lang),
            **casual_overrides(schedule, reminders, lang),
        }
        if variant not in bundled_maps():  # a name, never a path, from Discord
            known = ", ".join(bundled_maps())
            # Stab! is a rule preset (`hidden_movement`) on any board, not a map of its own:
            # `variant:stab` (as `parley demo --variant stab` suggests) is told to use rules:.
            key = "error.variant_is_rules" if variant in list_presets() else "error.unknown_variant"
            raise Refusal(t(key, lang, value=variant, known=known))
        meta = {
            "guild": interaction.guild_id,
            "channel": interaction.channel_id,
            "press": [press.id] if press else [],
            "spectators": [],
            **({"scoring": scoring} if scoring else {}),
            **({"palette": palette.value} if palette else {}),
        }
        game = await self.bot.service.create_game(
            user_key(interaction.user),
            name=name,
            clock=clock,
            rules=rules,
            lang=lang,
            meta=meta,
            clock_overrides=overrides or None,
            early_adjudication=early,
            variant=variant,
            stab_retreats=retreats.value if retreats else None,
        )
        await self.bot.table_created(int(interaction.channel_id or 0), game.id)
        text = t(
            "game.created",
            lang,
            name=game.name,
            id=game.id,
            gm=mention(game.gm),
            clock=game.clock,
            rules=game.rules,
            lang=lang,
        )
        settings = await self.bot.service.game_settings(game.id)
        summary = [text, *settings_lines(settings, game.id)]
        made = await set_up(
            self.bot,
            interaction,
            game,
            mode=channels.value if channels else None,
            press_given=press is not None,
            stab=bool(settings.stab_retreats),  # a hidden-movement preset
            summary=summary,
        )
        await send(interaction, [*summary, *made], ephemeral=False)

    @create.autocomplete("clock")
    async def _clock_names(
        self, _interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return _matching(clock_names(), current)

    @create.autocomplete("variant")
    async def _variants(
        self, _interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return _matching(list(bundled_maps()), current)

    @create.autocomplete("scoring")
    async def _scoring(
        self, _interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return _matching(sorted(SYSTEMS), current)

    @create.autocomplete("rules")
    async def _rule_sets(
        self, _interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return _matching(list_presets(), current)

    @app_commands.command(
        name="join", description="Join a game (a power of your choice, or at random)"
    )
    @app_commands.describe(game="Game number (#)", power="Power (empty: at random)")
    async def join(
        self, interaction: discord.Interaction, game: int | None = None, power: str | None = None
    ) -> None:
        status = await resolve_game(self.bot, interaction, game, states=("forming",))
        got = await self.bot.service.join(
            status.id, user_key(interaction.user), parse_power(power, status.lang, status.variant)
        )
        text = t(
            "game.joined",
            status.lang,
            user=mention(interaction.user.id),
            power=power_name(got, status.lang, status.variant),
            name=status.name,
            id=status.id,
        )
        await send(interaction, [text], ephemeral=False)

    @join.autocomplete("power")
    async def _free_powers(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        game_id = getattr(interaction.namespace, "game", None)
        try:
            status = await resolve_game(self.bot, interaction, game_id, states=("forming",))
        except Exception:  # noqa: BLE001 - autocomplete must answer, even with nothing found
            return []
        free = [p for p in load_map(status.variant).powers if p not in status.players]
        return power_choices(free, current, locale_lang(interaction), status.variant)

    @app_commands.command(name="start", description="Start the game (GM)")
    @app_commands.describe(game="Game number (#)")
    async def start(self, interaction: discord.Interaction, game: int | None = None) -> None:
        status = await resolve_game(self.bot, interaction, game, states=("forming",))
        require_gm(status, interaction)
        await think(interaction)
        await self.bot.service.start_game(status.id, user_key(interaction.user))
        await send(interaction, [t("game.started", status.lang, name=status.name, id=status.id)])

    @app_commands.command(name="status", description="Show the state of a game")
    @app_commands.describe(game="Game number (#)")
    async def status(self, interaction: discord.Interaction, game: int | None = None) -> None:
        found = await resolve_game(
            self.bot, interaction, game, states=("forming", "active", "paused", "over")
        )
        await send(interaction, status_lines(found, found.lang))

    @app_commands.command(name="leave", description="Leave a game")
    @app_commands.describe(game="Game number (#)")
    async def leave(self, interaction: discord.Interaction, game: int | None = None) -> None:
        status = await resolve_game(self.bot, interaction, game)
        power = await self.bot.service.leave(status.id, user_key(interaction.user))
        text = t(
            "game.left",
            status.lang,
            name=status.name,
            id=status.id,
            power=power_name(power, status.lang, status.variant),
        )
        await send(interaction, [text])

    @join.autocomplete("game")
    @start.autocomplete("game")
    @status.autocomplete("game")
    @leave.autocomplete("game")
    async def _games(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        return await game_choices(self.bot, interaction, current)
