from bot.client import ParleyBot


async def setup(bot: ParleyBot) -> None:
    from cogs.ready.cog import ReadyCog  # noqa: PLC0415 - the package only holds setup()

    await bot.add_cog(ReadyCog(bot))
