"""/history, /replay, /export: a game's past, for anyone (public information only).

Answers are ephemeral (they would flood the table otherwise) and work for finished games too.
"""

from __future__ import annotations

import asyncio
import io
import json

import discord
from discord import app_commands
from discord.ext import commands

from bot.core.language.notation import notation_lines
from bot.core.map import load_map
from bot.core.model import ModelError, Phase
from bot.core.stab.views import Sight
from bot.discord_app.app import Parley
from bot.discord_app.format import chunks, phase_name
from bot.discord_app.interactions import (
    Refusal,
    game_choices,
    guild_only_check,
    locale_lang,
    resolve_game,
    think,
    user_key,
)
from bot.i18n import t
from bot.service import GameStatus, NotFoundError
from bot.service.games.record import game_record, phase_outcomes, report_text
from renderer import Frame, render_gif

ANY_STATE = ("forming", "active", "paused", "over")
MAX_FRAMES = 120  # a GIF Discord accepts (the last phases are kept)


class HistoryCog(commands.Cog):
    def __init__(self, bot: Parley) -> None:
        self.bot = bot

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        return await guild_only_check(interaction)

    async def _game(self, interaction: discord.Interaction, game: int | None) -> GameStatus:
        """The `game` option; else the latest game at this table, over or not; else the
        user's only game."""
        if game is None:
            here = await self.bot.games_at(interaction.channel_id or 0)
            if here:
                game = max(here)
        found = await resolve_game(self.bot, interaction, game, states=ANY_STATE)
        await think(interaction)
        return found

    async def _files(
        self, interaction: discord.Interaction, lines: list[str], files: list[discord.File]
    ) -> None:
        parts = chunks(lines)
        none = discord.AllowedMentions.none()
        for i, part in enumerate(parts):
            last = i == len(parts) - 1
            await interaction.followup.send(
                part, files=files if last else [], ephemeral=True, allowed_mentions=none
            )

    @app_commands.command(name="history", description="Show a past phase's map and results")
    @app_commands.describe(phase="Phase, e.g. S1901M or Spring 1901", game="Game number (#)")
    @app_commands.guild_only()
    async def history(
        self, interaction: discord.Interaction, phase: str = "", game: int | None = None
    ) -> None:
        found = await self._game(interaction, game)
        lang = found.lang
        wanted = None
        if phase:
            try:
                wanted = str(Phase.parse(phase))
            except (ModelError, ValueError):
                raise Refusal(t("history.bad_phase", lang, phase=phase)) from None
        played = [
            p for p in await self.bot.service.phases(found.id) if p.adjudicated_at is not None
        ]
        played = [p for p in played if p.status in ("done", "skipped")]
        chosen = [p for p in played if wanted is None or p.phase == wanted]
        if not chosen:
            raise _nothing(wanted, lang)
        if found.hidden:  # Stab!: what the caller may see (the service chooses, by who asks)
            await self._hidden(interaction, found, chosen[-1].id)
            return
        res = await self.bot.service.results(found.id, chosen[-1].id)
        if res is None:
            raise _nothing(wanted, lang)
        phase_text = phase_name(res.phase, lang)
        head = t("event.results_head", lang, phase=phase_text, name=found.name, id=found.id)
        lines = [head, *notation_lines(res.outcome, lang, load_map(found.variant))]
        files = [discord.File(io.BytesIO(res.png), filename="map.png")] if res.png else []
        await self._files(interaction, lines, files)

    async def _hidden(self, interaction: discord.Interaction, game: GameStatus, pid: int) -> None:
        user = user_key(interaction.user)
        view = await self.bot.service.hidden_view(game.id, user, pid)
        lang = game.lang
        head = t(
            "event.results_head",
            lang,
            phase=phase_name(view.phase, lang),
            name=game.name,
            id=game.id,
        )
        files = [discord.File(io.BytesIO(view.png), filename="map.png")] if view.png else []
        await self._files(interaction, [head, *view.lines], files)

    @app_commands.command(name="replay", description="An animated map of the whole game (GIF)")
    @app_commands.describe(game="Game number (#)")
    @app_commands.guild_only()
    async def replay(self, interaction: discord.Interaction, game: int | None = None) -> None:
        found = await self._game(interaction, game)
        frames: list[Frame]
        sights: list[Sight] | None = None
        if found.hidden:  # Stab!: each phase as the caller may see it (the service chooses)
            try:
                seen = await self.bot.service.hidden_replay(found.id, user_key(interaction.user))
            except NotFoundError:
                raise Refusal(t("history.nothing_yet", found.lang)) from None
            frames, sights = list(seen.frames[-MAX_FRAMES:]), seen.sights[-MAX_FRAMES:]
        else:
            played = await phase_outcomes(self.bot.service, found.id)
            moves: list[Frame] = [
                (position, [r.order for r in outcome.results], list(outcome.results))
                for _, position, outcome in played
                if outcome.results
            ]
            if not moves:
                raise Refusal(t("history.nothing_yet", found.lang))
            frames = [*moves[-MAX_FRAMES:], played[-1][2].position]  # and the board after
        gif = await asyncio.to_thread(
            render_gif,
            frames,
            lang=found.lang,
            width=640,
            game_map=load_map(found.variant),
            sights=sights,
        )
        text = t("history.replay", found.lang, name=found.name, id=found.id)
        file = discord.File(io.BytesIO(gif), filename=f"parley-{found.id}.gif")
        await self._files(interaction, [text], [file])

    @app_commands.command(name="export", description="The game record (JSON) and a text report")
    @app_commands.describe(game="Game number (#)")
    @app_commands.guild_only()
    async def export(self, interaction: discord.Interaction, game: int | None = None) -> None:
        found = await self._game(interaction, game)
        if found.hidden:
            raise Refusal(t("history.hidden", found.lang))
        record = await game_record(self.bot.service, found.id)
        doc = json.dumps(record, ensure_ascii=False, indent=1).encode()
        report = report_text(record, locale_lang(interaction)).encode()
        files = [
            discord.File(io.BytesIO(doc), filename=f"parley-{found.id}.json"),
            discord.File(io.BytesIO(report), filename=f"parley-{found.id}.txt"),
        ]
        text = t("history.export", found.lang, name=found.name, id=found.id)
        await self._files(interaction, [text], files)

    @history.autocomplete("phase")
    async def _phases(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        game = interaction.namespace.game
        if game is None:
            here = await self.bot.games_at(interaction.channel_id or 0)
            game = max(here) if here else None
        if game is None:
            return []
        lang = locale_lang(interaction)
        typed = current.strip().lower()
        out = []
        for p in await self.bot.service.phases(int(game)):
            if p.status != "done":
                continue
            label = phase_name(p.phase, lang)
            if typed in label.lower() or typed in p.phase.lower():
                out.append(app_commands.Choice(name=label, value=p.phase))
        return out[-25:]

    @history.autocomplete("game")
    @replay.autocomplete("game")
    @export.autocomplete("game")
    async def _games(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        return await game_choices(self.bot, interaction, current)


def _nothing(wanted: str | None, lang: str) -> Refusal:
    """No adjudicated phase: the one asked for, or (no phase asked) none at all yet."""
    if wanted is None:
        return Refusal(t("history.nothing_yet", lang))
    return Refusal(t("history.none", lang, phase=phase_name(wanted, lang)))
