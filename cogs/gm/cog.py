"""/gm ...: the game master's and tournament director's operations, for the game's GM only."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.core.map import load_map
from bot.discord_app.app import Parley
from bot.discord_app.format import mention, phase_name, power_name, stamp, submit_reply_lines
from bot.discord_app.interactions import (
    RUNNING,
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
from bot.service import GameStatus


@app_commands.guild_only()
class GmCog(
    commands.GroupCog, group_name="gm", description="Game master and tournament director tools"
):
    def __init__(self, bot: Parley) -> None:
        self.bot = bot
        super().__init__()

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        return await guild_only_check(interaction)

    async def _gm_game(
        self, interaction: discord.Interaction, game: int | None, states: tuple[str, ...] = RUNNING
    ) -> GameStatus:
        """The game, once the caller is known to be its GM (refused and logged otherwise)."""
        found = await resolve_game(self.bot, interaction, game, states=states)
        require_gm(found, interaction)
        await think(interaction)
        return found

    @app_commands.command(name="pause", description="Pause the clock")
    @app_commands.describe(game="Game number (#)")
    async def pause(self, interaction: discord.Interaction, game: int | None = None) -> None:
        found = await self._gm_game(interaction, game)
        await self.bot.service.pause(found.id, user_key(interaction.user))
        await send(interaction, [t("gm.paused", found.lang)])

    @app_commands.command(name="resume", description="Resume the clock")
    @app_commands.describe(game="Game number (#)")
    async def resume(self, interaction: discord.Interaction, game: int | None = None) -> None:
        found = await self._gm_game(interaction, game)
        await self.bot.service.resume(found.id, user_key(interaction.user))
        await send(interaction, [t("gm.resumed", found.lang)])

    @app_commands.command(name="extend", description="Give more time before the deadline")
    @app_commands.describe(minutes="Minutes to add", game="Game number (#)")
    async def extend(
        self,
        interaction: discord.Interaction,
        minutes: app_commands.Range[float, 0.1, 10080.0],
        game: int | None = None,
    ) -> None:
        found = await self._gm_game(interaction, game)
        deadline = await self.bot.service.extend(found.id, user_key(interaction.user), minutes * 60)
        await send(interaction, [t("gm.extended", found.lang, deadline=stamp(deadline))])

    @app_commands.command(name="deadline", description="Set a new deadline, earlier or later")
    @app_commands.describe(minutes="Minutes from now", game="Game number (#)")
    async def deadline(
        self,
        interaction: discord.Interaction,
        minutes: app_commands.Range[float, 0.5, 20160.0],
        game: int | None = None,
    ) -> None:
        found = await self._gm_game(interaction, game)
        at = self.bot.service.clock.now() + minutes * 60
        new = await self.bot.service.set_deadline(found.id, user_key(interaction.user), at)
        await send(interaction, [t("gm.extended", found.lang, deadline=stamp(new))])

    @app_commands.command(
        name="edit", description="Correct the board: remove or place a unit, set a centre's owner"
    )
    @app_commands.describe(
        change="remove A PAR, place F BRE France, centre BEL Germany (or none)",
        game="Game number (#)",
    )
    async def edit(
        self, interaction: discord.Interaction, change: str, game: int | None = None
    ) -> None:
        found = await self._gm_game(interaction, game)
        await self.bot.service.edit_board(found.id, user_key(interaction.user), change)
        await send(interaction, [t("gm.edited", found.lang, edit=" ".join(change.split()))])

    @app_commands.command(
        name="abbreviations", description="A player's own abbreviations, agreed with the GM"
    )
    @app_commands.describe(
        power="Power", entries="wmed = WES; lon2 = LON (empty: none)", game="Game number (#)"
    )
    async def abbreviations(
        self,
        interaction: discord.Interaction,
        power: str,
        entries: str = "",
        game: int | None = None,
    ) -> None:
        found = await self._gm_game(interaction, game, ("forming", *RUNNING))
        chosen = parse_power(power, found.lang, found.variant)
        assert chosen is not None
        agreed = await self.bot.service.set_abbreviations(
            found.id, user_key(interaction.user), chosen, entries
        )
        listed = ", ".join(f"`{a}` = {loc}" for a, loc in sorted(agreed.items())) or "—"
        name = power_name(chosen, found.lang, found.variant)
        await send(interaction, [t("gm.abbreviations_set", found.lang, power=name, list=listed)])

    @app_commands.command(name="draw", description="Declare a draw of all survivors")
    @app_commands.describe(game="Game number (#)")
    async def draw(self, interaction: discord.Interaction, game: int | None = None) -> None:
        found = await self._gm_game(interaction, game)
        powers = await self.bot.service.declare_draw(found.id, user_key(interaction.user))
        names = ", ".join(power_name(p, found.lang, found.variant) for p in powers)
        await send(interaction, [t("gm.drawn", found.lang, powers=names)])

    @app_commands.command(name="missed", description="Missed orders (NMR) per player")
    @app_commands.describe(game="Game number (#)")
    async def missed(self, interaction: discord.Interaction, game: int | None = None) -> None:
        found = await self._gm_game(interaction, game, ("forming", *RUNNING, "over"))
        rows = await self.bot.service.missed_orders(found.id, user_key(interaction.user))
        lines = [
            t(
                "gm.missed_line",
                found.lang,
                power=power_name(m.power, found.lang, found.variant),
                user=mention(m.user),
                n=m.count,
                phases=", ".join(phase_name(p, found.lang) for p in m.phases),
            )
            for m in rows
        ]
        await send(interaction, lines or [t("gm.missed_none", found.lang)])

    @app_commands.command(name="adjudicate", description="Adjudicate the phase now")
    @app_commands.describe(game="Game number (#)")
    async def adjudicate(self, interaction: discord.Interaction, game: int | None = None) -> None:
        found = await self._gm_game(interaction, game)
        # Acknowledged before the work: the results are posted while the service adjudicates.
        await send(interaction, [t("gm.adjudicated", found.lang)])
        await self.bot.service.adjudicate_now(found.id, user_key(interaction.user))

    @app_commands.command(name="rollback", description="Roll back one phase")
    @app_commands.describe(game="Game number (#)")
    async def rollback(self, interaction: discord.Interaction, game: int | None = None) -> None:
        found = await self._gm_game(interaction, game)
        phase = await self.bot.service.rollback(found.id, user_key(interaction.user))
        await send(
            interaction, [t("gm.rolled_back", found.lang, phase=phase_name(phase, found.lang))]
        )

    @app_commands.command(name="replace", description="Give a power to another player")
    @app_commands.describe(power="Power", user="The new player", game="Game number (#)")
    async def replace(
        self,
        interaction: discord.Interaction,
        power: str,
        user: discord.User,
        game: int | None = None,
    ) -> None:
        found = await self._gm_game(interaction, game, ("forming", *RUNNING))
        chosen = parse_power(power, found.lang, found.variant)
        assert chosen is not None
        await self.bot.service.replace_player(
            found.id, user_key(interaction.user), chosen, user_key(user)
        )
        text = t(
            "gm.replaced",
            found.lang,
            power=power_name(chosen, found.lang, found.variant),
            user=mention(user.id),
        )
        await send(interaction, [text])

    @app_commands.command(
        name="enter", description="Enter a power's orders (paper orders at a table)"
    )
    @app_commands.describe(
        power="Power", text="Orders, e.g. A PAR - BUR; F BRE - MAO", game="Game number (#)"
    )
    async def enter(
        self, interaction: discord.Interaction, power: str, text: str, game: int | None = None
    ) -> None:
        found = await self._gm_game(interaction, game)
        chosen = parse_power(power, found.lang, found.variant)
        assert chosen is not None
        reply = await self.bot.service.submit_for(
            found.id, user_key(interaction.user), chosen, text
        )
        head = t("gm.entered", found.lang, power=power_name(chosen, found.lang, found.variant))
        await send(interaction, [head, *submit_reply_lines(reply, found.lang)])

    @app_commands.command(name="end", description="End the game")
    @app_commands.describe(reason="Why the game ends", game="Game number (#)")
    async def end(
        self, interaction: discord.Interaction, reason: str = "", game: int | None = None
    ) -> None:
        found = await self._gm_game(interaction, game, ("forming", *RUNNING))
        await self.bot.service.end_game(
            found.id, user_key(interaction.user), reason or "ended by the GM"
        )
        await send(interaction, [t("gm.ended", found.lang)])

    @replace.autocomplete("power")
    @enter.autocomplete("power")
    @abbreviations.autocomplete("power")
    async def _powers(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        game_id = getattr(interaction.namespace, "game", None)
        try:
            found = await resolve_game(self.bot, interaction, game_id, states=("forming", *RUNNING))
        except Exception:  # noqa: BLE001 - autocomplete must answer, even with nothing found
            return []
        return power_choices(
            load_map(found.variant).powers, current, locale_lang(interaction), found.variant
        )

    @pause.autocomplete("game")
    @resume.autocomplete("game")
    @extend.autocomplete("game")
    @deadline.autocomplete("game")
    @draw.autocomplete("game")
    @abbreviations.autocomplete("game")
    @edit.autocomplete("game")
    @missed.autocomplete("game")
    @adjudicate.autocomplete("game")
    @rollback.autocomplete("game")
    @replace.autocomplete("game")
    @enter.autocomplete("game")
    @end.autocomplete("game")
    async def _games(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        return await game_choices(self.bot, interaction, current)
