"""The casual cog (`cog.py`): a thin adapter from its slash commands to the service;
the package holds only `setup()`."""

from bot.discord_app.bot import DiscordBot

# Issue 33: what this package's modules may import besides each other (tests/test_rooms.py).
MAY_IMPORT = (
    "bot.core",
    "bot.discord_app",
    "bot.service",
    "cogs.orders",
)


async def setup(bot: DiscordBot) -> None:
    from cogs.casual.absence import AbsenceCog  # noqa: PLC0415 - the package holds setup()
    from cogs.casual.cog import PressCog  # noqa: PLC0415

    await bot.add_cog(PressCog(bot))
    await bot.add_cog(AbsenceCog(bot))
