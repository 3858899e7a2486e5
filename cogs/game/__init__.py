from bot.client import ParleyBot


async def setup(bot: ParleyBot) -> None:
    from cogs.game.cog import GameCog  # noqa: PLC0415 - the package only holds setup()

    await bot.add_cog(GameCog(bot))
