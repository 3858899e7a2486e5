from bot.client import ParleyBot


async def setup(bot: ParleyBot) -> None:
    from cogs.history.cog import HistoryCog  # noqa: PLC0415 - the package only holds setup()

    await bot.add_cog(HistoryCog(bot))
