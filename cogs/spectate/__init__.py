from bot.client import ParleyBot


async def setup(bot: ParleyBot) -> None:
    from cogs.spectate.cog import SpectateCog  # noqa: PLC0415 - the package only holds setup()

    await bot.add_cog(SpectateCog(bot))
