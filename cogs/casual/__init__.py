from bot.discord_app.bot import DiscordBot


async def setup(bot: DiscordBot) -> None:
    from cogs.casual.cog import PressCog  # noqa: PLC0415 - the package only holds setup()

    await bot.add_cog(PressCog(bot))
