"""/vote draw|concede|ballot|refuse: end-game votes with secret ballots (buttons)."""

from __future__ import annotations

import asyncio
import logging
import re

import discord
from discord import app_commands
from discord.ext import commands

from bot.core.ending.votes import VoteRecord
from bot.core.map import load_map
from bot.core.model import Power
from bot.discord_app.app import Parley
from bot.discord_app.ballots import ballot_view
from bot.discord_app.format import power_name
from bot.discord_app.interactions import (
    RUNNING,
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
from bot.service import GameStatus

log = logging.getLogger("parley.discord")


def parse_powers(text: str | None, game: GameStatus) -> list[Power]:
    """`France, Germany` or `FRANCE GERMANY` (any language of the game's variant) -> powers;
    empty: all."""
    out: list[Power] = []
    for word in re.split(r"[,;\s]+", text or ""):
        power = parse_power(word, game.lang, game.variant)
        if power is not None and power not in out:
            out.append(power)
    return out


@app_commands.guild_only()
class VoteCog(commands.GroupCog, group_name="vote", description="End-game votes: draw, concede"):
    def __init__(self, bot: Parley) -> None:
        self.bot = bot
        super().__init__()

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        return await guild_only_check(interaction)

    async def _propose(
        self,
        interaction: discord.Interaction,
        game: int | None,
        kind: str,
        text: str,
    ) -> None:
        found = await resolve_game(self.bot, interaction, game, states=RUNNING)
        powers = parse_powers(text, found)
        if kind == "concede":
            powers = powers[:1]
        await think(interaction)
        record = await self.bot.service.propose_vote(
            found.id, user_key(interaction.user), kind, powers
        )
        await self._ballot(interaction, found, record)
        if record.get("status") == "open":
            await self._dm_ballots(found, record, proposer=user_key(interaction.user))

    async def _dm_ballots(self, game: GameStatus, record: VoteRecord, proposer: str) -> None:
        """Each other player gets their ballot by DM. The text never names the proposer
        (edc-2023 E, house-rules IX(4)); a closed DM is only logged, since a note at the table
        naming those not reached would hint at who proposed, and the table's buttons remain."""
        vote_id = int(str(record["id"]))
        powers = record.get("powers")
        listed = powers if isinstance(powers, list) else []
        names = ", ".join(power_name(str(p), game.lang, game.variant) for p in listed)
        what = t(f"vote.what_{record.get('kind')}", game.lang, powers=names)
        text = t("vote.dm_open", game.lang, name=game.name, game=game.id, id=vote_id, what=what)
        users = [u for u in dict.fromkeys(game.players.values()) if u != proposer]
        key = f"{game.id}:vote:{vote_id}:ballot"

        async def one(user: str) -> None:
            view = ballot_view(game.id, vote_id, game.rules, game.lang)
            try:
                if not await self.bot.notifier.dm(user, text, key, view=view):
                    log.info("vote %s of game %s: DMs of %s closed", vote_id, game.id, user)
            except discord.HTTPException as exc:  # the table's buttons still work
                log.warning("vote %s: no ballot DM to %s: %s", vote_id, user, exc)

        await asyncio.gather(*(one(u) for u in users))

    async def _ballot(
        self, interaction: discord.Interaction, game: GameStatus, record: VoteRecord
    ) -> None:
        """The secret ballot, ephemeral: only the player sees the buttons and their answer."""
        vote_id = int(str(record["id"]))
        text = t("vote.ballot", game.lang, id=vote_id)
        if record.get("status") != "open":  # decided at once (edc2023 unanimity of one)
            await send(interaction, [t("vote.decided", game.lang, id=vote_id)])
            return
        view = ballot_view(game.id, vote_id, game.rules, game.lang)
        await interaction.followup.send(
            text, view=view, ephemeral=True, allowed_mentions=discord.AllowedMentions.none()
        )

    @app_commands.command(name="draw", description="Propose a draw")
    @app_commands.describe(
        powers="The powers in the draw (default: every survivor)", game="Game number (#)"
    )
    async def draw(
        self, interaction: discord.Interaction, powers: str = "", game: int | None = None
    ) -> None:
        await self._propose(interaction, game, "draw", powers)

    @app_commands.command(name="concede", description="Propose to concede the game to a power")
    @app_commands.describe(power="The power the game is conceded to", game="Game number (#)")
    async def concede(
        self, interaction: discord.Interaction, power: str, game: int | None = None
    ) -> None:
        await self._propose(interaction, game, "concede", power)

    @app_commands.command(name="ballot", description="Show your secret ballot for the open vote")
    @app_commands.describe(game="Game number (#)")
    async def ballot(self, interaction: discord.Interaction, game: int | None = None) -> None:
        found = await resolve_game(self.bot, interaction, game, states=RUNNING)
        await think(interaction)
        open_votes = [v for v in await self.bot.service.votes(found.id) if v["status"] == "open"]
        if not open_votes:
            raise Refusal(t("vote.none_open", found.lang))
        await self._ballot(interaction, found, open_votes[-1])

    @app_commands.command(name="refuse", description="GM: refuse a repetitive proposal")
    @app_commands.describe(vote="Vote number", reason="Why", game="Game number (#)")
    async def refuse(
        self,
        interaction: discord.Interaction,
        vote: int,
        reason: str = "",
        game: int | None = None,
    ) -> None:
        found = await resolve_game(self.bot, interaction, game, states=RUNNING)
        require_gm(found, interaction)
        await think(interaction)
        await self.bot.service.refuse_vote(
            found.id, user_key(interaction.user), vote, reason or "repetitive proposal"
        )
        await send(interaction, [t("vote.refused", found.lang, id=vote)])

    @concede.autocomplete("power")
    async def _powers(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        game_id = getattr(interaction.namespace, "game", None)
        try:
            found = await resolve_game(self.bot, interaction, game_id, states=RUNNING)
        except Exception:  # noqa: BLE001 - autocomplete must answer, even with nothing found
            return []
        return power_choices(
            load_map(found.variant).powers, current, locale_lang(interaction), found.variant
        )

    @draw.autocomplete("game")
    @concede.autocomplete("game")
    @ballot.autocomplete("game")
    @refuse.autocomplete("game")
    async def _games(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        return await game_choices(self.bot, interaction, current)
