"""The vote cog (`cog.py`): a thin adapter from its slash commands to the service;
the package holds only `setup()`."""

from bot.discord_app.bot import DiscordBot

# Issue 33: what this package's modules may import besides each other (tests/test_rooms.py).
MAY_IMPORT = (
    "bot.core",
    "bot.discord_app",
    "bot.i18n",
    "bot.service",
)


async def setup(bot: DiscordBot) -> None:
    from bot.discord_app.ballots import VoteButton  # noqa: PLC0415 - the package only holds setup()
    from cogs.vote.cog import VoteCog  # noqa: PLC0415

    bot.add_dynamic_items(VoteButton)  # ballot buttons posted before a restart still work
    await bot.add_cog(VoteCog(bot))
