from bot.client import ParleyBot


async def setup(bot: ParleyBot) -> None:
    from cogs.orders.cog import OrdersCog  # noqa: PLC0415 - the package only holds setup()

    await bot.add_cog(OrdersCog(bot))
