"""Secret ballot buttons for end-game votes, working across restarts.

A button's `custom_id` carries everything (`parley:vote:<game>:<vote>:<choice>`), and
`VoteButton` is a discord.py `DynamicItem` registered once at start-up
(`bot.add_dynamic_items`, in cogs/vote), so a click on a button posted before a restart
still reaches the service. The answer to a click is ephemeral: only the voter sees it, and the
table only ever reads the result (`bot.core.ending.votes.announce`).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Self

import discord

from bot.core.ending.votes import policy_for_rules
from bot.core.presets import load_rules
from bot.discord_app.interactions import describe_refusal, send, think, user_key
from bot.i18n import t

if TYPE_CHECKING:
    from bot.discord_app.app import Parley

CHOICES = ("yes", "no", "abstain")
STYLES = {
    "yes": discord.ButtonStyle.success,
    "no": discord.ButtonStyle.danger,
    "abstain": discord.ButtonStyle.secondary,
}


class VoteButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"parley:vote:(?P<game>[0-9]+):(?P<vote>[0-9]+):(?P<choice>yes|no|abstain)",
):
    def __init__(self, game_id: int, vote_id: int, choice: str, lang: str = "en") -> None:
        self.game_id = game_id
        self.vote_id = vote_id
        self.choice = choice
        super().__init__(
            discord.ui.Button(
                label=t(f"vote.{choice}", lang),
                style=STYLES[choice],
                custom_id=f"parley:vote:{game_id}:{vote_id}:{choice}",
            )
        )

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],  # noqa: ARG003 - the id says it all
        item: discord.ui.Item[Any],  # noqa: ARG003
        match: re.Match[str],
        /,
    ) -> Self:
        return cls(int(match["game"]), int(match["vote"]), match["choice"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        bot: Parley = interaction.client
        await think(interaction)  # a last ballot ends the game: standings and chart follow
        try:
            game = await bot.service.status(self.game_id)
            await bot.service.cast_ballot(
                self.game_id, user_key(interaction.user), self.vote_id, self.choice
            )
        except Exception as exc:
            refusal = describe_refusal(exc)
            if refusal is None:
                raise
            await send(interaction, [refusal])
            return
        choice = t(f"vote.{self.choice}", game.lang)
        await send(interaction, [t("vote.cast", game.lang, choice=choice, id=self.vote_id)])


def ballot_view(game_id: int, vote_id: int, rules: str, lang: str) -> discord.ui.View:
    """Yes / No (/ Abstain where the rule set allows it, house-rules IX) for one vote."""
    view = discord.ui.View(timeout=None)
    abstain = policy_for_rules(load_rules(rules)).abstentions
    for choice in CHOICES:
        if choice != "abstain" or abstain:
            view.add_item(VoteButton(game_id, vote_id, choice, lang))
    return view
