"""The orders cog (`cog.py`): a thin adapter from its slash commands to the service;
the package holds only `setup()`."""

from bot.discord_app.bot import DiscordBot

# Issue 33: what this package's modules may import besides each other (tests/test_rooms.py).
MAY_IMPORT = (
    "bot.discord_app",
    "bot.i18n",
    "bot.service",
)


async def setup(bot: DiscordBot) -> None:
    from bot.discord_app.builder import Pick, Press  # noqa: PLC0415
    from cogs.orders.cog import GamePicker, OrdersCog  # noqa: PLC0415 - only setup() here

    await bot.add_cog(OrdersCog(bot))
    bot.add_dynamic_items(GamePicker)  # a game menu sent before a restart still works
    bot.add_dynamic_items(Pick, Press)  # the order builder too (issue 30)
