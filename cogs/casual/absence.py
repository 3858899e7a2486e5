"""/absence from: to: (a player) and /absences approve|refuse|list|settings (the GM): a
player away for some days; the game's table is told when a deadline moves and why
(bot/service/phases/absences.py holds the rules)."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_app.app import Parley
from bot.discord_app.format import mention, power_name, stamp
from bot.discord_app.interactions import (
    RUNNING,
    Refusal,
    game_choices,
    require_gm,
    resolve_game,
    send,
    user_key,
)
from bot.service import GameStatus
from bot.service.clock.schedule import ct
from bot.service.phases.absences import Absence, Absences, policy

MODES = [
    app_commands.Choice(name="Deadlines move to the end of the absence", value="move"),
    app_commands.Choice(name="Deadlines stand: the power holds", value="hold"),
]


def read_time(text: str, zone: str, *, end: bool, lang: str) -> float:
    """`2026-10-24` or `2026-10-24 18:00`, in the game's time zone; a day alone ends at
    midnight after it when it ends an absence."""
    tz = ZoneInfo(zone)
    raw = text.strip()
    try:
        if len(raw) <= 10:
            day = date.fromisoformat(raw) + timedelta(days=1 if end else 0)
            return datetime.combine(day, datetime.min.time(), tzinfo=tz).timestamp()
        return datetime.fromisoformat(raw).replace(tzinfo=tz).timestamp()
    except ValueError:
        raise Refusal(ct("absence_date_text", lang, value=raw)) from None


def describe(a: Absence, game: GameStatus) -> str:
    return ct(
        "absence_line",
        game.lang,
        id=a.id,
        user=mention(a.user),
        power=power_name(a.power, game.lang, game.variant),
        start=stamp(a.start),
        end=stamp(a.end),
        status=ct(f"absence_{a.status}", game.lang),
    )


class AbsenceCog(commands.Cog):
    def __init__(self, bot: Parley) -> None:
        self.bot = bot
        self.absences = Absences(bot.service)

    async def _zone(self, game: GameStatus) -> str:
        ctx = await self.bot.service.table.load_ctx(game.id)
        return ctx.clock.schedule.zone if ctx.clock.schedule else "UTC"

    @app_commands.command(name="absence", description="Ask to be away (the GM approves)")
    @app_commands.rename(start="from", end="to")
    @app_commands.describe(
        start="First day away, e.g. 2026-10-24 (or 2026-10-24 18:00)",
        end="Last day away, e.g. 2026-10-27",
        game="Game number (#)",
    )
    @app_commands.guild_only()
    async def absence(
        self, interaction: discord.Interaction, start: str, end: str, game: int | None = None
    ) -> None:
        found = await resolve_game(self.bot, interaction, game, states=RUNNING)
        zone = await self._zone(found)
        begin = read_time(start, zone, end=False, lang=found.lang)
        until = read_time(end, zone, end=True, lang=found.lang)
        asked = await self.absences.request(found.id, user_key(interaction.user), begin, until)
        await send(interaction, [ct("absence_asked", found.lang), describe(asked, found)])
        text = ct("absence_to_gm", found.lang, line=describe(asked, found), id=asked.id)
        await self.bot.notifier.dm(found.gm, text, f"absence:{found.id}:{asked.id}")

    group = app_commands.Group(
        name="absences", description="Players' absences (GM)", guild_only=True
    )

    @group.command(name="approve", description="Approve an absence (GM)")
    @app_commands.describe(absence="Absence number", game="Game number (#)")
    async def approve(
        self, interaction: discord.Interaction, absence: int, game: int | None = None
    ) -> None:
        await self._decide(interaction, absence, game, approve=True)

    @group.command(name="refuse", description="Refuse an absence (GM)")
    @app_commands.describe(absence="Absence number", game="Game number (#)")
    async def refuse(
        self, interaction: discord.Interaction, absence: int, game: int | None = None
    ) -> None:
        await self._decide(interaction, absence, game, approve=False)

    async def _decide(
        self, interaction: discord.Interaction, absence: int, game: int | None, *, approve: bool
    ) -> None:
        found = await resolve_game(self.bot, interaction, game, states=RUNNING)
        require_gm(found, interaction)
        decided, deadline = await self.absences.decide(
            found.id, user_key(interaction.user), absence, approve=approve
        )
        lines = [describe(decided, found)]
        if approve:
            _days, mode = policy(found.meta)
            if deadline is not None:
                lines.append(ct("absence_moved", found.lang, deadline=stamp(deadline)))
            elif mode == "hold":
                lines.append(ct("absence_holds", found.lang))
        # Everyone at the table sees the decision, and why a deadline moved.
        table = int(found.meta.get("channel") or 0)
        if table:
            await self.bot.get_partial_messageable(table).send(
                "\n".join(lines), allowed_mentions=discord.AllowedMentions.none()
            )
        await send(interaction, lines)

    @group.command(name="list", description="The absences of a game")
    @app_commands.describe(game="Game number (#)")
    async def list_(self, interaction: discord.Interaction, game: int | None = None) -> None:
        found = await resolve_game(self.bot, interaction, game)
        listed = await self.absences.of_game(found.id)
        lines = [describe(a, found) for a in listed] or [ct("absence_none", found.lang)]
        await send(interaction, lines)

    @group.command(name="settings", description="Absence limit and what happens (GM)")
    @app_commands.describe(
        days="Most days one player may be away", mode="What deadlines do", game="Game number (#)"
    )
    @app_commands.choices(mode=MODES)
    async def settings(
        self,
        interaction: discord.Interaction,
        days: app_commands.Range[int, 0, 365],
        mode: app_commands.Choice[str],
        game: int | None = None,
    ) -> None:
        found = await resolve_game(self.bot, interaction, game)
        require_gm(found, interaction)
        await self.absences.set_policy(found.id, user_key(interaction.user), days, mode.value)
        await send(interaction, [ct(f"absence_policy_{mode.value}", found.lang, days=days)])

    @absence.autocomplete("game")
    @approve.autocomplete("game")
    @refuse.autocomplete("game")
    @list_.autocomplete("game")
    @settings.autocomplete("game")
    async def _games(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        return await game_choices(self.bot, interaction, current)
