"""The tournament cog (`cog.py`): a thin adapter from its slash commands to the service;
the package holds only `setup()`."""

from bot.discord_app.bot import DiscordBot

# Issue 33: what this package's modules may import besides each other (tests/test_rooms.py).
MAY_IMPORT = (
    "bot.core",
    "bot.discord_app",
    "bot.service",
    "renderer",
)


async def setup(bot: DiscordBot) -> None:
    from cogs.tournament.cog import TournamentCog  # noqa: PLC0415 - the package only holds setup()

    await bot.add_cog(TournamentCog(bot))
