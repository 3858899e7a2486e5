from bot.client import ParleyBot


async def setup(bot: ParleyBot) -> None:
    from cogs.gm.cog import GmCog  # noqa: PLC0415 - the package only holds setup()

    await bot.add_cog(GmCog(bot))
