from bot.discord_app.bot import DiscordBot


async def setup(bot: DiscordBot) -> None:
    from cogs.board.cog import BoardCog  # noqa: PLC0415 - the package only holds setup()

    await bot.add_cog(BoardCog(bot))
