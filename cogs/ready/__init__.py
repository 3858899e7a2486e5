"""The ready cog (`cog.py`): a thin adapter from its slash commands to the service;
the package holds only `setup()`."""

from bot.discord_app.bot import DiscordBot

# Issue 33: what this package's modules may import besides each other (tests/test_rooms.py).
MAY_IMPORT = (
    "bot.discord_app",
    "bot.i18n",
)


async def setup(bot: DiscordBot) -> None:
    from cogs.ready.cog import ReadyCog  # noqa: PLC0415 - the package only holds setup()

    await bot.add_cog(ReadyCog(bot))
